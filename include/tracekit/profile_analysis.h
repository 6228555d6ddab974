/* tracekit: analyses of a profile: per-function (or file, object, line)
 * summary with self and inclusive costs, differences of two profiles, and the
 * call graph as Graphviz dot. */
#ifndef TRACEKIT_PROFILE_ANALYSIS_H
#define TRACEKIT_PROFILE_ANALYSIS_H


#include "events.h"
#include "profile.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_prof_group {
    TK_GROUP_FUNCTION = 0, /* (object, file of fl=, function) */
    TK_GROUP_FILE_FUNCTION =
        1, /* (file of the cost line, function name): callgrind_annotate's key */
    TK_GROUP_FILE = 2, /* file of the cost line */
    TK_GROUP_OBJECT = 3, /* object */
    TK_GROUP_LINE = 4 /* (file of the cost line, line) */
} tk_prof_group;

/* A summary: the entries of a profile by a key (tk_prof_group) with their self and inclusive
 * costs and call counts, and its call cycles. Opaque: read through tk_prof_summary_get,
 * tk_prof_entry_get (entry i) and tk_prof_cycle_get (cycle c). */
typedef struct tk_prof_summary tk_prof_summary;

typedef struct tk_prof_summary_info {
    size_t n_events;
    size_t count; /* entries */
    size_t n_cycles; /* call cycles (by function and file-function, with inclusive costs) */
    int inclusive; /* 1: the entries have inclusive costs (tk_profile_summarize) */
    const uint64_t *totals; /* n_events values: the sum of all self costs */
} tk_prof_summary_info;

TK_API void tk_prof_summary_get(const tk_prof_summary *s, tk_prof_summary_info *out);

/* An entry of a summary: its key (the fields the group has; the others TK_PROF_NONE), costs
 * and calls. */
typedef struct tk_prof_entry_info {
    uint32_t object; /* string id or TK_PROF_NONE (when not part of the key) */
    uint32_t file; /* string id or TK_PROF_NONE */
    uint32_t name; /* string id or TK_PROF_NONE */
    uint32_t fn; /* function id (TK_GROUP_FUNCTION), else TK_PROF_NONE */
    uint64_t line; /* TK_GROUP_LINE */
    uint64_t calls; /* calls into this function (all call arcs, also recursive) */
    const uint64_t *self; /* n_events values */
    const uint64_t *inclusive; /* n_events values; NULL in a summary without inclusive costs */
    uint32_t cycle; /* 0, or the entry's call cycle (tk_prof_cycle_get) */
    int estimated; /* 1: the inclusive cost is an estimate (inside a call cycle, where the
                         call arcs do not tell it exactly) */
} tk_prof_entry_info;

/* Entry i (< count) in the summary's order (the last sort's): its costs are borrowed from
 * s until it is freed (a summary by function over one part whose self rows are one per
 * function borrows them from the profile: keep it alive and unchanged). Zeros past the end. */
TK_API void tk_prof_entry_get(const tk_prof_summary *s, size_t i, tk_prof_entry_info *out);

/* A call cycle: a strongly connected component of the call graph (several entries calling
 * each other, or one calling itself). Its members are the entries whose `cycle` is its
 * number. */
typedef struct tk_prof_cycle_info {
    size_t members; /* entries in the cycle */
    uint64_t calls; /* calls into the cycle from outside it */
    const uint64_t *self; /* n_events values: the members' self costs added */
    const uint64_t *inclusive; /* n_events values: the cost while any member is on the stack
                                  (exact: calls into a cycle from outside never nest) */
} tk_prof_cycle_info;

/* Call cycle c, numbered from 1 (an entry's `cycle`; 1 .. n_cycles, by inclusive cost of the
 * first event, heaviest first), borrowed from s. Zeros for another c. */
TK_API void tk_prof_cycle_get(const tk_prof_summary *s, size_t c, tk_prof_cycle_info *out);

/* Summarise the parts of a profile (part = 0: all parts; else the 1-based part).
 * Inclusive cost of a function: the cost incurred while it is on the stack,
 * each activation chain counted once even under recursion; inside a call
 * cycle an estimate between proven bounds, marked `estimated` (see
 * docs/formats/callgrind.md, "Inclusive cost in call cycles"). Returns TK_OK,
 * TK_ERR_ARG (no such part), TK_ERR_NOMEM, TK_ERR_LIMIT (overflow). */
TK_API tk_status tk_profile_summarize(const tk_profile *p, size_t part, tk_prof_group group,
                                      tk_prof_summary **out, tk_error *err);
/* The same without inclusive costs (every entry's `inclusive` is NULL; calls
 * are counted): what a table of self costs needs, without the call graph, its
 * recursion classes and the inclusive sums (on a 130 MB profile of 151 K
 * functions: ~35 MB less memory). Returns TK_OK, TK_ERR_ARG (no such part), TK_ERR_NOMEM,
 * TK_ERR_LIMIT (overflow). */
TK_API tk_status tk_profile_summarize_self(const tk_profile *p, size_t part, tk_prof_group group,
                                           tk_prof_summary **out, tk_error *err);
TK_API void tk_prof_summary_free(tk_prof_summary *s);

/* Sort entries by the given event indexes (descending), on inclusive costs
 * when `inclusive` (self costs for a summary without inclusive costs), ties
 * by names. TK_OK or TK_ERR_NOMEM (the order is then as it was). */
TK_API tk_status tk_prof_summary_sort(tk_prof_summary *s, const tk_profile *p, const size_t *events,
                                      size_t n_events, int inclusive, tk_error *err);
/* The same for a list cut where it covers `coverage` percent (0 < coverage <
 * 100) of the total of events[0], as callgrind_annotate's --threshold: the
 * list is cut before the first row at which the rows above it cover that
 * much (tk_prof_covered). Only the entries such a list can show are put in
 * order: returns their number, a prefix of the entries (at least the rows up
 * to the cut, and every row of the same events[0] cost as the last of them);
 * the entries after it, all of smaller events[0] cost, are in no particular
 * order. coverage >= 100 sorts everything, as tk_prof_summary_sort. *sorted
 * gets the number. Both return TK_OK or TK_ERR_NOMEM (the order is then as it
 * was). */
TK_API tk_status tk_prof_summary_sort_cover(tk_prof_summary *s, const tk_profile *p,
                                            const size_t *events, size_t n_events, int inclusive,
                                            double coverage, size_t *sorted, tk_error *err);
/* Whether rows of cost `sum` cover `coverage` percent of `total` (false when
 * coverage >= 100 or total is 0: such a list is never cut). */
TK_API int tk_prof_covered(uint64_t sum, uint64_t total, double coverage);

/* Recursion classes of the call graph of the parts (part = 0: all parts).
 * Returns in *out an array of one class id per function (the caller frees it with tk_free): a
 * call arc from f to g can be active twice in one call chain (recursion)
 * exactly when cls[f] == cls[g]; arcs between classes never nest, so their
 * inclusive costs add up without counting a chain twice. Classes are the
 * strongly connected components of the call graph; with `by_base_name`,
 * functions that differ only in a callgrind context suffix (`fib'2`,
 * `f'caller'caller2`: the name up to the first quote) in the same object and
 * file are one node first (annotate adds rows of such clones on one line).
 * Returns TK_OK, TK_ERR_ARG (no such part), TK_ERR_NOMEM. */
TK_API tk_status tk_profile_recursion_classes(const tk_profile *p, size_t part, int by_base_name,
                                              uint32_t **out, tk_error *err);

/* ---- callers and callees (callgrind_annotate --tree) ---------------------- */
/* The calls from one summary entry to another, summed over call sites and
 * parts: how often, and their inclusive costs (what callgrind_annotate
 * --tree prints on its caller "<" and callee ">" lines). */
typedef struct tk_prof_arcs tk_prof_arcs;

typedef struct tk_prof_arc_info {
    size_t caller, callee; /* entry indexes in the summary */
    uint64_t calls;
    const uint64_t *inclusive; /* n_events values */
} tk_prof_arc_info;

/* The arcs between the entries of `s`, a summary by TK_GROUP_FUNCTION or
 * TK_GROUP_FILE_FUNCTION of the same profile and part (part 0: all parts).
 * Entry indexes are those of s when this is called: sort s first. A call
 * whose caller or callee has no entry is left out. Returns TK_OK, TK_ERR_ARG
 * (another group, no such part), TK_ERR_NOMEM, TK_ERR_LIMIT (overflow). */
TK_API tk_status tk_profile_summary_arcs(const tk_profile *p, size_t part, const tk_prof_summary *s,
                                         tk_prof_group group, tk_prof_arcs **out, tk_error *err);
TK_API void tk_prof_arcs_free(tk_prof_arcs *a);
/* The number of arcs. */
TK_API size_t tk_prof_arcs_count(const tk_prof_arcs *a);
/* Arc i (< count; the arcs are in the order of their callee, then caller), its costs
 * borrowed from a. Zeros past the end. */
TK_API void tk_prof_arc_get(const tk_prof_arcs *a, size_t i, tk_prof_arc_info *out);
/* The callers of entry: the arcs *first .. *first + n, n returned. */
TK_API size_t tk_prof_arcs_into(const tk_prof_arcs *a, size_t entry, size_t *first);
/* The callees of entry: the arcs tk_prof_arcs_by_caller(a, k) for k in *first .. *first + n,
 * n returned. */
TK_API size_t tk_prof_arcs_out_of(const tk_prof_arcs *a, size_t entry, size_t *first);
/* The arc at position k (< count) of the arcs in the order of their caller, then callee. */
TK_API size_t tk_prof_arcs_by_caller(const tk_prof_arcs *a, size_t k);

/* ---- dot call graph ------------------------------------------------------ */
typedef struct tk_dot_options {
    size_t event; /* event index used for percentages and colours */
    double node_threshold; /* percent of total inclusive cost below which nodes are dropped
                              (0: 0.5; less than 0: none) */
    double edge_threshold; /* percent of total below which edges are dropped (0: 0.1; less
                              than 0: none) */
    /* 0: the event's total is printed as a count. > 0: the event is a time with this many
     * values a second (1e9 for "ns"): the graph's total and each node's inclusive time are
     * printed in time_unit, which the labels name. */
    double event_per_second;
    tk_time_unit time_unit;
    int full_names; /* 0: names shortened by tk_short_name (C++ template and parameter
                              lists dropped, as KCachegrind's "Shorten Templates" and gprof2dot's
                              --strip do); 1: the names as they are */
    /* At most this many functions of those over node_threshold, the hottest by inclusive
     * cost, and besides them the max_nodes / 5 hottest by self cost (0: 100; SIZE_MAX: no
     * limit). dot lays out a graph of a hundred functions in well under a second, one of
     * several hundred in tens of seconds. */
    size_t max_nodes;
} tk_dot_options;

#define TK_DOT_OPTIONS_INIT \
    { \
        0, 0, 0, 0, TK_UNIT_S, 0, 0 \
    }

/* A demangled C++ name shortened for a picture: the arguments of every template dropped
 * ("std::vector<int, std::allocator<int> >::push_back" -> "std::vector<>::push_back"), the
 * parameters of a function ("f(int, char const*) const" -> "f()"); "operator<", "operator<<",
 * "operator()" and names that start with "(" ("(below main)") are kept. Writes at most size
 * bytes with the terminating NUL (size > 0) and returns out. */
TK_API char *tk_short_name(const char *name, char *out, size_t size);

/* The call graph as Graphviz dot (opt may be NULL: the defaults). TK_OK, TK_ERR_IO (the
 * writer failed), TK_ERR_NOMEM, TK_ERR_LIMIT (a cost sum over 64 bits) or TK_ERR_ARG (a
 * profile read with call counts only: no inclusive costs). */
TK_API tk_status tk_profile_write_dot(const tk_profile *p, const tk_dot_options *opt,
                                      const tk_writer *out, tk_error *err);

/* ---- folded stacks (flame graphs) ----------------------------------------- */
/* The call graph unfolded into call chains, one line "f1;f2;f3 COUNT" per
 * chain with the cost of one event spent in f3 there: flamegraph.pl,
 * speedscope and inferno read it. A profile keeps costs per call arc, not per
 * chain, so the cost flowing into a function is split among its own cost and
 * its callees in the proportions of the whole profile (exact for call trees);
 * the counts add up to the program total. A recursive call, a branch lighter
 * than min_share of the total and the depth limit end a chain, the callee
 * being a leaf with the whole cost below it. See docs/formats/callgrind.md. */
typedef struct tk_folded_profile_options {
    size_t event; /* event index */
    double min_share; /* fraction of the total below which a branch is not unfolded (0: 1e-5;
                         less than 0: none) */
    size_t max_depth; /* frames at most in a chain (0: 256) */
    int per_part; /* each part apart, its stacks starting with "thread T" (or "part N"), or
                     "process P thread T" when the parts' pids differ (several processes) */
    size_t part; /* 0: every part; else only this one (1-based; TK_ERR_ARG past the end) */
} tk_folded_profile_options;

#define TK_FOLDED_PROFILE_OPTIONS_INIT \
    { \
        0, 0, 0, 0, 0 \
    }

/* opt may be NULL (the defaults). TK_OK, TK_ERR_IO (the writer failed), TK_ERR_NOMEM,
 * TK_ERR_LIMIT (a cost sum over 64 bits) or TK_ERR_ARG (no part opt->part, or a profile
 * read with call counts only). */
TK_API tk_status tk_profile_write_folded(const tk_profile *p, const tk_folded_profile_options *opt,
                                         const tk_writer *out, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
