/* The CSI path-tracing metadata descriptor and its content detection. */
#include "formats/detect_util.h"
#include "tracekit/format.h"

static int is_block_line(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && s[i] == '-') i++;
    size_t digits = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    return i > digits && i < n && s[i] == '|';
}

/* Text: "#", a function name, then block lines "id|..." (or "$"), as in the
 * .debug_PT section. An ELF file may hold that section: weakly claimed, the
 * reader looks for the section. */
static int detect_csi(const uint8_t *d, size_t n)
{
    if (n >= 4 && d[0] == 0x7f && d[1] == 'E' && d[2] == 'L' && d[3] == 'F') return 20;
    if (!tk_detect_is_text(d, n)) return 0;
    const uint8_t *p = d, *end = d + n;
    const char *line;
    size_t len;
    if (!tk_detect_line(&p, end, &line, &len, 0) || len != 1 || line[0] != '#') return 0;
    if (!tk_detect_line(&p, end, &line, &len, 0) || len == 0) return 0;
    if (!tk_detect_line(&p, end, &line, &len, 0)) return 30;
    if (is_block_line(line, len)) return 90;
    if (len == 1 && line[0] == '$') return 80;
    return 0;
}

const tk_format tk_format_csi = {
    .name = "csi",
    .title = "CSI path-tracing metadata (.debug_PT)",
    .extensions = ".debug_PT .txt (or an ELF file with a .debug_PT section)",
    .caps = TK_CAP_DETECT | TK_CAP_INFO | TK_CAP_READ | TK_CAP_CHECK | TK_CAP_REPORT |
            TK_CAP_ANNOTATE | TK_CAP_DUMP | TK_CAP_CONVERT | TK_CAP_WRITE,
    .targets = "csi dot",
    .detect = detect_csi,
};
