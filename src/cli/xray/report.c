/* tracekit report for XRay traces: latency accounting per function (llvm-xray account). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "team.h"
#include "xray.h"

const cli_opt cli_xray_report_opts[] = {
    CLI_XRAY_MAP_OPT,
    {"sort", 's', "KEY", "funcid|count|min|med|90p|99p|max|sum|self|func (default sum)"},
    {"order", 'r', "DIR", "asc|dsc (default dsc, asc for funcid and func)"},
    {"sortorder", 0, "DIR", "llvm-xray account's name of --order"},
    CLI_TOP_OPT("rows"),
    {"top", 'p', "N", "llvm-xray account's letter of -n, --top"},
    CLI_ALL_OPT("rows"),
    {"per-thread", 0, NULL, "one row per thread and function"},
    CLI_XRAY_THREAD_OPT,
    {"format", 0, "FMT", "text (default), json or csv"},
    CLI_XRAY_UNIT_OPT,
    CLI_OUTPUT_OPTS,
    {"jobs", 'j', "N", "read N traces at once (default: the number of CPUs)"},
    {NULL, 0, NULL, NULL},
};

/* --sort (llvm-xray account's keys) and --order */
static const cli_choice report_keys[] = {{"funcid", TK_LATENCY_KEY_FUNCID},
                                         {"count", TK_LATENCY_KEY_COUNT},
                                         {"min", TK_LATENCY_KEY_MIN},
                                         {"med", TK_LATENCY_KEY_MEDIAN},
                                         {"90p", TK_LATENCY_KEY_P90},
                                         {"99p", TK_LATENCY_KEY_P99},
                                         {"max", TK_LATENCY_KEY_MAX},
                                         {"sum", TK_LATENCY_KEY_SUM},
                                         {"self", TK_LATENCY_KEY_SELF},
                                         {"func", TK_LATENCY_KEY_FUNC},
                                         {NULL, 0}};
static const cli_choice report_orders[] = {
    {"asc", TK_LATENCY_ORDER_ASC}, {"dsc", TK_LATENCY_ORDER_DESC}, {NULL, 0}};

/* What the rows are printed with: the names, the clock, where traces were cut. */
typedef struct report_in {
    const tk_xray_map *map;
    tk_event_source names; /* tk_xray_map_names */
    int emulated; /* the first trace's clock is an emulated TSC */
    int ntraces;
    const char **paths;
    const cli_xray_part *parts;
    int keys; /* per thread, with several traces: a process column (tk_latency_row.process) */
    int key_width; /* of the text's process column */
} report_in;

static void debug_info(const report_in *s, uint64_t func, char *buf, size_t size)
{
    const tk_xray_function *f =
        s->map && func <= UINT32_MAX ? tk_xray_map_function(s->map, (uint32_t)func) : NULL;
    if (f && f->file) { /* the base name: reports stay the same wherever the binary was built */
        const char *base = strrchr(f->file, '/');
        snprintf(buf, size, "%s:%" PRIu32, base ? base + 1 : f->file, f->line);
    } else
        buf[0] = 0;
}

/* How report prints: the clock, the unit. */
typedef struct report_style {
    double hz; /* 0: the trace has no clock rate; times are printed in ticks */
    tk_time_unit unit;
    int per_thread;
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

static void report_text(FILE *f, const report_in *s, const tk_latency_report *rows,
                        const report_style *st)
{
    size_t n = tk_latency_report_count(rows);
    const int w = TIME_WIDTH, d = unit_decimals(st->hz, st->unit);
    fprintf(f, "Functions with latencies: %zu (times in %s", tk_latency_report_total(rows),
            unit_label(st->hz, st->unit));
    for (int k = 0; k < s->ntraces; k++) {
        if (!s->parts[k].cut) continue;
        if (s->ntraces == 1)
            fprintf(f, "; the trace is cut short at byte %" PRId64, s->parts[k].where.offset);
        else
            fprintf(f, "; %s is cut short at byte %" PRId64, s->paths[k], s->parts[k].where.offset);
    }
    fputs(")\n", f);
    if (s->keys) fprintf(f, "%*s ", s->key_width, "process");
    if (st->per_thread) fprintf(f, "%9s ", "tid");
    fprintf(f, "%9s %10s [ %*s, %*s, %*s, %*s, %*s] %*s %*s  %s\n", "funcid", "count", w, "min", w,
            "med", w, "90p", w, "99p", w, "max", w, "sum", w, "self", "function");
    for (size_t i = 0; i < n; i++) {
        const tk_latency_row *r = tk_latency_report_row(rows, i);
        char nb[64], db[600];
        debug_info(s, r->func, db, sizeof db);
        if (s->keys) fprintf(f, "%*" PRId64 " ", s->key_width, r->process);
        if (st->per_thread) fprintf(f, "%9" PRId64 " ", r->tid);
        fprintf(f,
                "%9" PRIu64 " %10" PRIu64 " [ %*.*f, %*.*f, %*.*f, %*.*f, %*.*f] %*.*f %*.*f  "
                "%s%s%s",
                r->func, r->count, w, d, tk_ticks_to_unit(r->min, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->median, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->p90, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->p99, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->max, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->sum, st->hz, st->unit), w, d,
                tk_ticks_to_unit(r->self, st->hz, st->unit), db, db[0] ? ": " : "",
                tk_event_func_name(&s->names, r->func, nb, sizeof nb));
        if (r->open) fprintf(f, " (%" PRIu64 " open at end)", r->open);
        fputc('\n', f);
    }
    cli_rows_note(f, n, tk_latency_report_total(rows), "row");
}

/* The columns of llvm-xray account's CSV (and open), then the unit of the times. */
static void report_csv(FILE *f, const report_in *s, const tk_latency_report *rows,
                       const report_style *st)
{
    size_t n = tk_latency_report_count(rows);
    const char *u = unit_label(st->hz, st->unit);
    fprintf(f,
            "%s%sfuncid,count,min,median,90%%ile,99%%ile,max,sum,self,debug,function,open,"
            "unit\n",
            s->keys ? "process," : "", st->per_thread ? "tid," : "");
    for (size_t i = 0; i < n; i++) {
        const tk_latency_row *r = tk_latency_report_row(rows, i);
        char nb[64], db[600];
        debug_info(s, r->func, db, sizeof db);
        if (s->keys) fprintf(f, "%" PRId64 ",", r->process);
        if (st->per_thread) fprintf(f, "%" PRId64 ",", r->tid);
        fprintf(
            f,
            "%" PRIu64 ",%" PRIu64 ",%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,\"%s\",\"%s\",%" PRIu64
            ",%s\n",
            r->func, r->count, tk_ticks_to_unit(r->min, st->hz, st->unit),
            tk_ticks_to_unit(r->median, st->hz, st->unit),
            tk_ticks_to_unit(r->p90, st->hz, st->unit), tk_ticks_to_unit(r->p99, st->hz, st->unit),
            tk_ticks_to_unit(r->max, st->hz, st->unit), tk_ticks_to_unit(r->sum, st->hz, st->unit),
            tk_ticks_to_unit(r->self, st->hz, st->unit), db,
            tk_event_func_name(&s->names, r->func, nb, sizeof nb), r->open, u);
    }
}

/* With several traces, per thread: the width of the text's process column (each row's
 * process, tk_latency_row.process: the pid a Chrome trace of them writes), over every row. */
static int key_width(report_in *s, tk_latency *acc)
{
    const tk_latency_row *rows;
    size_t n;
    tk_error err;
    tk_error_clear(&err);
    if (tk_latency_rows(acc, &rows, &n, &err) != TK_OK) return cli_error(&err);
    s->keys = 1;
    s->key_width = 9;
    for (size_t i = 0; i < n; i++) {
        char b[24];
        int w = snprintf(b, sizeof b, "%" PRId64, rows[i].process);
        if (w > s->key_width) s->key_width = w;
    }
    return CLI_EXIT_OK;
}

/* "truncated": the first trace cut short (with its path when there are several), or null. */
static void report_json_cut(FILE *f, const report_in *s)
{
    for (int k = 0; k < s->ntraces; k++) {
        if (!s->parts[k].cut) continue;
        fputc('{', f);
        if (s->ntraces > 1) {
            fputs("\"path\":", f);
            cli_put_json_string(f, s->paths[k]);
            fputc(',', f);
        }
        fprintf(f, "\"byte\":%" PRId64 ",\"message\":", s->parts[k].where.offset);
        cli_put_json_string(f, s->parts[k].where.message);
        fputc('}', f);
        return;
    }
    fputs("null", f);
}

static void report_json(FILE *f, const report_in *s, const tk_latency_report *rows,
                        const report_style *st, const tk_latency_totals *t)
{
    size_t n = tk_latency_report_count(rows);
    fprintf(f,
            "{\"version\":2,\"unit\":\"%s\",\"clock\":{\"ticks_per_second\":%.0f,"
            "\"emulated\":%s},\"per_thread\":%s,\"truncated\":",
            unit_label(st->hz, st->unit), st->hz, s->emulated ? "true" : "false",
            st->per_thread ? "true" : "false");
    report_json_cut(f, s);
    fputs(",\"functions\":[", f);
    for (size_t i = 0; i < n; i++) {
        const tk_latency_row *r = tk_latency_report_row(rows, i);
        char nb[64], db[600];
        debug_info(s, r->func, db, sizeof db);
        fprintf(f, "%s\n{\"id\":%" PRIu64 ",\"name\":", i ? "," : "", r->func);
        cli_put_json_string(f, tk_event_func_name(&s->names, r->func, nb, sizeof nb));
        if (db[0]) {
            fprintf(f, ",\"debug\":");
            cli_put_json_string(f, db);
        }
        if (st->per_thread) fprintf(f, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64, r->pid, r->tid);
        if (s->keys)
            fprintf(f, ",\"trace\":%" PRIu32 ",\"process\":%" PRId64, r->trace, r->process);
        fprintf(
            f,
            ",\"count\":%" PRIu64 ",\"min\":%.9e,\"median\":%.9e,\"p90\":%.9e,"
            "\"p99\":%.9e,\"max\":%.9e,\"sum\":%.9e,\"self\":%.9e,\"open\":%" PRIu64
            ",\"unwound\":%" PRIu64 "}",
            r->count, tk_ticks_to_unit(r->min, st->hz, st->unit),
            tk_ticks_to_unit(r->median, st->hz, st->unit),
            tk_ticks_to_unit(r->p90, st->hz, st->unit), tk_ticks_to_unit(r->p99, st->hz, st->unit),
            tk_ticks_to_unit(r->max, st->hz, st->unit), tk_ticks_to_unit(r->sum, st->hz, st->unit),
            tk_ticks_to_unit(r->self, st->hz, st->unit), r->open, r->unwound);
    }
    fprintf(f,
            "\n],\"totals\":{\"threads\":%" PRIu32 ",\"enters\":%" PRIu64 ",\"exits\":%" PRIu64
            ",\"unmatched_exits\":%" PRIu64 ",\"unwound\":%" PRIu64 ",\"open_at_end\":%" PRIu64
            ",\"max_depth\":%" PRIu32 "}}\n",
            t->threads, t->enters, t->exits, t->unmatched_exits, t->unwound, t->open_at_end,
            t->max_depth);
}

/* What reading trace k found, on stderr: the cut, unmatched exits, unwound and open calls,
 * unknown function ids. */
static void report_warnings(const report_in *in, int k)
{
    const cli_xray_part *p = &in->parts[k];
    const char *path = in->paths[k];
    const tk_latency_totals *totals = &p->totals;
    cli_xray_part_warn_truncation(p, path);
    if (totals->unmatched_exits)
        fprintf(stderr,
                "tracekit: %s: warning: %" PRIu64 " exit%s without a matching entry %s "
                "ignored (lost records or a wrapped buffer ring)\n",
                path, totals->unmatched_exits, cli_s(totals->unmatched_exits),
                totals->unmatched_exits == 1 ? "was" : "were");
    if (totals->unwound)
        fprintf(stderr,
                "tracekit: %s: warning: %" PRIu64 " call%s had no exit of %s own and "
                "%s closed by the exit of a caller\n",
                path, totals->unwound, cli_s(totals->unwound),
                totals->unwound == 1 ? "its" : "their", totals->unwound == 1 ? "was" : "were");
    if (totals->open_at_end)
        fprintf(stderr,
                "tracekit: %s: note: %" PRIu64 " call%s %s still open at the end of the "
                "trace (not in the statistics)\n",
                path, totals->open_at_end, cli_s(totals->open_at_end),
                totals->open_at_end == 1 ? "was" : "were");
    cli_xray_part_warn_unknown_ids(p, in->map, path);
}

/* What report was asked for. */
typedef struct settings {
    tk_latency_report_options sort;
    int format;
    report_style style;
    unsigned jobs;
} settings;

static int parse_settings(cli_ctx *ctx, const cli_args *args, settings *o)
{
    memset(o, 0, sizeof *o);
    int key = cli_get_choice(ctx->command, args, "sort", report_keys, TK_LATENCY_KEY_SUM);
    if (key < 0) return CLI_EXIT_USAGE;
    o->sort.key = (tk_latency_key)key;
    int order =
        cli_get_choice(ctx->command, args, "order", report_orders, TK_LATENCY_ORDER_DEFAULT);
    o->sort.order = (tk_latency_order)order;
    o->format = cli_get_choice(ctx->command, args, "format", cli_out_text_json_csv, CLI_OUT_TEXT);
    cli_rows rows;
    if (order < 0 || o->format < 0 ||
        cli_get_rows(ctx->command, args, o->format == CLI_OUT_TEXT, &rows) != 0 ||
        cli_xray_unit(ctx, args, &o->style.unit) != 0 || cli_xray_jobs(ctx, args, &o->jobs) != 0)
        return CLI_EXIT_USAGE;
    o->sort.top = rows.top;
    o->style.per_thread = cli_has(args, "per-thread");
    return CLI_EXIT_OK;
}

static int write_report(const cli_args *args, const report_in *in, const settings *o,
                        const tk_latency_report *rows, const tk_latency_totals *totals)
{
    tk_output *out = NULL;
    int rc = cli_output_open(args, 0, &out);
    if (rc != CLI_EXIT_OK) return rc;
    FILE *f = cli_output_file(out);
    if (o->format == CLI_OUT_TEXT)
        report_text(f, in, rows, &o->style);
    else if (o->format == CLI_OUT_JSON)
        report_json(f, in, rows, &o->style, totals);
    else
        report_csv(f, in, rows, &o->style);
    return cli_output_commit(out);
}

/* The report of the merged accounting of every trace. */
static int report_of(cli_ctx *ctx, const cli_args *args, settings *o, cli_xray_read *rd)
{
    report_in in = {rd->map, {0}, rd->parts[0].emulated, ctx->ninputs, ctx->paths, rd->parts, 0, 0};
    if (o->style.per_thread && ctx->ninputs > 1) {
        int krc = key_width(&in, rd->acc);
        if (krc != CLI_EXIT_OK) return krc;
    }
    tk_xray_map_names(rd->map, &in.names);
    o->sort.names = &in.names;
    o->style.hz = rd->parts[0].hz;
    tk_error err;
    tk_error_clear(&err);
    tk_latency_report *rows = NULL;
    if (tk_latency_report_open(&rows, rd->acc, &o->sort, &err) != TK_OK) return cli_error(&err);
    tk_latency_totals totals;
    tk_latency_get_totals(rd->acc, &totals);
    int rc = write_report(args, &in, o, rows, &totals);
    for (int k = 0; k < ctx->ninputs; k++) report_warnings(&in, k);
    tk_latency_report_free(rows);
    return rc;
}

int cli_xray_report(cli_ctx *ctx, const cli_args *args)
{
    settings o;
    int rc = parse_settings(ctx, args, &o);
    if (rc != CLI_EXIT_OK) return rc;
    cli_xray_read rd;
    rc = cli_xray_read_all(ctx, args, o.style.per_thread, o.jobs, &rd);
    if (rc == CLI_EXIT_OK && cli_team_writes(ctx)) /* in a team, the root writes */
        rc = report_of(ctx, args, &o, &rd);
    cli_xray_read_free(&rd);
    return rc;
}

const cli_opt_choices cli_xray_report_choices[] = {{"sort", report_keys},
                                                   {"order", report_orders},
                                                   {"format", cli_out_text_json_csv},
                                                   {"unit", cli_xray_units},
                                                   {NULL, NULL}};
