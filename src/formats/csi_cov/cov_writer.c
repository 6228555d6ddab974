/* CSI coverage writers: canonical metadata text in either form, and dump. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/writer.h"
#include "core/alloc.h"
#include "formats/csi_cov/cov_internal.h"

static tk_status io_result(FILE *out, tk_error *err)
{
    if (ferror(out)) return tk_error_set(err, TK_ERR_IO, "write failed");
    return TK_OK;
}

/* The label of a labelled line: as read, else csi-cc's ("CC3"; none when
 * the site is not instrumented). */
static void write_label(FILE *out, tk_csi_cov_kind kind, const tk_csi_cov_entry *e)
{
    if (e->label)
        fwrite(e->label, 1, e->label_len, out);
    else if (e->index >= 0)
        fprintf(out, "%s%" PRId64, tk_csi_cov_kind_name(kind), e->index);
}

static void write_lines(FILE *out, const tk_csi_cov_entry *e)
{
    if (e->null_lines || e->nlines == 0) {
        fputs("|NULL", out);
        return;
    }
    for (size_t k = 0; k < e->nlines; k++) fprintf(out, "|%" PRIu64, e->lines[k]);
}

static tk_status csi_cov_write_function_stream(FILE *out, tk_csi_cov_kind kind,
                                               tk_csi_cov_form form, const tk_csi_cov_function *fn,
                                               tk_error *err)
{
    fprintf(out, "#%s|%s\n", fn->name, fn->array);
    if (form == TK_CSI_COV_FORM_ANY)
        form =
            fn->nentries && fn->entries[0].label ? TK_CSI_COV_FORM_LABELS : TK_CSI_COV_FORM_PLAIN;
    for (uint32_t i = 0; i < fn->nentries && kind != TK_CSI_COV_FC; i++) {
        const tk_csi_cov_entry *e = &fn->entries[i];
        fprintf(out, "%" PRId64, e->index);
        if (form == TK_CSI_COV_FORM_LABELS) {
            fputc('|', out);
            write_label(out, kind, e);
        }
        if (kind == TK_CSI_COV_CC) {
            fprintf(out, "|%" PRIu64 "|", e->nlines ? e->lines[0] : 0);
            if (e->callee)
                fwrite(e->callee, 1, e->callee_len, out);
            else
                fputc('?', out);
        } else {
            write_lines(out, e);
        }
        fputc('\n', out);
    }
    return io_result(out, err);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

size_t tk_csi_cov_line_entries(const tk_csi_cov_function *fn)
{
    size_t n = 0;
    for (uint32_t i = 0; i < fn->nentries; i++) n += fn->entries[i].nlines;
    return n;
}

size_t tk_csi_cov_lines(const tk_csi_cov_function *fn, uint64_t *out)
{
    size_t n = 0;
    for (uint32_t i = 0; i < fn->nentries; i++)
        for (size_t k = 0; k < fn->entries[i].nlines; k++) out[n++] = fn->entries[i].lines[k];
    qsort(out, n, sizeof *out, cmp_u64);
    size_t u = 0;
    for (size_t k = 0; k < n; k++)
        if (u == 0 || out[u - 1] != out[k]) out[u++] = out[k];
    return u;
}

/* Distinct line numbers of the entries, ascending. */
static tk_status dump_distinct_lines(FILE *out, const tk_csi_cov_function *fn, tk_error *err)
{
    size_t total = tk_csi_cov_line_entries(fn);
    uint64_t *lines = tk_malloc((total ? total : 1) * sizeof *lines);
    if (!lines) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t n = tk_csi_cov_lines(fn, lines);
    for (size_t k = 0; k < n; k++) fprintf(out, " %" PRIu64, lines[k]);
    if (n == 0) fputs(" (none)", out);
    tk_free(lines);
    return TK_OK;
}

static tk_status csi_cov_dump_function_stream(FILE *out, tk_csi_cov_kind kind,
                                              const tk_csi_cov_function *fn, tk_error *err)
{
    fprintf(out, "function %s\n  array %s\n", fn->name, fn->array);
    if (kind == TK_CSI_COV_FC) return io_result(out, err);
    const char *what = kind == TK_CSI_COV_CC ? "sites" : "blocks";
    fprintf(out, "  %s %" PRIu32 " (instrumented %" PRIu32 ", not instrumented %" PRIu32 ")\n",
            what, fn->nentries, fn->ninstrumented, fn->nentries - fn->ninstrumented);
    fputs("  lines", out);
    if (dump_distinct_lines(out, fn, err) != TK_OK) return TK_ERR_NOMEM;
    fputc('\n', out);
    for (uint32_t i = 0; i < fn->nentries; i++) {
        const tk_csi_cov_entry *e = &fn->entries[i];
        fprintf(out, "  %s %" PRId64, kind == TK_CSI_COV_CC ? "site" : "block", e->index);
        if (e->label && e->label_len) {
            fputs(" [", out);
            fwrite(e->label, 1, e->label_len, out);
            fputc(']', out);
        }
        if (e->index < 0) fputs(" (not instrumented)", out);
        if (kind == TK_CSI_COV_CC) {
            fprintf(out, ": line %" PRIu64 " calls ", e->nlines ? e->lines[0] : 0);
            fwrite(e->callee ? e->callee : "?", 1, e->callee ? e->callee_len : 1, out);
        } else if (e->null_lines || e->nlines == 0) {
            fputs(": NULL", out);
        } else {
            fputs(": lines", out);
            for (size_t k = 0; k < e->nlines; k++) fprintf(out, " %" PRIu64, e->lines[k]);
        }
        fputc('\n', out);
    }
    return io_result(out, err);
}

tk_status tk_csi_cov_write_function(const tk_writer *out, tk_csi_cov_kind kind,
                                    tk_csi_cov_form form, const tk_csi_cov_function *fn,
                                    tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, csi_cov_write_function_stream(s.f, kind, form, fn, err), err);
}

tk_status tk_csi_cov_dump_function(const tk_writer *out, tk_csi_cov_kind kind,
                                   const tk_csi_cov_function *fn, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, csi_cov_dump_function_stream(s.f, kind, fn, err), err);
}
