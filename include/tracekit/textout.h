/* tracekit: strings written into JSON and CSV text (reports, exports, the command line). */
#ifndef TRACEKIT_TEXTOUT_H
#define TRACEKIT_TEXTOUT_H

#include <stddef.h>
#include <stdio.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most bytes tk_json_quote writes for n input bytes (quotes and a NUL). */
#define TK_JSON_QUOTED_MAX(n) ((n) * 6 + 3)

/* s[0..n) as a JSON string literal into dst (at least TK_JSON_QUOTED_MAX(n)
 * bytes), escaped like tk_put_json_string, NUL-terminated; returns its length
 * without the NUL. Embedded NUL bytes are escaped as \u0000. */
TK_API size_t tk_json_quote(char *dst, const char *s, size_t n);

/* s as a JSON string literal: quotes, with '"', '\\' and control characters
 * escaped; other bytes (UTF-8) as they are. NULL is written as "". */
TK_API void tk_put_json_string(FILE *f, const char *s);

/* s as one CSV field (RFC 4180): as it is, or in double quotes with inner
 * quotes doubled when it holds a comma, a quote, CR or LF. NULL is an empty
 * field. */
TK_API void tk_put_csv_field(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif
#endif
