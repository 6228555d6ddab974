/* convert --to callgrind and --to dot of one DCFG-Trace by a team (team.h, tracekit-mpi):
 * every member has read the trace's tables and the DCFG; each thread's chunks are split across
 * the members by their bytes (as report splits them), each member makes the partial of its
 * chunks on its -j decoding threads (tk_dcfg_trace_profile_range: what does not depend on the
 * stack the range starts on, and the edges that do, as ops), the partials are concatenated in
 * member order along the tree (one sequence of ops), and the root takes them on the thread's
 * true stack (tk_dcfg_trace_profile_replay), thread after thread: the profile tracekit makes.
 * (tk_dcfg_trace_profile_serialize, which appends the profiles of thread ranges, is the
 * library's other way, unit-tested.) */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"
#include "team.h"

int cli_dcfg_trace_own_chunks(const cli_team *team, const tk_dcfg_trace *t, size_t th,
                              size_t *begin, size_t *end)
{
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    int n = ti.nchunks > (size_t)INT32_MAX ? INT32_MAX : (int)ti.nchunks;
    int64_t *sizes = calloc((size_t)n + 1, sizeof *sizes);
    int *first = calloc((size_t)team->size + 1, sizeof *first);
    if (!sizes || !first) {
        free(sizes);
        free(first);
        return -1;
    }
    for (int c = 0; c < n; c++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, ti.first_chunk + (size_t)c, &ci);
        sizes[c] = (int64_t)ci.sequence_chars;
    }
    cli_team_split(team->size, n, sizes, first);
    *begin = ti.first_chunk + (size_t)first[team->rank];
    *end = ti.first_chunk + (size_t)first[team->rank + 1];
    free(sizes);
    free(first);
    return 0;
}

/* This member's partial of thread th: its chunks' range (empty without chunks), or failed
 * with the error (a tk_error, which the root prints). */
static void own_part(const cli_team *team, const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                     unsigned jobs, cli_dcfg_trace_range_fn range, cli_part_bytes *p)
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
        tk_status st = range(t, cfg, th, begin, end, &o, &data, &size, &err);
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

/* Thread th's partials reduced to the root, which replays them (unless an earlier thread
 * failed: *rc). Returns 0, or -1 when the reduction fails. */
static int team_thread(const cli_team *team, const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                       unsigned jobs, cli_dcfg_trace_range_fn range,
                       cli_dcfg_trace_replay_fn replay, void *arg, int *rc)
{
    cli_part_bytes p;
    own_part(team, t, cfg, th, jobs, range, &p);
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
        if (replay(arg, th, &data, &size, p.state == CLI_PART_DATA, &err) != TK_OK)
            *rc = cli_error(&err);
    }
    cli_part_free(&p);
    return 0;
}

int cli_dcfg_trace_team_threads(const cli_team *team, const tk_dcfg_trace *t, const tk_cfg *cfg,
                                unsigned jobs, cli_dcfg_trace_range_fn range,
                                cli_dcfg_trace_replay_fn replay, void *arg, int rc)
{
    /* every member takes its part in every thread's reduction (none waits for the root) */
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++)
        if (team_thread(team, t, cfg, th, jobs, range, replay, arg, &rc) != 0)
            rc = CLI_EXIT_BAD_INPUT;
    return rc;
}

typedef struct profile_replay {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    tk_profile *prof;
} profile_replay;

static tk_status replay_profile(void *arg, size_t th, const uint8_t *const *parts,
                                const size_t *sizes, size_t n, tk_error *err)
{
    profile_replay *r = arg;
    return tk_dcfg_trace_profile_replay(r->t, r->cfg, r->prof, th, parts, sizes, n, err);
}

int cli_dcfg_trace_team_profile(cli_ctx *ctx, const tk_dcfg_trace *t, const tk_cfg *cfg,
                                unsigned jobs, tk_profile **prof)
{
    const cli_team *team = ctx->team;
    *prof = NULL;
    int rc = CLI_EXIT_OK;
    tk_error err;
    tk_error_clear(&err);
    size_t ir;
    uint32_t unknown;
    /* the event and the file "???" first, as tk_dcfg_trace_to_profile makes them */
    if (team->rank == 0 && (tk_profile_open(prof, &err) != TK_OK ||
                            tk_profile_add_event(*prof, "Ir", 2, &ir, &err) != TK_OK ||
                            tk_profile_intern(*prof, "???", 3, &unknown, &err) != TK_OK))
        rc = cli_error(&err);
    profile_replay r = {t, cfg, *prof};
    rc = cli_dcfg_trace_team_threads(team, t, cfg, jobs, tk_dcfg_trace_profile_range,
                                     replay_profile, &r, rc);
    if (rc != CLI_EXIT_OK || team->rank != 0) {
        tk_profile_free(*prof);
        *prof = NULL;
    }
    return rc;
}
