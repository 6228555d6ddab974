/* Folded stacks: lines "a;b;c COUNT" (or "a;b;c BEFORE AFTER"), read over a text in memory.
 * Two passes: the first checks every line and finds whether all of them have two counts
 * (differential), the second hands the stacks out. Counts go through the number scanner
 * (core/num): digits with tk_parse_num, a decimal with tk_parse_double. */
#include "tracekit/folded.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compat.h"
#include "core/hash.h"
#include "core/num.h"

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* A count token: digits, optionally '.' and digits. */
static int count_token(const char *s, const char *e)
{
    const char *p = s;
    while (p < e && *p >= '0' && *p <= '9') p++;
    if (p == s) return 0;
    if (p < e && *p == '.') {
        p++;
        while (p < e && *p >= '0' && *p <= '9') p++;
    }
    return p == e;
}

static tk_status count_value(const char *s, const char *e, double *out)
{
    uint64_t v;
    if (memchr(s, '.', (size_t)(e - s))) return tk_num_parse_double(s, (size_t)(e - s), out);
    tk_status st = tk_num_parse(s, (size_t)(e - s), TK_NUM_DEC, &v);
    if (st == TK_OK) *out = (double)v;
    return st;
}

/* One line's reading: the stack before the last count, and whether what ends the stack is a
 * count too (the first of two). */
typedef struct parsed {
    const char *stack, *stack_end; /* one count: the stack */
    const char *diff_end; /* two counts: the end of the stack */
    const char *first, *first_end; /* the token before the count, when a count */
    const char *count, *count_end;
} parsed;

/* Returns 0, or the column (1-based) of what is wrong and *why. */
static size_t parse_line(const char *s, const char *e, parsed *p, const char **why)
{
    const char *c = e;
    while (c > s && !is_blank(c[-1])) c--;
    if (c == s || c == e || !count_token(c, e)) {
        *why = "a blank and a count at the end of the line";
        return (size_t)(c - s) + 1;
    }
    const char *se = c;
    while (se > s && is_blank(se[-1])) se--;
    if (se == s) {
        *why = "a stack before the count";
        return 1;
    }
    p->stack = s;
    p->stack_end = se;
    p->count = c;
    p->count_end = e;
    const char *f = se;
    while (f > s && !is_blank(f[-1]) && f[-1] != ';') f--;
    p->first = p->first_end = NULL;
    if (f > s && is_blank(f[-1]) && count_token(f, se)) {
        const char *fe = f;
        while (fe > s && is_blank(fe[-1])) fe--;
        if (fe > s) {
            p->first = f;
            p->first_end = se;
            p->diff_end = fe;
        }
    }
    return 0;
}

typedef struct scan_state {
    const char *path;
    tk_diag *diag;
    tk_error *err;
    int bad;
} scan_state;

/* A bad line: reported to diag (returns TK_OK: go on) or set in err. */
static tk_status bad_line(scan_state *ss, tk_status code, uint64_t line, size_t col,
                          const char *why, const char *tok, int toklen)
{
    char msg[200];
    if (code == TK_ERR_LIMIT)
        snprintf(msg, sizeof msg, "the count %.*s does not fit (%s)", toklen > 60 ? 60 : toklen,
                 tok, why);
    else
        snprintf(msg, sizeof msg, "expected %s, found '%.*s'", why, toklen > 60 ? 60 : toklen, tok);
    ss->bad = 1;
    if (ss->diag) {
        tk_location loc = {ss->path, -1, line, col};
        tk_diag_report(ss->diag, TK_SEV_ERROR, &loc, "%s", msg);
        return TK_OK;
    }
    return tk_error_set_at(ss->err, code, ss->path, -1, line, col, "%s", msg);
}

/* One non-empty line [s, e), number lineno: with fn NULL checked (a bad one to bad_line), else
 * read as differential or not and handed to fn (a bad one skipped: the check reported it).
 * *two: it has two counts. */
static tk_status one_line(const char *s, const char *e, uint64_t lineno, scan_state *ss, int diff,
                          tk_folded_fn fn, void *user, int *two)
{
    parsed p = {0};
    const char *why;
    size_t col = parse_line(s, e, &p, &why);
    *two = 0;
    if (col) {
        const char *tok = s + col - 1;
        return fn ? TK_OK : bad_line(ss, TK_ERR_FORMAT, lineno, col, why, tok, (int)(e - tok));
    }
    double before = 0;
    if (p.first && count_value(p.first, p.first_end, &before) != TK_OK)
        p.first = NULL; /* a frame's name, then ("f 99999999999999999999999 5") */
    *two = p.first != NULL;
    int d = diff && p.first;
    /* not differential: a number ending the stack belongs to its last frame */
    tk_folded_line l = {p.stack, 0, 0, d ? before : 0, lineno};
    l.stack_len = (size_t)((d ? p.diff_end : p.stack_end) - p.stack);
    const char *tok = p.count;
    tk_status st = count_value(p.count, p.count_end, &l.count);
    if (st != TK_OK)
        return fn ? TK_OK
                  : bad_line(ss, TK_ERR_LIMIT, lineno, (size_t)(tok - s) + 1,
                             "over 64 bits or beyond a double", tok, (int)(e - tok));
    return fn ? fn(user, &l) : TK_OK;
}

/* Pass over the lines (one_line's rules); *two (may be NULL): every stack has two counts. */
static tk_status pass(const char *text, size_t len, scan_state *ss, int diff, tk_folded_fn fn,
                      void *user, int *two)
{
    uint64_t lineno = 0;
    int all_two = 1, any = 0;
    for (const char *s = text, *end = text + len; s < end;) {
        const char *e = memchr(s, '\n', (size_t)(end - s));
        if (!e) e = end;
        const char *next = e + 1;
        lineno++;
        if (e > s && e[-1] == '\r') e--;
        if (e > s) {
            int t;
            tk_status st = one_line(s, e, lineno, ss, diff, fn, user, &t);
            if (st != TK_OK) return st;
            any = 1;
            all_two &= t;
        }
        s = next;
    }
    if (two) *two = any && all_two;
    return TK_OK;
}

tk_status tk_folded_scan(const char *text, size_t len, const char *path, tk_diag *diag,
                         tk_folded_fn fn, void *user, int *differential, tk_error *err)
{
    scan_state ss = {path, diag, err, 0};
    int two = 0;
    tk_status st = pass(text, len, &ss, 0, NULL, NULL, &two);
    if (st == TK_OK && ss.bad) st = tk_error_set(err, TK_ERR_CHECK, "%s: bad lines", path);
    if (differential) *differential = two;
    if (st == TK_OK && fn) {
        /* pass 1 checked every line; the bad ones are skipped (diag) */
        ss.diag = NULL;
        st = pass(text, len, &ss, two, fn, user, NULL);
    }
    return st;
}

/* ---- summary ------------------------------------------------------------------------ */

typedef struct summ {
    tk_folded_summary *s;
    size_t cap;
    tk_hmap index; /* hash of a name -> first function of that hash */
    uint64_t *seen; /* per function: the last stack (line) it was counted in */
    uint32_t *next; /* per function: the next one of the same hash */
    uint64_t key; /* of the names' hashes (tk_hash_new_key) */
} summ;

static tk_status find_fn(summ *m, const char *name, size_t len, size_t *out)
{
    uint64_t h = tk_hash_bytes(m->key, name, len), v;
    int known = tk_hmap_get(&m->index, h, &v);
    for (uint32_t i = known ? (uint32_t)v : UINT32_MAX; i != UINT32_MAX; i = m->next[i]) {
        const tk_folded_function *f = &m->s->functions[i];
        if (f->name_len == len && memcmp(f->name, name, len) == 0) {
            *out = i;
            return TK_OK;
        }
    }
    tk_folded_summary *s = m->s;
    if (s->nfunctions == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        tk_folded_function *f = tk_reallocarray(s->functions, cap, sizeof *f);
        uint64_t *seen = f ? tk_reallocarray(m->seen, cap, sizeof *seen) : NULL;
        if (f) s->functions = f;
        if (seen) m->seen = seen;
        uint32_t *nx = seen ? tk_reallocarray(m->next, cap, sizeof *nx) : NULL;
        if (!nx) return TK_ERR_NOMEM;
        m->next = nx;
        m->cap = cap;
    }
    size_t i = s->nfunctions++;
    memset(&s->functions[i], 0, sizeof s->functions[i]);
    s->functions[i].name = name;
    s->functions[i].name_len = len;
    m->seen[i] = 0;
    m->next[i] = known ? (uint32_t)v : UINT32_MAX;
    if (tk_hmap_put(&m->index, h, i) != 0) return TK_ERR_NOMEM;
    *out = i;
    return TK_OK;
}

static tk_status summ_line(void *user, const tk_folded_line *l)
{
    summ *m = user;
    tk_folded_summary *s = m->s;
    s->stacks++;
    s->total += l->count;
    s->total_before += l->before;
    uint32_t depth = 0;
    size_t i = 0;
    const char *end = l->stack + l->stack_len;
    for (const char *f = l->stack; f <= end; depth++) {
        const char *fe = memchr(f, ';', (size_t)(end - f));
        if (!fe) fe = end;
        tk_status st = find_fn(m, f, (size_t)(fe - f), &i);
        if (st != TK_OK) return st;
        tk_folded_function *fn = &s->functions[i];
        if (m->seen[i] != l->line) {
            m->seen[i] = l->line;
            fn->total += l->count;
            fn->total_before += l->before;
        }
        f = fe + 1;
    }
    s->functions[i].self += l->count;
    s->functions[i].self_before += l->before;
    if (depth > s->max_depth) s->max_depth = depth;
    return TK_OK;
}

tk_status tk_folded_summarize(const char *text, size_t len, const char *path,
                              tk_folded_summary *out, tk_error *err)
{
    memset(out, 0, sizeof *out);
    summ m;
    memset(&m, 0, sizeof m);
    m.key = tk_hash_new_key();
    m.s = out;
    tk_status st = tk_folded_scan(text, len, path, NULL, summ_line, &m, &out->differential, err);
    if (st == TK_ERR_NOMEM) tk_error_set(err, st, "out of memory");
    tk_hmap_free(&m.index);
    tk_free(m.seen);
    tk_free(m.next);
    if (st != TK_OK) tk_folded_summary_free(out);
    out->shown = out->nfunctions;
    return st;
}

static int cmp_name(const tk_folded_function *x, const tk_folded_function *y)
{
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, n);
    return c ? c : (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

static int cmp_rows(const void *a, const void *b, void *order)
{
    const tk_folded_function *x = a, *y = b;
    tk_folded_order k = *(const tk_folded_order *)order;
    double u = k == TK_FOLDED_BY_SELF ? x->self : x->total;
    double v = k == TK_FOLDED_BY_SELF ? y->self : y->total;
    if (k != TK_FOLDED_BY_NAME && u != v) return u > v ? -1 : 1;
    return cmp_name(x, y);
}

void tk_folded_summary_sort(tk_folded_summary *s, tk_folded_order order)
{
    tk_qsort_r(s->functions, s->nfunctions, sizeof *s->functions, cmp_rows, &order);
}

void tk_folded_summary_cut(tk_folded_summary *s, uint64_t top)
{
    s->shown = top && top < s->nfunctions ? (size_t)top : s->nfunctions;
}

void tk_folded_summary_free(tk_folded_summary *s)
{
    if (!s) return;
    tk_free(s->functions);
    memset(s, 0, sizeof *s);
}
