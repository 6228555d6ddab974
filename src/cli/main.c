/* tracekit <command> [options] FILE...: the program's main, which tracekit (tracekit.c) and
 * tracekit-mpi (src/mpi/main.c) run. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char cli_main_summary[] =
    "Read, check, analyse, convert and write execution traces and profiles.";
const char cli_main_notes[] =
    "'tracekit help COMMAND' or 'tracekit COMMAND --help' for a command's options;\n"
    "'tracekit formats' for the formats, 'tracekit help FORMAT' for what tracekit\n"
    "does with one. Inputs may be gzip, bzip2, xz or zstd compressed; '-' reads\n"
    "standard input. Exit status: 0 success, 1 bad input or failed check, 2 usage\n"
    "error.\n";

void cli_main_usage(FILE *f)
{
    fprintf(f, "usage: tracekit <command> [options] FILE...\n\n%s\n\nCommands:\n",
            cli_main_summary);
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command *c = cli_command_at(i);
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
    }
    fprintf(f, "\n%s", cli_main_notes);
}

int cli_main(int argc, char **argv)
{
    if (argc < 2) {
        cli_main_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        cli_main_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("tracekit %s\n", tk_version());
        return CLI_EXIT_OK;
    }
    const cli_command *c = cli_command_find(name);
    if (!c) {
        cli_usage_error(NULL, "unknown command '%s' (see 'tracekit --help')", name);
        return CLI_EXIT_USAGE;
    }
    int rc = cli_command_run(c, argc - 1, argv + 1);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "tracekit: write failure on standard output\n");
        if (rc == CLI_EXIT_OK) rc = CLI_EXIT_BAD_INPUT;
    }
    return rc;
}
