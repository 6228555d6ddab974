/* The XRay commands (src/cli/xray/): their handlers of the generic commands
 * (ops.c, one file each), instr-map, and what those files share (xray.c). */
#ifndef TK_CLI_XRAY_H
#define TK_CLI_XRAY_H

#include <stdio.h>

#include "cli.h"

/* Options several commands have. */
#define CLI_XRAY_MAP_OPT \
    { \
        "instr-map", 'm', "BIN", "instrumented binary: names functions from its xray_instr_map" \
    }
#define CLI_XRAY_THREAD_OPT \
    { \
        "thread", 0, "TID", "only this thread (the tid `info` lists; repeatable)" \
    }
#define CLI_XRAY_UNIT_OPT \
    { \
        "unit", 0, "U", "s|ms|us|ns: the unit of the times printed (default us)" \
    }
#define CLI_XRAY_MAX_THREADS 64

typedef struct cli_xray_session {
    tk_xray_map *map;
    tk_xray_reader *reader;
    tk_xray_events *events;
    tk_event_source src;
    /* --thread: src reads the trace through the filter */
    tk_event_thread_filter filter;
    int64_t tids[CLI_XRAY_MAX_THREADS];
} cli_xray_session;

/* Reader (+ events source) over input i, with the map of --instr-map when
 * with_map, through the --thread filter; release: a one-pass consumer of a big
 * file. Returns an exit code (the error printed). */
int cli_xray_session_open(cli_ctx *ctx, const cli_args *args, int i, int release, int with_map,
                          cli_xray_session *s);
void cli_xray_session_close(cli_xray_session *s);
/* The map of --instr-map (NULL without it). Returns an exit code. */
int cli_xray_open_map(const cli_args *args, tk_xray_map **map);
/* After reading: function ids the map does not have, on stderr. */
void cli_xray_warn_unknown_ids(const cli_xray_session *s, const char *path);
/* A trace cut short (partial mode): "tracekit: PATH: byte N: warning: ..." once the reader has
 * reached the end. Returns 1 when the trace was cut. */
int cli_xray_warn_truncation(const cli_xray_session *s, const char *path);
/* --unit (default us); -1 after a usage error. */
extern const cli_choice cli_xray_units[];
int cli_xray_unit(cli_ctx *ctx, const cli_args *args, tk_time_unit *unit);
/* --jobs (default: the number of CPUs, at most the number of inputs); -1 after a usage
 * error. */
int cli_xray_jobs(cli_ctx *ctx, const cli_args *args, unsigned *jobs);
/* --thread: the ids into tids (CLI_XRAY_MAX_THREADS), their number into *n. Returns an exit
 * code. */
int cli_xray_thread_ids(cli_ctx *ctx, const cli_args *args, int64_t *tids, size_t *n);
/* The same quietly: 0, or -1 where cli_xray_thread_ids says a usage error. */
int cli_xray_thread_ids_quiet(const cli_args *args, int64_t *tids, size_t *n);
/* Whether every input can be read again by its path (a regular file: not standard input or a
 * pipe), as a reading that failed quietly is done again to say what failed. */
int cli_xray_reopenable(const cli_ctx *ctx);

/* ---- several traces read at once (read.c): report's latency accounting ---------------
 * Each trace is read on its own (by one of `jobs` threads), its accounting merged into acc
 * in the order of the inputs, so the result is that of the traces chained
 * (tk_event_chain_init: the threads of each trace come after those of the traces before it)
 * whatever the number of jobs. At most `jobs` traces are being read at once. */
typedef struct cli_xray_part {
    tk_latency *l; /* until merged into acc */
    tk_latency_totals totals; /* this trace's (its warnings) */
    int cut; /* cut short at where.offset */
    tk_error where;
    uint64_t unknown; /* function ids the map lacks, the largest of them */
    uint32_t largest;
    double hz; /* the clock rate (0: none) */
    int emulated;
    tk_status st; /* reading failed: err */
    tk_error err;
    int done;
} cli_xray_part;

/* diff --format folded or svg (diff_stacks.c): the two traces' folded stacks side by side, or
 * with sets (A... --vs B...) each side's as convert --to folded makes those of its traces (on
 * --jobs threads), written as lines "stack A B" or their differential flame graph. Returns an
 * exit code. */
int cli_xray_diff_stacks(cli_ctx *ctx, const cli_args *args, int format, tk_folded_weight weight,
                         int sets);

/* ---- convert ----------------------------------------------------------------------- */

/* --to */
enum {
    CLI_XRAY_TO_CHROME,
    CLI_XRAY_TO_FOLDED,
    CLI_XRAY_TO_JSON,
    CLI_XRAY_TO_CALLGRIND,
    CLI_XRAY_TO_DOT,
    CLI_XRAY_TO_SVG
};

/* What convert's options ask of its target. */
typedef struct cli_xray_convert_how {
    int target; /* CLI_XRAY_TO_* */
    tk_folded_weight weight;
    tk_dot_options dot;
    unsigned jobs; /* -j */
} cli_xray_convert_how;

/* p (tk_events_profile's) written as a callgrind profile, or with dot non-NULL as a call
 * graph, its times in ns when the traces had a clock rate (ticks_per_second > 0). */
tk_status cli_xray_write_profile(const tk_profile *p, double ticks_per_second,
                                 const tk_dot_options *dot, FILE *f, tk_error *err);

/* convert --to json's writer into the stream f (convert_stream.c): a failed write is found when
 * the output is closed (cli_output_commit), as that of the text the command prints itself. */
int cli_xray_write_json_text(void *f, const void *data, size_t len);
#define CLI_XRAY_JSON_WRITER(f) (&(tk_writer){cli_xray_write_json_text, (f)})

/* convert --to chrome (chrome non-zero) or json of the n traces of s (opened), chained into
 * chain (tk_event_chain_init over their sources), to f: each trace's part made on one of jobs
 * threads (at most jobs + 1 parts in memory at once), written in the order of the traces; the
 * bytes and the error of the chain written as one stream. Returns an exit code. */
int cli_xray_convert_stream(int chrome, cli_xray_session *s, int n, unsigned jobs,
                            const tk_event_source *chain, FILE *f);

/* convert --to folded, svg, callgrind or dot in a team (convert_team.c): each member's traces
 * chained into a partial (folded stacks, or the events profile's), merged along the tree,
 * written by the root with each trace's warnings; alone (tracekit's convert of the traces
 * chained) runs on the root when anything failed. Returns an exit code. */
int cli_xray_convert_team(cli_ctx *ctx, const cli_args *args, const cli_xray_convert_how *how,
                          cli_run_fn alone);

/* ---- convert through partials (convert_partial.c): -j and tracekit-mpi ------------------ */

/* Whether the target is made of the events profile (callgrind, dot), else of the folded
 * stacks (folded, svg). */
int cli_xray_convert_profile(const cli_xray_convert_how *how);

/* What reading one trace found, for the warnings (copied between members as bytes). */
typedef struct cli_xray_found {
    int cut;
    int64_t offset;
    char message[TK_ERROR_MSG_MAX];
    uint64_t unknown;
    uint32_t largest;
    double ticks_per_second;
} cli_xray_found;

/* Input i opened as cli_xray_session_open opens it (one pass, a cut trace read to its cut,
 * through the --thread filter of tids), but quietly: 0, or -1 (tracekit's convert says what
 * failed, reading every trace itself). cli_xray_trace_close in any case. */
typedef struct cli_xray_trace {
    tk_xray_reader *reader;
    tk_xray_events *events;
    tk_event_thread_filter filter;
    tk_event_source src;
} cli_xray_trace;
int cli_xray_trace_open(cli_ctx *ctx, int i, const tk_xray_map *map, const int64_t *tids,
                        size_t ntids, cli_xray_trace *t);
/* After reading t: what it found into f. */
void cli_xray_trace_found(const cli_xray_trace *t, const tk_xray_map *map, cli_xray_found *f);
void cli_xray_trace_close(cli_xray_trace *t);

/* The partial of a target: one of the two set. */
typedef struct cli_xray_partial {
    tk_folded_partial *stacks;
    tk_events_profile_partial *profile;
} cli_xray_partial;
/* The partial of src read to its end, as how asks for it. 0 or -1 (cli_xray_partial_free in
 * any case). */
int cli_xray_partial_open(const tk_event_source *src, const cli_xray_convert_how *how,
                          int per_thread, cli_xray_partial *p);
void cli_xray_partial_free(cli_xray_partial *p);

/* The stacks or the profile of p (that of every trace), written as tracekit's convert writes
 * those of the traces chained, then the warnings of f[] (one per input) in the order of the
 * inputs. Returns an exit code, or -1 (the profile not made, nothing written: tracekit's
 * convert runs, which says why). */
int cli_xray_convert_write(cli_ctx *ctx, const cli_args *args, const tk_xray_map *map,
                           const cli_xray_convert_how *how, const cli_xray_partial *p,
                           const cli_xray_found *f);

/* -j: each trace read into its partial by one of how->jobs threads (at most that many traces
 * being read at once), the partials merged in the order of the inputs and written: the bytes of
 * tracekit's convert of the traces chained, with any number of jobs. Returns an exit code; -1
 * when a trace or a merge failed, nothing printed: the caller opens the inputs again and reads
 * the traces chained, which says what failed; -2 when nothing was read (an input that cannot
 * be read again by its path: standard input, a pipe; a bad --thread or map): the caller reads
 * them chained. */
int cli_xray_convert_jobs(cli_ctx *ctx, const cli_args *args, const cli_xray_convert_how *how);

/* Inputs [lo, hi) of ctx (opened), each read into its partial by one of how->jobs threads (at
 * most that many traces being read at once, each through the --thread filter of tids), the
 * partials merged in the order of the inputs into acc (that of those traces chained); what
 * each trace found into f[i]. The pool of -j and of a tracekit-mpi member's traces. 0, or -1
 * (a trace or a merge failed, acc freed: tracekit's convert says what). */
int cli_xray_read_partials(cli_ctx *ctx, int lo, int hi, const tk_xray_map *map,
                           const int64_t *tids, size_t ntids, const cli_xray_convert_how *how,
                           int per_thread, cli_xray_partial *acc, cli_xray_found *f);

typedef struct cli_xray_read {
    tk_xray_map *map;
    cli_xray_part *parts; /* one per input */
    tk_latency *acc; /* every trace's, merged */
    /* the reading */
    cli_ctx *ctx;
    int64_t tids[CLI_XRAY_MAX_THREADS];
    size_t ntids;
    int per_thread, next, merged;
    tk_status st; /* a merge failed: err */
    tk_error err;
    void *lock;
} cli_xray_read;

/* Read every input (errors printed, in the order of the inputs). Returns an exit code;
 * cli_xray_read_free in any case. */
int cli_xray_read_all(cli_ctx *ctx, const cli_args *args, int per_thread, unsigned jobs,
                      cli_xray_read *rd);
void cli_xray_read_free(cli_xray_read *rd);
/* A part's warnings, as cli_xray_warn_truncation and cli_xray_warn_unknown_ids. */
void cli_xray_part_warn_truncation(const cli_xray_part *p, const char *path);
void cli_xray_part_warn_unknown_ids(const cli_xray_part *p, const tk_xray_map *map,
                                    const char *path);
/* What reading a trace found (cli_xray_trace_found), warned about as those two warn: cut
 * short, then the ids the map lacks. */
void cli_xray_found_warn(const cli_xray_found *f, const tk_xray_map *map, const char *path);

/* A usage error unless there is one input. Returns an exit code. */
int cli_xray_single_input(cli_ctx *ctx);

/* The handlers and their options (info.c, check.c, report.c, convert.c, dump.c, diff.c). */
extern const cli_opt cli_xray_info_opts[], cli_xray_check_opts[], cli_xray_report_opts[],
    cli_xray_convert_opts[], cli_xray_dump_opts[], cli_xray_diff_opts[];
int cli_xray_info(cli_ctx *ctx, const cli_args *args);
int cli_xray_check(cli_ctx *ctx, const cli_args *args);
int cli_xray_report(cli_ctx *ctx, const cli_args *args);
int cli_xray_convert(cli_ctx *ctx, const cli_args *args);
int cli_xray_dump(cli_ctx *ctx, const cli_args *args);
int cli_xray_diff(cli_ctx *ctx, const cli_args *args);

/* The fixed values of their options (report.c, convert.c, diff.c, instr_map.c). */
extern const cli_opt_choices cli_xray_report_choices[], cli_xray_convert_choices[],
    cli_xray_diff_choices[], cli_xray_instr_map_choices[];

/* The table of them (ops.c). */
extern const cli_format_ops cli_xray_ops;

/* tracekit instr-map (instr_map.c). */
extern const cli_opt cli_xray_instr_map_opts[];
int cli_xray_instr_map(int argc, char **argv);
void cli_xray_instr_map_help(FILE *f);

#endif
