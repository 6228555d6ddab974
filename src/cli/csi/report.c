/* tracekit report for CSI metadata: the functions with the most Ball-Larus paths. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"

const cli_opt cli_csi_report_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    CLI_TOP_OPT("functions"),
    CLI_ALL_OPT("functions"),
    {"sort", 's', "KEY", "paths (default), blocks, edges, name or order"},
    {"hash-size", 0, "N",
     "csi-cc's -hash-size: the functions with more paths than N, which csi-cc leaves "
     "uninstrumented, are listed (default 2^63-2, its PT_HASH_SIZE)"},
    {"format", 0, "FMT", "text (default), json or csv"},
    CLI_EACH_JOBS_OPT("files"),
    {NULL, 0, NULL, NULL},
};

/* --sort */
static const cli_choice report_keys[] = {
    {"paths", TK_CSI_REPORT_BY_PATHS}, {"blocks", TK_CSI_REPORT_BY_BLOCKS},
    {"edges", TK_CSI_REPORT_BY_EDGES}, {"name", TK_CSI_REPORT_BY_NAME},
    {"order", TK_CSI_REPORT_BY_ORDER}, {NULL, 0}};
/* --format (csv before json) */
static const cli_choice report_formats[] = {
    {"text", CLI_OUT_TEXT}, {"csv", CLI_OUT_CSV}, {"json", CLI_OUT_JSON}, {NULL, 0}};

static void paths_text(char *buf, size_t size, const tk_csi_report_row *r)
{
    if (r->status == TK_CSI_PATHS_OVERFLOW)
        snprintf(buf, size, "overflow");
    else if (r->status == TK_CSI_PATHS_INVALID)
        snprintf(buf, size, "invalid");
    else
        snprintf(buf, size, "%" PRIu64, r->paths);
}

static const char *status_text(const tk_csi_report_row *r)
{
    return r->status == TK_CSI_PATHS_OVERFLOW  ? "overflow"
           : r->status == TK_CSI_PATHS_INVALID ? "invalid"
                                               : "ok";
}

/* What report prints: the rows of an input, with the options. */
typedef struct report_state {
    int fmt, verbose;
    uint64_t top, limit;
    tk_csi_report *rep;
} report_state;

static tk_status report_function(void *user, const cli_csi_source *src, const tk_csi_function *fn,
                                 const char *label, tk_csi_numbering *num, tk_error *err)
{
    (void)src;
    (void)num;
    report_state *rs = user;
    return tk_csi_report_add(rs->rep, fn, label, err);
}

/* The numbers of the head of the report. */
typedef struct report_head {
    tk_csi_report_totals t;
    uint64_t over_limit;
} report_head;

static void report_text(const report_state *rs, const report_head *h, const char *name,
                        size_t shown)
{
    char pbuf[32];
    printf("%s: %" PRIu64 " function%s, %" PRIu64 " block%s, %" PRIu64 " edge%s (%" PRIu64
           " back or split, ~>)\n",
           name, h->t.functions, cli_s(h->t.functions), h->t.blocks, cli_s(h->t.blocks), h->t.edges,
           cli_s(h->t.edges), h->t.back_edges);
    /* the path limit (csi-cc's PT_HASH_SIZE by default) when a function is over it */
    if (h->over_limit || rs->verbose) {
        printf("%" PRIu64 " function%s with more paths than --hash-size %" PRIu64
               ", which csi-cc leaves uninstrumented",
               h->over_limit, cli_s(h->over_limit), rs->limit);
        if (h->t.overflow || rs->verbose)
            printf("; %" PRIu64 " with a count past 64 bits", h->t.overflow);
        printf("\n");
    }
    if (h->t.invalid || rs->verbose)
        printf("%" PRIu64 " function%s with an invalid numbering (see 'tracekit check')\n",
               h->t.invalid, cli_s(h->t.invalid));
    printf("\n%20s %8s %8s %6s  %s\n", "paths", "blocks", "edges", "~>", "function");
    for (size_t k = 0; k < shown; k++) {
        const tk_csi_report_row *r = tk_csi_report_row_at(rs->rep, k);
        paths_text(pbuf, sizeof pbuf, r);
        printf("%20s %8" PRIu64 " %8" PRIu64 " %6" PRIu64 "  %s\n", pbuf, r->blocks, r->edges,
               r->back_edges, r->label);
    }
    size_t n = tk_csi_report_count(rs->rep);
    cli_rows_note(stdout, shown, n, "function");
    if (h->over_limit) {
        printf("\nfunctions over --hash-size:\n");
        for (size_t k = 0; k < n; k++) {
            const tk_csi_report_row *r = tk_csi_report_row_at(rs->rep, k);
            if (tk_csi_report_row_over(r, rs->limit)) {
                paths_text(pbuf, sizeof pbuf, r);
                printf("  %s (%s)\n", r->label, pbuf);
            }
        }
    }
}

static void report_csv(const report_state *rs, size_t shown)
{
    printf("function,paths,blocks,edges,back_edges,status\n");
    for (size_t k = 0; k < shown; k++) {
        const tk_csi_report_row *r = tk_csi_report_row_at(rs->rep, k);
        cli_put_csv_field(stdout, r->label);
        printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s\n",
               r->status != TK_CSI_PATHS_OK ? 0 : r->paths, r->blocks, r->edges, r->back_edges,
               status_text(r));
    }
}

static void report_json(const report_state *rs, const report_head *h, const char *name,
                        size_t shown)
{
    printf("{\"version\": 1, \"file\": ");
    cli_put_json_string(stdout, name);
    printf(", \"functions\": %" PRIu64 ", \"blocks\": %" PRIu64 ", \"edges\": %" PRIu64
           ", \"back_edges\": %" PRIu64 ", \"path_limit\": %" PRIu64 ", \"over_limit\": %" PRIu64
           ", \"overflow\": %" PRIu64 ", \"invalid\": %" PRIu64 ",\n \"rows\": [",
           h->t.functions, h->t.blocks, h->t.edges, h->t.back_edges, rs->limit, h->over_limit,
           h->t.overflow, h->t.invalid);
    for (size_t k = 0; k < shown; k++) {
        const tk_csi_report_row *r = tk_csi_report_row_at(rs->rep, k);
        printf("%s\n  {\"function\": ", k ? "," : "");
        cli_put_json_string(stdout, r->label);
        if (r->status == TK_CSI_PATHS_OK)
            printf(", \"paths\": %" PRIu64, r->paths);
        else
            printf(", \"paths\": null");
        printf(", \"blocks\": %" PRIu64 ", \"edges\": %" PRIu64 ", \"back_edges\": %" PRIu64
               ", \"status\": \"%s\"}",
               r->blocks, r->edges, r->back_edges, status_text(r));
    }
    printf("]}\n");
}

static void report_print(void *user, const cli_csi_source *src)
{
    report_state *rs = user;
    tk_csi_report_sort(rs->rep);
    report_head h;
    tk_csi_report_get_totals(rs->rep, &h.t);
    h.over_limit = tk_csi_report_over_limit(rs->rep, rs->limit);
    size_t n = tk_csi_report_count(rs->rep);
    size_t shown = rs->top == 0 || rs->top > n ? n : (size_t)rs->top;
    if (rs->fmt == CLI_OUT_TEXT)
        report_text(rs, &h, src->text.name, shown);
    else if (rs->fmt == CLI_OUT_CSV)
        report_csv(rs, shown);
    else
        report_json(rs, &h, src->text.name, shown);
    tk_csi_report_clear(rs->rep);
}

int cli_csi_report(cli_ctx *ctx, const cli_args *args)
{
    report_state rs;
    memset(&rs, 0, sizeof rs);
    rs.verbose = cli_has(args, "verbose");
    tk_csi_report_options o = TK_CSI_REPORT_OPTIONS_INIT;
    int key = cli_get_choice("report", args, "sort", report_keys, TK_CSI_REPORT_BY_PATHS);
    rs.fmt = cli_get_choice("report", args, "format", report_formats, CLI_OUT_TEXT);
    cli_rows rows;
    if (key < 0 || rs.fmt < 0 || cli_get_rows("report", args, rs.fmt == CLI_OUT_TEXT, &rows) ||
        cli_get_u64("report", args, "hash-size", TK_CSI_PATH_LIMIT, &rs.limit) != 0)
        return CLI_EXIT_USAGE;
    rs.top = rows.top;
    o.key = (tk_csi_report_key)key;
    tk_error err;
    tk_error_clear(&err);
    if (tk_csi_report_open(&rs.rep, &o, &err) != TK_OK) return cli_error(&err);
    cli_csi_visitor v = {.selector = cli_get(args, "function"),
                         .user = &rs,
                         .function = report_function,
                         .input_done = report_print};
    int rc = cli_csi_visit(ctx, &v);
    tk_csi_report_free(rs.rep);
    return rc;
}

const cli_opt_choices cli_csi_report_choices[] = {
    {"sort", report_keys}, {"format", report_formats}, {NULL, NULL}};
