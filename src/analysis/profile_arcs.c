/* Call arcs between the entries of a summary: for each function of a report,
 * who calls it and whom it calls, with call counts and the inclusive costs of
 * those calls (callgrind_annotate's --tree). */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compat.h"
#include "core/hash.h"
#include "model/profile.h"
#include "analysis/profile_summary.h"

/* The summary entry of a key: by function id, or by (file, name) string ids. */
typedef struct entry_index {
    tk_prof_group group;
    size_t *by_fn; /* TK_GROUP_FUNCTION: function id -> entry + 1 (0: none) */
    size_t nfn;
    tk_hmap by_key; /* TK_GROUP_FILE_FUNCTION: file << 32 | name -> entry */
} entry_index;

static size_t entry_of(const entry_index *x, const tk_profile *p, uint32_t fn, uint32_t file)
{
    if (x->group == TK_GROUP_FUNCTION)
        return fn < x->nfn && x->by_fn[fn] ? x->by_fn[fn] - 1 : SIZE_MAX;
    uint64_t v;
    uint64_t key = (uint64_t)file << 32 | tk_profile_function_at(p, fn)->name;
    return tk_hmap_get(&x->by_key, key, &v) ? (size_t)v : SIZE_MAX;
}

static int cmp_callee(const void *a, const void *b)
{
    const tk_prof_arc *x = a, *y = b;
    if (x->callee != y->callee) return x->callee < y->callee ? -1 : 1;
    return (x->caller > y->caller) - (x->caller < y->caller);
}

static int cmp_caller_index(const void *a, const void *b, void *arcs)
{
    const tk_prof_arc *base = arcs;
    const tk_prof_arc *x = &base[*(const size_t *)a], *y = &base[*(const size_t *)b];
    if (x->caller != y->caller) return x->caller < y->caller ? -1 : 1;
    return (x->callee > y->callee) - (x->callee < y->callee);
}

void tk_prof_arcs_free(tk_prof_arcs *a)
{
    if (!a) return;
    tk_free(a->arcs);
    tk_free(a->by_caller);
    tk_free(a->values_);
    tk_free(a);
}

static tk_status build_index(entry_index *x, const tk_profile *p, const tk_prof_summary *s)
{
    if (x->group == TK_GROUP_FUNCTION) {
        x->nfn = tk_profile_function_count(p);
        x->by_fn = tk_calloc(x->nfn ? x->nfn : 1, sizeof *x->by_fn);
        if (!x->by_fn) return TK_ERR_NOMEM;
        for (size_t i = 0; i < s->count; i++)
            if (s->entries[i].fn < x->nfn) x->by_fn[s->entries[i].fn] = i + 1;
        return TK_OK;
    }
    for (size_t i = 0; i < s->count; i++) {
        const tk_prof_entry *e = &s->entries[i];
        uint64_t key = (uint64_t)e->file << 32 | e->name;
        if (!tk_hmap_slot(&x->by_key, key, i, NULL)) return TK_ERR_NOMEM;
    }
    return TK_OK;
}

tk_status tk_profile_summary_arcs(const tk_profile *p, size_t part, const tk_prof_summary *s,
                                  tk_prof_group group, tk_prof_arcs **out, tk_error *err)
{
    *out = NULL;
    if (group != TK_GROUP_FUNCTION && group != TK_GROUP_FILE_FUNCTION)
        return tk_error_set(err, TK_ERR_ARG, "callers and callees need a summary by function");
    if (part > tk_profile_part_count(p))
        return tk_error_set(err, TK_ERR_ARG, "no part %zu (the profile has %zu)", part,
                            tk_profile_part_count(p));
    size_t nev = tk_profile_event_count(p);
    size_t w = nev + 1; /* calls, then the inclusive costs */
    tk_prof_arcs *a = tk_calloc(1, sizeof *a);
    entry_index x = {group, NULL, 0, TK_HMAP_INIT};
    tk_hmap pairs = TK_HMAP_INIT; /* caller entry << 32 | callee entry -> arc */
    uint64_t *vals = NULL;
    size_t n = 0, cap = 0;
    tk_status st = a ? build_index(&x, p, s) : TK_ERR_NOMEM;
    if (st == TK_OK && s->count > UINT32_MAX) st = TK_ERR_LIMIT;
    for (size_t i = 0; st == TK_OK && i < tk_profile_part_count(p); i++) {
        if (part && i + 1 != part) continue;
        const tk_prof_part *pt = tk_profile_part(p, i);
        const tk_prof_call *rows = pt->calls.rows;
        for (size_t r = 0; st == TK_OK && r < pt->calls.count; r++) {
            const tk_prof_call *c = &rows[r];
            size_t from = entry_of(&x, p, c->fn, c->file);
            size_t to = entry_of(&x, p, c->callee, tk_profile_function_at(p, c->callee)->file);
            if (from == SIZE_MAX || to == SIZE_MAX) continue; /* not in the summary */
            int inserted;
            uint64_t *slot = tk_hmap_slot(&pairs, (uint64_t)from << 32 | to, n, &inserted);
            if (!slot) {
                st = TK_ERR_NOMEM;
                break;
            }
            if (inserted) {
                if (n == cap) {
                    size_t ncap = cap ? 2 * cap : 64;
                    uint64_t *nv = tk_realloc(vals, ncap * w * sizeof *nv);
                    tk_prof_arc *na = tk_realloc(a->arcs, ncap * sizeof *na);
                    if (nv) vals = nv;
                    if (na) a->arcs = na;
                    if (!nv || !na) {
                        st = TK_ERR_NOMEM;
                        break;
                    }
                    cap = ncap;
                }
                memset(vals + n * w, 0, w * sizeof *vals);
                a->arcs[n].caller = from;
                a->arcs[n].callee = to;
                n++;
            }
            uint64_t *d = vals + *slot * w;
            const uint64_t *v = pt->calls.values + r * w;
            for (size_t j = 0; j < w; j++)
                if (__builtin_add_overflow(d[j], v[j], &d[j])) st = TK_ERR_LIMIT;
        }
    }
    tk_hmap_free(&pairs);
    tk_hmap_free(&x.by_key);
    tk_free(x.by_fn);
    if (st == TK_OK) return tk_prof_arcs_make(out, a, vals, n, nev, err);
    tk_free(vals);
    tk_prof_arcs_free(a);
    return tk_error_set(
        err, st, st == TK_ERR_LIMIT ? "a sum of call costs overflows 64 bits" : "out of memory");
}

tk_status tk_prof_arcs_make(tk_prof_arcs **out, tk_prof_arcs *a, uint64_t *vals, size_t n,
                            size_t nev, tk_error *err)
{
    *out = NULL;
    if (n && !(a->by_caller = tk_malloc(n * sizeof *a->by_caller))) {
        tk_free(vals);
        tk_prof_arcs_free(a);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    size_t w = nev + 1;
    for (size_t i = 0; i < n; i++) {
        a->arcs[i].calls = vals[i * w];
        a->arcs[i].inclusive = vals + i * w + 1;
    }
    if (n) { /* (qsort of a NULL array is undefined even for 0 elements) */
        qsort(a->arcs, n, sizeof *a->arcs, cmp_callee);
        for (size_t i = 0; i < n; i++) a->by_caller[i] = i;
        tk_qsort_r(a->by_caller, n, sizeof *a->by_caller, cmp_caller_index, a->arcs);
    }
    a->count = n;
    a->n_events = nev;
    a->values_ = vals;
    *out = a;
    return TK_OK;
}

size_t tk_prof_arcs_into(const tk_prof_arcs *a, size_t entry, size_t *first)
{
    size_t lo = 0, hi = a->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->arcs[mid].callee < entry)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < a->count && a->arcs[end].callee == entry) end++;
    *first = lo;
    return end - lo;
}

size_t tk_prof_arcs_out_of(const tk_prof_arcs *a, size_t entry, size_t *first)
{
    size_t lo = 0, hi = a->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->arcs[a->by_caller[mid]].caller < entry)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < a->count && a->arcs[a->by_caller[end]].caller == entry) end++;
    *first = lo;
    return end - lo;
}

size_t tk_prof_arcs_count(const tk_prof_arcs *a) { return a->count; }

void tk_prof_arc_get(const tk_prof_arcs *a, size_t i, tk_prof_arc_info *out)
{
    memset(out, 0, sizeof *out);
    if (i >= a->count) return;
    out->caller = a->arcs[i].caller;
    out->callee = a->arcs[i].callee;
    out->calls = a->arcs[i].calls;
    out->inclusive = a->arcs[i].inclusive;
}

size_t tk_prof_arcs_by_caller(const tk_prof_arcs *a, size_t k)
{
    return k < a->count ? a->by_caller[k] : SIZE_MAX;
}
