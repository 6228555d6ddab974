/* The report table of a profile: its summary in the sort order, the rows shown, the callers
 * and callees of each function, the members of each call cycle. */
#include "tracekit/profile_report.h"

#include <string.h>

#include "core/alloc.h"
#include "analysis/profile_report_impl.h"
#include "analysis/profile_summary.h"
#include "core/compat.h"

struct tk_prof_report {
    tk_prof_report_options opt;
    size_t primary;
    tk_prof_summary *s;
    size_t limit;
    tk_prof_arcs *arcs;
    size_t *cycle_start, *cycle_members; /* members[start[c] .. start[c + 1]) of cycle c */
};

static double pct(uint64_t v, uint64_t total)
{
    return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* The rows with a cost (in the sort order, rows without one come last), after threshold,
 * coverage and top. Coverage cuts before the first row at which the rows above cover that
 * much, within the sorted prefix. */
static size_t rows_shown(const tk_prof_report *r, size_t sorted)
{
    const tk_prof_summary *s = r->s;
    const tk_prof_report_options *o = &r->opt;
    size_t nev = s->n_events, limit = s->count;
    uint64_t total = nev ? s->totals[r->primary] : 0, covered = 0;
    for (size_t i = 0; i < s->count; i++) {
        const tk_prof_entry *e = &s->entries[i];
        uint64_t v = nev ? (o->inclusive ? e->inclusive : e->self)[r->primary] : 0;
        int all_zero = 1;
        for (size_t j = 0; j < nev; j++)
            if (e->self[j] || (e->inclusive && e->inclusive[j])) all_zero = 0;
        if (all_zero || (o->threshold > 0 && pct(v, total) < o->threshold) ||
            tk_prof_covered(covered, total, o->coverage) || i >= sorted) {
            limit = i;
            break;
        }
        covered = covered + v < covered ? UINT64_MAX : covered + v;
    }
    if (o->top && o->top < limit) limit = (size_t)o->top;
    return limit;
}

/* The members of each call cycle, in the entries' order. */
static tk_status cycle_members(tk_prof_report *r, tk_error *err)
{
    const tk_prof_summary *s = r->s;
    size_t nc = s->n_cycles;
    size_t *start = tk_calloc(nc + 2, sizeof *start);
    size_t *members = tk_malloc((s->count ? s->count : 1) * sizeof *members);
    r->cycle_start = start;
    r->cycle_members = members;
    if (!start || !members) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < s->count; i++)
        if (s->entries[i].cycle) start[s->entries[i].cycle + 1]++;
    for (size_t c = 0; c <= nc; c++) start[c + 1] += start[c];
    for (size_t i = 0; i < s->count; i++)
        if (s->entries[i].cycle) members[start[s->entries[i].cycle]++] = i;
    for (size_t c = nc + 1; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
    return TK_OK;
}

/* The options as the report applies them; TK_ERR_ARG when they cannot be. */
static tk_status settle_options(tk_prof_report *r, const tk_profile *p, tk_error *err)
{
    tk_prof_report_options *o = &r->opt;
    size_t nev = tk_profile_event_count(p);
    if (o->nsort > 4) return tk_error_set(err, TK_ERR_ARG, "at most 4 sort events");
    if (!o->nsort && nev) o->sort[o->nsort++] = 0;
    for (size_t k = 0; k < o->nsort; k++)
        if (o->sort[k] >= nev)
            return tk_error_set(err, TK_ERR_ARG, "sort event %zu: the profile has %zu events",
                                o->sort[k], nev);
    int functions = o->group == TK_GROUP_FUNCTION || o->group == TK_GROUP_FILE_FUNCTION;
    if (o->focus && o->cycles)
        return tk_error_set(err, TK_ERR_ARG, "call cycles are listed whole: not with a focus");
    if ((o->tree || o->cycles || o->focus) && !functions)
        return tk_error_set(err, TK_ERR_ARG,
                            "callers, callees, call cycles and focus are those "
                            "of functions: group by function or file-function");
    if (o->cycles) {
        o->inclusive = 1;
        o->coverage = 100.0;
    }
    if (o->tree || o->cycles || o->focus) o->self_only = 0;
    if (!(o->coverage > 0)) o->coverage = 100.0;
    r->primary = o->nsort ? o->sort[0] : 0;
    return TK_OK;
}

/* Whether entry e is a function of the focus's name: its name, or its name up to a context
 * suffix. */
static int focus_matches(const tk_profile *p, const tk_prof_entry *e, const char *want)
{
    if (e->name == TK_PROF_NONE) return 0;
    const char *name = tk_profile_str(p, e->name);
    if (!strcmp(name, want)) return 1;
    const char *q = *name ? strchr(name + 1, '\'') : NULL;
    size_t n = q ? (size_t)(q - name) : strlen(name);
    return n == strlen(want) && !memcmp(name, want, n);
}

/* Marks in seen (bit 1: reached downwards, 2: upwards) the entries reachable from the
 * marked ones along the arcs (callees: caller to callee); stack: room for every entry. */
static void focus_reach(const tk_prof_arcs *a, unsigned char *seen, size_t n, size_t *stack,
                        int callees)
{
    unsigned char bit = callees ? 1 : 2;
    size_t sp = 0;
    for (size_t i = 0; i < n; i++)
        if (seen[i] & 4) {
            seen[i] |= bit;
            stack[sp++] = i;
        }
    while (sp) {
        size_t e = stack[--sp], first;
        size_t k = callees ? tk_prof_arcs_out_of(a, e, &first) : tk_prof_arcs_into(a, e, &first);
        for (size_t j = 0; j < k; j++) {
            const tk_prof_arc *arc = &a->arcs[callees ? a->by_caller[first + j] : first + j];
            size_t o = callees ? arc->callee : arc->caller;
            if (seen[o] & bit) continue;
            seen[o] |= bit;
            stack[sp++] = o;
        }
    }
}

/* --focus: the summary's entries cut to those on a call chain through the focus (their
 * order kept). */
static tk_status apply_focus(tk_prof_report *r, const tk_prof_report_source *src, tk_error *err)
{
    tk_prof_summary *s = r->s;
    const tk_prof_report_options *o = &r->opt;
    const tk_profile *p = src->names;
    size_t n = s->count, hits = 0;
    unsigned char *seen = tk_calloc(n ? n : 1, 1);
    size_t *stack = tk_malloc((n ? n : 1) * sizeof *stack);
    tk_prof_arcs *a = NULL;
    tk_status st = seen && stack ? TK_OK : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; st == TK_OK && i < n; i++)
        if (focus_matches(p, &s->entries[i], o->focus)) seen[i] = 4, hits++;
    if (st == TK_OK && !hits)
        st = tk_error_set(err, TK_ERR_ARG, "no function '%s' in the profile", o->focus);
    if (st == TK_OK) st = src->arcs(src->ctx, s, o->group, &a, err);
    if (st == TK_OK) {
        focus_reach(a, seen, n, stack, 1);
        focus_reach(a, seen, n, stack, 0);
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (seen[i]) s->entries[k++] = s->entries[i];
        s->count = k;
    }
    tk_prof_arcs_free(a);
    tk_free(seen);
    tk_free(stack);
    return st;
}

tk_status tk_prof_report_build(tk_prof_report **out, const tk_prof_report_source *src,
                               const tk_prof_report_options *opt, tk_error *err)
{
    static const tk_prof_report_options defaults = TK_PROF_REPORT_OPTIONS_INIT;
    *out = NULL;
    tk_prof_report *r = tk_calloc(1, sizeof *r);
    if (!r) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    r->opt = opt ? *opt : defaults;
    tk_prof_report_options *o = &r->opt;
    const tk_profile *p = src->names;
    tk_status st = settle_options(r, p, err);
    if (st == TK_OK) st = src->summarize(src->ctx, o->self_only, o->group, &r->s, err);
    if (st == TK_OK && o->focus) st = apply_focus(r, src, err);
    if (st == TK_OK) {
        size_t sorted = 0;
        st = tk_prof_summary_sort_cover(r->s, p, o->sort, o->nsort, o->inclusive, o->coverage,
                                        &sorted, err);
        if (st == TK_OK) r->limit = rows_shown(r, sorted);
    }
    if (st == TK_OK && o->tree) st = src->arcs(src->ctx, r->s, o->group, &r->arcs, err);
    if (st == TK_OK && o->cycles) st = cycle_members(r, err);
    if (st != TK_OK) {
        tk_prof_report_free(r);
        return st;
    }
    *out = r;
    return TK_OK;
}

/* The summary and arcs of a profile's part (or all parts). */
typedef struct of_profile {
    const tk_profile *p;
    size_t part;
} of_profile;

static tk_status profile_summary(void *ctx, int self_only, tk_prof_group group,
                                 tk_prof_summary **out, tk_error *err)
{
    const of_profile *x = ctx;
    return (self_only ? tk_profile_summarize_self : tk_profile_summarize)(x->p, x->part, group, out,
                                                                          err);
}

static tk_status profile_arcs(void *ctx, const tk_prof_summary *s, tk_prof_group group,
                              tk_prof_arcs **out, tk_error *err)
{
    const of_profile *x = ctx;
    return tk_profile_summary_arcs(x->p, x->part, s, group, out, err);
}

tk_status tk_prof_report_open(tk_prof_report **out, const tk_profile *p,
                              const tk_prof_report_options *opt, tk_error *err)
{
    of_profile x = {p, opt ? opt->part : 0};
    tk_prof_report_source src = {p, &x, profile_summary, profile_arcs};
    return tk_prof_report_build(out, &src, opt, err);
}

const tk_prof_summary *tk_prof_report_summary(const tk_prof_report *r) { return r->s; }

size_t tk_prof_report_rows(const tk_prof_report *r) { return r->limit; }

size_t tk_prof_report_primary(const tk_prof_report *r) { return r->primary; }

const tk_prof_arcs *tk_prof_report_arcs(const tk_prof_report *r) { return r->arcs; }

typedef struct arc_order {
    const tk_prof_arcs *a;
    size_t event;
    int callees; /* the other end of the arcs is their callee */
} arc_order;

/* Heaviest calls first (inclusive cost of the primary event), then the most frequent, then
 * the summary's order of the other end (one arc per pair of ends: a total order). */
static int cmp_arc(const void *x, const void *y, void *ctx)
{
    const arc_order *o = ctx;
    const tk_prof_arc *a = &o->a->arcs[*(const size_t *)x], *b = &o->a->arcs[*(const size_t *)y];
    uint64_t ca = o->a->n_events ? a->inclusive[o->event] : 0;
    uint64_t cb = o->a->n_events ? b->inclusive[o->event] : 0;
    if (ca != cb) return ca > cb ? -1 : 1;
    if (a->calls != b->calls) return a->calls > b->calls ? -1 : 1;
    size_t ea = o->callees ? a->callee : a->caller, eb = o->callees ? b->callee : b->caller;
    return (ea > eb) - (ea < eb);
}

size_t tk_prof_report_tree(const tk_prof_report *r, size_t i, int callees, size_t *idx)
{
    const tk_prof_arcs *a = r->arcs;
    if (!a) return 0;
    size_t first, n;
    if (callees) {
        n = tk_prof_arcs_out_of(a, i, &first);
        for (size_t k = 0; k < n; k++) idx[k] = a->by_caller[first + k];
    } else {
        n = tk_prof_arcs_into(a, i, &first);
        for (size_t k = 0; k < n; k++) idx[k] = first + k;
    }
    arc_order o = {a, r->primary, callees != 0};
    tk_qsort_r(idx, n, sizeof *idx, cmp_arc, &o);
    return n;
}

size_t tk_prof_report_cycle(const tk_prof_report *r, size_t c, const size_t **members)
{
    *members = NULL;
    if (!r->cycle_start || c < 1 || c > r->s->n_cycles) return 0;
    *members = r->cycle_members + r->cycle_start[c];
    return r->cycle_start[c + 1] - r->cycle_start[c];
}

void tk_prof_report_free(tk_prof_report *r)
{
    if (!r) return;
    tk_free(r->cycle_start);
    tk_free(r->cycle_members);
    tk_prof_arcs_free(r->arcs);
    tk_prof_summary_free(r->s);
    tk_free(r);
}
