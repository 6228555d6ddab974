/* The report of CSI metadata: each function's size and number of Ball-Larus paths. */
#include "tracekit/csi_report.h"

#include <string.h>

#include "core/alloc.h"
#include "core/arena.h"
#include "core/compat.h"
#include "core/vec.h"
#include "analysis/csi_rows.h"

struct tk_csi_report {
    tk_csi_report_options opt;
    tk_csi_numbering *num; /* workspace of add */
    TK_VEC(tk_csi_report_row) rows;
    tk_arena labels;
    tk_csi_report_totals totals;
};

tk_status tk_csi_report_open(tk_csi_report **out, const tk_csi_report_options *opt, tk_error *err)
{
    static const tk_csi_report_options defaults = TK_CSI_REPORT_OPTIONS_INIT;
    *out = NULL;
    tk_csi_report *r = tk_calloc(1, sizeof *r);
    if (!r || tk_csi_numbering_open(&r->num, NULL) != TK_OK) {
        tk_free(r);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    r->opt = opt ? *opt : defaults;
    tk_arena_init(&r->labels);
    *out = r;
    return TK_OK;
}

tk_status tk_csi_report_add(tk_csi_report *r, const tk_csi_function *fn, const char *label,
                            tk_error *err)
{
    tk_csi_report_row row;
    memset(&row, 0, sizeof row);
    row.label = tk_arena_strndup(&r->labels, label, strlen(label));
    if (!row.label || TK_VEC_RESERVE(&r->rows, r->rows.len + 1) != 0)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    row.order = fn->ordinal;
    row.blocks = fn->nblocks;
    row.edges = fn->nedges;
    for (uint32_t k = 0; k < fn->nedges; k++) row.back_edges += fn->edges[k].back != 0;
    tk_status ls = tk_csi_numbering_load(r->num, fn, NULL, NULL, NULL);
    row.paths = tk_bl_total(tk_csi_numbering_bl(r->num));
    row.status = ls == TK_ERR_LIMIT ? TK_CSI_PATHS_OVERFLOW
                 : ls != TK_OK      ? TK_CSI_PATHS_INVALID
                                    : TK_CSI_PATHS_OK;
    r->rows.data[r->rows.len++] = row;
    tk_csi_report_totals *t = &r->totals;
    t->functions++;
    t->blocks += row.blocks;
    t->edges += row.edges;
    t->back_edges += row.back_edges;
    t->overflow += row.status == TK_CSI_PATHS_OVERFLOW;
    t->invalid += row.status == TK_CSI_PATHS_INVALID;
    return TK_OK;
}

static int cmp_rows(const void *pa, const void *pb, void *key_ptr)
{
    const tk_csi_report_row *a = pa, *b = pb;
    tk_csi_report_key key = *(const tk_csi_report_key *)key_ptr;
    uint64_t x = 0, y = 0;
    switch (key) {
    case TK_CSI_REPORT_BY_PATHS: /* overflow counts as the most */
        x = a->status == TK_CSI_PATHS_OVERFLOW ? UINT64_MAX : a->paths;
        y = b->status == TK_CSI_PATHS_OVERFLOW ? UINT64_MAX : b->paths;
        break;
    case TK_CSI_REPORT_BY_BLOCKS:
        x = a->blocks;
        y = b->blocks;
        break;
    case TK_CSI_REPORT_BY_EDGES:
        x = a->edges;
        y = b->edges;
        break;
    default: /* TK_CSI_REPORT_BY_NAME, TK_CSI_REPORT_BY_ORDER */ break;
    }
    int by_name = key == TK_CSI_REPORT_BY_NAME;
    return tk_csi_row_cmp(by_name ? a->label : NULL, b->label, x, y, a->order, b->order);
}

void tk_csi_report_sort(tk_csi_report *r)
{
    tk_qsort_r(r->rows.data, r->rows.len, sizeof *r->rows.data, cmp_rows, &r->opt.key);
}

size_t tk_csi_report_count(const tk_csi_report *r) { return r->rows.len; }

const tk_csi_report_row *tk_csi_report_row_at(const tk_csi_report *r, size_t i)
{
    return &r->rows.data[i];
}

void tk_csi_report_get_totals(const tk_csi_report *r, tk_csi_report_totals *out)
{
    *out = r->totals;
}

int tk_csi_report_row_over(const tk_csi_report_row *row, uint64_t limit)
{
    return row->status == TK_CSI_PATHS_OVERFLOW ||
           (row->status == TK_CSI_PATHS_OK && row->paths > limit);
}

uint64_t tk_csi_report_over_limit(const tk_csi_report *r, uint64_t limit)
{
    uint64_t n = 0;
    for (size_t k = 0; k < r->rows.len; k++)
        n += tk_csi_report_row_over(&r->rows.data[k], limit) != 0;
    return n;
}

void tk_csi_report_clear(tk_csi_report *r)
{
    r->rows.len = 0;
    tk_arena_free(&r->labels);
    memset(&r->totals, 0, sizeof r->totals);
}

void tk_csi_report_free(tk_csi_report *r)
{
    if (!r) return;
    TK_VEC_FREE(&r->rows);
    tk_arena_free(&r->labels);
    tk_csi_numbering_free(r->num);
    tk_free(r);
}
