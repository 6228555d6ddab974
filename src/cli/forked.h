/* Units of work (check's FILEs, a FILE of report or dump) run in processes of their own,
 * several at once, each one's
 * standard output and error kept in a temporary file and printed in the units' order, so
 * that the output is that of running them one after the other (each unit's standard output
 * before its standard error when both go to one place). */
#ifndef TK_CLI_FORKED_H
#define TK_CLI_FORKED_H

#include "cli.h"

/* Runs unit k (in a child, its streams the child's): an exit code. */
typedef int (*cli_unit_fn)(void *arg, int k);

/* Units 0..n-1, `jobs` at once (a unit that cannot get a process runs here in its turn).
 * Stops at the first that returns CLI_EXIT_USAGE (stops: at the first that does not return
 * CLI_EXIT_OK), printing nothing after it, as the run one after the other stops. Returns the
 * worst exit code. Call it with no thread running. */
int cli_run_forked(int n, unsigned jobs, int stops, cli_unit_fn run, void *arg);

/* Whether standard output and standard error are one file (a terminal, 2>&1). */
int cli_same_output(void);

#endif
