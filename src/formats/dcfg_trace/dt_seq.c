/* DCFG-Trace: lazy expansion of EDGE_ID_SEQUENCE strings (spec 3.7.1).
 *
 * Repeats "(n*...)" and dictionary references "<key>" are expanded with a
 * stack of frames; nothing is materialised. A repeat body that produced no
 * character in one iteration produces none in the next, so the remaining
 * iterations are skipped (no hang on "(99999999999*)"). A repeat whose
 * remaining iterations would produce more characters than the chunk can
 * consume is an error as soon as one iteration has been measured. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "formats/dcfg_trace/dt_internal.h"

const char tk_dt_b64_chars[65] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

#define X -1
const signed char tk_dt_b64_value[256] = {
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  62, X,  63, X,  X,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, X,  X,  X,  X,  X,  X,  X,  0,  1,  2,  3,  4,  5,  6,
    7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, X,  X,  X,  X,  X,
    X,  26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
    49, 50, 51, X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
};
#undef X

static int is_seq_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void tk_dt_expander_init(dt_expander *x, const tk_dcfg_trace *t, const dt_process *p,
                         const char *seq, size_t len, uint64_t char_budget)
{
    x->p = seq;
    x->end = seq + len;
    x->trace = t;
    x->proc = p;
    x->chars = 0;
    x->char_budget = char_budget;
    x->depth = 0;
    x->last_char = seq;
}

static int fail(dt_expander *x, tk_error *err, const char *at, tk_status code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail(dt_expander *x, tk_error *err, const char *at, tk_status code, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tk_dt_error_at(x->trace, err, code, (int64_t)(at - x->trace->data), "%s", msg);
    return -2;
}

static const char *describe_char(char c, char *buf)
{
    if (c == '"') return "end of string";
    if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f) {
        snprintf(buf, 8, "0x%02x", (unsigned char)c);
        return buf;
    }
    buf[0] = '\'';
    buf[1] = c;
    buf[2] = '\'';
    buf[3] = 0;
    return buf;
}

static uint64_t key_hash(const char *k, const char *kend)
{
    uint64_t h = 1469598103934665603ULL;
    for (; k < kend; k++)
        if (!is_seq_space(*k)) h = (h ^ (unsigned char)*k) * 1099511628211ULL;
    return h;
}

int tk_dt_dict_index(dt_process *p)
{
    if (p->ndict == 0) return 0;
    size_t cap = 16;
    while (cap < p->ndict * 2) cap *= 2;
    p->dict_slots = tk_calloc(cap, sizeof *p->dict_slots);
    if (!p->dict_slots) return -1;
    p->dict_cap = cap;
    for (size_t i = 0; i < p->ndict; i++) {
        size_t j = key_hash(p->dict[i].key, p->dict[i].key + p->dict[i].key_len) & (cap - 1);
        while (p->dict_slots[j]) j = (j + 1) & (cap - 1);
        p->dict_slots[j] = (uint32_t)i + 1;
    }
    return 0;
}

static int key_equal(const dt_dict_entry *d, const char *k, const char *kend)
{
    size_t j = 0;
    for (; k < kend; k++) {
        if (is_seq_space(*k)) continue;
        if (j >= d->key_len || d->key[j++] != *k) return 0;
    }
    return j == d->key_len;
}

long tk_dt_dict_find(const dt_process *p, const char *k, const char *kend)
{
    if (p->dict_cap == 0) return -1;
    size_t j = key_hash(k, kend) & (p->dict_cap - 1);
    while (p->dict_slots[j]) {
        const dt_dict_entry *d = &p->dict[p->dict_slots[j] - 1];
        if (key_equal(d, k, kend)) return (long)(p->dict_slots[j] - 1);
        j = (j + 1) & (p->dict_cap - 1);
    }
    return -1;
}

/* The slow path's steps return 0 to go on, or what dt_expander_next returns
 * (-1 at the end, -2 after an error). */

/* The current text ended: back to the frame below (a repeat's ')' is
 * missing), or the end. */
static inline __attribute__((always_inline)) int text_end(dt_expander *x, tk_error *err)
{
    if (x->depth == 0) return -1;
    dt_frame *f = &x->frames[x->depth - 1];
    if (f->kind == DT_FRAME_REPEAT) {
        const char *open = f->body;
        while (open > x->trace->data && *open != '(') open--;
        return fail(x, err, open, TK_ERR_FORMAT, "unterminated repeat (no ')')");
    }
    x->p = f->body;
    x->end = f->end;
    x->depth--;
    return 0;
}

/* "(N*" at x->p: a repeat frame. */
static inline int open_repeat(dt_expander *x, tk_error *err)
{
    char cbuf[8];
    const char *at = x->p;
    const char *q = at + 1;
    uint64_t n = 0;
    tk_status nst = tk_num_scan_dec(&q, x->end, &n); /* past the digits on overflow */
    int overflow = nst == TK_ERR_LIMIT;
    if (nst == TK_ERR_FORMAT)
        return fail(x, err, q, TK_ERR_FORMAT, "expected a decimal repeat count after '(', found %s",
                    describe_char(q < x->end ? *q : '"', cbuf));
    if (q >= x->end || *q != '*')
        return fail(x, err, q, TK_ERR_FORMAT, "expected '*' after the repeat count, found %s",
                    describe_char(q < x->end ? *q : '"', cbuf));
    if (overflow)
        return fail(x, err, at, TK_ERR_LIMIT, "repeat count too large (over %llu)",
                    (unsigned long long)UINT64_MAX);
    if (n == 0)
        return fail(x, err, at + 1, TK_ERR_FORMAT, "repeat count must be at least 1, found 0");
    if (x->depth >= TK_DCFG_TRACE_MAX_NESTING)
        return fail(x, err, at, TK_ERR_LIMIT,
                    "repeats and dictionary references nested deeper than %d",
                    TK_DCFG_TRACE_MAX_NESTING);
    dt_frame *f = &x->frames[x->depth++];
    f->kind = DT_FRAME_REPEAT;
    f->body = q + 1;
    f->end = NULL;
    f->count = n;
    f->remaining = n - 1;
    f->chars_at_iter = x->chars;
    x->p = q + 1;
    return 0;
}

/* ')' at x->p: the repeat's next iteration, or its end. */
static inline __attribute__((always_inline)) int close_repeat(dt_expander *x, tk_error *err)
{
    if (x->depth == 0 || x->frames[x->depth - 1].kind != DT_FRAME_REPEAT)
        return fail(x, err, x->p, TK_ERR_FORMAT, "')' without a matching '('");
    dt_frame *f = &x->frames[x->depth - 1];
    uint64_t produced = x->chars - f->chars_at_iter;
    if (f->remaining == 0 || produced == 0) {
        x->depth--;
        x->p++;
        return 0;
    }
    /* the remaining iterations produce `produced` characters each */
    uint64_t left = x->char_budget > x->chars ? x->char_budget - x->chars : 0;
    if (f->remaining > left / produced) {
        const char *open = f->body;
        while (open > x->trace->data && *open != '(') open--;
        return fail(x, err, open, TK_ERR_LIMIT,
                    "repeat count %llu is larger than what the chunk's EDGE_COUNT can consume",
                    (unsigned long long)f->count);
    }
    f->remaining--;
    f->chars_at_iter = x->chars;
    x->p = f->body;
    return 0;
}

/* "<KEY>" at x->p: a dictionary frame. */
static inline int open_reference(dt_expander *x, tk_error *err)
{
    char cbuf[8];
    const char *at = x->p;
    const char *q = at + 1;
    while (q < x->end && *q != '>') {
        if (tk_dt_b64_value[(unsigned char)*q] < 0 && !is_seq_space(*q))
            return fail(x, err, q, TK_ERR_FORMAT,
                        "unexpected %s in a dictionary reference (keys use A-Z a-z 0-9 + -)",
                        describe_char(*q, cbuf));
        q++;
    }
    if (q >= x->end)
        return fail(x, err, at, TK_ERR_FORMAT, "unterminated dictionary reference (no '>')");
    long idx = tk_dt_dict_find(x->proc, at + 1, q);
    if (idx < 0) {
        char key[128];
        size_t n = (size_t)(q - at - 1);
        if (n > sizeof key - 1) n = sizeof key - 1;
        memcpy(key, at + 1, n);
        key[n] = 0;
        return fail(x, err, at, TK_ERR_FORMAT, "key <%s> is not in STRING_DICTIONARY", key);
    }
    /* no cycle check here: tk_dt_parse rejects cycles through the dictionary */
    if (x->depth >= TK_DCFG_TRACE_MAX_NESTING)
        return fail(x, err, at, TK_ERR_LIMIT,
                    "repeats and dictionary references nested deeper than %d",
                    TK_DCFG_TRACE_MAX_NESTING);
    dt_frame *f = &x->frames[x->depth++];
    f->kind = DT_FRAME_DICT;
    f->body = q + 1;
    f->end = x->end;
    f->dict_index = (uint32_t)idx;
    x->p = x->proc->dict[idx].value;
    x->end = x->p + x->proc->dict[idx].value_len;
    return 0;
}

int tk_dt_expander_next_slow(dt_expander *x, tk_error *err)
{
    char cbuf[8];
    for (;;) {
        int r;
        if (x->p >= x->end) {
            if ((r = text_end(x, err)) != 0) return r;
            continue;
        }
        char c = *x->p;
        int v = tk_dt_b64_value[(unsigned char)c];
        if (v >= 0) {
            x->last_char = x->p++;
            x->chars++;
            return v;
        }
        if (is_seq_space(c)) {
            x->p++;
            continue;
        }
        if (c == '(')
            r = open_repeat(x, err);
        else if (c == ')')
            r = close_repeat(x, err);
        else if (c == '<')
            r = open_reference(x, err);
        else
            break;
        if (r != 0) return r;
    }
    if (*x->p == '\\')
        return fail(x, err, x->p, TK_ERR_FORMAT,
                    "JSON escape in an edge-id sequence (sequences hold raw characters only)");
    return fail(x, err, x->p, TK_ERR_FORMAT,
                "unexpected %s in an edge-id sequence (expected A-Z a-z 0-9 + - ( ) < > or space)",
                describe_char(*x->p, cbuf));
}
