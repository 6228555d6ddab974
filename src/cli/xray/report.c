/* tracekit report for XRay traces: latency accounting per function (llvm-xray account). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray.h"

const cli_opt cli_xray_report_opts[] = {
    CLI_XRAY_MAP_OPT,
    {"sort", 's', "KEY", "funcid|count|min|med|90p|99p|max|sum|func (default sum)"},
    {"order", 'r', "DIR", "asc|dsc (default dsc, asc for funcid and func)"},
    {"top", 'p', "N", "only the first N rows"},
    {"per-thread", 0, NULL, "one row per thread and function"},
    CLI_XRAY_THREAD_OPT,
    {"format", 0, "FMT", "text|json|csv (default text)"},
    CLI_XRAY_UNIT_OPT,
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

static void debug_info(const cli_xray_session *s, uint64_t func, char *buf, size_t size)
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

static void report_text(FILE *f, const cli_xray_session *s, const tk_latency_row *rows, size_t n,
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
static void report_csv(FILE *f, const cli_xray_session *s, const tk_latency_row *rows, size_t n,
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

static void report_json(FILE *f, const cli_xray_session *s, const tk_latency_row *rows, size_t n,
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

/* The rows with calls sorted by key in order (ORDER_*); *shown: how many. The
 * names of --sort func come from src. NULL when out of memory. */
static tk_latency_row *sort_rows(const tk_latency_row *rows, size_t n, int key, int order,
                                 const tk_event_source *src, size_t *shown)
{
    sort_item *items = malloc((n ? n : 1) * sizeof *items);
    tk_latency_row *sorted = malloc((n ? n : 1) * sizeof *sorted);
    size_t k = 0;
    for (size_t i = 0; items && sorted && i < n; i++) {
        if (!rows[i].count)
            continue;
        sort_item *it = &items[k++];
        it->row = rows[i];
        it->value = sort_value(&rows[i], key);
        char nb[64];
        snprintf(it->name, sizeof it->name, "%s",
                 key == SORT_FUNC ? tk_event_func_name(src, rows[i].func, nb, sizeof nb) : "");
    }
    if (items && sorted) {
        int desc = order == ORDER_DESC;
        qsort(items, k, sizeof *items,
              key == SORT_FUNC ? (desc ? by_name_desc : by_name_asc)
                               : (desc ? by_value_desc : by_value_asc));
        for (size_t i = 0; i < k; i++)
            sorted[i] = items[i].row;
    }
    free(items);
    *shown = k;
    return sorted;
}

/* What reading found on stderr: the cut, unmatched exits, unwound and open calls. */
static void report_warnings(const cli_xray_session *s, const char *path,
                            const tk_latency_totals *totals)
{
    cli_xray_warn_truncation(s, path);
    if (totals->unmatched_exits)
        fprintf(stderr, "tracekit: %s: warning: %" PRIu64 " exits without a matching entry were "
                "ignored (lost records or a wrapped buffer ring)\n", path,
                totals->unmatched_exits);
    if (totals->unwound)
        fprintf(stderr, "tracekit: %s: warning: %" PRIu64 " calls had no exit of their own and "
                "were closed by the exit of a caller\n", path, totals->unwound);
    if (totals->open_at_end)
        fprintf(stderr, "tracekit: %s: note: %" PRIu64 " calls were still open at the end of the "
                "trace (not in the statistics)\n", path, totals->open_at_end);
    cli_xray_warn_unknown_ids(s, path);
}

/* What report was asked for. */
typedef struct settings {
    int key, order, format;
    uint64_t top;
    report_style style;
} settings;

static int parse_settings(cli_ctx *ctx, const cli_args *args, settings *o)
{
    memset(o, 0, sizeof *o);
    o->key = cli_get_choice(ctx->command, args, "sort", report_keys, SORT_SUM);
    if (o->key < 0)
        return CLI_EXIT_USAGE;
    int dflt_order = o->key == SORT_FUNCID || o->key == SORT_FUNC ? ORDER_ASC : ORDER_DESC;
    o->order = cli_get_choice(ctx->command, args, "order", report_orders, dflt_order);
    o->format = cli_get_choice(ctx->command, args, "format", cli_out_text_json_csv, CLI_OUT_TEXT);
    if (o->order < 0 || o->format < 0 || cli_get_u64(ctx->command, args, "top", 0, &o->top) != 0 ||
        cli_xray_unit(ctx, args, &o->style.unit) != 0)
        return CLI_EXIT_USAGE;
    o->style.per_thread = cli_has(args, "per-thread");
    return CLI_EXIT_OK;
}

static int write_report(const cli_args *args, const cli_xray_session *s, const settings *o,
                        const tk_latency_row *rows, size_t n, const tk_latency_totals *totals)
{
    tk_output *out = NULL;
    int rc = cli_output_open(args, 0, &out);
    if (rc != CLI_EXIT_OK)
        return rc;
    FILE *f = tk_output_file(out);
    if (o->format == CLI_OUT_TEXT)
        report_text(f, s, rows, n, &o->style);
    else if (o->format == CLI_OUT_JSON)
        report_json(f, s, rows, n, &o->style, totals);
    else
        report_csv(f, s, rows, n, &o->style);
    return cli_output_commit(out);
}

int cli_xray_report(cli_ctx *ctx, const cli_args *args)
{
    int rc = cli_xray_single_input(ctx);
    if (rc != CLI_EXIT_OK)
        return rc;
    settings o;
    if ((rc = parse_settings(ctx, args, &o)) != CLI_EXIT_OK)
        return rc;
    cli_xray_session s;
    rc = cli_xray_session_open(ctx, args, 0, 1, 1, &s);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_latency *l = tk_latency_new(o.style.per_thread);
    const tk_latency_row *rows = NULL;
    size_t n = 0;
    tk_status st = l ? tk_latency_run(l, &s.src, &err)
                     : tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK)
        st = tk_latency_rows(l, &rows, &n, &err);
    if (st != TK_OK) {
        tk_latency_free(l);
        cli_xray_session_close(&s);
        return cli_error(&err);
    }
    size_t shown;
    tk_latency_row *sorted = sort_rows(rows, n, o.key, o.order, &s.src, &shown);
    if (o.top && shown > o.top)
        shown = (size_t)o.top;
    tk_latency_totals totals;
    tk_latency_get_totals(l, &totals);
    tk_error_clear(&o.style.where);
    o.style.cut = tk_xray_truncation(s.reader, &o.style.where);
    o.style.hz = s.src.ticks_per_second > 0 ? s.src.ticks_per_second : 0;
    rc = sorted ? write_report(args, &s, &o, sorted, shown, &totals)
                : cli_usage_error(ctx->command, "out of memory");
    report_warnings(&s, ctx->paths[0], &totals);
    free(sorted);
    tk_latency_free(l);
    cli_xray_session_close(&s);
    return rc;
}

const cli_opt_choices cli_xray_report_choices[] = {
    {"sort", report_keys}, {"order", report_orders}, {"format", cli_out_text_json_csv},
    {"unit", cli_xray_units}, {NULL, NULL}};
