/* The DCFG commands (src/cli/dcfg/): their handlers of the generic commands
 * (ops.c, one file each) and what those files share (dcfg.c). */
#ifndef TK_CLI_DCFG_H
#define TK_CLI_DCFG_H

#include "cli.h"

/* Read input i of a generic command into a graph; errors go to diag when given
 * (check), else are printed. A regular file is read again by its path (mapped,
 * its pages released behind the reader) and ctx->inputs[i] closed. Returns an
 * exit code. */
int cli_dcfg_read(cli_ctx *ctx, int i, tk_diag *diag, tk_cfg **out);
/* The DCFG tracekit merge makes of the inputs (-j jobs threads), written and read back as
 * diff reads merge's file. Returns an exit code. */
int cli_dcfg_merged(cli_ctx *ctx, unsigned jobs, tk_cfg **out);

/* The handlers and their options (info.c, check.c, report.c, convert.c, dump.c, diff.c,
 * merge.c). */
extern const cli_opt cli_dcfg_check_opts[], cli_dcfg_report_opts[], cli_dcfg_convert_opts[],
    cli_dcfg_diff_opts[], cli_dcfg_merge_opts[], cli_dcfg_dump_opts[];
int cli_dcfg_info(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_check(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_report(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_convert(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_dump(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_diff(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_merge(cli_ctx *ctx, const cli_args *args);

/* The table of them (ops.c). */
extern const cli_format_ops cli_dcfg_ops;

/* The fixed values of their options (report.c, convert.c, diff.c). */
extern const cli_opt_choices cli_dcfg_report_choices[], cli_dcfg_convert_choices[],
    cli_dcfg_diff_choices[];

#endif
