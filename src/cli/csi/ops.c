/* The CSI handlers of the generic commands. */
#include "csi.h"

const cli_format_ops cli_csi_ops = {
    .format = "csi",
    .opts = {[CLI_REPORT] = cli_csi_report_opts,
             [CLI_ANNOTATE] = cli_csi_annotate_opts,
             [CLI_CONVERT] = cli_csi_convert_opts,
             [CLI_DUMP] = cli_csi_dump_opts},
    .run = {[CLI_INFO] = cli_csi_info,
            [CLI_CHECK] = cli_csi_check,
            [CLI_REPORT] = cli_csi_report,
            [CLI_ANNOTATE] = cli_csi_annotate,
            [CLI_CONVERT] = cli_csi_convert,
            [CLI_DUMP] = cli_csi_dump},
};
