/* convert --to bbv: the basic-block vectors of a DCFG-Trace (tk_dcfg_trace_bbv) in
 * SimPoint's .bb format, "T:id:count :id:count ..." per slice (count = instructions
 * executed in the block during the slice), the threads one after the other in file order
 * (--pid/--thread select). With --loop-boundaries the region boundaries go to --markers
 * FILE, one line per boundary: "PID THREAD slice N ends at loop head BLOCK ADDRESS count C",
 * C being the number of executions of the head before the boundary. -j N decodes the chunks
 * on N threads; the slices are summed in order (tk_dcfg_trace_bbv_options.threads), so the
 * output, the markers and the errors are those of -j 1. In a team (tracekit-mpi) each thread's
 * chunks are split across the members (convert_bbv_team.c) and the root writes. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"
#include "team.h"

typedef struct bbv_out {
    cli_dcfg_trace_writer w;
    FILE *markers;
} bbv_out;

static int put_slice(void *ctx, const tk_dcfg_trace_bbv_slice *s)
{
    bbv_out *o = ctx;
    if (s->at_loop_head && o->markers)
        fprintf(o->markers, "%llu %llu slice %llu ends at loop head %u 0x%llx count %llu\n",
                (unsigned long long)s->pid, (unsigned long long)s->thread_id,
                (unsigned long long)s->index, s->head_id, (unsigned long long)s->head_addr,
                (unsigned long long)s->head_count);
    cli_dcfg_trace_put_char(&o->w, 'T');
    for (size_t i = 0; i < s->nentries; i++) {
        cli_dcfg_trace_put_str(&o->w, i ? " :" : ":");
        cli_dcfg_trace_put_u64(&o->w, s->entries[i].block_id);
        cli_dcfg_trace_put_char(&o->w, ':');
        cli_dcfg_trace_put_u64(&o->w, s->entries[i].instructions);
    }
    cli_dcfg_trace_put_char(&o->w, '\n');
    return o->w.failed;
}

/* --interval, --loop-boundaries, --pid and --thread into *opt. Returns an exit code. */
static int bbv_options(const cli_args *a, tk_dcfg_trace_bbv_options *opt)
{
    if (cli_get_u64("convert", a, "interval", 100000000, &opt->interval) != 0)
        return CLI_EXIT_USAGE;
    if (opt->interval == 0) return cli_usage_error("convert", "--interval must be at least 1");
    opt->loop_boundaries = cli_has(a, "loop-boundaries");
    opt->has_pid = cli_has(a, "pid");
    opt->has_thread = cli_has(a, "thread");
    if (cli_get_u64("convert", a, "thread", 0, &opt->thread_id) != 0 ||
        cli_get_u64("convert", a, "pid", 0, &opt->pid) != 0)
        return CLI_EXIT_USAGE;
    if (cli_get(a, "markers") && !opt->loop_boundaries)
        return cli_usage_error("convert", "--markers needs --loop-boundaries");
    return CLI_EXIT_OK;
}

int cli_dcfg_trace_convert_bbv(cli_ctx *ctx, const tk_dcfg_trace *t, const tk_cfg *cfg,
                               const cli_args *a, unsigned jobs, tk_output *out)
{
    tk_dcfg_trace_bbv_options opt = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    int rc = bbv_options(a, &opt);
    if (rc != CLI_EXIT_OK) return rc;
    opt.threads = jobs;
    bbv_out o;
    o.markers = NULL;
    const char *mpath = cli_team_writes(ctx) ? cli_get(a, "markers") : NULL;
    if (mpath && !(o.markers = fopen(mpath, "w"))) {
        fprintf(stderr, "tracekit: %s: cannot open for writing\n", mpath);
        rc = CLI_EXIT_BAD_INPUT;
    }
    /* in a team, every member stops with the root */
    if (ctx->team && ctx->team->max(ctx->team, &rc) != 0) rc = CLI_EXIT_BAD_INPUT;
    if (rc != CLI_EXIT_OK) {
        if (o.markers) fclose(o.markers);
        return rc;
    }
    cli_dcfg_trace_writer_init(&o.w, cli_output_file(out));
    tk_error err;
    tk_error_clear(&err);
    tk_status st = ctx->team ? cli_dcfg_trace_team_bbv(ctx->team, t, cfg, &opt, put_slice, &o, &err)
                             : tk_dcfg_trace_bbv(t, cfg, &opt, put_slice, &o, &err);
    if (st == TK_END) tk_error_set(&err, TK_ERR_IO, "cannot write the output");
    rc = st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
    if (cli_dcfg_trace_writer_flush(&o.w) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "tracekit: cannot write the output\n");
        rc = CLI_EXIT_BAD_INPUT;
    }
    if (o.markers && fclose(o.markers) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "tracekit: %s: cannot write\n", mpath);
        rc = CLI_EXIT_BAD_INPUT;
    }
    return rc;
}
