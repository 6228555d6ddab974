/* tracekit report for CSI metadata: the functions with the most Ball-Larus paths. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"

/* csi-cc's default PT_HASH_SIZE: ULONG_MAX / 2 - 1 paths at most. */
#define PATH_LIMIT (UINT64_MAX / 2 - 1)

const cli_opt cli_csi_report_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    {"top", 0, "N", "show the N functions with most paths (default 20; 0 = all)"},
    {"sort", 0, "KEY", "paths (default), blocks, edges, name or order"},
    {"limit", 0, "N", "path limit: functions with more paths are listed (default 2^63-2, "
                      "csi-cc's PT_HASH_SIZE)"},
    {"format", 0, "FMT", "text (default), csv or json"},
    {NULL, 0, NULL, NULL},
};

/* --sort */
enum { SORT_PATHS, SORT_BLOCKS, SORT_EDGES, SORT_NAME, SORT_ORDER };
static const cli_choice report_keys[] = {
    {"paths", SORT_PATHS}, {"blocks", SORT_BLOCKS}, {"edges", SORT_EDGES}, {"name", SORT_NAME},
    {"order", SORT_ORDER}, {NULL, 0}};
/* --format (csv before json) */
static const cli_choice report_formats[] = {
    {"text", CLI_OUT_TEXT}, {"csv", CLI_OUT_CSV}, {"json", CLI_OUT_JSON}, {NULL, 0}};

/* What numbering a function's paths found. */
enum { ROW_OK, ROW_OVERFLOW, ROW_INVALID };

typedef struct fn_row {
    char *label;
    uint64_t order, blocks, edges, back, paths;
    int status; /* ROW_* */
} fn_row;

static int cmp_rows(const void *pa, const void *pb, void *key_ptr)
{
    const fn_row *a = pa, *b = pb;
    int sort_key = *(const int *)key_ptr;
    uint64_t x = 0, y = 0;
    switch (sort_key) {
    case SORT_PATHS: /* overflow counts as the most */
        x = a->status == ROW_OVERFLOW ? UINT64_MAX : a->paths;
        y = b->status == ROW_OVERFLOW ? UINT64_MAX : b->paths;
        break;
    case SORT_BLOCKS:
        x = a->blocks;
        y = b->blocks;
        break;
    case SORT_EDGES:
        x = a->edges;
        y = b->edges;
        break;
    case SORT_NAME: {
        int c = strcmp(a->label, b->label);
        if (c)
            return c;
        break;
    }
    default: /* SORT_ORDER */
        break;
    }
    if (x != y)
        return x < y ? 1 : -1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static void paths_text(char *buf, size_t size, const fn_row *r)
{
    if (r->status == ROW_OVERFLOW)
        snprintf(buf, size, "overflow");
    else if (r->status == ROW_INVALID)
        snprintf(buf, size, "invalid");
    else
        snprintf(buf, size, "%" PRIu64, r->paths);
}

static const char *status_text(const fn_row *r)
{
    return r->status == ROW_OVERFLOW ? "overflow" : r->status == ROW_INVALID ? "invalid" : "ok";
}

typedef struct report_state {
    int key, fmt;
    uint64_t top, limit;
    fn_row *rows;
    size_t n, cap;
    uint64_t blocks, edges, back, overflow, invalid, over_limit;
} report_state;

static tk_status report_function(void *user, const cli_csi_source *src, const tk_csi_function *fn,
                                 const char *label, tk_csi_numbering *num, tk_error *err)
{
    (void)src;
    report_state *rs = user;
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 256;
        fn_row *rows = realloc(rs->rows, cap * sizeof *rows);
        if (!rows)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        rs->rows = rows;
        rs->cap = cap;
    }
    fn_row *r = &rs->rows[rs->n];
    memset(r, 0, sizeof *r);
    r->label = strdup(label);
    if (!r->label)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    rs->n++;
    r->order = fn->ordinal;
    r->blocks = fn->nblocks;
    r->edges = fn->nedges;
    for (uint32_t k = 0; k < fn->nedges; k++)
        r->back += fn->edges[k].back != 0;
    tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL);
    r->paths = tk_bl_total(tk_csi_numbering_bl(num));
    r->status = ls == TK_ERR_LIMIT ? ROW_OVERFLOW : ls != TK_OK ? ROW_INVALID : ROW_OK;
    rs->blocks += r->blocks;
    rs->edges += r->edges;
    rs->back += r->back;
    rs->overflow += r->status == ROW_OVERFLOW;
    rs->invalid += r->status == ROW_INVALID;
    rs->over_limit += r->status == ROW_OVERFLOW || (r->status == ROW_OK && r->paths > rs->limit);
    return TK_OK;
}

static void report_text(const report_state *rs, const char *name, size_t shown)
{
    const fn_row *rows = rs->rows;
    char pbuf[32];
    printf("%s: %zu functions, %" PRIu64 " blocks, %" PRIu64 " edges (%" PRIu64 " ~>)\n", name,
           rs->n, rs->blocks, rs->edges, rs->back);
    printf("path limit %" PRIu64 ": %" PRIu64 " functions over it (%" PRIu64
           " overflow 64 bits), %" PRIu64 " with an invalid numbering\n",
           rs->limit, rs->over_limit, rs->overflow, rs->invalid);
    printf("\n%20s %8s %8s %6s  %s\n", "paths", "blocks", "edges", "~>", "function");
    for (size_t k = 0; k < shown; k++) {
        paths_text(pbuf, sizeof pbuf, &rows[k]);
        printf("%20s %8" PRIu64 " %8" PRIu64 " %6" PRIu64 "  %s\n", pbuf, rows[k].blocks,
               rows[k].edges, rows[k].back, rows[k].label);
    }
    if (shown < rs->n)
        printf("(%zu more functions; --top 0 shows all)\n", rs->n - shown);
    if (rs->over_limit) {
        printf("\nfunctions over the path limit:\n");
        for (size_t k = 0; k < rs->n; k++)
            if (rows[k].status == ROW_OVERFLOW ||
                (rows[k].status == ROW_OK && rows[k].paths > rs->limit)) {
                paths_text(pbuf, sizeof pbuf, &rows[k]);
                printf("  %s (%s)\n", rows[k].label, pbuf);
            }
    }
}

static void report_csv(const report_state *rs, size_t shown)
{
    printf("function,paths,blocks,edges,back_edges,status\n");
    for (size_t k = 0; k < shown; k++) {
        const fn_row *r = &rs->rows[k];
        tk_put_csv_field(stdout, r->label);
        printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s\n",
               r->status != ROW_OK ? 0 : r->paths, r->blocks, r->edges, r->back, status_text(r));
    }
}

static void report_json(const report_state *rs, const char *name, size_t shown)
{
    printf("{\"version\": 1, \"file\": ");
    tk_put_json_string(stdout, name);
    printf(", \"functions\": %zu, \"blocks\": %" PRIu64 ", \"edges\": %" PRIu64
           ", \"back_edges\": %" PRIu64 ", \"path_limit\": %" PRIu64 ", \"over_limit\": %" PRIu64
           ", \"overflow\": %" PRIu64 ", \"invalid\": %" PRIu64 ",\n \"rows\": [",
           rs->n, rs->blocks, rs->edges, rs->back, rs->limit, rs->over_limit, rs->overflow,
           rs->invalid);
    for (size_t k = 0; k < shown; k++) {
        const fn_row *r = &rs->rows[k];
        printf("%s\n  {\"function\": ", k ? "," : "");
        tk_put_json_string(stdout, r->label);
        if (r->status == ROW_OK)
            printf(", \"paths\": %" PRIu64, r->paths);
        else
            printf(", \"paths\": null");
        printf(", \"blocks\": %" PRIu64 ", \"edges\": %" PRIu64 ", \"back_edges\": %" PRIu64
               ", \"status\": \"%s\"}",
               r->blocks, r->edges, r->back, status_text(r));
    }
    printf("]}\n");
}

static void report_clear(report_state *rs)
{
    for (size_t k = 0; k < rs->n; k++)
        free(rs->rows[k].label);
    rs->n = 0;
    rs->blocks = rs->edges = rs->back = rs->overflow = rs->invalid = rs->over_limit = 0;
}

static void report_print(void *user, const cli_csi_source *src)
{
    report_state *rs = user;
    qsort_r(rs->rows, rs->n, sizeof *rs->rows, cmp_rows, &rs->key);
    size_t shown = rs->top == 0 || rs->top > rs->n ? rs->n : (size_t)rs->top;
    if (rs->fmt == CLI_OUT_TEXT)
        report_text(rs, src->name, shown);
    else if (rs->fmt == CLI_OUT_CSV)
        report_csv(rs, shown);
    else
        report_json(rs, src->name, shown);
    report_clear(rs);
}

int cli_csi_report(cli_ctx *ctx, const cli_args *args)
{
    report_state rs;
    memset(&rs, 0, sizeof rs);
    if (cli_get_u64("report", args, "top", 20, &rs.top) != 0 ||
        cli_get_u64("report", args, "limit", PATH_LIMIT, &rs.limit) != 0)
        return CLI_EXIT_USAGE;
    rs.key = cli_get_choice("report", args, "sort", report_keys, SORT_PATHS);
    rs.fmt = cli_get_choice("report", args, "format", report_formats, CLI_OUT_TEXT);
    if (rs.key < 0 || rs.fmt < 0)
        return CLI_EXIT_USAGE;
    cli_csi_visitor v = {.selector = cli_get(args, "function"),
                     .user = &rs,
                     .function = report_function,
                     .input_done = report_print};
    int rc = cli_csi_visit(ctx, &v);
    report_clear(&rs);
    free(rs.rows);
    return rc;
}

const cli_opt_choices cli_csi_report_choices[] = {
    {"sort", report_keys}, {"format", report_formats}, {NULL, NULL}};
