/* The XRay commands: the handlers of the generic commands and instr-map. */
#ifndef TK_CLI_XRAY_H
#define TK_CLI_XRAY_H

#include <stdio.h>

#include "cli.h"

extern const cli_format_ops cli_fmt_xray;

int cmd_instr_map(int argc, char **argv);
void cmd_instr_map_help(FILE *f);

#endif
