/* tracekit info: what a file is */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int cmd_info(int argc, char **argv) { return cli_dispatch(CLI_INFO, argc, argv); }

void cmd_info_help(FILE *f)
{
    fputs("Prints the format, compression and size of each FILE, then what the format's\nreader finds: version, processes, threads, functions, blocks, events, time span.\n", f);
}
