/* DCFG counts partials (tracekit/dcfg_counts.h): two runs of one program summed thread by
 * thread whatever the ids and row order of their files, every grouping of a merge giving the
 * same bytes, the bytes read back, the union of runs that took other paths (a block of one
 * cut in two by the other, a block of each alone) with its counts, routines and loops, blocks
 * that truly conflict refused with both places, a sum over 64 bits refused
 * (tests/data/dcfg/merge/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

#define DIR "tests/data/dcfg/merge/"

static tk_dcfg_counts *counts_of(const char *path, tk_cfg **keep)
{
    tk_error err;
    tk_error_clear(&err);
    tk_cfg *cfg = NULL;
    tk_dcfg_counts *c = NULL;
    if (!TK_CHECK(tk_dcfg_read_path(&cfg, path, NULL, &err) == TK_OK)) return NULL;
    TK_CHECK(tk_dcfg_counts_open(&c, cfg, path, &err) == TK_OK);
    if (keep)
        *keep = cfg;
    else
        tk_cfg_free(cfg);
    return c;
}

/* c's bytes (tk_free), *n of them. */
static uint8_t *bytes_of(const tk_dcfg_counts *c, size_t *n)
{
    uint8_t *b = NULL;
    *n = 0;
    TK_CHECK(tk_dcfg_counts_serialize(c, &b, n, NULL) == TK_OK);
    return b;
}

static int same_bytes(const tk_dcfg_counts *x, const tk_dcfg_counts *y)
{
    size_t nx, ny;
    uint8_t *bx = bytes_of(x, &nx), *by = bytes_of(y, &ny);
    int same = bx && by && nx == ny && memcmp(bx, by, nx) == 0;
    tk_free(bx);
    tk_free(by);
    return same;
}

/* cfg as tk_dcfg_write writes it (malloc'd). */
static tk_status write_dcfg(const void *cfg, const tk_writer *w, tk_error *err)
{
    return tk_dcfg_write(cfg, w, err);
}

/* hello-run1 (one thread, the loop 9 times) + hello-run2 (other ids, rows, load address and
 * pid; two threads, 4 and 2 times; no INSTR_COUNT) */
static void test_two_runs(void)
{
    tk_cfg *cfg = NULL;
    tk_dcfg_counts *a = counts_of(DIR "hello-run1.dcfg.json", &cfg);
    tk_dcfg_counts *b = counts_of(DIR "hello-run2.dcfg.json", NULL);
    if (!a || !b || !cfg) return;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_dcfg_counts_merge(a, b, &err) == TK_OK);
    TK_CHECK(tk_dcfg_counts_apply(cfg, a, &err) == TK_OK);
    const tk_cfg_process *p = tk_cfg_process_at(cfg, 0);
    tk_cfg_process_info pi;
    tk_cfg_process_get(cfg, p, &pi);
    TK_CHECK_EQ_U64(pi.pid, 13723);
    TK_CHECK_EQ_U64(pi.nthreads, 2);
    TK_CHECK(!pi.has_file_instr_count); /* run2 has none */
    TK_CHECK_EQ_U64(pi.n_file_instr_count_per_thread, 2);
    TK_CHECK_EQ_U64(pi.file_instr_count_per_thread[0], 43 + 23);
    TK_CHECK_EQ_U64(pi.file_instr_count_per_thread[1], 15);
    static const uint64_t blocks[][2] = {{4, 3}, {5, 18}, {6, 15}, {7, 3}};
    for (int k = 0; k < 4; k++)
        TK_CHECK_EQ_U64(tk_cfg_block_count(p, tk_cfg_find_block(p, (uint32_t)blocks[k][0])),
                        blocks[k][1]);
    uint32_t e = tk_cfg_find_edge(p, 12); /* 5 -> 6 */
    TK_CHECK_EQ_U64(tk_cfg_edge_count_thread(p, e, 0), 9 + 4);
    TK_CHECK_EQ_U64(tk_cfg_edge_count_thread(p, e, 1), 2);
    TK_CHECK_EQ_U64(tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}), 43 + 38);
    /* tk_dcfg_counts_merged on the first's graph: the first with the counts applied, written
     * as this one */
    tk_cfg *first = NULL, *merged = NULL;
    TK_CHECK(tk_dcfg_read_path(&first, DIR "hello-run1.dcfg.json", NULL, &err) == TK_OK);
    TK_CHECK(tk_dcfg_counts_merged(first, a, &merged, &err) == TK_OK && merged == first);
    char *x = tk_test_text_of(write_dcfg, cfg), *y = tk_test_text_of(write_dcfg, first);
    TK_CHECK(x && y && strcmp(x, y) == 0);
    free(x);
    free(y);
    tk_cfg_free(first);
    tk_dcfg_counts_free(a);
    tk_dcfg_counts_free(b);
    tk_cfg_free(cfg);
}

/* ((1 + 2) + 1) + 2 and 1 + (2 + (1 + 2)) and (1 + 2) + (1 + 2): the same bytes */
static void test_groupings(void)
{
    const char *f[2] = {DIR "hello-run1.dcfg.json", DIR "hello-run2.dcfg.json"};
    tk_dcfg_counts *x[4], *y[4];
    for (int k = 0; k < 4; k++) {
        x[k] = counts_of(f[k % 2], NULL);
        y[k] = counts_of(f[k % 2], NULL);
        if (!x[k] || !y[k]) return;
    }
    for (int k = 1; k < 4; k++) TK_CHECK(tk_dcfg_counts_merge(x[0], x[k], NULL) == TK_OK);
    TK_CHECK(tk_dcfg_counts_merge(y[2], y[3], NULL) == TK_OK);
    TK_CHECK(tk_dcfg_counts_merge(y[1], y[2], NULL) == TK_OK);
    TK_CHECK(tk_dcfg_counts_merge(y[0], y[1], NULL) == TK_OK);
    TK_CHECK(same_bytes(x[0], y[0]));
    tk_dcfg_counts *p = counts_of(f[0], NULL), *q = counts_of(f[0], NULL);
    tk_dcfg_counts *r = counts_of(f[1], NULL), *s = counts_of(f[1], NULL);
    TK_CHECK(tk_dcfg_counts_merge(p, r, NULL) == TK_OK &&
             tk_dcfg_counts_merge(q, s, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_counts_merge(p, q, NULL) == TK_OK);
    TK_CHECK(same_bytes(x[0], p));
    /* the bytes read back write themselves */
    size_t n;
    uint8_t *b = bytes_of(x[0], &n);
    tk_dcfg_counts *back = NULL;
    TK_CHECK(tk_dcfg_counts_deserialize(&back, b, n, NULL) == TK_OK);
    TK_CHECK(back && same_bytes(x[0], back));
    /* cut anywhere, or with a number not in its shortest form: refused */
    tk_error err;
    for (size_t cut = 0; cut < n; cut++) {
        tk_dcfg_counts *bad = NULL;
        TK_CHECK(tk_dcfg_counts_deserialize(&bad, b, cut, &err) == TK_ERR_FORMAT);
    }
    uint8_t *longer = malloc(n + 1);
    memcpy(longer, b, 6); /* magic, then the number of paths (< 128) as two bytes */
    longer[5] |= 0x80;
    longer[6] = 0;
    memcpy(longer + 7, b + 6, n - 6);
    tk_dcfg_counts *bad = NULL;
    TK_CHECK(tk_dcfg_counts_deserialize(&bad, longer, n + 1, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "shortest") != NULL);
    free(longer);
    tk_free(b);
    tk_dcfg_counts_free(back);
    for (int k = 0; k < 4; k++) {
        tk_dcfg_counts_free(x[k]);
        tk_dcfg_counts_free(y[k]);
    }
    tk_dcfg_counts_free(p);
    tk_dcfg_counts_free(q);
    tk_dcfg_counts_free(r);
    tk_dcfg_counts_free(s);
}

/* The merged DCFG of files f[0..n) (merged with tk_dcfg_counts_merged on the first's graph). */
static tk_cfg *merged_of(const char *const *f, int n, tk_cfg **first, tk_error *err)
{
    tk_dcfg_counts *acc = counts_of(f[0], first);
    for (int k = 1; acc && k < n; k++) {
        tk_dcfg_counts *c = counts_of(f[k], NULL);
        TK_CHECK(c && tk_dcfg_counts_merge(acc, c, err) == TK_OK);
        tk_dcfg_counts_free(c);
    }
    tk_cfg *out = NULL;
    if (acc && tk_dcfg_counts_merged(*first, acc, &out, err) != TK_OK) out = NULL;
    tk_dcfg_counts_free(acc);
    return out;
}

/* the block of p at image offset off, its count */
static uint64_t count_at(const tk_cfg_process *p, uint64_t off)
{
    uint32_t b = TK_CFG_NONE;
    TK_CHECK(tk_cfg_blocks_at(p, 0x400000 + off, &b, 1) == 1);
    return b == TK_CFG_NONE ? 0 : tk_cfg_block_count(p, b);
}

static uint32_t block_at(const tk_cfg_process *p, uint64_t off)
{
    uint32_t b = TK_CFG_NONE;
    tk_cfg_blocks_at(p, 0x400000 + off, &b, 1);
    return b;
}

/* hello-run1 + hello-split (the loop entered at 0xb35: run1's block at 0xb31 is two blocks
 * there; a block at 0xb47 that run1 lacks, run1's at 0xb42 that it lacks) */
static void test_union(void)
{
    const char *f[2] = {DIR "hello-run1.dcfg.json", DIR "hello-split.dcfg.json"};
    tk_error err;
    tk_error_clear(&err);
    tk_cfg *first = NULL, *u = merged_of(f, 2, &first, &err);
    if (!TK_CHECK(u != NULL && u != first)) {
        tk_cfg_free(first);
        return;
    }
    const tk_cfg_process *p = tk_cfg_process_at(u, 0);
    tk_cfg_process_info pi;
    tk_cfg_process_get(u, p, &pi);
    TK_CHECK_EQ_U64(pi.pid, 13723);
    TK_CHECK_EQ_U64(pi.nblocks, 6);
    static const uint64_t counts[][2] = {{0xb28, 2},  {0xb31, 11}, {0xb35, 13},
                                         {0xb3d, 11}, {0xb42, 1},  {0xb47, 1}};
    for (int k = 0; k < 6; k++) TK_CHECK_EQ_U64(count_at(p, counts[k][0]), counts[k][1]);
    /* the pieces of run1's block: its 10 runs and split's 1 fall through from one to the other */
    uint32_t e = tk_cfg_find_edge_between(p, block_at(p, 0xb31), block_at(p, 0xb35));
    TK_CHECK(e != TK_CFG_NONE && tk_cfg_edge_count(p, e) == 11);
    e = tk_cfg_find_edge_between(p, block_at(p, 0xb3d), block_at(p, 0xb31)); /* run1's back edge */
    TK_CHECK(e != TK_CFG_NONE && tk_cfg_edge_count(p, e) == 9);
    e = tk_cfg_find_edge_between(p, block_at(p, 0xb3d), block_at(p, 0xb35)); /* split's */
    TK_CHECK(e != TK_CFG_NONE && tk_cfg_edge_count(p, e) == 2);
    TK_CHECK_EQ_U64(tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}), 43 + 12);
    TK_CHECK_EQ_U64(pi.nroutines, 1);
    TK_CHECK_EQ_U64(pi.nloops, 2); /* two heads: 0xb31 (run1's) and, inside it, 0xb35 */
    tk_diag d;
    tk_diag_init(&d, NULL, NULL);
    TK_CHECK(tk_dcfg_check(u, "union", &d, &err) == TK_OK && d.errors == 0);
    /* the other order, and every grouping: the same DCFG but for the first's pid and address */
    const char *g[4] = {f[1], f[0], f[1], f[0]};
    tk_cfg *first2 = NULL, *v = merged_of(g, 4, &first2, &err);
    TK_CHECK(v != NULL && tk_cfg_process_at(v, 0) != NULL);
    if (v) {
        const tk_cfg_process *q = tk_cfg_process_at(v, 0);
        TK_CHECK_EQ_U64(tk_cfg_scope_instr_count(q, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}),
                        2 * (43 + 12));
    }
    tk_cfg_free(v);
    tk_cfg_free(first2);
    tk_cfg_free(u);
    tk_cfg_free(first);
}

/* hello-late entered run1's block at 0xb31 (3 instructions) at 0xb39, its block there of 2:
 * the piece before, in no input, is the third instruction, the last of run1's block the last
 * of hello-late's; hello-late-bad's last instruction is elsewhere: refused */
static void test_found_piece(void)
{
    const char *f[2] = {DIR "hello-run1.dcfg.json", DIR "hello-late.dcfg.json"};
    tk_error err;
    tk_error_clear(&err);
    tk_cfg *first = NULL, *u = merged_of(f, 2, &first, &err);
    if (TK_CHECK(u != NULL)) {
        const tk_cfg_process *p = tk_cfg_process_at(u, 0);
        TK_CHECK_EQ_U64(count_at(p, 0xb31), 10);
        TK_CHECK_EQ_U64(count_at(p, 0xb39), 11);
        tk_cfg_block_info b;
        tk_cfg_block_get(p, block_at(p, 0xb31), &b);
        TK_CHECK_EQ_U64(b.num_instrs, 1);
        TK_CHECK_EQ_U64(b.size, 8);
        tk_diag d;
        tk_diag_init(&d, NULL, NULL);
        TK_CHECK(tk_dcfg_check(u, "union", &d, &err) == TK_OK && d.errors == 0);
    }
    tk_cfg_free(u);
    tk_cfg_free(first);
    f[1] = DIR "hello-late-bad.dcfg.json";
    first = NULL;
    TK_CHECK(merged_of(f, 2, &first, &err) == NULL && err.code == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "do not cut into pieces of the same instructions") != NULL);
    tk_cfg_free(first);
}

/* a block one byte further and shorter than another's: the union refused, both named */
static void test_conflict(void)
{
    const char *f[3] = {DIR "hello-run1.dcfg.json", DIR "hello-run2.dcfg.json",
                        DIR "hello-other.dcfg.json"};
    tk_error err;
    tk_error_clear(&err);
    tk_cfg *first = NULL;
    TK_CHECK(merged_of(f, 3, &first, &err) == NULL);
    TK_CHECK(err.code == TK_ERR_FORMAT);
    TK_CHECK(strcmp(err.path, DIR "hello-other.dcfg.json") == 0);
    TK_CHECK(strstr(err.message, "block 22 (/usr/joe/hello + 0xb3e, 1 instruction) overlaps") !=
             NULL);
    TK_CHECK(strstr(err.message, "block 6 (/usr/joe/hello + 0xb3d, 1 instruction) of " DIR
                                 "hello-run1.dcfg.json") != NULL);
    tk_cfg_free(first);
}

/* 2^63 + 2^63 */
static void test_overflow(void)
{
    tk_dcfg_counts *a = counts_of(DIR "big-counts.dcfg.json", NULL);
    tk_dcfg_counts *b = counts_of(DIR "big-counts.dcfg.json", NULL);
    tk_dcfg_counts *c = counts_of(DIR "big-counts.dcfg.json", NULL);
    if (!a || !b || !c) return;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_dcfg_counts_merge(a, b, &err) == TK_ERR_LIMIT);
    TK_CHECK(strstr(err.message, "overflows 64 bits") != NULL);
    TK_CHECK(same_bytes(a, c));
    tk_dcfg_counts_free(a);
    tk_dcfg_counts_free(b);
    tk_dcfg_counts_free(c);
}

TK_TEST_MAIN(TK_CASE(test_two_runs), TK_CASE(test_groupings), TK_CASE(test_union),
             TK_CASE(test_found_piece), TK_CASE(test_conflict), TK_CASE(test_overflow))
