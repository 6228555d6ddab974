/* A profile report's partial made from a profile (tk_prof_partial_open): its names, event
 * types and derived events copied, then its parts walked as tk_profile_summarize walks them
 * (profile_summary.c: group_parts), with the same keys, in the same order. */
#include <string.h>

#include "analysis/profile_partial.h"
#include "core/alloc.h"
#include "model/profile.h"

/* ---- names ------------------------------------------------------------------------------ */

tk_status tk_pp_strmap_open(tk_pp_strmap *m, const tk_profile *src, tk_profile *dst)
{
    size_t n = tk_profile_string_count(src);
    m->src = src;
    m->dst = dst;
    m->ids = tk_malloc((n ? n : 1) * sizeof *m->ids);
    if (!m->ids) return TK_ERR_NOMEM;
    memset(m->ids, 0xff, n * sizeof *m->ids);
    return TK_OK;
}

void tk_pp_strmap_free(tk_pp_strmap *m)
{
    tk_free(m->ids);
    m->ids = NULL;
}

tk_status tk_pp_map_str(tk_pp_strmap *m, uint32_t id, uint32_t *out)
{
    if (id == TK_PROF_NONE || !m->ids) { /* none, or the same names */
        *out = id;
        return TK_OK;
    }
    if (m->ids[id] == TK_PROF_NONE) {
        tk_status st = tk_profile_intern(m->dst, tk_profile_str(m->src, id),
                                         tk_profile_str_len(m->src, id), &m->ids[id], NULL);
        if (st != TK_OK) return st;
    }
    *out = m->ids[id];
    return TK_OK;
}

/* The values of every entry and arc with room for nev events (the new ones zero). */
static tk_status restride(tk_prof_partial *pp, size_t nev)
{
    size_t old = pp->nev, cap = pp->cap ? pp->cap : 1, acap = pp->arcs_cap ? pp->arcs_cap : 1;
    uint64_t *s = tk_calloc(cap, nev * sizeof *s), *o = NULL, *a = NULL;
    if (pp->out) o = tk_calloc(cap, nev * sizeof *o);
    if (pp->arc_values) a = tk_calloc(acap, (nev + 1) * sizeof *a);
    if (!s || (pp->out && !o) || (pp->arc_values && !a)) {
        tk_free(s);
        tk_free(o);
        tk_free(a);
        return TK_ERR_NOMEM;
    }
    for (size_t i = 0; i < pp->count; i++) {
        memcpy(s + i * nev, pp->self + i * old, old * sizeof *s);
        if (o) memcpy(o + i * nev, pp->out + i * old, old * sizeof *o);
    }
    for (size_t i = 0; a && i < pp->narcs; i++)
        memcpy(a + i * (nev + 1), pp->arc_values + i * (old + 1), (old + 1) * sizeof *a);
    tk_free(pp->self);
    pp->self = s;
    if (o) {
        tk_free(pp->out);
        pp->out = o;
    }
    if (a) {
        tk_free(pp->arc_values);
        pp->arc_values = a;
    }
    pp->nev = nev;
    return TK_OK;
}

/* One event type of the source as pp's: found by name, or added (late: after costs). */
static tk_status merge_event(tk_prof_partial *pp, tk_pp_strmap *m, size_t i, int late,
                             size_t *index, tk_error *err)
{
    const tk_prof_event *ev = tk_profile_event(m->src, i);
    const char *name = tk_profile_str(m->src, ev->name);
    size_t len = tk_profile_str_len(m->src, ev->name);
    int found = tk_profile_find_event(m->dst, name, len);
    tk_status st = TK_OK;
    if (found >= 0)
        *index = (size_t)found;
    else if ((st = tk_profile_add_event(m->dst, name, len, index, err)) != TK_OK)
        return st;
    else if (late)
        pp->late |= (uint64_t)1 << *index;
    uint32_t ln;
    if (ev->long_name != TK_PROF_NONE) {
        if ((st = tk_pp_map_str(m, ev->long_name, &ln)) != TK_OK)
            return tk_error_set(err, st, "out of memory");
        tk_profile_set_event_long_name(m->dst, *index, ln);
    }
    return TK_OK;
}

tk_status tk_pp_merge_events(tk_prof_partial *pp, tk_pp_strmap *m, uint64_t src_late, size_t *evmap,
                             tk_error *err)
{
    tk_status st = TK_OK;
    for (size_t i = 0; i < tk_profile_event_count(m->src) && st == TK_OK; i++)
        st = merge_event(pp, m, i, pp->has_rows || (src_late >> i & 1), &evmap[i], err);
    size_t nev = tk_profile_event_count(m->dst);
    if (st == TK_OK && nev != pp->nev && (st = restride(pp, nev)) != TK_OK)
        return tk_error_set(err, st, "out of memory");
    for (size_t i = 0; i < tk_profile_derived_count(m->src) && st == TK_OK; i++) {
        const tk_prof_derived *d = tk_profile_derived(m->src, i);
        uint32_t name, formula, ln;
        if ((st = tk_pp_map_str(m, d->name, &name)) != TK_OK ||
            (st = tk_pp_map_str(m, d->formula, &formula)) != TK_OK ||
            (st = tk_pp_map_str(m, d->long_name, &ln)) != TK_OK)
            return tk_error_set(err, st, "out of memory");
        st = tk_profile_add_derived(m->dst, name, formula, ln, err);
    }
    return st;
}

/* ---- the walk of the parts ----------------------------------------------------------------- */

typedef struct build {
    tk_prof_partial *pp;
    const tk_profile *p;
    tk_pp_strmap m;
    size_t nev;
} build;

/* The key of an entry: that of a cost line or call site (fn, file, line), or of a callee
 * (callee 1: its function's file, line 0), as group_parts keys them. */
static tk_status key_of(build *b, uint32_t fn, uint32_t file, uint64_t line, int callee,
                        tk_pp_entry *k)
{
    const tk_prof_function *f = tk_profile_function_at(b->p, fn);
    memset(k, 0, sizeof *k);
    k->object = k->file = k->name = TK_PROF_NONE;
    if (callee) {
        file = f->file;
        line = 0;
    }
    tk_status st = TK_OK;
    switch (b->pp->group) {
    case TK_GROUP_FILE_FUNCTION:
        st = tk_pp_map_str(&b->m, file, &k->file);
        if (st == TK_OK) st = tk_pp_map_str(&b->m, f->name, &k->name);
        break;
    case TK_GROUP_FILE: st = tk_pp_map_str(&b->m, file, &k->file); break;
    case TK_GROUP_OBJECT: st = tk_pp_map_str(&b->m, f->object, &k->object); break;
    case TK_GROUP_LINE:
        st = tk_pp_map_str(&b->m, file, &k->file);
        k->line = line;
        break;
    case TK_GROUP_FUNCTION: break; /* entries are functions */
    }
    return st;
}

/* By file-function: the object an entry shows, from function fn (a cost line's, or a call's
 * on its first call). */
static tk_status note_object(build *b, size_t idx, uint32_t fn, unsigned which)
{
    tk_pp_entry *e = &b->pp->entries[idx];
    if (which == TK_PP_CALL_OBJ && (e->has & TK_PP_CALL_OBJ)) return TK_OK;
    uint32_t obj;
    tk_status st = tk_pp_map_str(&b->m, tk_profile_function_at(b->p, fn)->object, &obj);
    if (st != TK_OK) return st;
    e->has |= which;
    if (which == TK_PP_SELF_OBJ)
        e->self_obj = obj;
    else
        e->call_obj = obj;
    return TK_OK;
}

/* The cost lines of a part into their entries and the totals (group_parts' add_self_rows). */
static tk_status add_self_rows(build *b, const tk_prof_part *pt)
{
    tk_prof_partial *pp = b->pp;
    const tk_prof_self *rows = pt->self.rows;
    tk_status st = TK_OK;
    for (size_t r = 0; r < pt->self.count && st == TK_OK; r++) {
        size_t idx = rows[r].fn;
        tk_pp_entry k;
        if (pp->group != TK_GROUP_FUNCTION &&
            ((st = key_of(b, rows[r].fn, rows[r].file, rows[r].pos.line, 0, &k)) != TK_OK ||
             (st = tk_pp_entry_find(pp, &k, TK_PP_COSTS, &idx, NULL)) != TK_OK))
            break;
        if (pp->group == TK_GROUP_FILE_FUNCTION &&
            (st = note_object(b, idx, rows[r].fn, TK_PP_SELF_OBJ)) != TK_OK)
            break;
        const uint64_t *v = pt->self.values + r * b->nev;
        st = tk_pp_add(pp->self + idx * pp->nev, v, b->nev);
        if (st == TK_OK) st = tk_pp_add(pp->totals, v, b->nev);
    }
    return st;
}

/* The calls counted into each entry, by function or file-function (count_function_calls,
 * add_file_function_calls). */
static tk_status add_call_counts(build *b, const tk_prof_part *pt)
{
    tk_prof_partial *pp = b->pp;
    int ff = pp->group == TK_GROUP_FILE_FUNCTION;
    tk_status st = TK_OK;
    size_t idx;
    tk_pp_entry k;
    for (size_t g = 0; ff && g < pt->calls_into_len && st == TK_OK; g++) {
        if (!pt->calls_into[g]) continue;
        if ((st = key_of(b, (uint32_t)g, 0, 0, 1, &k)) == TK_OK &&
            (st = tk_pp_entry_find(pp, &k, TK_PP_COSTS, &idx, NULL)) == TK_OK &&
            __builtin_add_overflow(pp->calls[idx], pt->calls_into[g], &pp->calls[idx]))
            st = TK_ERR_LIMIT;
    }
    const tk_prof_call *rows = pt->calls.rows;
    for (size_t r = 0; r < pt->calls.count && st == TK_OK; r++) {
        idx = rows[r].callee;
        if (ff && ((st = key_of(b, rows[r].callee, 0, 0, 1, &k)) != TK_OK ||
                   (st = tk_pp_entry_find(pp, &k, TK_PP_COSTS, &idx, NULL)) != TK_OK))
            break;
        if (__builtin_add_overflow(pp->calls[idx], pt->calls.values[r * (b->nev + 1)],
                                   &pp->calls[idx]))
            st = TK_ERR_LIMIT;
    }
    for (size_t g = 0; !ff && g < pt->calls_into_len && g < pp->count && st == TK_OK; g++)
        if (__builtin_add_overflow(pp->calls[g], pt->calls_into[g], &pp->calls[g]))
            st = TK_ERR_LIMIT;
    return st;
}

/* By file, object and line: an entry's calls to other entries are kept (not by function and
 * file-function, whose calls are arcs). */
static int out_group(const tk_prof_partial *pp)
{
    return pp->group != TK_GROUP_FUNCTION && pp->group != TK_GROUP_FILE_FUNCTION;
}

/* The calls of a part between entries (by function and file-function: the arcs; graph_inclusive
 * and profile_arcs.c), or out of one (by file, object, line: calls_inclusive). */
static tk_status add_calls(build *b, const tk_prof_part *pt)
{
    tk_prof_partial *pp = b->pp;
    const tk_prof_call *rows = pt->calls.rows;
    size_t w = b->nev + 1;
    tk_status st = TK_OK;
    for (size_t r = 0; r < pt->calls.count && st == TK_OK; r++) {
        const tk_prof_call *c = &rows[r];
        const uint64_t *v = pt->calls.values + r * w;
        size_t a = c->fn, z = c->callee;
        tk_pp_entry k, ck;
        if (pp->group != TK_GROUP_FUNCTION &&
            ((st = key_of(b, c->fn, c->file, c->pos.line, 0, &k)) != TK_OK ||
             (st = key_of(b, c->callee, 0, 0, 1, &ck)) != TK_OK))
            break;
        if (out_group(pp)) {
            if (pp->group != TK_GROUP_LINE && k.object == ck.object && k.file == ck.file)
                continue; /* a call within the entry */
            if ((st = tk_pp_entry_find(pp, &k, TK_PP_CALLS, &a, NULL)) == TK_OK)
                st = tk_pp_add(pp->out + a * pp->nev, v + 1, b->nev);
            continue;
        }
        if (pp->group == TK_GROUP_FILE_FUNCTION &&
            ((st = tk_pp_entry_find(pp, &k, TK_PP_CALLS, &a, NULL)) != TK_OK ||
             (st = note_object(b, a, c->fn, TK_PP_CALL_OBJ)) != TK_OK ||
             (st = tk_pp_entry_find(pp, &ck, TK_PP_CALLS, &z, NULL)) != TK_OK ||
             (st = note_object(b, z, c->callee, TK_PP_CALL_OBJ)) != TK_OK))
            break;
        uint64_t *d = tk_pp_arc_add(pp, (uint32_t)a, (uint32_t)z);
        st = d ? tk_pp_add(d, v, w) : TK_ERR_NOMEM;
    }
    return st;
}

/* The functions of p as the names' (the same ids) and the entries. */
static tk_status copy_functions(build *b)
{
    tk_status st = TK_OK;
    if (!b->m.ids) return tk_pp_function_entries(b->pp); /* the same names */
    for (size_t f = 0; f < tk_profile_function_count(b->p) && st == TK_OK; f++) {
        const tk_prof_function *fn = tk_profile_function_at(b->p, (uint32_t)f);
        uint32_t o, fl, n, id;
        if ((st = tk_pp_map_str(&b->m, fn->object, &o)) == TK_OK &&
            (st = tk_pp_map_str(&b->m, fn->file, &fl)) == TK_OK &&
            (st = tk_pp_map_str(&b->m, fn->name, &n)) == TK_OK)
            st = tk_profile_function(b->pp->names, o, fl, n, &id, NULL);
    }
    return st == TK_OK ? tk_pp_function_entries(b->pp) : st;
}

/* The walk: every part's cost lines and call counts, then every part's calls (the second
 * pass of group_parts). */
static tk_status walk_parts(build *b)
{
    tk_prof_partial *pp = b->pp;
    size_t np = tk_profile_part_count(b->p);
    tk_status st = pp->group == TK_GROUP_FUNCTION ? copy_functions(b) : TK_OK;
    for (size_t i = 0; i < np && st == TK_OK; i++) {
        const tk_prof_part *pt = tk_profile_part(b->p, i);
        st = add_self_rows(b, pt);
        if (st == TK_OK && (pp->group == TK_GROUP_FUNCTION || pp->group == TK_GROUP_FILE_FUNCTION))
            st = add_call_counts(b, pt);
    }
    for (size_t i = 0; i < np && st == TK_OK && !pp->self_only; i++)
        st = add_calls(b, tk_profile_part(b->p, i));
    return st;
}

/* The partial of p, its names a copy of p's (names NULL) or p's own (names == p: the parts
 * dropped afterwards, the profile kept as the partial's names). */
static tk_status make(tk_prof_partial **out, const tk_profile *p, tk_profile *names,
                      const tk_prof_partial_options *opt, tk_error *err)
{
    static const tk_prof_partial_options defaults = TK_PROF_PARTIAL_OPTIONS_INIT;
    if (!opt) opt = &defaults;
    *out = NULL;
    for (size_t i = 0; i < tk_profile_part_count(p) && !opt->self_only; i++)
        if (tk_profile_part(p, i)->calls_into)
            return tk_error_set(err, TK_ERR_ARG,
                                "the profile was read with call counts only: "
                                "no inclusive costs");
    build b = {NULL, p, {NULL, NULL, NULL}, tk_profile_event_count(p)};
    size_t evmap[TK_PROFILE_MAX_EVENTS];
    tk_status st = tk_pp_new(&b.pp, opt->group, opt->self_only, names);
    if (st == TK_OK && !names) st = tk_pp_strmap_open(&b.m, p, b.pp->names);
    if (st != TK_OK) {
        tk_prof_partial_free(b.pp);
        return tk_error_set(err, st, "out of memory");
    }
    b.pp->has_rows = tk_profile_has_rows(p);
    b.pp->nparts = tk_profile_part_count(p);
    if (names) {
        b.pp->nev = b.nev;
    } else {
        int has_rows = b.pp->has_rows;
        b.pp->has_rows = 0; /* the events of a profile that was read come before its rows */
        st = tk_pp_merge_events(b.pp, &b.m, 0, evmap, err);
        b.pp->has_rows = has_rows;
    }
    if (st == TK_OK && (st = walk_parts(&b)) != TK_OK)
        tk_error_set(err, st, st == TK_ERR_LIMIT ? "cost sum overflows 64 bits" : "out of memory");
    tk_pp_strmap_free(&b.m);
    if (st == TK_OK) st = tk_pp_shrink(b.pp);
    if (st != TK_OK) {
        if (names) b.pp->names = NULL; /* the caller's to free */
        tk_prof_partial_free(b.pp);
        return st;
    }
    *out = b.pp;
    return TK_OK;
}

tk_status tk_prof_partial_open(tk_prof_partial **out, const tk_profile *p,
                               const tk_prof_partial_options *opt, tk_error *err)
{
    return make(out, p, NULL, opt, err);
}

tk_status tk_prof_partial_take(tk_prof_partial **out, tk_profile *p,
                               const tk_prof_partial_options *opt, tk_error *err)
{
    tk_status st = make(out, p, p, opt, err);
    if (st != TK_OK) {
        tk_profile_free(p);
        return st;
    }
    tk_profile_drop_parts(p);
    return TK_OK;
}
