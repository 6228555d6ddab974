/* tracekit convert for DCFG-Trace files: chrome, folded, callgrind, dot or bbv. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

const cli_opt cli_dcfg_trace_convert_opts[] = {
    {"to", 0, "FMT",
     "chrome (Perfetto), folded (flame graphs), callgrind, dot (call graph) or bbv (SimPoint); all "
     "need --dcfg"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 0, NULL, "overwrite OUT"},
    {"dcfg", 0, "DCFG", "the DCFG of the traced run"},
    {"interval", 0, "N", "bbv: instructions per slice (default 100000000)"},
    {"loop-boundaries", 0, NULL, "bbv: end slices at the next loop-head execution (LoopPoint)"},
    {"markers", 0, "FILE", "bbv: write the region boundaries (loop head, count) to FILE"},
    {"pid", 0, "P", "only process P"},
    {"thread", 0, "T", "only thread T"},
    {"per-thread", 0, NULL, "folded: start each stack with its thread"},
    {"node-threshold", 0, "PCT",
     "dot: drop functions below PCT% of the instructions (default 0.5)"},
    {"edge-threshold", 0, "PCT", "dot: drop calls below PCT% of the instructions (default 0.1)"},
    {NULL, 0, NULL, NULL},
};

static int convert_events(const tk_dcfg_trace *t, const tk_cfg *cfg, int chrome, int per_thread,
                          tk_output *out) {
    tk_dcfg_trace_events *x;
    tk_error err;
    tk_error_clear(&err);
    if (tk_dcfg_trace_events_open(&x, t, cfg, &err) != TK_OK)
        return cli_error(&err);
    tk_event_source src;
    tk_dcfg_trace_events_source(x, &src);
    tk_status st;
    if (chrome) {
        src.ticks_per_second = 1e6; /* one instruction = one microsecond: ts = instructions */
        st = tk_export_chrome(&src, tk_output_file(out), &err);
    } else {
        st = tk_export_folded(&src, tk_output_file(out), TK_FOLDED_TIME, per_thread, &err);
    }
    tk_dcfg_trace_events_free(x);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

/* The trace as a profile (instructions per routine, calls), written as a
 * callgrind profile, or with dot non-NULL as a call graph. */
static int convert_profile(const tk_dcfg_trace *t, const tk_cfg *cfg, const tk_dot_options *dot,
                           tk_output *out) {
    tk_profile *prof;
    tk_error err;
    tk_error_clear(&err);
    if (tk_profile_new(&prof) != TK_OK)
        return cli_error((tk_error_set(&err, TK_ERR_NOMEM, "out of memory"), &err));
    tk_status st = tk_dcfg_trace_to_profile(t, cfg, prof, &err);
    if (st == TK_OK && dot) {
        st = tk_profile_write_dot(prof, dot, tk_output_file(out), &err);
    } else if (st == TK_OK) {
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        st = tk_callgrind_write(prof, tk_output_file(out), &wo, &err);
    }
    tk_profile_free(prof);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

/* --to */
enum { TO_CHROME, TO_FOLDED, TO_CALLGRIND, TO_DOT, TO_BBV };
static const cli_choice convert_targets[] = {
    {"chrome", TO_CHROME}, {"folded", TO_FOLDED}, {"callgrind", TO_CALLGRIND}, {"dot", TO_DOT},
    {"bbv", TO_BBV},       {NULL, 0}};

/* The trace (and the DCFG) written as `to` says to out. */
static int convert_to(int to, const tk_dcfg_trace *t, const tk_cfg *cfg, const cli_args *a,
                      const tk_dot_options *dot, tk_output *out) {
    switch (to) {
    case TO_BBV: return cli_dcfg_trace_convert_bbv(t, cfg, a, out);
    case TO_CALLGRIND: return convert_profile(t, cfg, NULL, out);
    case TO_DOT: return convert_profile(t, cfg, dot, out);
    default: return convert_events(t, cfg, to == TO_CHROME, cli_has(a, "per-thread"), out);
    }
}

int cli_dcfg_trace_convert(cli_ctx *ctx, const cli_args *a) {
    const char *to_name = cli_get(a, "to");
    if (!to_name)
        return cli_usage_error("convert", "--to FMT is required (dcfg-trace converts to: chrome, "
                                          "folded, callgrind, dot, bbv)");
    int to = cli_choice_value(convert_targets, to_name);
    if (to < 0)
        return cli_usage_error("convert",
                               "dcfg-trace converts to: chrome, folded, callgrind, dot, bbv "
                               "(not '%s')",
                               to_name);
    tk_dot_options dot_opt = TK_DOT_OPTIONS_INIT;
    if (cli_get_double("convert", a, "node-threshold", dot_opt.node_threshold,
                       &dot_opt.node_threshold) ||
        cli_get_double("convert", a, "edge-threshold", dot_opt.edge_threshold,
                       &dot_opt.edge_threshold))
        return CLI_EXIT_USAGE;
    if (!cli_has(a, "dcfg"))
        return cli_usage_error("convert",
                               "--to %s needs --dcfg DCFG (blocks, edge types, symbols)", to_name);
    tk_cfg *cfg = NULL;
    int rc = cli_dcfg_trace_load_dcfg(a, ctx->progress, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_dcfg_trace *t = NULL;
    tk_output *out = NULL;
    if ((rc = cli_dcfg_trace_open_input(ctx, &t, NULL)) == CLI_EXIT_OK &&
        (rc = cli_output_open(a, 0, &out)) == CLI_EXIT_OK) {
        rc = convert_to(to, t, cfg, a, &dot_opt, out);
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(out);
        else
            tk_output_abort(out);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return rc;
}
