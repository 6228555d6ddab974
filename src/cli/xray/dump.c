/* tracekit dump for XRay traces: every record. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray.h"

const cli_opt cli_xray_dump_opts[] = {
    CLI_XRAY_MAP_OPT, CLI_EACH_JOBS_OPT("traces"), {NULL, 0, NULL, NULL}};

int cli_xray_dump(cli_ctx *ctx, const cli_args *args)
{
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++) {
        cli_xray_session s;
        rc = cli_xray_session_open(ctx, args, i, 1, 1, &s);
        if (rc != CLI_EXIT_OK) return rc;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_xray_dump(s.reader, s.map, CLI_WRITER(stdout), &err);
        fflush(stdout);
        if (st != TK_OK)
            rc = cli_error(&err);
        else
            cli_xray_warn_truncation(&s, ctx->paths[i]);
        cli_xray_session_close(&s);
    }
    return rc;
}
