/* tracekit report for CSI coverage metadata: sites or blocks and source lines
 * per function. */
#include <inttypes.h>
#include <string.h>

#include "csi_cov.h"
#include "tracekit/csi_cov_report.h"

const cli_opt cli_csi_cov_report_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (and its clones NAME$...)"},
    {"sort", 's', "KEY",
     "order (default: as in the file), name, entries (sites or blocks) "
     "or lines"},
    CLI_TOP_OPT("functions"),
    CLI_ALL_OPT("functions"),
    {"format", 0, "FMT", "text (default), json or csv"},
    CLI_EACH_JOBS_OPT("files"),
    {NULL, 0, NULL, NULL},
};

static const cli_choice sort_keys[] = {{"order", TK_CSI_COV_REPORT_BY_ORDER},
                                       {"name", TK_CSI_COV_REPORT_BY_NAME},
                                       {"entries", TK_CSI_COV_REPORT_BY_ENTRIES},
                                       {"lines", TK_CSI_COV_REPORT_BY_LINES},
                                       {NULL, 0}};
static const cli_choice report_formats[] = {
    {"text", CLI_OUT_TEXT}, {"csv", CLI_OUT_CSV}, {"json", CLI_OUT_JSON}, {NULL, 0}};

typedef struct report_state {
    int fmt;
    uint64_t top;
    tk_csi_cov_report *rep;
} report_state;

static tk_status report_function(void *user, const cli_csi_cov_source *src,
                                 const tk_csi_cov_function *fn, tk_error *err)
{
    (void)src;
    const report_state *rs = user;
    return tk_csi_cov_report_add(rs->rep, fn, err);
}

static void report_text(const report_state *rs, const cli_csi_cov_source *src, size_t shown)
{
    tk_csi_cov_kind k = src->kind;
    tk_csi_cov_report_totals t;
    tk_csi_cov_report_get_totals(rs->rep, &t);
    size_t n = tk_csi_cov_report_count(rs->rep);
    printf("%s: %s (%s), %zu function%s", src->text.name, tk_csi_cov_kind_title(k),
           tk_csi_cov_section(k), n, cli_s(n));
    if (k == TK_CSI_COV_FC) {
        printf("\n\n%-24s  %s\n", "function", "array");
        for (size_t i = 0; i < shown; i++) {
            const tk_csi_cov_report_row *r = tk_csi_cov_report_row_at(rs->rep, i);
            printf("%-24s  %s\n", r->name, r->array);
        }
    } else {
        const char *what = cli_csi_cov_entries_name(k);
        printf(", %" PRIu64 " %.*s (%" PRIu64 " instrumented, %" PRIu64 " not instrumented), "
               "%" PRIu64 " line%s\n\n",
               t.entries, (int)(strlen(what) - (t.entries == 1)), what, t.instrumented,
               t.entries - t.instrumented, t.lines, cli_s(t.lines));
        printf("%7s %7s %7s %7s  %-24s  %s\n", what, "instr", "not", "lines", "function", "array");
        for (size_t i = 0; i < shown; i++) {
            const tk_csi_cov_report_row *r = tk_csi_cov_report_row_at(rs->rep, i);
            printf("%7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 "  %-24s  %s\n", r->entries,
                   r->instrumented, r->entries - r->instrumented, r->lines, r->name, r->array);
        }
    }
    cli_rows_note(stdout, shown, n, "function");
}

static void report_csv(const report_state *rs, size_t shown)
{
    printf("function,array,entries,instrumented,not_instrumented,lines\n");
    for (size_t i = 0; i < shown; i++) {
        const tk_csi_cov_report_row *r = tk_csi_cov_report_row_at(rs->rep, i);
        cli_put_csv_field(stdout, r->name);
        putchar(',');
        cli_put_csv_field(stdout, r->array);
        printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->entries, r->instrumented,
               r->entries - r->instrumented, r->lines);
    }
}

static void report_json(const report_state *rs, const cli_csi_cov_source *src, size_t shown)
{
    tk_csi_cov_report_totals t;
    tk_csi_cov_report_get_totals(rs->rep, &t);
    printf("{\"version\": 1, \"file\": ");
    cli_put_json_string(stdout, src->text.name);
    printf(", \"kind\": \"%s\", \"functions\": %zu, \"entries\": %" PRIu64
           ", \"instrumented\": %" PRIu64 ", \"lines\": %" PRIu64 ",\n \"rows\": [",
           tk_csi_cov_kind_name(src->kind), tk_csi_cov_report_count(rs->rep), t.entries,
           t.instrumented, t.lines);
    for (size_t i = 0; i < shown; i++) {
        const tk_csi_cov_report_row *r = tk_csi_cov_report_row_at(rs->rep, i);
        printf("%s\n  {\"function\": ", i ? "," : "");
        cli_put_json_string(stdout, r->name);
        printf(", \"array\": ");
        cli_put_json_string(stdout, r->array);
        printf(", \"entries\": %" PRIu64 ", \"instrumented\": %" PRIu64
               ", \"not_instrumented\": %" PRIu64 ", \"lines\": %" PRIu64 "}",
               r->entries, r->instrumented, r->entries - r->instrumented, r->lines);
    }
    printf("]}\n");
}

static void report_print(void *user, const cli_csi_cov_source *src)
{
    report_state *rs = user;
    tk_csi_cov_report_sort(rs->rep);
    size_t n = tk_csi_cov_report_count(rs->rep);
    size_t shown = rs->top == 0 || rs->top > n ? n : (size_t)rs->top;
    if (rs->fmt == CLI_OUT_TEXT)
        report_text(rs, src, shown);
    else if (rs->fmt == CLI_OUT_CSV)
        report_csv(rs, shown);
    else
        report_json(rs, src, shown);
    tk_csi_cov_report_clear(rs->rep);
}

int cli_csi_cov_report(cli_ctx *ctx, const cli_args *args)
{
    report_state rs = {0, 0, NULL};
    tk_csi_cov_report_options o = TK_CSI_COV_REPORT_OPTIONS_INIT;
    int key = cli_get_choice("report", args, "sort", sort_keys, TK_CSI_COV_REPORT_BY_ORDER);
    rs.fmt = cli_get_choice("report", args, "format", report_formats, CLI_OUT_TEXT);
    cli_rows rows;
    if (key < 0 || rs.fmt < 0 || cli_get_rows("report", args, rs.fmt == CLI_OUT_TEXT, &rows))
        return CLI_EXIT_USAGE;
    rs.top = rows.top;
    o.key = (tk_csi_cov_report_key)key;
    tk_error err;
    tk_error_clear(&err);
    if (tk_csi_cov_report_open(&rs.rep, &o, &err) != TK_OK) return cli_error(&err);
    cli_csi_cov_visitor v = {.selector = cli_get(args, "function"),
                             .user = &rs,
                             .function = report_function,
                             .input_done = report_print};
    int rc = cli_csi_cov_visit(ctx, &v);
    tk_csi_cov_report_free(rs.rep);
    return rc;
}

const cli_opt_choices cli_csi_cov_report_choices[] = {
    {"sort", sort_keys}, {"format", report_formats}, {NULL, NULL}};
