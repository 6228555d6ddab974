/* Strings written into JSON and CSV text by the library's own writers
 * (tracekit/textout.h has the quoting into memory). */
#ifndef TK_CORE_TEXTOUT_H
#define TK_CORE_TEXTOUT_H

#include <stdio.h>

#include "tracekit/textout.h"

/* s as a JSON string literal, escaped as tk_json_quote does; NULL is "". */
void tk_put_json_string(FILE *f, const char *s);

/* s as one CSV field, quoted as tk_csv_quote does; NULL is an empty field. */
void tk_put_csv_field(FILE *f, const char *s);

#endif
