/* The Callgrind format descriptor and its content detection. */
#include "formats/detect_util.h"
#include "tracekit/format.h"

/* "# callgrind format" on the first line is the spec's own marker; files from
 * other producers (pprof, xdebug, old valgrind) omit it, so header keys and
 * position lines are also recognised. */
static int detect_callgrind(const uint8_t *d, size_t n)
{
    if (!tk_detect_is_text(d, n)) return 0;
    const uint8_t *p = d, *end = d + n;
    const char *line;
    size_t len;
    int score = 0, lines = 0, events = 0, fn = 0, header = 0;
    while (lines < 200 && tk_detect_line(&p, end, &line, &len, 0)) {
        lines++;
        if (len == 0) continue;
        if (lines == 1 && tk_detect_starts(line, len, "# callgrind format")) return 100;
        if (tk_detect_starts(line, len, "events:"))
            events = 1;
        else if (tk_detect_starts(line, len, "fn=") || tk_detect_starts(line, len, "fl=") ||
                 tk_detect_starts(line, len, "ob=") || tk_detect_starts(line, len, "fi="))
            fn = 1;
        else if (tk_detect_starts(line, len, "version:") ||
                 tk_detect_starts(line, len, "creator:") || tk_detect_starts(line, len, "cmd:") ||
                 tk_detect_starts(line, len, "positions:") || tk_detect_starts(line, len, "pid:") ||
                 tk_detect_starts(line, len, "part:") || tk_detect_starts(line, len, "desc:"))
            header = 1;
    }
    if (events && fn)
        score = 80;
    else if (events && header)
        score = 70;
    else if (events)
        score = 50;
    else if (header && fn)
        score = 40;
    return score;
}

const tk_format tk_format_callgrind = {
    .name = "callgrind",
    .title = "Callgrind profile",
    .extensions = "callgrind.out.* .callgrind .out",
    .caps = TK_CAP_DETECT | TK_CAP_INFO | TK_CAP_READ | TK_CAP_CHECK | TK_CAP_REPORT |
            TK_CAP_ANNOTATE | TK_CAP_DUMP | TK_CAP_CONVERT | TK_CAP_WRITE | TK_CAP_DIFF |
            TK_CAP_MERGE,
    .targets = "callgrind dot folded svg json",
    .detect = detect_callgrind,
};
