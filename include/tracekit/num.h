/* tracekit: numbers as tracekit reads them. Every reader of the library
 * and the command line's options parse their numbers with this one scanner
 * (decimal, C-style "0x" hex, 64-bit overflow detection), so that one input
 * reads the same everywhere.
 *
 * One convention for all of them: TK_ERR_FORMAT when no digit is where a
 * number must be (the position is left where it was), TK_ERR_LIMIT when the
 * digits are there but the value does not fit in 64 bits (the position is
 * moved past all the digits, so that a caller can show the whole token). A
 * format whose grammar has more (callgrind's "+N" relative subpositions, CSI's
 * "-1" path markers, a "(" before a name id) handles that syntax itself and
 * hands the digits to the scanner. */
#ifndef TRACEKIT_NUM_H
#define TRACEKIT_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a number may look like (flags of tk_scan_num). */
enum {
    TK_NUM_DEC = 1u, /* decimal digits */
    TK_NUM_HEX = 2u, /* "0x" or "0X" followed by hex digits (C-style) */
    TK_NUM_BARE_HEX = 4u, /* hex digits without a prefix; with TK_NUM_HEX the prefix is
                           * optional (WET values) */
    TK_NUM_SIGN = 8u /* tk_scan_snum: an optional leading '-' or '+' */
};

/* Parse the longest prefix of [*p, end) that is a number of the given
 * syntax and advance *p past it. Leading zeros are allowed; nothing else
 * (no blank, no sign) is skipped. With TK_NUM_HEX a "0x" that no hex digit
 * follows is not a prefix: "0xg" scans as the decimal 0 (with TK_NUM_DEC).
 * TK_OK; TK_ERR_FORMAT when no digit is there (*p unchanged); TK_ERR_LIMIT
 * when the value does not fit in 64 bits (*p past the digits, *out unset).
 * err (may be NULL) gets the message ("not a number", "the number ... is
 * over 64 bits"), without a location. */
TK_API tk_status tk_scan_num(const char **p, const char *end, unsigned syntax, uint64_t *out,
                             tk_error *err);

/* The same for a signed number (TK_NUM_SIGN: an optional '-' or '+'), in the
 * range of int64_t: TK_ERR_LIMIT beyond it. */
TK_API tk_status tk_scan_snum(const char **p, const char *end, unsigned syntax, int64_t *out,
                              tk_error *err);

/* All of s[0..len) as a number of the given syntax: TK_ERR_FORMAT when
 * anything follows the number, else as tk_scan_num. */
TK_API tk_status tk_parse_num(const char *s, size_t len, unsigned syntax, uint64_t *out,
                              tk_error *err);
TK_API tk_status tk_parse_snum(const char *s, size_t len, unsigned syntax, int64_t *out,
                               tk_error *err);

/* The usual syntaxes: decimal or 0x hex, unsigned or with a sign. As tk_parse_num:
 * TK_OK, TK_ERR_FORMAT (not a number, or anything after it), TK_ERR_LIMIT (over 64 bits;
 * for tk_parse_i64 outside the range of int64_t). */
TK_API tk_status tk_parse_u64(const char *s, size_t len, uint64_t *out, tk_error *err);
TK_API tk_status tk_parse_i64(const char *s, size_t len, int64_t *out, tk_error *err);

/* Parse a plain decimal double ("1.5", "-2e3"); all of s[0..len). No blanks,
 * no "inf" or "nan". TK_ERR_LIMIT when out of the range of a double. */
TK_API tk_status tk_parse_double(const char *s, size_t len, double *out, tk_error *err);

#ifdef __cplusplus
}
#endif

#endif
