/* tracekit report: the answer the format exists for */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int cmd_report(int argc, char **argv) { return cli_dispatch(CLI_REPORT, argc, argv); }

void cmd_report_help(FILE *f)
{
    fputs("Hot functions, lines, blocks, loops or paths; latency tables. Options such as\n--sort, --top and --format=text|json|csv depend on the format (see below).\n", f);
}
