/* Items made on threads and handed over in their order: each FILE of a command whose output is
 * one stream (CSI and CSI coverage convert) read and its text made on one of N threads, written
 * by the calling thread in the FILEs' order. */
#ifndef TK_CLI_ORDERED_H
#define TK_CLI_ORDERED_H

#include <stddef.h>
#include <stdio.h>

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

/* An item's text written to out; a write that fails says so as the library's writer says it
 * (CLI_WRITER: "write failed: ..."). Returns an exit code. */
int cli_ordered_write(const char *text, size_t len, FILE *out);

#endif
