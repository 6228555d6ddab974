/* tracekit check for DCFG-Trace files, against a DCFG with --dcfg. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

const cli_opt cli_dcfg_trace_check_opts[] = {
    {"dcfg", 0, "DCFG", "cross-check edges, instruction and edge counts against this DCFG"},
    {"jobs", 'j', "N", "decoding threads (default: the number of CPUs)"},
    {NULL, 0, NULL, NULL},
};

int cli_dcfg_trace_check(cli_ctx *ctx, const cli_args *a)
{
    unsigned jobs;
    int rc = cli_dcfg_trace_jobs("check", a, &jobs);
    if (rc != CLI_EXIT_OK) return rc;
    tk_cfg *cfg = NULL;
    if ((rc = cli_dcfg_trace_load_dcfg(a, ctx->progress, &cfg)) != CLI_EXIT_OK) return rc;
    int worst = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs; i++) { /* each trace in turn, as DCFG's and XRay's check */
        tk_diag diag;
        cli_diag_init(&diag);
        tk_dcfg_trace *t = NULL;
        if (cli_dcfg_trace_open_at(ctx, i, &t, &diag) == CLI_EXIT_OK) {
            tk_error err;
            tk_error_clear(&err);
            tk_status st = tk_dcfg_trace_check(t, cfg, jobs, &diag, &err);
            if (st != TK_OK && st != TK_ERR_CHECK) tk_diag_error(&diag, &err);
        }
        rc = cli_diag_summary(&diag, ctx->paths[i]);
        if (rc > worst) worst = rc;
        tk_dcfg_trace_free(t);
    }
    tk_cfg_free(cfg);
    return worst;
}
