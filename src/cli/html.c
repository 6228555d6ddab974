/* report --format html: the format's own report as JSON (its handler run with --format json),
 * the folded stacks and, where the format has them, the Chrome trace events of the same input
 * (its convert handler), handed to tk_html_report_write. Each handler writes to standard
 * output, which is sent to a temporary file for the run. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const cli_opt cli_html_opts[] = {
    {"title", 0, "TEXT", "html: the page's title"},
    {"output", 'o', "FILE", "html: write to FILE instead of standard output"},
    {"force", 'f', NULL, "html: overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

/* report --format: html is the page (every format's report has a --format of its own, whose
 * other values its handler reads) */
static const cli_choice html_format[] = {{"html", CLI_OUT_HTML}, {NULL, 0}};

int cli_html_wanted(const cli_args *loose)
{
    const char *fmt = cli_get(loose, "format");
    return fmt && cli_choice_value(html_format, fmt) == CLI_OUT_HTML;
}

/* options of the report worth passing on to convert (the input's description) */
static const char *const passed_on[] = {"instr-map", "dcfg",  "thread", "pid",
                                        "from",      "event", "jobs",   NULL};

/* Opens the inputs anew (the previous run consumed them). Returns an exit code. */
static int reopen_inputs(cli_ctx *ctx)
{
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_input_free(ctx->inputs[i]);
        ctx->inputs[i] = NULL;
        tk_error err;
        tk_error_clear(&err);
        if (tk_input_open(&ctx->inputs[i], ctx->paths[i], &ctx->input_opt, &err) != TK_OK)
            return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

/* The content of tmp into *cap. Returns an exit code. */
static int read_back(const char *cmd, FILE *tmp, cli_captured *cap)
{
    long n = fseek(tmp, 0, SEEK_END) == 0 ? ftell(tmp) : -1;
    cap->data = n >= 0 ? malloc((size_t)n + 1) : NULL;
    rewind(tmp);
    if (!cap->data || fread(cap->data, 1, (size_t)n, tmp) != (size_t)n)
        return cli_usage_error(cmd, "cannot read back a temporary file");
    cap->data[n] = '\0';
    cap->len = (size_t)n;
    return CLI_EXIT_OK;
}

int cli_capture(const char *cmd, int (*fn)(void *arg), void *arg, cli_captured *cap)
{
    FILE *tmp = tmpfile();
    int saved = tmp ? dup(STDOUT_FILENO) : -1;
    int rc = CLI_EXIT_OK;
    if (!tmp || saved < 0)
        rc = cli_usage_error(cmd, "cannot make a temporary file: %s", strerror(errno));
    if (rc == CLI_EXIT_OK) {
        fflush(stdout);
        dup2(fileno(tmp), STDOUT_FILENO);
        rc = fn(arg);
        fflush(stdout);
        dup2(saved, STDOUT_FILENO);
    }
    if (saved >= 0) close(saved);
    if (rc == CLI_EXIT_OK) rc = read_back(cmd, tmp, cap);
    if (tmp) fclose(tmp);
    return rc;
}

/* A handler's run for cli_capture. */
typedef struct handler_run {
    cli_ctx *ctx;
    const cli_format_ops *ops;
    cli_cmd_id id;
    const char *cmd;
    const cli_args *args;
} handler_run;

static int run_handler(void *arg)
{
    handler_run *h = arg;
    const char *was = h->ctx->command;
    h->ctx->command = h->cmd;
    int rc = h->ops->run[h->id](h->ctx, h->args);
    h->ctx->command = was;
    return rc;
}

int cli_run_captured(cli_ctx *ctx, const cli_format_ops *ops, cli_cmd_id id, const char *cmd,
                     int argc, char **argv, cli_captured *cap)
{
    const cli_opt *tables[3] = {cli_common_opts, ops->opts[id], NULL};
    cli_args args;
    if (cli_parse(cmd, argc, argv, 1, tables, 0, &args) != 0) return CLI_EXIT_USAGE;
    int rc = reopen_inputs(ctx);
    handler_run h = {ctx, ops, id, cmd, &args};
    if (rc == CLI_EXIT_OK) rc = cli_capture(cmd, run_handler, &h, cap);
    cli_args_free(&args);
    return rc;
}

/* argv for convert --to TO: the inputs and the options of passed_on ("--NAME=VALUE" strings
 * in store). Returns argc. */
static int convert_argv(const cli_args *a, const char *to, char **out, int cap, char (*store)[256],
                        int nstore)
{
    int n = 0, k = 0;
    out[n++] = "convert";
    out[n++] = "--to";
    out[n++] = (char *)to;
    for (int i = 0; i < a->nvals && n + 1 < cap && k < nstore; i++)
        for (const char *const *p = passed_on; *p; p++)
            if (strcmp(a->vals[i].opt->name, *p) == 0) {
                snprintf(store[k], sizeof store[k], "--%s=%s", *p, a->vals[i].value);
                out[n++] = store[k++];
            }
    for (int i = 0; i < a->npos && n + 1 < cap; i++) out[n++] = (char *)a->pos[i];
    out[n] = NULL;
    return n;
}

/* argv of the report itself: the same arguments but the page's options, and --format json.
 * Returns argc, or -1 when out of memory; *out to free. */
static int report_argv(int argc, char **argv, char ***out)
{
    char **av = calloc((size_t)argc + 3, sizeof *av);
    if (!av) return -1;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--format") == 0 || strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0 ||
            strcmp(s, "--title") == 0) {
            i++;
            continue;
        }
        if (strncmp(s, "--format=", 9) == 0 || strncmp(s, "--output=", 9) == 0 ||
            strncmp(s, "--title=", 8) == 0 || strcmp(s, "--force") == 0 || strcmp(s, "-f") == 0)
            continue;
        av[n++] = argv[i];
    }
    av[n++] = "--format=json";
    *out = av;
    return n;
}

/* The page of what was captured, to the output of -o. Returns an exit code. */
static int write_page(const cli_ctx *ctx, const cli_args *loose, const cli_captured *rep,
                      const cli_captured *folded, const cli_captured *trace,
                      const cli_html_graphs *graphs)
{
    tk_output *o = NULL;
    int rc = cli_output_open(loose, 0, &o);
    if (rc != CLI_EXIT_OK) return rc;
    tk_html_report r = {0};
    char title[512];
    snprintf(title, sizeof title, "tracekit report: %s (%s)", ctx->paths[0], ctx->format->name);
    r.title = cli_get(loose, "title") ? cli_get(loose, "title") : title;
    r.report_json = rep->data;
    r.report_len = rep->len;
    r.folded = folded->data;
    r.folded_len = folded->len;
    r.trace_json = trace->data;
    r.trace_len = trace->len;
    r.graphs = graphs->graphs;
    r.ngraphs = graphs->n;
    tk_error err;
    tk_error_clear(&err);
    if (tk_html_report_write(&r, CLI_WRITER(cli_output_file(o)), &err) != TK_OK) {
        cli_output_abort(o);
        return cli_error(&err);
    }
    return cli_output_commit(o);
}

int cli_html_report(cli_ctx *ctx, const cli_args *loose, int argc, char **argv)
{
    const cli_format_ops *ops = cli_format_ops_find(ctx->format->name); /* has a report */
    char **av;
    int n = report_argv(argc, argv, &av);
    if (n < 0) return cli_usage_error("report", "out of memory");
    cli_captured rep = {0}, folded = {0}, trace = {0};
    int rc = cli_run_captured(ctx, ops, CLI_REPORT, "report", n, av, &rep);
    free(av);
    const char *targets = ctx->format->targets ? ctx->format->targets : "";
    char *cv[64];
    char store[16][256];
    if (rc == CLI_EXIT_OK && ops->run[CLI_CONVERT] && strstr(targets, "folded")) {
        int m = convert_argv(loose, "folded", cv, 64, store, 16);
        rc = cli_run_captured(ctx, ops, CLI_CONVERT, "convert", m, cv, &folded);
    }
    if (rc == CLI_EXIT_OK && ops->run[CLI_CONVERT] && strstr(targets, "chrome")) {
        int m = convert_argv(loose, "chrome", cv, 64, store, 16);
        rc = cli_run_captured(ctx, ops, CLI_CONVERT, "convert", m, cv, &trace);
    }
    cli_html_graphs graphs = {0};
    if (rc == CLI_EXIT_OK) rc = cli_html_graphs_make(ctx, loose, &rep, &graphs);
    if (rc == CLI_EXIT_OK) rc = write_page(ctx, loose, &rep, &folded, &trace, &graphs);
    cli_html_graphs_free(&graphs);
    free(rep.data);
    free(folded.data);
    free(trace.data);
    return rc;
}

const cli_opt_choices cli_html_choices[] = {{"format", html_format}, {NULL, NULL}};
