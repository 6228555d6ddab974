/* The outputs of a WET recording (docs/record.md, "WET").
 *
 * The comprehensive form lists all instances of an instruction together,
 * port by port, while the run gives them in execution order: the store keeps,
 * per instruction, a stream of encoded entries per port and one of values
 * (LEB128: the instance's distance from the previous entry's, then the
 * instruction and instance depended upon, or the value's bytes).  Beyond a
 * memory bound every stream goes to a spill file, in instruction order, and
 * the memory is given back; the writer reads the spills side by side (each in
 * the same order) and the memory last, so each instruction's entries come out
 * in instance order.
 *
 * The history form is a circular buffer of the last dependences; at the end
 * they become a deps model (tracekit/deps.h) written by tracekit's own writer
 * (tk_wet_write_history): the same text as `tracekit convert --to
 * wet-history` of the comprehensive form when the buffer holds everything. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/writer.h"
#include "record/record_internal.h"
#include "tracekit/wet.h"

#define DEFAULT_MEMORY (512ull << 20)

typedef struct wstream {
    uint8_t *data;
    size_t len, cap;
    uint32_t next; /* the instance after the last entry's */
    uint64_t count; /* entries, in memory and spilled */
} wstream;

struct rec_wstore {
    const rec_wi *wis;
    uint32_t n;
    uint32_t *first; /* instruction i's streams: ports 0..nports, then values */
    wstream *st;
    uint32_t nst;
    uint64_t used, limit; /* bytes of the streams' buffers */
    const char *tmpdir;
    uint32_t nruns;
};

static tk_status store_nomem(tk_error *err)
{
    return tk_error_set(err, TK_ERR_NOMEM, "out of memory keeping the WET trace");
}

tk_status tk_rec_wstore_new(rec_wstore **out, const rec_wi *wis, uint32_t n, uint64_t memory,
                            const char *tmpdir, tk_error *err)
{
    rec_wstore *s = tk_calloc(1, sizeof *s);
    if (!s) return store_nomem(err);
    s->wis = wis;
    s->n = n;
    s->limit = memory ? memory : DEFAULT_MEMORY;
    s->tmpdir = tmpdir;
    s->first = tk_malloc(sizeof *s->first * ((size_t)n + 1));
    uint64_t total = 0;
    for (uint32_t i = 0; s->first && i < n; i++) {
        s->first[i] = (uint32_t)total;
        total += (uint64_t)wis[i].nports + 2;
    }
    if (s->first) s->first[n] = (uint32_t)total;
    s->nst = (uint32_t)total;
    s->st = total < UINT32_MAX ? tk_calloc(total ? total : 1, sizeof *s->st) : NULL;
    if (!s->first || !s->st) {
        tk_rec_wstore_free(s);
        return store_nomem(err);
    }
    *out = s;
    return TK_OK;
}

static inline uint8_t *put_num(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static void run_path(const rec_wstore *s, uint32_t k, char *buf, size_t size)
{
    snprintf(buf, size, "%s/wet-spill.%" PRIu32, s->tmpdir, k);
}

/* Every stream to the next spill file; the memory is given back. */
static tk_status spill(rec_wstore *s, tk_error *err)
{
    char path[4200];
    run_path(s, s->nruns, path, sizeof path);
    FILE *f = fopen(path, "wb");
    if (!f) return tk_error_set(err, TK_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    setvbuf(f, NULL, _IOFBF, 1u << 20);
    for (uint32_t k = 0; k < s->nst; k++) {
        wstream *w = &s->st[k];
        uint8_t len[10];
        fwrite(len, 1, (size_t)(put_num(len, w->len) - len), f);
        if (w->len) fwrite(w->data, 1, w->len, f);
        tk_free(w->data);
        w->data = NULL;
        w->len = w->cap = 0;
    }
    s->used = 0;
    s->nruns++;
    if (ferror(f) | (fclose(f) != 0))
        return tk_error_set(err, TK_ERR_IO, "cannot write %s (disk full?)", path);
    return TK_OK;
}

static tk_status room(rec_wstore *s, wstream *w, size_t need, tk_error *err)
{
    if (w->len + need <= w->cap) return TK_OK;
    if (s->used > s->limit) {
        tk_status st = spill(s, err);
        if (st != TK_OK) return st;
    }
    size_t cap = w->cap ? 2 * w->cap : 64;
    while (cap < w->len + need) cap *= 2;
    uint8_t *d = tk_realloc(w->data, cap);
    if (!d) return store_nomem(err);
    s->used += cap - w->cap;
    w->data = d;
    w->cap = cap;
    return TK_OK;
}

tk_status tk_rec_wstore_dep(rec_wstore *s, uint32_t instr, uint32_t inst, uint32_t port,
                            uint32_t dep, uint32_t dep_inst, tk_error *err)
{
    wstream *w = &s->st[s->first[instr] + port];
    tk_status st = room(s, w, 30, err);
    if (st != TK_OK) return st;
    uint8_t *p = w->data + w->len;
    p = put_num(p, inst - w->next);
    p = put_num(p, dep);
    p = put_num(p, dep_inst);
    w->len = (size_t)(p - w->data);
    w->next = inst + 1;
    w->count++;
    return TK_OK;
}

tk_status tk_rec_wstore_value(rec_wstore *s, uint32_t instr, uint32_t inst, const uint8_t *le,
                              uint32_t n, tk_error *err)
{
    wstream *w = &s->st[s->first[instr + 1] - 1];
    tk_status st = room(s, w, 12 + n, err);
    if (st != TK_OK) return st;
    uint8_t *p = w->data + w->len;
    p = put_num(p, inst - w->next);
    p = put_num(p, n);
    memcpy(p, le, n);
    w->len = (size_t)(p + n - w->data);
    w->next = inst + 1;
    w->count++;
    return TK_OK;
}

uint32_t tk_rec_wstore_spills(const rec_wstore *s) { return s->nruns; }

void tk_rec_wstore_free(rec_wstore *s)
{
    if (!s) return;
    for (uint32_t k = 0; s->st && k < s->nst; k++) tk_free(s->st[k].data);
    char path[4200];
    for (uint32_t k = 0; k < s->nruns; k++) {
        run_path(s, k, path, sizeof path);
        unlink(path);
    }
    tk_free(s->st);
    tk_free(s->first);
    tk_free(s);
}

/* ---- writing the comprehensive form ---------------------------------------------------- */

typedef struct obuf {
    FILE *f;
    size_t n;
    char b[1 << 16];
} obuf;

static void ob_flush(obuf *o)
{
    if (o->n) fwrite(o->b, 1, o->n, o->f);
    o->n = 0;
}

static inline void ob_room(obuf *o, size_t need)
{
    if (o->n + need > sizeof o->b) ob_flush(o);
}

static inline void ob_dec(obuf *o, uint64_t v)
{
    char t[24];
    int k = 0;
    do {
        t[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k) o->b[o->n++] = t[--k];
}

static void ob_str(obuf *o, const char *s)
{
    size_t len = strlen(s);
    if (len > sizeof o->b / 2) {
        ob_flush(o);
        fwrite(s, 1, len, o->f);
        return;
    }
    ob_room(o, len);
    memcpy(o->b + o->n, s, len);
    o->n += len;
}

/* A value's bytes (little-endian, n of them) in hexadecimal, without leading zeros. */
static void ob_hex(obuf *o, const uint8_t *le, uint32_t n)
{
    static const char digits[] = "0123456789abcdef";
    while (n && !le[n - 1]) n--;
    if (!n) {
        o->b[o->n++] = '0';
        return;
    }
    if (le[n - 1] >= 16) o->b[o->n++] = digits[le[n - 1] >> 4];
    o->b[o->n++] = digits[le[n - 1] & 15];
    for (uint32_t i = n - 1; i-- > 0;) {
        o->b[o->n++] = digits[le[i] >> 4];
        o->b[o->n++] = digits[le[i] & 15];
    }
}

/* Where a stream's entries are read from: a spill file (f) or memory. */
typedef struct src {
    FILE *f;
    const uint8_t *p, *end;
    uint64_t left; /* a spill's bytes left of this stream */
} src;

static int src_byte(src *s)
{
    if (s->f) {
        if (!s->left) return -1;
        s->left--;
        return getc_unlocked(s->f);
    }
    return s->p < s->end ? *s->p++ : -1;
}

static int src_num(src *s, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned sh = 0; sh < 64; sh += 7) {
        int c = src_byte(s);
        if (c < 0) return 0;
        x |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return 0;
}

static int src_more(const src *s) { return s->f ? s->left > 0 : s->p < s->end; }

/* The entries of one stream in one piece: dependences or values. */
static int write_piece(obuf *o, src *s, int values, uint32_t *next)
{
    uint64_t a, b, c;
    uint8_t le[32];
    while (src_more(s)) {
        if (!src_num(s, &a) || !src_num(s, &b)) return 0;
        uint32_t inst = *next + (uint32_t)a;
        *next = inst + 1;
        ob_room(o, 128);
        memcpy(o->b + o->n, "    ", 4);
        o->n += 4;
        ob_dec(o, inst);
        o->b[o->n++] = ':';
        if (values) {
            if (b > sizeof le) return 0;
            for (uint64_t k = 0; k < b; k++) {
                int x = src_byte(s);
                if (x < 0) return 0;
                le[k] = (uint8_t)x;
            }
            ob_hex(o, le, (uint32_t)b);
        } else {
            if (!src_num(s, &c)) return 0;
            ob_dec(o, b + 1);
            o->b[o->n++] = ' ';
            ob_dec(o, c);
        }
        o->b[o->n++] = '\n';
    }
    return 1;
}

/* Stream k left out: its piece of each spill skipped (the spills stay in step). */
static int skip_stream(rec_wstore *s, FILE **runs)
{
    for (uint32_t r = 0; r < s->nruns; r++) {
        src in = {runs[r], NULL, NULL, 10}; /* its length comes first */
        uint64_t len;
        if (!src_num(&in, &len) || len > INT64_MAX || fseeko(runs[r], (off_t)len, SEEK_CUR) != 0)
            return 0;
    }
    return 1;
}

/* Stream k: its piece of each spill, then memory's. */
static int write_stream(rec_wstore *s, obuf *o, FILE **runs, uint32_t k, int values)
{
    uint32_t next = 0;
    for (uint32_t r = 0; r < s->nruns; r++) {
        src in = {runs[r], NULL, NULL, 10}; /* its length comes first */
        uint64_t len;
        if (!src_num(&in, &len)) return 0;
        in.left = len;
        if (!write_piece(o, &in, values, &next) || in.left) return 0;
    }
    const uint8_t *d = s->st[k].data; /* NULL when the stream is empty */
    src m = {NULL, d, d ? d + s->st[k].len : NULL, 0};
    return write_piece(o, &m, values, &next);
}

static void write_static(obuf *o, uint32_t i, const rec_wi *x)
{
    ob_room(o, 64);
    ob_dec(o, i + 1);
    o->b[o->n++] = ' ';
    ob_dec(o, (uint64_t)x->nports + 1);
    o->b[o->n++] = ' ';
    uint8_t le[8];
    for (int k = 0; k < 8; k++) le[k] = (uint8_t)(x->addr >> (8 * k));
    ob_hex(o, le, 8);
    if (x->file || x->func || x->line) {
        ob_str(o, " ");
        ob_str(o, x->file ? x->file : "??");
        ob_str(o, " ");
        ob_str(o, x->func ? x->func : "??");
        ob_room(o, 32);
        o->b[o->n++] = ' ';
        ob_dec(o, x->line);
    }
    o->b[o->n++] = '\n';
}

static int write_blocks(rec_wstore *s, obuf *o, FILE **runs)
{
    uint64_t nblocks = 0;
    for (uint32_t i = 0; i < s->n; i++) nblocks += s->wis[i].count > 0;
    ob_room(o, 32);
    ob_dec(o, nblocks);
    o->b[o->n++] = '\n';
    for (uint32_t i = 0; i < s->n; i++) {
        const rec_wi *x = &s->wis[i];
        uint32_t f = s->first[i];
        if (!x->count) {
            for (uint32_t k = f; k < s->first[i + 1]; k++)
                if (!skip_stream(s, runs)) return 0;
            continue;
        }
        write_static(o, i, x);
        for (uint32_t p = 0; p <= x->nports; p++) {
            ob_str(o, "SIZE ");
            ob_room(o, 32);
            ob_dec(o, s->st[f + p].count);
            o->b[o->n++] = '\n';
            if (!write_stream(s, o, runs, f + p, 0)) return 0;
        }
        const wstream *v = &s->st[f + x->nports + 1];
        if (!x->has_values) {
            ob_str(o, "NO VALUES\n");
            if (!skip_stream(s, runs)) return 0;
            continue;
        }
        ob_str(o, "VALUES ");
        ob_room(o, 32);
        ob_dec(o, v->count);
        o->b[o->n++] = '\n';
        if (!write_stream(s, o, runs, f + x->nports + 1, 1)) return 0;
    }
    return 1;
}

/* The spills are read back with stdio, not tk_input: they are the store's own temporary
 * files, read side by side (a thousand of them when a long run is kept in little memory),
 * a few bytes of each at a time, and tk_input's buffers of a file (its first read's 256 KiB,
 * the content's 1 MiB or its 2 MiB windows of the mapping) would take 30 times the resident
 * memory of stdio's 4 KiB each (1.6 GB instead of 55 MB, 1048 spills). */
tk_status tk_rec_wstore_write(rec_wstore *s, FILE *f, tk_error *err)
{
    FILE **runs = tk_calloc(s->nruns ? s->nruns : 1, sizeof *runs);
    obuf *o = tk_malloc(sizeof *o);
    tk_status st = runs && o ? TK_OK : store_nomem(err);
    char path[4200];
    for (uint32_t r = 0; st == TK_OK && r < s->nruns; r++) {
        run_path(s, r, path, sizeof path);
        if (!(runs[r] = fopen(path, "rb")))
            st = tk_error_set(err, TK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
        else
            setvbuf(runs[r], NULL, _IOFBF, 1u << 20);
    }
    if (st == TK_OK) {
        o->f = f;
        o->n = 0;
        if (!write_blocks(s, o, runs))
            st = tk_error_set(err, TK_ERR_FORMAT, "the WET spill files are damaged");
        ob_flush(o);
    }
    for (uint32_t r = 0; runs && r < s->nruns; r++)
        if (runs[r]) fclose(runs[r]);
    tk_free(runs);
    tk_free(o);
    if (st == TK_OK && ferror(f))
        st = tk_error_set(err, TK_ERR_IO, "write failed: %s", strerror(errno));
    return st;
}

/* ---- the history form ------------------------------------------------------------------ */

typedef struct hent {
    uint32_t instr, inst, dep, dep_inst, port;
} hent;

struct rec_wring {
    hent *e;
    uint64_t size, cap, head, total;
};

tk_status tk_rec_wring_new(rec_wring **out, uint64_t size, tk_error *err)
{
    rec_wring *r = tk_calloc(1, sizeof *r);
    if (!r) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    r->size = size;
    *out = r;
    return TK_OK;
}

void tk_rec_wring_push(rec_wring *r, uint32_t instr, uint32_t inst, uint32_t port, uint32_t dep,
                       uint32_t dep_inst)
{
    if (r->head == r->cap) {
        if (r->cap < r->size) { /* grown as needed, up to its size */
            uint64_t cap = r->cap ? 2 * r->cap : 4096;
            if (cap > r->size) cap = r->size;
            hent *e = tk_realloc(r->e, sizeof *e * cap);
            if (e) {
                r->e = e;
                r->cap = cap;
            }
        }
        if (r->head == r->cap) r->head = 0;
    }
    if (!r->cap) return;
    hent h = {instr, inst, dep, dep_inst, port};
    r->e[r->head++] = h;
    r->total++;
}

uint64_t tk_rec_wring_count(const rec_wring *r) { return r->total < r->size ? r->total : r->size; }

static int hent_cmp(const void *a, const void *b)
{
    const hent *x = a, *y = b;
    if (x->instr != y->instr) return x->instr < y->instr ? -1 : 1;
    if (x->port != y->port) return x->port < y->port ? -1 : 1;
    return (x->inst > y->inst) - (x->inst < y->inst);
}

/* The deps model of the buffer's dependences: the instructions they name, in id order. */
static tk_status ring_model(rec_wring *r, uint64_t n, const rec_wi *wis, uint32_t nwis, tk_deps *d,
                            tk_error *err)
{
    uint32_t *index = tk_malloc(sizeof *index * (nwis ? nwis : 1));
    if (!index) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < nwis; i++) index[i] = TK_DEPS_NONE;
    for (uint64_t k = 0; k < n; k++) index[r->e[k].instr] = index[r->e[k].dep] = 0;
    tk_status st = TK_OK;
    for (uint32_t i = 0; st == TK_OK && i < nwis; i++)
        if (index[i] == 0) st = tk_deps_ref(d, (uint64_t)i + 1, 0, 0, &index[i], err);
    uint64_t k = 0;
    for (uint32_t i = 0; st == TK_OK && i < nwis; i++) {
        if (index[i] == TK_DEPS_NONE) continue;
        const rec_wi *x = &wis[i];
        st = tk_deps_define(d, index[i], (uint64_t)i + 1, (uint32_t)x->nports + 1, x->addr, x->file,
                            x->file ? strlen(x->file) : 0, x->func, x->func ? strlen(x->func) : 0,
                            x->line, err);
        for (uint32_t p = 0; st == TK_OK && p <= x->nports; p++) {
            if (p) st = tk_deps_next_port(d, err);
            for (; st == TK_OK && k < n && r->e[k].instr == i && r->e[k].port == p; k++)
                st = tk_deps_add_dep(d, r->e[k].inst, index[r->e[k].dep], r->e[k].dep_inst, err);
        }
        tk_deps_set_values(d, 0);
    }
    tk_free(index);
    return st;
}

tk_status tk_rec_wring_write(rec_wring *r, const rec_wi *wis, uint32_t nwis, FILE *f, tk_error *err)
{
    uint64_t n = tk_rec_wring_count(r);
    if (n > 1) qsort(r->e, n, sizeof *r->e, hent_cmp); /* instances order them in a port */
    tk_deps *d = NULL;
    tk_status st = tk_deps_open(&d, TK_DEPS_COMPREHENSIVE, err);
    if (st == TK_OK) st = ring_model(r, n, wis, nwis, d, err);
    if (st == TK_OK) st = tk_deps_finish(d, err);
    tk_writer w = {tk_write_to_file, f};
    if (st == TK_OK) st = tk_wet_write_history(d, &w, err);
    tk_deps_free(d);
    return st;
}

void tk_rec_wring_free(rec_wring *r)
{
    if (!r) return;
    tk_free(r->e);
    tk_free(r);
}
