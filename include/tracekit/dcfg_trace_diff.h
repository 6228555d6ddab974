/* tracekit: where two DCFG-Traces of one program first differ (what `tracekit diff` prints
 * for them): a thread only one of them has, or the first edge at which the same thread's
 * edge sequences differ. */
#ifndef TRACEKIT_DCFG_TRACE_DIFF_H
#define TRACEKIT_DCFG_TRACE_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "dcfg_trace.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_dcfg_trace_diff_kind {
    TK_DCFG_TRACE_SAME = 0, /* the traces hold the same threads and edge sequences */
    TK_DCFG_TRACE_ONLY_IN, /* a thread only one trace has (`side`) */
    TK_DCFG_TRACE_DIVERGE /* a thread whose edge sequences differ */
} tk_dcfg_trace_diff_kind;

/* The first difference. Side 0 is the first trace, side 1 the second. */
typedef struct tk_dcfg_trace_diff {
    tk_dcfg_trace_diff_kind kind;
    uint64_t pid, tid; /* ONLY_IN, DIVERGE: the thread */
    int side; /* ONLY_IN: the trace that has it */
    uint64_t index; /* DIVERGE: the edges of the thread before it are equal */
    int has[2]; /* DIVERGE: the side has an edge there (else its thread ends) */
    uint32_t edge[2]; /* DIVERGE: the edge ids (when has) */
    size_t chunk[2]; /* DIVERGE: the 1-based chunk of the thread holding it */
    uint64_t chunk_pos[2]; /* DIVERGE: the 1-based edge of that chunk */
} tk_dcfg_trace_diff;

/* The threads of a in file order, each against the thread of b with the same process and
 * thread ids, edge by edge; then whether b has a thread a has not. Stops at the first
 * difference: *out says which (TK_DCFG_TRACE_SAME: none). Returns TK_OK, or the error of
 * decoding a chunk (located), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_compare(const tk_dcfg_trace *a, const tk_dcfg_trace *b,
                                       tk_dcfg_trace_diff *out, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
