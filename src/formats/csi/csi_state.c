/* CSI runtime path-tracing states: reading them and decoding them into the
 * block sequence they encode. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "core/vec.h"
#include "formats/csi/csi_internal.h"
#include "tracekit/csi.h"

/* Bounds of the search for the unfinished current path. */
#define MAX_READINGS 16
#define MAX_SEARCH_STEPS 1000000
/* Values in one state (the default csi-cc array has 10). */
#define MAX_STATE_VALUES (1u << 20)

void tk_csi_state_free(tk_csi_state *s)
{
    if (!s) return;
    tk_free(s->paths);
    tk_free(s->expected);
    s->paths = NULL;
    s->expected = NULL;
}

void tk_csi_states_free(tk_csi_state *states, size_t n)
{
    if (!states) return;
    for (size_t i = 0; i < n; i++) tk_csi_state_free(&states[i]);
    tk_free(states);
}

/* ---- reading ---------------------------------------------------------- */

typedef TK_VEC(tk_csi_state) state_vec;

static size_t trim(const char **s, size_t len)
{
    len = tk_csi_trim_right(*s, len);
    while (len > 0 && (**s == ' ' || **s == '\t')) {
        (*s)++;
        len--;
    }
    return len;
}

/* A decimal integer with an optional sign, all of s[0..len). */
static tk_status parse_int(const char *s, size_t len, int64_t *out)
{
    return tk_num_parse_signed(s, len, TK_NUM_DEC | TK_NUM_SIGN, out);
}

/* Parse a list of integers separated by sep (spaces allowed around them);
 * leading/trailing separators allowed when `framed`. */
static tk_status parse_list(const char *s, size_t len, char sep, int64_t **out, size_t *n,
                            size_t *bad_col)
{
    TK_VEC(int64_t) v = {0};
    const char *p = s, *end = s + len;
    while (p < end) {
        const char *f = p;
        while (p < end && *p != sep) p++;
        const char *fs = f;
        size_t flen = trim(&fs, (size_t)(p - f));
        if (flen > 0) {
            int64_t x;
            tk_status st = parse_int(fs, flen, &x);
            if (st != TK_OK || v.len >= MAX_STATE_VALUES) {
                *bad_col = (size_t)(fs - s);
                TK_VEC_FREE(&v);
                return st == TK_OK ? TK_ERR_LIMIT : st;
            }
            if (TK_VEC_PUSH(&v, x) != 0) {
                TK_VEC_FREE(&v);
                return TK_ERR_NOMEM;
            }
        }
        if (p < end) p++;
    }
    *out = v.data;
    *n = v.len;
    return TK_OK;
}

static tk_csi_state *new_state(state_vec *v, uint64_t line)
{
    tk_csi_state s;
    memset(&s, 0, sizeof s);
    s.text_line = line;
    snprintf(s.label, sizeof s.label, "state %zu", v->len + 1);
    if (TK_VEC_PUSH(v, s) != 0) return NULL;
    return &v->data[v->len - 1];
}

/* "#func|file:line:cur" */
static int grissom_header(const char *s, size_t len)
{
    if (len < 2 || s[0] != '#') return 0;
    const char *bar = memchr(s, '|', len);
    if (!bar) return 0;
    const char *end = s + len;
    const char *c2 = NULL, *c1 = NULL;
    for (const char *p = end; p-- > bar;)
        if (*p == ':') {
            if (!c2)
                c2 = p;
            else {
                c1 = p;
                break;
            }
        }
    if (!c1) return 0;
    int64_t x;
    return parse_int(c1 + 1, (size_t)(c2 - c1 - 1), &x) == TK_OK &&
           parse_int(c2 + 1, (size_t)(end - c2 - 1), &x) == TK_OK;
}

static tk_status read_grissom(tk_input *in, state_vec *v, const char *s, size_t len, tk_error *err)
{
    size_t frame = 0;
    for (;;) {
        uint64_t lno = tk_input_line_number(in);
        len = trim(&s, len);
        if (len == 0) goto next;
        if (!grissom_header(s, len))
            return tk_csi_fail(err, in, TK_ERR_FORMAT, lno, 1,
                               "expected a frame header '#function|file:line:pathsum'");
        tk_csi_state *st = new_state(v, lno);
        if (!st) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        const char *bar = memchr(s, '|', len);
        size_t nlen = (size_t)(bar - s - 1);
        if (nlen >= sizeof st->function) nlen = sizeof st->function - 1;
        memcpy(st->function, s + 1, nlen);
        st->function[nlen] = 0;
        snprintf(st->label, sizeof st->label, "frame %zu", frame++);
        const char *end = s + len, *c2 = NULL, *c1 = NULL;
        for (const char *p = end; p-- > bar;)
            if (*p == ':') {
                if (!c2)
                    c2 = p;
                else {
                    c1 = p;
                    break;
                }
            }
        int64_t line, cur;
        parse_int(c1 + 1, (size_t)(c2 - c1 - 1), &line);
        parse_int(c2 + 1, (size_t)(end - c2 - 1), &cur);
        st->has_line = line >= 0; /* -1: gdb printed '?' */
        st->line = line;
        st->has_cur = cur >= 0;
        st->cur = cur;
        st->ordered = 1;
        /* CC, BBC and PT lines */
        static const char marks[3] = {'%', '^', '$'};
        for (int k = 0; k < 3; k++) {
            tk_status rs = tk_input_getline(in, &s, &len, err);
            if (rs == TK_END)
                return tk_csi_fail(err, in, TK_ERR_FORMAT, tk_input_line_number(in) + 1, 1,
                                   "unexpected end of input: frame '%s' needs its '%c' line",
                                   st->function, marks[k]);
            if (rs != TK_OK) return rs;
            lno = tk_input_line_number(in);
            len = trim(&s, len);
            if (len == 1 && (s[0] == '@' || s[0] == marks[k])) continue;
            if (len < 2 || s[0] != marks[k] || s[len - 1] != marks[k])
                return tk_csi_fail(err, in, TK_ERR_FORMAT, lno, 1,
                                   "expected '%c...%c' or '@' (line %d of frame '%s')", marks[k],
                                   marks[k], k + 2, st->function);
            if (k < 2) continue;
            size_t bad = 0;
            tk_status ps = parse_list(s + 1, len - 2, '$', &st->paths, &st->npaths, &bad);
            if (ps == TK_ERR_NOMEM) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            if (ps != TK_OK)
                return tk_csi_fail(err, in, ps, lno, bad + 2, "expected a path value (integer)");
        }
    next:;
        tk_status rs = tk_input_getline(in, &s, &len, err);
        if (rs == TK_END) return TK_OK;
        if (rs != TK_OK) return rs;
    }
}

static tk_status read_keyed(tk_input *in, state_vec *v, const char *s, size_t len, tk_error *err)
{
    tk_csi_state *st = NULL;
    for (;;) {
        uint64_t lno = tk_input_line_number(in);
        const char *orig = s;
        len = trim(&s, len);
        if (len == 0 || s[0] == '#') goto next;
        if (s[0] == '[') {
            if (s[len - 1] != ']')
                return tk_csi_fail(err, in, TK_ERR_FORMAT, lno, (uint64_t)(s - orig) + len,
                                   "expected ']' to end the section name");
            st = new_state(v, lno);
            if (!st) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            size_t n = len - 2 < sizeof st->label - 1 ? len - 2 : sizeof st->label - 1;
            memcpy(st->label, s + 1, n);
            st->label[n] = 0;
            goto next;
        }
        const char *eq = memchr(s, '=', len);
        if (!eq)
            return tk_csi_fail(err, in, TK_ERR_FORMAT, lno, (uint64_t)(s - orig) + 1,
                               "expected key=value or [section]");
        if (!st) {
            st = new_state(v, lno);
            if (!st) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        }
        const char *key = s;
        size_t klen = (size_t)(eq - s);
        klen = trim(&key, klen);
        const char *val = eq + 1;
        size_t vlen = trim(&val, (size_t)(s + len - eq - 1));
        uint64_t vcol = (uint64_t)(val - orig) + 1;
        int64_t x = 0;
        tk_status ps = TK_OK;
        size_t bad = 0;
#define KEY(k) (klen == sizeof k - 1 && memcmp(key, k, klen) == 0)
        if (KEY("function")) {
            size_t n = vlen < sizeof st->function - 1 ? vlen : sizeof st->function - 1;
            memcpy(st->function, val, n);
            st->function[n] = 0;
        } else if (KEY("arr") || KEY("paths")) {
            tk_free(st->paths);
            st->paths = NULL;
            ps = parse_list(val, vlen, ',', &st->paths, &st->npaths, &bad);
            st->ordered = KEY("paths");
            vcol += bad;
        } else if (KEY("idx")) {
            ps = parse_int(val, vlen, &st->idx);
        } else if (KEY("cur")) {
            ps = parse_int(val, vlen, &st->cur);
            st->has_cur = 1;
        } else if (KEY("pc_block") || KEY("block")) {
            ps = parse_int(val, vlen, &x);
            if (ps == TK_OK && x < 0) ps = TK_ERR_FORMAT;
            st->block = (uint64_t)x;
            st->has_block = 1;
        } else if (KEY("line")) {
            ps = parse_int(val, vlen, &st->line);
            st->has_line = 1;
        } else if (KEY("suffix") || KEY("expected")) {
            int64_t *list = NULL;
            size_t n = 0;
            ps = parse_list(val, vlen, ',', &list, &n, &bad);
            vcol += bad;
            if (ps == TK_OK) {
                for (size_t i = 0; i < n; i++)
                    if (list[i] < 0) ps = TK_ERR_FORMAT;
                tk_free(st->expected);
                st->expected = (uint64_t *)list; /* same size; values checked >= 0 */
                st->nexpected = n;
                st->has_expected = 1;
            }
        } else {
            return tk_csi_fail(err, in, TK_ERR_FORMAT, lno, (uint64_t)(key - orig) + 1,
                               "unknown key '%.*s' (expected function, arr, paths, idx, cur, "
                               "pc_block, line or suffix)",
                               (int)(klen > 40 ? 40 : klen), key);
        }
#undef KEY
        if (ps == TK_ERR_NOMEM) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        if (ps != TK_OK)
            return tk_csi_fail(err, in, ps, lno, vcol,
                               ps == TK_ERR_LIMIT ? "number too large" : "expected an integer");
    next:;
        tk_status rs = tk_input_getline(in, &s, &len, err);
        if (rs == TK_END) return TK_OK;
        if (rs != TK_OK) return rs;
    }
}

tk_status tk_csi_states_read(tk_input *in, tk_csi_state **states, size_t *nstates, tk_error *err)
{
    state_vec v = {0};
    const char *s;
    size_t len;
    tk_status st;
    *states = NULL;
    *nstates = 0;
    /* the first meaningful line tells the form */
    for (;;) {
        st = tk_input_getline(in, &s, &len, err);
        if (st == TK_END) {
            return tk_csi_fail(err, in, TK_ERR_FORMAT, tk_input_line_number(in) + 1, 1,
                               "no runtime state in the file");
        }
        if (st != TK_OK) return st;
        const char *t = s;
        size_t tl = trim(&t, len);
        if (tl == 0) continue;
        if (grissom_header(t, tl))
            st = read_grissom(in, &v, s, len, err);
        else
            st = read_keyed(in, &v, s, len, err);
        break;
    }
    if (st == TK_OK && v.len == 0)
        st = tk_csi_fail(err, in, TK_ERR_FORMAT, tk_input_line_number(in), 1,
                         "no runtime state in the file");
    if (st != TK_OK) {
        tk_csi_states_free(v.data, v.len);
        return st;
    }
    *states = v.data;
    *nstates = v.len;
    return TK_OK;
}

/* ---- decoding --------------------------------------------------------- */

void tk_csi_decoded_free(tk_csi_decoded *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->nids; i++) {
        tk_free(d->paths[i].nodes);
        tk_free(d->paths[i].edges);
    }
    tk_free(d->ids);
    tk_free(d->paths);
    tk_free(d->path_ok);
    for (size_t i = 0; i < d->nreadings; i++) tk_free(d->readings[i].blocks);
    tk_free(d->readings);
    for (size_t i = 0; i < d->nseqs; i++) tk_free(d->seqs[i]);
    tk_free(d->seqs);
    tk_free(d->seq_lens);
    memset(d, 0, sizeof *d);
}

static void note(tk_csi_decoded *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(tk_csi_decoded *d, const char *fmt, ...)
{
    size_t used = strlen(d->notes);
    if (used + 2 >= sizeof d->notes) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->notes + used, sizeof d->notes - used, fmt, ap);
    va_end(ap);
    used = strlen(d->notes);
    if (used + 1 < sizeof d->notes) {
        d->notes[used] = '\n';
        d->notes[used + 1] = 0;
    }
}

/* Search for partial paths (the unfinished current path). */
typedef struct search {
    const tk_csi_function *fn;
    uint32_t target;
    int64_t want; /* cur */
    int has_want;
    int prune; /* all increments >= 0: stop when the sum passes cur */
    uint32_t *stack; /* blocks of the path being built (nblocks + 1) */
    int64_t *sums; /* running sum at each depth */
    uint32_t *pos; /* next out-edge to try at each depth */
    uint32_t *out_start; /* CSR of real (non-back) edges */
    uint32_t *out_list;
    size_t steps;
    int truncated;
    uint32_t start_edge;
    tk_csi_decoded *d;
    tk_status status;
} search;

static int add_reading(tk_csi_decoded *d, int after, const uint32_t *blocks, size_t n,
                       uint32_t start_edge, uint32_t at)
{
    if (d->nreadings >= MAX_READINGS) {
        d->readings_truncated = 1;
        return 0;
    }
    tk_csi_reading *r = tk_reallocarray(d->readings, d->nreadings + 1, sizeof *r);
    if (!r) return -1;
    d->readings = r;
    tk_csi_reading *x = &r[d->nreadings];
    memset(x, 0, sizeof *x);
    x->after_write = after;
    x->start_edge = start_edge;
    x->at_block = at;
    if (n) {
        x->blocks = tk_reallocarray(NULL, n, sizeof *x->blocks);
        if (!x->blocks) return -1;
        memcpy(x->blocks, blocks, n * sizeof *blocks);
    }
    x->nblocks = n;
    d->nreadings++;
    return 0;
}

/* Depth-first search (iterative: paths may be as long as the function has
 * blocks) for the partial paths from start to the target. */
static void dfs(search *s, uint32_t start, int64_t sum0)
{
    size_t depth = 0;
    s->stack[0] = start;
    s->sums[0] = sum0;
    s->pos[0] = UINT32_MAX; /* not expanded yet */
    depth = 1;
    while (depth > 0 && s->status == TK_OK && !s->truncated) {
        size_t top = depth - 1;
        uint32_t v = s->stack[top];
        if (s->pos[top] == UINT32_MAX) {
            if (++s->steps > MAX_SEARCH_STEPS) {
                s->truncated = 1;
                break;
            }
            if (v == s->target) {
                if (!s->has_want || s->sums[top] == s->want) {
                    if (add_reading(s->d, 0, s->stack, depth, s->start_edge, v) != 0)
                        s->status = TK_ERR_NOMEM;
                    if (s->d->readings_truncated) s->truncated = 1;
                }
                depth--;
                continue;
            }
            /* a write in v would have ended the path before the target */
            if (tk_csi_write_pos(&s->fn->blocks[v]) >= 0 || v == s->fn->exit) {
                depth--;
                continue;
            }
            s->pos[top] = s->out_start[v];
        }
        if (s->pos[top] >= s->out_start[v + 1] || depth > s->fn->nblocks) {
            depth--;
            continue;
        }
        const tk_csi_edge *e = &s->fn->edges[s->out_list[s->pos[top]++]];
        int64_t next;
        if (__builtin_add_overflow(s->sums[top], e->inc, &next)) continue;
        if (s->prune && s->has_want && next > s->want) continue;
        s->stack[depth] = e->dst;
        s->sums[depth] = next;
        s->pos[depth] = UINT32_MAX;
        depth++;
    }
}

/* Build CSR of non-back edges. */
static tk_status real_edges(const tk_csi_function *fn, uint32_t **start, uint32_t **list)
{
    *start = tk_calloc(fn->nblocks + (size_t)1, sizeof **start);
    *list = tk_reallocarray(NULL, fn->nedges + (size_t)1, sizeof **list);
    uint32_t *pos = tk_reallocarray(NULL, fn->nblocks + (size_t)1, sizeof *pos);
    if (!*start || !*list || !pos) {
        tk_free(pos);
        return TK_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < fn->nedges; i++)
        if (!fn->edges[i].back) (*start)[fn->edges[i].src + 1]++;
    for (uint32_t v = 0; v < fn->nblocks; v++) (*start)[v + 1] += (*start)[v];
    memcpy(pos, *start, fn->nblocks * sizeof *pos);
    for (uint32_t i = 0; i < fn->nedges; i++)
        if (!fn->edges[i].back) (*list)[pos[fn->edges[i].src]++] = i;
    tk_free(pos);
    return TK_OK;
}

/* Which sides of the write (-1) of block b the program point can be on:
 * bit 1 = before the write (or no write in b), bit 2 = after it. */
static int sides(const tk_csi_block *b, int has_line, int64_t line)
{
    long w = tk_csi_write_pos(b);
    if (!has_line) return w < 0 ? 1 : 3;
    int m = 0;
    for (size_t k = 0; k < b->nlines; k++)
        if (b->lines[k] == line && line != TK_CSI_PATH_WRITE) m |= (w < 0 || (long)k < w) ? 1 : 2;
    return m;
}

static tk_status push_seq(tk_csi_decoded *d, const uint32_t *a, size_t n)
{
    uint32_t **seqs = tk_reallocarray(d->seqs, d->nseqs + 1, sizeof *seqs);
    if (!seqs) return TK_ERR_NOMEM;
    d->seqs = seqs;
    size_t *lens = tk_reallocarray(d->seq_lens, d->nseqs + 1, sizeof *lens);
    if (!lens) return TK_ERR_NOMEM;
    d->seq_lens = lens;
    d->seqs[d->nseqs] = tk_reallocarray(NULL, n ? n : 1, sizeof **d->seqs);
    if (!d->seqs[d->nseqs]) return TK_ERR_NOMEM;
    if (n) memcpy(d->seqs[d->nseqs], a, n * sizeof *a);
    d->seq_lens[d->nseqs++] = n;
    return TK_OK;
}

/* Completed paths' blocks (without EXIT), the newest one cut after `cut`
 * blocks when cut != SIZE_MAX, then extra. */
static tk_status make_seq(tk_csi_decoded *d, const tk_csi_function *fn, size_t cut,
                          const uint32_t *extra, size_t nextra)
{
    size_t total = nextra;
    for (size_t i = 0; i < d->nids; i++) total += d->paths[i].len;
    uint32_t *buf = tk_reallocarray(NULL, total ? total : 1, sizeof *buf);
    if (!buf) return TK_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < d->nids; i++) {
        if (!d->path_ok[i]) continue;
        size_t len = d->paths[i].len;
        if (i + 1 == d->nids && cut != SIZE_MAX && cut < len) len = cut;
        for (size_t k = 0; k < len; k++)
            if (d->paths[i].nodes[k] != fn->exit) buf[n++] = d->paths[i].nodes[k];
    }
    for (size_t k = 0; k < nextra; k++) buf[n++] = extra[k];
    tk_status st = push_seq(d, buf, n);
    tk_free(buf);
    return st;
}

/* Which slots of the state's array hold its completed paths, oldest first:
 * count slots from first on, around the ring (wrapped: the array filled and
 * went on from its start). */
static tk_status ring_range(const tk_csi_state *s, size_t *first, size_t *count, int *wrapped,
                            tk_error *err)
{
    size_t n = s->npaths;
    *first = *count = 0;
    *wrapped = 0;
    if (s->ordered) {
        *count = n;
    } else if (n > 0) {
        if (s->idx < 0 || (uint64_t)s->idx >= n)
            return tk_error_set(err, TK_ERR_FORMAT,
                                "%s: index %" PRId64 " is outside the array of %zu values",
                                s->label, s->idx, n);
        *wrapped = s->paths[n - 1] != TK_CSI_PATH_WRITE;
        *first = *wrapped ? (size_t)s->idx : 0;
        *count = *wrapped ? n : (size_t)s->idx;
    }
    return TK_OK;
}

/* 1. the completed paths, oldest first: their ids decoded into d (ids, paths,
 * path_ok, nids). */
static tk_status decode_completed(const tk_csi_function *fn, const tk_bl *bl, const tk_csi_state *s,
                                  size_t first, size_t count, tk_csi_decoded *d, tk_error *err)
{
    size_t n = s->npaths;
    uint64_t total = tk_bl_total(bl);
    d->ids = tk_calloc(count ? count : 1, sizeof *d->ids);
    d->paths = tk_calloc(count ? count : 1, sizeof *d->paths);
    d->path_ok = tk_calloc(count ? count : 1, sizeof *d->path_ok);
    if (!d->ids || !d->paths || !d->path_ok)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < count; i++) {
        size_t slot = (first + i) % (n ? n : 1);
        int64_t v = s->paths[slot];
        if (v < 0 || (uint64_t)v >= total) {
            tk_csi_decoded_free(d);
            return tk_error_set(err, TK_ERR_FORMAT,
                                "%s: value %" PRId64 " (slot %zu) is not a path of function %s, "
                                "which has paths 0..%" PRIu64,
                                s->label, v, slot, fn->name, total ? total - 1 : 0);
        }
        d->ids[i] = (uint64_t)v;
        tk_bl_path *p = &d->paths[i];
        p->nodes = tk_reallocarray(NULL, tk_bl_max_nodes(bl), sizeof *p->nodes);
        p->edges = tk_reallocarray(NULL, tk_bl_max_nodes(bl), sizeof *p->edges);
        d->nids = i + 1;
        if (!p->nodes || !p->edges) {
            tk_csi_decoded_free(d);
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        }
        d->path_ok[i] = tk_bl_decode(bl, d->ids[i], p, err) == TK_OK;
        if (!d->path_ok[i])
            note(d, "path %" PRIu64 " does not decode: the numbering is broken", d->ids[i]);
    }
    d->nids = count;
    return TK_OK;
}

/* Consecutive paths must be joined by a back edge: notes where they are not. */
static void check_joins(const tk_csi_function *fn, tk_csi_decoded *d, int wrapped)
{
    size_t count = d->nids;
    for (size_t i = 0; i + 1 < count; i++) {
        const tk_bl_path *a = &d->paths[i], *b = &d->paths[i + 1];
        if (!d->path_ok[i] || !d->path_ok[i + 1]) continue;
        if (a->end_edge == TK_BL_NONE) {
            note(d, "path %" PRIu64 " ends at EXIT but is not the newest path", d->ids[i]);
            d->consistent = 0;
        } else if (b->start_edge == TK_BL_NONE) {
            note(d, "path %" PRIu64 " starts at ENTRY but follows another path", d->ids[i + 1]);
            d->consistent = 0;
        } else if (fn->edges[b->start_edge].src != a->nodes[a->len - 1]) {
            note(d,
                 "path %" PRIu64 " starts after back edge %" PRIu64 "~>%" PRIu64
                 " but the path before it ends at block %" PRIu64,
                 d->ids[i + 1], fn->blocks[fn->edges[b->start_edge].src].id,
                 fn->blocks[fn->edges[b->start_edge].dst].id, fn->blocks[a->nodes[a->len - 1]].id);
            d->consistent = 0;
        }
    }
    if (count > 0 && d->paths[0].start_edge == TK_BL_NONE && wrapped)
        note(d, "the oldest retained path starts at ENTRY although the array wrapped");
}

/* What the searches for the current path share. */
typedef struct workspace {
    uint32_t *stack, *pos, *start, *list;
    int64_t *sums;
    int prune; /* all increments >= 0 */
} workspace;

static void workspace_free(workspace *w)
{
    tk_free(w->stack);
    tk_free(w->sums);
    tk_free(w->pos);
    tk_free(w->start);
    tk_free(w->list);
}

static tk_status workspace_new(const tk_csi_function *fn, workspace *w)
{
    memset(w, 0, sizeof *w);
    w->stack = tk_reallocarray(NULL, fn->nblocks + (size_t)2, sizeof *w->stack);
    w->sums = tk_reallocarray(NULL, fn->nblocks + (size_t)2, sizeof *w->sums);
    w->pos = tk_reallocarray(NULL, fn->nblocks + (size_t)2, sizeof *w->pos);
    if (!w->stack || !w->sums || !w->pos || real_edges(fn, &w->start, &w->list) != TK_OK)
        return TK_ERR_NOMEM;
    w->prune = 1;
    for (uint32_t i = 0; i < fn->nedges; i++)
        if (fn->edges[i].inc < 0) w->prune = 0;
    return TK_OK;
}

/* Whether the path sum cur of the state agrees with the newest path ending
 * where it does (at EXIT: 0; by a back edge: that edge's increment). */
static int cur_fits_newest(const tk_csi_function *fn, const tk_csi_state *s,
                           const tk_bl_path *newest)
{
    if (!s->has_cur) return 1;
    if (newest->end_edge == TK_BL_NONE) return s->cur == 0;
    uint32_t a = newest->nodes[newest->len - 1];
    for (uint32_t e = 0; e < fn->nedges; e++)
        if (fn->edges[e].back && fn->edges[e].src == a && fn->edges[e].inc == s->cur) return 1;
    return 0;
}

/* After the write: the newest path already covers block b (side: sides()). */
static tk_status reading_after_write(const tk_csi_function *fn, const tk_csi_state *s,
                                     const tk_bl_path *newest, uint32_t b, int side,
                                     tk_csi_decoded *d, tk_error *err)
{
    size_t w = SIZE_MAX;
    for (size_t k = 0; k < newest->len; k++)
        if (newest->nodes[k] != fn->exit && tk_csi_write_pos(&fn->blocks[newest->nodes[k]]) >= 0)
            w = k;
    if (w == SIZE_MAX) /* no -1 printed (no debug info): assume the end */
        w = newest->len - 1;
    for (size_t j = w; j < newest->len; j++) {
        if (newest->nodes[j] != b ||
            (j == w && !(side & 2) && tk_csi_write_pos(&fn->blocks[b]) >= 0))
            continue;
        if (!cur_fits_newest(fn, s, newest)) continue;
        size_t had = d->nreadings;
        if (add_reading(d, 1, NULL, 0, TK_BL_NONE, b) != 0 ||
            (d->nreadings > had && make_seq(d, fn, j + 1, NULL, 0) != TK_OK))
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        break;
    }
    return TK_OK;
}

/* Before the write: the partial paths to block b from the entry (no path
 * completed) or from the back edge that ended the newest path. */
static tk_status readings_before_write(const tk_csi_function *fn, const tk_csi_state *s,
                                       const workspace *w, const tk_bl_path *newest, size_t count,
                                       uint32_t b, tk_csi_decoded *d, tk_error *err)
{
    search sr;
    memset(&sr, 0, sizeof sr);
    sr.fn = fn;
    sr.target = b;
    sr.want = s->cur;
    sr.has_want = s->has_cur;
    sr.prune = w->prune;
    sr.stack = w->stack;
    sr.sums = w->sums;
    sr.pos = w->pos;
    sr.out_start = w->start;
    sr.out_list = w->list;
    sr.d = d;
    sr.status = TK_OK;
    size_t before = d->nreadings;
    if (!newest && count == 0) {
        sr.start_edge = TK_BL_NONE;
        dfs(&sr, fn->entry, 0);
    } else if (newest && newest->end_edge != TK_BL_NONE) {
        uint32_t a = newest->nodes[newest->len - 1];
        for (uint32_t e = 0; e < fn->nedges; e++) {
            if (!fn->edges[e].back || fn->edges[e].src != a) continue;
            if (!newest->end_ambiguous && e != newest->end_edge) continue;
            sr.start_edge = e;
            dfs(&sr, fn->edges[e].dst, fn->edges[e].inc);
        }
    }
    if (sr.status != TK_OK) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (sr.truncated) d->readings_truncated = 1;
    for (size_t k = before; k < d->nreadings; k++)
        if (make_seq(d, fn, SIZE_MAX, d->readings[k].blocks, d->readings[k].nblocks) != TK_OK)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_OK;
}

/* 2. the program point: the readings of the unfinished current path at the
 * block (or line) of the state, each with the block sequence it makes. */
static tk_status decode_current(const tk_csi_function *fn, const tk_csi_state *s, tk_csi_decoded *d,
                                tk_error *err)
{
    size_t count = d->nids;
    workspace w;
    if (workspace_new(fn, &w) != TK_OK) {
        workspace_free(&w);
        tk_csi_decoded_free(d);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    tk_status st = TK_OK;
    const tk_bl_path *newest = count && d->path_ok[count - 1] ? &d->paths[count - 1] : NULL;
    if (s->has_block && tk_csi_find_block(fn, s->block) == UINT32_MAX)
        st = tk_error_set(err, TK_ERR_FORMAT, "%s: function %s has no block %" PRIu64, s->label,
                          fn->name, s->block);
    for (uint32_t b = 0; b < fn->nblocks && st == TK_OK; b++) {
        if (s->has_block ? fn->blocks[b].id != s->block : b == fn->exit) continue;
        int side = sides(&fn->blocks[b], s->has_line, s->line);
        if (side == 0) continue;
        if (newest) st = reading_after_write(fn, s, newest, b, side, d, err);
        if (!(side & 1) || st != TK_OK) continue;
        st = readings_before_write(fn, s, &w, newest, count, b, d, err);
    }
    if (st == TK_OK && d->nreadings == 0) {
        note(d, "no reading of the current path fits the program point and the path sum");
        if (make_seq(d, fn, SIZE_MAX, NULL, 0) != TK_OK)
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    workspace_free(&w);
    if (st != TK_OK) tk_csi_decoded_free(d);
    return st;
}

/* Whether the block indices a[0..n) are the blocks of ids b[0..m). */
static int seq_is(const tk_csi_function *fn, const uint32_t *a, size_t n, const uint64_t *b,
                  size_t m)
{
    if (n != m) return 0;
    for (size_t i = 0; i < n; i++)
        if (fn->blocks[a[i]].id != b[i]) return 0;
    return 1;
}

tk_status tk_csi_state_decode(const tk_csi_function *fn, tk_csi_numbering *num,
                              const tk_csi_state *s, tk_csi_decoded *d, tk_error *err)
{
    memset(d, 0, sizeof *d);
    d->consistent = 1;
    size_t first, count;
    int wrapped;
    tk_status st = ring_range(s, &first, &count, &wrapped, err);
    if (st == TK_OK) st = decode_completed(fn, tk_csi_numbering_bl(num), s, first, count, d, err);
    if (st != TK_OK) return st;
    check_joins(fn, d, wrapped);
    if (!s->has_block && !s->has_line) {
        note(d, "no program point (block or line) given: the current path is not decoded");
        st = make_seq(d, fn, SIZE_MAX, NULL, 0) == TK_OK
                 ? TK_OK
                 : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    } else {
        st = decode_current(fn, s, d, err);
    }
    for (size_t k = 0; st == TK_OK && s->has_expected && k < d->nseqs; k++)
        if (seq_is(fn, d->seqs[k], d->seq_lens[k], s->expected, s->nexpected))
            d->matches_expected = 1;
    return st;
}
