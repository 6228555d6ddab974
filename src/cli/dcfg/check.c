/* tracekit check for DCFG files. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"

const cli_opt cli_dcfg_check_opts[] = {
    {"max-errors", 0, "N", "stop printing after N errors (0 = all)"},
    {NULL, 0, NULL, NULL},
};

int cli_dcfg_check(cli_ctx *ctx, const cli_args *a)
{
    uint64_t max_errors;
    if (cli_get_u64(ctx->command, a, "max-errors", 0, &max_errors)) return CLI_EXIT_USAGE;
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_diag d;
        cli_diag_init(&d);
        d.max_errors = max_errors;
        tk_cfg *cfg = NULL;
        if (cli_dcfg_read(ctx, i, &d, &cfg) == CLI_EXIT_OK) {
            tk_status st = tk_dcfg_check(cfg, ctx->paths[i], &d, NULL);
            if (st == TK_ERR_NOMEM) {
                tk_error err;
                tk_error_set(&err, st, "out of memory");
                tk_diag_error(&d, &err);
            }
            tk_cfg_free(cfg);
        }
        if (cli_diag_summary(&d, ctx->paths[i])) rc = CLI_EXIT_BAD_INPUT;
    }
    return rc;
}
