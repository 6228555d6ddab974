/* Per-function (file, object, line) summary of a profile: self costs,
 * inclusive costs that stay correct under recursion, call counts. */
#include <stdlib.h>
#include <string.h>

#include "analysis/call_graph.h"
#include "core/alloc.h"
#include "core/hash.h"
#include "model/profile.h"
#include "analysis/profile_summary.h"

typedef struct group_key {
    uint64_t a, b, c;
} group_key;

typedef struct group_table {
    group_key *keys;
    uint64_t *values; /* per entry: 2 * nev (self, inclusive), or only inclusive (self_row) */
    uint64_t *calls;
    uint32_t *fn;
    size_t count, cap;
    uint32_t *slots;
    size_t nslots;
    size_t nev;
    /* By function over one part with one self row per function: the entries'
     * self costs are that row's (no copy), self_row[f] its index or
     * UINT32_MAX, and values holds only the inclusive costs. */
    uint32_t *self_row;
    const tk_prof_part *self_part;
    /* with inclusive costs by function or file-function: per entry */
    uint32_t *cycle;
    unsigned char *estimated;
    uint64_t hash_key; /* of the slots (tk_hash_new_key) */
} group_table;

/* the values of entry i: self (when stored) and inclusive */
static size_t stride(const group_table *t) { return t->self_row ? t->nev : 2 * t->nev; }
static uint64_t *incl_of(const group_table *t, size_t i)
{
    return t->values + i * stride(t) + (t->self_row ? 0 : t->nev);
}

static const uint64_t no_costs[TK_PROFILE_MAX_EVENTS];


static const uint64_t *self_of(const group_table *t, size_t i)
{
    if (!t->self_row) return t->values + i * 2 * t->nev;
    uint32_t r = t->self_row[i];
    return r == UINT32_MAX ? no_costs : t->self_part->self.values + (size_t)r * t->nev;
}

/* Chained through a mixer from the table's key on: keys hold line numbers and
 * addresses of the file, which must not be able to collide on purpose. */
static uint64_t key_hash(const group_table *t, const group_key *k)
{
    uint64_t h = tk_hash_u64(k->a ^ t->hash_key);
    h = tk_hash_u64(h ^ k->b);
    return tk_hash_u64(h ^ k->c);
}

static tk_status group_find(group_table *t, const group_key *k, size_t *index)
{
    if (!t->nslots) t->hash_key = tk_hash_new_key(); /* no slots hashed with another yet */
    uint64_t h = key_hash(t, k);
    if (t->nslots) {
        size_t mask = t->nslots - 1;
        for (size_t j = h & mask; t->slots[j]; j = (j + 1) & mask) {
            const group_key *o = &t->keys[t->slots[j] - 1];
            if (o->a == k->a && o->b == k->b && o->c == k->c) {
                *index = t->slots[j] - 1;
                return TK_OK;
            }
        }
    }
    if ((t->count + 1) * 2 > t->nslots) {
        size_t n = t->nslots ? t->nslots * 2 : 1024;
        uint32_t *ns = tk_calloc(n, sizeof *ns);
        if (!ns) return TK_ERR_NOMEM;
        for (size_t i = 0; i < t->count; i++) {
            size_t j = key_hash(t, &t->keys[i]) & (n - 1);
            while (ns[j]) j = (j + 1) & (n - 1);
            ns[j] = (uint32_t)i + 1;
        }
        tk_free(t->slots);
        t->slots = ns;
        t->nslots = n;
    }
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        group_key *nk = tk_realloc(t->keys, cap * sizeof *nk);
        if (!nk) return TK_ERR_NOMEM;
        t->keys = nk;
        uint64_t *nv = tk_realloc(t->values, cap * 2 * (t->nev ? t->nev : 1) * sizeof *nv);
        if (!nv) return TK_ERR_NOMEM;
        t->values = nv;
        uint64_t *nc = tk_realloc(t->calls, cap * sizeof *nc);
        if (!nc) return TK_ERR_NOMEM;
        t->calls = nc;
        uint32_t *nf = tk_realloc(t->fn, cap * sizeof *nf);
        if (!nf) return TK_ERR_NOMEM;
        t->fn = nf;
        t->cap = cap;
    }
    size_t i = t->count++;
    t->keys[i] = *k;
    memset(t->values + i * 2 * t->nev, 0, 2 * t->nev * sizeof *t->values);
    t->calls[i] = 0;
    t->fn[i] = TK_PROF_NONE;
    size_t mask = t->nslots - 1;
    size_t j = h & mask;
    while (t->slots[j]) j = (j + 1) & mask;
    t->slots[j] = (uint32_t)i + 1;
    *index = i;
    return TK_OK;
}

/* One self row per function in the part? (Then the summary shares them.) */
static int one_row_per_function(const tk_prof_part *pt, size_t nfn, tk_status *st)
{
    uint64_t *seen = tk_calloc(nfn / 64 + 1, sizeof *seen);
    if (!seen) {
        *st = TK_ERR_NOMEM;
        return 0;
    }
    const tk_prof_self *rows = pt->self.rows;
    int one = 1;
    for (size_t r = 0; r < pt->self.count && one; r++) {
        uint32_t f = rows[r].fn;
        if (f >= nfn || (seen[f / 64] >> (f % 64) & 1))
            one = 0;
        else
            seen[f / 64] |= (uint64_t)1 << (f % 64);
    }
    tk_free(seen);
    return one;
}

/* The table of function mode: one entry per function, in function order.
 * With shared self rows and no inclusive costs, no values at all. */
static tk_status group_all_functions(group_table *t, size_t nfn, const tk_prof_part *share,
                                     int with_inclusive)
{
    size_t cap = nfn ? nfn : 1;
    if (share) {
        t->self_part = share;
        t->self_row = tk_malloc(cap * sizeof *t->self_row);
        if (!t->self_row) return TK_ERR_NOMEM;
        memset(t->self_row, 0xff, cap * sizeof *t->self_row);
    }
    t->keys = tk_malloc(cap * sizeof *t->keys);
    if (!share || with_inclusive)
        t->values = tk_calloc(cap * (share ? 1 : 2),
                              t->nev ? t->nev * sizeof *t->values : sizeof *t->values);
    t->calls = tk_calloc(cap, sizeof *t->calls);
    t->fn = tk_malloc(cap * sizeof *t->fn);
    if (!t->keys || (!t->values && (!share || with_inclusive)) || !t->calls || !t->fn)
        return TK_ERR_NOMEM;
    for (size_t f = 0; f < nfn; f++) {
        t->keys[f] = (group_key){f, 0, 0};
        t->fn[f] = TK_PROF_NONE;
    }
    t->count = nfn;
    t->cap = cap;
    return TK_OK;
}

static group_key key_of(const tk_profile *p, tk_prof_group g, uint32_t fn, uint32_t file,
                        uint64_t line)
{
    const tk_prof_function *f = tk_profile_function_at(p, fn);
    group_key k = {0, 0, 0};
    switch (g) {
    case TK_GROUP_FUNCTION: k.a = fn; break;
    case TK_GROUP_FILE_FUNCTION:
        k.a = file;
        k.b = f->name;
        break;
    case TK_GROUP_FILE: k.a = file; break;
    case TK_GROUP_OBJECT: k.a = f->object; break;
    case TK_GROUP_LINE:
        k.a = file;
        k.b = line;
        break;
    }
    return k;
}

static tk_status add_vec(uint64_t *d, const uint64_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (__builtin_add_overflow(d[i], s[i], &d[i])) return TK_ERR_LIMIT;
    return TK_OK;
}

/* Calls into each function (every arc, recursive ones too). */
static tk_status count_function_calls(const tk_prof_part *const *parts, size_t nparts, size_t nev,
                                      group_table *t)
{
    for (size_t i = 0; i < nparts; i++) {
        const tk_prof_call *rows = parts[i]->calls.rows;
        const uint64_t *values = parts[i]->calls.values;
        for (size_t r = 0; r < parts[i]->calls.count; r++) {
            uint32_t g = rows[r].callee;
            if (__builtin_add_overflow(t->calls[g], values[r * (nev + 1)], &t->calls[g]))
                return TK_ERR_LIMIT;
        }
        /* read with call counts only */
        for (size_t g = 0; g < parts[i]->calls_into_len && g < t->count; g++)
            if (__builtin_add_overflow(t->calls[g], parts[i]->calls_into[g], &t->calls[g]))
                return TK_ERR_LIMIT;
    }
    return TK_OK;
}

/* Inclusive costs by function or file-function from the call graph of
 * those entries (analysis/call_graph.c): exact outside call cycles, an
 * estimate between proven bounds inside. By file-function (callgrind_annotate's
 * key) a call belongs to the entry of the file of its call line (inlined code
 * calls from the inlined file's entry) and goes to the callee's file entry. */
static tk_status graph_inclusive(const tk_profile *p, const tk_prof_part *const *parts,
                                 size_t nparts, tk_prof_group group, group_table *t,
                                 tk_prof_summary *s)
{
    size_t nev = t->nev, nrows = 0;
    tk_call_nodes m = {parts, nparts, 0, NULL, NULL, NULL};
    uint32_t *row_caller = NULL, *row_callee = NULL;
    tk_status st = TK_OK;
    for (size_t i = 0; i < nparts; i++) nrows += parts[i]->calls.count;
    if (group == TK_GROUP_FILE_FUNCTION) {
        if (nrows >= UINT32_MAX) return TK_ERR_LIMIT;
        row_caller = tk_malloc((nrows ? nrows : 1) * sizeof *row_caller);
        row_callee = tk_malloc((nrows ? nrows : 1) * sizeof *row_callee);
        if (!row_caller || !row_callee) st = TK_ERR_NOMEM;
        size_t row = 0;
        for (size_t i = 0; i < nparts && st == TK_OK; i++) {
            const tk_prof_call *rows = parts[i]->calls.rows;
            for (size_t r = 0; r < parts[i]->calls.count && st == TK_OK; r++, row++) {
                const tk_prof_function *cf = tk_profile_function_at(p, rows[r].callee);
                group_key k = key_of(p, group, rows[r].fn, rows[r].file, 0);
                group_key ck = key_of(p, group, rows[r].callee, cf->file, 0);
                size_t a, b;
                if ((st = group_find(t, &k, &a)) == TK_OK &&
                    (st = group_find(t, &ck, &b)) == TK_OK) {
                    if (t->fn[a] == TK_PROF_NONE) t->fn[a] = rows[r].fn;
                    if (t->fn[b] == TK_PROF_NONE) t->fn[b] = rows[r].callee;
                    row_caller[row] = (uint32_t)a;
                    row_callee[row] = (uint32_t)b;
                }
            }
        }
        m.row_caller = row_caller;
        m.row_callee = row_callee;
    }
    m.n = t->count;
    size_t n = t->count ? t->count : 1;
    unsigned char *level = tk_calloc(n, 1);
    t->cycle = tk_malloc(n * sizeof *t->cycle);
    t->estimated = tk_malloc(n);
    if (st == TK_OK && (!level || !t->cycle || !t->estimated)) st = TK_ERR_NOMEM;
    for (size_t i = 0; i < t->count && st == TK_OK; i++) {
        memcpy(incl_of(t, i), self_of(t, i), nev * sizeof *t->values);
        uint32_t name = group == TK_GROUP_FUNCTION
                            ? tk_profile_function_at(p, (uint32_t)t->keys[i].a)->name
                            : (uint32_t)t->keys[i].b;
        level[i] = (unsigned char)tk_name_is_recursion_level(tk_profile_str(p, name),
                                                             tk_profile_str_len(p, name));
    }
    if (st == TK_OK && t->count)
        st = tk_inclusive_estimate(&m, nev, s->totals, level, incl_of(t, 0), stride(t), t->cycle,
                                   t->estimated, &s->cycles, &s->n_cycles);
    tk_free(level);
    tk_free(row_caller);
    tk_free(row_callee);
    return st;
}

/* The parts summarized: part (1-based) or all (0); *parts to free. */
static tk_status select_parts(const tk_profile *p, size_t part, int with_inclusive,
                              const tk_prof_part ***parts_out, size_t *nparts_out, tk_error *err)
{
    size_t np = tk_profile_part_count(p);
    if (part > np)
        return tk_error_set(err, TK_ERR_ARG, "no part %zu (the profile has %zu part%s)", part, np,
                            np == 1 ? "" : "s");
    const tk_prof_part **parts = tk_malloc((np ? np : 1) * sizeof *parts);
    if (!parts) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t nparts = 0;
    for (size_t i = 0; i < np; i++)
        if (!part || part == i + 1) parts[nparts++] = tk_profile_part(p, i);
    for (size_t i = 0; i < nparts && with_inclusive; i++)
        if (parts[i]->calls_into) {
            tk_free(parts);
            return tk_error_set(err, TK_ERR_ARG,
                                "the profile was read with call counts only: no inclusive costs");
        }
    *parts_out = parts;
    *nparts_out = nparts;
    return TK_OK;
}

/* The self rows of part pt into their entries, and into the totals. */
static tk_status add_self_rows(const tk_profile *p, const tk_prof_part *pt, tk_prof_group group,
                               group_table *t, tk_prof_summary *s)
{
    size_t nev = t->nev;
    const tk_prof_self *rows = pt->self.rows;
    tk_status st = TK_OK;
    for (size_t r = 0; r < pt->self.count && st == TK_OK; r++) {
        size_t idx;
        if (group == TK_GROUP_FUNCTION) {
            idx = rows[r].fn; /* entry f is function f (inserted in order) */
        } else {
            group_key k = key_of(p, group, rows[r].fn, rows[r].file, rows[r].pos.line);
            if ((st = group_find(t, &k, &idx)) != TK_OK) break;
        }
        t->fn[idx] = rows[r].fn;
        const uint64_t *v = pt->self.values + r * nev;
        if (t->self_row)
            t->self_row[idx] = (uint32_t)r;
        else if ((st = add_vec(t->values + idx * 2 * nev, v, nev)) != TK_OK)
            break;
        st = add_vec(s->totals, v, nev);
    }
    return st;
}

/* By file-function: the calls into each entry of part pt (by function,
 * count_function_calls counts them). */
static tk_status add_file_function_calls(const tk_profile *p, const tk_prof_part *pt,
                                         group_table *t)
{
    size_t nev = t->nev;
    tk_status st = TK_OK;
    /* calls into each function of a profile read with call counts only */
    for (size_t g = 0; g < pt->calls_into_len && st == TK_OK; g++) {
        if (!pt->calls_into[g]) continue;
        size_t cidx;
        const tk_prof_function *cf = tk_profile_function_at(p, (uint32_t)g);
        group_key ck = key_of(p, TK_GROUP_FILE_FUNCTION, (uint32_t)g, cf->file, 0);
        if ((st = group_find(t, &ck, &cidx)) != TK_OK) break;
        if (__builtin_add_overflow(t->calls[cidx], pt->calls_into[g], &t->calls[cidx]))
            st = TK_ERR_LIMIT;
    }
    const tk_prof_call *crows = pt->calls.rows;
    for (size_t r = 0; r < pt->calls.count && st == TK_OK; r++) {
        const tk_prof_call *c = &crows[r];
        const uint64_t *v = pt->calls.values + r * (nev + 1);
        size_t cidx;
        const tk_prof_function *cf = tk_profile_function_at(p, c->callee);
        group_key ck = key_of(p, TK_GROUP_FILE_FUNCTION, c->callee, cf->file, 0);
        if ((st = group_find(t, &ck, &cidx)) != TK_OK) break;
        if (__builtin_add_overflow(t->calls[cidx], v[0], &t->calls[cidx])) st = TK_ERR_LIMIT;
    }
    return st;
}

/* Inclusive costs by file, object or line: self + the calls made from the
 * group to other groups. */
static tk_status calls_inclusive(const tk_profile *p, const tk_prof_part *const *parts,
                                 size_t nparts, tk_prof_group group, group_table *t)
{
    size_t nev = t->nev;
    tk_status st = TK_OK;
    for (size_t i = 0; i < t->count; i++)
        memcpy(incl_of(t, i), self_of(t, i), nev * sizeof *t->values);
    for (size_t i = 0; i < nparts && st == TK_OK; i++) {
        const tk_prof_part *pt = parts[i];
        const tk_prof_call *crows = pt->calls.rows;
        for (size_t r = 0; r < pt->calls.count && st == TK_OK; r++) {
            const tk_prof_call *c = &crows[r];
            group_key k = key_of(p, group, c->fn, c->file, c->pos.line);
            const tk_prof_function *cf = tk_profile_function_at(p, c->callee);
            group_key ck = key_of(p, group, c->callee, cf->file, 0);
            if (group != TK_GROUP_LINE && k.a == ck.a && k.b == ck.b) continue;
            size_t idx;
            if ((st = group_find(t, &k, &idx)) != TK_OK) break;
            st = add_vec(incl_of(t, idx), pt->calls.values + r * (nev + 1) + 1, nev);
        }
    }
    return st;
}

/* The summary's entries from the table (its values move to the summary). */
static tk_status make_entries(const tk_profile *p, tk_prof_group group, int with_inclusive,
                              group_table *t, tk_prof_summary *s)
{
    s->entries = tk_calloc(t->count ? t->count : 1, sizeof *s->entries);
    if (!s->entries) return TK_ERR_NOMEM;
    s->count = t->count;
    s->values_ = t->values;
    for (size_t i = 0; i < t->count; i++) {
        tk_prof_entry *e = &s->entries[i];
        const group_key *k = &t->keys[i];
        e->object = e->file = e->name = e->fn = TK_PROF_NONE;
        e->self = (uint64_t *)(uintptr_t)self_of(t, i); /* read only when shared */
        e->inclusive = with_inclusive ? incl_of(t, i) : NULL;
        e->calls = t->calls[i];
        if (t->cycle) {
            e->cycle = t->cycle[i];
            e->estimated = t->estimated[i];
        }
        const tk_prof_function *f =
            t->fn[i] != TK_PROF_NONE ? tk_profile_function_at(p, t->fn[i]) : NULL;
        switch (group) {
        case TK_GROUP_FUNCTION:
            f = tk_profile_function_at(p, (uint32_t)k->a);
            e->fn = (uint32_t)k->a;
            e->object = f->object;
            e->file = f->file;
            e->name = f->name;
            break;
        case TK_GROUP_FILE_FUNCTION:
            e->file = (uint32_t)k->a;
            e->name = (uint32_t)k->b;
            if (f) e->object = f->object;
            break;
        case TK_GROUP_FILE: e->file = (uint32_t)k->a; break;
        case TK_GROUP_OBJECT: e->object = (uint32_t)k->a; break;
        case TK_GROUP_LINE:
            e->file = (uint32_t)k->a;
            e->line = k->b;
            break;
        }
    }
    t->values = NULL;
    return TK_OK;
}

static void group_table_free(group_table *t)
{
    tk_free(t->self_row);
    tk_free(t->cycle);
    tk_free(t->estimated);
    tk_free(t->keys);
    tk_free(t->values);
    tk_free(t->calls);
    tk_free(t->fn);
    tk_free(t->slots);
}

/* The entries of the parts: self costs, calls and (with_inclusive) inclusive
 * costs, capped at the program total. */
static tk_status group_parts(const tk_profile *p, const tk_prof_part *const *parts, size_t nparts,
                             tk_prof_group group, int with_inclusive, group_table *t,
                             tk_prof_summary *s)
{
    size_t nev = t->nev;
    tk_status st = TK_OK;
    /* Every function gets an entry in function mode (also ones with calls
     * only): entry f is function f, found by index, not through the hash. */
    if (group == TK_GROUP_FUNCTION) {
        size_t nfn = tk_profile_function_count(p);
        const tk_prof_part *share = NULL;
        if (nparts == 1 && one_row_per_function(parts[0], nfn, &st)) share = parts[0];
        if (st == TK_OK) st = group_all_functions(t, nfn, share, with_inclusive);
    }
    for (size_t i = 0; i < nparts && st == TK_OK; i++) {
        st = add_self_rows(p, parts[i], group, t, s);
        if (st == TK_OK && group == TK_GROUP_FILE_FUNCTION)
            st = add_file_function_calls(p, parts[i], t);
    }
    /* inclusive */
    if (st == TK_OK && group == TK_GROUP_FUNCTION) st = count_function_calls(parts, nparts, nev, t);
    if (st == TK_OK && with_inclusive &&
        (group == TK_GROUP_FUNCTION || group == TK_GROUP_FILE_FUNCTION))
        st = graph_inclusive(p, parts, nparts, group, t, s);
    else if (st == TK_OK && with_inclusive)
        st = calls_inclusive(p, parts, nparts, group, t);
    /* Call costs can exceed the sum of the cost lines (valgrind's call costs
     * match its summary: line, a few events above totals:; partial collection
     * with --toggle-collect; converted profiles): no entry is shown above the
     * program total. */
    for (size_t i = 0; with_inclusive && i < t->count && st == TK_OK; i++) {
        uint64_t *incl = incl_of(t, i);
        for (size_t j = 0; j < nev; j++)
            if (incl[j] > s->totals[j]) incl[j] = s->totals[j];
    }
    return st;
}

static tk_status summarize(const tk_profile *p, size_t part, tk_prof_group group,
                           int with_inclusive, tk_prof_summary **out, tk_error *err)
{
    *out = NULL;
    const tk_prof_part **parts = NULL;
    size_t nparts = 0;
    tk_status st = select_parts(p, part, with_inclusive, &parts, &nparts, err);
    if (st != TK_OK) return st;
    size_t nev = tk_profile_event_count(p);
    group_table t;
    memset(&t, 0, sizeof t);
    t.nev = nev;
    tk_prof_summary *s = tk_calloc(1, sizeof *s);
    st = s ? TK_OK : TK_ERR_NOMEM;
    if (s) {
        s->n_events = nev;
        s->inclusive = with_inclusive;
        s->totals = tk_calloc(nev ? nev : 1, sizeof *s->totals);
        if (!s->totals) st = TK_ERR_NOMEM;
    }
    if (st == TK_OK) st = group_parts(p, parts, nparts, group, with_inclusive, &t, s);
    if (st == TK_OK) st = make_entries(p, group, with_inclusive, &t, s);
    group_table_free(&t);
    tk_free(parts);
    if (st != TK_OK) {
        tk_prof_summary_free(s);
        return tk_error_set(err, st,
                            st == TK_ERR_LIMIT ? "cost sum overflows 64 bits" : "out of memory");
    }
    *out = s;
    return TK_OK;
}

tk_status tk_profile_summarize(const tk_profile *p, size_t part, tk_prof_group group,
                               tk_prof_summary **out, tk_error *err)
{
    return summarize(p, part, group, 1, out, err);
}

tk_status tk_profile_summarize_self(const tk_profile *p, size_t part, tk_prof_group group,
                                    tk_prof_summary **out, tk_error *err)
{
    return summarize(p, part, group, 0, out, err);
}

void tk_prof_summary_free(tk_prof_summary *s)
{
    if (!s) return;
    tk_prof_cycles_free(s->cycles, s->n_cycles);
    tk_free(s->totals);
    tk_free(s->entries);
    tk_free(s->values_);
    tk_free(s);
}

void tk_prof_summary_get(const tk_prof_summary *s, tk_prof_summary_info *out)
{
    out->n_events = s->n_events;
    out->count = s->count;
    out->n_cycles = s->n_cycles;
    out->inclusive = s->inclusive;
    out->totals = s->totals;
}

void tk_prof_entry_get(const tk_prof_summary *s, size_t i, tk_prof_entry_info *out)
{
    memset(out, 0, sizeof *out);
    if (i >= s->count) return;
    const tk_prof_entry *e = &s->entries[i];
    out->object = e->object;
    out->file = e->file;
    out->name = e->name;
    out->fn = e->fn;
    out->line = e->line;
    out->calls = e->calls;
    out->self = e->self;
    out->inclusive = e->inclusive;
    out->cycle = e->cycle;
    out->estimated = e->estimated != 0;
}

void tk_prof_cycle_get(const tk_prof_summary *s, size_t c, tk_prof_cycle_info *out)
{
    memset(out, 0, sizeof *out);
    if (c < 1 || c > s->n_cycles) return;
    const tk_prof_cycle *cy = &s->cycles[c - 1];
    out->members = cy->members;
    out->calls = cy->calls;
    out->self = cy->self;
    out->inclusive = cy->inclusive;
}

/* The sort works on small records (the first key, the name's first bytes,
 * the entry) and looks at the entries only to break ties; the entries are
 * then gathered in that order. Names are compared only on cost ties, in byte
 * order (like the dump). */
typedef struct sort_rec {
    uint64_t k0;
    uint64_t name8; /* the name's first 8 bytes, big-endian, zero after its end */
    const char *name;
    uint32_t entry;
    uint32_t pad;
} sort_rec;

_Static_assert(sizeof(tk_prof_entry) >= 2 * sizeof(uint32_t) && sizeof(tk_prof_entry) % 8 == 0,
               "the sorted entries are gathered over the order cells (tk_prof_summary_sort)");

typedef struct sort_ctx {
    const tk_prof_summary *s;
    const tk_profile *p;
    const size_t *events;
    size_t n_events;
    int inclusive;
    int keys_only; /* records equal in costs and name prefix compare equal */
} sort_ctx;

static uint64_t name_prefix(const char *s)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v = v << 8 | (unsigned char)*s;
        if (*s) s++;
    }
    return v;
}

static const char *str_of(const tk_profile *p, uint32_t id)
{
    return id == TK_PROF_NONE ? "" : tk_profile_str(p, id);
}

/* The order of two records whose first keys and name prefixes are equal. */
static __attribute__((noinline)) int cmp_sort_tie(const sort_rec *x, const sort_rec *y,
                                                  const sort_ctx *c)
{
    const tk_prof_entry *ex = &c->s->entries[x->entry], *ey = &c->s->entries[y->entry];
    int r = strcmp(x->name, y->name);
    if (!r) r = strcmp(str_of(c->p, ex->file), str_of(c->p, ey->file));
    if (!r) r = strcmp(str_of(c->p, ex->object), str_of(c->p, ey->object));
    if (!r) r = (ex->line > ey->line) - (ex->line < ey->line);
    /* a total order (entries differ in their keys; the index decides anyway),
     * so that every correct sort gives the same result */
    if (!r) r = (x->entry > y->entry) - (x->entry < y->entry);
    return r;
}

static inline __attribute__((always_inline)) int cmp_sort_rec(const sort_rec *x, const sort_rec *y,
                                                              const sort_ctx *c)
{
    if (x->k0 != y->k0) return x->k0 > y->k0 ? -1 : 1; /* descending */
    if (c->n_events > 1) {
        const tk_prof_entry *ex = &c->s->entries[x->entry], *ey = &c->s->entries[y->entry];
        for (size_t j = 1; j < c->n_events && j < 4; j++) {
            uint64_t vx = (c->inclusive ? ex->inclusive : ex->self)[c->events[j]];
            uint64_t vy = (c->inclusive ? ey->inclusive : ey->self)[c->events[j]];
            if (vx != vy) return vx > vy ? -1 : 1;
        }
    }
    /* equal costs are common (151 K functions, small counts): most ties are
     * decided by the prefixes, which order like strcmp */
    if (x->name8 != y->name8) return x->name8 < y->name8 ? -1 : 1;
    return c->keys_only ? 0 : cmp_sort_tie(x, y, c);
}

static void swap_rec(sort_rec *a, sort_rec *b)
{
    sort_rec t = *a;
    *a = *b;
    *b = t;
}

/* Heap sort of v[0, n): introsort's way out of a bad partitioning. */
static void heap_sort(sort_rec *v, size_t n, const sort_ctx *c)
{
    for (size_t k = n; k-- > 0;) { /* heapify, then pop */
        for (size_t i = k;;) {
            size_t m = i, l = 2 * i + 1, r = l + 1;
            if (l < n && cmp_sort_rec(&v[m], &v[l], c) < 0) m = l;
            if (r < n && cmp_sort_rec(&v[m], &v[r], c) < 0) m = r;
            if (m == i) break;
            swap_rec(&v[i], &v[m]);
            i = m;
        }
    }
    for (size_t end = n; end > 1; end--) {
        swap_rec(&v[0], &v[end - 1]);
        for (size_t i = 0;;) {
            size_t m = i, l = 2 * i + 1, r = l + 1;
            if (l < end - 1 && cmp_sort_rec(&v[m], &v[l], c) < 0) m = l;
            if (r < end - 1 && cmp_sort_rec(&v[m], &v[r], c) < 0) m = r;
            if (m == i) break;
            swap_rec(&v[i], &v[m]);
            i = m;
        }
    }
}

/* Introsort with the comparison inlined (qsort's callback per comparison was
 * a tenth of `report`): quicksort with a median-of-three pivot, the smaller
 * side first (a stack of at most log2(n) ranges), insertion sort for short
 * ranges, heap sort when the partitions go badly. */
static void sort_recs(sort_rec *v, size_t n, const sort_ctx *c)
{
    struct range {
        size_t lo, hi, depth;
    } stack[64];
    size_t sp = 0, depth = 0;
    for (size_t m = n; m > 1; m >>= 1) depth += 2;
    size_t lo = 0, hi = n;
    for (;;) {
        while (hi - lo > 16) {
            if (!depth) {
                heap_sort(v + lo, hi - lo, c);
                lo = hi;
                break;
            }
            depth--;
            size_t mid = lo + (hi - lo) / 2;
            /* median of three into v[mid] */
            if (cmp_sort_rec(&v[mid], &v[lo], c) < 0) swap_rec(&v[mid], &v[lo]);
            if (cmp_sort_rec(&v[hi - 1], &v[mid], c) < 0) {
                swap_rec(&v[hi - 1], &v[mid]);
                if (cmp_sort_rec(&v[mid], &v[lo], c) < 0) swap_rec(&v[mid], &v[lo]);
            }
            sort_rec pivot = v[mid];
            size_t i = lo, j = hi - 1;
            for (;;) { /* Hoare: v[lo] <= pivot <= v[hi - 1] act as sentinels */
                while (cmp_sort_rec(&v[i], &pivot, c) < 0) i++;
                while (cmp_sort_rec(&pivot, &v[j], c) < 0) j--;
                if (i >= j) break;
                swap_rec(&v[i], &v[j]);
                i++;
                j--;
            }
            /* [lo, j] <= pivot <= [j + 1, hi) */
            size_t split = j + 1;
            if (split - lo < hi - split) {
                stack[sp++] = (struct range){split, hi, depth};
                hi = split;
            } else {
                stack[sp++] = (struct range){lo, split, depth};
                lo = split;
            }
        }
        for (size_t i = lo + 1; i < hi; i++) { /* insertion sort of a short range */
            sort_rec x = v[i];
            size_t k = i;
            while (k > lo && cmp_sort_rec(&x, &v[k - 1], c) < 0) {
                v[k] = v[k - 1];
                k--;
            }
            v[k] = x;
        }
        if (!sp) break;
        sp--;
        lo = stack[sp].lo;
        hi = stack[sp].hi;
        depth = stack[sp].depth;
    }
}

/* Merge sort of a run of records equal in costs and name prefix, by
 * cmp_sort_tie (tmp: room for n records). Merging compares fewer pairs than
 * quicksort, and each comparison here is a strcmp of names that often share
 * long prefixes (`f'caller'caller2` contexts). */
static void merge_ties(sort_rec *v, size_t n, sort_rec *tmp, const sort_ctx *c)
{
    sort_rec *src = v, *dst = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = cmp_sort_tie(&src[j], &src[i], c) < 0 ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        sort_rec *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) memcpy(v, src, n * sizeof *v);
}

/* v sorted by costs and name prefix (keys_only): each run of equal keys is
 * put in the full order. 0 when out of memory (v then as it was). */
/* The end of the run of keys equal to v[a]'s. */
static size_t run_end(const sort_rec *v, size_t a, size_t n, const sort_ctx *c)
{
    size_t b = a + 1;
    while (b < n && cmp_sort_rec(&v[a], &v[b], c) == 0) b++;
    return b;
}

static int sort_ties(sort_rec *v, size_t n, sort_ctx *c)
{
    size_t longest = 0;
    for (size_t a = 0, b; a < n; a = b)
        if ((b = run_end(v, a, n, c)) - a > longest) longest = b - a;
    if (longest < 2) return 1;
    sort_rec *tmp = tk_malloc(longest * sizeof *tmp);
    if (!tmp) return 0;
    for (size_t a = 0, b; a < n; a = b)
        if ((b = run_end(v, a, n, c)) - a > 1) merge_ties(v + a, b - a, tmp, c);
    tk_free(tmp);
    return 1;
}

/* Saturating sum (inclusive costs can add up past 2^64). */
static uint64_t add_sat(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

/* callgrind_annotate's test for its threshold, in doubles as its Perl: rows
 * of sum `sum` cover `coverage` percent of `total`. */
static int covers(uint64_t sum, uint64_t total, double coverage)
{
    return (double)sum * 100.0 / (double)total >= coverage;
}

int tk_prof_covered(uint64_t sum, uint64_t total, double coverage)
{
    return coverage < 100.0 && total && covers(sum, total, coverage);
}

/* Moves the records that a list sorted by k0 (descending) needs before it
 * covers `coverage` percent of `total` to the front, larger k0 than every
 * record behind them, and returns their number: the list's smallest prefix
 * that covers, widened to all records of its last k0. A quickselect with a
 * three-way partition that follows the sum of the larger side; past a
 * logarithmic number of rounds (pivots gone bad) it returns the undecided
 * range with the prefix, which is only slower to sort, never wrong. */
static size_t cover_prefix(sort_rec *v, size_t n, uint64_t total, double coverage)
{
    if (covers(0, total, coverage)) return 0;
    size_t lo = 0, hi = n, rounds = 16;
    for (size_t m = n; m > 1; m >>= 1) rounds += 2;
    uint64_t acc = 0; /* the sum of v[0, lo) */
    /* v[0, lo) > v[lo, hi) > v[hi, n) in k0; acc does not cover, acc plus
     * the sum of v[lo, hi) does */
    while (lo < hi) {
        if (!rounds--) return hi;
        uint64_t x = v[lo].k0, y = v[lo + (hi - lo) / 2].k0, z = v[hi - 1].k0;
        uint64_t pv = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
        size_t a = lo, i = lo, b = hi;
        uint64_t gt = 0;
        while (i < b) {
            uint64_t k = v[i].k0;
            if (k > pv) {
                gt = add_sat(gt, k);
                swap_rec(&v[a++], &v[i++]);
            } else if (k < pv) {
                swap_rec(&v[i], &v[--b]);
            } else {
                i++;
            }
        }
        if (covers(add_sat(acc, gt), total, coverage)) {
            hi = a;
            continue;
        }
        acc = add_sat(acc, gt);
        uint64_t eq =
            (uint64_t)(b - a) > UINT64_MAX / (pv ? pv : 1) ? UINT64_MAX : pv * (uint64_t)(b - a);
        if (covers(add_sat(acc, eq), total, coverage)) return b;
        acc = add_sat(acc, eq);
        lo = b;
    }
    return n; /* not reached with a total that is the sum of the k0 */
}

tk_status tk_prof_summary_sort_cover(tk_prof_summary *s, const tk_profile *p, const size_t *events,
                                     size_t n_events, int inclusive, double coverage,
                                     size_t *sorted_rows, tk_error *err)
{
    *sorted_rows = 0;
    if (inclusive && s->count && !s->entries[0].inclusive)
        inclusive = 0; /* a summary of self costs */
    /* room for the records, then for the sorted entries (see below) */
    size_t rec_size =
        sizeof(sort_rec) > sizeof(tk_prof_entry) ? sizeof(sort_rec) : sizeof(tk_prof_entry);
    sort_rec *v = tk_malloc((s->count ? s->count : 1) * rec_size);
    if (!v) /* out of memory: leave the order as it is */
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    /* the costs and names are anywhere in memory: fetched a few entries
     * ahead (the misses overlap) */
    enum { AHEAD = 8 };
    for (size_t i = 0; i < s->count; i++) {
        const tk_prof_entry *e = &s->entries[i];
        if (i + AHEAD < s->count && n_events)
            __builtin_prefetch(&(inclusive ? s->entries[i + AHEAD].inclusive
                                           : s->entries[i + AHEAD].self)[events[0]]);
        v[i].k0 = n_events ? (inclusive ? e->inclusive : e->self)[events[0]] : 0;
        v[i].entry = (uint32_t)i;
        v[i].pad = 0;
    }
    /* only the rows a covering prefix needs are sorted (on the 130 MB bench
     * profile, 99 %: 66 K of 151 K functions) */
    size_t nsort = s->count;
    uint64_t total = n_events ? s->totals[events[0]] : 0;
    if (coverage < 100.0 && total) nsort = cover_prefix(v, s->count, total, coverage);
    for (size_t i = 0; i < nsort; i++) {
        if (i + AHEAD < nsort) __builtin_prefetch(str_of(p, s->entries[v[i + AHEAD].entry].name));
        v[i].name = str_of(p, s->entries[v[i].entry].name);
        v[i].name8 = name_prefix(v[i].name);
    }
    /* by costs and name prefixes first (no strcmp), then the runs of equal
     * keys by names and the rest */
    sort_ctx c = {s, p, events, n_events, inclusive, 1};
    sort_recs(v, nsort, &c);
    if (!sort_ties(v, nsort, &c)) { /* out of memory: one sort by everything */
        c.keys_only = 0;
        sort_recs(v, nsort, &c);
    }
    /* Position i takes the entry v[i].entry. The entries are gathered into
     * the records' block with their sources fetched ahead (following the
     * permutation's cycles in place is a chain of dependent misses): first
     * the entry indexes to the block's start (order[i] overwrites records
     * already read), then the entries from the last down (entry i covers
     * the order cells from i * sizeof(tk_prof_entry) / 4 >= 2 i on: read
     * already, or beyond order's end). */
    if (s->count > 1) {
        const tk_prof_entry *e = s->entries;
        uint32_t *order = (uint32_t *)(void *)v;
        for (size_t i = 0; i < s->count; i++) order[i] = v[i].entry;
        tk_prof_entry *sorted = (tk_prof_entry *)(void *)v;
        for (size_t i = s->count; i-- > 0;) {
            if (i >= AHEAD) __builtin_prefetch(&e[order[i - AHEAD]]);
            uint32_t k = order[i];
            sorted[i] = e[k];
        }
        tk_free(s->entries);
        s->entries = sorted;
    } else {
        tk_free(v);
    }
    *sorted_rows = nsort;
    return TK_OK;
}

tk_status tk_prof_summary_sort(tk_prof_summary *s, const tk_profile *p, const size_t *events,
                               size_t n_events, int inclusive, tk_error *err)
{
    size_t n;
    return tk_prof_summary_sort_cover(s, p, events, n_events, inclusive, 100.0, &n, err);
}

/* ---- recursion classes (annotate) ----------------------------------------- */

typedef struct base_rec {
    uint32_t object, file, fn;
    const char *name;
    size_t len; /* of the base name */
} base_rec;

static int cmp_base_rec(const void *a, const void *b)
{
    const base_rec *x = a, *y = b;
    if (x->object != y->object) return x->object < y->object ? -1 : 1;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, n);
    if (c) return c;
    return (x->len > y->len) - (x->len < y->len);
}

tk_status tk_profile_recursion_classes(const tk_profile *p, size_t part, int by_base_name,
                                       uint32_t **out, tk_error *err)
{
    *out = NULL;
    size_t np = tk_profile_part_count(p);
    if (part > np)
        return tk_error_set(err, TK_ERR_ARG, "no part %zu (the profile has %zu part%s)", part, np,
                            np == 1 ? "" : "s");
    size_t nfn = tk_profile_function_count(p);
    uint32_t *node = tk_malloc((nfn ? nfn : 1) * sizeof *node); /* the caller's (tk_free) */
    uint32_t *comp = tk_malloc((nfn ? nfn : 1) * sizeof *comp);
    uint32_t *first = NULL, *to = NULL;
    base_rec *recs = by_base_name ? tk_malloc((nfn ? nfn : 1) * sizeof *recs) : NULL;
    const tk_prof_part **parts = tk_malloc((np ? np : 1) * sizeof *parts);
    size_t nparts = 0;
    for (size_t i = 0; parts && i < np; i++)
        if (!part || part == i + 1) parts[nparts++] = tk_profile_part(p, i);
    tk_status st = TK_OK;
    if (!node || !comp || !parts || (by_base_name && !recs)) {
        st = TK_ERR_NOMEM;
        goto done;
    }
    size_t nnodes = nfn;
    for (size_t f = 0; f < nfn; f++) node[f] = (uint32_t)f;
    if (by_base_name) {
        for (size_t f = 0; f < nfn; f++) {
            const tk_prof_function *fn = tk_profile_function_at(p, (uint32_t)f);
            const char *name = tk_profile_str(p, fn->name);
            size_t len = tk_profile_str_len(p, fn->name);
            const char *q = len > 1 ? memchr(name + 1, '\'', len - 1) : NULL;
            recs[f] =
                (base_rec){fn->object, fn->file, (uint32_t)f, name, q ? (size_t)(q - name) : len};
        }
        qsort(recs, nfn, sizeof *recs, cmp_base_rec);
        nnodes = 0;
        for (size_t i = 0; i < nfn; i++) {
            if (i && cmp_base_rec(&recs[i - 1], &recs[i]) != 0) nnodes++;
            node[recs[i].fn] = (uint32_t)nnodes;
        }
        if (nfn) nnodes++;
    }
    tk_call_nodes m = {parts, nparts, nnodes, node, NULL, NULL};
    if ((st = tk_call_graph_csr(&m, &first, &to)) != TK_OK ||
        (st = tk_scc(nnodes, first, to, comp)) != TK_OK)
        goto done;
    for (size_t f = 0; f < nfn; f++) node[f] = comp[node[f]];
done:
    tk_free(comp);
    tk_free(first);
    tk_free(to);
    tk_free(recs);
    tk_free(parts);
    if (st != TK_OK) {
        tk_free(node);
        return tk_error_set(err, st, st == TK_ERR_LIMIT ? "too many call arcs" : "out of memory");
    }
    *out = node;
    return TK_OK;
}
