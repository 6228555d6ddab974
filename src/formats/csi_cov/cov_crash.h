/* The crash-time coverage model shared by cov_crash*.c (not public API). */
#ifndef TK_CSI_COV_CRASH_H
#define TK_CSI_COV_CRASH_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/coredump.h"
#include "core/elf.h"
#include "core/strpool.h"
#include "core/vec.h"
#include "tracekit/csi_cov.h"

/* A coverage array's symbol in BIN. */
typedef struct crash_sym {
    uint64_t value, size;
} crash_sym;

struct tk_csi_crash {
    tk_arena arena; /* names, entries, lines */
    TK_VEC(tk_csi_crash_function) fns;
    tk_strpool keys; /* "name\x01key" -> function index */
    tk_strpool syms; /* coverage array symbols of BIN */
    TK_VEC(crash_sym) sym_at; /* by symbol id */
    uint64_t bias;
    TK_VEC(tk_csi_crash_frame) frames; /* the crashed thread, innermost first */
    uint64_t crashed_tid;
    int has_pt; /* BIN has .debug_PT */
    char match[200];
    TK_VEC(char) notes;
    int nomem;
};

/* What tk_csi_crash_read works with. */
typedef struct crash_open {
    const char *bin_path, *core_path;
    const void *bin, *core;
    size_t bin_len, core_len;
    tk_elf *elf;
    tk_coredump *mem;
    tk_csi_crash_options opt;
} crash_open;

/* Adds a line to the notes. */
void tk_crash_note(tk_csi_crash *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Does BIN have a section of that name? (cov_crash_read.c) */
int tk_crash_has_section(const crash_open *o, const char *name);

/* TK_OK when BIN has one of the coverage sections at least, else a located
 * TK_ERR_FORMAT (cov_crash_read.c). */
tk_status tk_crash_check_sections(const crash_open *o, tk_error *err);

/* Reads BIN's coverage sections and every array from the memory
 * (cov_crash_read.c). TK_OK, TK_ERR_FORMAT (located), TK_ERR_NOMEM. */
tk_status tk_crash_read_metadata(tk_csi_crash *c, const crash_open *o, tk_error *err);

/* The crashed thread's frames and their path-tracing locals
 * (cov_crash_frames.c); what cannot be read becomes a note. */
void tk_crash_read_frames(tk_csi_crash *c, const crash_open *o);

/* The lines of every function and their source files (cov_crash_lines.c). */
void tk_crash_finish(tk_csi_crash *c, const crash_open *o);

#endif
