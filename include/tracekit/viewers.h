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

/* A Chrome trace of several sources chained (tk_event_chain_init: the threads of each after
 * those of the sources before it), made part by part: each source's part read on its own (parts
 * of different sources on different threads at once, while the join writes those before), the
 * parts joined in the order of the sources. The join writes the bytes tk_export_chrome writes
 * of the chain; where a part's source failed, what tk_export_chrome writes before that failure
 * (the writer gets the text in whole blocks of 64 KiB until the end, in both). A part holds its
 * events' text (the memory of the parts not yet joined), in blocks that the join keeps for the
 * next parts once a part is freed. */
typedef struct tk_chrome_part tk_chrome_part;
typedef struct tk_chrome_join tk_chrome_join;

/* A join writing to w, of the chain src (its start_time, the smallest of the sources', and
 * its clock, ticks_per_second and time_unit, copied). Writes the head of the trace. Errors:
 * TK_ERR_ARG (no writer), TK_ERR_NOMEM. */
TK_API tk_status tk_chrome_join_open(tk_chrome_join **out, const tk_event_source *src,
                                     const tk_writer *w, tk_error *err);
/* The part of src (one of the chained sources) for j, read to its end or to its failure (the
 * events before it kept, its error too: tk_chrome_part_status), on any thread. Freed before
 * j. Errors: TK_ERR_NOMEM (nothing made); the source's failure is the part's, not this
 * function's. */
TK_API tk_status tk_chrome_part_open(tk_chrome_part **out, tk_chrome_join *j,
                                     const tk_event_source *src, tk_error *err);
/* How reading the part's source ended: TK_OK, or its error (the source's, TK_ERR_LIMIT) into
 * err. */
TK_API tk_status tk_chrome_part_status(const tk_chrome_part *p, tk_error *err);
/* Frees p (accepts NULL), its blocks kept by its join. */
TK_API void tk_chrome_part_free(tk_chrome_part *p);
/* The events of p (the next source's part), after those joined before; p can be freed then.
 * Returns TK_OK, or p's failure (tk_chrome_part_status, into err) after its events before it:
 * the trace stops there (tk_chrome_join_free without tk_chrome_join_finish). */
TK_API tk_status tk_chrome_join_add(tk_chrome_join *j, const tk_chrome_part *p, tk_error *err);
/* The calls still open at the ends of the parts, the metadata and the end of the trace, then
 * everything written. Errors: TK_ERR_IO (a write failed, here or before), TK_ERR_NOMEM. */
TK_API tk_status tk_chrome_join_finish(tk_chrome_join *j, tk_error *err);
/* Frees j (accepts NULL); what finish did not write is dropped. */
TK_API void tk_chrome_join_free(tk_chrome_join *j);

typedef enum tk_folded_weight {
    TK_FOLDED_TIME = 0, /* self time per call path, in nanoseconds (ticks without a clock rate) */
    TK_FOLDED_CALLS = 1 /* number of calls that ended at each path */
} tk_folded_weight;

/* Folded stacks ("root;caller;callee weight" per line; ';' and newlines in names become '_').
 * per_thread: each stack starts with a "thread <tid>" frame, or with a chain of several traces
 * "process <key> thread <tid>" (the thread's process, tk_event_process_keys). Errors: the source's, TK_ERR_IO,
 * TK_ERR_NOMEM, TK_ERR_LIMIT. */
TK_API tk_status tk_export_folded(const tk_event_source *src, const tk_writer *out,
                                  tk_folded_weight weight, int per_thread, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
