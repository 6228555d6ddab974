/* Internal header of the profile model; the API is public in tracekit/profile.h. */
#ifndef TK_MODEL_PROFILE_H
#define TK_MODEL_PROFILE_H

#include "tracekit/profile.h"

/* What a reader in validation mode (check: no rows kept) adds up over
 * everything read into one profile, over its parts and over the inputs read
 * into it, so that it can report first what the commands that keep rows and
 * add them up would refuse (docs/formats/callgrind.md, "What check adds up").
 * Each sum is in profile event order. */
typedef struct tk_profile_read_sums {
    uint64_t self[TK_PROFILE_MAX_EVENTS];  /* every cost line: the program total */
    uint64_t costs[TK_PROFILE_MAX_EVENTS]; /* every cost line and every call's inclusive cost:
                                              a bound on every sum of them a summary forms */
    uint64_t calls;                        /* every call count */
    uint64_t jumps[2];                     /* every jump's executed and followed counts */
    uint64_t summary[TK_PROFILE_MAX_EVENTS]; /* the parts' summary: lines (merge adds them) */
    uint64_t totals[TK_PROFILE_MAX_EVENTS];  /* the parts' totals: lines */
    unsigned reported;                     /* TK_SUMS_* bits: each overflow is reported once */
    int rows; /* a reader keeping rows would have made one: a new event type is refused after
                 that (tk_profile_add_event) */
} tk_profile_read_sums;

enum {
    TK_SUMS_SELF = 1,
    TK_SUMS_COSTS = 2,
    TK_SUMS_CALLS = 4,
    TK_SUMS_JUMPS = 8,
    TK_SUMS_SUMMARY = 16,
    TK_SUMS_TOTALS = 32
};

/* The profile's read sums (zero in a new profile). */
tk_profile_read_sums *tk_profile_read_sums_of(tk_profile *p);
#endif
