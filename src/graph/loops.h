/* Natural loops of a graph in CSR form, given its immediate dominators
 * (see dominators.h).  Iterative. */
#ifndef TK_GRAPH_LOOPS_H
#define TK_GRAPH_LOOPS_H

#include <stdint.h>

#include "tracekit/status.h"
#include "graph/dominators.h"

/* Natural loops: one loop per head (all back edges u->h with h dominating u
 * merged).  Loops are returned ordered by head; nodes of loop i are
 * nodes[node_start[i] .. node_start[i+1]) (head first, then ascending),
 * back-edge sources back[back_start[i] .. back_start[i+1]) (ascending).
 * parent[i] is the innermost enclosing loop or TK_DOM_NONE, depth[i] its
 * nesting depth (0 = outermost); inner[v] the innermost loop of node v.
 * All arrays are malloc'd and owned by the struct. */
typedef struct tk_loops {
    uint32_t nloops;
    uint32_t *head;
    uint32_t *node_start, *nodes;
    uint32_t *back_start, *back;
    uint32_t *parent, *depth;
    uint32_t *inner; /* n entries */
} tk_loops;
tk_status tk_loops_find(tk_loops *out, uint32_t n, const uint32_t *start, const uint32_t *adj,
                        const uint32_t *idom);
void tk_loops_free(tk_loops *l);

#endif
