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

tk_status tk_loops_find(tk_loops *out, uint32_t n, const uint32_t *start, const uint32_t *adj,
                        const uint32_t *idom)
{
    memset(out, 0, sizeof *out);
    tk_domtree dt;
    tk_status st = tk_domtree_build(&dt, n, idom);
    if (st != TK_OK) return st;
    st = TK_ERR_NOMEM;
    size_t nn = n ? n : 1;
    uint32_t *pstart = tk_calloc(nn + 1, sizeof *pstart);
    uint32_t *padj = tk_malloc(sizeof *padj * (start[n] ? start[n] : 1));
    uint32_t *mark = tk_malloc(sizeof *mark * nn);
    uint32_t *work = tk_malloc(sizeof *work * nn);
    uint32_t *order = NULL;
    size_t cap_heads = 0, cap_ns = 0, cap_nodes = 0, cap_bs = 0, cap_back = 0;
    size_t nnodes = 0, nback = 0;
    out->inner = tk_malloc(sizeof *out->inner * nn);
    if (!pstart || !padj || !mark || !work || !out->inner) goto fail;
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = start[v]; k < start[v + 1]; k++)
            if (adj[k] < n) pstart[adj[k] + 1]++;
    for (uint32_t v = 0; v < n; v++) pstart[v + 1] += pstart[v];
    for (uint32_t v = 0; v < n; v++) work[v] = pstart[v];
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = start[v]; k < start[v + 1]; k++)
            if (adj[k] < n) padj[work[adj[k]]++] = v;
    for (uint32_t v = 0; v < n; v++) mark[v] = TK_DOM_NONE;

    for (uint32_t h = 0; h < n; h++) {
        if (dt.pre[h] == TK_DOM_NONE) continue;
        /* back-edge sources into h */
        size_t back_begin = nback;
        for (uint32_t q = pstart[h]; q < pstart[h + 1]; q++) {
            uint32_t u = padj[q];
            if (tk_domtree_dominates(&dt, h, u)) {
                if (!reserve(&out->back, &cap_back, nback + 1)) goto fail;
                out->back[nback++] = u;
            }
        }
        if (nback == back_begin) continue;
        qsort(out->back + back_begin, nback - back_begin, sizeof(uint32_t), cmp_u32);
        /* dedupe (parallel edges) */
        size_t w = back_begin;
        for (size_t k = back_begin; k < nback; k++)
            if (w == back_begin || out->back[w - 1] != out->back[k]) out->back[w++] = out->back[k];
        nback = w;
        uint32_t li = out->nloops;
        if (!reserve(&out->head, &cap_heads, (size_t)li + 1) ||
            !reserve(&out->node_start, &cap_ns, (size_t)li + 2) ||
            !reserve(&out->back_start, &cap_bs, (size_t)li + 2))
            goto fail;
        out->head[li] = h;
        out->node_start[li] = (uint32_t)nnodes;
        out->back_start[li] = (uint32_t)back_begin;
        /* body: h plus everything reaching a back-edge source without h */
        size_t body_begin = nnodes;
        if (!reserve(&out->nodes, &cap_nodes, nnodes + 1)) goto fail;
        out->nodes[nnodes++] = h;
        mark[h] = li;
        uint32_t sp = 0;
        for (size_t k = back_begin; k < nback; k++) {
            uint32_t u = out->back[k];
            if (mark[u] != li) {
                mark[u] = li;
                work[sp++] = u;
            }
        }
        while (sp) {
            uint32_t v = work[--sp];
            if (!reserve(&out->nodes, &cap_nodes, nnodes + 1)) goto fail;
            out->nodes[nnodes++] = v;
            for (uint32_t q = pstart[v]; q < pstart[v + 1]; q++) {
                uint32_t p = padj[q];
                /* only nodes dominated by h can be in its natural loop */
                if (mark[p] != li && tk_domtree_dominates(&dt, h, p)) {
                    mark[p] = li;
                    work[sp++] = p;
                }
            }
        }
        qsort(out->nodes + body_begin + 1, nnodes - body_begin - 1, sizeof(uint32_t), cmp_u32);
        out->nloops++;
    }
    if (out->nloops) {
        out->node_start[out->nloops] = (uint32_t)nnodes;
        out->back_start[out->nloops] = (uint32_t)nback;
    } else {
        if (!reserve(&out->node_start, &cap_ns, 1) || !reserve(&out->back_start, &cap_bs, 1))
            goto fail;
        out->node_start[0] = out->back_start[0] = 0;
    }
    /* nesting: visit loops by decreasing size, so the last writer of
     * inner[v] is the smallest loop containing v */
    size_t nl = out->nloops ? out->nloops : 1;
    order = tk_malloc(sizeof *order * nl);
    out->parent = tk_malloc(sizeof *out->parent * nl);
    out->depth = tk_malloc(sizeof *out->depth * nl);
    if (!order || !out->parent || !out->depth) goto fail;
    for (uint32_t i = 0; i < out->nloops; i++) order[i] = i;
    /* sort by size descending: key = (UINT32_MAX - size, index) */
    {
        uint64_t *keyed = tk_malloc(sizeof *keyed * nl);
        if (!keyed) goto fail;
        for (uint32_t i = 0; i < out->nloops; i++) {
            uint32_t size = out->node_start[i + 1] - out->node_start[i];
            keyed[i] = ((uint64_t)(UINT32_MAX - size) << 32) | i;
        }
        qsort(keyed, out->nloops, sizeof *keyed, cmp_u64);
        for (uint32_t i = 0; i < out->nloops; i++) order[i] = (uint32_t)keyed[i];
        tk_free(keyed);
    }
    for (uint32_t v = 0; v < n; v++) out->inner[v] = TK_DOM_NONE;
    for (uint32_t k = 0; k < out->nloops; k++) {
        uint32_t li = order[k];
        uint32_t par = out->inner[out->head[li]];
        out->parent[li] = par;
        out->depth[li] = par == TK_DOM_NONE ? 0 : out->depth[par] + 1;
        for (uint32_t q = out->node_start[li]; q < out->node_start[li + 1]; q++)
            out->inner[out->nodes[q]] = li;
    }
    st = TK_OK;
    goto done;
fail:
    tk_loops_free(out);
done:
    tk_domtree_free(&dt);
    tk_free(pstart);
    tk_free(padj);
    tk_free(mark);
    tk_free(work);
    tk_free(order);
    return st;
}
