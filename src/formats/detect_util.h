/* Helpers for content detection over the first bytes of a file. */
#ifndef TK_FORMATS_DETECT_UTIL_H
#define TK_FORMATS_DETECT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Next line of [*p, end): sets *line and *len (without '\n' and '\r'), advances *p.
 * Returns 0 at the end, and for a last line cut off by the detection window
 * when `complete_only` is set. */
static inline int tk_detect_line(const uint8_t **p, const uint8_t *end, const char **line,
                                 size_t *len, int complete_only)
{
    if (*p >= end) return 0;
    const uint8_t *nl = memchr(*p, '\n', (size_t)(end - *p));
    if (!nl && complete_only) return 0;
    const uint8_t *stop = nl ? nl : end;
    *line = (const char *)*p;
    *len = (size_t)(stop - *p);
    if (*len && (*line)[*len - 1] == '\r') (*len)--;
    *p = nl ? nl + 1 : end;
    return 1;
}

static inline int tk_detect_starts(const char *line, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(line, prefix, n) == 0;
}

/* True when the bytes look like text (no NUL, few control characters). */
static inline int tk_detect_is_text(const uint8_t *d, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] == 0) return 0;
        if (d[i] < 0x20 && d[i] != '\n' && d[i] != '\r' && d[i] != '\t') bad++;
    }
    return bad * 100 <= n;
}

/* Search for needle in the first n bytes. */
static inline int tk_detect_contains(const uint8_t *d, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    if (k == 0 || n < k) return 0;
    for (const uint8_t *p = d; (p = memchr(p, needle[0], n - (size_t)(p - d) - k + 1)) != NULL;
         p++) {
        if (memcmp(p, needle, k) == 0) return 1;
        if ((size_t)(p - d) + k >= n) break;
    }
    return 0;
}

#endif
