/* Basic-block vectors of a DCFG-Trace: each thread's edges decoded in order, the source
 * block of each executing once, the instructions of each block added up per slice; a slice
 * ends before the first block after its interval's instruction, or with loop boundaries at
 * the next loop-head execution after it. On one thread each chunk's edges are looked up and
 * added as they come (on_chunk); with threads the chunks are decoded and their edges looked
 * up (dt_lookup.h) on the decoding threads, the blocks added in order on the delivering one
 * (on_blocks), at the price of a copy of each block index. The adding stays in order: where
 * a slice ends depends on where the one before it ended (the block that crosses the interval
 * stays whole in it), a state no chunk knows without the chunks before it (docs/mpi.md,
 * "DCFG-Trace basic-block vectors"). */
#include "tracekit/dcfg_trace_bbv.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "formats/dcfg_trace/dt_lookup.h"
#include "model/cfg_internal.h"

/* Why the decoding of a thread stopped. */
enum { BBV_GOING, BBV_STOPPED, BBV_BAD_EDGE, BBV_OVERFLOW };

/* One thread's run (of process p of the DCFG). */
typedef struct bbv_run {
    const tk_cfg_process *p;
    const tk_dcfg_trace_bbv_options *o;
    tk_dcfg_trace_bbv_fn fn;
    void *ctx;
    uint64_t *slice; /* instructions per block index in the current slice */
    uint32_t *touched; /* block indexes with slice[b] != 0, ntouched of them */
    size_t ntouched;
    uint64_t *execs; /* executions per block index since the thread started */
    uint8_t *is_head; /* block index is a loop head */
    tk_dcfg_trace_bbv_entry *entries;
    uint64_t in_slice; /* instructions in the current slice */
    uint64_t slices; /* slices handed out */
    uint64_t pid, tid;
    size_t chunk; /* the chunk decoded */
    int stop;
    uint32_t bad_edge;
} bbv_run;

static int cmp_entry(const void *a, const void *b)
{
    uint32_t x = ((const tk_dcfg_trace_bbv_entry *)a)->block_id;
    uint32_t y = ((const tk_dcfg_trace_bbv_entry *)b)->block_id;
    return (x > y) - (x < y);
}

/* The current slice handed out (nothing when it is empty), ended before an execution of
 * head (TK_CFG_NONE: not at a loop head). */
static void end_slice(bbv_run *r, uint32_t head)
{
    if (r->ntouched == 0) return;
    const tk_cfg_process *p = r->p;
    for (size_t i = 0; i < r->ntouched; i++) {
        uint32_t b = r->touched[i];
        r->entries[i].block_id = p->blocks[b].id;
        r->entries[i].instructions = r->slice[b];
        r->slice[b] = 0;
    }
    qsort(r->entries, r->ntouched, sizeof *r->entries, cmp_entry);
    tk_dcfg_trace_bbv_slice s = {r->pid, r->tid, ++r->slices, r->entries, r->ntouched, 0, 0, 0, 0};
    if (head != TK_CFG_NONE) {
        s.at_loop_head = 1;
        s.head_id = p->blocks[head].id;
        s.head_addr = tk_cfg_stored_block_addr(p, &p->blocks[head]);
        s.head_count = r->execs[head];
    }
    r->ntouched = 0;
    r->in_slice = 0;
    if (r->fn(r->ctx, &s)) r->stop = BBV_STOPPED;
}

/* Block b executes. Returns 0, or 1 to stop. */
static inline int exec_block(bbv_run *r, uint32_t b)
{
    uint32_t instrs = r->p->blocks[b].num_instrs;
    if (r->in_slice >= r->o->interval) {
        if (!r->o->loop_boundaries)
            end_slice(r, TK_CFG_NONE);
        else if (r->is_head[b])
            end_slice(r, b);
        if (r->stop) return 1;
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

/* One thread: a chunk's edges, looked up and added in order (the reference that on_blocks
 * follows with threads). */
static int on_chunk(void *ctx, size_t chunk, const uint32_t *edges, size_t n)
{
    bbv_run *r = ctx;
    r->chunk = chunk;
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_cfg_find_edge(r->p, edges[i]);
        if (e == TK_CFG_NONE) {
            r->stop = BBV_BAD_EDGE;
            r->bad_edge = edges[i];
            return 1;
        }
        /* the source block of every edge executes (INSTR_COUNT's rule) */
        uint32_t src = r->p->edges[e].src;
        if (src < r->p->nblocks && exec_block(r, src)) return 1;
    }
    return 0;
}

/* With threads, the source blocks of a chunk (or a piece of it), looked up on the decoding
 * threads (dt_lookup.h), in the thread's order, into the slices: on_chunk's additions, the
 * same calls of exec_block. */
static int on_blocks(void *ctx, size_t chunk, const char *data, size_t len)
{
    bbv_run *r = ctx;
    r->chunk = chunk;
    size_t n = len / sizeof(uint32_t);
    for (size_t i = 0; i < n; i++) {
        uint32_t b = tk_dt_lookup_item(data, i);
        if (b == DT_LOOKUP_MARK) {
            r->bad_edge = tk_dt_lookup_item(data, i + 1);
            r->stop = BBV_BAD_EDGE;
            return 1;
        }
        if (exec_block(r, b)) return 1;
    }
    return 0;
}

/* The decoding stopped (TK_END): the error for why, or TK_END when fn asked. */
static tk_status stop_error(const bbv_run *r, const tk_dcfg_trace *t, tk_error *err)
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
    return TK_END;
}

static void run_free(bbv_run *r)
{
    tk_free(r->slice);
    tk_free(r->touched);
    tk_free(r->execs);
    tk_free(r->is_head);
    tk_free(r->entries);
}

/* The vectors of thread tid of process pid (p in the DCFG). */
static tk_status bbv_thread(bbv_run *r, const tk_dcfg_trace *t, tk_error *err)
{
    const tk_cfg_process *p = r->p;
    size_t nb = p->nblocks ? p->nblocks : 1;
    r->slice = tk_calloc(nb, sizeof *r->slice);
    r->touched = tk_calloc(nb, sizeof *r->touched);
    r->execs = tk_calloc(nb, sizeof *r->execs);
    r->is_head = tk_calloc(nb, 1);
    r->entries = tk_calloc(nb, sizeof *r->entries);
    tk_status st = TK_OK;
    if (!r->slice || !r->touched || !r->execs || !r->is_head || !r->entries)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (uint32_t l = 0; st == TK_OK && l < p->nloops; l++)
        if (p->loops[l].head < p->nblocks) r->is_head[p->loops[l].head] = 1;
    if (st == TK_OK) {
        tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        opt.has_pid = opt.has_thread = 1;
        opt.pid = r->pid;
        opt.thread_id = r->tid;
        /* with threads looked up on the decoding threads, added in order */
        dt_lookup lk = {p, DT_LOOKUP_SOURCES, r->o->threads};
        st = tk_dt_decode_looked_up(t, &opt, &lk, on_chunk, on_blocks, r, err);
        if (st == TK_END) st = stop_error(r, t, err);
        if (st == TK_OK) end_slice(r, TK_CFG_NONE); /* the last, partial slice */
        if (st == TK_OK && r->stop) st = TK_END;
    }
    run_free(r);
    return st;
}

tk_status tk_dcfg_trace_bbv(const tk_dcfg_trace *t, const tk_cfg *cfg,
                            const tk_dcfg_trace_bbv_options *opt, tk_dcfg_trace_bbv_fn fn,
                            void *ctx, tk_error *err)
{
    tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    if (opt) o = *opt;
    if (!o.interval) o.interval = 100000000;
    tk_status st = TK_OK;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && st == TK_OK; th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, ti.process, &pi);
        if ((o.has_thread && ti.thread_id != o.thread_id) || (o.has_pid && pi.pid != o.pid))
            continue;
        uint32_t pix = tk_cfg_find_process(cfg, pi.pid);
        if (pix == TK_CFG_NONE) {
            /* the error of check --dcfg, located at the process's row */
            tk_dcfg_trace_decode_options only = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
            only.has_pid = only.has_thread = 1;
            only.pid = pi.pid;
            only.thread_id = ti.thread_id;
            return tk_dcfg_trace_processes_in(t, cfg, &only, err);
        }
        bbv_run r;
        memset(&r, 0, sizeof r);
        r.p = &cfg->processes[pix];
        r.o = &o;
        r.fn = fn;
        r.ctx = ctx;
        r.pid = pi.pid;
        r.tid = ti.thread_id;
        st = bbv_thread(&r, t, err);
    }
    return st;
}
