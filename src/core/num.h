/* Number parsing with overflow detection. */
#ifndef TK_CORE_NUM_H
#define TK_CORE_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/status.h"

/* Parse all of s[0..len) as an unsigned integer: decimal digits, or "0x"/"0X"
 * followed by hex digits. TK_ERR_FORMAT when not a number (empty, sign, junk),
 * TK_ERR_LIMIT when it does not fit in 64 bits. */
tk_status tk_parse_u64(const char *s, size_t len, uint64_t *out);
/* Same with an optional leading '-' or '+'; range of int64_t. */
tk_status tk_parse_i64(const char *s, size_t len, int64_t *out);

/* Parse the longest prefix of [*p, end) that is a number in the syntax above
 * and advance *p past it. TK_ERR_FORMAT when no digit is there (p unchanged). */
tk_status tk_scan_u64(const char **p, const char *end, uint64_t *out);
tk_status tk_scan_i64(const char **p, const char *end, int64_t *out);

/* Parse a plain decimal double ("1.5", "-2e3"); all of s[0..len). */
tk_status tk_parse_double(const char *s, size_t len, double *out);

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
