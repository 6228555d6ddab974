/* Command handlers for callgrind files. */
#include "cli.h"

const cli_format_ops cli_fmt_callgrind = {
    .format = "callgrind",
};
