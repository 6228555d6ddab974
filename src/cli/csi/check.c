/* tracekit check for CSI metadata. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"

int cli_csi_check(cli_ctx *ctx, const cli_args *args)
{
    int rc = CLI_EXIT_OK;
    tk_csi_numbering *num = NULL;
    if (tk_csi_numbering_open(&num, NULL) != TK_OK)
        return cli_usage_error("check", "out of memory");
    for (int i = 0; i < ctx->ninputs; i++) {
        cli_csi_source src;
        tk_input *in;
        int reopened = !ctx->inputs[i]; /* closed by the dispatcher (cli_format_ops.lazy) */
        int orc = cli_input_at(ctx, i, &in);
        if (orc == CLI_EXIT_OK) orc = cli_csi_source_open(&src, in, ctx->paths[i]);
        if (orc != CLI_EXIT_OK) {
            rc = orc;
            cli_input_close_reopened(ctx, i, reopened);
            continue;
        }
        tk_diag diag;
        cli_diag_init(&diag);
        const tk_csi_function *fn;
        char label[CLI_CSI_LABEL_MAX];
        uint64_t nf = 0;
        for (;;) {
            tk_error err;
            tk_error_clear(&err);
            tk_status st = cli_csi_source_next(&src, &fn, label, sizeof label, &err);
            if (st == TK_END) break;
            if (st == TK_ERR_FORMAT || st == TK_ERR_LIMIT) {
                tk_diag_error(&diag, &err);
                continue;
            }
            if (st != TK_OK) {
                tk_diag_error(&diag, &err);
                break;
            }
            nf++;
            if (tk_csi_check_function(fn, num, src.text.name, &diag, NULL) == TK_ERR_NOMEM) {
                tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
                tk_diag_error(&diag, &err);
                break;
            }
        }
        if (diag.errors == 0 && cli_has(args, "verbose")) /* the verdict is the summary's */
            printf("%s: %" PRIu64 " function%s\n", src.text.name, nf, cli_s(nf));
        if (cli_diag_summary(&diag, src.text.name) != CLI_EXIT_OK) rc = CLI_EXIT_BAD_INPUT;
        cli_csi_source_close(&src);
        cli_input_close_reopened(ctx, i, reopened);
    }
    tk_csi_numbering_free(num);
    return rc;
}
