/* Fuzz the CSI coverage metadata reader (.debug_CC, .debug_FC, .debug_BBC),
 * its check and its writers. The input is read as each kind and as the kind
 * its first header names; every function is checked, dumped and written in
 * both forms, and the written text must read back to the same entries. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int same_text(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

/* The function read back from its written text must be the same one. */
static void same_function(const tk_csi_cov_function *a, const tk_csi_cov_function *b, int labels)
{
    if (!same_text(a->name, a->name_len, b->name, b->name_len) ||
        !same_text(a->array, a->array_len, b->array, b->array_len) || a->nentries != b->nentries ||
        a->ninstrumented != b->ninstrumented)
        abort();
    for (uint32_t i = 0; i < a->nentries; i++) {
        const tk_csi_cov_entry *x = &a->entries[i], *y = &b->entries[i];
        if (x->index != y->index || x->nlines != y->nlines ||
            (x->callee && !same_text(x->callee, x->callee_len, y->callee, y->callee_len)))
            abort();
        if (x->nlines && memcmp(x->lines, y->lines, x->nlines * sizeof *x->lines) != 0) abort();
        if (labels && x->label && !same_text(x->label, x->label_len, y->label, y->label_len))
            abort();
    }
}

/* Writes fn in form and reads it back. */
static void round_trip(tk_csi_cov_kind kind, tk_csi_cov_form form, const tk_csi_cov_function *fn)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return;
    tk_error err;
    tk_status st = tk_csi_cov_write_function(FUZZ_WRITER(f), kind, form, fn, &err);
    fclose(f);
    tk_input *in;
    tk_csi_cov_reader *r;
    const tk_csi_cov_function *back;
    /* a name or array holding a line break or a '|' in the array cannot be written back */
    int writable = !memchr(fn->name, '\n', fn->name_len) &&
                   !memchr(fn->array, '\n', fn->array_len) &&
                   !memchr(fn->array, '|', fn->array_len) && fn->name[0] != '\0';
    for (uint32_t i = 0; writable && i < fn->nentries; i++)
        if (fn->entries[i].label && (memchr(fn->entries[i].label, '|', fn->entries[i].label_len)))
            writable = 0;
    if (st == TK_OK && writable &&
        tk_input_open_memory(&in, buf, len, "written", NULL, &err) == TK_OK) {
        if (tk_csi_cov_reader_open(&r, in, kind, &err) == TK_OK) {
            if (tk_csi_cov_reader_next(r, &back, &err) != TK_OK) abort();
            same_function(fn, back, form == TK_CSI_COV_FORM_LABELS);
            tk_csi_cov_reader_free(r);
        }
        tk_input_free(in);
    }
    free(buf);
}

static void read_as(const uint8_t *data, size_t size, tk_csi_cov_kind kind, FILE *sink)
{
    tk_input *in;
    tk_error err;
    if (!fuzz_open_text(&in, data, size)) return;
    tk_csi_cov_reader *r;
    tk_csi_cov_checker *ch = NULL;
    if (tk_csi_cov_reader_open(&r, in, kind, &err) != TK_OK) {
        tk_input_free(in);
        return;
    }
    tk_diag diag;
    tk_diag_init(&diag, fuzz_quiet, NULL);
    const tk_csi_cov_function *fn;
    for (int guard = 0; guard < 100000; guard++) {
        tk_status st = tk_csi_cov_reader_next(r, &fn, &err);
        if (st == TK_END || st == TK_ERR_IO || st == TK_ERR_NOMEM) break;
        if (st != TK_OK) continue;
        tk_csi_cov_kind k = tk_csi_cov_reader_kind(r);
        if (!ch && tk_csi_cov_checker_open(&ch, k, NULL) != TK_OK) break;
        tk_csi_cov_check_function(ch, fn, "fuzz", &diag, NULL);
        uint64_t *lines = malloc((tk_csi_cov_line_entries(fn) + 1) * sizeof *lines);
        if (lines) (void)tk_csi_cov_lines(fn, lines);
        free(lines);
        if (sink) {
            tk_csi_cov_dump_function(FUZZ_WRITER(sink), k, fn, &err);
            tk_csi_cov_write_function(FUZZ_WRITER(sink), k, TK_CSI_COV_FORM_ANY, fn, &err);
        }
        round_trip(k, TK_CSI_COV_FORM_LABELS, fn);
        round_trip(k, TK_CSI_COV_FORM_PLAIN, fn);
    }
    tk_csi_cov_checker_free(ch);
    tk_csi_cov_reader_free(r);
    tk_input_free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *sink = fopen("/dev/null", "w");
    read_as(data, size, TK_CSI_COV_NONE, sink);
    read_as(data, size, TK_CSI_COV_CC, sink);
    read_as(data, size, TK_CSI_COV_FC, sink);
    read_as(data, size, TK_CSI_COV_BBC, sink);
    if (sink) fclose(sink);
    return 0;
}
