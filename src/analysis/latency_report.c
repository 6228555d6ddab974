/* Latency reports: the rows of a latency accounting in a chosen order (llvm-xray account's
 * --sort and --sortorder), and the per-function difference of two traces. */
#include "tracekit/latency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* ---- the report ------------------------------------------------------------------------ */

struct tk_latency_report {
    tk_latency_row *rows;
    size_t count, total; /* the rows shown (top), the rows with completed calls */
};

/* Rows are sorted through items that carry their key (qsort has no context argument). */
typedef struct sort_item {
    tk_latency_row row;
    uint64_t value;
    char name[96];
} sort_item;

static uint64_t sort_value(const tk_latency_row *r, tk_latency_key key)
{
    switch (key) {
    case TK_LATENCY_KEY_COUNT: return r->count;
    case TK_LATENCY_KEY_MIN: return r->min;
    case TK_LATENCY_KEY_MEDIAN: return r->median;
    case TK_LATENCY_KEY_P90: return r->p90;
    case TK_LATENCY_KEY_P99: return r->p99;
    case TK_LATENCY_KEY_MAX: return r->max;
    case TK_LATENCY_KEY_SUM: return r->sum;
    case TK_LATENCY_KEY_SELF: return r->self;
    default: return r->func;
    }
}

static int tie_break(const sort_item *x, const sort_item *y)
{
    /* thread, then function id, ascending */
    if (x->row.thread != y->row.thread) return x->row.thread < y->row.thread ? -1 : 1;
    return x->row.func < y->row.func ? -1 : x->row.func > y->row.func;
}

static int by_value_asc(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = x->value < y->value ? -1 : x->value > y->value;
    return c ? c : tie_break(x, y);
}

static int by_value_desc(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = x->value < y->value ? 1 : -(x->value > y->value);
    return c ? c : tie_break(x, y);
}

static int by_name_asc(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : tie_break(x, y);
}

static int by_name_desc(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = -strcmp(x->name, y->name);
    return c ? c : tie_break(x, y);
}

static const char *row_name(const tk_event_source *names, uint64_t func, char *buf, size_t size)
{
    if (names) return tk_event_func_name(names, func, buf, size);
    snprintf(buf, size, "#%llu", (unsigned long long)func);
    return buf;
}

/* The rows with calls sorted as opt says into r->rows (r->count of them). */
static tk_status sort_rows(tk_latency_report *r, const tk_latency_row *rows, size_t n,
                           const tk_latency_report_options *opt, tk_error *err)
{
    sort_item *items = tk_malloc((n ? n : 1) * sizeof *items);
    r->rows = tk_malloc((n ? n : 1) * sizeof *r->rows);
    if (!items || !r->rows) {
        tk_free(items);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    int by_name = opt->key == TK_LATENCY_KEY_FUNC;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!rows[i].count) continue;
        sort_item *it = &items[k++];
        it->row = rows[i];
        it->value = sort_value(&rows[i], opt->key);
        char nb[64];
        snprintf(it->name, sizeof it->name, "%s",
                 by_name ? row_name(opt->names, rows[i].func, nb, sizeof nb) : "");
    }
    int desc =
        opt->order == TK_LATENCY_ORDER_DESC ||
        (opt->order == TK_LATENCY_ORDER_DEFAULT && opt->key != TK_LATENCY_KEY_FUNCID && !by_name);
    qsort(items, k, sizeof *items,
          by_name ? (desc ? by_name_desc : by_name_asc) : (desc ? by_value_desc : by_value_asc));
    for (size_t i = 0; i < k; i++) r->rows[i] = items[i].row;
    tk_free(items);
    r->total = k;
    r->count = opt->top && k > opt->top ? (size_t)opt->top : k;
    return TK_OK;
}

tk_status tk_latency_report_open(tk_latency_report **out, tk_latency *l,
                                 const tk_latency_report_options *opt, tk_error *err)
{
    static const tk_latency_report_options defaults = TK_LATENCY_REPORT_OPTIONS_INIT;
    *out = NULL;
    const tk_latency_row *rows;
    size_t n;
    tk_status st = tk_latency_rows(l, &rows, &n, err);
    if (st != TK_OK) return st;
    tk_latency_report *r = tk_calloc(1, sizeof *r);
    if (!r) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    st = sort_rows(r, rows, n, opt ? opt : &defaults, err);
    if (st != TK_OK) {
        tk_latency_report_free(r);
        return st;
    }
    *out = r;
    return TK_OK;
}

size_t tk_latency_report_count(const tk_latency_report *r) { return r->count; }

size_t tk_latency_report_total(const tk_latency_report *r) { return r->total; }

const tk_latency_row *tk_latency_report_row(const tk_latency_report *r, size_t i)
{
    return &r->rows[i];
}

void tk_latency_report_free(tk_latency_report *r)
{
    if (!r) return;
    tk_free(r->rows);
    tk_free(r);
}

/* ---- the difference -------------------------------------------------------------------- */

struct tk_latency_diff {
    tk_time_unit unit;
    int has[2], no_clock, finished;
    tk_latency_diff_row *side[2]; /* each by function id */
    size_t nside[2];
    tk_latency_diff_row *rows;
    size_t count;
};

static int cmp_diff(const void *x, const void *y)
{
    const tk_latency_diff_row *a = x, *b = y;
    double da = a->sum[1] - a->sum[0], db = b->sum[1] - b->sum[0];
    da = da < 0 ? -da : da;
    db = db < 0 ? -db : db;
    if (da != db) return da > db ? -1 : 1;
    return (a->func > b->func) - (a->func < b->func);
}

static int cmp_func(const void *x, const void *y)
{
    const tk_latency_diff_row *a = x, *b = y;
    return (a->func > b->func) - (a->func < b->func);
}

tk_status tk_latency_diff_open(tk_latency_diff **out, tk_time_unit unit, tk_error *err)
{
    *out = tk_calloc(1, sizeof **out);
    if (!*out) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    (*out)->unit = unit;
    return TK_OK;
}

tk_status tk_latency_diff_add(tk_latency_diff *d, int side, tk_latency *l, double ticks_per_second,
                              tk_error *err)
{
    if ((side != 0 && side != 1) || d->has[side] || d->finished)
        return tk_error_set(err, TK_ERR_ARG, "latency diff: side %d given twice or unknown", side);
    const tk_latency_row *lr;
    size_t ln;
    tk_status st = tk_latency_rows(l, &lr, &ln, err);
    if (st != TK_OK) return st;
    double hz = ticks_per_second > 0 ? ticks_per_second : 0;
    tk_latency_diff_row *rows = tk_calloc(ln ? ln : 1, sizeof *rows);
    if (!rows) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t n = 0;
    for (size_t k = 0; k < ln; k++) {
        if (!lr[k].count) continue;
        tk_latency_diff_row *r = &rows[n++];
        r->func = lr[k].func;
        r->count[side] = lr[k].count;
        r->sum[side] = tk_ticks_to_unit(lr[k].sum, hz, d->unit);
        r->median[side] = tk_ticks_to_unit(lr[k].median, hz, d->unit);
    }
    if (n) qsort(rows, n, sizeof *rows, cmp_func);
    d->side[side] = rows;
    d->nside[side] = n;
    d->has[side] = 1;
    if (!(hz > 0)) d->no_clock = 1;
    return TK_OK;
}

tk_status tk_latency_diff_finish(tk_latency_diff *d, tk_error *err)
{
    if (!d->has[0] || !d->has[1] || d->finished)
        return tk_error_set(err, TK_ERR_ARG, "latency diff: finished twice or a side missing");
    tk_latency_diff_row *const *side = d->side;
    const size_t *nside = d->nside;
    tk_latency_diff_row *rows = tk_malloc((nside[0] + nside[1] + 1) * sizeof *rows);
    if (!rows) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t n = 0;
    for (size_t a = 0, b = 0; a < nside[0] || b < nside[1];) {
        if (b == nside[1] || (a < nside[0] && side[0][a].func < side[1][b].func)) {
            rows[n++] = side[0][a++];
        } else if (a == nside[0] || side[1][b].func < side[0][a].func) {
            rows[n++] = side[1][b++];
        } else {
            rows[n] = side[0][a++];
            rows[n].count[1] = side[1][b].count[1];
            rows[n].sum[1] = side[1][b].sum[1];
            rows[n++].median[1] = side[1][b++].median[1];
        }
    }
    if (n) qsort(rows, n, sizeof *rows, cmp_diff);
    for (int k = 0; k < 2; k++) {
        tk_free(d->side[k]);
        d->side[k] = NULL;
    }
    d->rows = rows;
    d->count = n;
    d->finished = 1;
    return TK_OK;
}

size_t tk_latency_diff_count(const tk_latency_diff *d) { return d->count; }

const tk_latency_diff_row *tk_latency_diff_row_at(const tk_latency_diff *d, size_t i)
{
    return &d->rows[i];
}

int tk_latency_diff_has_clock(const tk_latency_diff *d) { return !d->no_clock; }

void tk_latency_diff_free(tk_latency_diff *d)
{
    if (!d) return;
    tk_free(d->side[0]);
    tk_free(d->side[1]);
    tk_free(d->rows);
    tk_free(d);
}
