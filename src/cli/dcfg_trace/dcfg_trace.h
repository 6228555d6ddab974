/* Helpers shared by the DCFG-Trace commands (fmt_dcfg_trace.c, cmd_decode.c,
 * cmd_encode.c). */
#ifndef TK_CLI_DCFG_TRACE_H
#define TK_CLI_DCFG_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "tracekit/cfg.h"
#include "tracekit/dcfg.h"
#include "tracekit/dcfg_trace.h"

/* Open a trace from a path; prints the error. Returns an exit code. */
int dtc_open_path(const char *path, int progress, tk_dcfg_trace **out);
/* Parse the handler's first input as a trace; errors go to diag when given
 * (check), else are printed. Returns an exit code. */
int dtc_open_ctx_trace(cli_ctx *ctx, tk_dcfg_trace **t, tk_diag *diag);
/* report and diff (dcfg_trace_report.c, dcfg_trace_diff.c). */
int dtc_run_report(cli_ctx *ctx, const cli_args *a);
int dtc_run_diff(cli_ctx *ctx, const cli_args *a);

/* Read the DCFG named by --dcfg (NULL *out when the option is absent). */
int dtc_load_dcfg(const cli_args *a, int progress, tk_cfg **out);
/* --jobs N (default: number of CPUs). */
int dtc_jobs(const char *cmd, const cli_args *a, unsigned *out);

/* convert --to bbv (dcfg_trace_bbv.c). Returns an exit code. */
typedef struct tk_output tk_output;
int dtc_convert_bbv(const tk_dcfg_trace *t, const tk_cfg *cfg, const cli_args *a, tk_output *out);

/* A buffered writer of decimal lines (fast path for big outputs). */
typedef struct dtc_writer {
    FILE *f;
    char buf[1 << 16];
    size_t n;
    int failed;
} dtc_writer;

void dtc_w_init(dtc_writer *w, FILE *f);
void dtc_w_u64(dtc_writer *w, uint64_t v);
void dtc_w_str(dtc_writer *w, const char *s);
void dtc_w_char(dtc_writer *w, char c);
int dtc_w_flush(dtc_writer *w);

extern const cli_format_ops cli_fmt_dcfg_trace;

int cmd_decode(int argc, char **argv);
void cmd_decode_help(FILE *f);
int cmd_encode(int argc, char **argv);
void cmd_encode_help(FILE *f);

#endif
