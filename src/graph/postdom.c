/* Post-dominators: the dominators (graph/dominators.c) of the reversed graph,
 * from the exit node, after the nodes that cannot reach exit are given an
 * edge to it. */
#include "graph/postdom.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "graph/dominators.h"

/* Mark what reaches `from` in the original graph (a walk of the reversed one). */
static void reach_back(const uint32_t *rstart, const uint32_t *radj, uint32_t from, uint8_t *seen,
                       uint32_t *stack)
{
    uint32_t sp = 0;
    if (seen[from]) return;
    seen[from] = 1;
    stack[sp++] = from;
    while (sp) {
        uint32_t v = stack[--sp];
        for (uint32_t q = rstart[v]; q < rstart[v + 1]; q++) {
            uint32_t w = radj[q];
            if (!seen[w]) {
                seen[w] = 1;
                stack[sp++] = w;
            }
        }
    }
}

/* The reversed graph (rstart, radj), with the edges v -> exit of the nodes in `extra`
 * (nextra of them) added. */
static tk_status reverse(uint32_t n, const uint32_t *start, const uint32_t *adj, uint32_t exit,
                         const uint32_t *extra, uint32_t nextra, uint32_t **rstart, uint32_t **radj)
{
    uint32_t m = start[n];
    *rstart = tk_calloc((size_t)n + 2, sizeof **rstart);
    *radj = tk_malloc(sizeof **radj * ((size_t)m + nextra + 1));
    uint32_t *fill = tk_malloc(sizeof *fill * ((size_t)n + 1));
    if (!*rstart || !*radj || !fill) {
        tk_free(fill);
        return TK_ERR_NOMEM;
    }
    uint32_t *rs = *rstart;
    for (uint32_t q = 0; q < m; q++)
        if (adj[q] < n) rs[adj[q] + 1]++;
    rs[exit + 1] += nextra;
    for (uint32_t v = 0; v < n; v++) rs[v + 1] += rs[v];
    memcpy(fill, rs, sizeof *fill * n);
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t q = start[v]; q < start[v + 1]; q++)
            if (adj[q] < n) (*radj)[fill[adj[q]]++] = v;
    for (uint32_t i = 0; i < nextra; i++) (*radj)[fill[exit]++] = extra[i];
    tk_free(fill);
    return TK_OK;
}

/* The nodes that get an edge to exit: repeatedly the highest one that cannot reach it. */
static tk_status connect_unreached(uint32_t n, const uint32_t *start, const uint32_t *adj,
                                   uint32_t exit, uint32_t **extra, uint32_t *nextra)
{
    uint32_t *rstart = NULL, *radj = NULL;
    uint8_t *seen = tk_calloc(n ? n : 1, 1);
    uint32_t *stack = tk_malloc(sizeof *stack * (n ? n : 1));
    *extra = NULL;
    *nextra = 0;
    tk_status st =
        seen && stack ? reverse(n, start, adj, exit, NULL, 0, &rstart, &radj) : TK_ERR_NOMEM;
    if (st == TK_OK) reach_back(rstart, radj, exit, seen, stack);
    for (uint32_t v = n; st == TK_OK && v-- > 0;) {
        if (seen[v]) continue;
        uint32_t *e = tk_realloc(*extra, sizeof *e * (*nextra + 1));
        if (!e) {
            st = TK_ERR_NOMEM;
            break;
        }
        *extra = e;
        e[(*nextra)++] = v;
        reach_back(rstart, radj, v, seen, stack);
    }
    tk_free(seen);
    tk_free(stack);
    tk_free(rstart);
    tk_free(radj);
    return st;
}

tk_status tk_postdominators(uint32_t n, const uint32_t *start, const uint32_t *adj, uint32_t exit,
                            uint32_t *ipdom)
{
    uint32_t *extra = NULL, nextra = 0, *rstart = NULL, *radj = NULL;
    tk_status st = connect_unreached(n, start, adj, exit, &extra, &nextra);
    if (st == TK_OK) st = reverse(n, start, adj, exit, extra, nextra, &rstart, &radj);
    if (st == TK_OK) st = tk_dominators(n, rstart, radj, exit, ipdom);
    tk_free(extra);
    tk_free(rstart);
    tk_free(radj);
    return st;
}
