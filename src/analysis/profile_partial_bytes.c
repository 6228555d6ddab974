/* A profile report's partial as bytes and back (tk_prof_partial_serialize, _deserialize): a
 * canonical form, so that equal partials give equal bytes and bytes that read back write
 * themselves again. LEB128 varints in their shortest form; strings in a table of their own,
 * each once, in the order the rest first refers to them (a reference is its index + 1, 0
 * for none). */
#include <stdlib.h>
#include <string.h>

#include "analysis/profile_partial.h"
#include "core/alloc.h"
#include "core/bytes.h"
#include "model/profile.h"

static const uint8_t magic[5] = {'T', 'K', 'P', 'P', 1};

/* ---- writing ---------------------------------------------------------------------------- */

static void put_vec(tk_bytes_out *b, const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) tk_bytes_put_u64(b, v[i]);
}

/* The strings referred to, numbered in order of first reference. */
typedef struct strtab {
    const tk_profile *names;
    uint32_t *ref; /* per string id of names: its reference (index + 1), 0 when not yet */
    uint32_t *ids; /* by index: the string id */
    size_t n;
    tk_bytes_out body; /* what follows the table */
} strtab;

static void put_ref(strtab *t, uint32_t id)
{
    if (id == TK_PROF_NONE) {
        tk_bytes_put_u64(&t->body, 0);
        return;
    }
    if (!t->ref[id]) {
        t->ids[t->n++] = id;
        t->ref[id] = (uint32_t)t->n;
    }
    tk_bytes_put_u64(&t->body, t->ref[id]);
}

static void put_names(strtab *t, const tk_prof_partial *pp)
{
    tk_bytes_put_u64(&t->body, pp->nev);
    for (size_t i = 0; i < pp->nev; i++) {
        const tk_prof_event *ev = tk_profile_event(pp->names, i);
        put_ref(t, ev->name);
        put_ref(t, ev->long_name);
    }
    size_t nd = tk_profile_derived_count(pp->names);
    tk_bytes_put_u64(&t->body, nd);
    for (size_t i = 0; i < nd; i++) {
        const tk_prof_derived *d = tk_profile_derived(pp->names, i);
        put_ref(t, d->name);
        put_ref(t, d->formula);
        put_ref(t, d->long_name);
    }
    tk_bytes_put_u64(&t->body, pp->late);
    put_vec(&t->body, pp->totals, pp->nev);
}

static void put_entry(strtab *t, const tk_prof_partial *pp, size_t i)
{
    const tk_pp_entry *e = &pp->entries[i];
    tk_bytes_out *b = &t->body;
    switch (pp->group) {
    case TK_GROUP_FUNCTION:
        put_ref(t, e->object);
        put_ref(t, e->file);
        put_ref(t, e->name);
        break;
    case TK_GROUP_FILE_FUNCTION:
        tk_bytes_put_u64(b, e->phase);
        put_ref(t, e->file);
        put_ref(t, e->name);
        tk_bytes_put_u64(b, e->has);
        if (e->has & TK_PP_SELF_OBJ) put_ref(t, e->self_obj);
        if (e->has & TK_PP_CALL_OBJ) put_ref(t, e->call_obj);
        break;
    case TK_GROUP_FILE:
        tk_bytes_put_u64(b, e->phase);
        put_ref(t, e->file);
        break;
    case TK_GROUP_OBJECT:
        tk_bytes_put_u64(b, e->phase);
        put_ref(t, e->object);
        break;
    case TK_GROUP_LINE:
        tk_bytes_put_u64(b, e->phase);
        put_ref(t, e->file);
        tk_bytes_put_u64(b, e->line);
        break;
    }
    put_vec(b, pp->self + i * pp->nev, pp->nev);
    tk_bytes_put_u64(b, pp->calls[i]);
    if (pp->out) put_vec(b, pp->out + i * pp->nev, pp->nev);
}

typedef struct arc_ref {
    uint32_t caller, callee, arc; /* positions in the order */
} arc_ref;

static int cmp_arc_ref(const void *x, const void *y)
{
    const arc_ref *a = x, *b = y;
    if (a->caller != b->caller) return a->caller < b->caller ? -1 : 1;
    return (a->callee > b->callee) - (a->callee < b->callee);
}

/* The arcs by the positions of their caller, then callee. */
static tk_status put_arcs(strtab *t, const tk_prof_partial *pp, const uint32_t *pos)
{
    arc_ref *r = tk_malloc((pp->narcs ? pp->narcs : 1) * sizeof *r);
    if (!r) return TK_ERR_NOMEM;
    for (size_t i = 0; i < pp->narcs; i++)
        r[i] = (arc_ref){pos[pp->arcs[i].caller], pos[pp->arcs[i].callee], (uint32_t)i};
    if (pp->narcs) qsort(r, pp->narcs, sizeof *r, cmp_arc_ref);
    tk_bytes_put_u64(&t->body, pp->narcs);
    for (size_t i = 0; i < pp->narcs; i++) {
        tk_bytes_put_u64(&t->body, r[i].caller);
        tk_bytes_put_u64(&t->body, r[i].callee);
        put_vec(&t->body, pp->arc_values + (size_t)r[i].arc * (pp->nev + 1), pp->nev + 1);
    }
    tk_free(r);
    return TK_OK;
}

/* Everything after the string table into t->body. */
static tk_status put_body(strtab *t, const tk_prof_partial *pp)
{
    uint32_t *order = NULL, *pos = tk_malloc((pp->count ? pp->count : 1) * sizeof *pos);
    tk_status st = pos ? tk_pp_order(pp, &order) : TK_ERR_NOMEM;
    if (st == TK_OK) {
        put_names(t, pp);
        tk_bytes_put_u64(&t->body, pp->count);
        for (size_t k = 0; k < pp->count; k++) {
            pos[order[k]] = (uint32_t)k;
            put_entry(t, pp, order[k]);
        }
        st = put_arcs(t, pp, pos);
    }
    tk_free(order);
    tk_free(pos);
    return st;
}

tk_status tk_prof_partial_serialize(const tk_prof_partial *pp, uint8_t **data, size_t *size,
                                    tk_error *err)
{
    *data = NULL;
    *size = 0;
    size_t ns = tk_profile_string_count(pp->names);
    strtab t = {pp->names,
                tk_calloc(ns ? ns : 1, sizeof *t.ref),
                tk_malloc((ns ? ns : 1) * sizeof *t.ids),
                0,
                {NULL, 0, 0, 0}};
    tk_status st = t.ref && t.ids ? put_body(&t, pp) : TK_ERR_NOMEM;
    tk_bytes_out out = {NULL, 0, 0, 0};
    if (st == TK_OK) {
        tk_bytes_put(&out, magic, sizeof magic);
        tk_bytes_put_u64(&out, (uint64_t)pp->group);
        tk_bytes_put_u64(&out, (uint64_t)pp->self_only);
        tk_bytes_put_u64(&out, (uint64_t)pp->has_rows);
        tk_bytes_put_u64(&out, pp->nparts);
        tk_bytes_put_u64(&out, t.n);
        for (size_t i = 0; i < t.n; i++) {
            size_t len = tk_profile_str_len(pp->names, t.ids[i]);
            tk_bytes_put_u64(&out, len);
            tk_bytes_put(&out, tk_profile_str(pp->names, t.ids[i]), len);
        }
        tk_bytes_put(&out, t.body.p, t.body.len);
        if (out.failed || t.body.failed) st = TK_ERR_NOMEM;
    }
    tk_free(t.ref);
    tk_free(t.ids);
    tk_free(t.body.p);
    if (st != TK_OK) {
        tk_free(out.p);
        return tk_error_set(err, st, "out of memory serialising a profile partial");
    }
    *data = out.p;
    *size = out.len;
    return TK_OK;
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct rd {
    tk_bytes_in in;
    tk_prof_partial *pp;
    uint32_t *ids; /* the table's strings as the names' ids */
    size_t nstr, used; /* strings in the table; referred to so far (the next new one is used) */
} rd;

static int get_vec(rd *r, uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tk_bytes_get_u64(&r->in, &v[i], "a cost")) return -1;
    return 0;
}

/* A string reference (none: TK_PROF_NONE, unless required): the strings are referred to in
 * the order of the table. */
static int get_ref(rd *r, int required, uint32_t *id)
{
    uint64_t v;
    if (tk_bytes_get_u64(&r->in, &v, "a string reference")) return -1;
    if (!v) {
        *id = TK_PROF_NONE;
        return required ? tk_bytes_fail(&r->in, "a name missing") : 0;
    }
    if (v > r->nstr) return tk_bytes_fail(&r->in, "a string reference past the table of strings");
    if (v > r->used + 1)
        return tk_bytes_fail(&r->in, "strings not in the order of their first use");
    if (v == r->used + 1) r->used++;
    *id = r->ids[v - 1];
    return 0;
}

/* The table of strings into the names (each once). */
static int get_strings(rd *r)
{
    uint64_t n;
    if (tk_bytes_get_max(&r->in, r->in.size - r->in.pos, &n, "the number of strings")) return -1;
    r->ids = tk_malloc((n ? n : 1) * sizeof *r->ids);
    if (!r->ids) return tk_bytes_nomem(&r->in);
    r->nstr = n;
    for (size_t i = 0; i < n; i++) {
        uint64_t len;
        if (tk_bytes_get_max(&r->in, r->in.size - r->in.pos, &len, "a string's length")) return -1;
        if (len > UINT32_MAX) return tk_bytes_fail(&r->in, "a string over 4 GiB");
        size_t before = tk_profile_string_count(r->pp->names);
        if (tk_profile_intern(r->pp->names, (const char *)r->in.p + r->in.pos, (size_t)len,
                              &r->ids[i], NULL) != TK_OK)
            return tk_bytes_nomem(&r->in);
        if (tk_profile_string_count(r->pp->names) == before)
            return tk_bytes_fail(&r->in, "a string twice in the table");
        r->in.pos += len;
    }
    return 0;
}

/* Event types, derived events, totals. */
static int get_names(rd *r)
{
    tk_profile *names = r->pp->names;
    uint64_t n;
    if (tk_bytes_get_max(&r->in, TK_PROFILE_MAX_EVENTS, &n, "the number of event types")) return -1;
    for (size_t i = 0; i < n; i++) {
        uint32_t name, ln;
        size_t idx;
        if (get_ref(r, 1, &name) || get_ref(r, 0, &ln)) return -1;
        if (tk_profile_add_event(names, tk_profile_str(names, name),
                                 tk_profile_str_len(names, name), &idx, NULL) != TK_OK)
            return tk_bytes_nomem(&r->in);
        if (idx != i) return tk_bytes_fail(&r->in, "an event type twice");
        tk_profile_set_event_long_name(names, idx, ln);
    }
    r->pp->nev = (size_t)n;
    if (tk_bytes_get_max(&r->in, TK_PROFILE_MAX_EVENTS, &n, "the number of derived events"))
        return -1;
    for (size_t i = 0; i < n; i++) {
        uint32_t name, formula, ln;
        if (get_ref(r, 1, &name) || get_ref(r, 1, &formula) || get_ref(r, 0, &ln)) return -1;
        if (tk_profile_add_derived(names, name, formula, ln, NULL) != TK_OK)
            return tk_bytes_nomem(&r->in);
        if (tk_profile_derived_count(names) != i + 1)
            return tk_bytes_fail(&r->in, "a derived event twice");
    }
    if (tk_bytes_get_u64(&r->in, &r->pp->late, "the late event types")) return -1;
    if (r->pp->nev < 64 && r->pp->late >> r->pp->nev)
        return tk_bytes_fail(&r->in, "a late event type past the event types");
    return get_vec(r, r->pp->totals, r->pp->nev);
}

/* Entry i's key (and, by file-function, its objects) as the serialiser wrote it. */
static int get_key(rd *r, tk_pp_entry *k, uint64_t *phase)
{
    tk_prof_partial *pp = r->pp;
    memset(k, 0, sizeof *k);
    k->object = k->file = k->name = k->self_obj = k->call_obj = TK_PROF_NONE;
    *phase = TK_PP_COSTS;
    if (pp->group == TK_GROUP_FUNCTION)
        return get_ref(r, 0, &k->object) || get_ref(r, 0, &k->file) || get_ref(r, 1, &k->name);
    if (tk_bytes_get_max(&r->in, TK_PP_CALLS, phase, "an entry's pass") || *phase < TK_PP_COSTS)
        return tk_bytes_fail(&r->in, "an entry's pass");
    uint64_t has;
    switch (pp->group) {
    case TK_GROUP_FILE_FUNCTION:
        if (get_ref(r, 0, &k->file) || get_ref(r, 0, &k->name) ||
            tk_bytes_get_max(&r->in, TK_PP_SELF_OBJ | TK_PP_CALL_OBJ, &has, "an entry's objects"))
            return -1;
        k->has = (uint32_t)has;
        if ((has & TK_PP_SELF_OBJ) && get_ref(r, 0, &k->self_obj)) return -1;
        return (has & TK_PP_CALL_OBJ) && get_ref(r, 0, &k->call_obj);
    case TK_GROUP_FILE: return get_ref(r, 0, &k->file);
    case TK_GROUP_OBJECT: return get_ref(r, 0, &k->object);
    case TK_GROUP_LINE:
        return get_ref(r, 0, &k->file) || tk_bytes_get_u64(&r->in, &k->line, "a line");
    case TK_GROUP_FUNCTION: break;
    }
    return 0;
}

/* The entries, in their order: by function the names' functions, else each key once, the
 * first pass's before the second's. */
static int get_entries(rd *r)
{
    tk_prof_partial *pp = r->pp;
    uint64_t n, last = TK_PP_COSTS;
    if (tk_bytes_get_max(&r->in, r->in.size - r->in.pos, &n, "the number of entries")) return -1;
    if (n >= UINT32_MAX - 1) return tk_bytes_fail(&r->in, "too many entries");
    for (size_t i = 0; i < n; i++) {
        tk_pp_entry k;
        uint64_t phase;
        size_t idx = i;
        int made = 1;
        if (get_key(r, &k, &phase)) return -1;
        if (phase < last)
            return tk_bytes_fail(&r->in, "an entry of the first pass after the second's");
        last = phase;
        tk_status st;
        uint32_t fn;
        if (pp->group == TK_GROUP_FUNCTION) {
            st = tk_profile_function(pp->names, k.object, k.file, k.name, &fn, NULL);
            if (st == TK_OK && fn != i) return tk_bytes_fail(&r->in, "a function twice");
            if (st == TK_OK) st = tk_pp_function_entries(pp);
        } else {
            st = tk_pp_entry_find(pp, &k, (uint32_t)phase, &idx, &made);
        }
        if (st != TK_OK) return tk_bytes_nomem(&r->in);
        if (!made || idx != i) return tk_bytes_fail(&r->in, "an entry twice");
        pp->entries[i].has = k.has;
        pp->entries[i].self_obj = k.self_obj;
        pp->entries[i].call_obj = k.call_obj;
        if (get_vec(r, pp->self + i * pp->nev, pp->nev) ||
            tk_bytes_get_u64(&r->in, &pp->calls[i], "a call count") ||
            (pp->out && get_vec(r, pp->out + i * pp->nev, pp->nev)))
            return -1;
    }
    return 0;
}

/* The arcs, by their caller, then callee, each pair once. */
static int get_arcs(rd *r)
{
    tk_prof_partial *pp = r->pp;
    uint64_t n, prev_a = 0, prev_b = 0;
    if (tk_bytes_get_max(&r->in, r->in.size - r->in.pos, &n, "the number of arcs")) return -1;
    int arcs =
        !pp->self_only && (pp->group == TK_GROUP_FUNCTION || pp->group == TK_GROUP_FILE_FUNCTION);
    if (n && !arcs) return tk_bytes_fail(&r->in, "arcs in a partial without them");
    for (size_t i = 0; i < n; i++) {
        uint64_t a, b;
        if (tk_bytes_get_max(&r->in, pp->count ? pp->count - 1 : 0, &a, "an arc's caller") ||
            tk_bytes_get_max(&r->in, pp->count ? pp->count - 1 : 0, &b, "an arc's callee"))
            return -1;
        if (!pp->count) return tk_bytes_fail(&r->in, "an arc without entries");
        if (i && (a < prev_a || (a == prev_a && b <= prev_b)))
            return tk_bytes_fail(&r->in, "arcs not in the order of their ends");
        prev_a = a;
        prev_b = b;
        uint64_t *d = tk_pp_arc_add(pp, (uint32_t)a, (uint32_t)b);
        if (!d) return tk_bytes_nomem(&r->in);
        if (get_vec(r, d, pp->nev + 1)) return -1;
    }
    return 0;
}

static int get_all(rd *r)
{
    uint64_t group, self_only, has_rows, nparts;
    if (r->in.size < sizeof magic || memcmp(r->in.p, magic, sizeof magic) != 0)
        return tk_bytes_fail(&r->in, "not a profile partial (no \"TKPP\" 1)");
    r->in.pos = sizeof magic;
    if (tk_bytes_get_max(&r->in, TK_GROUP_LINE, &group, "the key") ||
        tk_bytes_get_max(&r->in, 1, &self_only, "self_only") ||
        tk_bytes_get_max(&r->in, 1, &has_rows, "has_rows") ||
        tk_bytes_get_u64(&r->in, &nparts, "the number of parts"))
        return -1;
    if (tk_pp_new(&r->pp, (tk_prof_group)group, (int)self_only, NULL) != TK_OK)
        return tk_bytes_nomem(&r->in);
    r->pp->has_rows = (int)has_rows;
    r->pp->nparts = (size_t)nparts;
    if (get_strings(r) || get_names(r) || get_entries(r) || get_arcs(r)) return -1;
    if (r->used != r->nstr) return tk_bytes_fail(&r->in, "a string that nothing refers to");
    return r->in.pos == r->in.size ? 0 : tk_bytes_fail(&r->in, "bytes after the partial");
}

tk_status tk_prof_partial_deserialize(tk_prof_partial **out, const uint8_t *data, size_t size,
                                      tk_error *err)
{
    *out = NULL;
    rd r = {{data, 0, size, "profile partial", err, TK_OK}, NULL, NULL, 0, 0};
    int rc = get_all(&r);
    tk_free(r.ids);
    if (rc) {
        tk_prof_partial_free(r.pp);
        return r.in.st;
    }
    *out = r.pp;
    return TK_OK;
}
