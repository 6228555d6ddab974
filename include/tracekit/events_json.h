/* tracekit: an events stream as JSON events, for jq and pandas: one object
 * {"version":1,"clock":{"ticks_per_second":R,"unit":"U"},"events":[...]} with each event on a
 * line of its own ({"kind":"enter","pid":P,"tid":T,"cpu":C,"time":X,"func":F,"name":"N"}, its
 * arguments, type and payload where it has them: docs/formats/xray.md). The events of a chain
 * of several sources (tk_event_chain_init) carry "trace":K after their tid, K the 0-based
 * place of their source in the chain, so that two sources with one pid stay apart. It
 * streams: memory does not grow with the trace. */
#ifndef TRACEKIT_EVENTS_JSON_H
#define TRACEKIT_EVENTS_JSON_H

#include <stddef.h>

#include "events.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The events of src to out. Where src fails, out has every event before the failure. Errors:
 * the source's, TK_ERR_ARG (no writer), TK_ERR_IO, TK_ERR_NOMEM. */
TK_API tk_status tk_export_events_json(const tk_event_source *src, const tk_writer *out,
                                       tk_error *err);

/* The JSON events of several sources chained (tk_event_chain_init), made part by part: each
 * source's part read on its own (parts of different sources on different threads at once,
 * while the join writes those before), the parts joined in the order of the sources. The join
 * writes the bytes tk_export_events_json writes of the chain; where a part's source failed,
 * what it writes before that failure (every event before it). A part holds its events' text
 * (the memory of the parts not yet joined), in blocks that the join keeps for the next parts
 * once a part is freed. */
typedef struct tk_events_json_part tk_events_json_part;
typedef struct tk_events_json_join tk_events_json_join;

/* A join writing to w, of the chain src (its clock and number of sources copied). Writes the
 * head of the object. Errors: TK_ERR_ARG (no writer), TK_ERR_IO, TK_ERR_NOMEM. */
TK_API tk_status tk_events_json_join_open(tk_events_json_join **out, const tk_event_source *src,
                                          const tk_writer *w, tk_error *err);
/* The part of src, the k-th (0-based) of the chained sources (its events' "trace"), for j, read to its end or to its
 * failure (the events before it kept, its error too: tk_events_json_part_status), on any
 * thread. Freed before j. Errors: TK_ERR_ARG (k not below the number of sources),
 * TK_ERR_NOMEM (nothing made); the source's failure is the part's, not this function's. */
TK_API tk_status tk_events_json_part_open(tk_events_json_part **out, tk_events_json_join *j,
                                          size_t k, const tk_event_source *src, tk_error *err);
/* How reading the part's source ended: TK_OK, or its error into err. */
TK_API tk_status tk_events_json_part_status(const tk_events_json_part *p, tk_error *err);
/* Frees p (accepts NULL), its blocks kept by its join. */
TK_API void tk_events_json_part_free(tk_events_json_part *p);
/* The events of p after those joined before; p can be freed then. Returns TK_OK, p's failure
 * (tk_events_json_part_status, into err) after its events before it: the object stops there
 * (tk_events_json_join_free without finish), or TK_ERR_ARG (p is not the next source's part:
 * nothing written). */
TK_API tk_status tk_events_json_join_add(tk_events_json_join *j, const tk_events_json_part *p,
                                         tk_error *err);
/* The end of the object. Errors: TK_ERR_IO (a write failed, here or before). */
TK_API tk_status tk_events_json_join_finish(tk_events_json_join *j, tk_error *err);
/* Frees j (accepts NULL). */
TK_API void tk_events_json_join_free(tk_events_json_join *j);

#ifdef __cplusplus
}
#endif
#endif
