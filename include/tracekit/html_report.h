/* tracekit: a report as one self-contained HTML page (no network: works from file://). */
#ifndef TRACEKIT_HTML_REPORT_H
#define TRACEKIT_HTML_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "flamegraph.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_html_report {
    const char *title;
    /* the report as JSON (what `report --format json` writes): its scalar members are the
     * summary, each of its arrays of objects a sortable table (rows drawn as they scroll into
     * view, so 100,000 rows stay usable); numbers arrays of an object are columns named by the
     * report's "events" */
    const char *report_json;
    size_t report_len;
    /* optional (NULL): folded stacks, drawn as the flame graph (tk_flamegraph_svg) */
    const char *folded;
    size_t folded_len;
    tk_flame_options flame;
    /* optional (NULL): Chrome trace-event JSON (tk_export_chrome), drawn as a timeline of
     * each thread's calls */
    const char *trace_json;
    size_t trace_len;
} tk_html_report;

/* Write the page: the summary, the tables, the flame graph (an SVG document of its own,
 * embedded as a data: URL), the timeline; inline CSS and script, nothing fetched. Errors:
 * tk_flamegraph_svg's, TK_ERR_NOMEM, TK_ERR_IO. */
TK_API tk_status tk_html_report_write(const tk_html_report *r, FILE *out, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
