/* The folded stacks of two profiles (parts 1 and 2 of one), of two event streams (XRay
 * traces) or of two folded-stacks partials (two sets of traces), side by side:
 * tk_prof_folded_diff, what difffolded.pl makes of two folded files (the differential flame
 * graph's input). In export, above the analyses, as it reads the folded exports' own text
 * (tk_profile_write_folded, tk_export_folded, tk_folded_partial_write). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/folded_partial_impl.h"
#include "core/alloc.h"
#include "core/bytes.h"
#include "core/num.h"
#include "tracekit/profile_analysis.h"
#include "tracekit/profile_report.h"
#include "tracekit/viewers.h"

/* ---- folded stacks --------------------------------------------------------------------- */

/* A stack of the folded output of either profile and its counts in both. */
typedef struct folded_row {
    tk_prof_folded_diff_row r;
    size_t order; /* first appearance, A's stacks before B's */
} folded_row;

struct tk_prof_folded_diff {
    char *text[2]; /* both profiles' folded stacks (the rows point into them) */
    size_t len[2];
    folded_row *rows;
    size_t count;
};

static int cmp_folded_stack(const void *x, const void *y)
{
    const folded_row *a = x, *b = y;
    size_t n = a->r.len < b->r.len ? a->r.len : b->r.len;
    int c = memcmp(a->r.stack, b->r.stack, n);
    if (c) return c;
    if (a->r.len != b->r.len) return a->r.len < b->r.len ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

static int cmp_folded_order(const void *x, const void *y)
{
    const folded_row *a = x, *b = y;
    return (a->order > b->order) - (a->order < b->order);
}

/* The folded text written into b becomes profile i's (never NULL, its owner is d); st is the
 * writing's status: TK_ERR_NOMEM when b ran out of memory. */
static tk_status take_text(tk_prof_folded_diff *d, int i, tk_bytes_out *b, tk_status st,
                           tk_error *err)
{
    if (!tk_bytes_cstr(b)) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    d->text[i] = (char *)b->p;
    d->len[i] = b->len;
    return st;
}

/* Both profiles' folded stacks (parts 1 and 2 of `both`) for event ev as text (the
 * library's memory: tk_free). */
static tk_status folded_texts(tk_prof_folded_diff *d, const tk_profile *both, size_t ev,
                              tk_error *err)
{
    tk_status st = TK_OK;
    for (int i = 0; i < 2 && st == TK_OK; i++) {
        tk_bytes_out b = {0};
        tk_folded_profile_options fo = TK_FOLDED_PROFILE_OPTIONS_INIT;
        fo.event = ev;
        fo.part = (size_t)i + 1;
        tk_writer w = {tk_bytes_write, &b};
        st = tk_profile_write_folded(both, &fo, &w, err);
        st = take_text(d, i, &b, st, err);
    }
    return st;
}

/* The lines "stack COUNT" of both texts as rows, A's before B's. */
static tk_status folded_parse(tk_prof_folded_diff *d, tk_error *err)
{
    size_t n = 0, cap = 0;
    for (int i = 0; i < 2; i++) {
        for (char *line = d->text[i], *end = d->text[i] + d->len[i]; line < end;) {
            char *nl = memchr(line, '\n', (size_t)(end - line));
            if (!nl) nl = end;
            char *sp = nl;
            while (sp > line && sp[-1] != ' ') sp--;
            if (sp > line && n == cap) {
                cap = cap ? 2 * cap : 256;
                folded_row *nr = tk_reallocarray(d->rows, cap, sizeof *nr);
                if (!nr) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
                d->rows = nr;
            }
            if (sp > line) {
                folded_row *r = &d->rows[n];
                r->r.stack = line;
                r->r.len = (size_t)(sp - 1 - line);
                r->order = n++;
                if (tk_num_parse_u64(sp, (size_t)(nl - sp), &r->r.count[i]) != TK_OK) /* ours */
                    r->r.count[i] = 0;
                r->r.count[!i] = 0;
            }
            line = nl + 1;
        }
    }
    d->count = n;
    return TK_OK;
}

/* One row per stack, the first of equal stacks taking the others' counts, in order of first
 * appearance. */
static void folded_merge(tk_prof_folded_diff *d)
{
    folded_row *rows = d->rows;
    size_t n = d->count;
    if (!n) return;
    qsort(rows, n, sizeof *rows, cmp_folded_stack);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && rows[m - 1].r.len == rows[i].r.len &&
            memcmp(rows[m - 1].r.stack, rows[i].r.stack, rows[i].r.len) == 0) {
            rows[m - 1].r.count[0] += rows[i].r.count[0];
            rows[m - 1].r.count[1] += rows[i].r.count[1];
        } else {
            rows[m++] = rows[i];
        }
    }
    qsort(rows, m, sizeof *rows, cmp_folded_order);
    d->count = m;
}

/* d, whose texts are written (st: how that went), as rows into *out; freed on an error. */
static tk_status folded_finish(tk_prof_folded_diff *d, tk_status st, tk_prof_folded_diff **out,
                               tk_error *err)
{
    if (st == TK_OK) st = folded_parse(d, err);
    if (st != TK_OK) {
        tk_prof_folded_diff_free(d);
        return st;
    }
    folded_merge(d);
    *out = d;
    return TK_OK;
}

tk_status tk_prof_folded_diff_open(tk_prof_folded_diff **out, const tk_profile *both, size_t event,
                                   tk_error *err)
{
    *out = NULL;
    if (tk_profile_part_count(both) != 2)
        return tk_error_set(err, TK_ERR_ARG, "a difference wants a profile of two parts, not %zu",
                            tk_profile_part_count(both));
    tk_prof_folded_diff *d = tk_calloc(1, sizeof *d);
    if (!d) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return folded_finish(d, folded_texts(d, both, event, err), out, err);
}

tk_status tk_prof_folded_diff_open_events(tk_prof_folded_diff **out, const tk_event_source *a,
                                          const tk_event_source *b, tk_folded_weight weight,
                                          tk_error *err)
{
    *out = NULL;
    tk_prof_folded_diff *d = tk_calloc(1, sizeof *d);
    if (!d) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    const tk_event_source *src[2] = {a, b};
    tk_status st = TK_OK;
    for (int i = 0; i < 2 && st == TK_OK; i++) {
        tk_bytes_out text = {0};
        tk_writer w = {tk_bytes_write, &text};
        st = tk_export_folded(src[i], &w, weight, 0, err);
        st = take_text(d, i, &text, st, err);
    }
    return folded_finish(d, st, out, err);
}

tk_status tk_prof_folded_diff_open_partials(tk_prof_folded_diff **out, const tk_folded_partial *a,
                                            const tk_folded_partial *b, tk_error *err)
{
    *out = NULL;
    if (a->weight != b->weight || !a->per_thread != !b->per_thread)
        return tk_error_set(err, TK_ERR_ARG,
                            "the folded stacks of two sets are compared by one weight, the "
                            "threads of both together or of both apart");
    tk_prof_folded_diff *d = tk_calloc(1, sizeof *d);
    if (!d) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    const tk_folded_partial *p[2] = {a, b};
    tk_status st = TK_OK;
    for (int i = 0; i < 2 && st == TK_OK; i++) {
        tk_bytes_out text = {0};
        tk_writer w = {tk_bytes_write, &text};
        st = tk_folded_partial_write(p[i], &w, err);
        st = take_text(d, i, &text, st, err);
    }
    return folded_finish(d, st, out, err);
}

size_t tk_prof_folded_diff_count(const tk_prof_folded_diff *d) { return d->count; }

const tk_prof_folded_diff_row *tk_prof_folded_diff_row_at(const tk_prof_folded_diff *d, size_t i)
{
    return &d->rows[i].r;
}

void tk_prof_folded_diff_free(tk_prof_folded_diff *d)
{
    if (!d) return;
    tk_free(d->text[0]);
    tk_free(d->text[1]);
    tk_free(d->rows);
    tk_free(d);
}
