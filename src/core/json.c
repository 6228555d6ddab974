#include "core/json.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/fastpath.h"
#include "core/num.h"

enum state {
    ST_TOP_VALUE, /* top level: expect the value */
    ST_TOP_DONE, /* top level: expect end of input */
    ST_ARR_FIRST, /* after '[': value or ']' */
    ST_ARR_VALUE, /* after ',': value */
    ST_ARR_NEXT, /* after a value: ',' or ']' */
    ST_OBJ_FIRST, /* after '{': key or '}' */
    ST_OBJ_KEY, /* after ',': key */
    ST_OBJ_COLON, /* after a key: ':' */
    ST_OBJ_VALUE, /* after ':': value */
    ST_OBJ_NEXT /* after a value: ',' or '}' */
};

struct tk_json {
    tk_input *in; /* NULL for tk_json_open_memory */
    const char *path; /* the name of the messages */
    int whole; /* the content is one block (tk_json_open_memory) */
    const uint8_t *cur, *lim;
    uint64_t chunk_base; /* content offset of the chunk start */
    const uint8_t *chunk;
    int eof;
    uint64_t line;
    uint64_t line_start; /* content offset of the current line's first byte */
    enum state state;
    uint8_t *stack; /* 'a' or 'o' per open container */
    size_t depth, max_depth, max_string;
    char *scratch;
    size_t scratch_len, scratch_cap;
    uint64_t released; /* content offset up to which tk_json_release_consumed released */
    int fast; /* the lexer's fast paths may be taken (core/fastpath.h): 1 but after
               * tk_json_set_fast(j, 0) */
};

/* Character classes for the scanning loops. */
enum { C_WS = 1, C_NUM = 2, C_PLAIN = 4, C_DIGIT = 8 };

static const uint8_t char_class[256] = {
    ['\t'] = C_WS,
    ['\r'] = C_WS,
    [' '] = C_WS | C_PLAIN,
    ['-'] = C_NUM | C_PLAIN,
    ['+'] = C_NUM | C_PLAIN,
    ['.'] = C_NUM | C_PLAIN,
    ['e'] = C_NUM | C_PLAIN,
    ['E'] = C_NUM | C_PLAIN,
    ['0'] = C_NUM | C_PLAIN | C_DIGIT,
    ['1'] = C_NUM | C_PLAIN | C_DIGIT,
    ['2'] = C_NUM | C_PLAIN | C_DIGIT,
    ['3'] = C_NUM | C_PLAIN | C_DIGIT,
    ['4'] = C_NUM | C_PLAIN | C_DIGIT,
    ['5'] = C_NUM | C_PLAIN | C_DIGIT,
    ['6'] = C_NUM | C_PLAIN | C_DIGIT,
    ['7'] = C_NUM | C_PLAIN | C_DIGIT,
    ['8'] = C_NUM | C_PLAIN | C_DIGIT,
    ['9'] = C_NUM | C_PLAIN | C_DIGIT,
};

/* Bytes that may be copied as they are inside a string: >= 0x20, not '"' or '\\'. */
static inline int plain_string_byte(uint8_t c) { return c >= 0x20 && c != '"' && c != '\\'; }

/* The first byte of [p, lim) that is not plain_string_byte, or lim; fast: the
 * tokenizer's flag (the byte loop alone when 0). */
static inline const uint8_t *string_run(const uint8_t *p, const uint8_t *lim, int fast)
{
#if TK_FAST_SWAR
    /* 8 bytes at a time (DCFG-Trace sequences run to megabytes; core/fastpath.h) */
    if (fast)
        while (lim - p >= 8) {
            uint64_t m = tk_swar_string_stops(tk_fast_load8(p));
            if (m) return p + tk_swar_first(m);
            p += 8;
        }
#else
    (void)fast;
#endif
    while (p < lim && plain_string_byte(*p)) p++;
    return p;
}

const char *tk_json_type_name(tk_json_type t)
{
    switch (t) {
    case TK_JSON_NONE: return "nothing";
    case TK_JSON_OBJECT_BEGIN: return "object";
    case TK_JSON_OBJECT_END: return "'}'";
    case TK_JSON_ARRAY_BEGIN: return "array";
    case TK_JSON_ARRAY_END: return "']'";
    case TK_JSON_KEY: return "key";
    case TK_JSON_STRING: return "string";
    case TK_JSON_NUMBER: return "number";
    case TK_JSON_TRUE: return "true";
    case TK_JSON_FALSE: return "false";
    case TK_JSON_NULL: return "null";
    }
    return "?";
}

/* A tokenizer at the start of a value, or NULL when out of memory. */
static tk_json *json_new(const tk_json_options *opt)
{
    tk_json *j = tk_calloc(1, sizeof *j);
    if (!j) return NULL;
    j->line = 1;
    j->max_depth = opt && opt->max_depth ? opt->max_depth : 512;
    j->max_string = opt && opt->max_string ? opt->max_string : (size_t)64 * 1024 * 1024;
    j->stack = tk_malloc(j->max_depth);
    j->scratch_cap = 256;
    j->scratch = tk_malloc(j->scratch_cap);
    if (!j->stack || !j->scratch) {
        tk_json_free(j);
        return NULL;
    }
    j->state = ST_TOP_VALUE;
    j->fast = 1;
    return j;
}

void tk_json_set_fast(tk_json *j, int fast) { j->fast = fast != 0; }

tk_status tk_json_open(tk_json **out, tk_input *in, const tk_json_options *opt, tk_error *err)
{
    tk_json *j = json_new(opt);
    if (!j) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    j->in = in;
    j->path = tk_input_path(in);
    j->chunk_base = tk_input_offset(in);
    j->line_start = j->chunk_base;
    *out = j;
    return TK_OK;
}

tk_status tk_json_open_memory(tk_json **out, const void *data, size_t len, const char *name,
                              const tk_json_options *opt, tk_error *err)
{
    tk_json *j = json_new(opt);
    if (!j) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    j->path = name;
    j->whole = 1;
    j->eof = 1; /* nothing to refill */
    j->chunk = j->cur = j->lim = data;
    if (len) j->lim += len;
    *out = j;
    return TK_OK;
}

void tk_json_free(tk_json *j)
{
    if (!j) return;
    tk_free(j->stack);
    tk_free(j->scratch);
    tk_free(j);
}

void tk_json_release_consumed(tk_json *j)
{
    if (!j->in || !tk_input_is_mapped(j->in)) return;
    uint64_t off = j->chunk_base + (uint64_t)(j->cur - j->chunk);
    if (off > j->released) {
        tk_input_release(j->in, j->released, off - j->released);
        j->released = off & ~(uint64_t)4095;
    }
}
static uint64_t cur_offset(const tk_json *j)
{
    return j->chunk_base + (uint64_t)(j->cur - j->chunk);
}

static tk_status fail_here(tk_json *j, tk_error *err, tk_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static tk_status fail_here(tk_json *j, tk_error *err, tk_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_error_vset(err, code, fmt, ap);
    va_end(ap);
    uint64_t off = cur_offset(j);
    tk_error_locate(err, j->path, (int64_t)off, j->line, off - j->line_start + 1);
    return code;
}

tk_status tk_json_fail(const tk_json *j, const tk_json_token *tok, tk_error *err, const char *fmt,
                       ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_error_vset(err, TK_ERR_FORMAT, fmt, ap);
    va_end(ap);
    tk_error_locate(err, j->path, tok->offset, tok->line, tok->column);
    return TK_ERR_FORMAT;
}

/* Make cur < lim unless at end of input. */
static tk_status refill(tk_json *j, tk_error *err)
{
    if (j->cur < j->lim || j->eof) return TK_OK;
    const uint8_t *data;
    size_t len;
    uint64_t base = tk_input_offset(j->in);
    tk_status st = tk_input_chunk(j->in, &data, &len, err);
    if (st == TK_END) {
        j->eof = 1;
        j->chunk_base = base;
        j->chunk = j->cur = j->lim = NULL;
        return TK_OK;
    }
    if (st != TK_OK) return st;
    j->chunk_base = base;
    j->chunk = j->cur = data;
    j->lim = data + len;
    return TK_OK;
}

/* Next byte or -1 at end; does not consume. */
static int peekc(tk_json *j, tk_error *err, tk_status *st)
{
    if (j->cur == j->lim) {
        *st = refill(j, err);
        if (*st != TK_OK || j->cur == j->lim) return -1;
    }
    return *j->cur;
}

/* always inlined: tk_json_next's hot path, and tk_json_peek has a copy */
static inline __attribute__((always_inline)) tk_status skip_ws(tk_json *j, tk_error *err)
{
    for (;;) {
        const uint8_t *p = j->cur, *lim = j->lim;
        while (p < lim && (char_class[*p] & C_WS)) p++;
        j->cur = p;
        if (j->cur == j->lim) {
            tk_status st = refill(j, err);
            if (st != TK_OK) return st;
            if (j->cur == j->lim) return TK_OK;
        }
        uint8_t c = *j->cur;
        if (c == '\n') {
            j->cur++;
            j->line++;
            j->line_start = cur_offset(j);
        } else if (c == ' ' || c == '\t' || c == '\r') {
            j->cur++;
        } else {
            return TK_OK;
        }
    }
}

static int scratch_reserve(tk_json *j, size_t extra)
{
    if (j->scratch_len + extra + 1 <= j->scratch_cap) return 0;
    size_t ncap = j->scratch_cap;
    while (ncap < j->scratch_len + extra + 1) ncap *= 2;
    char *p = tk_realloc(j->scratch, ncap);
    if (!p) return -1;
    j->scratch = p;
    j->scratch_cap = ncap;
    return 0;
}

static void put_utf8(char *dst, size_t *n, uint32_t cp)
{
    if (cp < 0x80) {
        dst[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        dst[(*n)++] = (char)(0xc0 | (cp >> 6));
        dst[(*n)++] = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        dst[(*n)++] = (char)(0xe0 | (cp >> 12));
        dst[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        dst[(*n)++] = (char)(0x80 | (cp & 0x3f));
    } else {
        dst[(*n)++] = (char)(0xf0 | (cp >> 18));
        dst[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
        dst[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        dst[(*n)++] = (char)(0x80 | (cp & 0x3f));
    }
}

static tk_status read_hex4(tk_json *j, tk_error *err, uint32_t *out)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
        tk_status st = TK_OK;
        int c = peekc(j, err, &st);
        if (st != TK_OK) return st;
        int d = -1;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        if (d < 0) return fail_here(j, err, TK_ERR_FORMAT, "expected 4 hex digits after \\u");
        v = v * 16 + (uint32_t)d;
        j->cur++;
    }
    *out = v;
    return TK_OK;
}

/* Read a string; the opening quote is already consumed. */
static tk_status read_string(tk_json *j, tk_json_token *tok, tk_error *err)
{
    j->scratch_len = 0;
    tok->had_escapes = 0;
    for (;;) {
        if (j->cur == j->lim) {
            tk_status st = refill(j, err);
            if (st != TK_OK) return st;
            if (j->cur == j->lim)
                return fail_here(j, err, TK_ERR_FORMAT, "unterminated string (end of input)");
        }
        /* copy a run of plain characters */
        const uint8_t *p = string_run(j->cur, j->lim, j->fast);
        size_t run = (size_t)(p - j->cur);
        if (run) {
            if (j->scratch_len + run > j->max_string)
                return fail_here(j, err, TK_ERR_LIMIT, "string longer than the limit of %zu bytes",
                                 j->max_string);
            if (scratch_reserve(j, run)) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            memcpy(j->scratch + j->scratch_len, j->cur, run);
            j->scratch_len += run;
            j->cur = p;
        }
        if (j->cur == j->lim) continue;
        uint8_t c = *j->cur;
        if (c == '"') {
            j->cur++;
            j->scratch[j->scratch_len] = '\0';
            tok->str = j->scratch;
            tok->len = j->scratch_len;
            return TK_OK;
        }
        if (c < 0x20)
            return fail_here(j, err, TK_ERR_FORMAT, "control character 0x%02x inside a string", c);
        /* escape */
        tok->had_escapes = 1;
        j->cur++;
        tk_status st = TK_OK;
        int e = peekc(j, err, &st);
        if (st != TK_OK) return st;
        if (scratch_reserve(j, 8)) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        if (j->scratch_len + 4 > j->max_string)
            return fail_here(j, err, TK_ERR_LIMIT, "string longer than the limit of %zu bytes",
                             j->max_string);
        char *s = j->scratch;
        switch (e) {
        case '"': s[j->scratch_len++] = '"'; break;
        case '\\': s[j->scratch_len++] = '\\'; break;
        case '/': s[j->scratch_len++] = '/'; break;
        case 'b': s[j->scratch_len++] = '\b'; break;
        case 'f': s[j->scratch_len++] = '\f'; break;
        case 'n': s[j->scratch_len++] = '\n'; break;
        case 'r': s[j->scratch_len++] = '\r'; break;
        case 't': s[j->scratch_len++] = '\t'; break;
        case 'u': {
            j->cur++;
            uint32_t cp;
            st = read_hex4(j, err, &cp);
            if (st != TK_OK) return st;
            if (cp >= 0xd800 && cp < 0xdc00) {
                /* high surrogate: a low one must follow */
                if (peekc(j, err, &st) != '\\')
                    return st != TK_OK ? st
                                       : fail_here(j, err, TK_ERR_FORMAT,
                                                   "unpaired surrogate in \\u escape");
                j->cur++;
                if (peekc(j, err, &st) != 'u')
                    return st != TK_OK ? st
                                       : fail_here(j, err, TK_ERR_FORMAT,
                                                   "unpaired surrogate in \\u escape");
                j->cur++;
                uint32_t lo;
                st = read_hex4(j, err, &lo);
                if (st != TK_OK) return st;
                if (lo < 0xdc00 || lo > 0xdfff)
                    return fail_here(j, err, TK_ERR_FORMAT, "unpaired surrogate in \\u escape");
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                return fail_here(j, err, TK_ERR_FORMAT, "unpaired surrogate in \\u escape");
            }
            put_utf8(s, &j->scratch_len, cp);
            continue; /* cur already past the digits */
        }
        default:
            if (e < 0)
                return fail_here(j, err, TK_ERR_FORMAT, "unterminated string (end of input)");
            return fail_here(j, err, TK_ERR_FORMAT, "invalid escape '\\%c' in a string",
                             e >= 0x20 && e < 0x7f ? e : '?');
        }
        j->cur++;
    }
}

static int is_num_char(int c) { return c >= 0 && (char_class[c] & C_NUM); }

/* Digits at s[*i..n) (at least one): the scanner's (tk_num_scan), which
 * moves past them also when their value is over 64 bits (TK_ERR_LIMIT; *v
 * unset). */
static tk_status number_digits(const char *s, size_t *i, size_t n, uint64_t *v)
{
    const char *p = s + *i;
    tk_status st = tk_num_scan(&p, s + n, TK_NUM_DEC, v);
    *i = (size_t)(p - s);
    return st;
}

/* Validate the JSON number grammar of s[0..n) and fill the token's values:
 * the digits through the scanner (core/num), a real's value through
 * tk_num_parse_real (out of a double's range: the nearest, HUGE_VAL or 0). */
static tk_status finish_number(tk_json *j, tk_json_token *tok, const char *s, size_t n,
                               tk_error *err)
{
    size_t i = 0;
    uint64_t v = 0, skip;
    tok->str = s;
    tok->len = n;
    tok->negative = 0;
    tok->is_int = 0;
    tok->u = 0;
    if (i < n && s[i] == '-') {
        tok->negative = 1;
        i++;
    }
    size_t int_start = i;
    tk_status ist = number_digits(s, &i, n, &v);
    int ok = ist != TK_ERR_FORMAT && !(i - int_start > 1 && s[int_start] == '0');
    int is_int = 1;
    if (ok && i < n && s[i] == '.') {
        is_int = 0;
        i++;
        ok = number_digits(s, &i, n, &skip) != TK_ERR_FORMAT;
    }
    if (ok && i < n && (s[i] == 'e' || s[i] == 'E')) {
        is_int = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        ok = number_digits(s, &i, n, &skip) != TK_ERR_FORMAT;
    }
    if (!ok || i != n)
        return tk_json_fail(j, tok, err, "malformed number '%.*s'", (int)(n < 40 ? n : 40), s);
    if (is_int && ist == TK_OK) {
        tok->is_int = 1;
        tok->u = v;
        tok->d = tok->negative ? -(double)v : (double)v;
        return TK_OK;
    }
    /* (n <= TK_NUM_REAL_MAX: read_number's bound; a JSON number is strtod's decimal form) */
    return tk_num_parse_real(s, n, TK_NUM_REAL_ROUND, &tok->d) == TK_OK
               ? TK_OK
               : tk_json_fail(j, tok, err, "malformed number '%.*s'", (int)(n < 40 ? n : 40), s);
}

static tk_status read_number(tk_json *j, tk_json_token *tok, tk_error *err)
{
    /* fast path: the literal ends inside the current chunk (always, for mapped input) */
    const uint8_t *p = j->cur, *lim = j->lim;
    /* common case: a plain non-negative integer that fits, parsed while scanning
     * (a fast path: finish_number is its general twin, core/fastpath.h) */
    uint64_t v = 0;
    const uint8_t *q;
    if (TK_FAST_PATHS && j->fast &&
        (q = (const uint8_t *)tk_fast_dec((const char *)p, (const char *)lim, TK_FAST_DEC_MAX,
                                          &v)) != NULL &&
        q < lim && !(char_class[*q] & C_NUM) && (*j->cur != '0' || q == j->cur + 1)) {
        p = q;
        tok->str = (const char *)j->cur;
        tok->len = (size_t)(p - j->cur);
        tok->is_int = 1;
        tok->u = v;
        tok->d = (double)v;
        j->cur = p;
        return TK_OK;
    }
    p = j->cur;
    while (p < lim && is_num_char(*p)) p++;
    if (p < j->lim || j->whole || tk_input_is_mapped(j->in)) {
        size_t n = (size_t)(p - j->cur);
        if (n > TK_NUM_REAL_MAX) return fail_here(j, err, TK_ERR_LIMIT, "number literal too long");
        const char *s = (const char *)j->cur;
        j->cur = p;
        return finish_number(j, tok, s, n, err);
    }
    /* slow path: the literal may continue in the next chunk */
    j->scratch_len = 0;
    for (;;) {
        tk_status st = TK_OK;
        int c = peekc(j, err, &st);
        if (st != TK_OK) return st;
        if (c < 0 || !is_num_char(c)) break;
        if (j->scratch_len >= TK_NUM_REAL_MAX)
            return fail_here(j, err, TK_ERR_LIMIT, "number literal too long");
        if (scratch_reserve(j, 1)) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        j->scratch[j->scratch_len++] = (char)c;
        j->cur++;
    }
    j->scratch[j->scratch_len] = '\0';
    return finish_number(j, tok, j->scratch, j->scratch_len, err);
}

static tk_status expect_word(tk_json *j, const char *word, tk_json_token *tok, tk_error *err)
{
    for (const char *w = word; *w; w++) {
        tk_status st = TK_OK;
        int c = peekc(j, err, &st);
        if (st != TK_OK) return st;
        if (c != *w) return tk_json_fail(j, tok, err, "invalid literal (expected '%s')", word);
        j->cur++;
    }
    tk_status st = TK_OK;
    int c = peekc(j, err, &st);
    if (st != TK_OK) return st;
    if (c >= 0 &&
        (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
        return tk_json_fail(j, tok, err, "invalid literal (expected '%s')", word);
    return TK_OK;
}

static enum state after_value(const tk_json *j)
{
    if (j->depth == 0) return ST_TOP_DONE;
    return j->stack[j->depth - 1] == 'a' ? ST_ARR_NEXT : ST_OBJ_NEXT;
}

static const char *describe(int c, char *buf)
{
    if (c < 0) return "end of input";
    if (c >= 0x20 && c < 0x7f) {
        buf[0] = '\'';
        buf[1] = (char)c;
        buf[2] = '\'';
        buf[3] = '\0';
    } else {
        snprintf(buf, 16, "byte 0x%02x", c);
    }
    return buf;
}

/* A token starting at the current position: empty, located. */
static inline void token_start(const tk_json *j, tk_json_token *tok)
{
    tok->type = TK_JSON_NONE;
    tok->str = NULL;
    tok->len = 0;
    tok->is_int = tok->negative = tok->had_escapes = 0;
    tok->u = 0;
    tok->d = 0;
    uint64_t off = cur_offset(j);
    tok->offset = (int64_t)off;
    tok->line = j->line;
    tok->column = off - j->line_start + 1;
}

/* What punctuation() found besides a token or an error. */
enum { NEXT_VALUE = 2, NEXT_AGAIN = 3 };

/* The grammar around values, by state, at character c (-1 at the end): TK_OK
 * with *tok a token (an end of array or object, a key), TK_END at the end of
 * the input, NEXT_AGAIN (a ',' or ':' consumed: look again), NEXT_VALUE (a
 * value starts at c), or an error. */
static inline int punctuation(tk_json *j, tk_json_token *tok, int c, tk_error *err)
{
    char b[16];
    switch (j->state) {
    case ST_TOP_DONE:
        if (c < 0) return TK_END;
        return fail_here(j, err, TK_ERR_FORMAT,
                         "expected end of input after the JSON value, found %s", describe(c, b));
    case ST_ARR_NEXT:
    case ST_OBJ_NEXT: {
        char close = j->state == ST_ARR_NEXT ? ']' : '}';
        if (c == ',') {
            j->cur++;
            j->state = j->state == ST_ARR_NEXT ? ST_ARR_VALUE : ST_OBJ_KEY;
            return NEXT_AGAIN;
        }
        if (c == close) {
            j->cur++;
            tok->type = close == ']' ? TK_JSON_ARRAY_END : TK_JSON_OBJECT_END;
            j->depth--;
            j->state = after_value(j);
            return TK_OK;
        }
        return fail_here(j, err, TK_ERR_FORMAT, "expected ',' or '%c', found %s", close,
                         describe(c, b));
    }
    case ST_OBJ_FIRST:
    case ST_OBJ_KEY: {
        if (c == '}' && j->state == ST_OBJ_FIRST) {
            j->cur++;
            tok->type = TK_JSON_OBJECT_END;
            j->depth--;
            j->state = after_value(j);
            return TK_OK;
        }
        if (c != '"')
            return fail_here(j, err, TK_ERR_FORMAT, "expected a string key%s, found %s",
                             j->state == ST_OBJ_FIRST ? " or '}'" : "", describe(c, b));
        j->cur++;
        tk_status st = read_string(j, tok, err);
        if (st != TK_OK) return st;
        tok->type = TK_JSON_KEY;
        j->state = ST_OBJ_COLON;
        return TK_OK;
    }
    case ST_OBJ_COLON:
        if (c != ':')
            return fail_here(j, err, TK_ERR_FORMAT, "expected ':' after a key, found %s",
                             describe(c, b));
        j->cur++;
        j->state = ST_OBJ_VALUE;
        return NEXT_AGAIN;
    case ST_ARR_FIRST:
        if (c == ']') {
            j->cur++;
            tok->type = TK_JSON_ARRAY_END;
            j->depth--;
            j->state = after_value(j);
            return TK_OK;
        }
        return NEXT_VALUE;
    default: /* ST_ARR_VALUE, ST_OBJ_VALUE, ST_TOP_VALUE */ return NEXT_VALUE;
    }
}

/* The value starting at character c. */
static inline tk_status read_value(tk_json *j, tk_json_token *tok, int c, tk_error *err)
{
    char b[16];
    tk_status st;
    switch (c) {
    case '{':
    case '[':
        if (j->depth >= j->max_depth)
            return fail_here(j, err, TK_ERR_LIMIT, "nesting deeper than the limit of %zu",
                             j->max_depth);
        j->cur++;
        j->stack[j->depth++] = c == '[' ? 'a' : 'o';
        j->state = c == '[' ? ST_ARR_FIRST : ST_OBJ_FIRST;
        tok->type = c == '[' ? TK_JSON_ARRAY_BEGIN : TK_JSON_OBJECT_BEGIN;
        return TK_OK;
    case '"':
        j->cur++;
        st = read_string(j, tok, err);
        if (st != TK_OK) return st;
        tok->type = TK_JSON_STRING;
        break;
    case 't':
        st = expect_word(j, "true", tok, err);
        if (st != TK_OK) return st;
        tok->type = TK_JSON_TRUE;
        break;
    case 'f':
        st = expect_word(j, "false", tok, err);
        if (st != TK_OK) return st;
        tok->type = TK_JSON_FALSE;
        break;
    case 'n':
        st = expect_word(j, "null", tok, err);
        if (st != TK_OK) return st;
        tok->type = TK_JSON_NULL;
        break;
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            st = read_number(j, tok, err);
            if (st != TK_OK) return st;
            tok->type = TK_JSON_NUMBER;
            break;
        }
        return fail_here(j, err, TK_ERR_FORMAT, "expected a JSON value, found %s", describe(c, b));
    }
    j->state = after_value(j);
    return TK_OK;
}

tk_status tk_json_next(tk_json *j, tk_json_token *tok, tk_error *err)
{
    for (;;) {
        tk_status st = skip_ws(j, err);
        if (st != TK_OK) return st;
        int c = j->cur < j->lim ? *j->cur : -1;
        token_start(j, tok);
        int r = punctuation(j, tok, c, err);
        if (r == NEXT_AGAIN) continue;
        if (r != NEXT_VALUE) return (tk_status)r;
        return read_value(j, tok, c, err);
    }
}

tk_status tk_json_skip(tk_json *j, const tk_json_token *tok, tk_error *err)
{
    if (tok->type != TK_JSON_OBJECT_BEGIN && tok->type != TK_JSON_ARRAY_BEGIN) return TK_OK;
    size_t target = j->depth - 1;
    tk_json_token t;
    while (j->depth > target) {
        tk_status st = tk_json_next(j, &t, err);
        if (st == TK_END) return tk_json_fail(j, &t, err, "unexpected end of input");
        if (st != TK_OK) return st;
    }
    return TK_OK;
}

/* A NUMBER written as an integer (no fraction or exponent), whatever its size. */
static int integral_literal(const tk_json_token *tok)
{
    return memchr(tok->str, '.', tok->len) == NULL && memchr(tok->str, 'e', tok->len) == NULL &&
           memchr(tok->str, 'E', tok->len) == NULL;
}

tk_status tk_json_token_u64(const tk_json_token *tok, uint64_t *out)
{
    if (tok->type == TK_JSON_NUMBER) {
        if (!tok->is_int) return integral_literal(tok) ? TK_ERR_LIMIT : TK_ERR_FORMAT;
        if (tok->negative && tok->u != 0) return TK_ERR_FORMAT;
        *out = tok->u;
        return TK_OK;
    }
    if (tok->type == TK_JSON_STRING) return tk_num_parse_u64(tok->str, tok->len, out);
    return TK_ERR_FORMAT;
}

tk_status tk_json_token_i64(const tk_json_token *tok, int64_t *out)
{
    if (tok->type == TK_JSON_NUMBER) {
        if (!tok->is_int) return integral_literal(tok) ? TK_ERR_LIMIT : TK_ERR_FORMAT;
        if (tok->negative) {
            if (tok->u > (uint64_t)INT64_MAX + 1) return TK_ERR_LIMIT;
            *out = tok->u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)tok->u;
        } else {
            if (tok->u > (uint64_t)INT64_MAX) return TK_ERR_LIMIT;
            *out = (int64_t)tok->u;
        }
        return TK_OK;
    }
    if (tok->type == TK_JSON_STRING) return tk_num_parse_i64(tok->str, tok->len, out);
    return TK_ERR_FORMAT;
}

/* ---- integers of table rows ------------------------------------------------- */

/* A plain JSON integer at *pp (first byte a digit); 0 when unusual (more
 * than 19 digits, a leading zero, a fraction or exponent, the chunk's end). */
static inline __attribute__((always_inline)) int fast_int(const uint8_t **pp, const uint8_t *lim,
                                                          uint64_t *out)
{
    const uint8_t *p = *pp, *s = p;
    uint64_t v = 0;
    if (lim - p >= 2 && !(char_class[p[1]] & C_NUM)) { /* one digit (counts of 0, small sizes) */
        *pp = p + 1;
        *out = (uint64_t)(*p - '0');
        return 1;
    }
#if TK_FAST_SWAR
    if (lim - p >= 16) {
        /* up to 7 digits at once: find the first non-digit byte of 8, then
         * combine the digits pairwise */
        uint64_t w;
        memcpy(&w, p, 8);
        uint64_t nd = tk_swar_nondigits(w);
        if (nd) {
            unsigned n = tk_swar_first(nd);
            if (n == 0) return 0;
            uint64_t d = tk_swar_dec(w, n);
            p += n;
            if ((char_class[*p] & C_NUM) || (n > 1 && *s == '0')) return 0;
            *pp = p;
            *out = d;
            return 1;
        }
    }
#endif
    p = (const uint8_t *)tk_fast_dec((const char *)p, (const char *)lim, TK_FAST_DEC_MAX, &v);
    if (!p || p == lim || (char_class[*p] & C_NUM) || (p - s > 1 && *s == '0')) return 0;
    *pp = p;
    *out = v;
    return 1;
}

/* ---- compiled rows ---------------------------------------------------------- */

/* A scalar cell at *pp: a plain JSON integer (fast_int) or a string of a
 * "0x" and 1-16 hex digits or of 1-19 decimal digits (no leading zero: the
 * DCFG-Trace reader refuses it, the DCFG reader reads it on its slow path);
 * 0 when unusual. */
static inline __attribute__((always_inline)) int scan_scalar(const uint8_t **pp, const uint8_t *lim,
                                                             uint64_t *out)
{
    const uint8_t *p = *pp;
    uint8_t c = *p;
    if (c >= '0' && c <= '9') return fast_int(pp, lim, out);
    if (c != '"') return 0;
    p++;
    uint64_t v = 0;
    if (lim - p >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && tk_fast_hexval(p[2]) < 16) {
        p += 2;
#if TK_FAST_SWAR
        if (lim - p >= 8) { /* up to 7 hex digits at once */
            uint64_t w;
            memcpy(&w, p, 8);
            unsigned n = tk_swar_hex(w, &v);
            if (n < 8) {
                p += n;
                goto hex_done;
            }
        }
#endif
        p = (const uint8_t *)tk_fast_hex((const char *)p, (const char *)lim, TK_FAST_HEX_MAX, &v);
        if (!p) return 0;
    } else {
        const uint8_t *s = p;
        p = (const uint8_t *)tk_fast_dec((const char *)p, (const char *)lim, TK_FAST_DEC_MAX, &v);
        if (!p || (*s == '0' && p - s > 1)) return 0;
    }
#if TK_FAST_SWAR
hex_done:
#endif
    if (p == lim || *p != '"') return 0;
    *pp = p + 1;
    *out = v;
    return 1;
}

/* A string cell at *pp: a plain string (no escapes, no control characters,
 * within max_string) into row's slot; 0 when unusual. */
static inline int scan_string_cell(const tk_json *j, const uint8_t **pp, tk_json_row_out *row,
                                   unsigned slot)
{
    const uint8_t *p = *pp, *lim = j->lim;
    if (*p != '"') return 0;
    const uint8_t *s = ++p;
    p = string_run(p, lim, j->fast);
    if (p == lim || *p != '"' || (size_t)(p - s) > j->max_string || (uint64_t)(p - s) > UINT32_MAX)
        return 0;
    row->v[slot] = j->chunk_base + (uint64_t)(s - j->chunk);
    row->n[slot] = (uint32_t)(p - s);
    *pp = p + 1;
    return 1;
}

/* White space inside a row, counting lines, over p, lim, line and line_start;
 * the chunk's end returns FAIL. */
#define SCAN_WS(FAIL) \
    for (;;) { \
        if (p == lim) return FAIL; \
        if (*p > ' ') break; \
        if (*p == ' ' || *p == '\t' || *p == '\r') \
            p++; \
        else if (*p == '\n') { \
            p++; \
            line++; \
            line_start = j->chunk_base + (uint64_t)(p - j->chunk); \
        } else \
            break; \
    }

/* From the current position to the '[' of the next row of the array being
 * read (after its ',' when a row came before): 1 and *pp at the '[', 0 when
 * the position is not before a row. (Inlined: tk_json_scan_row's loop.) */
static inline __attribute__((always_inline)) int row_open(const tk_json *j, const uint8_t **pp,
                                                          uint64_t *linep, uint64_t *line_startp)
{
    const uint8_t *p = j->cur, *lim = j->lim;
    uint64_t line = j->line, line_start = j->line_start;
    /* (j->fast is its callers' to look at: a load and a branch per row here were 0.5 % of
     * the DCFG bench's instructions) */
    if (j->depth == 0 || j->stack[j->depth - 1] != 'a' || j->depth + 2 > j->max_depth) return 0;
    if (j->state == ST_ARR_NEXT) {
        if (lim - p >= 3 && p[0] == ',' && p[1] == ' ' && p[2] == '[') { /* the usual ", [" */
            p += 2;
        } else {
            SCAN_WS(0);
            if (*p != ',') return 0;
            p++;
            SCAN_WS(0);
        }
    } else if (j->state == ST_ARR_FIRST || j->state == ST_ARR_VALUE) {
        SCAN_WS(0);
    } else {
        return 0;
    }
    if (*p != '[') return 0;
    *pp = p;
    *linep = line;
    *line_startp = line_start;
    return 1;
}

/* Where the row found between open and its ']' at p is, and where reading
 * goes on (tk_json_take_scanned). */
static inline void row_done(const tk_json *j, tk_json_row_out *row, const uint8_t *open,
                            uint64_t open_line, uint64_t open_line_start, const uint8_t *p,
                            uint64_t line, uint64_t line_start)
{
    uint64_t off = j->chunk_base + (uint64_t)(open - j->chunk);
    row->offset = (int64_t)off;
    row->line = open_line;
    row->column = off - open_line_start + 1;
    row->end = p + 1;
    row->end_line = line;
    row->end_line_start = line_start;
}

int tk_json_scan_row(const tk_json *j, const tk_json_row_prog *restrict pg,
                     tk_json_row_out *restrict row)
{
    const uint8_t *p, *lim = j->lim;
    uint64_t line, line_start;
    if (!row_open(j, &p, &line, &line_start)) return -1;
    const uint8_t *open = p;
    uint64_t open_line = line, open_line_start = line_start;
    p++;
    int nc = 0;
    uint32_t nv = 0;
    SCAN_WS(-1);
    if (*p != ']') {
        for (;;) {
            if (nc == pg->ncells) return -1;
            unsigned slot = pg->slot[nc];
            uint64_t v;
            if (!pg->is_array[nc]) {
#if TK_FAST_SWAR
                /* the usual cell: 1 to 7 digits (bytes up to p + 15 readable) */
                if (lim - p >= 16) {
                    uint64_t w;
                    memcpy(&w, p, 8);
                    uint64_t nd = tk_swar_nondigits(w);
                    unsigned n = tk_swar_first(nd | (1ull << 63)); /* 7 when nd is 0 */
                    if (n && nd) {
                        if (n == 1)
                            v = (uint64_t)(*p - '0');
                        else {
                            if (*p == '0') return -1;
                            v = tk_swar_dec(w, n);
                        }
                        if (v < pg->lo[nc] || v > pg->hi[nc]) return -1;
                        row->v[slot] = v;
                        nc++;
                        /* the bytes after the digits are in w: the usual ", " then a
                         * value, or the row's ']' */
                        uint64_t after = w >> (8 * n);
                        if (n <= 5 && (after & 0xffff) == TK_FAST_COMMA_BLANK &&
                            ((after >> 16) & 0xff) > ' ') {
                            p += n + 2;
                            continue;
                        }
                        p += n;
                        if ((after & 0xff) == ']') break;
                        if (char_class[*p] & C_NUM) return -1;
                        goto separator;
                    }
                }
#endif
                if (!scan_scalar(&p, lim, &v)) return -1;
                if (v < pg->lo[nc] || v > pg->hi[nc]) return -1;
                row->v[slot] = v;
            } else {
                if (*p != '[') return -1;
                p++;
                uint32_t first = nv;
                SCAN_WS(-1);
                if (*p != ']') {
                    for (;;) {
                        if (nv == TK_JSON_ROW_MAX_VALUES || *p < '0' || *p > '9') return -1;
                        if (!fast_int(&p, lim, &v)) return -1;
                        if (v < pg->lo[nc] || v > pg->hi[nc]) return -1;
                        row->vals[nv++] = v;
                        if (lim - p >= 3 && p[0] == ',' && p[1] == ' ' && p[2] > ' ') {
                            p += 2;
                            continue;
                        }
                        SCAN_WS(-1);
                        if (*p == ']') break;
                        if (*p != ',') return -1;
                        p++;
                        SCAN_WS(-1);
                    }
                }
                p++;
                row->v[slot] = first;
                row->n[slot] = nv - first;
            }
            nc++;
#if TK_FAST_SWAR
        separator:
#endif
            if (lim - p >= 3 && p[0] == ',' && p[1] == ' ' && p[2] > ' ') { /* the usual ", " */
                p += 2;
                continue;
            }
            if (p < lim && *p == ']') break;
            SCAN_WS(-1);
            if (*p == ']') break;
            if (*p != ',') return -1;
            p++;
            SCAN_WS(-1);
        }
    }
    if (nc < pg->min_cells) return -1;
    row_done(j, row, open, open_line, open_line_start, p, line, line_start);
    return nc;
}
#undef SCAN_WS

/* Skips white space inside a row (tk_json_scan_row_strings); 0 at the chunk's end. */
static inline int row_ws(const tk_json *j, const uint8_t **pp, uint64_t *line, uint64_t *line_start)
{
    const uint8_t *p = *pp;
    for (;;) {
        if (p == j->lim) return 0;
        if (*p > ' ') break;
        if (*p == ' ' || *p == '\t' || *p == '\r') {
            p++;
        } else if (*p == '\n') {
            p++;
            (*line)++;
            *line_start = j->chunk_base + (uint64_t)(p - j->chunk);
        } else {
            break;
        }
    }
    *pp = p;
    return 1;
}

/* The cells of a row after its '[' (tk_json_scan_row_strings): their number, or -1. */
static int string_row_cells(const tk_json *j, const tk_json_row_prog *restrict pg,
                            tk_json_row_out *restrict row, const uint8_t **pp, uint64_t *line,
                            uint64_t *line_start)
{
    const uint8_t *p = *pp, *lim = j->lim;
    int nc = 0;
    uint32_t nv = 0;
    if (!row_ws(j, &p, line, line_start)) return -1;
    if (*p != ']')
        for (;;) {
            if (nc == pg->ncells) return -1;
            unsigned slot = pg->slot[nc];
            uint64_t v;
            if (pg->is_array[nc] == TK_JSON_CELL_STRING) {
                if (!scan_string_cell(j, &p, row, slot)) return -1;
            } else if (pg->is_array[nc]) {
                uint32_t first = nv;
                if (*p != '[') return -1;
                p++;
                if (!row_ws(j, &p, line, line_start)) return -1;
                if (*p != ']')
                    for (;;) {
                        if (nv == TK_JSON_ROW_MAX_VALUES || *p < '0' || *p > '9' ||
                            !fast_int(&p, lim, &v) || v < pg->lo[nc] || v > pg->hi[nc])
                            return -1;
                        row->vals[nv++] = v;
                        if (!row_ws(j, &p, line, line_start)) return -1;
                        if (*p == ']') break;
                        if (*p != ',') return -1;
                        p++;
                        if (!row_ws(j, &p, line, line_start)) return -1;
                    }
                p++;
                row->v[slot] = first;
                row->n[slot] = nv - first;
            } else {
                if (!scan_scalar(&p, lim, &v) || v < pg->lo[nc] || v > pg->hi[nc]) return -1;
                row->v[slot] = v;
            }
            nc++;
            if (!row_ws(j, &p, line, line_start)) return -1;
            if (*p == ']') break;
            if (*p != ',') return -1;
            p++;
            if (!row_ws(j, &p, line, line_start)) return -1;
        }
    *pp = p;
    return nc;
}

/* tk_json_scan_row with string cells: a loop of its own, plainer (no 8-byte
 * digit paths: DCFG-Trace's rows are few and hold long strings).  A string
 * branch inside tk_json_scan_row's loop, taken or not, and any way of sharing
 * that loop between the two (an inlined template, a flag per row), made the
 * DCFG reader's rows take 1.5-8 % more instructions there (GCC's allocation of
 * that loop's registers), so that loop is left as it was. */
int tk_json_scan_row_strings(const tk_json *j, const tk_json_row_prog *restrict pg,
                             tk_json_row_out *restrict row)
{
    const uint8_t *p = j->cur;
    uint64_t line = j->line, line_start = j->line_start;
    if (!j->fast || j->depth == 0 || j->stack[j->depth - 1] != 'a' || j->depth + 2 > j->max_depth)
        return -1;
    if (j->state == ST_ARR_NEXT) {
        if (!row_ws(j, &p, &line, &line_start) || *p != ',') return -1;
        p++;
    } else if (j->state != ST_ARR_FIRST && j->state != ST_ARR_VALUE) {
        return -1;
    }
    if (!row_ws(j, &p, &line, &line_start) || *p != '[') return -1;
    const uint8_t *open = p++;
    uint64_t open_line = line, open_line_start = line_start;
    int nc = string_row_cells(j, pg, row, &p, &line, &line_start);
    if (nc < pg->min_cells) return -1;
    row_done(j, row, open, open_line, open_line_start, p, line, line_start);
    return nc;
}

void tk_json_take_scanned(tk_json *j, const tk_json_row_out *row)
{
    /* one scalar load each (see tk_json_row_cell): just stored by the scan */
    uint64_t line = tk_fast_opaque_u64(row->end_line);
    uint64_t line_start = tk_fast_opaque_u64(row->end_line_start);
    j->cur = row->end;
    j->line = line;
    j->line_start = line_start;
    j->state = ST_ARR_NEXT;
}

/* ---- reading a fixed layout ------------------------------------------------- */

tk_status tk_json_peek(tk_json *j, int *c, tk_error *err)
{
    tk_status st = skip_ws(j, err);
    *c = st == TK_OK && j->cur < j->lim ? *j->cur : -1;
    return st;
}

static void pos_at(const tk_json *j, const uint8_t *p, tk_json_pos *pos)
{
    uint64_t off = j->chunk_base + (uint64_t)(p - j->chunk);
    pos->offset = (int64_t)off;
    pos->line = j->line;
    pos->column = off - j->line_start + 1;
}

void tk_json_here(const tk_json *j, tk_json_pos *pos) { pos_at(j, j->cur, pos); }

tk_status tk_json_fail_at(const tk_json *j, const tk_json_pos *pos, tk_error *err, tk_status code,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_error_vset(err, code, fmt, ap);
    va_end(ap);
    tk_error_locate(err, j->path, pos->offset, pos->line, pos->column);
    return code;
}

/* What is at p, for "found ...": a string's first 40 bytes (with its closing
 * quote when that is among them), a character, a byte value, or the end. */
static const char *found_text(const tk_json *j, const uint8_t *p, char *buf, size_t size)
{
    if (p >= j->lim) return "end of file";
    if (*p == '"') {
        const uint8_t *q = p + 1;
        while (q < j->lim && *q != '"' && q - p <= 40) q++;
        snprintf(buf, size, "\"%.*s%s", (int)(q - p - 1), (const char *)p + 1,
                 q < j->lim && *q == '"' ? "\"" : "...");
    } else if (*p < 0x20 || *p >= 0x7f) {
        snprintf(buf, size, "byte 0x%02x", *p);
    } else {
        snprintf(buf, size, "'%c'", *p);
    }
    return buf;
}

tk_status tk_json_fail_expected(const tk_json *j, const char *what, tk_error *err)
{
    char buf[64];
    tk_json_pos pos;
    tk_json_here(j, &pos);
    return tk_json_fail_at(j, &pos, err, TK_ERR_FORMAT, "expected %s, found %s", what,
                           found_text(j, j->cur, buf, sizeof buf));
}

/* A byte the grammar does not allow in the current state: the error
 * tk_json_next gives for it. */
static tk_status grammar_error(tk_json *j, tk_error *err)
{
    tk_json_token tok;
    tk_status st = tk_json_next(j, &tok, err);
    return st == TK_OK ? tk_json_fail(j, &tok, err, "unexpected %s", tk_json_type_name(tok.type))
                       : st;
}

tk_status tk_json_take(tk_json *j, tk_error *err)
{
    assert(j->cur < j->lim && memchr(",:[]{}", *j->cur, 6));
    uint8_t c = *j->cur;
    if (c == ',' && (j->state == ST_ARR_NEXT || j->state == ST_OBJ_NEXT)) {
        j->cur++;
        j->state = j->state == ST_ARR_NEXT ? ST_ARR_VALUE : ST_OBJ_KEY;
        return TK_OK;
    }
    if (c == ':' && j->state == ST_OBJ_COLON) {
        j->cur++;
        j->state = ST_OBJ_VALUE;
        return TK_OK;
    }
    if (c == ',' || c == ':') return grammar_error(j, err);
    tk_json_token tok;
    return tk_json_next(j, &tok, err); /* a bracket, or its error */
}

/* Whether a value (or, with keys, a key) may start in the current state. */
static int value_state(const tk_json *j, int keys)
{
    switch (j->state) {
    case ST_TOP_VALUE:
    case ST_ARR_FIRST:
    case ST_ARR_VALUE:
    case ST_OBJ_VALUE: return 1;
    case ST_OBJ_FIRST:
    case ST_OBJ_KEY: return keys;
    default: return 0;
    }
}

/* The string whose opening quote is at the cursor, as a span: *end at its
 * closing quote. Escapes are skipped as written. */
static tk_status raw_span(tk_json *j, const uint8_t **end, tk_error *err)
{
    const uint8_t *open = j->cur, *q = open + 1, *lim = j->lim;
    tk_json_pos at, pos; /* the opening quote (before an escaped new line moves the line) */
    pos_at(j, open, &at);
    for (;;) {
        q = string_run(q, lim, j->fast);
        if (q < lim && *q == '"') break;
        if (q < lim && *q == '\\' && lim - q >= 2) {
            if (q[1] == '\n') { /* counted like every other new line */
                j->line++;
                j->line_start = j->chunk_base + (uint64_t)(q + 2 - j->chunk);
            }
            q += 2;
            continue;
        }
        if (q < lim && *q != '\\') {
            pos_at(j, q, &pos);
            return tk_json_fail_at(j, &pos, err, TK_ERR_FORMAT,
                                   "control character 0x%02x inside a JSON string", *q);
        }
        return tk_json_fail_at(j, &at, err, TK_ERR_FORMAT, "unterminated JSON string");
    }
    if ((size_t)(q - open - 1) > j->max_string)
        return tk_json_fail_at(j, &at, err, TK_ERR_LIMIT,
                               "string longer than the limit of %zu bytes", j->max_string);
    *end = q;
    return TK_OK;
}

tk_status tk_json_next_raw(tk_json *j, const char *what, const char **s, size_t *len, tk_error *err)
{
    assert(j->whole);
    int c;
    tk_status st = tk_json_peek(j, &c, err);
    if (st != TK_OK) return st;
    if (c != '"') return tk_json_fail_expected(j, what, err);
    if (!value_state(j, 1)) return grammar_error(j, err);
    const uint8_t *end;
    if ((st = raw_span(j, &end, err)) != TK_OK) return st;
    *s = (const char *)j->cur + 1;
    *len = (size_t)(end - j->cur - 1);
    j->cur = end + 1;
    j->state = j->state == ST_OBJ_FIRST || j->state == ST_OBJ_KEY ? ST_OBJ_COLON : after_value(j);
    return TK_OK;
}

/* The integer of a string tk_json_next_u64 reads; the cursor is at its
 * opening quote, at. */
static tk_status string_u64(tk_json *j, const tk_json_pos *at, const char *what, uint64_t *out,
                            tk_error *err)
{
    const uint8_t *end;
    tk_status st = raw_span(j, &end, err);
    if (st != TK_OK) return st;
    const char *s = (const char *)j->cur + 1;
    size_t len = (size_t)(end - j->cur - 1);
    st = tk_num_parse_u64(s, len, out);
    if (st == TK_ERR_LIMIT)
        return tk_json_fail_at(j, at, err, TK_ERR_LIMIT, "%s does not fit in 64 bits", what);
    const char *why = "an integer, or a string of a \"0x...\" hex or a decimal number";
    if (st == TK_OK && len > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9')
        why = "a decimal string without a leading zero (C would read it as octal), or a "
              "\"0x...\" hex string";
    else if (st == TK_OK) {
        j->cur = end + 1;
        j->state = after_value(j);
        return TK_OK;
    }
    char buf[64];
    return tk_json_fail_at(j, at, err, TK_ERR_FORMAT, "expected %s (%s), found %s", what, why,
                           found_text(j, j->cur, buf, sizeof buf));
}

tk_status tk_json_next_u64(tk_json *j, const char *what, uint64_t *out, tk_error *err)
{
    assert(j->whole);
    int c;
    tk_status st = tk_json_peek(j, &c, err);
    if (st != TK_OK) return st;
    if (c != '"' && c != '-' && !(c >= '0' && c <= '9')) return tk_json_fail_expected(j, what, err);
    if (!value_state(j, 0)) return grammar_error(j, err);
    tk_json_pos at;
    tk_json_here(j, &at);
    if (c == '"') return string_u64(j, &at, what, out, err);
    if (c == '-')
        return tk_json_fail_at(j, &at, err, TK_ERR_FORMAT,
                               "expected %s (a non-negative integer), found a negative number",
                               what);
    const uint8_t *p = j->cur;
    uint64_t v;
    /* (fast_int is a fast path, core/fastpath.h: what follows is its general twin) */
    if (!TK_FAST_PATHS || !j->fast || !fast_int(&p, j->lim, &v)) {
        /* the digits end the number: what follows is the grammar's ("1-": ',' expected) */
        while (p < j->lim && *p >= '0' && *p <= '9') p++;
        if (tk_num_parse_u64((const char *)j->cur, (size_t)(p - j->cur), &v) != TK_OK)
            return tk_json_fail_at(j, &at, err, TK_ERR_LIMIT, "%s does not fit in 64 bits", what);
        if (p < j->lim && (*p == '.' || *p == 'e' || *p == 'E'))
            return tk_json_fail_at(j, &at, err, TK_ERR_FORMAT,
                                   "expected %s (an integer), found a fractional number", what);
        if (p - j->cur > 1 && *j->cur == '0')
            return tk_json_fail_at(j, &at, err, TK_ERR_FORMAT,
                                   "JSON numbers have no leading zeros (%s)", what);
    }
    j->cur = p;
    j->state = after_value(j);
    *out = v;
    return TK_OK;
}
