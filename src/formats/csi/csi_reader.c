/* Streaming reader of CSI .debug_PT metadata: one function per call. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "core/num.h"
#include "core/strpool.h"
#include "core/vec.h"
#include "formats/csi/csi_internal.h"
#include "tracekit/csi.h"

/* Blocks or edges in one function. Bounded so indices fit in uint32_t. */
#define CSI_MAX_ITEMS (UINT32_MAX / 4)

struct tk_csi_reader {
    tk_input *in;
    char *name;
    size_t name_cap;
    TK_VEC(tk_csi_block) blocks;
    TK_VEC(size_t) line_off;
    TK_VEC(int64_t) lines;
    TK_VEC(tk_csi_edge) edges;
    tk_hmap ids; /* block id -> index */
    tk_strpool names; /* the names of the functions returned so far */
    TK_VEC(uint32_t) seen; /* name id -> how many */
    tk_csi_function fn;
    uint64_t ordinal;
    int pending_header; /* the "#" of the next function was already read */
    uint64_t header_line;
    int resync; /* skip to the next "#" before reading */
    int input_failed; /* the input returned an error: it is sticky, stop */
};

tk_status tk_csi_reader_open(tk_csi_reader **out, tk_input *in, tk_error *err)
{
    *out = tk_calloc(1, sizeof **out);
    if (!*out) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    (*out)->in = in;
    tk_strpool_init(&(*out)->names);
    return TK_OK;
}

void tk_csi_reader_free(tk_csi_reader *r)
{
    if (!r) return;
    tk_free(r->name);
    TK_VEC_FREE(&r->blocks);
    TK_VEC_FREE(&r->line_off);
    TK_VEC_FREE(&r->lines);
    TK_VEC_FREE(&r->edges);
    tk_hmap_free(&r->ids);
    tk_strpool_free(&r->names);
    TK_VEC_FREE(&r->seen);
    tk_free(r);
}

/* A function header: "#" alone (NUL padding before it tolerated). */
static int is_header(const char *s, size_t len)
{
    size_t at = tk_csi_header_start(s, len);
    return at < len && tk_csi_trim_right(s, len) == at + 1;
}

/* ---- errors ----------------------------------------------------------- */

static tk_status fail(tk_csi_reader *r, tk_error *err, tk_status code, uint64_t line, uint64_t col,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static tk_status fail(tk_csi_reader *r, tk_error *err, tk_status code, uint64_t line, uint64_t col,
                      const char *fmt, ...)
{
    if (!r->pending_header) r->resync = 1;
    va_list ap;
    va_start(ap, fmt);
    tk_csi_vfail(err, r->in, code, line, col, fmt, ap);
    va_end(ap);
    return code;
}

/* ---- blocks ----------------------------------------------------------- */

/* One field f[0..flen) of the block line s (ending at end; p: after the
 * field) into b: ENTRY or EXIT (first field only), NULL, -1 or a line number
 * (appended to r->lines, from nlines0 for this block). */
static tk_status block_field(tk_csi_reader *r, const char *s, const char *f, size_t flen,
                             const char *p, const char *end, int first_field, size_t nlines0,
                             tk_csi_block *b, uint64_t lno, tk_error *err)
{
    char q[128];
    uint64_t col = (uint64_t)(f - s) + 1;
    if (flen == 5 && memcmp(f, "ENTRY", 5) == 0 && first_field) {
        b->kind = TK_CSI_BLOCK_ENTRY;
    } else if (flen == 4 && memcmp(f, "EXIT", 4) == 0 && first_field) {
        b->kind = TK_CSI_BLOCK_EXIT;
        if (p < end)
            return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                        "the EXIT block has no lines: expected end of line after EXIT");
    } else if (flen == 4 && memcmp(f, "NULL", 4) == 0) {
        if (r->lines.len != nlines0)
            return fail(r, err, TK_ERR_FORMAT, lno, col,
                        "NULL after line numbers: a block is NULL or has lines, not both");
        if (p < end)
            return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                        "expected end of line after NULL");
        b->null_lines = 1;
    } else if (flen == 2 && f[0] == '-' && f[1] == '1') {
        if (TK_VEC_PUSH(&r->lines, (int64_t)TK_CSI_PATH_WRITE) != 0)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    } else if (flen > 0 && f[0] >= '0' && f[0] <= '9') {
        const char *np = f;
        uint64_t v;
        tk_status st = tk_num_scan_dec(&np, f + flen, &v);
        if (st == TK_OK && np != f + flen) st = TK_ERR_FORMAT;
        if (st == TK_ERR_LIMIT || (st == TK_OK && v > (uint64_t)INT64_MAX))
            return fail(r, err, TK_ERR_LIMIT, lno, col, "line number too large");
        if (st != TK_OK) {
            tk_csi_quote(f, flen, q, sizeof q);
            return fail(r, err, TK_ERR_FORMAT, lno, col,
                        "expected a line number, -1 or NULL, found %s", q);
        }
        if (TK_VEC_PUSH(&r->lines, (int64_t)v) != 0)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    } else if (flen == 0) {
        return fail(r, err, TK_ERR_FORMAT, lno, col,
                    "empty field: expected a line number, -1 or NULL");
    } else {
        tk_csi_quote(f, flen, q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, col,
                    first_field ? "expected ENTRY, EXIT, NULL, a line number or -1, found %s"
                                : "expected a line number, -1 or NULL, found %s",
                    q);
    }
    return TK_OK;
}

/* Block b (its lines from nlines0 on) into the function: its id not yet
 * defined, at most one ENTRY and one EXIT. */
static tk_status add_block(tk_csi_reader *r, tk_csi_block *b, size_t nlines0, uint64_t lno,
                           tk_error *err)
{
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&r->ids, b->id, r->blocks.len, &inserted);
    if (!slot) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (!inserted)
        return fail(r, err, TK_ERR_FORMAT, lno, 1,
                    "block %llu defined twice in function %s (first at line %llu)",
                    (unsigned long long)b->id, r->name,
                    (unsigned long long)r->blocks.data[*slot].text_line);
    if (b->kind == TK_CSI_BLOCK_ENTRY) {
        if (r->fn.entry != UINT32_MAX)
            return fail(r, err, TK_ERR_FORMAT, lno, 1,
                        "second ENTRY block in function %s (first is block %llu at line %llu)",
                        r->name, (unsigned long long)r->blocks.data[r->fn.entry].id,
                        (unsigned long long)r->blocks.data[r->fn.entry].text_line);
        r->fn.entry = (uint32_t)r->blocks.len;
    } else if (b->kind == TK_CSI_BLOCK_EXIT) {
        if (r->fn.exit != UINT32_MAX)
            return fail(r, err, TK_ERR_FORMAT, lno, 1,
                        "second EXIT block in function %s (first is block %llu at line %llu)",
                        r->name, (unsigned long long)r->blocks.data[r->fn.exit].id,
                        (unsigned long long)r->blocks.data[r->fn.exit].text_line);
        r->fn.exit = (uint32_t)r->blocks.len;
    }
    b->nlines = r->lines.len - nlines0;
    if (TK_VEC_PUSH(&r->line_off, nlines0) != 0 || TK_VEC_PUSH(&r->blocks, *b) != 0)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_OK;
}

static tk_status parse_block(tk_csi_reader *r, const char *s, size_t len, uint64_t lno,
                             tk_error *err)
{
    const char *p = s, *end = s + len;
    char q[128];
    tk_csi_block b;
    memset(&b, 0, sizeof b);
    b.text_line = lno;
    /* decimal digits only (csi-cc never writes anything else) */
    tk_status st = tk_num_scan_dec(&p, end, &b.id);
    if (st == TK_ERR_FORMAT) {
        tk_csi_quote(s, len, q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, 1,
                    "expected a block line (id|lines...) or '$', found %s", q);
    }
    if (st == TK_ERR_LIMIT)
        return fail(r, err, TK_ERR_LIMIT, lno, 1, "block id does not fit in 64 bits");
    if (r->blocks.len >= CSI_MAX_ITEMS)
        return fail(r, err, TK_ERR_LIMIT, lno, 1, "too many blocks in function %s", r->name);
    size_t nlines0 = r->lines.len;
    for (int first_field = 1; p < end; first_field = 0) {
        if (*p != '|') {
            tk_csi_quote(p, (size_t)(end - p), q, sizeof q);
            return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                        "expected '|' after the block id, found %s", q);
        }
        p++;
        const char *f = p;
        while (p < end && *p != '|') p++;
        st = block_field(r, s, f, (size_t)(p - f), p, end, first_field, nlines0, &b, lno, err);
        if (st != TK_OK) return st;
    }
    return add_block(r, &b, nlines0, lno, err);
}

/* ---- edges ------------------------------------------------------------ */

static tk_status edge_end(tk_csi_reader *r, const char *s, const char *p, uint64_t lno,
                          uint64_t *id, uint32_t *index, const char *what, tk_error *err)
{
    uint64_t found;
    if (!tk_hmap_get(&r->ids, *id, &found))
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                    "edge %s unknown block %llu: function %s has no such block", what,
                    (unsigned long long)*id, r->name);
    *index = (uint32_t)found;
    return TK_OK;
}

static tk_status parse_edge(tk_csi_reader *r, const char *s, size_t len, uint64_t lno,
                            tk_error *err)
{
    const char *p = s, *end = s + len;
    char q[128];
    tk_csi_edge e;
    memset(&e, 0, sizeof e);
    e.text_line = lno;
    uint64_t src, dst, w;
    tk_status st = tk_num_scan_dec(&p, end, &src);
    if (st != TK_OK) {
        tk_csi_quote(s, len, q, sizeof q);
        return fail(r, err, st, lno, 1,
                    st == TK_ERR_LIMIT ? "block id does not fit in 64 bits"
                                       : "expected an edge (src->dst|inc$weight) or '#', found %s",
                    q);
    }
    const char *src_at = s;
    if (end - p >= 2 && (p[0] == '-' || p[0] == '~') && p[1] == '>') {
        e.back = p[0] == '~';
        p += 2;
    } else {
        tk_csi_quote(p, (size_t)(end - p), q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                    "expected '->' or '~>' after the source block, found %s", q);
    }
    const char *dst_at = p;
    st = tk_num_scan_dec(&p, end, &dst);
    if (st != TK_OK) {
        tk_csi_quote(p, (size_t)(end - p), q, sizeof q);
        return fail(r, err, st, lno, (uint64_t)(p - s) + 1,
                    st == TK_ERR_LIMIT ? "block id does not fit in 64 bits"
                                       : "expected the target block id, found %s",
                    q);
    }
    if (p >= end || *p != '|') {
        tk_csi_quote(p, (size_t)(end - p), q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                    "expected '|' before the increment, found %s", q);
    }
    p++;
    const char *inc_at = p;
    int neg = 0;
    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }
    uint64_t mag;
    st = tk_num_scan_dec(&p, end, &mag);
    if (st == TK_OK && (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX))
        st = TK_ERR_LIMIT;
    if (st != TK_OK) {
        tk_csi_quote(inc_at, (size_t)(end - inc_at), q, sizeof q);
        return fail(r, err, st, lno, (uint64_t)(inc_at - s) + 1,
                    st == TK_ERR_LIMIT ? "increment does not fit in a signed 64-bit number"
                                       : "expected the increment (an integer), found %s",
                    q);
    }
    e.inc = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    if (p >= end || *p != '$') {
        tk_csi_quote(p, (size_t)(end - p), q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                    "expected '$' before the weight, found %s", q);
    }
    p++;
    const char *w_at = p;
    st = tk_num_scan_dec(&p, end, &w);
    if (st != TK_OK) {
        tk_csi_quote(w_at, (size_t)(end - w_at), q, sizeof q);
        return fail(r, err, st, lno, (uint64_t)(w_at - s) + 1,
                    st == TK_ERR_LIMIT ? "weight does not fit in an unsigned 64-bit number"
                                       : "expected the weight (a number >= 0), found %s",
                    q);
    }
    if (p != end) {
        tk_csi_quote(p, (size_t)(end - p), q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, lno, (uint64_t)(p - s) + 1,
                    "expected end of line after the weight, found %s", q);
    }
    e.weight = w;
    st = edge_end(r, s, src_at, lno, &src, &e.src, "from", err);
    if (st == TK_OK) st = edge_end(r, s, dst_at, lno, &dst, &e.dst, "to", err);
    if (st != TK_OK) return st;
    if (r->edges.len >= CSI_MAX_ITEMS)
        return fail(r, err, TK_ERR_LIMIT, lno, 1, "too many edges in function %s", r->name);
    if (TK_VEC_PUSH(&r->edges, e) != 0) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_OK;
}

/* ---- functions -------------------------------------------------------- */

static void reset_function(tk_csi_reader *r)
{
    r->blocks.len = 0;
    r->line_off.len = 0;
    r->lines.len = 0;
    r->edges.len = 0;
    if (r->ids.cap > 4096 && r->ids.len < r->ids.cap / 16)
        tk_hmap_free(&r->ids);
    else
        tk_hmap_clear(&r->ids);
    memset(&r->fn, 0, sizeof r->fn);
    r->fn.entry = UINT32_MAX;
    r->fn.exit = UINT32_MAX;
}

static tk_status set_name(tk_csi_reader *r, const char *s, size_t len, tk_error *err)
{
    if (len + 1 > r->name_cap) {
        size_t cap = len + 1 < 64 ? 64 : len + 1;
        char *n = tk_realloc(r->name, cap);
        if (!n) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        r->name = n;
        r->name_cap = cap;
    }
    memcpy(r->name, s, len);
    r->name[len] = 0;
    r->fn.name = r->name;
    r->fn.name_len = len;
    return TK_OK;
}

static tk_status getline_(tk_csi_reader *r, const char **s, size_t *len, tk_error *err)
{
    tk_status st = tk_input_getline(r->in, s, len, err);
    if (st == TK_ERR_LIMIT)
        tk_error_locate(err, tk_input_path(r->in), -1, tk_input_line_number(r->in) + 1, 1);
    if (st != TK_OK && st != TK_END) r->input_failed = 1;
    return st;
}

/* To the next "#" header: after an error (resync: any line up to it is
 * skipped), else only blank lines may come before it. TK_OK with
 * r->header_line set, TK_END, or an error. */
static tk_status find_header(tk_csi_reader *r, tk_error *err)
{
    const char *s;
    size_t len;
    tk_status st;
    if (r->resync) {
        r->resync = 0;
        for (;;) {
            st = getline_(r, &s, &len, err);
            if (st != TK_OK) return st;
            if (is_header(s, len)) {
                r->pending_header = 1;
                r->header_line = tk_input_line_number(r->in);
                break;
            }
        }
    }
    if (r->pending_header) return TK_OK;
    for (;;) {
        st = getline_(r, &s, &len, err);
        if (st != TK_OK) return st;
        if (tk_csi_is_blank(s, len)) continue;
        if (is_header(s, len)) {
            r->header_line = tk_input_line_number(r->in);
            return TK_OK;
        }
        char q[128];
        tk_csi_quote(s, tk_csi_trim_right(s, len), q, sizeof q);
        return fail(r, err, TK_ERR_FORMAT, tk_input_line_number(r->in), 1,
                    "expected '#' (start of a function), found %s", q);
    }
}

/* The line after the header: the function's name. */
static tk_status read_name(tk_csi_reader *r, tk_error *err)
{
    const char *s;
    size_t len;
    tk_status st = getline_(r, &s, &len, err);
    if (st == TK_END)
        return fail(r, err, TK_ERR_FORMAT, r->header_line, 2,
                    "unexpected end of input: expected a function name after '#'");
    if (st != TK_OK) return st;
    uint64_t lno = tk_input_line_number(r->in);
    len = tk_csi_trim_right(s, len);
    if (len == 0 || is_header(s, len))
        return fail(r, err, TK_ERR_FORMAT, lno, 1, "expected a function name, found %s",
                    len == 0 ? "an empty line" : "'#'");
    if (memchr(s, '\0', len))
        return fail(r, err, TK_ERR_FORMAT, lno,
                    (uint64_t)((const char *)memchr(s, '\0', len) - s) + 1,
                    "NUL byte in the function name");
    return set_name(r, s, len, err);
}

/* The block lines up to "$", then the ENTRY and EXIT blocks checked. */
static tk_status read_blocks(tk_csi_reader *r, tk_error *err)
{
    const char *s;
    size_t len;
    uint64_t lno;
    for (;;) {
        tk_status st = getline_(r, &s, &len, err);
        if (st == TK_END)
            return fail(r, err, TK_ERR_FORMAT, tk_input_line_number(r->in) + 1, 1,
                        "unexpected end of input in function %s: expected '$' after the blocks",
                        r->name);
        if (st != TK_OK) return st;
        lno = tk_input_line_number(r->in);
        len = tk_csi_trim_right(s, len);
        if (len == 1 && s[0] == '$') break;
        if (is_header(s, len)) {
            r->pending_header = 1;
            r->header_line = lno;
            return fail(r, err, TK_ERR_FORMAT, lno, 1,
                        "function %s has no '$' line: '#' starts the next function before the "
                        "blocks ended",
                        r->name);
        }
        st = parse_block(r, s, len, lno, err);
        if (st != TK_OK) return st;
    }
    if (r->fn.entry == UINT32_MAX || r->fn.exit == UINT32_MAX)
        return fail(r, err, TK_ERR_FORMAT, lno, 1, "function %s has no %s block", r->name,
                    r->fn.entry == UINT32_MAX ? "ENTRY" : "EXIT");
    return TK_OK;
}

/* The edge lines up to the next "#" (kept pending) or the end. */
static tk_status read_edges(tk_csi_reader *r, tk_error *err)
{
    const char *s;
    size_t len;
    for (;;) {
        tk_status st = getline_(r, &s, &len, err);
        if (st == TK_END) return TK_OK;
        if (st != TK_OK) return st;
        uint64_t lno = tk_input_line_number(r->in);
        if (is_header(s, len)) {
            r->pending_header = 1;
            r->header_line = lno;
            return TK_OK;
        }
        /* end-of-line comments, as upstream readers strip them */
        const char *hash = memchr(s, '#', len);
        if (hash) len = (size_t)(hash - s);
        len = tk_csi_trim_right(s, len);
        if (tk_csi_is_blank(s, len)) continue;
        st = parse_edge(r, s, len, lno, err);
        if (st != TK_OK) return st;
    }
}

tk_status tk_csi_reader_next(tk_csi_reader *r, const tk_csi_function **out, tk_error *err)
{
    *out = NULL;
    reset_function(r);
    if (r->input_failed) return TK_END; /* the input's error was returned already */
    tk_status st = find_header(r, err);
    if (st != TK_OK) return st;
    r->pending_header = 0;
    r->fn.text_line = r->header_line;
    r->fn.ordinal = r->ordinal++;
    if ((st = read_name(r, err)) != TK_OK || (st = read_blocks(r, err)) != TK_OK ||
        (st = read_edges(r, err)) != TK_OK)
        return st;
    for (size_t i = 0; i < r->blocks.len; i++)
        r->blocks.data[i].lines = r->lines.data ? r->lines.data + r->line_off.data[i] : NULL;
    r->fn.blocks = r->blocks.data;
    r->fn.nblocks = (uint32_t)r->blocks.len;
    r->fn.edges = r->edges.data;
    r->fn.nedges = (uint32_t)r->edges.len;
    /* its occurrence among the functions of its name (the label "name#K") */
    uint32_t id = tk_strpool_intern(&r->names, r->fn.name, r->fn.name_len);
    if (id == TK_STR_NONE || (id >= r->seen.len && TK_VEC_PUSH(&r->seen, 0) != 0))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    r->fn.occurrence = ++r->seen.data[id];
    *out = &r->fn;
    return TK_OK;
}
