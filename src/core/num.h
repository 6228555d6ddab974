/* Numbers inside the library: the scanner of tracekit/num.h (which every
 * reader parses its numbers with) and checked arithmetic. Fast paths
 * (core/fastpath.h) may parse digits their own way, bounded so that they
 * cannot overflow, and leave anything else to the general code, which uses
 * the scanner. */
#ifndef TK_CORE_NUM_H
#define TK_CORE_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/num.h"

/* The scanner of tracekit/num.h without messages (the readers locate their
 * errors themselves): the same results. */
tk_status tk_num_scan(const char **p, const char *end, unsigned syntax, uint64_t *out);
tk_status tk_num_scan_signed(const char **p, const char *end, unsigned syntax, int64_t *out);
tk_status tk_num_parse(const char *s, size_t len, unsigned syntax, uint64_t *out);
tk_status tk_num_parse_signed(const char *s, size_t len, unsigned syntax, int64_t *out);

/* A decimal real, all of s[0..len): the decimal form of strtod ("1.5",
 * "-2e3", ".5", "1."), no blank, no "inf", "nan" or hex; at most
 * TK_NUM_REAL_MAX bytes. TK_ERR_FORMAT when it is not one (or longer);
 * TK_ERR_LIMIT when its value is out of the range of a double, unless flags
 * has TK_NUM_REAL_ROUND: then it is strtod's, the nearest (HUGE_VAL, 0 or a
 * subnormal), as JSON readers take a real. tk_num_parse_double: the same,
 * without flags and at most 63 bytes (tk_parse_double's, tracekit/num.h). */
#define TK_NUM_REAL_MAX 400
#define TK_NUM_REAL_ROUND 1u
tk_status tk_num_parse_real(const char *s, size_t len, unsigned flags, double *out);
tk_status tk_num_parse_double(const char *s, size_t len, double *out);

/* The usual syntaxes: decimal or 0x hex, unsigned or with a sign; decimal only. */
static inline tk_status tk_num_scan_u64(const char **p, const char *end, uint64_t *out)
{
    return tk_num_scan(p, end, TK_NUM_DEC | TK_NUM_HEX, out);
}
static inline tk_status tk_num_scan_i64(const char **p, const char *end, int64_t *out)
{
    return tk_num_scan_signed(p, end, TK_NUM_DEC | TK_NUM_HEX | TK_NUM_SIGN, out);
}
static inline tk_status tk_num_parse_u64(const char *s, size_t len, uint64_t *out)
{
    return tk_num_parse(s, len, TK_NUM_DEC | TK_NUM_HEX, out);
}
static inline tk_status tk_num_parse_i64(const char *s, size_t len, int64_t *out)
{
    return tk_num_parse_signed(s, len, TK_NUM_DEC | TK_NUM_HEX | TK_NUM_SIGN, out);
}
static inline tk_status tk_num_scan_dec(const char **p, const char *end, uint64_t *out)
{
    return tk_num_scan(p, end, TK_NUM_DEC, out);
}

/* Checked arithmetic: 0 on success, -1 on overflow (*out unspecified). */
static inline int tk_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_add_overflow(a, b, out) ? -1 : 0;
}
static inline int tk_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}
static inline int tk_add_i64(int64_t a, int64_t b, int64_t *out)
{
    return __builtin_add_overflow(a, b, out) ? -1 : 0;
}

#endif
