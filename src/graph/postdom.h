/* Immediate post-dominators of a graph in CSR form (nodes 0..n-1, successors
 * of v in adj[start[v] .. start[v+1])) whose node `exit` is where every path
 * ends: the dominators of the reversed graph from exit.  Iterative. */
#ifndef TK_GRAPH_POSTDOM_H
#define TK_GRAPH_POSTDOM_H

#include <stdint.h>

#include "tracekit/status.h"

/* ipdom[v] receives the immediate post-dominator of v (ipdom[exit] = exit).
 * A node from which exit cannot be reached (an endless loop, a region that
 * only leads to such) is given a path to exit first: repeatedly, the highest
 * numbered node that cannot reach exit gets an edge to it (the caller numbers
 * nodes so that this is the last block of such a region, e.g. by address).
 * Returns TK_OK or TK_ERR_NOMEM. */
tk_status tk_postdominators(uint32_t n, const uint32_t *start, const uint32_t *adj, uint32_t exit,
                            uint32_t *ipdom);

#endif
