#include "num.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

tk_status tk_scan_u64(const char **pp, const char *end, uint64_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;
    int overflow = 0;
    if (end - p >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && hexval((unsigned char)p[2]) >= 0) {
        p += 2;
        int d;
        while (p < end && (d = hexval((unsigned char)*p)) >= 0) {
            if (v >> 60) overflow = 1;
            v = (v << 4) | (uint64_t)d;
            p++;
        }
    } else {
        if (p >= end || *p < '0' || *p > '9') return TK_ERR_FORMAT;
        while (p < end && *p >= '0' && *p <= '9') {
            uint64_t d = (uint64_t)(*p - '0');
            if (v >= UINT64_MAX / 10 && (v > UINT64_MAX / 10 || d > UINT64_MAX % 10)) overflow = 1;
            v = v * 10 + d;
            p++;
        }
    }
    *pp = p;
    if (overflow) return TK_ERR_LIMIT;
    *out = v;
    return TK_OK;
}

tk_status tk_scan_i64(const char **pp, const char *end, int64_t *out)
{
    const char *p = *pp;
    int neg = 0;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    uint64_t u;
    tk_status st = tk_scan_u64(&p, end, &u);
    if (st == TK_ERR_FORMAT) return st;
    *pp = p;
    if (st != TK_OK) return st;
    if (neg) {
        if (u > (uint64_t)INT64_MAX + 1) return TK_ERR_LIMIT;
        *out = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
    } else {
        if (u > (uint64_t)INT64_MAX) return TK_ERR_LIMIT;
        *out = (int64_t)u;
    }
    return TK_OK;
}

tk_status tk_parse_u64(const char *s, size_t len, uint64_t *out)
{
    const char *p = s, *end = s + len;
    tk_status st = tk_scan_u64(&p, end, out);
    if (st == TK_OK && p != end) return TK_ERR_FORMAT;
    return st;
}

tk_status tk_parse_i64(const char *s, size_t len, int64_t *out)
{
    const char *p = s, *end = s + len;
    tk_status st = tk_scan_i64(&p, end, out);
    if (st == TK_OK && p != end) return TK_ERR_FORMAT;
    return st;
}

tk_status tk_parse_double(const char *s, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf) return TK_ERR_FORMAT;
    memcpy(buf, s, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++) {
        char c = buf[i];
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'))
            return TK_ERR_FORMAT;
    }
    char *endp;
    errno = 0;
    double v = strtod(buf, &endp);
    if (endp != buf + len) return TK_ERR_FORMAT;
    if (errno == ERANGE) return TK_ERR_LIMIT;
    *out = v;
    return TK_OK;
}
