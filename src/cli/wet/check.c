/* tracekit check for WET traces; a limited-history trace against its comprehensive one. */
#include <stdlib.h>
#include <string.h>

#include "wet.h"

/* Every dependence of the history trace at hpath must be one of the comprehensive trace c
 * (tk_wet_check_history): the misses, and what stops the reading, go to diag. */
static void check_join(const char *hpath, const tk_deps *c, tk_diag *diag)
{
    tk_input *in;
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    tk_error err;
    tk_error_clear(&err);
    if (tk_input_open(&in, hpath, &opt, &err) != TK_OK) {
        tk_diag_error(diag, &err);
        return;
    }
    tk_status st = tk_wet_check_history(in, c, diag, &err);
    if (st != TK_OK && st != TK_ERR_CHECK) tk_diag_error(diag, &err);
    tk_input_free(in);
}

int cli_wet_check(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    int rc = CLI_EXIT_OK;
    tk_deps *models[2] = {NULL, NULL};
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_diag diag;
        cli_diag_init(&diag);
        tk_error err;
        tk_error_clear(&err);
        tk_deps *d = NULL;
        tk_input *in;
        int reopened = !ctx->inputs[i]; /* closed by the dispatcher (cli_format_ops.lazy) */
        int orc = cli_input_at(ctx, i, &in);
        if (orc != CLI_EXIT_OK) {
            rc = orc;
            continue;
        }
        tk_status st = tk_wet_read(&d, in, &diag, &err);
        if (st != TK_OK && st != TK_ERR_CHECK) tk_diag_error(&diag, &err);
        if (cli_diag_summary(&diag, ctx->paths[i]) != 0) rc = CLI_EXIT_BAD_INPUT;
        cli_input_close_reopened(ctx, i, reopened);
        if (i < 2)
            models[i] = d;
        else
            tk_deps_free(d);
    }
    /* A limited-history trace with its comprehensive trace: they must agree. */
    if (ctx->ninputs == 2 && models[0] && models[1] &&
        tk_deps_get_form(models[0]) != tk_deps_get_form(models[1])) {
        int h = tk_deps_get_form(models[0]) == TK_DEPS_HISTORY ? 0 : 1;
        tk_diag diag;
        cli_diag_init(&diag);
        if (strcmp(ctx->paths[h], "-") == 0) {
            tk_location loc = {"<stdin>", -1, 0, 0};
            tk_diag_report(&diag, TK_SEV_WARNING, &loc,
                           "standard input cannot be read twice: not checked against %s",
                           ctx->paths[1 - h]);
        } else {
            check_join(ctx->paths[h], models[1 - h], &diag);
        }
        char what[1024];
        snprintf(what, sizeof what, "%s against %s", ctx->paths[h], ctx->paths[1 - h]);
        if (cli_diag_summary(&diag, what) != 0) rc = CLI_EXIT_BAD_INPUT;
    }
    tk_deps_free(models[0]);
    tk_deps_free(models[1]);
    return rc;
}
