/* Command handlers for dcfg files. */
#include "cli.h"

const cli_format_ops cli_fmt_dcfg = {
    .format = "dcfg",
};
