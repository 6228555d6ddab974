/* Command handlers for dcfg-trace files: info, check, dump, report. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

static const cli_opt check_opts[] = {
    {"dcfg", 0, "DCFG", "cross-check edges, instruction and edge counts against this DCFG"},
    {"jobs", 'j', "N", "decoding threads (default: the number of CPUs)"},
    {NULL, 0, NULL, NULL},
};

static const cli_opt report_opts[] = {
    {"dcfg", 0, "DCFG", "add hot blocks and hot loops (by dynamic instructions)"},
    {"top", 0, "N", "rows per table (default 10)"},
    {"jobs", 'j', "N", "decoding threads (default: the number of CPUs)"},
    {"format", 0, "FMT", "text (default) or json"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 0, NULL, "overwrite OUT"},
    {NULL, 0, NULL, NULL},
};

static const cli_opt dump_opts[] = {
    {"no-edges", 0, NULL, "only the structure, not the decoded edges"},
    {NULL, 0, NULL, NULL},
};

/* ---- info ------------------------------------------------------------------ */

static int run_info(cli_ctx *ctx, const cli_args *a) {
    (void)a;
    tk_dcfg_trace *t;
    int rc = dtc_open_ctx_trace(ctx, &t, NULL);
    if (rc != CLI_EXIT_OK)
        return rc;
    uint64_t major, minor;
    tk_dcfg_trace_version(t, &major, &minor);
    printf("version: %llu.%llu\n", (unsigned long long)major, (unsigned long long)minor);
    size_t np = tk_dcfg_trace_process_count(t);
    printf("processes: %zu\n", np);
    for (size_t i = 0; i < np; i++) {
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, i, &pi);
        printf("process %llu: %zu threads, %zu transition rows from %zu edges (codes up to %u bits), "
               "%zu dictionary entries\n",
               (unsigned long long)pi.pid, pi.nthreads, pi.transition_rows, pi.transition_states,
               pi.max_code_bits, pi.dictionary_entries);
        for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++) {
            tk_dcfg_trace_thread_info ti;
            tk_dcfg_trace_thread(t, th, &ti);
            if (ti.process != i)
                continue;
            uint64_t edges = 0, instrs = 0, first = 0, end = 0, chars = 0;
            for (size_t c = 0; c < ti.nchunks; c++) {
                tk_dcfg_trace_chunk_info ci;
                tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
                edges += ci.edge_count;
                instrs += ci.instr_count;
                chars += ci.sequence_chars;
                if (c == 0)
                    first = ci.preceding_instr_count;
                end = ci.preceding_instr_count + ci.instr_count;
            }
            printf("  thread %llu: %zu chunks, %llu edges (EDGE_COUNT), %llu instructions "
                   "(INSTR_COUNT), instructions %llu..%llu, %llu sequence characters\n",
                   (unsigned long long)ti.thread_id, ti.nchunks, (unsigned long long)edges,
                   (unsigned long long)instrs, (unsigned long long)first, (unsigned long long)end,
                   (unsigned long long)chars);
        }
    }
    tk_dcfg_trace_free(t);
    return CLI_EXIT_OK;
}

/* ---- check ------------------------------------------------------------------ */

static int run_check(cli_ctx *ctx, const cli_args *a) {
    tk_diag diag;
    cli_diag_init(&diag);
    unsigned jobs;
    int rc = dtc_jobs("check", a, &jobs);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_cfg *cfg = NULL;
    if ((rc = dtc_load_dcfg(a, ctx->progress, &cfg)) != CLI_EXIT_OK)
        return rc;
    tk_dcfg_trace *t = NULL;
    if (dtc_open_ctx_trace(ctx, &t, &diag) == CLI_EXIT_OK) {
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_dcfg_trace_check(t, cfg, jobs, &diag, &err);
        if (st != TK_OK && st != TK_ERR_CHECK)
            tk_diag_error(&diag, &err);
    }
    rc = cli_diag_summary(&diag, ctx->paths[0]);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return rc;
}

/* ---- dump ------------------------------------------------------------------- */

static int dump_edges(void *ctx, const uint32_t *edges, size_t n) {
    dtc_writer *w = ctx;
    for (size_t i = 0; i < n; i++) {
        dtc_w_char(w, ' ');
        dtc_w_u64(w, edges[i]);
    }
    return w->failed;
}

static int run_dump(cli_ctx *ctx, const cli_args *a) {
    tk_dcfg_trace *t;
    int rc = dtc_open_ctx_trace(ctx, &t, NULL);
    if (rc != CLI_EXIT_OK)
        return rc;
    int with_edges = !cli_has(a, "no-edges");
    uint64_t major, minor;
    tk_dcfg_trace_version(t, &major, &minor);
    printf("dcfg-trace %llu.%llu\n", (unsigned long long)major, (unsigned long long)minor);
    tk_error err;
    tk_error_clear(&err);
    for (size_t i = 0; i < tk_dcfg_trace_process_count(t) && rc == CLI_EXIT_OK; i++) {
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, i, &pi);
        printf("process %llu\n", (unsigned long long)pi.pid);
        for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && rc == CLI_EXIT_OK; th++) {
            tk_dcfg_trace_thread_info ti;
            tk_dcfg_trace_thread(t, th, &ti);
            if (ti.process != i)
                continue;
            printf("  thread %llu\n", (unsigned long long)ti.thread_id);
            for (size_t c = 0; c < ti.nchunks; c++) {
                tk_dcfg_trace_chunk_info ci;
                tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
                printf("  chunk preceding=%llu instrs=%llu edge_count=%llu first=%llu\n",
                       (unsigned long long)ci.preceding_instr_count,
                       (unsigned long long)ci.instr_count, (unsigned long long)ci.edge_count,
                       (unsigned long long)(ci.edge_count ? ci.first_edge_id : 0));
                if (!with_edges)
                    continue;
                dtc_writer w;
                dtc_w_init(&w, stdout);
                fflush(stdout);
                dtc_w_str(&w, "    edges:");
                uint64_t n;
                tk_status st =
                    tk_dcfg_trace_decode_chunk(t, ti.first_chunk + c, dump_edges, &w, &n, NULL, &err);
                dtc_w_char(&w, '\n');
                if (dtc_w_flush(&w) != 0 && st == TK_OK)
                    st = tk_error_set(&err, TK_ERR_IO, "cannot write the output");
                if (st != TK_OK) {
                    rc = cli_error(&err);
                    break;
                }
            }
        }
    }
    tk_dcfg_trace_free(t);
    return rc;
}


/* ---- convert --------------------------------------------------------------------- */

static const cli_opt convert_opts[] = {
    {"to", 0, "FMT", "chrome (Perfetto), folded (flame graphs), callgrind, dot (call graph) or bbv (SimPoint); all need --dcfg"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 0, NULL, "overwrite OUT"},
    {"dcfg", 0, "DCFG", "the DCFG of the traced run"},
    {"interval", 0, "N", "bbv: instructions per slice (default 100000000)"},
    {"loop-boundaries", 0, NULL, "bbv: end slices at the next loop-head execution (LoopPoint)"},
    {"markers", 0, "FILE", "bbv: write the region boundaries (loop head, count) to FILE"},
    {"pid", 0, "P", "only process P"},
    {"thread", 0, "T", "only thread T"},
    {"per-thread", 0, NULL, "folded: start each stack with its thread"},
    {"node-threshold", 0, "PCT", "dot: drop functions below PCT% of the instructions (default 0.5)"},
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

static int run_convert(cli_ctx *ctx, const cli_args *a) {
    const char *to = cli_get(a, "to");
    if (!to)
        return cli_usage_error("convert", "--to FMT is required (dcfg-trace converts to: chrome, "
                                          "folded, callgrind, dot, bbv)");
    int bbv = strcmp(to, "bbv") == 0, chrome = strcmp(to, "chrome") == 0;
    int callgrind = strcmp(to, "callgrind") == 0, dot = strcmp(to, "dot") == 0;
    if (!bbv && !chrome && !callgrind && !dot && strcmp(to, "folded") != 0)
        return cli_usage_error("convert", "dcfg-trace converts to: chrome, folded, callgrind, dot, bbv (not '%s')",
                               to);
    tk_dot_options dot_opt = TK_DOT_OPTIONS_INIT;
    if (cli_get_double("convert", a, "node-threshold", dot_opt.node_threshold,
                       &dot_opt.node_threshold) ||
        cli_get_double("convert", a, "edge-threshold", dot_opt.edge_threshold,
                       &dot_opt.edge_threshold))
        return CLI_EXIT_USAGE;
    if (!cli_has(a, "dcfg"))
        return cli_usage_error("convert", "--to %s needs --dcfg DCFG (blocks, edge types, symbols)", to);
    tk_cfg *cfg = NULL;
    int rc = dtc_load_dcfg(a, ctx->progress, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_dcfg_trace *t = NULL;
    tk_output *out = NULL;
    if ((rc = dtc_open_ctx_trace(ctx, &t, NULL)) == CLI_EXIT_OK &&
        (rc = cli_output_open(a, 0, &out)) == CLI_EXIT_OK) {
        rc = bbv         ? dtc_convert_bbv(t, cfg, a, out)
             : callgrind || dot ? convert_profile(t, cfg, dot ? &dot_opt : NULL, out)
                         : convert_events(t, cfg, chrome, cli_has(a, "per-thread"), out);
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(out);
        else
            tk_output_abort(out);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return rc;
}

static const cli_opt diff_opts[] = {
    {"dcfg", 0, "DCFG", "describe the diverging edges (types, block addresses)"},
    {NULL, 0, NULL, NULL},
};

const cli_format_ops cli_fmt_dcfg_trace = {
    .format = "dcfg-trace",
    .opts = {[CLI_CHECK] = check_opts, [CLI_REPORT] = report_opts, [CLI_DUMP] = dump_opts,
             [CLI_DIFF] = diff_opts, [CLI_CONVERT] = convert_opts},
    .run = {[CLI_INFO] = run_info, [CLI_CHECK] = run_check, [CLI_DUMP] = run_dump,
            [CLI_REPORT] = dtc_run_report, [CLI_DIFF] = dtc_run_diff, [CLI_CONVERT] = run_convert},
};
