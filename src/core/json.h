/* Streaming JSON pull tokenizer: one token at a time, no document tree.
 * Validates the grammar (commas, colons, nesting) as it goes; locations are
 * line/column/byte offset of each token's first byte. */
#ifndef TK_CORE_JSON_H
#define TK_CORE_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "core/fastpath.h"
#include "tracekit/input.h"
#include "tracekit/status.h"

typedef enum tk_json_type {
    TK_JSON_NONE = 0,
    TK_JSON_OBJECT_BEGIN,
    TK_JSON_OBJECT_END,
    TK_JSON_ARRAY_BEGIN,
    TK_JSON_ARRAY_END,
    TK_JSON_KEY, /* an object member name; its value follows */
    TK_JSON_STRING,
    TK_JSON_NUMBER,
    TK_JSON_TRUE,
    TK_JSON_FALSE,
    TK_JSON_NULL
} tk_json_type;

typedef struct tk_json_token {
    tk_json_type type;
    /* KEY, STRING: the unescaped UTF-8 text, NUL-terminated (may contain NUL
     * bytes from \u0000; len is exact). NUMBER: the literal as written.
     * Borrowed until the next call. */
    const char *str;
    size_t len;
    /* NUMBER only (str is then not NUL-terminated) */
    int is_int; /* an integer literal (no fraction, no exponent) that fits 64 bits */
    int negative; /* the literal had a '-' */
    uint64_t u; /* magnitude when is_int */
    double d; /* value as a double */
    /* STRING/KEY: whether escapes were present (Intel-style writers care) */
    int had_escapes;
    /* where the token starts */
    uint64_t line, column;
    int64_t offset;
} tk_json_token;

typedef struct tk_json_options {
    size_t max_depth; /* 0: 512 */
    size_t max_string; /* 0: 64 MiB */
} tk_json_options;

#define TK_JSON_OPTIONS_INIT \
    { \
        0, 0 \
    }

typedef struct tk_json tk_json;

/* Tokenize the content of `in` (borrowed; must outlive the tokenizer). */
tk_status tk_json_open(tk_json **out, tk_input *in, const tk_json_options *opt, tk_error *err);
/* Tokenize data[0..len) (borrowed; content offsets are offsets into it), a content already
 * in memory as one block; name is the path of the messages (borrowed too). Strings can
 * then be read as spans of the content (tk_json_next_raw). */
tk_status tk_json_open_memory(tk_json **out, const void *data, size_t len, const char *name,
                              const tk_json_options *opt, tk_error *err);
void tk_json_free(tk_json *j);
/* Whether the tokenizer may take its fast paths (core/fastpath.h: the integers
 * of read_number and tk_json_next_u64, the 8-byte string runs, the compiled
 * rows below, which tk_json_scan_row's callers leave alone): 1 (the default), or 0 for their general twins alone, which
 * read every input the same (tokens, values, errors and their locations).
 * The readers' switches set it (tk_dcfg_read_paths, tk_dt_parse_paths); so
 * their fuzz harnesses compare the fully fast and the fully general reading.
 * Without TK_FAST_PATHS the general twins are taken whatever the flag. */
void tk_json_set_fast(tk_json *j, int fast);

/* Next token. TK_END once the single top-level value and trailing white
 * space are consumed. Errors: TK_ERR_FORMAT (located), TK_ERR_LIMIT, TK_ERR_NOMEM, I/O. */
tk_status tk_json_next(tk_json *j, tk_json_token *tok, tk_error *err);

/* After a token that begins a value (OBJECT_BEGIN/ARRAY_BEGIN), skip to the
 * end of that value; other tokens need no skipping (returns TK_OK). */
tk_status tk_json_skip(tk_json *j, const tk_json_token *tok, tk_error *err);

/* Gives the pages of a mapped input before the current token back to the
 * system (tk_input_release): a long read of a mapped file then does not keep
 * it resident.  No-op for streamed inputs. */
void tk_json_release_consumed(tk_json *j);

/* A located TK_ERR_FORMAT at tok. Returns TK_ERR_FORMAT. */
tk_status tk_json_fail(const tk_json *j, const tk_json_token *tok, tk_error *err, const char *fmt,
                       ...) __attribute__((format(printf, 4, 5)));

/* Integer value of tok: a JSON integer, or a string holding a decimal or
 * C-style hex ("0x1f") integer. TK_ERR_FORMAT when neither, TK_ERR_LIMIT on overflow. */
tk_status tk_json_token_u64(const tk_json_token *tok, uint64_t *out);
tk_status tk_json_token_i64(const tk_json_token *tok, int64_t *out);

/* "object", "string", ... for messages. */
const char *tk_json_type_name(tk_json_type t);

/* ---- reading a fixed layout -------------------------------------------------
 * For readers of a fixed layout (DCFG-Trace) whose messages name what the layout
 * wanted where something else was found: they look at the next byte before
 * reading it.  The grammar of tk_json_next runs underneath (these calls and
 * tk_json_next mix freely; what is accepted is JSON, and the depth limit holds). */

/* A place in the content: byte offset, line, column (1-based, in bytes). */
typedef struct tk_json_pos {
    int64_t offset;
    uint64_t line, column;
} tk_json_pos;

/* Skips white space; *c = the next byte (0-255), or -1 at the end of the input.
 * Consumes nothing else. Errors: those of reading the input. */
tk_status tk_json_peek(tk_json *j, int *c, tk_error *err);
/* Where the next byte is (after tk_json_peek: the next token). */
void tk_json_here(const tk_json *j, tk_json_pos *pos);
/* Consumes the punctuation byte tk_json_peek saw (',' ':' '[' ']' '{' '}'). A byte the
 * grammar does not allow there is the error tk_json_next gives for it. */
tk_status tk_json_take(tk_json *j, tk_error *err);
/* The next string (a key or a value) as the span of the content between its quotes,
 * escapes as written (unchecked; a raw newline after a '\' is counted as a line);
 * zero copy.  Errors (located): not a string ("expected WHAT, found ..."), an
 * unterminated string (at its opening quote), a control character in it;
 * TK_ERR_LIMIT beyond max_string.  Needs tk_json_open_memory. */
tk_status tk_json_next_raw(tk_json *j, const char *what, const char **s, size_t *len,
                           tk_error *err);
/* The next value as a non-negative integer: a JSON integer, or a string of one in C
 * style: "0x" or "0X" and hex digits of either case, or decimal digits without a
 * leading zero ("017" is octal in C; refused rather than guessed).  The string is
 * taken as written (no escapes); numbers are read with tk_num_parse_u64, and a JSON integer
 * ends at its last digit ("1-": 1, and the '-' is the grammar's).  Errors, located
 * at the value and naming it WHAT: TK_ERR_FORMAT (negative, fractional, leading
 * zeros, a string of something else, not a number), TK_ERR_LIMIT (beyond 64 bits).
 * Needs tk_json_open_memory. */
tk_status tk_json_next_u64(tk_json *j, const char *what, uint64_t *out, tk_error *err);
/* "expected WHAT, found X" (X: the string's first 40 bytes, a character, a byte value,
 * or end of file), located at the cursor (after tk_json_peek: the next byte).
 * Returns TK_ERR_FORMAT. */
tk_status tk_json_fail_expected(const tk_json *j, const char *what, tk_error *err);
/* A located error (code) at pos. Returns code. */
tk_status tk_json_fail_at(const tk_json *j, const tk_json_pos *pos, tk_error *err, tk_status code,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#define TK_JSON_ROW_MAX_CELLS 16
#define TK_JSON_ROW_MAX_VALUES 256

/* ---- compiled rows ------------------------------------------------------------
 * A table whose header is known: per header cell, where its value goes and
 * which values are usual.  tk_json_scan_row reads the next row of the current
 * array when it is usual (every cell an integer, or a flat array of integers
 * for array cells, in its range; at least min_cells and at most ncells cells;
 * wholly in the current chunk); tk_json_take_scanned then consumes it.  An
 * unusual row gives -1 (the caller reads it token by token, which also gives
 * the exact errors).  Nothing is consumed before tk_json_take_scanned.
 * Scalars are non-negative JSON integers or strings holding a decimal (no
 * leading zero) or "0x" hex integer; a string cell is a string without escapes
 * or control characters, no longer than max_string. A fast path
 * (core/fastpath.h): its callers take the token path alone when TK_FAST_PATHS
 * is 0 or after tk_json_set_fast(j, 0) (tk_json_scan_row does not look at the flag,
 * a cost per row; tk_json_scan_row_strings finds every row unusual then). */
#define TK_JSON_SLOT_IGNORE TK_JSON_ROW_MAX_CELLS /* a cell of an unknown column */

#define TK_JSON_CELL_ARRAY 1 /* a flat array of JSON integers */
#define TK_JSON_CELL_STRING 2 /* a string: v = content offset of its first byte, n = length */

typedef struct tk_json_row_prog {
    int ncells; /* header length, <= TK_JSON_ROW_MAX_CELLS */
    int min_cells; /* shorter rows are unusual */
    uint8_t slot[TK_JSON_ROW_MAX_CELLS]; /* cell -> index in v / n (or SLOT_IGNORE) */
    uint8_t is_array[TK_JSON_ROW_MAX_CELLS]; /* 0: a scalar, or TK_JSON_CELL_* */
    /* usual values (of scalars and of array elements) */
    uint64_t lo[TK_JSON_ROW_MAX_CELLS], hi[TK_JSON_ROW_MAX_CELLS];
} tk_json_row_prog;

typedef struct tk_json_row_out {
    uint64_t v[TK_JSON_ROW_MAX_CELLS + 1]; /* by slot; arrays: index of the first in vals;
                                                 strings: content offset */
    uint32_t n[TK_JSON_ROW_MAX_CELLS + 1]; /* arrays: number of values; strings: length */
    uint64_t vals[TK_JSON_ROW_MAX_VALUES];
    /* the row's '[': content offset, line, column */
    int64_t offset;
    uint64_t line, column;
    /* private */
    const uint8_t *end;
    uint64_t end_line, end_line_start;
} tk_json_row_out;

/* Cell i of a scanned row, read as one scalar: the scanner has just stored
 * the cells one by one, and GCC reads neighbouring cells copied together as
 * one 16-byte load, which cannot be forwarded from two 8-byte stores (it
 * waits for them to reach the cache: ~15 cycles a row). */
static inline uint64_t tk_json_row_cell(const tk_json_row_out *row, unsigned i)
{
    return tk_fast_opaque_u64(row->v[i]);
}

/* Returns the number of cells of the row (0 for "[]" when min_cells is 0),
 * or -1 when the next value is not a usual row. */
int tk_json_scan_row(const tk_json *j, const tk_json_row_prog *pg, tk_json_row_out *row);
/* The same for a program with TK_JSON_CELL_STRING cells (tk_json_scan_row finds a
 * string where it wants an array: an unusual row). */
int tk_json_scan_row_strings(const tk_json *j, const tk_json_row_prog *pg, tk_json_row_out *row);
void tk_json_take_scanned(tk_json *j, const tk_json_row_out *row);

#endif
