/* Latency accounting: exact per-function duration statistics from rebuilt call stacks. */
#include "tracekit/latency.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "model/events.h"

typedef struct series {
    uint64_t func;
    uint32_t thread;
    int64_t pid, tid;
    uint32_t *small; /* durations below 2^32 */
    size_t nsmall, capsmall;
    uint64_t *large; /* the rest */
    size_t nlarge, caplarge;
    uint64_t sum, min, max;
    uint64_t open, unwound;
} series;

struct tk_latency {
    int per_thread;
    tk_callstacks stacks;
    tk_hmap index; /* key -> series index */
    series *series;
    size_t nseries, capseries;
    int failed;    /* out of memory inside a callback */
    tk_latency_row *rows;
    size_t nrows;
};

tk_latency *tk_latency_new(int per_thread)
{
    tk_latency *l = tk_calloc(1, sizeof *l);
    if (l)
        l->per_thread = per_thread;
    return l;
}

void tk_latency_free(tk_latency *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->nseries; i++) {
        tk_free(l->series[i].small);
        tk_free(l->series[i].large);
    }
    tk_free(l->series);
    tk_free(l->rows);
    tk_hmap_free(&l->index);
    tk_callstacks_free(&l->stacks);
    tk_free(l);
}

static series *series_for(tk_latency *l, const tk_stack_thread *t, uint64_t func)
{
    uint64_t key = l->per_thread ? ((uint64_t)t->index << 40) ^ func : func;
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&l->index, key, l->nseries, &inserted);
    if (!slot)
        return NULL;
    if (!inserted)
        return &l->series[*slot];
    if (l->nseries == l->capseries) {
        size_t ncap = l->capseries ? l->capseries * 2 : 64;
        series *ns = tk_reallocarray(l->series, ncap, sizeof *ns);
        if (!ns)
            return NULL;
        l->series = ns;
        l->capseries = ncap;
    }
    series *s = &l->series[l->nseries++];
    memset(s, 0, sizeof *s);
    s->func = func;
    s->thread = l->per_thread ? t->index : UINT32_MAX;
    s->pid = l->per_thread ? t->pid : 0;
    s->tid = l->per_thread ? t->tid : 0;
    s->min = UINT64_MAX;
    return s;
}

static int add_duration(series *s, uint64_t d)
{
    if (d <= UINT32_MAX) {
        if (s->nsmall == s->capsmall) {
            size_t ncap = s->capsmall ? s->capsmall * 2 : 16;
            uint32_t *n = tk_reallocarray(s->small, ncap, sizeof *n);
            if (!n)
                return -1;
            s->small = n;
            s->capsmall = ncap;
        }
        s->small[s->nsmall++] = (uint32_t)d;
    } else {
        if (s->nlarge == s->caplarge) {
            size_t ncap = s->caplarge ? s->caplarge * 2 : 4;
            uint64_t *n = tk_reallocarray(s->large, ncap, sizeof *n);
            if (!n)
                return -1;
            s->large = n;
            s->caplarge = ncap;
        }
        s->large[s->nlarge++] = d;
    }
    s->sum += d;
    if (d < s->min)
        s->min = d;
    if (d > s->max)
        s->max = d;
    return 0;
}

static void on_close(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth,
                     uint64_t end, uint64_t duration, uint64_t self, tk_close_how how)
{
    (void)depth;
    (void)end;
    (void)self;
    tk_latency *l = ctx;
    series *s = series_for(l, t, f->func);
    if (!s) {
        l->failed = 1;
        return;
    }
    if (how == TK_CLOSE_AT_END) {
        s->open++;
        return;
    }
    if (how == TK_CLOSE_UNWOUND)
        s->unwound++;
    if (add_duration(s, duration) < 0)
        l->failed = 1;
}

tk_status tk_latency_run(tk_latency *l, const tk_event_source *src, tk_error *err)
{
    tk_callstacks_init(&l->stacks, NULL, on_close, l);
    tk_status st = tk_callstacks_run(&l->stacks, src, err);
    if (st == TK_OK && l->failed)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory recording call durations");
    return st;
}

/* k-th smallest (0-based) of v[0..n) by quickselect with a three-way partition (many calls have
 * equal durations); reorders v. */
#define DEFINE_SELECT(name, T)                                                        \
    static T name(T *v, size_t n, size_t k)                                           \
    {                                                                                 \
        size_t lo = 0, hi = n - 1;                                                    \
        while (lo < hi) {                                                             \
            T a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi];                        \
            T pivot = a < b ? (b < c ? b : (a < c ? c : a))                           \
                            : (a < c ? a : (b < c ? c : b));                          \
            size_t lt = lo, i = lo, gt = hi + 1;                                      \
            while (i < gt) {                                                          \
                T x = v[i];                                                           \
                if (x < pivot) {                                                      \
                    v[i++] = v[lt];                                                   \
                    v[lt++] = x;                                                      \
                } else if (x > pivot) {                                               \
                    v[i] = v[--gt];                                                   \
                    v[gt] = x;                                                        \
                } else {                                                              \
                    i++;                                                              \
                }                                                                     \
            }                                                                         \
            if (k < lt)                                                               \
                hi = lt - 1;                                                          \
            else if (k >= gt)                                                         \
                lo = gt;                                                              \
            else                                                                      \
                return pivot;                                                         \
        }                                                                             \
        return v[k];                                                                  \
    }

DEFINE_SELECT(select_u32, uint32_t)
DEFINE_SELECT(select_u64, uint64_t)

static uint64_t kth(series *s, size_t k)
{
    if (k < s->nsmall)
        return select_u32(s->small, s->nsmall, k);
    return select_u64(s->large, s->nlarge, k - s->nsmall);
}

static int by_key(const void *a, const void *b)
{
    const tk_latency_row *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

tk_status tk_latency_rows(tk_latency *l, const tk_latency_row **rows, size_t *count,
                          tk_error *err)
{
    if (!l->rows) {
        l->rows = tk_calloc(l->nseries ? l->nseries : 1, sizeof *l->rows);
        if (!l->rows)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        l->nrows = 0;
        for (size_t i = 0; i < l->nseries; i++) {
            series *s = &l->series[i];
            tk_latency_row *r = &l->rows[l->nrows++];
            r->func = s->func;
            r->thread = s->thread;
            r->pid = s->pid;
            r->tid = s->tid;
            r->open = s->open;
            r->unwound = s->unwound;
            size_t n = s->nsmall + s->nlarge;
            r->count = n;
            if (n == 0)
                continue;
            r->min = s->min;
            r->max = s->max;
            r->sum = s->sum;
            r->median = kth(s, n / 2);
            r->p90 = kth(s, (size_t)floor((double)n * 0.9));
            r->p99 = kth(s, (size_t)floor((double)n * 0.99));
        }
        qsort(l->rows, l->nrows, sizeof *l->rows, by_key);
    }
    *rows = l->rows;
    *count = l->nrows;
    return TK_OK;
}

void tk_latency_get_totals(const tk_latency *l, tk_latency_totals *out)
{
    memset(out, 0, sizeof *out);
    out->threads = l->stacks.nthreads;
    for (uint32_t i = 0; i < l->stacks.nthreads; i++) {
        const tk_stack_thread *t = &l->stacks.threads[i];
        out->enters += t->enters;
        out->exits += t->exits;
        out->unmatched_exits += t->unmatched_exits;
        out->unwound += t->unwound;
        out->open_at_end += t->open_at_end;
        out->backwards += t->backwards;
        if (t->max_depth > out->max_depth)
            out->max_depth = t->max_depth;
    }
}
