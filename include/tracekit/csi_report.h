/* tracekit: the report of CSI path-tracing metadata (what `tracekit report` prints for
 * it): each function's blocks, edges, back edges and number of Ball-Larus paths, the
 * totals, and the functions over a path limit. */
#ifndef TRACEKIT_CSI_REPORT_H
#define TRACEKIT_CSI_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "csi.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* csi-cc's default PT_HASH_SIZE: ULONG_MAX / 2 - 1 paths at most. */
#define TK_CSI_PATH_LIMIT (UINT64_MAX / 2 - 1)

/* What the rows are sorted by; every key but name and order puts the most first; ties go
 * by the functions' order in the metadata. */
typedef enum tk_csi_report_key {
    TK_CSI_REPORT_BY_PATHS = 0, /* an overflowing count counts as the most */
    TK_CSI_REPORT_BY_BLOCKS,
    TK_CSI_REPORT_BY_EDGES,
    TK_CSI_REPORT_BY_NAME, /* labels as bytes, ascending */
    TK_CSI_REPORT_BY_ORDER /* the metadata's order */
} tk_csi_report_key;

/* What numbering a function's paths found. */
typedef enum tk_csi_paths_status {
    TK_CSI_PATHS_OK = 0,
    TK_CSI_PATHS_OVERFLOW, /* more than 2^64 - 1 paths */
    TK_CSI_PATHS_INVALID /* the metadata's numbering is not valid (see tk_csi_check_function) */
} tk_csi_paths_status;

typedef struct tk_csi_report_row {
    const char *label; /* the label given to tk_csi_report_add */
    uint64_t order; /* the function's ordinal */
    uint64_t blocks, edges, back_edges;
    uint64_t paths; /* meaningful when status is TK_CSI_PATHS_OK */
    tk_csi_paths_status status;
} tk_csi_report_row;

typedef struct tk_csi_report_totals {
    uint64_t functions, blocks, edges, back_edges;
    uint64_t overflow, invalid; /* functions of each status */
} tk_csi_report_totals;

typedef struct tk_csi_report_options {
    tk_csi_report_key key;
} tk_csi_report_options;

#define TK_CSI_REPORT_OPTIONS_INIT \
    { \
        TK_CSI_REPORT_BY_PATHS \
    }

typedef struct tk_csi_report tk_csi_report;

/* An empty report (opt NULL: the defaults). Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_csi_report_open(tk_csi_report **out, const tk_csi_report_options *opt,
                                    tk_error *err);
/* Adds function fn as a row labelled label (copied). Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_csi_report_add(tk_csi_report *r, const tk_csi_function *fn, const char *label,
                                   tk_error *err);
/* Puts the rows in the order of the options' key. */
TK_API void tk_csi_report_sort(tk_csi_report *r);
TK_API size_t tk_csi_report_count(const tk_csi_report *r);
/* Row i (< count), borrowed from r until the next add or clear. */
TK_API const tk_csi_report_row *tk_csi_report_row_at(const tk_csi_report *r, size_t i);
TK_API void tk_csi_report_get_totals(const tk_csi_report *r, tk_csi_report_totals *out);
/* Whether the row's function has more than limit paths (an overflow has). */
TK_API int tk_csi_report_row_over(const tk_csi_report_row *row, uint64_t limit);
/* The functions over limit (tk_csi_report_row_over). */
TK_API uint64_t tk_csi_report_over_limit(const tk_csi_report *r, uint64_t limit);
/* Removes every row (the report of the next input). */
TK_API void tk_csi_report_clear(tk_csi_report *r);
TK_API void tk_csi_report_free(tk_csi_report *r);

/* ---- annotate: a function's source lines with the paths that run them ---------------- */

#define TK_CSI_LINE_IDS 32

typedef struct tk_csi_line_paths {
    int64_t line;
    uint64_t paths; /* how many of the paths enumerated run the line */
    uint64_t ids[TK_CSI_LINE_IDS]; /* the first min(paths, TK_CSI_LINE_IDS) of them */
} tk_csi_line_paths;

/* The distinct source lines of fn's blocks (path writes left out), ascending, each with the
 * paths among the first `limit` (0: every path) of the numbering num holds for fn
 * (tk_csi_numbering_load) that run it; a path that does not decode is skipped. *out is the
 * caller's (tk_free), *n rows; *enumerated: the paths enumerated (of tk_bl_total).
 * Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_csi_annotate_lines(const tk_csi_function *fn, tk_csi_numbering *num,
                                       uint64_t limit, tk_csi_line_paths **out, size_t *n,
                                       uint64_t *enumerated, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
