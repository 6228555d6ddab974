/* tracekit: the report of a DCFG-Trace, thread by thread (what `tracekit report` prints for
 * it): the thread's chunks, edges and instructions, its edges by frequency, and with the
 * DCFG of the program its hottest blocks and loops by dynamic instructions. */
#ifndef TRACEKIT_DCFG_TRACE_REPORT_H
#define TRACEKIT_DCFG_TRACE_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "cfg.h"
#include "dcfg_trace.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_dcfg_trace_report_options {
    unsigned threads; /* decoding threads (tk_dcfg_trace_decode_options.threads; 0 or 1: the
                         caller's) */
    /* Only the thread's chunks [chunk_begin, chunk_end) (indices among the thread's chunks,
     * cut to their number; both 0: all): a partial report, which tk_dcfg_trace_report_merge
     * adds to the others'. */
    size_t chunk_begin, chunk_end;
} tk_dcfg_trace_report_options;

#define TK_DCFG_TRACE_REPORT_OPTIONS_INIT \
    { \
        0, 0, 0 \
    }

typedef struct tk_dcfg_trace_report_stats {
    uint64_t pid, thread_id;
    size_t chunks;
    uint64_t edges; /* decoded */
    uint64_t instructions; /* the chunks' INSTR_COUNT added */
    size_t distinct_edges;
} tk_dcfg_trace_report_stats;

/* The tables of the report, each sorted by value (most first), then id (ascending). */
typedef enum tk_dcfg_trace_report_table {
    TK_DCFG_TRACE_TOP_EDGES = 0, /* id: edge id; value: traversals */
    TK_DCFG_TRACE_HOT_BLOCKS, /* id: block id; value: instructions; extra: executions */
    TK_DCFG_TRACE_HOT_LOOPS /* id: the head's block id; value: the dynamic instructions
                                    of the loop's blocks; extra: the head's executions */
} tk_dcfg_trace_report_table;

typedef struct tk_dcfg_trace_report_row {
    uint64_t value;
    uint32_t id;
    uint64_t extra;
} tk_dcfg_trace_report_row;

typedef struct tk_dcfg_trace_report tk_dcfg_trace_report;

/* Thread i of t (file order, < tk_dcfg_trace_thread_count) decoded: its counts and its
 * edges by frequency (opt NULL: the defaults). t must outlive the report. Returns TK_OK,
 * the error of decoding a chunk (located), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_report_open(tk_dcfg_trace_report **out, const tk_dcfg_trace *t,
                                           size_t thread, const tk_dcfg_trace_report_options *opt,
                                           tk_error *err);
TK_API void tk_dcfg_trace_report_get_stats(const tk_dcfg_trace_report *r,
                                           tk_dcfg_trace_report_stats *out);
/* The hottest blocks and loops of the thread, with p the thread's process in the program's
 * DCFG (tk_cfg_find_process; it must outlive the report): each block's executions are the
 * traversals of its out-edges (INSTR_COUNT's rule). Returns TK_OK, TK_ERR_FORMAT (the
 * blocks' instructions pass 2^64 - 1: more than the chunks' INSTR_COUNT, a DCFG that is not
 * the trace's), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_report_hot(tk_dcfg_trace_report *r, const tk_cfg_process *p,
                                          tk_error *err);
/* The rows of a table (the hot tables: 0 before tk_dcfg_trace_report_hot) kept by the cut
 * (tk_dcfg_trace_report_cut), and all of them, before the cut. */
TK_API size_t tk_dcfg_trace_report_count(const tk_dcfg_trace_report *r,
                                         tk_dcfg_trace_report_table table);
TK_API size_t tk_dcfg_trace_report_total(const tk_dcfg_trace_report *r,
                                         tk_dcfg_trace_report_table table);
/* Keep the first `top` rows of every table, the hot tables made later too (0, the default:
 * every row; `report --top N`). The cut is of what count shows: merging and serialising
 * still take every edge. */
TK_API void tk_dcfg_trace_report_cut(tk_dcfg_trace_report *r, uint64_t top);
/* Row i (< count) of a table, borrowed from r. */
TK_API const tk_dcfg_trace_report_row *tk_dcfg_trace_report_row_at(const tk_dcfg_trace_report *r,
                                                                   tk_dcfg_trace_report_table table,
                                                                   size_t i);
TK_API void tk_dcfg_trace_report_free(tk_dcfg_trace_report *r);

/* ---- partial reports: merge, serialise --------------------------------------------------
 * The reports of the chunks [a, b) and [b, c) of a thread (chunk_begin, chunk_end) merged,
 * in any grouping, are the report of [a, c): the counts, the edges by frequency, and the
 * same bytes serialised (exact: every edge's count is kept). */

/* Add `from` (a report of other chunks of the same thread: same pid and thread id) into
 * `into`: chunks, edges, instructions and every edge's count added, the edges ranked again
 * (the hot tables dropped: tk_dcfg_trace_report_hot again). from is left as it was. Returns
 * TK_OK, TK_ERR_ARG (another thread), TK_ERR_LIMIT (a sum past 2^64 - 1), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_report_merge(tk_dcfg_trace_report *into,
                                            const tk_dcfg_trace_report *from, tk_error *err);

/* r's counts as bytes (canonical: equal counts give equal bytes), in a block the caller frees
 * with tk_free: "TKDTR" 1, then LEB128 varints: pid, thread id, chunks, edges, instructions,
 * the number of distinct edges, and each edge (ids ascending, delta-coded) with its count.
 * Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_report_serialize(const tk_dcfg_trace_report *r, uint8_t **data,
                                                size_t *size, tk_error *err);

/* The report serialised in data[0..size) (its edges ranked; no hot tables). Returns TK_OK,
 * TK_ERR_FORMAT (not such bytes: the message says what, err's offset where; the edges'
 * counts must add up to its edges), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_report_deserialize(tk_dcfg_trace_report **out, const uint8_t *data,
                                                  size_t size, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
