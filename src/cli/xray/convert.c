/* tracekit convert for XRay traces: chrome, folded, a flame graph (svg), callgrind, dot or
 * JSON events. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "team.h"
#include "xray.h"

const cli_opt cli_xray_convert_opts[] = {
    CLI_XRAY_MAP_OPT,
    {"to", 't', "FMT",
     "chrome|folded|svg|callgrind|dot|json (svg: a flame graph); chrome: " CLI_CHROME_NAMES},
    CLI_OUTPUT_OPTS,
    {"weight", 0, "W", "folded: time (self time in ns, default) or calls"},
    {"node-threshold", 0, "PCT", "dot: drop functions below PCT% of the time (default 0.5)"},
    {"edge-threshold", 0, "PCT", "dot: drop calls below PCT% of the time (default 0.1)"},
    {"full-names", 0, NULL,
     "dot: names as they are (default: C++ template and parameter "
     "lists dropped, as KCachegrind's Shorten Templates does)"},
    CLI_DOT_ALL_OPT,
    {"per-thread", 0, NULL,
     "folded: start each stack with its thread; callgrind: a file per "
     "thread, -o OUT writes OUT-01, OUT-02, ... (valgrind's "
     "--separate-threads=yes)"},
    CLI_XRAY_THREAD_OPT,
    {"unit", 0, "U", "dot: s|ms|us|ns, the unit of the times in the graph (default us)"},
    CLI_SVG_OPTS,
    {"jobs", 'j', "N", "read N traces at once (default: the number of CPUs)"},
    {NULL, 0, NULL, NULL},
};

/* --to and --weight */
static const cli_choice convert_targets[] = {{"chrome", CLI_XRAY_TO_CHROME},
                                             {"folded", CLI_XRAY_TO_FOLDED},
                                             {"json", CLI_XRAY_TO_JSON},
                                             {"callgrind", CLI_XRAY_TO_CALLGRIND},
                                             {"dot", CLI_XRAY_TO_DOT},
                                             {"svg", CLI_XRAY_TO_SVG},
                                             {NULL, 0}};
static const cli_choice convert_weights[] = {
    {"time", TK_FOLDED_TIME}, {"calls", TK_FOLDED_CALLS}, {NULL, 0}};

tk_status cli_xray_write_profile(const tk_profile *p, double ticks_per_second,
                                 const tk_dot_options *dot, FILE *f, tk_error *err)
{
    if (dot) {
        tk_dot_options o = *dot;
        /* the profile's time event is in ns when the trace has a clock rate */
        o.event_per_second = ticks_per_second > 0 ? 1e9 : 0;
        return tk_profile_write_dot(p, &o, CLI_WRITER(f), err);
    }
    tk_callgrind_write_options opt = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    return tk_callgrind_write(p, CLI_WRITER(f), &opt, err);
}

/* The events aggregated into a profile (events "ns calls"), written as a
 * callgrind profile (the threads in one part), or with dot non-NULL as a call graph. */
static tk_status write_profile(const tk_event_source *src, const char *object,
                               const tk_dot_options *dot, FILE *f, tk_error *err)
{
    tk_profile *p;
    tk_status st = tk_events_profile(src, object, 0, &p, err);
    if (st != TK_OK) return st;
    st = cli_xray_write_profile(p, src->ticks_per_second, dot, f, err);
    tk_profile_free(p);
    return st;
}

/* --to svg: the folded stacks of the trace */
typedef struct folded_job {
    const tk_event_source *src;
    tk_folded_weight weight;
    int per_thread;
} folded_job;

static tk_status folded_of(void *job, FILE *f, tk_error *err)
{
    const folded_job *j = job;
    return tk_export_folded(j->src, CLI_WRITER(f), j->weight, j->per_thread, err);
}

/* --to callgrind --per-thread: a file per thread (OUT-01, ...). Returns an exit code. */
static int write_profile_parts(cli_ctx *ctx, const cli_args *args, const tk_event_source *src)
{
    tk_profile *p;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_events_profile(src, cli_get(args, "instr-map"), 1, &p, &err);
    if (st != TK_OK) return cli_error(&err);
    int rc = cli_write_callgrind_parts(ctx->command, args, p, 0);
    tk_profile_free(p);
    return rc;
}

/* Returns an exit code. */
static int parse_options(cli_ctx *ctx, const cli_args *args, cli_xray_convert_how *c)
{
    const char *to = cli_get(args, "to");
    if (!to)
        return cli_usage_error(ctx->command,
                               "missing --to FMT (chrome, folded, callgrind, dot or json)");
    c->target = cli_choice_value(convert_targets, to);
    if (c->target < 0)
        return cli_usage_error(ctx->command,
                               "cannot convert XRay traces to '%s' "
                               "(targets: chrome, folded, svg, callgrind, dot, json)",
                               to);
    int weight = cli_get_choice(ctx->command, args, "weight", convert_weights, TK_FOLDED_TIME);
    if (weight < 0) return CLI_EXIT_USAGE;
    c->weight = (tk_folded_weight)weight;
    if (cli_dot_options(ctx->command, args, c->target == CLI_XRAY_TO_DOT, &c->dot) != CLI_EXIT_OK ||
        cli_xray_unit(ctx, args, &c->dot.time_unit) != 0 || cli_xray_jobs(ctx, args, &c->jobs) != 0)
        return CLI_EXIT_USAGE;
    if (cli_has(args, "unit") && c->target != CLI_XRAY_TO_DOT)
        return cli_usage_error(ctx->command,
                               "--unit applies to --to dot; %s has a unit of its "
                               "own (docs/formats/xray.md)",
                               to);
    return CLI_EXIT_OK;
}

/* The trace written as c says to out. Returns an exit code. */
static int write_target(cli_ctx *ctx, const cli_args *args, const cli_xray_convert_how *c,
                        const tk_event_source *src, tk_output *out)
{
    tk_error err;
    tk_error_clear(&err);
    FILE *f = cli_output_file(out);
    int per_thread = cli_has(args, "per-thread");
    tk_status st;
    if (c->target == CLI_XRAY_TO_CHROME) {
        st = tk_export_chrome(src, CLI_WRITER(f), &err);
        cli_warn_chrome_name(args);
    } else if (c->target == CLI_XRAY_TO_FOLDED) {
        st = tk_export_folded(src, CLI_WRITER(f), c->weight, per_thread, &err);
    } else if (c->target == CLI_XRAY_TO_JSON) {
        st = tk_export_events_json(src, CLI_XRAY_JSON_WRITER(f), &err);
    } else if (c->target == CLI_XRAY_TO_SVG) {
        folded_job job = {src, c->weight, per_thread};
        const char *unit = c->weight == TK_FOLDED_CALLS ? "calls"
                           : src->ticks_per_second > 0  ? "ns"
                                                        : "ticks";
        return cli_write_svg(ctx->command, args, unit, folded_of, &job, f);
    } else {
        const tk_dot_options *dot = c->target == CLI_XRAY_TO_DOT ? &c->dot : NULL;
        st = write_profile(src, cli_get(args, "instr-map"), dot, f, &err);
    }
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

/* Every trace, chained into one source (tk_event_chain_init: the threads of each trace come
 * after those of the traces before it). */
typedef struct traces {
    cli_xray_session *s;
    tk_event_source *srcs;
    int n;
    tk_event_chain chain;
    tk_event_source src;
} traces;

static void traces_close(traces *t)
{
    for (int k = 0; k < t->n; k++) cli_xray_session_close(&t->s[k]);
    free(t->s);
    free(t->srcs);
}

/* Returns an exit code (traces_close in any case). */
static int traces_open(cli_ctx *ctx, const cli_args *args, traces *t)
{
    memset(t, 0, sizeof *t);
    t->s = calloc((size_t)ctx->ninputs, sizeof *t->s);
    t->srcs = calloc((size_t)ctx->ninputs, sizeof *t->srcs);
    if (!t->s || !t->srcs) {
        fprintf(stderr, "tracekit: error: out of memory\n");
        return CLI_EXIT_BAD_INPUT;
    }
    for (; t->n < ctx->ninputs; t->n++) {
        int rc = cli_xray_session_open(ctx, args, t->n, 1, 1, &t->s[t->n]);
        if (rc != CLI_EXIT_OK) return rc;
        t->srcs[t->n] = t->s[t->n].src;
    }
    tk_error err;
    tk_error_clear(&err);
    if (tk_event_chain_init(&t->chain, t->srcs, (size_t)t->n, &t->src, &err) != TK_OK) {
        fprintf(stderr,
                "tracekit: %s: error: its clock is not that of %s: only traces of one "
                "clock are merged\n",
                ctx->paths[t->chain.cur], ctx->paths[0]);
        return CLI_EXIT_BAD_INPUT;
    }
    return CLI_EXIT_OK;
}

/* tracekit's convert of the traces chained: every trace read here, one after the other. */
static int convert_chained(cli_ctx *ctx, const cli_args *args)
{
    cli_xray_convert_how c;
    int rc = parse_options(ctx, args, &c);
    if (rc != CLI_EXIT_OK) return rc;
    int parts = c.target == CLI_XRAY_TO_CALLGRIND && cli_has(args, "per-thread");
    if (parts && (rc = cli_need_parts_output(ctx->command, args)) != CLI_EXIT_OK) return rc;
    traces t;
    rc = traces_open(ctx, args, &t);
    if (rc != CLI_EXIT_OK) {
        traces_close(&t);
        return rc;
    }
    tk_output *out = NULL;
    int stream = c.target == CLI_XRAY_TO_CHROME || c.target == CLI_XRAY_TO_JSON;
    if (parts) {
        rc = write_profile_parts(ctx, args, &t.src);
    } else if ((rc = cli_output_open(args, 0, &out)) != CLI_EXIT_OK) {
    } else if (stream && c.jobs > 1 && t.n > 1) { /* the next traces made ahead on threads */
        rc = cli_xray_convert_stream(c.target == CLI_XRAY_TO_CHROME, t.s, t.n, c.jobs, &t.src,
                                     cli_output_file(out));
        if (c.target == CLI_XRAY_TO_CHROME) cli_warn_chrome_name(args);
    } else {
        rc = write_target(ctx, args, &c, &t.src, out);
    }
    int written = rc == CLI_EXIT_OK;
    if (out && written)
        rc = cli_output_commit(out);
    else if (out)
        cli_output_abort(out);
    for (int k = 0; written && k < t.n; k++) {
        cli_xray_warn_truncation(&t.s[k], ctx->paths[k]);
        cli_xray_warn_unknown_ids(&t.s[k], ctx->paths[k]);
    }
    traces_close(&t);
    return rc;
}

/* -o names a file that is there and --force is not given: the chained reading refuses it
 * before it reads a trace (the partials would open it after reading them all). */
static int output_there(const cli_args *args)
{
    const char *path = cli_get(args, "output");
    return path && strcmp(path, "-") != 0 && !cli_has(args, "force") && access(path, F_OK) == 0;
}

/* tracekit's convert: with -j above 1, several traces to folded, svg, callgrind or dot are
 * read at once, each into its partial (convert_partial.c); when that fails, they are read
 * again, chained, which says what failed. */
static int convert_alone(cli_ctx *ctx, const cli_args *args)
{
    cli_xray_convert_how c;
    int rc = parse_options(ctx, args, &c);
    if (rc != CLI_EXIT_OK) return rc;
    if (c.target == CLI_XRAY_TO_CALLGRIND && cli_has(args, "per-thread") &&
        (rc = cli_need_parts_output(ctx->command, args)) != CLI_EXIT_OK)
        return rc;
    if (c.jobs > 1 && ctx->ninputs > 1 && c.target != CLI_XRAY_TO_CHROME &&
        c.target != CLI_XRAY_TO_JSON && !output_there(args)) {
        rc = cli_xray_convert_jobs(ctx, args, &c);
        if (rc >= 0) return rc;
        if (rc == -1 && (rc = cli_team_reopen_all(ctx)) != CLI_EXIT_OK) return rc;
    }
    return convert_chained(ctx, args);
}

int cli_xray_convert(cli_ctx *ctx, const cli_args *args)
{
    if (!ctx->team) return convert_alone(ctx, args);
    cli_xray_convert_how c;
    int rc = parse_options(ctx, args, &c); /* a usage error on every member */
    if (rc != CLI_EXIT_OK) return rc;
    if (c.target == CLI_XRAY_TO_CALLGRIND && cli_has(args, "per-thread") &&
        (rc = cli_need_parts_output(ctx->command, args)) != CLI_EXIT_OK)
        return rc;
    if (c.target != CLI_XRAY_TO_CHROME && c.target != CLI_XRAY_TO_JSON && !output_there(args))
        return cli_xray_convert_team(ctx, args, &c, convert_chained); /* merged along the tree */
    /* the events in order, or an -o that is there (refused before any trace is read, as
     * tracekit refuses it): the root */
    if (ctx->team->rank != 0) return CLI_EXIT_OK;
    rc = cli_team_reopen_all(ctx);
    return rc == CLI_EXIT_OK ? convert_chained(ctx, args) : rc;
}

const cli_opt_choices cli_xray_convert_choices[] = {
    {"to", convert_targets}, {"weight", convert_weights}, {"unit", cli_xray_units}, {NULL, NULL}};
