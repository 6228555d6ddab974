/* Errors inside the library (tracekit/status.h has tk_error_set and the rest). */
#ifndef TK_CORE_ERROR_H
#define TK_CORE_ERROR_H

#include <stdarg.h>

#include "tracekit/status.h"

/* tk_error_set and tk_diag_report with a va_list (the library's wrappers). */
tk_status tk_error_vset(tk_error *err, tk_status code, const char *fmt, va_list ap) TK_PRINTF(3, 0);
void tk_diag_vreport(tk_diag *d, tk_severity sev, const tk_location *loc, const char *fmt,
                     va_list ap) TK_PRINTF(4, 0);

/* Fill err for a status that an internal helper returned without a message:
 * "out of memory" for TK_ERR_NOMEM, else "what: <status name>"; TK_OK and
 * TK_END leave err alone. Returns st. */
tk_status tk_error_from(tk_error *err, tk_status st, const char *what);

#endif
