/* DCFG reader: one streaming pass of the JSON pull tokenizer into the cfg
 * model.  The format's nesting is fixed (at most ~12 levels), so the
 * functions below follow it; anything unknown is skipped with tk_json_skip. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fastpath.h"
#include "core/json.h"
#include "formats/dcfg/dcfg_internal.h"
#include "model/cfg_internal.h"
#include "tracekit/dcfg.h"

#define MAX_COLS 64

typedef struct reader {
    tk_json *j;
    tk_cfg *cfg;
    const char *path;
    tk_diag *diag;
    tk_error *err;
    uint64_t soft_errors;
    tk_json_token tok;
    /* capacities of the growing arrays */
    uint32_t cap_files, cap_types, cap_specials, cap_processes;
    uint32_t cap_images, cap_blocks, cap_symbols, cap_sources, cap_source_sizes, cap_edges,
        cap_routines, cap_loops, cap_pool, cap_counts, cap_block_locs, cap_edge_locs,
        cap_block_flags, cap_block_wide, cap_idoms, nidoms, cap_edge_counts;
    uint32_t edge_counts_at; /* token path: the pool size when the current edge row began */
    uint32_t rows; /* rows read by the fast path (to release the mapped input now and then) */
    int fast; /* the fast row path may be taken: 1 but in tk_dcfg_read_paths(..., 0, ...) */
    tk_cfg_process *p; /* current process */
    uint32_t image; /* current image index */
    uint32_t routine; /* current routine index */
} reader;

/* ---- errors ------------------------------------------------------------- */

static tk_cfg_loc loc_of(const tk_json_token *t)
{
    tk_cfg_loc l = {(uint32_t)(t->line > UINT32_MAX ? UINT32_MAX : t->line),
                    (uint32_t)(t->column > UINT32_MAX ? UINT32_MAX : t->column)};
    return l;
}

static tk_status fail(reader *r, const tk_json_token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static tk_status fail(reader *r, const tk_json_token *t, const char *fmt, ...)
{
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tk_json_fail(r->j, t, r->err, "%s", msg);
}

/* A problem that leaves the data usable: reported in check mode, fatal otherwise. */
static tk_status soft(reader *r, tk_severity sev, const tk_json_token *t, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static tk_status soft(reader *r, tk_severity sev, const tk_json_token *t, const char *fmt, ...)
{
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->diag) {
        tk_location l = {r->path, t->offset, t->line, t->column};
        tk_diag_report(r->diag, sev, &l, "%s", msg);
        if (sev == TK_SEV_ERROR) r->soft_errors++;
        return TK_OK;
    }
    if (sev != TK_SEV_ERROR) return TK_OK;
    return tk_json_fail(r->j, t, r->err, "%s", msg);
}

static tk_status nomem(reader *r) { return tk_error_set(r->err, TK_ERR_NOMEM, "out of memory"); }

#define TRY(x) \
    do { \
        tk_status st_ = (x); \
        if (st_ != TK_OK) return st_; \
    } while (0)

/* tk_cfg_grow with the usual case (room left) inline. */
static inline int room(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    return need <= *cap || tk_cfg_grow(arr, cap, need, elem);
}

#define GROW(arr, n, cap) \
    do { \
        if (!room((void **)&(arr), &(cap), (n) + 1, sizeof *(arr))) return nomem(r); \
    } while (0)

static tk_status next(reader *r)
{
    tk_status st = tk_json_next(r->j, &r->tok, r->err);
    if (st == TK_END) return fail(r, &r->tok, "unexpected end of the JSON text");
    return st;
}

static tk_status skip_value(reader *r) { return tk_json_skip(r->j, &r->tok, r->err); }

static tk_status expect(reader *r, tk_json_type t, const char *what)
{
    if (r->tok.type != t)
        return fail(r, &r->tok, "expected %s, found %s", what, tk_json_type_name(r->tok.type));
    return TK_OK;
}

/* ---- scalar values ------------------------------------------------------ */

/* An integer: JSON integer, hex/decimal string, or an integral float (Intel
 * accepts those; a warning in check mode). */
static tk_status read_u64(reader *r, const char *what, uint64_t *out)
{
    tk_json_token *t = &r->tok;
    if (t->type == TK_JSON_NUMBER || t->type == TK_JSON_STRING) {
        if (t->type == TK_JSON_NUMBER && t->negative)
            return fail(r, t, "%s: expected a non-negative integer, found %.*s", what,
                        (int)(t->len > 40 ? 40 : t->len), t->str);
        tk_status st = tk_json_token_u64(t, out);
        if (st == TK_OK) return TK_OK;
        if (st == TK_ERR_LIMIT) return fail(r, t, "%s: integer does not fit in 64 bits", what);
        if (t->type == TK_JSON_NUMBER && t->d >= 0 && t->d < 18446744073709551616.0 &&
            floor(t->d) == t->d) {
            *out = (uint64_t)t->d;
            return soft(r, TK_SEV_WARNING, t, "%s: integer written as a float (%.*s)", what,
                        (int)(t->len > 40 ? 40 : t->len), t->str);
        }
        if (t->type == TK_JSON_STRING)
            return fail(r, t, "%s: expected an integer, found the string \"%.*s\"", what,
                        (int)(t->len > 40 ? 40 : t->len), t->str);
        return fail(r, t, "%s: expected a non-negative integer, found %.*s", what,
                    (int)(t->len > 40 ? 40 : t->len), t->str);
    }
    return fail(r, t, "%s: expected an integer, found %s", what, tk_json_type_name(t->type));
}

static tk_status read_u32(reader *r, const char *what, uint32_t *out)
{
    uint64_t v;
    TRY(read_u64(r, what, &v));
    if (v > UINT32_MAX)
        return fail(r, &r->tok, "%s: %llu does not fit in 32 bits", what, (unsigned long long)v);
    *out = (uint32_t)v;
    return TK_OK;
}

/* An id of section 1.2.3: 1 .. 0x7fffffff (0 allowed when zero_ok). */
static tk_status read_id(reader *r, const char *what, int zero_ok, uint32_t *out)
{
    TRY(read_u32(r, what, out));
    if (*out == 0 && !zero_ok) return soft(r, TK_SEV_ERROR, &r->tok, "%s: id 0 is reserved", what);
    if (*out > 0x7fffffffu)
        return soft(r, TK_SEV_WARNING, &r->tok, "%s: id %u is above 0x7fffffff (reserved)", what,
                    *out);
    return TK_OK;
}

static tk_status read_string(reader *r, const char *what, uint32_t *out)
{
    if (r->tok.type != TK_JSON_STRING)
        return fail(r, &r->tok, "%s: expected a string, found %s", what,
                    tk_json_type_name(r->tok.type));
    *out = tk_cfg_add_string(r->cfg, r->tok.str, r->tok.len);
    if (*out == UINT32_MAX) return nomem(r);
    return TK_OK;
}

/* An array of ids appended to the process pool at (*off, *n). */
static tk_status read_id_list(reader *r, const char *what, uint32_t *off, uint32_t *n)
{
    tk_cfg_process *p = r->p;
    TRY(expect(r, TK_JSON_ARRAY_BEGIN, "an array of node ids"));
    *off = p->npool;
    *n = 0;
    for (;;) {
        TRY(next(r));
        if (r->tok.type == TK_JSON_ARRAY_END) return TK_OK;
        uint32_t id;
        TRY(read_id(r, what, 0, &id));
        GROW(p->pool, p->npool, r->cap_pool);
        p->pool[p->npool++] = id;
        (*n)++;
    }
}

/* ---- tables --------------------------------------------------------------- */

/* Usual values of a column for the fast row path (tk_json_scan_row). */
typedef struct col_usual {
    uint64_t lo, hi; /* scalars, or every element of an array column */
    uint8_t is_array;
} col_usual;

#define U_ID \
    { \
        1, 0x7fffffffu, 0 \
    } /* ids: 0 and ids above 0x7fffffff are unusual */
#define U_ID0 \
    { \
        0, 0x7fffffffu, 0 \
    } /* ids that may be 0 */
#define U_U32 \
    { \
        0, UINT32_MAX, 0 \
    }
#define U_U64 \
    { \
        0, UINT64_MAX, 0 \
    }
#define U_IDS \
    { \
        1, 0x7fffffffu, 1 \
    } /* an array of ids */
#define U_COUNTS \
    { \
        0, UINT64_MAX, 1 \
    } /* an array of counts */

typedef struct table_spec {
    const char *name;
    const char *const *cols;
    int ncols;
    unsigned required; /* bit mask of columns that every row must have */
    const col_usual *usual; /* per column, for tables read with a fast path */
} table_spec;

typedef struct table_state {
    int map[MAX_COLS]; /* header cell -> column, -1 unknown */
    int nheader;
    unsigned present; /* columns in the header */
    /* fast path (spec->usual): the compiled row and, for a row of n cells,
     * the columns it has (upto[n]) */
    int fast_ok;
    tk_json_row_prog prog;
    unsigned upto[TK_JSON_ROW_MAX_CELLS + 1];
} table_state;

/* Compiles the header into the row program of tk_json_scan_row (a fast
 * path, core/fastpath.h: its general twin is the token path of table_rows). */
static void compile_row(const reader *r, const table_spec *spec, table_state *ts)
{
    ts->fast_ok = TK_FAST_PATHS && r->fast && spec->usual && ts->nheader <= TK_JSON_ROW_MAX_CELLS;
    if (!ts->fast_ok) return;
    tk_json_row_prog *pg = &ts->prog;
    pg->ncells = ts->nheader;
    pg->min_cells = 0;
    unsigned m = 0;
    ts->upto[0] = 0;
    for (int i = 0; i < ts->nheader; i++) {
        int col = ts->map[i];
        if (col < 0) {
            pg->slot[i] = TK_JSON_SLOT_IGNORE;
            pg->is_array[i] = 0;
            pg->lo[i] = 0;
            pg->hi[i] = UINT64_MAX;
        } else {
            pg->slot[i] = (uint8_t)col;
            pg->is_array[i] = spec->usual[col].is_array;
            pg->lo[i] = spec->usual[col].lo;
            pg->hi[i] = spec->usual[col].hi;
            m |= 1u << col;
            if (spec->required & (1u << col)) pg->min_cells = i + 1;
        }
        ts->upto[i + 1] = m;
    }
}

/* Called at the current token = ARRAY_BEGIN of the table: reads the header.
 * Returns TK_END when the table is empty ("[]"). */
static tk_status table_header(reader *r, const table_spec *spec, table_state *ts)
{
    if (r->tok.type != TK_JSON_ARRAY_BEGIN)
        return fail(r, &r->tok,
                    "%s: expected a table (an array whose first row is a header), found %s",
                    spec->name, tk_json_type_name(r->tok.type));
    TRY(next(r));
    if (r->tok.type == TK_JSON_ARRAY_END) return TK_END;
    if (r->tok.type != TK_JSON_ARRAY_BEGIN)
        return fail(r, &r->tok, "%s: expected the header row (an array of column names), found %s",
                    spec->name, tk_json_type_name(r->tok.type));
    ts->nheader = 0;
    ts->present = 0;
    tk_json_token first = r->tok;
    for (;;) {
        TRY(next(r));
        if (r->tok.type == TK_JSON_ARRAY_END) break;
        if (r->tok.type != TK_JSON_STRING)
            return fail(r, &r->tok, "%s: header cells must be strings, found %s", spec->name,
                        tk_json_type_name(r->tok.type));
        int col = -1;
        for (int k = 0; k < spec->ncols; k++)
            if (strlen(spec->cols[k]) == r->tok.len &&
                memcmp(spec->cols[k], r->tok.str, r->tok.len) == 0)
                col = k;
        if (col >= 0) {
            if (ts->present & (1u << col))
                return fail(r, &r->tok, "%s: duplicate column %s", spec->name, spec->cols[col]);
            ts->present |= 1u << col;
        }
        if (ts->nheader < MAX_COLS) ts->map[ts->nheader] = col;
        ts->nheader++;
    }
    unsigned missing = spec->required & ~ts->present;
    if (missing) {
        for (int k = 0; k < spec->ncols; k++)
            if (missing & (1u << k))
                return fail(r, &first, "%s: the header has no %s column", spec->name,
                            spec->cols[k]);
    }
    compile_row(r, spec, ts);
    return TK_OK;
}

typedef tk_status (*cell_fn)(reader *r, void *ctx, int col);
typedef tk_status (*row_fn)(reader *r, void *ctx, const tk_json_token *row);
typedef tk_status (*row_end_fn)(reader *r, void *ctx, const tk_json_token *row, unsigned cells);

/* The fast path: a usual row scanned by tk_json_scan_row with the table's
 * compiled row (every cell of the right kind and in its column's usual range,
 * the required cells present), handled without per-cell dispatch: row->v and
 * row->n by column, cells = the columns the row has.  Returns 0 to decline
 * (nothing consumed; the row is then read token by token, which reports what
 * is unusual). */
typedef int (*fast_fn)(reader *r, const table_state *ts, const tk_json_row_out *row, unsigned cells,
                       tk_status *st);

/* The row's '[' as a token, for the row_fn helpers (location only). */
static inline tk_json_token row_token(const tk_json_row_out *row)
{
    tk_json_token t;
    t.type = TK_JSON_ARRAY_BEGIN;
    t.line = row->line;
    t.column = row->column;
    t.offset = row->offset;
    return t;
}

/* Reads the rows of a table whose header was read. */
/* Inlined into each caller, so that the fast path of each table is compiled
 * with its handler inline. */
static inline __attribute__((always_inline)) tk_status table_rows(reader *r, const table_spec *spec,
                                                                  const table_state *ts, void *ctx,
                                                                  row_fn begin, cell_fn cell,
                                                                  row_end_fn end, fast_fn fast)
{
    tk_json_row_out row_buf;
    if (!ts->fast_ok) fast = NULL;
    for (;;) {
        int nc;
        if (fast && (nc = tk_json_scan_row(r->j, &ts->prog, &row_buf)) >= 0) {
            tk_status fst = TK_OK;
            if (fast(r, ts, &row_buf, ts->upto[nc], &fst)) {
                if (fst != TK_OK) return fst;
                tk_json_take_scanned(r->j, &row_buf);
                if ((++r->rows & 0x3fff) == 0) tk_json_release_consumed(r->j);
                continue;
            }
        }
        TRY(next(r));
        if (r->tok.type == TK_JSON_ARRAY_END) return TK_OK;
        if (r->tok.type != TK_JSON_ARRAY_BEGIN)
            return fail(r, &r->tok, "%s: expected a row (an array), found %s", spec->name,
                        tk_json_type_name(r->tok.type));
        tk_json_token row = r->tok;
        if (begin) TRY(begin(r, ctx, &row));
        unsigned cells = 0;
        int i = 0;
        for (;; i++) {
            TRY(next(r));
            if (r->tok.type == TK_JSON_ARRAY_END) break;
            int col = i < ts->nheader && i < MAX_COLS ? ts->map[i] : -1;
            if (i >= ts->nheader)
                TRY(soft(r, TK_SEV_WARNING, &r->tok, "%s: row has more cells than the header (%d)",
                         spec->name, ts->nheader));
            if (col < 0) {
                TRY(skip_value(r));
                continue;
            }
            cells |= 1u << col;
            TRY(cell(r, ctx, col));
        }
        unsigned missing = spec->required & ~cells;
        if (missing) {
            for (int k = 0; k < spec->ncols; k++)
                if (missing & (1u << k))
                    return fail(r, &row, "%s: row has no %s cell", spec->name, spec->cols[k]);
        }
        if (end) TRY(end(r, ctx, &row, cells));
    }
}

static inline __attribute__((always_inline)) tk_status
read_table_fast(reader *r, const table_spec *spec, void *ctx, row_fn begin, cell_fn cell,
                row_end_fn end, table_state *ts_out, fast_fn fast)
{
    table_state ts;
    tk_status st = table_header(r, spec, &ts);
    if (ts_out) *ts_out = st == TK_END ? (table_state){.nheader = 0} : ts;
    if (st == TK_END) return TK_OK;
    TRY(st);
    return table_rows(r, spec, &ts, ctx, begin, cell, end, fast);
}

static tk_status read_table(reader *r, const table_spec *spec, void *ctx, row_fn begin,
                            cell_fn cell, row_end_fn end, table_state *ts_out)
{
    table_state ts;
    tk_status st = table_header(r, spec, &ts);
    if (ts_out) *ts_out = st == TK_END ? (table_state){.nheader = 0} : ts;
    if (st == TK_END) return TK_OK;
    TRY(st);
    return table_rows(r, spec, &ts, ctx, begin, cell, end, NULL);
}

/* ---- objects -------------------------------------------------------------- */

typedef tk_status (*key_fn)(reader *r, void *ctx, int key);

/* Reads an object at the current OBJECT_BEGIN; each known key's value is
 * handed to fn (current token = first token of the value). Duplicate known
 * keys are errors; unknown keys are skipped. */
static tk_status read_object(reader *r, const char *what, const char *const *keys, int nkeys,
                             void *ctx, key_fn fn)
{
    TRY(expect(r, TK_JSON_OBJECT_BEGIN, "an object"));
    unsigned seen = 0;
    for (;;) {
        TRY(next(r));
        if (r->tok.type == TK_JSON_OBJECT_END) return TK_OK;
        int key = -1;
        for (int k = 0; k < nkeys; k++)
            if (strlen(keys[k]) == r->tok.len && memcmp(keys[k], r->tok.str, r->tok.len) == 0)
                key = k;
        if (key >= 0 && (seen & (1u << key)))
            return fail(r, &r->tok, "%s: duplicate key %s", what, keys[key]);
        if (key >= 0) seen |= 1u << key;
        TRY(next(r));
        if (key < 0) {
            TRY(skip_value(r));
            continue;
        }
        TRY(fn(r, ctx, key));
    }
}

/* ---- top-level tables ------------------------------------------------------- */

static const char *const file_cols[] = {"FILE_NAME_ID", "FILE_NAME"};
static const table_spec file_spec = {"FILE_NAMES", file_cols, 2, 3, NULL};

static tk_status file_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    GROW(r->cfg->file_names, r->cfg->nfile_names, r->cap_files);
    tk_cfg_file *f = &r->cfg->file_names[r->cfg->nfile_names++];
    memset(f, 0, sizeof *f);
    f->loc = loc_of(row);
    return TK_OK;
}

static tk_status file_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_file *f = &r->cfg->file_names[r->cfg->nfile_names - 1];
    if (col == 0) return read_id(r, "FILE_NAME_ID", 0, &f->id);
    return read_string(r, "FILE_NAME", &f->name);
}

static const char *const type_cols[] = {"EDGE_TYPE_ID", "EDGE_TYPE"};
static const table_spec type_spec = {"EDGE_TYPES", type_cols, 2, 3, NULL};

static tk_status type_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    GROW(r->cfg->edge_types, r->cfg->nedge_types, r->cap_types);
    tk_cfg_edge_type *t = &r->cfg->edge_types[r->cfg->nedge_types++];
    memset(t, 0, sizeof *t);
    t->loc = loc_of(row);
    return TK_OK;
}

static tk_status type_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_edge_type *t = &r->cfg->edge_types[r->cfg->nedge_types - 1];
    if (col == 0) return read_id(r, "EDGE_TYPE_ID", 0, &t->id);
    TRY(read_string(r, "EDGE_TYPE", &t->name));
    t->kind = tk_edge_kind_from_name(r->tok.str, r->tok.len);
    if (t->kind == TK_EDGE_OTHER)
        return soft(r, TK_SEV_WARNING, &r->tok, "EDGE_TYPE: \"%.*s\" is not a type of the spec",
                    (int)(r->tok.len > 60 ? 60 : r->tok.len), r->tok.str);
    return TK_OK;
}

static const char *const special_cols[] = {"NODE_ID", "NODE_NAME"};
static const table_spec special_spec = {"SPECIAL_NODES", special_cols, 2, 3, NULL};

static tk_status special_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    GROW(r->cfg->specials, r->cfg->nspecials, r->cap_specials);
    tk_cfg_special *s = &r->cfg->specials[r->cfg->nspecials++];
    memset(s, 0, sizeof *s);
    s->loc = loc_of(row);
    return TK_OK;
}

static tk_status special_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_special *s = &r->cfg->specials[r->cfg->nspecials - 1];
    if (col == 0) return read_id(r, "NODE_ID", 0, &s->id);
    TRY(read_string(r, "NODE_NAME", &s->name));
    const char *n = r->tok.str;
    size_t len = r->tok.len;
    s->kind = len == 5 && !memcmp(n, "START", 5)     ? TK_SPECIAL_START
              : len == 3 && !memcmp(n, "END", 3)     ? TK_SPECIAL_END
              : len == 7 && !memcmp(n, "UNKNOWN", 7) ? TK_SPECIAL_UNKNOWN
                                                     : TK_SPECIAL_OTHER;
    if (s->kind == TK_SPECIAL_OTHER)
        return soft(r, TK_SEV_WARNING, &r->tok,
                    "NODE_NAME: \"%.*s\" is not a special node of the spec",
                    (int)(len > 60 ? 60 : len), n);
    return TK_OK;
}

/* ---- image data ------------------------------------------------------------- */

static const char *const symbol_cols[] = {"NAME", "ADDR_OFFSET", "SIZE"};
static const table_spec symbol_spec = {"SYMBOLS", symbol_cols, 3, 3, NULL};

static tk_status symbol_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    (void)row;
    tk_cfg_process *p = r->p;
    GROW(p->symbols, p->nsymbols, r->cap_symbols);
    tk_cfg_symbol *s = &p->symbols[p->nsymbols++];
    memset(s, 0, sizeof *s);
    s->image = r->image;
    p->images[r->image].nsymbols++;
    return TK_OK;
}

static tk_status symbol_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_symbol *s = &r->p->symbols[r->p->nsymbols - 1];
    switch (col) {
    case 0: return read_string(r, "NAME", &s->name);
    case 1: return read_u64(r, "ADDR_OFFSET", &s->addr_offset);
    default: return read_u64(r, "SIZE", &s->size);
    }
}

static const char *const source_cols[] = {"FILE_NAME_ID", "LINE_NUM", "ADDR_OFFSET", "SIZE",
                                          "NUM_INSTRS"};
static const col_usual source_usual[] = {U_ID, U_U32, U_U64, U_U64, U_U32};
static const table_spec source_spec = {"SOURCE_DATA", source_cols, 5, 0x7, source_usual};

static tk_status source_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    (void)row;
    tk_cfg_process *p = r->p;
    GROW(p->sources, p->nsources, r->cap_sources);
    if (p->source_sizes) {
        GROW(p->source_sizes, p->nsources, r->cap_source_sizes);
        p->source_sizes[p->nsources] = 0;
    }
    tk_cfg_source *s = &p->sources[p->nsources++];
    memset(s, 0, sizeof *s);
    p->images[r->image].nsources++;
    return TK_OK;
}

/* SIZE of the last source line: in the line while every SIZE of the process
 * fits 32 bits, else all of them in p->source_sizes.  0 on out-of-memory. */
static int source_set_size(reader *r, uint64_t v)
{
    tk_cfg_process *p = r->p;
    uint32_t i = p->nsources - 1;
    if (!p->source_sizes && v <= UINT32_MAX) {
        p->sources[i].size32 = (uint32_t)v;
        return 1;
    }
    if (!p->source_sizes) {
        if (!room((void **)&p->source_sizes, &r->cap_source_sizes, p->nsources,
                  sizeof *p->source_sizes))
            return 0;
        for (uint32_t k = 0; k < p->nsources; k++) p->source_sizes[k] = p->sources[k].size32;
    }
    p->source_sizes[i] = v;
    return 1;
}

static tk_status source_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_source *s = &r->p->sources[r->p->nsources - 1];
    switch (col) {
    case 0: return read_id(r, "FILE_NAME_ID", 0, &s->file_name_id);
    case 1: return read_u32(r, "LINE_NUM", &s->line_num);
    case 2: return read_u64(r, "ADDR_OFFSET", &s->addr_offset);
    case 3: {
        uint64_t v = 0;
        TRY(read_u64(r, "SIZE", &v));
        return source_set_size(r, v) ? TK_OK : nomem(r);
    }
    default: return read_u32(r, "NUM_INSTRS", &s->num_instrs);
    }
}

static const char *const block_cols[] = {"NODE_ID",    "ADDR_OFFSET",       "SIZE",
                                         "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"};
static const col_usual block_usual[] = {U_ID, U_U64, U_U32, U_U32, U_U32, U_U64};
static const table_spec block_spec = {"BASIC_BLOCKS", block_cols, 6, 0x1 | 0x2 | 0x8, block_usual};

/* SIZE (which 0) or LAST_INSTR_OFFSET (which 1) of the last block: 16 bits
 * in the block while every value of the process fits, else all of them in
 * p->block_wide.  0 on out-of-memory. */
static int block_set_wide(reader *r, int which, uint32_t v)
{
    tk_cfg_process *p = r->p;
    uint32_t b = p->nblocks - 1;
    if (!p->block_wide && v <= UINT16_MAX) {
        if (which)
            p->blocks[b].last16 = (uint16_t)v;
        else
            p->blocks[b].size16 = (uint16_t)v;
        return 1;
    }
    if (!p->block_wide) {
        if (!room((void **)&p->block_wide, &r->cap_block_wide, p->nblocks,
                  2 * sizeof *p->block_wide))
            return 0;
        for (uint32_t k = 0; k < p->nblocks; k++) {
            p->block_wide[2 * (size_t)k] = p->blocks[k].size16;
            p->block_wide[2 * (size_t)k + 1] = p->blocks[k].last16;
        }
    }
    p->block_wide[2 * (size_t)b + which] = v;
    return 1;
}

static tk_status block_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    tk_cfg_process *p = r->p;
    GROW(p->blocks, p->nblocks, r->cap_blocks);
    if (!room((void **)&p->block_flags, &r->cap_block_flags, p->nblocks + 1, 1)) return nomem(r);
    if (p->block_wide) {
        if (!room((void **)&p->block_wide, &r->cap_block_wide, p->nblocks + 1,
                  2 * sizeof *p->block_wide))
            return nomem(r);
        p->block_wide[2 * (size_t)p->nblocks] = p->block_wide[2 * (size_t)p->nblocks + 1] = 0;
    }
    p->block_flags[p->nblocks] = 0;
    tk_cfg_block *b = &p->blocks[p->nblocks++];
    memset(b, 0, sizeof *b);
    if (r->diag) {
        if (!room((void **)&p->block_locs, &r->cap_block_locs, p->nblocks, sizeof *p->block_locs))
            return nomem(r);
        p->block_locs[p->nblocks - 1] = loc_of(row);
    }
    p->images[r->image].nblocks++;
    return TK_OK;
}

static tk_status block_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_block *b = &r->p->blocks[r->p->nblocks - 1];
    switch (col) {
    case 0: return read_id(r, "NODE_ID", 0, &b->id);
    case 1: return read_u64(r, "ADDR_OFFSET", &b->addr_offset);
    case 2:
    case 4: {
        uint32_t v = 0;
        TRY(read_u32(r, col == 2 ? "SIZE" : "LAST_INSTR_OFFSET", &v));
        return block_set_wide(r, col == 4, v) ? TK_OK : nomem(r);
    }
    case 3: return read_u32(r, "NUM_INSTRS", &b->num_instrs);
    default:
        r->p->block_flags[r->p->nblocks - 1] = TK_CFG_BLOCK_HAS_COUNT;
        return read_u64(r, "COUNT", &b->count);
    }
}

static int block_fast(reader *r, const table_state *ts, const tk_json_row_out *row, unsigned c,
                      tk_status *st)
{
    (void)ts;
    tk_cfg_process *p = r->p;
    uint64_t size = (c & 0x4) ? row->v[2] : 0, last = (c & 0x10) ? row->v[4] : 0;
    if (!r->diag && p->nblocks < r->cap_blocks && p->nblocks < r->cap_block_flags &&
        !p->block_wide && (size | last) <= UINT16_MAX) {
        /* the usual row: room left, no row locations kept, small SIZE and
         * LAST_INSTR_OFFSET */
        tk_cfg_block *b = &p->blocks[p->nblocks];
        b->id = (uint32_t)row->v[0];
        b->routine = b->loop = b->idom = 0;
        b->num_instrs = (uint32_t)row->v[3];
        b->size16 = (uint16_t)size;
        b->last16 = (uint16_t)last;
        b->addr_offset = row->v[1];
        b->count = (c & 0x20) ? row->v[5] : 0;
        p->block_flags[p->nblocks++] = (c & 0x20) ? TK_CFG_BLOCK_HAS_COUNT : 0;
        p->images[r->image].nblocks++;
        return 1;
    }
    tk_json_token t = row_token(row);
    *st = block_begin(r, NULL, &t);
    if (*st != TK_OK) return 1;
    tk_cfg_block *b = &r->p->blocks[r->p->nblocks - 1];
    b->id = (uint32_t)row->v[0];
    b->addr_offset = row->v[1];
    b->num_instrs = (uint32_t)row->v[3];
    if (((c & 0x4) && !block_set_wide(r, 0, (uint32_t)size)) ||
        ((c & 0x10) && !block_set_wide(r, 1, (uint32_t)last)))
        *st = nomem(r);
    if (c & 0x20) {
        r->p->block_flags[r->p->nblocks - 1] = TK_CFG_BLOCK_HAS_COUNT;
        b->count = row->v[5];
    }
    return 1;
}

static int source_fast(reader *r, const table_state *ts, const tk_json_row_out *row, unsigned c,
                       tk_status *st)
{
    (void)ts;
    tk_cfg_process *p = r->p;
    uint64_t size = (c & 0x8) ? row->v[3] : 0;
    if (p->nsources < r->cap_sources && !p->source_sizes && size <= UINT32_MAX) {
        /* the usual row: room left, SIZE of 32 bits */
        tk_cfg_source *s = &p->sources[p->nsources++];
        s->file_name_id = (uint32_t)row->v[0];
        s->line_num = (uint32_t)row->v[1];
        s->num_instrs = (c & 0x10) ? (uint32_t)row->v[4] : 0;
        s->size32 = (uint32_t)size;
        s->addr_offset = row->v[2];
        p->images[r->image].nsources++;
        return 1;
    }
    tk_json_token t = row_token(row);
    *st = source_begin(r, NULL, &t);
    if (*st != TK_OK) return 1;
    tk_cfg_source *s = &r->p->sources[r->p->nsources - 1];
    s->file_name_id = (uint32_t)row->v[0];
    s->line_num = (uint32_t)row->v[1];
    s->addr_offset = row->v[2];
    if (c & 0x10) s->num_instrs = (uint32_t)row->v[4];
    if ((c & 0x8) && !source_set_size(r, size)) *st = nomem(r);
    return 1;
}

/* routines */
static const char *const node_cols[] = {"NODE_ID", "IDOM_NODE_ID"};
static const col_usual node_usual[] = {U_ID, U_ID};
static const table_spec node_spec = {"NODES", node_cols, 2, 1, node_usual};

static tk_status node_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    (void)row;
    tk_cfg_process *p = r->p;
    if (!room((void **)&p->pool, &r->cap_pool, p->npool + 1, sizeof *p->pool) ||
        !room((void **)&p->node_idom_ids, &r->cap_idoms, r->nidoms + 1, sizeof *p->node_idom_ids))
        return nomem(r);
    p->pool[p->npool++] = 0;
    p->node_idom_ids[r->nidoms++] = 0;
    p->routines[r->routine].nnodes++;
    return TK_OK;
}

static tk_status node_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    if (col == 0) return read_id(r, "NODE_ID", 0, &r->p->pool[r->p->npool - 1]);
    return read_id(r, "IDOM_NODE_ID", 0, &r->p->node_idom_ids[r->nidoms - 1]);
}

static int node_fast(reader *r, const table_state *ts, const tk_json_row_out *row, unsigned c,
                     tk_status *st)
{
    (void)ts;
    tk_cfg_process *p = r->p;
    if (p->npool < r->cap_pool && r->nidoms < r->cap_idoms) { /* the usual row: room left */
        p->pool[p->npool++] = (uint32_t)row->v[0];
        p->node_idom_ids[r->nidoms++] = (c & 0x2) ? (uint32_t)row->v[1] : 0;
        p->routines[r->routine].nnodes++;
        return 1;
    }
    tk_json_token t = row_token(row);
    *st = node_begin(r, NULL, &t);
    if (*st != TK_OK) return 1;
    r->p->pool[r->p->npool - 1] = (uint32_t)row->v[0];
    if (c & 0x2) r->p->node_idom_ids[r->nidoms - 1] = (uint32_t)row->v[1];
    return 1;
}

static const char *const loop_cols[] = {"LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS",
                                        "LOOP_NODE_IDS", "PARENT_LOOP_HEAD_NODE_ID"};
static const col_usual loop_usual[] = {U_ID, U_IDS, U_IDS, U_ID0};
static const table_spec loop_spec = {"LOOPS", loop_cols, 4, 0x7, loop_usual};

static tk_status loop_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    tk_cfg_process *p = r->p;
    GROW(p->loops, p->nloops, r->cap_loops);
    tk_cfg_routine *ro = &p->routines[r->routine];
    if (!ro->nloops) ro->first_loop = p->nloops;
    ro->nloops++;
    tk_cfg_loop *l = &p->loops[p->nloops++];
    memset(l, 0, sizeof *l);
    l->routine = r->routine;
    l->loc = loc_of(row);
    return TK_OK;
}

static tk_status loop_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_loop *l = &r->p->loops[r->p->nloops - 1];
    switch (col) {
    case 0: return read_id(r, "LOOP_HEAD_NODE_ID", 0, &l->head);
    case 1: return read_id_list(r, "LOOP_BACK_EDGE_SOURCE_NODE_IDS", &l->back_srcs, &l->nback_srcs);
    case 2: return read_id_list(r, "LOOP_NODE_IDS", &l->nodes, &l->nnodes);
    default: return read_id(r, "PARENT_LOOP_HEAD_NODE_ID", 1, &l->parent);
    }
}

static int pool_append(reader *r, const tk_json_row_out *row, uint64_t first, uint32_t n,
                       uint32_t *off, uint32_t *cnt)
{
    tk_cfg_process *p = r->p;
    if (!room((void **)&p->pool, &r->cap_pool, p->npool + n, sizeof *p->pool)) return 0;
    *off = p->npool;
    *cnt = n;
    for (uint32_t i = 0; i < n; i++) p->pool[p->npool++] = (uint32_t)row->vals[first + i];
    return 1;
}

static int loop_fast(reader *r, const table_state *ts, const tk_json_row_out *row, unsigned c,
                     tk_status *st)
{
    tk_json_token t = row_token(row);
    *st = loop_begin(r, NULL, &t);
    if (*st != TK_OK) return 1;
    tk_cfg_loop *l = &r->p->loops[r->p->nloops - 1];
    l->head = (uint32_t)row->v[0];
    if (c & 0x8) l->parent = (uint32_t)row->v[3];
    /* in cell order, like the token reader */
    int a = 1;
    for (int i = 0; i < ts->nheader; i++)
        if (ts->map[i] == 1 || ts->map[i] == 2) {
            a = ts->map[i];
            break;
        }
    int b = 3 - a;
    uint32_t *off[3] = {NULL, &l->back_srcs, &l->nodes},
             *cnt[3] = {NULL, &l->nback_srcs, &l->nnodes};
    if (!pool_append(r, row, row->v[a], row->n[a], off[a], cnt[a]) ||
        !pool_append(r, row, row->v[b], row->n[b], off[b], cnt[b]))
        *st = nomem(r);
    return 1;
}

static const char *const routine_cols[] = {"ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"};
static const table_spec routine_spec = {"ROUTINES", routine_cols, 4, 0x1 | 0x4, NULL};

static tk_status routine_begin(reader *r, void *ctx, const tk_json_token *row)
{
    const table_state *ts = ctx;
    tk_cfg_process *p = r->p;
    GROW(p->routines, p->nroutines, r->cap_routines);
    r->routine = p->nroutines;
    tk_cfg_routine *ro = &p->routines[p->nroutines++];
    memset(ro, 0, sizeof *ro);
    ro->image = r->image;
    ro->loc = loc_of(row);
    if (ts->present & 0x8) ro->flags |= TK_CFG_ROUTINE_HAS_LOOPS;
    p->images[r->image].nroutines++;
    return TK_OK;
}

static tk_status routine_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_routine *ro = &r->p->routines[r->routine];
    switch (col) {
    case 0: return read_id(r, "ENTRY_NODE_ID", 0, &ro->entry);
    case 1: return read_id_list(r, "EXIT_NODE_IDS", &ro->exits, &ro->nexits);
    case 2: {
        table_state ts;
        ro->nodes = r->p->npool;
        ro->nnodes = 0;
        TRY(read_table_fast(r, &node_spec, NULL, node_begin, node_cell, NULL, &ts, node_fast));
        ro = &r->p->routines[r->routine];
        if (ts.present & 2) ro->flags |= TK_CFG_ROUTINE_HAS_IDOMS;
        return TK_OK;
    }
    default:
        return read_table_fast(r, &loop_spec, NULL, loop_begin, loop_cell, NULL, NULL, loop_fast);
    }
}

static const char *const image_keys[] = {"FILE_NAME_ID", "SYMBOLS", "SOURCE_DATA", "BASIC_BLOCKS",
                                         "ROUTINES"};

/* Cut a growing array to its n elements (at least one) when its table ends:
 * the next table then grows without the slack of this one resident (a
 * growing block is mapped in huge pages, and the page where the filling
 * stopped is resident whole).  The array grows again by doubling from n. */
static void trim_to(void **arr, uint32_t *cap, uint32_t n, size_t elem)
{
    if (!*arr || *cap <= n) return;
    void *t = tk_realloc(*arr, elem * (n ? n : 1));
    if (!t) return;
    *arr = t;
    *cap = n ? n : 1;
}
#define TRIM_TO(arr, cap, n) trim_to((void **)&(arr), &(cap), (n), sizeof *(arr))

static tk_status trim_blocks(reader *r, tk_status st)
{
    tk_cfg_process *p = r->p;
    TRIM_TO(p->blocks, r->cap_blocks, p->nblocks);
    TRIM_TO(p->block_flags, r->cap_block_flags, p->nblocks);
    TRIM_TO(p->block_locs, r->cap_block_locs, p->nblocks);
    trim_to((void **)&p->block_wide, &r->cap_block_wide, p->nblocks, 2 * sizeof *p->block_wide);
    return st;
}

static tk_status trim_sources(reader *r, tk_status st)
{
    tk_cfg_process *p = r->p;
    TRIM_TO(p->sources, r->cap_sources, p->nsources);
    TRIM_TO(p->source_sizes, r->cap_source_sizes, p->nsources);
    return st;
}

static tk_status trim_routines(reader *r, tk_status st)
{
    tk_cfg_process *p = r->p;
    TRIM_TO(p->routines, r->cap_routines, p->nroutines);
    TRIM_TO(p->loops, r->cap_loops, p->nloops);
    TRIM_TO(p->pool, r->cap_pool, p->npool);
    TRIM_TO(p->node_idom_ids, r->cap_idoms, r->nidoms);
    return st;
}

static tk_status image_key(reader *r, void *ctx, int key)
{
    (void)ctx;
    tk_cfg_process *p = r->p;
    tk_cfg_image *im = &p->images[r->image];
    switch (key) {
    case 0: return read_id(r, "FILE_NAME_ID", 0, &im->file_name_id);
    case 1:
        im->first_symbol = p->nsymbols;
        return read_table(r, &symbol_spec, NULL, symbol_begin, symbol_cell, NULL, NULL);
    case 2:
        im->first_source = p->nsources;
        return trim_sources(r, read_table_fast(r, &source_spec, NULL, source_begin, source_cell,
                                               NULL, NULL, source_fast));
    case 3:
        im->first_block = p->nblocks;
        return trim_blocks(r, read_table_fast(r, &block_spec, NULL, block_begin, block_cell, NULL,
                                              NULL, block_fast));
    default: {
        im->first_routine = p->nroutines;
        table_state ts;
        tk_status st = table_header(r, &routine_spec, &ts);
        if (st == TK_END) return TK_OK;
        TRY(st);
        return trim_routines(
            r, table_rows(r, &routine_spec, &ts, &ts, routine_begin, routine_cell, NULL, NULL));
    }
    }
}

static const char *const image_cols[] = {"IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"};
static const table_spec image_spec = {"IMAGES", image_cols, 4, 0x1, NULL};

static tk_status image_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    tk_cfg_process *p = r->p;
    GROW(p->images, p->nimages, r->cap_images);
    r->image = p->nimages;
    tk_cfg_image *im = &p->images[p->nimages++];
    memset(im, 0, sizeof *im);
    im->loc = loc_of(row);
    im->first_block = p->nblocks;
    im->first_symbol = p->nsymbols;
    im->first_source = p->nsources;
    im->first_routine = p->nroutines;
    return TK_OK;
}

static tk_status image_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_image *im = &r->p->images[r->image];
    switch (col) {
    case 0: return read_id(r, "IMAGE_ID", 1, &im->id);
    case 1: return read_u64(r, "LOAD_ADDR", &im->load_addr);
    case 2: return read_u64(r, "SIZE", &im->size);
    default: return read_object(r, "IMAGE_DATA", image_keys, 5, NULL, image_key);
    }
}

/* edges */

/* Room for n more per-thread counts; values above 32 bits switch the whole
 * pool to 64 bits (counts_widen).  0 on out-of-memory. */
static int counts_reserve(reader *r, uint32_t n)
{
    tk_cfg_process *p = r->p;
    if (p->ncounts > UINT32_MAX - n) return 0;
    if (p->counts64)
        return room((void **)&p->counts64, &r->cap_counts, p->ncounts + n, sizeof *p->counts64);
    return room((void **)&p->counts32, &r->cap_counts, p->ncounts + n, sizeof *p->counts32);
}

static int counts_widen(reader *r)
{
    tk_cfg_process *p = r->p;
    uint64_t *w = tk_malloc(sizeof *w * (size_t)(r->cap_counts ? r->cap_counts : 1));
    if (!w) return 0;
    for (uint32_t i = 0; i < p->ncounts; i++) w[i] = p->counts32[i];
    tk_free(p->counts32);
    p->counts32 = NULL;
    p->counts64 = w;
    return 1;
}

/* Records that edge index e has the n counts from pool offset `at` (the
 * counts of the edges are appended in edge order).  While every edge has the
 * same number the positions are implicit (edge_stride); the first edge that
 * differs makes them explicit for all.  0 on out-of-memory. */
static int edge_set_counts(reader *r, uint32_t e, uint32_t at, uint32_t n)
{
    tk_cfg_process *p = r->p;
    if (!p->edge_counts) {
        if (e == 0) p->edge_stride = n;
        if (n == p->edge_stride && at == e * p->edge_stride) return 1;
        uint32_t cap = r->cap_edges > e ? r->cap_edges : e + 1;
        p->edge_counts = tk_malloc(sizeof *p->edge_counts * cap);
        p->edge_nthreads = tk_malloc(sizeof *p->edge_nthreads * cap);
        if (!p->edge_counts || !p->edge_nthreads) return 0;
        r->cap_edge_counts = cap;
        for (uint32_t i = 0; i < e; i++) {
            p->edge_counts[i] = i * p->edge_stride;
            p->edge_nthreads[i] = p->edge_stride;
        }
        p->edge_stride = 0;
    }
    if (e >= r->cap_edge_counts) {
        uint32_t cap = r->cap_edge_counts;
        if (!room((void **)&p->edge_counts, &cap, e + 1, sizeof *p->edge_counts) ||
            !room((void **)&p->edge_nthreads, &r->cap_edge_counts, e + 1, sizeof *p->edge_nthreads))
            return 0;
    }
    p->edge_counts[e] = at;
    p->edge_nthreads[e] = n;
    return 1;
}

/* Appends v (room reserved). */
static inline int counts_put(reader *r, uint64_t v)
{
    tk_cfg_process *p = r->p;
    if (!p->counts64) {
        if (v <= UINT32_MAX) {
            p->counts32[p->ncounts++] = (uint32_t)v;
            return 1;
        }
        if (!counts_widen(r)) return 0;
    }
    p->counts64[p->ncounts++] = v;
    return 1;
}

static const char *const edge_cols[] = {"EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID",
                                        "EDGE_TYPE_ID", "COUNT_PER_THREAD"};
static const col_usual edge_usual[] = {U_ID, U_ID, U_ID, U_ID, U_COUNTS};
static const table_spec edge_spec = {"EDGES", edge_cols, 5, 0xf, edge_usual};

static tk_status edge_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    tk_cfg_process *p = r->p;
    GROW(p->edges, p->nedges, r->cap_edges);
    tk_cfg_edge *e = &p->edges[p->nedges++];
    memset(e, 0, sizeof *e);
    r->edge_counts_at = p->ncounts;
    if (r->diag) {
        if (!room((void **)&p->edge_locs, &r->cap_edge_locs, p->nedges, sizeof *p->edge_locs))
            return nomem(r);
        p->edge_locs[p->nedges - 1] = loc_of(row);
    }
    return TK_OK;
}

static tk_status edge_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    tk_cfg_process *p = r->p;
    tk_cfg_edge *e = &p->edges[p->nedges - 1];
    switch (col) {
    case 0: return read_id(r, "EDGE_ID", 0, &e->id);
    case 1: return read_id(r, "SOURCE_NODE_ID", 0, &e->src);
    case 2: return read_id(r, "TARGET_NODE_ID", 0, &e->tgt);
    case 3: return read_id(r, "EDGE_TYPE_ID", 0, &e->type);
    default:
        TRY(expect(r, TK_JSON_ARRAY_BEGIN, "COUNT_PER_THREAD (an array of counts)"));
        uint64_t sum = 0;
        for (;;) {
            TRY(next(r));
            if (r->tok.type == TK_JSON_ARRAY_END) return TK_OK;
            uint64_t v;
            TRY(read_u64(r, "COUNT_PER_THREAD", &v));
            if (!counts_reserve(r, 1) || !counts_put(r, v)) return nomem(r);
            if (__builtin_add_overflow(sum, v, &sum))
                return fail(r, &r->tok, "COUNT_PER_THREAD: the sum overflows 64 bits");
        }
    }
}

static tk_status edge_end(reader *r, void *ctx, const tk_json_token *row, unsigned cells)
{
    (void)ctx;
    (void)row;
    (void)cells;
    tk_cfg_process *p = r->p;
    if (!edge_set_counts(r, p->nedges - 1, r->edge_counts_at, p->ncounts - r->edge_counts_at))
        return nomem(r);
    return TK_OK;
}

static int edge_fast(reader *r, const table_state *ts, const tk_json_row_out *row, unsigned c,
                     tk_status *st)
{
    (void)ts;
    uint64_t sum = 0, any = 0;
    uint32_t n = 0;
    const uint64_t *vals = NULL;
    if (c & 0x10) {
        vals = row->vals + row->v[4];
        n = row->n[4];
        for (uint32_t i = 0; i < n; i++) {
            if (__builtin_add_overflow(sum, vals[i], &sum)) return 0;
            any |= vals[i];
        }
    }
    tk_cfg_process *p = r->p;
    int width_ok = p->counts64 || (p->counts32 && any <= UINT32_MAX) || !n;
    if (!r->diag && p->nedges < r->cap_edges && p->ncounts <= r->cap_counts &&
        n <= r->cap_counts - p->ncounts && width_ok && !p->edge_counts && p->nedges &&
        n == p->edge_stride) {
        /* the usual row: room everywhere, counts of the pool's width, as many
         * as every edge before */
        tk_cfg_edge *e = &p->edges[p->nedges++];
        e->id = (uint32_t)tk_json_row_cell(row, 0);
        e->src = (uint32_t)tk_json_row_cell(row, 1);
        e->tgt = (uint32_t)tk_json_row_cell(row, 2);
        e->type = (uint32_t)tk_json_row_cell(row, 3);
        if (p->counts64)
            for (uint32_t i = 0; i < n; i++) p->counts64[p->ncounts++] = vals[i];
        else
            for (uint32_t i = 0; i < n; i++) p->counts32[p->ncounts++] = (uint32_t)vals[i];
        return 1;
    }
    tk_json_token t = row_token(row);
    *st = edge_begin(r, NULL, &t);
    if (*st != TK_OK) return 1;
    if (n && !counts_reserve(r, n)) {
        *st = nomem(r);
        return 1;
    }
    tk_cfg_edge *e = &p->edges[p->nedges - 1];
    e->id = (uint32_t)row->v[0];
    e->src = (uint32_t)row->v[1];
    e->tgt = (uint32_t)row->v[2];
    e->type = (uint32_t)row->v[3];
    for (uint32_t i = 0; i < n; i++)
        if (!counts_put(r, vals[i])) {
            *st = nomem(r);
            return 1;
        }
    if (!edge_set_counts(r, p->nedges - 1, r->edge_counts_at, n)) *st = nomem(r);
    return 1;
}

/* processes */
static const char *const process_keys[] = {"INSTR_COUNT", "INSTR_COUNT_PER_THREAD", "IMAGES",
                                           "EDGES"};

static tk_status process_key(reader *r, void *ctx, int key)
{
    (void)ctx;
    tk_cfg_process *p = r->p;
    switch (key) {
    case 0: p->has_file_instr_count = 1; return read_u64(r, "INSTR_COUNT", &p->file_instr_count);
    case 1: {
        TRY(expect(r, TK_JSON_ARRAY_BEGIN, "INSTR_COUNT_PER_THREAD (an array of counts)"));
        uint32_t cap = 0;
        for (;;) {
            TRY(next(r));
            if (r->tok.type == TK_JSON_ARRAY_END) return TK_OK;
            GROW(p->file_instr_count_per_thread, p->n_file_instr_count_per_thread, cap);
            TRY(read_u64(r, "INSTR_COUNT_PER_THREAD",
                         &p->file_instr_count_per_thread[p->n_file_instr_count_per_thread]));
            p->n_file_instr_count_per_thread++;
        }
    }
    case 2: return read_table(r, &image_spec, NULL, image_begin, image_cell, NULL, NULL);
    default:
        return read_table_fast(r, &edge_spec, NULL, edge_begin, edge_cell, edge_end, NULL,
                               edge_fast);
    }
}

static const char *const process_cols[] = {"PROCESS_ID", "PROCESS_DATA"};
static const table_spec process_spec = {"PROCESSES", process_cols, 2, 0x1, NULL};

static tk_status process_begin(reader *r, void *ctx, const tk_json_token *row)
{
    (void)ctx;
    tk_cfg *cfg = r->cfg;
    GROW(cfg->processes, cfg->nprocesses, r->cap_processes);
    r->p = &cfg->processes[cfg->nprocesses++];
    memset(r->p, 0, sizeof *r->p);
    r->p->loc = loc_of(row);
    r->cap_images = r->cap_blocks = r->cap_symbols = r->cap_sources = r->cap_source_sizes =
        r->cap_edges = r->cap_routines = r->cap_loops = r->cap_pool = r->cap_counts =
            r->cap_block_locs = r->cap_edge_locs = r->cap_block_flags = r->cap_block_wide =
                r->cap_idoms = r->nidoms = r->cap_edge_counts = 0;
    return TK_OK;
}

static tk_status process_cell(reader *r, void *ctx, int col)
{
    (void)ctx;
    if (col == 0) return read_u64(r, "PROCESS_ID", &r->p->pid);
    return read_object(r, "PROCESS_DATA", process_keys, 4, NULL, process_key);
}

/* Give back the slack of the growing arrays (they doubled). */
static void trim_process(tk_cfg_process *p)
{
#define TRIM(arr, n) \
    do { \
        if ((n) && (arr)) { \
            void *t_ = tk_realloc((arr), sizeof *(arr) * (size_t)(n)); \
            if (t_) (arr) = t_; \
        } \
    } while (0)
    TRIM(p->blocks, p->nblocks);
    TRIM(p->block_flags, p->nblocks);
    if (p->block_wide) {
        void *t = tk_realloc(p->block_wide,
                             2 * sizeof *p->block_wide * (size_t)(p->nblocks ? p->nblocks : 1));
        if (t) p->block_wide = t;
    }
    TRIM(p->edges, p->nedges);
    TRIM(p->edge_counts, p->nedges);
    TRIM(p->edge_nthreads, p->nedges);
    TRIM(p->counts32, p->ncounts);
    TRIM(p->counts64, p->ncounts);
    TRIM(p->pool, p->npool);
    TRIM(p->sources, p->nsources);
    TRIM(p->source_sizes, p->nsources);
#undef TRIM
}

static tk_status process_end(reader *r, void *ctx, const tk_json_token *row, unsigned cells)
{
    (void)ctx;
    (void)row;
    (void)cells;
    trim_process(r->p);
    return TK_OK;
}

/* ---- top level ---------------------------------------------------------------- */

static const char *const top_keys[] = {"MAJOR_VERSION", "MINOR_VERSION", "FILE_NAMES",
                                       "EDGE_TYPES",    "SPECIAL_NODES", "PROCESSES"};

static tk_status top_key(reader *r, void *ctx, int key)
{
    (void)ctx;
    tk_cfg *cfg = r->cfg;
    switch (key) {
    case 0: cfg->has_version |= 1; return read_u32(r, "MAJOR_VERSION", &cfg->major_version);
    case 1: cfg->has_version |= 2; return read_u32(r, "MINOR_VERSION", &cfg->minor_version);
    case 2: return read_table(r, &file_spec, NULL, file_begin, file_cell, NULL, NULL);
    case 3: return read_table(r, &type_spec, NULL, type_begin, type_cell, NULL, NULL);
    case 4: return read_table(r, &special_spec, NULL, special_begin, special_cell, NULL, NULL);
    default:
        return read_table(r, &process_spec, NULL, process_begin, process_cell, process_end, NULL);
    }
}

tk_status tk_dcfg_read_paths(tk_cfg **out, tk_input *in, const tk_dcfg_read_options *opt, int fast,
                             tk_error *err)
{
    *out = NULL;
    reader r;
    memset(&r, 0, sizeof r);
    r.fast = fast;
    r.err = err;
    r.path = tk_input_path(in);
    r.diag = opt ? opt->diag : NULL;
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    tk_status st = tk_json_open(&r.j, in, &jo, err);
    if (st != TK_OK) return st;
    tk_json_set_fast(r.j, fast); /* the tokenizer's fast paths go with the rows' */
    if (tk_cfg_open(&r.cfg, err) != TK_OK) {
        tk_json_free(r.j);
        return TK_ERR_NOMEM;
    }
    st = tk_json_next(r.j, &r.tok, err);
    if (st == TK_END) st = fail(&r, &r.tok, "empty input: expected a DCFG JSON object");
    if (st == TK_OK && r.tok.type != TK_JSON_OBJECT_BEGIN)
        st = fail(&r, &r.tok, "a DCFG is a JSON object; found %s", tk_json_type_name(r.tok.type));
    if (st == TK_OK) st = read_object(&r, "DCFG", top_keys, 6, NULL, top_key);
    if (st == TK_OK) {
        st = tk_json_next(r.j, &r.tok, err);
        if (st == TK_END)
            st = TK_OK;
        else if (st == TK_OK)
            st = fail(&r, &r.tok, "unexpected data after the DCFG object");
    }
    if (st == TK_OK && (r.cfg->has_version & 3) != 3)
        st = soft(&r, TK_SEV_WARNING, &r.tok, "MAJOR_VERSION or MINOR_VERSION is missing");
    if (st == TK_OK && r.cfg->has_version &&
        (r.cfg->major_version != 1 || r.cfg->minor_version != 0)) {
        tk_json_token t0 = r.tok;
        t0.line = 1;
        t0.column = 1;
        t0.offset = 0;
        st = soft(&r, TK_SEV_WARNING, &t0, "format version %u.%02u: tracekit reads version 1.00",
                  r.cfg->major_version, r.cfg->minor_version);
    }
    tk_json_free(r.j);
    if (st == TK_OK) st = tk_cfg_finish(r.cfg, r.path, r.diag, err);
    if (st != TK_OK) {
        tk_cfg_free(r.cfg);
        return st;
    }
    *out = r.cfg;
    return TK_OK;
}

tk_status tk_dcfg_read(tk_cfg **out, tk_input *in, const tk_dcfg_read_options *opt, tk_error *err)
{
    return tk_dcfg_read_paths(out, in, opt, 1, err);
}

/* A diagnostics sink keeping the first error with its location. */
typedef struct first_error {
    tk_error err;
    int have;
} first_error;

static void keep_first_error(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    first_error *fe = ctx;
    if (sev != TK_SEV_ERROR || fe->have) return;
    fe->have = 1;
    tk_error_set_at(&fe->err, TK_ERR_FORMAT, loc->path, loc->offset, loc->line, loc->column, "%s",
                    msg);
}

static tk_status open_stream(tk_input **in, const char *path, const tk_dcfg_read_options *opt,
                             tk_error *err)
{
    tk_input_options io = TK_INPUT_OPTIONS_INIT;
    if (opt && opt->input) io = *opt->input;
    return tk_input_open(in, path, &io, err);
}

tk_status tk_dcfg_read_path(tk_cfg **out, const char *path, const tk_dcfg_read_options *opt,
                            tk_error *err)
{
    tk_input *in;
    tk_status st = open_stream(&in, path, opt, err);
    if (st != TK_OK) return st;
    st = tk_dcfg_read(out, in, opt, err);
    tk_input_free(in);
    if (st == TK_ERR_FORMAT && err && err->line == 0 && !(opt && opt->diag) &&
        strcmp(path, "-") != 0) {
        first_error fe;
        memset(&fe, 0, sizeof fe);
        tk_diag d;
        tk_diag_init(&d, keep_first_error, &fe);
        tk_dcfg_read_options again = TK_DCFG_READ_OPTIONS_INIT;
        if (opt) again = *opt;
        again.diag = &d;
        tk_error e2;
        tk_error_clear(&e2);
        tk_cfg *cfg = NULL;
        if (open_stream(&in, path, opt, &e2) == TK_OK) {
            if (tk_dcfg_read(&cfg, in, &again, &e2) == TK_OK) tk_cfg_free(cfg);
            tk_input_free(in);
            if (fe.have && fe.err.line) *err = fe.err;
        }
    }
    return st;
}
