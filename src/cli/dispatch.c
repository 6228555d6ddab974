/* Generic commands: find the format of the inputs, check the options against
 * that format's handler, and run it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "forked.h"
#include "team.h"

const cli_opt cli_common_opts[] = {
    {"from", 0, "FMT", "read the input as FMT instead of detecting it"},
    {"progress", 0, NULL, "show progress on stderr"},
    {"no-progress", 0, NULL, "do not show progress (default when stderr is not a terminal)"},
    {"verbose", 'v', NULL,
     "also print the numbers of how the file is made (records, "
     "lines, tables, limits) where the format has them"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

static int min_inputs(cli_cmd_id id) { return id == CLI_DIFF ? 2 : 1; }

/* check's: several FILEs checked at once (check_each, forked.c), where a format's check treats
 * each FILE on its own (cli_format_ops.each); the others' FILEs are read together */
static const cli_opt cli_check_opts[] = {
    {"jobs", 'j', "N",
     "check N FILEs at once in N processes, their verdicts in order (default: the number of "
     "CPUs; 1 when standard output and error are one file)"},
    {NULL, 0, NULL, NULL},
};
static const cli_opt cli_check_together_opts[] = {
    {"jobs", 'j', "N",
     "check N FILEs at once where they are of formats checked one by one (DCFG, XRay, CSI); these "
     "are read together, in one process"},
    {NULL, 0, NULL, NULL},
};

const cli_opt *cli_format_output_opts(const cli_format_ops *ops, cli_cmd_id id)
{
    if (id == CLI_INFO || !ops->run[id]) return NULL;
    const char *own = id == CLI_CHECK ? "jobs" : "output";
    for (const cli_opt *o = ops->opts[id]; o && o->name; o++)
        if (strcmp(o->name, own) == 0) return NULL;
    if (id != CLI_CHECK) return cli_output_opts;
    return ops->each & 1u << CLI_CHECK ? cli_check_opts : cli_check_together_opts;
}

/* All option tables of every format for this command, plus the common ones (and report's
 * --format html's). */
static const cli_opt **union_tables(cli_cmd_id id)
{
    size_t n = 0;
    while (cli_format_ops_at(n)) n++;
    const cli_opt **t = calloc(n + 4, sizeof *t);
    if (!t) return NULL;
    size_t k = 0;
    t[k++] = cli_common_opts;
    if (id == CLI_REPORT) t[k++] = cli_html_opts;
    if (id != CLI_INFO && id != CLI_CHECK) t[k++] = cli_output_opts;
    if (id == CLI_CHECK) t[k++] = cli_check_opts;
    for (size_t i = 0; i < n; i++)
        if (cli_format_ops_at(i)->opts[id]) t[k++] = cli_format_ops_at(i)->opts[id];
    t[k] = NULL;
    return t;
}

static void print_help(const cli_command *c)
{
    cli_cmd_id id = c->generic;
    cli_command_help(c, stdout);
    printf("\nOptions for every format:\n");
    cli_print_options(stdout, cli_common_opts);
    if (id == CLI_REPORT) {
        printf("\n--format html (every format: the report, its tables, the flame graph and the"
               "\ntimeline of the input as one page that works from file://):\n");
        cli_print_options(stdout, cli_html_opts);
    }
    for (size_t i = 0; cli_format_ops_at(i); i++) {
        const cli_format_ops *ops = cli_format_ops_at(i);
        if (!ops->run[id]) continue;
        printf("\nOptions for %s files:\n", ops->format);
        const cli_opt *output = cli_format_output_opts(ops, id);
        if (ops->opts[id] && ops->opts[id]->name)
            cli_print_options(stdout, ops->opts[id]);
        else if (!output)
            printf("  (none)\n");
        cli_print_options(stdout, output);
    }
    if (id == CLI_INFO)
        printf("\nEvery format is recognised; details beyond format and compression come from:");
    else
        printf("\nFormats that support '%s':", c->name);
    for (size_t i = 0; cli_format_ops_at(i); i++)
        if (cli_format_ops_at(i)->run[id]) printf(" %s", cli_format_ops_at(i)->format);
    printf("\n");
}

/* Whether valgrind --tool=callgrind --separate-threads=yes wrote its threads' files beside
 * path (path-01, ...). */
static int has_thread_files(const char *path)
{
    char **threads = NULL;
    int any = tk_callgrind_thread_files(path, &threads, NULL) == TK_OK && threads[0];
    for (size_t i = 0; threads && threads[i]; i++) tk_free(threads[i]);
    tk_free(threads);
    return any;
}

static void print_generic_info(cli_ctx *ctx, int i)
{
    tk_input *in = ctx->inputs[i];
    printf("file: %s\n", ctx->paths[i]);
    if (tk_input_raw_size(in) == 0) /* an empty file read with the others (open_input) */
        printf("format: none (empty%s)\n", has_thread_files(ctx->paths[i])
                                               ? ": the base file of valgrind "
                                                 "--separate-threads=yes"
                                               : "");
    else
        printf("format: %s (%s)\n", ctx->format->name, ctx->format->title);
    printf("compression: %s\n", tk_compression_name(tk_input_compression(in)));
    int64_t size = tk_input_raw_size(in);
    if (size >= 0) printf("size: %lld bytes\n", (long long)size);
}

/* The loose parse: the options of every format for the command, to find the FILE
 * arguments. Returns 1 to go on with loose (to free), else 0 with *rc the exit
 * status (--help printed, or a usage error) and nothing to free. */
static int parse_loose(const cli_command *c, int argc, char **argv, cli_args *loose, int *rc)
{
    cli_cmd_id id = c->generic;
    const char *cmd = c->name;
    const cli_opt **all = union_tables(id);
    if (!all) {
        *rc = cli_usage_error(cmd, "out of memory");
        return 0;
    }
    *rc = cli_parse(cmd, argc, argv, 1, all, 0, loose) != 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    free(all);
    if (*rc != CLI_EXIT_OK) return 0;
    if (cli_has(loose, "help")) {
        cli_args_free(loose);
        print_help(c);
        return 0;
    }
    if (cli_check_force(cmd, loose) != 0) {
        cli_args_free(loose);
        *rc = CLI_EXIT_USAGE;
        return 0;
    }
    if (loose->vs && (loose->vs_at == 0 || loose->vs_at == loose->npos)) {
        const char *where = loose->vs_at == 0 ? "before" : "after";
        cli_args_free(loose);
        *rc = cli_usage_error(cmd, "no FILE %s --vs: FILES... --vs FILES... compares two sets",
                              where);
        return 0;
    }
    /* -j reads the sets of a diff on threads: two FILEs have none to share out */
    if (id == CLI_DIFF && !loose->vs && cli_get(loose, "jobs")) {
        cli_args_free(loose);
        *rc = cli_usage_error(cmd, "-j/--jobs reads each set of FILES... --vs FILES... on "
                                   "threads; a diff of two FILEs reads them as they are");
        return 0;
    }
    if (loose->npos < min_inputs(id)) {
        cli_args_free(loose);
        *rc = cli_usage_error(cmd, "missing FILE argument%s (see 'tracekit %s --help')",
                              min_inputs(id) > 1 ? "s" : "", cmd);
        return 0;
    }
    return 1;
}

/* The context of the handler from the common options: progress, --jobs for the
 * decompression, --from. Returns an exit code. */
static int context_init(const cli_command *c, const cli_args *loose, cli_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->command = c->name;
    ctx->progress =
        cli_has(loose, "progress") || (!cli_has(loose, "no-progress") && isatty(STDERR_FILENO));
    const char *jobs = cli_get(loose, "jobs");
    if (jobs) { /* the command's --jobs bounds the decompression threads too (checked later) */
        uint64_t n; /* as cli_get_u64 reads it */
        if (tk_parse_u64(jobs, strlen(jobs), &n, NULL) == TK_OK && n >= 1 && n <= 256)
            cli_set_input_threads((unsigned)n);
    }
    cli_input_options(&ctx->input_opt, ctx->progress);
    const char *from = cli_get(loose, "from");
    if (from) {
        ctx->format = tk_format_find(from);
        if (!ctx->format)
            return cli_usage_error(c->name, "unknown format '%s' (see 'tracekit formats')", from);
    }
    ctx->ninputs = loose->npos;
    ctx->hi = loose->npos;
    ctx->paths = loose->pos;
    ctx->nfirst = loose->vs ? loose->vs_at : 0;
    return CLI_EXIT_OK;
}

/* Input i could not be opened or recognised: the error; for check, one of the check's errors,
 * with its verdict ("PATH: 1 error, 0 warnings"), as the handlers give it for what stops the
 * reading later. Returns an exit code. */
static int input_failed(const cli_ctx *ctx, int i, const tk_error *err)
{
    if (strcmp(ctx->command, "check") != 0 || err->code == TK_ERR_NOMEM) return cli_error(err);
    tk_diag d;
    cli_diag_init(&d);
    tk_diag_error(&d, err);
    cli_diag_summary(&d, ctx->paths[i]);
    return CLI_EXIT_BAD_INPUT;
}

/* Input i closed again, its format known, when the command's handler opens its inputs as it
 * reads them (cli_format_ops.lazy) and there are several (diff: two sets, not two files): a
 * regular file, which can be opened again by its path. */
static void close_if_lazy(cli_ctx *ctx, int i, const tk_format *f)
{
    const cli_command *c = cli_command_find(ctx->command);
    const cli_format_ops *ops = f ? cli_format_ops_find(f->name) : NULL;
    struct stat sb;
    if (ctx->ninputs < 2 || !c || !ops || !(ops->lazy & (1u << c->generic)) ||
        (c->generic == CLI_DIFF && ctx->ninputs == 2) || /* two files: read as they are */
        strcmp(ctx->paths[i], "-") == 0 || stat(ctx->paths[i], &sb) != 0 || !S_ISREG(sb.st_mode))
        return;
    tk_input_free(ctx->inputs[i]);
    ctx->inputs[i] = NULL;
}

/* Input i is empty: no format to tell (every input is), or no profile to compare (diff). The
 * base file of valgrind --tool=callgrind --separate-threads=yes, which it leaves empty beside
 * its threads' files, is explained. Returns an exit code. */
static int empty_input(const cli_ctx *ctx, int i)
{
    tk_error err;
    char **threads = NULL;
    const char *path = ctx->paths[i];
    if (tk_callgrind_thread_files(path, &threads, NULL) != TK_OK || !threads[0]) {
        tk_error_set_at(&err, TK_ERR_FORMAT, path, 0, 0, 0,
                        ctx->format ? "empty input: nothing to compare"
                                    : "empty input: cannot tell its format (use --from FORMAT)");
    } else {
        size_t n = 0;
        while (threads[n]) n++;
        char what[1024]; /* what to give instead */
        if (strcmp(ctx->command, "diff") == 0)
            snprintf(what, sizeof what,
                     "diff compares two files: one thread's, or the threads merged by "
                     "'tracekit merge -o OUT %s*'",
                     path);
        else
            snprintf(what, sizeof what, "give them too, 'tracekit %s %s*'", ctx->command, path);
        tk_error_set_at(&err, TK_ERR_FORMAT, path, -1, 0, 0,
                        "the file is empty: valgrind --tool=callgrind --separate-threads=yes "
                        "leaves it so and writes each thread's profile beside it (%s%s%s: %zu "
                        "file%s): %s",
                        threads[0], n > 1 ? " ... " : "", n > 1 ? threads[n - 1] : "", n, cli_s(n),
                        what);
    }
    for (size_t k = 0; threads && threads[k]; k++) tk_free(threads[k]);
    tk_free(threads);
    return input_failed(ctx, i, &err);
}

/* What opening one input found (in a team: a member's, for the root). */
typedef struct opened {
    int failed; /* err says what */
    int format; /* the index of its format (tk_format_at), -1: empty or not detected */
    tk_error err;
} opened;

static int format_index(const tk_format *f)
{
    for (size_t k = 0; k < tk_format_count(); k++)
        if (tk_format_at(k) == f) return (int)k;
    return -1;
}

/* Input i opened (detected without --from: an empty file has no format of its own, as the
 * empty base file callgrind writes beside its per-thread files, and takes the others'); what
 * it found into *o. */
static void open_one(cli_ctx *ctx, int i, int detect, opened *o)
{
    o->format = -1;
    tk_error_clear(&o->err);
    tk_status st = tk_input_open(&ctx->inputs[i], ctx->paths[i], &ctx->input_opt, &o->err);
    const uint8_t *head;
    size_t head_len = 0;
    if (st == TK_OK && detect) st = tk_input_peek(ctx->inputs[i], 1, &head, &head_len, &o->err);
    const tk_format *f = NULL;
    if (st == TK_OK && detect && head_len) st = tk_format_detect_input(ctx->inputs[i], &f, &o->err);
    o->failed = st != TK_OK;
    o->format = f ? format_index(f) : -1;
    if (!o->failed) close_if_lazy(ctx, i, f ? f : ctx->format);
}

/* What the opening of the inputs found, said in their order (the first failure, a format that
 * differs): what opening them one after the other says. Returns an exit code. */
/* check in a team: each member checks its own FILEs (cli_team_each) when they are of one
 * format whose check treats each on its own, none failed and none empty; else the root checks
 * them all (check_each), as tracekit does (a verdict for each FILE, whatever its format). */
#define TEAM_CHECK_ALONE (-1)

static int team_check_shared(const cli_ctx *ctx, const opened *got)
{
    const tk_format *first = NULL;
    for (int i = 0; i < ctx->ninputs; i++) {
        const tk_format *f = got[i].format >= 0 ? tk_format_at((size_t)got[i].format) : NULL;
        if (!ctx->format && (got[i].failed || !f || (first && f != first))) return 0;
        if (!first) first = f;
    }
    const tk_format *f = ctx->format ? ctx->format : first;
    const cli_format_ops *ops = f ? cli_format_ops_find(f->name) : NULL;
    for (int i = 0; ctx->format && i < ctx->ninputs; i++)
        if (got[i].failed) return 0;
    return ops && (ops->each & 1u << CLI_CHECK);
}

static int team_verdict(cli_ctx *ctx, const opened *got)
{
    if (strcmp(ctx->command, "check") == 0 && !team_check_shared(ctx, got)) return TEAM_CHECK_ALONE;
    for (int i = 0; i < ctx->ninputs; i++) {
        if (got[i].failed) return input_failed(ctx, i, &got[i].err);
        const tk_format *f = got[i].format >= 0 ? tk_format_at((size_t)got[i].format) : NULL;
        if (!f) continue;
        if (!ctx->format) {
            ctx->format = f;
        } else if (f != ctx->format) {
            fprintf(stderr, "tracekit: %s: is %s %s file, but %s is %s %s file\n", ctx->paths[i],
                    cli_a(f->name), f->name, ctx->paths[0], cli_a(ctx->format->name),
                    ctx->format->name);
            return CLI_EXIT_BAD_INPUT;
        }
    }
    if (!ctx->format) return empty_input(ctx, 0);
    return CLI_EXIT_OK;
}

/* Input i opened, its format known. Returns an exit code (the error printed). */
static int open_known(cli_ctx *ctx, int i)
{
    opened o;
    open_one(ctx, i, 0, &o);
    return o.failed ? input_failed(ctx, i, &o.err) : CLI_EXIT_OK;
}

/* The inputs opened at once on threads (detection reads the first 64 KiB of each: with many
 * small files, the most of a command's time). */
typedef struct opening {
    cli_ctx *ctx;
    opened *got;
    int detect, next;
    pthread_mutex_t lock;
} opening;

static void *open_worker(void *arg)
{
    opening *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        int i = w->next < w->ctx->ninputs ? w->next++ : -1;
        pthread_mutex_unlock(&w->lock);
        if (i < 0) return NULL;
        open_one(w->ctx, i, w->detect, &w->got[i]);
    }
}

/* The FILEs opened (ctx->inputs, to free) and detected, what each found into *out (to free):
 * one after the other, stopping at the first that fails unless every, or on --jobs threads
 * (default one per CPU) when there are several and no progress meter to share. Returns an
 * exit code. */
static int open_all(cli_ctx *ctx, int every, opened **out)
{
    int detect = ctx->format == NULL;
    ctx->inputs = calloc((size_t)ctx->ninputs, sizeof *ctx->inputs);
    opened *got = calloc((size_t)ctx->ninputs + 1, sizeof *got);
    *out = got;
    if (!ctx->inputs || !got) return cli_usage_error(ctx->command, "out of memory");
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned jobs = ctx->input_opt.threads ? ctx->input_opt.threads : cpus > 0 ? (unsigned)cpus : 1;
    if (jobs > (unsigned)ctx->ninputs) jobs = (unsigned)ctx->ninputs;
    if (jobs > 64) jobs = 64;
    if (jobs < 2 || ctx->progress) {
        for (int i = 0; i < ctx->ninputs && (every || i == 0 || !got[i - 1].failed); i++)
            open_one(ctx, i, detect, &got[i]);
    } else {
        opening w = {ctx, got, detect, 0, PTHREAD_MUTEX_INITIALIZER};
        pthread_t th[64];
        unsigned started = 0;
        for (unsigned k = 1; k < jobs; k++)
            if (pthread_create(&th[started], NULL, open_worker, &w) == 0) started++;
        open_worker(&w);
        for (unsigned k = 0; k < started; k++) pthread_join(th[k], NULL);
    }
    return CLI_EXIT_OK;
}

/* Every FILE opened (ctx->inputs, to free), the format known (the first that fails, or a
 * format that differs, is an error). Returns an exit code. */
static int open_inputs(cli_ctx *ctx)
{
    opened *got;
    int rc = open_all(ctx, 0, &got);
    if (rc == CLI_EXIT_OK) rc = team_verdict(ctx, got);
    free(got);
    return rc;
}

/* ---- in a team (tracekit-mpi): each member opens its share of the inputs ------------------ */

/* The sizes of the inputs (the root stats them, the others get them), then the split. */
static int team_split(const cli_team *t, cli_ctx *ctx, int *first)
{
    int64_t *sizes = calloc((size_t)ctx->ninputs + 1, sizeof *sizes);
    if (!sizes) return -1;
    for (int i = 0; t->rank == 0 && i < ctx->ninputs; i++) {
        struct stat st;
        sizes[i] = stat(ctx->paths[i], &st) == 0 ? (int64_t)st.st_size : -1;
    }
    int rc = t->bcast(t, sizes, (size_t)ctx->ninputs * sizeof *sizes);
    if (rc == 0) cli_team_split(t->size, ctx->ninputs, sizes, first);
    free(sizes);
    return rc;
}


/* This member's inputs opened (detected without --from), what it found in got[lo..hi). */
static void team_open_own(cli_ctx *ctx, int detect, opened *got)
{
    for (int i = ctx->lo; i < ctx->hi; i++) {
        open_one(ctx, i, detect, &got[i]);
        if (got[i].failed) return; /* as open_inputs, the first failure ends the opening */
    }
}

/* open_inputs in a team: the inputs split by size, each member opening its own; the root says
 * what open_inputs would and tells the others the format. Returns an exit code (the same on
 * every member). */
static int team_open_inputs(const cli_team *t, cli_ctx *ctx, int *first)
{
    int detect = ctx->format == NULL;
    ctx->inputs = calloc((size_t)ctx->ninputs, sizeof *ctx->inputs);
    opened *got = calloc((size_t)ctx->ninputs, sizeof *got);
    int bad = !ctx->inputs || !got;
    if (t->max(t, &bad) != 0 || bad) {
        free(got);
        return cli_usage_error(ctx->command, "out of memory");
    }
    if (team_split(t, ctx, first) != 0) {
        free(got);
        return CLI_EXIT_BAD_INPUT;
    }
    ctx->lo = first[t->rank];
    ctx->hi = first[t->rank + 1];
    team_open_own(ctx, detect, got);
    int verdict[2] = {CLI_EXIT_OK, ctx->format ? format_index(ctx->format) : -1};
    if (t->gather(t, got, sizeof *got, ctx->lo, ctx->hi) != 0)
        verdict[0] = CLI_EXIT_BAD_INPUT;
    else if (t->rank == 0)
        verdict[0] = team_verdict(ctx, got);
    if (t->rank == 0 && verdict[0] == CLI_EXIT_OK) verdict[1] = format_index(ctx->format);
    free(got);
    if (t->bcast(t, verdict, sizeof verdict) != 0) return CLI_EXIT_BAD_INPUT;
    ctx->format = verdict[1] >= 0 ? tk_format_at((size_t)verdict[1]) : NULL;
    return verdict[0];
}

/* A handler that does not run in a team runs on the root alone, over every input: the root
 * opens those of the others (their format known); the others have nothing to do. Returns an
 * exit code; *alone 1 when this member is one of the others. */
static int team_to_root(const cli_team *t, cli_ctx *ctx, int *alone)
{
    *alone = t->rank != 0;
    for (int i = 0; i < ctx->ninputs; i++) {
        if (*alone || ctx->inputs[i]) continue;
        int rc = open_known(ctx, i);
        if (rc != CLI_EXIT_OK) return rc;
    }
    ctx->lo = 0;
    ctx->hi = ctx->ninputs;
    ctx->team = NULL;
    return CLI_EXIT_OK;
}

/* A handler that runs in a team over every input: each member opens those it has not (their
 * format known). Returns an exit code (the same on every member). */
static int team_open_all(const cli_team *t, cli_ctx *ctx)
{
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++)
        if (!ctx->inputs[i]) rc = open_known(ctx, i);
    int worst = rc;
    if (t->max(t, &worst) != 0) return CLI_EXIT_BAD_INPUT;
    ctx->lo = 0;
    ctx->hi = ctx->ninputs;
    return worst;
}

/* The formats whose handler of command id takes the option word (as spelled: "-t" or
 * "--to"), comma-separated, into buf. */
static void formats_with(cli_cmd_id id, const char *word, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; cli_format_ops_at(i) && n < size; i++) {
        const cli_format_ops *ops = cli_format_ops_at(i);
        const cli_opt *own[] = {ops->opts[id], cli_format_output_opts(ops, id), NULL};
        if (!ops->run[id] || !cli_find_option(own[0] ? own : own + 1, word)) continue;
        int w = snprintf(buf + n, size - n, "%s%s", n ? ", " : "", ops->format);
        n += w < 0 ? 0 : (size_t)w;
    }
}

/* The strict parse of the arguments (against the tables of the format's handler) failed,
 * quietly, where the loose one (against every format's) did not: an option that other formats
 * have, which this command refuses for this format, said so ("--threshold is not an option of
 * report for xray files: callgrind files have it"), or a value the format's handler reads
 * otherwise, the parse's own message. Returns CLI_EXIT_USAGE. */
static int refuse_option(const cli_command *c, const cli_ctx *ctx, int argc, char **argv,
                         const cli_opt *const *tables, cli_args *failed)
{
    const char *cmd = c->name, *fmt = ctx->format->name;
    const cli_opt **all = failed->unknown ? union_tables(c->generic) : NULL;
    const char *word = failed->failed_at >= 0 ? argv[failed->failed_at] : NULL;
    const cli_opt *o = all && word ? cli_find_option(all, word) : NULL;
    if (!o) {
        free(all);
        cli_args args; /* the parse again, aloud */
        if (cli_parse(cmd, argc, argv, 1, tables, 0, &args) == 0) cli_args_free(&args);
        fprintf(stderr, "tracekit %s: (options for %s files: see 'tracekit %s --help')\n", cmd, fmt,
                cmd);
        return CLI_EXIT_USAGE;
    }
    char others[256], spelled[80];
    formats_with(c->generic, word, others, sizeof others);
    size_t len = strcspn(word, "=");
    if (len > 60) len = 60;
    snprintf(spelled, sizeof spelled, "-%.*s", (int)len, word); /* "--top", "--top" of "-top" */
    if (word[1] != '-' && !cli_find_option(all, spelled)) /* short: "-n5" */
        snprintf(spelled, sizeof spelled, "-%c (--%s)", word[1], o->name);
    else
        snprintf(spelled, sizeof spelled, "%.*s", (int)len, word);
    free(all);
    int html = 0;
    for (const cli_opt *h = cli_html_opts; c->generic == CLI_REPORT && h->name; h++)
        html |= strcmp(h->name, o->name) == 0;
    if (others[0])
        return cli_usage_error(cmd,
                               "%s is not an option of %s for %s files (it is for %s files; "
                               "see 'tracekit %s --help')",
                               spelled, cmd, fmt, others, cmd);
    if (html)
        return cli_usage_error(cmd,
                               "%s is an option of report --format html only (see 'tracekit "
                               "report --help')",
                               spelled);
    return cli_usage_error(cmd, "%s is not an option of %s for %s files (see 'tracekit %s --help')",
                           spelled, cmd, fmt, cmd);
}

/* -j, as given, else the number of CPUs, or 1 when standard output and error are one file
 * (their lines stay in the order of a run one after the other), a FILE is standard input or
 * this is tracekit-mpi's root running alone. 0 or -1 (a usage error, said). */
static int jobs_or_default(const char *cmd, const cli_args *a, const cli_ctx *ctx, unsigned *jobs)
{
    if (cli_get(a, "jobs") && cli_get_jobs(cmd, a, jobs) != 0) return -1;
    if (cli_get(a, "jobs") && !cli_team_get()) return 0;
    *jobs = 1;
    if (cli_team_get()) return 0; /* tracekit-mpi's root alone: no processes forked */
    for (int i = 0; i < ctx->ninputs; i++)
        if (strcmp(ctx->paths[i], "-") == 0) return 0;
    return cli_same_output() ? 0 : cli_get_jobs(cmd, a, jobs);
}

/* A handler that treats each FILE on its own, run on a range of its FILEs in a process of its
 * own (each_unit): unit k's FILEs are [first[k], first[k + 1]). */
typedef struct each_units {
    cli_ctx *ctx;
    cli_run_fn run;
    const cli_args *args;
    unsigned threads; /* each one's decompression threads */
    int *first;
} each_units;

static int each_unit(void *arg, int k)
{
    each_units *w = arg;
    cli_ctx one = *w->ctx;
    one.inputs = w->ctx->inputs + w->first[k];
    one.paths = w->ctx->paths + w->first[k];
    one.ninputs = one.hi = w->first[k + 1] - w->first[k];
    one.lo = 0;
    one.progress = 0; /* its stderr is a file until its turn */
    cli_input_options(&one.input_opt, 0);
    one.input_opt.threads = w->threads;
    return w->run(&one, w->args);
}

/* The bytes of FILEs a unit reads at least, on average (fewer when there are few): a process
 * forked, two temporary files and their copy cost more than a small FILE's reading (256 DCFGs
 * of 35 KB, each in a process of its own: 4.6-5.4 s against 0.3-0.4 s one after the other, on
 * a loaded machine; docs/mpi.md), so small FILEs go to processes a hundred at a time. */
#define EACH_UNIT_BYTES (4u << 20)

/* The units of n FILEs for `jobs` processes into first (n + 1 entries): contiguous ranges of
 * them by size, up to 4 per process (a unit that ends early leaves its process to the next)
 * and none of fewer than EACH_UNIT_BYTES on average, but at least `jobs`. Returns how many. */
static int each_split(const char *const *paths, int n, unsigned jobs, int *first)
{
    int64_t *sizes = calloc((size_t)n + 1, sizeof *sizes);
    uint64_t total = 0;
    for (int i = 0; sizes && i < n; i++) {
        struct stat st;
        sizes[i] = stat(paths[i], &st) == 0 ? (int64_t)st.st_size : 0;
        total += (uint64_t)sizes[i];
    }
    uint64_t units = (uint64_t)jobs * 4, most = total / EACH_UNIT_BYTES;
    if (units > most) units = most > jobs ? most : jobs;
    if (units > (uint64_t)n || !sizes) units = (uint64_t)n;
    if (!sizes) {
        for (int i = 0; i <= n; i++) first[i] = i;
        return n;
    }
    cli_team_split((int)units, n, sizes, first);
    free(sizes);
    int u = 0; /* the empty ranges left out */
    for (int k = 1; k <= (int)units; k++)
        if (first[k] > first[u]) first[++u] = first[k];
    return u;
}

static int has_jobs(const cli_opt *o)
{
    for (; o && o->name; o++)
        if (strcmp(o->name, "jobs") == 0) return 1;
    return 0;
}

/* The handler over the inputs: in a team, each member over its own where it treats each on
 * its own; of several FILEs, -j at once in processes of their own where it treats each on its
 * own, stops at the first that fails and has --jobs (forked.h: the bytes and exit status of
 * the run one after the other), each process over a range of them (each_split); else as it
 * is. Returns an exit code. */
static int run_inputs(cli_ctx *ctx, const cli_format_ops *ops, cli_cmd_id id, const cli_args *a)
{
    unsigned bit = 1u << id;
    if (ctx->team && ((ops->each | ops->each_stops) & bit))
        return cli_team_each(ctx, ops->run[id], a, (ops->each_stops & bit) != 0);
    unsigned jobs = 1;
    if (!ctx->team && (ops->each_stops & bit) && has_jobs(ops->opts[id]) &&
        jobs_or_default(ctx->command, a, ctx, &jobs) != 0)
        return CLI_EXIT_USAGE;
    if (jobs < 2 || ctx->ninputs < 2) return ops->run[id](ctx, a);
    if (jobs > (unsigned)ctx->ninputs) jobs = (unsigned)ctx->ninputs;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = cpus > (long)jobs ? (unsigned)(cpus / (long)jobs) : 1;
    if (ctx->input_opt.threads && threads > ctx->input_opt.threads)
        threads = ctx->input_opt.threads;
    each_units w = {ctx, ops->run[id], a, threads,
                    malloc(((size_t)ctx->ninputs + 1) * sizeof(int))};
    if (!w.first) return ops->run[id](ctx, a);
    int n = each_split(ctx->paths, ctx->ninputs, jobs, w.first);
    int rc = n < 2 ? ops->run[id](ctx, a) : cli_run_forked(n, jobs, 1, each_unit, &w);
    free(w.first);
    return rc;
}

/* The format's handler, after the strict parse of the arguments against its
 * options; info prints the generic part first; report --format html makes the page of the
 * format's report (html.c). Returns an exit code. */
static int run_handler(const cli_command *c, int argc, char **argv, const cli_args *loose,
                       cli_ctx *ctx)
{
    cli_cmd_id id = c->generic;
    const char *cmd = c->name;
    const cli_format_ops *ops = cli_format_ops_find(ctx->format->name);
    int html = id == CLI_REPORT && cli_html_wanted(loose);
    unsigned bit = 1u << id;
    if (ctx->team &&
        (html || !ops || !((ops->team | ops->each | ops->each_stops | ops->whole) & bit))) {
        int alone, rc = team_to_root(ctx->team, ctx, &alone);
        if (alone || rc != CLI_EXIT_OK) return rc;
    }
    if (ctx->team && (ops->whole & bit)) {
        int rc = team_open_all(ctx->team, ctx);
        if (rc != CLI_EXIT_OK) return rc;
    }
    if (id == CLI_INFO) {
        for (int i = 0; i < ctx->ninputs; i++) {
            if (i) printf("\n");
            print_generic_info(ctx, i);
        }
        if (!ops || !ops->run[id]) return CLI_EXIT_OK;
        fflush(stdout);
    } else if (!ops || !ops->run[id]) {
        return cli_usage_error(cmd,
                               "'%s' is not supported for %s files (yet); see "
                               "'tracekit formats'",
                               cmd, ctx->format->name);
    }
    int sets = id == CLI_DIFF && ctx->nfirst && ctx->ninputs > 2;
    if (sets && !ops->diff_sets)
        return cli_usage_error(cmd, "a set of several %s files a side (%d --vs %d): %s",
                               ops->format, ctx->nfirst, ctx->ninputs - ctx->nfirst,
                               ops->diff_sets_refused);
    /* an empty side is no profile; in a set, the empty base file of valgrind
     * --separate-threads=yes beside its threads' files is read as merge reads it */
    for (int i = 0; id == CLI_DIFF && !sets && i < ctx->ninputs; i++)
        if (ctx->inputs[i] && tk_input_raw_size(ctx->inputs[i]) == 0) return empty_input(ctx, i);
    /* a report of each FILE on its own is one JSON document per FILE: a page shows one */
    if (html && ctx->ninputs > 1 && ((ops->each | ops->each_stops) & bit))
        return cli_usage_error(cmd,
                               "--format html makes the page of one %s FILE (the report of "
                               "each is its own): got %d FILEs; make a page of each",
                               ops->format, ctx->ninputs);
    if (html) return cli_html_report(ctx, loose, argc, argv);
    /* -o for a handler that prints on standard output: the dispatcher's */
    const cli_opt *output = cli_format_output_opts(ops, id);
    const cli_opt *tables[4] = {cli_common_opts, ops->opts[id] ? ops->opts[id] : output,
                                ops->opts[id] ? output : NULL, NULL};
    cli_args args;
    if (cli_parse(cmd, argc, argv, 1, tables, CLI_PARSE_QUIET, &args) != 0)
        return refuse_option(c, ctx, argc, argv, tables, &args);
    if (id == CLI_CHECK) output = NULL; /* check's -j: check_each's */
    cli_stdout_redirect redirect = {NULL, -1};
    int rc = output && cli_team_writes(ctx) ? cli_stdout_open(&args, &redirect) : CLI_EXIT_OK;
    if (ctx->team && output) { /* the members go on together (the root opened -o) or stop */
        int failed = rc != CLI_EXIT_OK;
        if (ctx->team->max(ctx->team, &failed) != 0 || (failed && rc == CLI_EXIT_OK))
            rc = CLI_EXIT_BAD_INPUT;
    }
    if (rc == CLI_EXIT_OK) rc = cli_stdout_close(&redirect, run_inputs(ctx, ops, id, &args));
    cli_args_free(&args);
    return rc;
}

/* ---- check of several FILEs: each in its own format ------------------------------------ */

/* The FILEs from i on that check reads together: those of one format (empty ones, which have
 * none, with them), up to the first of another or one that failed; their format into *f
 * (NULL: only empty FILEs, without --from). Returns the index after the last. */
static int same_format_run(const cli_ctx *ctx, const opened *got, int i, const tk_format **f)
{
    *f = ctx->format;
    int j = i;
    for (; j < ctx->ninputs && !got[j].failed; j++) {
        const tk_format *g = got[j].format >= 0 ? tk_format_at((size_t)got[j].format) : NULL;
        if (!g) continue;
        if (!*f)
            *f = g;
        else if (g != *f)
            break;
    }
    return j;
}

/* The units check runs, each its FILEs [lo[u], hi[u]) (check_each). */
typedef struct check_units {
    const cli_command *c;
    int argc;
    char **argv;
    const cli_args *loose;
    cli_ctx *ctx;
    opened *got;
    unsigned jobs;
    int n, *lo, *hi;
} check_units;

/* Unit u: its FILE that could not be opened, its empty FILEs, or its FILEs of one format as
 * their handler reads them. Returns an exit code. */
static int check_unit(void *arg, int u)
{
    check_units *w = arg;
    cli_ctx *ctx = w->ctx;
    int i = w->lo[u];
    if (w->got[i].failed) return input_failed(ctx, i, &w->got[i].err);
    cli_ctx run = *ctx;
    same_format_run(ctx, w->got, i, &run.format);
    run.inputs = ctx->inputs + i;
    run.paths = ctx->paths + i;
    run.ninputs = run.hi = w->hi[u] - i;
    if (w->n > 1 && run.progress) run.progress = 0; /* its stderr is a file until its turn */
    int rc = CLI_EXIT_OK;
    for (int k = 0; !run.format && k < run.ninputs; k++) {
        int r = empty_input(&run, k);
        rc = r > rc ? r : rc;
    }
    if (run.format) rc = run_handler(w->c, w->argc, w->argv, w->loose, &run);
    return rc;
}

/* The units of check's FILEs into w: each FILE that failed, each run of FILEs of one format
 * (same_format_run), cut where that format's check treats each on its own
 * (cli_format_ops.each): into its FILEs one after the other, or for -j processes into ranges
 * of them by size (each_split: a process forked per small FILE would cost more than its
 * check). Returns 0 or -1 (out of memory). */
static int check_split(check_units *w)
{
    cli_ctx *ctx = w->ctx;
    w->lo = malloc(((size_t)ctx->ninputs + 1) * sizeof *w->lo);
    w->hi = malloc(((size_t)ctx->ninputs + 1) * sizeof *w->hi);
    if (!w->lo || !w->hi) return -1;
    for (int i = 0; i < ctx->ninputs;) {
        const tk_format *f = NULL;
        int j = w->got[i].failed ? i + 1 : same_format_run(ctx, w->got, i, &f);
        const cli_format_ops *ops = f ? cli_format_ops_find(f->name) : NULL;
        int each = ops && (ops->each & 1u << CLI_CHECK);
        int *first =
            each && w->jobs > 1 && j - i > 1 ? malloc(((size_t)(j - i) + 1) * sizeof *first) : NULL;
        int units = first ? each_split(ctx->paths + i, j - i, w->jobs, first) : 0;
        for (int u = 0; u < units; u++) {
            w->lo[w->n] = i + first[u];
            w->hi[w->n++] = i + first[u + 1];
        }
        for (int k = i; !first && k < j; k = each ? k + 1 : j) {
            w->lo[w->n] = k;
            w->hi[w->n++] = each ? k + 1 : j;
        }
        free(first);
        i = j;
    }
    return 0;
}

/* check FILE...: each FILE checked in its own format, one verdict each, in their order (the
 * FILEs of one format given one after the other read together, as their handler reads them:
 * a Callgrind run, a WET trace with its history; those of DCFG and XRay, whose check treats
 * each on its own, -j at once in processes of their own, their outputs printed in order); a
 * FILE that cannot be opened or recognised is one error of its verdict. The exit status is
 * the worst. Returns an exit code. */
static int check_each(const cli_command *c, int argc, char **argv, const cli_args *loose,
                      cli_ctx *ctx)
{
    unsigned jobs;
    if (jobs_or_default(c->name, loose, ctx, &jobs) != 0) return CLI_EXIT_USAGE;
    check_units w = {c, argc, argv, loose, ctx, NULL, jobs, 0, NULL, NULL};
    int worst = open_all(ctx, 1, &w.got);
    if (worst == CLI_EXIT_OK && check_split(&w) != 0)
        worst = cli_usage_error(c->name, "out of memory");
    if (worst == CLI_EXIT_OK && (jobs < 2 || w.n < 2)) {
        for (int u = 0; u < w.n && worst != CLI_EXIT_USAGE; u++) {
            int rc = check_unit(&w, u);
            worst = rc > worst ? rc : worst;
        }
    } else if (worst == CLI_EXIT_OK) {
        worst = cli_run_forked(w.n, jobs, 0, check_unit, &w);
    }
    free(w.got);
    free(w.lo);
    free(w.hi);
    return worst;
}

/* check in a team over FILEs that are not all of one format checked each on its own: the
 * root checks them all, one after the other (the members are the parallelism: no -j), as
 * tracekit does; the others end. Returns an exit code. */
static int team_check_alone(const cli_command *c, int argc, char **argv, const cli_args *loose,
                            cli_ctx *ctx)
{
    for (int i = 0; i < ctx->ninputs; i++) tk_input_free(ctx->inputs[i]);
    free(ctx->inputs);
    ctx->inputs = NULL;
    if (ctx->team->rank != 0) return CLI_EXIT_OK;
    ctx->team = NULL;
    ctx->lo = 0;
    ctx->hi = ctx->ninputs;
    return check_each(c, argc, argv, loose, ctx);
}

int cli_dispatch(const cli_command *c, int argc, char **argv)
{
    cli_args loose;
    int rc;
    if (!parse_loose(c, argc, argv, &loose, &rc)) return rc;
    cli_ctx ctx;
    rc = context_init(c, &loose, &ctx);
    const cli_team *team = cli_team_get();
    for (int i = 0; team && i < ctx.ninputs; i++)
        if (strcmp(ctx.paths[i], "-") == 0) team = NULL; /* standard input: the root's alone */
    if (!team && cli_team_get() && cli_team_get()->rank != 0) {
        cli_args_free(&loose); /* the root runs it */
        return rc;
    }
    int *first = team ? calloc((size_t)team->size + 1, sizeof *first) : NULL;
    if (rc == CLI_EXIT_OK && team && !first) rc = cli_usage_error(c->name, "out of memory");
    if (rc == CLI_EXIT_OK && !team && c->generic == CLI_CHECK) {
        rc = check_each(c, argc, argv, &loose, &ctx);
    } else {
        if (rc == CLI_EXIT_OK) rc = team ? team_open_inputs(team, &ctx, first) : open_inputs(&ctx);
        ctx.team = team;
        if (rc == TEAM_CHECK_ALONE)
            rc = team_check_alone(c, argc, argv, &loose, &ctx);
        else if (rc == CLI_EXIT_OK)
            rc = run_handler(c, argc, argv, &loose, &ctx);
    }
    for (int i = 0; i < ctx.ninputs; i++)
        if (ctx.inputs) tk_input_free(ctx.inputs[i]);
    free(ctx.inputs);
    free(first);
    cli_args_free(&loose);
    return rc;
}
