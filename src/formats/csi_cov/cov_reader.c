/* Streaming reader of CSI coverage metadata (.debug_CC, .debug_FC,
 * .debug_BBC): one function per call. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/vec.h"
#include "formats/csi_cov/cov_internal.h"
#include "formats/csi/csi_internal.h"
#include "core/num.h"

/* Entries in one function. Bounded so counts fit in uint32_t. */
#define COV_MAX_ENTRIES (UINT32_MAX / 4)
#define NO_TEXT SIZE_MAX

struct tk_csi_cov_reader {
    tk_input *in;
    tk_csi_cov_kind kind;
    tk_csi_cov_form form;
    uint64_t form_line; /* the entry line that decided the form */
    char *head; /* "name\0array\0" of the current function */
    size_t head_cap;
    char *pending; /* the next function's header line, already read */
    size_t pending_len, pending_cap;
    uint64_t pending_line;
    int has_pending;
    TK_VEC(tk_csi_cov_entry) entries;
    TK_VEC(size_t) line_off, label_off, callee_off;
    TK_VEC(uint64_t) lines;
    TK_VEC(char) text; /* labels and callees, each NUL-terminated */
    tk_csi_cov_function fn;
    uint64_t ordinal;
    int resync; /* skip to the next header before reading */
    int input_failed; /* the input returned an error: it is sticky, stop */
};

tk_status tk_csi_cov_reader_open(tk_csi_cov_reader **out, tk_input *in, tk_csi_cov_kind kind,
                                 tk_error *err)
{
    *out = tk_calloc(1, sizeof **out);
    if (!*out) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    (*out)->in = in;
    (*out)->kind = kind;
    return TK_OK;
}

void tk_csi_cov_reader_free(tk_csi_cov_reader *r)
{
    if (!r) return;
    tk_free(r->head);
    tk_free(r->pending);
    TK_VEC_FREE(&r->entries);
    TK_VEC_FREE(&r->line_off);
    TK_VEC_FREE(&r->label_off);
    TK_VEC_FREE(&r->callee_off);
    TK_VEC_FREE(&r->lines);
    TK_VEC_FREE(&r->text);
    tk_free(r);
}

tk_csi_cov_kind tk_csi_cov_reader_kind(const tk_csi_cov_reader *r) { return r->kind; }

tk_csi_cov_form tk_csi_cov_reader_form(const tk_csi_cov_reader *r) { return r->form; }

/* ---- errors ----------------------------------------------------------- */

static tk_status fail(tk_csi_cov_reader *r, tk_error *err, tk_status code, uint64_t line,
                      uint64_t col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static tk_status fail(tk_csi_cov_reader *r, tk_error *err, tk_status code, uint64_t line,
                      uint64_t col, const char *fmt, ...)
{
    if (!r->has_pending) r->resync = 1;
    va_list ap;
    va_start(ap, fmt);
    tk_csi_vfail(err, r->in, code, line, col, fmt, ap);
    va_end(ap);
    return code;
}

static tk_status nomem(tk_error *err) { return tk_error_set(err, TK_ERR_NOMEM, "out of memory"); }

/* ---- fields ----------------------------------------------------------- */

/* The text of a label or callee, kept until the function is returned. */
static tk_status keep_text(tk_csi_cov_reader *r, const char *s, size_t len, size_t *off,
                           tk_error *err)
{
    *off = r->text.len;
    if (TK_VEC_RESERVE(&r->text, r->text.len + len + 1) != 0) return nomem(err);
    if (len) memcpy(r->text.data + r->text.len, s, len);
    r->text.len += len;
    r->text.data[r->text.len++] = 0;
    return TK_OK;
}

/* The index field: digits, or '-' and digits from 1 (a site not instrumented). */
static tk_status parse_index(tk_csi_cov_reader *r, const char *f, size_t flen, uint64_t lno,
                             int64_t *out, tk_error *err)
{
    char q[128];
    const char *p = f, *end = f + flen;
    int neg = p < end && *p == '-';
    p += neg;
    uint64_t v;
    tk_status st = tk_num_scan_dec(&p, end, &v);
    if (st == TK_OK && p != end) st = TK_ERR_FORMAT;
    if (st == TK_ERR_LIMIT || (st == TK_OK && v > (uint64_t)INT64_MAX))
        return fail(r, err, TK_ERR_LIMIT, lno, 1, "index does not fit in a signed 64-bit number");
    if (st != TK_OK) {
        tk_csi_quote(f, flen, q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, 1,
                    "expected an index (a number, negative for a site not instrumented), "
                    "found %s",
                    q);
    }
    if (neg && v == 0)
        return fail(r, err, TK_ERR_FORMAT, lno, 1,
                    "index -0: the sites not instrumented are numbered from -1");
    *out = neg ? -(int64_t)v : (int64_t)v;
    return TK_OK;
}

/* A line number field. */
static tk_status parse_line(tk_csi_cov_reader *r, const char *s, const char *f, size_t flen,
                            uint64_t lno, const char *what, uint64_t *out, tk_error *err)
{
    char q[128];
    const char *p = f;
    tk_status st = tk_num_scan_dec(&p, f + flen, out);
    if (st == TK_OK && p != f + flen) st = TK_ERR_FORMAT;
    if (st == TK_ERR_LIMIT)
        return fail(r, err, TK_ERR_LIMIT, lno, (uint64_t)(f - s) + 1,
                    "line number does not fit in 64 bits");
    if (st != TK_OK) {
        tk_csi_quote(f, flen, q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(f - s) + 1, "expected %s, found %s",
                    what, flen ? q : "an empty field");
    }
    return TK_OK;
}

/* The entry lines of a file are all of one form: the first one's. */
static tk_status set_form(tk_csi_cov_reader *r, tk_csi_cov_form form, uint64_t lno, tk_error *err)
{
    if (r->form == TK_CSI_COV_FORM_ANY) {
        r->form = form;
        r->form_line = lno;
        return TK_OK;
    }
    if (r->form == form) return TK_OK;
    int cc = r->kind == TK_CSI_COV_CC;
    const char *labelled = cc ? "INDEX|LABEL|LINE|CALLEE" : "INDEX|LABEL|LINE...";
    const char *plain = cc ? "INDEX|LINE|CALLEE" : "INDEX|LINE...";
    return fail(r, err, TK_ERR_FORMAT, lno, 1,
                "this entry has the %s form (%s) but line %llu has the %s form (%s): one "
                "file has one form",
                form == TK_CSI_COV_FORM_LABELS ? "labelled" : "plain",
                form == TK_CSI_COV_FORM_LABELS ? labelled : plain, (unsigned long long)r->form_line,
                r->form == TK_CSI_COV_FORM_LABELS ? "labelled" : "plain",
                r->form == TK_CSI_COV_FORM_LABELS ? labelled : plain);
}

/* Splits [s, s+len) at '|' into at most max fields; returns the count, or
 * max + 1 when there are more. */
static size_t split(const char *s, size_t len, const char **f, size_t *flen, size_t max)
{
    size_t n = 0;
    const char *p = s, *end = s + len;
    for (;;) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        const char *stop = bar ? bar : end;
        if (n == max) return max + 1;
        f[n] = p;
        flen[n] = (size_t)(stop - p);
        n++;
        if (!bar) return n;
        p = bar + 1;
    }
}

/* ---- entries ---------------------------------------------------------- */

static tk_status parse_cc(tk_csi_cov_reader *r, tk_csi_cov_entry *e, const char *s, size_t len,
                          uint64_t lno, tk_error *err)
{
    const char *f[5];
    size_t fl[5];
    size_t n = split(s, len, f, fl, 4);
    if (n != 3 && n != 4)
        return fail(r, err, TK_ERR_FORMAT, lno, 1,
                    "expected a call site INDEX|LABEL|LINE|CALLEE (csi-cc 1.3+) or "
                    "INDEX|LINE|CALLEE (csi-cc 1.0), found %s fields",
                    n > 4    ? "more than 4"
                    : n == 2 ? "2"
                             : "1");
    tk_status st = set_form(r, n == 4 ? TK_CSI_COV_FORM_LABELS : TK_CSI_COV_FORM_PLAIN, lno, err);
    size_t k = 1;
    if (st == TK_OK && n == 4) {
        if (memchr(f[1], '\0', fl[1]))
            return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(f[1] - s) + 1, "NUL in the label");
        st = keep_text(r, f[1], fl[1], &r->label_off.data[r->label_off.len - 1], err);
        k = 2;
    }
    uint64_t line;
    if (st == TK_OK) st = parse_line(r, s, f[k], fl[k], lno, "the call's line number", &line, err);
    if (st != TK_OK) return st;
    const char *c = f[k + 1];
    size_t clen = fl[k + 1];
    if (clen == 0)
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(c - s) + 1,
                    "empty callee: csi-cc writes '?' for a call whose callee is not known");
    if (memchr(c, '\0', clen))
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(c - s) + 1, "NUL in the callee");
    if (TK_VEC_PUSH(&r->lines, line) != 0) return nomem(err);
    e->nlines = 1;
    return keep_text(r, c, clen, &r->callee_off.data[r->callee_off.len - 1], err);
}

/* The second field of a BBC line is a label (labelled form) unless it is a
 * line number or NULL. */
static int bbc_is_label(const char *f, size_t flen)
{
    if (flen == 4 && memcmp(f, "NULL", 4) == 0) return 0;
    return flen == 0 || f[0] < '0' || f[0] > '9';
}

static tk_status parse_bbc_lines(tk_csi_cov_reader *r, tk_csi_cov_entry *e, const char *s,
                                 const char *p, const char *end, uint64_t lno, tk_error *err)
{
    if (p > end)
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(end - s) + 1,
                    "expected the block's lines or NULL after the label");
    size_t first = r->lines.len;
    for (;;) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        const char *stop = bar ? bar : end;
        size_t flen = (size_t)(stop - p);
        if (flen == 4 && memcmp(p, "NULL", 4) == 0) {
            if (r->lines.len != first || bar)
                return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                            "NULL stands alone: a block is NULL or has lines, not both");
            e->null_lines = 1;
            return TK_OK;
        }
        uint64_t v;
        tk_status st = parse_line(r, s, p, flen, lno, "a line number or NULL", &v, err);
        if (st != TK_OK) return st;
        if (TK_VEC_PUSH(&r->lines, v) != 0) return nomem(err);
        e->nlines++;
        if (!bar) return TK_OK;
        p = bar + 1;
    }
}

static tk_status parse_bbc(tk_csi_cov_reader *r, tk_csi_cov_entry *e, const char *s, size_t len,
                           const char *p, uint64_t lno, tk_error *err)
{
    const char *end = s + len;
    if (p >= end)
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                    "expected '|' and the block's lines after the index");
    p++; /* the '|' after the index */
    const char *bar = memchr(p, '|', (size_t)(end - p));
    size_t flen = (size_t)((bar ? bar : end) - p);
    int labelled = bbc_is_label(p, flen);
    tk_status st = set_form(r, labelled ? TK_CSI_COV_FORM_LABELS : TK_CSI_COV_FORM_PLAIN, lno, err);
    if (st != TK_OK) return st;
    if (labelled) {
        if (memchr(p, '\0', flen))
            return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1, "NUL in the label");
        st = keep_text(r, p, flen, &r->label_off.data[r->label_off.len - 1], err);
        if (st != TK_OK) return st;
        p = bar ? bar + 1 : end + 1;
    }
    return parse_bbc_lines(r, e, s, p, end, lno, err);
}

static tk_status parse_entry(tk_csi_cov_reader *r, const char *s, size_t len, uint64_t lno,
                             tk_error *err)
{
    char q[128];
    if (r->kind == TK_CSI_COV_FC) {
        tk_csi_quote(s, len, q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, 1,
                    "function coverage (.debug_FC) lists functions only: expected "
                    "'#NAME|ARRAY', found %s",
                    q);
    }
    if (r->entries.len >= COV_MAX_ENTRIES)
        return fail(r, err, TK_ERR_LIMIT, lno, 1, "too many entries in function %s", r->fn.name);
    tk_csi_cov_entry e;
    memset(&e, 0, sizeof e);
    e.text_line = lno;
    const char *bar = memchr(s, '|', len);
    size_t ilen = bar ? (size_t)(bar - s) : len;
    tk_status st = parse_index(r, s, ilen, lno, &e.index, err);
    if (st != TK_OK) return st;
    if (TK_VEC_PUSH(&r->line_off, r->lines.len) != 0 || TK_VEC_PUSH(&r->label_off, NO_TEXT) != 0 ||
        TK_VEC_PUSH(&r->callee_off, NO_TEXT) != 0)
        return nomem(err);
    if (r->kind == TK_CSI_COV_CC)
        st = parse_cc(r, &e, s, len, lno, err);
    else
        st = parse_bbc(r, &e, s, len, s + ilen, lno, err);
    if (st != TK_OK) return st;
    if (e.index >= 0) r->fn.ninstrumented++;
    return TK_VEC_PUSH(&r->entries, e) != 0 ? nomem(err) : TK_OK;
}

/* ---- headers and functions -------------------------------------------- */

static tk_status remember_pending(tk_csi_cov_reader *r, const char *s, size_t len, uint64_t lno,
                                  tk_error *err)
{
    if (len + 1 > r->pending_cap) {
        char *p = tk_realloc(r->pending, len + 1);
        if (!p) return nomem(err);
        r->pending = p;
        r->pending_cap = len + 1;
    }
    memcpy(r->pending, s, len);
    r->pending[len] = 0;
    r->pending_len = len;
    r->pending_line = lno;
    r->has_pending = 1;
    return TK_OK;
}

static tk_status header_kind(tk_csi_cov_reader *r, const char *array, size_t alen, uint64_t lno,
                             uint64_t col, tk_error *err)
{
    if (r->kind != TK_CSI_COV_NONE) return TK_OK;
    r->kind = tk_csi_cov_kind_of_array(array, alen);
    if (r->kind != TK_CSI_COV_NONE) return TK_OK;
    char q[128];
    tk_csi_quote(array, alen, q, sizeof q);
    return fail(r, err, TK_ERR_FORMAT, lno, col,
                "cannot tell the kind of coverage: the array name %s has none of the prefixes "
                "__CC_arr_, __FC_arr_, __BBC_arr_ (read it with --from csi-cc, csi-fc or "
                "csi-bbc)",
                q);
}

/* "#NAME|ARRAY": the name may hold '|', the array (a symbol) does not. */
static tk_status parse_header(tk_csi_cov_reader *r, const char *s, size_t len, uint64_t lno,
                              tk_error *err)
{
    size_t at = tk_csi_header_start(s, len);
    const char *h = s + at + 1, *end = s + len;
    char q[128];
    if (h == end)
        return fail(r, err, TK_ERR_FORMAT, lno, at + 1,
                    "a '#' line alone starts path-tracing metadata (.debug_PT), not coverage: "
                    "expected '#NAME|ARRAY'");
    const char *bar = NULL;
    for (const char *p = end; p > h; p--)
        if (p[-1] == '|') {
            bar = p - 1;
            break;
        }
    if (!bar) {
        tk_csi_quote(s + at, len - at, q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, at + 1,
                    "expected a function header '#NAME|ARRAY', found %s", q);
    }
    size_t nlen = (size_t)(bar - h), alen = (size_t)(end - bar - 1);
    if (nlen == 0 || alen == 0)
        return fail(r, err, TK_ERR_FORMAT, lno, nlen == 0 ? at + 2 : (uint64_t)(bar - s) + 2,
                    "empty %s name in the function header", nlen == 0 ? "function" : "array");
    const char *nul = memchr(h, '\0', (size_t)(end - h));
    if (nul)
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(nul - s) + 1,
                    "NUL byte in the function header");
    tk_status st = header_kind(r, bar + 1, alen, lno, (uint64_t)(bar - s) + 2, err);
    if (st != TK_OK) return st;
    if (nlen + alen + 2 > r->head_cap) {
        char *n = tk_realloc(r->head, nlen + alen + 2);
        if (!n) return nomem(err);
        r->head = n;
        r->head_cap = nlen + alen + 2;
    }
    memcpy(r->head, h, nlen);
    r->head[nlen] = 0;
    memcpy(r->head + nlen + 1, bar + 1, alen);
    r->head[nlen + 1 + alen] = 0;
    r->fn.name = r->head;
    r->fn.name_len = nlen;
    r->fn.array = r->head + nlen + 1;
    r->fn.array_len = alen;
    return TK_OK;
}

static void reset_function(tk_csi_cov_reader *r)
{
    r->entries.len = 0;
    r->line_off.len = 0;
    r->label_off.len = 0;
    r->callee_off.len = 0;
    r->lines.len = 0;
    r->text.len = 0;
    memset(&r->fn, 0, sizeof r->fn);
}

static tk_status getline_(tk_csi_cov_reader *r, const char **s, size_t *len, tk_error *err)
{
    tk_status st = tk_input_getline(r->in, s, len, err);
    if (st == TK_ERR_LIMIT)
        tk_error_locate(err, tk_input_path(r->in), -1, tk_input_line_number(r->in) + 1, 1);
    if (st != TK_OK && st != TK_END) r->input_failed = 1;
    return st;
}

/* Up to the next header (kept in pending); TK_END at the end of the input.
 * skip_junk: lines that are neither blank nor a header are skipped (after an
 * error), else they are an error. */
static tk_status find_header(tk_csi_cov_reader *r, int skip_junk, tk_error *err)
{
    const char *s;
    size_t len;
    for (;;) {
        tk_status st = getline_(r, &s, &len, err);
        if (st != TK_OK) return st;
        uint64_t lno = tk_input_line_number(r->in);
        len = tk_csi_trim_right(s, len);
        if (tk_csi_header_start(s, len) < len) return remember_pending(r, s, len, lno, err);
        if (skip_junk || tk_csi_is_blank(s, len)) continue;
        char q[128];
        tk_csi_quote(s, len, q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, 1,
                    "expected a function header '#NAME|ARRAY', found %s", q);
    }
}

/* Entry lines up to the next header or the end. */
static tk_status read_entries(tk_csi_cov_reader *r, tk_error *err)
{
    const char *s;
    size_t len;
    for (;;) {
        tk_status st = getline_(r, &s, &len, err);
        if (st == TK_END) return TK_OK;
        if (st != TK_OK) return st;
        uint64_t lno = tk_input_line_number(r->in);
        len = tk_csi_trim_right(s, len);
        if (tk_csi_header_start(s, len) < len) return remember_pending(r, s, len, lno, err);
        if (tk_csi_is_blank(s, len)) continue;
        if (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
            char q[128];
            tk_csi_quote(s, len, q, sizeof q);
            return fail(r, err, TK_ERR_FORMAT, lno, 1,
                        "expected an entry line 'INDEX|...' or a function header "
                        "'#NAME|ARRAY', found %s",
                        q);
        }
        st = parse_entry(r, s, len, lno, err);
        if (st != TK_OK) return st;
    }
}

static void finish_function(tk_csi_cov_reader *r)
{
    for (size_t i = 0; i < r->entries.len; i++) {
        tk_csi_cov_entry *e = &r->entries.data[i];
        e->lines = r->lines.data ? r->lines.data + r->line_off.data[i] : NULL;
        if (r->label_off.data[i] != NO_TEXT) {
            e->label = r->text.data + r->label_off.data[i];
            e->label_len = strlen(e->label);
        }
        if (r->callee_off.data[i] != NO_TEXT) {
            e->callee = r->text.data + r->callee_off.data[i];
            e->callee_len = strlen(e->callee);
        }
    }
    r->fn.entries = r->entries.data;
    r->fn.nentries = (uint32_t)r->entries.len;
}

tk_status tk_csi_cov_reader_next(tk_csi_cov_reader *r, const tk_csi_cov_function **out,
                                 tk_error *err)
{
    *out = NULL;
    reset_function(r);
    if (r->input_failed) return TK_END; /* the input's error was returned already */
    if (!r->has_pending) {
        int skip = r->resync;
        r->resync = 0;
        tk_status st = find_header(r, skip, err);
        if (st != TK_OK) return st;
    }
    r->has_pending = 0;
    r->fn.text_line = r->pending_line;
    r->fn.ordinal = r->ordinal++;
    tk_status st = parse_header(r, r->pending, r->pending_len, r->pending_line, err);
    if (st == TK_OK) st = read_entries(r, err);
    if (st != TK_OK) return st;
    finish_function(r);
    *out = &r->fn;
    return TK_OK;
}
