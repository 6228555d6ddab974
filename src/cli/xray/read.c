/* Several XRay traces read at once for report: each trace's latency accounting on one of
 * --jobs threads, merged in the order of the inputs (tk_latency_merge), so that the result is
 * the same with any number of jobs and that of the traces chained. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "team.h"
#include "xray.h"

int cli_xray_jobs(cli_ctx *ctx, const cli_args *args, unsigned *jobs)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t n;
    if (cli_get_u64(ctx->command, args, "jobs", cpus > 0 ? (uint64_t)cpus : 1, &n) != 0) return -1;
    if (n == 0 || n > 256) {
        cli_usage_error(ctx->command, "--jobs must be 1..256");
        return -1;
    }
    *jobs = (unsigned)n;
    return 0;
}

/* --thread's ids; command NULL: quietly (-1 for what would be a usage error). */
static int thread_ids(const char *command, const cli_args *args, int64_t *tids, size_t *n)
{
    const char *threads[CLI_XRAY_MAX_THREADS + 1];
    int count = cli_get_all(args, "thread", threads, CLI_XRAY_MAX_THREADS + 1);
    *n = 0;
    if (count > CLI_XRAY_MAX_THREADS)
        return command
                   ? cli_usage_error(command, "at most %d --thread options", CLI_XRAY_MAX_THREADS)
                   : -1;
    for (int k = 0; k < count; k++) {
        int64_t v; /* decimal or 0x hex, with a sign (tracekit/num.h) */
        if (tk_parse_i64(threads[k], strlen(threads[k]), &v, NULL) != TK_OK)
            return command ? cli_usage_error(command, "--thread wants a thread id, not '%s'",
                                             threads[k])
                           : -1;
        tids[k] = v;
    }
    *n = (size_t)count;
    return CLI_EXIT_OK;
}

int cli_xray_thread_ids(cli_ctx *ctx, const cli_args *args, int64_t *tids, size_t *n)
{
    return thread_ids(ctx->command, args, tids, n);
}

int cli_xray_thread_ids_quiet(const cli_args *args, int64_t *tids, size_t *n)
{
    return thread_ids(NULL, args, tids, n);
}

int cli_xray_reopenable(const cli_ctx *ctx)
{
    for (int k = 0; k < ctx->ninputs; k++) {
        struct stat st;
        if (strcmp(ctx->paths[k], "-") == 0 || stat(ctx->paths[k], &st) != 0 ||
            !S_ISREG(st.st_mode))
            return 0;
    }
    return 1;
}

/* Trace i's accounting into p (p->st and p->err on failure). */
static void read_trace(cli_xray_read *rd, int i, cli_xray_part *p)
{
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.release_pages = 1; /* one pass */
    opt.partial = 1; /* a trace cut short gives what was recorded before the cut */
    tk_xray_reader *r = NULL;
    tk_xray_events *e = NULL;
    tk_error_clear(&p->err);
    p->st = tk_xray_open(&r, rd->ctx->inputs[i], &opt, &p->err);
    if (p->st == TK_OK) p->st = tk_xray_events_open(&e, r, rd->map, &p->err);
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
        if (p->st == TK_OK) p->st = tk_latency_run(p->l, &src, &p->err);
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
    while (rd->merged < rd->ctx->hi && rd->parts[rd->merged].done) {
        cli_xray_part *p = &rd->parts[rd->merged++];
        if (!p->l || rd->st != TK_OK) continue;
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
        int i = rd->next < rd->ctx->hi ? rd->next++ : -1;
        pthread_mutex_unlock(lock);
        if (i < 0) return NULL;
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
    unsigned own = (unsigned)(rd->ctx->hi - rd->ctx->lo);
    if (jobs > own) jobs = own ? own : 1;
    for (unsigned k = 1; k < jobs; k++)
        if (pthread_create(&th[started], NULL, worker, rd) == 0) started++;
    worker(rd);
    for (unsigned k = 0; k < started; k++) pthread_join(th[k], NULL);
}

/* The errors of the traces, in order; then whether their clocks agree. Returns an exit code. */
static int check_parts(cli_xray_read *rd)
{
    int rc = CLI_EXIT_OK;
    for (int k = 0; k < rd->ctx->ninputs; k++)
        if (rd->parts[k].st != TK_OK) rc = cli_error(&rd->parts[k].err);
    if (rc != CLI_EXIT_OK) return rc;
    if (rd->st != TK_OK) return cli_error(&rd->err);
    for (int k = 1; k < rd->ctx->ninputs; k++) {
        if (rd->parts[k].hz != rd->parts[0].hz || rd->parts[k].emulated != rd->parts[0].emulated) {
            fprintf(stderr,
                    "tracekit: %s: error: its clock (%.0f ticks per second%s) is not "
                    "that of %s (%.0f%s): only traces of one clock are merged\n",
                    rd->ctx->paths[k], rd->parts[k].hz, rd->parts[k].emulated ? ", emulated" : "",
                    rd->ctx->paths[0], rd->parts[0].hz, rd->parts[0].emulated ? ", emulated" : "");
            return CLI_EXIT_BAD_INPUT;
        }
    }
    return CLI_EXIT_OK;
}

/* ---- in a team (tracekit-mpi): the parts to the root, the accountings merged --------------- */

/* Serialised accountings as one (team.h's cli_merge_fn): each read, merged in order into the
 * first, which is serialised once. */
static int merge_bytes(void *arg, cli_part_bytes *parts, size_t n, char *msg)
{
    (void)arg;
    tk_error err;
    tk_error_clear(&err);
    tk_latency *a = NULL;
    uint8_t *data = NULL;
    size_t size = 0;
    tk_status st = tk_latency_deserialize(&a, parts[0].data, parts[0].size, UINT64_MAX, &err);
    for (size_t k = 1; k < n && st == TK_OK; k++) {
        tk_latency *b = NULL;
        st = tk_latency_deserialize(&b, parts[k].data, parts[k].size, UINT64_MAX, &err);
        if (st == TK_OK) st = tk_latency_merge(a, b, &err);
        tk_latency_free(b);
        cli_part_free(&parts[k]);
    }
    if (st == TK_OK) st = tk_latency_serialize(a, &data, &size, &err);
    tk_latency_free(a);
    uint8_t *copy = st == TK_OK && size ? malloc(size) : NULL; /* tk_free's block to malloc's */
    if (st != TK_OK || (size && !copy)) {
        tk_free(data);
        snprintf(msg, CLI_TEAM_MSG, "merging latency partials: %.480s",
                 st != TK_OK ? err.message : "out of memory");
        return -1;
    }
    if (size) memcpy(copy, data, size);
    tk_free(data);
    cli_part_free(&parts[0]);
    cli_part_set(&parts[0], CLI_PART_DATA, copy, size);
    return 0;
}

/* This member's accounting as bytes to send: failed when one of its traces or merges did. */
static void own_bytes(cli_xray_read *rd, cli_part_bytes *p)
{
    memset(p, 0, sizeof *p);
    for (int k = rd->ctx->lo; k < rd->ctx->hi; k++)
        if (rd->parts[k].st != TK_OK) {
            cli_part_fail(p, NULL); /* the root prints the part's error */
            return;
        }
    tk_error err;
    tk_error_clear(&err);
    uint8_t *data = NULL;
    size_t size = 0;
    tk_status st = rd->st;
    if (st != TK_OK) {
        cli_part_fail(p, rd->err.message);
        return;
    }
    if (!rd->acc) return;
    st = tk_latency_serialize(rd->acc, &data, &size, &err);
    uint8_t *copy = st == TK_OK && size ? malloc(size) : NULL;
    if (st != TK_OK || (size && !copy))
        cli_part_fail(p, st != TK_OK ? err.message : "out of memory");
    else {
        if (size) memcpy(copy, data, size);
        cli_part_set(p, CLI_PART_DATA, copy, size);
    }
    tk_free(data);
}

/* The parts (what each trace's reading found) to the root, the accountings reduced into the
 * root's acc. Returns an exit code (the same on every member). */
static int team_merge(cli_xray_read *rd)
{
    const cli_team *t = rd->ctx->team;
    for (int k = 0; k < rd->ctx->ninputs; k++) { /* the parts travel without their pointer */
        tk_latency_free(rd->parts[k].l);
        rd->parts[k].l = NULL;
    }
    cli_part_bytes p;
    own_bytes(rd, &p);
    tk_latency_free(rd->acc);
    rd->acc = NULL;
    if (t->gather(t, rd->parts, sizeof *rd->parts, rd->ctx->lo, rd->ctx->hi) != 0 ||
        t->reduce(t, &p, merge_bytes, rd) != 0) {
        cli_part_free(&p);
        return CLI_EXIT_BAD_INPUT;
    }
    rd->st = TK_OK;
    if (p.state == CLI_PART_FAILED && p.size) {
        tk_error_set(&rd->err, TK_ERR_FORMAT, "%.*s", (int)p.size, (const char *)p.data);
        rd->st = TK_ERR_FORMAT;
    } else if (p.state == CLI_PART_DATA) {
        rd->st = tk_latency_deserialize(&rd->acc, p.data, p.size, UINT64_MAX, &rd->err);
    }
    cli_part_free(&p);
    return CLI_EXIT_OK;
}

int cli_xray_read_all(cli_ctx *ctx, const cli_args *args, int per_thread, unsigned jobs,
                      cli_xray_read *rd)
{
    memset(rd, 0, sizeof *rd);
    rd->ctx = ctx;
    rd->next = rd->merged = ctx->lo;
    rd->per_thread = per_thread;
    int rc = cli_xray_thread_ids(ctx, args, rd->tids, &rd->ntids);
    if (rc == CLI_EXIT_OK) rc = cli_xray_open_map(args, &rd->map);
    if (rc != CLI_EXIT_OK) return rc;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    rd->lock = &lock;
    rd->parts = calloc((size_t)ctx->ninputs, sizeof *rd->parts);
    if (!rd->parts) {
        fprintf(stderr, "tracekit: error: out of memory\n");
        return CLI_EXIT_BAD_INPUT;
    }
    run_workers(rd, jobs);
    if (ctx->team && (rc = team_merge(rd)) != CLI_EXIT_OK) return rc;
    return cli_team_writes(ctx) ? check_parts(rd) : CLI_EXIT_OK;
}

void cli_xray_read_free(cli_xray_read *rd)
{
    if (rd->parts)
        for (int k = 0; k < rd->ctx->ninputs; k++) tk_latency_free(rd->parts[k].l);
    free(rd->parts);
    tk_latency_free(rd->acc);
    tk_xray_map_free(rd->map);
    memset(rd, 0, sizeof *rd);
}

void cli_xray_part_warn_truncation(const cli_xray_part *p, const char *path)
{
    if (!p->cut) return;
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
        fprintf(stderr,
                "tracekit: %s: warning: %" PRIu64 " function id%s (up to %" PRIu32
                ") %s not in the instrumentation map, which has %" PRIu32 " function%s; "
                "does the binary match the trace?\n",
                path, p->unknown, cli_s(p->unknown), p->largest, p->unknown == 1 ? "is" : "are",
                tk_xray_map_count(map), cli_s(tk_xray_map_count(map)));
}

void cli_xray_found_warn(const cli_xray_found *f, const tk_xray_map *map, const char *path)
{
    cli_xray_part x;
    memset(&x, 0, sizeof x);
    x.cut = f->cut;
    x.where.offset = f->offset;
    snprintf(x.where.message, sizeof x.where.message, "%s", f->message);
    x.unknown = f->unknown;
    x.largest = f->largest;
    cli_xray_part_warn_truncation(&x, path);
    cli_xray_part_warn_unknown_ids(&x, map, path);
}
