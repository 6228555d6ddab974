/* tracekit check for callgrind profiles. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

const cli_opt cli_callgrind_check_opts[] = {{NULL, 0, NULL, NULL}};

/* The inputs are read into one profile, as the other commands read them: what
 * they refuse of inputs given together (a new event type after costs, sums of
 * all parts past 64 bits) is reported in the input where it shows. */
int cli_callgrind_check(cli_ctx *ctx, const cli_args *args)
{
    (void)args;
    int rc = CLI_EXIT_OK;
    tk_profile *p;
    if (tk_profile_open(&p, NULL) != TK_OK) return cli_usage_error("check", "out of memory");
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_diag d;
        cli_diag_init(&d);
        tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
        o.path = ctx->paths[i];
        o.diag = &d;
        o.detail = TK_CALLGRIND_DETAIL_NONE;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_callgrind_read_input(p, ctx->inputs[i], &o, &err);
        /* what stops the reading (a truncated compressed stream) is one of its errors: one
         * verdict, the summary's */
        if (st != TK_OK && st != TK_ERR_CHECK && d.errors == 0) tk_diag_error(&d, &err);
        int r = cli_diag_summary(&d, ctx->paths[i]);
        if (r) rc = r;
    }
    tk_profile_free(p);
    return rc;
}
