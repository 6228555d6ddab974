/* Shared helpers of the commands: errors, inputs, outputs (a callgrind file per thread, flame
 * graphs), diagnostics, progress. */
#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

int cli_exit_code(tk_status st)
{
    switch (st) {
    case TK_OK:
    case TK_END: return CLI_EXIT_OK;
    case TK_ERR_ARG: return CLI_EXIT_USAGE;
    default: return CLI_EXIT_BAD_INPUT;
    }
}

int cli_error(const tk_error *err)
{
    char buf[TK_ERROR_MSG_MAX + TK_ERROR_PATH_MAX + 128];
    fflush(stdout);
    fprintf(stderr, "tracekit: %s\n", tk_error_format(err, buf, sizeof buf));
    return cli_exit_code(err->code);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "tracekit%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

/* ---- progress meter ------------------------------------------------------------ */

typedef struct meter {
    pthread_mutex_t lock;
    struct timespec last;
    int shown;
} meter;

/* One meter for the process: the inputs read on threads at once (report -j, convert -j) each
 * call it, one at a time (a call that finds another showing skips its turn). */
static meter g_meter = {PTHREAD_MUTEX_INITIALIZER, {0, 0}, 0};

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
    meter *m = ctx;
    if (pthread_mutex_trylock(&m->lock) != 0) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double dt =
        (double)(now.tv_sec - m->last.tv_sec) + (double)(now.tv_nsec - m->last.tv_nsec) / 1e9;
    if (!m->shown || dt >= 0.25) {
        m->last = now;
        m->shown = 1;
        if (total)
            fprintf(stderr, "\rtracekit: %5.1f%% of %.1f MB ", 100.0 * (double)done / (double)total,
                    (double)total / 1e6);
        else
            fprintf(stderr, "\rtracekit: %.1f MB ", (double)done / 1e6);
        fflush(stderr);
    }
    pthread_mutex_unlock(&m->lock);
}

static void clear_progress(void)
{
    if (g_meter.shown) {
        fprintf(stderr, "\r%40s\r", "");
        g_meter.shown = 0;
    }
}

/* Decompression threads of the inputs opened from now on (0 = one per CPU). */
static unsigned g_input_threads;

void cli_set_input_threads(unsigned threads) { g_input_threads = threads; }

void cli_input_options(tk_input_options *opt, int progress)
{
    tk_input_options init = TK_INPUT_OPTIONS_INIT;
    *opt = init;
    opt->threads = g_input_threads;
    if (progress) {
        opt->progress = show_progress;
        opt->progress_ctx = &g_meter;
        static int registered;
        if (!registered) {
            atexit(clear_progress);
            registered = 1;
        }
    }
}

int cli_input_at(cli_ctx *ctx, int i, tk_input **out)
{
    if (!ctx->inputs[i]) {
        tk_error err;
        tk_error_clear(&err);
        if (tk_input_open(&ctx->inputs[i], ctx->paths[i], &ctx->input_opt, &err) != TK_OK)
            return cli_error(&err);
    }
    *out = ctx->inputs[i];
    return CLI_EXIT_OK;
}

void cli_input_close_reopened(cli_ctx *ctx, int i, int reopened)
{
    if (!reopened) return;
    tk_input_free(ctx->inputs[i]);
    ctx->inputs[i] = NULL;
}

int cli_open_input(const char *path, int progress, tk_input **out)
{
    tk_input_options opt;
    cli_input_options(&opt, progress);
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_input_open(out, path, &opt, &err);
    if (st != TK_OK) return cli_error(&err);
    return CLI_EXIT_OK;
}

void cli_note_other_format(const char *path, const char *want)
{
    tk_input *in;
    tk_input_options opt;
    cli_input_options(&opt, 0);
    tk_error err;
    tk_error_clear(&err);
    if (tk_input_open(&in, path, &opt, &err) != TK_OK) return;
    const tk_format *f;
    if (tk_format_detect_input(in, &f, &err) == TK_OK && strcmp(f->name, want) != 0)
        fprintf(stderr, "tracekit: %s: this is %s %s file (%s), not %s %s file\n", path,
                cli_a(f->name), f->name, f->title, cli_a(want), want);
    tk_input_free(in);
}

const char *cli_s(uint64_t n) { return n == 1 ? "" : "s"; }

/* ---- diagnostics ---------------------------------------------------------------- */

static void print_diag(void *ctx, tk_severity sev, const tk_location *loc, const char *message)
{
    (void)ctx;
    char buf[TK_ERROR_MSG_MAX + TK_ERROR_PATH_MAX + 128];
    clear_progress();
    fflush(stdout);
    fprintf(stderr, "%s\n", tk_diag_format(sev, loc, message, buf, sizeof buf));
}

const char *cli_a(const char *name) { return name && strchr("aeiox", name[0]) ? "an" : "a"; }

void cli_warning(const tk_location *loc, const char *message)
{
    char buf[TK_ERROR_MSG_MAX + TK_ERROR_PATH_MAX + 128];
    clear_progress();
    fflush(stdout);
    fprintf(stderr, "tracekit: %s\n",
            tk_diag_format(TK_SEV_WARNING, loc, message, buf, sizeof buf));
}

void cli_diag_init(tk_diag *d)
{
    tk_diag_init(d, print_diag, NULL);
    d->max_errors = 1000;
}

int cli_diag_summary(const tk_diag *d, const char *path)
{
    clear_progress();
    fflush(stdout);
    if (d->suppressed)
        fprintf(stderr, "%s: %llu more error%s not shown\n", path,
                (unsigned long long)d->suppressed, cli_s(d->suppressed));
    fprintf(stderr, "%s: %llu error%s, %llu warning%s\n", path, (unsigned long long)d->errors,
            d->errors == 1 ? "" : "s", (unsigned long long)d->warnings,
            d->warnings == 1 ? "" : "s");
    return d->errors ? CLI_EXIT_BAD_INPUT : CLI_EXIT_OK;
}

/* ---- output ---------------------------------------------------------------------- */

/* The streams of the outputs open (a command has one or two). */
#define CLI_MAX_OUTPUTS 8
static struct {
    tk_output *o;
    FILE *f;
    char *buf;
} cli_outputs[CLI_MAX_OUTPUTS];

/* A stream of the command's own over the file of o (not standard output): 0, or -1 (errno). */
static int open_output_file(tk_output *o)
{
    int k = 0;
    while (k < CLI_MAX_OUTPUTS && cli_outputs[k].o) k++;
    if (k == CLI_MAX_OUTPUTS) {
        errno = EMFILE;
        return -1;
    }
    int fd = dup(tk_output_fd(o));
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f) {
        int e = errno;
        if (fd >= 0) close(fd);
        errno = e;
        return -1;
    }
    /* exports write hundreds of MB in small pieces */
    cli_outputs[k].buf = malloc(1u << 20);
    if (cli_outputs[k].buf) setvbuf(f, cli_outputs[k].buf, _IOFBF, 1u << 20);
    cli_outputs[k].o = o;
    cli_outputs[k].f = f;
    return 0;
}

FILE *cli_output_file(tk_output *o)
{
    for (int i = 0; i < CLI_MAX_OUTPUTS; i++)
        if (cli_outputs[i].o == o) return cli_outputs[i].f;
    return stdout;
}

/* Close the command's stream over o: 0, or -1 when a write failed (errno set). */
static int close_output_file(tk_output *o)
{
    for (int i = 0; i < CLI_MAX_OUTPUTS; i++) {
        if (cli_outputs[i].o != o) continue;
        FILE *f = cli_outputs[i].f;
        int bad = fflush(f) != 0 || ferror(f);
        int e = errno;
        if (fclose(f) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
        free(cli_outputs[i].buf);
        cli_outputs[i].o = NULL;
        cli_outputs[i].f = NULL;
        cli_outputs[i].buf = NULL;
        errno = e;
        return bad ? -1 : 0;
    }
    return 0;
}

int cli_output_open(const cli_args *a, int binary, tk_output **out)
{
    const char *path = cli_get(a, "output");
    unsigned flags = (cli_has(a, "force") ? TK_OUTPUT_FORCE : 0) | (binary ? TK_OUTPUT_BINARY : 0);
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_output_open(out, path ? path : "-", flags, &err);
    if (st == TK_OK && tk_output_fd(*out) != STDOUT_FILENO && open_output_file(*out) != 0) {
        tk_error_set_at(&err, TK_ERR_IO, tk_output_path(*out), -1, 0, 0, "cannot open output: %s",
                        strerror(errno));
        tk_output_abort(*out);
        st = TK_ERR_IO;
    }
    if (st == TK_OK) return CLI_EXIT_OK;
    if (st == TK_ERR_EXISTS) tk_error_prefix(&err, "refusing to overwrite (use --force)");
    return cli_error(&err);
}

const cli_opt cli_output_opts[] = {
    CLI_OUTPUT_OPTS,
    {NULL, 0, NULL, NULL},
};

int cli_stdout_open(const cli_args *a, cli_stdout_redirect *r)
{
    r->o = NULL;
    r->saved = -1;
    const char *path = cli_get(a, "output");
    if (!path || strcmp(path, "-") == 0) return CLI_EXIT_OK;
    int rc = cli_output_open(a, 0, &r->o);
    if (rc != CLI_EXIT_OK) {
        r->o = NULL;
        return rc;
    }
    fflush(stdout);
    r->saved = dup(STDOUT_FILENO);
    if (r->saved < 0 || dup2(tk_output_fd(r->o), STDOUT_FILENO) < 0) {
        tk_error err;
        tk_error_set_at(&err, TK_ERR_IO, tk_output_path(r->o), -1, 0, 0, "cannot open output: %s",
                        strerror(errno));
        if (r->saved >= 0) close(r->saved);
        cli_output_abort(r->o);
        r->o = NULL;
        return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

int cli_stdout_close(cli_stdout_redirect *r, int rc)
{
    if (!r->o) return rc;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    clearerr(stdout);
    dup2(r->saved, STDOUT_FILENO);
    close(r->saved);
    if (rc == CLI_EXIT_OK && bad) {
        tk_error err;
        tk_error_set_at(&err, TK_ERR_IO, tk_output_path(r->o), -1, 0, 0, "cannot write: %s",
                        strerror(e));
        rc = cli_error(&err);
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_output_commit(r->o);
    else
        cli_output_abort(r->o);
    r->o = NULL;
    return rc;
}

int cli_need_parts_output(const char *command, const cli_args *a)
{
    const char *path = cli_get(a, "output");
    if (!path || strcmp(path, "-") == 0)
        return cli_usage_error(command,
                               "--per-thread writes a file per thread, OUT-01, "
                               "OUT-02, ... as valgrind --separate-threads=yes does: give -o OUT");
    return CLI_EXIT_OK;
}

int cli_flame_options(const char *command, const cli_args *a, const char *unit, tk_flame_options *o)
{
    *o = (tk_flame_options)TK_FLAME_OPTIONS_INIT;
    uint64_t width;
    if (cli_get_u64(command, a, "width", 1200, &width)) return CLI_EXIT_USAGE;
    if (width < 200 || width > 100000)
        return cli_usage_error(command, "--width: 200 to 100000 pixels");
    o->width = (unsigned)width;
    o->title = cli_get(a, "title");
    o->reverse = cli_has(a, "reverse");
    o->unit = unit;
    return CLI_EXIT_OK;
}

int cli_write_svg(const char *command, const cli_args *a, const char *unit, cli_folded_fn folded,
                  void *job, FILE *out)
{
    tk_flame_options o;
    int rc = cli_flame_options(command, a, unit, &o);
    if (rc != CLI_EXIT_OK) return rc;
    char *text = NULL;
    size_t len = 0;
    tk_error err;
    tk_error_clear(&err);
    FILE *m = open_memstream(&text, &len);
    if (!m) return cli_error((tk_error_set(&err, TK_ERR_NOMEM, "out of memory"), &err));
    tk_status st = folded(job, m, &err);
    if (fclose(m) != 0 && st == TK_OK) st = tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) st = tk_flamegraph_svg(text, len, &o, CLI_WRITER(out), &err);
    free(text);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

int cli_dot_options(const char *command, const cli_args *a, int dot, tk_dot_options *o)
{
    *o = (tk_dot_options)TK_DOT_OPTIONS_INIT;
    if (!dot) {
        static const char *const only_dot[] = {"all", "node-threshold", "edge-threshold",
                                               "full-names"};
        for (size_t i = 0; i < sizeof only_dot / sizeof *only_dot; i++)
            if (cli_has(a, only_dot[i]))
                return cli_usage_error(command, "--%s applies to --to dot only (not --to %s)",
                                       only_dot[i], cli_get(a, "to"));
        return CLI_EXIT_OK;
    }
    o->full_names = cli_has(a, "full-names");
    if (cli_has(a, "all")) {
        if (cli_has(a, "node-threshold") || cli_has(a, "edge-threshold"))
            return cli_usage_error(command, "--all draws every function and call: not with %s",
                                   cli_has(a, "node-threshold") ? "--node-threshold"
                                                                : "--edge-threshold");
        o->node_threshold = o->edge_threshold = -1;
        o->max_nodes = SIZE_MAX;
        return CLI_EXIT_OK;
    }
    if (cli_get_nonzero_double(command, a, "node-threshold", &o->node_threshold) ||
        cli_get_nonzero_double(command, a, "edge-threshold", &o->edge_threshold))
        return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

void cli_warn_chrome_name(const cli_args *a)
{
    const char *path = cli_get(a, "output");
    size_t n = path ? strlen(path) : 0;
    if (n >= 12 && strcmp(path + n - 12, ".chrome.json") == 0)
        fprintf(stderr,
                "tracekit: warning: %s: speedscope reads a file named *.chrome.json as a "
                "Chrome performance recording and refuses this trace: name it *.json\n",
                path);
}

int cli_write_callgrind_parts(const char *command, const cli_args *a, const tk_profile *p,
                              unsigned positions)
{
    int rc = cli_need_parts_output(command, a);
    if (rc != CLI_EXIT_OK) return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_callgrind_write_options o = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    o.positions = positions;
    tk_status st = tk_callgrind_write_parts(p, cli_get(a, "output"), &o,
                                            cli_has(a, "force") ? TK_OUTPUT_FORCE : 0, NULL, &err);
    if (st == TK_ERR_EXISTS) tk_error_prefix(&err, "refusing to overwrite (use --force)");
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

int cli_output_commit(tk_output *o)
{
    tk_error err;
    tk_error_clear(&err);
    if (close_output_file(o) != 0) {
        tk_error_set_at(&err, TK_ERR_IO, tk_output_path(o), -1, 0, 0, "write failed: %s",
                        strerror(errno));
        tk_output_abort(o);
        return cli_error(&err);
    }
    tk_status st = tk_output_commit(o, &err);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

void cli_output_abort(tk_output *o)
{
    if (!o) return;
    close_output_file(o);
    tk_output_abort(o);
}

int cli_write_file(void *f, const void *data, size_t len)
{
    return len && fwrite(data, 1, len, f) != len ? -1 : 0;
}

void cli_put_json_string(FILE *f, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    char small[256];
    char *q = TK_JSON_QUOTED_MAX(n) <= sizeof small ? small : malloc(TK_JSON_QUOTED_MAX(n));
    if (!q) {
        fputs("\"\"", f); /* out of memory: the stream's error is the command's */
        return;
    }
    fwrite(q, 1, tk_json_quote(q, s ? s : "", n), f);
    if (q != small) free(q);
}

void cli_put_csv_field(FILE *f, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    char small[256];
    char *q = TK_CSV_QUOTED_MAX(n) <= sizeof small ? small : malloc(TK_CSV_QUOTED_MAX(n));
    if (!q) return;
    fwrite(q, 1, tk_csv_quote(q, s ? s : "", n), f);
    if (q != small) free(q);
}

cli_ctx cli_diff_side(const cli_ctx *ctx, int side)
{
    cli_ctx set = *ctx;
    int lo = side ? ctx->nfirst : 0, hi = side ? ctx->ninputs : ctx->nfirst;
    set.inputs = ctx->inputs + lo;
    set.paths = ctx->paths + lo;
    set.ninputs = set.hi = hi - lo;
    set.lo = 0;
    return set;
}
