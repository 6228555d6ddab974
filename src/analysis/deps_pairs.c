/* A deps model's static dependences (its dynamic ones grouped by the pair of instructions
 * and the port) and the statistics of an instruction's values: the instruction and
 * dependence tables of the WET report. */
#include <string.h>

#include "model/deps_internal.h"
#include "core/alloc.h"
#include "core/compat.h"
#include "tracekit/deps_report.h"

struct tk_deps_pairs {
    tk_deps_pair *v;
    size_t count, cap;
};

static int cmp_id(const void *a, const void *b, void *deps)
{
    tk_deps_instr x, y;
    tk_deps_get_instr(deps, *(const uint32_t *)a, &x);
    tk_deps_get_instr(deps, *(const uint32_t *)b, &y);
    return (x.id > y.id) - (x.id < y.id);
}

static int push_pair(tk_deps_pairs *p, const tk_deps_pair *pair)
{
    if (p->count == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 256;
        tk_deps_pair *v = tk_realloc(p->v, cap * sizeof *v);
        if (!v) return -1;
        p->v = v;
        p->cap = cap;
    }
    p->v[p->count++] = *pair;
    return 0;
}

/* The pairs of one port of instruction i: count[] (zero on entry and on return) gathers the
 * entries per instruction depended on, seen[] lists those once. */
static int port_pairs(tk_deps_pairs *p, const tk_deps *d, uint32_t i, uint32_t port,
                      uint64_t *count, uint32_t *seen)
{
    const tk_dep *e;
    size_t n = tk_deps_port_span(d, i, port, &e), nseen = 0;
    for (size_t k = 0; k < n; k++)
        if (count[e[k].dep]++ == 0) seen[nseen++] = e[k].dep;
    tk_qsort_r(seen, nseen, sizeof *seen, cmp_id, (void *)d);
    int rc = 0;
    for (size_t k = 0; k < nseen; k++) {
        tk_deps_pair pair = {i, port, seen[k], count[seen[k]]};
        if (rc == 0) rc = push_pair(p, &pair);
        count[seen[k]] = 0;
    }
    return rc;
}

tk_status tk_deps_pairs_open(tk_deps_pairs **out, const tk_deps *d, tk_error *err)
{
    *out = NULL;
    uint32_t n = tk_deps_count(d);
    size_t room = n ? n : 1;
    tk_deps_pairs *p = tk_calloc(1, sizeof *p);
    uint32_t *order = tk_malloc(room * sizeof *order), *seen = tk_malloc(room * sizeof *seen);
    uint64_t *count = tk_calloc(room, sizeof *count);
    int rc = p && order && seen && count ? 0 : -1;
    if (rc == 0) tk_deps_order_by_id(d, order);
    for (uint32_t o = 0; rc == 0 && o < n; o++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, order[o], &in);
        for (uint32_t port = 0; rc == 0 && port < in.nports; port++)
            rc = port_pairs(p, d, order[o], port, count, seen);
    }
    tk_free(order);
    tk_free(seen);
    tk_free(count);
    if (rc != 0) {
        tk_deps_pairs_free(p);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    *out = p;
    return TK_OK;
}

size_t tk_deps_pairs_count(const tk_deps_pairs *p) { return p->count; }

const tk_deps_pair *tk_deps_pairs_at(const tk_deps_pairs *p, size_t i) { return &p->v[i]; }

void tk_deps_pairs_free(tk_deps_pairs *p)
{
    if (!p) return;
    tk_free(p->v);
    tk_free(p);
}

/* ---- values ---------------------------------------------------------------------------- */

/* One value of the instruction: its low word, whether it is wider, its position. */
typedef struct value_key {
    uint64_t low;
    size_t k;
    int wide;
} value_key;

typedef struct value_cmp {
    const tk_deps *d;
    uint32_t index;
} value_cmp;

/* By low word, then narrow first, then (two wide ones) by their whole hexadecimal text. */
static int cmp_value(const void *a, const void *b, void *ctx)
{
    const value_key *x = a, *y = b;
    if (x->low != y->low) return x->low < y->low ? -1 : 1;
    if (x->wide != y->wide) return x->wide - y->wide;
    if (!x->wide) return 0;
    const value_cmp *c = ctx;
    char hx[TK_DEPS_VALUE_HEX], hy[TK_DEPS_VALUE_HEX];
    size_t nx = tk_deps_value_hex(c->d, c->index, x->k, hx);
    size_t ny = tk_deps_value_hex(c->d, c->index, y->k, hy);
    if (nx != ny) return nx < ny ? -1 : 1;
    return strcmp(hx, hy);
}

tk_status tk_deps_value_stats_get(const tk_deps *d, uint32_t index, tk_deps_value_stats *out,
                                  tk_error *err)
{
    memset(out, 0, sizeof *out);
    const uint32_t *insts;
    const uint64_t *values;
    size_t n = tk_deps_values_span(d, index, &insts, &values);
    out->count = n;
    if (!n) return TK_OK;
    value_key *v = tk_malloc(n * sizeof *v);
    if (!v) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    char hex[TK_DEPS_VALUE_HEX];
    for (size_t k = 0; k < n; k++) {
        v[k].low = values[k];
        v[k].k = k;
        v[k].wide = tk_deps_value_hex(d, index, k, hex) > 16;
    }
    value_cmp c = {d, index};
    tk_qsort_r(v, n, sizeof *v, cmp_value, &c);
    for (size_t k = 0, run = 0; k < n; k++) {
        run = k > 0 && cmp_value(&v[k - 1], &v[k], &c) == 0 ? run + 1 : 1;
        if (run == 1) out->distinct++;
        if (run > out->top_count) {
            out->top_count = run;
            out->top = v[k].k;
        }
    }
    tk_free(v);
    return TK_OK;
}
