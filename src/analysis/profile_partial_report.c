/* The report of a profile report's partial (tk_prof_report_open_partial): its summary made as
 * tk_profile_summarize makes that of the inputs' profile (profile_summary.c: the entries in
 * the same order, inclusive costs from the call graph of the arcs, capped at the totals),
 * then the report's common steps (profile_report.c). */
#include <string.h>

#include "analysis/call_graph.h"
#include "analysis/profile_partial.h"
#include "analysis/profile_report_impl.h"
#include "analysis/profile_summary.h"
#include "core/alloc.h"
#include "model/profile.h"

/* By function and file-function: the inclusive costs from the call graph of the arcs, whose
 * nodes are the entries in their order (graph_inclusive). incl: entry k's at incl + k *
 * stride, holding its self costs. */
static tk_status arcs_inclusive(const tk_prof_partial *pp, const uint32_t *order,
                                const uint32_t *pos, uint64_t *incl, size_t stride,
                                tk_prof_summary *s, uint32_t *cycle, unsigned char *estimated)
{
    size_t n = pp->count ? pp->count : 1, na = pp->narcs ? pp->narcs : 1;
    uint32_t *caller = tk_malloc(na * sizeof *caller), *callee = tk_malloc(na * sizeof *callee);
    unsigned char *level = tk_calloc(n, 1);
    tk_status st = caller && callee && level ? TK_OK : TK_ERR_NOMEM;
    for (size_t i = 0; i < pp->narcs && st == TK_OK; i++) {
        caller[i] = pos[pp->arcs[i].caller];
        callee[i] = pos[pp->arcs[i].callee];
    }
    for (size_t k = 0; k < pp->count && st == TK_OK; k++) {
        uint32_t name = pp->entries[order[k]].name;
        level[k] =
            name != TK_PROF_NONE && tk_name_is_recursion_level(tk_profile_str(pp->names, name),
                                                               tk_profile_str_len(pp->names, name));
    }
    tk_prof_part arcs; /* the arcs as the call rows of one part: one row per pair */
    memset(&arcs, 0, sizeof arcs);
    arcs.calls.values = pp->arc_values;
    arcs.calls.count = pp->narcs;
    const tk_prof_part *parts[1] = {&arcs};
    tk_call_nodes m = {parts, 1, pp->count, NULL, caller, callee};
    if (st == TK_OK && pp->count)
        st = tk_inclusive_estimate(&m, pp->nev, s->totals, level, incl, stride, cycle, estimated,
                                   &s->cycles, &s->n_cycles);
    tk_free(caller);
    tk_free(callee);
    tk_free(level);
    return st;
}

/* Entry k of the summary from partial entry i (its key's fields, as make_entries sets them). */
static void entry_of(const tk_prof_partial *pp, size_t i, tk_prof_entry *e)
{
    const tk_pp_entry *x = &pp->entries[i];
    e->object = e->file = e->name = e->fn = TK_PROF_NONE;
    e->calls = pp->calls[i];
    switch (pp->group) {
    case TK_GROUP_FUNCTION:
        e->fn = (uint32_t)i;
        e->object = x->object;
        e->file = x->file;
        e->name = x->name;
        break;
    case TK_GROUP_FILE_FUNCTION:
        e->file = x->file;
        e->name = x->name;
        e->object = tk_pp_shown_object(x);
        break;
    case TK_GROUP_FILE: e->file = x->file; break;
    case TK_GROUP_OBJECT: e->object = x->object; break;
    case TK_GROUP_LINE:
        e->file = x->file;
        e->line = x->line;
        break;
    }
}

/* The entries with their self costs (and room for their inclusive ones), in order. */
static tk_status make_entries(const tk_prof_partial *pp, const uint32_t *order, int incl,
                              tk_prof_summary *s)
{
    size_t nev = pp->nev, w = (incl ? 2 : 1) * nev, n = pp->count ? pp->count : 1;
    s->entries = tk_calloc(n, sizeof *s->entries);
    s->values_ = tk_calloc(n, (w ? w : 1) * sizeof *s->values_);
    if (!s->entries || !s->values_) return TK_ERR_NOMEM;
    s->count = pp->count;
    for (size_t k = 0; k < pp->count; k++) {
        tk_prof_entry *e = &s->entries[k];
        entry_of(pp, order[k], e);
        e->self = s->values_ + k * w;
        memcpy(e->self, pp->self + (size_t)order[k] * nev, nev * sizeof *e->self);
        if (!incl) continue;
        e->inclusive = e->self + nev;
        memcpy(e->inclusive, e->self, nev * sizeof *e->self);
        if (pp->out) {
            tk_status st = tk_pp_add(e->inclusive, pp->out + (size_t)order[k] * nev, nev);
            if (st != TK_OK) return st;
        }
    }
    return TK_OK;
}

/* Inclusive costs by function and file-function, then every one capped at the totals. */
static tk_status finish_inclusive(const tk_prof_partial *pp, const uint32_t *order,
                                  tk_prof_summary *s)
{
    size_t n = pp->count ? pp->count : 1, nev = pp->nev;
    uint32_t *pos = tk_malloc(n * sizeof *pos), *cycle = tk_calloc(n, sizeof *cycle);
    unsigned char *estimated = tk_calloc(n, 1);
    tk_status st = pos && cycle && estimated ? TK_OK : TK_ERR_NOMEM;
    for (size_t k = 0; k < pp->count && st == TK_OK; k++) pos[order[k]] = (uint32_t)k;
    if (st == TK_OK && !pp->out && pp->count)
        st = arcs_inclusive(pp, order, pos, s->entries[0].inclusive, 2 * nev, s, cycle, estimated);
    for (size_t k = 0; k < pp->count && st == TK_OK; k++) {
        tk_prof_entry *e = &s->entries[k];
        e->cycle = cycle[k];
        e->estimated = estimated[k];
        for (size_t j = 0; j < nev; j++)
            if (e->inclusive[j] > s->totals[j]) e->inclusive[j] = s->totals[j];
    }
    tk_free(pos);
    tk_free(cycle);
    tk_free(estimated);
    return st;
}

static tk_status partial_summary(void *ctx, int self_only, tk_prof_group group,
                                 tk_prof_summary **out, tk_error *err)
{
    const tk_prof_partial *pp = ctx;
    *out = NULL;
    if (group != pp->group || (!self_only && pp->self_only))
        return tk_error_set(err, TK_ERR_ARG,
                            "the partial is of another key or has no "
                            "inclusive costs");
    int incl = !self_only;
    uint32_t *order = NULL;
    tk_prof_summary *s = tk_calloc(1, sizeof *s);
    tk_status st = s ? tk_pp_order(pp, &order) : TK_ERR_NOMEM;
    if (st == TK_OK) {
        s->n_events = pp->nev;
        s->inclusive = incl;
        s->totals = tk_calloc(pp->nev ? pp->nev : 1, sizeof *s->totals);
        st = s->totals ? make_entries(pp, order, incl, s) : TK_ERR_NOMEM;
    }
    if (st == TK_OK) memcpy(s->totals, pp->totals, pp->nev * sizeof *s->totals);
    if (st == TK_OK && incl) st = finish_inclusive(pp, order, s);
    tk_free(order);
    if (st != TK_OK) {
        tk_prof_summary_free(s);
        return tk_error_set(err, st,
                            st == TK_ERR_LIMIT ? "cost sum overflows 64 bits" : "out of memory");
    }
    *out = s;
    return TK_OK;
}

/* The summary's entry of partial entry i, or SIZE_MAX (not in it). */
static size_t summary_entry(const tk_prof_partial *pp, const size_t *by_fn, const tk_hmap *by_key,
                            uint32_t i)
{
    if (pp->group == TK_GROUP_FUNCTION) return by_fn[i] ? by_fn[i] - 1 : SIZE_MAX;
    uint64_t v;
    const tk_pp_entry *e = &pp->entries[i];
    return tk_hmap_get(by_key, (uint64_t)e->file << 32 | e->name, &v) ? (size_t)v : SIZE_MAX;
}

/* The arcs between the entries of s (tk_profile_summary_arcs): the partial's arcs, each
 * pair of entries once already. */
static tk_status partial_arcs(void *ctx, const tk_prof_summary *s, tk_prof_group group,
                              tk_prof_arcs **out, tk_error *err)
{
    const tk_prof_partial *pp = ctx;
    *out = NULL;
    if (group != TK_GROUP_FUNCTION && group != TK_GROUP_FILE_FUNCTION)
        return tk_error_set(err, TK_ERR_ARG, "callers and callees need a summary by function");
    size_t w = pp->nev + 1, n = 0;
    size_t *by_fn = group == TK_GROUP_FUNCTION ? tk_calloc(pp->count + 1, sizeof *by_fn) : NULL;
    tk_hmap by_key = TK_HMAP_INIT;
    tk_prof_arcs *a = tk_calloc(1, sizeof *a);
    uint64_t *vals = tk_malloc((pp->narcs ? pp->narcs : 1) * w * sizeof *vals);
    if (a) a->arcs = tk_malloc((pp->narcs ? pp->narcs : 1) * sizeof *a->arcs);
    tk_status st =
        a && a->arcs && vals && (by_fn || group != TK_GROUP_FUNCTION) ? TK_OK : TK_ERR_NOMEM;
    for (size_t i = 0; i < s->count && st == TK_OK; i++) {
        const tk_prof_entry *e = &s->entries[i];
        if (by_fn)
            by_fn[e->fn] = i + 1;
        else if (tk_hmap_put(&by_key, (uint64_t)e->file << 32 | e->name, i) != 0)
            st = TK_ERR_NOMEM;
    }
    for (size_t i = 0; i < pp->narcs && st == TK_OK; i++) {
        size_t from = summary_entry(pp, by_fn, &by_key, pp->arcs[i].caller);
        size_t to = summary_entry(pp, by_fn, &by_key, pp->arcs[i].callee);
        if (from == SIZE_MAX || to == SIZE_MAX) continue; /* not in the summary */
        a->arcs[n].caller = from;
        a->arcs[n].callee = to;
        memcpy(vals + n * w, pp->arc_values + i * w, w * sizeof *vals);
        n++;
    }
    tk_free(by_fn);
    tk_hmap_free(&by_key);
    if (st == TK_OK) return tk_prof_arcs_make(out, a, vals, n, pp->nev, err);
    tk_free(vals);
    tk_prof_arcs_free(a);
    return tk_error_set(err, st, "out of memory");
}

tk_status tk_prof_partial_check(const tk_prof_partial *pp, tk_error *err)
{
    for (size_t i = 0; i < pp->nev; i++)
        if (pp->late >> i & 1) {
            const char *name = tk_profile_str(pp->names, tk_profile_event(pp->names, i)->name);
            return tk_error_set(err, TK_ERR_UNSUPPORTED,
                                "event type '%.200s' appears after "
                                "costs were recorded without it",
                                name);
        }
    return TK_OK;
}

tk_status tk_prof_report_open_partial(tk_prof_report **out, const tk_prof_partial *pp,
                                      const tk_prof_report_options *opt, tk_error *err)
{
    *out = NULL;
    if (opt && opt->part)
        return tk_error_set(err, TK_ERR_ARG, "a partial has no parts to choose from");
    if (opt && opt->group != pp->group)
        return tk_error_set(err, TK_ERR_ARG, "the partial is of another key");
    tk_prof_report_options o = TK_PROF_REPORT_OPTIONS_INIT;
    if (opt) o = *opt;
    o.group = pp->group;
    if (pp->self_only && (o.tree || o.cycles || !o.self_only))
        return tk_error_set(err, TK_ERR_ARG, "the partial has self costs only");
    tk_status st = tk_prof_partial_check(pp, err);
    if (st != TK_OK) return st;
    tk_prof_report_source src = {pp->names, (void *)(uintptr_t)pp, partial_summary, partial_arcs};
    return tk_prof_report_build(out, &src, &o, err);
}
