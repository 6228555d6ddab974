/* Events model internals: per-thread call stacks rebuilt from a tk_event stream, with optional
 * call-path interning (a trie of (parent path, function) nodes) for flame graphs and profiles.
 * Used by latency accounting, the Chrome and folded exporters and the profile builder. */
#ifndef TK_MODEL_EVENTS_H
#define TK_MODEL_EVENTS_H

#include <stdint.h>
#include <string.h>

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
    uint32_t path;  /* call-path node (TK_PATH_ROOT when paths are off) */
} tk_frame;

/* How a frame ended. */
typedef enum tk_close_how {
    TK_CLOSE_MATCHED = 0, /* its own exit */
    TK_CLOSE_UNWOUND = 1, /* an exit of a function further down the stack popped it */
    TK_CLOSE_AT_END = 2   /* still open when the stream ended; closed at the thread's last time */
} tk_close_how;

typedef struct tk_stack_thread {
    tk_frame *frames;
    uint32_t depth, cap;
    uint32_t index; /* dense thread index */
    int64_t pid, tid;
    uint64_t first_time, last_time;
    uint64_t enters, exits, events;
    uint64_t unmatched_exits; /* exits with no entry on the stack */
    uint64_t unwound;         /* frames closed by an exit of a caller */
    uint64_t open_at_end;     /* frames still open at the end */
    uint64_t backwards;       /* exits earlier than their enter (duration taken as 0) */
    uint32_t max_depth;
    uint32_t root_path;       /* path node of the thread's root */
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
    uint64_t *path_func;  /* the function; for thread roots the thread index */
    uint8_t *path_is_thread;
    uint32_t npaths, path_cap;
    tk_hmap path_index;   /* (parent << 32 | func) -> node */
    uint64_t *memo_key;   /* a direct-mapped cache in front of path_index (UINT64_MAX = empty) */
    uint32_t *memo_node;
    tk_stack_thread *last; /* thread of the previous event */
};

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

/* ---- the batch loop, inline --------------------------------------------------------------
 * tk_callstacks_feed_batch_with is tk_callstacks_feed_batch with the close callback given as
 * an argument: a consumer that passes its own static function gets the loop and the callback
 * compiled into one (no call through a pointer per record). The pieces it needs: */

/* Push a frame for the enter ev (grows the stack, interns the path, calls on_open). */
tk_status tk_callstacks_push(tk_callstacks *cs, tk_stack_thread *t, const tk_event *ev,
                             tk_error *err);
/* The path node of func called from parent (interned when new). Errors: TK_ERR_LIMIT,
 * TK_ERR_NOMEM. */
tk_status tk_callstacks_child_path(tk_callstacks *cs, uint32_t parent, uint64_t func,
                                   uint32_t *out, tk_error *err);

/* Promises a caller of the _with functions can make (compile-time constants let the compiler
 * drop the code): the stacks intern no paths / on_open is not to be called (there is none, or
 * the caller handles what it needs). */
#define TK_FEED_NO_PATHS 1u
#define TK_FEED_NO_OPEN 2u

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
    if (on_close)
        on_close(ctx, t, f, t->depth, end, duration, self, how);
    t->depth--;
    if (t->depth > 0)
        t->frames[t->depth - 1].child += duration;
    if (how == TK_CLOSE_UNWOUND)
        t->unwound++;
    else if (how == TK_CLOSE_AT_END)
        t->open_at_end++;
}

static inline __attribute__((always_inline)) tk_status
tk_callstacks_feed_batch_with(tk_callstacks *cs, const tk_event_batch *b,
                              tk_frame_closed_fn on_close, void *ctx, unsigned promises,
                              tk_error *err)
{
    if (b->n == 0)
        return TK_OK;
    tk_event ev;
    memset(&ev, 0, sizeof ev);
    ev.thread = b->thread;
    ev.pid = b->pid;
    ev.tid = b->tid;
    ev.time = b->time[0];
    tk_stack_thread *t = tk_callstacks_thread(cs, &ev);
    if (!t)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory tracking threads");
    const uint8_t *kind = b->kind;
    const uint64_t *funcs = b->func, *times = b->time;
    uint64_t last = t->last_time, enters = 0;
    /* the stack in locals; t->depth is stored before every call out of the loop */
    tk_frame *frames = t->frames;
    uint32_t depth = t->depth, cap = t->cap, max_depth = t->max_depth;
    const int inline_push = (promises & TK_FEED_NO_OPEN) || !cs->on_open;
    const int paths = !(promises & TK_FEED_NO_PATHS) && cs->paths;
    tk_status st = TK_OK;
    size_t n = b->n, i;
    for (i = 0; i < n; i++) {
        uint64_t time = times[i], func = funcs[i];
        last = time > last ? time : last;
        if (kind[i] == TK_EVENT_ENTER) {
            enters++;
            if (depth < cap && inline_push) { /* the common case */
                uint32_t path = TK_PATH_ROOT;
                if (paths) {
                    uint32_t parent = depth ? frames[depth - 1].path : t->root_path;
                    uint64_t key = (uint64_t)parent << 32 | func;
                    uint32_t slot = tk_path_memo_slot(key);
                    if (func <= UINT32_MAX >> 1 && cs->memo_key[slot] == key)
                        path = cs->memo_node[slot];
                    else if ((st = tk_callstacks_child_path(cs, parent, func, &path, err)) != TK_OK)
                        break;
                }
                tk_frame *f = &frames[depth++];
                f->func = func;
                f->start = time;
                f->child = 0;
                f->path = path;
                max_depth = depth > max_depth ? depth : max_depth;
                continue;
            }
            ev.kind = TK_EVENT_ENTER;
            ev.func = func;
            ev.time = time;
            t->depth = depth;
            t->max_depth = max_depth;
            st = tk_callstacks_push(cs, t, &ev, err);
            frames = t->frames;
            depth = t->depth;
            cap = t->cap;
            max_depth = t->max_depth;
            if (st != TK_OK)
                break;
            continue;
        }
        if (depth > 0 && frames[depth - 1].func == func) { /* the common case */
            tk_frame *f = &frames[depth - 1];
            uint64_t duration = 0;
            if (time >= f->start)
                duration = time - f->start;
            else
                t->backwards++;
            uint64_t self = duration > f->child ? duration - f->child : 0;
            t->depth = depth;
            if (on_close)
                on_close(ctx, t, f, depth, time, duration, self, TK_CLOSE_MATCHED);
            depth--;
            if (depth > 0)
                frames[depth - 1].child += duration;
            continue;
        }
        uint32_t k = depth;
        while (k > 0 && frames[k - 1].func != func)
            k--;
        if (k == 0) {
            t->unmatched_exits++;
            continue;
        }
        t->depth = depth;
        while (t->depth > k)
            tk_callstacks_close_top_with(t, time, TK_CLOSE_UNWOUND, on_close, ctx);
        tk_callstacks_close_top_with(t, time, TK_CLOSE_MATCHED, on_close, ctx);
        depth = t->depth;
    }
    t->depth = depth;
    t->max_depth = max_depth;
    t->enters += enters;
    t->exits += i - enters; /* a batch holds calls only */
    t->events += i;
    t->last_time = last;
    return st;
}

/* tk_callstacks_run with the close callback compiled into the batch loop (sources without
 * batches go through tk_callstacks_run). cs must have been initialised with the same callback. */
static inline __attribute__((always_inline)) tk_status
tk_callstacks_run_with(tk_callstacks *cs, const tk_event_source *src, tk_frame_closed_fn on_close,
                       void *ctx, unsigned promises, tk_error *err)
{
    if (!src->next_batch)
        return tk_callstacks_run(cs, src, err);
    tk_event_batch b;
    tk_status st;
    while ((st = src->next_batch(src->ctx, &b, 0, err)) == TK_OK)
        if ((st = tk_callstacks_feed_batch_with(cs, &b, on_close, ctx, promises, err)) != TK_OK)
            return st;
    if (st != TK_END)
        return st;
    tk_callstacks_finish(cs);
    return TK_OK;
}


#endif
