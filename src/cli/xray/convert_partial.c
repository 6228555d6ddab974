/* convert --to folded, svg, callgrind and dot of several XRay traces through partials: what
 * tracekit's -j (several traces read at once on threads) and tracekit-mpi (convert_team.c)
 * share. Each trace, or each member's traces chained, is read into the partial of the target
 * (the folded stacks, tk_folded_partial, or the events profile, tk_events_profile_partial),
 * the partials merged in the order of the inputs into that of every trace chained, which is
 * written with each trace's warnings (cut short, ids the map lacks) in that order. Whatever
 * fails, the caller runs tracekit's convert of the traces chained, which says what failed. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "xray.h"

int cli_xray_convert_profile(const cli_xray_convert_how *how)
{
    return how->target == CLI_XRAY_TO_CALLGRIND || how->target == CLI_XRAY_TO_DOT;
}

int cli_xray_trace_open(cli_ctx *ctx, int i, const tk_xray_map *map, const int64_t *tids,
                        size_t ntids, cli_xray_trace *t)
{
    memset(t, 0, sizeof *t);
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.release_pages = 1; /* one pass */
    opt.partial = 1; /* a trace cut short gives what was recorded before the cut */
    if (!ctx->inputs[i] || tk_xray_open(&t->reader, ctx->inputs[i], &opt, NULL) != TK_OK ||
        tk_xray_events_open(&t->events, t->reader, map, NULL) != TK_OK)
        return -1;
    tk_xray_events_source(t->events, &t->src);
    if (ntids) {
        tk_event_source all = t->src;
        tk_event_only_threads(&t->filter, &all, tids, ntids, &t->src);
    }
    return 0;
}

void cli_xray_trace_found(const cli_xray_trace *t, const tk_xray_map *map, cli_xray_found *f)
{
    tk_error where;
    tk_error_clear(&where);
    f->cut = tk_xray_truncation(t->reader, &where);
    f->offset = where.offset;
    snprintf(f->message, sizeof f->message, "%s", where.message);
    f->unknown = map ? tk_xray_events_unknown_ids(t->events, &f->largest) : 0;
    f->ticks_per_second = t->src.ticks_per_second;
}

void cli_xray_trace_close(cli_xray_trace *t)
{
    tk_xray_events_free(t->events);
    tk_xray_free(t->reader);
    memset(t, 0, sizeof *t);
}

int cli_xray_partial_open(const tk_event_source *src, const cli_xray_convert_how *how,
                          int per_thread, cli_xray_partial *p)
{
    memset(p, 0, sizeof *p);
    tk_status st = cli_xray_convert_profile(how)
                       ? tk_events_profile_partial_open(&p->profile, src, per_thread, NULL)
                       : tk_folded_partial_open(&p->stacks, src, how->weight, per_thread, NULL);
    return st == TK_OK ? 0 : -1;
}

/* later merged into into (later freed in any case). 0 or -1. */
static int partial_merge(cli_xray_partial *into, cli_xray_partial *later)
{
    tk_status st = into->profile
                       ? tk_events_profile_partial_merge(into->profile, later->profile, NULL)
                       : tk_folded_partial_merge(into->stacks, later->stacks, NULL);
    cli_xray_partial_free(later);
    return st == TK_OK ? 0 : -1;
}

void cli_xray_partial_free(cli_xray_partial *p)
{
    tk_folded_partial_free(p->stacks);
    tk_events_profile_partial_free(p->profile);
    memset(p, 0, sizeof *p);
}

static tk_status folded_of_partial(void *job, FILE *f, tk_error *err)
{
    return tk_folded_partial_write(job, CLI_WRITER(f), err);
}

/* The stacks (folded, or their flame graph) of p into out. Returns an exit code. */
static int write_folded(cli_ctx *ctx, const cli_args *args, const cli_xray_convert_how *how,
                        tk_folded_partial *p, const cli_xray_found *f, tk_output *out)
{
    if (how->target == CLI_XRAY_TO_SVG) {
        const char *unit = how->weight == TK_FOLDED_CALLS ? "calls"
                           : f[0].ticks_per_second > 0    ? "ns"
                                                          : "ticks";
        return cli_write_svg(ctx->command, args, unit, folded_of_partial, p, cli_output_file(out));
    }
    tk_error err;
    tk_error_clear(&err);
    return tk_folded_partial_write(p, CLI_WRITER(cli_output_file(out)), &err) == TK_OK
               ? CLI_EXIT_OK
               : cli_error(&err);
}

/* The stacks or the profile into -o's file (or standard output). Returns an exit code. */
static int write_output(cli_ctx *ctx, const cli_args *args, const cli_xray_convert_how *how,
                        const cli_xray_partial *p, const tk_profile *prof, const cli_xray_found *f)
{
    tk_output *out = NULL;
    int rc = cli_output_open(args, 0, &out);
    if (rc == CLI_EXIT_OK && prof) {
        tk_error err;
        tk_error_clear(&err);
        const tk_dot_options *dot = how->target == CLI_XRAY_TO_DOT ? &how->dot : NULL;
        if (cli_xray_write_profile(prof, f[0].ticks_per_second, dot, cli_output_file(out), &err) !=
            TK_OK)
            rc = cli_error(&err);
    } else if (rc == CLI_EXIT_OK) {
        rc = write_folded(ctx, args, how, p->stacks, f, out);
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_output_commit(out);
    else if (out)
        cli_output_abort(out);
    return rc;
}

int cli_xray_convert_write(cli_ctx *ctx, const cli_args *args, const tk_xray_map *map,
                           const cli_xray_convert_how *how, const cli_xray_partial *p,
                           const cli_xray_found *f)
{
    tk_profile *prof = NULL;
    if (p->profile && tk_events_profile_partial_profile(p->profile, cli_get(args, "instr-map"),
                                                        &prof, NULL) != TK_OK)
        return -1;
    if (!p->profile && !p->stacks) return -1;
    int rc = prof && how->target == CLI_XRAY_TO_CALLGRIND && cli_has(args, "per-thread")
                 ? cli_write_callgrind_parts(ctx->command, args, prof, 0) /* OUT-01, ... */
                 : write_output(ctx, args, how, p, prof, f);
    tk_profile_free(prof);
    if (rc != CLI_EXIT_OK) return rc;
    for (int k = 0; k < ctx->ninputs; k++) cli_xray_found_warn(&f[k], map, ctx->paths[k]);
    return CLI_EXIT_OK;
}

/* ---- -j: the traces read on threads ------------------------------------------------------ */

typedef struct job {
    cli_xray_partial p; /* until merged */
    int failed, done;
} job;

typedef struct jobs_read {
    cli_ctx *ctx;
    int lo, hi; /* the inputs read */
    const cli_xray_convert_how *how;
    int per_thread;
    const tk_xray_map *map;
    const int64_t *tids;
    size_t ntids;
    job *jobs; /* jobs[i - lo] */
    cli_xray_found *found; /* found[i] */
    int next, merged, failed;
    cli_xray_partial *acc; /* the traces merged so far */
    pthread_mutex_t lock;
} jobs_read;

/* Trace i into its partial and what it found. */
static void read_one(jobs_read *rd, int i)
{
    cli_xray_trace t;
    job *j = &rd->jobs[i - rd->lo];
    j->failed = cli_xray_trace_open(rd->ctx, i, rd->map, rd->tids, rd->ntids, &t) != 0 ||
                cli_xray_partial_open(&t.src, rd->how, rd->per_thread, &j->p) != 0;
    if (!j->failed) cli_xray_trace_found(&t, rd->map, &rd->found[i]);
    cli_xray_trace_close(&t);
}

/* Merge the partials read, in order, as far as they are done (under the lock). */
static void merge_ready(jobs_read *rd)
{
    while (rd->merged < rd->hi && rd->jobs[rd->merged - rd->lo].done) {
        job *j = &rd->jobs[rd->merged++ - rd->lo];
        if (rd->failed || j->failed) {
            rd->failed = 1;
            cli_xray_partial_free(&j->p);
        } else if (!rd->acc->stacks && !rd->acc->profile) {
            *rd->acc = j->p;
            memset(&j->p, 0, sizeof j->p);
        } else if (partial_merge(rd->acc, &j->p) != 0) {
            rd->failed = 1;
        }
    }
}

static void *worker(void *arg)
{
    jobs_read *rd = arg;
    for (;;) {
        pthread_mutex_lock(&rd->lock);
        int i = !rd->failed && rd->next < rd->hi ? rd->next++ : -1;
        pthread_mutex_unlock(&rd->lock);
        if (i < 0) return NULL;
        read_one(rd, i);
        pthread_mutex_lock(&rd->lock);
        rd->jobs[i - rd->lo].done = 1;
        merge_ready(rd);
        pthread_mutex_unlock(&rd->lock);
    }
}

/* The workers, this thread one of them. */
static void run_workers(jobs_read *rd, unsigned jobs)
{
    pthread_t th[256];
    unsigned started = 0;
    if (jobs > (unsigned)(rd->hi - rd->lo)) jobs = (unsigned)(rd->hi - rd->lo);
    for (unsigned k = 1; k < jobs && k <= 256; k++)
        if (pthread_create(&th[started], NULL, worker, rd) == 0) started++;
    worker(rd);
    for (unsigned k = 0; k < started; k++) pthread_join(th[k], NULL);
}

int cli_xray_read_partials(cli_ctx *ctx, int lo, int hi, const tk_xray_map *map,
                           const int64_t *tids, size_t ntids, const cli_xray_convert_how *how,
                           int per_thread, cli_xray_partial *acc, cli_xray_found *f)
{
    memset(acc, 0, sizeof *acc);
    if (hi <= lo) return 0;
    jobs_read rd;
    memset(&rd, 0, sizeof rd);
    rd.ctx = ctx;
    rd.lo = lo;
    rd.hi = hi;
    rd.how = how;
    rd.per_thread = per_thread;
    rd.map = map;
    rd.tids = tids;
    rd.ntids = ntids;
    rd.found = f;
    rd.next = rd.merged = lo;
    rd.acc = acc;
    rd.jobs = calloc((size_t)(hi - lo), sizeof *rd.jobs);
    int rc = -1;
    if (rd.jobs && pthread_mutex_init(&rd.lock, NULL) == 0) {
        run_workers(&rd, how->jobs);
        pthread_mutex_destroy(&rd.lock);
        if (!rd.failed && rd.merged == hi) rc = 0;
    }
    for (int k = 0; rd.jobs && k < hi - lo; k++) cli_xray_partial_free(&rd.jobs[k].p);
    free(rd.jobs);
    if (rc != 0) cli_xray_partial_free(acc);
    return rc;
}

int cli_xray_convert_jobs(cli_ctx *ctx, const cli_args *args, const cli_xray_convert_how *how)
{
    if (!cli_xray_reopenable(ctx)) return -2;
    int64_t tids[CLI_XRAY_MAX_THREADS];
    size_t ntids = 0;
    tk_xray_map *map = NULL;
    const char *bin = cli_get(args, "instr-map");
    if (cli_xray_thread_ids_quiet(args, tids, &ntids) != 0 ||
        (bin && tk_xray_map_read(&map, bin, NULL) != TK_OK))
        return -2;
    int per_thread = cli_has(args, "per-thread") && how->target != CLI_XRAY_TO_DOT;
    cli_xray_found *found = calloc((size_t)ctx->ninputs, sizeof *found);
    cli_xray_partial acc;
    memset(&acc, 0, sizeof acc);
    int rc = -1;
    if (found && cli_xray_read_partials(ctx, 0, ctx->ninputs, map, tids, ntids, how, per_thread,
                                        &acc, found) == 0)
        rc = cli_xray_convert_write(ctx, args, map, how, &acc, found);
    cli_xray_partial_free(&acc);
    free(found);
    tk_xray_map_free(map);
    return rc;
}
