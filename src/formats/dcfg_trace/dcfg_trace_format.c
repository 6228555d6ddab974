/* The DCFG-Trace format descriptor and its content detection. */
#include "formats/detect_util.h"
#include "tracekit/format.h"

/* A JSON object with MAJOR_VERSION and the trace keys. */
static int detect_dcfg_trace(const uint8_t *d, size_t n)
{
    size_t i = 0;
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r')) i++;
    if (i >= n || d[i] != '{') return 0;
    if (!tk_detect_contains(d, n, "\"MAJOR_VERSION\"")) return 0;
    if (tk_detect_contains(d, n, "\"TRANSITION_TABLE\"") ||
        tk_detect_contains(d, n, "\"THREAD_DATA\"") || tk_detect_contains(d, n, "\"TRACE_DATA\"") ||
        tk_detect_contains(d, n, "\"EDGE_ID_SEQUENCE\""))
        return 95;
    return 0;
}

const tk_format tk_format_dcfg_trace = {
    .name = "dcfg-trace",
    .title = "Intel DCFG-Trace (compressed edge sequence, JSON)",
    .extensions = ".trace.json .trace.json.bz2",
    .caps = TK_CAP_DETECT | TK_CAP_INFO | TK_CAP_READ | TK_CAP_CHECK | TK_CAP_REPORT | TK_CAP_DUMP |
            TK_CAP_CONVERT | TK_CAP_WRITE | TK_CAP_DIFF,
    .targets = "chrome folded svg callgrind dot bbv",
    .detect = detect_dcfg_trace,
};
