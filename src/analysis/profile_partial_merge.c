/* Merging a profile report's partials (tk_prof_partial_merge): the later partial's event
 * types, names, entries and arcs into the earlier's, as reading the later inputs after the
 * earlier ones into one profile would have summarised them (profile_partial.h says how the
 * order of the entries follows). Associative: the result depends only on the inputs in
 * their order. */
#include <string.h>

#include "analysis/profile_partial.h"
#include "core/alloc.h"
#include "model/profile.h"

typedef struct merge {
    tk_prof_partial *a;
    const tk_prof_partial *b;
    tk_pp_strmap m;
    size_t evmap[TK_PROFILE_MAX_EVENTS];
    uint32_t *emap; /* b's entry -> a's */
} merge;

/* a[evmap[j]] += b[j] for b's events. */
static tk_status add_mapped(const merge *g, uint64_t *a, const uint64_t *b)
{
    for (size_t j = 0; j < g->b->nev; j++)
        if (__builtin_add_overflow(a[g->evmap[j]], b[j], &a[g->evmap[j]])) return TK_ERR_LIMIT;
    return TK_OK;
}

/* By function: b's functions as a's (new ones appended in b's order). */
static tk_status map_functions(merge *g)
{
    const tk_profile *bn = g->b->names;
    tk_status st = TK_OK;
    for (size_t f = 0; f < tk_profile_function_count(bn) && st == TK_OK; f++) {
        const tk_prof_function *fn = tk_profile_function_at(bn, (uint32_t)f);
        uint32_t o, fl, n;
        if ((st = tk_pp_map_str(&g->m, fn->object, &o)) == TK_OK &&
            (st = tk_pp_map_str(&g->m, fn->file, &fl)) == TK_OK &&
            (st = tk_pp_map_str(&g->m, fn->name, &n)) == TK_OK)
            st = tk_profile_function(g->a->names, o, fl, n, &g->emap[f], NULL);
    }
    return st == TK_OK ? tk_pp_function_entries(g->a) : st;
}

/* b's entry e (of phase `phase`) as a's: found, made, or moved to the end of the first pass
 * (a later cost line makes an entry that only calls had reached). */
static tk_status map_entry(merge *g, const tk_pp_entry *e, size_t *idx)
{
    tk_pp_entry k = *e;
    tk_status st;
    if ((st = tk_pp_map_str(&g->m, e->object, &k.object)) != TK_OK ||
        (st = tk_pp_map_str(&g->m, e->file, &k.file)) != TK_OK ||
        (st = tk_pp_map_str(&g->m, e->name, &k.name)) != TK_OK)
        return st;
    int made;
    if ((st = tk_pp_entry_find(g->a, &k, e->phase, idx, &made)) != TK_OK) return st;
    tk_pp_entry *d = &g->a->entries[*idx];
    if (!made && e->phase == TK_PP_COSTS && d->phase == TK_PP_CALLS) {
        d->phase = TK_PP_COSTS;
        d->seq = g->a->seq[0]++;
    }
    uint32_t obj;
    if (e->has & TK_PP_SELF_OBJ) { /* the last cost line's: the later one */
        if ((st = tk_pp_map_str(&g->m, e->self_obj, &obj)) != TK_OK) return st;
        d->self_obj = obj;
        d->has |= TK_PP_SELF_OBJ;
    }
    if ((e->has & TK_PP_CALL_OBJ) && !(d->has & TK_PP_CALL_OBJ)) { /* the first call's */
        if ((st = tk_pp_map_str(&g->m, e->call_obj, &obj)) != TK_OK) return st;
        d->call_obj = obj;
        d->has |= TK_PP_CALL_OBJ;
    }
    return TK_OK;
}

/* Not by function: b's entries in their order (the first pass's, then the second's). */
static tk_status map_entries(merge *g)
{
    uint32_t *order;
    tk_status st = tk_pp_order(g->b, &order);
    for (size_t k = 0; k < g->b->count && st == TK_OK; k++) {
        size_t idx;
        st = map_entry(g, &g->b->entries[order[k]], &idx);
        g->emap[order[k]] = (uint32_t)idx;
    }
    tk_free(order);
    return st;
}

/* b's values into a's entries and arcs. */
static tk_status add_values(merge *g)
{
    tk_prof_partial *a = g->a;
    const tk_prof_partial *b = g->b;
    tk_status st = add_mapped(g, a->totals, b->totals);
    for (size_t i = 0; i < b->count && st == TK_OK; i++) {
        size_t d = g->emap[i];
        st = add_mapped(g, a->self + d * a->nev, b->self + i * b->nev);
        if (st == TK_OK && a->out) st = add_mapped(g, a->out + d * a->nev, b->out + i * b->nev);
        if (st == TK_OK && __builtin_add_overflow(a->calls[d], b->calls[i], &a->calls[d]))
            st = TK_ERR_LIMIT;
    }
    for (size_t i = 0; i < b->narcs && st == TK_OK; i++) {
        const uint64_t *v = b->arc_values + i * (b->nev + 1);
        uint64_t *d = tk_pp_arc_add(a, g->emap[b->arcs[i].caller], g->emap[b->arcs[i].callee]);
        if (!d) return TK_ERR_NOMEM;
        if (__builtin_add_overflow(d[0], v[0], &d[0])) return TK_ERR_LIMIT;
        st = add_mapped(g, d + 1, v + 1);
    }
    return st;
}

tk_status tk_prof_partial_merge(tk_prof_partial *into, const tk_prof_partial *later, tk_error *err)
{
    if (into->group != later->group || into->self_only != later->self_only)
        return tk_error_set(err, TK_ERR_ARG, "partials of another key or detail");
    merge g = {into, later, {NULL, NULL, NULL}, {0}, NULL};
    tk_status st = tk_pp_strmap_open(&g.m, later->names, into->names);
    g.emap = tk_malloc((later->count ? later->count : 1) * sizeof *g.emap);
    if (st != TK_OK || !g.emap) {
        tk_pp_strmap_free(&g.m);
        tk_free(g.emap);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    st = tk_pp_merge_events(into, &g.m, later->late, g.evmap, err);
    if (st == TK_OK) {
        into->has_rows |= later->has_rows;
        into->nparts += later->nparts;
        st = into->group == TK_GROUP_FUNCTION ? map_functions(&g) : map_entries(&g);
        if (st == TK_OK) st = add_values(&g);
        if (st != TK_OK)
            tk_error_set(err, st,
                         st == TK_ERR_LIMIT ? "cost sum overflows 64 bits" : "out of memory");
    }
    tk_pp_strmap_free(&g.m);
    tk_free(g.emap);
    return st;
}
