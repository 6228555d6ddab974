/* DCFG-Trace: one-pass parser of the file structure (spec 3.1-3.7), on the
 * JSON lexer of core/json.h over the content in memory: strings are kept as
 * spans (zero copy), numbers are checked for overflow, every error carries
 * the byte offset (and line:column) of what was found instead of what was
 * expected. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/json.h"
#include "core/num.h"
#include "core/vec.h"
#include "formats/dcfg_trace/dt_internal.h"

void tk_dt_line_col(const tk_dcfg_trace *t, int64_t offset, uint64_t *line, uint64_t *col)
{
    if (offset < 0) offset = 0;
    if ((uint64_t)offset > t->len) offset = (int64_t)t->len;
    size_t at = 0;
    uint64_t l = 1, start = 0;
    if (t->line_marks) {
        size_t k = (size_t)offset / DT_LINE_STEP;
        at = k * DT_LINE_STEP;
        l = t->line_marks[k].line;
        start = t->line_marks[k].line_start;
    }
    /* the last chunk whose row starts at or before offset: its line is known */
    size_t lo = 0, hi = t->nchunks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->chunks[mid].row_offset <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && (size_t)t->chunks[lo - 1].row_offset >= at) {
        const dt_chunk *c = &t->chunks[lo - 1];
        at = (size_t)c->row_offset;
        l = c->line;
        start = (uint64_t)c->row_offset - (c->column - 1);
    }
    const char *q;
    while (at < (size_t)offset && (q = memchr(t->data + at, '\n', (size_t)offset - at)) != NULL) {
        l++;
        at = (size_t)(q - t->data) + 1;
        start = at;
    }
    *line = l;
    *col = (uint64_t)offset - start + 1;
}

/* t->line_marks: one pass over the content (for the offsets that are not in a
 * chunk's row: a scan from the start of the file for each was quadratic). */
static void mark_lines(tk_dcfg_trace *t)
{
    size_t n = t->len / DT_LINE_STEP + 1;
    tk_free(t->line_marks);
    t->line_marks = NULL;
    dt_line_mark *m = tk_malloc(sizeof *m * n);
    if (!m) return; /* tk_dt_line_col scans from the start */
    uint64_t l = 1, start = 0;
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        size_t stop = k * DT_LINE_STEP;
        const char *q;
        while (at < stop && (q = memchr(t->data + at, '\n', stop - at)) != NULL) {
            l++;
            at = (size_t)(q - t->data) + 1;
            start = at;
        }
        at = stop;
        m[k].line = l;
        m[k].line_start = start;
    }
    t->line_marks = m;
}

tk_status tk_dt_error_at(const tk_dcfg_trace *t, tk_error *err, tk_status code, int64_t offset,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_error_vset(err, code, fmt, ap);
    va_end(ap);
    uint64_t line = 0, col = 0;
    if (offset >= 0) tk_dt_line_col(t, offset, &line, &col);
    tk_error_locate(err, t->path, offset, line, col);
    return code;
}

/* The parse: the fixed layout read through the JSON lexer of core/json.h (no
 * recursion: the nesting of a DCFG-Trace is fixed, at most 6 levels). Before
 * each value or punctuation the parser looks at the next byte, so that a
 * message says what the layout wanted there ("expected ',' after
 * PROCESS_ID, found ..."). Strings are spans of the content (zero copy), read
 * as written: escapes are the decoder's error in sequences. The rows of
 * TRACE_DATA and TRANSITION_TABLE take the lexer's compiled-row fast path;
 * an unusual row (and every bad one) is read value by value. */
typedef struct parser {
    tk_dcfg_trace *t;
    tk_json *j;
    tk_error *err;
    int fast; /* the fast row paths may be taken (DT_FAST): 1 but in tk_dt_parse_paths(..., 0) */
    uint32_t *pool; /* NEXT_EDGE_IDS of the current process */
    size_t npool, cap_pool;
    dt_row *rows;
    size_t nrows, cap_rows;
    tk_hmap pids, tids; /* the process ids so far, the thread ids of the current process */
    tk_json_row_prog trace_prog; /* a usual TRACE_DATA row */
    tk_json_row_out row;
} parser;

/* The next byte after white space, or -1 at the end (content in memory: no
 * read errors). */
static int peek(parser *ps)
{
    int c;
    (void)tk_json_peek(ps->j, &c, NULL);
    return c;
}

static int peek_is(parser *ps, char c) { return peek(ps) == c; }

/* The offset of the next byte (after white space). */
static int64_t here(parser *ps)
{
    tk_json_pos pos;
    (void)peek(ps);
    tk_json_here(ps->j, &pos);
    return pos.offset;
}

static tk_status fail_here(parser *ps, const char *what)
{
    return tk_json_fail_expected(ps->j, what, ps->err);
}

/* The punctuation c, else "expected WHAT, found ...". */
static tk_status expect(parser *ps, char c, const char *what)
{
    if (peek(ps) != c) return fail_here(ps, what);
    return tk_json_take(ps->j, ps->err);
}

/* ',' then more, or the closing char: returns 1 for more, 0 for closed, <0 error. */
static int more(parser *ps, char close, const char *what)
{
    int c = peek(ps);
    if (c != ',' && c != close) return fail_here(ps, what);
    tk_status st = tk_json_take(ps->j, ps->err);
    return st != TK_OK ? (int)st : c == ',';
}

/* A string as a raw span (escapes kept as written); *offset: its first byte. */
static tk_status string_span(parser *ps, const char **s, size_t *len, int64_t *offset,
                             const char *what)
{
    tk_status st = tk_json_next_raw(ps->j, what, s, len, ps->err);
    if (st == TK_OK && offset) *offset = (int64_t)(*s - ps->t->data);
    return st;
}

static int span_is(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* A non-negative integer: a JSON number, or a string of one (spec 1.2.1:
 * numbers may be stored as strings "in C-style encoding", and parsers
 * recognize them "anywhere an integer is required"); tk_json_next_u64 says
 * which strings (no octal "017"). */
static tk_status uint_value(parser *ps, uint64_t *v, const char *what)
{
    return tk_json_next_u64(ps->j, what, v, ps->err);
}

static tk_status edge_id_value(parser *ps, uint64_t *v, const char *what)
{
    int64_t start = here(ps);
    tk_status st = uint_value(ps, v, what);
    if (st != TK_OK) return st;
    if (*v == 0 || *v > UINT32_MAX)
        return tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, start,
                              "%s %llu out of range (edge ids are 1..4294967295)", what,
                              (unsigned long long)*v);
    return TK_OK;
}

/* A header row: exactly these names in this order. */
static tk_status header_row(parser *ps, const char *table, const char *const *names, size_t n)
{
    tk_status st = expect(ps, '[', "'[' opening the header row");
    if (st != TK_OK) return st;
    for (size_t i = 0; i < n; i++) {
        const char *s;
        size_t len;
        if (i > 0 && (st = expect(ps, ',', "',' in the header row")) != TK_OK) return st;
        int64_t at = here(ps);
        if ((st = string_span(ps, &s, &len, NULL, "a column name")) != TK_OK) return st;
        if (!span_is(s, len, names[i]))
            return tk_dt_error_at(
                ps->t, ps->err, TK_ERR_FORMAT, at,
                "%s column %zu must be \"%s\" (columns are positional), found \"%.*s\"", table,
                i + 1, names[i], (int)(len > 60 ? 60 : len), s);
    }
    return expect(ps, ']', "']' closing the header row (no more columns)");
}

/* The next row of a table: 1 after its '[' (*row_at: that '['), 0 after the
 * table's closing ']', or an error status (< 0). */
static int next_row(parser *ps, const char *table, tk_json_pos *row_at)
{
    char what[64];
    int c = peek(ps);
    if (c == ']') return (int)tk_json_take(ps->j, ps->err);
    if (c != ',') {
        snprintf(what, sizeof what, "',' or ']' in %s", table);
        return (int)fail_here(ps, what);
    }
    tk_status st = tk_json_take(ps->j, ps->err);
    if (st != TK_OK) return (int)st;
    (void)peek(ps);
    tk_json_here(ps->j, row_at);
    if (peek(ps) == '[') {
        st = tk_json_take(ps->j, ps->err);
        return st != TK_OK ? (int)st : 1;
    }
    snprintf(what, sizeof what, "'[' opening a %s row", table);
    return (int)fail_here(ps, what);
}

static tk_status nomem(parser *ps) { return tk_error_set(ps->err, TK_ERR_NOMEM, "out of memory"); }

static tk_status parse_dictionary(parser *ps, dt_process *proc)
{
    tk_status st = expect(ps, '{', "'{' opening STRING_DICTIONARY");
    if (st != TK_OK) return st;
    size_t cap = 0;
    if (peek_is(ps, '}')) return tk_json_take(ps->j, ps->err);
    for (;;) {
        const char *k, *v;
        size_t klen, vlen;
        int64_t koff, voff;
        if ((st = string_span(ps, &k, &klen, &koff, "a dictionary key (a string)")) != TK_OK)
            return st;
        char *key = tk_malloc(klen + 1);
        if (!key) return nomem(ps);
        size_t n = 0;
        for (size_t i = 0; i < klen; i++) {
            char c = k[i];
            if (c == ' ' || c == '\t') continue;
            if (tk_dt_b64_value[(unsigned char)c] < 0) {
                tk_free(key);
                return tk_dt_error_at(
                    ps->t, ps->err, TK_ERR_FORMAT, koff + (int64_t)i,
                    "dictionary keys use the characters A-Z a-z 0-9 + -; found '%c'", c);
            }
            key[n++] = c;
        }
        key[n] = 0;
        if (tk_vec_reserve_((void **)&proc->dict, &cap, proc->ndict + 1, sizeof *proc->dict)) {
            tk_free(key);
            return nomem(ps);
        }
        dt_dict_entry *d = &proc->dict[proc->ndict++];
        d->key = key;
        d->key_len = n;
        d->key_offset = koff - 1;
        if ((st = expect(ps, ':', "':' after a dictionary key")) != TK_OK) return st;
        if (!peek_is(ps, '"'))
            return tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, here(ps),
                                  "the value of dictionary key \"%s\" must be a string (an edge-id "
                                  "sequence)",
                                  key);
        if ((st = string_span(ps, &v, &vlen, &voff, "a string")) != TK_OK) return st;
        d->value = v;
        d->value_len = vlen;
        d->value_offset = voff;
        int m = more(ps, '}', "',' or '}' in STRING_DICTIONARY");
        if (m < 0) return (tk_status)m;
        if (m == 0) return TK_OK;
    }
}


/* Every reference inside the dictionary's values names an existing key, and
 * no key reaches itself through references (checked once here, so a cycle in
 * an entry no chunk uses is found too). Iterative DFS, no recursion. */
static tk_status check_dictionary(parser *ps, dt_process *proc)
{
    size_t n = proc->ndict;
    if (n == 0) return TK_OK;
    if (tk_dt_dict_index(proc) != 0) return nomem(ps);
    /* duplicates: linear probing finds the first entry with a key first */
    for (size_t i = 0; i < n; i++) {
        const dt_dict_entry *d = &proc->dict[i];
        long first = tk_dt_dict_find(proc, d->key, d->key + d->key_len);
        if (first != (long)i)
            return tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, d->key_offset,
                                  "duplicate dictionary key \"%s\"", d->key);
    }
    /* edges of the reference graph: per entry, the referenced entries */
    size_t *first = tk_calloc(n + 1, sizeof *first);
    size_t *refs = NULL, nrefs = 0, cap = 0;
    int64_t *ref_at = NULL;
    size_t cap_at = 0;
    uint8_t *color = tk_calloc(n, 1);
    size_t *stack = tk_malloc(n * sizeof *stack), *iter = tk_malloc(n * sizeof *iter);
    tk_status st = TK_OK;
    if (!first || !color || !stack || !iter) {
        st = nomem(ps);
        goto out;
    }
    for (size_t i = 0; i < n && st == TK_OK; i++) {
        first[i] = nrefs;
        const dt_dict_entry *d = &proc->dict[i];
        for (size_t k = 0; k < d->value_len; k++) {
            if (d->value[k] != '<') continue;
            size_t j = k + 1;
            while (j < d->value_len && d->value[j] != '>') j++;
            if (j >= d->value_len) break; /* reported when the value is expanded */
            long found = tk_dt_dict_find(proc, d->value + k + 1, d->value + j);
            if (found < 0) {
                int kl = (int)(j - k - 1 > 60 ? 60 : j - k - 1);
                st = tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, d->value_offset + (int64_t)k,
                                    "key <%.*s> is not in STRING_DICTIONARY", kl, d->value + k + 1);
                break;
            }
            size_t target = (size_t)found;
            if (tk_vec_reserve_((void **)&refs, &cap, nrefs + 1, sizeof *refs) ||
                tk_vec_reserve_((void **)&ref_at, &cap_at, nrefs + 1, sizeof *ref_at)) {
                st = nomem(ps);
                break;
            }
            ref_at[nrefs] = d->value_offset + (int64_t)k;
            refs[nrefs++] = target;
            k = j;
        }
    }
    first[n] = nrefs;
    /* colors: 0 new, 1 on the DFS path, 2 done */
    for (size_t root = 0; root < n && st == TK_OK; root++) {
        if (color[root]) continue;
        size_t depth = 0;
        stack[depth] = root;
        iter[depth++] = first[root];
        color[root] = 1;
        while (depth > 0 && st == TK_OK) {
            size_t v = stack[depth - 1];
            if (iter[depth - 1] >= first[v + 1]) {
                color[v] = 2;
                depth--;
                continue;
            }
            size_t r = iter[depth - 1]++;
            size_t w = refs[r];
            if (color[w] == 1) {
                st =
                    tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, ref_at[r],
                                   w == v ? "recursive dictionary reference: <%s> refers to itself"
                                          : "recursive dictionary reference: <%s> is reached again "
                                            "through its own references",
                                   proc->dict[w].key);
            } else if (color[w] == 0) {
                color[w] = 1;
                stack[depth] = w;
                iter[depth++] = first[w];
            }
        }
    }
out:
    tk_free(first);
    tk_free(refs);
    tk_free(ref_at);
    tk_free(color);
    tk_free(stack);
    tk_free(iter);
    return st;
}

enum { COL_CURRENT, COL_CODE, COL_NEXT, COL_COUNT };

/* The TRANSITION_TABLE header (columns by name, any order, all three): the
 * column of each cell, and the lexer's program for a usual row. */
static tk_status transition_header(parser *ps, int *kind_of, tk_json_row_prog *pg)
{
    static const char *const names[COL_COUNT] = {"CURRENT_EDGE_ID", "TRANSITION_CODE",
                                                 "NEXT_EDGE_IDS"};
    int col_of[COL_COUNT] = {-1, -1, -1};
    int64_t hdr = here(ps);
    tk_status st = expect(ps, '[', "'[' opening the TRANSITION_TABLE header row");
    if (st != TK_OK) return st;
    int ncols = 0;
    do {
        const char *s;
        size_t len;
        int64_t at = here(ps);
        if ((st = string_span(ps, &s, &len, NULL, "a column name")) != TK_OK) return st;
        int which = -1;
        for (int i = 0; i < COL_COUNT; i++)
            if (span_is(s, len, names[i])) which = i;
        if (which < 0 || col_of[which] >= 0)
            return tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, at,
                                  "%s TRANSITION_TABLE column \"%.*s\" (expected CURRENT_EDGE_ID, "
                                  "TRANSITION_CODE, NEXT_EDGE_IDS)",
                                  which < 0 ? "unknown" : "duplicate", (int)(len > 60 ? 60 : len),
                                  s);
        col_of[which] = ncols;
        kind_of[ncols] = which;
        ncols++;
    } while ((st = (tk_status)more(ps, ']', "',' or ']' in the TRANSITION_TABLE header")) == 1);
    if ((int)st < 0) return st;
    for (int i = 0; i < COL_COUNT; i++)
        if (col_of[i] < 0)
            return tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, hdr,
                                  "TRANSITION_TABLE header has no %s column", names[i]);
    /* usual row: ids in range, the code a plain string, the ids JSON integers */
    memset(pg, 0, sizeof *pg);
    pg->ncells = pg->min_cells = COL_COUNT;
    for (int c = 0; c < COL_COUNT; c++) {
        pg->slot[c] = (uint8_t)kind_of[c];
        pg->is_array[c] = kind_of[c] == COL_CODE   ? TK_JSON_CELL_STRING
                          : kind_of[c] == COL_NEXT ? TK_JSON_CELL_ARRAY
                                                   : 0;
        pg->lo[c] = 1;
        pg->hi[c] = UINT32_MAX;
    }
    return TK_OK;
}

static tk_status push_next_id(parser *ps, uint64_t id)
{
    if (tk_vec_reserve_((void **)&ps->pool, &ps->cap_pool, ps->npool + 1, sizeof *ps->pool))
        return nomem(ps);
    ps->pool[ps->npool++] = (uint32_t)id;
    return TK_OK;
}

static void set_code(dt_row *r, const char *s, size_t len)
{
    r->code = s;
    r->code_len = (uint32_t)(len > 64 ? 64 : len); /* longer than any legal code: reported
                                                     by the table check */
}

/* A usual TRANSITION_TABLE row through the lexer's fast path: TK_OK when read
 * into r, TK_END when it must be read value by value (nothing consumed). */
static tk_status fast_transition_row(parser *ps, const tk_json_row_prog *pg, dt_row *r)
{
    tk_json_row_out *row = &ps->row;
    if (tk_json_scan_row_strings(ps->j, pg, row) != COL_COUNT) return TK_END;
    r->row_offset = row->offset;
    r->current = tk_json_row_cell(row, COL_CURRENT);
    r->code_offset = (int64_t)tk_json_row_cell(row, COL_CODE);
    set_code(r, ps->t->data + r->code_offset, row->n[COL_CODE]);
    r->next_first = (uint32_t)ps->npool;
    r->next_count = row->n[COL_NEXT];
    const uint64_t *ids = row->vals + tk_json_row_cell(row, COL_NEXT);
    for (uint32_t i = 0; i < r->next_count; i++)
        if (push_next_id(ps, ids[i]) != TK_OK) return TK_ERR_NOMEM;
    tk_json_take_scanned(ps->j, row);
    return TK_OK;
}

/* NEXT_EDGE_IDS read value by value. */
static tk_status next_ids(parser *ps, dt_row *r)
{
    tk_status st = expect(ps, '[', "'[' opening NEXT_EDGE_IDS");
    if (st != TK_OK) return st;
    r->next_first = (uint32_t)ps->npool;
    if (peek_is(ps, ']')) return tk_json_take(ps->j, ps->err);
    do {
        uint64_t id;
        if ((st = edge_id_value(ps, &id, "an id in NEXT_EDGE_IDS")) != TK_OK ||
            (st = push_next_id(ps, id)) != TK_OK)
            return st;
    } while ((st = (tk_status)more(ps, ']', "',' or ']' in NEXT_EDGE_IDS")) == 1);
    r->next_count = (uint32_t)(ps->npool - r->next_first);
    return st;
}

/* A TRANSITION_TABLE row read value by value, after its '['. */
static tk_status transition_row(parser *ps, const int *kind_of, dt_row *r)
{
    tk_status st;
    for (int c = 0; c < COL_COUNT; c++) {
        if (c > 0 && (st = expect(ps, ',', "',' (a TRANSITION_TABLE row has 3 cells)")) != TK_OK)
            return st;
        if (kind_of[c] == COL_CURRENT) {
            st = edge_id_value(ps, &r->current, "CURRENT_EDGE_ID");
        } else if (kind_of[c] == COL_CODE) {
            const char *s;
            size_t len;
            st = string_span(ps, &s, &len, &r->code_offset, "TRANSITION_CODE (a string)");
            if (st == TK_OK) set_code(r, s, len);
        } else {
            st = next_ids(ps, r);
        }
        if (st != TK_OK) return st;
    }
    return expect(ps, ']', "']' closing a TRANSITION_TABLE row (3 cells)");
}

static tk_status parse_transition_table(parser *ps, dt_process *proc)
{
    tk_status st = expect(ps, '[', "'[' opening TRANSITION_TABLE");
    int kind_of[COL_COUNT];
    tk_json_row_prog pg;
    if (st != TK_OK || (st = transition_header(ps, kind_of, &pg)) != TK_OK) return st;
    ps->nrows = 0;
    ps->npool = 0;
    for (;;) {
        if (tk_vec_reserve_((void **)&ps->rows, &ps->cap_rows, ps->nrows + 1, sizeof *ps->rows))
            return nomem(ps);
        dt_row *r = &ps->rows[ps->nrows];
        memset(r, 0, sizeof *r);
        /* (a fast path, core/fastpath.h: transition_row is its general twin) */
        st = DT_FAST(ps) ? fast_transition_row(ps, &pg, r) : TK_END;
        if (st == TK_END) {
            tk_json_pos at;
            int m = next_row(ps, "TRANSITION_TABLE", &at);
            if (m <= 0) {
                st = (tk_status)m;
                break;
            }
            r->row_offset = at.offset;
            st = transition_row(ps, kind_of, r);
        }
        if (st != TK_OK) return st;
        ps->nrows++;
    }
    if (st != TK_OK) return st;
    int64_t bad = -1;
    st = tk_dt_table_build(&proc->table, ps->rows, ps->nrows, ps->pool, &bad, ps->err);
    if (st != TK_OK && bad >= 0) {
        uint64_t line, col;
        tk_dt_line_col(ps->t, bad, &line, &col);
        tk_error_locate(ps->err, ps->t->path, bad, line, col);
    }
    return st;
}

static const char *const trace_cols[5] = {"PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT",
                                          "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"};

/* The sums every reader of the counts makes: a chunk's end (PRECEDING_INSTR_COUNT
 * + INSTR_COUNT), the thread's INSTR_COUNT and EDGE_COUNT totals. Each must
 * fit in 64 bits (info, report and the conversions print or use them). */
static tk_status chunk_sums(parser *ps, const dt_chunk *c, uint64_t *instrs, uint64_t *edges)
{
    uint64_t end;
    const char *what = NULL;
    if (tk_add_u64(c->preceding_instr_count, c->instr_count, &end))
        what = "PRECEDING_INSTR_COUNT + INSTR_COUNT (the chunk's end)";
    else if (tk_add_u64(*instrs, c->instr_count, instrs))
        what = "the thread's INSTR_COUNT total";
    else if (tk_add_u64(*edges, c->edge_count, edges))
        what = "the thread's EDGE_COUNT total";
    if (!what) return TK_OK;
    return tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, c->row_offset,
                          "%s passes 2^64 - 1 at this chunk", what);
}

enum { TD_PRECEDING, TD_INSTRS, TD_EDGES, TD_FIRST, TD_SEQ, TD_CELLS };

/* The lexer's program for a usual TRACE_DATA row: four integers, FIRST_EDGE_ID
 * within 32 bits, a plain string. */
static void trace_prog_init(tk_json_row_prog *pg)
{
    memset(pg, 0, sizeof *pg);
    pg->ncells = pg->min_cells = TD_CELLS;
    for (int c = 0; c < TD_CELLS; c++) {
        pg->slot[c] = (uint8_t)c;
        pg->hi[c] = UINT64_MAX;
    }
    pg->hi[TD_FIRST] = UINT32_MAX;
    pg->is_array[TD_SEQ] = TK_JSON_CELL_STRING;
}

/* A usual TRACE_DATA row through the lexer's fast path: 1 when read into c,
 * 0 when it must be read value by value (nothing consumed). */
static int fast_trace_row(parser *ps, dt_chunk *c)
{
    tk_json_row_out *row = &ps->row;
    if (tk_json_scan_row_strings(ps->j, &ps->trace_prog, row) != TD_CELLS) return 0;
    c->edge_count = tk_json_row_cell(row, TD_EDGES);
    c->first_edge_id = tk_json_row_cell(row, TD_FIRST);
    if (c->edge_count > 0 && c->first_edge_id == 0) return 0; /* the error */
    c->preceding_instr_count = tk_json_row_cell(row, TD_PRECEDING);
    c->instr_count = tk_json_row_cell(row, TD_INSTRS);
    c->seq_offset = (int64_t)tk_json_row_cell(row, TD_SEQ);
    c->seq_len = row->n[TD_SEQ];
    c->row_offset = row->offset;
    c->line = row->line;
    c->column = row->column;
    tk_json_take_scanned(ps->j, row);
    return 1;
}

/* A TRACE_DATA row read value by value, after its '['. */
static tk_status trace_row(parser *ps, dt_chunk *c)
{
    tk_status st;
    if ((st = uint_value(ps, &c->preceding_instr_count, "PRECEDING_INSTR_COUNT")) != TK_OK ||
        (st = expect(ps, ',', "',' after PRECEDING_INSTR_COUNT (a TRACE_DATA row has 5 cells)")) ||
        (st = uint_value(ps, &c->instr_count, "INSTR_COUNT")) != TK_OK ||
        (st = expect(ps, ',', "',' after INSTR_COUNT (a TRACE_DATA row has 5 cells)")) ||
        (st = uint_value(ps, &c->edge_count, "EDGE_COUNT")) != TK_OK ||
        (st = expect(ps, ',', "',' after EDGE_COUNT (a TRACE_DATA row has 5 cells)")))
        return st;
    int64_t first_at = here(ps);
    if ((st = uint_value(ps, &c->first_edge_id, "FIRST_EDGE_ID")) != TK_OK) return st;
    if (c->edge_count > 0 && (c->first_edge_id == 0 || c->first_edge_id > UINT32_MAX))
        return tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, first_at,
                              "FIRST_EDGE_ID %llu out of range (edge ids are 1..4294967295)",
                              (unsigned long long)c->first_edge_id);
    if ((st = expect(ps, ',',
                     "',' after FIRST_EDGE_ID (a TRACE_DATA row has 5 cells, "
                     "EDGE_ID_SEQUENCE is missing)")) != TK_OK)
        return st;
    const char *seq;
    if ((st = string_span(ps, &seq, &c->seq_len, &c->seq_offset, "EDGE_ID_SEQUENCE (a string)")) !=
        TK_OK)
        return st;
    return expect(ps, ']', "']' closing a TRACE_DATA row (5 cells)");
}

static tk_status parse_trace_data(parser *ps)
{
    tk_dcfg_trace *t = ps->t;
    tk_status st = expect(ps, '[', "'[' opening TRACE_DATA");
    if (st != TK_OK) return st;
    if ((st = header_row(ps, "TRACE_DATA", trace_cols, 5)) != TK_OK) return st;
    uint64_t instrs = 0, edges = 0;
    for (;;) {
        if (tk_vec_reserve_((void **)&t->chunks, &t->cap_chunks, t->nchunks + 1, sizeof *t->chunks))
            return nomem(ps);
        dt_chunk *c = &t->chunks[t->nchunks];
        memset(c, 0, sizeof *c);
        if (!DT_FAST(ps) || !fast_trace_row(ps, c)) { /* (trace_row: the general twin) */
            tk_json_pos at;
            int m = next_row(ps, "TRACE_DATA", &at);
            if (m <= 0) return (tk_status)m;
            c->row_offset = at.offset;
            c->line = at.line;
            c->column = at.column;
            if ((st = trace_row(ps, c)) != TK_OK) return st;
        }
        if ((st = chunk_sums(ps, c, &instrs, &edges)) != TK_OK) return st;
        t->nchunks++;
    }
}

static const char *const thread_cols[2] = {"THREAD_ID", "TRACE_DATA"};

static tk_status parse_thread_data(parser *ps, dt_process *proc)
{
    tk_dcfg_trace *t = ps->t;
    tk_status st = expect(ps, '[', "'[' opening THREAD_DATA");
    if (st != TK_OK) return st;
    if ((st = header_row(ps, "THREAD_DATA", thread_cols, 2)) != TK_OK) return st;
    proc->first_thread = t->nthreads;
    tk_hmap_clear(&ps->tids);
    for (;;) {
        tk_json_pos row_at;
        int m = next_row(ps, "THREAD_DATA", &row_at);
        if (m < 0) return (tk_status)m;
        if (m == 0) return TK_OK;
        uint64_t tid;
        int64_t tid_at = here(ps);
        if ((st = uint_value(ps, &tid, "THREAD_ID")) != TK_OK) return st;
        int fresh;
        if (!tk_hmap_slot(&ps->tids, tid, 0, &fresh)) return nomem(ps);
        if (!fresh)
            return tk_dt_error_at(t, ps->err, TK_ERR_FORMAT, tid_at,
                                  "thread %llu appears twice in process %llu",
                                  (unsigned long long)tid, (unsigned long long)proc->pid);
        if ((st = expect(ps, ',', "',' after THREAD_ID")) != TK_OK) return st;
        if (tk_vec_reserve_((void **)&t->threads, &t->cap_threads, t->nthreads + 1,
                            sizeof *t->threads))
            return nomem(ps);
        size_t ti = t->nthreads++;
        t->threads[ti].thread_id = tid;
        t->threads[ti].first_chunk = t->nchunks;
        t->threads[ti].offset = row_at.offset;
        proc->nthreads++;
        if ((st = parse_trace_data(ps)) != TK_OK) return st;
        t->threads[ti].nchunks = t->nchunks - t->threads[ti].first_chunk;
        if ((st = expect(ps, ']', "']' closing a THREAD_DATA row (2 cells)")) != TK_OK) return st;
    }
}

static const char *const process_cols[4] = {"PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE",
                                            "THREAD_DATA"};

static tk_status parse_processes(parser *ps)
{
    tk_dcfg_trace *t = ps->t;
    size_t cap = 0;
    tk_status st = expect(ps, '[', "'[' opening PROCESSES");
    if (st != TK_OK) return st;
    if ((st = header_row(ps, "PROCESSES", process_cols, 4)) != TK_OK) return st;
    for (;;) {
        tk_json_pos row_at;
        int m = next_row(ps, "PROCESSES", &row_at);
        if (m < 0) return (tk_status)m;
        if (m == 0) return TK_OK;
        if (tk_vec_reserve_((void **)&t->procs, &cap, t->nprocs + 1, sizeof *t->procs))
            return nomem(ps);
        dt_process *p = &t->procs[t->nprocs++];
        memset(p, 0, sizeof *p);
        p->offset = row_at.offset;
        int64_t pid_at = here(ps);
        if ((st = uint_value(ps, &p->pid, "PROCESS_ID")) != TK_OK) return st;
        int fresh;
        if (!tk_hmap_slot(&ps->pids, p->pid, 0, &fresh)) return nomem(ps);
        if (!fresh)
            return tk_dt_error_at(t, ps->err, TK_ERR_FORMAT, pid_at, "process %llu appears twice",
                                  (unsigned long long)p->pid);
        if ((st = expect(ps, ',', "',' after PROCESS_ID")) != TK_OK ||
            (st = parse_dictionary(ps, p)) != TK_OK || (st = check_dictionary(ps, p)) != TK_OK ||
            (st = expect(ps, ',', "',' after STRING_DICTIONARY")) != TK_OK ||
            (st = parse_transition_table(ps, p)) != TK_OK ||
            (st = expect(ps, ',', "',' after TRANSITION_TABLE")) != TK_OK ||
            (st = parse_thread_data(ps, p)) != TK_OK ||
            (st = expect(ps, ']', "']' closing a PROCESSES row (4 cells)")) != TK_OK)
            return st;
    }
}

static tk_status top_key(parser *ps, const char *want)
{
    int64_t at = here(ps);
    const char *s;
    size_t len;
    char what[96];
    snprintf(what, sizeof what, "the key \"%s\"", want);
    tk_status st = string_span(ps, &s, &len, NULL, what);
    if (st != TK_OK) return st;
    if (!span_is(s, len, want))
        return tk_dt_error_at(ps->t, ps->err, TK_ERR_FORMAT, at,
                              "expected the key \"%s\" (the top-level keys are MAJOR_VERSION, "
                              "MINOR_VERSION, PROCESSES in this order), found \"%.*s\"",
                              want, (int)(len > 60 ? 60 : len), s);
    return expect(ps, ':', "':' after a key");
}

tk_status tk_dt_parse(tk_dcfg_trace *t, tk_diag *diag, int fast, tk_error *err)
{
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.t = t;
    ps.err = err;
    ps.fast = fast;
    trace_prog_init(&ps.trace_prog);
    /* sequences are spans of the content, never copied: no string-size limit
     * (a chunk's sequence may be as long as the file) */
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_string = SIZE_MAX;
    tk_status st = tk_json_open_memory(&ps.j, t->data, t->len, t->path, &jo, err);
    if (st != TK_OK) return st;
    tk_json_set_fast(ps.j, fast); /* the tokenizer's fast paths go with the rows' */
    int64_t ver_at = -1;
    if ((st = expect(&ps, '{', "'{' (a DCFG-Trace is a JSON object)")) != TK_OK ||
        (st = top_key(&ps, "MAJOR_VERSION")) != TK_OK ||
        (ver_at = here(&ps), st = uint_value(&ps, &t->major, "MAJOR_VERSION")) != TK_OK ||
        (st = expect(&ps, ',', "',' after MAJOR_VERSION")) != TK_OK ||
        (st = top_key(&ps, "MINOR_VERSION")) != TK_OK ||
        (st = uint_value(&ps, &t->minor, "MINOR_VERSION")) != TK_OK ||
        (st = expect(&ps, ',', "',' after MINOR_VERSION")) != TK_OK ||
        (st = top_key(&ps, "PROCESSES")) != TK_OK || (st = parse_processes(&ps)) != TK_OK)
        goto out;
    if (peek(&ps) == ',') {
        st = tk_dt_error_at(t, err, TK_ERR_FORMAT, here(&ps),
                            "expected '}' after PROCESSES (no other top-level keys), found ','");
        goto out;
    }
    if ((st = expect(&ps, '}', "'}' closing the top-level object")) != TK_OK) goto out;
    if (peek(&ps) >= 0) {
        st = fail_here(&ps, "end of file after the top-level object");
        goto out;
    }
    mark_lines(t);
    if ((t->major != 1 || t->minor != 0) && diag) {
        uint64_t line, col;
        tk_dt_line_col(t, ver_at, &line, &col);
        tk_location loc = {t->path, ver_at, line, col};
        tk_diag_report(diag, TK_SEV_WARNING, &loc, "version %llu.%llu; tracekit reads version 1.0",
                       (unsigned long long)t->major, (unsigned long long)t->minor);
    }
out:
    tk_json_free(ps.j);
    tk_free(ps.pool);
    tk_hmap_free(&ps.pids);
    tk_hmap_free(&ps.tids);
    tk_free(ps.rows);
    return st;
}
