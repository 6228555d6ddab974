/* The DCFG handlers of the generic commands. */
#include "dcfg.h"

const cli_format_ops cli_dcfg_ops = {
    .format = "dcfg",
    .opts = {[CLI_CHECK] = cli_dcfg_check_opts,
             [CLI_REPORT] = cli_dcfg_report_opts,
             [CLI_CONVERT] = cli_dcfg_convert_opts,
             [CLI_DIFF] = cli_dcfg_diff_opts},
    .run = {[CLI_INFO] = cli_dcfg_info,
            [CLI_CHECK] = cli_dcfg_check,
            [CLI_REPORT] = cli_dcfg_report,
            [CLI_CONVERT] = cli_dcfg_convert,
            [CLI_DUMP] = cli_dcfg_dump,
            [CLI_DIFF] = cli_dcfg_diff},
};
