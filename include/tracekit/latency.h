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
    uint32_t thread; /* dense thread index (per-thread rows), else UINT32_MAX */
    int64_t pid, tid; /* per-thread rows, else 0 */
    uint32_t trace; /* per-thread rows: the 0-based trace of the thread (of those accounted, in
                       their order: tk_event_chain_init, tk_latency_merge), else 0 */
    int64_t process; /* per-thread rows: the thread's process key (tk_event_process_keys over
                        every thread of the accounting that had an event, also one without a
                        call: what a Chrome trace of the traces writes as its pid), else 0 */
    uint64_t count; /* completed calls */
    uint64_t min, median, p90, p99, max; /* ticks; percentiles as llvm-xray: element
                                            floor(n*q) of the sorted durations */
    uint64_t sum; /* ticks */
    uint64_t open; /* calls still open at the end of the trace (not in the statistics) */
    uint64_t unwound; /* calls closed by the exit of a caller (included in the statistics) */
    uint64_t self; /* ticks: sum minus the time of the calls made from the function's calls
                         (their self time; llvm-xray account has no such column) */
} tk_latency_row;

typedef struct tk_latency_totals {
    uint32_t threads;
    uint64_t enters, exits;
    uint64_t unmatched_exits; /* exits without an entry on their thread's stack (ignored) */
    uint64_t unwound;
    uint64_t open_at_end;
    uint64_t backwards;
    uint32_t max_depth;
    uint32_t traces; /* the traces accounted (a chain's parts; those merged added up) */
} tk_latency_totals;

/* per_thread: one row per (thread, function); else one per function. TK_OK or
 * TK_ERR_NOMEM (*out NULL). */
TK_API tk_status tk_latency_open(tk_latency **out, int per_thread, tk_error *err);
TK_API void tk_latency_free(tk_latency *l);

/* Consume a whole source. Errors from the source, TK_ERR_NOMEM, TK_ERR_LIMIT. */
TK_API tk_status tk_latency_run(tk_latency *l, const tk_event_source *src, tk_error *err);

/* The rows in key order (thread, then function id); computed once, owned by l. TK_OK or
 * TK_ERR_NOMEM. */
TK_API tk_status tk_latency_rows(tk_latency *l, const tk_latency_row **rows, size_t *count,
                                 tk_error *err);
TK_API void tk_latency_get_totals(const tk_latency *l, tk_latency_totals *out);

/* ---- partial results: merge, serialise -------------------------------------------------
 * A latency accounting of some traces is a partial result of the accounting of more: merging
 * the partials of traces 1..n in their order, in any grouping ((1+2)+3 or 1+(2+3)), gives
 * exactly what one run over all of them chained gives (tk_event_chain_init: the threads of a
 * later trace come after those of the earlier ones), and the same bytes serialised. Exactness
 * keeps every duration (the 16-bit ones as a histogram), so the percentiles stay exact. */

/* Merge `from` into `into` (both per_thread or both not): from's threads come after into's
 * (their indices offset by into's thread count, their traces by into's traces), its durations, open and unwound calls join
 * those of the same function (and thread), its totals are added (max_depth: the larger).
 * from is emptied (free it afterwards); into cannot be run afterwards (tk_latency_run:
 * TK_ERR_ARG). Returns TK_OK, TK_ERR_ARG (per_thread differs), TK_ERR_LIMIT (more than
 * 2^32 - 1 threads or traces), TK_ERR_NOMEM. */
TK_API tk_status tk_latency_merge(tk_latency *into, tk_latency *from, tk_error *err);

/* l as bytes (a canonical form: equal accountings give equal bytes), in a block the caller
 * frees with tk_free: "TKLAT" 3, then LEB128 varints: per_thread, the totals (their traces
 * last), per thread (per_thread only) its pid and 1 + its trace (0: a thread index no event
 * had), the series in
 * (thread, function) order, each with its open and unwound calls, its self time and its
 * distinct durations ascending (delta-coded) and their counts. Reorders l's duration arrays (not its results). Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_latency_serialize(tk_latency *l, uint8_t **data, size_t *size, tk_error *err);

/* The accounting serialised in data[0..size). Durations of 2^16 ticks and more are kept one by
 * one, as a run gives them: at most max_calls of them, a histogram of a function's 16-bit ones
 * counting as 2^16 (0: 2^28, 1 or 2 GiB). Returns TK_OK,
 * TK_ERR_FORMAT (not such bytes: the message says what and err's offset where), TK_ERR_LIMIT
 * (more than max_calls), TK_ERR_NOMEM. */
TK_API tk_status tk_latency_deserialize(tk_latency **out, const uint8_t *data, size_t size,
                                        uint64_t max_calls, tk_error *err);

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
    TK_LATENCY_KEY_FUNC, /* the function's name (tk_event_func_name of `names`) */
    TK_LATENCY_KEY_SELF /* self time */
} tk_latency_key;

typedef enum tk_latency_order {
    TK_LATENCY_ORDER_DEFAULT = 0, /* ascending for FUNCID and FUNC, else descending */
    TK_LATENCY_ORDER_ASC,
    TK_LATENCY_ORDER_DESC
} tk_latency_order;

typedef struct tk_latency_report_options {
    tk_latency_key key;
    tk_latency_order order;
    uint64_t top; /* at most this many rows; 0: all */
    const tk_event_source *names; /* the names TK_LATENCY_KEY_FUNC sorts by (borrowed, used
                                     only by tk_latency_report_open); NULL: "#ID" */
} tk_latency_report_options;

#define TK_LATENCY_REPORT_OPTIONS_INIT \
    { \
        TK_LATENCY_KEY_SUM, TK_LATENCY_ORDER_DEFAULT, 0, NULL \
    }

typedef struct tk_latency_report tk_latency_report;

/* The rows of l with completed calls, sorted by the key (ties: thread, then function id,
 * ascending; names compared as bytes, the first 95 of each), the first `top` of them
 * (opt NULL: the defaults). l may be freed afterwards. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_latency_report_open(tk_latency_report **out, tk_latency *l,
                                        const tk_latency_report_options *opt, tk_error *err);
/* The rows shown (at most `top`), and the rows with completed calls before that cut. */
TK_API size_t tk_latency_report_count(const tk_latency_report *r);
TK_API size_t tk_latency_report_total(const tk_latency_report *r);
/* Row i (< count), borrowed from r. */
TK_API const tk_latency_row *tk_latency_report_row(const tk_latency_report *r, size_t i);
TK_API void tk_latency_report_free(tk_latency_report *r);

/* ---- the difference of two traces (per function, as `tracekit diff`) ------------------ */
typedef struct tk_latency_diff_row {
    uint64_t func;
    uint64_t count[2]; /* completed calls in A and in B (0: none in that trace) */
    double sum[2], median[2]; /* in the diff's unit; ticks for a trace without a clock rate */
} tk_latency_diff_row;

typedef struct tk_latency_diff tk_latency_diff;

/* An empty difference whose times are in `unit`. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_latency_diff_open(tk_latency_diff **out, tk_time_unit unit, tk_error *err);
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
