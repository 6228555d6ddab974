/* tracekit convert for DCFG-Trace files: chrome, folded, a flame graph (svg), callgrind, dot
 * or bbv. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"
#include "team.h"

const cli_opt cli_dcfg_trace_convert_opts[] = {
    {"to", 't', "FMT",
     "chrome (Perfetto), folded (flame graphs), svg (a flame graph), "
     "callgrind, dot (call graph) or bbv (SimPoint); all need --dcfg; chrome: " CLI_CHROME_NAMES},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 'f', NULL, "overwrite OUT"},
    {"dcfg", 0, "DCFG", "the DCFG of the traced run"},
    {"interval", 0, "N", "bbv: instructions per slice (default 100000000)"},
    {"loop-boundaries", 0, NULL, "bbv: end slices at the next loop-head execution (LoopPoint)"},
    {"markers", 0, "FILE", "bbv: write the region boundaries (loop head, count) to FILE"},
    {"jobs", 'j', "N",
     "bbv, callgrind, dot, folded, svg: decoding threads (default: the number of CPUs)"},
    {"pid", 0, "P", "only process P"},
    {"thread", 0, "T", "only thread T"},
    {"per-thread", 0, NULL,
     "folded: start each stack with its thread; callgrind: a file per "
     "thread, -o OUT writes OUT-01, OUT-02, ... (default: one part)"},
    {"node-threshold", 0, "PCT",
     "dot: drop functions below PCT% of the instructions (default 0.5)"},
    {"edge-threshold", 0, "PCT", "dot: drop calls below PCT% of the instructions (default 0.1)"},
    {"full-names", 0, NULL,
     "dot: names as they are (default: C++ template and parameter "
     "lists dropped, as KCachegrind's Shorten Templates does)"},
    CLI_DOT_ALL_OPT,
    CLI_SVG_OPTS,
    {NULL, 0, NULL, NULL},
};

/* --to svg: the folded stacks of the trace */
typedef struct folded_job {
    const tk_event_source *src;
    int per_thread;
} folded_job;

static tk_status folded_of(void *job, FILE *f, tk_error *err)
{
    const folded_job *j = job;
    return tk_export_folded(j->src, CLI_WRITER(f), TK_FOLDED_TIME, j->per_thread, err);
}

/* chrome: Chrome JSON; else folded stacks, or with svg their flame graph (a: its options) */
static int convert_events(const tk_dcfg_trace *t, const tk_cfg *cfg, int chrome, int svg,
                          const cli_args *a, unsigned jobs, tk_output *out)
{
    int per_thread = cli_has(a, "per-thread");
    tk_dcfg_trace_events *x;
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    o.threads = jobs;
    if (tk_dcfg_trace_events_open(&x, t, cfg, &o, &err) != TK_OK) return cli_error(&err);
    tk_event_source src;
    tk_dcfg_trace_events_source(x, &src);
    tk_status st;
    if (chrome) {
        src.ticks_per_second = 1e6; /* one instruction = one microsecond: ts = instructions */
        st = tk_export_chrome(&src, CLI_WRITER(cli_output_file(out)), &err);
    } else if (svg) {
        folded_job job = {&src, per_thread};
        int rc = cli_write_svg("convert", a, "instructions", folded_of, &job, cli_output_file(out));
        tk_dcfg_trace_events_free(x);
        return rc;
    } else {
        st = tk_export_folded(&src, CLI_WRITER(cli_output_file(out)), TK_FOLDED_TIME, per_thread,
                              &err);
    }
    tk_dcfg_trace_events_free(x);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

/* The profile of the trace (tk_dcfg_trace_to_profile) into *prof: in a team, every member's
 * share of the threads appended at the root (the others' *prof NULL). Returns an exit code. */
static int make_profile(cli_ctx *ctx, const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned jobs,
                        tk_profile **prof)
{
    if (ctx->team) return cli_dcfg_trace_team_profile(ctx, t, cfg, jobs, prof);
    tk_error err;
    tk_error_clear(&err);
    *prof = NULL;
    if (tk_profile_open(prof, NULL) != TK_OK)
        return cli_error((tk_error_set(&err, TK_ERR_NOMEM, "out of memory"), &err));
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    o.threads = jobs;
    if (tk_dcfg_trace_to_profile(t, cfg, *prof, &o, &err) == TK_OK) return CLI_EXIT_OK;
    tk_profile_free(*prof);
    *prof = NULL;
    return cli_error(&err);
}

/* The instructions per routine and the call arcs (make_profile), written as a callgrind
 * profile (the threads in one part; with out NULL, a file per thread), or with dot non-NULL
 * as a call graph; in a team, by the root. */
static int convert_profile(cli_ctx *ctx, const tk_dcfg_trace *t, const tk_cfg *cfg,
                           const tk_dot_options *dot, const cli_args *a, unsigned jobs,
                           tk_output *out)
{
    tk_profile *prof;
    int rc = make_profile(ctx, t, cfg, jobs, &prof);
    if (rc != CLI_EXIT_OK || !prof) return rc; /* failed, or a member of a team */
    tk_error err;
    tk_error_clear(&err);
    tk_status st = TK_OK;
    if (dot) {
        st = tk_profile_write_dot(prof, dot, CLI_WRITER(cli_output_file(out)), &err);
    } else if (!out) {
        rc = cli_write_callgrind_parts("convert", a, prof, 0);
    } else if ((st = tk_profile_one_part(&prof, &err)) == TK_OK) {
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        st = tk_callgrind_write(prof, CLI_WRITER(cli_output_file(out)), &wo, &err);
    }
    tk_profile_free(prof);
    return st == TK_OK ? rc : cli_error(&err);
}

/* --to */
enum { TO_CHROME, TO_FOLDED, TO_SVG, TO_CALLGRIND, TO_DOT, TO_BBV };
static const cli_choice convert_targets[] = {
    {"chrome", TO_CHROME}, {"folded", TO_FOLDED}, {"svg", TO_SVG}, {"callgrind", TO_CALLGRIND},
    {"dot", TO_DOT},       {"bbv", TO_BBV},       {NULL, 0}};

/* The trace (and the DCFG) written as `to` says to out. */
static int convert_to(cli_ctx *ctx, int to, const tk_dcfg_trace *t, const tk_cfg *cfg,
                      const cli_args *a, const tk_dot_options *dot, unsigned jobs, tk_output *out)
{
    switch (to) {
    case TO_BBV: return cli_dcfg_trace_convert_bbv(ctx, t, cfg, a, jobs, out);
    case TO_CALLGRIND: return convert_profile(ctx, t, cfg, NULL, a, jobs, out);
    case TO_DOT: return convert_profile(ctx, t, cfg, dot, a, jobs, out);
    case TO_FOLDED:
    case TO_SVG:
        if (ctx->team) return cli_dcfg_trace_team_folded(ctx, t, cfg, to == TO_SVG, a, jobs, out);
        /* fall through */
    default: return convert_events(t, cfg, to == TO_CHROME, to == TO_SVG, a, jobs, out);
    }
}

int cli_dcfg_trace_convert(cli_ctx *ctx, const cli_args *a)
{
    const char *to_name = cli_get(a, "to");
    if (!to_name)
        return cli_usage_error("convert", "--to FMT is required (dcfg-trace converts to: chrome, "
                                          "folded, svg, callgrind, dot, bbv)");
    int to = cli_choice_value(convert_targets, to_name);
    if (to < 0)
        return cli_usage_error("convert",
                               "dcfg-trace converts to: chrome, folded, svg, callgrind, dot, "
                               "bbv (not '%s')",
                               to_name);
    tk_dot_options dot_opt;
    if (cli_dot_options("convert", a, to == TO_DOT, &dot_opt) != CLI_EXIT_OK) return CLI_EXIT_USAGE;
    if (!cli_has(a, "dcfg"))
        return cli_usage_error("convert", "--to %s needs --dcfg DCFG (blocks, edge types, symbols)",
                               to_name);
    unsigned jobs = 1;
    if (to == TO_CHROME && cli_has(a, "jobs"))
        return cli_usage_error(
            "convert", "--jobs is for --to bbv, callgrind, dot, folded and svg (not --to %s)",
            to_name);
    if (to != TO_CHROME && cli_dcfg_trace_jobs("convert", a, &jobs) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    /* in a team (tracekit-mpi), callgrind, dot, bbv, folded and svg are made by every member,
     * each of its share of each thread's chunks (convert_team.c, convert_bbv_team.c,
     * convert_folded_team.c), and written by the root; the others by the root alone */
    if (ctx->team && to != TO_CALLGRIND && to != TO_DOT && to != TO_BBV && to != TO_FOLDED &&
        to != TO_SVG) {
        if (ctx->team->rank != 0) return CLI_EXIT_OK;
        ctx->team = NULL;
    }
    int writes = cli_team_writes(ctx);
    tk_cfg *cfg = NULL;
    int rc = cli_dcfg_trace_load_dcfg(a, ctx->progress && writes, &cfg);
    tk_dcfg_trace *t = NULL;
    tk_output *out = NULL;
    int parts = to == TO_CALLGRIND && cli_has(a, "per-thread");
    if (rc == CLI_EXIT_OK && parts) rc = cli_need_parts_output("convert", a);
    if (rc == CLI_EXIT_OK) rc = cli_dcfg_trace_open_input(ctx, &t, NULL);
    if (rc == CLI_EXIT_OK && !parts && writes) rc = cli_output_open(a, 0, &out);
    if (ctx->team && ctx->team->max(ctx->team, &rc) != 0) rc = CLI_EXIT_BAD_INPUT;
    if (rc == CLI_EXIT_OK && parts) {
        rc = convert_profile(ctx, t, cfg, NULL, a, jobs, NULL);
    } else if (rc == CLI_EXIT_OK) {
        rc = convert_to(ctx, to, t, cfg, a, &dot_opt, jobs, out);
        if (to == TO_CHROME && rc == CLI_EXIT_OK) cli_warn_chrome_name(a);
        if (rc == CLI_EXIT_OK && out)
            rc = cli_output_commit(out);
        else
            cli_output_abort(out);
    } else {
        cli_output_abort(out);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return rc;
}

const cli_opt_choices cli_dcfg_trace_convert_choices[] = {{"to", convert_targets}, {NULL, NULL}};
