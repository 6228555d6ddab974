/* tracekit: a report as one self-contained HTML page (no network: works from file://). */
#ifndef TRACEKIT_HTML_REPORT_H
#define TRACEKIT_HTML_REPORT_H

#include <stddef.h>

#include "flamegraph.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A graph drawn on the page: a loop's CFG (DCFG, DCFG-Trace) or a CSI function's CFG with its
 * paths. */
typedef struct tk_html_graph {
    const char *kind; /* "loop" (key: the loop head's node id, as the report's "loop" of a
                           * DCFG "loop_table" or "head" of a DCFG-Trace "hot_loops" row) or
                           * "function" (key: the CSI report's "function" of a "rows" row) */
    const char *key;
    const char *svg; /* Graphviz's SVG document of the graph (inlined), or NULL */
    size_t svg_len;
    const char *dot; /* its dot source, shown when svg is NULL (may be NULL) */
    size_t dot_len;
    const char *note; /* why there is no SVG (NULL: none) */
    const char *data; /* function: its paths, one element of `tracekit paths --list
                           * --format json` (may be NULL) */
    size_t data_len;
} tk_html_graph;

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
    /* optional: graphs, each shown with the report's row(s) of its key; clicking a path of a
     * function highlights its blocks and edges in the graph */
    const tk_html_graph *graphs;
    size_t ngraphs;
} tk_html_report;

/* Write the page: the summary, the tables, the flame graph (an SVG document of its own,
 * embedded as a data: URL), the timeline; inline CSS and script, nothing fetched. Errors:
 * tk_flamegraph_svg's, TK_ERR_NOMEM, TK_ERR_IO. */
TK_API tk_status tk_html_report_write(const tk_html_report *r, const tk_writer *out, tk_error *err);

/* The values of member `member` of the objects in every array named `array` (at any depth)
 * of the JSON text json[0..len), in order, to fn (strings unescaped, numbers as written; the
 * text is NUL-terminated for fn): which loops or functions a report shows. fn's status other
 * than TK_OK stops the walk and is returned; else TK_OK, or the JSON's error (TK_ERR_FORMAT,
 * located in "report"), TK_ERR_NOMEM. */
typedef tk_status (*tk_html_key_fn)(void *user, const char *value, size_t len);
TK_API tk_status tk_html_report_keys(const char *json, size_t len, const char *array,
                                     const char *member, tk_html_key_fn fn, void *user,
                                     tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
