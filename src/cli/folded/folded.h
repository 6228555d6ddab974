/* tracekit's command line for folded stacks: the handlers (src/cli/folded/). */
#ifndef TK_CLI_FOLDED_H
#define TK_CLI_FOLDED_H

#include "cli.h"

/* The whole text of input i of ctx (borrowed until the input is freed). Returns an exit
 * code (the error printed). */
int cli_folded_text(cli_ctx *ctx, int i, const char **text, size_t *len);

extern const cli_format_ops cli_folded_ops;

extern const cli_opt cli_folded_report_opts[];
extern const cli_opt cli_folded_convert_opts[];
extern const cli_opt_choices cli_folded_report_choices[], cli_folded_convert_choices[];
int cli_folded_info(cli_ctx *ctx, const cli_args *args);
int cli_folded_check(cli_ctx *ctx, const cli_args *args);
int cli_folded_report(cli_ctx *ctx, const cli_args *args);
int cli_folded_convert(cli_ctx *ctx, const cli_args *args);

#endif
