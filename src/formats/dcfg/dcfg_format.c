/* The DCFG format descriptor and its content detection. */
#include "formats/detect_util.h"
#include "tracekit/format.h"

/* A JSON object with MAJOR_VERSION and none of the DCFG-Trace keys. */
static int detect_dcfg(const uint8_t *d, size_t n)
{
    size_t i = 0;
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r')) i++;
    if (i >= n || d[i] != '{') return 0;
    /* keys are in any order: MAJOR_VERSION may come after 64 KiB of PROCESSES */
    int dcfg_keys = tk_detect_contains(d, n, "\"EDGE_TYPES\"") ||
                    tk_detect_contains(d, n, "\"FILE_NAMES\"") ||
                    tk_detect_contains(d, n, "\"BASIC_BLOCKS\"") ||
                    tk_detect_contains(d, n, "\"SPECIAL_NODES\"");
    if (!tk_detect_contains(d, n, "\"MAJOR_VERSION\"") && !dcfg_keys) return 0;
    if (tk_detect_contains(d, n, "\"TRANSITION_TABLE\"") ||
        tk_detect_contains(d, n, "\"THREAD_DATA\"") || tk_detect_contains(d, n, "\"TRACE_DATA\"") ||
        tk_detect_contains(d, n, "\"EDGE_ID_SEQUENCE\""))
        return 0;
    if (tk_detect_contains(d, n, "\"EDGE_TYPES\"") || tk_detect_contains(d, n, "\"FILE_NAMES\"") ||
        tk_detect_contains(d, n, "\"IMAGES\"") || tk_detect_contains(d, n, "\"NODES\""))
        return 90;
    return 60;
}

const tk_format tk_format_dcfg = {
    .name = "dcfg",
    .title = "Intel DCFG (dynamic control-flow graph, JSON)",
    .extensions = ".dcfg.json .dcfg.json.bz2",
    .caps = TK_CAP_DETECT | TK_CAP_INFO | TK_CAP_READ | TK_CAP_CHECK | TK_CAP_REPORT | TK_CAP_DUMP |
            TK_CAP_CONVERT | TK_CAP_WRITE | TK_CAP_DIFF | TK_CAP_MERGE,
    .targets = "dcfg json dot callgrind csi",
    .detect = detect_dcfg,
};
