/* The storage of a folded-stacks partial (tracekit/folded_partial.h), shared by
 * folded_partial.c (made, merged, written) and folded_partial_bytes.c (bytes). */
#ifndef TK_ANALYSIS_FOLDED_PARTIAL_IMPL_H
#define TK_ANALYSIS_FOLDED_PARTIAL_IMPL_H

#include "tracekit/folded_partial.h"

/* A call-path node: a function (func, below 2^32) called from parent, or with per_thread a
 * thread's root (is_thread; func is its tid's bits, pid its pid, trace the source it came
 * from, below the partial's ntraces), and its weight. Node 0 is the root. */
typedef struct tk_fp_node {
    uint32_t parent;
    uint8_t is_thread;
    uint32_t trace;
    uint64_t func, w;
    int64_t pid;
} tk_fp_node;

struct tk_folded_partial {
    tk_folded_weight weight;
    int per_thread;
    double ticks_per_second;
    char *time_unit; /* the source's (NULL: none) */
    uint32_t ntraces; /* the traces it covers: the parts of a chain, 1 for another source */
    tk_fp_node *nodes;
    uint32_t n;
    uint64_t *fids; /* the functions named, ascending */
    char **fnames;
    uint32_t nf;
};

/* An empty partial (the root node only) of a clock of ticks_per_second in time_unit (copied;
 * may be NULL). NULL when out of memory. */
tk_folded_partial *tk_fp_new(tk_folded_weight weight, int per_thread, double ticks_per_second,
                             const char *time_unit);
/* The names of the functions of p's nodes (p without names yet), through src: TK_OK or
 * TK_ERR_NOMEM (no message). Also the DCFG-Trace folded stacks' (dcfg_trace_folded.c). */
tk_status tk_fp_name_functions(tk_folded_partial *p, const tk_event_source *src);

#endif
