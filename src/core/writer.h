/* A stdio stream over a tk_writer, for the library's writing code: the
 * public functions that take a tk_writer write through such a stream, so
 * that their formatting stays fprintf's:
 *
 *     tk_wstream s;
 *     if (tk_wstream_open(&s, out, err) != TK_OK) return err->code;
 *     ... fprintf(s.f, ...) ...
 *     return tk_wstream_close(&s, st, err);
 */
#ifndef TK_CORE_WRITER_H
#define TK_CORE_WRITER_H

#include <stdio.h>

#include "tracekit/status.h"
#include "tracekit/writer.h"

typedef struct tk_wstream {
    FILE *f; /* write here */
    tk_writer w; /* where the bytes go */
    char *buf; /* f's buffer, when it is a temporary file (no fopencookie) */
} tk_wstream;

/* A tk_writer's callback that writes to the FILE *f given as its context:
 * {tk_write_to_file, f}, for library code that hands a stream of its own to
 * a public function. */
int tk_write_to_file(void *f, const void *data, size_t len);

/* A buffered stream whose bytes go to w: TK_OK, TK_ERR_ARG (a writer without
 * a callback), TK_ERR_NOMEM, TK_ERR_IO. */
tk_status tk_wstream_open(tk_wstream *s, const tk_writer *w, tk_error *err);

/* Flush and close the stream. st is the writing function's status so far:
 * returned unchanged when it is an error; else TK_ERR_IO (err set) when a
 * write failed, else st. */
tk_status tk_wstream_close(tk_wstream *s, tk_status st, tk_error *err);

#endif
