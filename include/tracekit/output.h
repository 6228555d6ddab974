/* tracekit: output files written safely (temp file + rename). */
#ifndef TRACEKIT_OUTPUT_H
#define TRACEKIT_OUTPUT_H

#include "api.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TK_OUTPUT_FORCE = 1u << 0, /* overwrite an existing file */
    TK_OUTPUT_BINARY = 1u << 1 /* binary data: refuse to write it to a terminal */
};

typedef struct tk_output tk_output;

/* Open path for writing ("-" or NULL: standard output). A file is written to a
 * temporary file in the same directory and renamed over path by
 * tk_output_commit, so a failure never leaves a half-written file (a symbolic
 * link to a file: the file it names is replaced, the link stays). A device,
 * FIFO or socket (/dev/null, a named pipe) is written directly, without
 * TK_OUTPUT_FORCE. Errors: TK_ERR_EXISTS (path exists, no TK_OUTPUT_FORCE), TK_ERR_ARG (binary
 * to a terminal), TK_ERR_IO. The caller owns *out: end it with commit or abort. */
TK_API tk_status tk_output_open(tk_output **out, const char *path, unsigned flags, tk_error *err);

/* Where to write: a writer (tracekit/writer.h) into the output's buffer
 * (1 MiB; standard output's stream for "-"), valid until commit or abort. */
TK_API const tk_writer *tk_output_writer(tk_output *o);
/* The file descriptor the output writes to (1 for standard output), for a
 * program that writes through a stream of its own instead (fdopen of a dup):
 * what it writes there must be flushed before tk_output_commit, and not mixed
 * with tk_output_writer. */
TK_API int tk_output_fd(const tk_output *o);
TK_API const char *tk_output_path(const tk_output *o);

/* Flush, close and rename into place; frees o. On error the temp file is removed.
 * TK_OK or TK_ERR_IO (a write, the close or the rename failed). */
TK_API tk_status tk_output_commit(tk_output *o, tk_error *err);

/* Discard: remove the temporary file; frees o. Accepts NULL. */
TK_API void tk_output_abort(tk_output *o);

#ifdef __cplusplus
}
#endif
#endif
