/* A profile report's partial result (tracekit/profile_partial.h, storage in
 * profile_partial.h): made from a profile the way tk_profile_summarize walks it (the same
 * keys, the same order of entries), and merged with the partial of later inputs as reading
 * those after the earlier ones into one profile would have summarised them. */
#include <stdlib.h>
#include <string.h>

#include "analysis/profile_partial.h"
#include "core/alloc.h"
#include "core/compat.h"
#include "model/profile.h"

tk_status tk_pp_add(uint64_t *a, const uint64_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (__builtin_add_overflow(a[i], b[i], &a[i])) return TK_ERR_LIMIT;
    return TK_OK;
}

tk_status tk_pp_new(tk_prof_partial **out, tk_prof_group group, int self_only, tk_profile *names)
{
    *out = NULL;
    tk_prof_partial *pp = tk_calloc(1, sizeof *pp);
    if (!pp) return TK_ERR_NOMEM;
    pp->group = group;
    pp->self_only = self_only != 0;
    pp->names = names;
    if (!names && tk_profile_open(&pp->names, NULL) != TK_OK) {
        tk_free(pp);
        return TK_ERR_NOMEM;
    }
    *out = pp;
    return TK_OK;
}

void tk_prof_partial_free(tk_prof_partial *pp)
{
    if (!pp) return;
    tk_profile_free(pp->names);
    tk_free(pp->entries);
    tk_free(pp->self);
    tk_free(pp->out);
    tk_free(pp->calls);
    tk_free(pp->slots);
    tk_free(pp->arcs);
    tk_free(pp->arc_values);
    tk_hmap_free(&pp->arc_index);
    tk_free(pp);
}

const tk_profile *tk_prof_partial_names(const tk_prof_partial *pp) { return pp->names; }

size_t tk_prof_partial_parts(const tk_prof_partial *pp) { return pp->nparts; }

uint32_t tk_pp_shown_object(const tk_pp_entry *e)
{
    if (e->has & TK_PP_SELF_OBJ) return e->self_obj;
    return e->has & TK_PP_CALL_OBJ ? e->call_obj : TK_PROF_NONE;
}

static int with_out(const tk_prof_partial *pp)
{
    return !pp->self_only && pp->group != TK_GROUP_FUNCTION && pp->group != TK_GROUP_FILE_FUNCTION;
}

/* Room for n entries (the new ones zero). */
static tk_status reserve_entries(tk_prof_partial *pp, size_t n)
{
    if (n <= pp->cap) return TK_OK;
    size_t cap = pp->cap ? pp->cap : 256, nev = pp->nev ? pp->nev : 1;
    while (cap < n) cap *= 2;
    tk_pp_entry *e = tk_reallocarray(pp->entries, cap, sizeof *e);
    if (e) pp->entries = e;
    uint64_t *s = tk_reallocarray(pp->self, cap, nev * sizeof *s);
    if (s) pp->self = s;
    uint64_t *c = tk_reallocarray(pp->calls, cap, sizeof *c);
    if (c) pp->calls = c;
    uint64_t *o = with_out(pp) ? tk_reallocarray(pp->out, cap, nev * sizeof *o) : NULL;
    if (o) pp->out = o;
    if (!e || !s || !c || (with_out(pp) && !o)) return TK_ERR_NOMEM;
    pp->cap = cap;
    return TK_OK;
}

/* p = a block of n elements of size (n > 0), else unchanged. */
static void shrink_to(void **p, size_t n, size_t size)
{
    if (!*p || !n) return;
    void *q = tk_realloc(*p, n * size);
    if (q) *p = q;
}

tk_status tk_pp_shrink(tk_prof_partial *pp)
{
    size_t nev = pp->nev ? pp->nev : 1;
    shrink_to((void **)&pp->entries, pp->count, sizeof *pp->entries);
    shrink_to((void **)&pp->self, pp->count, nev * sizeof *pp->self);
    shrink_to((void **)&pp->calls, pp->count, sizeof *pp->calls);
    shrink_to((void **)&pp->out, pp->count, nev * sizeof *pp->out);
    if (pp->count) pp->cap = pp->count;
    shrink_to((void **)&pp->arcs, pp->narcs, sizeof *pp->arcs);
    shrink_to((void **)&pp->arc_values, pp->narcs, (pp->nev + 1) * sizeof *pp->arc_values);
    if (pp->narcs) pp->arcs_cap = pp->narcs;
    return TK_OK;
}

/* A new entry at the end, zero costs. */
static tk_status append_entry(tk_prof_partial *pp, const tk_pp_entry *key)
{
    tk_status st = reserve_entries(pp, pp->count + 1);
    if (st != TK_OK) return st;
    size_t i = pp->count++;
    pp->entries[i] = *key;
    memset(pp->self + i * pp->nev, 0, pp->nev * sizeof *pp->self);
    if (pp->out) memset(pp->out + i * pp->nev, 0, pp->nev * sizeof *pp->out);
    pp->calls[i] = 0;
    return TK_OK;
}

tk_status tk_pp_function_entries(tk_prof_partial *pp)
{
    size_t nfn = tk_profile_function_count(pp->names);
    for (size_t f = pp->count; f < nfn; f++) {
        const tk_prof_function *fn = tk_profile_function_at(pp->names, (uint32_t)f);
        tk_pp_entry e = {fn->object, fn->file,     fn->name,     TK_PP_COSTS, 0,
                         f,          TK_PROF_NONE, TK_PROF_NONE, 0,           0};
        tk_status st = append_entry(pp, &e);
        if (st != TK_OK) return st;
    }
    pp->seq[0] = pp->count;
    return TK_OK;
}

/* ---- entries by key -------------------------------------------------------------------- */

static uint64_t key_hash(const tk_prof_partial *pp, const tk_pp_entry *k)
{
    uint64_t h = tk_hash_u64(((uint64_t)k->object << 32 | k->file) ^ pp->hash_key);
    h = tk_hash_u64(h ^ k->name);
    return tk_hash_u64(h ^ k->line);
}

static int same_key(const tk_pp_entry *a, const tk_pp_entry *b)
{
    return a->object == b->object && a->file == b->file && a->name == b->name && a->line == b->line;
}

static tk_status rehash(tk_prof_partial *pp, size_t n)
{
    uint32_t *s = tk_calloc(n, sizeof *s);
    if (!s) return TK_ERR_NOMEM;
    for (size_t i = 0; i < pp->count; i++) {
        size_t j = key_hash(pp, &pp->entries[i]) & (n - 1);
        while (s[j]) j = (j + 1) & (n - 1);
        s[j] = (uint32_t)i + 1;
    }
    tk_free(pp->slots);
    pp->slots = s;
    pp->nslots = n;
    return TK_OK;
}

tk_status tk_pp_entry_find(tk_prof_partial *pp, const tk_pp_entry *key, uint32_t phase,
                           size_t *index, int *made)
{
    if (!pp->nslots) {
        pp->hash_key = tk_hash_new_key();
        tk_status st = rehash(pp, 1024);
        if (st != TK_OK) return st;
    }
    size_t mask = pp->nslots - 1, j = key_hash(pp, key) & mask;
    for (; pp->slots[j]; j = (j + 1) & mask)
        if (same_key(&pp->entries[pp->slots[j] - 1], key)) {
            *index = pp->slots[j] - 1;
            if (made) *made = 0;
            return TK_OK;
        }
    if (pp->count >= UINT32_MAX - 1) return TK_ERR_LIMIT;
    tk_pp_entry e = {key->object,          key->file,    key->name,    phase, key->line,
                     pp->seq[phase - 1]++, TK_PROF_NONE, TK_PROF_NONE, 0,     0};
    tk_status st = append_entry(pp, &e);
    if (st != TK_OK) return st;
    pp->slots[j] = (uint32_t)pp->count;
    *index = pp->count - 1;
    if (made) *made = 1;
    return (pp->count * 2 > pp->nslots) ? rehash(pp, pp->nslots * 2) : TK_OK;
}

/* ---- arcs ------------------------------------------------------------------------------- */

uint64_t *tk_pp_arc_add(tk_prof_partial *pp, uint32_t caller, uint32_t callee)
{
    size_t w = pp->nev + 1;
    int inserted;
    uint64_t *slot =
        tk_hmap_slot(&pp->arc_index, (uint64_t)caller << 32 | callee, pp->narcs, &inserted);
    if (!slot) return NULL;
    if (!inserted) return pp->arc_values + *slot * w;
    if (pp->narcs == pp->arcs_cap) {
        size_t cap = pp->arcs_cap ? 2 * pp->arcs_cap : 256;
        tk_pp_arc *a = tk_reallocarray(pp->arcs, cap, sizeof *a);
        if (a) pp->arcs = a;
        uint64_t *v = tk_reallocarray(pp->arc_values, cap, w * sizeof *v);
        if (v) pp->arc_values = v;
        if (!a || !v) return NULL;
        pp->arcs_cap = cap;
    }
    size_t i = pp->narcs++;
    pp->arcs[i] = (tk_pp_arc){caller, callee};
    memset(pp->arc_values + i * w, 0, w * sizeof *pp->arc_values);
    return pp->arc_values + i * w;
}

/* ---- the order of the entries ------------------------------------------------------------ */

static int cmp_order(const void *x, const void *y, void *ctx)
{
    const tk_pp_entry *e = ctx, *a = &e[*(const uint32_t *)x], *b = &e[*(const uint32_t *)y];
    if (a->phase != b->phase) return a->phase < b->phase ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

tk_status tk_pp_order(const tk_prof_partial *pp, uint32_t **order)
{
    uint32_t *o = tk_malloc((pp->count ? pp->count : 1) * sizeof *o);
    if (!o) return TK_ERR_NOMEM;
    for (size_t i = 0; i < pp->count; i++) o[i] = (uint32_t)i;
    if (pp->group != TK_GROUP_FUNCTION && pp->count > 1)
        tk_qsort_r(o, pp->count, sizeof *o, cmp_order, pp->entries);
    *order = o;
    return TK_OK;
}
