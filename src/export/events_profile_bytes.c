/* An events profile partial as bytes and back (tk_events_profile_partial_serialize,
 * _deserialize): a canonical form, so that equal partials give equal bytes and bytes that read
 * back write themselves again. LEB128 varints in their shortest form; the functions ascending,
 * each one some row names; each table's keys once each, within the partial's threads. */
#include <string.h>

#include "core/alloc.h"
#include "core/bytes.h"
#include "export/events_profile_impl.h"

static const uint8_t magic[5] = {'T', 'K', 'E', 'P', 2};

/* ---- writing ---------------------------------------------------------------------------- */

tk_status tk_events_profile_partial_serialize(const tk_events_profile_partial *p, uint8_t **data,
                                              size_t *size, tk_error *err)
{
    *data = NULL;
    *size = 0;
    tk_bytes_out b = {NULL, 0, 0, 0};
    tk_bytes_put(&b, magic, sizeof magic);
    tk_bytes_put_u64(&b, (uint64_t)p->per_thread);
    tk_bytes_put_clock(&b, p->ticks_per_second, p->time_unit);
    tk_bytes_put_u64(&b, (uint64_t)p->over_limit);
    tk_bytes_put_u64(&b, p->ntraces);
    tk_bytes_put_u64(&b, p->nthreads);
    for (uint32_t i = 0; i < p->nthreads; i++) {
        tk_bytes_put_u64(&b, (uint64_t)p->pids[i]);
        tk_bytes_put_u64(&b, (uint64_t)p->tids[i]);
        tk_bytes_put_u64(&b, p->traces[i] == UINT32_MAX ? 0 : (uint64_t)p->traces[i] + 1);
    }
    tk_bytes_put_u64(&b, p->nfns);
    for (uint32_t i = 0; i < p->nfns; i++) {
        const tk_ep_function *f = &p->fns[i];
        tk_bytes_put_u64(&b, f->id);
        tk_bytes_put_str(&b, f->name);
        tk_bytes_put_u64(&b, f->file != NULL);
        if (f->file) tk_bytes_put_str(&b, f->file);
        tk_bytes_put_u64(&b, f->line);
    }
    for (int k = 0; k < TK_EP_TABLES; k++) {
        const tk_ep_table *t = &p->t[k];
        tk_bytes_put_u64(&b, t->n);
        tk_bytes_put_u64(&b, t->end);
        for (size_t i = 0; i < t->n * tk_ep_width(k); i++) tk_bytes_put_u64(&b, t->v[i]);
    }
    return tk_bytes_take(&b, data, size, "an events profile", err);
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct rd {
    tk_bytes_in in;
    tk_events_profile_partial *p;
    uint8_t *used; /* per function: named by a row */
} rd;

static int get_threads(rd *r)
{
    tk_events_profile_partial *p = r->p;
    uint32_t n;
    if (tk_bytes_get_u32(&r->in, UINT32_MAX - 1, &p->ntraces, "the number of traces") ||
        tk_bytes_get_count(&r->in, 3, &n, "the number of threads"))
        return -1;
    p->pids = tk_malloc((n ? n : 1) * sizeof *p->pids);
    p->tids = tk_malloc((n ? n : 1) * sizeof *p->tids);
    p->traces = tk_malloc((n ? n : 1) * sizeof *p->traces);
    if (!p->pids || !p->tids || !p->traces) return tk_bytes_nomem(&r->in);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t pid, tid;
        uint32_t trace;
        if (tk_bytes_get_u64(&r->in, &pid, "a thread's pid") ||
            tk_bytes_get_u64(&r->in, &tid, "a thread's tid") ||
            tk_bytes_get_u32(&r->in, p->ntraces, &trace, "a thread's trace"))
            return -1;
        p->pids[i] = (int64_t)pid;
        p->tids[i] = (int64_t)tid;
        p->traces[i] = trace ? trace - 1 : UINT32_MAX;
        p->nthreads++;
    }
    return 0;
}

static int get_functions(rd *r)
{
    tk_events_profile_partial *p = r->p;
    uint32_t n;
    if (tk_bytes_get_count(&r->in, 4, &n, "the number of functions")) return -1;
    p->fns = tk_calloc(n ? n : 1, sizeof *p->fns);
    r->used = tk_calloc(n ? n : 1, 1);
    if (!p->fns || !r->used) return tk_bytes_nomem(&r->in);
    for (uint32_t i = 0; i < n; i++) {
        tk_ep_function *f = &p->fns[i];
        uint64_t has_file, line;
        if (tk_bytes_get_max(&r->in, TK_EP_ID_LIMIT - 1, &f->id, "a function id")) return -1;
        p->nfns++;
        if (i && p->fns[i - 1].id >= f->id)
            return tk_bytes_fail(&r->in, "functions not ascending, or one twice");
        if (tk_bytes_get_str(&r->in, &f->name) ||
            tk_bytes_get_max(&r->in, 1, &has_file, "whether a function's file is known") ||
            (has_file && tk_bytes_get_str(&r->in, &f->file)) ||
            tk_bytes_get_max(&r->in, has_file ? UINT32_MAX : 0, &line, "a function's line"))
            return -1;
        f->line = (uint32_t)line;
    }
    return 0;
}

/* The position of func among the functions, or nfns. */
static uint32_t named(const tk_events_profile_partial *p, uint64_t func)
{
    uint32_t lo = 0, hi = p->nfns;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->fns[mid].id < func)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nfns && p->fns[lo].id == func ? lo : p->nfns;
}

static int get_row(rd *r, int k, uint64_t *row)
{
    tk_events_profile_partial *p = r->p;
    unsigned w = tk_ep_width(k), nk = tk_ep_nkey(k);
    for (unsigned c = 0; c < w; c++)
        if (tk_bytes_get_u64(&r->in, &row[c], c < nk ? "a row's key" : "a row's sum")) return -1;
    /* the first cell: a thread (roots), a part (one per thread, or the one) */
    uint64_t parts = k == TK_EP_ROOTS || p->per_thread ? p->nthreads : 1;
    if (k != TK_EP_ROOTS && p->per_thread && parts > TK_EP_PART_LIMIT) parts = TK_EP_PART_LIMIT;
    if (row[0] >= parts)
        return tk_bytes_fail(&r->in,
                             k == TK_EP_ROOTS ? "a root row of no thread" : "a row of no part");
    for (unsigned c = 1; c < nk; c++) {
        uint32_t f = named(p, row[c]);
        if (f == p->nfns) return tk_bytes_fail(&r->in, "a row's function without a name");
        r->used[f] = 1;
    }
    return 0;
}

static int get_table(rd *r, int k)
{
    tk_ep_table *t = &r->p->t[k];
    unsigned w = tk_ep_width(k);
    uint32_t n;
    uint64_t end;
    if (tk_bytes_get_count(&r->in, w, &n, "the number of rows") ||
        tk_bytes_get_max(&r->in, n, &end, "the rows made before the end"))
        return -1;
    t->v = tk_malloc((n ? n : 1) * w * sizeof *t->v);
    if (!t->v) return tk_bytes_nomem(&r->in);
    t->cap = n;
    t->end = (size_t)end;
    int rc = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        uint64_t *row = &t->v[i * w];
        rc = get_row(r, k, row);
        int inserted = 0;
        if (rc == 0 && !tk_hmap_slot(&t->index, tk_ep_key(k, row), i, &inserted))
            rc = tk_bytes_nomem(&r->in);
        else if (rc == 0 && !inserted)
            rc = tk_bytes_fail(&r->in, "a row's key twice");
        if (rc == 0) t->n = i + 1;
    }
    tk_hmap_free(&t->index);
    return rc;
}

static int get_all(rd *r)
{
    if (r->in.size < sizeof magic || memcmp(r->in.p, magic, sizeof magic) != 0)
        return tk_bytes_fail(&r->in, "not an events profile partial (no \"TKEP\" 2)");
    r->in.pos = sizeof magic;
    uint64_t per_thread, over;
    double tps;
    char *unit = NULL;
    if (tk_bytes_get_max(&r->in, 1, &per_thread, "per_thread") ||
        tk_bytes_get_clock(&r->in, &tps, &unit))
        return -1;
    r->p = tk_ep_new((int)per_thread, tps, unit);
    tk_free(unit);
    if (!r->p) return tk_bytes_nomem(&r->in);
    if (tk_bytes_get_max(&r->in, 1, &over, "whether over the thread limit")) return -1;
    r->p->over_limit = (int)over;
    if (over && !per_thread) return tk_bytes_fail(&r->in, "over the thread limit, not per thread");
    if (get_threads(r) || get_functions(r)) return -1;
    for (int k = 0; k < TK_EP_TABLES; k++) {
        if (get_table(r, k)) return -1;
        if (over && r->p->t[k].n) return tk_bytes_fail(&r->in, "rows over the thread limit");
    }
    for (uint32_t i = 0; i < r->p->nfns; i++)
        if (!r->used[i]) return tk_bytes_fail(&r->in, "a function no row names");
    return r->in.pos == r->in.size ? 0 : tk_bytes_fail(&r->in, "bytes after the partial");
}

tk_status tk_events_profile_partial_deserialize(tk_events_profile_partial **out,
                                                const uint8_t *data, size_t size, tk_error *err)
{
    *out = NULL;
    rd r = {{data, 0, size, "events profile partial", err, TK_OK}, NULL, NULL};
    int rc = get_all(&r);
    tk_free(r.used);
    if (rc) {
        tk_events_profile_partial_free(r.p);
        return r.in.st;
    }
    *out = r.p;
    return TK_OK;
}
