/* tracekit help [COMMAND]. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

void cli_main_usage(FILE *f);

int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        cli_main_usage(stdout);
        return CLI_EXIT_OK;
    }
    const cli_command *c = cli_command_find(argv[1]);
    if (!c) return cli_usage_error("help", "unknown command '%s'", argv[1]);
    char *help_argv[] = {argv[1], (char *)"--help", NULL};
    return c->run(2, help_argv);
}
