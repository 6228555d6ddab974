/* The XRay commands (src/cli/xray/): their handlers of the generic commands
 * (ops.c, one file each), instr-map, and what those files share (xray.c). */
#ifndef TK_CLI_XRAY_H
#define TK_CLI_XRAY_H

#include <stdio.h>

#include "cli.h"

/* Options several commands have. */
#define CLI_XRAY_MAP_OPT \
    {"instr-map", 'm', "BIN", "instrumented binary: names functions from its xray_instr_map"}
#define CLI_XRAY_THREAD_OPT \
    {"thread", 0, "TID", "only this thread (the tid `info` lists; repeatable)"}
#define CLI_XRAY_UNIT_OPT \
    {"unit", 0, "U", "s|ms|us|ns: the unit of the times printed (default us)"}
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
