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
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"
#include "team.h"

/* This member's partial of thread th: its chunks' ops (empty without chunks), or failed with
 * the error (a tk_error, which the root prints). */
static void own_part(const cli_team *team, const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                     unsigned jobs, cli_part_bytes *p)
{
    memset(p, 0, sizeof *p);
    tk_error err;
    tk_error_clear(&err);
    size_t begin, end;
    if (cli_dcfg_trace_own_chunks(team, t, th, &begin, &end) != 0) {
        tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    } else if (begin == end) {
        return;
    } else {
        tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
        o.threads = jobs;
        uint8_t *data = NULL;
        size_t size = 0;
        tk_status st = tk_dcfg_trace_folded_range(t, cfg, th, begin, end, &o, &data, &size, &err);
        if (st == TK_OK && size == 0) {
            tk_free(data);
            return;
        }
        if (st == TK_OK && cli_part_take(data, size, p) == 0) return;
        if (st == TK_OK) tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    }
    tk_error *copy = malloc(sizeof *copy);
    if (copy) *copy = err;
    cli_part_set(p, CLI_PART_FAILED, (uint8_t *)copy, sizeof *copy);
}

/* Thread th's partials reduced to the root, which replays them into f (unless an earlier
 * thread failed: *rc). */
static int team_thread(const cli_team *team, const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                       unsigned jobs, tk_dcfg_trace_folded *f, int *rc)
{
    cli_part_bytes p;
    own_part(team, t, cfg, th, jobs, &p);
    if (team->reduce(team, &p, cli_part_concat, NULL) != 0) {
        cli_part_free(&p);
        return -1;
    }
    tk_error err;
    tk_error_clear(&err);
    if (team->rank != 0 || *rc != CLI_EXIT_OK) {
        /* nothing to replay */
    } else if (p.state == CLI_PART_FAILED && p.size == sizeof err) {
        memcpy(&err, p.data, sizeof err);
        *rc = cli_error(&err);
    } else if (p.state == CLI_PART_FAILED) {
        tk_error_set(&err, TK_ERR_FORMAT, "%.*s", (int)p.size, (const char *)p.data);
        *rc = cli_error(&err);
    } else {
        const uint8_t *data = p.data;
        size_t size = p.size;
        if (tk_dcfg_trace_folded_replay(f, th, &data, &size, p.state == CLI_PART_DATA, &err) !=
            TK_OK)
            *rc = cli_error(&err);
    }
    cli_part_free(&p);
    return 0;
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
    /* every member takes its part in every thread's reduction (none waits for the root) */
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++)
        if (team_thread(team, t, cfg, th, jobs, f, &rc) != 0) rc = CLI_EXIT_BAD_INPUT;
    if (rc == CLI_EXIT_OK && f && svg) {
        rc = cli_write_svg("convert", a, "instructions", folded_of, f, cli_output_file(out));
    } else if (rc == CLI_EXIT_OK && f) {
        if (tk_dcfg_trace_folded_write(f, CLI_WRITER(cli_output_file(out)), &err) != TK_OK)
            rc = cli_error(&err);
    }
    tk_dcfg_trace_folded_free(f);
    return rc;
}
