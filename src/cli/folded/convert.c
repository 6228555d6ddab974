/* tracekit convert for folded stacks: a flame graph (svg), or the stacks as tracekit writes
 * them (folded: one blank before the count, no empty lines; what report --format html
 * embeds). */
#include <inttypes.h>
#include <math.h>

#include "folded.h"

const cli_opt cli_folded_convert_opts[] = {
    {"to", 't', "FMT",
     "svg (a flame graph; differential when every line has two counts) or "
     "folded"},
    CLI_OUTPUT_OPTS,
    CLI_SVG_OPTS,
    {NULL, 0, NULL, NULL},
};

enum { TO_SVG, TO_FOLDED };
static const cli_choice targets[] = {{"svg", TO_SVG}, {"folded", TO_FOLDED}, {NULL, 0}};

typedef struct text_job {
    const char *path, *text;
    size_t len;
} text_job;

static void put_count(FILE *f, double v)
{
    if (v == floor(v) && v < 1e18)
        fprintf(f, "%" PRIu64, (uint64_t)v);
    else
        fprintf(f, "%.17g", v);
}

typedef struct put_job {
    FILE *f;
    int diff;
} put_job;

static tk_status put_stack(void *user, const tk_folded_line *l)
{
    put_job *j = user;
    fwrite(l->stack, 1, l->stack_len, j->f);
    fputc(' ', j->f);
    if (j->diff) {
        put_count(j->f, l->before);
        fputc(' ', j->f);
    }
    put_count(j->f, l->count);
    fputc('\n', j->f);
    return TK_OK;
}

/* The stacks of job as tracekit writes them. */
static tk_status write_stacks(void *vjob, FILE *f, tk_error *err)
{
    const text_job *job = vjob;
    int diff = 0;
    tk_status st = tk_folded_scan(job->text, job->len, job->path, NULL, NULL, NULL, &diff, err);
    put_job pj = {f, diff};
    if (st == TK_OK)
        st = tk_folded_scan(job->text, job->len, job->path, NULL, put_stack, &pj, NULL, err);
    return st;
}

int cli_folded_convert(cli_ctx *ctx, const cli_args *args)
{
    int to = cli_get_choice("convert", args, "to", targets, -1);
    if (to < 0) {
        if (!cli_get(args, "to"))
            return cli_usage_error("convert", "--to FMT is required (svg or folded)");
        return CLI_EXIT_USAGE;
    }
    if (ctx->ninputs != 1) return cli_usage_error("convert", "convert takes one FILE");
    text_job job = {ctx->paths[0], NULL, 0};
    int rc = cli_folded_text(ctx, 0, &job.text, &job.len);
    if (rc != CLI_EXIT_OK) return rc;
    tk_output *o;
    if ((rc = cli_output_open(args, 0, &o)) != CLI_EXIT_OK) return rc;
    tk_flame_options fo;
    tk_error err;
    tk_error_clear(&err);
    if (to == TO_SVG && (rc = cli_flame_options("convert", args, NULL, &fo)) == CLI_EXIT_OK) {
        fo.path = job.path; /* the input's lines in the errors */
        if (tk_flamegraph_svg(job.text, job.len, &fo, CLI_WRITER(cli_output_file(o)), &err) !=
            TK_OK)
            rc = cli_error(&err);
    } else if (to == TO_FOLDED && write_stacks(&job, cli_output_file(o), &err) != TK_OK) {
        rc = cli_error(&err);
    }
    if (rc != CLI_EXIT_OK) {
        cli_output_abort(o);
        return rc;
    }
    return cli_output_commit(o);
}

const cli_opt_choices cli_folded_convert_choices[] = {{"to", targets}, {NULL, NULL}};
