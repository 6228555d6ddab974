/* The DCFG-Trace commands (src/cli/dcfg_trace/): their handlers of the generic
 * commands (ops.c, one file each), decode and encode, and what those files
 * share (dcfg_trace.c). */
#ifndef TK_CLI_DCFG_TRACE_H
#define TK_CLI_DCFG_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* Open a trace from a path; prints the error. Returns an exit code. */
int cli_dcfg_trace_open_path(const char *path, int progress, tk_dcfg_trace **out);
/* Parse the handler's first input as a trace; errors go to diag when given
 * (check), else are printed. Returns an exit code. */
int cli_dcfg_trace_open_input(cli_ctx *ctx, tk_dcfg_trace **t, tk_diag *diag);
/* The same for input i of several (check reads each in turn). */
int cli_dcfg_trace_open_at(cli_ctx *ctx, int i, tk_dcfg_trace **t, tk_diag *diag);

/* Read the DCFG named by --dcfg (NULL *out when the option is absent). */
int cli_dcfg_trace_load_dcfg(const cli_args *a, int progress, tk_cfg **out);
/* --jobs N (default: number of CPUs). */
int cli_dcfg_trace_jobs(const char *cmd, const cli_args *a, unsigned *out);

/* A buffered writer of decimal lines (fast path for big outputs). */
typedef struct cli_dcfg_trace_writer {
    FILE *f;
    char buf[1 << 16];
    size_t n;
    int failed;
} cli_dcfg_trace_writer;

void cli_dcfg_trace_writer_init(cli_dcfg_trace_writer *w, FILE *f);
void cli_dcfg_trace_put_u64(cli_dcfg_trace_writer *w, uint64_t v);
void cli_dcfg_trace_put_str(cli_dcfg_trace_writer *w, const char *s);
void cli_dcfg_trace_put_char(cli_dcfg_trace_writer *w, char c);
int cli_dcfg_trace_writer_flush(cli_dcfg_trace_writer *w);

/* The handlers and their options (info.c, check.c, report.c, convert.c, dump.c, diff.c). */
extern const cli_opt cli_dcfg_trace_check_opts[], cli_dcfg_trace_report_opts[],
    cli_dcfg_trace_convert_opts[], cli_dcfg_trace_dump_opts[], cli_dcfg_trace_diff_opts[];
int cli_dcfg_trace_info(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_trace_check(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_trace_report(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_trace_convert(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_trace_dump(cli_ctx *ctx, const cli_args *args);
int cli_dcfg_trace_diff(cli_ctx *ctx, const cli_args *args);
/* convert --to bbv (convert_bbv.c), decoded on jobs threads; in a team (ctx->team) split by
 * chunks (cli_dcfg_trace_team_bbv), written by the root. Returns an exit code. */
int cli_dcfg_trace_convert_bbv(cli_ctx *ctx, const tk_dcfg_trace *t, const tk_cfg *cfg,
                               const cli_args *a, unsigned jobs, tk_output *out);
/* tk_dcfg_trace_bbv by a team (convert_bbv_team.c): each thread's chunks split across the
 * members (cli_dcfg_trace_own_chunks), in three passes (blocks, their walk along the members,
 * parts from the walk's open counts) and the parts merged in order to the root, which hands
 * their slices to fn; a thread that fails on a member is run again by the root alone, from
 * there on. The root's status and err are tk_dcfg_trace_bbv's; the others' TK_OK (or, when
 * the team failed, TK_ERR_IO). */
tk_status cli_dcfg_trace_team_bbv(const struct cli_team *team, const tk_dcfg_trace *t,
                                  const tk_cfg *cfg, const tk_dcfg_trace_bbv_options *opt,
                                  tk_dcfg_trace_bbv_fn fn, void *ctx, tk_error *err);

/* The table of them (ops.c). */
extern const cli_format_ops cli_dcfg_trace_ops;

/* tracekit decode, tracekit encode (decode.c, encode.c); the fixed values of the options of
 * report, convert, decode and encode. */
extern const cli_opt cli_dcfg_trace_decode_opts[], cli_dcfg_trace_encode_opts[];
extern const cli_opt_choices cli_dcfg_trace_report_choices[], cli_dcfg_trace_convert_choices[],
    cli_dcfg_trace_decode_choices[], cli_dcfg_trace_encode_choices[];
int cli_dcfg_trace_decode(int argc, char **argv);
void cli_dcfg_trace_decode_help(FILE *f);
int cli_dcfg_trace_encode(int argc, char **argv);
void cli_dcfg_trace_encode_help(FILE *f);

/* In a team (team.h): this member's chunks [begin, end) of thread th (global indexes), the
 * thread's chunks split across the members by their bytes (cli_team_split), as report, convert
 * --to callgrind and --to bbv split them (convert_team.c). Returns 0, or -1 out of memory. */
struct cli_team;
int cli_dcfg_trace_own_chunks(const struct cli_team *team, const tk_dcfg_trace *t, size_t th,
                              size_t *begin, size_t *end);

/* In a team (team.h, report_team.c): thread th's report of every member's share of its
 * chunks (split by their bytes; each member's decoded on `jobs` threads), merged in chunk
 * order into the root's *r (the others' NULL; the root's too when !say, which prints
 * nothing).
 * Returns an exit code (the root prints the error of the first chunk that fails). */
int cli_dcfg_trace_team_report(cli_ctx *ctx, const tk_dcfg_trace *t, size_t th, unsigned jobs,
                               int say, tk_dcfg_trace_report **r);

/* A range's partial of thread th's chunks [begin, end) (tk_dcfg_trace_profile_range,
 * tk_dcfg_trace_folded_range), and the root's replay of the ranges' partials in order. */
typedef tk_status (*cli_dcfg_trace_range_fn)(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                                             size_t begin, size_t end,
                                             const tk_dcfg_trace_convert_options *opt,
                                             uint8_t **data, size_t *size, tk_error *err);
typedef tk_status (*cli_dcfg_trace_replay_fn)(void *arg, size_t th, const uint8_t *const *parts,
                                              const size_t *sizes, size_t n, tk_error *err);

/* In a team (convert_team.c): thread after thread, each member makes the range of its share
 * of the thread's chunks (cli_dcfg_trace_own_chunks) on `jobs` decoding threads, the ranges
 * are concatenated in member order along the tree, and the root replays them (replay(arg, ...))
 * unless rc, the exit code so far, is already a failure. Returns the exit code (the root prints
 * the first error in order). */
int cli_dcfg_trace_team_threads(const struct cli_team *team, const tk_dcfg_trace *t,
                                const tk_cfg *cfg, unsigned jobs, cli_dcfg_trace_range_fn range,
                                cli_dcfg_trace_replay_fn replay, void *arg, int rc);

/* In a team (convert_team.c): the profile of the trace (tk_dcfg_trace_to_profile) into the
 * root's *prof (the others' NULL), each thread's chunks split across the members
 * (cli_dcfg_trace_team_threads of tk_dcfg_trace_profile_range, replayed by
 * tk_dcfg_trace_profile_replay). Returns an exit code (the root prints the first error in
 * order). */
int cli_dcfg_trace_team_profile(cli_ctx *ctx, const tk_dcfg_trace *t, const tk_cfg *cfg,
                                unsigned jobs, tk_profile **prof);

/* In a team (convert_folded_team.c): convert --to folded (svg: --to svg, a's flame graph
 * options) of the trace, each thread's chunks split across the members by their bytes, each
 * member's range made on `jobs` decoding threads, replayed in order by the root, which writes
 * the result to out. Returns an exit code (the root prints the first error in order). */
int cli_dcfg_trace_team_folded(cli_ctx *ctx, const tk_dcfg_trace *t, const tk_cfg *cfg, int svg,
                               const cli_args *a, unsigned jobs, tk_output *out);

#endif
