/* tracekit check for XRay traces. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray.h"

const cli_opt cli_xray_check_opts[] = {CLI_XRAY_MAP_OPT, {NULL, 0, NULL, NULL}};

int cli_xray_check(cli_ctx *ctx, const cli_args *args)
{
    tk_xray_map *map;
    int rc = cli_xray_open_map(args, &map);
    if (rc != CLI_EXIT_OK) return rc;
    int worst = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_diag d;
        cli_diag_init(&d);
        tk_error err;
        tk_error_clear(&err);
        tk_xray_check_summary sum;
        /* what stops the check (a truncated compressed stream) is one of its errors */
        if (tk_xray_check(ctx->inputs[i], map, &d, &sum, &err) != TK_OK) tk_diag_error(&d, &err);
        if (cli_diag_summary(&d, ctx->paths[i]) != CLI_EXIT_OK)
            worst = CLI_EXIT_BAD_INPUT;
        else if (cli_has(args, "verbose")) /* how the file is made: the verdict is above */
            printf("%s: %" PRIu64 " record%s, %" PRIu64 " buffer%s, %" PRIu32 " thread%s, %" PRIu64
                   " call%s open at the end\n",
                   ctx->paths[i], sum.records, cli_s(sum.records), sum.buffers, cli_s(sum.buffers),
                   sum.threads, cli_s(sum.threads), sum.open_calls, cli_s(sum.open_calls));
    }
    tk_xray_map_free(map);
    return worst;
}
