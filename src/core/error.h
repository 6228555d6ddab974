/* Errors inside the library (tracekit/status.h has tk_error_set and the rest). */
#ifndef TK_CORE_ERROR_H
#define TK_CORE_ERROR_H

#include "tracekit/status.h"

/* Fill err for a status that an internal helper returned without a message:
 * "out of memory" for TK_ERR_NOMEM, else "what: <status name>"; TK_OK and
 * TK_END leave err alone. Returns st. */
tk_status tk_error_from(tk_error *err, tk_status st, const char *what);

#endif
