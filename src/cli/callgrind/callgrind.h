/* What the callgrind command handlers share: fmt_callgrind.c (info, check,
 * dump, convert, merge, diff, annotate) and fmt_callgrind_report.c (report). */
#ifndef TK_CLI_FMT_CALLGRIND_H
#define TK_CLI_FMT_CALLGRIND_H

#include <stdio.h>

#include "cli.h"

/* Output writes many small pieces: skip stdio's per-call locking. */
#ifdef __GLIBC__
#define out_write(p, n, f) fwrite_unlocked((p), 1, (n), (f))
#define out_char(c, f) putc_unlocked((c), (f))
#else
#define out_write(p, n, f) fwrite((p), 1, (n), (f))
#define out_char(c, f) putc((c), (f))
#endif

/* What reading found that it does not fail on (tk_callgrind_read_options.notes: a
 * part whose cost lines fall short of its summary:, totals: that differ from the
 * cost lines), kept for a report's header. */
typedef struct cgc_note {
    char *path;
    uint64_t line;
    char *message;
} cgc_note;

typedef struct cgc_notes {
    cgc_note *v;
    size_t count, cap;
    uint64_t more; /* not kept (beyond CGC_NOTES_MAX) */
} cgc_notes;

#define CGC_NOTES_MAX 100

/* A sink for tk_callgrind_read_options.notes: prints each as "tracekit:
 * path:line:col: warning: ..." on stderr and keeps it in `keep` (may be NULL). */
void cgc_notes_sink(tk_diag *d, cgc_notes *keep);
void cgc_notes_free(cgc_notes *n);

/* Read every input into one profile (their parts appended in order); the
 * reading's warnings are printed and kept in notes (may be NULL). */
int cgc_load_profile_opts(cli_ctx *ctx, tk_callgrind_detail detail, int skip_jumps,
                          int drop_files, int call_counts_only, cgc_notes *notes,
                          tk_profile **out);
int cgc_load_profile(cli_ctx *ctx, tk_callgrind_detail detail, tk_profile **out);
/* The string of id, or dflt when it is none or empty. */
const char *cgc_str_or(const tk_profile *p, uint32_t id, const char *dflt);
void cgc_put_u64(FILE *f, uint64_t v);
/* v with thousands separators, right-aligned in width (0: no padding). */
void cgc_put_padded(FILE *f, uint64_t v, int width);
void cgc_put_commas(FILE *f, uint64_t v);
/* [v0,v1,...] */
void cgc_json_u64s(FILE *f, const uint64_t *v, size_t n);
/* ["Ir","Dr",...]: the profile's event names */
void cgc_json_event_names(FILE *f, const tk_profile *p);
/* "Ir,Dr" -> event indexes. Returns count, or -1 after a usage error. */
int cgc_parse_event_list(const char *cmd, const tk_profile *p, const char *list, size_t *idx,
                         size_t max);

/* report (fmt_callgrind_report.c) */
extern const cli_opt cgc_report_opts[];
int cgc_run_report(cli_ctx *ctx, const cli_args *args);

extern const cli_format_ops cli_fmt_callgrind;

#endif
