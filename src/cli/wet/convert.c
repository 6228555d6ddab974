/* tracekit convert for WET traces: wet, wet-history or JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

const cli_opt cli_wet_convert_opts[] = {
    {"to", 't', "FMT", "wet, wet-history or json"},
    {"output", 'o', "OUT", "output file (default: standard output)"},
    {"force", 'f', NULL, "overwrite OUT"},
    {NULL, 0, NULL, NULL},
};

/* --to */
enum { TO_WET, TO_WET_HISTORY, TO_JSON };
static const cli_choice convert_targets[] = {
    {"wet", TO_WET}, {"wet-history", TO_WET_HISTORY}, {"json", TO_JSON}, {NULL, 0}};

int cli_wet_convert(cli_ctx *ctx, const cli_args *a)
{
    if (!cli_get(a, "to"))
        return cli_usage_error(ctx->command, "missing --to FMT (wet, wet-history or json)");
    int to = cli_get_choice(ctx->command, a, "to", convert_targets, -1);
    if (to < 0) return CLI_EXIT_USAGE;
    tk_status (*writer)(const tk_deps *, const tk_writer *, tk_error *) =
        to == TO_WET           ? tk_wet_write
        : to == TO_WET_HISTORY ? tk_wet_write_history
                               : tk_wet_write_json;
    tk_deps *d;
    int rc = cli_wet_load_only(ctx, &d);
    if (rc != CLI_EXIT_OK) return rc;
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

const cli_opt_choices cli_wet_convert_choices[] = {{"to", convert_targets}, {NULL, NULL}};
