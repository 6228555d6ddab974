/* Basic-block vectors of a DCFG-Trace through the public API (tracekit/dcfg_trace_bbv.h):
 * the slices `tracekit convert --to bbv` writes (tests/cli/dcfg_trace/convert_bbv*.out), their
 * loop boundaries, a stop asked by the receiver, the refusals, where slices end, and the same
 * slices on any number of decoding threads. */
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

#define MAX_SLICES 16

/* What the receiver keeps of each slice. */
typedef struct seen {
    size_t n, stop_after;
    uint64_t thread[MAX_SLICES], index[MAX_SLICES], instructions[MAX_SLICES];
    size_t entries[MAX_SLICES];
    uint32_t first_id[MAX_SLICES], head_id[MAX_SLICES];
    uint64_t head_count[MAX_SLICES], head_addr[MAX_SLICES];
    int ordered;
} seen;

static int keep(void *ctx, const tk_dcfg_trace_bbv_slice *s)
{
    seen *v = ctx;
    if (v->n < MAX_SLICES) {
        size_t k = v->n;
        v->thread[k] = s->thread_id;
        v->index[k] = s->index;
        v->entries[k] = s->nentries;
        v->first_id[k] = s->nentries ? s->entries[0].block_id : 0;
        v->head_id[k] = s->at_loop_head ? s->head_id : 0;
        v->head_count[k] = s->head_count;
        v->head_addr[k] = s->head_addr;
        v->instructions[k] = 0;
        for (size_t i = 0; i < s->nentries; i++) {
            v->instructions[k] += s->entries[i].instructions;
            if (i && s->entries[i - 1].block_id >= s->entries[i].block_id) v->ordered = 0;
        }
    }
    v->n++;
    return v->stop_after && v->n >= v->stop_after;
}

static tk_status run(const char *trace, const char *dcfg, const tk_dcfg_trace_bbv_options *o,
                     seen *v, tk_error *err)
{
    tk_dcfg_trace *t = NULL;
    tk_cfg *cfg = NULL;
    tk_status st = TK_ERR_IO;
    if (TK_CHECK(tk_dcfg_trace_open(&t, trace, NULL, err) == TK_OK) &&
        TK_CHECK(tk_dcfg_read_path(&cfg, dcfg, NULL, err) == TK_OK))
        st = tk_dcfg_trace_bbv(t, cfg, o, keep, v, err);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return st;
}

static const char gen11[] = "tests/data/dcfg_trace/pass/gen11.level9.trace.json";
static const char gen11_dcfg[] = "tests/data/dcfg_trace/pass/gen11.dcfg.json";

/* --interval 1000: 4 slices per thread, each thread's instructions are its INSTR_COUNT */
static void test_bbv_slices(void)
{
    tk_error err;
    tk_error_clear(&err);
    seen v = {0};
    v.ordered = 1;
    tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    o.interval = 1000;
    TK_CHECK(run(gen11, gen11_dcfg, &o, &v, &err) == TK_OK);
    TK_CHECK_EQ_U64(v.n, 8);
    TK_CHECK(v.ordered);
    uint64_t sum[2] = {0, 0};
    for (size_t k = 0; k < v.n && k < MAX_SLICES; k++) {
        sum[v.thread[k] ? 1 : 0] += v.instructions[k];
        TK_CHECK_EQ_U64(v.index[k], k % 4 + 1);
        TK_CHECK_EQ_U64(v.head_id[k], 0);
        if (k % 4 != 3) TK_CHECK(v.instructions[k] >= 1000);
    }
    TK_CHECK_EQ_U64(sum[0], 3915);
    TK_CHECK_EQ_U64(sum[1], 3970);
    /* T:10:1 :28:24 :29:1 :65:308 :66:636 :67:33 */
    TK_CHECK_EQ_U64(v.entries[0], 6);
    TK_CHECK_EQ_U64(v.first_id[0], 10);
    TK_CHECK_EQ_U64(v.instructions[0], 1003);
}

/* --loop-boundaries: each slice but a thread's last ends before a loop head */
static void test_bbv_loop_boundaries(void)
{
    tk_error err;
    tk_error_clear(&err);
    seen v = {0};
    tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    o.interval = 1000;
    o.loop_boundaries = 1;
    o.has_thread = 1;
    o.thread_id = 1;
    TK_CHECK(run(gen11, gen11_dcfg, &o, &v, &err) == TK_OK);
    TK_CHECK_EQ_U64(v.n, 4);
    /* 77 1 slice 1 ends at loop head 66 0x4015bc count 53 */
    TK_CHECK_EQ_U64(v.thread[0], 1);
    TK_CHECK_EQ_U64(v.head_id[0], 66);
    TK_CHECK_EQ_U64(v.head_addr[0], 0x4015bc);
    TK_CHECK_EQ_U64(v.head_count[0], 53);
    TK_CHECK_EQ_U64(v.head_id[2], 65);
    TK_CHECK_EQ_U64(v.head_count[2], 124);
    TK_CHECK_EQ_U64(v.head_id[3], 0);
    for (size_t k = 0; k < 3; k++) TK_CHECK(v.instructions[k] >= 1000);
}

/* the receiver stops the walk: TK_END (on threads too); no such thread: nothing */
static void test_bbv_stop(void)
{
    tk_error err;
    tk_error_clear(&err);
    seen v = {0};
    v.stop_after = 2;
    tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    o.interval = 500;
    TK_CHECK(run(gen11, gen11_dcfg, &o, &v, &err) == TK_END);
    TK_CHECK_EQ_U64(v.n, 2);
    seen many = {0}; /* on decoding threads: the same stop */
    many.stop_after = 2;
    o.threads = 3;
    TK_CHECK(run(gen11, gen11_dcfg, &o, &many, &err) == TK_END);
    TK_CHECK_EQ_U64(many.n, 2);
    TK_CHECK_EQ_U64(many.instructions[1], v.instructions[1]);
    seen none = {0};
    o.has_thread = 1;
    o.thread_id = 7;
    TK_CHECK(run(gen11, gen11_dcfg, &o, &none, &err) == TK_OK);
    TK_CHECK_EQ_U64(none.n, 0);
}

/* an edge the DCFG lacks, a process the DCFG lacks: located refusals */
static void test_bbv_refusals(void)
{
    tk_error err;
    tk_error_clear(&err);
    seen v = {0};
    TK_CHECK(run("tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json", gen11_dcfg, NULL, &v,
                 &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "edge 99999 is not an edge of process 77") != NULL);
    TK_CHECK(err.line == 22 && err.column == 7); /* its chunk's row */
    tk_error_clear(&err);
    TK_CHECK(run(gen11, "tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2",
                 NULL, &v, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "process 77 is not in the DCFG") != NULL);
    TK_CHECK(err.line > 0);
}

/* Every field of every slice, hashed (FNV-1a), and the instructions of each slice. */
typedef struct digest {
    uint64_t h, n;
    uint64_t instructions[MAX_SLICES];
} digest;

static void mix(digest *d, uint64_t x)
{
    for (int i = 0; i < 8; i++) d->h = (d->h ^ ((x >> (8 * i)) & 0xff)) * 0x100000001b3ull;
}

static int hash_slice(void *ctx, const tk_dcfg_trace_bbv_slice *s)
{
    digest *d = ctx;
    uint64_t sum = 0;
    mix(d, s->pid), mix(d, s->thread_id), mix(d, s->index), mix(d, s->nentries);
    for (size_t i = 0; i < s->nentries; i++) {
        mix(d, s->entries[i].block_id), mix(d, s->entries[i].instructions);
        sum += s->entries[i].instructions;
    }
    mix(d, (uint64_t)s->at_loop_head), mix(d, s->head_id), mix(d, s->head_addr);
    mix(d, s->head_count);
    if (d->n < MAX_SLICES) d->instructions[d->n] = sum;
    d->n++;
    return 0;
}

static tk_status run_digest(const char *trace, const tk_dcfg_trace_bbv_options *o, digest *d,
                            tk_error *err)
{
    tk_dcfg_trace *t = NULL;
    tk_cfg *cfg = NULL;
    tk_status st = TK_ERR_IO;
    memset(d, 0, sizeof *d);
    d->h = 0xcbf29ce484222325ull;
    if (TK_CHECK(tk_dcfg_trace_open(&t, trace, NULL, err) == TK_OK) &&
        TK_CHECK(tk_dcfg_read_path(&cfg, gen11_dcfg, NULL, err) == TK_OK))
        st = tk_dcfg_trace_bbv(t, cfg, o, hash_slice, d, err);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return st;
}

/* A slice ends before the first block after its interval: the block that crosses it stays
 * whole, and the next slice counts from there (gen11 thread 0 at --interval 10: slices of 13,
 * 12, 15, 14 instructions, boundaries at 13, 25, 40, 54, no multiple of 10). */
static void test_bbv_boundaries_drift(void)
{
    tk_error err;
    tk_error_clear(&err);
    digest d;
    tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    o.interval = 10;
    o.has_thread = 1;
    TK_CHECK(run_digest("tests/data/dcfg_trace/pass/gen11.level0.trace.json", &o, &d, &err) ==
             TK_OK);
    TK_CHECK_EQ_U64(d.instructions[0], 13);
    TK_CHECK_EQ_U64(d.instructions[1], 12);
    TK_CHECK_EQ_U64(d.instructions[2], 15);
    TK_CHECK_EQ_U64(d.instructions[3], 14);
}

/* threads: the same slices, in the same order, and the same refusal, for any number of
 * decoding threads (intervals below a block, below a chunk, above a thread; loop boundaries) */
static void test_bbv_threads(void)
{
    static const char *const traces[] = {
        "tests/data/dcfg_trace/pass/gen11.level0.trace.json",
        "tests/data/dcfg_trace/pass/gen11.level9.trace.json",
        "tests/data/dcfg_trace/pass/gen11.intel.trace.json",
        "tests/data/dcfg_trace/pass/ok_multi_row_hex.trace.json",
    };
    static const uint64_t intervals[] = {1, 7, 100, 1000, (uint64_t)1 << 40};
    for (size_t f = 0; f < sizeof traces / sizeof *traces; f++)
        for (size_t i = 0; i < sizeof intervals / sizeof *intervals; i++)
            for (int loops = 0; loops < 2; loops++) {
                tk_error err;
                tk_error_clear(&err);
                tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
                o.interval = intervals[i];
                o.loop_boundaries = loops;
                digest one;
                tk_status st1 = run_digest(traces[f], &o, &one, &err);
                for (unsigned th = 2; th <= 5; th += 3) {
                    digest many;
                    o.threads = th;
                    tk_error e2;
                    tk_error_clear(&e2);
                    TK_CHECK(run_digest(traces[f], &o, &many, &e2) == st1);
                    TK_CHECK_EQ_U64(many.n, one.n);
                    TK_CHECK_EQ_U64(many.h, one.h);
                    TK_CHECK(strcmp(e2.message, err.message) == 0);
                }
            }
    tk_error e1, e4;
    tk_error_clear(&e1);
    tk_error_clear(&e4);
    digest d1, d4;
    const char *bad = "tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json";
    tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    o.interval = 10;
    TK_CHECK(run_digest(bad, &o, &d1, &e1) == TK_ERR_FORMAT);
    o.threads = 4;
    TK_CHECK(run_digest(bad, &o, &d4, &e4) == TK_ERR_FORMAT);
    TK_CHECK(strcmp(e1.message, e4.message) == 0 && e1.line == e4.line && e1.column == e4.column);
    TK_CHECK_EQ_U64(d1.h, d4.h);
    TK_CHECK_EQ_U64(d1.n, d4.n);
}

TK_TEST_MAIN(TK_CASE(test_bbv_slices), TK_CASE(test_bbv_loop_boundaries), TK_CASE(test_bbv_stop),
             TK_CASE(test_bbv_refusals), TK_CASE(test_bbv_boundaries_drift),
             TK_CASE(test_bbv_threads))
