/* Latency accounting's partial results: merge two accountings, serialise one as bytes and back.
 * Exact: every duration is kept (the 16-bit ones as a histogram), so a merged accounting gives
 * the rows and totals of one run over all of its traces (tests/unit/test_latency_merge.c). */
#include <stdlib.h>
#include <string.h>

#include "analysis/latency_impl.h"
#include "core/alloc.h"
#include "core/bytes.h"

/* ---- merging ----------------------------------------------------------------------- */

/* What only a run uses (the tables from function ids to series and histograms, the call
 * stacks) goes; the totals stay in base. */
/* qsort of n items; none is no call (qsort's base must not be NULL, even for 0 items). */
static void sort_some(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1) qsort(base, n, size, cmp);
}

static void drop_run_state(tk_latency *l)
{
    tk_latency_totals t;
    tk_latency_get_totals(l, &t);
    l->base = t;
    tk_free(l->total.of);
    memset(&l->total, 0, sizeof l->total);
    for (uint32_t i = 0; i < l->nhists; i++) tk_free(l->hists[i].of);
    tk_free(l->hists);
    l->hists = NULL;
    l->nhists = 0;
    for (uint32_t i = 0; i < l->ndirect; i++) tk_free(l->direct[i].idx);
    tk_free(l->direct);
    l->direct = NULL;
    l->ndirect = 0;
    tk_hmap_free(&l->index);
    tk_callstacks_free(&l->stacks);
    tk_free(l->rows);
    l->rows = NULL;
    l->nrows = 0;
    l->merged = 1;
}

static int series_order(const void *a, const void *b)
{
    const series *x = a, *y = b;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

static void free_durations(series *s)
{
    tk_free(s->tiny);
    tk_free(s->hist);
    tk_free(s->small);
    tk_free(s->large);
}

/* Make s count its 16-bit durations in a histogram. -1 when out of memory. */
static int to_hist(series *s)
{
    if (s->hist) return 0;
    s->hist = tk_calloc(HIST_SLOTS, sizeof *s->hist);
    if (!s->hist) return -1;
    for (size_t i = 0; i < s->ntiny; i++) s->hist[s->tiny[i]]++;
    tk_free(s->tiny);
    s->tiny = NULL;
    s->ntiny = s->captiny = 0;
    return 0;
}

/* Append n values of size sz to *arr (holding *len of capacity *cap). -1 when out of memory. */
static int append(void **arr, size_t *len, size_t *cap, const void *v, size_t n, size_t sz)
{
    if (n == 0) return 0;
    if (*len + n > *cap) {
        size_t ncap = *cap < (1u << 20) ? *cap * 2 : *cap + *cap / 4;
        if (ncap < *len + n) ncap = *len + n;
        void *na = tk_reallocarray(*arr, ncap, sz);
        if (!na) return -1;
        *arr = na;
        *cap = ncap;
    }
    memcpy((char *)*arr + *len * sz, v, n * sz);
    *len += n;
    return 0;
}

/* Add s's durations and calls to d's. -1 when out of memory. */
static int absorb(series *d, const series *s)
{
    d->open += s->open;
    d->unwound += s->unwound;
    d->self = tk_latency_add_sat(d->self, series_self(s));
    if (d->hist || s->hist || d->ntiny + s->ntiny > HIST_AFTER) {
        if (to_hist(d) != 0) return -1;
        for (size_t i = 0; i < s->ntiny; i++) d->hist[s->tiny[i]]++;
        if (s->hist)
            for (uint32_t v = 0; v < 65536; v++) d->hist[v] += s->hist[v];
    } else if (append((void **)&d->tiny, &d->ntiny, &d->captiny, s->tiny, s->ntiny,
                      sizeof *s->tiny) != 0) {
        return -1;
    }
    if (append((void **)&d->small, &d->nsmall, &d->capsmall, s->small, s->nsmall,
               sizeof *s->small) != 0 ||
        append((void **)&d->large, &d->nlarge, &d->caplarge, s->large, s->nlarge,
               sizeof *s->large) != 0)
        return -1;
    return 0;
}

static void add_totals(tk_latency_totals *a, const tk_latency_totals *b)
{
    a->threads += b->threads;
    a->enters += b->enters;
    a->exits += b->exits;
    a->unmatched_exits += b->unmatched_exits;
    a->unwound += b->unwound;
    a->open_at_end += b->open_at_end;
    a->backwards += b->backwards;
    if (b->max_depth > a->max_depth) a->max_depth = b->max_depth;
    a->traces += b->traces;
}

/* from's threads after into's, their traces after into's (per-thread mode). -1 when out of
 * memory. */
static int merge_threads(tk_latency *into, const tk_latency *from)
{
    uint32_t a = into->base.threads, b = from->base.threads;
    if (!into->per_thread || !b) return 0;
    lat_thread *t = tk_reallocarray(into->threads, (size_t)a + b, sizeof *t);
    if (!t) return -1;
    if (!into->threads) /* a run that could not keep them (out of memory): no threads */
        for (uint32_t i = 0; i < a; i++) t[i] = (lat_thread){0, UINT32_MAX};
    into->threads = t;
    for (uint32_t i = 0; i < b; i++) {
        t[a + i].pid = from->threads ? from->threads[i].pid : 0;
        t[a + i].trace = from->threads && from->threads[i].trace != UINT32_MAX
                             ? from->threads[i].trace + into->base.traces
                             : UINT32_MAX;
    }
    return 0;
}

tk_status tk_latency_merge(tk_latency *into, tk_latency *from, tk_error *err)
{
    if (!into->per_thread != !from->per_thread)
        return tk_error_set(err, TK_ERR_ARG,
                            "merging a per-thread latency accounting with one "
                            "that is not");
    drop_run_state(into);
    drop_run_state(from);
    if (from->base.threads > UINT32_MAX - 1 - into->base.threads)
        return tk_error_set(err, TK_ERR_LIMIT,
                            "merging latencies of more than 2^32 - 1 "
                            "threads");
    if (from->base.traces > UINT32_MAX - 1 - into->base.traces)
        return tk_error_set(err, TK_ERR_LIMIT, "merging latencies of more than 2^32 - 1 traces");
    if (merge_threads(into, from) != 0)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory merging latencies");
    if (into->per_thread)
        for (size_t j = 0; j < from->nseries; j++) from->series[j].thread += into->base.threads;
    sort_some(into->series, into->nseries, sizeof *into->series, series_order);
    sort_some(from->series, from->nseries, sizeof *from->series, series_order);
    size_t cap = into->nseries + from->nseries;
    series *m = tk_calloc(cap ? cap : 1, sizeof *m);
    if (!m) return tk_error_set(err, TK_ERR_NOMEM, "out of memory merging latencies");
    size_t i = 0, j = 0, k = 0;
    int failed = 0;
    while (i < into->nseries || j < from->nseries) {
        int c = i == into->nseries   ? 1
                : j == from->nseries ? -1
                                     : series_order(&into->series[i], &from->series[j]);
        if (c < 0) {
            m[k++] = into->series[i++];
        } else if (c > 0) {
            m[k++] = from->series[j++];
        } else {
            m[k] = into->series[i++];
            failed |= absorb(&m[k++], &from->series[j]) != 0;
            free_durations(&from->series[j++]);
        }
    }
    tk_free(into->series);
    into->series = m;
    into->nseries = k;
    into->capseries = cap ? cap : 1;
    from->nseries = 0; /* its durations are into's now, or freed */
    add_totals(&into->base, &from->base);
    memset(&from->base, 0, sizeof from->base);
    if (failed) return tk_error_set(err, TK_ERR_NOMEM, "out of memory merging latencies");
    return TK_OK;
}

/* ---- serialising -------------------------------------------------------------------- */

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

static int cmp_u16(const void *a, const void *b)
{
    uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct durations of a series ascending, with their counts: counted (b NULL) or
 * written, each value as the difference from the previous one, then its count. */
typedef struct run_state {
    tk_bytes_out *b;
    uint64_t prev, v, c; /* the last value written; the run being counted (c 0: none) */
    size_t n;
} run_state;

static void run_flush(run_state *r)
{
    if (!r->c) return;
    if (r->b) {
        tk_bytes_put_u64(r->b, r->n ? r->v - r->prev : r->v);
        tk_bytes_put_u64(r->b, r->c);
    }
    r->prev = r->v;
    r->n++;
    r->c = 0;
}

static inline void run_add(run_state *r, uint64_t v, uint64_t count)
{
    if (r->c && v == r->v) {
        r->c += count;
        return;
    }
    run_flush(r);
    r->v = v;
    r->c = count;
}

/* s's arrays are sorted. */
static size_t runs(const series *s, tk_bytes_out *b)
{
    run_state r = {b, 0, 0, 0, 0};
    if (s->hist)
        for (uint32_t x = 0; x < 65536; x++)
            if (s->hist[x]) run_add(&r, x, s->hist[x]);
    for (size_t i = 0; i < s->ntiny; i++) run_add(&r, s->tiny[i], 1);
    for (size_t i = 0; i < s->nsmall; i++) run_add(&r, s->small[i], 1);
    for (size_t i = 0; i < s->nlarge; i++) run_add(&r, s->large[i], 1);
    run_flush(&r);
    return r.n;
}

static void put_series(tk_bytes_out *b, series *s, int per_thread)
{
    sort_some(s->tiny, s->ntiny, sizeof *s->tiny, cmp_u16);
    sort_some(s->small, s->nsmall, sizeof *s->small, cmp_u32);
    sort_some(s->large, s->nlarge, sizeof *s->large, cmp_u64);
    tk_bytes_put_u64(b, s->func);
    tk_bytes_put_u64(b, per_thread ? s->thread : 0);
    tk_bytes_put_u64(b, zigzag(s->pid));
    tk_bytes_put_u64(b, zigzag(s->tid));
    tk_bytes_put_u64(b, s->open);
    tk_bytes_put_u64(b, s->unwound);
    tk_bytes_put_u64(b, series_self(s));
    tk_bytes_put_u64(b, runs(s, NULL));
    runs(s, b);
}

/* ix sorted by the series' (thread, function): a merge sort (depth log n) over tmp. */
static void sort_indexes(size_t *ix, size_t *tmp, size_t n, const series *all)
{
    if (n < 2) return;
    size_t h = n / 2;
    sort_indexes(ix, tmp, h, all);
    sort_indexes(ix + h, tmp, n - h, all);
    size_t i = 0, j = h, k = 0;
    while (i < h || j < n) {
        int left = j == n || (i < h && series_order(&all[ix[i]], &all[ix[j]]) <= 0);
        tmp[k++] = left ? ix[i++] : ix[j++];
    }
    memcpy(ix, tmp, n * sizeof *ix);
}

tk_status tk_latency_serialize(tk_latency *l, uint8_t **data, size_t *size, tk_error *err)
{
    *data = NULL;
    *size = 0;
    size_t n = l->nseries;
    size_t *ix = tk_calloc(n ? 2 * n : 1, sizeof *ix);
    if (!ix) return tk_error_set(err, TK_ERR_NOMEM, "out of memory serialising latencies");
    for (size_t i = 0; i < n; i++) ix[i] = i;
    sort_indexes(ix, ix + n, n, l->series);
    tk_bytes_out b = {NULL, 0, 0, 0};
    tk_bytes_put(&b, "TKLAT\3", 6);
    tk_latency_totals t;
    tk_latency_get_totals(l, &t);
    tk_bytes_put_u64(&b, l->per_thread != 0);
    const uint64_t tv[9] = {t.threads,     t.enters,    t.exits,     t.unmatched_exits, t.unwound,
                            t.open_at_end, t.backwards, t.max_depth, t.traces};
    for (int i = 0; i < 9; i++) tk_bytes_put_u64(&b, tv[i]);
    for (uint32_t i = 0; l->per_thread && i < t.threads; i++) {
        const lat_thread *th = l->threads ? &l->threads[i] : NULL;
        int none = !th || th->trace == UINT32_MAX;
        tk_bytes_put_u64(&b, none ? 0 : zigzag(th->pid));
        tk_bytes_put_u64(&b, none ? 0 : (uint64_t)th->trace + 1);
    }
    tk_bytes_put_u64(&b, n);
    for (size_t i = 0; i < n; i++) put_series(&b, &l->series[ix[i]], l->per_thread);
    tk_free(ix);
    return tk_bytes_take(&b, data, size, "latencies", err);
}

/* ---- reading serialised bytes -------------------------------------------------------- */

typedef struct rd {
    const uint8_t *p;
    size_t pos, size;
    tk_error *err;
    tk_status st;
} rd;

static int rd_fail(rd *r, tk_status code, const char *what)
{
    if (r->st == TK_OK)
        r->st =
            tk_error_set_at(r->err, code, NULL, (int64_t)r->pos, 0, 0, "latency partial: %s", what);
    return -1;
}

static int get_u64(rd *r, uint64_t *v, const char *what)
{
    switch (tk_varint_get(r->p, r->size, &r->pos, v)) {
    case TK_VARINT_OK: return 0;
    case TK_VARINT_END: return rd_fail(r, TK_ERR_FORMAT, what);
    case TK_VARINT_OVER_64: return rd_fail(r, TK_ERR_FORMAT, "a number over 64 bits");
    case TK_VARINT_NOT_SHORTEST: break;
    }
    return rd_fail(r, TK_ERR_FORMAT, "a number not in its shortest form");
}

/* Add count durations of value v to s; *expanded counts those kept one by one. */
static int add_run(rd *r, series *s, uint64_t v, uint64_t count, uint64_t *expanded,
                   uint64_t max_calls)
{
    if (v <= UINT16_MAX) {
        if (s->hist || s->ntiny + count > HIST_AFTER) {
            if (!s->hist && HIST_AFTER > max_calls - *expanded) /* a histogram counts so */
                return rd_fail(r, TK_ERR_LIMIT, "more durations than the limit");
            if (!s->hist) *expanded += HIST_AFTER;
            if (to_hist(s) != 0) return rd_fail(r, TK_ERR_NOMEM, "out of memory");
            s->hist[v] += count;
            return 0;
        }
        uint16_t x = (uint16_t)v;
        for (uint64_t i = 0; i < count; i++)
            if (append((void **)&s->tiny, &s->ntiny, &s->captiny, &x, 1, sizeof x) != 0)
                return rd_fail(r, TK_ERR_NOMEM, "out of memory");
        return 0;
    }
    if (count > max_calls - *expanded)
        return rd_fail(r, TK_ERR_LIMIT, "more durations than the limit");
    *expanded += count;
    for (uint64_t i = 0; i < count; i++) {
        int bad = v <= UINT32_MAX
                      ? append((void **)&s->small, &s->nsmall, &s->capsmall,
                               &(uint32_t){(uint32_t)v}, 1, sizeof(uint32_t))
                      : append((void **)&s->large, &s->nlarge, &s->caplarge, &v, 1, sizeof v);
        if (bad) return rd_fail(r, TK_ERR_NOMEM, "out of memory");
    }
    return 0;
}

/* One series after its predecessor prev (NULL for the first). */
static int get_series(rd *r, tk_latency *l, series *s, const series *prev, uint64_t *expanded,
                      uint64_t max_calls)
{
    uint64_t thread, pid, tid, nruns;
    if (get_u64(r, &s->func, "a function id") || get_u64(r, &thread, "a thread index") ||
        get_u64(r, &pid, "a pid") || get_u64(r, &tid, "a tid") ||
        get_u64(r, &s->open, "a count of open calls") ||
        get_u64(r, &s->unwound, "a count of unwound calls") ||
        get_u64(r, &s->self, "a self time") || get_u64(r, &nruns, "a count of durations"))
        return -1;
    if (l->per_thread ? thread >= l->base.threads : thread != 0)
        return rd_fail(r, TK_ERR_FORMAT, "a thread index out of range");
    s->thread = l->per_thread ? (uint32_t)thread : UINT32_MAX;
    s->pid = (int64_t)(pid >> 1) ^ -(int64_t)(pid & 1);
    s->tid = (int64_t)(tid >> 1) ^ -(int64_t)(tid & 1);
    if (!l->per_thread && (s->pid || s->tid))
        return rd_fail(r, TK_ERR_FORMAT, "a pid or tid in an accounting without threads");
    if (prev && series_order(prev, s) >= 0)
        return rd_fail(r, TK_ERR_FORMAT, "series out of (thread, function) order");
    if (nruns > (r->size - r->pos) / 2)
        return rd_fail(r, TK_ERR_FORMAT, "more durations than bytes left");
    uint64_t v = 0, total = 0;
    for (uint64_t i = 0; i < nruns; i++) {
        uint64_t d, count;
        if (get_u64(r, &d, "a duration") || get_u64(r, &count, "a count of calls")) return -1;
        if ((i && d == 0) || d > UINT64_MAX - v)
            return rd_fail(r, TK_ERR_FORMAT, "durations not increasing");
        if (count == 0 || count > UINT64_MAX - total)
            return rd_fail(r, TK_ERR_FORMAT, "a count of calls of 0 or over 64 bits");
        v += d;
        total += count;
        if (add_run(r, s, v, count, expanded, max_calls) != 0) return -1;
    }
    return 0;
}

/* The threads of a per-thread accounting: pid and 1 + trace each (0 0: no thread). */
static int get_threads(rd *r, tk_latency *l)
{
    uint32_t n = l->base.threads;
    if (!l->per_thread || !n) return 0;
    if (n > (r->size - r->pos) / 2)
        return rd_fail(r, TK_ERR_FORMAT, "more threads than bytes left");
    l->threads = tk_malloc(n * sizeof *l->threads);
    if (!l->threads) return rd_fail(r, TK_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        uint64_t pid, trace;
        if (get_u64(r, &pid, "a thread's pid") || get_u64(r, &trace, "a thread's trace")) return -1;
        if (trace > l->base.traces)
            return rd_fail(r, TK_ERR_FORMAT, "a thread's trace out of range");
        if (!trace && pid) return rd_fail(r, TK_ERR_FORMAT, "a pid of no thread");
        l->threads[i].pid = (int64_t)(pid >> 1) ^ -(int64_t)(pid & 1);
        l->threads[i].trace = trace ? (uint32_t)(trace - 1) : UINT32_MAX;
    }
    return 0;
}

static int get_header(rd *r, tk_latency *l)
{
    if (r->size < 6 || memcmp(r->p, "TKLAT\3", 6) != 0)
        return rd_fail(r, TK_ERR_FORMAT, "no \"TKLAT\" 3 magic");
    r->pos = 6;
    uint64_t pt, tv[9];
    if (get_u64(r, &pt, "the per-thread flag")) return -1;
    if (pt > 1) return rd_fail(r, TK_ERR_FORMAT, "a per-thread flag other than 0 or 1");
    for (int i = 0; i < 9; i++)
        if (get_u64(r, &tv[i], "a total")) return -1;
    if (tv[0] > UINT32_MAX || tv[7] > UINT32_MAX || tv[8] >= UINT32_MAX)
        return rd_fail(r, TK_ERR_FORMAT, "a thread count, depth or trace count over 32 bits");
    l->per_thread = (int)pt;
    l->base = (tk_latency_totals){(uint32_t)tv[0], tv[1], tv[2],           tv[3],          tv[4],
                                  tv[5],           tv[6], (uint32_t)tv[7], (uint32_t)tv[8]};
    return get_threads(r, l);
}

tk_status tk_latency_deserialize(tk_latency **out, const uint8_t *data, size_t size,
                                 uint64_t max_calls, tk_error *err)
{
    *out = NULL;
    rd r = {data, 0, size, err, TK_OK};
    tk_latency *l = NULL;
    tk_status st = tk_latency_open(&l, 0, err);
    if (st != TK_OK) return st;
    l->merged = 1;
    uint64_t n, expanded = 0;
    if (get_header(&r, l) == 0 && get_u64(&r, &n, "a count of series") == 0) {
        if (n > (size - r.pos) / 7)
            rd_fail(&r, TK_ERR_FORMAT, "more series than bytes left");
        else if (!(l->series = tk_calloc(n ? n : 1, sizeof *l->series)))
            rd_fail(&r, TK_ERR_NOMEM, "out of memory");
        else
            l->capseries = n ? n : 1;
        for (uint64_t i = 0; r.st == TK_OK && i < n; i++) {
            l->nseries++;
            get_series(&r, l, &l->series[i], i ? &l->series[i - 1] : NULL, &expanded,
                       max_calls ? max_calls : (uint64_t)1 << 28);
        }
        if (r.st == TK_OK && r.pos != size)
            rd_fail(&r, TK_ERR_FORMAT, "bytes after the last series");
    }
    if (r.st != TK_OK) {
        tk_latency_free(l);
        return r.st;
    }
    *out = l;
    return TK_OK;
}
