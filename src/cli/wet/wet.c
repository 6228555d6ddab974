/* What the WET command handlers share: loading a trace, --deps, nodes and their sources. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

int cli_wet_load_input(cli_ctx *ctx, int i, tk_deps **out)
{
    if (strcmp(ctx->paths[i], "-") == 0) return cli_wet_load(ctx->inputs[i], out);
    return cli_wet_load_path(ctx->paths[i], ctx->progress, out);
}

int cli_wet_load_only(cli_ctx *ctx, tk_deps **out)
{
    if (ctx->ninputs != 1) /* a second trace is not read silently */
        return cli_usage_error(ctx->command, "takes one WET trace (got %d)", ctx->ninputs);
    return cli_wet_load_input(ctx, 0, out);
}

int cli_wet_load(tk_input *in, tk_deps **out)
{
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_wet_read(out, in, NULL, &err);
    if (st != TK_OK) return cli_error(&err);
    return CLI_EXIT_OK;
}

/* Traces are read once, front to back: stream them (read(2) into a buffer)
 * instead of mapping them, so the file's pages do not stay resident next to
 * the model. */
int cli_wet_load_path(const char *path, int progress, tk_deps **out)
{
    tk_input *in;
    tk_input_options opt;
    cli_input_options(&opt, progress);
    opt.no_mmap = 1;
    tk_error err;
    tk_error_clear(&err);
    if (tk_input_open(&in, path, &opt, &err) != TK_OK) return cli_error(&err);
    int rc;
    rc = cli_wet_load(in, out);
    tk_input_free(in);
    if (rc == CLI_EXIT_BAD_INPUT) cli_note_other_format(path, "wet");
    return rc;
}

const cli_choice cli_wet_deps[] = {
    {"all", TK_SLICE_ALL}, {"data", TK_SLICE_DATA}, {"control", TK_SLICE_CONTROL}, {NULL, 0}};

int cli_wet_deps_option(const char *cmd, const cli_args *a, tk_slice_deps *out)
{
    int c = cli_get_choice(cmd, a, "deps", cli_wet_deps, TK_SLICE_ALL);
    if (c < 0) return -1;
    *out = (tk_slice_deps)c;
    return 0;
}

void cli_wet_print_node(FILE *f, const tk_deps *d, uint32_t instr, uint32_t inst, const char *sep)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    if (tk_deps_get_form(d) == TK_DEPS_HISTORY)
        fprintf(f, "0x%" PRIx64 "%s%" PRIu32, in.addr, sep, inst);
    else
        fprintf(f, "%" PRIu64 "%s%" PRIu32, in.id, sep, inst);
}

const char *cli_wet_form_name(const tk_deps *d)
{
    return tk_deps_get_form(d) == TK_DEPS_HISTORY ? "limited history" : "comprehensive";
}
