/* DCFG-Trace -> events model: the thread's call stack as dt_stack.h makes it (call edges,
 * returns, jumps into other routines), its frames' opens as enters and their closes as exits;
 * time is the thread's instruction count (PRECEDING_INSTR_COUNT of the chunk plus NUM_INSTRS of
 * the source blocks of the edges so far). Functions are identified by the entry block id of
 * their routine (the block's own id when the DCFG has no routine for it). */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "core/vec.h"
#include "formats/dcfg_trace/dt_internal.h"
#include "formats/dcfg_trace/dt_stack.h"
#include "model/cfg_internal.h"
#include "tracekit/cfg.h"
#include "tracekit/events.h"

struct tk_dcfg_trace_events {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    size_t thread; /* index in t->threads */
    size_t chunk; /* next chunk of the thread to decode (relative) */
    const tk_cfg_process *p;
    uint64_t pid, tid;
    uint32_t *edges; /* current chunk */
    size_t n, cap, pos;
    uint64_t time;
    size_t cur_chunk; /* global index of the chunk being read */
    dt_stack stack;
    tk_event *queue; /* the events of the last step, handed out from qpos */
    size_t nqueue, qpos, capqueue;
};

static int collect(void *ctx, const uint32_t *e, size_t n)
{
    tk_dcfg_trace_events *x = ctx;
    if (n > SIZE_MAX - x->n ||
        tk_vec_reserve_((void **)&x->edges, &x->cap, x->n + n, sizeof *x->edges) != 0)
        return 1;
    memcpy(x->edges + x->n, e, n * sizeof *e);
    x->n += n;
    return 0;
}

static int queue_event(tk_dcfg_trace_events *x, tk_event_kind kind, uint32_t fn)
{
    if (tk_vec_reserve_((void **)&x->queue, &x->capqueue, x->nqueue + 1, sizeof *x->queue) != 0)
        return -1;
    tk_event *ev = &x->queue[x->nqueue++];
    memset(ev, 0, sizeof *ev);
    ev->kind = kind;
    ev->thread = (uint32_t)x->thread;
    ev->pid = (int64_t)x->pid;
    ev->tid = (int64_t)x->tid;
    ev->time = x->time;
    ev->func = x->p->blocks[fn].id;
    return 0;
}

/* The step made, its exits and enter queued (at x->time). */
static tk_status take_step(tk_dcfg_trace_events *x, const dt_step *step, tk_error *err)
{
    for (size_t i = x->stack.depth; i > step->keep; i--)
        if (queue_event(x, TK_EVENT_EXIT, x->stack.frames[i - 1].fn))
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (tk_dt_stack_apply(&x->stack, step) != TK_OK ||
        (step->open && queue_event(x, TK_EVENT_ENTER, step->fn)))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_OK;
}

/* The process of thread x->thread (its first chunk): x->pid, x->tid, x->p, the stack begun. */
static tk_status thread_process(tk_dcfg_trace_events *x, const dt_thread *th, tk_error *err)
{
    const tk_dcfg_trace *t = x->t;
    const dt_process *P = NULL;
    for (size_t i = 0; i < t->nprocs; i++)
        if (x->thread >= t->procs[i].first_thread &&
            x->thread < t->procs[i].first_thread + t->procs[i].nthreads)
            P = &t->procs[i];
    x->pid = P ? P->pid : 0;
    x->tid = th->thread_id;
    uint32_t pix = tk_cfg_find_process(x->cfg, x->pid);
    if (pix == TK_CFG_NONE)
        return tk_dt_walk_fail(t, DT_WALK_PROCESS, 0, x->pid, P ? P->offset : -1, 0, err);
    x->p = &x->cfg->processes[pix];
    if (tk_dt_stack_begin(&x->stack, x->cfg, x->p) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_OK;
}

/* The edges of the next chunk, or of the next thread, into x->edges: TK_OK with edges to
 * read, TK_OK with the exits of the frames still open at the end of a thread queued (at its
 * last instruction), TK_END after the last thread, or an error. */
static tk_status next_edges(tk_dcfg_trace_events *x, tk_error *err)
{
    const tk_dcfg_trace *t = x->t;
    while (x->pos >= x->n) {
        if (x->thread >= t->nthreads) return TK_END;
        const dt_thread *th = &t->threads[x->thread];
        if (x->chunk >= th->nchunks) {
            if (x->stack.depth > 0) {
                dt_step step;
                tk_dt_stack_end(&x->stack, &step);
                return take_step(x, &step, err);
            }
            x->thread++;
            x->chunk = 0;
            continue;
        }
        tk_status st = x->chunk == 0 ? thread_process(x, th, err) : TK_OK;
        if (st != TK_OK) return st;
        size_t ci = th->first_chunk + x->chunk++;
        x->cur_chunk = ci;
        x->n = x->pos = 0;
        x->time = t->chunks[ci].preceding_instr_count;
        uint64_t got;
        st = tk_dcfg_trace_decode_chunk(t, ci, collect, x, &got, NULL, err);
        if (st == TK_END) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        if (st != TK_OK) return st;
    }
    return TK_OK;
}

/* The next edge's steps queued: its source block's function on top, its instructions counted,
 * then the edge's own step. */
static tk_status edge_steps(tk_dcfg_trace_events *x, tk_error *err)
{
    const tk_dcfg_trace *t = x->t;
    const tk_cfg_process *p = x->p;
    uint32_t id = x->edges[x->pos++];
    uint32_t e = tk_cfg_find_edge(p, id);
    if (e == TK_CFG_NONE)
        return tk_dt_walk_fail(t, DT_WALK_EDGE, x->cur_chunk, x->pid, -1, id, err);
    const tk_cfg_edge *ed = &p->edges[e];
    dt_step step;
    tk_status st;
    if (cfg_is_block(p, ed->src)) {
        tk_dt_stack_at_block(&x->stack, ed->src, &step);
        if ((step.open || step.keep < x->stack.depth) && (st = take_step(x, &step, err)) != TK_OK)
            return st;
        /* PRECEDING_INSTR_COUNT + the chunk's source blocks fits when they make its
         * INSTR_COUNT (check --dcfg reports a chunk where they do not) */
        if (tk_add_u64(x->time, p->blocks[ed->src].num_instrs, &x->time))
            return tk_dt_walk_fail(t, DT_WALK_INSTRS, x->cur_chunk, x->pid, -1, 0, err);
    }
    tk_dt_stack_edge(&x->stack, ed, &step);
    return take_step(x, &step, err);
}

static tk_status events_next(void *ctx, tk_event *ev, tk_error *err)
{
    tk_dcfg_trace_events *x = ctx;
    while (x->qpos >= x->nqueue) {
        x->qpos = x->nqueue = 0;
        tk_status st = next_edges(x, err);
        if (st == TK_OK && x->nqueue == 0) st = edge_steps(x, err);
        if (st != TK_OK) return st;
    }
    *ev = x->queue[x->qpos++];
    return TK_OK;
}

static const char *events_name(void *ctx, uint64_t func, char *buf, size_t size)
{
    tk_dcfg_trace_events *x = ctx;
    for (uint32_t i = 0; i < x->cfg->nprocesses; i++) {
        const tk_cfg_process *p = &x->cfg->processes[i];
        uint32_t b = func <= UINT32_MAX ? tk_cfg_find_block(p, (uint32_t)func) : TK_CFG_NONE;
        if (b == TK_CFG_NONE) continue;
        uint64_t off = 0;
        const char *sym = tk_cfg_block_symbol(x->cfg, p, b, &off);
        if (sym && off == 0) return sym;
        if (sym)
            snprintf(buf, size, "%s+0x%llx", sym, (unsigned long long)off);
        else
            snprintf(buf, size, "block %llu", (unsigned long long)func);
        return buf;
    }
    snprintf(buf, size, "block %llu", (unsigned long long)func);
    return buf;
}

tk_status tk_dcfg_trace_events_open(tk_dcfg_trace_events **out, const tk_dcfg_trace *t,
                                    const tk_cfg *cfg, tk_error *err)
{
    tk_dcfg_trace_events *x = tk_calloc(1, sizeof *x);
    if (!x) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    x->t = t;
    x->cfg = cfg;
    *out = x;
    return TK_OK;
}

void tk_dcfg_trace_events_free(tk_dcfg_trace_events *x)
{
    if (!x) return;
    tk_free(x->edges);
    tk_free(x->queue);
    tk_dt_stack_free(&x->stack);
    tk_free(x);
}

void tk_dcfg_trace_events_source(tk_dcfg_trace_events *x, tk_event_source *src)
{
    memset(src, 0, sizeof *src);
    src->ctx = x;
    src->next = events_next;
    src->name = events_name;
    src->ticks_per_second = 0;
    src->time_unit = "instructions";
    src->start_time = 0;
}
