/* Latency accounting: exact per-function duration statistics from rebuilt call stacks. */
#include "tracekit/latency.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "model/events.h"
#include "analysis/latency_impl.h"

tk_status tk_latency_open(tk_latency **out, int per_thread, tk_error *err)
{
    tk_latency *l = *out = tk_calloc(1, sizeof *l);
    if (!l) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    l->per_thread = per_thread;
    return TK_OK;
}

void tk_latency_free(tk_latency *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->nseries; i++) {
        tk_free(l->series[i].tiny);
        tk_free(l->series[i].hist);
        tk_free(l->series[i].small);
        tk_free(l->series[i].large);
    }
    tk_free(l->series);
    tk_free(l->total.of);
    for (uint32_t i = 0; i < l->nhists; i++) tk_free(l->hists[i].of);
    tk_free(l->hists);
    for (uint32_t i = 0; i < l->ndirect; i++) tk_free(l->direct[i].idx);
    tk_free(l->direct);
    tk_free(l->rows);
    tk_free(l->threads);
    tk_hmap_free(&l->index);
    tk_callstacks_free(&l->stacks);
    tk_free(l);
}

static series *new_series(tk_latency *l, const tk_stack_thread *t, uint64_t func)
{
    if (l->nseries == l->capseries) {
        size_t ncap = l->capseries ? l->capseries * 2 : 64;
        series *ns = tk_reallocarray(l->series, ncap, sizeof *ns);
        if (!ns) return NULL;
        l->series = ns;
        l->capseries = ncap;
    }
    series *s = &l->series[l->nseries++];
    memset(s, 0, sizeof *s);
    s->func = func;
    s->thread = l->per_thread ? t->index : UINT32_MAX;
    s->pid = l->per_thread ? t->pid : 0;
    s->tid = l->per_thread ? t->tid : 0;
    return s;
}

static series *series_slow(tk_latency *l, const tk_stack_thread *t, uint64_t func)
{
    uint64_t key = l->per_thread ? ((uint64_t)t->index << 40) ^ func : func;
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&l->index, key, l->nseries, &inserted);
    if (!slot) return NULL;
    if (!inserted) return &l->series[*slot];
    return new_series(l, t, func);
}

static series *series_lookup(tk_latency *l, const tk_stack_thread *t, uint64_t func);

static inline series *series_for(tk_latency *l, const tk_stack_thread *t, uint64_t func)
{
    uint32_t slot = l->per_thread ? t->index : 0;
    if (slot < l->ndirect) {
        const direct_table *d = &l->direct[slot];
        if (func < d->cap && d->idx[func]) return &l->series[d->idx[func] - 1];
    }
    return series_lookup(l, t, func);
}

static series *series_lookup(tk_latency *l, const tk_stack_thread *t, uint64_t func)
{
    if (func >= DIRECT_MAX) return series_slow(l, t, func);
    uint32_t slot = l->per_thread ? t->index : 0;
    if (slot >= l->ndirect) {
        direct_table *nd = tk_reallocarray(l->direct, slot + 1, sizeof *nd);
        if (!nd) return NULL;
        memset(nd + l->ndirect, 0, (slot + 1 - l->ndirect) * sizeof *nd);
        l->direct = nd;
        l->ndirect = slot + 1;
    }
    direct_table *d = &l->direct[slot];
    if (func >= d->cap) {
        uint32_t ncap = d->cap ? d->cap : 256;
        while (ncap <= func) ncap *= 2;
        uint32_t *ni = tk_reallocarray(d->idx, ncap, sizeof *ni);
        if (!ni) return NULL;
        memset(ni + d->cap, 0, (size_t)(ncap - d->cap) * sizeof *ni);
        d->idx = ni;
        d->cap = ncap;
    }
    if (d->idx[func]) return &l->series[d->idx[func] - 1];
    series *s = new_series(l, t, func);
    if (s) d->idx[func] = (uint32_t)l->nseries;
    return s;
}

/* Growth of the duration arrays: doubling while small, +25% when large (realloc of a large
 * block moves pages, not bytes), so the slack stays a quarter of the data. */
static size_t grow_cap(size_t cap, size_t min)
{
    size_t ncap = cap < (1u << 20) ? cap * 2 : cap + cap / 4;
    return ncap < min ? min : ncap;
}


static int add_duration_slow(series *s, uint64_t d)
{
    if (d <= UINT16_MAX && !s->hist && s->ntiny >= HIST_AFTER) {
        uint64_t *h = tk_calloc(HIST_SLOTS, sizeof *h);
        if (!h) return -1;
        for (size_t i = 0; i < s->ntiny; i++) h[s->tiny[i]]++;
        tk_free(s->tiny);
        s->tiny = NULL;
        s->ntiny = s->captiny = 0;
        s->hist = h;
        h[d]++;
        return 1;
    }
    if (d <= UINT16_MAX && s->hist) {
        s->hist[d]++;
    } else if (d <= UINT16_MAX) {
        if (s->ntiny == s->captiny) {
            size_t ncap = grow_cap(s->captiny, 16);
            uint16_t *n = tk_reallocarray(s->tiny, ncap, sizeof *n);
            if (!n) return -1;
            s->tiny = n;
            s->captiny = ncap;
        }
        s->tiny[s->ntiny++] = (uint16_t)d;
    } else if (d <= UINT32_MAX) {
        if (s->nsmall == s->capsmall) {
            size_t ncap = grow_cap(s->capsmall, 16);
            uint32_t *n = tk_reallocarray(s->small, ncap, sizeof *n);
            if (!n) return -1;
            s->small = n;
            s->capsmall = ncap;
        }
        s->small[s->nsmall++] = (uint32_t)d;
    } else {
        if (s->nlarge == s->caplarge) {
            size_t ncap = grow_cap(s->caplarge, 4);
            uint64_t *n = tk_reallocarray(s->large, ncap, sizeof *n);
            if (!n) return -1;
            s->large = n;
            s->caplarge = ncap;
        }
        s->large[s->nlarge++] = d;
    }
    return 0;
}

static inline int add_duration(series *s, uint64_t d)
{
    if (d <= UINT16_MAX) {
        if (s->hist) {
            s->hist[d]++;
            return 0;
        }
        if (s->ntiny < s->captiny) {
            s->tiny[s->ntiny++] = (uint16_t)d;
            return 0;
        }
    }
    return add_duration_slow(s, d); /* sum, min and max are computed at the end */
}

/* Make a function's histogram reachable from its id alone (when that fails, the slower path
 * still works). */
static void register_hist(tk_latency *l, uint32_t slot, uint64_t func, uint64_t *h)
{
    if (func >= DIRECT_MAX) return;
    if (l->per_thread && slot >= l->nhists) {
        hist_table *nh = tk_reallocarray(l->hists, slot + 1, sizeof *nh);
        if (!nh) return;
        memset(nh + l->nhists, 0, (slot + 1 - l->nhists) * sizeof *nh);
        l->hists = nh;
        l->nhists = slot + 1;
    }
    hist_table *ht = l->per_thread ? &l->hists[slot] : &l->total;
    if (func >= ht->cap) {
        uint32_t ncap = ht->cap ? ht->cap : 256;
        while (ncap <= func) ncap *= 2;
        uint64_t **n = tk_reallocarray(ht->of, ncap, sizeof *n);
        if (!n) return;
        memset(n + ht->cap, 0, (ncap - ht->cap) * sizeof *n);
        ht->of = n;
        ht->cap = ncap;
    }
    ht->of[func] = h;
}

/* A call ended; per_thread is l->per_thread as a constant. Self time is taken from f->child
 * here (the self argument of the callbacks is not used: in the common case below it costs one
 * subtraction and the compiler drops the stacks' own saturating one). */
static inline __attribute__((always_inline)) void close_call(tk_latency *l,
                                                             const tk_stack_thread *t,
                                                             const tk_frame *f, uint64_t duration,
                                                             tk_close_how how, const int per_thread)
{
    uint64_t func = f->func, child = f->child, self = duration - child;
    uint32_t slot = per_thread ? t->index : 0;
    if (how == TK_CLOSE_MATCHED && duration <= UINT16_MAX && child <= duration &&
        (!per_thread || slot < l->nhists)) {
        const hist_table *ht = per_thread ? &l->hists[slot] : &l->total;
        if (func < ht->cap && ht->of[func]) { /* the common case of a long trace: one count */
            uint64_t *h = ht->of[func];
            h[duration]++;
            h[HIST_SELF] += self; /* < 2^16 a call: wraps no sooner than its count h[d] */
            return;
        }
    }
    if (child > duration) self = 0; /* callees took longer (a clock that went back) */
    series *s = series_for(l, t, func);
    if (!s) {
        l->failed = 1;
        return;
    }
    if (how == TK_CLOSE_AT_END) {
        s->open++;
        return;
    }
    if (how == TK_CLOSE_UNWOUND) s->unwound++;
    s->self = tk_latency_add_sat(s->self, self);
    int added = add_duration(s, duration);
    if (added < 0)
        l->failed = 1;
    else if (added > 0)
        register_hist(l, slot, func, s->hist);
}

static inline __attribute__((always_inline)) void
on_close_total(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth, uint64_t end,
               uint64_t duration, uint64_t self, tk_close_how how)
{
    (void)depth;
    (void)end;
    (void)self;
    close_call(ctx, t, f, duration, how, 0);
}

static inline __attribute__((always_inline)) void
on_close_per_thread(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth,
                    uint64_t end, uint64_t duration, uint64_t self, tk_close_how how)
{
    (void)depth;
    (void)end;
    (void)self;
    close_call(ctx, t, f, duration, how, 1);
}

/* Every thread index's pid and trace, from the stacks of a run (per-thread mode): each thread
 * that had an event, also one without a call, names its process as Chrome's does. -1 when out
 * of memory. */
static int keep_threads(tk_latency *l)
{
    if (!l->per_thread) return 0;
    uint32_t n = l->stacks.nthreads;
    lat_thread *t = tk_reallocarray(l->threads, n ? n : 1, sizeof *t);
    if (!t) return -1;
    l->threads = t;
    for (uint32_t i = 0; i < n; i++) {
        const tk_stack_thread *s = &l->stacks.threads[i];
        t[i].pid = s->events ? s->pid : 0;
        t[i].trace = s->events ? s->trace : UINT32_MAX;
    }
    return 0;
}

tk_status tk_latency_run(tk_latency *l, const tk_event_source *src, tk_error *err)
{
    const unsigned promises = TK_FEED_NO_PATHS | TK_FEED_NO_OPEN;
    if (l->merged)
        return tk_error_set(err, TK_ERR_ARG, "a merged latency accounting cannot run again");
    tk_status st;
    if (l->per_thread) {
        tk_callstacks_init(&l->stacks, NULL, on_close_per_thread, l);
        st = tk_callstacks_run_with(&l->stacks, src, on_close_per_thread, l, promises, err);
    } else {
        tk_callstacks_init(&l->stacks, NULL, on_close_total, l);
        st = tk_callstacks_run_with(&l->stacks, src, on_close_total, l, promises, err);
    }
    if (st == TK_OK && l->failed)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory recording call durations");
    l->base.traces = (uint32_t)tk_event_source_traces(src);
    if (keep_threads(l) != 0 && st == TK_OK) /* a failed run's too: its threads are counted */
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory recording threads");
    return st;
}

/* k-th smallest (0-based) of v[0..n) by quickselect with a three-way partition (many calls have
 * equal durations); reorders v. */
#define DEFINE_SELECT(name, T) \
    static T name(T *v, size_t from, size_t n, size_t k) \
    { \
        size_t lo = from, hi = n - 1; \
        while (lo < hi) { \
            T a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi]; \
            T pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b)); \
            size_t lt = lo, i = lo, gt = hi + 1; \
            while (i < gt) { \
                T x = v[i]; \
                if (x < pivot) { \
                    v[i++] = v[lt]; \
                    v[lt++] = x; \
                } else if (x > pivot) { \
                    v[i] = v[--gt]; \
                    v[gt] = x; \
                } else { \
                    i++; \
                } \
            } \
            if (k < lt) \
                hi = lt - 1; \
            else if (k >= gt) \
                lo = gt; \
            else \
                return pivot; \
        } \
        return v[k]; \
    }

DEFINE_SELECT(select_u16, uint16_t)
DEFINE_SELECT(select_u32, uint32_t)
DEFINE_SELECT(select_u64, uint64_t)

/* The k-th smallest duration. Called with growing k: each selection leaves v[0..k) <= v[k] <=
 * v(k..n), so the next one only searches from the previous k on. */
typedef struct select_state {
    size_t from_tiny, from_small, from_large;
} select_state;

static uint64_t kth(series *s, size_t k, select_state *st)
{
    if (k < s->ntiny) {
        uint16_t v = select_u16(s->tiny, st->from_tiny, s->ntiny, k);
        st->from_tiny = k;
        return v;
    }
    k -= s->ntiny;
    if (k < s->nsmall) {
        uint32_t v = select_u32(s->small, st->from_small, s->nsmall, k);
        st->from_small = k;
        return v;
    }
    k -= s->nsmall;
    uint64_t v = select_u64(s->large, st->from_large, s->nlarge, k);
    st->from_large = k;
    return v;
}

/* Sum, min and max of the durations of a series, one pass per size class; the classes are
 * ordered, so the min is in the first non-empty one and the max in the last. With tiny_done
 * the 16-bit class is already in *sum, *min, *max (from the histogram). */
static void totals(const series *s, int tiny_done, uint64_t *sum, uint64_t *min, uint64_t *max)
{
    uint64_t t = *sum, lo = *min, hi = *max;
    if (!tiny_done && s->ntiny) {
        uint16_t lo16 = UINT16_MAX, hi16 = 0;
        for (size_t i = 0; i < s->ntiny; i++) {
            uint16_t v = s->tiny[i];
            t += v;
            lo16 = v < lo16 ? v : lo16;
            hi16 = v > hi16 ? v : hi16;
        }
        lo = lo16;
        hi = hi16;
    }
    if (s->nsmall) {
        uint32_t lo32 = UINT32_MAX, hi32 = 0;
        for (size_t i = 0; i < s->nsmall; i++) {
            uint32_t v = s->small[i];
            t += v;
            lo32 = v < lo32 ? v : lo32;
            hi32 = v > hi32 ? v : hi32;
        }
        lo = lo < lo32 ? lo : lo32;
        hi = hi32;
    }
    for (size_t i = 0; i < s->nlarge; i++) {
        uint64_t v = s->large[i];
        t += v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    *sum = t;
    *min = lo;
    *max = hi;
}

/* Number of 16-bit durations of a series. */
static uint64_t tiny_count(const series *s)
{
    if (!s->hist) return s->ntiny;
    uint64_t n = 0;
    for (uint32_t v = 0; v < 65536; v++) n += s->hist[v];
    return n;
}

/* Values of the sorted durations at three increasing ranks, and their sum, min and max. The
 * 16-bit durations are ranked with a histogram (the series' own, or scratch filled in one pass
 * when the array is long), the rest by selection. ntiny: tiny_count(s). scratch: 65536
 * counters or NULL. */
static void quantiles(series *s, uint64_t ntiny, const size_t ranks[3], uint64_t out[3],
                      uint64_t *scratch, uint64_t *sum, uint64_t *min, uint64_t *max)
{
    int j = 0, tiny_done = 0;
    *sum = 0;
    *min = UINT64_MAX;
    *max = 0;
    const uint64_t *h = s->hist;
    if (!h && scratch && s->ntiny >= 8192) {
        memset(scratch, 0, 65536 * sizeof *scratch);
        for (size_t i = 0; i < s->ntiny; i++) scratch[s->tiny[i]]++;
        h = scratch;
    }
    if (h && ntiny) {
        uint32_t lo = 0, hi = 65535;
        while (!h[lo]) lo++;
        while (!h[hi]) hi--;
        uint64_t t = 0, cum = 0;
        for (uint32_t v = lo; v <= hi; v++) {
            t += h[v] * v;
            cum += h[v];
            while (j < 3 && ranks[j] < cum) out[j++] = v;
        }
        *sum = t;
        *min = lo;
        *max = hi;
        tiny_done = 1;
    }
    totals(s, tiny_done, sum, min, max);
    /* the ranks left are beyond the histogram's durations: select among the arrays (the
     * series' own histogram holds durations that are in no array) */
    uint64_t skip = s->hist ? ntiny : 0;
    select_state sel = {0, 0, 0};
    for (; j < 3; j++) out[j] = kth(s, (size_t)(ranks[j] - skip), &sel);
}

static int by_key(const void *a, const void *b)
{
    const tk_latency_row *x = a, *y = b;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

/* The trace and process key of each per-thread row (after the rows are made). */
static tk_status row_processes(tk_latency *l, tk_error *err)
{
    tk_latency_totals t;
    tk_latency_get_totals(l, &t);
    if (!l->per_thread || !l->threads || !t.threads) return TK_OK;
    int64_t *pids = tk_malloc(t.threads * sizeof *pids), *keys = NULL;
    uint32_t *traces = pids ? tk_malloc(t.threads * sizeof *traces) : NULL;
    keys = traces ? tk_malloc(t.threads * sizeof *keys) : NULL;
    tk_status st = keys ? TK_OK : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; st == TK_OK && i < t.threads; i++) {
        pids[i] = l->threads[i].pid;
        traces[i] = l->threads[i].trace;
    }
    if (st == TK_OK) st = tk_event_process_keys(pids, traces, t.threads, keys, err);
    for (size_t i = 0; st == TK_OK && i < l->nrows; i++) {
        tk_latency_row *r = &l->rows[i];
        if (r->thread >= t.threads) continue;
        r->trace = traces[r->thread] == UINT32_MAX ? 0 : traces[r->thread];
        r->process = keys[r->thread];
    }
    tk_free(pids);
    tk_free(traces);
    tk_free(keys);
    return st;
}

tk_status tk_latency_rows(tk_latency *l, const tk_latency_row **rows, size_t *count, tk_error *err)
{
    if (!l->rows) {
        l->rows = tk_calloc(l->nseries ? l->nseries : 1, sizeof *l->rows);
        if (!l->rows) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        l->nrows = 0;
        uint64_t *hist = tk_malloc(65536 * sizeof *hist); /* NULL: selection only */
        for (size_t i = 0; i < l->nseries; i++) {
            series *s = &l->series[i];
            tk_latency_row *r = &l->rows[l->nrows++];
            r->func = s->func;
            r->thread = s->thread;
            r->pid = s->pid;
            r->tid = s->tid;
            r->open = s->open;
            r->unwound = s->unwound;
            r->self = series_self(s);
            uint64_t ntiny = tiny_count(s);
            size_t n = (size_t)ntiny + s->nsmall + s->nlarge;
            r->count = n;
            if (n == 0) continue;
            size_t ranks[3] = {n / 2, (size_t)floor((double)n * 0.9),
                               (size_t)floor((double)n * 0.99)};
            uint64_t q[3];
            quantiles(s, ntiny, ranks, q, hist, &r->sum, &r->min, &r->max);
            r->median = q[0];
            r->p90 = q[1];
            r->p99 = q[2];
        }
        tk_free(hist);
        qsort(l->rows, l->nrows, sizeof *l->rows, by_key);
        tk_status st = row_processes(l, err);
        if (st != TK_OK) {
            tk_free(l->rows);
            l->rows = NULL;
            l->nrows = 0;
            return st;
        }
    }
    *rows = l->rows;
    *count = l->nrows;
    return TK_OK;
}

void tk_latency_get_totals(const tk_latency *l, tk_latency_totals *out)
{
    *out = l->base;
    out->threads += l->stacks.nthreads;
    for (uint32_t i = 0; i < l->stacks.nthreads; i++) {
        const tk_stack_thread *t = &l->stacks.threads[i];
        out->enters += t->enters;
        out->exits += t->exits;
        out->unmatched_exits += t->unmatched_exits;
        out->unwound += t->unwound;
        out->open_at_end += t->open_at_end;
        out->backwards += t->backwards;
        if (t->max_depth > out->max_depth) out->max_depth = t->max_depth;
    }
}
