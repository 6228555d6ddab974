#include "core/num.h"

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

tk_status tk_num_scan(const char **pp, const char *end, unsigned syntax, uint64_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;
    int over = 0;
    int hex = 0;
    if ((syntax & TK_NUM_HEX) && end - p >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
        hexval((unsigned char)p[2]) >= 0) {
        p += 2;
        hex = 1;
    } else if (syntax & TK_NUM_BARE_HEX) {
        hex = 1;
    }
    const char *digits = p;
    if (hex) {
        int d;
        for (; p < end && (d = hexval((unsigned char)*p)) >= 0; p++) {
            over |= (v >> 60) != 0;
            v = v << 4 | (uint64_t)d;
        }
    } else if (syntax & TK_NUM_DEC) {
        unsigned d;
        for (; p < end && (d = (unsigned)((unsigned char)*p - '0')) < 10; p++) {
            over |= __builtin_mul_overflow(v, 10, &v);
            over |= __builtin_add_overflow(v, d, &v);
        }
    }
    if (p == digits) return TK_ERR_FORMAT; /* (a prefix is taken only before a digit) */
    *pp = p;
    if (over) return TK_ERR_LIMIT;
    *out = v;
    return TK_OK;
}

tk_status tk_num_scan_signed(const char **pp, const char *end, unsigned syntax, int64_t *out)
{
    const char *p = *pp;
    int neg = 0;
    if ((syntax & TK_NUM_SIGN) && p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    uint64_t u;
    tk_status st = tk_num_scan(&p, end, syntax, &u);
    if (st == TK_ERR_FORMAT) return st;
    *pp = p;
    if (st != TK_OK) return st;
    if (u > (uint64_t)INT64_MAX + neg) return TK_ERR_LIMIT;
    /* -(2^63) is INT64_MIN: negated in unsigned arithmetic */
    *out = neg ? (int64_t)(0 - u) : (int64_t)u;
    return TK_OK;
}

tk_status tk_num_parse(const char *s, size_t len, unsigned syntax, uint64_t *out)
{
    const char *p = s, *end = s + len;
    uint64_t v;
    tk_status st = tk_num_scan(&p, end, syntax, &v);
    if (st == TK_OK && p != end) return TK_ERR_FORMAT;
    if (st == TK_OK) *out = v;
    return st;
}

tk_status tk_num_parse_signed(const char *s, size_t len, unsigned syntax, int64_t *out)
{
    const char *p = s, *end = s + len;
    int64_t v;
    tk_status st = tk_num_scan_signed(&p, end, syntax, &v);
    if (st == TK_OK && p != end) return TK_ERR_FORMAT;
    if (st == TK_OK) *out = v;
    return st;
}

tk_status tk_num_parse_real(const char *s, size_t len, unsigned flags, double *out)
{
    char buf[TK_NUM_REAL_MAX + 1];
    if (len == 0 || len > TK_NUM_REAL_MAX) return TK_ERR_FORMAT;
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
    if (errno == ERANGE && !(flags & TK_NUM_REAL_ROUND)) return TK_ERR_LIMIT;
    *out = v;
    return TK_OK;
}

tk_status tk_num_parse_double(const char *s, size_t len, double *out)
{
    if (len >= 64) return TK_ERR_FORMAT;
    return tk_num_parse_real(s, len, 0, out);
}

/* ---- the public forms: the same, with a message ---------------------------- */

/* err for a status of the scanner over s[0..len) (the token as far as it goes). */
static tk_status num_error(tk_error *err, tk_status st, const char *s, size_t len,
                           const char *range)
{
    if (st == TK_OK) return st;
    int n = len > 64 ? 64 : (int)len;
    if (st == TK_ERR_LIMIT)
        return tk_error_set(err, st, "the number '%.*s%s' is over %s", n, s, len > 64 ? "..." : "",
                            range);
    return tk_error_set(err, st, "not a number: '%.*s%s'", n, s, len > 64 ? "..." : "");
}

static size_t token_len(const char *s, const char *end)
{
    const char *p = s;
    while (p < end && *p != ' ' && *p != '\t' && *p != '\n' && *p != ',') p++;
    return (size_t)(p - s);
}

tk_status tk_scan_num(const char **p, const char *end, unsigned syntax, uint64_t *out,
                      tk_error *err)
{
    const char *s = *p;
    tk_status st = tk_num_scan(p, end, syntax, out);
    return num_error(err, st, s, st == TK_ERR_LIMIT ? (size_t)(*p - s) : token_len(s, end),
                     "64 bits");
}

tk_status tk_scan_snum(const char **p, const char *end, unsigned syntax, int64_t *out,
                       tk_error *err)
{
    const char *s = *p;
    tk_status st = tk_num_scan_signed(p, end, syntax, out);
    return num_error(err, st, s, st == TK_ERR_LIMIT ? (size_t)(*p - s) : token_len(s, end),
                     "the range of a signed 64-bit integer");
}

tk_status tk_parse_num(const char *s, size_t len, unsigned syntax, uint64_t *out, tk_error *err)
{
    return num_error(err, tk_num_parse(s, len, syntax, out), s, len, "64 bits");
}

tk_status tk_parse_snum(const char *s, size_t len, unsigned syntax, int64_t *out, tk_error *err)
{
    return num_error(err, tk_num_parse_signed(s, len, syntax, out), s, len,
                     "the range of a signed 64-bit integer");
}

tk_status tk_parse_u64(const char *s, size_t len, uint64_t *out, tk_error *err)
{
    return tk_parse_num(s, len, TK_NUM_DEC | TK_NUM_HEX, out, err);
}

tk_status tk_parse_i64(const char *s, size_t len, int64_t *out, tk_error *err)
{
    return tk_parse_snum(s, len, TK_NUM_DEC | TK_NUM_HEX | TK_NUM_SIGN, out, err);
}

tk_status tk_parse_double(const char *s, size_t len, double *out, tk_error *err)
{
    return num_error(err, tk_num_parse_double(s, len, out), s, len, "the range of a double");
}
