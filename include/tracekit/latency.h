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

/* per_thread: one row per (thread, function); else one per function. */
TK_API tk_latency *tk_latency_new(int per_thread);
TK_API void tk_latency_free(tk_latency *l);

/* Consume a whole source. Errors from the source, TK_ERR_NOMEM, TK_ERR_LIMIT. */
TK_API tk_status tk_latency_run(tk_latency *l, const tk_event_source *src, tk_error *err);

/* The rows in key order (thread, then function id); computed once, owned by l. */
TK_API tk_status tk_latency_rows(tk_latency *l, const tk_latency_row **rows, size_t *count,
                          tk_error *err);
TK_API void tk_latency_get_totals(const tk_latency *l, tk_latency_totals *out);

/* ---- the report: the rows in an order (llvm-xray account --sort, --sortorder, --top) --- */
typedef enum tk_latency_key {
    TK_LATENCY_KEY_SUM = 0, /* total time (the default) */
    TK_LATENCY_KEY_FUNCID,
    TK_LATENCY_KEY_COUNT,
    TK_LATENCY_KEY_MIN,
    TK_LATENCY_KEY_MEDIAN,
    TK_LATENCY_KEY_P90,
    TK_LATENCY_KEY_P99,
    TK_LATENCY_KEY_MAX,
    TK_LATENCY_KEY_FUNC     /* the function's name (tk_event_func_name of `names`) */
} tk_latency_key;

typedef enum tk_latency_order {
    TK_LATENCY_ORDER_DEFAULT = 0, /* ascending for FUNCID and FUNC, else descending */
    TK_LATENCY_ORDER_ASC,
    TK_LATENCY_ORDER_DESC
} tk_latency_order;

typedef struct tk_latency_report_options {
    tk_latency_key key;
    tk_latency_order order;
    uint64_t top;                 /* at most this many rows; 0: all */
    const tk_event_source *names; /* the names TK_LATENCY_KEY_FUNC sorts by (borrowed, used
                                     only by tk_latency_report_new); NULL: "#ID" */
} tk_latency_report_options;

#define TK_LATENCY_REPORT_OPTIONS_INIT {TK_LATENCY_KEY_SUM, TK_LATENCY_ORDER_DEFAULT, 0, NULL}

typedef struct tk_latency_report tk_latency_report;

/* The rows of l with completed calls, sorted by the key (ties: thread, then function id,
 * ascending; names compared as bytes, the first 95 of each), the first `top` of them
 * (opt NULL: the defaults). l may be freed afterwards. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_latency_report_new(tk_latency_report **out, tk_latency *l,
                                       const tk_latency_report_options *opt, tk_error *err);
TK_API size_t tk_latency_report_count(const tk_latency_report *r);
/* Row i (< count), borrowed from r. */
TK_API const tk_latency_row *tk_latency_report_row(const tk_latency_report *r, size_t i);
TK_API void tk_latency_report_free(tk_latency_report *r);

/* ---- the difference of two traces (per function, as `tracekit diff`) ------------------ */
typedef struct tk_latency_diff_row {
    uint64_t func;
    uint64_t count[2];        /* completed calls in A and in B (0: none in that trace) */
    double sum[2], median[2]; /* in the diff's unit; ticks for a trace without a clock rate */
} tk_latency_diff_row;

typedef struct tk_latency_diff tk_latency_diff;

/* An empty difference whose times are in `unit`. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_latency_diff_new(tk_latency_diff **out, tk_time_unit unit, tk_error *err);
/* Side 0 (A) or 1 (B): the functions of l with completed calls, their times converted
 * with ticks_per_second (that trace's clock rate; <= 0: no clock, the times stay ticks).
 * l may be freed afterwards. Returns TK_OK, TK_ERR_ARG (side not 0 or 1, or given
 * twice), TK_ERR_NOMEM. */
TK_API tk_status tk_latency_diff_add(tk_latency_diff *d, int side, tk_latency *l,
                                     double ticks_per_second, tk_error *err);
/* Once both sides are in: one row per function of either, by the absolute change of the
 * total time (largest first), then function id. Returns TK_OK, TK_ERR_ARG (a side
 * missing), TK_ERR_NOMEM. */
TK_API tk_status tk_latency_diff_finish(tk_latency_diff *d, tk_error *err);
/* Rows after finish (0 before); row i (< count), borrowed from d. */
TK_API size_t tk_latency_diff_count(const tk_latency_diff *d);
TK_API const tk_latency_diff_row *tk_latency_diff_row_at(const tk_latency_diff *d, size_t i);
/* 1 when both traces have a clock rate (the times are in the unit), else 0. */
TK_API int tk_latency_diff_has_clock(const tk_latency_diff *d);
TK_API void tk_latency_diff_free(tk_latency_diff *d);

#ifdef __cplusplus
}
#endif
#endif
