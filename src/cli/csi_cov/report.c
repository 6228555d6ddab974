/* tracekit report for CSI coverage metadata: sites or blocks and source lines
 * per function. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi_cov.h"

const cli_opt cli_csi_cov_report_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (and its clones NAME$...)"},
    {"sort", 's', "KEY", "order (default: as in the file), name, entries (sites or blocks) "
                       "or lines"},
    CLI_TOP_OPT("functions"),
    CLI_ALL_OPT("functions"),
    {"format", 0, "FMT", "text (default), csv or json"},
    {NULL, 0, NULL, NULL},
};

enum { SORT_ORDER, SORT_NAME, SORT_ENTRIES, SORT_LINES };
static const cli_choice sort_keys[] = {{"order", SORT_ORDER}, {"name", SORT_NAME},
                                       {"entries", SORT_ENTRIES}, {"lines", SORT_LINES},
                                       {NULL, 0}};
static const cli_choice report_formats[] = {
    {"text", CLI_OUT_TEXT}, {"csv", CLI_OUT_CSV}, {"json", CLI_OUT_JSON}, {NULL, 0}};

typedef struct cov_row {
    char *name, *array;
    uint64_t order, entries, instrumented, lines;
} cov_row;

typedef struct report_state {
    int key, fmt;
    uint64_t top;
    cov_row *rows;
    size_t n, cap;
    uint64_t entries, instrumented, lines;
} report_state;

static tk_status add_row(report_state *rs, const tk_csi_cov_function *fn, uint64_t nlines,
                         tk_error *err)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 64;
        cov_row *rows = realloc(rs->rows, cap * sizeof *rows);
        if (!rows)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        rs->rows = rows;
        rs->cap = cap;
    }
    cov_row *r = &rs->rows[rs->n];
    r->name = strdup(fn->name);
    r->array = strdup(fn->array);
    if (!r->name || !r->array) {
        free(r->name);
        free(r->array);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    rs->n++;
    r->order = fn->ordinal;
    r->entries = fn->nentries;
    r->instrumented = fn->ninstrumented;
    r->lines = nlines;
    rs->entries += r->entries;
    rs->instrumented += r->instrumented;
    rs->lines += r->lines;
    return TK_OK;
}

static tk_status report_function(void *user, const cli_csi_cov_source *src,
                                 const tk_csi_cov_function *fn, tk_error *err)
{
    (void)src;
    size_t n = tk_csi_cov_line_entries(fn);
    uint64_t *lines = malloc((n ? n : 1) * sizeof *lines);
    if (!lines)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    n = tk_csi_cov_lines(fn, lines);
    free(lines);
    return add_row(user, fn, n, err);
}

static int cmp_rows(const void *pa, const void *pb, void *key_ptr)
{
    const cov_row *a = pa, *b = pb;
    int key = *(const int *)key_ptr;
    if (key == SORT_NAME) {
        int c = strcmp(a->name, b->name);
        if (c)
            return c;
    } else if (key != SORT_ORDER) {
        uint64_t x = key == SORT_ENTRIES ? a->entries : a->lines;
        uint64_t y = key == SORT_ENTRIES ? b->entries : b->lines;
        if (x != y)
            return x < y ? 1 : -1;
    }
    return a->order < b->order ? -1 : a->order > b->order;
}

static void report_text(const report_state *rs, const cli_csi_cov_source *src, size_t shown)
{
    tk_csi_cov_kind k = src->kind;
    printf("%s: %s (%s), %zu function%s", src->name, tk_csi_cov_kind_title(k),
           tk_csi_cov_section(k), rs->n, cli_s(rs->n));
    if (k == TK_CSI_COV_FC) {
        printf("\n\n%-24s  %s\n", "function", "array");
        for (size_t i = 0; i < shown; i++)
            printf("%-24s  %s\n", rs->rows[i].name, rs->rows[i].array);
    } else {
        const char *what = cli_csi_cov_entries_name(k);
        printf(", %" PRIu64 " %.*s (%" PRIu64 " instrumented, %" PRIu64 " not instrumented), "
               "%" PRIu64 " line%s\n\n",
               rs->entries, (int)(strlen(what) - (rs->entries == 1)), what, rs->instrumented,
               rs->entries - rs->instrumented, rs->lines, cli_s(rs->lines));
        printf("%7s %7s %7s %7s  %-24s  %s\n", what, "instr", "not", "lines", "function",
               "array");
        for (size_t i = 0; i < shown; i++) {
            const cov_row *r = &rs->rows[i];
            printf("%7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 "  %-24s  %s\n", r->entries,
                   r->instrumented, r->entries - r->instrumented, r->lines, r->name, r->array);
        }
    }
    cli_rows_note(stdout, shown, rs->n, "function");
}

static void report_csv(const report_state *rs, size_t shown)
{
    printf("function,array,entries,instrumented,not_instrumented,lines\n");
    for (size_t i = 0; i < shown; i++) {
        const cov_row *r = &rs->rows[i];
        cli_put_csv_field(stdout, r->name);
        putchar(',');
        cli_put_csv_field(stdout, r->array);
        printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->entries,
               r->instrumented, r->entries - r->instrumented, r->lines);
    }
}

static void report_json(const report_state *rs, const cli_csi_cov_source *src, size_t shown)
{
    printf("{\"version\": 1, \"file\": ");
    cli_put_json_string(stdout, src->name);
    printf(", \"kind\": \"%s\", \"functions\": %zu, \"entries\": %" PRIu64
           ", \"instrumented\": %" PRIu64 ", \"lines\": %" PRIu64 ",\n \"rows\": [",
           tk_csi_cov_kind_name(src->kind), rs->n, rs->entries, rs->instrumented, rs->lines);
    for (size_t i = 0; i < shown; i++) {
        const cov_row *r = &rs->rows[i];
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

static void report_clear(report_state *rs)
{
    for (size_t i = 0; i < rs->n; i++) {
        free(rs->rows[i].name);
        free(rs->rows[i].array);
    }
    rs->n = 0;
    rs->entries = rs->instrumented = rs->lines = 0;
}

static void report_print(void *user, const cli_csi_cov_source *src)
{
    report_state *rs = user;
    qsort_r(rs->rows, rs->n, sizeof *rs->rows, cmp_rows, &rs->key);
    size_t shown = rs->top == 0 || rs->top > rs->n ? rs->n : (size_t)rs->top;
    if (rs->fmt == CLI_OUT_TEXT)
        report_text(rs, src, shown);
    else if (rs->fmt == CLI_OUT_CSV)
        report_csv(rs, shown);
    else
        report_json(rs, src, shown);
    report_clear(rs);
}

int cli_csi_cov_report(cli_ctx *ctx, const cli_args *args)
{
    report_state rs;
    memset(&rs, 0, sizeof rs);
    rs.key = cli_get_choice("report", args, "sort", sort_keys, SORT_ORDER);
    rs.fmt = cli_get_choice("report", args, "format", report_formats, CLI_OUT_TEXT);
    cli_rows rows;
    if (rs.key < 0 || rs.fmt < 0 || cli_get_rows("report", args, rs.fmt == CLI_OUT_TEXT, &rows))
        return CLI_EXIT_USAGE;
    rs.top = rows.top;
    cli_csi_cov_visitor v = {.selector = cli_get(args, "function"), .user = &rs,
                             .function = report_function, .input_done = report_print};
    int rc = cli_csi_cov_visit(ctx, &v);
    report_clear(&rs);
    free(rs.rows);
    return rc;
}

const cli_opt_choices cli_csi_cov_report_choices[] = {
    {"sort", sort_keys}, {"format", report_formats}, {NULL, NULL}};
