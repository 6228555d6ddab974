/* The WET commands (src/cli/wet/): their handlers of the generic commands
 * (ops.c, one file each), slice, chain and values, and what those files share
 * (wet.c). */
#ifndef TK_CLI_WET_H
#define TK_CLI_WET_H

#include <stdio.h>

#include "cli.h"

/* Load a WET trace from an opened input; prints the error and returns an
 * exit code, or CLI_EXIT_OK with *out set. */
int cli_wet_load(tk_input *in, tk_deps **out);
/* Load input i of a generic command (reopened as a stream, see wet.c). */
int cli_wet_load_input(cli_ctx *ctx, int i, tk_deps **out);
/* The one input of a command that reads one trace (a usage error when there are more). */
int cli_wet_load_only(cli_ctx *ctx, tk_deps **out);
/* Open path and load it. */
int cli_wet_load_path(const char *path, int progress, tk_deps **out);

/* "--deps all|data|control": the choice, or -1 after a usage error. */
extern const cli_choice cli_wet_deps[];
int cli_wet_deps_option(const char *cmd, const cli_args *a, tk_slice_deps *out);

/* Print a node: "ID INSTANCE" (comprehensive) or "0xADDR INSTANCE" (history). */
void cli_wet_print_node(FILE *f, const tk_deps *d, uint32_t instr, uint32_t inst, const char *sep);
/* "comprehensive" or "limited history". */
const char *cli_wet_form_name(const tk_deps *d);

/* The handlers and their options (info.c, check.c, report.c, annotate.c, convert.c, dump.c). */
extern const cli_opt cli_wet_report_opts[], cli_wet_annotate_opts[], cli_wet_convert_opts[];
int cli_wet_info(cli_ctx *ctx, const cli_args *args);
int cli_wet_check(cli_ctx *ctx, const cli_args *args);
int cli_wet_report(cli_ctx *ctx, const cli_args *args);
int cli_wet_annotate(cli_ctx *ctx, const cli_args *args);
int cli_wet_convert(cli_ctx *ctx, const cli_args *args);
int cli_wet_dump(cli_ctx *ctx, const cli_args *args);

/* The fixed values of their options (report.c, annotate.c, convert.c). */
extern const cli_opt_choices cli_wet_report_choices[], cli_wet_annotate_choices[],
    cli_wet_convert_choices[];

/* The table of them (ops.c). */
extern const cli_format_ops cli_wet_ops;

/* tracekit slice, chain, values (slice.c, chain.c, values.c): their options and the fixed
 * values of those. */
extern const cli_opt cli_wet_slice_opts[], cli_wet_chain_opts[], cli_wet_values_opts[];
extern const cli_opt_choices cli_wet_slice_choices[], cli_wet_chain_choices[];
int cli_wet_slice(int argc, char **argv);
void cli_wet_slice_help(FILE *f);
int cli_wet_chain(int argc, char **argv);
void cli_wet_chain_help(FILE *f);
int cli_wet_values(int argc, char **argv);
void cli_wet_values_help(FILE *f);

#endif
