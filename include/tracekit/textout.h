/* tracekit: strings written into JSON and CSV text (reports, exports, the command line). */
#ifndef TRACEKIT_TEXTOUT_H
#define TRACEKIT_TEXTOUT_H

#include <stddef.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most bytes tk_json_quote writes for n input bytes (quotes and a NUL). */
#define TK_JSON_QUOTED_MAX(n) ((n)*6 + 3)

/* s[0..n) as a JSON string literal into dst (at least TK_JSON_QUOTED_MAX(n)
 * bytes): quotes, with '"', '\\' and control characters escaped (\u00XX,
 * embedded NUL bytes too); other bytes (UTF-8) as they are. NUL-terminated;
 * returns its length without the NUL. */
TK_API size_t tk_json_quote(char *dst, const char *s, size_t n);

/* The most bytes tk_csv_quote writes for n input bytes (quotes and a NUL). */
#define TK_CSV_QUOTED_MAX(n) ((n)*2 + 3)

/* s[0..n) as one CSV field (RFC 4180) into dst (at least TK_CSV_QUOTED_MAX(n)
 * bytes): as it is, or in double quotes with inner quotes doubled when it
 * holds a comma, a quote, CR or LF. NUL-terminated; returns its length
 * without the NUL. */
TK_API size_t tk_csv_quote(char *dst, const char *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
