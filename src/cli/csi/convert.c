/* tracekit convert for CSI metadata: canonical CSI (renumbered) or dot; the
 * writer dump uses too. */
#include <inttypes.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"
#include "ordered.h"

const cli_opt cli_csi_convert_opts[] = {
    {"to", 't', "FMT", "csi (canonical metadata) or dot (CFG with increments and weights)"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 'f', NULL, "replace an existing OUT"},
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    {"path", 0, "ID", "dot: highlight the decoded path ID"},
    {"renumber", 0, NULL, "csi: write a fresh Ball-Larus numbering (back edges found by DFS)"},
    {"all", 0, NULL,
     "dot: every function (default: of a file of over 100 blocks, more than Graphviz lays "
     "out, its first functions while their blocks add up to 100)"},
    CLI_CONVERT_JOBS_OPT("files"),
    {NULL, 0, NULL, NULL},
};

typedef struct write_state {
    cli_csi_write_mode mode;
    FILE *out;
    int renumber; /* csi: a fresh Ball-Larus numbering */
    int highlight; /* dot: highlight path_id */
    uint64_t path_id;
    uint32_t ndot; /* dot: functions written (cluster numbers) */
    int cut; /* dot: no --function nor --all: at most TK_CFG_DOT_MAX_BLOCKS blocks */
    uint64_t blocks, all_blocks; /* dot: the blocks drawn, and of every function visited */
    uint64_t nfns; /* dot: functions visited */
} write_state;

static tk_status write_renumbered(FILE *out, const cli_csi_source *src, const tk_csi_function *fn,
                                  const char *label, tk_csi_numbering *num, tk_error *err)
{
    tk_csi_edge *edges = malloc((fn->nedges + (size_t)1) * sizeof *edges);
    if (!edges) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_status st;
    tk_status rs = tk_csi_renumber(fn, num, edges, err);
    if (rs == TK_OK) {
        tk_csi_function copy = *fn;
        copy.edges = edges;
        st = tk_csi_write_function(CLI_WRITER(out), &copy, err);
    } else {
        st = tk_error_set_at(err, TK_ERR_FORMAT, src->text.name, -1, fn->text_line, 1,
                             "cannot number function %s: %s", label,
                             rs == TK_ERR_LIMIT ? "path count overflow"
                                                : "a block has no path to EXIT");
    }
    free(edges);
    return st;
}

static tk_status write_dot(write_state *ws, const cli_csi_source *src, const tk_csi_function *fn,
                           const char *label, tk_csi_numbering *num, tk_error *err)
{
    ws->nfns++;
    ws->all_blocks += fn->nblocks;
    /* the first functions while they fit, the first one always (a whole program's CFG takes
     * dot minutes: TK_CFG_DOT_MAX_BLOCKS) */
    if (ws->cut && ws->ndot > 0 &&
        (ws->ndot < ws->nfns - 1 || ws->blocks + fn->nblocks > TK_CFG_DOT_MAX_BLOCKS))
        return TK_OK;
    ws->blocks += fn->nblocks;
    tk_bl_path *p = NULL;
    if (ws->highlight) {
        tk_csi_numbering_load(num, fn, NULL, NULL, err);
        p = tk_csi_numbering_path(num);
        if (tk_bl_decode(tk_csi_numbering_bl(num), ws->path_id, p, err) != TK_OK)
            return tk_error_set(
                err, TK_ERR_FORMAT, "%s: function %s has no path %" PRIu64 " (it has %" PRIu64 ")",
                src->text.name, label, ws->path_id, tk_bl_total(tk_csi_numbering_bl(num)));
    }
    return tk_csi_write_dot_cluster(CLI_WRITER(ws->out), fn, ws->ndot++, p, err);
}

static tk_status write_visit(void *user, const cli_csi_source *src, const tk_csi_function *fn,
                             const char *label, tk_csi_numbering *num, tk_error *err)
{
    write_state *ws = user;
    switch (ws->mode) {
    case CLI_CSI_WRITE_DUMP: {
        tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL, err);
        return tk_csi_dump_function(CLI_WRITER(ws->out), fn,
                                    ls == TK_OK ? tk_csi_numbering_bl(num) : NULL, err);
    }
    case CLI_CSI_WRITE_CSI:
        if (ws->renumber) return write_renumbered(ws->out, src, fn, label, num, err);
        return tk_csi_write_function(CLI_WRITER(ws->out), fn, err);
    case CLI_CSI_WRITE_DOT: return write_dot(ws, src, fn, label, num, err);
    }
    return TK_OK;
}

/* convert -j N: each FILE read on one of N threads, printing nothing, and its text made into
 * memory (csi; dot without the cut: every selected function drawn, its cluster numbers those
 * of the FILEs before it counted by a first pass) or its functions counted (dot); then in the
 * FILEs' order its text written, or its counts added when dot draws none of its functions
 * (after the cut, or none selected). A FILE that failed there, or whose functions dot draws
 * up to the cut, is read again here as -j 1 reads it (what it prints before its error, and
 * the error, as -j 1 prints them). */
typedef struct file_part {
    cli_ordered_text t; /* its text (csi, dot's second pass) */
    uint64_t nfns, blocks; /* dot: the functions selected and their blocks */
} file_part;

typedef struct convert_jobs {
    cli_ctx *ctx;
    const cli_csi_visitor *v;
    write_state *ws; /* the main thread's */
    write_state first; /* the threads': ws as it was before the first FILE */
    tk_input_options opt;
    file_part *parts;
    int text; /* make each FILE's text (csi; dot's second pass) */
    uint32_t *base; /* dot without the cut: each FILE's first cluster number (ninputs + 1) */
    int ncounted; /* dot's first pass: the FILEs counted before the first that failed */
} convert_jobs;

static void part_make(void *arg, int i)
{
    convert_jobs *j = arg;
    file_part *p = &j->parts[i];
    write_state ws = j->first;
    if (j->base && j->text) { /* dot's second pass (the first writes base as it goes) */
        /* the first pass failed here (read again in its turn), or it draws nothing */
        if (p->t.failed || p->nfns == 0) return;
        ws.ndot = j->base[i];
    }
    p->nfns = p->blocks = 0;
    tk_error err;
    tk_error_clear(&err);
    tk_input *in = NULL;
    tk_csi_numbering *num = NULL;
    cli_csi_source src = {0};
    FILE *mem = NULL;
    tk_status st = tk_input_open(&in, j->ctx->paths[i], &j->opt, &err);
    if (st == TK_OK) st = tk_csi_numbering_open(&num, &err);
    if (st == TK_OK &&
        cli_csi_text_read(&src.text, in, j->ctx->paths[i], ".debug_PT", &err) != CLI_EXIT_OK)
        st = TK_ERR_FORMAT;
    if (st == TK_OK) st = tk_csi_reader_open(&src.reader, src.text.in, &err);
    if (st == TK_OK && j->text) {
        mem = cli_ordered_text_open(&p->t);
        if (!mem) st = TK_ERR_NOMEM;
        ws.out = mem;
    }
    const tk_csi_function *fn;
    char label[CLI_CSI_LABEL_MAX];
    while (st == TK_OK &&
           (st = cli_csi_source_next(&src, &fn, label, sizeof label, &err)) == TK_OK) {
        if (!tk_csi_function_matches(j->v->selector, fn, label)) continue;
        p->nfns++;
        p->blocks += fn->nblocks;
        if (mem) st = write_visit(&ws, &src, fn, label, num, &err);
    }
    cli_ordered_text_close(&p->t, mem, st);
    if (src.reader) tk_csi_reader_free(src.reader);
    cli_csi_text_close(&src.text);
    tk_csi_numbering_free(num);
    tk_input_free(in);
}

static void part_drop(void *arg, int i)
{
    cli_ordered_text_drop(&((convert_jobs *)arg)->parts[i].t);
}

static int part_done(void *arg, int i)
{
    convert_jobs *j = arg;
    file_part *p = &j->parts[i];
    write_state *ws = j->ws;
    int dot = ws->mode == CLI_CSI_WRITE_DOT;
    int drawn = dot && j->text; /* its text: every selected function */
    int counted = dot && !drawn && (p->nfns == 0 || (ws->cut && ws->ndot < ws->nfns));
    if (!p->t.failed && (!dot || drawn || counted)) {
        int rc = cli_ordered_text_write(&p->t, ws->out);
        if (rc != CLI_EXIT_OK) return rc;
        if (dot) {
            ws->nfns += p->nfns;
            ws->all_blocks += p->blocks;
        }
        if (drawn) {
            ws->ndot += (uint32_t)p->nfns;
            ws->blocks += p->blocks;
        }
        return CLI_EXIT_OK;
    }
    cli_ordered_text_drop(&p->t);
    cli_ctx one = cli_ordered_one(j->ctx, i); /* read again as -j 1 reads it */
    return cli_csi_visit(&one, j->v);
}

/* dot's first pass without the cut: the cluster number each FILE starts at; stops at the
 * first FILE that failed, which the second pass reads again in its turn. */
static int count_done(void *arg, int i)
{
    convert_jobs *j = arg;
    if (j->parts[i].t.failed) return 1;
    j->base[i + 1] = j->base[i] + (uint32_t)j->parts[i].nfns;
    j->ncounted = i + 1;
    return 0;
}

/* dot without the cut (--all, --function): every selected function of every FILE drawn, its
 * cluster number the count of those before it. A first pass counts each FILE's on the
 * threads; the second makes the FILEs' texts there, those up to the first that failed. */
static int write_drawn(convert_jobs *j, unsigned jobs)
{
    int n = j->ctx->ninputs;
    if (!(j->base = calloc((size_t)n + 1, sizeof *j->base))) return cli_csi_visit(j->ctx, j->v);
    cli_run_ordered(n, jobs, part_make, count_done, part_drop, j);
    j->text = 1;
    int rc = cli_run_ordered(j->ncounted < n ? j->ncounted + 1 : n, jobs, part_make, part_done,
                             part_drop, j);
    free(j->base);
    return rc;
}

/* The visit of every FILE, on `jobs` threads where that is the same bytes: several FILEs, each
 * closed by the dispatcher (a regular file, opened again by its path: cli_format_ops.lazy). */
static int write_jobs(cli_ctx *ctx, const cli_csi_visitor *v, write_state *ws, unsigned jobs)
{
    convert_jobs j = {ctx, v, ws, *ws, {0}, NULL, ws->mode != CLI_CSI_WRITE_DOT, NULL, 0};
    if (!cli_ordered_files(ctx, jobs, &j.opt) ||
        !(j.parts = calloc((size_t)ctx->ninputs, sizeof *j.parts)))
        return cli_csi_visit(ctx, v);
    int rc = ws->mode == CLI_CSI_WRITE_DOT && !ws->cut
                 ? write_drawn(&j, jobs)
                 : cli_run_ordered(ctx->ninputs, jobs, part_make, part_done, part_drop, &j);
    free(j.parts);
    return rc;
}

int cli_csi_write(cli_ctx *ctx, const cli_args *args, cli_csi_write_mode mode, FILE *out)
{
    unsigned jobs = 1;
    if (mode != CLI_CSI_WRITE_DUMP && cli_convert_jobs(ctx->command, args, &jobs) != 0)
        return CLI_EXIT_USAGE;
    write_state ws = {.mode = mode, .out = out};
    if (mode != CLI_CSI_WRITE_DOT && cli_has(args, "all"))
        return cli_usage_error(ctx->command, "--all selects what --to dot draws");
    ws.cut = mode == CLI_CSI_WRITE_DOT && !cli_has(args, "all") && !cli_get(args, "function");
    ws.highlight = mode == CLI_CSI_WRITE_DOT && cli_has(args, "path");
    ws.renumber = mode == CLI_CSI_WRITE_CSI && cli_has(args, "renumber");
    if (ws.highlight && cli_get_u64(ctx->command, args, "path", 0, &ws.path_id) != 0)
        return CLI_EXIT_USAGE;
    cli_csi_visitor v = {
        .selector = cli_get(args, "function"), .user = &ws, .function = write_visit};
    tk_error err;
    tk_error_clear(&err);
    if (mode == CLI_CSI_WRITE_DOT && tk_csi_dot_begin(CLI_WRITER(out), &err) != TK_OK)
        return cli_error(&err); /* every function a cluster of one graph */
    int rc = write_jobs(ctx, &v, &ws, jobs);
    if (rc == CLI_EXIT_OK && mode == CLI_CSI_WRITE_DOT &&
        tk_csi_dot_end(CLI_WRITER(out), &err) != TK_OK)
        rc = cli_error(&err);
    if (rc == CLI_EXIT_OK && ws.ndot < ws.nfns)
        fprintf(stderr,
                "tracekit: note: %" PRIu64 " blocks are more than Graphviz lays out: drawing the "
                "first %" PRIu32 " of %" PRIu64 " functions (%" PRIu64 " blocks); --all draws "
                "every function, --function chooses\n",
                ws.all_blocks, ws.ndot, ws.nfns, ws.blocks);
    return rc;
}

/* --to */
static const cli_choice targets[] = {
    {"csi", CLI_CSI_WRITE_CSI}, {"dot", CLI_CSI_WRITE_DOT}, {NULL, 0}};

int cli_csi_convert(cli_ctx *ctx, const cli_args *args)
{
    int to = cli_get_choice("convert", args, "to", targets, -1);
    if (to < 0) {
        if (!cli_get(args, "to"))
            return cli_usage_error("convert", "--to FMT is required (csi or dot)");
        return CLI_EXIT_USAGE;
    }
    tk_output *o;
    int rc = cli_output_open(args, 0, &o);
    if (rc != CLI_EXIT_OK) return rc;
    rc = cli_csi_write(ctx, args, (cli_csi_write_mode)to, cli_output_file(o));
    if (rc != CLI_EXIT_OK) {
        cli_output_abort(o);
        return rc;
    }
    return cli_output_commit(o);
}

const cli_opt_choices cli_csi_convert_choices[] = {{"to", targets}, {NULL, NULL}};
