/* tracekit: status codes, errors with locations, diagnostics sinks. */
#ifndef TRACEKIT_STATUS_H
#define TRACEKIT_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One status enum for the whole library. TK_OK and TK_END are not errors. */
typedef enum tk_status {
    TK_OK = 0,
    TK_END = 1, /* iteration finished */
    TK_ERR_IO = -1, /* the operating system failed a read/write/open */
    TK_ERR_NOMEM = -2, /* an allocation failed */
    TK_ERR_FORMAT = -3, /* the input breaks the format (bad input) */
    TK_ERR_LIMIT = -4, /* a documented limit was exceeded (size, depth, count, overflow) */
    TK_ERR_UNSUPPORTED = -5, /* valid input, but a feature tracekit does not handle */
    TK_ERR_ARG = -6, /* invalid argument from the caller (usage) */
    TK_ERR_CHECK = -7, /* a check found problems (reported through a tk_diag) */
    TK_ERR_EXISTS = -8 /* output exists and overwriting was not allowed */
} tk_status;

/* Short name of a status ("ok", "format error", ...). Never NULL. */
TK_API const char *tk_status_name(tk_status s);

#define TK_ERROR_MSG_MAX 512
#define TK_ERROR_PATH_MAX 512

/* An error with an optional location. Fill with tk_error_set*; zero-initialise
 * (or tk_error_clear) before use. offset < 0 means "no byte offset"; line 0
 * means "no line/column". A cause (e.g. the OS message) may be appended. */
typedef struct tk_error {
    tk_status code;
    char message[TK_ERROR_MSG_MAX];
    char path[TK_ERROR_PATH_MAX];
    int64_t offset;
    uint64_t line;
    uint64_t column;
} tk_error;

TK_API void tk_error_clear(tk_error *err);

/* Set code and message; keeps no location. Returns code, the error status given (TK_ERR_IO,
 * TK_ERR_FORMAT, ...: `return tk_error_set(err, TK_ERR_FORMAT, ...)` fails with it). err may
 * be NULL. */
TK_API tk_status tk_error_set(tk_error *err, tk_status code, const char *fmt, ...) TK_PRINTF(3, 4);

/* Set code, message and location. path may be NULL; offset -1 and line 0 mean unknown.
 * Returns code, as tk_error_set (the error status given: TK_ERR_IO, TK_ERR_FORMAT, ...). */
TK_API tk_status tk_error_set_at(tk_error *err, tk_status code, const char *path, int64_t offset,
                                 uint64_t line, uint64_t column, const char *fmt, ...)
    TK_PRINTF(7, 8);

/* Add or replace the location of an error that was set without one. */
TK_API void tk_error_locate(tk_error *err, const char *path, int64_t offset, uint64_t line,
                            uint64_t column);

/* Prefix the message: "what: <old message>". */
TK_API void tk_error_prefix(tk_error *err, const char *fmt, ...) TK_PRINTF(2, 3);

/* Render as "path:line:col: error: message", "path: byte N: error: message",
 * "path: error: message" or "error: message". Returns buf. */
TK_API char *tk_error_format(const tk_error *err, char *buf, size_t size);

/* ---- diagnostics: many located problems, for `check` ------------------- */

typedef enum tk_severity { TK_SEV_NOTE = 0, TK_SEV_WARNING = 1, TK_SEV_ERROR = 2 } tk_severity;

typedef struct tk_location {
    const char *path; /* may be NULL */
    int64_t offset; /* byte offset, or -1 */
    uint64_t line; /* 1-based, or 0 */
    uint64_t column; /* 1-based, or 0 */
} tk_location;

typedef void (*tk_diag_fn)(void *ctx, tk_severity sev, const tk_location *loc, const char *message);

/* A diagnostics sink: counts, and forwards each message to fn (if not NULL).
 * max_errors > 0 stops forwarding (but not counting) after that many errors. */
typedef struct tk_diag {
    tk_diag_fn fn;
    void *ctx;
    uint64_t errors;
    uint64_t warnings;
    uint64_t notes;
    uint64_t max_errors;
    uint64_t suppressed;
} tk_diag;

TK_API void tk_diag_init(tk_diag *d, tk_diag_fn fn, void *ctx);
TK_API void tk_diag_report(tk_diag *d, tk_severity sev, const tk_location *loc, const char *fmt,
                           ...) TK_PRINTF(4, 5);
/* Report an error that was returned as a tk_error. */
TK_API void tk_diag_error(tk_diag *d, const tk_error *err);

/* Render a diagnostic the way tk_error_format does ("...: warning: ..."). */
TK_API char *tk_diag_format(tk_severity sev, const tk_location *loc, const char *message, char *buf,
                            size_t size);

#ifdef __cplusplus
}
#endif
#endif
