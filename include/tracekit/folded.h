/* tracekit: folded stacks as input. One stack a line, its frames separated by ';', then a
 * blank and a count: "main;parse;lex 42" (what flamegraph.pl's stackcollapse scripts,
 * `tracekit convert --to folded`, perf script | stackcollapse-perf.pl and speedscope's
 * "collapsed stack" importer read and write). Counts are integers or decimals ("1.5"). A
 * differential file (difffolded.pl, `tracekit diff --format folded`) has two counts a line,
 * "main;parse 30 42": the first profile's and the second's. docs/formats/folded.md. */
#ifndef TRACEKIT_FOLDED_H
#define TRACEKIT_FOLDED_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_folded_line {
    const char *stack; /* frames separated by ';' (inside the text, not NUL-terminated) */
    size_t stack_len;
    double count; /* the count (differential: the second profile's) */
    double before; /* differential: the first profile's count; else 0 */
    uint64_t line; /* 1-based line number */
} tk_folded_line;

/* Called for each stack; a status other than TK_OK stops the scan and is returned. */
typedef tk_status (*tk_folded_fn)(void *user, const tk_folded_line *line);

/* Every stack of text[0..len), in order, to fn (NULL: only checked). Empty lines (and a
 * trailing '\r') are skipped. The text is differential (*differential = 1, may be NULL) when
 * every stack ends with two counts, "STACK A B"; otherwise a number that ends a frame's name
 * ("thread 7 12": frame "thread 7", count 12) stays in the name. A line that does not end
 * with a count (decimal digits, optionally a '.' and more digits, after a blank), whose stack
 * is empty, or whose count does not fit (over 64 bits, or a decimal beyond a double) is an
 * error located at path:line:column: without diag the scan stops there with TK_ERR_FORMAT
 * (TK_ERR_LIMIT for a count that does not fit); with diag every such line is reported to it,
 * skipped, and the scan returns TK_ERR_CHECK at the end. Returns TK_OK, those, or fn's. */
TK_API tk_status tk_folded_scan(const char *text, size_t len, const char *path, tk_diag *diag,
                                tk_folded_fn fn, void *user, int *differential, tk_error *err);

/* A frame name's totals over the stacks: self (the stacks it ends), total (the stacks it is
 * in, each once however often it recurs); the _before ones of a differential text. */
typedef struct tk_folded_function {
    const char *name; /* inside the text */
    size_t name_len;
    double self, total, self_before, total_before;
} tk_folded_function;

typedef struct tk_folded_summary {
    tk_folded_function *functions; /* in the order of their first appearance */
    size_t nfunctions;
    uint64_t stacks; /* lines with a stack */
    uint32_t max_depth; /* frames of the deepest stack */
    int differential;
    double total, total_before; /* sums of the counts */
    size_t shown; /* the first rows of functions a report shows: tk_folded_summary_cut's
                     (nfunctions until then) */
} tk_folded_summary;

/* The summary of text[0..len) (tk_folded_scan's rules; its errors). The names point into
 * text, which must outlive the summary. TK_OK, TK_ERR_FORMAT, TK_ERR_LIMIT, TK_ERR_NOMEM. */
TK_API tk_status tk_folded_summarize(const char *text, size_t len, const char *path,
                                     tk_folded_summary *out, tk_error *err);
TK_API void tk_folded_summary_free(tk_folded_summary *s);

/* The orders of report: by total (then name), by self (then name), by name (bytes). */
typedef enum tk_folded_order {
    TK_FOLDED_BY_TOTAL = 0,
    TK_FOLDED_BY_SELF = 1,
    TK_FOLDED_BY_NAME = 2
} tk_folded_order;

/* Sort s->functions in that order, largest first for counts. */
TK_API void tk_folded_summary_sort(tk_folded_summary *s, tk_folded_order order);
/* Keep the first `top` rows (0: every row) as s->shown (`report --top N`, after the sort). */
TK_API void tk_folded_summary_cut(tk_folded_summary *s, uint64_t top);

#ifdef __cplusplus
}
#endif
#endif
