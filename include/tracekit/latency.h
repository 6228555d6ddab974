/* Latency accounting over an events stream (what `llvm-xray account` computes): per function
 * (or per function and thread) the count, min, median, 90th and 99th percentile, max and sum of
 * call durations. Durations are kept exactly: 2 bytes per call under 2^16 ticks, 4 under 2^32, else 8. */
#ifndef TRACEKIT_LATENCY_H
#define TRACEKIT_LATENCY_H

#include <stdint.h>

#include "events.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_latency tk_latency;

typedef struct tk_latency_row {
    uint64_t func;
    uint32_t thread;  /* dense thread index (per-thread rows), else UINT32_MAX */
    int64_t pid, tid; /* per-thread rows, else 0 */
    uint64_t count;   /* completed calls */
    uint64_t min, median, p90, p99, max; /* ticks; percentiles as llvm-xray: element
                                            floor(n*q) of the sorted durations */
    uint64_t sum;     /* ticks */
    uint64_t open;    /* calls still open at the end of the trace (not in the statistics) */
    uint64_t unwound; /* calls closed by the exit of a caller (included in the statistics) */
} tk_latency_row;

typedef struct tk_latency_totals {
    uint32_t threads;
    uint64_t enters, exits;
    uint64_t unmatched_exits; /* exits without an entry on their thread's stack (ignored) */
    uint64_t unwound;
    uint64_t open_at_end;
    uint64_t backwards;
    uint32_t max_depth;
} tk_latency_totals;

/* per_thread: one row per (thread, function); else one per function. TK_OK or
 * TK_ERR_NOMEM (*out NULL). */
TK_API tk_status tk_latency_open(tk_latency **out, int per_thread, tk_error *err);
TK_API void tk_latency_free(tk_latency *l);

/* Consume a whole source. Errors from the source, TK_ERR_NOMEM, TK_ERR_LIMIT. */
TK_API tk_status tk_latency_run(tk_latency *l, const tk_event_source *src, tk_error *err);

/* The rows in key order (thread, then function id); computed once, owned by l. */
TK_API tk_status tk_latency_rows(tk_latency *l, const tk_latency_row **rows, size_t *count,
                          tk_error *err);
TK_API void tk_latency_get_totals(const tk_latency *l, tk_latency_totals *out);

#ifdef __cplusplus
}
#endif
#endif
