/* Natural loops from back edges (u -> h with h dominating u), one loop per
 * head, nesting by body inclusion.  Iterative worklists only. */
#include "graph/loops.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/vec.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void tk_loops_free(tk_loops *l)
{
    tk_free(l->head);
    tk_free(l->node_start);
    tk_free(l->nodes);
    tk_free(l->back_start);
    tk_free(l->back);
    tk_free(l->parent);
    tk_free(l->depth);
    tk_free(l->inner);
    memset(l, 0, sizeof *l);
}

/* grow *arr to hold need elements */
static int reserve(uint32_t **arr, size_t *cap, size_t need)
{
    return tk_vec_reserve_((void **)arr, cap, need, sizeof **arr) == 0;
}

/* What finding the loops works with: the dominator tree, the predecessors
 * (CSR pstart/padj), a mark per node (the loop that reached it), a stack,
 * and the capacities of the growing arrays of out. */
typedef struct finder {
    tk_loops *out;
    uint32_t n;
    tk_domtree dt;
    uint32_t *pstart, *padj, *mark, *work;
    size_t cap_heads, cap_ns, cap_nodes, cap_bs, cap_back;
    size_t nnodes, nback;
} finder;

/* The predecessors of every node from the successors (start/adj); 0 when
 * out of memory. */
static int build_preds(finder *f, const uint32_t *start, const uint32_t *adj)
{
    uint32_t n = f->n;
    size_t nn = n ? n : 1;
    f->pstart = tk_calloc(nn + 1, sizeof *f->pstart);
    f->padj = tk_malloc(sizeof *f->padj * (start[n] ? start[n] : 1));
    f->mark = tk_malloc(sizeof *f->mark * nn);
    f->work = tk_malloc(sizeof *f->work * nn);
    if (!f->pstart || !f->padj || !f->mark || !f->work) return 0;
    uint32_t *pstart = f->pstart, *work = f->work;
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = start[v]; k < start[v + 1]; k++)
            if (adj[k] < n) pstart[adj[k] + 1]++;
    for (uint32_t v = 0; v < n; v++) pstart[v + 1] += pstart[v];
    for (uint32_t v = 0; v < n; v++) work[v] = pstart[v];
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = start[v]; k < start[v + 1]; k++)
            if (adj[k] < n) f->padj[work[adj[k]]++] = v;
    for (uint32_t v = 0; v < n; v++) f->mark[v] = TK_DOM_NONE;
    return 1;
}

/* The sources of back edges into h (dominated by h), sorted and without
 * duplicates (parallel edges), appended to out->back; 0 when out of memory. */
static int back_sources(finder *f, uint32_t h)
{
    tk_loops *out = f->out;
    size_t back_begin = f->nback;
    for (uint32_t q = f->pstart[h]; q < f->pstart[h + 1]; q++) {
        uint32_t u = f->padj[q];
        if (tk_domtree_dominates(&f->dt, h, u)) {
            if (!reserve(&out->back, &f->cap_back, f->nback + 1)) return 0;
            out->back[f->nback++] = u;
        }
    }
    if (f->nback == back_begin) return 1;
    qsort(out->back + back_begin, f->nback - back_begin, sizeof(uint32_t), cmp_u32);
    size_t w = back_begin;
    for (size_t k = back_begin; k < f->nback; k++)
        if (w == back_begin || out->back[w - 1] != out->back[k]) out->back[w++] = out->back[k];
    f->nback = w;
    return 1;
}

/* The natural loop li of head h with the back-edge sources back[back_begin
 * ..): h, then everything reaching a back-edge source without passing h,
 * sorted; 0 when out of memory. */
static int loop_body(finder *f, uint32_t li, uint32_t h, size_t back_begin)
{
    tk_loops *out = f->out;
    uint32_t *mark = f->mark, *work = f->work;
    size_t body_begin = f->nnodes;
    if (!reserve(&out->nodes, &f->cap_nodes, f->nnodes + 1)) return 0;
    out->nodes[f->nnodes++] = h;
    mark[h] = li;
    uint32_t sp = 0;
    for (size_t k = back_begin; k < f->nback; k++) {
        uint32_t u = out->back[k];
        if (mark[u] != li) {
            mark[u] = li;
            work[sp++] = u;
        }
    }
    while (sp) {
        uint32_t v = work[--sp];
        if (!reserve(&out->nodes, &f->cap_nodes, f->nnodes + 1)) return 0;
        out->nodes[f->nnodes++] = v;
        for (uint32_t q = f->pstart[v]; q < f->pstart[v + 1]; q++) {
            uint32_t p = f->padj[q];
            /* only nodes dominated by h can be in its natural loop */
            if (mark[p] != li && tk_domtree_dominates(&f->dt, h, p)) {
                mark[p] = li;
                work[sp++] = p;
            }
        }
    }
    qsort(out->nodes + body_begin + 1, f->nnodes - body_begin - 1, sizeof(uint32_t), cmp_u32);
    return 1;
}

/* Every loop: a head h with back edges (in node order); 0 when out of memory. */
static int find_all(finder *f)
{
    tk_loops *out = f->out;
    for (uint32_t h = 0; h < f->n; h++) {
        if (f->dt.pre[h] == TK_DOM_NONE) continue;
        size_t back_begin = f->nback;
        if (!back_sources(f, h)) return 0;
        if (f->nback == back_begin) continue;
        uint32_t li = out->nloops;
        if (!reserve(&out->head, &f->cap_heads, (size_t)li + 1) ||
            !reserve(&out->node_start, &f->cap_ns, (size_t)li + 2) ||
            !reserve(&out->back_start, &f->cap_bs, (size_t)li + 2))
            return 0;
        out->head[li] = h;
        out->node_start[li] = (uint32_t)f->nnodes;
        out->back_start[li] = (uint32_t)back_begin;
        if (!loop_body(f, li, h, back_begin)) return 0;
        out->nloops++;
    }
    if (out->nloops) {
        out->node_start[out->nloops] = (uint32_t)f->nnodes;
        out->back_start[out->nloops] = (uint32_t)f->nback;
    } else {
        if (!reserve(&out->node_start, &f->cap_ns, 1) || !reserve(&out->back_start, &f->cap_bs, 1))
            return 0;
        out->node_start[0] = out->back_start[0] = 0;
    }
    return 1;
}

/* Nesting: the loops visited by decreasing size, so that the last writer of
 * inner[v] is the smallest loop containing v; parent and depth of each.
 * 0 when out of memory. */
static int set_nesting(tk_loops *out, uint32_t n)
{
    size_t nl = out->nloops ? out->nloops : 1;
    uint32_t *order = tk_malloc(sizeof *order * nl);
    uint64_t *keyed = tk_malloc(sizeof *keyed * nl);
    out->parent = tk_malloc(sizeof *out->parent * nl);
    out->depth = tk_malloc(sizeof *out->depth * nl);
    int ok = order && keyed && out->parent && out->depth;
    if (ok) {
        /* sort by size descending: key = (UINT32_MAX - size, index) */
        for (uint32_t i = 0; i < out->nloops; i++) {
            uint32_t size = out->node_start[i + 1] - out->node_start[i];
            keyed[i] = ((uint64_t)(UINT32_MAX - size) << 32) | i;
        }
        qsort(keyed, out->nloops, sizeof *keyed, cmp_u64);
        for (uint32_t i = 0; i < out->nloops; i++) order[i] = (uint32_t)keyed[i];
        for (uint32_t v = 0; v < n; v++) out->inner[v] = TK_DOM_NONE;
        for (uint32_t k = 0; k < out->nloops; k++) {
            uint32_t li = order[k];
            uint32_t par = out->inner[out->head[li]];
            out->parent[li] = par;
            out->depth[li] = par == TK_DOM_NONE ? 0 : out->depth[par] + 1;
            for (uint32_t q = out->node_start[li]; q < out->node_start[li + 1]; q++)
                out->inner[out->nodes[q]] = li;
        }
    }
    tk_free(keyed);
    tk_free(order);
    return ok;
}

tk_status tk_loops_find(tk_loops *out, uint32_t n, const uint32_t *start, const uint32_t *adj,
                        const uint32_t *idom)
{
    memset(out, 0, sizeof *out);
    finder f;
    memset(&f, 0, sizeof f);
    f.out = out;
    f.n = n;
    tk_status st = tk_domtree_build(&f.dt, n, idom);
    if (st != TK_OK) return st;
    out->inner = tk_malloc(sizeof *out->inner * (n ? n : 1));
    st = out->inner && build_preds(&f, start, adj) && find_all(&f) && set_nesting(out, n)
             ? TK_OK
             : TK_ERR_NOMEM;
    if (st != TK_OK) tk_loops_free(out);
    tk_domtree_free(&f.dt);
    tk_free(f.pstart);
    tk_free(f.padj);
    tk_free(f.mark);
    tk_free(f.work);
    return st;
}
