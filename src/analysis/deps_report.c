/* Reports over a deps model: source lines, the hottest of them and the longest chains, and
 * the instructions by id. */
#include "tracekit/deps_report.h"

#include <string.h>

#include "core/alloc.h"
#include "core/compat.h"

/* ---- order ----------------------------------------------------------------------------- */

/* By id; the index breaks ties (ids are unique in a model). */
static int cmp_by_id(const void *a, const void *b, void *deps)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    tk_deps_instr x, y;
    tk_deps_get_instr(deps, i, &x);
    tk_deps_get_instr(deps, j, &y);
    if (x.id != y.id) return x.id < y.id ? -1 : 1;
    return (i > j) - (i < j);
}

void tk_deps_order_by_id(const tk_deps *d, uint32_t *order)
{
    uint32_t n = tk_deps_count(d);
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    tk_qsort_r(order, n, sizeof *order, cmp_by_id, (void *)d);
}

/* ---- source lines ---------------------------------------------------------------------- */

struct tk_deps_lines {
    tk_deps_line *v;
    size_t count;
};

/* Order of instructions by (file, line, address), instructions without a file last; the
 * index breaks ties. */
static int cmp_instr_pos(const void *a, const void *b, void *deps)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    tk_deps_instr p, q;
    tk_deps_get_instr(deps, i, &p);
    tk_deps_get_instr(deps, j, &q);
    if (!p.file != !q.file) return p.file ? -1 : 1;
    int c = p.file ? strcmp(p.file, q.file) : 0;
    if (c) return c;
    if (p.line != q.line) return p.line < q.line ? -1 : 1;
    if (p.addr != q.addr) return p.addr < q.addr ? -1 : 1;
    return (i > j) - (i < j);
}

/* The entries of l from the instructions in source order; group[i]: the entry of
 * instruction i. */
static void group_lines(tk_deps_lines *l, const tk_deps *d, const uint32_t *order, uint32_t count,
                        uint32_t *group)
{
    size_t k = 0;
    tk_deps_instr prev;
    memset(&prev, 0, sizeof prev);
    for (uint32_t o = 0; o < count; o++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, order[o], &in);
        int same = k > 0 && in.file && prev.file && in.line == prev.line &&
                   strcmp(in.file, prev.file) == 0;
        if (!same) l->v[k++].first_instr = order[o];
        l->v[k - 1].instances += in.ninstances;
        l->v[k - 1].instrs++;
        group[order[o]] = (uint32_t)(k - 1);
        prev = in;
    }
    l->count = k;
}

tk_status tk_deps_lines_open(tk_deps_lines **out, const tk_deps *d, const tk_slice *slice,
                             tk_error *err)
{
    *out = NULL;
    uint32_t count = tk_deps_count(d);
    tk_deps_lines *l = tk_calloc(1, sizeof *l);
    uint32_t *order = tk_malloc((count ? count : 1) * sizeof *order);
    uint32_t *group = tk_malloc((count ? count : 1) * sizeof *group);
    if (l) l->v = tk_calloc(count ? count : 1, sizeof *l->v);
    if (!l || !l->v || !order || !group) {
        tk_free(order);
        tk_free(group);
        tk_deps_lines_free(l);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    for (uint32_t i = 0; i < count; i++) order[i] = i;
    tk_qsort_r(order, count, sizeof *order, cmp_instr_pos, (void *)d);
    group_lines(l, d, order, count, group);
    if (slice)
        for (uint32_t i = 0; i < count; i++)
            l->v[group[i]].in_slice += tk_slice_count_instr(slice, d, i);
    tk_free(order);
    tk_free(group);
    *out = l;
    return TK_OK;
}

size_t tk_deps_lines_count(const tk_deps_lines *l) { return l->count; }

const tk_deps_line *tk_deps_lines_at(const tk_deps_lines *l, size_t i) { return &l->v[i]; }

/* Most instances first; then the first instruction (source order of the entries: their
 * first instructions are distinct). */
static int cmp_line_hot(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    const tk_deps_line *x = a, *y = b;
    if (x->instances != y->instances) return x->instances > y->instances ? -1 : 1;
    return x->first_instr < y->first_instr ? -1 : x->first_instr > y->first_instr;
}

void tk_deps_lines_sort_hot(tk_deps_lines *l)
{
    tk_qsort_r(l->v, l->count, sizeof *l->v, cmp_line_hot, NULL);
}

void tk_deps_lines_free(tk_deps_lines *l)
{
    if (!l) return;
    tk_free(l->v);
    tk_free(l);
}

/* ---- the report ------------------------------------------------------------------------ */

struct tk_deps_report {
    tk_deps_stats stats;
    tk_deps_lines *lines;
    tk_chain_summary *chains;
    size_t nchains;
    int cyclic;
};

tk_status tk_deps_report_open(tk_deps_report **out, const tk_deps *d,
                              const tk_deps_report_options *opt, tk_error *err)
{
    static const tk_deps_report_options defaults = TK_DEPS_REPORT_OPTIONS_INIT;
    if (!opt) opt = &defaults;
    *out = NULL;
    tk_deps_report *r = tk_calloc(1, sizeof *r);
    if (!r) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_deps_get_stats(d, &r->stats);
    tk_status st = tk_deps_lines_open(&r->lines, d, NULL, err);
    if (st == TK_OK && !(r->chains = tk_calloc(opt->chains ? opt->chains : 1, sizeof *r->chains)))
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) {
        tk_deps_lines_sort_hot(r->lines);
        if (opt->chains)
            st = tk_chain_longest(d, opt->chains, r->chains, &r->nchains, &r->cyclic, err);
    }
    if (st != TK_OK) {
        tk_deps_report_free(r);
        return st;
    }
    *out = r;
    return TK_OK;
}

void tk_deps_report_stats(const tk_deps_report *r, tk_deps_stats *out) { *out = r->stats; }

const tk_deps_lines *tk_deps_report_lines(const tk_deps_report *r) { return r->lines; }

size_t tk_deps_report_chain_count(const tk_deps_report *r) { return r->nchains; }

const tk_chain_summary *tk_deps_report_chain(const tk_deps_report *r, size_t i)
{
    return &r->chains[i];
}

int tk_deps_report_cyclic(const tk_deps_report *r) { return r->cyclic; }

void tk_deps_report_free(tk_deps_report *r)
{
    if (!r) return;
    tk_deps_lines_free(r->lines);
    tk_free(r->chains);
    tk_free(r);
}
