/* tracekit check: validate files against their format's rules */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int cmd_check(int argc, char **argv) { return cli_dispatch(CLI_CHECK, argc, argv); }

void cmd_check_help(FILE *f)
{
    fputs("Checks every rule of the format. Each problem is printed on stderr as\n'path:line:col: error: ...' (text formats) or 'path: byte N: error: ...'\n(binary formats). Exit status 1 when there is any error.\n", f);
}
