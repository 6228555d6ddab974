/* convert --to callgrind and --to dot of one DCFG-Trace by a team (team.h, tracekit-mpi):
 * every member has read the trace's tables and the DCFG; the threads are split across the
 * members in contiguous ranges by their chunks' bytes (a thread's call stack is its own, so a
 * range of threads makes its parts alone), each member makes the profile of its threads
 * (tk_dcfg_trace_convert_options.thread_begin, thread_end) on its -j decoding threads, and the
 * profiles, serialised (tk_dcfg_trace_profile_serialize), are appended in member order along the
 * tree (tk_profile_append): the root has the profile tracekit makes of every thread. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"
#include "team.h"

static tk_status profile_read(void **out, const uint8_t *data, size_t size, tk_error *err)
{
    tk_profile *p = NULL;
    tk_status st = tk_dcfg_trace_profile_deserialize(&p, data, size, err);
    *out = p;
    return st;
}

static tk_status profile_merge(void *into, const void *later, tk_error *err)
{
    return tk_profile_append(into, later, err);
}

static tk_status profile_write(const void *p, uint8_t **data, size_t *size, tk_error *err)
{
    return tk_dcfg_trace_profile_serialize(p, data, size, err);
}

static void profile_free(void *p) { tk_profile_free(p); }

static const cli_part_kind profile_kind = {"DCFG-Trace profiles", profile_read, profile_merge,
                                           profile_write, profile_free};

/* This member's threads [begin, end): the split of the threads by their chunks' bytes. */
static int own_threads(const cli_team *team, const tk_dcfg_trace *t, size_t *begin, size_t *end)
{
    size_t nt = tk_dcfg_trace_thread_count(t);
    int n = nt > (size_t)INT32_MAX ? INT32_MAX : (int)nt;
    int64_t *sizes = calloc((size_t)n + 1, sizeof *sizes);
    int *first = calloc((size_t)team->size + 1, sizeof *first);
    if (!sizes || !first) {
        free(sizes);
        free(first);
        return -1;
    }
    for (int th = 0; th < n; th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, (size_t)th, &ti);
        for (size_t c = 0; c < ti.nchunks; c++) {
            tk_dcfg_trace_chunk_info ci;
            tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
            sizes[th] += (int64_t)ci.sequence_chars;
        }
    }
    cli_team_split(team->size, n, sizes, first);
    *begin = (size_t)first[team->rank];
    *end = (size_t)first[team->rank + 1];
    free(sizes);
    free(first);
    return 0;
}

/* This member's partial: the profile of its threads, or failed with the error of the first of
 * them that fails (a tk_error, which the root prints); empty without threads. */
static void own_part(const cli_team *team, const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned jobs,
                     cli_part_bytes *p)
{
    memset(p, 0, sizeof *p);
    tk_error err;
    tk_error_clear(&err);
    size_t begin, end;
    if (own_threads(team, t, &begin, &end) != 0) {
        tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    } else if (begin == end) {
        return;
    } else {
        tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
        o.threads = jobs;
        o.thread_begin = begin;
        o.thread_end = end;
        tk_profile *prof = NULL;
        uint8_t *data = NULL;
        size_t size = 0;
        tk_status st = tk_profile_open(&prof, &err);
        if (st == TK_OK) st = tk_dcfg_trace_to_profile(t, cfg, prof, &o, &err);
        if (st == TK_OK) st = tk_dcfg_trace_profile_serialize(prof, &data, &size, &err);
        tk_profile_free(prof);
        if (st == TK_OK && cli_part_take(data, size, p) == 0) return;
        if (st == TK_OK) tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    }
    tk_error *copy = malloc(sizeof *copy);
    if (copy) *copy = err;
    cli_part_set(p, CLI_PART_FAILED, (uint8_t *)copy, sizeof *copy);
}

int cli_dcfg_trace_team_profile(cli_ctx *ctx, const tk_dcfg_trace *t, const tk_cfg *cfg,
                                unsigned jobs, tk_profile **prof)
{
    const cli_team *team = ctx->team;
    *prof = NULL;
    cli_part_bytes p;
    own_part(team, t, cfg, jobs, &p);
    if (team->reduce(team, &p, cli_part_merge, (void *)&profile_kind) != 0) {
        cli_part_free(&p);
        return CLI_EXIT_BAD_INPUT;
    }
    int rc = CLI_EXIT_OK;
    tk_error err;
    tk_error_clear(&err);
    if (team->rank != 0) {
        rc = CLI_EXIT_OK;
    } else if (p.state == CLI_PART_FAILED && p.size == sizeof err) {
        memcpy(&err, p.data, sizeof err);
        rc = cli_error(&err);
    } else if (p.state == CLI_PART_FAILED) {
        tk_error_set(&err, TK_ERR_FORMAT, "%.*s", (int)p.size, (const char *)p.data);
        rc = cli_error(&err);
    } else if (p.state == CLI_PART_EMPTY) { /* a trace without threads */
        tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
        o.threads = jobs;
        if (tk_profile_open(prof, &err) != TK_OK ||
            tk_dcfg_trace_to_profile(t, cfg, *prof, &o, &err) != TK_OK)
            rc = cli_error(&err);
    } else if (tk_dcfg_trace_profile_deserialize(prof, p.data, p.size, &err) != TK_OK) {
        rc = cli_error(&err);
    }
    if (rc != CLI_EXIT_OK) {
        tk_profile_free(*prof);
        *prof = NULL;
    }
    cli_part_free(&p);
    return rc;
}
