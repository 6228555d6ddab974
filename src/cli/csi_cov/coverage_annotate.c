/* tracekit coverage --format annotate: each source file with a mark per line:
 * '+' covered, '-' not covered, '?' unknown, ' ' no coverage metadata. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"

/* Lines of one source file: the state of each line number the functions of
 * that file list (a line listed by two functions: the better state). */
typedef struct file_lines {
    const char *source;
    tk_csi_crash_line *lines; /* sorted by line once gathered */
    size_t n, cap;
} file_lines;

static int add_line(file_lines *fl, tk_csi_crash_line l)
{
    if (fl->n == fl->cap) {
        size_t cap = fl->cap ? fl->cap * 2 : 64;
        tk_csi_crash_line *p = realloc(fl->lines, cap * sizeof *p);
        if (!p)
            return -1;
        fl->lines = p;
        fl->cap = cap;
    }
    fl->lines[fl->n++] = l;
    return 0;
}

static int cmp_lines(const void *a, const void *b)
{
    const tk_csi_crash_line *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Sorted, one entry per line with the better state. */
static void merge_lines(file_lines *fl)
{
    if (fl->n == 0)
        return;
    qsort(fl->lines, fl->n, sizeof *fl->lines, cmp_lines);
    size_t u = 0;
    for (size_t k = 1; k < fl->n; k++) {
        tk_csi_crash_line *a = &fl->lines[u], *b = &fl->lines[k];
        if (a->line != b->line) {
            fl->lines[++u] = *b;
            continue;
        }
        if (b->hit == TK_CSI_HIT_YES || (b->hit == TK_CSI_HIT_UNKNOWN && a->hit == TK_CSI_HIT_NO))
            a->hit = b->hit;
    }
    fl->n = u + 1;
}

static char mark_of(const file_lines *fl, uint64_t line)
{
    tk_csi_crash_line key = {line, TK_CSI_HIT_NO};
    const tk_csi_crash_line *l = bsearch(&key, fl->lines, fl->n, sizeof *fl->lines, cmp_lines);
    if (!l)
        return ' ';
    return l->hit == TK_CSI_HIT_YES ? '+' : l->hit == TK_CSI_HIT_NO ? '-' : '?';
}

/* The source file: as DWARF names it, else under --source-dir by its
 * trailing path components. */
static FILE *open_source(const char *source, const char *dir)
{
    FILE *f = fopen(source, "r");
    for (const char *p = source; !f && dir && p; p = strchr(p + 1, '/')) {
        const char *tail = *p == '/' ? p + 1 : p;
        size_t n = strlen(dir) + strlen(tail) + 2;
        char *path = malloc(n);
        if (!path)
            return NULL;
        snprintf(path, n, "%s/%s", dir, tail);
        f = fopen(path, "r");
        free(path);
    }
    return f;
}

static void print_file(FILE *out, const file_lines *fl, const char *dir)
{
    fprintf(out, "== %s\n", fl->source ? fl->source : "(no source file known)");
    FILE *src = fl->source ? open_source(fl->source, dir) : NULL;
    uint64_t last = 0;
    if (src) {
        char buf[4096];
        uint64_t no = 0;
        int at_start = 1;
        while (fgets(buf, sizeof buf, src)) {
            if (at_start) {
                no++;
                fprintf(out, "%c %6" PRIu64 " | ", mark_of(fl, no), no);
            }
            fputs(buf, out);
            at_start = strchr(buf, '\n') != NULL;
        }
        if (!at_start)
            fputc('\n', out);
        fclose(src);
        last = no;
    } else if (fl->source) {
        fprintf(out, "(not found%s; its lines:)\n",
                dir ? " under --source-dir either" : ": give --source-dir DIR");
    }
    for (size_t k = 0; k < fl->n; k++) /* lines the file does not have */
        if (fl->lines[k].line > last)
            fprintf(out, "%c %6" PRIu64 " |%s\n", mark_of(fl, fl->lines[k].line),
                    fl->lines[k].line, src ? " (past the end of the file)" : "");
}

/* Functions ordered by source file (no file last), then as listed. */
static int cmp_by_source(const void *pa, const void *pb, void *ctx)
{
    const tk_csi_crash *c = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const char *x = tk_csi_crash_at(c, a)->source, *y = tk_csi_crash_at(c, b)->source;
    int k = x && y ? strcmp(x, y) : (x == NULL) - (y == NULL);
    return k ? k : (a > b) - (a < b);
}

static int same_source(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

void cli_csi_cov_print_annotated(FILE *out, const cli_csi_cov_result *r)
{
    size_t n = 0, total = tk_csi_crash_count(r->crash);
    size_t *order = malloc((total ? total : 1) * sizeof *order);
    if (!order)
        return;
    for (size_t i = 0; i < total; i++)
        if (cli_csi_cov_selected(r, i))
            order[n++] = i;
    qsort_r(order, n, sizeof *order, cmp_by_source, (void *)r->crash);
    for (size_t i = 0; i < n;) {
        file_lines fl = {tk_csi_crash_at(r->crash, order[i])->source, NULL, 0, 0};
        int nomem = 0;
        for (; i < n && same_source(tk_csi_crash_at(r->crash, order[i])->source, fl.source); i++) {
            const tk_csi_crash_function *f = tk_csi_crash_at(r->crash, order[i]);
            for (size_t k = 0; k < f->nlines && !nomem; k++)
                nomem = add_line(&fl, f->lines[k]) != 0;
        }
        merge_lines(&fl);
        print_file(out, &fl, r->source_dir);
        free(fl.lines);
    }
    free(order);
}
