/* tracekit convert for CSI coverage metadata: the canonical text, in either
 * form of the entry lines. */
#include <stdlib.h>

#include "csi_cov.h"
#include "ordered.h"

const cli_opt cli_csi_cov_convert_opts[] = {
    {"to", 't', "FMT", "the input's format: csi-cc, csi-fc or csi-bbc (canonical metadata)"},
    {"form", 0, "FORM",
     "csi-cc and csi-bbc: labels (INDEX|CCn|..., csi-cc 1.3+) or plain "
     "(INDEX|LINE..., the documented grammar and csi-cc 1.0); default: "
     "the input's"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 'f', NULL, "replace an existing OUT"},
    {"function", 0, "NAME", "only functions called NAME (and its clones NAME$...)"},
    CLI_CONVERT_JOBS_OPT("files"),
    {NULL, 0, NULL, NULL},
};

typedef struct write_state {
    FILE *out;
    tk_csi_cov_form form;
} write_state;

static tk_status write_function(void *user, const cli_csi_cov_source *src,
                                const tk_csi_cov_function *fn, tk_error *err)
{
    const write_state *ws = user;
    tk_csi_cov_form form = ws->form;
    if (form == TK_CSI_COV_FORM_ANY) form = tk_csi_cov_reader_form(src->reader);
    return tk_csi_cov_write_function(CLI_WRITER(ws->out), src->kind, form, fn, err);
}

/* convert -j N: each FILE read and its text made on one of N threads, printing nothing, then
 * written in the FILEs' order; a FILE that failed there is read again here as -j 1 reads it
 * (what it prints before its error, and the error, as -j 1 prints them). */
typedef struct convert_jobs {
    cli_ctx *ctx;
    const cli_csi_cov_visitor *v;
    const write_state *ws;
    tk_csi_cov_kind kind;
    tk_input_options opt;
    cli_ordered_text *parts;
} convert_jobs;

static void part_make(void *arg, int i)
{
    convert_jobs *j = arg;
    cli_ordered_text *p = &j->parts[i];
    write_state ws = *j->ws;
    tk_error err;
    tk_error_clear(&err);
    tk_input *in = NULL;
    cli_csi_cov_source src = {.kind = j->kind};
    tk_status st = tk_input_open(&in, j->ctx->paths[i], &j->opt, &err);
    if (st == TK_OK && cli_csi_text_read(&src.text, in, j->ctx->paths[i],
                                         tk_csi_cov_section(j->kind), &err) != CLI_EXIT_OK)
        st = TK_ERR_FORMAT;
    if (st == TK_OK) st = tk_csi_cov_reader_open(&src.reader, src.text.in, j->kind, &err);
    FILE *mem = NULL;
    if (st == TK_OK && !(mem = cli_ordered_text_open(p))) st = TK_ERR_NOMEM;
    ws.out = mem;
    const tk_csi_cov_function *fn;
    while (st == TK_OK && (st = tk_csi_cov_reader_next(src.reader, &fn, &err)) == TK_OK)
        if (tk_csi_cov_name_matches(j->v->selector, fn->name))
            st = write_function(&ws, &src, fn, &err);
    cli_ordered_text_close(p, mem, st);
    if (src.reader) tk_csi_cov_reader_free(src.reader);
    cli_csi_text_close(&src.text);
    tk_input_free(in);
}

static void part_drop(void *arg, int i) { cli_ordered_text_drop(&((convert_jobs *)arg)->parts[i]); }

static int part_done(void *arg, int i)
{
    convert_jobs *j = arg;
    if (!j->parts[i].failed) return cli_ordered_text_write(&j->parts[i], j->ws->out);
    cli_ctx one = cli_ordered_one(j->ctx, i); /* read again as -j 1 reads it */
    return cli_csi_cov_visit(&one, j->v);
}

/* The visit of every FILE, on `jobs` threads when there are several, each closed by the
 * dispatcher (a regular file, opened again by its path: cli_format_ops.lazy). */
static int write_jobs(cli_ctx *ctx, const cli_csi_cov_visitor *v, const write_state *ws,
                      unsigned jobs)
{
    convert_jobs j = {ctx, v, ws, cli_csi_cov_kind(ctx), {0}, NULL};
    if (!cli_ordered_files(ctx, jobs, &j.opt) ||
        !(j.parts = calloc((size_t)ctx->ninputs, sizeof *j.parts)))
        return cli_csi_cov_visit(ctx, v);
    int rc = cli_run_ordered(ctx->ninputs, jobs, part_make, part_done, part_drop, &j);
    free(j.parts);
    return rc;
}

/* --to (the input's own format only) and --form */
static const cli_choice targets[] = {
    {"csi-cc", TK_CSI_COV_CC}, {"csi-fc", TK_CSI_COV_FC}, {"csi-bbc", TK_CSI_COV_BBC}, {NULL, 0}};
static const cli_choice forms[] = {
    {"labels", TK_CSI_COV_FORM_LABELS}, {"plain", TK_CSI_COV_FORM_PLAIN}, {NULL, 0}};

int cli_csi_cov_convert(cli_ctx *ctx, const cli_args *args)
{
    const char *self = ctx->format->name;
    if (!cli_get(args, "to")) return cli_usage_error("convert", "--to FMT is required (%s)", self);
    int to = cli_get_choice("convert", args, "to", targets, -1);
    if (to < 0) return CLI_EXIT_USAGE;
    if (to != (int)cli_csi_cov_kind(ctx))
        return cli_usage_error("convert",
                               "a %s file converts to %s only (--form chooses the "
                               "form of its lines), not to '%s'",
                               self, self, cli_get(args, "to"));
    int form = cli_get_choice("convert", args, "form", forms, TK_CSI_COV_FORM_ANY);
    if (form < 0) return CLI_EXIT_USAGE;
    unsigned jobs;
    if (cli_convert_jobs(ctx->command, args, &jobs) != 0) return CLI_EXIT_USAGE;
    tk_output *o;
    int rc = cli_output_open(args, 0, &o);
    if (rc != CLI_EXIT_OK) return rc;
    write_state ws = {cli_output_file(o), (tk_csi_cov_form)form};
    cli_csi_cov_visitor v = {
        .selector = cli_get(args, "function"), .user = &ws, .function = write_function};
    rc = write_jobs(ctx, &v, &ws, jobs);
    if (rc != CLI_EXIT_OK) {
        cli_output_abort(o);
        return rc;
    }
    return cli_output_commit(o);
}

const cli_opt_choices cli_csi_cov_convert_choices[] = {
    {"to", targets}, {"form", forms}, {NULL, NULL}};
