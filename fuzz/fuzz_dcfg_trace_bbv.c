/* Fuzz the basic-block vectors of a DCFG-Trace split into ranges (tracekit/dcfg_trace_bbv.h,
 * tracekit-mpi's convert --to bbv): an input that is a trace (against a tiny built-in DCFG,
 * whose 31 -> 30 -> 31 is a loop) has each thread's chunks cut into up to three ranges (where,
 * and the interval and loop boundaries, its last byte says), their blocks walked in order,
 * their parts made of them from the walk's open counts (and by decoding again: the same), read back from their bytes and merged in
 * order: when that succeeds, the slices are those of tk_dcfg_trace_bbv, which must succeed;
 * when tk_dcfg_trace_bbv fails, the split must fail too (tracekit-mpi's root then runs the
 * thread alone). An input that is a part's bytes (TKBBV) must read back canonical (its bytes
 * again) or be an error, never a crash; read, it merges with itself or is refused, and its
 * slices are handed out against the trace of the seeds or refused. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_tiny_dcfg.h"
#include "tracekit/tracekit.h"

#define FUZZ_MAX_EDGES 100000

/* An encoder's output, in memory. */
typedef struct membuf {
    char *p;
    size_t n, cap;
} membuf;

static int write_mem(void *ctx, const void *data, size_t n)
{
    membuf *m = ctx;
    if (m->n + n > m->cap) {
        size_t cap = (m->n + n) * 2 + 256;
        char *q = realloc(m->p, cap);
        if (!q) return -1;
        m->p = q;
        m->cap = cap;
    }
    memcpy(m->p + m->n, data, n);
    m->n += n;
    return 0;
}

/* A trace for the parts' slices: thread 0 of process 29003 through the loop three times. */
static tk_dcfg_trace *tiny_trace(const tk_cfg *cfg)
{
    static const uint32_t edges[] = {1690, 303, 306, 303, 306, 303, 306, 1193, 1905};
    size_t n = sizeof edges / sizeof *edges;
    tk_dcfg_trace_encode_options o = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
    o.cfg = cfg;
    o.chunk_edges = 4;
    tk_dcfg_trace_encoder *e = NULL;
    membuf m = {NULL, 0, 0};
    tk_writer w = {write_mem, &m};
    tk_dcfg_trace *t = NULL;
    if (tk_dcfg_trace_encoder_open(&e, &o, NULL) == TK_OK &&
        tk_dcfg_trace_encoder_observe(e, 29003, 0, edges, n, NULL) == 0 &&
        tk_dcfg_trace_encoder_start(e, &w, NULL) == TK_OK &&
        tk_dcfg_trace_encoder_encode(e, 29003, 0, edges, n, NULL) == 0 &&
        tk_dcfg_trace_encoder_finish(e, NULL) == TK_OK &&
        tk_dcfg_trace_open_memory(&t, m.p, m.n, "tiny", NULL, NULL) != TK_OK)
        t = NULL;
    tk_dcfg_trace_encoder_free(e);
    free(m.p);
    return t;
}

static void hash_bytes(uint64_t *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) *h = (*h ^ p[i]) * 1099511628211ull;
}

/* tk_dcfg_trace_bbv_fn: every field of a slice into the hash. */
static int hash_slice(void *ctx, const tk_dcfg_trace_bbv_slice *s)
{
    uint64_t f[7] = {s->pid,     s->thread_id, s->index,     (uint64_t)s->at_loop_head,
                     s->head_id, s->head_addr, s->head_count};
    hash_bytes(ctx, f, sizeof f);
    for (size_t i = 0; i < s->nentries; i++) {
        uint64_t e[2] = {s->entries[i].block_id, s->entries[i].instructions};
        hash_bytes(ctx, e, sizeof e);
    }
    hash_bytes(ctx, "|", 1);
    return 0;
}

/* A part read back from its bytes, which must be those it writes. */
static tk_dcfg_trace_bbv_part *round_trip(tk_dcfg_trace_bbv_part *p)
{
    uint8_t *d = NULL;
    size_t n = 0;
    tk_dcfg_trace_bbv_part *q = NULL;
    if (tk_dcfg_trace_bbv_part_serialize(p, &d, &n, NULL) == TK_OK &&
        tk_dcfg_trace_bbv_part_deserialize(&q, d, n, NULL) != TK_OK)
        __builtin_trap(); /* a part's own bytes read back */
    tk_free(d);
    tk_dcfg_trace_bbv_part_free(p);
    return q;
}

/* Whether two parts are the same bytes. */
static int same_bytes(const tk_dcfg_trace_bbv_part *a, const tk_dcfg_trace_bbv_part *b)
{
    uint8_t *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    int same = tk_dcfg_trace_bbv_part_serialize(a, &x, &nx, NULL) == TK_OK &&
               tk_dcfg_trace_bbv_part_serialize(b, &y, &ny, NULL) == TK_OK && nx == ny &&
               memcmp(x, y, nx) == 0;
    tk_free(x);
    tk_free(y);
    return same;
}

/* Thread th's slices made of its chunks cut at cut[0..2) (fractions of 255) into h. Returns
 * the status. */
static tk_status split_thread(const tk_dcfg_trace *t, const tk_cfg *cfg,
                              const tk_dcfg_trace_bbv_options *o, size_t th, const unsigned *cut,
                              uint64_t *h)
{
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    size_t b[4];
    b[0] = ti.first_chunk;
    b[1] = ti.first_chunk + ti.nchunks * cut[0] / 255;
    b[2] = b[1] + (ti.first_chunk + ti.nchunks - b[1]) * cut[1] / 255;
    b[3] = ti.first_chunk + ti.nchunks;
    uint64_t open[3], at = 0;
    tk_status st = TK_OK;
    tk_dcfg_trace_bbv_blocks *k3[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3 && st == TK_OK; k++) {
        st = tk_dcfg_trace_bbv_blocks_open(&k3[k], t, cfg, o, th, b[k], b[k + 1], NULL);
        open[k] = at;
        if (st == TK_OK) st = tk_dcfg_trace_bbv_blocks_walk(k3[k], &at, NULL);
    }
    tk_dcfg_trace_bbv_part *p[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3 && st == TK_OK; k++) {
        st = tk_dcfg_trace_bbv_blocks_part(&p[k], k3[k], open[k], NULL);
        tk_dcfg_trace_bbv_part *again = NULL;
        tk_status st2 =
            tk_dcfg_trace_bbv_part_open(&again, t, cfg, o, th, b[k], b[k + 1], open[k], NULL);
        if ((st == TK_OK) != (st2 == TK_OK) && st != TK_ERR_NOMEM && st2 != TK_ERR_NOMEM)
            __builtin_trap(); /* of the blocks or decoding again: the same */
        if (st == TK_OK && st2 == TK_OK && !same_bytes(p[k], again)) __builtin_trap();
        tk_dcfg_trace_bbv_part_free(again);
        if (st == TK_OK && !(p[k] = round_trip(p[k]))) st = TK_ERR_NOMEM;
    }
    for (int k = 0; k < 3; k++) tk_dcfg_trace_bbv_blocks_free(k3[k]);
    for (int k = 1; k < 3 && st == TK_OK; k++)
        if (tk_dcfg_trace_bbv_part_merge(p[0], p[k], NULL) != TK_OK)
            __builtin_trap(); /* parts that follow each other merge */
    if (st == TK_OK) st = tk_dcfg_trace_bbv_part_slices(p[0], t, cfg, th, hash_slice, h, NULL);
    for (int k = 0; k < 3; k++) tk_dcfg_trace_bbv_part_free(p[k]);
    return st;
}

static void check_split(const tk_dcfg_trace *t, const tk_cfg *cfg, uint8_t knob)
{
    static const uint64_t intervals[] = {1, 2, 5, 9, 40, 1000, 1ULL << 40, UINT64_MAX};
    tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    o.interval = intervals[knob & 7];
    o.loop_boundaries = (knob >> 3) & 1;
    o.threads = (knob >> 4) & 1 ? 2 : 1;
    unsigned cut[2] = {(knob * 37u) % 256, (knob * 101u) % 256};
    uint64_t want = 1469598103934665603ull, got = want;
    tk_status wst = tk_dcfg_trace_bbv(t, cfg, &o, hash_slice, &want, NULL);
    tk_status st = TK_OK;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && st == TK_OK; th++)
        st = split_thread(t, cfg, &o, th, cut, &got);
    if (st == TK_OK && (wst != TK_OK || got != want)) __builtin_trap();
    if (wst != TK_OK && wst != TK_ERR_NOMEM && st == TK_OK) __builtin_trap();
}

/* Bytes that may be a part: an error, or canonical, merging with itself or refused, its
 * slices handed out or refused. */
static void check_part_bytes(const uint8_t *data, size_t size, const tk_dcfg_trace *t,
                             const tk_cfg *cfg)
{
    tk_dcfg_trace_bbv_part *a = NULL, *b = NULL;
    tk_error err;
    tk_error_clear(&err);
    if (tk_dcfg_trace_bbv_part_deserialize(&a, data, size, &err) != TK_OK) {
        if (a || err.code == TK_OK) __builtin_trap();
        return;
    }
    uint8_t *again = NULL;
    size_t n = 0;
    if (tk_dcfg_trace_bbv_part_serialize(a, &again, &n, NULL) == TK_OK &&
        (n != size || memcmp(again, data, size) != 0))
        __builtin_trap(); /* accepted bytes are canonical */
    tk_free(again);
    uint64_t h = 0;
    if (t && cfg) tk_dcfg_trace_bbv_part_slices(a, t, cfg, 0, hash_slice, &h, NULL);
    if (tk_dcfg_trace_bbv_part_deserialize(&b, data, size, NULL) == TK_OK) {
        tk_status st = tk_dcfg_trace_bbv_part_merge(a, b, NULL);
        if (st != TK_OK && st != TK_ERR_ARG && st != TK_ERR_NOMEM) __builtin_trap();
        if (t && cfg) tk_dcfg_trace_bbv_part_slices(a, t, cfg, 0, hash_slice, &h, NULL);
    }
    tk_dcfg_trace_bbv_part_free(a);
    tk_dcfg_trace_bbv_part_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static tk_cfg *cfg;
    static tk_dcfg_trace *tiny;
    if (!cfg) {
        tk_input *in;
        if (tk_input_open_memory(&in, tiny_dcfg, sizeof tiny_dcfg - 1, "tiny.dcfg", NULL, NULL) !=
            TK_OK)
            return 0;
        if (tk_dcfg_read(&cfg, in, NULL, NULL) != TK_OK) cfg = NULL;
        tk_input_free(in);
        if (cfg) tiny = tiny_trace(cfg);
    }
    if (size >= 5 && memcmp(data, "TKBBV", 5) == 0) {
        check_part_bytes(data, size, tiny, cfg);
        return 0;
    }
    tk_dcfg_trace *t;
    tk_diag diag;
    tk_diag_init(&diag, fuzz_quiet, NULL);
    if (!cfg || tk_dcfg_trace_open_memory(&t, data, size, "fuzz", &diag, NULL) != TK_OK) return 0;
    uint64_t declared = 0; /* many edges are linear work, not a bug: only parsed */
    for (size_t i = 0; i < tk_dcfg_trace_chunk_count(t); i++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, i, &ci);
        declared += ci.edge_count > FUZZ_MAX_EDGES ? FUZZ_MAX_EDGES + 1 : ci.edge_count;
    }
    if (declared <= FUZZ_MAX_EDGES)
        check_split(t, cfg, size ? (uint8_t)(data[size - 1] ^ size) : 0);
    tk_dcfg_trace_free(t);
    return 0;
}
