/* The XRay handlers of the generic commands. */
#include "xray.h"

const cli_format_ops cli_xray_ops = {
    .format = "xray",
    .opts = {[CLI_INFO] = cli_xray_info_opts,
             [CLI_CHECK] = cli_xray_check_opts,
             [CLI_REPORT] = cli_xray_report_opts,
             [CLI_CONVERT] = cli_xray_convert_opts,
             [CLI_DUMP] = cli_xray_dump_opts,
             [CLI_DIFF] = cli_xray_diff_opts},
    .run = {[CLI_INFO] = cli_xray_info,
            [CLI_CHECK] = cli_xray_check,
            [CLI_REPORT] = cli_xray_report,
            [CLI_CONVERT] = cli_xray_convert,
            [CLI_DUMP] = cli_xray_dump,
            [CLI_DIFF] = cli_xray_diff},
};
