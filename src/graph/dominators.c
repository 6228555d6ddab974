/* Lengauer and Tarjan, "A Fast Algorithm for Finding Dominators in a
 * Flowgraph" (1979), the simple version (path compression without
 * balancing: O(m log n)), with an explicit-stack depth-first search and an
 * iterative path compression.  (Cooper-Harvey-Kennedy, used before, is
 * quadratic on a chain whose every block also branches to one join block.) */
#include "graph/dominators.h"

#include <stdlib.h>

#include "core/alloc.h"

typedef struct lt_state {
    uint32_t *pre; /* node -> preorder number, NONE when unreachable */
    uint32_t *vertex; /* preorder number -> node */
    uint32_t *parent; /* node -> its DFS tree parent (node) */
    uint32_t *semi; /* node -> preorder number of its semidominator */
    uint32_t *ancestor; /* node -> forest ancestor (node) or NONE */
    uint32_t *label; /* node -> node of least semi on the compressed path */
    uint32_t *bucket, *bucket_next; /* node -> first / next node whose semidominator it is */
    uint32_t *stack;
} lt_state;

/* Preorder from entry; returns the number of reachable nodes.  The next
 * successor to visit of each node on the stack is kept in `label` (free until
 * the main pass). */
static uint32_t lt_dfs(lt_state *s, uint32_t n, const uint32_t *start, const uint32_t *adj,
                       uint32_t entry)
{
    uint32_t count = 0, sp = 0;
    s->pre[entry] = count;
    s->vertex[count++] = entry;
    s->parent[entry] = TK_DOM_NONE;
    s->label[entry] = start[entry];
    s->stack[sp++] = entry;
    while (sp) {
        uint32_t v = s->stack[sp - 1];
        if (s->label[v] < start[v + 1]) {
            uint32_t w = adj[s->label[v]++];
            if (w < n && s->pre[w] == TK_DOM_NONE) {
                s->pre[w] = count;
                s->vertex[count++] = w;
                s->parent[w] = v;
                s->label[w] = start[w];
                s->stack[sp++] = w;
            }
        } else {
            sp--;
        }
    }
    return count;
}

/* The node of least semidominator on the forest path above v (v when v is
 * a root), compressing the path on the way. */
static uint32_t lt_eval(lt_state *s, uint32_t v)
{
    if (s->ancestor[v] == TK_DOM_NONE) return v;
    uint32_t sp = 0, x = v;
    while (s->ancestor[s->ancestor[x]] != TK_DOM_NONE) {
        s->stack[sp++] = x;
        x = s->ancestor[x];
    }
    while (sp) { /* from the top of the path down: each node's ancestor is compressed already */
        uint32_t y = s->stack[--sp], a = s->ancestor[y];
        if (s->semi[s->label[a]] < s->semi[s->label[y]]) s->label[y] = s->label[a];
        s->ancestor[y] = s->ancestor[a];
    }
    return s->label[v];
}

tk_status tk_dominators(uint32_t n, const uint32_t *start, const uint32_t *adj, uint32_t entry,
                        uint32_t *idom)
{
    if (n == 0) return TK_OK;
    lt_state s;
    uint32_t **arrays[] = {&s.pre,   &s.vertex, &s.parent,      &s.semi, &s.ancestor,
                           &s.label, &s.bucket, &s.bucket_next, &s.stack};
    const size_t narrays = sizeof arrays / sizeof *arrays;
    int ok = 1;
    for (size_t i = 0; i < narrays; i++)
        if (!(*arrays[i] = tk_malloc(sizeof **arrays[i] * n))) ok = 0;
    uint32_t *pstart = ok ? tk_calloc((size_t)n + 1, sizeof *pstart) : NULL;
    uint32_t *padj = ok ? tk_malloc(sizeof *padj * (size_t)(start[n] ? start[n] : 1)) : NULL;
    tk_status st = TK_ERR_NOMEM;
    if (!pstart || !padj) goto done;
    /* predecessor CSR */
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = start[v]; k < start[v + 1]; k++)
            if (adj[k] < n) pstart[adj[k] + 1]++;
    for (uint32_t v = 0; v < n; v++) pstart[v + 1] += pstart[v];
    for (uint32_t v = 0; v < n; v++) s.ancestor[v] = pstart[v]; /* fill cursors, for now */
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = start[v]; k < start[v + 1]; k++)
            if (adj[k] < n) padj[s.ancestor[adj[k]]++] = v;
    for (uint32_t v = 0; v < n; v++) {
        s.pre[v] = idom[v] = s.bucket[v] = TK_DOM_NONE;
        s.ancestor[v] = TK_DOM_NONE;
    }
    uint32_t reach = lt_dfs(&s, n, start, adj, entry);
    for (uint32_t i = 0; i < reach; i++) {
        uint32_t v = s.vertex[i];
        s.semi[v] = i;
        s.label[v] = v;
    }
    for (uint32_t i = reach; i-- > 1;) {
        uint32_t w = s.vertex[i];
        for (uint32_t q = pstart[w]; q < pstart[w + 1]; q++) {
            uint32_t v = padj[q];
            if (s.pre[v] == TK_DOM_NONE) continue; /* unreachable predecessor */
            uint32_t u = lt_eval(&s, v);
            if (s.semi[u] < s.semi[w]) s.semi[w] = s.semi[u];
        }
        uint32_t sd = s.vertex[s.semi[w]];
        s.bucket_next[w] = s.bucket[sd];
        s.bucket[sd] = w;
        uint32_t p = s.parent[w];
        s.ancestor[w] = p; /* link */
        for (uint32_t v = s.bucket[p]; v != TK_DOM_NONE; v = s.bucket_next[v]) {
            uint32_t u = lt_eval(&s, v);
            idom[v] = s.semi[u] < s.semi[v] ? u : p;
        }
        s.bucket[p] = TK_DOM_NONE;
    }
    for (uint32_t i = 1; i < reach; i++) {
        uint32_t w = s.vertex[i];
        if (idom[w] != s.vertex[s.semi[w]]) idom[w] = idom[idom[w]];
    }
    idom[entry] = entry;
    st = TK_OK;
done:
    for (size_t i = 0; i < narrays; i++) tk_free(*arrays[i]);
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
