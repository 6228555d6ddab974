/* Command handlers for wet files. */
#include "cli.h"

const cli_format_ops cli_fmt_wet = {
    .format = "wet",
};
