/* tracekit: the reports of CSI coverage metadata and of a crashed program's coverage (what
 * `tracekit report` prints for csi-cc, csi-fc and csi-bbc files, and what `tracekit
 * coverage` counts and annotates): each function's entries and lines, the totals, the
 * order; the counts of what had run; the source files with the state of each line. */
#ifndef TRACEKIT_CSI_COV_REPORT_H
#define TRACEKIT_CSI_COV_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "csi_cov.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether a function called name is one a selector names: NULL selects all; "NAME"
 * selects NAME and its clones NAME$... */
TK_API int tk_csi_cov_name_matches(const char *selector, const char *name);

/* ---- the report of the metadata --------------------------------------------------------- */

/* What the rows are sorted by; entries and lines put the most first; ties go by the
 * functions' order in the metadata. */
typedef enum tk_csi_cov_report_key {
    TK_CSI_COV_REPORT_BY_ORDER = 0, /* the metadata's order */
    TK_CSI_COV_REPORT_BY_NAME, /* names as bytes, ascending */
    TK_CSI_COV_REPORT_BY_ENTRIES, /* sites or blocks */
    TK_CSI_COV_REPORT_BY_LINES /* distinct source lines */
} tk_csi_cov_report_key;

typedef struct tk_csi_cov_report_row {
    const char *name, *array; /* copies of the function's */
    uint64_t order; /* the function's ordinal */
    uint64_t entries; /* sites or blocks (0 for function coverage) */
    uint64_t instrumented; /* entries with an index >= 0 */
    uint64_t lines; /* distinct source lines of its entries */
} tk_csi_cov_report_row;

typedef struct tk_csi_cov_report_totals {
    uint64_t functions, entries, instrumented, lines;
} tk_csi_cov_report_totals;

typedef struct tk_csi_cov_report_options {
    tk_csi_cov_report_key key;
} tk_csi_cov_report_options;

#define TK_CSI_COV_REPORT_OPTIONS_INIT \
    { \
        TK_CSI_COV_REPORT_BY_ORDER \
    }

typedef struct tk_csi_cov_report tk_csi_cov_report;

/* An empty report (opt NULL: the defaults). Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_csi_cov_report_open(tk_csi_cov_report **out,
                                        const tk_csi_cov_report_options *opt, tk_error *err);
/* Adds function fn as a row. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_csi_cov_report_add(tk_csi_cov_report *r, const tk_csi_cov_function *fn,
                                       tk_error *err);
/* Puts the rows in the order of the options' key. */
TK_API void tk_csi_cov_report_sort(tk_csi_cov_report *r);
TK_API size_t tk_csi_cov_report_count(const tk_csi_cov_report *r);
/* Row i (< count), borrowed from r until the next add or clear. */
TK_API const tk_csi_cov_report_row *tk_csi_cov_report_row_at(const tk_csi_cov_report *r, size_t i);
TK_API void tk_csi_cov_report_get_totals(const tk_csi_cov_report *r, tk_csi_cov_report_totals *out);
/* Removes every row (the report of the next input). */
TK_API void tk_csi_cov_report_clear(tk_csi_cov_report *r);
TK_API void tk_csi_cov_report_free(tk_csi_cov_report *r);

/* ---- a crashed program's coverage ------------------------------------------------------- */

/* What had run, by state: [TK_CSI_HIT_NO], [TK_CSI_HIT_YES], [TK_CSI_HIT_UNKNOWN]. A
 * function counts when .debug_FC lists it. */
typedef struct tk_csi_crash_counts {
    uint64_t functions[3], sites[3], blocks[3], lines[3];
} tk_csi_crash_counts;

/* The counts of function f. */
TK_API void tk_csi_crash_function_counts(const tk_csi_crash_function *f, tk_csi_crash_counts *out);
/* The sums over the functions of c that selector selects (tk_csi_cov_name_matches); returns
 * how many it selects. */
TK_API size_t tk_csi_crash_totals(const tk_csi_crash *c, const char *selector,
                                  tk_csi_crash_counts *out);

/* One source file of the selected functions and the state of each of its lines that they
 * list: covered when one function has it covered, else unknown when one has it unknown,
 * else not covered. */
typedef struct tk_csi_crash_file {
    const char *source; /* as tk_csi_crash_function's; NULL: no file known */
    const tk_csi_crash_line *lines; /* distinct, ascending */
    size_t nlines;
} tk_csi_crash_file;

typedef struct tk_csi_crash_files tk_csi_crash_files;

/* The source files of the functions of c that selector selects, by name as bytes (the
 * functions without a file last); c must outlive them. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_csi_crash_files_open(tk_csi_crash_files **out, const tk_csi_crash *c,
                                         const char *selector, tk_error *err);
TK_API size_t tk_csi_crash_files_count(const tk_csi_crash_files *f);
/* File i (< count), borrowed from f. */
TK_API const tk_csi_crash_file *tk_csi_crash_files_at(const tk_csi_crash_files *f, size_t i);
/* Line `line` of file (by binary search), or NULL when no selected function lists it. */
TK_API const tk_csi_crash_line *tk_csi_crash_file_line(const tk_csi_crash_file *file,
                                                       uint64_t line);
TK_API void tk_csi_crash_files_free(tk_csi_crash_files *f);

#ifdef __cplusplus
}
#endif
#endif
