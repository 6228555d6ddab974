/* The call graph of a profile's parts, for the analyses that need its shape:
 * adjacency arrays, strongly connected components, and the estimate of
 * inclusive costs inside call cycles (docs/formats/callgrind.md, "Inclusive
 * cost in call cycles"). */
#ifndef TK_ANALYSIS_CALL_GRAPH_H
#define TK_ANALYSIS_CALL_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/profile.h"
#include "graph/scc.h"
#include "analysis/profile_summary.h"

/* Which node each call row's caller and callee is: per call row of the parts
 * in order (row_caller/row_callee), else through a map of function ids
 * (fn_node), else the function ids themselves. */
typedef struct tk_call_nodes {
    const tk_prof_part *const *parts;
    size_t nparts;
    size_t n; /* nodes */
    const uint32_t *fn_node; /* function id -> node, or NULL */
    const uint32_t *row_caller, *row_callee; /* or NULL */
} tk_call_nodes;

/* The graph as adjacency arrays: the callees of node v are
 * to[first[v] .. first[v + 1]) (first: n + 1 entries; both the caller's,
 * freed with tk_free). Returns TK_OK, TK_ERR_NOMEM, TK_ERR_LIMIT (more than
 * 2^32 - 1 call rows). */
tk_status tk_call_graph_csr(const tk_call_nodes *m, uint32_t **first, uint32_t **to);

/* Whether a function name carries callgrind's recursion level suffix
 * (`fib'2`, `f'3'caller`): the activations of a function while it is already
 * on the stack (--separate-recs). */
int tk_name_is_recursion_level(const char *name, size_t len);

/* Inclusive costs of the nodes of a call graph.
 * In: incl holds each node's self costs (node i at incl + i * stride, nev
 * values); level[i] is 1 when node i's name carries a recursion level suffix;
 * totals are the program totals. Out: incl holds the inclusive costs; cycle[i]
 * is 0, or the 1-based number of node i's call cycle in *cycles (a strongly
 * connected component of more than one node, or one that calls itself);
 * estimated[i] is 1 when node i's inclusive cost is an estimate. *cycles gets
 * the cycles (members, self and inclusive cost of the cycle as a unit, calls
 * from outside), the heaviest first; freed with tk_prof_cycles_free.
 * Returns TK_OK, TK_ERR_NOMEM, TK_ERR_LIMIT. */
tk_status tk_inclusive_estimate(const tk_call_nodes *m, size_t nev, const uint64_t *totals,
                                const unsigned char *level, uint64_t *incl, size_t stride,
                                uint32_t *cycle, unsigned char *estimated, tk_prof_cycle **cycles,
                                size_t *ncycles);

void tk_prof_cycles_free(tk_prof_cycle *cycles, size_t n);

#endif
