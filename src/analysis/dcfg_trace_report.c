/* The report of a DCFG-Trace thread: its edges counted and ranked, and with the program's
 * DCFG the hottest blocks and loops. */
#include "tracekit/dcfg_trace_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dcfg_trace_report_impl.h"
#include "core/alloc.h"
#include "model/cfg_internal.h"

int tk_dtr_count_add(count_map *m, uint32_t key, uint64_t v)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        uint32_t *k = tk_calloc(cap, sizeof *k);
        uint64_t *x = tk_calloc(cap, sizeof *x);
        if (!k || !x) {
            tk_free(k);
            tk_free(x);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i]) continue;
            size_t j = (m->keys[i] * 2654435761u) & (cap - 1);
            while (k[j]) j = (j + 1) & (cap - 1);
            k[j] = m->keys[i];
            x[j] = m->vals[i];
        }
        tk_free(m->keys);
        tk_free(m->vals);
        m->keys = k;
        m->vals = x;
        m->cap = cap;
    }
    size_t j = (key * 2654435761u) & (m->cap - 1);
    while (m->keys[j] && m->keys[j] != key) j = (j + 1) & (m->cap - 1);
    if (!m->keys[j]) {
        m->keys[j] = key;
        m->n++;
    }
    m->vals[j] += v;
    return 0;
}

static int count_edges(void *ctx, size_t chunk, const uint32_t *e, size_t n)
{
    (void)chunk;
    tk_dcfg_trace_report *r = ctx;
    r->stats.edges += n;
    for (size_t i = 0; i < n; i++)
        if (tk_dtr_count_add(&r->edges, e[i], 1)) {
            r->failed = 1;
            return 1;
        }
    return 0;
}

/* Most first, then by id (ids are unique in a table: a total order). */
static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->value != y->value) return x->value > y->value ? -1 : 1;
    return x->id < y->id ? -1 : (x->id > y->id);
}

/* The thread's counts and its decoded edges (all its chunks, or those of range: [0], [1]
 * relative to the thread), counted. */
static tk_status decode_thread(tk_dcfg_trace_report *r, const tk_dcfg_trace *t, size_t th,
                               unsigned jobs, const size_t *range, tk_error *err)
{
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    tk_dcfg_trace_process_info pi;
    tk_dcfg_trace_process(t, ti.process, &pi);
    r->stats.pid = pi.pid;
    r->stats.thread_id = ti.thread_id;
    size_t begin = 0, end = ti.nchunks;
    if (range && (range[0] || range[1])) {
        begin = range[0] < ti.nchunks ? range[0] : ti.nchunks;
        end = range[1] < ti.nchunks ? range[1] : ti.nchunks;
        end = end > begin ? end : begin;
    }
    r->stats.chunks = end - begin;
    for (size_t c = begin; c < end; c++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
        r->stats.instructions += ci.instr_count;
    }
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    if (end - begin < ti.nchunks) {
        if (begin == end) /* none: [0, 0) would be every chunk */
            return TK_OK;
        opt.chunk_begin = ti.first_chunk + begin;
        opt.chunk_end = ti.first_chunk + end;
    }
    opt.threads = jobs;
    opt.has_pid = 1;
    opt.pid = pi.pid;
    opt.has_thread = 1;
    opt.thread_id = ti.thread_id;
    uint64_t total;
    tk_status st = tk_dcfg_trace_decode(t, &opt, count_edges, r, &total, NULL, err);
    if (r->failed) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    r->stats.distinct_edges = r->edges.n;
    return st;
}

/* The decoded edges, most frequent first (value: count, id: edge id). */
tk_status tk_dtr_rank_edges(tk_dcfg_trace_report *r, tk_error *err)
{
    ranked *v = tk_calloc(r->edges.n ? r->edges.n : 1, sizeof *v);
    if (!v) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < r->edges.cap; i++)
        if (r->edges.keys[i]) v[n++] = (ranked){r->edges.vals[i], r->edges.keys[i], 0};
    qsort(v, n, sizeof *v, cmp_ranked);
    for (int k = 0; k < 3; k++) {
        tk_free(r->table[k]);
        r->table[k] = NULL;
        r->n[k] = 0;
    }
    r->table[TK_DCFG_TRACE_TOP_EDGES] = v;
    r->n[TK_DCFG_TRACE_TOP_EDGES] = n;
    return TK_OK;
}

tk_status tk_dcfg_trace_report_open(tk_dcfg_trace_report **out, const tk_dcfg_trace *t,
                                    size_t thread, const tk_dcfg_trace_report_options *opt,
                                    tk_error *err)
{
    *out = NULL;
    tk_dcfg_trace_report *r = tk_calloc(1, sizeof *r);
    if (!r) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (thread >= tk_dcfg_trace_thread_count(t)) {
        tk_free(r);
        return tk_error_set(err, TK_ERR_ARG, "thread %zu: the trace has %zu threads", thread,
                            tk_dcfg_trace_thread_count(t));
    }
    size_t range[2] = {opt ? opt->chunk_begin : 0, opt ? opt->chunk_end : 0};
    tk_status st = decode_thread(r, t, thread, opt ? opt->threads : 0, range, err);
    if (st == TK_OK) st = tk_dtr_rank_edges(r, err);
    if (st != TK_OK) {
        tk_dcfg_trace_report_free(r);
        return st;
    }
    *out = r;
    return TK_OK;
}

void tk_dcfg_trace_report_get_stats(const tk_dcfg_trace_report *r, tk_dcfg_trace_report_stats *out)
{
    *out = r->stats;
}

/* Executions of each block (bc, p->nblocks): traversals of its out-edges (INSTR_COUNT's
 * rule). Returns 1 when the blocks' instructions (executions x NUM_INSTRS) pass 2^64 - 1.
 * Every block's and loop's instructions are part of the thread's, which fit when the
 * chunks' source blocks make their INSTR_COUNT (else a check --dcfg error). */
static int block_executions(const tk_cfg_process *p, const ranked *v, size_t n, uint64_t *bc)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_cfg_find_edge(p, v[i].id);
        if (e != TK_CFG_NONE && cfg_is_block(p, p->edges[e].src)) bc[p->edges[e].src] += v[i].value;
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
static size_t hot_blocks(const tk_cfg_process *p, const uint64_t *bc, ranked *bv)
{
    size_t nb = 0;
    for (uint32_t b = 0; b < p->nblocks; b++)
        if (bc[b]) bv[nb++] = (ranked){bc[b] * p->blocks[b].num_instrs, p->blocks[b].id, bc[b]};
    qsort(bv, nb, sizeof *bv, cmp_ranked);
    return nb;
}

/* The loops by dynamic instructions (into lv, p->nloops), with the executions of their
 * head; returns how many. */
static size_t hot_loops(const tk_cfg_process *p, const uint64_t *bc, ranked *lv)
{
    size_t nl = 0;
    for (uint32_t l = 0; l < p->nloops; l++) {
        const tk_cfg_loop *L = &p->loops[l];
        const uint32_t *nodes = cfg_list(p, L->nodes);
        uint64_t dyn = 0;
        for (uint32_t k = 0; k < L->nnodes; k++)
            if (nodes[k] < p->nblocks) dyn += bc[nodes[k]] * p->blocks[nodes[k]].num_instrs;
        if (dyn) lv[nl++] = (ranked){dyn, p->blocks[L->head].id, bc[L->head]};
    }
    qsort(lv, nl, sizeof *lv, cmp_ranked);
    return nl;
}

tk_status tk_dcfg_trace_report_hot(tk_dcfg_trace_report *r, const tk_cfg_process *p, tk_error *err)
{
    for (int k = TK_DCFG_TRACE_HOT_BLOCKS; k <= TK_DCFG_TRACE_HOT_LOOPS; k++) {
        tk_free(r->table[k]);
        r->table[k] = NULL;
        r->n[k] = 0;
    }
    uint64_t *bc = tk_calloc(p->nblocks ? p->nblocks : 1, sizeof *bc);
    ranked *bv = tk_calloc(p->nblocks ? p->nblocks : 1, sizeof *bv);
    ranked *lv = tk_calloc(p->nloops ? p->nloops : 1, sizeof *lv);
    tk_status st = TK_OK;
    if (!bc || !bv || !lv) {
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    } else if (block_executions(p, r->table[TK_DCFG_TRACE_TOP_EDGES], r->n[TK_DCFG_TRACE_TOP_EDGES],
                                bc)) {
        st = tk_error_set(err, TK_ERR_FORMAT,
                          "process %llu thread %llu: the instructions of the decoded edges' "
                          "source blocks pass 2^64 - 1 (more than the chunks' INSTR_COUNT)",
                          (unsigned long long)r->stats.pid, (unsigned long long)r->stats.thread_id);
    } else {
        r->n[TK_DCFG_TRACE_HOT_BLOCKS] = hot_blocks(p, bc, bv);
        r->n[TK_DCFG_TRACE_HOT_LOOPS] = hot_loops(p, bc, lv);
        r->table[TK_DCFG_TRACE_HOT_BLOCKS] = bv;
        r->table[TK_DCFG_TRACE_HOT_LOOPS] = lv;
        bv = lv = NULL;
    }
    tk_free(bc);
    tk_free(bv);
    tk_free(lv);
    return st;
}

size_t tk_dcfg_trace_report_total(const tk_dcfg_trace_report *r, tk_dcfg_trace_report_table table)
{
    return (unsigned)table < 3 ? r->n[table] : 0;
}

size_t tk_dcfg_trace_report_count(const tk_dcfg_trace_report *r, tk_dcfg_trace_report_table table)
{
    size_t n = tk_dcfg_trace_report_total(r, table);
    return r->top && r->top < n ? (size_t)r->top : n;
}

void tk_dcfg_trace_report_cut(tk_dcfg_trace_report *r, uint64_t top) { r->top = top; }

const tk_dcfg_trace_report_row *tk_dcfg_trace_report_row_at(const tk_dcfg_trace_report *r,
                                                            tk_dcfg_trace_report_table table,
                                                            size_t i)
{
    return &r->table[table][i];
}

void tk_dcfg_trace_report_free(tk_dcfg_trace_report *r)
{
    if (!r) return;
    tk_free(r->edges.keys);
    tk_free(r->edges.vals);
    for (int k = 0; k < 3; k++) tk_free(r->table[k]);
    tk_free(r);
}
