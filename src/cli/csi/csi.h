/* Helpers shared by the CSI command handlers (fmt_csi.c, cmd_paths.c). */
#ifndef TK_CLI_CSI_H
#define TK_CLI_CSI_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "tracekit/csi.h"

/* Room for a function's display label ("name" or "name#K"). */
#define CSI_LABEL_MAX 512

/* Metadata text to read: the input itself, or the .debug_PT section of an
 * ELF file (executable or object) copied into memory. */
typedef struct csi_source {
    tk_input *in;        /* what the reader reads (borrowed or owned) */
    tk_input *owned;     /* memory input over the section, or NULL */
    uint8_t *section;    /* section bytes, or NULL */
    char name[600];      /* "prog(.debug_PT)" for sections */
    tk_csi_reader *reader;
    /* names seen so far, to label duplicates "name#2" */
    char **names;
    uint32_t *counts;
    size_t nnames, names_cap;
} csi_source;

/* Open in (path as given). Returns CLI_EXIT_OK or prints the error and
 * returns its exit code. */
int csi_source_open(csi_source *s, tk_input *in, const char *path);
void csi_source_close(csi_source *s);
/* Next function: TK_OK, TK_END, or an error (err filled, located). label
 * gets the function's display name ("foo", or "foo#2" for the second
 * function called foo). */
tk_status csi_source_next(csi_source *s, const tk_csi_function **fn, char *label, size_t size,
                          tk_error *err);

/* A walk over the functions of every input of a command, in file order. */
typedef struct csi_visitor {
    const char *selector; /* --function, or NULL for all */
    void *user;
    /* Each selected function; num is a numbering workspace shared by the
     * calls. Anything but TK_OK stops the walk; err must then be filled. */
    tk_status (*function)(void *user, const csi_source *src, const tk_csi_function *fn,
                          const char *label, tk_csi_numbering *num, tk_error *err);
    /* After an input was read to its end without error (may be NULL). */
    void (*input_done)(void *user, const csi_source *src);
} csi_visitor;

/* Walks ctx's inputs; prints the first error. Returns a CLI exit code. */
int csi_visit_functions(cli_ctx *ctx, const csi_visitor *v);

/* Does the function (with its label) match a --function selector? NULL
 * selects all. "NAME" matches NAME and its variants NAME$...; "NAME#K" only
 * the K-th function called NAME. */
int csi_function_matches(const char *selector, const tk_csi_function *fn, const char *label);

/* "2 4 5 8 9": a path's blocks (EXIT left out). */
void csi_print_blocks(FILE *out, const tk_csi_function *fn, const uint32_t *nodes, size_t n);
/* The source lines of a path's blocks, consecutive duplicates collapsed. */
void csi_print_lines(FILE *out, const tk_csi_function *fn, const uint32_t *nodes, size_t n);
/* "ENTRY" or "after back edge 9~>4"; "EXIT" or "back edge 9~>4". */
void csi_print_start(FILE *out, const tk_csi_function *fn, const tk_bl_path *p);
void csi_print_end(FILE *out, const tk_csi_function *fn, const tk_bl_path *p);
/* The golden decode format: "FUNCTION ID: BLOCK ..." then starts/ends/lines. */
void csi_print_path(FILE *out, const tk_csi_function *fn, const char *label, uint64_t id,
                    const tk_bl_path *p);

extern const cli_format_ops cli_fmt_csi;

int cmd_paths(int argc, char **argv);
void cmd_paths_help(FILE *f);
int cmd_extract(int argc, char **argv);
void cmd_extract_help(FILE *f);

#endif
