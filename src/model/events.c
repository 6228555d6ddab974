/* Events model: per-thread call stacks and call-path interning over a tk_event stream. */
#include "model/events.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"

static const char *const event_kind_names[] = {"enter", "exit", "tail-exit", "custom", "typed"};

const char *tk_event_kind_name(tk_event_kind k)
{
    return (unsigned)k < sizeof event_kind_names / sizeof *event_kind_names ? event_kind_names[k]
                                                                            : "unknown";
}

const char *tk_event_func_name(const tk_event_source *src, uint64_t func, char *buf, size_t size)
{
    const char *name = src->name ? src->name(src->ctx, func, buf, size) : NULL;
    if (name) return name;
    snprintf(buf, size, "#%" PRIu64, func);
    return buf;
}

/* ---- time units ----------------------------------------------------------------- */

static const char *const unit_names[] = {"s", "ms", "us", "ns"};
static const double unit_per_second[] = {1.0, 1e3, 1e6, 1e9};

const char *tk_time_unit_name(tk_time_unit u) { return (unsigned)u < 4 ? unit_names[u] : "?"; }

int tk_event_same_clock(double tps_a, const char *unit_a, double tps_b, const char *unit_b)
{
    return tps_a == tps_b &&
           ((!unit_a && !unit_b) || (unit_a && unit_b && !strcmp(unit_a, unit_b)));
}

tk_status tk_time_unit_parse(const char *name, tk_time_unit *out, tk_error *err)
{
    for (unsigned u = 0; name && u < 4; u++)
        if (strcmp(name, unit_names[u]) == 0) {
            *out = (tk_time_unit)u;
            return TK_OK;
        }
    return tk_error_set(err, TK_ERR_ARG, "unknown time unit '%s' (s, ms, us or ns)",
                        name ? name : "");
}

double tk_time_unit_per_second(tk_time_unit u)
{
    return (unsigned)u < 4 ? unit_per_second[u] : 1.0;
}

int tk_time_unit_decimals(tk_time_unit u) { return (unsigned)u < 4 ? 9 - 3 * (int)u : 9; }

double tk_ticks_to_unit(uint64_t ticks, double ticks_per_second, tk_time_unit u)
{
    if (!(ticks_per_second > 0)) return (double)ticks;
    return (double)ticks / (ticks_per_second / tk_time_unit_per_second(u));
}

/* ---- thread filter ------------------------------------------------------------- */

static int wanted_tid(const tk_event_thread_filter *f, int64_t tid)
{
    for (size_t i = 0; i < f->ntids; i++)
        if (f->tids[i] == tid) return 1;
    return 0;
}

static tk_status filtered_next(void *ctx, tk_event *ev, tk_error *err)
{
    tk_event_thread_filter *f = ctx;
    tk_status st;
    while ((st = f->src.next(f->src.ctx, ev, err)) == TK_OK && !wanted_tid(f, ev->tid)) {
    }
    return st;
}

static tk_status filtered_batch(void *ctx, tk_event_batch *b, unsigned flags, tk_error *err)
{
    tk_event_thread_filter *f = ctx;
    tk_status st;
    while ((st = f->src.next_batch(f->src.ctx, b, flags & ~TK_BATCH_PACKED, err)) == TK_OK &&
           !wanted_tid(f, b->tid)) {
    }
    return st;
}

static const char *filtered_name(void *ctx, uint64_t func, char *buf, size_t size)
{
    tk_event_thread_filter *f = ctx;
    return f->src.name(f->src.ctx, func, buf, size);
}

static int filtered_location(void *ctx, uint64_t func, const char **file, uint32_t *line)
{
    tk_event_thread_filter *f = ctx;
    return f->src.location(f->src.ctx, func, file, line);
}

void tk_event_only_threads(tk_event_thread_filter *f, const tk_event_source *src,
                           const int64_t *tids, size_t ntids, tk_event_source *out)
{
    f->src = *src;
    f->tids = tids;
    f->ntids = ntids;
    *out = *src;
    out->ctx = f;
    out->next = filtered_next;
    out->name = src->name ? filtered_name : NULL;
    out->next_batch = src->next_batch ? filtered_batch : NULL;
    out->location = src->location ? filtered_location : NULL;
}

void tk_callstacks_init(tk_callstacks *cs, tk_frame_opened_fn on_open, tk_frame_closed_fn on_close,
                        void *ctx)
{
    memset(cs, 0, sizeof *cs);
    cs->on_open = on_open;
    cs->on_close = on_close;
    cs->ctx = ctx;
}

void tk_callstacks_free(tk_callstacks *cs)
{
    for (uint32_t i = 0; i < cs->nthreads; i++) {
        if (cs->threads[i].frames) tk_free(cs->threads[i].frames - 1); /* and the frame below */
        tk_hmap_free(&cs->threads[i].absent);
    }
    tk_free(cs->threads);
    tk_free(cs->path_parent);
    tk_free(cs->path_func);
    tk_free(cs->path_is_thread);
    tk_free(cs->memo_key);
    tk_free(cs->memo_node);
    tk_hmap_free(&cs->path_index);
    memset(cs, 0, sizeof *cs);
}

static tk_status add_path(tk_callstacks *cs, uint32_t parent, uint64_t func, int is_thread,
                          uint32_t *out, tk_error *err)
{
    if (cs->npaths == cs->path_cap) {
        if (cs->npaths >= TK_PATH_MAX_NODES)
            return tk_error_set(err, TK_ERR_LIMIT, "more than %u distinct call paths",
                                TK_PATH_MAX_NODES);
        uint32_t ncap = cs->path_cap ? cs->path_cap * 2 : 1024;
        uint32_t *np = tk_reallocarray(cs->path_parent, ncap, sizeof *np);
        if (np) cs->path_parent = np;
        uint64_t *nf = tk_reallocarray(cs->path_func, ncap, sizeof *nf);
        if (nf) cs->path_func = nf;
        uint8_t *nt = tk_reallocarray(cs->path_is_thread, ncap, sizeof *nt);
        if (nt) cs->path_is_thread = nt;
        if (!np || !nf || !nt)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory interning call paths");
        cs->path_cap = ncap;
    }
    uint32_t id = cs->npaths++;
    cs->path_parent[id] = parent;
    cs->path_func[id] = func;
    cs->path_is_thread[id] = (uint8_t)is_thread;
    *out = id;
    return TK_OK;
}

tk_status tk_callstacks_track_paths(tk_callstacks *cs, int per_thread, tk_error *err)
{
    cs->paths = 1;
    cs->per_thread_roots = per_thread;
    cs->memo_key = tk_malloc(sizeof *cs->memo_key << TK_PATH_MEMO_BITS);
    cs->memo_node = tk_malloc(sizeof *cs->memo_node << TK_PATH_MEMO_BITS);
    if (!cs->memo_key || !cs->memo_node)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory interning call paths");
    memset(cs->memo_key, 0xff, sizeof *cs->memo_key << TK_PATH_MEMO_BITS);
    uint32_t root;
    return add_path(cs, UINT32_MAX, 0, 0, &root, err); /* TK_PATH_ROOT */
}

static tk_status child_path(tk_callstacks *cs, uint32_t parent, uint64_t func, int is_thread,
                            uint32_t *out, tk_error *err)
{
    if (func > UINT32_MAX >> 1)
        return tk_error_set(err, TK_ERR_LIMIT, "function id %" PRIu64 " too large for call paths",
                            func);
    uint64_t key = (uint64_t)parent << 32 | (uint64_t)is_thread << 31 | func;
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&cs->path_index, key, 0, &inserted);
    if (!slot) return tk_error_set(err, TK_ERR_NOMEM, "out of memory interning call paths");
    if (!inserted) {
        *out = (uint32_t)*slot;
        return TK_OK;
    }
    tk_status st = add_path(cs, parent, func, is_thread, out, err);
    if (st != TK_OK) return st;
    /* add_path does not touch the map, so the slot is still valid */
    *slot = *out;
    return TK_OK;
}

tk_status tk_callstacks_child_path(tk_callstacks *cs, uint32_t parent, uint64_t func, uint32_t *out,
                                   tk_error *err)
{
    tk_status st = child_path(cs, parent, func, 0, out, err);
    if (st == TK_OK) {
        uint64_t key = (uint64_t)parent << 32 | func;
        uint32_t slot = tk_path_memo_slot(key);
        cs->memo_key[slot] = key;
        cs->memo_node[slot] = *out;
    }
    return st;
}

tk_stack_thread *tk_callstacks_thread(tk_callstacks *cs, const tk_event *ev)
{
    uint32_t index = ev->thread;
    if (cs->last && cs->last->index == index && cs->last->events) return cs->last;
    if (index >= cs->nthreads) {
        if (index >= cs->cap) {
            uint32_t ncap = cs->cap ? cs->cap : 8;
            while (ncap <= index) ncap *= 2;
            tk_stack_thread *nt = tk_reallocarray(cs->threads, ncap, sizeof *nt);
            if (!nt) return NULL;
            cs->threads = nt;
            cs->cap = ncap;
            cs->last = NULL;
        }
        memset(cs->threads + cs->nthreads, 0,
               (size_t)(index + 1 - cs->nthreads) * sizeof *cs->threads);
        for (uint32_t i = cs->nthreads; i <= index; i++) cs->threads[i].index = i;
        cs->nthreads = index + 1;
    }
    tk_stack_thread *t = &cs->threads[index];
    if (!t->events) {
        t->pid = ev->pid;
        t->tid = ev->tid;
        t->trace = cs->chain ? (uint32_t)cs->chain->cur : 0;
        t->first_time = ev->time;
        t->root_path = TK_PATH_ROOT;
        if (cs->paths && cs->per_thread_roots) {
            tk_error ignored;
            if (child_path(cs, TK_PATH_ROOT, index, 1, &t->root_path, &ignored) != TK_OK)
                return NULL;
        }
    }
    cs->last = t;
    return t;
}

static inline void close_top(tk_callstacks *cs, tk_stack_thread *t, uint64_t end, tk_close_how how)
{
    tk_callstacks_close_top_with(t, end, how, cs->on_close, cs->ctx);
}

tk_status tk_callstacks_push(tk_callstacks *cs, tk_stack_thread *t, const tk_event *ev,
                             tk_error *err)
{
    if (t->depth == t->cap) {
        if (t->cap >= TK_STACK_MAX_DEPTH)
            return tk_error_set_at(err, TK_ERR_LIMIT, NULL, (int64_t)ev->offset, 0, 0,
                                   "call stack of thread %" PRId64 " deeper than %u frames", t->tid,
                                   TK_STACK_MAX_DEPTH);
        uint32_t ncap = t->cap ? t->cap * 2 : 64;
        /* one frame more, below frames[0]: the parent the outermost frame adds its time to
         * (the batch loops add without a check; nothing reads it) */
        tk_frame *nf =
            tk_reallocarray(t->frames ? t->frames - 1 : NULL, (size_t)ncap + 1, sizeof *nf);
        if (!nf) return tk_error_set(err, TK_ERR_NOMEM, "out of memory growing a call stack");
        if (!t->frames) { /* the spare frame: of no packed call's function */
            memset(nf, 0, sizeof *nf);
            nf->func = UINT64_MAX;
        }
        t->frames = nf + 1;
        t->cap = ncap;
    }
    tk_frame *f = &t->frames[t->depth];
    f->func = ev->func;
    f->start = ev->time;
    f->child = 0;
    f->path = TK_PATH_ROOT;
    if (cs->paths) {
        uint32_t parent = t->depth ? t->frames[t->depth - 1].path : t->root_path;
        tk_status st = tk_callstacks_child_path(cs, parent, ev->func, &f->path, err);
        if (st != TK_OK) return st;
    }
    t->depth++;
    if (t->depth > t->max_depth) t->max_depth = t->depth;
    if (cs->on_open) cs->on_open(cs->ctx, t, f, t->depth, ev);
    return TK_OK;
}

tk_status tk_callstacks_feed(tk_callstacks *cs, const tk_event *ev, tk_error *err)
{
    tk_stack_thread *t = tk_callstacks_thread(cs, ev);
    if (!t) return tk_error_set(err, TK_ERR_NOMEM, "out of memory tracking threads");
    t->events++;
    if (ev->time > t->last_time) t->last_time = ev->time;
    switch (ev->kind) {
    case TK_EVENT_ENTER: t->enters++; return tk_callstacks_push(cs, t, ev, err);
    case TK_EVENT_EXIT:
    case TK_EVENT_TAIL_EXIT: {
        t->exits++;
        if (tk_callstacks_unmatched(t, t->frames, t->depth, t->enters, ev->func)) {
            t->unmatched_exits++;
            return TK_OK;
        }
        uint32_t k = t->depth;
        while (t->frames[k - 1].func != ev->func) /* found: above the bottom */
            k--;
        while (t->depth > k) close_top(cs, t, ev->time, TK_CLOSE_UNWOUND);
        close_top(cs, t, ev->time, TK_CLOSE_MATCHED);
        return TK_OK;
    }
    case TK_EVENT_CUSTOM:
    case TK_EVENT_TYPED: return TK_OK;
    }
    return TK_OK;
}

tk_status tk_callstacks_skipped(tk_callstacks *cs, const tk_event_batch *b, tk_error *err)
{
    if (!b->nskipped) return TK_OK;
    tk_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TK_EVENT_CUSTOM;
    ev.thread = b->thread;
    ev.pid = b->pid;
    ev.tid = b->tid;
    tk_stack_thread *t = tk_callstacks_thread(cs, &ev);
    if (!t) return tk_error_set(err, TK_ERR_NOMEM, "out of memory tracking threads");
    t->events += b->nskipped;
    return TK_OK;
}

tk_status tk_callstacks_feed_batch(tk_callstacks *cs, const tk_event_batch *b, tk_error *err)
{
    return tk_callstacks_feed_batch_with(cs, b, cs->on_close, cs->ctx, 0, err);
}

void tk_callstacks_finish(tk_callstacks *cs)
{
    for (uint32_t i = 0; i < cs->nthreads; i++) {
        tk_stack_thread *t = &cs->threads[i];
        while (t->depth > 0) close_top(cs, t, t->last_time, TK_CLOSE_AT_END);
    }
}

tk_status tk_callstacks_run(tk_callstacks *cs, const tk_event_source *src, tk_error *err)
{
    tk_event ev;
    tk_status st;
    cs->chain = tk_event_chain_of(src);
    if (src->next_batch) {
        tk_event_batch b;
        while ((st = src->next_batch(src->ctx, &b, 0, err)) == TK_OK) {
            st = tk_callstacks_feed_batch(cs, &b, err);
            if (st != TK_OK) return st;
        }
        if (st != TK_END) return st;
        tk_callstacks_finish(cs);
        return TK_OK;
    }
    while ((st = src->next(src->ctx, &ev, err)) == TK_OK) {
        st = tk_callstacks_feed(cs, &ev, err);
        if (st != TK_OK) return st;
    }
    if (st != TK_END) return st;
    tk_callstacks_finish(cs);
    return TK_OK;
}

/* ---- chain: several sources as one ---------------------------------------------- */

static void chain_seen(tk_event_chain *c, uint32_t thread)
{
    if (thread + 1 > c->seen) c->seen = thread + 1;
}

/* The current part ended: the next one's threads come after its. 0 when none is left. */
static int chain_advance(tk_event_chain *c)
{
    c->offset += c->seen;
    c->seen = 0;
    return ++c->cur < c->nparts;
}

static tk_status chain_next(void *ctx, tk_event *ev, tk_error *err)
{
    tk_event_chain *c = ctx;
    while (c->cur < c->nparts) {
        const tk_event_source *p = &c->parts[c->cur];
        tk_status st = p->next(p->ctx, ev, err);
        if (st == TK_OK) {
            chain_seen(c, ev->thread);
            ev->thread += c->offset;
            return TK_OK;
        }
        if (st != TK_END || !chain_advance(c)) return st;
    }
    return TK_END;
}

static tk_status chain_batch(void *ctx, tk_event_batch *b, unsigned flags, tk_error *err)
{
    tk_event_chain *c = ctx;
    while (c->cur < c->nparts) {
        const tk_event_source *p = &c->parts[c->cur];
        tk_status st = p->next_batch(p->ctx, b, flags, err);
        if (st == TK_OK) {
            chain_seen(c, b->thread);
            b->thread += c->offset;
            return TK_OK;
        }
        if (st != TK_END || !chain_advance(c)) return st;
    }
    return TK_END;
}

static const char *chain_name(void *ctx, uint64_t func, char *buf, size_t size)
{
    const tk_event_chain *c = ctx;
    return c->parts[0].name(c->parts[0].ctx, func, buf, size);
}

static int chain_location(void *ctx, uint64_t func, const char **file, uint32_t *line)
{
    const tk_event_chain *c = ctx;
    return c->parts[0].location(c->parts[0].ctx, func, file, line);
}

tk_event_chain *tk_event_chain_of(const tk_event_source *src)
{
    return src && src->next == chain_next ? src->ctx : NULL;
}

tk_status tk_event_chain_init(tk_event_chain *c, const tk_event_source *parts, size_t n,
                              tk_event_source *out, tk_error *err)
{
    memset(c, 0, sizeof *c);
    if (n == 0) return tk_error_set(err, TK_ERR_ARG, "no sources to chain");
    int batches = 1;
    uint64_t start = parts[0].start_time;
    for (size_t k = 0; k < n; k++) {
        const tk_event_source *p = &parts[k];
        if (!tk_event_same_clock(p->ticks_per_second, p->time_unit, parts[0].ticks_per_second,
                                 parts[0].time_unit)) {
            tk_status st = tk_error_set(err, TK_ERR_ARG,
                                        "part %zu: its clock (%.0f %s per "
                                        "second) is not part 0's (%.0f %s per second)",
                                        k, p->ticks_per_second, p->time_unit ? p->time_unit : "?",
                                        parts[0].ticks_per_second,
                                        parts[0].time_unit ? parts[0].time_unit : "?");
            c->cur = k;
            return st;
        }
        batches &= p->next_batch != NULL;
        if (p->start_time < start) start = p->start_time;
    }
    c->parts = parts;
    c->nparts = n;
    *out = parts[0];
    out->ctx = c;
    out->next = chain_next;
    out->next_batch = batches ? chain_batch : NULL;
    out->name = parts[0].name ? chain_name : NULL;
    out->location = parts[0].location ? chain_location : NULL;
    out->start_time = start;
    return TK_OK;
}

/* ---- several traces: their threads' processes --------------------------------------- */

size_t tk_event_source_traces(const tk_event_source *src)
{
    const tk_event_chain *c = tk_event_chain_of(src);
    return c ? c->nparts : 1;
}

int tk_process_keyer_note(tk_process_keyer *k, int64_t pid, uint32_t trace)
{
    uint64_t f;
    if (trace == UINT32_MAX) return 0; /* no thread */
    if (tk_hmap_get(&k->first, (uint64_t)pid, &f) && f - 1 <= trace) return 0;
    return tk_hmap_put(&k->first, (uint64_t)pid, (uint64_t)trace + 1) < 0 ? -1 : 0;
}

int64_t tk_process_keyer_key(const tk_process_keyer *k, int64_t pid, uint32_t trace)
{
    uint64_t f;
    /* unsigned: no overflow, whatever a crafted partial's trace */
    if (trace != UINT32_MAX && tk_hmap_get(&k->first, (uint64_t)pid, &f) && f - 1 < trace)
        return (int64_t)((uint64_t)trace * (uint64_t)TK_PROCESS_KEY_STRIDE + (uint64_t)pid);
    return pid;
}

void tk_process_keyer_free(tk_process_keyer *k) { tk_hmap_free(&k->first); }

tk_status tk_event_process_keys(const int64_t *pids, const uint32_t *traces, size_t n,
                                int64_t *keys, tk_error *err)
{
    tk_process_keyer k = TK_PROCESS_KEYER_INIT;
    for (size_t i = 0; i < n; i++) {
        if (tk_process_keyer_note(&k, pids[i], traces[i]) != 0) {
            tk_process_keyer_free(&k);
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory keying processes");
        }
    }
    for (size_t i = 0; i < n; i++) keys[i] = tk_process_keyer_key(&k, pids[i], traces[i]);
    tk_process_keyer_free(&k);
    return TK_OK;
}

void tk_thread_root_name(char *buf, size_t size, size_t ntraces, int64_t key, int64_t tid)
{
    if (ntraces > 1)
        snprintf(buf, size, "process %" PRId64 " thread %" PRId64, key, tid);
    else
        snprintf(buf, size, "thread %" PRId64, tid);
}
