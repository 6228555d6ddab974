/* Command handlers for XRay traces: info, check, report (latency accounting), convert
 * (chrome, folded, callgrind, dot, json), dump and diff; report, convert and diff can keep
 * some threads only (--thread). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray.h"

/* ---- shared -------------------------------------------------------------------- */

#define MAP_OPT {"instr-map", 'm', "BIN", "instrumented binary: names functions from its xray_instr_map"}

#define THREAD_OPT {"thread", 0, "TID", "only this thread (the tid `info` lists; repeatable)"}
#define UNIT_OPT {"unit", 0, "U", "s|ms|us|ns: the unit of the times printed (default us)"}
#define MAX_THREADS 64

typedef struct xray_session {
    tk_xray_map *map;
    tk_xray_reader *reader;
    tk_xray_events *events;
    tk_event_source src;
    /* --thread: src reads the trace through the filter */
    tk_event_thread_filter filter;
    int64_t tids[MAX_THREADS];
} xray_session;

static void session_close(xray_session *s)
{
    tk_xray_events_free(s->events);
    tk_xray_free(s->reader);
    tk_xray_map_free(s->map);
    memset(s, 0, sizeof *s);
}

static int open_map(const cli_args *args, tk_xray_map **map)
{
    *map = NULL;
    const char *bin = cli_get(args, "instr-map");
    if (!bin)
        return CLI_EXIT_OK;
    tk_error err;
    tk_error_clear(&err);
    if (tk_xray_map_open(map, bin, &err) != TK_OK)
        return cli_error(&err);
    return CLI_EXIT_OK;
}

/* Reader (+ events source) over input i; release: a one-pass consumer of a big file. */
static int session_open(cli_ctx *ctx, const cli_args *args, int i, int release, int with_map,
                        xray_session *s)
{
    memset(s, 0, sizeof *s);
    int rc = with_map ? open_map(args, &s->map) : CLI_EXIT_OK;
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.release_pages = release;
    opt.partial = 1; /* a trace cut short gives what was recorded before the cut */
    tk_status st = tk_xray_open(&s->reader, ctx->inputs[i], &opt, &err);
    if (st == TK_OK)
        st = tk_xray_events_open(&s->events, s->reader, s->map, &err);
    if (st != TK_OK) {
        session_close(s);
        return cli_error(&err);
    }
    tk_xray_events_source(s->events, &s->src);
    const char *threads[MAX_THREADS + 1];
    int n = cli_get_all(args, "thread", threads, MAX_THREADS + 1);
    if (n > MAX_THREADS) {
        session_close(s);
        return cli_usage_error(ctx->command, "at most %d --thread options", MAX_THREADS);
    }
    for (int k = 0; k < n; k++) {
        char *end;
        errno = 0;
        long long v = strtoll(threads[k], &end, 0);
        if (errno || end == threads[k] || *end) {
            session_close(s);
            return cli_usage_error(ctx->command, "--thread wants a thread id, not '%s'",
                                   threads[k]);
        }
        s->tids[k] = v;
    }
    if (n > 0) {
        tk_event_source all = s->src;
        tk_event_only_threads(&s->filter, &all, s->tids, (size_t)n, &s->src);
    }
    return CLI_EXIT_OK;
}

static void warn_unknown_ids(const xray_session *s, const char *path)
{
    uint32_t largest;
    uint64_t n = s->map ? tk_xray_events_unknown_ids(s->events, &largest) : 0;
    if (n)
        fprintf(stderr, "tracekit: %s: warning: %" PRIu64 " function ids (up to %" PRIu32
                ") are not in the instrumentation map, which has %" PRIu32 " functions; "
                "does the binary match the trace?\n", path, n, largest,
                tk_xray_map_count(s->map));
}

/* A trace cut short (partial mode): "tracekit: PATH: byte N: warning: ..." once the reader has
 * reached the end. Returns 1 when the trace was cut. */
static int warn_truncation(const xray_session *s, const char *path)
{
    tk_error where;
    tk_error_clear(&where);
    if (!tk_xray_truncation(s->reader, &where))
        return 0;
    char buf[TK_ERROR_MSG_MAX + TK_ERROR_PATH_MAX + 128];
    tk_location loc = {path, where.offset, 0, 0};
    fflush(stdout);
    fprintf(stderr, "tracekit: %s; the results cover the records before this byte\n",
            tk_diag_format(TK_SEV_WARNING, &loc, where.message, buf, sizeof buf));
    return 1;
}

/* --unit (default us); -1 after a usage error. */
static int get_unit(cli_ctx *ctx, const cli_args *args, tk_time_unit *unit)
{
    const char *u = cli_get(args, "unit");
    *unit = TK_UNIT_US;
    if (u && tk_time_unit_parse(u, unit) != 0) {
        cli_usage_error(ctx->command, "--unit wants s, ms, us or ns, not '%s'", u);
        return -1;
    }
    return 0;
}

static int single_input(cli_ctx *ctx)
{
    if (ctx->ninputs != 1)
        return cli_usage_error(ctx->command, "takes one XRay trace (got %d)", ctx->ninputs);
    return CLI_EXIT_OK;
}

/* ---- info ------------------------------------------------------------------------ */

static const cli_opt info_opts[] = {MAP_OPT, {NULL, 0, NULL, NULL}};

static int info_one(cli_ctx *ctx, const cli_args *args, int i)
{
    xray_session s;
    int rc = session_open(ctx, args, i, 1, 1, &s);
    if (rc != CLI_EXIT_OK)
        return rc;
    const tk_xray_header *h = tk_xray_get_header(s.reader);
    tk_error err;
    tk_error_clear(&err);
    tk_xray_summary sum;
    if (tk_xray_summarize(s.reader, &sum, &err) != TK_OK) {
        tk_xray_summary_free(&sum);
        session_close(&s);
        return cli_error(&err);
    }
    printf("xray mode: %s\n", h->type == TK_XRAY_FDR ? "fdr" : "basic");
    printf("version: %u\n", h->version);
    printf("byte order: %s-endian\n", h->big_endian ? "big" : "little");
    printf("tsc: %s, %" PRIu64 " Hz%s\n", tk_xray_emulated_tsc(h) ? "emulated" : "real",
           h->cycle_frequency,
           tk_xray_emulated_tsc(h) ? " (the runtime found no TSC frequency: ticks are ns)" : "");
    printf("constant tsc: %s, nonstop tsc: %s\n", h->flags & 1 ? "yes" : "no",
           h->flags & 2 ? "yes" : "no");
    if (h->type == TK_XRAY_FDR) {
        printf("buffer size: %" PRIu64 " bytes\n", h->buffer_size);
        printf("buffers: %" PRIu64 "\n", tk_xray_buffer_count(s.reader));
    }
    printf("pids:");
    for (size_t t = 0; t < sum.nthreads; t++) {
        size_t p = 0;
        while (p < t && sum.threads[p].pid != sum.threads[t].pid)
            p++;
        if (p == t)
            printf(" %" PRId32, sum.threads[t].pid);
        if (t == 64) {
            printf(" ...");
            break;
        }
    }
    printf("\nthreads: %zu\n", sum.nthreads);
    for (size_t t = 0; t < sum.nthreads && t < 64; t++) {
        const tk_xray_thread_summary *ts = &sum.threads[t];
        printf("  tid %" PRId32 " pid %" PRId32 ": %" PRIu64 " records", ts->tid, ts->pid,
               ts->records);
        if (h->type == TK_XRAY_FDR)
            printf(" in %" PRIu64 " buffers", ts->buffers);
        printf("\n");
    }
    if (sum.nthreads > 64)
        printf("  ... %zu more threads\n", sum.nthreads - 64);
    printf("records:\n");
    for (int k = 0; k < TK_XRAY_KIND_MAX; k++)
        if (sum.by_kind[k])
            printf("  %-15s %" PRIu64 "\n", tk_xray_kind_name((tk_xray_kind)k), sum.by_kind[k]);
    printf("function records: %" PRIu64 "\n", sum.functions);
    if (sum.first_tsc <= sum.last_tsc) {
        double span = h->cycle_frequency
                          ? (double)(sum.last_tsc - sum.first_tsc) / (double)h->cycle_frequency
                          : 0;
        printf("time span: %.6f s (tsc %" PRIu64 " .. %" PRIu64 ")\n", span, sum.first_tsc,
               sum.last_tsc);
    }
    if (s.map)
        printf("instrumentation map: %" PRIu32 " functions, %" PRIu64 " sleds, sled version %u\n",
               tk_xray_map_count(s.map), tk_xray_map_sleds(s.map), tk_xray_map_version(s.map));
    warn_truncation(&s, ctx->paths[i]);
    tk_xray_summary_free(&sum);
    session_close(&s);
    return CLI_EXIT_OK;
}

static int run_info(cli_ctx *ctx, const cli_args *args)
{
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++)
        rc = info_one(ctx, args, i);
    return rc;
}

/* ---- check ------------------------------------------------------------------------ */

static const cli_opt check_opts[] = {MAP_OPT, {NULL, 0, NULL, NULL}};

static int run_check(cli_ctx *ctx, const cli_args *args)
{
    tk_xray_map *map;
    int rc = open_map(args, &map);
    if (rc != CLI_EXIT_OK)
        return rc;
    int worst = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_diag d;
        cli_diag_init(&d);
        tk_error err;
        tk_error_clear(&err);
        tk_xray_check_summary sum;
        if (tk_xray_check(ctx->inputs[i], map, &d, &sum, &err) != TK_OK) {
            tk_xray_map_free(map);
            return cli_error(&err);
        }
        if (cli_diag_summary(&d, ctx->paths[i]) != CLI_EXIT_OK)
            worst = CLI_EXIT_BAD_INPUT;
        else
            printf("%s: ok: %" PRIu64 " records, %" PRIu64 " buffers, %" PRIu32
                   " threads, %" PRIu64 " calls open at the end\n", ctx->paths[i], sum.records,
                   sum.buffers, sum.threads, sum.open_calls);
    }
    tk_xray_map_free(map);
    return worst;
}

/* ---- report ------------------------------------------------------------------------ */

static const cli_opt report_opts[] = {
    MAP_OPT,
    {"sort", 's', "KEY", "funcid|count|min|med|90p|99p|max|sum|func (default sum)"},
    {"order", 'r', "DIR", "asc|dsc (default dsc, asc for funcid and func)"},
    {"top", 'p', "N", "only the first N rows"},
    {"per-thread", 0, NULL, "one row per thread and function"},
    THREAD_OPT,
    {"format", 0, "FMT", "text|json|csv (default text)"},
    UNIT_OPT,
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 0, NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

/* --sort (llvm-xray account's keys) and --order */
enum { SORT_FUNCID, SORT_COUNT, SORT_MIN, SORT_MED, SORT_P90, SORT_P99, SORT_MAX, SORT_SUM,
       SORT_FUNC };
static const cli_choice report_keys[] = {
    {"funcid", SORT_FUNCID}, {"count", SORT_COUNT}, {"min", SORT_MIN}, {"med", SORT_MED},
    {"90p", SORT_P90},       {"99p", SORT_P99},     {"max", SORT_MAX}, {"sum", SORT_SUM},
    {"func", SORT_FUNC},     {NULL, 0}};
enum { ORDER_ASC, ORDER_DESC };
static const cli_choice report_orders[] = {{"asc", ORDER_ASC}, {"dsc", ORDER_DESC}, {NULL, 0}};

/* Rows are sorted through items that carry their key: qsort has no context argument in C11. */
typedef struct sort_item {
    tk_latency_row row;
    uint64_t value;
    char name[96];
} sort_item;

static uint64_t sort_value(const tk_latency_row *r, int key)
{
    switch (key) {
    case SORT_COUNT: return r->count;
    case SORT_MIN: return r->min;
    case SORT_MED: return r->median;
    case SORT_P90: return r->p90;
    case SORT_P99: return r->p99;
    case SORT_MAX: return r->max;
    case SORT_SUM: return r->sum;
    default: return r->func;
    }
}

static int tie_break(const sort_item *x, const sort_item *y)
{
    /* thread, then function id, ascending */
    if (x->row.thread != y->row.thread)
        return x->row.thread < y->row.thread ? -1 : 1;
    return x->row.func < y->row.func ? -1 : x->row.func > y->row.func;
}

static int by_value_asc(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = x->value < y->value ? -1 : x->value > y->value;
    return c ? c : tie_break(x, y);
}

static int by_value_desc(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = x->value < y->value ? 1 : -(x->value > y->value);
    return c ? c : tie_break(x, y);
}

static int by_name_asc(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : tie_break(x, y);
}

static int by_name_desc(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = -strcmp(x->name, y->name);
    return c ? c : tie_break(x, y);
}

static void debug_info(const xray_session *s, uint64_t func, char *buf, size_t size)
{
    const tk_xray_function *f = s->map && func <= UINT32_MAX
                                    ? tk_xray_map_function(s->map, (uint32_t)func)
                                    : NULL;
    if (f && f->file) { /* the base name: reports stay the same wherever the binary was built */
        const char *base = strrchr(f->file, '/');
        snprintf(buf, size, "%s:%" PRIu32, base ? base + 1 : f->file, f->line);
    }
    else
        buf[0] = 0;
}

/* How report prints: the clock, the unit, where the trace was cut (cut: 0 none). */
typedef struct report_style {
    double hz; /* 0: the trace has no clock rate; times are printed in ticks */
    tk_time_unit unit;
    int per_thread;
    int cut;
    tk_error where;
} report_style;

/* Width of a time column of the text report: values under 10 s fit in every unit (to the ns). */
#define TIME_WIDTH 11

/* The unit the times are printed in: --unit, or "ticks" when the trace has no clock rate. */
static const char *unit_label(double hz, tk_time_unit unit)
{
    return hz > 0 ? tk_time_unit_name(unit) : "ticks";
}

static int unit_decimals(double hz, tk_time_unit unit)
{
    return hz > 0 ? tk_time_unit_decimals(unit) : 0;
}

static void report_text(FILE *f, const xray_session *s, const tk_latency_row *rows, size_t n,
                        const report_style *st)
{
    const int w = TIME_WIDTH, d = unit_decimals(st->hz, st->unit);
    fprintf(f, "Functions with latencies: %zu (times in %s", n, unit_label(st->hz, st->unit));
    if (st->cut)
        fprintf(f, "; the trace is cut short at byte %" PRId64, st->where.offset);
    fputs(")\n", f);
    if (st->per_thread)
        fprintf(f, "%9s ", "tid");
    fprintf(f, "%9s %10s [ %*s, %*s, %*s, %*s, %*s] %*s  %s\n", "funcid", "count", w, "min", w,
            "med", w, "90p", w, "99p", w, "max", w, "sum", "function");
    for (size_t i = 0; i < n; i++) {
        const tk_latency_row *r = &rows[i];
        char nb[64], db[600];
        debug_info(s, r->func, db, sizeof db);
        if (st->per_thread)
            fprintf(f, "%9" PRId64 " ", r->tid);
        fprintf(f, "%9" PRIu64 " %10" PRIu64 " [ %*.*f, %*.*f, %*.*f, %*.*f, %*.*f] %*.*f  %s%s%s",
                r->func, r->count, w, d, tk_ticks_to_unit(r->min, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->median, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->p90, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->p99, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->max, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->sum, st->hz, st->unit), db, db[0] ? ": " : "",
                tk_event_func_name(&s->src, r->func, nb, sizeof nb));
        if (r->open)
            fprintf(f, " (%" PRIu64 " open at end)", r->open);
        fputc('\n', f);
    }
}

/* The columns of llvm-xray account's CSV (and open), then the unit of the times. */
static void report_csv(FILE *f, const xray_session *s, const tk_latency_row *rows, size_t n,
                       const report_style *st)
{
    const char *u = unit_label(st->hz, st->unit);
    fprintf(f, "%sfuncid,count,min,median,90%%ile,99%%ile,max,sum,debug,function,open,unit\n",
            st->per_thread ? "tid," : "");
    for (size_t i = 0; i < n; i++) {
        const tk_latency_row *r = &rows[i];
        char nb[64], db[600];
        debug_info(s, r->func, db, sizeof db);
        if (st->per_thread)
            fprintf(f, "%" PRId64 ",", r->tid);
        fprintf(f, "%" PRIu64 ",%" PRIu64 ",%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,\"%s\",\"%s\",%" PRIu64
                   ",%s\n", r->func, r->count, tk_ticks_to_unit(r->min, st->hz, st->unit),
                tk_ticks_to_unit(r->median, st->hz, st->unit),
                tk_ticks_to_unit(r->p90, st->hz, st->unit),
                tk_ticks_to_unit(r->p99, st->hz, st->unit),
                tk_ticks_to_unit(r->max, st->hz, st->unit),
                tk_ticks_to_unit(r->sum, st->hz, st->unit), db,
                tk_event_func_name(&s->src, r->func, nb, sizeof nb), r->open, u);
    }
}

static void report_json(FILE *f, const xray_session *s, const tk_latency_row *rows, size_t n,
                        const report_style *st, const tk_latency_totals *t)
{
    fprintf(f, "{\"version\":2,\"unit\":\"%s\",\"clock\":{\"ticks_per_second\":%.0f,"
               "\"emulated\":%s},\"per_thread\":%s,\"truncated\":",
            unit_label(st->hz, st->unit), st->hz,
            tk_xray_emulated_tsc(tk_xray_get_header(s->reader)) ? "true" : "false",
            st->per_thread ? "true" : "false");
    if (st->cut) {
        fprintf(f, "{\"byte\":%" PRId64 ",\"message\":", st->where.offset);
        tk_put_json_string(f, st->where.message);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs(",\"functions\":[", f);
    for (size_t i = 0; i < n; i++) {
        const tk_latency_row *r = &rows[i];
        char nb[64], db[600];
        debug_info(s, r->func, db, sizeof db);
        fprintf(f, "%s\n{\"id\":%" PRIu64 ",\"name\":", i ? "," : "", r->func);
        tk_put_json_string(f, tk_event_func_name(&s->src, r->func, nb, sizeof nb));
        if (db[0]) {
            fprintf(f, ",\"debug\":");
            tk_put_json_string(f, db);
        }
        if (st->per_thread)
            fprintf(f, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64, r->pid, r->tid);
        fprintf(f, ",\"count\":%" PRIu64 ",\"min\":%.9e,\"median\":%.9e,\"p90\":%.9e,"
                   "\"p99\":%.9e,\"max\":%.9e,\"sum\":%.9e,\"open\":%" PRIu64
                   ",\"unwound\":%" PRIu64 "}",
                r->count, tk_ticks_to_unit(r->min, st->hz, st->unit),
                tk_ticks_to_unit(r->median, st->hz, st->unit),
                tk_ticks_to_unit(r->p90, st->hz, st->unit),
                tk_ticks_to_unit(r->p99, st->hz, st->unit),
                tk_ticks_to_unit(r->max, st->hz, st->unit),
                tk_ticks_to_unit(r->sum, st->hz, st->unit), r->open, r->unwound);
    }
    fprintf(f, "\n],\"totals\":{\"threads\":%" PRIu32 ",\"enters\":%" PRIu64 ",\"exits\":%" PRIu64
               ",\"unmatched_exits\":%" PRIu64 ",\"unwound\":%" PRIu64 ",\"open_at_end\":%" PRIu64
               ",\"max_depth\":%" PRIu32 "}}\n",
            t->threads, t->enters, t->exits, t->unmatched_exits, t->unwound, t->open_at_end,
            t->max_depth);
}

static int run_report(cli_ctx *ctx, const cli_args *args)
{
    int rc = single_input(ctx);
    if (rc != CLI_EXIT_OK)
        return rc;
    int key = cli_get_choice(ctx->command, args, "sort", report_keys, SORT_SUM);
    if (key < 0)
        return CLI_EXIT_USAGE;
    int dflt_order = key == SORT_FUNCID || key == SORT_FUNC ? ORDER_ASC : ORDER_DESC;
    int order = cli_get_choice(ctx->command, args, "order", report_orders, dflt_order);
    int format = cli_get_choice(ctx->command, args, "format", cli_out_text_json_csv, CLI_OUT_TEXT);
    uint64_t top;
    report_style style;
    memset(&style, 0, sizeof style);
    if (order < 0 || format < 0 || cli_get_u64(ctx->command, args, "top", 0, &top) != 0 ||
        get_unit(ctx, args, &style.unit) != 0)
        return CLI_EXIT_USAGE;
    int per_thread = cli_has(args, "per-thread");
    style.per_thread = per_thread;
    xray_session s;
    rc = session_open(ctx, args, 0, 1, 1, &s);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_latency *l = tk_latency_new(per_thread);
    const tk_latency_row *rows = NULL;
    size_t n = 0;
    tk_status st = l ? tk_latency_run(l, &s.src, &err)
                     : tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK)
        st = tk_latency_rows(l, &rows, &n, &err);
    if (st != TK_OK) {
        tk_latency_free(l);
        session_close(&s);
        return cli_error(&err);
    }
    sort_item *items = malloc((n ? n : 1) * sizeof *items);
    tk_latency_row *sorted = malloc((n ? n : 1) * sizeof *sorted);
    size_t shown = 0;
    for (size_t i = 0; items && sorted && i < n; i++) {
        if (!rows[i].count)
            continue;
        sort_item *it = &items[shown++];
        it->row = rows[i];
        it->value = sort_value(&rows[i], key);
        char nb[64];
        snprintf(it->name, sizeof it->name, "%s",
                 key == SORT_FUNC ? tk_event_func_name(&s.src, rows[i].func, nb, sizeof nb) : "");
    }
    if (items && sorted) {
        int desc = order == ORDER_DESC;
        qsort(items, shown, sizeof *items,
              key == SORT_FUNC ? (desc ? by_name_desc : by_name_asc)
                               : (desc ? by_value_desc : by_value_asc));
        for (size_t i = 0; i < shown; i++)
            sorted[i] = items[i].row;
    }
    free(items);
    if (top && shown > top)
        shown = (size_t)top;
    tk_latency_totals totals;
    tk_latency_get_totals(l, &totals);
    tk_error_clear(&style.where);
    style.cut = tk_xray_truncation(s.reader, &style.where);
    style.hz = s.src.ticks_per_second > 0 ? s.src.ticks_per_second : 0;
    tk_output *out = NULL;
    rc = sorted ? cli_output_open(args, 0, &out) : cli_usage_error(ctx->command, "out of memory");
    if (rc == CLI_EXIT_OK) {
        FILE *f = tk_output_file(out);
        if (format == CLI_OUT_TEXT)
            report_text(f, &s, sorted, shown, &style);
        else if (format == CLI_OUT_JSON)
            report_json(f, &s, sorted, shown, &style, &totals);
        else
            report_csv(f, &s, sorted, shown, &style);
        rc = cli_output_commit(out);
    }
    warn_truncation(&s, ctx->paths[0]);
    if (totals.unmatched_exits)
        fprintf(stderr, "tracekit: %s: warning: %" PRIu64 " exits without a matching entry were "
                "ignored (lost records or a wrapped buffer ring)\n", ctx->paths[0],
                totals.unmatched_exits);
    if (totals.unwound)
        fprintf(stderr, "tracekit: %s: warning: %" PRIu64 " calls had no exit of their own and "
                "were closed by the exit of a caller\n", ctx->paths[0], totals.unwound);
    if (totals.open_at_end)
        fprintf(stderr, "tracekit: %s: note: %" PRIu64 " calls were still open at the end of the "
                "trace (not in the statistics)\n", ctx->paths[0], totals.open_at_end);
    warn_unknown_ids(&s, ctx->paths[0]);
    free(sorted);
    tk_latency_free(l);
    session_close(&s);
    return rc;
}

/* ---- convert ----------------------------------------------------------------------- */

static const cli_opt convert_opts[] = {
    MAP_OPT,
    {"to", 't', "FMT", "chrome|folded|callgrind|dot|json"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 0, NULL, "overwrite FILE"},
    {"weight", 0, "W", "folded: time (self time in ns, default) or calls"},
    {"node-threshold", 0, "PCT", "dot: drop functions below PCT% of the time (default 0.5)"},
    {"edge-threshold", 0, "PCT", "dot: drop calls below PCT% of the time (default 0.1)"},
    {"per-thread", 0, NULL, "folded: start each stack with its thread; callgrind: a part per thread"},
    THREAD_OPT,
    {"unit", 0, "U", "dot: s|ms|us|ns, the unit of the times in the graph (default us)"},
    {NULL, 0, NULL, NULL},
};

/* --to and --weight */
enum { TO_CHROME, TO_FOLDED, TO_JSON, TO_CALLGRIND, TO_DOT };
static const cli_choice convert_targets[] = {
    {"chrome", TO_CHROME}, {"folded", TO_FOLDED}, {"json", TO_JSON}, {"callgrind", TO_CALLGRIND},
    {"dot", TO_DOT},       {NULL, 0}};
static const cli_choice convert_weights[] = {
    {"time", TK_FOLDED_TIME}, {"calls", TK_FOLDED_CALLS}, {NULL, 0}};

/* The events as JSON lines inside one object: the model as data. */
static tk_status write_events_json(const tk_event_source *src, FILE *f, tk_error *err)
{
    fprintf(f, "{\"version\":1,\"clock\":{\"ticks_per_second\":%.0f,\"unit\":\"%s\"},"
               "\"events\":[", src->ticks_per_second, src->time_unit);
    tk_event ev;
    tk_status st;
    int first = 1;
    char nb[64];
    while ((st = src->next(src->ctx, &ev, err)) == TK_OK) {
        fprintf(f, "%s\n{\"kind\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"cpu\":%" PRIu32
                   ",\"time\":%" PRIu64, first ? "" : ",", tk_event_kind_name(ev.kind), ev.pid,
                ev.tid, ev.cpu, ev.time);
        first = 0;
        if (ev.kind <= TK_EVENT_TAIL_EXIT) {
            fprintf(f, ",\"func\":%" PRIu64 ",\"name\":", ev.func);
            tk_put_json_string(f, tk_event_func_name(src, ev.func, nb, sizeof nb));
        }
        if (ev.nargs) {
            fputs(",\"args\":[", f);
            for (uint32_t i = 0; i < ev.nargs; i++)
                fprintf(f, "%s%" PRIu64, i ? "," : "", ev.args[i]);
            fputc(']', f);
        }
        if (ev.kind == TK_EVENT_TYPED)
            fprintf(f, ",\"type\":%" PRIu32, ev.type);
        if (ev.kind == TK_EVENT_CUSTOM || ev.kind == TK_EVENT_TYPED) {
            fputs(",\"data\":\"", f);
            for (size_t i = 0; i < ev.size; i++)
                fprintf(f, "%02x", ev.data[i]);
            fputc('"', f);
        }
        fputc('}', f);
    }
    if (st != TK_END)
        return st;
    fputs("\n]}\n", f);
    return TK_OK;
}

/* The events aggregated into a profile (events "ns calls"), written as a
 * callgrind profile, or with dot non-NULL as a call graph. */
static tk_status write_profile(const tk_event_source *src, const char *object, int per_thread,
                               const tk_dot_options *dot, FILE *f, tk_error *err)
{
    tk_profile *p;
    tk_status st = tk_events_profile(src, object, per_thread, &p, err);
    if (st != TK_OK)
        return st;
    if (dot) {
        tk_dot_options o = *dot;
        /* the profile's time event is in ns when the trace has a clock rate */
        o.event_per_second = src->ticks_per_second > 0 ? 1e9 : 0;
        st = tk_profile_write_dot(p, &o, f, err);
    } else {
        tk_callgrind_write_options opt = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        st = tk_callgrind_write(p, f, &opt, err);
    }
    tk_profile_free(p);
    return st;
}

static int run_convert(cli_ctx *ctx, const cli_args *args)
{
    int rc = single_input(ctx);
    if (rc != CLI_EXIT_OK)
        return rc;
    const char *to = cli_get(args, "to");
    if (!to)
        return cli_usage_error(ctx->command,
                               "missing --to FMT (chrome, folded, callgrind, dot or json)");
    int target = cli_choice_value(convert_targets, to);
    if (target < 0)
        return cli_usage_error(ctx->command, "cannot convert XRay traces to '%s' "
                               "(targets: chrome, folded, callgrind, dot, json)", to);
    int weight = cli_get_choice(ctx->command, args, "weight", convert_weights, TK_FOLDED_TIME);
    if (weight < 0)
        return CLI_EXIT_USAGE;
    tk_dot_options dot = TK_DOT_OPTIONS_INIT;
    if (cli_get_double(ctx->command, args, "node-threshold", dot.node_threshold,
                       &dot.node_threshold) ||
        cli_get_double(ctx->command, args, "edge-threshold", dot.edge_threshold,
                       &dot.edge_threshold) ||
        get_unit(ctx, args, &dot.time_unit) != 0)
        return CLI_EXIT_USAGE;
    if (cli_has(args, "unit") && target != TO_DOT)
        return cli_usage_error(ctx->command, "--unit applies to --to dot; %s has a unit of its "
                               "own (docs/formats/xray.md)", to);
    xray_session s;
    rc = session_open(ctx, args, 0, 1, 1, &s);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_output *out;
    rc = cli_output_open(args, 0, &out);
    if (rc != CLI_EXIT_OK) {
        session_close(&s);
        return rc;
    }
    tk_error err;
    tk_error_clear(&err);
    FILE *f = tk_output_file(out);
    tk_status st;
    if (target == TO_CHROME)
        st = tk_export_chrome(&s.src, f, &err);
    else if (target == TO_FOLDED)
        st = tk_export_folded(&s.src, f, (tk_folded_weight)weight, cli_has(args, "per-thread"),
                              &err);
    else if (target == TO_JSON)
        st = write_events_json(&s.src, f, &err);
    else
        st = write_profile(&s.src, cli_get(args, "instr-map"),
                           target == TO_CALLGRIND && cli_has(args, "per-thread"),
                           target == TO_DOT ? &dot : NULL, f, &err);
    if (st != TK_OK) {
        tk_output_abort(out);
        rc = cli_error(&err);
    } else {
        rc = cli_output_commit(out);
        warn_truncation(&s, ctx->paths[0]);
        warn_unknown_ids(&s, ctx->paths[0]);
    }
    session_close(&s);
    return rc;
}

/* ---- diff ----------------------------------------------------------------------------- */

static const cli_opt diff_opts[] = {
    MAP_OPT,
    THREAD_OPT,
    {"top", 'p', "N", "only the first N rows"},
    {"format", 0, "FMT", "text|json|csv (default text)"},
    UNIT_OPT,
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 0, NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

/* One function of either trace: its statistics in A and in B (count 0: absent), in the unit. */
typedef struct diff_row {
    uint64_t func;
    uint64_t count[2];
    double sum[2], median[2];
} diff_row;

static int cmp_diff(const void *x, const void *y)
{
    const diff_row *a = x, *b = y;
    double da = a->sum[1] - a->sum[0], db = b->sum[1] - b->sum[0];
    da = da < 0 ? -da : da;
    db = db < 0 ? -db : db;
    if (da != db) return da > db ? -1 : 1;
    return (a->func > b->func) - (a->func < b->func);
}

static int cmp_func(const void *x, const void *y)
{
    const diff_row *a = x, *b = y;
    return (a->func > b->func) - (a->func < b->func);
}

/* Latency accounting of input i: a row per function with calls (side i filled, in unit; in
 * ticks and *no_clock set when the trace has no clock rate), by function id. keep: the session
 * stays open (for the names of the output). */
static int diff_side(cli_ctx *ctx, const cli_args *args, int i, tk_time_unit unit, int *no_clock,
                     diff_row **rows, size_t *n, xray_session *keep)
{
    xray_session s;
    int rc = session_open(ctx, args, i, 1, 1, &s);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_latency *l = tk_latency_new(0);
    const tk_latency_row *lr = NULL;
    size_t ln = 0;
    tk_status st = l ? tk_latency_run(l, &s.src, &err)
                     : tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK)
        st = tk_latency_rows(l, &lr, &ln, &err);
    double hz = s.src.ticks_per_second > 0 ? s.src.ticks_per_second : 0;
    if (!(hz > 0))
        *no_clock = 1;
    *rows = st == TK_OK ? calloc(ln ? ln : 1, sizeof **rows) : NULL;
    *n = 0;
    if (st == TK_OK && !*rows)
        st = tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    for (size_t k = 0; st == TK_OK && k < ln; k++) {
        if (!lr[k].count)
            continue;
        diff_row *r = &(*rows)[(*n)++];
        r->func = lr[k].func;
        r->count[i] = lr[k].count;
        r->sum[i] = tk_ticks_to_unit(lr[k].sum, hz, unit);
        r->median[i] = tk_ticks_to_unit(lr[k].median, hz, unit);
    }
    tk_latency_free(l);
    if (st != TK_OK) {
        free(*rows);
        *rows = NULL;
        session_close(&s);
        return cli_error(&err);
    }
    if (*n)
        qsort(*rows, *n, sizeof **rows, cmp_func);
    warn_truncation(&s, ctx->paths[i]);
    if (keep)
        *keep = s;
    else
        session_close(&s);
    return CLI_EXIT_OK;
}

/* diff A B: per function, calls, total and median time in A and in B, by the absolute
 * change of the total time. Function ids are compared: both traces of one binary. */
static int run_diff(cli_ctx *ctx, const cli_args *args)
{
    if (ctx->ninputs != 2)
        return cli_usage_error(ctx->command, "takes two XRay traces (got %d)", ctx->ninputs);
    int format = cli_get_choice(ctx->command, args, "format", cli_out_text_json_csv, CLI_OUT_TEXT);
    uint64_t top;
    tk_time_unit unit;
    if (format < 0 || cli_get_u64(ctx->command, args, "top", 0, &top) != 0 ||
        get_unit(ctx, args, &unit) != 0)
        return CLI_EXIT_USAGE;
    diff_row *side[2] = {NULL, NULL}, *rows = NULL;
    size_t nside[2] = {0, 0}, n = 0;
    xray_session names;
    int no_clock = 0;
    int rc = diff_side(ctx, args, 0, unit, &no_clock, &side[0], &nside[0], NULL);
    if (rc != CLI_EXIT_OK)
        return rc;
    if ((rc = diff_side(ctx, args, 1, unit, &no_clock, &side[1], &nside[1], &names)) !=
        CLI_EXIT_OK) {
        free(side[0]);
        return rc;
    }
    /* merge the two lists (both by function id) */
    rows = malloc((nside[0] + nside[1] + 1) * sizeof *rows);
    if (!rows) {
        free(side[0]);
        free(side[1]);
        session_close(&names);
        return cli_usage_error(ctx->command, "out of memory");
    }
    for (size_t a = 0, b = 0; a < nside[0] || b < nside[1];) {
        if (b == nside[1] || (a < nside[0] && side[0][a].func < side[1][b].func)) {
            rows[n++] = side[0][a++];
        } else if (a == nside[0] || side[1][b].func < side[0][a].func) {
            rows[n++] = side[1][b++];
        } else {
            rows[n] = side[0][a++];
            rows[n].count[1] = side[1][b].count[1];
            rows[n].sum[1] = side[1][b].sum[1];
            rows[n++].median[1] = side[1][b++].median[1];
        }
    }
    free(side[0]);
    free(side[1]);
    if (n)
        qsort(rows, n, sizeof *rows, cmp_diff);
    size_t shown = top && top < n ? (size_t)top : n;
    tk_output *out = NULL;
    rc = cli_output_open(args, 0, &out);
    if (rc == CLI_EXIT_OK) {
        FILE *f = tk_output_file(out);
        const char *u = no_clock ? "ticks" : tk_time_unit_name(unit);
        const int d = no_clock ? 0 : tk_time_unit_decimals(unit);
        if (format == CLI_OUT_TEXT) {
            char h[5][24];
            snprintf(h[0], sizeof h[0], "sum-a(%s)", u);
            snprintf(h[1], sizeof h[1], "sum-b(%s)", u);
            snprintf(h[2], sizeof h[2], "sum-b-a(%s)", u);
            snprintf(h[3], sizeof h[3], "med-a(%s)", u);
            snprintf(h[4], sizeof h[4], "med-b(%s)", u);
            fprintf(f, "%9s %10s %10s %11s %11s %12s %11s %11s  %s\n", "funcid", "count-a",
                    "count-b", h[0], h[1], h[2], h[3], h[4], "function");
        } else if (format == CLI_OUT_JSON) {
            fprintf(f, "{\"version\":2,\"format\":\"xray-diff\",\"unit\":\"%s\","
                       "\"functions\":[", u);
        } else {
            fputs("funcid,count_a,count_b,sum_a,sum_b,median_a,median_b,function,unit\n", f);
        }
        for (size_t i = 0; i < shown; i++) {
            const diff_row *r = &rows[i];
            char nb[64];
            const char *name = tk_event_func_name(&names.src, r->func, nb, sizeof nb);
            if (format == CLI_OUT_TEXT) {
                fprintf(f,
                        "%9" PRIu64 " %10" PRIu64 " %10" PRIu64 " %11.*f %11.*f %+12.*f %11.*f "
                        "%11.*f  %s\n",
                        r->func, r->count[0], r->count[1], d, r->sum[0], d, r->sum[1], d,
                        r->sum[1] - r->sum[0], d, r->median[0], d, r->median[1], name);
            } else if (format == CLI_OUT_JSON) {
                fprintf(f, "%s\n{\"funcid\":%" PRIu64 ",\"count\":[%" PRIu64 ",%" PRIu64
                           "],\"sum\":[%.*f,%.*f],\"median\":[%.*f,%.*f],\"function\":",
                        i ? "," : "", r->func, r->count[0], r->count[1], d, r->sum[0], d,
                        r->sum[1], d, r->median[0], d, r->median[1]);
                tk_put_json_string(f, name);
                fputc('}', f);
            } else {
                fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.*f,%.*f,%.*f,%.*f,", r->func,
                        r->count[0], r->count[1], d, r->sum[0], d, r->sum[1], d, r->median[0], d,
                        r->median[1]);
                tk_put_csv_field(f, name);
                fprintf(f, ",%s\n", u);
            }
        }
        if (format == CLI_OUT_JSON)
            fputs("\n]}\n", f);
        rc = cli_output_commit(out);
    }
    session_close(&names);
    free(rows);
    return rc;
}

/* ---- dump --------------------------------------------------------------------------- */

static const cli_opt dump_opts[] = {MAP_OPT, {NULL, 0, NULL, NULL}};

static int run_dump(cli_ctx *ctx, const cli_args *args)
{
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++) {
        xray_session s;
        rc = session_open(ctx, args, i, 1, 1, &s);
        if (rc != CLI_EXIT_OK)
            return rc;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_xray_dump(s.reader, s.map, stdout, &err);
        fflush(stdout);
        if (st != TK_OK)
            rc = cli_error(&err);
        else
            warn_truncation(&s, ctx->paths[i]);
        session_close(&s);
    }
    return rc;
}

const cli_format_ops cli_fmt_xray = {
    .format = "xray",
    .opts = {[CLI_INFO] = info_opts, [CLI_CHECK] = check_opts, [CLI_REPORT] = report_opts,
             [CLI_CONVERT] = convert_opts, [CLI_DUMP] = dump_opts, [CLI_DIFF] = diff_opts},
    .run = {[CLI_INFO] = run_info, [CLI_CHECK] = run_check, [CLI_REPORT] = run_report,
            [CLI_CONVERT] = run_convert, [CLI_DUMP] = run_dump, [CLI_DIFF] = run_diff},
};
