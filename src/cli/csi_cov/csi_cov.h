/* The commands of CSI's coverage metadata (src/cli/csi_cov/): the handlers of
 * the generic commands for csi-cc, csi-fc and csi-bbc files (ops.c, one file
 * each), `coverage` (a crashed program's coverage from its core), and what
 * they share (csi_cov.c: the metadata of an input or of an ELF file's
 * section, a walk over its functions). */
#ifndef TK_CLI_CSI_COV_H
#define TK_CLI_CSI_COV_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "csi/csi.h"
#include "tracekit/csi_cov.h"
#include "tracekit/csi_cov_report.h"

/* Coverage metadata to read: the input itself, or the kind's section of an ELF file. */
typedef struct cli_csi_cov_source {
    cli_csi_text text; /* "prog(.debug_CC)" for sections */
    tk_csi_cov_kind kind;
    tk_csi_cov_reader *reader;
} cli_csi_cov_source;

/* The kind of the command's format (csi-cc, csi-fc, csi-bbc). */
tk_csi_cov_kind cli_csi_cov_kind(const cli_ctx *ctx);

/* Open in (path as given) as `kind`. Returns CLI_EXIT_OK or prints the error
 * and returns its exit code. */
int cli_csi_cov_source_open(cli_csi_cov_source *s, tk_input *in, const char *path,
                            tk_csi_cov_kind kind);
void cli_csi_cov_source_close(cli_csi_cov_source *s);

/* A walk over the functions of every input of a command, in file order. */
typedef struct cli_csi_cov_visitor {
    const char *selector; /* --function, or NULL for all */
    void *user;
    /* Each selected function. Anything but TK_OK stops the walk; err must
     * then be filled. */
    tk_status (*function)(void *user, const cli_csi_cov_source *src, const tk_csi_cov_function *fn,
                          tk_error *err);
    /* After an input was read to its end without error (may be NULL). */
    void (*input_done)(void *user, const cli_csi_cov_source *src);
} cli_csi_cov_visitor;

/* Walks ctx's inputs; prints the first error. Returns a CLI exit code. */
int cli_csi_cov_visit(cli_ctx *ctx, const cli_csi_cov_visitor *v);

/* "sites" / "blocks" / "functions": what a kind's entries are. */
const char *cli_csi_cov_entries_name(tk_csi_cov_kind kind);

/* The handlers and their options (info.c, check.c, report.c, annotate.c,
 * convert.c, dump.c). */
extern const cli_opt cli_csi_cov_report_opts[], cli_csi_cov_annotate_opts[],
    cli_csi_cov_convert_opts[], cli_csi_cov_dump_opts[];
int cli_csi_cov_info(cli_ctx *ctx, const cli_args *args);
int cli_csi_cov_check(cli_ctx *ctx, const cli_args *args);
int cli_csi_cov_report(cli_ctx *ctx, const cli_args *args);
int cli_csi_cov_annotate(cli_ctx *ctx, const cli_args *args);
int cli_csi_cov_convert(cli_ctx *ctx, const cli_args *args);
int cli_csi_cov_dump(cli_ctx *ctx, const cli_args *args);

/* The fixed values of their options (report.c, convert.c). */
extern const cli_opt_choices cli_csi_cov_report_choices[], cli_csi_cov_convert_choices[];

/* The tables of them (ops.c). */
extern const cli_format_ops cli_csi_cc_ops, cli_csi_fc_ops, cli_csi_bbc_ops;

/* tracekit coverage (coverage.c). */
extern const cli_opt cli_csi_cov_coverage_opts[];
extern const cli_opt_choices cli_csi_cov_coverage_choices[];
int cli_csi_cov_coverage(int argc, char **argv);
void cli_csi_cov_coverage_help(FILE *f);

#endif
