/* Folded stacks as a partial result (tracekit/folded_partial.h): the call-path trie that
 * tk_export_folded (src/export/folded.c, the reference: the same stacks, weights and order)
 * builds of a source, kept with the names of its functions, merged trie into trie, and
 * written as that exporter writes it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/folded_partial_impl.h"
#include "core/alloc.h"
#include "core/hash.h"
#include "core/num.h"
#include "core/writer.h"
#include "model/events.h"

static char *copy_str(const char *s)
{
    size_t n = strlen(s);
    char *c = tk_malloc(n + 1);
    if (c) memcpy(c, s, n + 1);
    return c;
}

tk_folded_partial *tk_fp_new(tk_folded_weight weight, int per_thread, double ticks_per_second,
                             const char *time_unit)
{
    tk_folded_partial *p = tk_calloc(1, sizeof *p);
    if (p) p->nodes = tk_calloc(1, sizeof *p->nodes);
    if (p && time_unit) p->time_unit = copy_str(time_unit);
    if (!p || !p->nodes || (time_unit && !p->time_unit)) {
        tk_folded_partial_free(p);
        return NULL;
    }
    p->weight = weight;
    p->per_thread = per_thread;
    p->ticks_per_second = ticks_per_second;
    p->n = 1;
    return p;
}

void tk_folded_partial_free(tk_folded_partial *p)
{
    if (!p) return;
    for (uint32_t i = 0; i < p->nf; i++) tk_free(p->fnames[i]);
    tk_free(p->fnames);
    tk_free(p->fids);
    tk_free(p->nodes);
    tk_free(p->time_unit);
    tk_free(p);
}

/* ---- made of a source -------------------------------------------------------------------- */

typedef struct acc {
    tk_folded_weight weight;
    uint64_t *w; /* per path node */
    uint32_t cap;
    int failed;
} acc;

/* The weights of the frames that close, as tk_export_folded adds them. */
static void on_close(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth,
                     uint64_t end, uint64_t duration, uint64_t self, tk_close_how how)
{
    (void)t, (void)depth, (void)end, (void)duration;
    acc *a = ctx;
    if (f->path >= a->cap) {
        uint32_t cap = a->cap ? a->cap : 1024;
        while (cap <= f->path) cap *= 2;
        uint64_t *w = tk_reallocarray(a->w, cap, sizeof *w);
        if (!w) {
            a->failed = 1;
            return;
        }
        memset(w + a->cap, 0, (size_t)(cap - a->cap) * sizeof *w);
        a->w = w;
        a->cap = cap;
    }
    if (a->weight == TK_FOLDED_CALLS) {
        if (how != TK_CLOSE_AT_END) a->w[f->path]++;
    } else {
        a->w[f->path] += self;
    }
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* The names of the functions of p's nodes, through src (folded_partial_impl.h). */
tk_status tk_fp_name_functions(tk_folded_partial *p, const tk_event_source *src)
{
    p->fids = tk_malloc((p->n ? p->n : 1) * sizeof *p->fids);
    if (!p->fids) return TK_ERR_NOMEM;
    uint32_t n = 0;
    for (uint32_t k = 1; k < p->n; k++)
        if (!p->nodes[k].is_thread) p->fids[n++] = p->nodes[k].func;
    if (n) qsort(p->fids, n, sizeof *p->fids, cmp_u64);
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++)
        if (!m || p->fids[m - 1] != p->fids[k]) p->fids[m++] = p->fids[k];
    p->fnames = tk_calloc(m ? m : 1, sizeof *p->fnames);
    if (!p->fnames) return TK_ERR_NOMEM;
    char buf[64];
    for (; p->nf < m; p->nf++)
        if (!(p->fnames[p->nf] =
                  copy_str(tk_event_func_name(src, p->fids[p->nf], buf, sizeof buf))))
            return TK_ERR_NOMEM;
    return TK_OK;
}

/* The trie of cs and the weights of a into p. */
static tk_status take_paths(tk_folded_partial *p, const tk_callstacks *cs, const acc *a)
{
    uint32_t n = cs->npaths ? cs->npaths : 1;
    tk_fp_node *nodes = tk_reallocarray(p->nodes, n, sizeof *nodes);
    if (!nodes) return TK_ERR_NOMEM;
    p->nodes = nodes;
    for (uint32_t k = 1; k < n; k++) {
        tk_fp_node *x = &nodes[k];
        x->parent = cs->path_parent[k];
        x->is_thread = cs->path_is_thread[k] != 0;
        const tk_stack_thread *t = x->is_thread ? &cs->threads[cs->path_func[k]] : NULL;
        x->func = t ? (uint64_t)t->tid : (uint64_t)cs->path_func[k];
        x->pid = t ? t->pid : 0;
        x->trace = t ? t->trace : 0;
        x->w = k < a->cap ? a->w[k] : 0;
    }
    p->n = n;
    return TK_OK;
}

tk_status tk_folded_partial_open(tk_folded_partial **out, const tk_event_source *src,
                                 tk_folded_weight weight, int per_thread, tk_error *err)
{
    *out = NULL;
    tk_folded_partial *p =
        tk_fp_new(weight, per_thread != 0, src->ticks_per_second, src->time_unit);
    if (!p) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    p->ntraces = (uint32_t)tk_event_source_traces(src);
    acc a = {weight, NULL, 0, 0};
    tk_callstacks cs;
    tk_callstacks_init(&cs, NULL, on_close, &a);
    tk_status st = tk_callstacks_track_paths(&cs, per_thread, err);
    if (st == TK_OK) st = tk_callstacks_run_with(&cs, src, on_close, &a, TK_FEED_NO_OPEN, err);
    if (st == TK_OK && a.failed) st = TK_ERR_NOMEM;
    if (st == TK_OK) st = take_paths(p, &cs, &a);
    if (st == TK_OK) st = tk_fp_name_functions(p, src);
    tk_free(a.w);
    tk_callstacks_free(&cs);
    if (st != TK_OK) {
        tk_folded_partial_free(p);
        return st == TK_ERR_NOMEM ? tk_error_set(err, st, "out of memory accumulating call paths")
                                  : st;
    }
    *out = p;
    return TK_OK;
}

/* ---- merged ------------------------------------------------------------------------------ */

/* The names of a and b, ascending (a's where both have one) into *ids, *names (copies). */
static tk_status merge_names(const tk_folded_partial *a, const tk_folded_partial *b, uint64_t **ids,
                             char ***names, uint32_t *n)
{
    uint32_t cap = a->nf + b->nf;
    *ids = tk_malloc((cap ? cap : 1) * sizeof **ids);
    *names = tk_calloc(cap ? cap : 1, sizeof **names);
    *n = 0;
    if (!*ids || !*names) return TK_ERR_NOMEM;
    uint32_t i = 0, j = 0;
    while (i < a->nf || j < b->nf) {
        int from_a = j >= b->nf || (i < a->nf && a->fids[i] <= b->fids[j]);
        uint64_t id = from_a ? a->fids[i] : b->fids[j];
        const char *s = from_a ? a->fnames[i] : b->fnames[j];
        if (from_a && j < b->nf && b->fids[j] == id) j++;
        if (from_a)
            i++;
        else
            j++;
        (*ids)[*n] = id;
        if (!((*names)[*n] = copy_str(s))) return TK_ERR_NOMEM;
        (*n)++;
    }
    return TK_OK;
}

/* into's nodes and later's, as the trie of both: *nodes (a new array), *n of them. */
static tk_status merge_nodes(const tk_folded_partial *a, const tk_folded_partial *b,
                             tk_fp_node **nodes, uint32_t *n, tk_error *err)
{
    uint64_t total = (uint64_t)a->n + b->n;
    tk_fp_node *v = tk_malloc((size_t)total * sizeof *v);
    uint32_t *map = tk_malloc((b->n ? b->n : 1) * sizeof *map);
    tk_hmap index = TK_HMAP_INIT;
    tk_status st = v && map ? TK_OK : TK_ERR_NOMEM;
    if (st == TK_OK) memcpy(v, a->nodes, a->n * sizeof *v);
    uint32_t m = a->n;
    for (uint32_t k = 1; st == TK_OK && k < a->n; k++)
        if (!v[k].is_thread && tk_hmap_put(&index, (uint64_t)v[k].parent << 32 | v[k].func, k))
            st = TK_ERR_NOMEM;
    if (st == TK_OK) map[0] = 0;
    for (uint32_t k = 1; st == TK_OK && k < b->n; k++) {
        const tk_fp_node *x = &b->nodes[k];
        uint32_t parent = map[x->parent];
        uint64_t at;
        if (!x->is_thread && tk_hmap_get(&index, (uint64_t)parent << 32 | x->func, &at)) {
            map[k] = (uint32_t)at;
            if (tk_add_u64(v[at].w, x->w, &v[at].w))
                st = tk_error_set(err, TK_ERR_LIMIT, "a call path's weight is over 64 bits");
            continue;
        }
        if (m >= TK_PATH_MAX_NODES) {
            st = tk_error_set(err, TK_ERR_LIMIT, "more than %u call paths", TK_PATH_MAX_NODES);
            break;
        }
        v[m] = *x;
        v[m].parent = parent;
        if (x->is_thread) v[m].trace += a->ntraces; /* later's traces come after a's */
        if (!x->is_thread && tk_hmap_put(&index, (uint64_t)parent << 32 | x->func, m))
            st = TK_ERR_NOMEM;
        map[k] = m++;
    }
    tk_hmap_free(&index);
    tk_free(map);
    if (st != TK_OK) {
        tk_free(v);
        return st;
    }
    *nodes = v;
    *n = m;
    return TK_OK;
}

tk_status tk_folded_partial_merge(tk_folded_partial *into, const tk_folded_partial *later,
                                  tk_error *err)
{
    if (into->weight != later->weight || into->per_thread != later->per_thread)
        return tk_error_set(err, TK_ERR_ARG, "folded partials of another weight or per_thread");
    /* the test of tk_event_chain_init, which refuses to chain such sources */
    if (!tk_event_same_clock(into->ticks_per_second, into->time_unit, later->ticks_per_second,
                             later->time_unit))
        return tk_error_set(err, TK_ERR_ARG,
                            "folded partials of another clock (%.0f %s per second, not %.0f %s)",
                            later->ticks_per_second, later->time_unit ? later->time_unit : "?",
                            into->ticks_per_second, into->time_unit ? into->time_unit : "?");
    if ((uint64_t)into->ntraces + later->ntraces > UINT32_MAX)
        return tk_error_set(err, TK_ERR_LIMIT, "folded partials of more than %u traces",
                            UINT32_MAX);
    tk_fp_node *nodes = NULL;
    uint32_t n = 0, nf = 0;
    uint64_t *ids = NULL;
    char **names = NULL;
    tk_status st = merge_nodes(into, later, &nodes, &n, err);
    if (st == TK_OK) st = merge_names(into, later, &ids, &names, &nf);
    if (st != TK_OK) {
        tk_free(nodes);
        for (uint32_t i = 0; names && i < into->nf + later->nf; i++) tk_free(names[i]);
        tk_free(names);
        tk_free(ids);
        return st == TK_ERR_NOMEM ? tk_error_set(err, st, "out of memory merging call paths") : st;
    }
    for (uint32_t i = 0; i < into->nf; i++) tk_free(into->fnames[i]);
    tk_free(into->fnames);
    tk_free(into->fids);
    tk_free(into->nodes);
    into->nodes = nodes;
    into->n = n;
    into->fids = ids;
    into->fnames = names;
    into->nf = nf;
    into->ntraces += later->ntraces;
    return TK_OK;
}

/* ---- written ----------------------------------------------------------------------------- */

static const char *name_of(const tk_folded_partial *p, uint64_t func)
{
    uint32_t lo = 0, hi = p->nf;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->fids[mid] < func)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nf && p->fids[lo] == func ? p->fnames[lo] : "?";
}

/* A frame name without ';' and line breaks (as tk_export_folded writes it). */
static void put_frame(FILE *out, const char *name)
{
    for (const char *s = name; *s; s++)
        fputc(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

/* The process keys of p's thread nodes (tk_event_process_keys; the other nodes' 0), into
 * *keys (tk_free). */
static tk_status node_keys(const tk_folded_partial *p, int64_t **keys, tk_error *err)
{
    size_t n = p->n ? p->n : 1;
    int64_t *pids = tk_malloc(n * sizeof *pids);
    uint32_t *traces = tk_malloc(n * sizeof *traces);
    *keys = tk_malloc(n * sizeof **keys);
    tk_status st = TK_ERR_NOMEM;
    if (pids && traces && *keys) {
        for (uint32_t k = 0; k < p->n; k++) {
            pids[k] = p->nodes[k].pid;
            traces[k] = p->nodes[k].is_thread ? p->nodes[k].trace : UINT32_MAX;
        }
        st = tk_event_process_keys(pids, traces, p->n, *keys, err);
    } else
        tk_error_set(err, st, "out of memory keying processes");
    tk_free(pids);
    tk_free(traces);
    return st;
}

static tk_status write_stream(const tk_folded_partial *p, FILE *out, tk_error *err)
{
    double scale =
        p->weight == TK_FOLDED_TIME && p->ticks_per_second > 0 ? 1e9 / p->ticks_per_second : 1.0;
    int64_t *keys = NULL;
    if (p->per_thread && p->ntraces > 1) {
        tk_status st = node_keys(p, &keys, err);
        if (st != TK_OK) return st;
    }
    uint32_t *chain = NULL, cap = 0;
    for (uint32_t node = 1; node < p->n; node++) {
        uint64_t w = p->nodes[node].w;
        if (p->weight == TK_FOLDED_TIME) {
            double v = (double)w * scale + 0.5; /* saturate, never overflow */
            w = v < 1.8e19 ? (uint64_t)v : UINT64_MAX;
        }
        if (!w) continue;
        uint32_t depth = 0;
        for (uint32_t k = node; k != 0; k = p->nodes[k].parent) {
            if (depth == cap) {
                cap = cap ? cap * 2 : 256;
                uint32_t *c = tk_reallocarray(chain, cap, sizeof *c);
                if (!c) {
                    tk_free(chain);
                    tk_free(keys);
                    return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
                }
                chain = c;
            }
            chain[depth++] = k;
        }
        for (uint32_t i = depth; i-- > 0;) {
            const tk_fp_node *x = &p->nodes[chain[i]];
            if (x->is_thread) {
                char name[64];
                tk_thread_root_name(name, sizeof name, p->ntraces, keys ? keys[chain[i]] : 0,
                                    (int64_t)x->func);
                fputs(name, out);
            } else
                put_frame(out, name_of(p, x->func));
            fputc(i ? ';' : ' ', out);
        }
        fprintf(out, "%" PRIu64 "\n", w);
    }
    tk_free(chain);
    tk_free(keys);
    return ferror(out) ? tk_error_set(err, TK_ERR_IO, "cannot write the folded stacks") : TK_OK;
}

tk_status tk_folded_partial_write(const tk_folded_partial *p, const tk_writer *out, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, write_stream(p, s.f, err), err);
}
