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
    .choices =
        {[CLI_REPORT] = cli_folded_report_choices, [CLI_CONVERT] = cli_folded_convert_choices},
    .about = "Folded stacks, the input of flame graphs: a stack a line, its frames from the\n"
             "outermost separated by ';', then a count (two in a differential file). The\n"
             "stackcollapse scripts of FlameGraph write them from perf, DTrace or gdb, and\n"
             "'tracekit convert --to folded' of every format with stacks.\n\n"
             "report lists each frame's self and total counts; convert draws the flame graph\n"
             "(svg; differential when the lines have two counts) or writes the stacks again.\n",
    .examples =
        (const cli_example[]){
            {"report --top 20 out.folded", "the 20 frames with the highest total counts"},
            {"convert --to svg -o flame.svg out.folded", "a flame graph"},
            {"check out.folded", "every line that is not a stack with a count, located"},
            {"diff --format folded callgrind.out.1234 callgrind.out.1235 > diff.folded && "
             "tracekit convert --to svg -o diff.svg diff.folded",
             "a differential flame graph of two profiles"},
            {NULL, NULL}},
};
