/* convert --to folded and --to svg of one DCFG-Trace by a team (team.h, tracekit-mpi): every
 * member has read the trace's tables and the DCFG; each thread's chunks are split across the
 * members by their bytes (as report and convert --to callgrind split them), each member makes
 * the partial of its chunks on its -j decoding threads (tk_dcfg_trace_folded_range: the edges
 * that depend on the stack the range starts on as ops, each stretch above a frame a call in
 * the range opened as its call paths relative to that frame), the partials are concatenated in
 * member order along the tree (one sequence of ops), and the root takes them on the thread's
 * true stack (tk_dcfg_trace_folded_replay), thread after thread, then writes the folded stacks
 * or their flame graph: tracekit's bytes and errors (docs/mpi.md, "DCFG-Trace folded
 * stacks"). */
#include "dcfg_trace.h"
#include "team.h"

static tk_status replay_folded(void *arg, size_t th, const uint8_t *const *parts,
                               const size_t *sizes, size_t n, tk_error *err)
{
    return tk_dcfg_trace_folded_replay(arg, th, parts, sizes, n, err);
}

static tk_status folded_of(void *job, FILE *f, tk_error *err)
{
    return tk_dcfg_trace_folded_write(job, CLI_WRITER(f), err);
}

int cli_dcfg_trace_team_folded(cli_ctx *ctx, const tk_dcfg_trace *t, const tk_cfg *cfg, int svg,
                               const cli_args *a, unsigned jobs, tk_output *out)
{
    const cli_team *team = ctx->team;
    tk_flame_options fo;
    int rc = CLI_EXIT_OK;
    /* a usage error of the flame graph's options before anything is read, as tracekit says it */
    if (svg && (rc = cli_flame_options("convert", a, "instructions", &fo)) != CLI_EXIT_OK)
        return rc;
    tk_dcfg_trace_folded *f = NULL;
    tk_error err;
    tk_error_clear(&err);
    if (team->rank == 0 &&
        tk_dcfg_trace_folded_open(&f, t, cfg, cli_has(a, "per-thread"), &err) != TK_OK)
        rc = cli_error(&err);
    rc = cli_dcfg_trace_team_threads(team, t, cfg, jobs, tk_dcfg_trace_folded_range, replay_folded,
                                     f, rc);
    if (rc == CLI_EXIT_OK && f && svg) {
        rc = cli_write_svg("convert", a, "instructions", folded_of, f, cli_output_file(out));
    } else if (rc == CLI_EXIT_OK && f) {
        if (tk_dcfg_trace_folded_write(f, CLI_WRITER(cli_output_file(out)), &err) != TK_OK)
            rc = cli_error(&err);
    }
    tk_dcfg_trace_folded_free(f);
    return rc;
}
