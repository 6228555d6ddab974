/* tracekit: where the library writes text and data. Every function of the
 * API that writes (reports, dumps, exports, writers of formats) takes a
 * tk_writer: a callback that receives the bytes in order, in blocks of any
 * size (usually up to 64 KiB). A program writing to a file passes a callback
 * that writes to it (tk_output_writer does so for a tk_output). Each such function returns
 * TK_ERR_IO when the callback fails (its comment lists its other statuses), and TK_ERR_ARG
 * when it is given no writer or one without a callback. */
#ifndef TRACEKIT_WRITER_H
#define TRACEKIT_WRITER_H

#include <stddef.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Take data[0..len): 0 on success; anything else is a write failure, which
 * the writing function returns as TK_ERR_IO (with strerror(errno) when the
 * callback set errno). */
typedef int (*tk_write_fn)(void *ctx, const void *data, size_t len);

typedef struct tk_writer {
    tk_write_fn write;
    void *ctx;
} tk_writer;

#ifdef __cplusplus
}
#endif
#endif
