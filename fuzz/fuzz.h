/* What the fuzz harnesses share: the entry point libFuzzer (or replay.c) calls, a writer
 * into a stream and a diagnostics sink that drops what it is told. */
#ifndef TK_FUZZ_H
#define TK_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A writer (tracekit/writer.h) into the stream f: FUZZ_WRITER(sink). */
static inline int fuzz_write_file(void *f, const void *data, size_t len)
{
    return len && fwrite(data, 1, len, (FILE *)f) != len ? -1 : 0;
}
#define FUZZ_WRITER(f) (&(tk_writer){fuzz_write_file, (f)})

/* A tk_diag sink that drops every problem: tk_diag_init(&d, fuzz_quiet, NULL). */
static inline void fuzz_quiet(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)ctx;
    (void)sev;
    (void)loc;
    (void)msg;
}

/* The input as a text input named "fuzz" whose lines may be 64 KiB long (the harnesses'
 * inputs are no longer). Returns 1, or 0 when it cannot be opened. */
static inline int fuzz_open_text(tk_input **in, const uint8_t *data, size_t size)
{
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.max_line = 1 << 16;
    return tk_input_open_memory(in, data, size, "fuzz", &opt, NULL) == TK_OK;
}

/* The texts a fast path and its general twin made of one input (a, b: NULL when it could not
 * be made, which is not compared) must be the same: otherwise abort, showing both from the
 * line where they part. */
static inline void fuzz_same_text(const char *a, size_t na, const char *b, size_t nb)
{
    if (!a || !b || (na == nb && memcmp(a, b, na) == 0)) return;
    size_t at = 0;
    while (at < na && at < nb && a[at] == b[at]) at++;
    while (at > 0 && a[at - 1] != '\n') at--;
    fprintf(stderr, "fast and general paths differ from byte %zu:\nfast: %.300s\ngeneral: %.300s\n",
            at, a + at, b + at);
    abort();
}

#endif
