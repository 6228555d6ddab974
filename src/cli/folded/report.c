/* tracekit report for folded stacks: each frame name's self and total counts. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"

const cli_opt cli_folded_report_opts[] = {
    {"sort", 's', "KEY", "total (default: the stacks a name is in, once each), self or name"},
    CLI_TOP_OPT("rows"),
    CLI_ALL_OPT("rows"),
    {"format", 0, "FMT", "text (default), json or csv"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

static const cli_choice sort_keys[] = {{"total", TK_FOLDED_BY_TOTAL},
                                       {"self", TK_FOLDED_BY_SELF},
                                       {"name", TK_FOLDED_BY_NAME},
                                       {NULL, 0}};

static void put_num(FILE *f, double v)
{
    if (v == floor(v) && v < 1e18)
        fprintf(f, "%" PRIu64, (uint64_t)v);
    else
        fprintf(f, "%.17g", v);
}

/* The name as a NUL-terminated string in *buf (grown). */
static const char *name_of(const tk_folded_function *fn, char **buf, size_t *cap)
{
    if (fn->name_len + 1 > *cap) {
        char *b = realloc(*buf, fn->name_len + 1);
        if (!b) return "";
        *buf = b;
        *cap = fn->name_len + 1;
    }
    memcpy(*buf, fn->name, fn->name_len);
    (*buf)[fn->name_len] = '\0';
    return *buf;
}

static void report_json(FILE *f, const char *path, const tk_folded_summary *s)
{
    char *buf = NULL;
    size_t cap = 0;
    fputs("{\"version\": 1, \"format\": \"folded\", \"file\": ", f);
    cli_put_json_string(f, path);
    fprintf(f,
            ", \"stacks\": %" PRIu64 ", \"frame_names\": %zu, \"max_depth\": %" PRIu32
            ", \"differential\": %s",
            s->stacks, s->nfunctions, s->max_depth, s->differential ? "true" : "false");
    if (s->differential) fputs(", \"total_before\": ", f), put_num(f, s->total_before);
    fputs(", \"total\": ", f);
    put_num(f, s->total);
    fputs(",\n \"functions\": [", f);
    for (size_t i = 0; i < s->shown; i++) {
        const tk_folded_function *fn = &s->functions[i];
        fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
        cli_put_json_string(f, name_of(fn, &buf, &cap));
        fputs(", \"self\": ", f);
        put_num(f, fn->self);
        fputs(", \"total\": ", f);
        put_num(f, fn->total);
        if (s->differential) {
            fputs(", \"self_before\": ", f);
            put_num(f, fn->self_before);
            fputs(", \"total_before\": ", f);
            put_num(f, fn->total_before);
        }
        fputc('}', f);
    }
    fputs("]}\n", f);
    free(buf);
}

static void report_csv(FILE *f, const tk_folded_summary *s)
{
    char *buf = NULL;
    size_t cap = 0;
    fputs(s->differential ? "name,self,total,self_before,total_before\n" : "name,self,total\n", f);
    for (size_t i = 0; i < s->shown; i++) {
        const tk_folded_function *fn = &s->functions[i];
        cli_put_csv_field(f, name_of(fn, &buf, &cap));
        fputc(',', f);
        put_num(f, fn->self);
        fputc(',', f);
        put_num(f, fn->total);
        if (s->differential) {
            fputc(',', f);
            put_num(f, fn->self_before);
            fputc(',', f);
            put_num(f, fn->total_before);
        }
        fputc('\n', f);
    }
    free(buf);
}

static void report_text(FILE *f, const tk_folded_summary *s)
{
    fprintf(f, "stacks: %" PRIu64 ", frame names: %zu, total: ", s->stacks, s->nfunctions);
    put_num(f, s->total);
    if (s->differential) fputs(" (before: ", f), put_num(f, s->total_before), fputc(')', f);
    fprintf(f, "\n\n%14s %7s %14s %7s  %s\n", "total", "%", "self", "%", "name");
    double t = s->total > 0 ? s->total : 1;
    for (size_t i = 0; i < s->shown; i++) {
        const tk_folded_function *fn = &s->functions[i];
        fprintf(f, "%14.15g %6.2f%% %14.15g %6.2f%%  %.*s\n", fn->total, 100 * fn->total / t,
                fn->self, 100 * fn->self / t, (int)fn->name_len, fn->name);
    }
    cli_rows_note(f, s->shown, s->nfunctions, "row");
}

int cli_folded_report(cli_ctx *ctx, const cli_args *args)
{
    int key = cli_get_choice("report", args, "sort", sort_keys, TK_FOLDED_BY_TOTAL);
    int fmt = cli_get_choice("report", args, "format", cli_out_text_json_csv, CLI_OUT_TEXT);
    cli_rows rows;
    if (key < 0 || fmt < 0 || cli_get_rows("report", args, fmt == CLI_OUT_TEXT, &rows) != 0)
        return CLI_EXIT_USAGE;
    if (ctx->ninputs != 1) return cli_usage_error("report", "report takes one FILE");
    const char *text;
    size_t len;
    int rc = cli_folded_text(ctx, 0, &text, &len);
    if (rc != CLI_EXIT_OK) return rc;
    tk_folded_summary s;
    tk_error err;
    tk_error_clear(&err);
    if (tk_folded_summarize(text, len, ctx->paths[0], &s, &err) != TK_OK) return cli_error(&err);
    tk_folded_summary_sort(&s, (tk_folded_order)key);
    tk_folded_summary_cut(&s, rows.top);
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        FILE *f = cli_output_file(o);
        if (fmt == CLI_OUT_JSON)
            report_json(f, ctx->paths[0], &s);
        else if (fmt == CLI_OUT_CSV)
            report_csv(f, &s);
        else
            report_text(f, &s);
        rc = cli_output_commit(o);
    }
    tk_folded_summary_free(&s);
    return rc;
}

const cli_opt_choices cli_folded_report_choices[] = {
    {"sort", sort_keys}, {"format", cli_out_text_json_csv}, {NULL, NULL}};
