/* tracekit: reports and differences of profiles (what `tracekit report` and `tracekit diff`
 * print for Callgrind profiles): the table of functions (or files, objects, lines) in a
 * sort order, cut by threshold, coverage and top, with each function's callers and
 * callees and the members of each call cycle; the per-function difference of two
 * profiles and their folded stacks side by side (a differential flame graph), also of two
 * event streams (XRay traces) or of two sets of them (their folded-stacks partials). */
#ifndef TRACEKIT_PROFILE_REPORT_H
#define TRACEKIT_PROFILE_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "folded_partial.h"
#include "profile.h"
#include "profile_analysis.h"
#include "status.h"
#include "viewers.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the report table ------------------------------------------------------------------ */

typedef struct tk_prof_report_options {
    tk_prof_group group;
    size_t part; /* 0: every part; else the 1-based part (TK_ERR_ARG past the end) */
    size_t sort[4]; /* the sort events (indexes), the first the primary one */
    size_t nsort; /* 0: the first event alone (a profile without events: none) */
    int inclusive; /* sort by inclusive costs */
    int self_only; /* no inclusive costs, call arcs only counted (less time and memory:
                             a table of self costs); not with `tree` or `cycles` */
    double threshold; /* hide rows whose primary cost is below this percentage of the total
                             (0: none) */
    double coverage; /* stop once the rows cover this percentage of the primary event's
                             total, as callgrind_annotate's --threshold (0 or >= 100: every
                             row) */
    uint64_t top; /* at most this many rows (0: no limit) */
    int tree; /* group by function or file-function: the call arcs between the
                             entries, for tk_prof_report_tree */
    int cycles; /* group by function or file-function: each call cycle's members
                             (tk_prof_report_cycle); implies inclusive costs, sorted by them,
                             and coverage 100 */
    const char *focus; /* group by function or file-function: only the entries on a call
                             chain through the functions of this name (its name, or its name
                             without a callgrind context suffix: "fib" for "fib'2"): those and
                             every entry they call, directly or not, or that calls them, as
                             gprof2dot's -z and -l together; their costs and the totals stay
                             the whole profile's. Not with self_only. NULL: every entry */
} tk_prof_report_options;

#define TK_PROF_REPORT_OPTIONS_INIT \
    { \
        TK_GROUP_FUNCTION, 0, {0, 0, 0, 0}, 0, 0, 0, 0.0, 0.0, 0, 0, 0, NULL \
    }

typedef struct tk_prof_report tk_prof_report;

/* The summary of p (tk_profile_summarize, or tk_profile_summarize_self with self_only) in
 * the sort order (tk_prof_summary_sort_cover), the rows shown: those with a cost, after
 * threshold, coverage and top (a table of self costs lists the functions with a self cost,
 * as callgrind_annotate does); with tree the call arcs, with cycles the cycles' members.
 * p must outlive the report and stay unchanged. Returns TK_OK, TK_ERR_ARG (no such part,
 * an event index out of range, tree, cycles or focus by another group, no function of the
 * focus's name), TK_ERR_NOMEM, TK_ERR_LIMIT (overflow). */
TK_API tk_status tk_prof_report_open(tk_prof_report **out, const tk_profile *p,
                                     const tk_prof_report_options *opt, tk_error *err);
/* The summary, its entries in the report's order (borrowed from r). */
TK_API const tk_prof_summary *tk_prof_report_summary(const tk_prof_report *r);
/* The rows shown: the first this many entries of the summary. */
TK_API size_t tk_prof_report_rows(const tk_prof_report *r);
/* The primary sort event (0 for a profile without events). */
TK_API size_t tk_prof_report_primary(const tk_prof_report *r);
/* The call arcs between the entries (tree; else NULL), borrowed from r. */
TK_API const tk_prof_arcs *tk_prof_report_arcs(const tk_prof_report *r);
/* The calls into (callees 0) or out of (callees 1) entry i, as indexes into the arcs, into
 * idx (room for the arcs' count): the heaviest first (inclusive cost of the primary event),
 * then the most frequent, then the summary's order of the other end. Returns how many (0
 * without tree). */
TK_API size_t tk_prof_report_tree(const tk_prof_report *r, size_t i, int callees, size_t *idx);
/* The members of call cycle c (1-based, at most the summary's n_cycles) as entry indexes in
 * the summary's order: *members borrowed from r. Returns how many (0 without cycles). */
TK_API size_t tk_prof_report_cycle(const tk_prof_report *r, size_t c, const size_t **members);
TK_API void tk_prof_report_free(tk_prof_report *r);

/* ---- the difference of two profiles ---------------------------------------------------- */

/* Profiles A and B are parts 1 and 2 of one profile, each merged into a part of its own
 * (tk_profile_add_part, tk_profile_merge): they share one string table, so that their
 * functions are comparable. */

/* Two profiles of two builds of one program (built in two directories, two versions) name
 * one function with other paths: tk_prof_diff_add merges each into its part with the
 * functions rewritten and matched as a tk_prof_match says, A first, then B. */

/* What B's functions are paired with A's by, when their names (after the rewrites) are not
 * the same. */
typedef enum tk_prof_match_key {
    TK_PROF_MATCH_PATH = 0, /* object, file and name, as they are: no pairing */
    TK_PROF_MATCH_BASENAME, /* the last path component of object and file, and the name */
    TK_PROF_MATCH_NAME /* the name alone */
} tk_prof_match_key;

typedef struct tk_prof_match_options {
    tk_prof_match_key key;
    /* Substitutions "s/REGEX/TEXT/FLAGS" applied in order to every object and file name of
     * both profiles (cg_diff's --mod-filename), and to every function name (--mod-funcname).
     * The delimiter is the character after 's' (not a letter, digit, backslash or space);
     * REGEX is a POSIX extended regular expression; in TEXT \0-\9 or $0-$9 (and $&) are the
     * match and its groups, a backslash takes the next character as it is; FLAGS: g (every
     * match, not only the first), i (ignore case). */
    const char *const *mod_filename;
    size_t n_mod_filename;
    const char *const *mod_funcname;
    size_t n_mod_funcname;
} tk_prof_match_options;

#define TK_PROF_MATCH_OPTIONS_INIT \
    { \
        TK_PROF_MATCH_PATH, NULL, 0, NULL, 0 \
    }

typedef struct tk_prof_match tk_prof_match;

/* What a match did (tk_prof_match_get), after both profiles were added. */
typedef struct tk_prof_match_info {
    size_t renamed; /* functions of A and B whose object, file or name a substitution changed */
    size_t paired; /* functions of B paired by the key with a function of A of other names */
    size_t ambiguous; /* functions of B left unpaired: several functions of A or of B have
                         their key, and A none of their names */
} tk_prof_match_info;

/* The match o says (o NULL: TK_PROF_MATCH_OPTIONS_INIT), its expressions compiled. Returns
 * TK_OK, TK_ERR_ARG (an expression not of the form s/REGEX/TEXT/FLAGS or whose REGEX does
 * not compile: the message quotes it and says why), TK_ERR_NOMEM. */
TK_API tk_status tk_prof_match_open(tk_prof_match **out, const tk_prof_match_options *o,
                                    tk_error *err);
/* src's parts summed into a new part of both, with the names of its functions rewritten by
 * m's substitutions; functions that then have the same names are one. both is a new profile
 * (tk_profile_open) to which A is added first (part 1), then B (part 2), each through m: a
 * function of B whose names A has not is paired with the function of A of its key when A
 * and B each have one function of that key. Returns TK_OK, TK_ERR_ARG (both has two parts
 * already), TK_ERR_NOMEM, or tk_profile_merge's errors. */
TK_API tk_status tk_prof_diff_add(tk_profile *both, const tk_profile *src, tk_prof_match *m,
                                  tk_error *err);
TK_API void tk_prof_match_get(const tk_prof_match *m, tk_prof_match_info *out);
TK_API void tk_prof_match_free(tk_prof_match *m);

/* A function whose costs differ. */
typedef struct tk_prof_diff_row {
    const char *name, *file, *object; /* "???" when the profile has none */
    uint64_t change; /* |B - A| of the self cost of the diff's event */
    const uint64_t *self[2]; /* n_events values, in A and in B */
    const uint64_t *inclusive[2];
} tk_prof_diff_row;

typedef struct tk_prof_diff tk_prof_diff;

/* Both parts of `both` summarized by function (TK_GROUP_FUNCTION), the functions whose self
 * or inclusive costs differ by the change of `event` (largest first), then name, file and
 * object. both must outlive the diff. Returns TK_OK, TK_ERR_ARG (not two parts, event out
 * of range), TK_ERR_NOMEM, TK_ERR_LIMIT (overflow). */
TK_API tk_status tk_prof_diff_open(tk_prof_diff **out, const tk_profile *both, size_t event,
                                   tk_error *err);
TK_API size_t tk_prof_diff_count(const tk_prof_diff *d);
/* Row i (< count), borrowed from d. */
TK_API const tk_prof_diff_row *tk_prof_diff_row_at(const tk_prof_diff *d, size_t i);
/* The program totals of A (side 0) or B (side 1): n_events values. */
TK_API const uint64_t *tk_prof_diff_totals(const tk_prof_diff *d, int side);
TK_API void tk_prof_diff_free(tk_prof_diff *d);

/* The folded stacks of both parts (tk_profile_write_folded for `event`) side by side: one
 * row per stack of either, with its counts in A and in B, in order of first appearance (A's
 * stacks first): the lines "stack A B" difffolded.pl writes and flamegraph.pl draws as a
 * differential flame graph. */
typedef struct tk_prof_folded_diff_row {
    const char *stack; /* not NUL-terminated: len bytes */
    size_t len;
    uint64_t count[2];
} tk_prof_folded_diff_row;

typedef struct tk_prof_folded_diff tk_prof_folded_diff;

/* Returns TK_OK, TK_ERR_ARG (not two parts, event out of range), TK_ERR_NOMEM. */
TK_API tk_status tk_prof_folded_diff_open(tk_prof_folded_diff **out, const tk_profile *both,
                                          size_t event, tk_error *err);
/* The same of two event streams (two XRay traces of one program): the folded stacks
 * tk_export_folded writes of a and of b (weight: self time or calls; the threads together,
 * since two runs' thread ids differ), read to their ends, side by side. Returns TK_OK,
 * TK_ERR_NOMEM, TK_ERR_IO or an error of a source (*out NULL). */
TK_API tk_status tk_prof_folded_diff_open_events(tk_prof_folded_diff **out,
                                                 const tk_event_source *a, const tk_event_source *b,
                                                 tk_folded_weight weight, tk_error *err);
/* The same of two folded-stacks partials (two sets of XRay traces of one program, each set's
 * traces chained, or their partials merged: tracekit/folded_partial.h): the stacks
 * tk_folded_partial_write writes of a and of b side by side, so the rows of two sets are those
 * of their two folded files. a and b need not outlive the diff. Returns TK_OK, TK_ERR_ARG
 * (partials of another weight, or one per thread and one not), TK_ERR_NOMEM, TK_ERR_IO
 * (*out NULL). */
TK_API tk_status tk_prof_folded_diff_open_partials(tk_prof_folded_diff **out,
                                                   const tk_folded_partial *a,
                                                   const tk_folded_partial *b, tk_error *err);
TK_API size_t tk_prof_folded_diff_count(const tk_prof_folded_diff *d);
/* Row i (< count), borrowed from d. */
TK_API const tk_prof_folded_diff_row *tk_prof_folded_diff_row_at(const tk_prof_folded_diff *d,
                                                                 size_t i);
TK_API void tk_prof_folded_diff_free(tk_prof_folded_diff *d);

#ifdef __cplusplus
}
#endif
#endif
