/* tracekit: the Callgrind profile format (valgrind --tool=callgrind).
 *
 * Reading builds a tk_profile (tracekit/profile.h): every part of every file
 * read into the same profile is appended as a part. Writing is a function of
 * the profile model only, so any profile (also one aggregated from XRay or
 * DCFG) can be written as callgrind. */
#ifndef TRACEKIT_CALLGRIND_H
#define TRACEKIT_CALLGRIND_H


#include "input.h"
#include "profile.h"
#include "alloc.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How much position detail the reader keeps (less detail, less memory). */
typedef enum tk_callgrind_detail {
    TK_CALLGRIND_DETAIL_FULL = 0, /* every subposition (address, bb, line) */
    TK_CALLGRIND_DETAIL_LINES = 1, /* source lines only (addresses and bbs dropped) */
    TK_CALLGRIND_DETAIL_FUNCTIONS = 2, /* no positions: per function and file */
    TK_CALLGRIND_DETAIL_NONE = 3 /* no rows at all: validate only (check) */
} tk_callgrind_detail;

/* Longest line accepted (bytes); longer lines are a TK_ERR_LIMIT error. */
#define TK_CALLGRIND_MAX_LINE (1u << 20)

typedef struct tk_callgrind_read_options {
    const char *path; /* for error locations; may be NULL */
    tk_diag *diag; /* non-NULL: check mode, report every problem and go on */
    tk_callgrind_detail detail;
    int skip_jumps; /* do not keep jump rows */
    int drop_files; /* with TK_CALLGRIND_DETAIL_FUNCTIONS: self and call rows keyed
                                  by function only, their cost file is "" (less memory; what
                                  a per-function summary needs) */
    int call_counts_only; /* no call rows: each part counts the calls into each function
                                  (tk_prof_part.calls_into); what tk_profile_summarize_self
                                  needs, and all it can be used with (tk_profile_summarize
                                  refuses such a profile) */
    tk_diag *notes; /* read mode: what reading does not fail on but the input does
                                  not add up to (a part whose cost lines fall short of its
                                  summary: line, totals: that differ from the cost lines; the
                                  signs of a truncated file) as located warnings; NULL: not
                                  reported. Check mode reports them through diag. */
} tk_callgrind_read_options;

#define TK_CALLGRIND_READ_OPTIONS_INIT \
    { \
        NULL, NULL, TK_CALLGRIND_DETAIL_FULL, 0, 0, 0, NULL \
    }

/* Parse callgrind text from a buffer into `p` (parts are appended).
 * Returns TK_OK; TK_ERR_FORMAT/TK_ERR_LIMIT/TK_ERR_UNSUPPORTED with a located
 * error (read mode); TK_ERR_CHECK when check mode found errors (all reported
 * through the diag); TK_ERR_NOMEM. An empty buffer is a profile with no parts. */
TK_API tk_status tk_callgrind_read_buffer(tk_profile *p, const char *data, size_t len,
                                          const tk_callgrind_read_options *opt, tk_error *err);

/* Read a whole input block by block, lines parsed in place in the input's
 * buffer (a line across two blocks is gathered first); ids used before their
 * definition are looked up through tk_input_file_view when the input has one.
 * The path in errors defaults to the input's name. Returns as
 * tk_callgrind_read_buffer (TK_OK, TK_ERR_FORMAT, TK_ERR_LIMIT, TK_ERR_UNSUPPORTED,
 * TK_ERR_CHECK, TK_ERR_NOMEM), and the input's errors: TK_ERR_IO (a failed read),
 * TK_ERR_FORMAT (corrupt compressed data, at its byte offset). */
TK_API tk_status tk_callgrind_read_input(tk_profile *p, tk_input *in,
                                         const tk_callgrind_read_options *opt, tk_error *err);

/* Incremental form, for line-by-line input. Returns TK_OK or TK_ERR_NOMEM. */
typedef struct tk_callgrind_parser tk_callgrind_parser;
TK_API tk_status tk_callgrind_parser_open(tk_callgrind_parser **out, tk_profile *p,
                                          const tk_callgrind_read_options *opt, tk_error *err);
/* One line without its newline; lineno is 1-based; offset is the byte offset
 * of the line start. Returns TK_OK; in read mode the line's error: TK_ERR_FORMAT,
 * TK_ERR_LIMIT (a number over 64 bits, a line over TK_CALLGRIND_MAX_LINE),
 * TK_ERR_UNSUPPORTED, TK_ERR_NOMEM (in check mode TK_ERR_NOMEM only, every other
 * problem going to the diag). */
TK_API tk_status tk_callgrind_parser_line(tk_callgrind_parser *ps, const char *line, size_t len,
                                          uint64_t lineno, int64_t offset, tk_error *err);
/* End of input: final checks. Returns TK_OK; in read mode the first error, if any
 * (TK_ERR_FORMAT, TK_ERR_LIMIT, TK_ERR_UNSUPPORTED, TK_ERR_NOMEM); in check mode
 * TK_ERR_CHECK when any line had an error. */
TK_API tk_status tk_callgrind_parser_finish(tk_callgrind_parser *ps, tk_error *err);
TK_API void tk_callgrind_parser_free(tk_callgrind_parser *ps);

typedef struct tk_callgrind_write_options {
    int plain_names; /* every name in full (0: "(id) name" on first use, "(id)" after) */
    int plain_positions; /* absolute subpositions (0: "+N -N *" relative ones) */
    int part; /* write only this part (1-based), 0 = all */
    unsigned positions; /* TK_POS_* columns to write, 0 = each part's own. speedscope reads
                               exactly one position column (it takes the second as the first
                               cost): TK_POS_LINE is what all of speedscope, KCachegrind and
                               callgrind_annotate read right */
} tk_callgrind_write_options;

#define TK_CALLGRIND_WRITE_OPTIONS_INIT \
    { \
        0, 0, 0, 0 \
    }

/* Write the profile as callgrind text. Returns TK_OK or TK_ERR_IO/TK_ERR_NOMEM. */
TK_API tk_status tk_callgrind_write(const tk_profile *p, const tk_writer *out,
                                    const tk_callgrind_write_options *opt, tk_error *err);

/* Write each part of the profile to a file of its own, "PATH-01", "PATH-02", ... (what
 * valgrind --separate-threads=yes writes: one part per file, which every reader takes, where
 * speedscope refuses a second "events:" line and callgrind_annotate reads one part only).
 * flags: tk_output_open's. *paths (when paths is not NULL) receives the names written, a
 * NULL-terminated array the caller frees with tk_free (each name and the array), also on error.
 * Errors: tk_output_open's, TK_ERR_IO, TK_ERR_NOMEM. opt->part is ignored. */
TK_API tk_status tk_callgrind_write_parts(const tk_profile *p, const char *path,
                                          const tk_callgrind_write_options *opt, unsigned flags,
                                          char ***paths, tk_error *err);

/* The files valgrind --tool=callgrind --separate-threads=yes writes beside `path`, the base
 * file it leaves empty (callgrind.out.PID): PATH-TT, one per thread, and PATH.N-TT of the
 * dumps after the first, in byte order of their names. *paths receives them, a
 * NULL-terminated array the caller frees with tk_free (each name and the array); none
 * found: an array of only NULL. Returns TK_OK, TK_ERR_IO (the directory cannot be read),
 * TK_ERR_NOMEM. */
TK_API tk_status tk_callgrind_thread_files(const char *path, char ***paths, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
