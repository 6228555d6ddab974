/* Command handlers for CSI path-tracing metadata (.debug_PT text, or an ELF
 * file holding the section). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csi.h"

/* csi-cc's default PT_HASH_SIZE: ULONG_MAX / 2 - 1 paths at most. */
#define CSI_DEFAULT_PATH_LIMIT (UINT64_MAX / 2 - 1)

static const cli_opt select_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    {NULL, 0, NULL, NULL},
};

/* ---- info ------------------------------------------------------------------ */

typedef struct info_totals {
    uint64_t functions, blocks, edges, back, lines, invalid, overflow, max_paths;
    char max_name[CSI_LABEL_MAX];
} info_totals;

static tk_status info_function(void *user, const csi_source *src, const tk_csi_function *fn,
                               const char *label, tk_csi_numbering *num, tk_error *err)
{
    (void)src;
    (void)err;
    info_totals *t = user;
    t->functions++;
    t->blocks += fn->nblocks;
    t->edges += fn->nedges;
    for (uint32_t k = 0; k < fn->nedges; k++)
        t->back += fn->edges[k].back != 0;
    for (uint32_t k = 0; k < fn->nblocks; k++)
        t->lines += fn->blocks[k].nlines;
    tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL);
    uint64_t p = tk_bl_total(tk_csi_numbering_bl(num));
    if (ls == TK_ERR_LIMIT)
        t->overflow++;
    else if (ls != TK_OK)
        t->invalid++;
    if (ls == TK_OK && p > t->max_paths) {
        t->max_paths = p;
        snprintf(t->max_name, sizeof t->max_name, "%s", label);
    }
    return TK_OK;
}

static void info_print(void *user, const csi_source *src)
{
    info_totals *t = user;
    if (src->owned)
        printf("section: .debug_PT\n");
    printf("functions: %" PRIu64 "\n", t->functions);
    printf("blocks: %" PRIu64 "\n", t->blocks);
    printf("edges: %" PRIu64 " (%" PRIu64 " back or split edges ~>)\n", t->edges, t->back);
    printf("line entries: %" PRIu64 "\n", t->lines);
    if (t->max_name[0])
        printf("most paths: %s (%" PRIu64 ")\n", t->max_name, t->max_paths);
    printf("path count overflow: %" PRIu64 " functions\n", t->overflow);
    printf("invalid numbering: %" PRIu64 " functions (see 'tracekit check')\n", t->invalid);
    memset(t, 0, sizeof *t);
}

static int run_info(cli_ctx *ctx, const cli_args *args)
{
    (void)args;
    info_totals totals;
    memset(&totals, 0, sizeof totals);
    csi_visitor v = {.user = &totals, .function = info_function, .input_done = info_print};
    return csi_visit_functions(ctx, &v);
}

/* ---- check ----------------------------------------------------------------- */

static int run_check(cli_ctx *ctx, const cli_args *args)
{
    (void)args;
    int rc = CLI_EXIT_OK;
    tk_csi_numbering *num = NULL;
    if (tk_csi_numbering_new(&num) != TK_OK)
        return cli_usage_error("check", "out of memory");
    for (int i = 0; i < ctx->ninputs; i++) {
        csi_source src;
        int orc = csi_source_open(&src, ctx->inputs[i], ctx->paths[i]);
        if (orc != CLI_EXIT_OK) {
            rc = orc;
            continue;
        }
        tk_diag diag;
        cli_diag_init(&diag);
        const tk_csi_function *fn;
        char label[CSI_LABEL_MAX];
        uint64_t nf = 0;
        for (;;) {
            tk_error err;
            tk_error_clear(&err);
            tk_status st = csi_source_next(&src, &fn, label, sizeof label, &err);
            if (st == TK_END)
                break;
            if (st == TK_ERR_FORMAT || st == TK_ERR_LIMIT) {
                tk_diag_error(&diag, &err);
                continue;
            }
            if (st != TK_OK) {
                tk_diag_error(&diag, &err);
                break;
            }
            nf++;
            if (tk_csi_check_function(fn, num, src.name, &diag) == TK_ERR_NOMEM) {
                tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
                tk_diag_error(&diag, &err);
                break;
            }
        }
        if (diag.errors == 0)
            printf("%s: ok, %" PRIu64 " functions\n", src.name, nf);
        if (cli_diag_summary(&diag, src.name) != CLI_EXIT_OK)
            rc = CLI_EXIT_BAD_INPUT;
        csi_source_close(&src);
    }
    tk_csi_numbering_free(num);
    return rc;
}

/* ---- report ---------------------------------------------------------------- */

static const cli_opt report_opts[] = {
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

static tk_status report_function(void *user, const csi_source *src, const tk_csi_function *fn,
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
            if (rows[k].status == ROW_OVERFLOW || (rows[k].status == ROW_OK && rows[k].paths > rs->limit)) {
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
        printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s\n", r->status != ROW_OK ? 0 : r->paths,
               r->blocks, r->edges, r->back, status_text(r));
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

static void report_print(void *user, const csi_source *src)
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

static int run_report(cli_ctx *ctx, const cli_args *args)
{
    report_state rs;
    memset(&rs, 0, sizeof rs);
    if (cli_get_u64("report", args, "top", 20, &rs.top) != 0 ||
        cli_get_u64("report", args, "limit", CSI_DEFAULT_PATH_LIMIT, &rs.limit) != 0)
        return CLI_EXIT_USAGE;
    rs.key = cli_get_choice("report", args, "sort", report_keys, SORT_PATHS);
    rs.fmt = cli_get_choice("report", args, "format", report_formats, CLI_OUT_TEXT);
    if (rs.key < 0 || rs.fmt < 0)
        return CLI_EXIT_USAGE;
    csi_visitor v = {.selector = cli_get(args, "function"),
                     .user = &rs,
                     .function = report_function,
                     .input_done = report_print};
    int rc = csi_visit_functions(ctx, &v);
    report_clear(&rs);
    free(rs.rows);
    return rc;
}

/* ---- annotate -------------------------------------------------------------- */

static const cli_opt annotate_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    {"limit", 0, "N", "enumerate at most N paths per function (default 1000; 0 = all)"},
    {NULL, 0, NULL, NULL},
};

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Source lines of one function with the paths that run them. */
static int annotate_function(const tk_csi_function *fn, const char *label, tk_csi_numbering *num,
                             uint64_t limit)
{
    tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL);
    const tk_bl *bl = tk_csi_numbering_bl(num);
    uint64_t total = tk_bl_total(bl);
    if (ls != TK_OK || total == 0) {
        printf("function %s: %s\n\n", label,
               ls == TK_ERR_LIMIT ? "path count overflow" : "invalid numbering (see 'tracekit check')");
        return 0;
    }
    /* distinct source lines */
    size_t nl = 0;
    for (uint32_t b = 0; b < fn->nblocks; b++)
        nl += fn->blocks[b].nlines;
    int64_t *lines = malloc((nl ? nl : 1) * sizeof *lines);
    if (!lines)
        return -1;
    nl = 0;
    for (uint32_t b = 0; b < fn->nblocks; b++)
        for (size_t k = 0; k < fn->blocks[b].nlines; k++)
            if (fn->blocks[b].lines[k] != TK_CSI_PATH_WRITE)
                lines[nl++] = fn->blocks[b].lines[k];
    qsort(lines, nl, sizeof *lines, cmp_i64);
    size_t u = 0;
    for (size_t k = 0; k < nl; k++)
        if (u == 0 || lines[u - 1] != lines[k])
            lines[u++] = lines[k];
    nl = u;
    uint64_t npaths = limit == 0 || total < limit ? total : limit;
    /* per line: how many paths run it, and the first ANNOTATE_IDS of them */
    enum { ANNOTATE_IDS = 32 };
    uint64_t *count = calloc(nl + 1, sizeof *count);
    uint64_t *last = malloc((nl + 1) * sizeof *last);
    uint64_t *ids = malloc((nl + 1) * ANNOTATE_IDS * sizeof *ids);
    if (!count || !last || !ids) {
        free(lines);
        free(count);
        free(last);
        free(ids);
        return -1;
    }
    for (size_t li = 0; li < nl; li++)
        last[li] = UINT64_MAX;
    tk_bl_path *p = tk_csi_numbering_path(num);
    for (uint64_t id = 0; id < npaths; id++) {
        if (tk_bl_decode(bl, id, p) != TK_OK)
            continue;
        for (size_t i = 0; i < p->len; i++) {
            const tk_csi_block *b = &fn->blocks[p->nodes[i]];
            for (size_t k = 0; k < b->nlines; k++) {
                if (b->lines[k] == TK_CSI_PATH_WRITE)
                    continue;
                int64_t *hit = bsearch(&b->lines[k], lines, nl, sizeof *lines, cmp_i64);
                size_t li = (size_t)(hit - lines);
                if (last[li] == id)
                    continue; /* this path already counted for the line */
                last[li] = id;
                if (count[li] < ANNOTATE_IDS)
                    ids[li * ANNOTATE_IDS + count[li]] = id;
                count[li]++;
            }
        }
    }
    printf("function %s: %" PRIu64 " paths", label, total);
    if (npaths < total)
        printf(" (first %" PRIu64 " enumerated; --limit)", npaths);
    printf("\n");
    for (size_t li = 0; li < nl; li++) {
        printf("  line %" PRId64 ": %" PRIu64 " path%s:", lines[li], count[li],
               count[li] == 1 ? "" : "s");
        for (uint64_t k = 0; k < count[li] && k < ANNOTATE_IDS; k++)
            printf(" %" PRIu64, ids[li * ANNOTATE_IDS + k]);
        if (count[li] > ANNOTATE_IDS)
            printf(" ...");
        printf("\n");
    }
    printf("\n");
    free(lines);
    free(count);
    free(last);
    free(ids);
    return 0;
}

static tk_status annotate_visit(void *user, const csi_source *src, const tk_csi_function *fn,
                                const char *label, tk_csi_numbering *num, tk_error *err)
{
    (void)src;
    if (annotate_function(fn, label, num, *(const uint64_t *)user) != 0)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_OK;
}

static int run_annotate(cli_ctx *ctx, const cli_args *args)
{
    uint64_t limit;
    if (cli_get_u64("annotate", args, "limit", 1000, &limit) != 0)
        return CLI_EXIT_USAGE;
    csi_visitor v = {.selector = cli_get(args, "function"), .user = &limit,
                     .function = annotate_visit};
    return csi_visit_functions(ctx, &v);
}

/* ---- dump and convert ------------------------------------------------------ */

static const cli_opt convert_opts[] = {
    {"to", 0, "FMT", "csi (canonical metadata) or dot (CFG with increments and weights)"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 0, NULL, "replace an existing OUT"},
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    {"path", 0, "ID", "dot: highlight the decoded path ID"},
    {"renumber", 0, NULL, "csi: write a fresh Ball-Larus numbering (back edges found by DFS)"},
    {NULL, 0, NULL, NULL},
};

typedef enum write_mode { WRITE_DUMP, WRITE_CSI, WRITE_DOT } write_mode;

typedef struct write_state {
    write_mode mode;
    FILE *out;
    int renumber;  /* csi: a fresh Ball-Larus numbering */
    int highlight; /* dot: highlight path_id */
    uint64_t path_id;
} write_state;

static tk_status write_renumbered(FILE *out, const csi_source *src, const tk_csi_function *fn,
                                  const char *label, tk_csi_numbering *num, tk_error *err)
{
    tk_csi_edge *edges = malloc((fn->nedges + (size_t)1) * sizeof *edges);
    if (!edges)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_status st;
    tk_status rs = tk_csi_renumber(fn, num, edges);
    if (rs == TK_OK) {
        tk_csi_function copy = *fn;
        copy.edges = edges;
        st = tk_csi_write_function(out, &copy, err);
    } else {
        st = tk_error_set_at(err, TK_ERR_FORMAT, src->name, -1, fn->text_line, 1,
                             "cannot number function %s: %s", label,
                             rs == TK_ERR_LIMIT ? "path count overflow"
                                                : "a block has no path to EXIT");
    }
    free(edges);
    return st;
}

static tk_status write_dot(const write_state *ws, const csi_source *src,
                           const tk_csi_function *fn, const char *label, tk_csi_numbering *num,
                           tk_error *err)
{
    tk_bl_path *p = NULL;
    if (ws->highlight) {
        tk_csi_numbering_load(num, fn, NULL, NULL);
        p = tk_csi_numbering_path(num);
        if (tk_bl_decode(tk_csi_numbering_bl(num), ws->path_id, p) != TK_OK)
            return tk_error_set(err, TK_ERR_FORMAT,
                                "%s: function %s has no path %" PRIu64 " (it has %" PRIu64 ")",
                                src->name, label, ws->path_id,
                                tk_bl_total(tk_csi_numbering_bl(num)));
    }
    return tk_csi_write_dot(ws->out, fn, p, err);
}

static tk_status write_visit(void *user, const csi_source *src, const tk_csi_function *fn,
                             const char *label, tk_csi_numbering *num, tk_error *err)
{
    const write_state *ws = user;
    switch (ws->mode) {
    case WRITE_DUMP: {
        tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL);
        return tk_csi_dump_function(ws->out, fn, ls == TK_OK ? tk_csi_numbering_bl(num) : NULL,
                                    err);
    }
    case WRITE_CSI:
        if (ws->renumber)
            return write_renumbered(ws->out, src, fn, label, num, err);
        return tk_csi_write_function(ws->out, fn, err);
    case WRITE_DOT:
        return write_dot(ws, src, fn, label, num, err);
    }
    return TK_OK;
}

static int write_all(cli_ctx *ctx, const cli_args *args, write_mode mode, FILE *out)
{
    write_state ws = {.mode = mode, .out = out};
    ws.highlight = mode == WRITE_DOT && cli_has(args, "path");
    ws.renumber = mode == WRITE_CSI && cli_has(args, "renumber");
    if (ws.highlight && cli_get_u64(ctx->command, args, "path", 0, &ws.path_id) != 0)
        return CLI_EXIT_USAGE;
    csi_visitor v = {.selector = cli_get(args, "function"), .user = &ws,
                     .function = write_visit};
    return csi_visit_functions(ctx, &v);
}

static int run_dump(cli_ctx *ctx, const cli_args *args)
{
    return write_all(ctx, args, WRITE_DUMP, stdout);
}

static int run_convert(cli_ctx *ctx, const cli_args *args)
{
    static const cli_choice targets[] = {{"csi", WRITE_CSI}, {"dot", WRITE_DOT}, {NULL, 0}};
    int to = cli_get_choice("convert", args, "to", targets, -1);
    if (to < 0) {
        if (!cli_get(args, "to"))
            return cli_usage_error("convert", "--to FMT is required (csi or dot)");
        return CLI_EXIT_USAGE;
    }
    tk_output *o;
    int rc = cli_output_open(args, 0, &o);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = write_all(ctx, args, (write_mode)to, tk_output_file(o));
    if (rc != CLI_EXIT_OK) {
        tk_output_abort(o);
        return rc;
    }
    return cli_output_commit(o);
}

const cli_format_ops cli_fmt_csi = {
    .format = "csi",
    .opts = {[CLI_REPORT] = report_opts,
             [CLI_ANNOTATE] = annotate_opts,
             [CLI_CONVERT] = convert_opts,
             [CLI_DUMP] = select_opts},
    .run = {[CLI_INFO] = run_info,
            [CLI_CHECK] = run_check,
            [CLI_REPORT] = run_report,
            [CLI_ANNOTATE] = run_annotate,
            [CLI_CONVERT] = run_convert,
            [CLI_DUMP] = run_dump},
};
