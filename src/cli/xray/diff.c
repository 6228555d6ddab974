/* tracekit diff for XRay traces: per function, calls and times in A and B. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray.h"

const cli_opt cli_xray_diff_opts[] = {
    CLI_XRAY_MAP_OPT,
    CLI_XRAY_THREAD_OPT,
    {"top", 'p', "N", "only the first N rows"},
    {"format", 0, "FMT", "text|json|csv (default text)"},
    CLI_XRAY_UNIT_OPT,
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
                     diff_row **rows, size_t *n, cli_xray_session *keep)
{
    cli_xray_session s;
    int rc = cli_xray_session_open(ctx, args, i, 1, 1, &s);
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
        cli_xray_session_close(&s);
        return cli_error(&err);
    }
    if (*n)
        qsort(*rows, *n, sizeof **rows, cmp_func);
    cli_xray_warn_truncation(&s, ctx->paths[i]);
    if (keep)
        *keep = s;
    else
        cli_xray_session_close(&s);
    return CLI_EXIT_OK;
}

/* The rows of both sides (each by function id) merged into one row per function,
 * ordered by the absolute change of the total time. NULL when out of memory. */
static diff_row *merge_sides(diff_row *const *side, const size_t *nside, size_t *count)
{
    size_t n = 0;
    diff_row *rows = malloc((nside[0] + nside[1] + 1) * sizeof *rows);
    if (!rows)
        return NULL;
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
    if (n)
        qsort(rows, n, sizeof *rows, cmp_diff);
    *count = n;
    return rows;
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
        fprintf(f, "%9s %10s %10s %11s %11s %12s %11s %11s  %s\n", "funcid", "count-a",
                "count-b", h[0], h[1], h[2], h[3], h[4], "function");
    } else if (format == CLI_OUT_JSON) {
        fprintf(f, "{\"version\":2,\"format\":\"xray-diff\",\"unit\":\"%s\","
                   "\"functions\":[", u);
    } else {
        fputs("funcid,count_a,count_b,sum_a,sum_b,median_a,median_b,function,unit\n", f);
    }
}

static void print_row(FILE *f, int format, const time_style *t, const diff_row *r,
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
        fprintf(f, "%s\n{\"funcid\":%" PRIu64 ",\"count\":[%" PRIu64 ",%" PRIu64
                   "],\"sum\":[%.*f,%.*f],\"median\":[%.*f,%.*f],\"function\":",
                first ? "" : ",", r->func, r->count[0], r->count[1], d, r->sum[0], d,
                r->sum[1], d, r->median[0], d, r->median[1]);
        tk_put_json_string(f, name);
        fputc('}', f);
    } else {
        fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.*f,%.*f,%.*f,%.*f,", r->func,
                r->count[0], r->count[1], d, r->sum[0], d, r->sum[1], d, r->median[0], d,
                r->median[1]);
        tk_put_csv_field(f, name);
        fprintf(f, ",%s\n", t->unit);
    }
}

static int write_diff(const cli_args *args, int format, const time_style *t,
                      const diff_row *rows, size_t shown, const cli_xray_session *names)
{
    tk_output *out = NULL;
    int rc = cli_output_open(args, 0, &out);
    if (rc != CLI_EXIT_OK)
        return rc;
    FILE *f = tk_output_file(out);
    print_head(f, format, t);
    for (size_t i = 0; i < shown; i++) {
        char nb[64];
        print_row(f, format, t, &rows[i],
                  tk_event_func_name(&names->src, rows[i].func, nb, sizeof nb), i == 0);
    }
    if (format == CLI_OUT_JSON)
        fputs("\n]}\n", f);
    return cli_output_commit(out);
}

/* diff A B: per function, calls, total and median time in A and in B, by the absolute
 * change of the total time. Function ids are compared: both traces of one binary. */
int cli_xray_diff(cli_ctx *ctx, const cli_args *args)
{
    if (ctx->ninputs != 2)
        return cli_usage_error(ctx->command, "takes two XRay traces (got %d)", ctx->ninputs);
    int format = cli_get_choice(ctx->command, args, "format", cli_out_text_json_csv, CLI_OUT_TEXT);
    uint64_t top;
    tk_time_unit unit;
    if (format < 0 || cli_get_u64(ctx->command, args, "top", 0, &top) != 0 ||
        cli_xray_unit(ctx, args, &unit) != 0)
        return CLI_EXIT_USAGE;
    diff_row *side[2] = {NULL, NULL};
    size_t nside[2] = {0, 0}, n = 0;
    cli_xray_session names;
    int no_clock = 0;
    int rc = diff_side(ctx, args, 0, unit, &no_clock, &side[0], &nside[0], NULL);
    if (rc != CLI_EXIT_OK)
        return rc;
    if ((rc = diff_side(ctx, args, 1, unit, &no_clock, &side[1], &nside[1], &names)) !=
        CLI_EXIT_OK) {
        free(side[0]);
        return rc;
    }
    diff_row *rows = merge_sides(side, nside, &n);
    free(side[0]);
    free(side[1]);
    if (!rows) {
        cli_xray_session_close(&names);
        return cli_usage_error(ctx->command, "out of memory");
    }
    time_style t = {no_clock ? "ticks" : tk_time_unit_name(unit),
                    no_clock ? 0 : tk_time_unit_decimals(unit)};
    rc = write_diff(args, format, &t, rows, top && top < n ? (size_t)top : n, &names);
    cli_xray_session_close(&names);
    free(rows);
    return rc;
}

const cli_opt_choices cli_xray_diff_choices[] = {
    {"format", cli_out_text_json_csv}, {"unit", cli_xray_units}, {NULL, NULL}};
