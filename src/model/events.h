/* Events model internals: per-thread call stacks rebuilt from a tk_event stream, with optional
 * call-path interning (a trie of (parent path, function) nodes) for flame graphs and profiles.
 * Used by latency accounting, the Chrome and folded exporters and the profile builder. */
#ifndef TK_MODEL_EVENTS_H
#define TK_MODEL_EVENTS_H

#include <stdint.h>
#include <string.h>

#include "core/fastpath.h"
#include "core/hash.h"
#include "tracekit/events.h"

/* Deepest call stack accepted per thread; deeper input is an error (TK_ERR_LIMIT). */
#define TK_STACK_MAX_DEPTH (1u << 20)
/* Most distinct call paths interned. */
#define TK_PATH_MAX_NODES (1u << 26)
#define TK_PATH_ROOT 0u

typedef struct tk_frame {
    uint64_t func;
    uint64_t start; /* time of the enter */
    uint64_t child; /* time spent in callees that already returned */
    uint32_t path; /* call-path node (TK_PATH_ROOT when paths are off) */
} tk_frame;

/* How a frame ended. */
typedef enum tk_close_how {
    TK_CLOSE_MATCHED = 0, /* its own exit */
    TK_CLOSE_UNWOUND = 1, /* an exit of a function further down the stack popped it */
    TK_CLOSE_AT_END = 2 /* still open when the stream ended; closed at the thread's last time */
} tk_close_how;

typedef struct tk_stack_thread {
    tk_frame *frames;
    uint32_t depth, cap;
    uint32_t index; /* dense thread index */
    uint32_t trace; /* the part of a chained source it came from (0 for any other source) */
    int64_t pid, tid;
    uint64_t first_time, last_time;
    uint64_t enters, exits, events;
    uint64_t unmatched_exits; /* exits with no entry on the stack */
    uint64_t unwound; /* frames closed by an exit of a caller */
    uint64_t open_at_end; /* frames still open at the end */
    uint64_t backwards; /* exits earlier than their enter (duration taken as 0) */
    uint32_t max_depth;
    uint32_t root_path; /* path node of the thread's root */
    /* functions an exit found on no open frame, while no frame was pushed
     * since (absent_epoch = 1 + the enters then): their next exits are
     * unmatched without a scan of the stack (tk_callstacks_unmatched) */
    uint64_t absent_epoch;
    tk_hmap absent;
} tk_stack_thread;

typedef struct tk_callstacks tk_callstacks;

/* Called when a frame ends; duration = end - start (0 when the clock went backwards), self =
 * duration - time in closed callees. depth is the frame's depth (1 = outermost). */
typedef void (*tk_frame_closed_fn)(void *ctx, const tk_stack_thread *t, const tk_frame *f,
                                   uint32_t depth, uint64_t end, uint64_t duration, uint64_t self,
                                   tk_close_how how);
/* Called after a frame was pushed (ev is the enter). */
typedef void (*tk_frame_opened_fn)(void *ctx, const tk_stack_thread *t, const tk_frame *f,
                                   uint32_t depth, const tk_event *ev);

struct tk_callstacks {
    tk_stack_thread *threads;
    uint32_t nthreads, cap;
    tk_frame_opened_fn on_open;
    tk_frame_closed_fn on_close;
    void *ctx;
    /* call paths: enabled by tk_callstacks_track_paths */
    int paths;
    int per_thread_roots; /* each thread's stacks start at its own root node */
    uint32_t *path_parent;
    uint64_t *path_func; /* the function; for thread roots the thread index */
    uint8_t *path_is_thread;
    uint32_t npaths, path_cap;
    tk_hmap path_index; /* (parent << 32 | func) -> node */
    uint64_t *memo_key; /* a direct-mapped cache in front of path_index (UINT64_MAX = empty) */
    uint32_t *memo_node;
    tk_stack_thread *last; /* thread of the previous event */
    const tk_event_chain *chain; /* the source run, when it is a chain (the threads' trace) */
};

/* The chain a source reads (tk_event_chain_init: its cur is the part of the event it returned
 * last), or NULL when src is no chain. */
tk_event_chain *tk_event_chain_of(const tk_event_source *src);

void tk_callstacks_init(tk_callstacks *cs, tk_frame_opened_fn on_open, tk_frame_closed_fn on_close,
                        void *ctx);
/* Intern call paths (functions must have ids < 2^32). per_thread: separate roots per thread. */
tk_status tk_callstacks_track_paths(tk_callstacks *cs, int per_thread, tk_error *err);
void tk_callstacks_free(tk_callstacks *cs);

/* Feed one event (enter/exit/tail-exit update the stacks; other kinds only the thread's times).
 * Errors: TK_ERR_LIMIT (stack too deep, too many paths), TK_ERR_NOMEM. */
tk_status tk_callstacks_feed(tk_callstacks *cs, const tk_event *ev, tk_error *err);
/* Feed a batch of calls of one thread (same rules as tk_callstacks_feed). */
tk_status tk_callstacks_feed_batch(tk_callstacks *cs, const tk_event_batch *b, tk_error *err);
/* Close every open frame at its thread's last time (TK_CLOSE_AT_END). */
void tk_callstacks_finish(tk_callstacks *cs);

/* The thread with this dense index, creating it; NULL when out of memory. */
tk_stack_thread *tk_callstacks_thread(tk_callstacks *cs, const tk_event *ev);

/* Drive a whole source through the stacks and finish them (through batches when the source
 * has them). */
tk_status tk_callstacks_run(tk_callstacks *cs, const tk_event_source *src, tk_error *err);

/* ---- the batch loops, inline -------------------------------------------------------------
 * tk_callstacks_feed_batch_with is tk_callstacks_feed_batch with the close callback given as
 * an argument: a consumer that passes its own static function gets the loop and the callback
 * compiled into one (no call through a pointer per record). tk_callstacks_feed_packed_with is
 * the same loop over a TK_BATCH_PACKED batch (calls still in the file's own record layout, see
 * tk_packed_calls), and tk_callstacks_run_with drives a whole source through both. The pieces
 * they need: */

/* Push a frame for the enter ev (grows the stack, interns the path, calls on_open). */
tk_status tk_callstacks_push(tk_callstacks *cs, tk_stack_thread *t, const tk_event *ev,
                             tk_error *err);
/* The path node of func called from parent (interned when new). Errors: TK_ERR_LIMIT,
 * TK_ERR_NOMEM. */
tk_status tk_callstacks_child_path(tk_callstacks *cs, uint32_t parent, uint64_t func, uint32_t *out,
                                   tk_error *err);

/* Promises a caller of the _with functions can make (compile-time constants let the compiler
 * drop the code): the stacks intern no paths / on_open is not to be called (there is none, or
 * the caller handles what it needs). */
#define TK_FEED_NO_PATHS 1u
#define TK_FEED_NO_OPEN 2u
/* The close callback ignores self: the time of closed callees is not kept, self is 0. */
#define TK_FEED_NO_SELF 4u
/* Inside this header: the functions fed are packed calls' (below 2^28). */
#define TK_FEED_PACKED_FUNCS 0x100u

#define TK_PATH_MEMO_BITS 12
static inline uint32_t tk_path_memo_slot(uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - TK_PATH_MEMO_BITS));
}

static inline __attribute__((always_inline)) void
tk_callstacks_close_top_with(tk_stack_thread *t, uint64_t end, tk_close_how how,
                             tk_frame_closed_fn on_close, void *ctx)
{
    tk_frame *f = &t->frames[t->depth - 1];
    uint64_t duration = 0;
    if (end >= f->start)
        duration = end - f->start;
    else
        t->backwards++;
    uint64_t self = duration > f->child ? duration - f->child : 0;
    if (on_close) on_close(ctx, t, f, t->depth, end, duration, self, how);
    t->depth--;
    if (t->depth > 0) t->frames[t->depth - 1].child += duration;
    if (how == TK_CLOSE_UNWOUND)
        t->unwound++;
    else if (how == TK_CLOSE_AT_END)
        t->open_at_end++;
}

/* A thread's stack in locals while a batch is fed, as pointers into its frames. t->depth is
 * stored before the calls out of the loop that use it (the close callbacks of the loops' common
 * cases get the depth as their argument only). */
typedef struct tk_stack_locals {
    tk_frame *frames;
    tk_frame *top; /* one past the innermost frame */
    tk_frame *limit; /* frames + cap */
    tk_frame *deepest; /* frames + max_depth (<= limit) */
    uint64_t enters;
} tk_stack_locals;

/* The frame below an empty stack: the spare frame below frames[0] (events.c), or before the
 * first push this one; its function is no function's (packed calls' ids have 28 bits), so an
 * exit compares with top[-1] without a check of the depth (tk_callstacks_exit_matches_packed).
 * Nothing writes it: a pop needs a push, and the first push allocates the frames. */
static const tk_frame tk_frames_none[1] = {{UINT64_MAX, 0, 0, TK_PATH_ROOT}};

static inline __attribute__((always_inline)) void tk_stack_locals_load(tk_stack_locals *s,
                                                                       const tk_stack_thread *t)
{
    if (t->frames) {
        s->frames = s->top = s->limit = s->deepest = t->frames;
        s->top += t->depth;
        s->limit += t->cap;
        s->deepest += t->max_depth;
    } else { /* none before the first push: empty and full */
        s->frames = s->top = s->limit = s->deepest = (tk_frame *)(uintptr_t)(tk_frames_none + 1);
    }
}

static inline __attribute__((always_inline)) void tk_stack_locals_store(const tk_stack_locals *s,
                                                                        tk_stack_thread *t)
{
    if (t->frames) {
        t->depth = (uint32_t)(s->top - s->frames);
        t->max_depth = (uint32_t)(s->deepest - s->frames);
    }
}

/* An enter of func at time in the batch loops. ev holds the batch's thread, for the calls out
 * of the loop. */
static inline __attribute__((always_inline)) tk_status
tk_callstacks_enter_with(tk_callstacks *cs, tk_stack_thread *t, tk_stack_locals *s, tk_event *ev,
                         uint64_t func, uint64_t time, unsigned promises, tk_error *err)
{
    s->enters++;
    const int inline_push = (promises & TK_FEED_NO_OPEN) || !cs->on_open;
    const int paths = !(promises & TK_FEED_NO_PATHS) && cs->paths;
    /* the common case: below the deepest depth so far (then below the capacity too); one
     * compare, no update of the deepest */
    int deeper = 0;
    if (inline_push && (s->top < s->deepest || (deeper = s->top < s->limit))) {
        uint32_t path = TK_PATH_ROOT;
        if (paths) {
            uint32_t parent = s->top > s->frames ? s->top[-1].path : t->root_path;
            uint64_t key = (uint64_t)parent << 32 | func;
            uint32_t slot = tk_path_memo_slot(key);
            if (func <= UINT32_MAX >> 1 && cs->memo_key[slot] == key) {
                path = cs->memo_node[slot];
            } else {
                tk_status st = tk_callstacks_child_path(cs, parent, func, &path, err);
                if (st != TK_OK) return st;
            }
        }
        tk_frame *f = s->top++;
        f->func = func;
        f->start = time;
        f->child = 0;
        /* without paths nothing reads it (the slow push stores TK_PATH_ROOT) */
        if (!(promises & TK_FEED_NO_PATHS)) f->path = path;
        if (deeper) s->deepest = s->top;
        return TK_OK;
    }
    ev->kind = TK_EVENT_ENTER;
    ev->func = func;
    ev->time = time;
    tk_stack_locals_store(s, t);
    tk_status st = tk_callstacks_push(cs, t, ev, err);
    tk_stack_locals_load(s, t);
    return st;
}

/* Whether an exit of func closes the innermost open call. */
static inline __attribute__((always_inline)) int
tk_callstacks_exit_matches(const tk_stack_locals *s, uint64_t func)
{
    return s->top > s->frames && s->top[-1].func == func;
}

/* The same for a packed call's func (below 2^28): the frame below the stack matches none. */
static inline __attribute__((always_inline)) int
tk_callstacks_exit_matches_packed(const tk_stack_locals *s, uint64_t func)
{
    return s->top[-1].func == func;
}

/* Whether an exit of func, not the innermost open call's, matches no open
 * frame of t (enters: the enters of t so far).  A scan of the stack, skipped
 * for a function a scan found absent while nothing was pushed since (a deep
 * stack and many stray exits would make every one a scan). */
static inline int tk_callstacks_unmatched(tk_stack_thread *t, const tk_frame *frames,
                                          uint32_t depth, uint64_t enters, uint64_t func)
{
    if (t->absent_epoch == enters + 1 && tk_hmap_get(&t->absent, func, NULL)) return 1;
    for (uint32_t k = depth; k > 0;)
        if (frames[--k].func == func) return 0;
    if (t->absent_epoch != enters + 1) { /* frames were pushed: start again */
        if (t->absent.len > 64)
            tk_hmap_free(&t->absent); /* no large table to clear at each push */
        else
            tk_hmap_clear(&t->absent);
        t->absent_epoch = enters + 1;
    }
    (void)tk_hmap_put(&t->absent, func, 1); /* out of memory: the next one scans */
    return 1;
}

/* An exit of func at time in the batch loops. */
static inline __attribute__((always_inline)) void
tk_callstacks_exit_with(tk_stack_thread *t, tk_stack_locals *s, uint64_t func, uint64_t time,
                        tk_frame_closed_fn on_close, void *ctx, unsigned promises)
{
    int top = (promises & TK_FEED_PACKED_FUNCS) ? tk_callstacks_exit_matches_packed(s, func)
                                                : tk_callstacks_exit_matches(s, func);
    if (top) { /* the common case */
        tk_frame *f = s->top - 1;
        uint64_t duration = 0;
        if (time >= f->start)
            duration = time - f->start;
        else
            t->backwards++;
        uint64_t self = 0;
        if (!(promises & TK_FEED_NO_SELF)) self = duration > f->child ? duration - f->child : 0;
        if (on_close)
            on_close(ctx, t, f, (uint32_t)(s->top - s->frames), time, duration, self,
                     TK_CLOSE_MATCHED);
        s->top = f;
        /* the outermost frame adds to the spare frame below frames[0] (events.c) */
        if (!(promises & TK_FEED_NO_SELF)) f[-1].child += duration;
        return;
    }
    if (tk_callstacks_unmatched(t, s->frames, (uint32_t)(s->top - s->frames), t->enters + s->enters,
                                func)) {
        t->unmatched_exits++;
        return;
    }
    tk_frame *k = s->top;
    while (k[-1].func != func) /* found: above the bottom */
        k--;
    uint32_t keep = (uint32_t)(k - s->frames); /* the matching frame's depth */
    tk_stack_locals_store(s, t);
    while (t->depth > keep) tk_callstacks_close_top_with(t, time, TK_CLOSE_UNWOUND, on_close, ctx);
    tk_callstacks_close_top_with(t, time, TK_CLOSE_MATCHED, on_close, ctx);
    s->top = s->frames + t->depth;
}

/* The thread of a batch (created on its first call at first_time) and its stack in locals. */
static inline __attribute__((always_inline)) tk_stack_thread *
tk_callstacks_batch_thread(tk_callstacks *cs, const tk_event_batch *b, uint64_t first_time,
                           tk_event *ev, tk_stack_locals *s)
{
    memset(ev, 0, sizeof *ev);
    ev->thread = b->thread;
    ev->pid = b->pid;
    ev->tid = b->tid;
    ev->time = first_time;
    tk_stack_thread *t = tk_callstacks_thread(cs, ev);
    if (t) {
        tk_stack_locals_load(s, t);
        s->enters = 0;
    }
    return t;
}

/* A batch of no calls (its thread's custom/typed events, which the consumer did not ask for,
 * counted in nskipped): the thread seen, as feeding the events would see it (its pid, tid and
 * trace kept, its events counted), its stack and times unchanged. */
tk_status tk_callstacks_skipped(tk_callstacks *cs, const tk_event_batch *b, tk_error *err);

/* Store the locals back after n calls, the last at time last. */
static inline __attribute__((always_inline)) void
tk_callstacks_batch_done(tk_stack_thread *t, const tk_stack_locals *s, size_t n, uint64_t last)
{
    tk_stack_locals_store(s, t);
    t->enters += s->enters;
    t->exits += n - s->enters; /* a batch holds calls only */
    t->events += n;
    t->last_time = last;
}

static inline __attribute__((always_inline)) tk_status
tk_callstacks_feed_batch_with(tk_callstacks *cs, const tk_event_batch *b,
                              tk_frame_closed_fn on_close, void *ctx, unsigned promises,
                              tk_error *err)
{
    if (b->n == 0) return tk_callstacks_skipped(cs, b, err);
    tk_event ev;
    tk_stack_locals s;
    tk_stack_thread *t = tk_callstacks_batch_thread(cs, b, b->time[0], &ev, &s);
    if (!t) return tk_error_set(err, TK_ERR_NOMEM, "out of memory tracking threads");
    const uint8_t *kind = b->kind;
    const uint64_t *funcs = b->func, *times = b->time;
    uint64_t last = t->last_time;
    tk_status st = TK_OK;
    size_t n = b->n, i;
    for (i = 0; i < n; i++) {
        uint64_t time = times[i];
        last = time > last ? time : last;
        if (kind[i] == TK_EVENT_ENTER) {
            st = tk_callstacks_enter_with(cs, t, &s, &ev, funcs[i], time, promises, err);
            if (st != TK_OK) break;
        } else {
            tk_callstacks_exit_with(t, &s, funcs[i], time, on_close, ctx, promises);
        }
    }
    tk_callstacks_batch_done(t, &s, i, last);
    return st;
}

static inline uint64_t tk_packed_load(const uint8_t *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
    x = x << 32 | x >> 32;
#endif
    return x;
}

/* The packed calls of b->packed (see tk_packed_calls), taken while they qualify. */
static inline __attribute__((always_inline)) tk_status
tk_callstacks_feed_packed_with(tk_callstacks *cs, const tk_event_batch *b,
                               tk_frame_closed_fn on_close, void *ctx, unsigned promises,
                               tk_error *err)
{
    tk_packed_calls *pc = b->packed;
    const uint8_t *p = pc->p, *end = pc->end;
    if (p == end) return TK_OK;
    uint64_t time = pc->time;
    tk_event ev;
    tk_stack_locals s;
    tk_stack_thread *t =
        tk_callstacks_batch_thread(cs, b, time + (tk_packed_load(p) >> 32), &ev, &s);
    if (!t) return tk_error_set(err, TK_ERR_NOMEM, "out of memory tracking threads");
    const uint32_t id_limit = pc->id_limit;
    size_t arg_bytes = 0;
    tk_status st = TK_OK;
    /* time is the call's own from the start of an iteration; a call not taken gives its delta
     * back after the loop (read again: no second register for the time before) */
    for (; p != end; p += 8) {
        uint64_t x = tk_packed_load(p);
        uint32_t w = (uint32_t)x, func = w >> 4, low = w & 0xf;
        time += x >> 32;
        if (low == 0) { /* an enter */
            if (func - 1u >= id_limit) break;
            st = tk_callstacks_enter_with(cs, t, &s, &ev, func, time, promises, err);
            if (st != TK_OK) break;
        } else if (tk_fast_xray_exit_bits(low)) { /* 2 or 4: an exit or tail exit */
            /* the exit of an open call needs no id check: its enter had the same id */
            if (!tk_callstacks_exit_matches_packed(&s, func) && func - 1u >= id_limit) break;
            tk_callstacks_exit_with(t, &s, func, time, on_close, ctx,
                                    promises | TK_FEED_PACKED_FUNCS);
        } else if (low == 6) { /* an enter with arguments, then the argument records */
            if (func - 1u >= id_limit) break;
            st = tk_callstacks_enter_with(cs, t, &s, &ev, func, time, promises, err);
            if (st != TK_OK) break;
            for (; end - p >= 24 && p[8] == TK_PACKED_ARG_BYTE; p += 16) arg_bytes += 16;
        } else {
            break;
        }
    }
    if (p != end) time -= tk_packed_load(p) >> 32; /* stopped at p, not taken */
    size_t n = ((size_t)(p - pc->p) - arg_bytes) / 8; /* calls taken */
    if (n) tk_callstacks_batch_done(t, &s, n, time > t->last_time ? time : t->last_time);
    pc->p = p;
    pc->time = time;
    return st;
}

/* tk_callstacks_run with the close callback compiled into the batch loops (sources without
 * batches go through tk_callstacks_run). cs must have been initialised with the same callback. */
static inline __attribute__((always_inline)) tk_status
tk_callstacks_run_with(tk_callstacks *cs, const tk_event_source *src, tk_frame_closed_fn on_close,
                       void *ctx, unsigned promises, tk_error *err)
{
    if (!src->next_batch) return tk_callstacks_run(cs, src, err);
    cs->chain = tk_event_chain_of(src);
    tk_event_batch b;
    tk_status st;
    while ((st = src->next_batch(src->ctx, &b, TK_BATCH_PACKED, err)) == TK_OK) {
        st = b.packed ? tk_callstacks_feed_packed_with(cs, &b, on_close, ctx, promises, err)
                      : tk_callstacks_feed_batch_with(cs, &b, on_close, ctx, promises, err);
        if (st != TK_OK) return st;
    }
    if (st != TK_END) return st;
    tk_callstacks_finish(cs);
    return TK_OK;
}

/* Two clocks are one (ticks per second and time unit, NULL for none, the same): the test
 * of tk_event_chain_init, which refuses to chain sources of two clocks, and of the partials'
 * merges (folded stacks, events profile), which refuse what it refuses. */
int tk_event_same_clock(double tps_a, const char *unit_a, double tps_b, const char *unit_b);

/* The traces (parts) src reads: a chain's, else 1. */
size_t tk_event_source_traces(const tk_event_source *src);

/* The process keys of tk_event_process_keys, threads noted one at a time: the one place of
 * its rule, which tk_event_process_keys and the Chrome writer (a thread keyed when its first
 * event is written) share. first maps a pid to 1 + the first trace noted with it. A thread's
 * key (tk_process_keyer_key) is final once every thread of the traces before its own is
 * noted: those of a chain read in order are, when its first event comes. */
typedef struct tk_process_keyer {
    tk_hmap first;
} tk_process_keyer;

#define TK_PROCESS_KEYER_INIT \
    { \
        TK_HMAP_INIT \
    }

/* A thread of pid and trace noted (trace UINT32_MAX: none, nothing noted). 0, or -1 when out
 * of memory. */
int tk_process_keyer_note(tk_process_keyer *k, int64_t pid, uint32_t trace);
/* The key of a thread of pid and trace: trace * TK_PROCESS_KEY_STRIDE + pid when a trace
 * before trace had a thread of pid noted, else pid. */
int64_t tk_process_keyer_key(const tk_process_keyer *k, int64_t pid, uint32_t trace);
void tk_process_keyer_free(tk_process_keyer *k);

/* The name of a thread's root in folded stacks and profiles (tk_export_folded,
 * tk_folded_partial, tk_events_profile): "thread TID" of a source of one trace, else "process
 * KEY thread TID" (KEY its process key, tk_event_process_keys). */
void tk_thread_root_name(char *buf, size_t size, size_t ntraces, int64_t key, int64_t tid);

#endif
