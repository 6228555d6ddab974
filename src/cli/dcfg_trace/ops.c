/* The DCFG-Trace handlers of the generic commands. */
#include "dcfg_trace.h"

const cli_format_ops cli_dcfg_trace_ops = {
    .format = "dcfg-trace",
    .opts = {[CLI_CHECK] = cli_dcfg_trace_check_opts,
             [CLI_REPORT] = cli_dcfg_trace_report_opts,
             [CLI_CONVERT] = cli_dcfg_trace_convert_opts,
             [CLI_DUMP] = cli_dcfg_trace_dump_opts,
             [CLI_DIFF] = cli_dcfg_trace_diff_opts},
    .run = {[CLI_INFO] = cli_dcfg_trace_info,
            [CLI_CHECK] = cli_dcfg_trace_check,
            [CLI_REPORT] = cli_dcfg_trace_report,
            [CLI_CONVERT] = cli_dcfg_trace_convert,
            [CLI_DUMP] = cli_dcfg_trace_dump,
            [CLI_DIFF] = cli_dcfg_trace_diff},
};
