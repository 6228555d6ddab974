/* The reports of CSI coverage: the metadata's functions with their entries and lines, and
 * a crashed program's counts and source files. */
#include "tracekit/csi_cov_report.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/arena.h"
#include "core/compat.h"
#include "core/vec.h"
#include "analysis/csi_rows.h"

int tk_csi_cov_name_matches(const char *sel, const char *name)
{
    if (!sel) return 1;
    size_t n = strlen(sel);
    return strcmp(sel, name) == 0 || (strncmp(sel, name, n) == 0 && name[n] == '$');
}

/* ---- the report of the metadata --------------------------------------------------------- */

struct tk_csi_cov_report {
    tk_csi_cov_report_options opt;
    TK_VEC(tk_csi_cov_report_row) rows;
    TK_VEC(uint64_t) lines; /* workspace of add */
    tk_arena names;
    tk_csi_cov_report_totals totals;
};

static tk_status nomem(tk_error *err) { return tk_error_set(err, TK_ERR_NOMEM, "out of memory"); }

tk_status tk_csi_cov_report_open(tk_csi_cov_report **out, const tk_csi_cov_report_options *opt,
                                 tk_error *err)
{
    static const tk_csi_cov_report_options defaults = TK_CSI_COV_REPORT_OPTIONS_INIT;
    *out = tk_calloc(1, sizeof **out);
    if (!*out) return nomem(err);
    (*out)->opt = opt ? *opt : defaults;
    tk_arena_init(&(*out)->names);
    return TK_OK;
}

tk_status tk_csi_cov_report_add(tk_csi_cov_report *r, const tk_csi_cov_function *fn, tk_error *err)
{
    size_t n = tk_csi_cov_line_entries(fn);
    if (TK_VEC_RESERVE(&r->lines, n ? n : 1) != 0 || TK_VEC_RESERVE(&r->rows, r->rows.len + 1) != 0)
        return nomem(err);
    tk_csi_cov_report_row row;
    row.name = tk_arena_strndup(&r->names, fn->name, strlen(fn->name));
    row.array = tk_arena_strndup(&r->names, fn->array, strlen(fn->array));
    if (!row.name || !row.array) return nomem(err);
    row.order = fn->ordinal;
    row.entries = fn->nentries;
    row.instrumented = fn->ninstrumented;
    row.lines = tk_csi_cov_lines(fn, r->lines.data);
    r->rows.data[r->rows.len++] = row;
    r->totals.functions++;
    r->totals.entries += row.entries;
    r->totals.instrumented += row.instrumented;
    r->totals.lines += row.lines;
    return TK_OK;
}

static int cmp_rows(const void *pa, const void *pb, void *key_ptr)
{
    const tk_csi_cov_report_row *a = pa, *b = pb;
    tk_csi_cov_report_key key = *(const tk_csi_cov_report_key *)key_ptr;
    uint64_t x = 0, y = 0;
    if (key == TK_CSI_COV_REPORT_BY_ENTRIES || key == TK_CSI_COV_REPORT_BY_LINES) {
        x = key == TK_CSI_COV_REPORT_BY_ENTRIES ? a->entries : a->lines;
        y = key == TK_CSI_COV_REPORT_BY_ENTRIES ? b->entries : b->lines;
    }
    int by_name = key == TK_CSI_COV_REPORT_BY_NAME;
    return tk_csi_row_cmp(by_name ? a->name : NULL, b->name, x, y, a->order, b->order);
}

void tk_csi_cov_report_sort(tk_csi_cov_report *r)
{
    tk_qsort_r(r->rows.data, r->rows.len, sizeof *r->rows.data, cmp_rows, &r->opt.key);
}

size_t tk_csi_cov_report_count(const tk_csi_cov_report *r) { return r->rows.len; }

const tk_csi_cov_report_row *tk_csi_cov_report_row_at(const tk_csi_cov_report *r, size_t i)
{
    return &r->rows.data[i];
}

void tk_csi_cov_report_get_totals(const tk_csi_cov_report *r, tk_csi_cov_report_totals *out)
{
    *out = r->totals;
}

void tk_csi_cov_report_clear(tk_csi_cov_report *r)
{
    r->rows.len = 0;
    tk_arena_free(&r->names);
    memset(&r->totals, 0, sizeof r->totals);
}

void tk_csi_cov_report_free(tk_csi_cov_report *r)
{
    if (!r) return;
    TK_VEC_FREE(&r->rows);
    TK_VEC_FREE(&r->lines);
    tk_arena_free(&r->names);
    tk_free(r);
}

/* ---- a crashed program's counts --------------------------------------------------------- */

void tk_csi_crash_function_counts(const tk_csi_crash_function *f, tk_csi_crash_counts *c)
{
    memset(c, 0, sizeof *c);
    if (f->has_fc) c->functions[f->entered]++;
    for (uint32_t k = 0; k < f->nsites; k++) c->sites[f->sites[k].hit]++;
    for (uint32_t k = 0; k < f->nblocks; k++) c->blocks[f->blocks[k].hit]++;
    for (size_t k = 0; k < f->nlines; k++) c->lines[f->lines[k].hit]++;
}

size_t tk_csi_crash_totals(const tk_csi_crash *crash, const char *selector,
                           tk_csi_crash_counts *out)
{
    size_t n = 0;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < tk_csi_crash_count(crash); i++) {
        const tk_csi_crash_function *f = tk_csi_crash_at(crash, i);
        if (!tk_csi_cov_name_matches(selector, f->name)) continue;
        n++;
        tk_csi_crash_counts c;
        tk_csi_crash_function_counts(f, &c);
        for (int h = 0; h < 3; h++) {
            out->functions[h] += c.functions[h];
            out->sites[h] += c.sites[h];
            out->blocks[h] += c.blocks[h];
            out->lines[h] += c.lines[h];
        }
    }
    return n;
}

/* ---- a crashed program's source files --------------------------------------------------- */

struct tk_csi_crash_files {
    TK_VEC(tk_csi_crash_file) files;
    TK_VEC(tk_csi_crash_line) lines; /* the files' lines, one run per file */
};

/* Functions ordered by source file (no file last), then as listed. */
static int cmp_by_source(const void *pa, const void *pb, void *ctx)
{
    const tk_csi_crash *c = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const char *x = tk_csi_crash_at(c, a)->source, *y = tk_csi_crash_at(c, b)->source;
    int k = x && y ? strcmp(x, y) : (x == NULL) - (y == NULL);
    return k ? k : (a > b) - (a < b);
}

static int cmp_lines(const void *a, const void *b)
{
    const tk_csi_crash_line *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Sorts lines[0..n), one entry per line with the better state; returns how many remain. */
static size_t merge_lines(tk_csi_crash_line *lines, size_t n)
{
    qsort(lines, n, sizeof *lines, cmp_lines);
    size_t u = 0;
    for (size_t k = 1; k < n; k++) {
        tk_csi_crash_line *a = &lines[u], *b = &lines[k];
        if (a->line != b->line) {
            lines[++u] = *b;
            continue;
        }
        if (b->hit == TK_CSI_HIT_YES || (b->hit == TK_CSI_HIT_UNKNOWN && a->hit == TK_CSI_HIT_NO))
            a->hit = b->hit;
    }
    return u + 1;
}

static int same_source(const char *a, const char *b) { return a && b ? strcmp(a, b) == 0 : a == b; }

/* The lines of the functions order[*i...] of one source file, appended to f->lines as the
 * file's run (its lines pointer is set once every run is made); *i moves past them. */
static int gather_file(tk_csi_crash_files *f, const tk_csi_crash *c, const size_t *order, size_t n,
                       size_t *i)
{
    tk_csi_crash_file file = {tk_csi_crash_at(c, order[*i])->source, NULL, 0};
    size_t start = f->lines.len;
    for (; *i < n && same_source(tk_csi_crash_at(c, order[*i])->source, file.source); ++*i) {
        const tk_csi_crash_function *fn = tk_csi_crash_at(c, order[*i]);
        if (fn->nlines == 0) continue;
        if (TK_VEC_RESERVE(&f->lines, f->lines.len + fn->nlines) != 0) return -1;
        memcpy(f->lines.data + f->lines.len, fn->lines, fn->nlines * sizeof *fn->lines);
        f->lines.len += fn->nlines;
    }
    if (f->lines.len > start)
        file.nlines = merge_lines(f->lines.data + start, f->lines.len - start);
    f->lines.len = start + file.nlines;
    return TK_VEC_PUSH(&f->files, file);
}

tk_status tk_csi_crash_files_open(tk_csi_crash_files **out, const tk_csi_crash *c,
                                  const char *selector, tk_error *err)
{
    size_t n = 0, total = tk_csi_crash_count(c);
    tk_csi_crash_files *f = tk_calloc(1, sizeof *f);
    size_t *order = tk_malloc((total ? total : 1) * sizeof *order);
    *out = NULL;
    int failed = !f || !order;
    for (size_t i = 0; !failed && i < total; i++)
        if (tk_csi_cov_name_matches(selector, tk_csi_crash_at(c, i)->name)) order[n++] = i;
    if (!failed) tk_qsort_r(order, n, sizeof *order, cmp_by_source, (void *)c);
    for (size_t i = 0; !failed && i < n;) failed = gather_file(f, c, order, n, &i) != 0;
    tk_free(order);
    if (failed) {
        tk_csi_crash_files_free(f);
        return nomem(err);
    }
    size_t at = 0; /* the runs are in place: point the files at them */
    for (size_t k = 0; k < f->files.len; k++) {
        if (f->files.data[k].nlines) f->files.data[k].lines = f->lines.data + at;
        at += f->files.data[k].nlines;
    }
    *out = f;
    return TK_OK;
}

size_t tk_csi_crash_files_count(const tk_csi_crash_files *f) { return f->files.len; }

const tk_csi_crash_file *tk_csi_crash_files_at(const tk_csi_crash_files *f, size_t i)
{
    return &f->files.data[i];
}

const tk_csi_crash_line *tk_csi_crash_file_line(const tk_csi_crash_file *file, uint64_t line)
{
    tk_csi_crash_line key = {line, TK_CSI_HIT_NO};
    if (file->nlines == 0) return NULL;
    return bsearch(&key, file->lines, file->nlines, sizeof *file->lines, cmp_lines);
}

void tk_csi_crash_files_free(tk_csi_crash_files *f)
{
    if (!f) return;
    TK_VEC_FREE(&f->files);
    TK_VEC_FREE(&f->lines);
    tk_free(f);
}
