/* tracekit: aggregate an events stream into a profile (the profile model of profile.h), to be
 * written as Callgrind. */
#ifndef TRACEKIT_EVENTS_PROFILE_H
#define TRACEKIT_EVENTS_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "events.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Build a profile with the events "ns calls" (or "ticks calls" when the source has no clock
 * rate): per function its self time and number of calls; per caller -> callee arc the call count
 * and inclusive time and calls. Calls still open at the end count up to the thread's last
 * timestamp. Each thread's root function "thread TID" calls its outermost calls; of a chain of
 * several traces it is "process KEY thread TID" (KEY the thread's process,
 * tk_event_process_keys), so that two traces' threads of one tid stay apart. per_thread: one
 * part per thread ("thread:" and "pid:" set, the pid the process key with several traces),
 * else one part. object
 * names the ELF object of every function (may be NULL). Function ids must be below 2^28 and
 * threads at most 256 in per-thread mode (TK_ERR_LIMIT otherwise). Caller owns *out. */
TK_API tk_status tk_events_profile(const tk_event_source *src, const char *object, int per_thread,
                                   tk_profile **out, tk_error *err);

/* The same profile as a partial result (what tracekit-mpi merges for `convert --to callgrind`
 * and `--to dot` of several traces): the aggregation tk_events_profile makes of a source, in
 * clock ticks (converted to ns only when made into a profile, so that sums stay exact): per
 * function and part its self ticks and calls, per arc its count and inclusive ticks and calls,
 * per thread the calls of its root, each table's rows in the order they first appeared (those
 * of the calls still open at the end after the others, as tk_callstacks_finish closes them
 * after every event), the threads' pid and tid, and each function's name and location.
 * Partials of consecutive sources merge, exactly and associatively, into the partial of all of
 * them read as one chained source (tk_event_chain_init: the threads of each after those of the
 * ones before, the calls still open at the end of every source closed after all their
 * events), and the profile of a partial is the one tk_events_profile makes of that chained
 * source, byte for byte once written. A function's name and location are those of the first
 * partial that has it (a chain takes them from its first source: the same when the sources
 * are traces of one program read with one map). */
typedef struct tk_events_profile_partial tk_events_profile_partial;

/* The partial of src, read to its end. Returns TK_OK, the source's errors, TK_ERR_LIMIT (as
 * tk_events_profile), TK_ERR_NOMEM. */
TK_API tk_status tk_events_profile_partial_open(tk_events_profile_partial **out,
                                                const tk_event_source *src, int per_thread,
                                                tk_error *err);
TK_API void tk_events_profile_partial_free(tk_events_profile_partial *p);

/* Merge `later`, the partial of the sources read after into's. Returns TK_OK, TK_ERR_ARG
 * (another per_thread, clock rate or time unit: the message says which), TK_ERR_LIMIT (more
 * than 2^32 - 1 threads), TK_ERR_NOMEM. On an error into is unchanged. A per_thread partial
 * whose merged threads have calls in a thread past tk_events_profile's limit keeps only its
 * threads: its profile is TK_ERR_LIMIT, as tk_events_profile's of the chained sources. */
TK_API tk_status tk_events_profile_partial_merge(tk_events_profile_partial *into,
                                                 const tk_events_profile_partial *later,
                                                 tk_error *err);

/* The profile of p, as tk_events_profile makes it of p's sources (object names the ELF
 * object of every function; may be NULL). Returns TK_OK, TK_ERR_LIMIT (as tk_events_profile),
 * TK_ERR_NOMEM. Caller owns *out. */
TK_API tk_status tk_events_profile_partial_profile(const tk_events_profile_partial *p,
                                                   const char *object, tk_profile **out,
                                                   tk_error *err);

/* p as bytes, in a block the caller frees with tk_free; canonical: equal partials give equal
 * bytes. "TKEP" 2, then LEB128 varints in their shortest form: per_thread, the clock rate's
 * bits, whether there is a time unit and its text, whether over the thread limit, the number
 * of traces it covers, the threads (pid, tid as 64-bit words, 1 + the trace it came from or 0
 * for an index no event had), the functions ascending (id, name, whether a file is known, the
 * file, the line), then the self, arc and root tables, each its row count, the count of rows
 * made before the end, and its rows (self: part, function, ticks, calls; arc: part, caller,
 * callee, count, ticks, calls; root: thread, callee, count, ticks, calls). Returns TK_OK,
 * TK_ERR_NOMEM. */
TK_API tk_status tk_events_profile_partial_serialize(const tk_events_profile_partial *p,
                                                     uint8_t **data, size_t *size, tk_error *err);
/* The partial serialised in data[0..size). Returns TK_OK, TK_ERR_FORMAT (not such bytes, or a
 * clock rate that is not a number: the message says what, err's offset where), TK_ERR_NOMEM. */
TK_API tk_status tk_events_profile_partial_deserialize(tk_events_profile_partial **out,
                                                       const uint8_t *data, size_t size,
                                                       tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
