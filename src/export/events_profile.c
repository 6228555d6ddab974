/* Events stream -> profile: self time and calls per function, call arcs with inclusive time
 * and calls, aggregated in ticks and converted to nanoseconds once at the end. Every thread
 * gets a root function "thread TID" that calls the thread's outermost calls, so that viewers
 * that start a call tree at the functions nobody calls (speedscope, KCachegrind's call graph)
 * find every top-level function, also one whose only caller is itself (recursion). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "model/events.h"
#include "model/profile.h"
#include "tracekit/events_profile.h"

#define ID_BITS 28
#define ID_LIMIT (1u << ID_BITS)
#define PART_LIMIT 256u

typedef struct self_row {
    uint32_t part;
    uint64_t func;
    uint64_t ticks, calls;
} self_row;

typedef struct arc_row {
    uint32_t part;
    uint64_t caller, callee;
    uint64_t count, ticks, calls;
} arc_row;

/* a call of a thread's root: thread index -> outermost function */
typedef struct root_row {
    uint32_t thread;
    uint64_t callee;
    uint64_t count, ticks, calls;
} root_row;

typedef struct sub_stack {
    uint64_t *calls; /* per depth: calls made inside the frame so far */
    uint32_t cap;
} sub_stack;

typedef struct builder {
    int per_thread;
    tk_hmap self_index, arc_index;
    self_row *self;
    size_t nself, capself;
    arc_row *arcs;
    size_t narcs, caparcs;
    tk_hmap root_index;
    root_row *roots;
    size_t nroots, caproots;
    sub_stack *subs;
    uint32_t nsubs;
    int failed; /* TK_ERR_NOMEM or TK_ERR_LIMIT inside a callback */
} builder;

static void fail(builder *b, tk_status st)
{
    if (!b->failed) b->failed = st;
}

static self_row *self_of(builder *b, uint32_t part, uint64_t func)
{
    uint64_t key = (uint64_t)part << ID_BITS | func;
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&b->self_index, key, b->nself, &inserted);
    if (!slot) return NULL;
    if (inserted) {
        if (b->nself == b->capself) {
            size_t ncap = b->capself ? b->capself * 2 : 256;
            self_row *n = tk_reallocarray(b->self, ncap, sizeof *n);
            if (!n) return NULL;
            b->self = n;
            b->capself = ncap;
        }
        b->self[b->nself] = (self_row){part, func, 0, 0};
        b->nself++;
    }
    return &b->self[*slot];
}

static arc_row *arc_of(builder *b, uint32_t part, uint64_t caller, uint64_t callee)
{
    uint64_t key = ((uint64_t)part << (2 * ID_BITS)) | (caller << ID_BITS) | callee;
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&b->arc_index, key, b->narcs, &inserted);
    if (!slot) return NULL;
    if (inserted) {
        if (b->narcs == b->caparcs) {
            size_t ncap = b->caparcs ? b->caparcs * 2 : 256;
            arc_row *n = tk_reallocarray(b->arcs, ncap, sizeof *n);
            if (!n) return NULL;
            b->arcs = n;
            b->caparcs = ncap;
        }
        b->arcs[b->narcs] = (arc_row){part, caller, callee, 0, 0, 0};
        b->narcs++;
    }
    return &b->arcs[*slot];
}

static root_row *root_of(builder *b, uint32_t thread, uint64_t callee)
{
    uint64_t key = ((uint64_t)thread << ID_BITS) | callee;
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&b->root_index, key, b->nroots, &inserted);
    if (!slot) return NULL;
    if (inserted) {
        if (b->nroots == b->caproots) {
            size_t ncap = b->caproots ? b->caproots * 2 : 64;
            root_row *n = tk_reallocarray(b->roots, ncap, sizeof *n);
            if (!n) return NULL;
            b->roots = n;
            b->caproots = ncap;
        }
        b->roots[b->nroots] = (root_row){thread, callee, 0, 0, 0};
        b->nroots++;
    }
    return &b->roots[*slot];
}

static uint64_t *sub_slot(builder *b, uint32_t thread, uint32_t depth)
{
    if (thread >= b->nsubs) {
        sub_stack *n = tk_reallocarray(b->subs, thread + 1, sizeof *n);
        if (!n) return NULL;
        memset(n + b->nsubs, 0, (thread + 1 - b->nsubs) * sizeof *n);
        b->subs = n;
        b->nsubs = thread + 1;
    }
    sub_stack *s = &b->subs[thread];
    if (depth > s->cap) {
        uint32_t ncap = s->cap ? s->cap : 64;
        while (ncap < depth) ncap *= 2;
        uint64_t *n = tk_reallocarray(s->calls, ncap, sizeof *n);
        if (!n) return NULL;
        s->calls = n;
        s->cap = ncap;
    }
    return &s->calls[depth - 1];
}

static void on_open(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth,
                    const tk_event *ev)
{
    (void)f;
    (void)ev;
    builder *b = ctx;
    uint64_t *sub = sub_slot(b, t->index, depth);
    if (!sub)
        fail(b, TK_ERR_NOMEM);
    else
        *sub = 0;
}

static void on_close(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth,
                     uint64_t end, uint64_t duration, uint64_t self, tk_close_how how)
{
    (void)end;
    (void)how;
    builder *b = ctx;
    uint32_t part = b->per_thread ? t->index : 0;
    if (f->func >= ID_LIMIT || part >= PART_LIMIT) {
        fail(b, TK_ERR_LIMIT);
        return;
    }
    uint64_t *sub = sub_slot(b, t->index, depth);
    self_row *s = self_of(b, part, f->func);
    if (!sub || !s) {
        fail(b, TK_ERR_NOMEM);
        return;
    }
    s->ticks += self;
    s->calls++;
    uint64_t subtree = *sub + 1;
    if (depth > 1) {
        uint64_t caller = t->frames[depth - 2].func;
        arc_row *a = caller < ID_LIMIT ? arc_of(b, part, caller, f->func) : NULL;
        uint64_t *parent = sub_slot(b, t->index, depth - 1);
        if (!a || !parent) {
            fail(b, caller < ID_LIMIT ? TK_ERR_NOMEM : TK_ERR_LIMIT);
            return;
        }
        a->count++;
        a->ticks += duration;
        a->calls += subtree;
        *parent += subtree;
    } else {
        root_row *r = root_of(b, t->index, f->func);
        if (!r) {
            fail(b, TK_ERR_NOMEM);
            return;
        }
        r->count++;
        r->ticks += duration;
        r->calls += subtree;
    }
}

static uint64_t to_unit(uint64_t ticks, double scale)
{
    if (scale == 1.0) return ticks;
    double v = (double)ticks * scale + 0.5;
    return v < 1.8e19 ? (uint64_t)v : UINT64_MAX; /* saturate, never overflow */
}

/* The profile function of an event function id (interned on first use). */
static tk_status function_of(tk_profile *p, const tk_event_source *src, uint32_t object,
                             uint32_t unknown_file, uint64_t func, tk_hmap *fn_of, uint32_t *fn,
                             uint32_t *line)
{
    uint64_t v;
    const char *file = NULL;
    uint32_t l = 0;
    if (src->location && !src->location(src->ctx, func, &file, &l)) file = NULL;
    *line = file ? l : 0;
    if (tk_hmap_get(fn_of, func, &v)) {
        *fn = (uint32_t)v;
        return TK_OK;
    }
    char buf[64];
    const char *name = tk_event_func_name(src, func, buf, sizeof buf);
    uint32_t name_id, file_id = unknown_file;
    tk_status st = tk_profile_intern(p, name, strlen(name), &name_id, NULL);
    if (st == TK_OK && file) st = tk_profile_intern(p, file, strlen(file), &file_id, NULL);
    if (st == TK_OK) st = tk_profile_function(p, object, file_id, name_id, fn, NULL);
    if (st == TK_OK && tk_hmap_put(fn_of, func, *fn) < 0) st = TK_ERR_NOMEM;
    return st;
}

/* The calls of every thread's root function "thread TID" (no cost of its own). */
static tk_status add_roots(builder *b, const tk_event_source *src, const tk_callstacks *cs,
                           uint32_t object_id, uint32_t unknown_file, tk_hmap *fn_of, double scale,
                           tk_profile *p, tk_prof_part **parts)
{
    tk_status st = TK_OK;
    uint32_t root_fn = UINT32_MAX, root_thread = UINT32_MAX;
    for (size_t i = 0; i < b->nroots && st == TK_OK; i++) {
        const root_row *r = &b->roots[i];
        if (r->thread != root_thread) {
            char name[48];
            uint32_t name_id;
            snprintf(name, sizeof name, "thread %" PRId64, cs->threads[r->thread].tid);
            st = tk_profile_intern(p, name, strlen(name), &name_id, NULL);
            if (st == TK_OK)
                st = tk_profile_function(p, object_id, unknown_file, name_id, &root_fn, NULL);
            if (st != TK_OK) break;
            root_thread = r->thread;
        }
        tk_prof_call key;
        memset(&key, 0, sizeof key);
        uint32_t callee_line;
        key.fn = root_fn;
        key.file = unknown_file;
        st = function_of(p, src, object_id, unknown_file, r->callee, fn_of, &key.callee,
                         &callee_line);
        key.target.line = callee_line;
        uint64_t incl[2] = {to_unit(r->ticks, scale), r->calls};
        if (st == TK_OK)
            st = tk_profile_add_call(p, parts[b->per_thread ? r->thread : 0], &key, r->count, incl,
                                     NULL);
    }
    return st;
}

static tk_status build_profile(builder *b, const tk_event_source *src, const tk_callstacks *cs,
                               const char *object, tk_profile *p, tk_error *err)
{
    int have_clock = src->ticks_per_second > 0;
    double scale = have_clock ? 1e9 / src->ticks_per_second : 1.0;
    size_t ev;
    tk_status st =
        tk_profile_add_event(p, have_clock ? "ns" : "ticks", have_clock ? 2 : 5, &ev, err);
    if (st == TK_OK) st = tk_profile_add_event(p, "calls", 5, &ev, err);
    if (st != TK_OK) return st;
    uint32_t object_id, unknown_file;
    const char *obj = object ? object : "";
    if (tk_profile_intern(p, obj, strlen(obj), &object_id, err) != TK_OK ||
        tk_profile_intern(p, "???", 3, &unknown_file, err) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory building the profile");
    uint32_t nparts = b->per_thread ? cs->nthreads : 1;
    tk_prof_part **parts = tk_calloc(nparts ? nparts : 1, sizeof *parts);
    if (!parts) return tk_error_set(err, TK_ERR_NOMEM, "out of memory building the profile");
    for (uint32_t i = 0; i < nparts && st == TK_OK; i++) {
        st = tk_profile_add_part(p, &parts[i], err);
        if (st == TK_OK && b->per_thread) {
            parts[i]->has_thread = parts[i]->has_pid = 1;
            parts[i]->thread = (uint64_t)cs->threads[i].tid;
            parts[i]->pid = (uint64_t)cs->threads[i].pid;
        }
    }
    tk_hmap fn_of = TK_HMAP_INIT;
    for (size_t i = 0; i < b->nself && st == TK_OK; i++) {
        const self_row *s = &b->self[i];
        tk_prof_self key;
        memset(&key, 0, sizeof key);
        uint32_t line;
        st = function_of(p, src, object_id, unknown_file, s->func, &fn_of, &key.fn, &line);
        if (st != TK_OK) break;
        key.file = tk_profile_function_at(p, key.fn)->file;
        key.pos.line = line;
        uint64_t costs[2] = {to_unit(s->ticks, scale), s->calls};
        st = tk_profile_add_self(p, parts[s->part], &key, costs, err);
    }
    for (size_t i = 0; i < b->narcs && st == TK_OK; i++) {
        const arc_row *a = &b->arcs[i];
        tk_prof_call key;
        memset(&key, 0, sizeof key);
        uint32_t caller_line, callee_line;
        st = function_of(p, src, object_id, unknown_file, a->caller, &fn_of, &key.fn, &caller_line);
        if (st == TK_OK)
            st = function_of(p, src, object_id, unknown_file, a->callee, &fn_of, &key.callee,
                             &callee_line);
        if (st != TK_OK) break;
        key.file = tk_profile_function_at(p, key.fn)->file;
        key.pos.line = caller_line;
        key.target.line = callee_line;
        uint64_t incl[2] = {to_unit(a->ticks, scale), a->calls};
        st = tk_profile_add_call(p, parts[a->part], &key, a->count, incl, err);
    }
    if (st == TK_OK) st = add_roots(b, src, cs, object_id, unknown_file, &fn_of, scale, p, parts);
    for (uint32_t i = 0; i < nparts && st == TK_OK; i++)
        st = tk_profile_part_fill_totals(p, parts[i], err);
    tk_hmap_free(&fn_of);
    tk_free(parts);
    if (st != TK_OK && !err->message[0])
        tk_error_set(err, st, "cannot build the profile (%s)", tk_status_name(st));
    return st;
}

tk_status tk_events_profile(const tk_event_source *src, const char *object, int per_thread,
                            tk_profile **out, tk_error *err)
{
    *out = NULL;
    builder b;
    memset(&b, 0, sizeof b);
    b.per_thread = per_thread;
    tk_callstacks cs;
    tk_callstacks_init(&cs, on_open, on_close, &b);
    tk_status st = tk_callstacks_run(&cs, src, err);
    if (st == TK_OK && b.failed)
        st = b.failed == TK_ERR_LIMIT
                 ? tk_error_set(err, TK_ERR_LIMIT,
                                "function ids must be below 2^%d and threads "
                                "at most %u for a profile",
                                ID_BITS, PART_LIMIT)
                 : tk_error_set(err, TK_ERR_NOMEM, "out of memory aggregating the profile");
    tk_profile *p = NULL;
    if (st == TK_OK && tk_profile_open(&p, err) != TK_OK)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) st = build_profile(&b, src, &cs, object, p, err);
    tk_callstacks_free(&cs);
    for (uint32_t i = 0; i < b.nsubs; i++) tk_free(b.subs[i].calls);
    tk_free(b.subs);
    tk_free(b.self);
    tk_free(b.arcs);
    tk_free(b.roots);
    tk_hmap_free(&b.root_index);
    tk_hmap_free(&b.self_index);
    tk_hmap_free(&b.arc_index);
    if (st != TK_OK) {
        tk_profile_free(p);
        return st;
    }
    *out = p;
    return TK_OK;
}
