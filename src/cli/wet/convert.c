/* tracekit convert for WET traces: wet, wet-history or JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

const cli_opt cli_wet_convert_opts[] = {
    {"to", 0, "FMT", "wet, wet-history or json"},
    {"output", 'o', "OUT", "output file (default: standard output)"},
    {"force", 0, NULL, "overwrite OUT"},
    {NULL, 0, NULL, NULL},
};

int cli_wet_convert(cli_ctx *ctx, const cli_args *a)
{
    const char *to = cli_get(a, "to");
    if (!to)
        return cli_usage_error(ctx->command, "missing --to FMT (wet, wet-history or json)");
    tk_status (*writer)(const tk_deps *, const tk_writer *, tk_error *) = NULL;
    if (strcmp(to, "wet") == 0)
        writer = tk_wet_write;
    else if (strcmp(to, "wet-history") == 0)
        writer = tk_wet_write_history;
    else if (strcmp(to, "json") == 0)
        writer = tk_wet_write_json;
    else
        return cli_usage_error(ctx->command,
                               "cannot convert wet to '%s' (targets: wet wet-history json)", to);
    tk_deps *d;
    int rc = cli_wet_load_input(ctx, 0, &d);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_output *o;
    rc = cli_output_open(a, 0, &o);
    if (rc != CLI_EXIT_OK) {
        tk_deps_free(d);
        return rc;
    }
    tk_error err;
    tk_error_clear(&err);
    tk_status st = writer(d, CLI_WRITER(cli_output_file(o)), &err);
    tk_deps_free(d);
    if (st != TK_OK) {
        cli_output_abort(o);
        return cli_error(&err);
    }
    return cli_output_commit(o);
}
