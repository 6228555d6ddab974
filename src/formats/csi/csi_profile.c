/* Ball–Larus path profile of a DCFG-Trace: the edges of each thread are
 * walked through the per-routine numbering of the DCFG -> CSI bridge, with a
 * call stack, and every completed acyclic path is counted. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "formats/csi/csi_internal.h"
#include "model/cfg_internal.h"
#include "tracekit/cfg.h"
#include "tracekit/csi.h"

#define NONE UINT32_MAX

/* deeper call stacks are cut (their oldest frames dropped as unfinished) */
#define MAX_DEPTH 100000

typedef struct prof_routine {
    tk_csi_function fn;
    char *name;
    tk_csi_block *blocks;
    int64_t *lines;
    tk_csi_edge *edges;
    uint32_t
        *out_start; /* edges leaving local block a: out_edge[out_start[a] .. out_start[a + 1]) */
    uint32_t *out_edge; /* (NULL when out of memory: find_local_edge scans) */
    tk_csi_numbering *num;
    int ok; /* numbered */
    tk_hmap counts; /* path id -> executions */
    tk_csi_profile_stats stats;
} prof_routine;

typedef struct edge_map {
    uint32_t routine; /* NONE: not inside a routine (calls, special nodes) */
    uint32_t k; /* CSI edge index in the routine */
} edge_map;

typedef struct frame {
    uint32_t routine;
    uint32_t cur; /* local block */
    uint64_t r; /* running sum */
    int known; /* the path start is known */
} frame;

typedef struct thread_state {
    uint64_t key;
    frame *stack;
    size_t depth, cap;
} thread_state;

struct tk_csi_profile {
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    prof_routine *routines;
    uint32_t nroutines;
    edge_map *map; /* per DCFG edge index */
    uint32_t *local; /* per block: local index in its routine */
    uint32_t *owner; /* per block: routine index (bridge's) */
    thread_state *threads;
    size_t nthreads, threads_cap;
    uint64_t edges, unknown_edges;
};

/* R->out_start / out_edge: the edges by source, each source's in index order. */
static void index_local_edges(prof_routine *R)
{
    uint32_t nb = R->fn.nblocks, ne = R->fn.nedges;
    R->out_start = tk_calloc((size_t)nb + 2, sizeof *R->out_start);
    R->out_edge = tk_malloc(sizeof *R->out_edge * (ne ? ne : 1));
    if (!R->out_start || !R->out_edge) {
        tk_free(R->out_start);
        tk_free(R->out_edge);
        R->out_start = R->out_edge = NULL;
        return;
    }
    for (uint32_t k = 0; k < ne; k++)
        if (R->edges[k].src < nb) R->out_start[R->edges[k].src + 2]++;
    for (uint32_t a = 0; a < nb; a++) R->out_start[a + 2] += R->out_start[a + 1];
    for (uint32_t k = 0; k < ne; k++)
        if (R->edges[k].src < nb) R->out_edge[R->out_start[R->edges[k].src + 1]++] = k;
}

tk_status tk_csi_profile_open(tk_csi_profile **out, const tk_cfg *cfg, uint64_t pid, tk_error *err)
{
    *out = NULL;
    uint32_t pi = tk_cfg_find_process(cfg, pid);
    if (pi == TK_CFG_NONE)
        return tk_error_set(err, TK_ERR_FORMAT, "the DCFG has no process %" PRIu64, pid);
    tk_csi_profile *pr = tk_calloc(1, sizeof *pr);
    if (!pr) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    pr->cfg = cfg;
    const tk_cfg_process *p = pr->p = &cfg->processes[pi];
    pr->routines = tk_calloc(p->nroutines + (size_t)1, sizeof *pr->routines);
    pr->map = tk_reallocarray(NULL, p->nedges + (size_t)1, sizeof *pr->map);
    pr->local = tk_reallocarray(NULL, p->nblocks + (size_t)1, sizeof *pr->local);
    pr->owner = tk_reallocarray(NULL, p->nblocks + (size_t)1, sizeof *pr->owner);
    if (!pr->routines || !pr->map || !pr->local || !pr->owner) {
        tk_csi_profile_free(pr);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    pr->nroutines = p->nroutines;
    for (uint32_t i = 0; i < p->nedges; i++) pr->map[i].routine = NONE;
    for (uint32_t i = 0; i < p->nblocks; i++) pr->local[i] = pr->owner[i] = NONE;
    csi_bridge_routine br;
    tk_status st = tk_csi_bridge_begin(&br, cfg, p);
    for (uint32_t ri = 0; ri < p->nroutines && st == TK_OK; ri++) {
        prof_routine *R = &pr->routines[ri];
        st = tk_csi_bridge_build(&br, ri, err);
        if (st != TK_OK) break;
        /* own copies of the function */
        const tk_csi_function *f = &br.fn;
        R->name = tk_strdup(f->name);
        R->blocks = tk_reallocarray(NULL, f->nblocks + (size_t)1, sizeof *R->blocks);
        R->lines = tk_reallocarray(NULL, f->nblocks + (size_t)1, sizeof *R->lines);
        R->edges = tk_reallocarray(NULL, f->nedges + (size_t)1, sizeof *R->edges);
        if (!R->name || !R->blocks || !R->lines || !R->edges ||
            tk_csi_numbering_open(&R->num, err) != TK_OK) {
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            break;
        }
        memcpy(R->blocks, f->blocks, f->nblocks * sizeof *R->blocks);
        memcpy(R->edges, f->edges, f->nedges * sizeof *R->edges);
        for (uint32_t b = 0; b < f->nblocks; b++) {
            R->lines[b] = f->blocks[b].nlines ? f->blocks[b].lines[0] : 0;
            R->blocks[b].lines = &R->lines[b];
        }
        R->fn = *f;
        R->fn.name = R->name;
        R->fn.blocks = R->blocks;
        R->fn.edges = R->edges;
        R->ok = br.numbered_ok && tk_csi_numbering_load(R->num, &R->fn, NULL, NULL, err) == TK_OK;
        index_local_edges(R);
        /* blocks and edges of the routine */
        for (uint32_t b = 1; b < f->nblocks; b++) {
            uint32_t blk = br.order[b];
            if (pr->owner[blk] == NONE) {
                pr->owner[blk] = ri;
                pr->local[blk] = b;
            }
        }
        for (uint32_t q = 0; q < br.nmapped; q++) {
            uint32_t e = br.mapped_edge[q];
            if (pr->map[e].routine == NONE) {
                pr->map[e].routine = ri;
                pr->map[e].k = br.mapped_k[q];
            }
        }
    }
    tk_csi_bridge_end(&br);
    if (st != TK_OK) {
        tk_csi_profile_free(pr);
        return st;
    }
    *out = pr;
    return TK_OK;
}

void tk_csi_profile_free(tk_csi_profile *pr)
{
    if (!pr) return;
    for (uint32_t i = 0; pr->routines && i < pr->nroutines; i++) {
        prof_routine *R = &pr->routines[i];
        tk_free(R->name);
        tk_free(R->blocks);
        tk_free(R->lines);
        tk_free(R->edges);
        tk_free(R->out_start);
        tk_free(R->out_edge);
        tk_csi_numbering_free(R->num);
        tk_hmap_free(&R->counts);
    }
    for (size_t i = 0; i < pr->nthreads; i++) tk_free(pr->threads[i].stack);
    tk_free(pr->threads);
    tk_free(pr->routines);
    tk_free(pr->map);
    tk_free(pr->local);
    tk_free(pr->owner);
    tk_free(pr);
}

static thread_state *thread_of(tk_csi_profile *pr, uint64_t key)
{
    for (size_t i = 0; i < pr->nthreads; i++)
        if (pr->threads[i].key == key) return &pr->threads[i];
    if (pr->nthreads == pr->threads_cap) {
        size_t cap = pr->threads_cap ? pr->threads_cap * 2 : 8;
        thread_state *t = tk_reallocarray(pr->threads, cap, sizeof *t);
        if (!t) return NULL;
        pr->threads = t;
        pr->threads_cap = cap;
    }
    thread_state *t = &pr->threads[pr->nthreads++];
    memset(t, 0, sizeof *t);
    t->key = key;
    return t;
}

static int count_path(prof_routine *R, uint64_t id)
{
    int inserted;
    uint64_t *slot = tk_hmap_slot(&R->counts, id, 0, &inserted);
    if (!slot) return -1;
    (*slot)++;
    R->stats.completed++;
    return 0;
}

/* The path of the top frame ends through CSI edge k of its routine. */
static int end_path(tk_csi_profile *pr, frame *f, uint32_t k, int back)
{
    prof_routine *R = &pr->routines[f->routine];
    if (!f->known || !R->ok) {
        R->stats.unknown_start++;
        return 0;
    }
    uint64_t w = 0;
    if (back) {
        if (tk_bl_exit_weight(tk_csi_numbering_bl(R->num), k, &w, NULL) != TK_OK) {
            R->stats.unknown_start++;
            return 0;
        }
    } else {
        w = R->edges[k].weight;
    }
    return count_path(R, f->r + w);
}

static int push(thread_state *t, uint32_t routine, uint32_t cur, int known)
{
    if (t->depth == MAX_DEPTH) t->depth = 0; /* runaway: forget the stack */
    if (t->depth == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        frame *s = tk_reallocarray(t->stack, cap, sizeof *s);
        if (!s) return -1;
        t->stack = s;
        t->cap = cap;
    }
    frame f = {routine, cur, 0, known};
    t->stack[t->depth++] = f;
    return 0;
}

/* A frame for the routine of block blk (entered at blk). */
static int enter_block(tk_csi_profile *pr, thread_state *t, uint32_t blk, int replace)
{
    if (blk >= pr->p->nblocks || pr->owner[blk] == NONE) return 0;
    uint32_t ri = pr->owner[blk];
    int at_entry = pr->local[blk] == 1;
    if (replace && t->depth > 0) {
        frame *f = &t->stack[t->depth - 1];
        pr->routines[f->routine].stats.unfinished++;
        t->depth--;
    }
    return push(t, ri, pr->local[blk], at_entry);
}

/* The first edge a -> b of R (a call site's bypass edge), or NONE. */
static uint32_t find_local_edge(const prof_routine *R, uint32_t a, uint32_t b)
{
    if (R->out_start) {
        if (a >= R->fn.nblocks) return NONE;
        for (uint32_t q = R->out_start[a]; q < R->out_start[a + 1]; q++)
            if (R->edges[R->out_edge[q]].dst == b) return R->out_edge[q];
        return NONE;
    }
    for (uint32_t k = 0; k < R->fn.nedges; k++)
        if (R->edges[k].src == a && R->edges[k].dst == b) return k;
    return NONE;
}

static int step(tk_csi_profile *pr, thread_state *t, uint32_t edge_id)
{
    const tk_cfg_process *p = pr->p;
    uint32_t ei = tk_cfg_find_edge(p, edge_id);
    pr->edges++;
    if (ei == TK_CFG_NONE) {
        pr->unknown_edges++;
        for (size_t i = 0; i < t->depth; i++) pr->routines[t->stack[i].routine].stats.unfinished++;
        t->depth = 0;
        return 0;
    }
    const tk_cfg_edge *e = &p->edges[ei];
    tk_edge_kind kind = tk_cfg_stored_edge_kind(pr->cfg, e);
    edge_map m = pr->map[ei];
    if (m.routine == NONE) {
        if (tk_edge_kind_is_any_call(kind)) {
            if (t->depth > 0 && cfg_is_block(p, e->src) && pr->local[e->src] != NONE)
                t->stack[t->depth - 1].cur = pr->local[e->src];
            return enter_block(pr, t, e->tgt, 0);
        }
        if (tk_edge_kind_is_any_return(kind)) {
            if (t->depth > 0) {
                pr->routines[t->stack[t->depth - 1].routine].stats.unfinished++;
                t->depth--;
            }
            return 0;
        }
        /* ENTRY edges and the like: a thread starting somewhere */
        if (t->depth == 0 && cfg_is_block(p, e->tgt)) return enter_block(pr, t, e->tgt, 0);
        return 0;
    }
    prof_routine *R = &pr->routines[m.routine];
    const tk_csi_edge *ce = &R->edges[m.k];
    if (t->depth == 0 || t->stack[t->depth - 1].routine != m.routine) {
        /* out of step (the trace starts inside this routine, or a frame was
         * missed): start a frame whose path start is unknown */
        if (t->depth > 0) {
            pr->routines[t->stack[t->depth - 1].routine].stats.unfinished++;
            t->depth--;
        }
        if (push(t, m.routine, ce->src, ce->src == 1) != 0) return -1;
    }
    frame *f = &t->stack[t->depth - 1];
    if (f->cur != ce->src) f->known = 0;
    if (ce->dst == 0) { /* to EXIT: return, or a jump out of the routine */
        if (end_path(pr, f, m.k, 0) != 0) return -1;
        t->depth--;
        if (tk_edge_kind_is_any_return(kind)) {
            if (t->depth == 0) return 0;
            frame *c = &t->stack[t->depth - 1];
            uint32_t tgt = cfg_is_block(p, e->tgt) ? e->tgt : NONE;
            if (tgt == NONE || pr->owner[tgt] != c->routine) {
                c->known = 0;
                return 0;
            }
            /* back in the caller: its call-bypass edge to the return site */
            prof_routine *C = &pr->routines[c->routine];
            uint32_t k = find_local_edge(C, c->cur, pr->local[tgt]);
            if (k == NONE || C->edges[k].back)
                c->known = 0;
            else
                c->r += C->edges[k].weight;
            c->cur = pr->local[tgt];
            return 0;
        }
        if (cfg_is_block(p, e->tgt)) return enter_block(pr, t, e->tgt, 0);
        return 0;
    }
    if (ce->back) {
        if (end_path(pr, f, m.k, 1) != 0) return -1;
        f->r = ce->weight; /* the hidden ENTRY->dst edge */
        f->known = 1;
    } else {
        f->r += ce->weight;
    }
    f->cur = ce->dst;
    return 0;
}

tk_status tk_csi_profile_edges(tk_csi_profile *pr, uint64_t thread, const uint32_t *edges, size_t n,
                               tk_error *err)
{
    thread_state *t = thread_of(pr, thread);
    if (!t) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        if (step(pr, t, edges[i]) != 0) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_OK;
}

void tk_csi_profile_finish(tk_csi_profile *pr)
{
    for (size_t i = 0; i < pr->nthreads; i++) {
        thread_state *t = &pr->threads[i];
        for (size_t k = 0; k < t->depth; k++) pr->routines[t->stack[k].routine].stats.unfinished++;
        t->depth = 0;
    }
}

uint32_t tk_csi_profile_routine_count(const tk_csi_profile *pr) { return pr->nroutines; }

void tk_csi_profile_totals(const tk_csi_profile *pr, uint64_t *edges, uint64_t *unknown_edges)
{
    *edges = pr->edges;
    *unknown_edges = pr->unknown_edges;
}

const tk_csi_function *tk_csi_profile_routine(const tk_csi_profile *pr, uint32_t i,
                                              tk_csi_numbering **num, tk_csi_profile_stats *stats)
{
    const prof_routine *R = &pr->routines[i];
    *num = R->ok ? R->num : NULL;
    *stats = R->stats;
    stats->distinct = R->counts.len;
    return &R->fn;
}

static int cmp_counts(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b; /* (id, count) pairs */
    if (x[1] != y[1]) return x[1] < y[1] ? 1 : -1;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

tk_status tk_csi_profile_paths(const tk_csi_profile *pr, uint32_t i, uint64_t *pairs, size_t max,
                               size_t *written, tk_error *err)
{
    const prof_routine *R = &pr->routines[i];
    size_t n = 0;
    uint64_t k, v;
    *written = 0;
    uint64_t *all = tk_reallocarray(NULL, R->counts.len + 1, 2 * sizeof *all);
    if (!all) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (size_t it = 0; tk_hmap_next(&R->counts, &it, &k, &v);) {
        all[2 * n] = k;
        all[2 * n + 1] = v;
        n++;
    }
    qsort(all, n, 2 * sizeof *all, cmp_counts);
    if (n > max) n = max;
    memcpy(pairs, all, n * 2 * sizeof *all);
    tk_free(all);
    *written = n;
    return TK_OK;
}
