/* Command handlers for csi files. */
#include "cli.h"

const cli_format_ops cli_fmt_csi = {
    .format = "csi",
};
