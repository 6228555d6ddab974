/* tracekit record (src/cli/record/): run a program under Valgrind with tkrecord
 * and write its DCFG (and DCFG-Trace). The work is the library's
 * (tracekit/record.h); the command parses options and names the outputs. */
#ifndef TK_CLI_RECORD_H
#define TK_CLI_RECORD_H

#include <stdio.h>

#include "cli.h"

/* tracekit record (record.c). */
extern const cli_opt cli_record_opts[];
int cli_record(int argc, char **argv);
void cli_record_help(FILE *f);

#endif
