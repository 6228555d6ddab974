/* report for dcfg-trace files: per thread chunks, edges, instructions and
 * the most frequent edges; with --dcfg the hottest blocks and hot loops by
 * dynamic instructions. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"
#include "team.h"

const cli_opt cli_dcfg_trace_report_opts[] = {
    {"dcfg", 0, "DCFG", "add hot blocks and hot loops (by dynamic instructions)"},
    CLI_TOP_OPT("rows per table"),
    CLI_ALL_OPT("rows of each table"),
    {"jobs", 'j', "N", "decoding threads (default: the number of CPUs)"},
    {"format", 0, "FMT", "text (default) or json"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 'f', NULL, "overwrite OUT"},
    {NULL, 0, NULL, NULL},
};


static void print_block_name(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p, uint32_t b)
{
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(cfg, p, b, &off);
    if (sym) fprintf(f, " %s+0x%llx", sym, (unsigned long long)off);
}

/* ,"symbol":"...","offset":N of a block (nothing when it has no symbol) */
static void json_block_name(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p, uint32_t b)
{
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(cfg, p, b, &off);
    if (!sym) return;
    fputs(",\"symbol\":", f);
    cli_put_json_string(f, sym);
    fprintf(f, ",\"offset\":%llu", (unsigned long long)off);
}

/* A ranked table of blocks (hottest blocks, hot loops by their head):
 * text rows "value extra block name", or a JSON array of objects. */
static void block_table(FILE *f, int json, const char *title, const char *const names[3],
                        const tk_cfg *cfg, const tk_cfg_process *p, const tk_dcfg_trace_report *r,
                        tk_dcfg_trace_report_table table)
{
    size_t n = tk_dcfg_trace_report_count(r, table);
    const tk_dcfg_trace_report_row *v = n ? tk_dcfg_trace_report_row_at(r, table, 0) : NULL;
    if (json) {
        fprintf(f, ",\"%s\":[", title);
        for (size_t i = 0; i < n; i++) {
            fprintf(f, "%s{\"%s\":%u,\"%s\":%llu,\"instructions\":%llu", i ? "," : "", names[2],
                    v[i].id, names[1], (unsigned long long)v[i].extra,
                    (unsigned long long)v[i].value);
            json_block_name(f, cfg, p, tk_cfg_find_block(p, v[i].id));
            fputc('}', f);
        }
        fputc(']', f);
        return;
    }
    fprintf(f, "  %s:\n  %12s %12s %10s\n", title, names[0], names[1], names[2]);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "  %12llu %12llu %10u", (unsigned long long)v[i].value,
                (unsigned long long)v[i].extra, v[i].id);
        print_block_name(f, cfg, p, tk_cfg_find_block(p, v[i].id));
        fputc('\n', f);
    }
    cli_rows_note(f, n, tk_dcfg_trace_report_total(r, table),
                  table == TK_DCFG_TRACE_HOT_BLOCKS ? "block" : "loop");
}

static void thread_head(FILE *f, int json, size_t th, const tk_dcfg_trace_report *r)
{
    tk_dcfg_trace_report_stats st;
    tk_dcfg_trace_report_get_stats(r, &st);
    if (json)
        fprintf(f,
                "%s{\"pid\":%llu,\"thread\":%llu,\"chunks\":%zu,\"edges\":%llu,"
                "\"instructions\":%llu,\"distinct_edges\":%zu",
                th ? ",\n" : "\n", (unsigned long long)st.pid, (unsigned long long)st.thread_id,
                st.chunks, (unsigned long long)st.edges, (unsigned long long)st.instructions,
                st.distinct_edges);
    else
        fprintf(f,
                "process %llu thread %llu: %zu chunk%s, %llu edge%s, %llu instruction%s, "
                "%zu distinct edge%s\n",
                (unsigned long long)st.pid, (unsigned long long)st.thread_id, st.chunks,
                cli_s(st.chunks), (unsigned long long)st.edges, cli_s(st.edges),
                (unsigned long long)st.instructions, cli_s(st.instructions), st.distinct_edges,
                cli_s(st.distinct_edges));
}

/* The edges the cut keeps, with their ends and type when the DCFG has them (p). */
static void edge_table(FILE *f, int json, const tk_cfg *cfg, const tk_cfg_process *p,
                       const tk_dcfg_trace_report *r)
{
    size_t n = tk_dcfg_trace_report_count(r, TK_DCFG_TRACE_TOP_EDGES);
    const tk_dcfg_trace_report_row *v =
        n ? tk_dcfg_trace_report_row_at(r, TK_DCFG_TRACE_TOP_EDGES, 0) : NULL;
    if (json)
        fputs(",\"top_edges\":[", f);
    else
        fprintf(f, "  most frequent edges:\n  %12s %10s\n", "count", "edge");
    for (size_t i = 0; i < n; i++) {
        uint32_t e = p ? tk_cfg_find_edge(p, v[i].id) : TK_CFG_NONE;
        if (json) {
            fprintf(f, "%s{\"edge\":%u,\"count\":%llu", i ? "," : "", v[i].id,
                    (unsigned long long)v[i].value);
            if (e != TK_CFG_NONE) {
                tk_cfg_edge_info ed;
                tk_cfg_edge_get(cfg, p, e, &ed);
                fprintf(f, ",\"source\":%u,\"target\":%u,\"type\":", tk_cfg_node_id(cfg, p, ed.src),
                        tk_cfg_node_id(cfg, p, ed.tgt));
                cli_put_json_string(f, tk_cfg_edge_type_name(cfg, p, e));
            }
            fputc('}', f);
            continue;
        }
        fprintf(f, "  %12llu %10u", (unsigned long long)v[i].value, v[i].id);
        if (e != TK_CFG_NONE) {
            tk_cfg_edge_info ed;
            tk_cfg_edge_get(cfg, p, e, &ed);
            fprintf(f, "  %u -> %u %s", tk_cfg_node_id(cfg, p, ed.src),
                    tk_cfg_node_id(cfg, p, ed.tgt), tk_cfg_edge_type_name(cfg, p, e));
        }
        fputc('\n', f);
    }
    if (json)
        fputc(']', f);
    else
        cli_rows_note(f, n, tk_dcfg_trace_report_total(r, TK_DCFG_TRACE_TOP_EDGES), "edge");
}

/* The hottest blocks and loops of process p (of the DCFG). Returns an exit code (the
 * thread's instructions pass 2^64 - 1). */
static int block_tables(FILE *f, int json, const tk_cfg *cfg, const tk_cfg_process *p,
                        tk_dcfg_trace_report *r)
{
    tk_error err;
    tk_error_clear(&err);
    if (tk_dcfg_trace_report_hot(r, p, &err) != TK_OK) return cli_error(&err);
    static const char *const block_cols[3] = {"instrs", "execs", "block"};
    block_table(f, json, json ? "hot_blocks" : "hottest blocks (by instructions)", block_cols, cfg,
                p, r, TK_DCFG_TRACE_HOT_BLOCKS);
    static const char *const loop_cols[3] = {"instrs", "iterations", "head"};
    block_table(f, json, json ? "hot_loops" : "hot loops (by dynamic instructions)", loop_cols, cfg,
                p, r, TK_DCFG_TRACE_HOT_LOOPS);
    return CLI_EXIT_OK;
}

/* Thread th's report r, printed (and freed). Returns an exit code. */
static int print_thread(FILE *f, int json, const tk_cfg *cfg, size_t th, tk_dcfg_trace_report *r,
                        uint64_t top)
{
    tk_dcfg_trace_report_stats st;
    tk_dcfg_trace_report_get_stats(r, &st);
    tk_dcfg_trace_report_cut(r, top);
    thread_head(f, json, th, r);
    const tk_cfg_process *p = NULL;
    if (cfg) {
        uint32_t pix = tk_cfg_find_process(cfg, st.pid);
        p = tk_cfg_process_at(cfg, pix);
    }
    edge_table(f, json, cfg, p, r);
    int rc = p ? block_tables(f, json, cfg, p, r) : CLI_EXIT_OK;
    if (json) fputc('}', f);
    tk_dcfg_trace_report_free(r);
    return rc;
}

/* Thread th: its report (decoded; in a team, each member's chunks merged to the root, the
 * others' r NULL), printed unless an earlier thread failed (*rc; in a team every member still
 * takes its part in the reduction of every thread: none waits for the root's printing). */
static void report_thread(cli_ctx *ctx, FILE *f, int json, const tk_dcfg_trace *t,
                          const tk_cfg *cfg, size_t th, unsigned jobs, uint64_t top, int *rc)
{
    tk_dcfg_trace_report *r = NULL;
    int trc = CLI_EXIT_OK;
    if (ctx->team) {
        trc = cli_dcfg_trace_team_report(ctx, t, th, jobs, *rc == CLI_EXIT_OK, &r);
    } else {
        tk_dcfg_trace_report_options o = TK_DCFG_TRACE_REPORT_OPTIONS_INIT;
        o.threads = jobs;
        tk_error err;
        tk_error_clear(&err);
        if (tk_dcfg_trace_report_open(&r, t, th, &o, &err) != TK_OK) trc = cli_error(&err);
    }
    if (*rc != CLI_EXIT_OK) {
        tk_dcfg_trace_report_free(r);
        return;
    }
    *rc = trc;
    if (trc == CLI_EXIT_OK && r)
        *rc = print_thread(f, json, cfg, th, r, top);
    else
        tk_dcfg_trace_report_free(r);
}

/* Every thread of the trace (f NULL: a team's member, which prints nothing). Returns an exit
 * code (in a team, the same on every member). */
static int report_threads(cli_ctx *ctx, FILE *f, int json, const tk_dcfg_trace *t,
                          const tk_cfg *cfg, unsigned jobs, uint64_t top)
{
    int rc = CLI_EXIT_OK;
    if (json && f) fputs("{\"version\":1,\"format\":\"dcfg-trace\",\"threads\":[", f);
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && (ctx->team || !rc); th++)
        report_thread(ctx, f, json, t, cfg, th, jobs, top, &rc);
    if (json && f) fputs("\n]}\n", f);
    if (ctx->team && ctx->team->max(ctx->team, &rc) != 0) rc = CLI_EXIT_BAD_INPUT;
    return rc;
}

int cli_dcfg_trace_report(cli_ctx *ctx, const cli_args *a)
{
    unsigned jobs;
    uint64_t top;
    int rc = cli_dcfg_trace_jobs("report", a, &jobs);
    if (rc != CLI_EXIT_OK) return rc;
    int fmt = cli_get_choice("report", a, "format", cli_out_text_json, CLI_OUT_TEXT);
    cli_rows rows;
    if (fmt < 0 || cli_get_rows("report", a, fmt == CLI_OUT_TEXT, &rows) != 0)
        return CLI_EXIT_USAGE;
    top = rows.top;
    /* in a team, the root alone reads the DCFG and writes; every member reads the trace */
    int writes = cli_team_writes(ctx);
    tk_cfg *cfg = NULL;
    if (writes) rc = cli_dcfg_trace_load_dcfg(a, ctx->progress, &cfg);
    tk_dcfg_trace *t = NULL;
    if (rc == CLI_EXIT_OK) rc = cli_dcfg_trace_open_input(ctx, &t, NULL);
    tk_error perr;
    tk_error_clear(&perr);
    tk_output *out = NULL;
    if (rc == CLI_EXIT_OK && cfg && tk_dcfg_trace_processes_in(t, cfg, NULL, &perr) != TK_OK)
        rc = cli_error(&perr); /* as check --dcfg: a process the DCFG lacks is an error */
    else if (rc == CLI_EXIT_OK && writes)
        rc = cli_output_open(a, 0, &out);
    if (ctx->team && ctx->team->max(ctx->team, &rc) != 0) rc = CLI_EXIT_BAD_INPUT;
    if (rc == CLI_EXIT_OK) {
        rc = report_threads(ctx, out ? cli_output_file(out) : NULL, fmt == CLI_OUT_JSON, t, cfg,
                            jobs, top);
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

const cli_opt_choices cli_dcfg_trace_report_choices[] = {{"format", cli_out_text_json},
                                                         {NULL, NULL}};
