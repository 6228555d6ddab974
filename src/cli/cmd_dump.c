/* tracekit dump: canonical, deterministic text of the model */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int cmd_dump(int argc, char **argv) { return cli_dispatch(CLI_DUMP, argc, argv); }

void cmd_dump_help(FILE *f)
{
    fputs("Prints the whole model read from FILE as canonical text: stable across runs,\nused as the golden format of the tests.\n", f);
}
