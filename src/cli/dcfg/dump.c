/* tracekit dump for DCFG files: the canonical text of the graph. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"

const cli_opt cli_dcfg_dump_opts[] = {
    CLI_EACH_JOBS_OPT("DCFGs"),
    {NULL, 0, NULL, NULL},
};

int cli_dcfg_dump(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_cfg *cfg;
        int rc = cli_dcfg_read(ctx, i, NULL, &cfg);
        if (rc != CLI_EXIT_OK) return rc;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_dcfg_dump(cfg, CLI_WRITER(stdout), &err);
        tk_cfg_free(cfg);
        if (st != TK_OK) return cli_error(&err);
    }
    return CLI_EXIT_OK;
}
