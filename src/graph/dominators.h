/* Immediate dominators and natural loops of a small directed graph given in
 * CSR form (nodes 0..n-1, successors of v in adj[start[v] .. start[v+1])).
 * Everything is iterative: no recursion depth grows with the graph. */
#ifndef TK_GRAPH_DOMINATORS_H
#define TK_GRAPH_DOMINATORS_H

#include <stdint.h>

#include "tracekit/status.h"

#define TK_DOM_NONE UINT32_MAX

/* Immediate dominators (Lengauer-Tarjan, O(m log n)).  idom[v] receives the
 * immediate dominator of v (idom[entry] = entry; TK_DOM_NONE for a node not
 * reachable from entry).  Returns TK_OK or TK_ERR_NOMEM. */
tk_status tk_dominators(uint32_t n, const uint32_t *start, const uint32_t *adj, uint32_t entry,
                        uint32_t *idom);

/* Dominator-tree interval numbering for O(1) "a dominates b" queries. */
typedef struct tk_domtree {
    uint32_t n;
    uint32_t *pre, *post; /* TK_DOM_NONE for unreachable nodes */
} tk_domtree;
tk_status tk_domtree_build(tk_domtree *t, uint32_t n, const uint32_t *idom);
int tk_domtree_dominates(const tk_domtree *t, uint32_t a, uint32_t b);
void tk_domtree_free(tk_domtree *t);

#endif
