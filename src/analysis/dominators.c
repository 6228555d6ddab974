/* Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm" (2001),
 * with an explicit-stack depth-first search for the reverse postorder. */
#include "analysis/dominators.h"

#include <stdlib.h>

#include "core/alloc.h"

/* Postorder numbering of the nodes reachable from entry.  order[k] is the
 * node with postorder number k; po[v] its number (NONE if unreachable).
 * Returns the number of reachable nodes, or UINT32_MAX on out-of-memory. */
static uint32_t postorder(uint32_t n, const uint32_t *start, const uint32_t *adj, uint32_t entry,
                          uint32_t *po, uint32_t *order)
{
    uint32_t *stack = tk_malloc(sizeof *stack * (size_t)(n ? n : 1));
    uint32_t *next = tk_malloc(sizeof *next * (size_t)(n ? n : 1)); /* next successor to visit */
    if (!stack || !next) {
        tk_free(stack);
        tk_free(next);
        return UINT32_MAX;
    }
    for (uint32_t v = 0; v < n; v++) po[v] = TK_DOM_NONE;
    uint32_t count = 0, sp = 0;
    /* mark visited with po = NONE-1 until numbered */
    const uint32_t onstack = TK_DOM_NONE - 1;
    stack[sp++] = entry;
    next[entry] = start[entry];
    po[entry] = onstack;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (next[v] < start[v + 1]) {
            uint32_t w = adj[next[v]++];
            if (w < n && po[w] == TK_DOM_NONE) {
                po[w] = onstack;
                next[w] = start[w];
                stack[sp++] = w;
            }
        } else {
            sp--;
            po[v] = count;
            order[count++] = v;
        }
    }
    tk_free(stack);
    tk_free(next);
    return count;
}

tk_status tk_dominators(uint32_t n, const uint32_t *start, const uint32_t *adj, uint32_t entry,
                        uint32_t *idom)
{
    if (n == 0) return TK_OK;
    uint32_t *po = tk_malloc(sizeof *po * n);
    uint32_t *order = tk_malloc(sizeof *order * n);
    uint32_t *pstart = tk_calloc((size_t)n + 1, sizeof *pstart);
    uint32_t *padj = tk_malloc(sizeof *padj * (size_t)(start[n] ? start[n] : 1));
    tk_status st = TK_ERR_NOMEM;
    if (!po || !order || !pstart || !padj) goto done;
    uint32_t reach = postorder(n, start, adj, entry, po, order);
    if (reach == UINT32_MAX) goto done;
    /* predecessor CSR */
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = start[v]; k < start[v + 1]; k++)
            if (adj[k] < n) pstart[adj[k] + 1]++;
    for (uint32_t v = 0; v < n; v++) pstart[v + 1] += pstart[v];
    {
        uint32_t *fill = tk_malloc(sizeof *fill * n);
        if (!fill) goto done;
        for (uint32_t v = 0; v < n; v++) fill[v] = pstart[v];
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t k = start[v]; k < start[v + 1]; k++)
                if (adj[k] < n) padj[fill[adj[k]]++] = v;
        tk_free(fill);
    }
    for (uint32_t v = 0; v < n; v++) idom[v] = TK_DOM_NONE;
    idom[entry] = entry;
    int changed = 1;
    while (changed) {
        changed = 0;
        /* reverse postorder, skipping the entry (highest number) */
        for (uint32_t k = reach - 1; k-- > 0;) {
            uint32_t b = order[k];
            uint32_t new_idom = TK_DOM_NONE;
            for (uint32_t q = pstart[b]; q < pstart[b + 1]; q++) {
                uint32_t p = padj[q];
                if (idom[p] == TK_DOM_NONE) continue;
                if (new_idom == TK_DOM_NONE) {
                    new_idom = p;
                    continue;
                }
                uint32_t f1 = p, f2 = new_idom;
                while (f1 != f2) {
                    while (po[f1] < po[f2]) f1 = idom[f1];
                    while (po[f2] < po[f1]) f2 = idom[f2];
                }
                new_idom = f1;
            }
            if (new_idom != TK_DOM_NONE && idom[b] != new_idom) {
                idom[b] = new_idom;
                changed = 1;
            }
        }
    }
    st = TK_OK;
done:
    tk_free(po);
    tk_free(order);
    tk_free(pstart);
    tk_free(padj);
    return st;
}

tk_status tk_domtree_build(tk_domtree *t, uint32_t n, const uint32_t *idom)
{
    t->n = n;
    t->pre = tk_malloc(sizeof *t->pre * (size_t)(n ? n : 1));
    t->post = tk_malloc(sizeof *t->post * (size_t)(n ? n : 1));
    uint32_t *cstart = tk_calloc((size_t)n + 2, sizeof *cstart);
    uint32_t *child = tk_malloc(sizeof *child * (size_t)(n ? n : 1));
    uint32_t *stack = tk_malloc(sizeof *stack * (size_t)(n ? n : 1));
    uint32_t *next = tk_malloc(sizeof *next * (size_t)(n ? n : 1));
    tk_status st = TK_ERR_NOMEM;
    if (!t->pre || !t->post || !cstart || !child || !stack || !next) goto done;
    for (uint32_t v = 0; v < n; v++) {
        t->pre[v] = t->post[v] = TK_DOM_NONE;
        if (idom[v] != TK_DOM_NONE && idom[v] != v && idom[v] < n) cstart[idom[v] + 1]++;
    }
    for (uint32_t v = 0; v < n; v++) cstart[v + 1] += cstart[v];
    for (uint32_t v = 0; v < n; v++) next[v] = cstart[v];
    for (uint32_t v = 0; v < n; v++)
        if (idom[v] != TK_DOM_NONE && idom[v] != v && idom[v] < n) child[next[idom[v]]++] = v;
    uint32_t clock = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (idom[root] != root) continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        next[root] = cstart[root];
        t->pre[root] = clock++;
        while (sp) {
            uint32_t v = stack[sp - 1];
            if (next[v] < cstart[v + 1]) {
                uint32_t w = child[next[v]++];
                if (t->pre[w] != TK_DOM_NONE) continue; /* defensive: malformed tree */
                t->pre[w] = clock++;
                next[w] = cstart[w];
                stack[sp++] = w;
            } else {
                t->post[v] = clock++;
                sp--;
            }
        }
    }
    st = TK_OK;
done:
    tk_free(cstart);
    tk_free(child);
    tk_free(stack);
    tk_free(next);
    if (st != TK_OK) tk_domtree_free(t);
    return st;
}

int tk_domtree_dominates(const tk_domtree *t, uint32_t a, uint32_t b)
{
    if (a >= t->n || b >= t->n) return 0;
    if (t->pre[a] == TK_DOM_NONE || t->pre[b] == TK_DOM_NONE) return 0;
    return t->pre[a] <= t->pre[b] && t->post[b] <= t->post[a];
}

void tk_domtree_free(tk_domtree *t)
{
    tk_free(t->pre);
    tk_free(t->post);
    t->pre = t->post = NULL;
    t->n = 0;
}
