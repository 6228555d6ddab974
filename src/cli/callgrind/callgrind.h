/* The callgrind commands (src/cli/callgrind/): their handlers of the generic
 * commands (ops.c, one file each) and what those files share (callgrind.c). */
#ifndef TK_CLI_CALLGRIND_H
#define TK_CLI_CALLGRIND_H

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
typedef struct cli_callgrind_note {
    char *path;
    uint64_t line;
    char *message;
} cli_callgrind_note;

typedef struct cli_callgrind_notes {
    cli_callgrind_note *v;
    size_t count, cap;
    uint64_t more; /* not kept (beyond CLI_CALLGRIND_NOTES_MAX) */
} cli_callgrind_notes;

#define CLI_CALLGRIND_NOTES_MAX 100

/* A sink for tk_callgrind_read_options.notes: prints each as "tracekit:
 * path:line:col: warning: ..." on stderr and keeps it in `keep` (may be NULL). */
void cli_callgrind_notes_sink(tk_diag *d, cli_callgrind_notes *keep);
void cli_callgrind_notes_free(cli_callgrind_notes *n);

/* Read every input into one profile (their parts appended in order) as `how`
 * says (its path and notes are each input's); the reading's warnings are
 * printed and kept in notes (may be NULL). Returns an exit code. */
int cli_callgrind_load_with(cli_ctx *ctx, const tk_callgrind_read_options *how,
                            cli_callgrind_notes *notes, tk_profile **out);
/* Inputs [ctx->lo, ctx->hi) as load_with reads them all. */
int cli_callgrind_load_range(cli_ctx *ctx, const tk_callgrind_read_options *how,
                             cli_callgrind_notes *notes, tk_profile **out);
/* In a team (team.h): this member's inputs read as load_with reads them, the profiles of
 * every member merged in order into the root's *out (the others' *out NULL: they have
 * nothing to print); the root prints the notes of every input in order and keeps them in
 * notes; when anything failed, it reads every input itself to say what as tracekit does
 * (team.c). Returns an exit code. */
int cli_callgrind_team_load(cli_ctx *ctx, const tk_callgrind_read_options *how,
                            cli_callgrind_notes *notes, tk_profile **out);
/* What reading noted, kept as bytes (to print later in input order, or to send to a team's
 * root). */
typedef struct cli_callgrind_noted {
    uint8_t *data;
    size_t size, cap;
    int failed; /* out of memory: some are missing */
} cli_callgrind_noted;

void cli_callgrind_noted_sink(tk_diag *d, cli_callgrind_noted *n);
void cli_callgrind_noted_append(cli_callgrind_noted *to, const cli_callgrind_noted *from);
void cli_callgrind_noted_free(cli_callgrind_noted *n);
/* The notes of data[0..size) printed and kept in notes (may be NULL), as the sink of
 * cli_callgrind_notes_sink does while reading. */
void cli_callgrind_noted_say(const uint8_t *data, size_t size, cli_callgrind_notes *notes);

/* What the parallel reading makes of each input (parallel.c). */
typedef struct cli_callgrind_each {
    void *arg;
    /* input's profile p (taken over) as a result: *out. Returns 0 or -1. */
    int (*make)(void *arg, tk_profile *p, void **out);
    /* later (taken over), the result of the next input, into *acc (NULL: later becomes it).
     * Returns 0 or -1. */
    int (*merge)(void *arg, void **acc, void *later);
    void (*free)(void *result);
    int window; /* results waiting for their merge at most (0: twice the jobs) */
} cli_callgrind_each;

/* Inputs [ctx->lo, ctx->hi) read as `how` says on `jobs` threads, each into a profile of its
 * own made into a result, the results merged in input order into *acc; the notes of every
 * input, in order, into *notes; the inputs are closed once read. Prints nothing. Returns 0,
 * or -1 when an input or a merge failed (nothing to keep). */
int cli_callgrind_read_parallel(cli_ctx *ctx, const tk_callgrind_read_options *how, unsigned jobs,
                                const cli_callgrind_each *each, void **acc,
                                cli_callgrind_noted *notes);
/* Inputs [ctx->lo, ctx->hi) as one summary partial (tk_prof_partial_open of each, merged):
 * *out (NULL without inputs) and the notes. Returns 0, or -1 (nothing printed or kept) when
 * an input, a merge or the partial (tk_prof_partial_check) fails. */
int cli_callgrind_own_partial(cli_ctx *ctx, const tk_callgrind_read_options *how,
                              const tk_prof_partial_options *po, unsigned jobs,
                              tk_prof_partial **out, cli_callgrind_noted *notes);
/* What a report of several inputs summarises: their summary partial (*pp), read on `jobs`
 * threads (in a team, each member's, merged along the team: team.c), the notes printed and
 * kept in notes as load_with does; or, when anything failed, the profile of the inputs read
 * one after the other (*p), which said what failed as tracekit does. A team's members but
 * the root get neither. Returns an exit code. */
int cli_callgrind_load_summary(cli_ctx *ctx, const tk_callgrind_read_options *how,
                               const tk_prof_partial_options *po, unsigned jobs,
                               cli_callgrind_notes *notes, tk_prof_partial **pp, tk_profile **p);
int cli_callgrind_team_summary(cli_ctx *ctx, const tk_callgrind_read_options *how,
                               const tk_prof_partial_options *po, unsigned jobs,
                               cli_callgrind_notes *notes, tk_prof_partial **pp, tk_profile **p);

/* What merge writes of several inputs: their profiles, read on `jobs` threads each into its
 * own, merged in order (tk_profile_merger), the notes printed in order; or, when anything
 * failed, the profile of the inputs read one after the other merged (tk_profile_merged),
 * which said what failed as tracekit does. Returns an exit code. */
int cli_callgrind_load_merged(cli_ctx *ctx, const tk_profile_merge_options *mo, unsigned jobs,
                              tk_profile **out);
/* The merged profile of the inputs, as tracekit merge makes it (NULL: a team's member, which
 * writes nothing): of several, cli_callgrind_load_merged. Returns an exit code. */
int cli_callgrind_merged(cli_ctx *ctx, const tk_profile_merge_options *mo, unsigned jobs,
                         tk_profile **dst);

/* What load_with gives (the inputs read into one profile, parts appended in order, the notes
 * printed in order), each input read on one of `jobs` threads into a profile of its own and
 * appended in order (tk_profile_append); when anything failed, the inputs read one after the
 * other, which says what failed as tracekit does. In a team, load_with. Returns an exit code. */
int cli_callgrind_load_jobs(cli_ctx *ctx, const tk_callgrind_read_options *how, unsigned jobs,
                            cli_callgrind_notes *notes, tk_profile **out);

/* The same with this detail and nothing else asked for. */
int cli_callgrind_load(cli_ctx *ctx, tk_callgrind_detail detail, tk_profile **out);

/* The string of id, or dflt when it is none or empty. */
const char *cli_callgrind_str_or(const tk_profile *p, uint32_t id, const char *dflt);
void cli_callgrind_put_u64(FILE *f, uint64_t v);
/* v with thousands separators, right-aligned in width (0: no padding). */
void cli_callgrind_put_padded(FILE *f, uint64_t v, int width);
void cli_callgrind_put_commas(FILE *f, uint64_t v);
/* [v0,v1,...] */
void cli_callgrind_json_u64s(FILE *f, const uint64_t *v, size_t n);
/* ["Ir","Dr",...]: the profile's event names */
void cli_callgrind_json_events(FILE *f, const tk_profile *p);
/* "Ir,Dr", the value of option --opt, -> event indexes. Returns count, or -1 after a usage
 * error that names the option. */
int cli_callgrind_event_list(const char *cmd, const char *opt, const tk_profile *p,
                             const char *list, size_t *idx, size_t max);

/* The handlers and their options (info.c, check.c, report.c, annotate.c, convert.c,
 * dump.c, diff.c, merge.c). */
extern const cli_opt cli_callgrind_info_opts[], cli_callgrind_check_opts[],
    cli_callgrind_report_opts[], cli_callgrind_annotate_opts[], cli_callgrind_convert_opts[],
    cli_callgrind_dump_opts[], cli_callgrind_diff_opts[], cli_callgrind_merge_opts[];
int cli_callgrind_info(cli_ctx *ctx, const cli_args *args);
int cli_callgrind_check(cli_ctx *ctx, const cli_args *args);
int cli_callgrind_report(cli_ctx *ctx, const cli_args *args);
int cli_callgrind_annotate(cli_ctx *ctx, const cli_args *args);
int cli_callgrind_convert(cli_ctx *ctx, const cli_args *args);
int cli_callgrind_dump(cli_ctx *ctx, const cli_args *args);
int cli_callgrind_diff(cli_ctx *ctx, const cli_args *args);
int cli_callgrind_merge(cli_ctx *ctx, const cli_args *args);

/* The fixed values of their options (report.c, convert.c, diff.c). */
extern const cli_opt_choices cli_callgrind_report_choices[], cli_callgrind_convert_choices[],
    cli_callgrind_diff_choices[];

/* The table of them (ops.c). */
extern const cli_format_ops cli_callgrind_ops;

#endif
