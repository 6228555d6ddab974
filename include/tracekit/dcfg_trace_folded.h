/* tracekit: the folded stacks of one DCFG-Trace made of each thread's chunks split into ranges
 * (tracekit-mpi's convert --to folded and --to svg; docs/mpi.md, "DCFG-Trace folded stacks").
 *
 * A range of a thread's chunks starts on a call stack it does not know. Its partial is a
 * sequence of ops: the edges taken while no frame that a call inside the range opened is on
 * the stack, kept to be taken again on the true stack (but for runs of edges that stay in the
 * function an edge kept so went to, whose frame is then the true stack's top: those are kept
 * as the paths they made under that frame's), and for each stretch from such a call
 * to the return that closes its frame, the call paths it made relative to that frame (a trie
 * fragment in the order its paths first appeared, each path's self instructions), what its
 * frame's callees took, and the frames still open above it when the stretch or the range
 * ends. The replay takes the ops of a thread's ranges in order on the thread's true stack and
 * grafts each fragment at the path of its frame: the call-path trie, the weights, the order
 * and the errors of tk_export_folded over the trace's events (tk_dcfg_trace_events_open),
 * byte for byte. */
#ifndef TRACEKIT_DCFG_TRACE_FOLDED_H
#define TRACEKIT_DCFG_TRACE_FOLDED_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "cfg.h"
#include "dcfg_trace.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The partial of thread th's chunks whose global index is in [chunk_begin, chunk_end) (a
 * contiguous range of the thread's), decoded on opt->threads threads (opt NULL: one), made
 * without the chunks before it; the range's first error is in the bytes. *data is the
 * caller's (tk_free). Returns TK_OK, TK_ERR_FORMAT (the thread's process not in the DCFG),
 * TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_folded_range(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                                            size_t chunk_begin, size_t chunk_end,
                                            const tk_dcfg_trace_convert_options *opt,
                                            uint8_t **data, size_t *size, tk_error *err);

/* The folded stacks being replayed, thread after thread (per_thread: each stack starts with
 * its thread, as tk_export_folded's per_thread). Borrows t and cfg. TK_OK, TK_ERR_NOMEM. */
typedef struct tk_dcfg_trace_folded tk_dcfg_trace_folded;
TK_API tk_status tk_dcfg_trace_folded_open(tk_dcfg_trace_folded **out, const tk_dcfg_trace *t,
                                           const tk_cfg *cfg, int per_thread, tk_error *err);
TK_API void tk_dcfg_trace_folded_free(tk_dcfg_trace_folded *f);

/* Thread th's stacks added to f from the partials of consecutive ranges that cover its chunks,
 * in order (the threads replayed in their order, each once; a thread without chunks adds
 * nothing). Returns TK_OK, TK_ERR_FORMAT (the thread's error: an edge or a process the DCFG
 * lacks, a chunk that does not decode, an instruction count past 2^64 - 1; or bytes that are
 * no such partial, err's offset where), TK_ERR_LIMIT (a stack or a function id beyond what
 * call paths take, too many paths), TK_ERR_NOMEM. After an error f takes no more threads. */
TK_API tk_status tk_dcfg_trace_folded_replay(tk_dcfg_trace_folded *f, size_t th,
                                             const uint8_t *const *parts, const size_t *sizes,
                                             size_t n, tk_error *err);

/* The folded stacks of the threads replayed, as tk_export_folded writes those of the trace's
 * events (TK_FOLDED_TIME). Returns TK_OK, TK_ERR_ARG (f failed), TK_ERR_IO, TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_folded_write(const tk_dcfg_trace_folded *f, const tk_writer *out,
                                            tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
