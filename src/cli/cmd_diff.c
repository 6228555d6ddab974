/* tracekit diff: compare two files of the same format */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int cmd_diff(int argc, char **argv) { return cli_dispatch(CLI_DIFF, argc, argv); }

void cmd_diff_help(FILE *f)
{
    fputs("Prints per-item differences between FILE1 and FILE2.\n", f);
}
