/* tracekit diff for XRay traces: per function, calls and times in A and B (of two traces, or
 * of two sets accounted as report accounts them); or both sides' folded stacks side by side
 * for a differential flame graph, or that flame graph (svg): diff_stacks.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray.h"

const cli_opt cli_xray_diff_opts[] = {
    CLI_XRAY_MAP_OPT,
    CLI_XRAY_THREAD_OPT,
    CLI_TOP_OPT("rows"),
    {"top", 'p', "N", "llvm-xray account's letter of -n, --top"},
    CLI_ALL_OPT("rows"),
    {"format", 0, "FMT",
     "text (default), json, csv, folded (difffolded.pl's \"stack A B\" lines "
     "for a differential flame graph) or svg (that flame graph: red grew, "
     "blue shrank)"},
    {"weight", 0, "W", "folded, svg: time (self time in ns, default) or calls"},
    CLI_XRAY_UNIT_OPT,
    CLI_VS_OPT("each side's traces accounted as report accounts them (folded, svg: their "
               "stacks as convert --to folded makes them)"),
    {"jobs", 'j', "N", "with --vs: read N traces at once (default: the number of CPUs)"},
    CLI_OUTPUT_OPTS,
    CLI_SVG_OPTS,
    {NULL, 0, NULL, NULL},
};

/* diff --format, --weight */
static const cli_choice diff_formats[] = {{"text", CLI_OUT_TEXT}, {"json", CLI_OUT_JSON},
                                          {"csv", CLI_OUT_CSV},   {"folded", CLI_OUT_FOLDED},
                                          {"svg", CLI_OUT_SVG},   {NULL, 0}};
static const cli_choice diff_weights[] = {
    {"time", TK_FOLDED_TIME}, {"calls", TK_FOLDED_CALLS}, {NULL, 0}};

/* Latency accounting of input i into side i of d. keep: the session is opened there and stays
 * open (for the names of the output; not copied: a --thread filter's source points into it). */
static int diff_side(cli_ctx *ctx, const cli_args *args, int i, tk_latency_diff *d,
                     cli_xray_session *keep)
{
    cli_xray_session local, *s = keep ? keep : &local;
    int rc = cli_xray_session_open(ctx, args, i, 1, 1, s);
    if (rc != CLI_EXIT_OK) return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_latency *l = NULL;
    (void)tk_latency_open(&l, 0, NULL);
    tk_status st =
        l ? tk_latency_run(l, &s->src, &err) : tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) st = tk_latency_diff_add(d, i, l, s->src.ticks_per_second, &err);
    tk_latency_free(l);
    if (st != TK_OK) {
        cli_xray_session_close(s);
        return cli_error(&err);
    }
    cli_xray_warn_truncation(s, ctx->paths[i]);
    if (!keep) cli_xray_session_close(s);
    return CLI_EXIT_OK;
}

/* diff A... --vs B...: side (0 or 1) read as tracekit report reads several traces of one
 * binary (cli_xray_read_all: each trace's latency accounting on -j threads, merged in
 * order; --instr-map, --thread), into side `side` of d; rd (to free) keeps the map. */
static int set_side(cli_ctx *ctx, const cli_args *args, int side, tk_latency_diff *d, cli_ctx *set,
                    cli_xray_read *rd)
{
    unsigned jobs;
    if (cli_xray_jobs(ctx, args, &jobs) != 0) return CLI_EXIT_USAGE;
    *set = cli_diff_side(ctx, side);
    int rc = cli_xray_read_all(set, args, 0, jobs, rd);
    if (rc != CLI_EXIT_OK) return rc;
    for (int k = 0; k < set->ninputs; k++)
        cli_xray_part_warn_truncation(&rd->parts[k], set->paths[k]);
    tk_error err;
    tk_error_clear(&err);
    if (tk_latency_diff_add(d, side, rd->acc, rd->parts[0].hz, &err) != TK_OK)
        return cli_error(&err);
    return CLI_EXIT_OK;
}

/* How the times print: their unit's name and decimals. */
typedef struct time_style {
    const char *unit;
    int decimals;
} time_style;

static void print_head(FILE *f, int format, const time_style *t)
{
    const char *u = t->unit;
    if (format == CLI_OUT_TEXT) {
        char h[5][24];
        snprintf(h[0], sizeof h[0], "sum-a(%s)", u);
        snprintf(h[1], sizeof h[1], "sum-b(%s)", u);
        snprintf(h[2], sizeof h[2], "sum-b-a(%s)", u);
        snprintf(h[3], sizeof h[3], "med-a(%s)", u);
        snprintf(h[4], sizeof h[4], "med-b(%s)", u);
        fprintf(f, "%9s %10s %10s %11s %11s %12s %11s %11s  %s\n", "funcid", "count-a", "count-b",
                h[0], h[1], h[2], h[3], h[4], "function");
    } else if (format == CLI_OUT_JSON) {
        fprintf(f,
                "{\"version\":2,\"format\":\"xray-diff\",\"unit\":\"%s\","
                "\"functions\":[",
                u);
    } else {
        fputs("funcid,count_a,count_b,sum_a,sum_b,median_a,median_b,function,unit\n", f);
    }
}

static void print_row(FILE *f, int format, const time_style *t, const tk_latency_diff_row *r,
                      const char *name, int first)
{
    const int d = t->decimals;
    if (format == CLI_OUT_TEXT) {
        fprintf(f,
                "%9" PRIu64 " %10" PRIu64 " %10" PRIu64 " %11.*f %11.*f %+12.*f %11.*f "
                "%11.*f  %s\n",
                r->func, r->count[0], r->count[1], d, r->sum[0], d, r->sum[1], d,
                r->sum[1] - r->sum[0], d, r->median[0], d, r->median[1], name);
    } else if (format == CLI_OUT_JSON) {
        fprintf(f,
                "%s\n{\"funcid\":%" PRIu64 ",\"count\":[%" PRIu64 ",%" PRIu64
                "],\"sum\":[%.*f,%.*f],\"median\":[%.*f,%.*f],\"function\":",
                first ? "" : ",", r->func, r->count[0], r->count[1], d, r->sum[0], d, r->sum[1], d,
                r->median[0], d, r->median[1]);
        cli_put_json_string(f, name);
        fputc('}', f);
    } else {
        fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.*f,%.*f,%.*f,%.*f,", r->func, r->count[0],
                r->count[1], d, r->sum[0], d, r->sum[1], d, r->median[0], d, r->median[1]);
        cli_put_csv_field(f, name);
        fprintf(f, ",%s\n", t->unit);
    }
}

static int write_diff(const cli_args *args, int format, const time_style *t,
                      const tk_latency_diff *rows, size_t shown, const tk_event_source *names)
{
    tk_output *out = NULL;
    int rc = cli_output_open(args, 0, &out);
    if (rc != CLI_EXIT_OK) return rc;
    FILE *f = cli_output_file(out);
    print_head(f, format, t);
    for (size_t i = 0; i < shown; i++) {
        char nb[64];
        const tk_latency_diff_row *r = tk_latency_diff_row_at(rows, i);
        print_row(f, format, t, r, tk_event_func_name(names, r->func, nb, sizeof nb), i == 0);
    }
    if (format == CLI_OUT_JSON) fputs("\n]}\n", f);
    if (format == CLI_OUT_TEXT) cli_rows_note(f, shown, tk_latency_diff_count(rows), "row");
    return cli_output_commit(out);
}

/* diff A B: per function, calls, total and median time in A and in B, by the absolute
 * change of the total time. Function ids are compared: both traces of one binary. */
/* diff A... --vs B... by latency: each side as report reads it (set_side), the rows named by
 * the map (--instr-map) or by their ids. Returns an exit code. */
static int diff_sets(cli_ctx *ctx, const cli_args *args, int format, const cli_rows *rows,
                     tk_time_unit unit, tk_latency_diff *d)
{
    cli_ctx set[2];
    cli_xray_read rd[2];
    memset(rd, 0, sizeof rd);
    int rc = set_side(ctx, args, 0, d, &set[0], &rd[0]);
    if (rc == CLI_EXIT_OK) rc = set_side(ctx, args, 1, d, &set[1], &rd[1]);
    tk_error err;
    tk_error_clear(&err);
    if (rc == CLI_EXIT_OK && tk_latency_diff_finish(d, &err) != TK_OK) rc = cli_error(&err);
    if (rc == CLI_EXIT_OK) {
        tk_event_source names;
        tk_xray_map_names(rd[1].map, &names);
        int no_clock = !tk_latency_diff_has_clock(d);
        size_t n = tk_latency_diff_count(d);
        time_style t = {no_clock ? "ticks" : tk_time_unit_name(unit),
                        no_clock ? 0 : tk_time_unit_decimals(unit)};
        rc = write_diff(args, format, &t, d, rows->top && rows->top < n ? (size_t)rows->top : n,
                        &names);
    }
    for (int s = 0; s < 2; s++)
        if (rd[s].ctx) cli_xray_read_free(&rd[s]);
    return rc;
}

int cli_xray_diff(cli_ctx *ctx, const cli_args *args)
{
    int sets = ctx->nfirst && ctx->ninputs > 2;
    if (ctx->ninputs != 2 && !sets)
        return cli_usage_error(ctx->command, "takes two XRay traces (got %d)", ctx->ninputs);
    int format = cli_get_choice(ctx->command, args, "format", diff_formats, CLI_OUT_TEXT);
    if (format == CLI_OUT_FOLDED || format == CLI_OUT_SVG) {
        int weight = cli_get_choice(ctx->command, args, "weight", diff_weights, TK_FOLDED_TIME);
        if (weight < 0) return CLI_EXIT_USAGE;
        return cli_xray_diff_stacks(ctx, args, format, (tk_folded_weight)weight, sets);
    }
    if (cli_has(args, "weight"))
        return cli_usage_error(ctx->command, "--weight applies to --format folded and svg");
    cli_rows rows;
    tk_time_unit unit;
    if (format < 0 || cli_get_rows(ctx->command, args, format == CLI_OUT_TEXT, &rows) != 0 ||
        cli_xray_unit(ctx, args, &unit) != 0)
        return CLI_EXIT_USAGE;
    tk_latency_diff *d;
    tk_error err;
    tk_error_clear(&err);
    if (tk_latency_diff_open(&d, unit, &err) != TK_OK) return cli_error(&err);
    if (sets) {
        int rc = diff_sets(ctx, args, format, &rows, unit, d);
        tk_latency_diff_free(d);
        return rc;
    }
    cli_xray_session names;
    int rc = diff_side(ctx, args, 0, d, NULL);
    if (rc == CLI_EXIT_OK && (rc = diff_side(ctx, args, 1, d, &names)) != CLI_EXIT_OK) {
        tk_latency_diff_free(d);
        return rc;
    }
    if (rc == CLI_EXIT_OK && tk_latency_diff_finish(d, &err) != TK_OK) {
        cli_xray_session_close(&names);
        rc = cli_error(&err);
    }
    if (rc != CLI_EXIT_OK) {
        tk_latency_diff_free(d);
        return rc;
    }
    int no_clock = !tk_latency_diff_has_clock(d);
    size_t n = tk_latency_diff_count(d);
    time_style t = {no_clock ? "ticks" : tk_time_unit_name(unit),
                    no_clock ? 0 : tk_time_unit_decimals(unit)};
    rc = write_diff(args, format, &t, d, rows.top && rows.top < n ? (size_t)rows.top : n,
                    &names.src);
    cli_xray_session_close(&names);
    tk_latency_diff_free(d);
    return rc;
}

const cli_opt_choices cli_xray_diff_choices[] = {
    {"format", diff_formats}, {"weight", diff_weights}, {"unit", cli_xray_units}, {NULL, NULL}};
