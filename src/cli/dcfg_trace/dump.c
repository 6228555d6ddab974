/* tracekit dump for DCFG-Trace files: the structure and the decoded edges (tk_dcfg_trace_dump). */
#include "dcfg_trace.h"

const cli_opt cli_dcfg_trace_dump_opts[] = {
    {"no-edges", 0, NULL, "only the structure, not the decoded edges"},
    {NULL, 0, NULL, NULL},
};

int cli_dcfg_trace_dump(cli_ctx *ctx, const cli_args *a)
{
    tk_dcfg_trace *t;
    int rc = cli_dcfg_trace_open_input(ctx, &t, NULL);
    if (rc != CLI_EXIT_OK) return rc;
    tk_error err;
    tk_error_clear(&err);
    unsigned flags = cli_has(a, "no-edges") ? TK_DCFG_TRACE_DUMP_STRUCTURE : 0;
    if (tk_dcfg_trace_dump(t, flags, CLI_WRITER(stdout), &err) != TK_OK) rc = cli_error(&err);
    tk_dcfg_trace_free(t);
    return rc;
}
