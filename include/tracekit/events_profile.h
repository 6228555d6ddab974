/* tracekit: aggregate an events stream into a profile (the profile model of profile.h), to be
 * written as Callgrind. */
#ifndef TRACEKIT_EVENTS_PROFILE_H
#define TRACEKIT_EVENTS_PROFILE_H

#include "events.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Build a profile with the events "ns calls" (or "ticks calls" when the source has no clock
 * rate): per function its self time and number of calls; per caller -> callee arc the call count
 * and inclusive time and calls. Calls still open at the end count up to the thread's last
 * timestamp. per_thread: one part per thread ("thread:" and "pid:" set), else one part. object
 * names the ELF object of every function (may be NULL). Function ids must be below 2^28 and
 * threads at most 255 in per-thread mode (TK_ERR_LIMIT otherwise). Caller owns *out. */
TK_API tk_status tk_events_profile(const tk_event_source *src, const char *object, int per_thread,
                                   tk_profile **out, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
