#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

const char *tk_status_name(tk_status s)
{
    switch (s) {
    case TK_OK: return "ok";
    case TK_END: return "end";
    case TK_ERR_IO: return "I/O error";
    case TK_ERR_NOMEM: return "out of memory";
    case TK_ERR_FORMAT: return "format error";
    case TK_ERR_LIMIT: return "limit exceeded";
    case TK_ERR_UNSUPPORTED: return "unsupported";
    case TK_ERR_ARG: return "invalid argument";
    case TK_ERR_CHECK: return "check failed";
    case TK_ERR_EXISTS: return "already exists";
    }
    return "unknown status";
}

void tk_error_clear(tk_error *err)
{
    if (!err) return;
    err->code = TK_OK;
    err->message[0] = '\0';
    err->path[0] = '\0';
    err->offset = -1;
    err->line = 0;
    err->column = 0;
}

tk_status tk_error_vset(tk_error *err, tk_status code, const char *fmt, va_list ap)
{
    if (!err) return code;
    tk_error_clear(err);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

tk_status tk_error_from(tk_error *err, tk_status st, const char *what)
{
    if (st >= 0) return st;
    if (st == TK_ERR_NOMEM) return tk_error_set(err, st, "out of memory");
    return tk_error_set(err, st, "%s: %s", what, tk_status_name(st));
}

tk_status tk_error_set(tk_error *err, tk_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_error_vset(err, code, fmt, ap);
    va_end(ap);
    return code;
}

void tk_error_locate(tk_error *err, const char *path, int64_t offset, uint64_t line,
                     uint64_t column)
{
    if (!err) return;
    if (path) snprintf(err->path, sizeof err->path, "%s", path);
    err->offset = offset;
    err->line = line;
    err->column = column;
}

tk_status tk_error_set_at(tk_error *err, tk_status code, const char *path, int64_t offset,
                          uint64_t line, uint64_t column, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_error_vset(err, code, fmt, ap);
    va_end(ap);
    tk_error_locate(err, path, offset, line, column);
    return code;
}

void tk_error_prefix(tk_error *err, const char *fmt, ...)
{
    if (!err) return;
    char head[TK_ERROR_MSG_MAX], old[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    memcpy(old, err->message, sizeof old);
    size_t n = strlen(head);
    if (n > sizeof err->message - 3) n = sizeof err->message - 3;
    memcpy(err->message, head, n);
    memcpy(err->message + n, ": ", 2);
    size_t rest = sizeof err->message - n - 3;
    size_t k = strnlen(old, rest);
    memcpy(err->message + n + 2, old, k);
    err->message[n + 2 + k] = '\0';
}

static void format_location(const tk_location *loc, char *buf, size_t size)
{
    buf[0] = '\0';
    const char *path = loc->path && loc->path[0] ? loc->path : NULL;
    if (loc->line) {
        if (loc->column)
            snprintf(buf, size, "%s:%" PRIu64 ":%" PRIu64 ": ", path ? path : "<input>", loc->line,
                     loc->column);
        else
            snprintf(buf, size, "%s:%" PRIu64 ": ", path ? path : "<input>", loc->line);
    } else if (loc->offset >= 0) {
        snprintf(buf, size, "%s: byte %" PRId64 ": ", path ? path : "<input>", loc->offset);
    } else if (path) {
        snprintf(buf, size, "%s: ", path);
    }
}

char *tk_diag_format(tk_severity sev, const tk_location *loc, const char *message, char *buf,
                     size_t size)
{
    char where[TK_ERROR_PATH_MAX + 64];
    static const char *const names[] = {"note", "warning", "error"};
    format_location(loc, where, sizeof where);
    snprintf(buf, size, "%s%s: %s", where, names[sev], message);
    return buf;
}

char *tk_error_format(const tk_error *err, char *buf, size_t size)
{
    tk_location loc = {err->path, err->offset, err->line, err->column};
    return tk_diag_format(TK_SEV_ERROR, &loc, err->message, buf, size);
}

void tk_diag_init(tk_diag *d, tk_diag_fn fn, void *ctx)
{
    memset(d, 0, sizeof *d);
    d->fn = fn;
    d->ctx = ctx;
}

void tk_diag_vreport(tk_diag *d, tk_severity sev, const tk_location *loc, const char *fmt,
                     va_list ap)
{
    if (sev == TK_SEV_ERROR)
        d->errors++;
    else if (sev == TK_SEV_WARNING)
        d->warnings++;
    else
        d->notes++;
    if (!d->fn) return;
    if (d->max_errors && sev == TK_SEV_ERROR && d->errors > d->max_errors) {
        d->suppressed++;
        return;
    }
    char msg[TK_ERROR_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    tk_location none = {NULL, -1, 0, 0};
    d->fn(d->ctx, sev, loc ? loc : &none, msg);
}

void tk_diag_report(tk_diag *d, tk_severity sev, const tk_location *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_diag_vreport(d, sev, loc, fmt, ap);
    va_end(ap);
}

void tk_diag_error(tk_diag *d, const tk_error *err)
{
    tk_location loc = {err->path, err->offset, err->line, err->column};
    tk_diag_report(d, TK_SEV_ERROR, &loc, "%s", err->message);
}
