/* The basic-block vectors of one thread's chunks split into ranges (tracekit/dcfg_trace_bbv.h;
 * docs/mpi.md, "DCFG-Trace basic-block vectors"): a range's blocks and their walk (passes 1
 * and 2), its part from the open count its walk gave (pass 3: the run of dcfg_trace_bbv.c
 * over the kept blocks, or decoding again, whose slices go to the part instead of fn), the
 * parts' exact merge and bytes, and the thread's slices of the merged part, as
 * tk_dcfg_trace_bbv hands them out. */
#include <stdlib.h>
#include <string.h>

#include "analysis/dcfg_trace_bbv_impl.h"
#include "core/alloc.h"
#include "core/bytes.h"
#include "core/num.h"
#include "tracekit/dcfg_trace_bbv.h"

struct tk_dcfg_trace_bbv_blocks {
    tk_dcfg_trace_bbv_options o; /* interval, loop boundaries (and the decoding threads) */
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    size_t th;
    const tk_cfg_process *p;
    uint64_t *size; /* per block index: NUM_INSTRS * 2 + whether it is a loop head */
    tk_bbv_kept kept;
};

/* The end of a slice: before an execution of the loop head block index head (TK_CFG_NONE: at
 * no loop head), which had run count times in the range before. */
typedef struct bbv_bound {
    uint32_t head;
    uint64_t count;
} bbv_bound;

/* A loop head's executions in the range. */
typedef struct bbv_head {
    uint32_t index;
    uint64_t execs;
} bbv_head;

struct tk_dcfg_trace_bbv_part {
    uint64_t interval;
    int loops;
    uint64_t open, close; /* the instructions of the slice open before and after the range */
    tk_bbv_ent *ents; /* every slice's blocks, slice after slice */
    size_t nents, cap_ents;
    size_t *starts; /* slice i's blocks from ents[starts[i]] (the last's up to nents) */
    bbv_bound *bounds; /* bounds[i]: slice i's end, i < nslices - 1 */
    size_t nslices, cap_slices; /* at least 1 */
    bbv_head *heads; /* by index */
    size_t nheads;
};

/* ---- a range's blocks and their walk ------------------------------------------------- */

tk_status tk_dcfg_trace_bbv_blocks_open(tk_dcfg_trace_bbv_blocks **out, const tk_dcfg_trace *t,
                                        const tk_cfg *cfg, const tk_dcfg_trace_bbv_options *opt,
                                        size_t th, size_t chunk_begin, size_t chunk_end,
                                        tk_error *err)
{
    *out = NULL;
    tk_dcfg_trace_bbv_blocks *k = tk_calloc(1, sizeof *k);
    if (!k) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_bbv_options(opt, &k->o);
    tk_bbv_run r;
    tk_status st = tk_bbv_run_init(&r, t, cfg, &k->o, th, err);
    if (st == TK_OK) {
        r.kept = &k->kept;
        st = tk_bbv_run_chunks(&r, t, 0, chunk_begin, chunk_end, err);
    }
    if (st == TK_OK) {
        size_t nb = r.p->nblocks ? r.p->nblocks : 1;
        k->size = tk_calloc(nb, sizeof *k->size);
        if (!k->size) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        for (uint32_t b = 0; k->size && b < r.p->nblocks; b++)
            k->size[b] = (uint64_t)r.p->blocks[b].num_instrs * 2 + r.is_head[b];
    }
    k->t = t;
    k->cfg = cfg;
    k->th = th;
    k->p = r.p;
    tk_bbv_run_free(&r);
    if (st != TK_OK) {
        tk_dcfg_trace_bbv_blocks_free(k);
        return st;
    }
    *out = k;
    return TK_OK;
}

tk_status tk_dcfg_trace_bbv_blocks_walk(const tk_dcfg_trace_bbv_blocks *k, uint64_t *open,
                                        tk_error *err)
{
    uint64_t in = *open, interval = k->o.interval;
    int loops = k->o.loop_boundaries != 0;
    const uint64_t *size = k->size;
    const uint32_t *v = k->kept.v;
    for (size_t i = 0, n = k->kept.n; i < n; i++) {
        uint64_t z = size[v[i]];
        /* exec_block's rule (dcfg_trace_bbv.c): the slice ends, the block goes into the next */
        if (tk_bbv_ends(in, interval, loops, (int)(z & 1))) in = 0;
        if (tk_add_u64(in, z >> 1, &in))
            return tk_error_set(err, TK_ERR_LIMIT,
                                "the thread's instruction count passes 2^64 - 1");
    }
    *open = in;
    return TK_OK;
}

void tk_dcfg_trace_bbv_blocks_free(tk_dcfg_trace_bbv_blocks *k)
{
    if (!k) return;
    tk_free(k->kept.v);
    tk_free(k->size);
    tk_free(k);
}

/* ---- a part ---------------------------------------------------------------------------- */

void tk_dcfg_trace_bbv_part_free(tk_dcfg_trace_bbv_part *p)
{
    if (!p) return;
    tk_free(p->ents);
    tk_free(p->starts);
    tk_free(p->bounds);
    tk_free(p->heads);
    tk_free(p);
}

/* An empty part: one slice, open. NULL out of memory. */
static tk_dcfg_trace_bbv_part *part_new(uint64_t interval, int loops, uint64_t open)
{
    tk_dcfg_trace_bbv_part *p = tk_calloc(1, sizeof *p);
    if (!p) return NULL;
    p->interval = interval;
    p->loops = loops;
    p->open = p->close = open;
    p->cap_slices = 16;
    p->starts = tk_calloc(p->cap_slices, sizeof *p->starts);
    p->bounds = tk_calloc(p->cap_slices, sizeof *p->bounds);
    if (!p->starts || !p->bounds) {
        tk_dcfg_trace_bbv_part_free(p);
        return NULL;
    }
    p->nslices = 1;
    return p;
}

/* Room for n more blocks. Returns 0, or -1 out of memory. */
static int reserve_ents(tk_dcfg_trace_bbv_part *p, size_t n)
{
    if (p->cap_ents - p->nents >= n) return 0;
    size_t cap = p->cap_ents ? p->cap_ents : 64;
    while (cap - p->nents < n) {
        if (cap > SIZE_MAX / 2) return -1;
        cap *= 2;
    }
    tk_bbv_ent *e = tk_reallocarray(p->ents, cap, sizeof *e);
    if (!e) return -1;
    p->ents = e;
    p->cap_ents = cap;
    return 0;
}

/* The open slice ended at bound; a new one opened. Returns 0, or -1 out of memory. */
static int close_slice(tk_dcfg_trace_bbv_part *p, bbv_bound bound)
{
    if (p->nslices == p->cap_slices) {
        if (p->cap_slices > SIZE_MAX / 2) return -1;
        size_t cap = p->cap_slices * 2;
        size_t *s = tk_reallocarray(p->starts, cap, sizeof *s);
        if (s) p->starts = s;
        bbv_bound *b = s ? tk_reallocarray(p->bounds, cap, sizeof *b) : NULL;
        if (!b) return -1;
        p->bounds = b;
        p->cap_slices = cap;
    }
    p->bounds[p->nslices - 1] = bound;
    p->starts[p->nslices++] = p->nents;
    return 0;
}

/* tk_bbv_sink_fn: the run's slice into the part. */
static int sink(void *part, const tk_bbv_ent *ents, size_t n, uint32_t head, uint64_t count)
{
    tk_dcfg_trace_bbv_part *p = part;
    if (reserve_ents(p, n)) return -1;
    if (n) memcpy(p->ents + p->nents, ents, n * sizeof *ents);
    p->nents += n;
    bbv_bound b = {head, count};
    return close_slice(p, b);
}

/* The end of the run: its open slice's blocks and the loop heads' executions into p. */
static tk_status part_finish(tk_dcfg_trace_bbv_part *p, tk_bbv_run *r, tk_error *err)
{
    size_t n;
    tk_bbv_collect(r, &n);
    if (reserve_ents(p, n)) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (n) memcpy(p->ents + p->nents, r->ents, n * sizeof *r->ents);
    p->nents += n;
    p->close = r->in_slice;
    size_t nh = 0;
    for (uint32_t b = 0; p->loops && b < r->p->nblocks; b++) nh += r->is_head[b] && r->execs[b];
    if (nh && !(p->heads = tk_calloc(nh, sizeof *p->heads)))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (uint32_t b = 0; nh && b < r->p->nblocks; b++)
        if (r->is_head[b] && r->execs[b]) p->heads[p->nheads++] = (bbv_head){b, r->execs[b]};
    return TK_OK;
}

tk_status tk_dcfg_trace_bbv_part_open(tk_dcfg_trace_bbv_part **out, const tk_dcfg_trace *t,
                                      const tk_cfg *cfg, const tk_dcfg_trace_bbv_options *opt,
                                      size_t th, size_t chunk_begin, size_t chunk_end,
                                      uint64_t open, tk_error *err)
{
    *out = NULL;
    tk_dcfg_trace_bbv_options o;
    tk_bbv_options(opt, &o);
    tk_bbv_run r;
    tk_status st = tk_bbv_run_init(&r, t, cfg, &o, th, err);
    if (st != TK_OK) return st;
    tk_dcfg_trace_bbv_part *p = part_new(o.interval, o.loop_boundaries != 0, open);
    if (!p) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    r.sink = sink;
    r.part = p;
    r.in_slice = open;
    st = tk_bbv_run_chunks(&r, t, 0, chunk_begin, chunk_end, err);
    if (st == TK_OK) st = part_finish(p, &r, err);
    tk_bbv_run_free(&r);
    if (st != TK_OK) {
        tk_dcfg_trace_bbv_part_free(p);
        return st;
    }
    *out = p;
    return TK_OK;
}

tk_status tk_dcfg_trace_bbv_blocks_part(tk_dcfg_trace_bbv_part **out,
                                        const tk_dcfg_trace_bbv_blocks *k, uint64_t open,
                                        tk_error *err)
{
    *out = NULL;
    tk_bbv_run r;
    tk_status st = tk_bbv_run_init(&r, k->t, k->cfg, &k->o, k->th, err);
    if (st != TK_OK) return st;
    tk_dcfg_trace_bbv_part *p = part_new(k->o.interval, k->o.loop_boundaries != 0, open);
    if (!p) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    r.sink = sink;
    r.part = p;
    r.in_slice = open;
    st = tk_bbv_run_kept(&r, k->kept.v, k->kept.n, err);
    if (st == TK_OK) st = part_finish(p, &r, err);
    tk_bbv_run_free(&r);
    if (st != TK_OK) {
        tk_dcfg_trace_bbv_part_free(p);
        return st;
    }
    *out = p;
    return TK_OK;
}

/* The executions of loop head index in p (0: none). */
static uint64_t head_execs(const tk_dcfg_trace_bbv_part *p, uint32_t index)
{
    size_t lo = 0, hi = p->nheads;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->heads[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nheads && p->heads[lo].index == index ? p->heads[lo].execs : 0;
}

static int ent_before(const tk_bbv_ent *a, const tk_bbv_ent *b)
{
    return a->id < b->id || (a->id == b->id && a->index < b->index);
}

/* into's open slice and a[0..na) (later's first slice) added up, in their order, into
 * out[0..*n). Returns 0, or -1 over 64 bits. */
static int join_slice(const tk_bbv_ent *x, size_t nx, const tk_bbv_ent *a, size_t na,
                      tk_bbv_ent *out, size_t *n)
{
    size_t i = 0, j = 0, k = 0;
    while (i < nx || j < na) {
        if (j == na || (i < nx && ent_before(&x[i], &a[j]))) {
            out[k++] = x[i++];
        } else if (i == nx || ent_before(&a[j], &x[i])) {
            out[k++] = a[j++];
        } else {
            out[k] = x[i++];
            if (tk_add_u64(out[k].instructions, a[j++].instructions, &out[k].instructions))
                return -1;
            k++;
        }
    }
    *n = k;
    return 0;
}

/* into's loop heads' executions and later's added up, by index. Returns TK_OK, TK_ERR_ARG
 * (over 64 bits), TK_ERR_NOMEM. */
static tk_status join_heads(tk_dcfg_trace_bbv_part *into, const tk_dcfg_trace_bbv_part *later,
                            tk_error *err)
{
    if (!later->nheads) return TK_OK;
    bbv_head *h = tk_calloc(into->nheads + later->nheads, sizeof *h);
    if (!h) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t i = 0, j = 0, k = 0;
    while (i < into->nheads || j < later->nheads) {
        if (j == later->nheads ||
            (i < into->nheads && into->heads[i].index < later->heads[j].index)) {
            h[k++] = into->heads[i++];
        } else if (i == into->nheads || later->heads[j].index < into->heads[i].index) {
            h[k++] = later->heads[j++];
        } else {
            h[k] = into->heads[i++];
            if (tk_add_u64(h[k].execs, later->heads[j++].execs, &h[k].execs)) {
                tk_free(h);
                return tk_error_set(err, TK_ERR_ARG, "bbv parts: executions over 64 bits");
            }
            k++;
        }
    }
    tk_free(into->heads);
    into->heads = h;
    into->nheads = k;
    return TK_OK;
}

/* later's slices after its first appended to into (its blocks from ents[from]), their bounds'
 * counts from into's executions. Returns 0, or -1 out of memory or over 64 bits. */
static int append_slices(tk_dcfg_trace_bbv_part *into, const tk_dcfg_trace_bbv_part *later)
{
    for (size_t s = 1; s < later->nslices; s++) {
        bbv_bound b = later->bounds[s - 1];
        if (b.head != TK_CFG_NONE && tk_add_u64(b.count, head_execs(into, b.head), &b.count))
            return -1;
        if (close_slice(into, b)) return -1;
        size_t lo = later->starts[s],
               hi = s + 1 < later->nslices ? later->starts[s + 1] : later->nents;
        if (reserve_ents(into, hi - lo)) return -1;
        if (hi > lo)
            memcpy(into->ents + into->nents, later->ents + lo, (hi - lo) * sizeof *into->ents);
        into->nents += hi - lo;
    }
    return 0;
}

tk_status tk_dcfg_trace_bbv_part_merge(tk_dcfg_trace_bbv_part *into,
                                       const tk_dcfg_trace_bbv_part *later, tk_error *err)
{
    if (into->interval != later->interval || into->loops != later->loops)
        return tk_error_set(err, TK_ERR_ARG, "bbv parts of other options");
    if (into->close != later->open)
        return tk_error_set(err, TK_ERR_ARG,
                            "bbv parts that do not follow: %llu instructions open, then %llu",
                            (unsigned long long)into->close, (unsigned long long)later->open);
    /* into's open slice and later's first, added up, in place of into's open slice */
    size_t from = into->starts[into->nslices - 1], nx = into->nents - from;
    size_t na = later->nslices > 1 ? later->starts[1] : later->nents, n;
    tk_bbv_ent *joined = tk_calloc(nx + na ? nx + na : 1, sizeof *joined);
    if (!joined) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    const tk_bbv_ent *x = nx ? into->ents + from : NULL; /* no blocks: maybe no array */
    if (join_slice(x, nx, later->ents, na, joined, &n)) {
        tk_free(joined);
        return tk_error_set(err, TK_ERR_ARG, "bbv parts: instructions over 64 bits");
    }
    into->nents = from;
    if (reserve_ents(into, n)) {
        tk_free(joined);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    if (n) memcpy(into->ents + from, joined, n * sizeof *joined);
    into->nents += n;
    tk_free(joined);
    /* the bounds' counts from into's executions before they take later's */
    if (append_slices(into, later))
        return tk_error_set(err, TK_ERR_NOMEM,
                            "merging bbv parts: out of memory, or a count over 64 bits");
    tk_status st = join_heads(into, later, err);
    if (st == TK_OK) into->close = later->close;
    return st;
}

/* ---- bytes ---------------------------------------------------------------------------- */

static const uint8_t MAGIC[6] = {'T', 'K', 'B', 'B', 'V', 1};

/* Slice s's blocks: [*lo, *hi) of p->ents. */
static void slice_range(const tk_dcfg_trace_bbv_part *p, size_t s, size_t *lo, size_t *hi)
{
    *lo = p->starts[s];
    *hi = s + 1 < p->nslices ? p->starts[s + 1] : p->nents;
}

tk_status tk_dcfg_trace_bbv_part_serialize(const tk_dcfg_trace_bbv_part *p, uint8_t **data,
                                           size_t *size, tk_error *err)
{
    tk_bytes_out b = {NULL, 0, 0, 0};
    tk_bytes_put(&b, MAGIC, sizeof MAGIC);
    tk_bytes_put_u64(&b, p->interval);
    tk_bytes_put_u64(&b, (uint64_t)p->loops);
    tk_bytes_put_u64(&b, p->open);
    tk_bytes_put_u64(&b, p->close);
    tk_bytes_put_u64(&b, p->nslices);
    for (size_t s = 0; s < p->nslices && !b.failed; s++) {
        size_t lo, hi;
        slice_range(p, s, &lo, &hi);
        tk_bytes_put_u64(&b, hi - lo);
        for (size_t i = lo; i < hi; i++) {
            tk_bytes_put_u64(&b, p->ents[i].id);
            tk_bytes_put_u64(&b, p->ents[i].index);
            tk_bytes_put_u64(&b, p->ents[i].instructions);
        }
        if (s + 1 == p->nslices) break;
        const bbv_bound *bd = &p->bounds[s];
        tk_bytes_put_u64(&b, bd->head == TK_CFG_NONE ? 0 : (uint64_t)bd->head + 1);
        if (bd->head != TK_CFG_NONE) tk_bytes_put_u64(&b, bd->count);
    }
    tk_bytes_put_u64(&b, p->nheads);
    for (size_t h = 0; h < p->nheads; h++) {
        tk_bytes_put_u64(&b, p->heads[h].index);
        tk_bytes_put_u64(&b, p->heads[h].execs);
    }
    return tk_bytes_take(&b, data, size, "bbv part", err);
}

/* Slice s's blocks read into p (each after the one before it, in order, with instructions). */
static int get_slice(tk_bytes_in *in, tk_dcfg_trace_bbv_part *p)
{
    uint32_t n;
    if (tk_bytes_get_count(in, 3, &n, "blocks of a slice")) return -1;
    if (reserve_ents(p, n)) return tk_bytes_nomem(in);
    for (uint32_t i = 0; i < n; i++) {
        tk_bbv_ent *e = &p->ents[p->nents];
        if (tk_bytes_get_u32(in, UINT32_MAX, &e->id, "block id") ||
            tk_bytes_get_u32(in, UINT32_MAX - 1, &e->index, "block index") ||
            tk_bytes_get_u64(in, &e->instructions, "instructions"))
            return -1;
        if (e->instructions == 0) return tk_bytes_fail(in, "a block of no instructions");
        if (i && !ent_before(&p->ents[p->nents - 1], e))
            return tk_bytes_fail(in, "blocks out of order");
        p->nents++;
    }
    return 0;
}

/* The end of a slice read; the next one opened. */
static int get_bound(tk_bytes_in *in, tk_dcfg_trace_bbv_part *p)
{
    uint64_t head;
    bbv_bound b = {TK_CFG_NONE, 0};
    if (tk_bytes_get_max(in, (uint64_t)UINT32_MAX, &head, "loop head")) return -1;
    if (head && !p->loops) return tk_bytes_fail(in, "a loop head without loop boundaries");
    if (head) {
        b.head = (uint32_t)(head - 1);
        if (tk_bytes_get_u64(in, &b.count, "loop head count")) return -1;
    }
    return close_slice(p, b) ? tk_bytes_nomem(in) : 0;
}

static int get_heads(tk_bytes_in *in, tk_dcfg_trace_bbv_part *p)
{
    uint32_t n;
    if (tk_bytes_get_count(in, 2, &n, "loop heads")) return -1;
    if (n && !p->loops) return tk_bytes_fail(in, "loop heads without loop boundaries");
    if (n && !(p->heads = tk_calloc(n, sizeof *p->heads))) return tk_bytes_nomem(in);
    for (uint32_t i = 0; i < n; i++) {
        bbv_head *h = &p->heads[i];
        if (tk_bytes_get_u32(in, UINT32_MAX - 1, &h->index, "loop head") ||
            tk_bytes_get_u64(in, &h->execs, "executions"))
            return -1;
        if (!h->execs) return tk_bytes_fail(in, "a loop head of no executions");
        if (i && h->index <= p->heads[i - 1].index)
            return tk_bytes_fail(in, "loop heads out of order");
        p->nheads++;
    }
    return 0;
}

static int get_part(tk_bytes_in *in, tk_dcfg_trace_bbv_part *p)
{
    uint64_t loops, n;
    if (tk_bytes_get_u64(in, &p->interval, "interval") ||
        tk_bytes_get_max(in, 1, &loops, "loop boundaries") ||
        tk_bytes_get_u64(in, &p->open, "open instructions") ||
        tk_bytes_get_u64(in, &p->close, "open instructions at the end") ||
        tk_bytes_get_max(in, in->size - in->pos, &n, "slices"))
        return -1;
    if (!p->interval) return tk_bytes_fail(in, "an interval of 0");
    if (!n) return tk_bytes_fail(in, "no slice");
    p->loops = (int)loops;
    for (uint64_t s = 0; s < n; s++) {
        if (get_slice(in, p)) return -1;
        if (s + 1 < n && get_bound(in, p)) return -1;
    }
    if (get_heads(in, p)) return -1;
    if (in->pos != in->size) return tk_bytes_fail(in, "bytes after the part");
    return 0;
}

tk_status tk_dcfg_trace_bbv_part_deserialize(tk_dcfg_trace_bbv_part **out, const uint8_t *data,
                                             size_t size, tk_error *err)
{
    *out = NULL;
    tk_bytes_in in = {data, 0, size, "bbv part", err, TK_OK};
    if (size < sizeof MAGIC || memcmp(data, MAGIC, sizeof MAGIC) != 0) {
        tk_bytes_fail(&in, "not TKBBV version 1");
        return in.st;
    }
    in.pos = sizeof MAGIC;
    tk_dcfg_trace_bbv_part *p = part_new(1, 0, 0);
    if (!p) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (get_part(&in, p)) {
        tk_dcfg_trace_bbv_part_free(p);
        return in.st;
    }
    *out = p;
    return TK_OK;
}

/* ---- the thread's slices ---------------------------------------------------------------- */

/* Slice s of p handed to fn as the run of the whole thread hands it (r: the thread's run,
 * its entries). Returns TK_OK, TK_END (fn asked to stop), TK_ERR_FORMAT. */
static tk_status put_slice(const tk_dcfg_trace_bbv_part *p, size_t s, tk_bbv_run *r, tk_error *err)
{
    const tk_cfg_process *proc = r->p;
    size_t lo, hi;
    slice_range(p, s, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        const tk_bbv_ent *e = &p->ents[i];
        if (e->index >= proc->nblocks || proc->blocks[e->index].id != e->id)
            return tk_error_set(err, TK_ERR_FORMAT,
                                "bbv part: block %u (index %u) is not a block of process %llu",
                                e->id, e->index, (unsigned long long)r->pid);
        r->entries[i - lo].block_id = e->id;
        r->entries[i - lo].instructions = e->instructions;
    }
    tk_dcfg_trace_bbv_slice sl = {r->pid, r->tid, s + 1, r->entries, hi - lo, 0, 0, 0, 0};
    uint32_t head = s + 1 < p->nslices ? p->bounds[s].head : TK_CFG_NONE;
    if (head != TK_CFG_NONE) {
        if (head >= proc->nblocks)
            return tk_error_set(err, TK_ERR_FORMAT,
                                "bbv part: loop head index %u is not a block of process %llu", head,
                                (unsigned long long)r->pid);
        sl.at_loop_head = 1;
        sl.head_id = proc->blocks[head].id;
        sl.head_addr = tk_cfg_stored_block_addr(proc, &proc->blocks[head]);
        sl.head_count = p->bounds[s].count;
    }
    return r->fn(r->ctx, &sl) ? TK_END : TK_OK;
}

tk_status tk_dcfg_trace_bbv_part_slices(const tk_dcfg_trace_bbv_part *p, const tk_dcfg_trace *t,
                                        const tk_cfg *cfg, size_t th, tk_dcfg_trace_bbv_fn fn,
                                        void *ctx, tk_error *err)
{
    if (p->open != 0)
        return tk_error_set(err, TK_ERR_ARG, "a bbv part that does not start the thread");
    tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    o.interval = p->interval;
    tk_bbv_run r;
    tk_status st = tk_bbv_run_init(&r, t, cfg, &o, th, err);
    if (st != TK_OK) return st;
    size_t most = 1;
    for (size_t s = 0; s < p->nslices; s++) {
        size_t lo, hi;
        slice_range(p, s, &lo, &hi);
        if (hi - lo > most) most = hi - lo;
    }
    r.entries = tk_calloc(most, sizeof *r.entries);
    if (!r.entries) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    r.fn = fn;
    r.ctx = ctx;
    for (size_t s = 0; s < p->nslices && st == TK_OK; s++) {
        size_t lo, hi;
        slice_range(p, s, &lo, &hi);
        if (s + 1 < p->nslices || hi > lo) st = put_slice(p, s, &r, err);
    }
    tk_free(r.entries);
    return st;
}
