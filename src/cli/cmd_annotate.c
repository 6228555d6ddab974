/* tracekit annotate: source lines with their costs */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int cmd_annotate(int argc, char **argv) { return cli_dispatch(CLI_ANNOTATE, argc, argv); }

void cmd_annotate_help(FILE *f)
{
    fputs("Prints source lines (or instructions) with the costs the file gives them.\n", f);
}
