/* Strings written into JSON and CSV text output (reports, exports). */
#ifndef TK_CORE_TEXTOUT_H
#define TK_CORE_TEXTOUT_H

#include <stdio.h>

/* s as a JSON string literal: quotes, with '"', '\\' and control characters
 * escaped; other bytes (UTF-8) as they are. NULL is written as "". */
void tk_put_json_string(FILE *f, const char *s);

/* s as one CSV field (RFC 4180): as it is, or in double quotes with inner
 * quotes doubled when it holds a comma, a quote, CR or LF. NULL is an empty
 * field. */
void tk_put_csv_field(FILE *f, const char *s);

#endif
