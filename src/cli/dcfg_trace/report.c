/* report for dcfg-trace files: per thread chunks, edges, instructions and
 * the most frequent edges; with --dcfg the hottest blocks and hot loops by
 * dynamic instructions. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

const cli_opt cli_dcfg_trace_report_opts[] = {
    {"dcfg", 0, "DCFG", "add hot blocks and hot loops (by dynamic instructions)"},
    {"top", 0, "N", "rows per table (default 10)"},
    {"jobs", 'j', "N", "decoding threads (default: the number of CPUs)"},
    {"format", 0, "FMT", "text (default) or json"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 0, NULL, "overwrite OUT"},
    {NULL, 0, NULL, NULL},
};


/* edge id -> count (open addressing; id 0 never occurs) */
typedef struct count_map {
    uint32_t *keys;
    uint64_t *vals;
    size_t cap, n;
} count_map;

static int cm_add(count_map *m, uint32_t key, uint64_t v) {
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        uint32_t *k = calloc(cap, sizeof *k);
        uint64_t *x = calloc(cap, sizeof *x);
        if (!k || !x) {
            free(k);
            free(x);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i])
                continue;
            size_t j = (m->keys[i] * 2654435761u) & (cap - 1);
            while (k[j])
                j = (j + 1) & (cap - 1);
            k[j] = m->keys[i];
            x[j] = m->vals[i];
        }
        free(m->keys);
        free(m->vals);
        m->keys = k;
        m->vals = x;
        m->cap = cap;
    }
    size_t j = (key * 2654435761u) & (m->cap - 1);
    while (m->keys[j] && m->keys[j] != key)
        j = (j + 1) & (m->cap - 1);
    if (!m->keys[j]) {
        m->keys[j] = key;
        m->n++;
    }
    m->vals[j] += v;
    return 0;
}

typedef struct report_ctx {
    count_map edges;
    uint64_t decoded;
    int failed;
} report_ctx;

static int report_edges(void *ctx, size_t chunk, const uint32_t *e, size_t n) {
    (void)chunk;
    report_ctx *r = ctx;
    r->decoded += n;
    for (size_t i = 0; i < n; i++)
        if (cm_add(&r->edges, e[i], 1)) {
            r->failed = 1;
            return 1;
        }
    return 0;
}

typedef struct ranked {
    uint64_t value;
    uint32_t id;
    uint64_t extra;
} ranked;

static int cmp_ranked(const void *a, const void *b) {
    const ranked *x = a, *y = b;
    if (x->value != y->value)
        return x->value > y->value ? -1 : 1;
    return x->id < y->id ? -1 : (x->id > y->id);
}

static void print_block_name(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p, uint32_t b) {
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(cfg, p, b, &off);
    if (sym)
        fprintf(f, " %s+0x%llx", sym, (unsigned long long)off);
}

/* ,"symbol":"...","offset":N of a block (nothing when it has no symbol) */
static void json_block_name(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p, uint32_t b) {
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(cfg, p, b, &off);
    if (!sym)
        return;
    fputs(",\"symbol\":", f);
    tk_put_json_string(f, sym);
    fprintf(f, ",\"offset\":%llu", (unsigned long long)off);
}

/* A ranked table of blocks (hottest blocks, hot loops by their head):
 * text rows "value extra block name", or a JSON array of objects. */
static void block_table(FILE *f, int json, const char *title, const char *const names[3],
                        const tk_cfg *cfg, const tk_cfg_process *p, const ranked *v, size_t n,
                        uint64_t top) {
    if (json) {
        fprintf(f, ",\"%s\":[", title);
        for (size_t i = 0; i < n && i < top; i++) {
            fprintf(f, "%s{\"%s\":%u,\"%s\":%llu,\"instructions\":%llu", i ? "," : "",
                    names[2], v[i].id, names[1], (unsigned long long)v[i].extra,
                    (unsigned long long)v[i].value);
            json_block_name(f, cfg, p, tk_cfg_find_block(p, v[i].id));
            fputc('}', f);
        }
        fputc(']', f);
        return;
    }
    fprintf(f, "  %s:\n  %12s %12s %10s\n", title, names[0], names[1], names[2]);
    for (size_t i = 0; i < n && i < top; i++) {
        fprintf(f, "  %12llu %12llu %10u", (unsigned long long)v[i].value,
                (unsigned long long)v[i].extra, v[i].id);
        print_block_name(f, cfg, p, tk_cfg_find_block(p, v[i].id));
        fputc('\n', f);
    }
}

static void thread_head(FILE *f, int json, const tk_dcfg_trace *t, size_t th,
                        const report_ctx *r) {
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    tk_dcfg_trace_process_info pi;
    tk_dcfg_trace_process(t, ti.process, &pi);
    uint64_t instrs = 0;
    for (size_t c = 0; c < ti.nchunks; c++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
        instrs += ci.instr_count;
    }
    if (json)
        fprintf(f, "%s{\"pid\":%llu,\"thread\":%llu,\"chunks\":%zu,\"edges\":%llu,"
                   "\"instructions\":%llu,\"distinct_edges\":%zu",
                th ? ",\n" : "\n", (unsigned long long)pi.pid, (unsigned long long)ti.thread_id,
                ti.nchunks, (unsigned long long)r->decoded, (unsigned long long)instrs, r->edges.n);
    else
        fprintf(f, "process %llu thread %llu: %zu chunks, %llu edges, %llu instructions "
                   "(INSTR_COUNT), %zu distinct edges\n",
                (unsigned long long)pi.pid, (unsigned long long)ti.thread_id, ti.nchunks,
                (unsigned long long)r->decoded, (unsigned long long)instrs, r->edges.n);
}

/* The decoded edges, most frequent first (value: count, id: edge id). NULL when
 * out of memory. */
static ranked *rank_edges(const report_ctx *r, size_t *count) {
    ranked *v = calloc(r->edges.n ? r->edges.n : 1, sizeof *v);
    if (!v)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < r->edges.cap; i++)
        if (r->edges.keys[i])
            v[n++] = (ranked){r->edges.vals[i], r->edges.keys[i], 0};
    qsort(v, n, sizeof *v, cmp_ranked);
    *count = n;
    return v;
}

/* The first `top` edges, with their ends and type when the DCFG has them (p). */
static void edge_table(FILE *f, int json, const tk_cfg *cfg, const tk_cfg_process *p,
                       const ranked *v, size_t n, uint64_t top) {
    if (json)
        fputs(",\"top_edges\":[", f);
    else
        fprintf(f, "  most frequent edges:\n  %12s %10s\n", "count", "edge");
    for (size_t i = 0; i < n && i < top; i++) {
        uint32_t e = p ? tk_cfg_find_edge(p, v[i].id) : TK_CFG_NONE;
        if (json) {
            fprintf(f, "%s{\"edge\":%u,\"count\":%llu", i ? "," : "", v[i].id,
                    (unsigned long long)v[i].value);
            if (e != TK_CFG_NONE) {
                fprintf(f, ",\"source\":%u,\"target\":%u,\"type\":",
                        tk_cfg_node_id(cfg, p, p->edges[e].src),
                        tk_cfg_node_id(cfg, p, p->edges[e].tgt));
                tk_put_json_string(f, tk_cfg_edge_type_name(cfg, &p->edges[e]));
            }
            fputc('}', f);
            continue;
        }
        fprintf(f, "  %12llu %10u", (unsigned long long)v[i].value, v[i].id);
        if (e != TK_CFG_NONE)
            fprintf(f, "  %u -> %u %s", tk_cfg_node_id(cfg, p, p->edges[e].src),
                    tk_cfg_node_id(cfg, p, p->edges[e].tgt),
                    tk_cfg_edge_type_name(cfg, &p->edges[e]));
        fputc('\n', f);
    }
    if (json)
        fputc(']', f);
}

/* Executions of each block (bc, p->nblocks): traversals of its out-edges
 * (INSTR_COUNT's rule). Returns 1 when the blocks' instructions (executions x
 * NUM_INSTRS) pass 2^64 - 1. Every block's and loop's instructions are part of
 * the thread's, which fit when the chunks' source blocks make their INSTR_COUNT
 * (else a check --dcfg error). */
static int block_executions(const tk_cfg_process *p, const ranked *v, size_t n, uint64_t *bc) {
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_cfg_find_edge(p, v[i].id);
        if (e != TK_CFG_NONE && tk_cfg_is_block(p, p->edges[e].src))
            bc[p->edges[e].src] += v[i].value;
    }
    uint64_t total = 0;
    int failed = 0;
    for (uint32_t b = 0; b < p->nblocks && !failed; b++) {
        uint64_t x;
        failed = __builtin_mul_overflow(bc[b], (uint64_t)p->blocks[b].num_instrs, &x) ||
                 __builtin_add_overflow(total, x, &total);
    }
    return failed;
}

/* The executed blocks by instructions (into bv, p->nblocks); returns how many. */
static size_t hot_blocks(const tk_cfg_process *p, const uint64_t *bc, ranked *bv) {
    size_t nb = 0;
    for (uint32_t b = 0; b < p->nblocks; b++)
        if (bc[b])
            bv[nb++] = (ranked){bc[b] * p->blocks[b].num_instrs, p->blocks[b].id, bc[b]};
    qsort(bv, nb, sizeof *bv, cmp_ranked);
    return nb;
}

/* The loops by dynamic instructions (into lv, p->nloops), with the executions
 * of their head; returns how many. */
static size_t hot_loops(const tk_cfg_process *p, const uint64_t *bc, ranked *lv) {
    size_t nl = 0;
    for (uint32_t l = 0; l < p->nloops; l++) {
        const tk_cfg_loop *L = &p->loops[l];
        const uint32_t *nodes = tk_cfg_list(p, L->nodes);
        uint64_t dyn = 0;
        for (uint32_t k = 0; k < L->nnodes; k++)
            if (nodes[k] < p->nblocks)
                dyn += bc[nodes[k]] * p->blocks[nodes[k]].num_instrs;
        if (dyn)
            lv[nl++] = (ranked){dyn, p->blocks[L->head].id, bc[L->head]};
    }
    qsort(lv, nl, sizeof *lv, cmp_ranked);
    return nl;
}

/* The hottest blocks and loops of process p (of the DCFG). Returns 0, or 1 when
 * the thread's instructions pass 2^64 - 1 (err set). */
static int block_tables(FILE *f, int json, const tk_cfg *cfg, const tk_cfg_process *p,
                        const ranked *v, size_t n, uint64_t top, const char *who,
                        tk_error *err) {
    uint64_t *bc = calloc(p->nblocks ? p->nblocks : 1, sizeof *bc);
    ranked *bv = calloc(p->nblocks ? p->nblocks : 1, sizeof *bv);
    int failed = 0;
    if (bc && bv) {
        failed = block_executions(p, v, n, bc);
        if (failed)
            tk_error_set(err, TK_ERR_FORMAT,
                         "%s: the instructions of the decoded edges' source blocks pass "
                         "2^64 - 1 (more than the chunks' INSTR_COUNT)", who);
        static const char *const block_cols[3] = {"instrs", "execs", "block"};
        if (!failed)
            block_table(f, json, json ? "hot_blocks" : "hottest blocks (by instructions)",
                        block_cols, cfg, p, bv, hot_blocks(p, bc, bv), top);
        ranked *lv = failed ? NULL : calloc(p->nloops ? p->nloops : 1, sizeof *lv);
        if (lv) {
            static const char *const loop_cols[3] = {"instrs", "iterations", "head"};
            block_table(f, json, json ? "hot_loops" : "hot loops (by dynamic instructions)",
                        loop_cols, cfg, p, lv, hot_loops(p, bc, lv), top);
            free(lv);
        }
    }
    free(bc);
    free(bv);
    return failed;
}

/* Returns 0, or 1 when the thread's instructions (block executions x
 * NUM_INSTRS) pass 2^64 - 1 (err set; the output so far is discarded). */
static int report_thread(FILE *f, int json, const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                         report_ctx *r, uint64_t top, tk_error *err) {
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    tk_dcfg_trace_process_info pi;
    tk_dcfg_trace_process(t, ti.process, &pi);
    thread_head(f, json, t, th, r);
    size_t n = 0;
    ranked *v = rank_edges(r, &n);
    if (!v) {
        if (json)
            fputc('}', f);
        return 0;
    }
    const tk_cfg_process *p = NULL;
    if (cfg) {
        uint32_t pix = tk_cfg_find_process(cfg, pi.pid);
        p = pix == TK_CFG_NONE ? NULL : &cfg->processes[pix];
    }
    edge_table(f, json, cfg, p, v, n, top);
    int failed = 0;
    if (p) {
        char who[96];
        snprintf(who, sizeof who, "process %llu thread %llu", (unsigned long long)pi.pid,
                 (unsigned long long)ti.thread_id);
        failed = block_tables(f, json, cfg, p, v, n, top, who, err);
    }
    if (json)
        fputc('}', f);
    free(v);
    return failed;
}

/* Decodes thread th's edges into r (counts per edge). */
static tk_status decode_thread(const tk_dcfg_trace *t, size_t th, unsigned jobs, report_ctx *r,
                               tk_error *err) {
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    tk_dcfg_trace_process_info pi;
    tk_dcfg_trace_process(t, ti.process, &pi);
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    opt.threads = jobs;
    opt.has_pid = 1;
    opt.pid = pi.pid;
    opt.has_thread = 1;
    opt.thread_id = ti.thread_id;
    uint64_t total;
    tk_status st = tk_dcfg_trace_decode(t, &opt, report_edges, r, &total, NULL, err);
    if (r->failed)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return st;
}

/* Every thread of the trace. Returns an exit code. */
static int report_threads(FILE *f, int json, const tk_dcfg_trace *t, const tk_cfg *cfg,
                          unsigned jobs, uint64_t top) {
    int rc = CLI_EXIT_OK;
    if (json)
        fputs("{\"version\":1,\"format\":\"dcfg-trace\",\"threads\":[", f);
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && rc == CLI_EXIT_OK; th++) {
        report_ctx r;
        memset(&r, 0, sizeof r);
        tk_error err;
        tk_error_clear(&err);
        if (decode_thread(t, th, jobs, &r, &err) != TK_OK ||
            report_thread(f, json, t, cfg, th, &r, top, &err))
            rc = cli_error(&err);
        free(r.edges.keys);
        free(r.edges.vals);
    }
    if (json)
        fputs("\n]}\n", f);
    return rc;
}

int cli_dcfg_trace_report(cli_ctx *ctx, const cli_args *a) {
    unsigned jobs;
    uint64_t top;
    int rc = cli_dcfg_trace_jobs("report", a, &jobs);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (cli_get_u64("report", a, "top", 10, &top) != 0)
        return CLI_EXIT_USAGE;
    int fmt = cli_get_choice("report", a, "format", cli_out_text_json, CLI_OUT_TEXT);
    if (fmt < 0)
        return CLI_EXIT_USAGE;
    tk_cfg *cfg = NULL;
    if ((rc = cli_dcfg_trace_load_dcfg(a, ctx->progress, &cfg)) != CLI_EXIT_OK)
        return rc;
    tk_dcfg_trace *t;
    if ((rc = cli_dcfg_trace_open_input(ctx, &t, NULL)) != CLI_EXIT_OK) {
        tk_cfg_free(cfg);
        return rc;
    }
    tk_error perr;
    tk_error_clear(&perr);
    tk_output *out;
    if (cfg && tk_dcfg_trace_processes_in(t, cfg, NULL, &perr) != TK_OK) {
        /* as check --dcfg: a process the DCFG lacks is an error */
        rc = cli_error(&perr);
    } else if ((rc = cli_output_open(a, 0, &out)) == CLI_EXIT_OK) {
        rc = report_threads(tk_output_file(out), fmt == CLI_OUT_JSON, t, cfg, jobs, top);
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(out);
        else
            tk_output_abort(out);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return rc;
}

const cli_opt_choices cli_dcfg_trace_report_choices[] = {
    {"format", cli_out_text_json}, {NULL, NULL}};
