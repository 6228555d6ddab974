/* DCFG-Trace -> events model: the thread's call stack as dt_stack.h makes it (call edges,
 * returns, jumps into other routines), its frames' opens as enters and their closes as exits;
 * time is the thread's instruction count (PRECEDING_INSTR_COUNT of the chunk plus NUM_INSTRS of
 * the source blocks of the edges so far). Functions are identified by the entry block id of
 * their routine (the block's own id when the DCFG has no routine for it). On one thread each
 * chunk is decoded when its edges are wanted and they are looked up as they come; with
 * threads a thread of the source's own runs the decoding (its workers decode the chunks and
 * look their edges up, dt_lookup.h) and hands the edge indexes over in order through a small
 * queue (feed), and next() makes the steps from them, so that the events are the same. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "core/vec.h"
#include "formats/dcfg_trace/dt_internal.h"
#include "formats/dcfg_trace/dt_lookup.h"
#include "formats/dcfg_trace/dt_stack.h"
#include "model/cfg_internal.h"
#include "tracekit/cfg.h"
#include "tracekit/events.h"

/* With threads, what the decoding hands over: a chunk's edge indexes (or a piece's, as
 * dt_lookup.h's items), the end of a thread's chunks, or the end of the decoding (st, err). */
enum { FEED_ITEMS, FEED_THREAD_END, FEED_DONE };
#define FEED_SLOTS 4

typedef struct feed_slot {
    int kind;
    size_t chunk;
    uint32_t *items;
    size_t n, cap;
} feed_slot;

typedef struct feed {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    unsigned threads;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    feed_slot slots[FEED_SLOTS];
    size_t head, tail; /* slots [head, tail) are full; the reader reads slot head */
    int cancel; /* the reader stopped */
    tk_status st; /* FEED_DONE: the decoding's status and error */
    tk_error err;
} feed;

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
    unsigned threads;
    feed *feed; /* with threads, once started */
    int held; /* the reader holds the feed's slot head */
    int fed_end; /* the feed's thread x->thread ended */
};

/* The decoding's side of the feed: wait for a free slot. Returns it, or NULL when the reader
 * stopped. */
static feed_slot *feed_slot_free(feed *f)
{
    pthread_mutex_lock(&f->lock);
    while (f->tail - f->head >= FEED_SLOTS && !f->cancel) pthread_cond_wait(&f->changed, &f->lock);
    feed_slot *s = f->cancel ? NULL : &f->slots[f->tail % FEED_SLOTS];
    pthread_mutex_unlock(&f->lock);
    return s;
}

static void feed_push(feed *f)
{
    pthread_mutex_lock(&f->lock);
    f->tail++;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
}

/* A chunk's items, in order (tk_dcfg_trace_decode's write_text). */
static int feed_items(void *ctx, size_t chunk, const char *data, size_t len)
{
    feed *f = ctx;
    feed_slot *s = feed_slot_free(f);
    if (!s) return 1;
    size_t n = len / sizeof(uint32_t);
    if (tk_vec_reserve_((void **)&s->items, &s->cap, n ? n : 1, sizeof *s->items) != 0) {
        tk_error_set(&f->err, TK_ERR_NOMEM, "out of memory");
        f->st = TK_ERR_NOMEM;
        return 1;
    }
    memcpy(s->items, data, n * sizeof *s->items);
    s->n = n;
    s->kind = FEED_ITEMS;
    s->chunk = chunk;
    feed_push(f);
    return 0;
}

/* The decoding: each thread's chunks as the reader reads them (the threads with chunks, up to
 * one whose process the DCFG lacks: the reader finds it there), then FEED_DONE. */
static void *feed_main(void *arg)
{
    feed *f = arg;
    const tk_dcfg_trace *t = f->t;
    tk_status st = TK_OK;
    for (size_t th = 0; th < t->nthreads && st == TK_OK; th++) {
        if (t->threads[th].nchunks == 0) continue;
        const dt_process *P = NULL;
        for (size_t i = 0; i < t->nprocs; i++)
            if (th >= t->procs[i].first_thread &&
                th < t->procs[i].first_thread + t->procs[i].nthreads)
                P = &t->procs[i];
        uint32_t pix = P ? tk_cfg_find_process(f->cfg, P->pid) : TK_CFG_NONE;
        if (pix == TK_CFG_NONE) break;
        tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        opt.has_pid = opt.has_thread = 1;
        opt.pid = P->pid;
        opt.thread_id = t->threads[th].thread_id;
        opt.max_chunk_edges = SIZE_MAX; /* a chunk whole, as it is read on one thread */
        dt_lookup lk = {&f->cfg->processes[pix], DT_LOOKUP_EDGES, f->threads};
        st = tk_dt_decode_looked_up(t, &opt, &lk, NULL, feed_items, f, &f->err);
        if (st == TK_END && f->st != TK_OK) st = f->st; /* out of memory in feed_items */
        feed_slot *s = st == TK_OK ? feed_slot_free(f) : NULL;
        if (s) {
            s->kind = FEED_THREAD_END;
            feed_push(f);
        }
    }
    feed_slot *s = st == TK_END ? NULL : feed_slot_free(f); /* TK_END: the reader stopped */
    if (s) {
        f->st = st;
        s->kind = FEED_DONE;
        feed_push(f);
    }
    return NULL;
}

static tk_status feed_start(tk_dcfg_trace_events *x, tk_error *err)
{
    feed *f = tk_calloc(1, sizeof *f);
    if (!f) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    f->t = x->t;
    f->cfg = x->cfg;
    f->threads = x->threads;
    tk_error_clear(&f->err);
    pthread_mutex_init(&f->lock, NULL);
    pthread_cond_init(&f->changed, NULL);
    if (pthread_create(&f->thread, NULL, feed_main, f) != 0) {
        pthread_cond_destroy(&f->changed);
        pthread_mutex_destroy(&f->lock);
        tk_free(f);
        return tk_error_set(err, TK_ERR_IO, "cannot start a decoding thread");
    }
    x->feed = f;
    return TK_OK;
}

/* The reader's side: the next slot, the one it held given back. */
static feed_slot *feed_next(tk_dcfg_trace_events *x)
{
    feed *f = x->feed;
    pthread_mutex_lock(&f->lock);
    if (x->held) {
        f->head++;
        pthread_cond_broadcast(&f->changed);
    }
    while (f->tail == f->head) pthread_cond_wait(&f->changed, &f->lock);
    x->held = 1;
    feed_slot *s = &f->slots[f->head % FEED_SLOTS];
    pthread_mutex_unlock(&f->lock);
    return s;
}

static void feed_stop(tk_dcfg_trace_events *x)
{
    feed *f = x->feed;
    if (!f) return;
    pthread_mutex_lock(&f->lock);
    f->cancel = 1;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
    pthread_join(f->thread, NULL);
    pthread_cond_destroy(&f->changed);
    pthread_mutex_destroy(&f->lock);
    for (size_t i = 0; i < FEED_SLOTS; i++) tk_free(f->slots[i].items);
    tk_free(f);
    x->feed = NULL;
}

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

/* With threads, the next edge indexes of thread x->thread from the feed (started at the
 * first), into x->edges (x->fed_end at the thread's end), or the decoding's error. */
static tk_status fed_edges(tk_dcfg_trace_events *x, tk_error *err)
{
    if (!x->feed) {
        tk_status st = feed_start(x, err);
        if (st != TK_OK) return st;
    }
    x->chunk = 1; /* begun */
    feed_slot *s = feed_next(x);
    if (s->kind == FEED_THREAD_END) {
        x->fed_end = 1;
        return TK_OK;
    }
    if (s->kind == FEED_DONE) {
        if (x->feed->st == TK_OK) /* cannot be: the thread has chunks */
            return tk_error_set(err, TK_ERR_NOMEM, "the decoding ended early");
        if (err) *err = x->feed->err;
        return x->feed->st;
    }
    x->edges = s->items;
    x->n = s->n;
    x->pos = 0;
    if (s->chunk != x->cur_chunk) {
        x->cur_chunk = s->chunk;
        x->time = x->t->chunks[s->chunk].preceding_instr_count;
    }
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
        if (x->threads > 1 ? th->nchunks == 0 || x->fed_end : x->chunk >= th->nchunks) {
            if (x->stack.depth > 0) {
                dt_step step;
                tk_dt_stack_end(&x->stack, &step);
                return take_step(x, &step, err);
            }
            x->thread++;
            x->chunk = 0;
            x->fed_end = 0;
            continue;
        }
        tk_status st = x->chunk == 0 ? thread_process(x, th, err) : TK_OK;
        if (st != TK_OK) return st;
        if (x->threads > 1) {
            st = fed_edges(x, err);
            if (st != TK_OK) return st;
            continue;
        }
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
    uint32_t id = x->edges[x->pos++], e;
    if (x->threads <= 1) {
        e = tk_cfg_find_edge(p, id);
    } else { /* looked up by the feed (dt_lookup.h) */
        e = id;
        if (e == DT_LOOKUP_MARK) id = x->edges[x->pos++], e = TK_CFG_NONE;
    }
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
                                    const tk_cfg *cfg, const tk_dcfg_trace_convert_options *opt,
                                    tk_error *err)
{
    tk_dcfg_trace_events *x = tk_calloc(1, sizeof *x);
    if (!x) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    x->t = t;
    x->cfg = cfg;
    x->threads = opt ? opt->threads : 0;
    x->cur_chunk = SIZE_MAX;
    *out = x;
    return TK_OK;
}

void tk_dcfg_trace_events_free(tk_dcfg_trace_events *x)
{
    if (!x) return;
    feed_stop(x);
    if (x->threads <= 1) tk_free(x->edges); /* else the feed's */
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
