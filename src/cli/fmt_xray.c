/* Command handlers for xray files. */
#include "cli.h"

const cli_format_ops cli_fmt_xray = {
    .format = "xray",
};
