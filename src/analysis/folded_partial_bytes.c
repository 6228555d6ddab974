/* A folded-stacks partial as bytes and back (tk_folded_partial_serialize, _deserialize): a
 * canonical form, so that equal partials give equal bytes and bytes that read back write
 * themselves again. LEB128 varints in their shortest form; the named functions ascending and
 * each used; the nodes in their order, each after its parent, no two with one parent and
 * function. */
#include <string.h>

#include "analysis/folded_partial_impl.h"
#include "core/alloc.h"
#include "core/bytes.h"
#include "core/hash.h"
#include "model/events.h"

static const uint8_t magic[5] = {'T', 'K', 'F', 'P', 3};

/* ---- writing ---------------------------------------------------------------------------- */

tk_status tk_folded_partial_serialize(const tk_folded_partial *p, uint8_t **data, size_t *size,
                                      tk_error *err)
{
    *data = NULL;
    *size = 0;
    tk_bytes_out b = {NULL, 0, 0, 0};
    tk_bytes_put(&b, magic, sizeof magic);
    tk_bytes_put_u64(&b, (uint64_t)p->weight);
    tk_bytes_put_u64(&b, (uint64_t)p->per_thread);
    tk_bytes_put_clock(&b, p->ticks_per_second, p->time_unit);
    tk_bytes_put_u64(&b, p->ntraces);
    tk_bytes_put_u64(&b, p->nf);
    for (uint32_t i = 0; i < p->nf; i++) {
        tk_bytes_put_u64(&b, p->fids[i]);
        tk_bytes_put_str(&b, p->fnames[i]);
    }
    tk_bytes_put_u64(&b, p->n - 1);
    for (uint32_t k = 1; k < p->n; k++) {
        tk_bytes_put_u64(&b, p->nodes[k].parent);
        tk_bytes_put_u64(&b, p->nodes[k].is_thread);
        tk_bytes_put_u64(&b, p->nodes[k].func);
        tk_bytes_put_u64(&b, p->nodes[k].w);
        if (p->nodes[k].is_thread) {
            tk_bytes_put_u64(&b, (uint64_t)p->nodes[k].pid);
            tk_bytes_put_u64(&b, p->nodes[k].trace);
        }
    }
    return tk_bytes_take(&b, data, size, "folded stacks", err);
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct rd {
    tk_bytes_in in;
    tk_folded_partial *fp;
} rd;

static int get_names(rd *r, uint8_t **used)
{
    tk_folded_partial *p = r->fp;
    uint32_t n;
    if (tk_bytes_get_count(&r->in, 2, &n, "the number of functions")) return -1;
    p->fids = tk_malloc((n ? n : 1) * sizeof *p->fids);
    p->fnames = tk_calloc(n ? n : 1, sizeof *p->fnames);
    *used = tk_calloc(n ? n : 1, 1);
    if (!p->fids || !p->fnames || !*used) return tk_bytes_nomem(&r->in);
    for (uint32_t i = 0; i < n; i++) {
        if (tk_bytes_get_max(&r->in, UINT32_MAX, &p->fids[i], "a function id")) return -1;
        if (i && p->fids[i - 1] >= p->fids[i])
            return tk_bytes_fail(&r->in, "functions not ascending, or one twice");
        if (tk_bytes_get_str(&r->in, &p->fnames[i])) return -1;
        p->nf++;
    }
    return 0;
}

/* The position of func among the named functions, or nf. */
static uint32_t named(const tk_folded_partial *p, uint64_t func)
{
    uint32_t lo = 0, hi = p->nf;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->fids[mid] < func)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nf && p->fids[lo] == func ? lo : p->nf;
}

static int get_node(rd *r, uint32_t k, tk_hmap *seen, uint8_t *used)
{
    tk_folded_partial *p = r->fp;
    tk_fp_node *x = &p->nodes[k];
    uint64_t is_thread;
    if (tk_bytes_get_u32(&r->in, k - 1, &x->parent, "a node's parent") ||
        tk_bytes_get_max(&r->in, 1, &is_thread, "whether a node is a thread's") ||
        tk_bytes_get_u64(&r->in, &x->func, "a node's function") ||
        tk_bytes_get_u64(&r->in, &x->w, "a node's weight"))
        return -1;
    x->is_thread = (uint8_t)is_thread;
    x->pid = 0;
    x->trace = 0;
    if (x->is_thread) { /* a thread's root: under the root, with per_thread only */
        uint64_t pid;
        if (!p->per_thread || x->parent != 0)
            return tk_bytes_fail(&r->in, "a thread's node out of place");
        if (tk_bytes_get_u64(&r->in, &pid, "a thread's pid") ||
            tk_bytes_get_u32(&r->in, p->ntraces ? p->ntraces - 1 : 0, &x->trace,
                             "a thread's trace"))
            return -1;
        x->pid = (int64_t)pid;
        return p->ntraces ? 0 : tk_bytes_fail(&r->in, "a thread of no trace");
    }
    if (p->per_thread && x->parent == 0)
        return tk_bytes_fail(&r->in, "a function outside every thread");
    uint32_t f = named(p, x->func);
    if (f == p->nf) return tk_bytes_fail(&r->in, "a function without a name");
    used[f] = 1;
    int inserted = 0;
    if (!tk_hmap_slot(seen, (uint64_t)x->parent << 32 | x->func, k, &inserted))
        return tk_bytes_nomem(&r->in);
    return inserted ? 0 : tk_bytes_fail(&r->in, "a call path twice");
}

static int get_nodes(rd *r, uint8_t *used)
{
    tk_folded_partial *p = r->fp;
    uint32_t n;
    if (tk_bytes_get_count(&r->in, 4, &n, "the number of nodes")) return -1;
    if (n >= TK_PATH_MAX_NODES)
        return tk_bytes_fail(&r->in, "more call paths than the exporter takes");
    tk_fp_node *nodes = tk_reallocarray(p->nodes, (size_t)n + 1, sizeof *nodes);
    if (!nodes) return tk_bytes_nomem(&r->in);
    p->nodes = nodes;
    tk_hmap seen = TK_HMAP_INIT;
    int rc = 0;
    for (uint32_t k = 1; k <= n && rc == 0; k++) {
        rc = get_node(r, k, &seen, used);
        if (rc == 0) p->n = k + 1;
    }
    tk_hmap_free(&seen);
    return rc;
}

static int get_all(rd *r, uint8_t **used)
{
    if (r->in.size < sizeof magic || memcmp(r->in.p, magic, sizeof magic) != 0)
        return tk_bytes_fail(&r->in, "not a folded stacks partial (no \"TKFP\" 3)");
    r->in.pos = sizeof magic;
    uint64_t weight, per_thread;
    double tps;
    char *unit = NULL;
    if (tk_bytes_get_max(&r->in, TK_FOLDED_CALLS, &weight, "the weight") ||
        tk_bytes_get_max(&r->in, 1, &per_thread, "per_thread") ||
        tk_bytes_get_clock(&r->in, &tps, &unit))
        return -1;
    r->fp = tk_fp_new((tk_folded_weight)weight, (int)per_thread, tps, unit);
    tk_free(unit);
    if (!r->fp) return tk_bytes_nomem(&r->in);
    if (tk_bytes_get_u32(&r->in, UINT32_MAX, &r->fp->ntraces, "the number of traces")) return -1;
    if (get_names(r, used) || get_nodes(r, *used)) return -1;
    for (uint32_t i = 0; i < r->fp->nf; i++)
        if (!(*used)[i]) return tk_bytes_fail(&r->in, "a function no node calls");
    return r->in.pos == r->in.size ? 0 : tk_bytes_fail(&r->in, "bytes after the partial");
}

tk_status tk_folded_partial_deserialize(tk_folded_partial **out, const uint8_t *data, size_t size,
                                        tk_error *err)
{
    *out = NULL;
    rd r = {{data, 0, size, "folded stacks partial", err, TK_OK}, NULL};
    uint8_t *used = NULL;
    int rc = get_all(&r, &used);
    tk_free(used);
    if (rc) {
        tk_folded_partial_free(r.fp);
        return r.in.st;
    }
    *out = r.fp;
    return TK_OK;
}
