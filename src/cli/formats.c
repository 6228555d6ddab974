/* tracekit formats: every format and what tracekit can do with it. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const cli_opt cli_formats_opts[] = {{"help", 'h', NULL, "show this help"}, {NULL, 0, NULL, NULL}};

int cli_formats(int argc, char **argv)
{
    const cli_opt *tables[] = {cli_formats_opts, NULL};
    cli_args a;
    if (cli_parse("formats", argc, argv, 1, tables, 0, &a) != 0) return CLI_EXIT_USAGE;
    int help = cli_has(&a, "help"), extra = a.npos;
    cli_args_free(&a);
    if (help) {
        cli_command_help(cli_command_find("formats"), stdout);
        return CLI_EXIT_OK;
    }
    if (extra) return cli_usage_error("formats", "takes no arguments");
    for (size_t i = 0; i < tk_format_count(); i++) {
        const tk_format *f = tk_format_at(i);
        char caps[256];
        tk_format_caps_string(f->caps, caps, sizeof caps);
        printf("%-11s %s\n", f->name, f->title);
        printf("%-11s   can: %s\n", "", caps);
        if (f->targets && f->targets[0]) printf("%-11s   convert --to: %s\n", "", f->targets);
        printf("%-11s   files: %s\n", "", f->extensions);
    }
    printf("\nCompressed inputs (gzip, bzip2, xz, zstd) are decompressed on the fly.\n");
    return CLI_EXIT_OK;
}
