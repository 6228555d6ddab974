/* The callgrind handlers of the generic commands. */
#include "callgrind.h"

const cli_format_ops cli_callgrind_ops = {
    .format = "callgrind",
    .opts = {[CLI_INFO] = cli_callgrind_info_opts,
             [CLI_CHECK] = cli_callgrind_check_opts,
             [CLI_REPORT] = cli_callgrind_report_opts,
             [CLI_ANNOTATE] = cli_callgrind_annotate_opts,
             [CLI_CONVERT] = cli_callgrind_convert_opts,
             [CLI_DUMP] = cli_callgrind_dump_opts,
             [CLI_DIFF] = cli_callgrind_diff_opts,
             [CLI_MERGE] = cli_callgrind_merge_opts},
    .run = {[CLI_INFO] = cli_callgrind_info,
            [CLI_CHECK] = cli_callgrind_check,
            [CLI_REPORT] = cli_callgrind_report,
            [CLI_ANNOTATE] = cli_callgrind_annotate,
            [CLI_CONVERT] = cli_callgrind_convert,
            [CLI_DUMP] = cli_callgrind_dump,
            [CLI_DIFF] = cli_callgrind_diff,
            [CLI_MERGE] = cli_callgrind_merge},
};
