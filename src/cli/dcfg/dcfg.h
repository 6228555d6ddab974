/* The DCFG commands: the handlers of the generic commands. */
#ifndef TK_CLI_DCFG_H
#define TK_CLI_DCFG_H

#include "cli.h"

extern const cli_format_ops cli_fmt_dcfg;

#endif
