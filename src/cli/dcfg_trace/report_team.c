/* report of one DCFG-Trace by a team (team.h, tracekit-mpi): every member has read the trace's
 * tables; each thread's chunks are split across the members by their bytes, each member's
 * chunks give a partial report (tk_dcfg_trace_report chunk_begin/chunk_end), and the partials,
 * serialised (tk_dcfg_trace_report_serialize), are merged in chunk order along the tree. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"
#include "team.h"

CLI_PART_KIND(report_kind, "partial reports", tk_dcfg_trace_report, tk_dcfg_trace_report);

/* This member's partial of thread th: failed with the error of its first chunk that fails
 * (a tk_error, which the root prints). */
static void own_part(const cli_team *team, const tk_dcfg_trace *t, size_t th, unsigned jobs,
                     cli_part_bytes *p)
{
    memset(p, 0, sizeof *p);
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace_report_options o = TK_DCFG_TRACE_REPORT_OPTIONS_INIT;
    size_t begin, end;
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    if (cli_dcfg_trace_own_chunks(team, t, th, &begin, &end) != 0) {
        tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    } else if (begin == end) {
        return; /* none of this thread's chunks */
    } else {
        o.chunk_begin = begin - ti.first_chunk; /* among the thread's chunks */
        o.chunk_end = end - ti.first_chunk;
        o.threads = jobs;
        tk_dcfg_trace_report *r = NULL;
        uint8_t *data = NULL;
        size_t size = 0;
        tk_status st = tk_dcfg_trace_report_open(&r, t, th, &o, &err);
        if (st == TK_OK) st = tk_dcfg_trace_report_serialize(r, &data, &size, &err);
        tk_dcfg_trace_report_free(r);
        if (st == TK_OK && cli_part_take(data, size, p) == 0) return;
        if (st == TK_OK) tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    }
    tk_error *copy = malloc(sizeof *copy);
    if (copy) *copy = err;
    cli_part_set(p, CLI_PART_FAILED, (uint8_t *)copy, sizeof *copy);
}

int cli_dcfg_trace_team_report(cli_ctx *ctx, const tk_dcfg_trace *t, size_t th, unsigned jobs,
                               int say, tk_dcfg_trace_report **r)
{
    const cli_team *team = ctx->team;
    *r = NULL;
    cli_part_bytes p;
    own_part(team, t, th, jobs, &p);
    if (team->reduce(team, &p, cli_part_merge, (void *)&report_kind) != 0) {
        cli_part_free(&p);
        return CLI_EXIT_BAD_INPUT;
    }
    int rc = CLI_EXIT_OK;
    tk_error err;
    tk_error_clear(&err);
    if (team->rank != 0 || !say) {
        rc = CLI_EXIT_OK; /* nothing to print (a member, or the root after a failure) */
    } else if (p.state == CLI_PART_FAILED && p.size == sizeof err) {
        memcpy(&err, p.data, sizeof err);
        rc = cli_error(&err);
    } else if (p.state == CLI_PART_FAILED) {
        tk_error_set(&err, TK_ERR_FORMAT, "%.*s", (int)p.size, (const char *)p.data);
        rc = cli_error(&err);
    } else if (p.state == CLI_PART_EMPTY) { /* a thread without chunks */
        tk_dcfg_trace_report_options o = TK_DCFG_TRACE_REPORT_OPTIONS_INIT;
        o.threads = jobs;
        if (tk_dcfg_trace_report_open(r, t, th, &o, &err) != TK_OK) rc = cli_error(&err);
    } else if (tk_dcfg_trace_report_deserialize(r, p.data, p.size, &err) != TK_OK) {
        rc = cli_error(&err);
    }
    cli_part_free(&p);
    return rc;
}
