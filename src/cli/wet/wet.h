/* Helpers shared by the WET commands (fmt_wet.c, cmd_slice.c, cmd_chain.c, cmd_values.c). */
#ifndef TK_CLI_WET_H
#define TK_CLI_WET_H

#include <stdio.h>

#include "cli.h"

/* Load a WET trace from an opened input; prints the error and returns an
 * exit code, or CLI_EXIT_OK with *out set. */
int wet_cli_load(tk_input *in, tk_deps **out);
/* Load input i of a generic command (reopened as a stream, see fmt_wet.c). */
int wet_cli_load_ctx(cli_ctx *ctx, int i, tk_deps **out);
/* Open path and load it. */
int wet_cli_load_path(const char *path, int progress, tk_deps **out);

/* "--deps all|data|control": the choice, or -1 after a usage error. */
int wet_cli_deps_option(const char *cmd, const cli_args *a, tk_slice_deps *out);

/* Print a node: "ID INSTANCE" (comprehensive) or "0xADDR INSTANCE" (history). */
void wet_cli_print_node(FILE *f, const tk_deps *d, uint32_t instr, uint32_t inst,
                        const char *sep);
/* "file:line" of an instruction, using `statics` (a comprehensive trace) for
 * addresses of a history trace; "0xADDR" when unknown. */
const char *wet_cli_source(const tk_deps *d, const tk_deps *statics, uint32_t instr, char *buf,
                           size_t size);
/* Instruction indexes sorted by id. Caller frees. NULL when out of memory. */
uint32_t *wet_cli_sorted_by_id(const tk_deps *d);

extern const cli_format_ops cli_fmt_wet;

int cmd_slice(int argc, char **argv);
void cmd_slice_help(FILE *f);
int cmd_chain(int argc, char **argv);
void cmd_chain_help(FILE *f);
int cmd_values(int argc, char **argv);
void cmd_values_help(FILE *f);

#endif
