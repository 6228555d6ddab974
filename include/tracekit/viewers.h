/* tracekit: viewer exports of an events stream: Chrome trace-event / Perfetto JSON and
 * folded stacks for flame graphs. Both stream: memory grows with the call depth and (folded)
 * the number of distinct call paths, never with the trace length. */
#ifndef TRACEKIT_VIEWERS_H
#define TRACEKIT_VIEWERS_H


#include "events.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Chrome trace-event JSON in object form: complete ("X") events per call, strictly nested per
 * thread, ts/dur in microseconds with 3 decimals relative to src->start_time, logged arguments
 * as args, custom/typed events as thread-scoped instant events, process and thread name
 * metadata. Calls still open at the end close at their thread's last timestamp (args
 * "open":true). Errors: the source's, TK_ERR_IO, TK_ERR_NOMEM, TK_ERR_LIMIT. */
TK_API tk_status tk_export_chrome(const tk_event_source *src, const tk_writer *out, tk_error *err);

typedef enum tk_folded_weight {
    TK_FOLDED_TIME = 0, /* self time per call path, in nanoseconds (ticks without a clock rate) */
    TK_FOLDED_CALLS = 1 /* number of calls that ended at each path */
} tk_folded_weight;

/* Folded stacks ("root;caller;callee weight" per line; ';' and newlines in names become '_').
 * per_thread: each stack starts with a "thread <tid>" frame. Errors: the source's, TK_ERR_IO,
 * TK_ERR_NOMEM, TK_ERR_LIMIT. */
TK_API tk_status tk_export_folded(const tk_event_source *src, const tk_writer *out,
                                  tk_folded_weight weight, int per_thread, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
