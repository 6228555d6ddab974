/* The WET trace descriptor and its content detection (both forms). */
#include "formats/detect_util.h"
#include "tracekit/format.h"

static size_t count_fields(const char *s, size_t n)
{
    size_t fields = 0, i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
        if (i < n) fields++;
        while (i < n && s[i] != ' ' && s[i] != '\t') i++;
    }
    return fields;
}

static int all_digits(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    return i == n && n > start;
}

/* Comprehensive form: a count line, then "id num_use_port addr ..." and
 * "SIZE n". Limited-history form: lines "ADDR#INST --> ADDR#INST". */
static int detect_wet(const uint8_t *d, size_t n)
{
    if (!tk_detect_is_text(d, n)) return 0;
    const uint8_t *p = d, *end = d + n;
    const char *line;
    size_t len;
    if (!tk_detect_line(&p, end, &line, &len, 0)) return 0;
    if (all_digits(line, len)) {
        if (!tk_detect_line(&p, end, &line, &len, 0)) return 20;
        size_t f = count_fields(line, len);
        if (f < 3) return 0;
        if (!tk_detect_line(&p, end, &line, &len, 0)) return 30;
        while (len && (line[0] == ' ' || line[0] == '\t')) {
            line++;
            len--;
        }
        return tk_detect_starts(line, len, "SIZE ") ? 90 : 0;
    }
    /* limited-history form */
    int hits = 0;
    do {
        if (len == 0) continue;
        const char *arrow = NULL;
        for (size_t i = 0; i + 3 <= len; i++)
            if (line[i] == '-' && line[i + 1] == '-' && line[i + 2] == '>') {
                arrow = line + i;
                break;
            }
        if (!arrow || !memchr(line, '#', (size_t)(arrow - line))) return hits ? 60 : 0;
        if (++hits >= 3) break;
    } while (tk_detect_line(&p, end, &line, &len, 1));
    return hits ? 85 : 0;
}

const tk_format tk_format_wet = {
    .name = "wet",
    .title = "WET whole execution trace (comprehensive and limited-history forms)",
    .extensions = ".wet .txt",
    .caps = TK_CAP_DETECT | TK_CAP_INFO | TK_CAP_READ | TK_CAP_CHECK | TK_CAP_REPORT |
            TK_CAP_ANNOTATE | TK_CAP_DUMP | TK_CAP_CONVERT | TK_CAP_WRITE,
    .targets = "wet wet-history json",
    .detect = detect_wet,
};
