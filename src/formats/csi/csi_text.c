/* The text helpers of the CSI readers (csi_reader.c, csi_state.c, the coverage reader
 * csi_cov/cov_reader.c): blank and header lines, quoting for messages, located errors. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "formats/csi/csi_internal.h"

size_t tk_csi_trim_right(const char *s, size_t len)
{
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r')) len--;
    return len;
}

int tk_csi_is_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\0') return 0;
    return 1;
}

size_t tk_csi_header_start(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] == '\0') i++;
    return i < len && s[i] == '#' ? i : len;
}

tk_status tk_csi_vfail(tk_error *err, tk_input *in, tk_status code, uint64_t line, uint64_t col,
                       const char *fmt, va_list ap)
{
    tk_error_vset(err, code, fmt, ap);
    tk_error_locate(err, tk_input_path(in), -1, line, col);
    return code;
}

tk_status tk_csi_fail(tk_error *err, tk_input *in, tk_status code, uint64_t line, uint64_t col,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_csi_vfail(err, in, code, line, col, fmt, ap);
    va_end(ap);
    return code;
}

/* Quote at most 40 bytes of s for an error message, escaping the unprintable. */
void tk_csi_quote(const char *s, size_t len, char *buf, size_t size)
{
    size_t o = 0;
    if (size < 8) {
        if (size) buf[0] = 0;
        return;
    }
    buf[o++] = '\'';
    for (size_t i = 0; i < len && o + 6 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i >= 40) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\'') {
            buf[o++] = (char)c;
        } else {
            int k = snprintf(buf + o, size - o, "\\x%02x", c);
            if (k < 0 || (size_t)k >= size - o) break;
            o += (size_t)k;
        }
    }
    buf[o++] = '\'';
    buf[o] = 0;
}
