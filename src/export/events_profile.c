/* Events stream -> profile: self time and calls per function, call arcs with inclusive time
 * and calls, aggregated in ticks and converted to nanoseconds once at the end. Every thread
 * gets a root function "thread TID" that calls the thread's outermost calls, so that viewers
 * that start a call tree at the functions nobody calls (speedscope, KCachegrind's call graph)
 * find every top-level function, also one whose only caller is itself (recursion). The
 * aggregation is a partial (tracekit/events_profile.h): tk_events_profile makes the partial of
 * its source, then the profile of the partial, as tracekit-mpi does of merged partials. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "export/events_profile_impl.h"
#include "model/events.h"
#include "model/profile.h"

#define ID_LIMIT TK_EP_ID_LIMIT
#define PART_LIMIT TK_EP_PART_LIMIT

/* ---- the tables ------------------------------------------------------------------------- */

static const uint8_t widths[TK_EP_TABLES] = {4, 6, 5}, nkeys[TK_EP_TABLES] = {2, 3, 2};

unsigned tk_ep_width(int table) { return widths[table]; }
unsigned tk_ep_nkey(int table) { return nkeys[table]; }

uint64_t tk_ep_key(int table, const uint64_t *k)
{
    if (table == TK_EP_ARCS) return k[0] << (2 * TK_EP_ID_BITS) | k[1] << TK_EP_ID_BITS | k[2];
    return k[0] << TK_EP_ID_BITS | k[1];
}

uint64_t *tk_ep_row(tk_ep_table *t, int table, const uint64_t *key)
{
    unsigned w = widths[table];
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&t->index, tk_ep_key(table, key), t->n, &inserted);
    if (!slot) return NULL;
    if (inserted) {
        if (t->n == t->cap) {
            size_t ncap = t->cap ? t->cap * 2 : 256;
            uint64_t *v = tk_reallocarray(t->v, ncap, w * sizeof *v);
            if (!v) return NULL;
            t->v = v;
            t->cap = ncap;
        }
        uint64_t *r = &t->v[t->n * w];
        memset(r, 0, w * sizeof *r);
        memcpy(r, key, nkeys[table] * sizeof *r);
        t->n++;
    }
    return &t->v[*slot * w];
}

static void table_free(tk_ep_table *t)
{
    tk_free(t->v);
    tk_hmap_free(&t->index);
    memset(t, 0, sizeof *t);
}

static char *copy_str(const char *s)
{
    size_t n = strlen(s);
    char *c = tk_malloc(n + 1);
    if (c) memcpy(c, s, n + 1);
    return c;
}

tk_events_profile_partial *tk_ep_new(int per_thread, double ticks_per_second, const char *time_unit)
{
    tk_events_profile_partial *p = tk_calloc(1, sizeof *p);
    if (!p) return NULL;
    p->per_thread = per_thread != 0;
    p->ticks_per_second = ticks_per_second;
    if (time_unit && !(p->time_unit = copy_str(time_unit))) {
        tk_free(p);
        return NULL;
    }
    return p;
}

static void functions_free(tk_ep_function *fns, uint32_t n)
{
    for (uint32_t i = 0; fns && i < n; i++) {
        tk_free(fns[i].name);
        tk_free(fns[i].file);
    }
    tk_free(fns);
}

void tk_events_profile_partial_free(tk_events_profile_partial *p)
{
    if (!p) return;
    tk_free(p->time_unit);
    tk_free(p->pids);
    tk_free(p->tids);
    tk_free(p->traces);
    functions_free(p->fns, p->nfns);
    for (int k = 0; k < TK_EP_TABLES; k++) table_free(&p->t[k]);
    tk_free(p);
}

/* ---- made of a source ------------------------------------------------------------------- */

typedef struct sub_stack {
    uint64_t *calls; /* per depth: calls made inside the frame so far */
    uint32_t cap;
} sub_stack;

typedef struct builder {
    int per_thread;
    tk_ep_table t[TK_EP_TABLES];
    int at_end; /* the calls still open at the end are closing: t[].end set */
    sub_stack *subs;
    uint32_t nsubs;
    int failed; /* TK_ERR_NOMEM or TK_ERR_LIMIT inside a callback */
} builder;

static void fail(builder *b, tk_status st)
{
    if (!b->failed) b->failed = st;
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
    builder *b = ctx;
    uint32_t part = b->per_thread ? t->index : 0;
    if (f->func >= ID_LIMIT || part >= PART_LIMIT) {
        fail(b, TK_ERR_LIMIT);
        return;
    }
    if (how == TK_CLOSE_AT_END && !b->at_end) { /* tk_callstacks_finish: after every event */
        b->at_end = 1;
        for (int k = 0; k < TK_EP_TABLES; k++) b->t[k].end = b->t[k].n;
    }
    uint64_t *sub = sub_slot(b, t->index, depth);
    uint64_t *s = tk_ep_row(&b->t[TK_EP_SELF], TK_EP_SELF, (const uint64_t[]){part, f->func});
    if (!sub || !s) {
        fail(b, TK_ERR_NOMEM);
        return;
    }
    s[2] += self;
    s[3]++;
    uint64_t subtree = *sub + 1;
    if (depth > 1) {
        uint64_t caller = t->frames[depth - 2].func;
        uint64_t *a = caller < ID_LIMIT ? tk_ep_row(&b->t[TK_EP_ARCS], TK_EP_ARCS,
                                                    (const uint64_t[]){part, caller, f->func})
                                        : NULL;
        uint64_t *parent = sub_slot(b, t->index, depth - 1);
        if (!a || !parent) {
            fail(b, caller < ID_LIMIT ? TK_ERR_NOMEM : TK_ERR_LIMIT);
            return;
        }
        a[3]++;
        a[4] += duration;
        a[5] += subtree;
        *parent += subtree;
    } else {
        uint64_t *r =
            tk_ep_row(&b->t[TK_EP_ROOTS], TK_EP_ROOTS, (const uint64_t[]){t->index, f->func});
        if (!r) {
            fail(b, TK_ERR_NOMEM);
            return;
        }
        r[2]++;
        r[3] += duration;
        r[4] += subtree;
    }
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* The functions of p's rows, named and located through src. */
static tk_status name_functions(tk_events_profile_partial *p, const tk_event_source *src)
{
    size_t n = p->t[TK_EP_SELF].n + 2 * p->t[TK_EP_ARCS].n + p->t[TK_EP_ROOTS].n;
    uint64_t *ids = tk_malloc((n ? n : 1) * sizeof *ids);
    if (!ids) return TK_ERR_NOMEM;
    size_t m = 0;
    for (int k = 0; k < TK_EP_TABLES; k++) {
        const tk_ep_table *t = &p->t[k];
        for (size_t i = 0; i < t->n; i++)
            for (unsigned c = 1; c < nkeys[k]; c++) ids[m++] = t->v[i * widths[k] + c];
    }
    if (m) qsort(ids, m, sizeof *ids, cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (!u || ids[u - 1] != ids[i]) ids[u++] = ids[i];
    p->fns = tk_calloc(u ? u : 1, sizeof *p->fns);
    tk_status st = p->fns ? TK_OK : TK_ERR_NOMEM;
    for (size_t i = 0; i < u && st == TK_OK; i++) {
        tk_ep_function *fn = &p->fns[p->nfns++];
        fn->id = ids[i];
        const char *file = NULL;
        uint32_t l = 0;
        if (src->location && !src->location(src->ctx, fn->id, &file, &l)) file = NULL;
        fn->line = file ? l : 0;
        char buf[64];
        if (!(fn->name = copy_str(tk_event_func_name(src, fn->id, buf, sizeof buf))) ||
            (file && !(fn->file = copy_str(file))))
            st = TK_ERR_NOMEM;
    }
    tk_free(ids);
    return st;
}

/* The threads of cs and the tables of b (given over) into p. */
static tk_status take_builder(tk_events_profile_partial *p, builder *b, const tk_callstacks *cs)
{
    for (int k = 0; k < TK_EP_TABLES; k++) {
        if (!b->at_end) b->t[k].end = b->t[k].n;
        tk_hmap_free(&b->t[k].index);
        p->t[k] = b->t[k];
        memset(&b->t[k], 0, sizeof b->t[k]);
    }
    p->nthreads = cs->nthreads;
    p->pids = tk_malloc((cs->nthreads ? cs->nthreads : 1) * sizeof *p->pids);
    p->tids = tk_malloc((cs->nthreads ? cs->nthreads : 1) * sizeof *p->tids);
    p->traces = tk_malloc((cs->nthreads ? cs->nthreads : 1) * sizeof *p->traces);
    if (!p->pids || !p->tids || !p->traces) return TK_ERR_NOMEM;
    for (uint32_t i = 0; i < cs->nthreads; i++) {
        p->pids[i] = cs->threads[i].pid;
        p->tids[i] = cs->threads[i].tid;
        p->traces[i] = cs->threads[i].events ? cs->threads[i].trace : UINT32_MAX;
    }
    return TK_OK;
}

tk_status tk_events_profile_partial_open(tk_events_profile_partial **out,
                                         const tk_event_source *src, int per_thread, tk_error *err)
{
    *out = NULL;
    builder b;
    memset(&b, 0, sizeof b);
    b.per_thread = per_thread != 0;
    tk_callstacks cs;
    tk_callstacks_init(&cs, on_open, on_close, &b);
    tk_status st = tk_callstacks_run(&cs, src, err);
    if (st == TK_OK && b.failed)
        st = b.failed == TK_ERR_LIMIT
                 ? tk_error_set(err, TK_ERR_LIMIT,
                                "function ids must be below 2^%d and threads "
                                "at most %u for a profile",
                                TK_EP_ID_BITS, PART_LIMIT)
                 : tk_error_set(err, TK_ERR_NOMEM, "out of memory aggregating the profile");
    tk_events_profile_partial *p = NULL;
    if (st == TK_OK && !(p = tk_ep_new(per_thread, src->ticks_per_second, src->time_unit)))
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (p) p->ntraces = (uint32_t)tk_event_source_traces(src);
    if (st == TK_OK && (take_builder(p, &b, &cs) != TK_OK || name_functions(p, src) != TK_OK))
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory aggregating the profile");
    tk_callstacks_free(&cs);
    for (uint32_t i = 0; i < b.nsubs; i++) tk_free(b.subs[i].calls);
    tk_free(b.subs);
    for (int k = 0; k < TK_EP_TABLES; k++) table_free(&b.t[k]);
    if (st != TK_OK) {
        tk_events_profile_partial_free(p);
        return st;
    }
    *out = p;
    return TK_OK;
}

/* ---- merged ----------------------------------------------------------------------------- */

/* Rows [from, to) of table `table` of later (its first cell offset by `offset`) added to out:
 * to the row of the same key, else as a new row. Rows of a part past the limit (limited)
 * only set *over. 0, or -1 out of memory. */
static int add_rows(int table, const tk_ep_table *rows, size_t from, size_t to, uint64_t offset,
                    int limited, tk_ep_table *out, int *over)
{
    unsigned w = widths[table], nk = nkeys[table];
    for (size_t i = from; i < to; i++) {
        const uint64_t *r = &rows->v[i * w];
        uint64_t key[3];
        memcpy(key, r, nk * sizeof *key);
        key[0] += offset;
        if (limited && key[0] >= PART_LIMIT) {
            *over = 1;
            continue;
        }
        uint64_t *x = tk_ep_row(out, table, key);
        if (!x) return -1;
        for (unsigned c = nk; c < w; c++) x[c] += r[c]; /* the chained source's sums, exactly */
    }
    return 0;
}

/* a's rows and b's (after a's threads), in the chained source's order: the rows made while
 * either was read first, a's then b's new ones; then those made by the calls still open at
 * the end, a's then b's, each not already there. */
static int merge_table(int table, const tk_ep_table *a, const tk_ep_table *b, uint64_t offset,
                       int per_thread, tk_ep_table *out, int *over)
{
    memset(out, 0, sizeof *out);
    uint64_t off = table == TK_EP_ROOTS || per_thread ? offset : 0;
    int limited = table != TK_EP_ROOTS && per_thread;
    int rc = add_rows(table, a, 0, a->end, 0, 0, out, over);
    if (rc == 0) rc = add_rows(table, b, 0, b->end, off, limited, out, over);
    out->end = out->n;
    if (rc == 0) rc = add_rows(table, a, a->end, a->n, 0, 0, out, over);
    if (rc == 0) rc = add_rows(table, b, b->end, b->n, off, limited, out, over);
    tk_hmap_free(&out->index);
    if (rc != 0) table_free(out);
    return rc;
}

/* The functions of a and b, ascending (a's where both have one), copies. */
static int merge_functions(const tk_events_profile_partial *a, const tk_events_profile_partial *b,
                           tk_ep_function **out, uint32_t *n)
{
    uint64_t cap = (uint64_t)a->nfns + b->nfns;
    tk_ep_function *v = tk_calloc(cap ? (size_t)cap : 1, sizeof *v);
    *out = v;
    *n = 0;
    if (!v) return -1;
    uint32_t i = 0, j = 0;
    while (i < a->nfns || j < b->nfns) {
        int from_a = j >= b->nfns || (i < a->nfns && a->fns[i].id <= b->fns[j].id);
        const tk_ep_function *f = from_a ? &a->fns[i] : &b->fns[j];
        if (from_a && j < b->nfns && b->fns[j].id == f->id) j++;
        if (from_a)
            i++;
        else
            j++;
        tk_ep_function *x = &v[(*n)++];
        x->id = f->id;
        x->line = f->line;
        if (!(x->name = copy_str(f->name)) || (f->file && !(x->file = copy_str(f->file))))
            return -1;
    }
    return 0;
}

tk_status tk_events_profile_partial_merge(tk_events_profile_partial *into,
                                          const tk_events_profile_partial *later, tk_error *err)
{
    if (into->per_thread != later->per_thread)
        return tk_error_set(err, TK_ERR_ARG, "events profile partials of another per_thread");
    if (!tk_event_same_clock(into->ticks_per_second, into->time_unit, later->ticks_per_second,
                             later->time_unit))
        return tk_error_set(err, TK_ERR_ARG,
                            "events profile partials of another clock (%.0f %s per second, "
                            "not %.0f %s)",
                            later->ticks_per_second, later->time_unit ? later->time_unit : "?",
                            into->ticks_per_second, into->time_unit ? into->time_unit : "?");
    uint64_t nthreads = (uint64_t)into->nthreads + later->nthreads;
    if ((uint64_t)into->ntraces + later->ntraces >= UINT32_MAX)
        return tk_error_set(err, TK_ERR_LIMIT, "events profile partials of more than %u traces",
                            UINT32_MAX - 1);
    if (nthreads > UINT32_MAX)
        return tk_error_set(err, TK_ERR_LIMIT, "more than %u threads in events profile partials",
                            UINT32_MAX);
    tk_ep_table t[TK_EP_TABLES];
    memset(t, 0, sizeof t);
    int over = into->over_limit || later->over_limit, rc = 0;
    for (int k = 0; k < TK_EP_TABLES && rc == 0; k++)
        rc = merge_table(k, &into->t[k], &later->t[k], into->nthreads, into->per_thread, &t[k],
                         &over);
    tk_ep_function *fns = NULL;
    uint32_t nfns = 0;
    if (rc == 0 && !over) rc = merge_functions(into, later, &fns, &nfns);
    int64_t *pids = tk_malloc((nthreads ? (size_t)nthreads : 1) * sizeof *pids);
    int64_t *tids = tk_malloc((nthreads ? (size_t)nthreads : 1) * sizeof *tids);
    uint32_t *traces = tk_malloc((nthreads ? (size_t)nthreads : 1) * sizeof *traces);
    if (rc != 0 || !pids || !tids || !traces) {
        for (int k = 0; k < TK_EP_TABLES; k++) table_free(&t[k]);
        functions_free(fns, nfns);
        tk_free(pids);
        tk_free(tids);
        tk_free(traces);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory merging events profiles");
    }
    if (into->nthreads) {
        memcpy(pids, into->pids, into->nthreads * sizeof *pids);
        memcpy(tids, into->tids, into->nthreads * sizeof *tids);
        memcpy(traces, into->traces, into->nthreads * sizeof *traces);
    }
    if (later->nthreads) {
        memcpy(pids + into->nthreads, later->pids, later->nthreads * sizeof *pids);
        memcpy(tids + into->nthreads, later->tids, later->nthreads * sizeof *tids);
    }
    for (uint32_t i = 0; i < later->nthreads; i++) /* later's traces come after into's */
        traces[into->nthreads + i] =
            later->traces[i] == UINT32_MAX ? UINT32_MAX : later->traces[i] + into->ntraces;
    for (int k = 0; k < TK_EP_TABLES; k++) {
        table_free(&into->t[k]);
        if (over) table_free(&t[k]); /* its profile is an error: nothing more to keep */
        into->t[k] = t[k];
    }
    functions_free(into->fns, into->nfns);
    into->fns = fns;
    into->nfns = nfns;
    tk_free(into->pids);
    tk_free(into->tids);
    tk_free(into->traces);
    into->pids = pids;
    into->tids = tids;
    into->traces = traces;
    into->ntraces += later->ntraces;
    into->nthreads = (uint32_t)nthreads;
    into->over_limit = over;
    return TK_OK;
}

/* ---- made into a profile ---------------------------------------------------------------- */

static uint64_t to_unit(uint64_t ticks, double scale)
{
    if (scale == 1.0) return ticks;
    double v = (double)ticks * scale + 0.5;
    return v < 1.8e19 ? (uint64_t)v : UINT64_MAX; /* saturate, never overflow */
}

static const tk_ep_function *function_at(const tk_events_profile_partial *pp, uint64_t func)
{
    uint32_t lo = 0, hi = pp->nfns;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pp->fns[mid].id < func)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < pp->nfns && pp->fns[lo].id == func ? &pp->fns[lo] : NULL;
}

/* The profile function of an event function id (interned on first use). */
static tk_status function_of(tk_profile *p, const tk_events_profile_partial *pp, uint32_t object,
                             uint32_t unknown_file, uint64_t func, tk_hmap *fn_of, uint32_t *fn,
                             uint32_t *line)
{
    uint64_t v;
    const tk_ep_function *f = function_at(pp, func);
    const char *file = f ? f->file : NULL;
    *line = file ? f->line : 0;
    if (tk_hmap_get(fn_of, func, &v)) {
        *fn = (uint32_t)v;
        return TK_OK;
    }
    char buf[64];
    const char *name = f ? f->name : buf;
    if (!f) snprintf(buf, sizeof buf, "#%" PRIu64, func);
    uint32_t name_id, file_id = unknown_file;
    tk_status st = tk_profile_intern(p, name, strlen(name), &name_id, NULL);
    if (st == TK_OK && file) st = tk_profile_intern(p, file, strlen(file), &file_id, NULL);
    if (st == TK_OK) st = tk_profile_function(p, object, file_id, name_id, fn, NULL);
    if (st == TK_OK && tk_hmap_put(fn_of, func, *fn) < 0) st = TK_ERR_NOMEM;
    return st;
}

/* The calls of every thread's root function "thread TID" (no cost of its own). */
static tk_status add_roots(const tk_events_profile_partial *pp, const int64_t *keys,
                           uint32_t object_id, uint32_t unknown_file, tk_hmap *fn_of, double scale,
                           tk_profile *p, tk_prof_part **parts)
{
    tk_status st = TK_OK;
    uint32_t root_fn = UINT32_MAX;
    uint64_t root_thread = UINT64_MAX;
    const tk_ep_table *t = &pp->t[TK_EP_ROOTS];
    for (size_t i = 0; i < t->n && st == TK_OK; i++) {
        const uint64_t *r = &t->v[i * widths[TK_EP_ROOTS]];
        if (r[0] != root_thread) {
            char name[64];
            uint32_t name_id;
            tk_thread_root_name(name, sizeof name, pp->ntraces, keys ? keys[r[0]] : 0,
                                pp->tids[r[0]]);
            st = tk_profile_intern(p, name, strlen(name), &name_id, NULL);
            if (st == TK_OK)
                st = tk_profile_function(p, object_id, unknown_file, name_id, &root_fn, NULL);
            if (st != TK_OK) break;
            root_thread = r[0];
        }
        tk_prof_call key;
        memset(&key, 0, sizeof key);
        uint32_t callee_line;
        key.fn = root_fn;
        key.file = unknown_file;
        st = function_of(p, pp, object_id, unknown_file, r[1], fn_of, &key.callee, &callee_line);
        key.target.line = callee_line;
        uint64_t incl[2] = {to_unit(r[3], scale), r[4]};
        if (st == TK_OK)
            st = tk_profile_add_call(p, parts[pp->per_thread ? r[0] : 0], &key, r[2], incl, NULL);
    }
    return st;
}

static tk_status build_profile(const tk_events_profile_partial *pp, const char *object,
                               tk_profile *p, tk_error *err)
{
    int have_clock = pp->ticks_per_second > 0;
    double scale = have_clock ? 1e9 / pp->ticks_per_second : 1.0;
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
    int64_t *keys = NULL; /* several traces: the threads' processes */
    if (pp->ntraces > 1) {
        keys = tk_malloc((pp->nthreads ? pp->nthreads : 1) * sizeof *keys);
        if (!keys) return tk_error_set(err, TK_ERR_NOMEM, "out of memory building the profile");
        st = tk_event_process_keys(pp->pids, pp->traces, pp->nthreads, keys, err);
        if (st != TK_OK) {
            tk_free(keys);
            return st;
        }
    }
    uint32_t nparts = pp->per_thread ? pp->nthreads : 1;
    tk_prof_part **parts = tk_calloc(nparts ? nparts : 1, sizeof *parts);
    if (!parts) {
        tk_free(keys);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory building the profile");
    }
    for (uint32_t i = 0; i < nparts && st == TK_OK; i++) {
        st = tk_profile_add_part(p, &parts[i], err);
        if (st == TK_OK && pp->per_thread) {
            parts[i]->has_thread = parts[i]->has_pid = 1;
            parts[i]->thread = (uint64_t)pp->tids[i];
            parts[i]->pid = (uint64_t)(keys ? keys[i] : pp->pids[i]);
        }
    }
    tk_hmap fn_of = TK_HMAP_INIT;
    const tk_ep_table *self = &pp->t[TK_EP_SELF], *arcs = &pp->t[TK_EP_ARCS];
    for (size_t i = 0; i < self->n && st == TK_OK; i++) {
        const uint64_t *s = &self->v[i * widths[TK_EP_SELF]];
        tk_prof_self key;
        memset(&key, 0, sizeof key);
        uint32_t line;
        st = function_of(p, pp, object_id, unknown_file, s[1], &fn_of, &key.fn, &line);
        if (st != TK_OK) break;
        key.file = tk_profile_function_at(p, key.fn)->file;
        key.pos.line = line;
        uint64_t costs[2] = {to_unit(s[2], scale), s[3]};
        st = tk_profile_add_self(p, parts[s[0]], &key, costs, err);
    }
    for (size_t i = 0; i < arcs->n && st == TK_OK; i++) {
        const uint64_t *a = &arcs->v[i * widths[TK_EP_ARCS]];
        tk_prof_call key;
        memset(&key, 0, sizeof key);
        uint32_t caller_line, callee_line;
        st = function_of(p, pp, object_id, unknown_file, a[1], &fn_of, &key.fn, &caller_line);
        if (st == TK_OK)
            st = function_of(p, pp, object_id, unknown_file, a[2], &fn_of, &key.callee,
                             &callee_line);
        if (st != TK_OK) break;
        key.file = tk_profile_function_at(p, key.fn)->file;
        key.pos.line = caller_line;
        key.target.line = callee_line;
        uint64_t incl[2] = {to_unit(a[4], scale), a[5]};
        st = tk_profile_add_call(p, parts[a[0]], &key, a[3], incl, err);
    }
    if (st == TK_OK) st = add_roots(pp, keys, object_id, unknown_file, &fn_of, scale, p, parts);
    for (uint32_t i = 0; i < nparts && st == TK_OK; i++)
        st = tk_profile_part_fill_totals(p, parts[i], err);
    tk_hmap_free(&fn_of);
    tk_free(parts);
    tk_free(keys);
    if (st != TK_OK && !err->message[0])
        tk_error_set(err, st, "cannot build the profile (%s)", tk_status_name(st));
    return st;
}

tk_status tk_events_profile_partial_profile(const tk_events_profile_partial *pp, const char *object,
                                            tk_profile **out, tk_error *err)
{
    *out = NULL;
    if (pp->over_limit)
        return tk_error_set(err, TK_ERR_LIMIT,
                            "function ids must be below 2^%d and threads at most %u for a profile",
                            TK_EP_ID_BITS, PART_LIMIT);
    tk_error local;
    if (!err) {
        tk_error_clear(&local);
        err = &local;
    }
    tk_profile *p = NULL;
    if (tk_profile_open(&p, err) != TK_OK) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_status st = build_profile(pp, object, p, err);
    if (st != TK_OK) {
        tk_profile_free(p);
        return st;
    }
    *out = p;
    return TK_OK;
}

tk_status tk_events_profile(const tk_event_source *src, const char *object, int per_thread,
                            tk_profile **out, tk_error *err)
{
    *out = NULL;
    tk_events_profile_partial *pp = NULL;
    tk_status st = tk_events_profile_partial_open(&pp, src, per_thread, err);
    if (st == TK_OK) st = tk_events_profile_partial_profile(pp, object, out, err);
    tk_events_profile_partial_free(pp);
    return st;
}
