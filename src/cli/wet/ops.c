/* The WET handlers of the generic commands. */
#include "wet.h"

const cli_format_ops cli_wet_ops = {
    .format = "wet",
    .opts = {[CLI_REPORT] = cli_wet_report_opts,
             [CLI_ANNOTATE] = cli_wet_annotate_opts,
             [CLI_CONVERT] = cli_wet_convert_opts},
    .run = {[CLI_INFO] = cli_wet_info,
            [CLI_CHECK] = cli_wet_check,
            [CLI_REPORT] = cli_wet_report,
            [CLI_ANNOTATE] = cli_wet_annotate,
            [CLI_CONVERT] = cli_wet_convert,
            [CLI_DUMP] = cli_wet_dump},
};
