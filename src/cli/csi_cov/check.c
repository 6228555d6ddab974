/* tracekit check for CSI coverage metadata. */
#include <inttypes.h>

#include "csi_cov.h"

/* Every function of one input through the checker (verbose: how many, before the verdict).
 * Returns an exit code. */
static int check_input(cli_csi_cov_source *src, tk_csi_cov_checker *ch, int verbose)
{
    tk_diag diag;
    cli_diag_init(&diag);
    uint64_t nf = 0;
    for (;;) {
        const tk_csi_cov_function *fn;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_csi_cov_reader_next(src->reader, &fn, &err);
        if (st == TK_END) break;
        if (st == TK_ERR_FORMAT || st == TK_ERR_LIMIT) {
            tk_diag_error(&diag, &err);
            continue;
        }
        if (st == TK_OK) {
            nf++;
            st = tk_csi_cov_check_function(ch, fn, src->text.name, &diag, NULL);
            if (st == TK_ERR_NOMEM) tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
        }
        if (st != TK_OK && st != TK_ERR_CHECK) {
            tk_diag_error(&diag, &err);
            break;
        }
    }
    if (diag.errors == 0 && verbose)
        printf("%s: %" PRIu64 " function%s (%s)\n", src->text.name, nf, cli_s(nf),
               tk_csi_cov_kind_title(src->kind));
    return cli_diag_summary(&diag, src->text.name);
}

int cli_csi_cov_check(cli_ctx *ctx, const cli_args *args)
{
    int rc = CLI_EXIT_OK;
    tk_csi_cov_kind kind = cli_csi_cov_kind(ctx);
    for (int i = 0; i < ctx->ninputs; i++) {
        cli_csi_cov_source src;
        tk_input *in;
        int reopened = !ctx->inputs[i]; /* closed by the dispatcher (cli_format_ops.lazy) */
        int orc = cli_input_at(ctx, i, &in);
        if (orc == CLI_EXIT_OK) orc = cli_csi_cov_source_open(&src, in, ctx->paths[i], kind);
        if (orc != CLI_EXIT_OK) {
            rc = orc;
            cli_input_close_reopened(ctx, i, reopened);
            continue;
        }
        tk_csi_cov_checker *ch = NULL;
        if (tk_csi_cov_checker_open(&ch, kind, NULL) != TK_OK) {
            cli_csi_cov_source_close(&src);
            return cli_usage_error("check", "out of memory");
        }
        if (check_input(&src, ch, cli_has(args, "verbose")) != CLI_EXIT_OK) rc = CLI_EXIT_BAD_INPUT;
        tk_csi_cov_checker_free(ch);
        cli_csi_cov_source_close(&src);
        cli_input_close_reopened(ctx, i, reopened);
    }
    return rc;
}
