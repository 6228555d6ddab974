/* Several XRay traces read at once for report: each trace's latency accounting on one of
 * --jobs threads, merged in the order of the inputs (tk_latency_merge), so that the result is
 * the same with any number of jobs and that of the traces chained. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xray.h"

int cli_xray_jobs(cli_ctx *ctx, const cli_args *args, unsigned *jobs)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t n;
    if (cli_get_u64(ctx->command, args, "jobs", cpus > 0 ? (uint64_t)cpus : 1, &n) != 0)
        return -1;
    if (n == 0 || n > 256) {
        cli_usage_error(ctx->command, "--jobs must be 1..256");
        return -1;
    }
    *jobs = (unsigned)n;
    return 0;
}

int cli_xray_thread_ids(cli_ctx *ctx, const cli_args *args, int64_t *tids, size_t *n)
{
    const char *threads[CLI_XRAY_MAX_THREADS + 1];
    int count = cli_get_all(args, "thread", threads, CLI_XRAY_MAX_THREADS + 1);
    *n = 0;
    if (count > CLI_XRAY_MAX_THREADS)
        return cli_usage_error(ctx->command, "at most %d --thread options", CLI_XRAY_MAX_THREADS);
    for (int k = 0; k < count; k++) {
        int64_t v; /* decimal or 0x hex, with a sign (tracekit/num.h) */
        if (tk_parse_i64(threads[k], strlen(threads[k]), &v, NULL) != TK_OK)
            return cli_usage_error(ctx->command, "--thread wants a thread id, not '%s'",
                                   threads[k]);
        tids[k] = v;
    }
    *n = (size_t)count;
    return CLI_EXIT_OK;
}

/* Trace i's accounting into p (p->st and p->err on failure). */
static void read_trace(cli_xray_read *rd, int i, cli_xray_part *p)
{
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.release_pages = 1; /* one pass */
    opt.partial = 1;       /* a trace cut short gives what was recorded before the cut */
    tk_xray_reader *r = NULL;
    tk_xray_events *e = NULL;
    tk_error_clear(&p->err);
    p->st = tk_xray_open(&r, rd->ctx->inputs[i], &opt, &p->err);
    if (p->st == TK_OK)
        p->st = tk_xray_events_open(&e, r, rd->map, &p->err);
    if (p->st == TK_OK) {
        tk_event_source src, all;
        tk_event_thread_filter filter;
        tk_xray_events_source(e, &src);
        if (rd->ntids) {
            all = src;
            tk_event_only_threads(&filter, &all, rd->tids, rd->ntids, &src);
        }
        p->hz = src.ticks_per_second > 0 ? src.ticks_per_second : 0;
        p->emulated = tk_xray_emulated_tsc(tk_xray_get_header(r));
        p->st = tk_latency_open(&p->l, rd->per_thread, &p->err);
        if (p->st == TK_OK)
            p->st = tk_latency_run(p->l, &src, &p->err);
    }
    if (p->st == TK_OK) {
        tk_latency_get_totals(p->l, &p->totals);
        tk_error_clear(&p->where);
        p->cut = tk_xray_truncation(r, &p->where);
        p->unknown = rd->map ? tk_xray_events_unknown_ids(e, &p->largest) : 0;
    } else {
        tk_latency_free(p->l);
        p->l = NULL;
    }
    tk_xray_events_free(e);
    tk_xray_free(r);
}

/* Merge the parts read, in order, as far as they are done (under the lock). */
static void merge_ready(cli_xray_read *rd)
{
    while (rd->merged < rd->ctx->ninputs && rd->parts[rd->merged].done) {
        cli_xray_part *p = &rd->parts[rd->merged++];
        if (!p->l || rd->st != TK_OK)
            continue;
        if (!rd->acc) {
            rd->acc = p->l;
        } else {
            rd->st = tk_latency_merge(rd->acc, p->l, &rd->err);
            tk_latency_free(p->l);
        }
        p->l = NULL;
    }
}

static void *worker(void *arg)
{
    cli_xray_read *rd = arg;
    pthread_mutex_t *lock = rd->lock;
    for (;;) {
        pthread_mutex_lock(lock);
        int i = rd->next < rd->ctx->ninputs ? rd->next++ : -1;
        pthread_mutex_unlock(lock);
        if (i < 0)
            return NULL;
        read_trace(rd, i, &rd->parts[i]);
        pthread_mutex_lock(lock);
        rd->parts[i].done = 1;
        merge_ready(rd);
        pthread_mutex_unlock(lock);
    }
}

/* Run the workers (this thread is one of them). */
static void run_workers(cli_xray_read *rd, unsigned jobs)
{
    pthread_t th[256];
    unsigned started = 0;
    if (jobs > (unsigned)rd->ctx->ninputs)
        jobs = (unsigned)rd->ctx->ninputs;
    for (unsigned k = 1; k < jobs; k++)
        if (pthread_create(&th[started], NULL, worker, rd) == 0)
            started++;
    worker(rd);
    for (unsigned k = 0; k < started; k++)
        pthread_join(th[k], NULL);
}

/* The errors of the traces, in order; then whether their clocks agree. Returns an exit code. */
static int check_parts(cli_xray_read *rd)
{
    int rc = CLI_EXIT_OK;
    for (int k = 0; k < rd->ctx->ninputs; k++)
        if (rd->parts[k].st != TK_OK)
            rc = cli_error(&rd->parts[k].err);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (rd->st != TK_OK)
        return cli_error(&rd->err);
    for (int k = 1; k < rd->ctx->ninputs; k++) {
        if (rd->parts[k].hz != rd->parts[0].hz || rd->parts[k].emulated != rd->parts[0].emulated) {
            fprintf(stderr, "tracekit: %s: error: its clock (%.0f ticks per second%s) is not "
                    "that of %s (%.0f%s): only traces of one clock are merged\n",
                    rd->ctx->paths[k], rd->parts[k].hz, rd->parts[k].emulated ? ", emulated" : "",
                    rd->ctx->paths[0], rd->parts[0].hz, rd->parts[0].emulated ? ", emulated" : "");
            return CLI_EXIT_BAD_INPUT;
        }
    }
    return CLI_EXIT_OK;
}

int cli_xray_read_all(cli_ctx *ctx, const cli_args *args, int per_thread, unsigned jobs,
                      cli_xray_read *rd)
{
    memset(rd, 0, sizeof *rd);
    rd->ctx = ctx;
    rd->per_thread = per_thread;
    int rc = cli_xray_thread_ids(ctx, args, rd->tids, &rd->ntids);
    if (rc == CLI_EXIT_OK)
        rc = cli_xray_open_map(args, &rd->map);
    if (rc != CLI_EXIT_OK)
        return rc;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    rd->lock = &lock;
    rd->parts = calloc((size_t)ctx->ninputs, sizeof *rd->parts);
    if (!rd->parts) {
        fprintf(stderr, "tracekit: error: out of memory\n");
        return CLI_EXIT_BAD_INPUT;
    }
    run_workers(rd, jobs);
    return check_parts(rd);
}

void cli_xray_read_free(cli_xray_read *rd)
{
    if (rd->parts)
        for (int k = 0; k < rd->ctx->ninputs; k++)
            tk_latency_free(rd->parts[k].l);
    free(rd->parts);
    tk_latency_free(rd->acc);
    tk_xray_map_free(rd->map);
    memset(rd, 0, sizeof *rd);
}

void cli_xray_part_warn_truncation(const cli_xray_part *p, const char *path)
{
    if (!p->cut)
        return;
    char buf[TK_ERROR_MSG_MAX + TK_ERROR_PATH_MAX + 128];
    tk_location loc = {path, p->where.offset, 0, 0};
    fflush(stdout);
    fprintf(stderr, "tracekit: %s; the results cover the records before this byte\n",
            tk_diag_format(TK_SEV_WARNING, &loc, p->where.message, buf, sizeof buf));
}

void cli_xray_part_warn_unknown_ids(const cli_xray_part *p, const tk_xray_map *map,
                                    const char *path)
{
    if (p->unknown)
        fprintf(stderr, "tracekit: %s: warning: %" PRIu64 " function id%s (up to %" PRIu32
                ") %s not in the instrumentation map, which has %" PRIu32 " function%s; "
                "does the binary match the trace?\n", path, p->unknown, cli_s(p->unknown),
                p->largest, p->unknown == 1 ? "is" : "are", tk_xray_map_count(map),
                cli_s(tk_xray_map_count(map)));
}
