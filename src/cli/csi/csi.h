/* The CSI commands (src/cli/csi/): their handlers of the generic commands
 * (ops.c, one file each), paths and extract, and what those files share
 * (csi.c: the metadata of an input or an ELF section, a walk over its
 * functions, printing paths). */
#ifndef TK_CLI_CSI_H
#define TK_CLI_CSI_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "tracekit/csi.h"

/* Room for a function's display label ("name" or "name#K"). */
#define CLI_CSI_LABEL_MAX 512

/* Metadata text to read, of path tracing or coverage: the input itself, or a section of
 * an ELF file (executable or object) copied into memory. */
typedef struct cli_csi_text {
    tk_input *in; /* what the reader reads (borrowed or owned) */
    tk_input *owned; /* memory input over the section, or NULL */
    uint8_t *section; /* section bytes (the library's: tk_free), or NULL */
    const uint8_t *image; /* the ELF file's bytes (borrowed from the input), or NULL */
    size_t image_len;
    char name[600]; /* "prog(.debug_PT)" for sections */
    char others[160]; /* an ELF file's other CSI sections (cli_csi_other_sections) */
} cli_csi_text;

/* Open in (path as given): an ELF file's section, else in itself. Returns CLI_EXIT_OK,
 * CLI_CSI_NO_SECTION (an ELF file without the section; nothing printed: t->image is the
 * file, for the caller's message, until cli_csi_text_close), or prints the error and
 * returns its exit code. */
#define CLI_CSI_NO_SECTION (-1)
int cli_csi_text_open(cli_csi_text *t, tk_input *in, const char *path, const char *section);
/* The same, printing nothing: CLI_CSI_FAILED with err filled where cli_csi_text_open prints
 * the error (convert -j's threads). */
#define CLI_CSI_FAILED (-2)
int cli_csi_text_read(cli_csi_text *t, tk_input *in, const char *path, const char *section,
                      tk_error *err);
void cli_csi_text_close(cli_csi_text *t);

/* Path-tracing metadata to read (.debug_PT of an ELF file). */
typedef struct cli_csi_source {
    cli_csi_text text;
    tk_csi_reader *reader;
} cli_csi_source;

/* The CSI sections of an ELF image other than `except`, as `info` lists them:
 * ".debug_CC (--from csi-cc), .debug_FC (--from csi-fc)"; "" when none. */
void cli_csi_other_sections(const char *path, const uint8_t *img, size_t len, const char *except,
                            char *buf, size_t size);

/* Open in (path as given). Returns CLI_EXIT_OK or prints the error and
 * returns its exit code. */
int cli_csi_source_open(cli_csi_source *s, tk_input *in, const char *path);
void cli_csi_source_close(cli_csi_source *s);
/* Next function: TK_OK, TK_END, or an error (err filled, located). label
 * gets the function's display name (tk_csi_function_label: "foo", or "foo#2"
 * for the second function called foo). */
tk_status cli_csi_source_next(cli_csi_source *s, const tk_csi_function **fn, char *label,
                              size_t size, tk_error *err);

/* A walk over the functions of every input of a command, in file order. */
typedef struct cli_csi_visitor {
    const char *selector; /* --function, or NULL for all (tk_csi_function_matches) */
    void *user;
    /* Each selected function; num is a numbering workspace shared by the
     * calls. Anything but TK_OK stops the walk; err must then be filled. */
    tk_status (*function)(void *user, const cli_csi_source *src, const tk_csi_function *fn,
                          const char *label, tk_csi_numbering *num, tk_error *err);
    /* After an input was read to its end without error (may be NULL). */
    void (*input_done)(void *user, const cli_csi_source *src);
} cli_csi_visitor;

/* Walks ctx's inputs; prints the first error. Returns a CLI exit code. */
int cli_csi_visit(cli_ctx *ctx, const cli_csi_visitor *v);

/* How many paths of each function paths --list lists and annotate counts the lines of by
 * default (a function may have 2^63 of them: not all, in any output format). */
#define CLI_CSI_PATHS 1000
#define CLI_CSI_PATHS_S "1000"
/* -n/--top N and --all of paths and annotate: the paths per function (or routine) to take,
 * dflt when neither is given, 0 for all. Returns 0, or -1 after a usage error. */
int cli_csi_get_paths(const char *cmd, const cli_args *a, uint64_t dflt, uint64_t *out);

/* "2 4 5 8 9": a path's blocks (EXIT left out). */
void cli_csi_print_blocks(FILE *out, const tk_csi_function *fn, const uint32_t *nodes, size_t n);
/* The source lines of a path's blocks, consecutive duplicates collapsed. */
void cli_csi_print_lines(FILE *out, const tk_csi_function *fn, const uint32_t *nodes, size_t n);
/* "ENTRY" or "after back edge 9~>4"; "EXIT" or "back edge 9~>4". */
void cli_csi_print_start(FILE *out, const tk_csi_function *fn, const tk_bl_path *p);
void cli_csi_print_end(FILE *out, const tk_csi_function *fn, const tk_bl_path *p);
/* The golden decode format: "FUNCTION ID: BLOCK ..." then starts/ends/lines. */
void cli_csi_print_path(FILE *out, const tk_csi_function *fn, const char *label, uint64_t id,
                        const tk_bl_path *p);

/* What the functions of every input are written as: dump's text, csi (canonical
 * metadata) or dot. */
typedef enum cli_csi_write_mode {
    CLI_CSI_WRITE_DUMP,
    CLI_CSI_WRITE_CSI,
    CLI_CSI_WRITE_DOT
} cli_csi_write_mode;
/* Writes them to out (convert.c; --function, --path, --renumber). Returns an exit code. */
int cli_csi_write(cli_ctx *ctx, const cli_args *args, cli_csi_write_mode mode, FILE *out);

/* The handlers and their options (info.c, check.c, report.c, annotate.c, convert.c, dump.c). */
extern const cli_opt cli_csi_report_opts[], cli_csi_annotate_opts[], cli_csi_convert_opts[],
    cli_csi_dump_opts[];
int cli_csi_info(cli_ctx *ctx, const cli_args *args);
int cli_csi_check(cli_ctx *ctx, const cli_args *args);
int cli_csi_report(cli_ctx *ctx, const cli_args *args);
int cli_csi_annotate(cli_ctx *ctx, const cli_args *args);
int cli_csi_convert(cli_ctx *ctx, const cli_args *args);
int cli_csi_dump(cli_ctx *ctx, const cli_args *args);

/* The table of them (ops.c). */
extern const cli_format_ops cli_csi_ops;

/* The fixed values of the options of report and convert (report.c, convert.c). */
extern const cli_opt_choices cli_csi_report_choices[], cli_csi_convert_choices[];

/* Decode a runtime state against a function and print it as `paths --state`
 * does (paths.c; meta names the metadata in messages). Returns 0, or 1 when
 * the state does not decode or differs from its documented sequence. */
int cli_csi_print_state(FILE *out, const tk_csi_function *fn, const char *label,
                        tk_csi_numbering *num, const tk_csi_state *s, const char *meta);

/* tracekit paths, tracekit extract (paths.c, extract.c). */
extern const cli_opt cli_csi_paths_opts[], cli_csi_extract_opts[];
extern const cli_opt_choices cli_csi_paths_choices[];
int cli_csi_paths(int argc, char **argv);
void cli_csi_paths_help(FILE *f);
int cli_csi_extract(int argc, char **argv);
void cli_csi_extract_help(FILE *f);

#endif
