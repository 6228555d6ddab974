/* tracekit help [COMMAND]. */
#include <stdio.h>

#include "cli.h"

int cli_help(int argc, char **argv)
{
    if (argc < 2) {
        cli_main_usage(stdout);
        return CLI_EXIT_OK;
    }
    const cli_command *c = cli_command_find(argv[1]);
    if (!c) return cli_usage_error("help", "unknown command '%s'", argv[1]);
    char *help_argv[] = {argv[1], (char *)"--help", NULL};
    return cli_command_run(c, 2, help_argv);
}
