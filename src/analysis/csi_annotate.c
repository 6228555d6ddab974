/* What `tracekit annotate` prints for CSI metadata: a function's source lines, each with
 * the Ball-Larus paths that run it. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tracekit/csi_report.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_line(const void *key, const void *row)
{
    return cmp_i64(key, &((const tk_csi_line_paths *)row)->line);
}

/* The distinct source lines of fn's blocks (path writes left out), ascending, as rows with
 * no path yet. Returns NULL when out of memory. */
static tk_csi_line_paths *distinct_lines(const tk_csi_function *fn, size_t *n)
{
    size_t nl = 0;
    for (uint32_t b = 0; b < fn->nblocks; b++) nl += fn->blocks[b].nlines;
    int64_t *lines = tk_malloc((nl ? nl : 1) * sizeof *lines);
    if (!lines) return NULL;
    nl = 0;
    for (uint32_t b = 0; b < fn->nblocks; b++)
        for (size_t k = 0; k < fn->blocks[b].nlines; k++)
            if (fn->blocks[b].lines[k] != TK_CSI_PATH_WRITE) lines[nl++] = fn->blocks[b].lines[k];
    qsort(lines, nl, sizeof *lines, cmp_i64);
    size_t u = 0;
    for (size_t k = 0; k < nl; k++)
        if (u == 0 || lines[u - 1] != lines[k]) lines[u++] = lines[k];
    tk_csi_line_paths *rows = tk_calloc(u ? u : 1, sizeof *rows);
    for (size_t k = 0; rows && k < u; k++) rows[k].line = lines[k];
    tk_free(lines);
    *n = u;
    return rows;
}

tk_status tk_csi_annotate_lines(const tk_csi_function *fn, tk_csi_numbering *num, uint64_t limit,
                                tk_csi_line_paths **out, size_t *nout, uint64_t *enumerated,
                                tk_error *err)
{
    *out = NULL;
    *nout = 0;
    *enumerated = 0;
    const tk_bl *bl = tk_csi_numbering_bl(num);
    uint64_t total = bl ? tk_bl_total(bl) : 0;
    uint64_t npaths = limit == 0 || total < limit ? total : limit;
    size_t nl = 0;
    tk_csi_line_paths *rows = distinct_lines(fn, &nl);
    uint64_t *last = tk_malloc((nl ? nl : 1) * sizeof *last); /* the last path counted */
    if (!rows || !last) {
        tk_free(rows);
        tk_free(last);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    for (size_t li = 0; li < nl; li++) last[li] = UINT64_MAX;
    tk_bl_path *p = npaths ? tk_csi_numbering_path(num) : NULL;
    for (uint64_t id = 0; id < npaths; id++) {
        if (tk_bl_decode(bl, id, p, NULL) != TK_OK) continue;
        for (size_t i = 0; i < p->len; i++) {
            const tk_csi_block *b = &fn->blocks[p->nodes[i]];
            for (size_t k = 0; k < b->nlines; k++) {
                if (b->lines[k] == TK_CSI_PATH_WRITE) continue;
                tk_csi_line_paths *row = bsearch(&b->lines[k], rows, nl, sizeof *rows, cmp_line);
                size_t li = (size_t)(row - rows);
                if (last[li] == id) continue; /* this path already counted for the line */
                last[li] = id;
                if (row->paths < TK_CSI_LINE_IDS) row->ids[row->paths] = id;
                row->paths++;
            }
        }
    }
    tk_free(last);
    *out = rows;
    *nout = nl;
    *enumerated = npaths;
    return TK_OK;
}
