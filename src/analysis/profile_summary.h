/* The storage of a profile summary and of its call arcs (tracekit/profile_analysis.h has the
 * opaque handles and their accessors): the library's loops (sort, report, arcs, diff,
 * exports) read the entries here. */
#ifndef TK_ANALYSIS_PROFILE_SUMMARY_H
#define TK_ANALYSIS_PROFILE_SUMMARY_H

#include "tracekit/profile_analysis.h"

typedef struct tk_prof_entry {
    uint32_t object; /* string id or TK_PROF_NONE (when not part of the key) */
    uint32_t file; /* string id or TK_PROF_NONE */
    uint32_t name; /* string id or TK_PROF_NONE */
    uint32_t fn; /* function id (TK_GROUP_FUNCTION), else TK_PROF_NONE */
    uint64_t line; /* TK_GROUP_LINE */
    uint64_t calls; /* calls into this function (all call arcs, also recursive) */
    uint64_t *self; /* n_events values; by function over one part whose self rows are one
                            per function, the profile's own row (read only) */
    uint64_t *inclusive; /* n_events values, or NULL (tk_profile_summarize_self) */
    uint32_t cycle; /* 0, or the entry's call cycle: cycles[cycle - 1] */
    uint32_t estimated; /* 1: the inclusive cost is an estimate */
} tk_prof_entry;

typedef struct tk_prof_cycle {
    size_t members;
    uint64_t calls;
    uint64_t *self;
    uint64_t *inclusive;
} tk_prof_cycle;

struct tk_prof_summary {
    size_t n_events;
    uint64_t *totals; /* sum of all self costs */
    tk_prof_entry *entries;
    size_t count;
    uint64_t *values_; /* storage */
    tk_prof_cycle *cycles; /* by inclusive cost of the first event, heaviest first */
    size_t n_cycles;
    int inclusive; /* the entries have inclusive costs */
};

typedef struct tk_prof_arc {
    size_t caller, callee; /* entry indexes in the summary */
    uint64_t calls;
    const uint64_t *inclusive; /* n_events values */
} tk_prof_arc;

struct tk_prof_arcs {
    size_t count, n_events;
    tk_prof_arc *arcs; /* by callee, then caller */
    size_t *by_caller; /* indexes into arcs, by caller, then callee */
    uint64_t *values_; /* storage */
};

/* The arcs a->arcs[0..n) (their caller and callee set; a and its arcs allocated with
 * tk_malloc) with vals (n * (nev + 1): each arc's calls, then its inclusive costs), both taken
 * over, put in order and indexed both ways: *out (a, or NULL when out of memory, a and vals
 * then freed). Returns TK_OK, TK_ERR_NOMEM. */
tk_status tk_prof_arcs_make(tk_prof_arcs **out, tk_prof_arcs *a, uint64_t *vals, size_t n,
                            size_t nev, tk_error *err);

#endif
