/* DCFG-Trace -> events model: CALL edges become enters, RETURN edges exits,
 * time is the thread's instruction count (PRECEDING_INSTR_COUNT of the chunk
 * plus NUM_INSTRS of the source blocks of the edges so far). Functions are
 * identified by the entry block id of the routine that holds the callee
 * block (the block itself when the DCFG has no routine for it). */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "core/vec.h"
#include "dt_internal.h"
#include "model/cfg_internal.h"
#include "tracekit/cfg.h"
#include "tracekit/events.h"

struct tk_dcfg_trace_events {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    size_t thread;              /* index in t->threads */
    size_t chunk;               /* next chunk of the thread to decode (relative) */
    const tk_cfg_process *p;
    uint64_t pid, tid;
    uint32_t *edges;            /* current chunk */
    size_t n, cap, pos;
    int first_of_chunk;
    int thread_started;
    uint64_t time;
    size_t cur_chunk;           /* global index of the chunk being read */
    uint64_t *stack;
    size_t depth, cap_stack;
    tk_event pending;           /* an event to deliver before the next edge */
    int has_pending;
};

static int collect(void *ctx, const uint32_t *e, size_t n) {
    tk_dcfg_trace_events *x = ctx;
    if (n > SIZE_MAX - x->n || tk_vec_reserve_((void **)&x->edges, &x->cap, x->n + n, sizeof *x->edges) != 0)
        return 1;
    memcpy(x->edges + x->n, e, n * sizeof *e);
    x->n += n;
    return 0;
}

static uint64_t func_of(const tk_cfg_process *p, uint32_t node) {
    if (!cfg_is_block(p, node))
        return 0;
    uint32_t r = p->blocks[node].routine;
    if (r != TK_CFG_NONE && r < p->nroutines)
        return p->blocks[p->routines[r].entry].id;
    return p->blocks[node].id;
}

static int push(tk_dcfg_trace_events *x, uint64_t f) {
    if (x->depth == x->cap_stack) {
        size_t cap = x->cap_stack ? x->cap_stack * 2 : 64;
        uint64_t *q = tk_realloc(x->stack, cap * sizeof *q);
        if (!q)
            return -1;
        x->stack = q;
        x->cap_stack = cap;
    }
    x->stack[x->depth++] = f;
    return 0;
}

static void make_event(tk_dcfg_trace_events *x, tk_event *ev, tk_event_kind kind, uint64_t func) {
    memset(ev, 0, sizeof *ev);
    ev->kind = kind;
    ev->thread = (uint32_t)x->thread;
    ev->pid = (int64_t)x->pid;
    ev->tid = (int64_t)x->tid;
    ev->time = x->time;
    ev->func = func;
}

/* The process of thread x->thread (its first chunk): x->pid, x->tid, x->p. */
static tk_status thread_process(tk_dcfg_trace_events *x, const dt_thread *th, tk_error *err) {
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
        return dt_error_at(t, err, TK_ERR_FORMAT, P ? P->offset : -1,
                           "process %llu is not in the DCFG", (unsigned long long)x->pid);
    x->p = &x->cfg->processes[pix];
    return TK_OK;
}

/* The edges of the next chunk, or of the next thread, into x->edges: TK_OK
 * (*ev_made 0), TK_OK with *ev an exit that closes a call still open at the
 * end of a thread (*ev_made 1), TK_END after the last thread, or an error. */
static tk_status next_edges(tk_dcfg_trace_events *x, tk_event *ev, int *ev_made, tk_error *err) {
    const tk_dcfg_trace *t = x->t;
    *ev_made = 0;
    while (x->pos >= x->n) {
        if (x->thread >= t->nthreads)
            return TK_END;
        const dt_thread *th = &t->threads[x->thread];
        if (x->chunk >= th->nchunks) {
            /* the thread's trace ends: close its open calls at its last instruction */
            if (x->depth > 0) {
                make_event(x, ev, TK_EVENT_EXIT, x->stack[--x->depth]);
                *ev_made = 1;
                return TK_OK;
            }
            x->thread++;
            x->chunk = 0;
            x->thread_started = 0;
            x->depth = 0;
            continue;
        }
        tk_status st = x->chunk == 0 ? thread_process(x, th, err) : TK_OK;
        if (st != TK_OK)
            return st;
        size_t ci = th->first_chunk + x->chunk++;
        x->cur_chunk = ci;
        x->n = x->pos = 0;
        x->time = t->chunks[ci].preceding_instr_count;
        x->first_of_chunk = 1;
        uint64_t got;
        st = tk_dcfg_trace_decode_chunk(t, ci, collect, x, &got, NULL, err);
        if (st == TK_END)
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        if (st != TK_OK)
            return st;
    }
    return TK_OK;
}

/* The event of edge ed, a call or a return: into *ev (*made 1), or none. */
static tk_status edge_event(tk_dcfg_trace_events *x, const tk_cfg_edge *ed, tk_event *ev, int *made,
                            tk_error *err) {
    const tk_cfg_process *p = x->p;
    tk_edge_kind k = cfg_edge_kind(x->cfg, ed);
    *made = 0;
    if (tk_edge_kind_is_any_call(k)) {
        uint64_t f = func_of(p, ed->tgt);
        if (f) {
            if (push(x, f))
                return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            make_event(x, ev, TK_EVENT_ENTER, f);
            *made = 1;
        }
    } else if (tk_edge_kind_is_any_return(k) && x->depth > 0) {
        uint64_t f = x->stack[--x->depth];
        make_event(x, ev, TK_EVENT_EXIT, f);
        *made = 1;
    }
    return TK_OK;
}

static tk_status events_next(void *ctx, tk_event *ev, tk_error *err) {
    tk_dcfg_trace_events *x = ctx;
    const tk_dcfg_trace *t = x->t;
    for (;;) {
        if (x->has_pending) {
            *ev = x->pending;
            x->has_pending = 0;
            return TK_OK;
        }
        int made;
        tk_status st = next_edges(x, ev, &made, err);
        if (st != TK_OK || made)
            return st;
        const tk_cfg_process *p = x->p;
        uint32_t id = x->edges[x->pos++];
        uint32_t e = tk_cfg_find_edge(p, id);
        if (e == TK_CFG_NONE)
            return tk_error_set_at(err, TK_ERR_FORMAT, t->path, -1, 0, 0,
                                   "edge %u is not an edge of process %llu in the DCFG", id,
                                   (unsigned long long)x->pid);
        const tk_cfg_edge *ed = &p->edges[e];
        x->first_of_chunk = 0;
        if (!x->thread_started) {
            /* the thread starts inside the function of its first block */
            x->thread_started = 1;
            uint64_t f = func_of(p, cfg_is_block(p, ed->src) ? ed->src : ed->tgt);
            if (f) {
                if (push(x, f))
                    return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
                make_event(x, &x->pending, TK_EVENT_ENTER, f);
                x->has_pending = 1;
            }
        }
        /* PRECEDING_INSTR_COUNT + the chunk's source blocks fits when they make
         * its INSTR_COUNT (check --dcfg reports a chunk where they do not) */
        if (cfg_is_block(p, ed->src) &&
            tk_add_u64(x->time, p->blocks[ed->src].num_instrs, &x->time))
            return dt_error_at(t, err, TK_ERR_FORMAT, t->chunks[x->cur_chunk].row_offset,
                               "the thread's instruction count passes 2^64 - 1 in this chunk (its "
                               "source blocks hold more than its INSTR_COUNT)");
        tk_event next_ev;
        if ((st = edge_event(x, ed, &next_ev, &made, err)) != TK_OK)
            return st;
        if (made) {
            if (x->has_pending) {
                *ev = x->pending;
                x->pending = next_ev;
                return TK_OK;
            }
            *ev = next_ev;
            return TK_OK;
        }
    }
}

static const char *events_name(void *ctx, uint64_t func, char *buf, size_t size) {
    tk_dcfg_trace_events *x = ctx;
    for (uint32_t i = 0; i < x->cfg->nprocesses; i++) {
        const tk_cfg_process *p = &x->cfg->processes[i];
        uint32_t b = func <= UINT32_MAX ? tk_cfg_find_block(p, (uint32_t)func) : TK_CFG_NONE;
        if (b == TK_CFG_NONE)
            continue;
        uint64_t off = 0;
        const char *sym = tk_cfg_block_symbol(x->cfg, p, b, &off);
        if (sym && off == 0)
            return sym;
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
                                    const tk_cfg *cfg, tk_error *err) {
    tk_dcfg_trace_events *x = tk_calloc(1, sizeof *x);
    if (!x)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    x->t = t;
    x->cfg = cfg;
    *out = x;
    return TK_OK;
}

void tk_dcfg_trace_events_free(tk_dcfg_trace_events *x) {
    if (!x)
        return;
    tk_free(x->edges);
    tk_free(x->stack);
    tk_free(x);
}

void tk_dcfg_trace_events_source(tk_dcfg_trace_events *x, tk_event_source *src) {
    memset(src, 0, sizeof *src);
    src->ctx = x;
    src->next = events_next;
    src->name = events_name;
    src->ticks_per_second = 0;
    src->time_unit = "instructions";
    src->start_time = 0;
}
