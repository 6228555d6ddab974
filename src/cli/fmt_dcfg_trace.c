/* Command handlers for dcfg-trace files: info, check, dump, report. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace_cli.h"

static const cli_opt check_opts[] = {
    {"dcfg", 0, "DCFG", "cross-check edges, instruction and edge counts against this DCFG"},
    {"jobs", 'j', "N", "decoding threads (default: the number of CPUs)"},
    {NULL, 0, NULL, NULL},
};

static const cli_opt report_opts[] = {
    {"dcfg", 0, "DCFG", "add hot blocks and hot loops (by dynamic instructions)"},
    {"top", 0, "N", "rows per table (default 10)"},
    {"jobs", 'j', "N", "decoding threads (default: the number of CPUs)"},
    {NULL, 0, NULL, NULL},
};

static const cli_opt dump_opts[] = {
    {"no-edges", 0, NULL, "only the structure, not the decoded edges"},
    {NULL, 0, NULL, NULL},
};

static int open_ctx_trace(cli_ctx *ctx, tk_dcfg_trace **t, tk_diag *diag) {
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_dcfg_trace_open_input(t, ctx->inputs[0], diag, &err);
    if (st != TK_OK) {
        if (diag) {
            tk_diag_error(diag, &err);
            return CLI_EXIT_BAD_INPUT;
        }
        return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

/* ---- info ------------------------------------------------------------------ */

static int run_info(cli_ctx *ctx, const cli_args *a) {
    (void)a;
    tk_dcfg_trace *t;
    int rc = open_ctx_trace(ctx, &t, NULL);
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
    if (open_ctx_trace(ctx, &t, &diag) == CLI_EXIT_OK) {
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
    int rc = open_ctx_trace(ctx, &t, NULL);
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


/* ---- report ------------------------------------------------------------------ */

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

static void print_block_name(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t b) {
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(cfg, p, b, &off);
    if (sym)
        printf(" %s+0x%llx", sym, (unsigned long long)off);
}

static void report_thread(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th, report_ctx *r,
                          uint64_t top) {
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
    printf("process %llu thread %llu: %zu chunks, %llu edges, %llu instructions (INSTR_COUNT), %zu "
           "distinct edges\n",
           (unsigned long long)pi.pid, (unsigned long long)ti.thread_id, ti.nchunks,
           (unsigned long long)r->decoded, (unsigned long long)instrs, r->edges.n);
    ranked *v = calloc(r->edges.n ? r->edges.n : 1, sizeof *v);
    if (!v)
        return;
    size_t n = 0;
    for (size_t i = 0; i < r->edges.cap; i++)
        if (r->edges.keys[i])
            v[n++] = (ranked){r->edges.vals[i], r->edges.keys[i], 0};
    qsort(v, n, sizeof *v, cmp_ranked);
    const tk_cfg_process *p = NULL;
    if (cfg) {
        uint32_t pix = tk_cfg_find_process(cfg, pi.pid);
        p = pix == TK_CFG_NONE ? NULL : &cfg->processes[pix];
    }
    printf("  most frequent edges:\n  %12s %10s\n", "count", "edge");
    for (size_t i = 0; i < n && i < top; i++) {
        printf("  %12llu %10u", (unsigned long long)v[i].value, v[i].id);
        uint32_t e = p ? tk_cfg_find_edge(p, v[i].id) : TK_CFG_NONE;
        if (e != TK_CFG_NONE)
            printf("  %u -> %u %s", tk_cfg_node_id(cfg, p, p->edges[e].src),
                   tk_cfg_node_id(cfg, p, p->edges[e].tgt), tk_cfg_edge_type_name(cfg, &p->edges[e]));
        printf("\n");
    }
    if (p) {
        /* block executions = traversals of their out-edges (INSTR_COUNT's rule) */
        uint64_t *bc = calloc(p->nblocks ? p->nblocks : 1, sizeof *bc);
        ranked *bv = calloc(p->nblocks ? p->nblocks : 1, sizeof *bv);
        if (bc && bv) {
            for (size_t i = 0; i < n; i++) {
                uint32_t e = tk_cfg_find_edge(p, v[i].id);
                if (e != TK_CFG_NONE && tk_cfg_is_block(p, p->edges[e].src))
                    bc[p->edges[e].src] += v[i].value;
            }
            size_t nb = 0;
            for (uint32_t b = 0; b < p->nblocks; b++)
                if (bc[b])
                    bv[nb++] = (ranked){bc[b] * p->blocks[b].num_instrs, p->blocks[b].id, bc[b]};
            qsort(bv, nb, sizeof *bv, cmp_ranked);
            printf("  hottest blocks (by instructions):\n  %12s %12s %10s\n", "instrs", "execs", "block");
            for (size_t i = 0; i < nb && i < top; i++) {
                printf("  %12llu %12llu %10u", (unsigned long long)bv[i].value,
                       (unsigned long long)bv[i].extra, bv[i].id);
                print_block_name(cfg, p, tk_cfg_find_block(p, bv[i].id));
                printf("\n");
            }
            /* loops by dynamic instructions */
            ranked *lv = calloc(p->nloops ? p->nloops : 1, sizeof *lv);
            if (lv) {
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
                printf("  hot loops (by dynamic instructions):\n  %12s %12s %10s\n", "instrs",
                       "iterations", "head");
                for (size_t i = 0; i < nl && i < top; i++) {
                    printf("  %12llu %12llu %10u", (unsigned long long)lv[i].value,
                           (unsigned long long)lv[i].extra, lv[i].id);
                    print_block_name(cfg, p, tk_cfg_find_block(p, lv[i].id));
                    printf("\n");
                }
                free(lv);
            }
        }
        free(bc);
        free(bv);
    }
    free(v);
}

static int run_report(cli_ctx *ctx, const cli_args *a) {
    unsigned jobs;
    uint64_t top;
    int rc = dtc_jobs("report", a, &jobs);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (cli_get_u64("report", a, "top", 10, &top) != 0)
        return CLI_EXIT_USAGE;
    tk_cfg *cfg = NULL;
    if ((rc = dtc_load_dcfg(a, ctx->progress, &cfg)) != CLI_EXIT_OK)
        return rc;
    tk_dcfg_trace *t;
    if ((rc = open_ctx_trace(ctx, &t, NULL)) != CLI_EXIT_OK) {
        tk_cfg_free(cfg);
        return rc;
    }
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && rc == CLI_EXIT_OK; th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, ti.process, &pi);
        report_ctx r;
        memset(&r, 0, sizeof r);
        tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        opt.threads = jobs;
        opt.has_pid = 1;
        opt.pid = pi.pid;
        opt.has_thread = 1;
        opt.thread_id = ti.thread_id;
        tk_error err;
        tk_error_clear(&err);
        uint64_t total;
        tk_status st = tk_dcfg_trace_decode(t, &opt, report_edges, &r, &total, NULL, &err);
        if (r.failed)
            st = tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
        if (st != TK_OK)
            rc = cli_error(&err);
        else
            report_thread(t, cfg, th, &r, top);
        free(r.edges.keys);
        free(r.edges.vals);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return rc;
}

/* ---- diff ----------------------------------------------------------------------- */

typedef struct seq_cursor {
    const tk_dcfg_trace *t;
    size_t first_chunk, nchunks, chunk; /* chunk: next to decode (relative) */
    uint32_t *buf;
    size_t n, cap, pos;
    size_t cur_chunk;                   /* chunk of the edges in buf (absolute) */
    uint64_t chunk_pos;                 /* index in that chunk of buf[pos] */
} seq_cursor;

static int cursor_collect(void *ctx, const uint32_t *e, size_t n) {
    seq_cursor *c = ctx;
    if (c->n + n > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4096;
        while (cap < c->n + n)
            cap *= 2;
        uint32_t *q = realloc(c->buf, cap * sizeof *q);
        if (!q)
            return 1;
        c->buf = q;
        c->cap = cap;
    }
    memcpy(c->buf + c->n, e, n * sizeof *e);
    c->n += n;
    return 0;
}

/* Next edge: 1 and *e, 0 at the end, -1 on error (err set). */
static int cursor_next(seq_cursor *c, uint32_t *e, tk_error *err) {
    while (c->pos >= c->n) {
        if (c->chunk >= c->nchunks)
            return 0;
        c->n = c->pos = 0;
        c->cur_chunk = c->first_chunk + c->chunk++;
        c->chunk_pos = 0;
        uint64_t got;
        tk_status st = tk_dcfg_trace_decode_chunk(c->t, c->cur_chunk, cursor_collect, c, &got, NULL, err);
        if (st == TK_END)
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        if (st != TK_OK)
            return -1;
    }
    *e = c->buf[c->pos++];
    c->chunk_pos++;
    return 1;
}

static void describe_edge(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t id) {
    printf("edge %u", id);
    uint32_t e = p ? tk_cfg_find_edge(p, id) : TK_CFG_NONE;
    if (e == TK_CFG_NONE) {
        printf("\n");
        return;
    }
    const tk_cfg_edge *ed = &p->edges[e];
    printf(" (%s) %u -> %u", tk_cfg_edge_type_name(cfg, ed), tk_cfg_node_id(cfg, p, ed->src),
           tk_cfg_node_id(cfg, p, ed->tgt));
    uint32_t ends[2] = {ed->src, ed->tgt};
    for (int k = 0; k < 2; k++) {
        if (!tk_cfg_is_block(p, ends[k]))
            continue;
        const tk_cfg_block *b = &p->blocks[ends[k]];
        const char *file = tk_cfg_file_name(cfg, p->images[b->image].file_name_id);
        printf("%s %s+0x%llx", k ? " ->" : ":", file && *file ? file : "?",
               (unsigned long long)b->addr_offset);
    }
    printf("\n");
}

static int find_thread(const tk_dcfg_trace *t, uint64_t pid, uint64_t tid, tk_dcfg_trace_thread_info *out) {
    for (size_t i = 0; i < tk_dcfg_trace_thread_count(t); i++) {
        tk_dcfg_trace_thread(t, i, out);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, out->process, &pi);
        if (pi.pid == pid && out->thread_id == tid)
            return 1;
    }
    return 0;
}

static int run_diff(cli_ctx *ctx, const cli_args *a) {
    if (ctx->ninputs != 2)
        return cli_usage_error("diff", "expected two traces");
    tk_cfg *cfg = NULL;
    int rc = dtc_load_dcfg(a, ctx->progress, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_dcfg_trace *ta = NULL, *tb = NULL;
    tk_error err;
    tk_error_clear(&err);
    if (tk_dcfg_trace_open_input(&ta, ctx->inputs[0], NULL, &err) != TK_OK ||
        tk_dcfg_trace_open_input(&tb, ctx->inputs[1], NULL, &err) != TK_OK) {
        rc = cli_error(&err);
        goto done;
    }
    int differ = 0;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(ta) && rc == CLI_EXIT_OK && !differ; th++) {
        tk_dcfg_trace_thread_info tia, tib;
        tk_dcfg_trace_thread(ta, th, &tia);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(ta, tia.process, &pi);
        if (!find_thread(tb, pi.pid, tia.thread_id, &tib)) {
            printf("process %llu thread %llu: only in %s\n", (unsigned long long)pi.pid,
                   (unsigned long long)tia.thread_id, ctx->paths[0]);
            differ = 1;
            break;
        }
        const tk_cfg_process *p = NULL;
        if (cfg) {
            uint32_t pix = tk_cfg_find_process(cfg, pi.pid);
            p = pix == TK_CFG_NONE ? NULL : &cfg->processes[pix];
        }
        seq_cursor ca = {ta, tia.first_chunk, tia.nchunks, 0, NULL, 0, 0, 0, 0, 0};
        seq_cursor cb = {tb, tib.first_chunk, tib.nchunks, 0, NULL, 0, 0, 0, 0, 0};
        uint64_t index = 0;
        for (;;) {
            uint32_t ea = 0, eb = 0;
            int ra = cursor_next(&ca, &ea, &err), rb = ra < 0 ? 0 : cursor_next(&cb, &eb, &err);
            if (ra < 0 || rb < 0) {
                rc = cli_error(&err);
                break;
            }
            if (ra == 0 && rb == 0)
                break;
            if (ra && rb && ea == eb) {
                index++;
                continue;
            }
            differ = 1;
            printf("first divergence: process %llu thread %llu, edge %llu of the thread\n",
                   (unsigned long long)pi.pid, (unsigned long long)tia.thread_id,
                   (unsigned long long)index + 1);
            const char *names[2] = {ctx->paths[0], ctx->paths[1]};
            seq_cursor *cs[2] = {&ca, &cb};
            int rs[2] = {ra, rb};
            uint32_t es[2] = {ea, eb};
            for (int k = 0; k < 2; k++) {
                if (!rs[k]) {
                    printf("  %s: ends after %llu edges\n", names[k], (unsigned long long)index);
                    continue;
                }
                printf("  %s: chunk %zu, edge %llu of the chunk: ", names[k],
                       cs[k]->cur_chunk - cs[k]->first_chunk + 1, (unsigned long long)cs[k]->chunk_pos);
                describe_edge(cfg, p, es[k]);
            }
            break;
        }
        free(ca.buf);
        free(cb.buf);
    }
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(tb) && rc == CLI_EXIT_OK && !differ; th++) {
        tk_dcfg_trace_thread_info tib, tia;
        tk_dcfg_trace_thread(tb, th, &tib);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(tb, tib.process, &pi);
        if (!find_thread(ta, pi.pid, tib.thread_id, &tia)) {
            printf("process %llu thread %llu: only in %s\n", (unsigned long long)pi.pid,
                   (unsigned long long)tib.thread_id, ctx->paths[1]);
            differ = 1;
        }
    }
    if (rc == CLI_EXIT_OK) {
        if (!differ)
            printf("no difference: the traces hold the same edge sequences\n");
        rc = differ ? CLI_EXIT_BAD_INPUT : CLI_EXIT_OK;
    }
done:
    tk_dcfg_trace_free(ta);
    tk_dcfg_trace_free(tb);
    tk_cfg_free(cfg);
    return rc;
}

/* ---- convert --------------------------------------------------------------------- */

static const cli_opt convert_opts[] = {
    {"to", 0, "FMT", "chrome (Perfetto), folded (flame graphs), callgrind or bbv (SimPoint); all need --dcfg"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 0, NULL, "overwrite OUT"},
    {"dcfg", 0, "DCFG", "the DCFG of the traced run"},
    {"interval", 0, "N", "bbv: instructions per slice (default 100000000)"},
    {"loop-boundaries", 0, NULL, "bbv: end slices at the next loop-head execution (LoopPoint)"},
    {"markers", 0, "FILE", "bbv: write the region boundaries (loop head, count) to FILE"},
    {"pid", 0, "P", "only process P"},
    {"thread", 0, "T", "only thread T"},
    {"per-thread", 0, NULL, "folded: start each stack with its thread"},
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

static int convert_callgrind(const tk_dcfg_trace *t, const tk_cfg *cfg, tk_output *out) {
    tk_profile *prof;
    tk_error err;
    tk_error_clear(&err);
    if (tk_profile_new(&prof) != TK_OK)
        return cli_error((tk_error_set(&err, TK_ERR_NOMEM, "out of memory"), &err));
    tk_status st = tk_dcfg_trace_to_profile(t, cfg, prof, &err);
    if (st == TK_OK) {
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        st = tk_callgrind_write(prof, tk_output_file(out), &wo, &err);
    }
    tk_profile_free(prof);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

static int run_convert(cli_ctx *ctx, const cli_args *a) {
    const char *to = cli_get(a, "to");
    if (!to)
        return cli_usage_error("convert", "--to FMT is required (dcfg-trace: bbv)");
    int bbv = strcmp(to, "bbv") == 0, chrome = strcmp(to, "chrome") == 0;
    int callgrind = strcmp(to, "callgrind") == 0;
    if (!bbv && !chrome && !callgrind && strcmp(to, "folded") != 0)
        return cli_usage_error("convert", "dcfg-trace converts to: chrome, folded, callgrind, bbv (not '%s')",
                               to);
    if (!cli_has(a, "dcfg"))
        return cli_usage_error("convert", "--to %s needs --dcfg DCFG (blocks, edge types, symbols)", to);
    tk_cfg *cfg = NULL;
    int rc = dtc_load_dcfg(a, ctx->progress, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_dcfg_trace *t = NULL;
    tk_output *out = NULL;
    if ((rc = open_ctx_trace(ctx, &t, NULL)) == CLI_EXIT_OK &&
        (rc = cli_output_open(a, 0, &out)) == CLI_EXIT_OK) {
        rc = bbv         ? dtc_convert_bbv(t, cfg, a, out)
             : callgrind ? convert_callgrind(t, cfg, out)
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
            [CLI_REPORT] = run_report, [CLI_DIFF] = run_diff, [CLI_CONVERT] = run_convert},
};
