/* tracekit merge: add up files of the same format */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int cmd_merge(int argc, char **argv) { return cli_dispatch(CLI_MERGE, argc, argv); }

void cmd_merge_help(FILE *f)
{
    fputs("Adds FILEs of the same program into one (merge is associative).\n", f);
}
