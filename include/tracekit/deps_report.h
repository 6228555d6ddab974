/* tracekit: reports over a deps model (a WET trace): its source lines with their
 * executions (and those of a slice), the hottest lines and the longest dependence chains,
 * the instructions in order of their ids. What `tracekit report`, `annotate` and `slice`
 * print for WET traces. */
#ifndef TRACEKIT_DEPS_REPORT_H
#define TRACEKIT_DEPS_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "deps.h"
#include "slice.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- source lines ---------------------------------------------------------------------- */

/* The instructions of one source line (file and line of tk_deps_get_instr), or one
 * instruction without debug information. */
typedef struct tk_deps_line {
    uint32_t first_instr; /* the line's first instruction in source order: its file, line */
    uint64_t instances; /* executions of its instructions */
    uint64_t instrs; /* its instructions */
    uint64_t in_slice; /* its instances in the slice given to tk_deps_lines_open (else 0) */
} tk_deps_line;

typedef struct tk_deps_lines tk_deps_lines;

/* One entry per distinct (file, line) of d, in source order (file names as bytes, then
 * line; instructions without a file last, one entry each, by address); with a slice (of
 * d; NULL: none), each line's instances in it. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_deps_lines_open(tk_deps_lines **out, const tk_deps *d, const tk_slice *slice,
                                    tk_error *err);
TK_API size_t tk_deps_lines_count(const tk_deps_lines *l);
/* Entry i (< count), borrowed from l. */
TK_API const tk_deps_line *tk_deps_lines_at(const tk_deps_lines *l, size_t i);
/* Reorders the entries: most instances first, ties in source order. */
TK_API void tk_deps_lines_sort_hot(tk_deps_lines *l);
TK_API void tk_deps_lines_free(tk_deps_lines *l);

/* ---- the report ------------------------------------------------------------------------ */

typedef struct tk_deps_report_options {
    size_t chains; /* how many of the longest dependence chains to find (0: none) */
} tk_deps_report_options;

#define TK_DEPS_REPORT_OPTIONS_INIT \
    { \
        0 \
    }

typedef struct tk_deps_report tk_deps_report;

/* The trace's counts, its source lines by instances (tk_deps_lines_sort_hot) and its
 * longest dependence chains (tk_chain_longest). d must outlive the report. Returns TK_OK,
 * TK_ERR_NOMEM. */
TK_API tk_status tk_deps_report_open(tk_deps_report **out, const tk_deps *d,
                                     const tk_deps_report_options *opt, tk_error *err);
TK_API void tk_deps_report_stats(const tk_deps_report *r, tk_deps_stats *out);
/* The source lines, hottest first (borrowed from r). */
TK_API const tk_deps_lines *tk_deps_report_lines(const tk_deps_report *r);
TK_API size_t tk_deps_report_chain_count(const tk_deps_report *r);
/* Chain i (< chain count), longest first, borrowed from r. */
TK_API const tk_chain_summary *tk_deps_report_chain(const tk_deps_report *r, size_t i);
/* 1 when the dependences hold a cycle (the chains were cut there). */
TK_API int tk_deps_report_cyclic(const tk_deps_report *r);
TK_API void tk_deps_report_free(tk_deps_report *r);

/* ---- static dependences and values ---------------------------------------------------- */

/* The dynamic dependences of one static pair: instruction `instr` used, on port `port`
 * (tk_deps_port_kind), what instruction `dep` defined, in `count` entries (instances of
 * `instr`; in the limited-history form an instance may use several). Indexes of d. */
typedef struct tk_deps_pair {
    uint32_t instr;
    uint32_t port;
    uint32_t dep;
    uint64_t count;
} tk_deps_pair;

typedef struct tk_deps_pairs tk_deps_pairs;

/* Every pair of d, in order of the instructions' ids (addresses in the history form), then
 * port, then the id of the instruction depended on. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_deps_pairs_open(tk_deps_pairs **out, const tk_deps *d, tk_error *err);
TK_API size_t tk_deps_pairs_count(const tk_deps_pairs *p);
/* Pair i (< count), borrowed from p. */
TK_API const tk_deps_pair *tk_deps_pairs_at(const tk_deps_pairs *p, size_t i);
TK_API void tk_deps_pairs_free(tk_deps_pairs *p);

/* What one instruction's values were: how many, how many distinct (whole values, wide ones
 * too), the most frequent and how often it came (ties: the smallest value). */
typedef struct tk_deps_value_stats {
    uint64_t count;
    uint64_t distinct;
    uint64_t top_count; /* 0 when it has no value */
    size_t top; /* the most frequent: its position k for tk_deps_value_hex */
} tk_deps_value_stats;

/* The value statistics of instruction `index` of d. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_deps_value_stats_get(const tk_deps *d, uint32_t index, tk_deps_value_stats *out,
                                         tk_error *err);

/* ---- order ----------------------------------------------------------------------------- */

/* The instruction indexes of d in order of their ids (addresses in the history form) into
 * order (room for tk_deps_count(d)). Cannot fail. */
TK_API void tk_deps_order_by_id(const tk_deps *d, uint32_t *order);

#ifdef __cplusplus
}
#endif
#endif
