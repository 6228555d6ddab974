/* The folded stacks' handlers of the generic commands, and what they share. */
#include "folded.h"

int cli_folded_text(cli_ctx *ctx, int i, const char **text, size_t *len)
{
    const uint8_t *data;
    tk_error err;
    tk_error_clear(&err);
    if (tk_input_map(ctx->inputs[i], &data, len, &err) != TK_OK) return cli_error(&err);
    *text = (const char *)data;
    return CLI_EXIT_OK;
}

const cli_format_ops cli_folded_ops = {
    .format = "folded",
    .opts = {[CLI_REPORT] = cli_folded_report_opts, [CLI_CONVERT] = cli_folded_convert_opts},
    .run = {[CLI_INFO] = cli_folded_info,
            [CLI_CHECK] = cli_folded_check,
            [CLI_REPORT] = cli_folded_report,
            [CLI_CONVERT] = cli_folded_convert},
};
