/* Basic-block vectors of a DCFG-Trace: each thread's edges decoded in order, the source
 * block of each executing once, the instructions of each block added up per slice; a slice
 * ends before the first block after its interval's instruction, or with loop boundaries at
 * the next loop-head execution after it. On one thread each chunk's edges are looked up and
 * added as they come (on_chunk); with threads the chunks are decoded and their edges looked
 * up (dt_lookup.h) on the decoding threads, the blocks added in order on the delivering one
 * (on_blocks), at the price of a copy of each block index. The adding stays in order: where
 * a slice ends depends on where the one before it ended (the block that crosses the interval
 * stays whole in it), a state no chunk knows without the chunks before it; a range of chunks
 * run from that state (dcfg_trace_bbv_part.c, which shares this run through
 * dcfg_trace_bbv_impl.h) gives its slices, merged exactly (docs/mpi.md, "DCFG-Trace
 * basic-block vectors"). */
#include "tracekit/dcfg_trace_bbv.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/dcfg_trace_bbv_impl.h"
#include "core/alloc.h"
#include "core/num.h"
#include "formats/dcfg_trace/dt_lookup.h"

static int cmp_ent(const void *a, const void *b)
{
    const tk_bbv_ent *x = a, *y = b;
    if (x->id != y->id) return (x->id > y->id) - (x->id < y->id);
    return (x->index > y->index) - (x->index < y->index);
}

void tk_bbv_collect(tk_bbv_run *r, size_t *n)
{
    const tk_cfg_process *p = r->p;
    for (size_t i = 0; i < r->ntouched; i++) {
        uint32_t b = r->touched[i];
        r->ents[i].id = p->blocks[b].id;
        r->ents[i].index = b;
        r->ents[i].instructions = r->slice[b];
        r->slice[b] = 0;
    }
    qsort(r->ents, r->ntouched, sizeof *r->ents, cmp_ent);
    *n = r->ntouched;
    r->ntouched = 0;
}

/* The current slice handed out (nothing when it holds no instructions: only a range's first
 * slice, which continues the one open before it, holds some without blocks of its own), ended
 * before an execution of head (TK_CFG_NONE: not at a loop head). */
static void end_slice(tk_bbv_run *r, uint32_t head)
{
    if (r->in_slice == 0) return;
    const tk_cfg_process *p = r->p;
    size_t n;
    tk_bbv_collect(r, &n);
    r->in_slice = 0;
    if (r->sink) {
        if (r->sink(r->part, r->ents, n, head, head != TK_CFG_NONE ? r->execs[head] : 0))
            r->stop = BBV_NOMEM;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        r->entries[i].block_id = r->ents[i].id;
        r->entries[i].instructions = r->ents[i].instructions;
    }
    tk_dcfg_trace_bbv_slice s = {r->pid, r->tid, ++r->slices, r->entries, n, 0, 0, 0, 0};
    if (head != TK_CFG_NONE) {
        s.at_loop_head = 1;
        s.head_id = p->blocks[head].id;
        s.head_addr = tk_cfg_stored_block_addr(p, &p->blocks[head]);
        s.head_count = r->execs[head];
    }
    if (r->fn(r->ctx, &s)) r->stop = BBV_STOPPED;
}

/* Block b executes. Returns 0, or 1 to stop. */
static inline int exec_block(tk_bbv_run *r, uint32_t b)
{
    uint32_t instrs = r->p->blocks[b].num_instrs;
    /* tk_bbv_ends, its loop head read only once the interval is reached (the usual block
     * costs one comparison) */
    if (r->in_slice >= r->o->interval) {
        int loops = r->o->loop_boundaries;
        if (tk_bbv_ends(r->in_slice, r->o->interval, loops, loops && r->is_head[b])) {
            end_slice(r, loops ? b : TK_CFG_NONE);
            if (r->stop) return 1;
        }
    }
    /* a slice holds at most the thread's instructions, which fit when the chunks' source
     * blocks make their INSTR_COUNT (a check --dcfg error otherwise); slice[b] <= in_slice */
    if (tk_add_u64(r->in_slice, instrs, &r->in_slice)) {
        r->stop = BBV_OVERFLOW;
        return 1;
    }
    if (r->slice[b] == 0 && instrs > 0) r->touched[r->ntouched++] = b;
    r->slice[b] += instrs;
    r->execs[b]++;
    return 0;
}

/* Block b executes, in a run that keeps its index only. Returns 0, or 1 out of memory. */
static inline int keep_block(tk_bbv_run *r, uint32_t b)
{
    tk_bbv_kept *k = r->kept;
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 4096;
        uint32_t *v = cap > k->cap ? tk_reallocarray(k->v, cap, sizeof *v) : NULL;
        if (!v) {
            r->stop = BBV_NOMEM;
            return 1;
        }
        k->v = v;
        k->cap = cap;
    }
    k->v[k->n++] = b;
    return 0;
}

/* A chunk's edges looked up, their source blocks executed (keep: kept, a constant of each
 * caller, so that each has its loop). */
static inline int take_edges(tk_bbv_run *r, const uint32_t *edges, size_t n, int keep)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_cfg_find_edge(r->p, edges[i]);
        if (e == TK_CFG_NONE) {
            r->stop = BBV_BAD_EDGE;
            r->bad_edge = edges[i];
            return 1;
        }
        /* the source block of every edge executes (INSTR_COUNT's rule) */
        uint32_t src = r->p->edges[e].src;
        if (src < r->p->nblocks && (keep ? keep_block(r, src) : exec_block(r, src))) return 1;
    }
    return 0;
}

/* One thread: a chunk's edges, looked up and added in order (the reference that on_blocks
 * follows with threads). */
static int on_chunk(void *ctx, size_t chunk, const uint32_t *edges, size_t n)
{
    tk_bbv_run *r = ctx;
    r->chunk = chunk;
    return r->kept ? take_edges(r, edges, n, 1) : take_edges(r, edges, n, 0);
}

/* The source blocks of a chunk's piece, looked up on a decoding thread (dt_lookup.h),
 * executed (keep: as for take_edges). */
static inline int take_blocks(tk_bbv_run *r, const char *data, size_t n, int keep)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t b = tk_dt_lookup_item(data, i);
        if (b == DT_LOOKUP_MARK) {
            r->bad_edge = tk_dt_lookup_item(data, i + 1);
            r->stop = BBV_BAD_EDGE;
            return 1;
        }
        if (keep ? keep_block(r, b) : exec_block(r, b)) return 1;
    }
    return 0;
}

/* With threads, the source blocks of a chunk (or a piece of it), looked up on the decoding
 * threads (dt_lookup.h), in the thread's order, into the slices: on_chunk's additions, the
 * same calls of exec_block. */
static int on_blocks(void *ctx, size_t chunk, const char *data, size_t len)
{
    tk_bbv_run *r = ctx;
    r->chunk = chunk;
    size_t n = len / sizeof(uint32_t);
    return r->kept ? take_blocks(r, data, n, 1) : take_blocks(r, data, n, 0);
}

/* The decoding stopped (TK_END): the error for why, or TK_END when fn asked. */
static tk_status stop_error(const tk_bbv_run *r, const tk_dcfg_trace *t, tk_error *err)
{
    tk_dcfg_trace_chunk_info ci;
    tk_dcfg_trace_chunk(t, r->chunk, &ci);
    if (r->stop == BBV_OVERFLOW)
        return tk_error_set_at(err, TK_ERR_FORMAT, tk_dcfg_trace_path(t), -1, ci.line, ci.column,
                               "the thread's instruction count passes 2^64 - 1 in this chunk "
                               "(its source blocks hold more than its INSTR_COUNT)");
    if (r->stop == BBV_BAD_EDGE) /* at its chunk's row, as decode --dcfg says it */
        return tk_error_set_at(err, TK_ERR_FORMAT, tk_dcfg_trace_path(t), -1, ci.line, ci.column,
                               "edge %u is not an edge of process %llu in the DCFG", r->bad_edge,
                               (unsigned long long)r->pid);
    if (r->stop == BBV_NOMEM) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_END;
}

void tk_bbv_run_free(tk_bbv_run *r)
{
    tk_free(r->slice);
    tk_free(r->touched);
    tk_free(r->execs);
    tk_free(r->is_head);
    tk_free(r->ents);
    tk_free(r->entries);
    r->slice = r->execs = NULL;
    r->touched = NULL;
    r->is_head = NULL;
    r->ents = NULL;
    r->entries = NULL;
}

/* r's arrays: the loop heads, and unless it keeps its blocks the slice's. */
static tk_status run_alloc(tk_bbv_run *r, tk_error *err)
{
    const tk_cfg_process *p = r->p;
    size_t nb = p->nblocks ? p->nblocks : 1;
    r->is_head = tk_calloc(nb, 1);
    int bad = !r->is_head;
    if (!r->kept) {
        r->slice = tk_calloc(nb, sizeof *r->slice);
        r->touched = tk_calloc(nb, sizeof *r->touched);
        r->execs = tk_calloc(nb, sizeof *r->execs);
        r->ents = tk_calloc(nb, sizeof *r->ents);
        if (!r->sink) r->entries = tk_calloc(nb, sizeof *r->entries);
        bad |= !r->slice || !r->touched || !r->execs || !r->ents || (!r->sink && !r->entries);
    }
    if (bad) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (uint32_t l = 0; l < p->nloops; l++)
        if (p->loops[l].head < p->nblocks) r->is_head[p->loops[l].head] = 1;
    return TK_OK;
}

tk_status tk_bbv_run_chunks(tk_bbv_run *r, const tk_dcfg_trace *t, int all, size_t begin,
                            size_t end, tk_error *err)
{
    tk_status st = run_alloc(r, err);
    if (st != TK_OK || (!all && begin >= end)) return st;
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    opt.has_pid = opt.has_thread = 1;
    opt.pid = r->pid;
    opt.thread_id = r->tid;
    if (!all) {
        opt.chunk_begin = begin;
        opt.chunk_end = end;
    }
    /* with threads looked up on the decoding threads, added in order */
    dt_lookup lk = {r->p, DT_LOOKUP_SOURCES, r->o->threads};
    st = tk_dt_decode_looked_up(t, &opt, &lk, on_chunk, on_blocks, r, err);
    if (st == TK_END) st = stop_error(r, t, err);
    if (st == TK_OK && !r->sink && !r->kept) end_slice(r, TK_CFG_NONE); /* the last, partial */
    if (st == TK_OK && r->stop) st = TK_END;
    return st;
}

tk_status tk_bbv_run_kept(tk_bbv_run *r, const uint32_t *blocks, size_t n, tk_error *err)
{
    tk_status st = run_alloc(r, err);
    for (size_t i = 0; i < n && st == TK_OK && !r->stop; i++) exec_block(r, blocks[i]);
    if (st == TK_OK && r->stop == BBV_OVERFLOW)
        st = tk_error_set(err, TK_ERR_FORMAT, "the thread's instruction count passes 2^64 - 1");
    else if (st == TK_OK && r->stop)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return st;
}

void tk_bbv_options(const tk_dcfg_trace_bbv_options *opt, tk_dcfg_trace_bbv_options *o)
{
    tk_dcfg_trace_bbv_options d = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    *o = opt ? *opt : d;
    if (!o->interval) o->interval = 100000000;
}

tk_status tk_bbv_run_init(tk_bbv_run *r, const tk_dcfg_trace *t, const tk_cfg *cfg,
                          const tk_dcfg_trace_bbv_options *o, size_t th, tk_error *err)
{
    memset(r, 0, sizeof *r);
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    tk_dcfg_trace_process_info pi;
    tk_dcfg_trace_process(t, ti.process, &pi);
    uint32_t pix = tk_cfg_find_process(cfg, pi.pid);
    if (pix == TK_CFG_NONE) {
        /* the error of check --dcfg, located at the process's row */
        tk_dcfg_trace_decode_options only = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        only.has_pid = only.has_thread = 1;
        only.pid = pi.pid;
        only.thread_id = ti.thread_id;
        return tk_dcfg_trace_processes_in(t, cfg, &only, err);
    }
    r->p = &cfg->processes[pix];
    r->o = o;
    r->pid = pi.pid;
    r->tid = ti.thread_id;
    return TK_OK;
}

/* Whether thread th is one the options select. */
static int selected(const tk_dcfg_trace *t, const tk_dcfg_trace_bbv_options *o, size_t th)
{
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    tk_dcfg_trace_process_info pi;
    tk_dcfg_trace_process(t, ti.process, &pi);
    return !(o->has_thread && ti.thread_id != o->thread_id) && !(o->has_pid && pi.pid != o->pid);
}

int tk_dcfg_trace_bbv_selects(const tk_dcfg_trace *t, const tk_dcfg_trace_bbv_options *opt,
                              size_t th)
{
    tk_dcfg_trace_bbv_options o;
    tk_bbv_options(opt, &o);
    return th < tk_dcfg_trace_thread_count(t) && selected(t, &o, th);
}

tk_status tk_dcfg_trace_bbv(const tk_dcfg_trace *t, const tk_cfg *cfg,
                            const tk_dcfg_trace_bbv_options *opt, tk_dcfg_trace_bbv_fn fn,
                            void *ctx, tk_error *err)
{
    tk_dcfg_trace_bbv_options o;
    tk_bbv_options(opt, &o);
    size_t n = tk_dcfg_trace_thread_count(t);
    size_t end = o.thread_end && o.thread_end < n ? o.thread_end : n;
    tk_status st = TK_OK;
    for (size_t th = o.thread_begin; th < end && st == TK_OK; th++) {
        if (!selected(t, &o, th)) continue;
        tk_bbv_run r;
        st = tk_bbv_run_init(&r, t, cfg, &o, th, err);
        if (st != TK_OK) return st;
        r.fn = fn;
        r.ctx = ctx;
        st = tk_bbv_run_chunks(&r, t, 1, 0, 0, err);
        tk_bbv_run_free(&r);
    }
    return st;
}
