/* tracekit: a profile's costs by source line and by instruction (what `tracekit annotate`
 * prints for Callgrind profiles): each source file's costed lines with their self cost and
 * the cost of the calls made on them, the decision whether the file's source is found (and
 * its lines around the costed ones), and each function's costed instruction addresses.
 *
 * A line's (or an instruction's) inclusive cost is its self cost plus the inclusive costs
 * of the calls made on it, except calls whose caller and callee are in one recursion class
 * (tk_profile_recursion_classes with context suffixes merged, so `fib` and `fib'2` are one
 * function): such a call can be active several times in one call chain, and its inclusive
 * cost already contains the costs of the nested activations of the same lines. Arcs between
 * classes never nest and are added in full. The column is capped at the program total, like
 * the report's inclusive costs. */
#ifndef TRACEKIT_PROFILE_ANNOTATE_H
#define TRACEKIT_PROFILE_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "profile.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_prof_annotate_options {
    size_t part; /* 0: every part; else the 1-based part (TK_ERR_ARG past the end) */
    size_t event; /* the event whose self costs decide the coverage cut */
    double coverage; /* the files (and the functions of the instruction view) hottest first
                         until they cover this percentage of the total self cost of `event`,
                         callgrind_annotate's --threshold (ties of the last one too); the others
                         are left out (counted). 0 or 100: every one with a self cost */
    const char *const *source_dirs; /* where sources are looked for, besides their own name */
    size_t n_source_dirs;
    size_t context; /* source lines shown around a costed line (0: 3;
                         TK_PROF_ANNOTATE_NO_CONTEXT: none, the costed lines only) */
    const char *file; /* only this file (its name, the same without leading "./", or its last
                         components: "demo.c" for "src/demo.c"), without the coverage cut; NULL:
                         every file */
    const char *function; /* only the rows of this function (its name, or its name without a
                             callgrind context suffix: "fib" for "fib'2"), without the cut */
    int instructions; /* the instruction view of parts with instruction addresses: 0 only
                         when they have no source lines, 1 also when they have */
} tk_prof_annotate_options;

#define TK_PROF_ANNOTATE_NO_CONTEXT ((size_t)-1)
#define TK_PROF_ANNOTATE_OPTIONS_INIT \
    { \
        0, 0, 0.0, NULL, 0, 0, NULL, NULL, 0 \
    }

typedef struct tk_prof_annotation tk_prof_annotation;

/* The annotation of p's parts (all, or opt->part): p must outlive it and stay unchanged.
 * Returns TK_OK, TK_ERR_ARG (no such part, an event out of range, a coverage above 100),
 * TK_ERR_NOMEM. */
TK_API tk_status tk_prof_annotate_open(tk_prof_annotation **out, const tk_profile *p,
                                       const tk_prof_annotate_options *opt, tk_error *err);
TK_API void tk_prof_annotation_free(tk_prof_annotation *a);

typedef struct tk_prof_annotation_info {
    size_t n_events;
    const uint64_t *totals; /* n_events values: the self costs of the parts annotated */
    unsigned positions; /* the TK_POS_* bits of those parts */
    int instructions; /* the instruction view was made (tk_prof_annotate_function_get) */
    size_t files; /* source files shown (tk_prof_annotate_file_get) */
    size_t functions; /* functions of the instruction view (tk_prof_annotate_function_get) */
    size_t hidden_files; /* files with a self cost the coverage cut leaves out */
    size_t hidden_functions; /* functions it leaves out (instruction view; also those without
                                a self cost) */
} tk_prof_annotation_info;

TK_API void tk_prof_annotation_get(const tk_prof_annotation *a, tk_prof_annotation_info *out);

/* A source file with a self cost the cut keeps (or that --file or --function ask for),
 * hottest first (the self cost of the event), then by name. */
typedef struct tk_prof_annotate_file_info {
    uint32_t name; /* string id of the file as the profile names it */
    const char *source; /* the file found for it (the name, or under a source dir), or NULL */
    const uint64_t *self; /* n_events values: the self costs of its lines */
    size_t first_site, sites; /* its costed lines: sites first_site .. first_site + sites - 1 */
} tk_prof_annotate_file_info;

/* File i (< files), borrowed from a. Zeros past the end. */
TK_API void tk_prof_annotate_file_get(const tk_prof_annotation *a, size_t i,
                                      tk_prof_annotate_file_info *out);

/* A function of the instruction view the cut keeps, hottest first, then by name (and
 * function id). */
typedef struct tk_prof_annotate_function_info {
    uint32_t fn; /* function id */
    const uint64_t *self; /* n_events values */
    size_t first_site, sites; /* its costed instruction addresses */
} tk_prof_annotate_function_info;

TK_API void tk_prof_annotate_function_get(const tk_prof_annotation *a, size_t i,
                                          tk_prof_annotate_function_info *out);

/* A costed line of a file, or a costed instruction of a function: its costs added over the
 * rows of the parts at it. */
typedef struct tk_prof_annotate_site_info {
    uint64_t line; /* source line (0: unknown) */
    uint64_t addr; /* instruction address (instruction view) */
    int has_self; /* 1: a cost line is at it (else only calls are made there) */
    const uint64_t *self; /* n_events values */
    const uint64_t *inclusive; /* n_events values: self + the calls made there (see above) */
    size_t first_call, calls; /* the calls made there (tk_prof_annotate_call_get) */
    size_t first_jump, jumps; /* the jumps from there (tk_prof_annotate_jump_get) */
} tk_prof_annotate_site_info;

/* Site k (< the sites of every file and function), borrowed from a. Zeros past the end. */
TK_API void tk_prof_annotate_site_get(const tk_prof_annotation *a, size_t k,
                                      tk_prof_annotate_site_info *out);

/* The calls made at a site to one callee (callgrind_annotate's "=> callee (Nx)" lines),
 * heaviest first (inclusive cost of the event), then the most frequent. */
typedef struct tk_prof_annotate_call_info {
    uint32_t callee; /* function id */
    uint64_t count; /* calls */
    const uint64_t *inclusive; /* n_events values: their inclusive cost */
    int recursive; /* 1: caller and callee are in one recursion class: the site's
                                  inclusive cost does not count them */
} tk_prof_annotate_call_info;

/* Call k (of a site's first_call .. first_call + calls - 1), borrowed from a. */
TK_API void tk_prof_annotate_call_get(const tk_prof_annotation *a, size_t k,
                                      tk_prof_annotate_call_info *out);

/* The jumps from a site to one target (a profile of valgrind --collect-jumps=yes), as
 * KCachegrind draws its jump arrows: a conditional jump (jcnd=) was executed `executed`
 * times and taken `followed` of them; an unconditional one (jump=) taken every time. In
 * the order of their targets. */
typedef struct tk_prof_annotate_jump_info {
    int conditional;
    uint32_t target_file; /* string id */
    uint32_t target_fn; /* function id */
    uint64_t target_line; /* 0: unknown */
    uint64_t target_addr; /* instruction view */
    uint64_t executed, followed;
} tk_prof_annotate_jump_info;

TK_API void tk_prof_annotate_jump_get(const tk_prof_annotation *a, size_t k,
                                      tk_prof_annotate_jump_info *out);

/* ---- a file's source around its costed lines ------------------------------------------ */

typedef enum tk_prof_source_kind {
    TK_SOURCE_LINE = 0, /* a line of the source: text, line, site */
    TK_SOURCE_GAP = 1, /* lines left out before the next one shown (line: its number) */
    TK_SOURCE_BEYOND = 2 /* the file ended before `beyond` costed lines (the last item) */
} tk_prof_source_kind;

typedef struct tk_prof_source_item {
    tk_prof_source_kind kind;
    uint64_t line; /* LINE, GAP: the line's number */
    const char *text; /* LINE: its text, without the line end (len bytes, borrowed until the
                         next call) */
    size_t len;
    size_t site; /* LINE: the site of a costed line, or SIZE_MAX */
    size_t beyond; /* BEYOND: costed lines past the end of the source */
} tk_prof_source_item;

typedef struct tk_prof_source tk_prof_source;

/* The source of file i, which must have one (tk_prof_annotate_file_info.source): its lines
 * within `context` lines of a costed one, the others as gaps. Returns TK_OK, TK_ERR_ARG (no
 * source), TK_ERR_IO (it cannot be opened), TK_ERR_NOMEM. */
TK_API tk_status tk_prof_source_open(tk_prof_source **out, const tk_prof_annotation *a, size_t file,
                                     tk_error *err);
/* The next item: TK_OK, TK_END after the last, TK_ERR_IO or TK_ERR_LIMIT (a line over 256
 * MiB) from reading the source. */
TK_API tk_status tk_prof_source_next(tk_prof_source *s, tk_prof_source_item *item, tk_error *err);
TK_API void tk_prof_source_free(tk_prof_source *s);

#ifdef __cplusplus
}
#endif
#endif
