/* The difference of two profiles (parts 1 and 2 of one) per function (their folded stacks side
 * by side: src/export/profile_folded_diff.c, over the folded export). */
#include "tracekit/profile_report.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/profile_summary.h"
#include "core/alloc.h"

/* ---- per function ---------------------------------------------------------------------- */

struct tk_prof_diff {
    tk_prof_summary *a, *b;
    tk_prof_diff_row *rows;
    size_t count;
};

static const char *str_or(const tk_profile *p, uint32_t id, const char *dflt)
{
    if (id == TK_PROF_NONE) return dflt;
    const char *s = tk_profile_str(p, id);
    return *s ? s : dflt;
}

static int cmp_diff_row(const void *x, const void *y)
{
    const tk_prof_diff_row *a = x, *b = y;
    if (a->change != b->change) return a->change > b->change ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c) return c;
    c = strcmp(a->file, b->file);
    return c ? c : strcmp(a->object, b->object);
}

static tk_status two_parts(const tk_profile *both, size_t event, int check_event, tk_error *err)
{
    size_t nev = tk_profile_event_count(both);
    if (tk_profile_part_count(both) != 2)
        return tk_error_set(err, TK_ERR_ARG, "a difference wants a profile of two parts, not %zu",
                            tk_profile_part_count(both));
    if (check_event && nev && event >= nev)
        return tk_error_set(err, TK_ERR_ARG, "event %zu: the profile has %zu events", event, nev);
    return TK_OK;
}

/* The rows of the functions whose costs differ (entry i is function i in both summaries). */
static tk_status diff_rows(tk_prof_diff *d, const tk_profile *both, size_t ev, tk_error *err)
{
    size_t nev = tk_profile_event_count(both);
    size_t n = d->a->count;
    d->rows = tk_malloc((n ? n : 1) * sizeof *d->rows);
    if (!d->rows) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const tk_prof_entry *a = &d->a->entries[i], *b = &d->b->entries[i];
        int same = 1;
        for (size_t j = 0; j < nev; j++)
            if (a->self[j] != b->self[j] || a->inclusive[j] != b->inclusive[j]) same = 0;
        if (same) continue;
        tk_prof_diff_row *r = &d->rows[k++];
        r->change = nev ? (a->self[ev] > b->self[ev] ? a->self[ev] - b->self[ev]
                                                     : b->self[ev] - a->self[ev])
                        : 0;
        r->name = str_or(both, a->name, "???");
        r->file = str_or(both, a->file, "???");
        r->object = str_or(both, a->object, "???");
        r->self[0] = a->self;
        r->self[1] = b->self;
        r->inclusive[0] = a->inclusive;
        r->inclusive[1] = b->inclusive;
    }
    qsort(d->rows, k, sizeof *d->rows, cmp_diff_row);
    d->count = k;
    return TK_OK;
}

tk_status tk_prof_diff_open(tk_prof_diff **out, const tk_profile *both, size_t event, tk_error *err)
{
    *out = NULL;
    tk_status st = two_parts(both, event, 1, err);
    if (st != TK_OK) return st;
    tk_prof_diff *d = tk_calloc(1, sizeof *d);
    if (!d) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    st = tk_profile_summarize(both, 1, TK_GROUP_FUNCTION, &d->a, err);
    if (st == TK_OK) st = tk_profile_summarize(both, 2, TK_GROUP_FUNCTION, &d->b, err);
    if (st == TK_OK) st = diff_rows(d, both, event, err);
    if (st != TK_OK) {
        tk_prof_diff_free(d);
        return st;
    }
    *out = d;
    return TK_OK;
}

size_t tk_prof_diff_count(const tk_prof_diff *d) { return d->count; }

const tk_prof_diff_row *tk_prof_diff_row_at(const tk_prof_diff *d, size_t i) { return &d->rows[i]; }

const uint64_t *tk_prof_diff_totals(const tk_prof_diff *d, int side)
{
    return side ? d->b->totals : d->a->totals;
}

void tk_prof_diff_free(tk_prof_diff *d)
{
    if (!d) return;
    tk_free(d->rows);
    tk_prof_summary_free(d->a);
    tk_prof_summary_free(d->b);
    tk_free(d);
}
