/* tracekit info and check for folded stacks. */
#include <inttypes.h>

#include "folded.h"

static void put_count(const char *label, double v)
{
    if (v == (double)(uint64_t)v)
        printf("%s: %" PRIu64 "\n", label, (uint64_t)v);
    else
        printf("%s: %.6g\n", label, v);
}

int cli_folded_info(cli_ctx *ctx, const cli_args *args)
{
    (void)args;
    for (int i = 0; i < ctx->ninputs; i++) {
        const char *text;
        size_t len;
        int rc = cli_folded_text(ctx, i, &text, &len);
        if (rc != CLI_EXIT_OK) return rc;
        tk_folded_summary s;
        tk_error err;
        tk_error_clear(&err);
        if (tk_folded_summarize(text, len, ctx->paths[i], &s, &err) != TK_OK)
            return cli_error(&err);
        printf("stacks: %" PRIu64 "\n", s.stacks);
        printf("frame names: %zu\n", s.nfunctions);
        printf("deepest stack: %" PRIu32 " frame%s\n", s.max_depth, cli_s(s.max_depth));
        printf("differential: %s\n", s.differential ? "yes (two counts a line)" : "no");
        if (s.differential) put_count("total before", s.total_before);
        put_count("total", s.total);
        tk_folded_summary_free(&s);
    }
    return CLI_EXIT_OK;
}

int cli_folded_check(cli_ctx *ctx, const cli_args *args)
{
    (void)args;
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs; i++) {
        const char *text;
        size_t len;
        int r = cli_folded_text(ctx, i, &text, &len);
        if (r != CLI_EXIT_OK) return r;
        tk_diag d;
        cli_diag_init(&d);
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_folded_scan(text, len, ctx->paths[i], &d, NULL, NULL, NULL, &err);
        if (st != TK_OK && st != TK_ERR_CHECK) return cli_error(&err);
        if (cli_diag_summary(&d, ctx->paths[i]) != 0) rc = CLI_EXIT_BAD_INPUT;
    }
    return rc;
}
