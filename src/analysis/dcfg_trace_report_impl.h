/* The DCFG-Trace report's storage, which its partial results (dcfg_trace_report_merge.c:
 * merge, serialise) share with the report (dcfg_trace_report.c). */
#ifndef TK_ANALYSIS_DCFG_TRACE_REPORT_IMPL_H
#define TK_ANALYSIS_DCFG_TRACE_REPORT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/dcfg_trace_report.h"

/* edge id -> count (open addressing; id 0 never occurs) */
typedef struct count_map {
    uint32_t *keys;
    uint64_t *vals;
    size_t cap, n;
} count_map;

typedef tk_dcfg_trace_report_row ranked;

struct tk_dcfg_trace_report {
    tk_dcfg_trace_report_stats stats;
    count_map edges;
    int failed; /* out of memory while counting */
    ranked *table[3]; /* TK_DCFG_TRACE_TOP_EDGES, _HOT_BLOCKS, _HOT_LOOPS */
    size_t n[3];
    uint64_t top; /* tk_dcfg_trace_report_cut: the rows tk_dcfg_trace_report_count shows (0: all) */
};

/* Add v to key's count (inserting it). 0, or -1 when out of memory. */
int tk_dtr_count_add(count_map *m, uint32_t key, uint64_t v);
/* The TOP_EDGES table of r's counts, most frequent first (the hot tables dropped). TK_OK,
 * TK_ERR_NOMEM. */
tk_status tk_dtr_rank_edges(tk_dcfg_trace_report *r, tk_error *err);

#endif
