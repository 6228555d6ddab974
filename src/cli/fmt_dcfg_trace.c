/* Command handlers for dcfg-trace files. */
#include "cli.h"

const cli_format_ops cli_fmt_dcfg_trace = {
    .format = "dcfg-trace",
};
