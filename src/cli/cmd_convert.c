/* tracekit convert: write the data in another format */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int cmd_convert(int argc, char **argv) { return cli_dispatch(CLI_CONVERT, argc, argv); }

void cmd_convert_help(FILE *f)
{
    fputs("Converts FILE with --to FMT, to -o OUT (default: standard output). An existing\nOUT is only replaced with --force; binary output is never written to a terminal.\nThe output is written to a temporary file and renamed when complete.\n", f);
}
