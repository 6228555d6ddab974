/* The folded-stacks descriptor and its content detection. */
#include "formats/detect_util.h"
#include "tracekit/format.h"

/* "STACK COUNT": something, a blank, then digits (a '.' and digits allowed). */
static int is_stack_line(const char *s, size_t n, int *has_frames)
{
    size_t i = n;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') i--;
    if (i > 0 && s[i - 1] == '.') {
        i--;
        while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') i--;
    }
    if (i == n || i < 2 || (s[i - 1] != ' ' && s[i - 1] != '\t') || s[i] == '.') return 0;
    for (size_t k = 0; k + 1 < i; k++) {
        if (s[k] == ';') *has_frames = 1;
        if ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z') || s[k] == '_')
            *has_frames |= 2;
    }
    return 1;
}

/* Text whose complete lines (up to 200 of them) are stacks with a count, some with a name (a
 * letter or '_'); several frames (a ';') make it surer. Other text formats made of "X N"
 * lines alone (none of tracekit's) would be claimed with 40. A few bad lines (one, or one in
 * ten) among stacks of several frames still make it folded stacks, with less confidence, so
 * that `check` can tell where they are. */
static int detect_folded(const uint8_t *d, size_t n)
{
    if (!tk_detect_is_text(d, n)) return 0;
    const uint8_t *p = d, *end = d + n;
    const char *line;
    size_t len;
    int good = 0, bad = 0, frames = 0;
    while (good + bad < 200 && tk_detect_line(&p, end, &line, &len, n >= TK_DETECT_BYTES)) {
        if (len == 0) continue;
        if (is_stack_line(line, len, &frames))
            good++;
        else
            bad++;
    }
    if (!good || !(frames & 2)) return 0;
    if (!bad) return frames & 1 ? 60 : 40;
    return (frames & 1) && (bad == 1 || bad * 10 <= good + bad) ? 30 : 0;
}

const tk_format tk_format_folded = {
    .name = "folded",
    .title = "Folded stacks (flame graph input: \"a;b;c COUNT\" a line)",
    .extensions = ".folded .collapsed .txt",
    .caps = TK_CAP_DETECT | TK_CAP_INFO | TK_CAP_READ | TK_CAP_CHECK | TK_CAP_REPORT |
            TK_CAP_CONVERT | TK_CAP_WRITE,
    .targets = "svg folded",
    .detect = detect_folded,
};
