/* Fuzz the DCFG reader in both modes (strict, and check mode with a
 * diagnostics sink), its fast row path and the tokenizer's fast paths
 * against its token path over the tokenizer's general code, then the
 * checker, the report (and the tables of Intel's dcfg-reader), the diff of
 * the model with itself, the dump, the writer and the dot export on whatever
 * was read. Invariants: a model differs from itself nowhere; what the strict read or
 * the report refuses, check reports as an error; after a strict read every
 * sum of counts (recomputed here in 128 bits) fits in 64 bits and equals the
 * model's. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/dcfg/dcfg_internal.h"
#include "model/cfg_internal.h"
#include "tracekit/tracekit.h"

/* A writer (tracekit/writer.h) into the stream f. */
static int fuzz_write_file(void *f, const void *data, size_t len)
{
    return len && fwrite(data, 1, len, (FILE *)f) != len ? -1 : 0;
}
#define FUZZ_WRITER(f) (&(tk_writer){fuzz_write_file, (f)})

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

__extension__ typedef unsigned __int128 u128;

#define FITS(x) ((x) <= (u128)UINT64_MAX)

/* The model against itself: no difference, and with `equal` every row has a change of 0. */
static void self_diff(const tk_cfg *cfg)
{
    tk_cfg_diff_options o = TK_CFG_DIFF_OPTIONS_INIT;
    o.equal = 1;
    o.top = 8;
    tk_cfg_diff *d;
    if (tk_cfg_diff_open(&d, cfg, cfg, &o, NULL) != TK_OK) return;
    if (tk_cfg_diff_differences(d) != 0) __builtin_trap();
    for (uint32_t pi = 0; pi < tk_cfg_diff_pairs(d); pi++)
        for (int t = 0; t < TK_CFG_DIFF_NTABLES; t++)
            for (size_t i = 0; i < tk_cfg_diff_rows(d, pi, (tk_cfg_diff_table)t); i++) {
                tk_cfg_diff_row r;
                tk_cfg_diff_row_get(d, pi, (tk_cfg_diff_table)t, i, &r);
                if (r.change || !r.has[0] || !r.has[1]) __builtin_trap();
            }
    tk_cfg_diff_free(d);
}

static int consume(const tk_cfg *cfg, FILE *sink)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_report_options ro = TK_DCFG_REPORT_OPTIONS_INIT;
    ro.top = 5;
    tk_status rs = tk_dcfg_report(cfg, &ro, FUZZ_WRITER(sink), &err);
    /* the tables of Intel's dcfg-reader, in the three formats */
    static const char *const intel[] = {"statistics", "source-loops", "inner-source-loops"};
    for (int k = 0; k < 3; k++) {
        ro.table = intel[k];
        ro.format = (tk_dcfg_report_format)(k % 3);
        (void)tk_dcfg_report(cfg, &ro, FUZZ_WRITER(sink), &err);
    }
    self_diff(cfg);
    (void)tk_dcfg_dump(cfg, FUZZ_WRITER(sink), &err);
    (void)tk_dcfg_write(cfg, FUZZ_WRITER(sink), &err);
    tk_cfg_dot_options dot = TK_CFG_DOT_OPTIONS_INIT;
    (void)tk_cfg_write_dot(cfg, &dot, FUZZ_WRITER(sink), &err);
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        const tk_cfg_process *p = &cfg->processes[i];
        uint32_t hits[4];
        for (uint32_t b = 0; b < p->nblocks && b < 64; b++)
            (void)tk_cfg_blocks_at(p, tk_cfg_stored_block_addr(p, &p->blocks[b]), hits, 4);
        for (uint32_t l = 0; l < p->nloops; l++) (void)tk_cfg_loop_entry_count(cfg, p, l);
    }
    /* the report refuses only on bad input (not for memory or a write error) */
    return rs != TK_OK && rs != TK_ERR_NOMEM && rs != TK_ERR_IO;
}

/* Every sum of counts of a strictly read model fits and is the model's. */
static void sums_fit(const tk_cfg *cfg)
{
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        const tk_cfg_process *p = &cfg->processes[i];
        size_t nb = p->nblocks ? p->nblocks : 1;
        u128 *in = calloc(nb, sizeof *in), *out = calloc(nb, sizeof *out);
        u128 *cnt = calloc(nb, sizeof *cnt);
        if (!in || !out || !cnt) {
            free(in);
            free(out);
            free(cnt);
            return;
        }
        for (uint32_t e = 0; e < p->nedges; e++) {
            const tk_cfg_edge *ed = &p->edges[e];
            if (ed->src >= p->nnodes || ed->tgt >= p->nnodes) continue;
            if (ed->tgt < p->nblocks) in[ed->tgt] += cfg_edge_count(p, ed);
            if (ed->src < p->nblocks) out[ed->src] += cfg_edge_count(p, ed);
        }
        u128 execs = 0, instrs = 0;
        for (uint32_t b = 0; b < p->nblocks; b++) {
            u128 x = (u128)p->blocks[b].count * p->blocks[b].num_instrs;
            if (!FITS(in[b]) || !FITS(out[b]) || !FITS(x)) __builtin_trap();
            execs += p->blocks[b].count;
            instrs += x;
        }
        if (!FITS(execs) || !FITS(instrs) ||
            instrs != tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}))
            __builtin_trap();
        /* each thread's instructions, block by block: a block's count comes
         * from its in-edges, or its out-edges when it has none */
        uint32_t nt = p->nthreads < 8 ? p->nthreads : 8;
        uint64_t model[8];
        tk_cfg_scope_instr_count_threads(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}, model, nt);
        for (uint32_t t = 0; t < nt; t++) {
            for (uint32_t b = 0; b < p->nblocks; b++) cnt[b] = 0;
            for (uint32_t e = 0; e < p->nedges; e++) {
                const tk_cfg_edge *ed = &p->edges[e];
                if (ed->src >= p->nnodes || ed->tgt >= p->nnodes) continue;
                uint64_t c = cfg_edge_count_thread(p, ed, t);
                if (ed->tgt < p->nblocks) cnt[ed->tgt] += c;
                if (ed->src < p->nblocks && !(p->block_flags[ed->src] & TK_CFG_BLOCK_HAS_IN_EDGES))
                    cnt[ed->src] += c;
            }
            u128 sum = 0;
            for (uint32_t b = 0; b < p->nblocks; b++) sum += cnt[b] * p->blocks[b].num_instrs;
            if (!FITS(sum) || sum != model[t]) __builtin_trap();
        }
        /* images, routines and loops: their blocks are distinct */
        for (uint32_t r = 0; r < p->nroutines; r++) {
            u128 v = 0;
            for (uint32_t k = 0; k < p->routines[r].nnodes; k++) {
                uint32_t b = p->pool[p->routines[r].nodes + k];
                if (b < p->nblocks) v += (u128)p->blocks[b].count * p->blocks[b].num_instrs;
            }
            if (!FITS(v) || v != tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_ROUTINE, r}))
                __builtin_trap();
        }
        for (uint32_t l = 0; l < p->nloops && l < 64; l++) {
            const tk_cfg_loop *lo = &p->loops[l];
            u128 v = 0, visits = 0;
            for (uint32_t k = 0; k < lo->nnodes; k++) {
                uint32_t b = p->pool[lo->nodes + k];
                if (b < p->nblocks) v += (u128)p->blocks[b].count * p->blocks[b].num_instrs;
            }
            for (uint32_t e = 0; e < p->nedges; e++) {
                const tk_cfg_edge *ed = &p->edges[e];
                if (ed->tgt >= p->nblocks || ed->src >= p->nnodes ||
                    tk_edge_kind_is_any_return(tk_cfg_stored_edge_kind(cfg, ed)))
                    continue;
                for (uint32_t k = 0; k < lo->nnodes; k++)
                    if (p->pool[lo->nodes + k] == ed->tgt &&
                        !tk_cfg_scope_contains(p, (tk_cfg_scope){TK_SCOPE_LOOP, l}, ed->src))
                        visits += cfg_edge_count(p, ed);
            }
            if (!FITS(v) || v != tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_LOOP, l}) ||
                !FITS(visits) || visits != tk_cfg_loop_entry_count(cfg, p, l))
                __builtin_trap();
        }
        for (uint32_t m = 0; m < p->nimages; m++) {
            const tk_cfg_image *im = &p->images[m];
            u128 v = 0;
            for (uint32_t k = 0; k < im->nblocks; k++) {
                const tk_cfg_block *bl = &p->blocks[im->first_block + k];
                v += (u128)bl->count * bl->num_instrs;
            }
            if (!FITS(v) || v != tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_IMAGE, m}))
                __builtin_trap();
        }
        free(in);
        free(out);
        free(cnt);
    }
}

static void diag_to_text(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    FILE *f = ctx;
    fprintf(f, "%d %llu:%llu %lld %s\n", (int)sev, (unsigned long long)loc->line,
            (unsigned long long)loc->column, (long long)loc->offset, msg);
}

/* One read with the fast row path (fast = 1) or the token path only, as text:
 * status, error, diagnostics (check mode), then the dump and the written DCFG
 * of the model. NULL when out of memory. */
static char *read_as_text(const uint8_t *data, size_t size, int check, int fast, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    /* the bytes as they are: the paths differ in parsing, not in decompressing
     * (a 200-byte bzip2 stream of 92 MB read four more times passed the
     * fuzzer's time limit) */
    tk_input_options io = TK_INPUT_OPTIONS_INIT;
    io.no_decompress = 1;
    if (tk_input_open_memory(&in, data, size, "fuzz", &io, &err) == TK_OK) {
        tk_diag diag;
        tk_diag_init(&diag, diag_to_text, f);
        tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
        o.diag = check ? &diag : NULL;
        tk_cfg *cfg = NULL;
        tk_status st = tk_dcfg_read_paths(&cfg, in, &o, fast, &err);
        fprintf(f, "status %d, error %d at %llu:%llu %lld: %s\n", (int)st, (int)err.code,
                (unsigned long long)err.line, (unsigned long long)err.column, (long long)err.offset,
                err.message);
        if (st == TK_OK) {
            (void)tk_dcfg_dump(cfg, FUZZ_WRITER(f), &err);
            (void)tk_dcfg_write(cfg, FUZZ_WRITER(f), &err);
        }
        tk_cfg_free(cfg);
        tk_input_free(in);
    }
    fclose(f);
    return buf;
}

/* The fast row path (tk_json_scan_row and the tables' *_fast handlers) and the
 * tokenizer's fast paths (integers, 8-byte string runs; core/fastpath.h)
 * against the token path over the tokenizer's general code, strict and in
 * check mode: the same result, errors and their locations included. */
static void compare_paths(const uint8_t *data, size_t size)
{
    for (int check = 0; check < 2; check++) {
        size_t la = 0, lb = 0;
        char *a = read_as_text(data, size, check, 1, &la);
        char *b = read_as_text(data, size, check, 0, &lb);
        if (a && b && (la != lb || memcmp(a, b, la) != 0)) {
            size_t i = 0;
            while (i < la && i < lb && a[i] == b[i]) i++;
            size_t from = i > 200 ? i - 200 : 0;
            int na = (int)(la - from > 600 ? 600 : la - from);
            int nb = (int)(lb - from > 600 ? 600 : lb - from);
            fprintf(stderr, "fast and token paths differ (%s) at byte %zu:\n",
                    check ? "check" : "strict", i);
            fprintf(stderr, "fast: %.*s\ntoken: %.*s\n", na, a + from, nb, b + from);
            abort();
        }
        free(a);
        free(b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    compare_paths(data, size);
    FILE *sink = fopen("/dev/null", "w");
    if (!sink) return 0;
    int refused = 0, checked = 0, check_errors = 0;
    for (int mode = 0; mode < 2; mode++) {
        tk_input *in;
        tk_error err;
        tk_error_clear(&err);
        if (tk_input_open_memory(&in, data, size, "fuzz", NULL, &err) != TK_OK) break;
        tk_diag diag;
        tk_diag_init(&diag, NULL, NULL);
        tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
        o.diag = mode ? &diag : NULL;
        tk_cfg *cfg = NULL;
        tk_status st = tk_dcfg_read(&cfg, in, &o, &err);
        if (st == TK_OK) {
            if (mode)
                (void)tk_dcfg_check(cfg, "fuzz", &diag, NULL);
            else
                sums_fit(cfg);
            int report_refused = consume(cfg, sink);
            if (!mode) refused = report_refused;
            tk_cfg_free(cfg);
        } else if (!mode) {
            refused = st != TK_ERR_NOMEM && st != TK_ERR_IO;
        }
        if (mode) {
            checked = st != TK_ERR_NOMEM && st != TK_ERR_IO;
            check_errors = st != TK_OK || diag.errors > 0;
        }
        tk_input_free(in);
    }
    /* whatever report refuses, check reports */
    if (refused && checked && !check_errors) __builtin_trap();
    fclose(sink);
    return 0;
}
