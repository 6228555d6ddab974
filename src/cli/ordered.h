/* Items made on threads and handed over in their order: each FILE of a command whose output is
 * one stream (CSI and CSI coverage convert) read and its text made on one of N threads, written
 * by the calling thread in the FILEs' order (cli_ordered_text; a FILE that failed on its
 * thread read again in its turn: cli_ordered_one). */
#ifndef TK_CLI_ORDERED_H
#define TK_CLI_ORDERED_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* make(arg, i) on a thread (it prints nothing); done(arg, i) on the calling thread, in the
 * order of i, once item i is made; drop(arg, i) frees an item made but not handed to done. */
typedef void (*cli_ordered_make_fn)(void *arg, int i);
typedef int (*cli_ordered_done_fn)(void *arg, int i);

/* Items 0..n-1 made on `jobs` threads, at most jobs + 1 made and not yet done at once (the
 * memory of the items being made); done's first non-zero return stops: no item is made after
 * it, those being made are waited for and dropped. With jobs < 2, or when no thread starts,
 * each is made then done here in turn. Returns done's first non-zero return, or 0. */
int cli_run_ordered(int n, unsigned jobs, cli_ordered_make_fn make, cli_ordered_done_fn done,
                    cli_ordered_make_fn drop, void *arg);

/* An item that is a FILE's text, made into memory on a thread: open its stream, write, close
 * it with the status that ended the FILE's reading (TK_END: read to its end; anything else:
 * failed, the text freed: the FILE is read again in its turn, as -j 1 reads it). */
typedef struct cli_ordered_text {
    char *text; /* malloc'd (open_memstream), NULL when failed or dropped */
    size_t len;
    int failed;
} cli_ordered_text;

/* The stream t's text is written to, or NULL (out of memory). */
FILE *cli_ordered_text_open(cli_ordered_text *t);
/* The end of the make step: mem (may be NULL: no text made) closed, t->failed set unless st is
 * TK_END (or when closing fails), the text freed when failed. */
void cli_ordered_text_close(cli_ordered_text *t, FILE *mem, tk_status st);
/* Frees t's text (an item made but not handed over, or written). */
void cli_ordered_text_drop(cli_ordered_text *t);
/* t's text written to out, then dropped; a write that fails says so as the library's writer
 * says it (CLI_WRITER: "write failed: ..."). Returns an exit code. */
int cli_ordered_text_write(cli_ordered_text *t, FILE *out);

/* Whether ctx's FILEs are read on `jobs` threads, each opened again there by its path: jobs
 * over 1, several FILEs, each closed by the dispatcher (a regular file: cli_format_ops.lazy).
 * opt then gets ctx's input options without the progress meter (stderr is the calling
 * thread's). */
int cli_ordered_files(const cli_ctx *ctx, unsigned jobs, tk_input_options *opt);

/* FILE i of ctx alone, as a context of its own: what reads it again in its turn. */
cli_ctx cli_ordered_one(const cli_ctx *ctx, int i);

#endif
