/* tracekit diff for DCFG files: the images, routines, blocks and edges of two runs matched by
 * address and type (tk_cfg_diff), the largest change first; text, JSON or CSV. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"

const cli_opt cli_dcfg_diff_opts[] = {
    CLI_TOP_OPT("rows of each table (images, routines, blocks, edges)"),
    CLI_ALL_OPT("rows of each table"),
    {"equal", 0, NULL,
     "also list the images, routines, blocks and edges whose figures are "
     "equal"},
    {"format", 0, "FMT", "text (default), json or csv"},
    CLI_VS_OPT("each the DCFG 'tracekit merge' makes of it"),
    {"jobs", 'j', "N", "with --vs: read N DCFGs at once (default: the number of CPUs)"},
    CLI_OUTPUT_OPTS,
    {NULL, 0, NULL, NULL},
};

/* The titles of the tables, what a row is, and what the rows are ordered by. */
static const char *const table_names[TK_CFG_DIFF_NTABLES] = {"images", "routines", "blocks",
                                                             "edges"};
static const char *const row_names[TK_CFG_DIFF_NTABLES] = {"image", "routine", "block", "edge"};
static const char *const table_orders[TK_CFG_DIFF_NTABLES] = {
    "instructions", "instructions in their own blocks", "instructions", "count"};

/* B - A with its sign ("+5", "-3", "0"). */
static const char *signed_change(uint64_t a, uint64_t b, char *buf, size_t n)
{
    if (a == b)
        snprintf(buf, n, "0");
    else if (b > a)
        snprintf(buf, n, "+%" PRIu64, b - a);
    else
        snprintf(buf, n, "-%" PRIu64, a - b);
    return buf;
}

/* (B - A) / A in %: "new" when only B has any, "-" when neither has. */
static const char *relative(uint64_t a, uint64_t b, char *buf, size_t n)
{
    if (a)
        snprintf(buf, n, "%+.2f", ((double)b - (double)a) / (double)a * 100.0);
    else
        snprintf(buf, n, "%s", b ? "new" : "-");
    return buf;
}

/* The ids of a row on both sides: "4", "4/5", "4/-", "-/5". */
static const char *ids(const tk_cfg_diff_row *r, char *buf, size_t n)
{
    if (r->has[0] && r->has[1] && r->id[0] == r->id[1])
        snprintf(buf, n, "%" PRIu32, r->id[0]);
    else if (r->has[0] && r->has[1])
        snprintf(buf, n, "%" PRIu32 "/%" PRIu32, r->id[0], r->id[1]);
    else if (r->has[0])
        snprintf(buf, n, "%" PRIu32 "/-", r->id[0]);
    else
        snprintf(buf, n, "-/%" PRIu32, r->id[1]);
    return buf;
}

/* A symbol and the offset from it ("main", "main+0x1c", "-"). */
static const char *symbol(const tk_cfg_diff_row *r, char *buf, size_t n)
{
    if (!r->name)
        snprintf(buf, n, "-");
    else if (r->symbol_offset)
        snprintf(buf, n, "%s+0x%" PRIx64, r->name, r->symbol_offset);
    else
        snprintf(buf, n, "%s", r->name);
    return buf;
}

static void text_head(FILE *f, tk_cfg_diff_table t)
{
    int edges = t == TK_CFG_DIFF_EDGES;
    fprintf(f, "\n%s (by the change of %s)\n  %15s  %15s  %14s  %8s", table_names[t],
            table_orders[t], edges ? "A count" : "A instrs", edges ? "B count" : "B instrs",
            "B - A", "%");
    if (t == TK_CFG_DIFF_IMAGES) fprintf(f, "  %10s  %s\n", "image", "file");
    if (t == TK_CFG_DIFF_ROUTINES)
        fprintf(f, "  %10s  %10s  %11s  %5s  %s\n", "A calls", "B calls", "routine", "image",
                "name");
    if (t == TK_CFG_DIFF_BLOCKS)
        fprintf(f, "  %10s  %10s  %11s  %5s  %-12s  %s\n", "A count", "B count", "block", "image",
                "offset", "symbol+offset");
    if (t == TK_CFG_DIFF_EDGES) fprintf(f, "  %11s  %-29s  %s\n", "edge", "type", "from -> to");
}

static void text_row(FILE *f, tk_cfg_diff_table t, const tk_cfg_diff_row *r)
{
    char d[32], pc[32], id[32], sym[160];
    int edges = t == TK_CFG_DIFF_EDGES;
    uint64_t a = edges ? r->count[0] : r->instructions[0];
    uint64_t b = edges ? r->count[1] : r->instructions[1];
    fprintf(f, "  %15" PRIu64 "  %15" PRIu64 "  %14s  %8s", a, b, signed_change(a, b, d, sizeof d),
            relative(a, b, pc, sizeof pc));
    ids(r, id, sizeof id);
    if (t == TK_CFG_DIFF_IMAGES)
        fprintf(f, "  %10s  %s\n", id, r->name ? r->name : "-");
    else if (t == TK_CFG_DIFF_ROUTINES)
        fprintf(f, "  %10" PRIu64 "  %10" PRIu64 "  %11s  %5" PRIu32 "  %s\n", r->count[0],
                r->count[1], id, r->image, symbol(r, sym, sizeof sym));
    else if (t == TK_CFG_DIFF_BLOCKS) {
        char off[24];
        snprintf(off, sizeof off, "0x%" PRIx64, r->offset);
        fprintf(f, "  %10" PRIu64 "  %10" PRIu64 "  %11s  %5" PRIu32 "  %-12s  %s\n", r->count[0],
                r->count[1], id, r->image, off, symbol(r, sym, sizeof sym));
    } else
        fprintf(f, "  %11s  %-29s  %" PRIu32 " -> %" PRIu32 "\n", id, r->name ? r->name : "?",
                r->source, r->target);
}

/* Table t of pair pi as text: its head and rows, or one line when it has none; then how
 * many the cut left out. */
static void text_table(FILE *f, const tk_cfg_diff *d, uint32_t pi, tk_cfg_diff_table t, int equal)
{
    size_t n = tk_cfg_diff_rows(d, pi, t), uncut = tk_cfg_diff_rows_uncut(d, pi, t);
    if (!n) {
        fprintf(f, "\n%s: %s\n", table_names[t], equal ? "none" : "none differ");
        return;
    }
    text_head(f, t);
    for (size_t i = 0; i < n; i++) {
        tk_cfg_diff_row r;
        tk_cfg_diff_row_get(d, pi, t, i, &r);
        text_row(f, t, &r);
    }
    cli_rows_note(f, n, uncut, row_names[t]);
}

static void text_pair(FILE *f, const tk_cfg_diff *d, uint32_t pi, int equal)
{
    tk_cfg_diff_pair p;
    tk_cfg_diff_pair_get(d, pi, &p);
    char ch[32], pc[32];
    fprintf(f,
            "%sprocess %" PRIu64 " / %" PRIu64 ": instructions %" PRIu64 " -> %" PRIu64
            " (%s, %s%%)\n",
            pi ? "\n" : "", p.pid[0], p.pid[1], p.instructions[0], p.instructions[1],
            signed_change(p.instructions[0], p.instructions[1], ch, sizeof ch),
            relative(p.instructions[0], p.instructions[1], pc, sizeof pc));
    for (int t = 0; t < TK_CFG_DIFF_NTABLES; t++) text_table(f, d, pi, (tk_cfg_diff_table)t, equal);
}

/* JSON "key":[A,B] (ids: null on the side that lacks it). */
static void json_pair(FILE *f, const char *key, const uint64_t v[2], const int *has)
{
    fprintf(f, ",\"%s\":[", key);
    for (int k = 0; k < 2; k++) {
        if (k) fputc(',', f);
        if (has && !has[k])
            fputs("null", f);
        else
            fprintf(f, "%" PRIu64, v[k]);
    }
    fputc(']', f);
}

/* "-" when the row's change (|B - A| of its instructions, of its count for an edge) is a
 * decrease: JSON and CSV give the change as B - A, as the text's column. */
static const char *minus(tk_cfg_diff_table t, const tk_cfg_diff_row *r)
{
    const uint64_t *v = t == TK_CFG_DIFF_EDGES ? r->count : r->instructions;
    return v[1] < v[0] ? "-" : "";
}

static void json_row(FILE *f, tk_cfg_diff_table t, const tk_cfg_diff_row *r, int first)
{
    uint64_t id[2] = {r->id[0], r->id[1]};
    fprintf(f, "%s\n{\"change\":%s%" PRIu64, first ? "" : ",", minus(t, r), r->change);
    json_pair(f, "id", id, r->has);
    if (t != TK_CFG_DIFF_EDGES) fprintf(f, ",\"image\":%" PRIu32, r->image);
    if (t == TK_CFG_DIFF_ROUTINES || t == TK_CFG_DIFF_BLOCKS)
        fprintf(f, ",\"offset\":%" PRIu64, r->offset);
    if (t == TK_CFG_DIFF_IMAGES)
        fputs(",\"file\":", f);
    else if (t == TK_CFG_DIFF_EDGES)
        fputs(",\"type\":", f);
    else
        fputs(",\"symbol\":", f);
    if (r->name)
        cli_put_json_string(f, r->name);
    else
        fputs("null", f);
    if (t == TK_CFG_DIFF_ROUTINES || t == TK_CFG_DIFF_BLOCKS)
        fprintf(f, ",\"symbol_offset\":%" PRIu64, r->symbol_offset);
    if (t == TK_CFG_DIFF_EDGES)
        fprintf(f, ",\"source\":%" PRIu32 ",\"target\":%" PRIu32, r->source, r->target);
    json_pair(f,
              t == TK_CFG_DIFF_IMAGES     ? "executions"
              : t == TK_CFG_DIFF_ROUTINES ? "calls"
                                          : "count",
              r->count, NULL);
    if (t != TK_CFG_DIFF_EDGES) json_pair(f, "instructions", r->instructions, NULL);
    fputc('}', f);
}

static void json_pair_of(FILE *f, const tk_cfg_diff *d, uint32_t pi)
{
    tk_cfg_diff_pair p;
    tk_cfg_diff_pair_get(d, pi, &p);
    fprintf(f, "%s\n{\"pid\":[%" PRIu64 ",%" PRIu64 "]", pi ? "," : "", p.pid[0], p.pid[1]);
    json_pair(f, "instructions", p.instructions, NULL);
    fputs(",\"rows\":{", f);
    for (int t = 0; t < TK_CFG_DIFF_NTABLES; t++)
        fprintf(f, "%s\"%s\":%zu", t ? "," : "", table_names[t],
                tk_cfg_diff_rows_uncut(d, pi, (tk_cfg_diff_table)t));
    fputc('}', f);
    for (int t = 0; t < TK_CFG_DIFF_NTABLES; t++) {
        fprintf(f, ",\"%s\":[", table_names[t]);
        for (size_t i = 0; i < tk_cfg_diff_rows(d, pi, (tk_cfg_diff_table)t); i++) {
            tk_cfg_diff_row r;
            tk_cfg_diff_row_get(d, pi, (tk_cfg_diff_table)t, i, &r);
            json_row(f, (tk_cfg_diff_table)t, &r, i == 0);
        }
        fputc(']', f);
    }
    fputc('}', f);
}

/* CSV: one table of every row, named by its "table" cell (the pair's totals as "process"). */
static void csv_row(FILE *f, const tk_cfg_diff_pair *p, tk_cfg_diff_table t,
                    const tk_cfg_diff_row *r)
{
    fprintf(f, "%" PRIu64 ",%" PRIu64 ",%s,", p->pid[0], p->pid[1], row_names[t]);
    for (int k = 0; k < 2; k++)
        if (r->has[k])
            fprintf(f, "%" PRIu32 ",", r->id[k]);
        else
            fputc(',', f);
    if (t != TK_CFG_DIFF_EDGES) fprintf(f, "%" PRIu32, r->image);
    fputc(',', f);
    if (t == TK_CFG_DIFF_ROUTINES || t == TK_CFG_DIFF_BLOCKS) fprintf(f, "0x%" PRIx64, r->offset);
    fputc(',', f);
    char sym[160];
    cli_put_csv_field(f, t == TK_CFG_DIFF_ROUTINES || t == TK_CFG_DIFF_BLOCKS
                             ? symbol(r, sym, sizeof sym)
                             : r->name);
    if (t == TK_CFG_DIFF_EDGES)
        fprintf(f, ",%" PRIu32 ",%" PRIu32, r->source, r->target);
    else
        fputs(",,", f);
    fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", r->count[0], r->count[1]);
    if (t != TK_CFG_DIFF_EDGES)
        fprintf(f, "%" PRIu64 ",%" PRIu64, r->instructions[0], r->instructions[1]);
    else
        fputc(',', f);
    fprintf(f, ",%s%" PRIu64 "\n", minus(t, r), r->change);
}

static void csv_pair(FILE *f, const tk_cfg_diff *d, uint32_t pi)
{
    tk_cfg_diff_pair p;
    tk_cfg_diff_pair_get(d, pi, &p);
    uint64_t a = p.instructions[0], b = p.instructions[1];
    fprintf(f, "%" PRIu64 ",%" PRIu64 ",process,,,,,,,,,,%" PRIu64 ",%" PRIu64 ",%s%" PRIu64 "\n",
            p.pid[0], p.pid[1], a, b, b < a ? "-" : "", b < a ? a - b : b - a);
    for (int t = 0; t < TK_CFG_DIFF_NTABLES; t++)
        for (size_t i = 0; i < tk_cfg_diff_rows(d, pi, (tk_cfg_diff_table)t); i++) {
            tk_cfg_diff_row r;
            tk_cfg_diff_row_get(d, pi, (tk_cfg_diff_table)t, i, &r);
            csv_row(f, &p, (tk_cfg_diff_table)t, &r);
        }
}

/* The difference in fmt, then the number of differences. Returns an exit code. */
static int diff_graphs(FILE *f, int fmt, const tk_cfg *x, const tk_cfg *y,
                       const tk_cfg_diff_options *opt)
{
    tk_cfg_diff *d;
    tk_error err;
    tk_error_clear(&err);
    if (tk_cfg_diff_open(&d, x, y, opt, &err) != TK_OK) return cli_error(&err);
    uint32_t na = tk_cfg_diff_process_count(d, 0), nb = tk_cfg_diff_process_count(d, 1);
    uint64_t differences = tk_cfg_diff_differences(d);
    if (fmt == CLI_OUT_JSON) fputs("{\"version\":1,\"format\":\"dcfg-diff\",\"processes\":[", f);
    if (fmt == CLI_OUT_CSV)
        fputs("pid_a,pid_b,table,id_a,id_b,image,offset,name,source,target,count_a,count_b,"
              "instructions_a,instructions_b,change\n",
              f);
    for (uint32_t pi = 0; pi < tk_cfg_diff_pairs(d); pi++)
        if (fmt == CLI_OUT_JSON)
            json_pair_of(f, d, pi);
        else if (fmt == CLI_OUT_CSV)
            csv_pair(f, d, pi);
        else
            text_pair(f, d, pi, opt->equal);
    tk_cfg_diff_free(d);
    if (fmt == CLI_OUT_JSON)
        fprintf(f, "\n],\"process_count\":[%" PRIu32 ",%" PRIu32 "],\"differences\":%" PRIu64 "}\n",
                na, nb, differences);
    if (fmt != CLI_OUT_TEXT) return CLI_EXIT_OK;
    if (na != nb) fprintf(f, "\nprocesses: %" PRIu32 " / %" PRIu32 "\n", na, nb);
    fprintf(f, "\n%" PRIu64 " difference%s (blocks and edges)\n", differences, cli_s(differences));
    return CLI_EXIT_OK;
}

/* Side (0 or 1) of the diff: its file, or of two sets (ctx->nfirst) the merge of its set. */
static int read_side(cli_ctx *ctx, int side, unsigned jobs, tk_cfg **out)
{
    if (!ctx->nfirst || ctx->ninputs == 2) return cli_dcfg_read(ctx, side, NULL, out);
    cli_ctx set = cli_diff_side(ctx, side);
    return cli_dcfg_merged(&set, jobs, out);
}

int cli_dcfg_diff(cli_ctx *ctx, const cli_args *a)
{
    if (ctx->ninputs != 2 && !ctx->nfirst)
        return cli_usage_error(ctx->command, "diff takes two FILEs (or FILES... --vs FILES...)");
    tk_cfg_diff_options opt = TK_CFG_DIFF_OPTIONS_INIT;
    opt.equal = cli_has(a, "equal");
    int fmt = cli_get_choice(ctx->command, a, "format", cli_out_text_json_csv, CLI_OUT_TEXT);
    cli_rows rows;
    if (fmt < 0 || cli_get_rows(ctx->command, a, fmt == CLI_OUT_TEXT, &rows)) return CLI_EXIT_USAGE;
    opt.top = rows.top;
    unsigned jobs = 1;
    if (cli_get_jobs(ctx->command, a, &jobs)) return CLI_EXIT_USAGE;
    tk_cfg *x, *y;
    int rc = read_side(ctx, 0, jobs, &x);
    if (rc != CLI_EXIT_OK) return rc;
    if ((rc = read_side(ctx, 1, jobs, &y)) != CLI_EXIT_OK) {
        tk_cfg_free(x);
        return rc;
    }
    tk_output *out;
    if ((rc = cli_output_open(a, 0, &out)) == CLI_EXIT_OK) {
        rc = diff_graphs(cli_output_file(out), fmt, x, y, &opt);
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(out);
        else
            cli_output_abort(out);
    }
    tk_cfg_free(x);
    tk_cfg_free(y);
    return rc;
}

const cli_opt_choices cli_dcfg_diff_choices[] = {{"format", cli_out_text_json_csv}, {NULL, NULL}};
