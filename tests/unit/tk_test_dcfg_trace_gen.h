/* Generated DCFG-Trace traces for the unit tests that split a trace across ranks (profile,
 * folded stacks, basic-block vectors): walks over a DCFG's edges, with calls, returns and jumps
 * into other routines, broken by jumps to anywhere (a chunk that starts elsewhere), encoded in
 * small chunks, read back from memory. Include after tk_test.h. */
#ifndef TK_TEST_DCFG_TRACE_GEN_H
#define TK_TEST_DCFG_TRACE_GEN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/tracekit.h"

typedef struct rng {
    uint64_t s;
} rng;

static inline uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A thread's edges: a walk over process p's edges (from the target of the last one when it
 * has out-edges, else from anywhere; one step in `jump` from anywhere). */
static inline void walk(const tk_cfg *cfg, const tk_cfg_process *p, rng *r, uint32_t *out, size_t n,
                        unsigned jump)
{
    tk_cfg_process_info pi;
    tk_cfg_process_get(cfg, p, &pi);
    uint32_t at = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        uint32_t e = (uint32_t)(next(r) % pi.nedges);
        if (at != UINT32_MAX && next(r) % jump) {
            uint32_t from[64], k = 0;
            for (uint32_t j = 0; j < pi.nedges && k < 64; j++) {
                tk_cfg_edge_info ei;
                tk_cfg_edge_get(cfg, p, j, &ei);
                if (ei.src == at) from[k++] = j;
            }
            if (k) e = from[next(r) % k];
        }
        tk_cfg_edge_info ei;
        tk_cfg_edge_get(cfg, p, e, &ei);
        out[i] = ei.id;
        at = ei.tgt;
    }
}

/* Bytes or text in memory (always followed by a 0). */
typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static inline int put(void *ctx, const void *data, size_t len)
{
    buf *b = ctx;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + len + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) return -1;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    b->p[b->len] = 0;
    return 0;
}

/* A trace of nthreads threads of process 77 (thread k: lens[k] edges), chunks of at most
 * chunk_edges edges, its text changed by edit (NULL: none) before it is read. */
static inline tk_dcfg_trace *make_trace_edited(const tk_cfg *cfg, uint64_t seed, size_t nthreads,
                                               const size_t *lens, uint64_t chunk_edges,
                                               unsigned jump, void (*edit)(buf *))
{
    const tk_cfg_process *p = tk_cfg_process_at(cfg, tk_cfg_find_process(cfg, 77));
    uint32_t *edges[8];
    for (size_t k = 0; k < nthreads; k++) {
        rng r = {seed * 131 + k};
        edges[k] = malloc((lens[k] ? lens[k] : 1) * sizeof **edges);
        walk(cfg, p, &r, edges[k], lens[k], jump);
    }
    tk_dcfg_trace_encode_options o = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
    o.cfg = cfg;
    o.chunk_edges = chunk_edges;
    o.level = (int)(seed % 9) + 1;
    tk_dcfg_trace_encoder *e;
    buf b = {NULL, 0, 0};
    tk_writer w = {put, &b};
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_dcfg_trace_encoder_open(&e, &o, &err) == TK_OK);
    for (size_t k = 0; k < nthreads; k++)
        if (lens[k])
            TK_CHECK(tk_dcfg_trace_encoder_observe(e, 77, k, edges[k], lens[k], &err) == 0);
    TK_CHECK(tk_dcfg_trace_encoder_start(e, &w, &err) == TK_OK);
    for (size_t k = 0; k < nthreads; k++)
        if (lens[k]) TK_CHECK(tk_dcfg_trace_encoder_encode(e, 77, k, edges[k], lens[k], &err) == 0);
    TK_CHECK(tk_dcfg_trace_encoder_finish(e, &err) == TK_OK);
    tk_dcfg_trace_encoder_free(e);
    for (size_t k = 0; k < nthreads; k++) free(edges[k]);
    if (edit) edit(&b);
    tk_dcfg_trace *t = NULL;
    TK_CHECK(tk_dcfg_trace_open_memory(&t, b.p, b.len, "gen", NULL, &err) == TK_OK);
    free(b.p); /* the trace has its copy */
    return t;
}

static inline tk_dcfg_trace *make_trace(const tk_cfg *cfg, uint64_t seed, size_t nthreads,
                                        const size_t *lens, uint64_t chunk_edges, unsigned jump)
{
    return make_trace_edited(cfg, seed, nthreads, lens, chunk_edges, jump, NULL);
}

#endif
