/* The handlers of the generic commands for csi-cc, csi-fc and csi-bbc files:
 * one set of handlers, the kind from the format. */
#include "csi_cov.h"

#define COV_OPTS                                          \
    .opts = {[CLI_REPORT] = cli_csi_cov_report_opts,      \
             [CLI_ANNOTATE] = cli_csi_cov_annotate_opts,  \
             [CLI_CONVERT] = cli_csi_cov_convert_opts,    \
             [CLI_DUMP] = cli_csi_cov_dump_opts}

const cli_format_ops cli_csi_cc_ops = {
    .format = "csi-cc",
    COV_OPTS,
    .run = {[CLI_INFO] = cli_csi_cov_info,
            [CLI_CHECK] = cli_csi_cov_check,
            [CLI_REPORT] = cli_csi_cov_report,
            [CLI_ANNOTATE] = cli_csi_cov_annotate,
            [CLI_CONVERT] = cli_csi_cov_convert,
            [CLI_DUMP] = cli_csi_cov_dump},
};

const cli_format_ops cli_csi_fc_ops = {
    .format = "csi-fc",
    COV_OPTS,
    .run = {[CLI_INFO] = cli_csi_cov_info,
            [CLI_CHECK] = cli_csi_cov_check,
            [CLI_REPORT] = cli_csi_cov_report,
            [CLI_CONVERT] = cli_csi_cov_convert,
            [CLI_DUMP] = cli_csi_cov_dump},
};

const cli_format_ops cli_csi_bbc_ops = {
    .format = "csi-bbc",
    COV_OPTS,
    .run = {[CLI_INFO] = cli_csi_cov_info,
            [CLI_CHECK] = cli_csi_cov_check,
            [CLI_REPORT] = cli_csi_cov_report,
            [CLI_ANNOTATE] = cli_csi_cov_annotate,
            [CLI_CONVERT] = cli_csi_cov_convert,
            [CLI_DUMP] = cli_csi_cov_dump},
};
