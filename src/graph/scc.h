/* Strongly connected components of a directed graph in CSR form (nodes
 * 0..n-1, the successors of v in to[first[v] .. first[v + 1])): iterative
 * Tarjan, no recursion depth grows with the graph. */
#ifndef TK_GRAPH_SCC_H
#define TK_GRAPH_SCC_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/status.h"

/* comp[v] for each of the n nodes, numbered in the order the components
 * complete (a component's successors come first). TK_OK or TK_ERR_NOMEM. */
tk_status tk_scc(size_t n, const uint32_t *first, const uint32_t *to, uint32_t *comp);

#endif
