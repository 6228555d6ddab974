/* Fuzz the DCFG-Trace reader: parse, decode every chunk (serially and on two
 * threads), and run `check` against a tiny built-in DCFG; re-encode what
 * decoded (with that DCFG) and require decode(encode(x)) == x, and that
 * check --dcfg accepts the encoder's output whenever the edges themselves
 * agree with the DCFG (its process, its edges, counts within its own). Every
 * input is parsed with the fast row paths and the tokenizer's fast paths, and
 * with their general twins (tk_dt_parse_paths, tk_json_set_fast,
 * core/fastpath.h): the same status, error and location, the same trace
 * (structure, edges, what check says). */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/dcfg.h"
#include "formats/dcfg_trace/dt_internal.h"
#include "fuzz.h"
#include "fuzz_tiny_dcfg.h"
#include "model/cfg_internal.h"
#include "tracekit/tracekit.h"

#define FUZZ_MAX_EDGES 200000

typedef struct edge_buf {
    uint32_t *v;
    size_t n, cap;
    uint64_t pid, tid;
} edge_buf;

typedef struct membuf {
    char *p;
    size_t n, cap;
} membuf;

static int write_mem(void *ctx, const void *data, size_t n)
{
    membuf *m = ctx;
    if (m->n + n > m->cap) {
        size_t cap = (m->n + n) * 2;
        char *q = realloc(m->p, cap);
        if (!q) return -1;
        m->p = q;
        m->cap = cap;
    }
    memcpy(m->p + m->n, data, n);
    m->n += n;
    return 0;
}

static int keep_edges(void *ctx, size_t chunk, const uint32_t *edges, size_t n)
{
    (void)chunk;
    edge_buf *b = ctx;
    if (n == 0) return 0;
    if (b->n + n > b->cap) {
        size_t cap = (b->n + n) * 2;
        uint32_t *q = realloc(b->v, cap * sizeof *q);
        if (!q) return 1;
        b->v = q;
        b->cap = cap;
    }
    memcpy(b->v + b->n, edges, n * sizeof *edges);
    b->n += n;
    return 0;
}

static void ignore(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)ctx;
    (void)sev;
    (void)loc;
    (void)msg;
}

/* Do the decoded edges agree with the DCFG by themselves: every thread's
 * process and edges are in it, and no edge is traversed more often than the
 * DCFG counts for that thread? Then check --dcfg must accept any encoding. */
static int edges_agree(const tk_cfg *cfg, const edge_buf *bufs, size_t nth)
{
    if (!cfg) return 0;
    for (size_t i = 0; i < nth; i++) {
        uint32_t pix = tk_cfg_find_process(cfg, bufs[i].pid);
        if (pix == TK_CFG_NONE || bufs[i].tid > UINT32_MAX) return 0;
        const tk_cfg_process *p = &cfg->processes[pix];
        uint64_t seen[16] = {0};
        if (p->nedges > 16) return 0;
        for (size_t k = 0; k < bufs[i].n; k++) {
            uint32_t e = tk_cfg_find_edge(p, bufs[i].v[k]);
            if (e == TK_CFG_NONE ||
                ++seen[e] > cfg_edge_count_thread(p, &p->edges[e], (uint32_t)bufs[i].tid))
                return 0;
        }
    }
    return 1;
}

/* Re-encode the decoded threads (level and chunking from the input's first
 * byte) and decode again: the edges must come back. */
static void reencode(const tk_dcfg_trace *t, uint8_t knob, const tk_cfg *cfg)
{
    size_t nth = tk_dcfg_trace_thread_count(t);
    edge_buf *bufs = calloc(nth ? nth : 1, sizeof *bufs);
    if (!bufs) return;
    tk_error err;
    tk_error_clear(&err);
    int ok = 1;
    for (size_t i = 0; i < nth && ok; i++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, i, &ti);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, ti.process, &pi);
        bufs[i].pid = pi.pid;
        bufs[i].tid = ti.thread_id;
        tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        opt.has_pid = 1;
        opt.pid = pi.pid;
        opt.has_thread = 1;
        opt.thread_id = ti.thread_id;
        uint64_t total;
        ok = tk_dcfg_trace_decode(t, &opt, keep_edges, &bufs[i], &total, NULL, &err) == TK_OK;
    }
    if (ok) {
        tk_dcfg_trace_encode_options eo = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
        eo.level = knob % 10 ? (int)(knob % 10) : TK_DCFG_TRACE_PLAIN;
        eo.compat_intel = (knob >> 4) & 1;
        eo.chunk_edges = (knob >> 5) ? (uint64_t)(knob >> 5) * 3 : 0;
        eo.cfg = cfg; /* instruction counts, and a chunk cut at every gap */
        eo.chunk_instrs = (knob & 8) ? 7 : 0;
        tk_dcfg_trace_encoder *enc;
        membuf m = {NULL, 0, 0};
        if (tk_dcfg_trace_encoder_open(&enc, &eo, &err) == TK_OK) {
            int good = 1;
            for (size_t i = 0; i < nth && good; i++)
                good = tk_dcfg_trace_encoder_observe(enc, bufs[i].pid, bufs[i].tid, bufs[i].v,
                                                     bufs[i].n, &err) == TK_OK;
            /* threads of one process must be together: skip inputs where they are not */
            if (good &&
                tk_dcfg_trace_encoder_start(enc, &(tk_writer){write_mem, &m}, &err) == TK_OK) {
                for (size_t i = 0; i < nth && good; i++)
                    if (tk_dcfg_trace_encoder_encode(enc, bufs[i].pid, bufs[i].tid, bufs[i].v,
                                                     bufs[i].n, &err) != TK_OK)
                        __builtin_trap(); /* pass 2 must accept what pass 1 accepted */
                if (tk_dcfg_trace_encoder_finish(enc, &err) != TK_OK) __builtin_trap();
                tk_dcfg_trace *t2;
                if (tk_dcfg_trace_open_memory(&t2, m.p, m.n, "reencoded", NULL, &err) != TK_OK)
                    __builtin_trap(); /* the encoder's output must read back */
                size_t at = 0;
                for (size_t i = 0; i < nth; i++) {
                    edge_buf again = {NULL, 0, 0, 0, 0};
                    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
                    opt.has_pid = 1;
                    opt.pid = bufs[i].pid;
                    opt.has_thread = 1;
                    opt.thread_id = bufs[i].tid;
                    uint64_t total;
                    if (tk_dcfg_trace_decode(t2, &opt, keep_edges, &again, &total, NULL, &err) !=
                            TK_OK ||
                        again.n != bufs[i].n ||
                        (again.n && memcmp(again.v, bufs[i].v, again.n * sizeof *again.v) != 0))
                        __builtin_trap(); /* decode(encode(x)) == x */
                    free(again.v);
                    at++;
                }
                (void)at;
                if (edges_agree(cfg, bufs, nth)) {
                    /* the encoder's output passes check --dcfg */
                    tk_diag diag;
                    tk_diag_init(&diag, ignore, NULL);
                    if (tk_dcfg_trace_check(t2, cfg, 1, &diag, &err) != TK_OK) __builtin_trap();
                }
                tk_dcfg_trace_free(t2);
            }
            tk_dcfg_trace_encoder_free(enc);
        }
        free(m.p);
    }
    for (size_t i = 0; i < nth; i++) free(bufs[i].v);
    free(bufs);
}

static int count_edges(void *ctx, size_t chunk, const uint32_t *edges, size_t n)
{
    (void)chunk;
    (void)edges;
    *(uint64_t *)ctx += n;
    return 0;
}

/* A digest of the steps of the decoding through the DCFG (every edge's index, ends and
 * instruction count), serially through piece or in parallel through render. */
typedef struct steps_digest {
    uint64_t n, sum;
} steps_digest;

static void digest(steps_digest *d, const tk_dcfg_trace_piece *p)
{
    for (size_t i = 0; i < p->nsteps; i++) {
        const tk_dcfg_trace_step *s = &p->steps[i];
        d->n++;
        d->sum = d->sum * 31 + s->edge_id + s->edge + s->src + s->tgt + s->kind + s->instrs;
    }
}

static int digest_piece(void *ctx, const tk_dcfg_trace_piece *p)
{
    digest(ctx, p);
    return 0;
}

/* Parallel rendering: the digest of a piece as bytes, summed in order when written. */
static int render_digest(const void *ctx, const tk_dcfg_trace_piece *p, tk_dcfg_trace_text *out)
{
    (void)ctx;
    steps_digest d = {0, 0};
    digest(&d, p);
    if (tk_dcfg_trace_text_reserve(out, sizeof d, NULL) != TK_OK) return 1;
    memcpy(out->data + out->len, &d, sizeof d);
    out->len += sizeof d;
    return 0;
}

static int write_digest(void *ctx, size_t chunk, const char *data, size_t len)
{
    (void)chunk;
    steps_digest *all = ctx;
    for (size_t k = 0; k + sizeof(steps_digest) <= len; k += sizeof(steps_digest)) {
        steps_digest d;
        memcpy(&d, data + k, sizeof d);
        for (uint64_t i = 0; i < d.n; i++) all->sum *= 31;
        all->sum += d.sum;
        all->n += d.n;
    }
    return 0;
}

/* Serial and parallel steps agree; what they refuse, check --dcfg reports. */
static void walk_steps(const tk_dcfg_trace *t, const tk_cfg *cfg, int checked_ok)
{
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    opt.cfg = cfg;
    opt.steps = TK_DCFG_TRACE_STEPS_ALL;
    opt.piece = digest_piece;
    steps_digest a = {0, 0}, b = {0, 0};
    uint64_t total;
    tk_status s1 = tk_dcfg_trace_decode(t, &opt, NULL, &a, &total, NULL, NULL);
    opt.piece = NULL;
    opt.render = render_digest;
    opt.write_text = write_digest;
    opt.threads = 2;
    opt.max_chunk_edges = 1000;
    tk_status s2 = tk_dcfg_trace_decode(t, &opt, NULL, &b, &total, NULL, NULL);
    if (s1 != s2 || a.n != b.n || a.sum != b.sum) __builtin_trap();
    if (s1 != TK_OK && checked_ok) __builtin_trap();
}

static void print_problem(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    fprintf(ctx, "problem %d at %s:%lld:%llu:%llu %s\n", (int)sev, loc ? loc->path : "",
            loc ? (long long)loc->offset : 0, loc ? (unsigned long long)loc->line : 0,
            loc ? (unsigned long long)loc->column : 0, msg);
}

static void print_status(FILE *f, const char *what, tk_status st, const tk_error *e)
{
    fprintf(f, "%s: status %d", what, (int)st);
    if (st != TK_OK)
        fprintf(f, " error %d at %s:%lld:%llu:%llu %s", (int)e->code, e->path, (long long)e->offset,
                (unsigned long long)e->line, (unsigned long long)e->column, e->message);
    fputc('\n', f);
}

/* The parsed trace's processes (their counts and dictionary), threads and chunks (fields and
 * location); the number of edges its chunks declare (each counted up to FUZZ_MAX_EDGES + 1). */
static uint64_t print_structure(FILE *f, const tk_dcfg_trace *t)
{
    uint64_t major, minor, declared = 0;
    tk_dcfg_trace_version(t, &major, &minor);
    fprintf(f, "version %llu.%llu\n", (unsigned long long)major, (unsigned long long)minor);
    for (size_t i = 0; i < tk_dcfg_trace_process_count(t); i++) {
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, i, &pi);
        fprintf(f, "process %llu dict %zu rows %zu states %zu bits %u threads %zu\n",
                (unsigned long long)pi.pid, pi.dictionary_entries, pi.transition_rows,
                pi.transition_states, pi.max_code_bits, pi.nthreads);
        const char *key, *value;
        size_t vlen;
        for (size_t k = 0; k < tk_dcfg_trace_dictionary_entry(t, i, k, &key, &value, &vlen); k++)
            fprintf(f, "  <%s> %.*s\n", key, (int)vlen, value);
    }
    for (size_t i = 0; i < tk_dcfg_trace_thread_count(t); i++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, i, &ti);
        fprintf(f, "thread %llu process %zu chunks %zu from %zu\n",
                (unsigned long long)ti.thread_id, ti.process, ti.nchunks, ti.first_chunk);
    }
    for (size_t i = 0; i < tk_dcfg_trace_chunk_count(t); i++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, i, &ci);
        fprintf(f, "chunk %llu %llu %llu %llu chars %zu at %llu:%llu\n",
                (unsigned long long)ci.preceding_instr_count, (unsigned long long)ci.instr_count,
                (unsigned long long)ci.edge_count, (unsigned long long)ci.first_edge_id,
                ci.sequence_chars, (unsigned long long)ci.line, (unsigned long long)ci.column);
        declared += ci.edge_count > FUZZ_MAX_EDGES ? FUZZ_MAX_EDGES + 1 : ci.edge_count;
    }
    return declared;
}

/* What the parse makes of the input with the fast row paths (fast = 1) or their general twins
 * (tk_dt_parse_paths), as text: the status and error (code, location, message), what it
 * reports, the structure, the dump (the chunks' edges decoded through the transition tables;
 * the structure only when the chunks declare more than FUZZ_MAX_EDGES) and what check says. */
static char *parse_text(const uint8_t *data, size_t size, int fast, const tk_cfg *cfg, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f) return NULL;
    tk_dcfg_trace *t;
    tk_diag diag;
    tk_diag_init(&diag, print_problem, f);
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_dt_parse_paths(&t, data, size, "fuzz", &diag, fast, &err);
    print_status(f, "parse", st, &err);
    if (st == TK_OK) {
        uint64_t declared = print_structure(f, t);
        unsigned flags = declared > FUZZ_MAX_EDGES ? TK_DCFG_TRACE_DUMP_STRUCTURE : 0;
        print_status(f, "dump", tk_dcfg_trace_dump(t, flags, FUZZ_WRITER(f), &err), &err);
        if (!flags) print_status(f, "check", tk_dcfg_trace_check(t, cfg, 1, &diag, &err), &err);
        tk_dcfg_trace_free(t);
    }
    fclose(f);
    return text;
}

/* The line:column of each chunk (the lexer's, recorded as the parse read the row) and that
 * tk_dt_line_col finds for its row and its sequence: those counted from the bytes. */
static void check_chunk_lines(const tk_dcfg_trace *t)
{
    uint64_t line = 1, start = 0;
    size_t at = 0;
    for (size_t i = 0; i < t->nchunks; i++) {
        const dt_chunk *c = &t->chunks[i];
        int64_t offs[2] = {c->row_offset, c->seq_offset};
        if ((size_t)c->row_offset < at || c->seq_offset < c->row_offset) __builtin_trap();
        for (int k = 0; k < 2; k++) {
            for (; at < (size_t)offs[k]; at++)
                if (t->data[at] == '\n') {
                    line++;
                    start = at + 1;
                }
            uint64_t l, col, want_col = (uint64_t)offs[k] - start + 1;
            tk_dt_line_col(t, offs[k], &l, &col);
            if (l != line || col != want_col) __builtin_trap();
            if (k == 0 && (c->line != line || c->column != want_col)) __builtin_trap();
        }
    }
}

/* The fast row paths against their general twins: the same text. */
static void compare_paths(const uint8_t *data, size_t size, const tk_cfg *cfg)
{
    size_t na = 0, nb = 0;
    char *a = parse_text(data, size, 1, cfg, &na), *b = parse_text(data, size, 0, cfg, &nb);
    fuzz_same_text(a, na, b, nb);
    free(a);
    free(b);
}

/* The callgrind profile (its text, hashed) and the events (every field, hashed) of a trace
 * with threads decoding threads, and their statuses and messages. */
typedef struct conv_digest {
    tk_status prof_st, ev_st;
    uint64_t prof_h, ev_h;
    char prof_msg[sizeof(((tk_error *)0)->message)], ev_msg[sizeof(((tk_error *)0)->message)];
} conv_digest;

static void hash_bytes(uint64_t *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) *h = (*h ^ p[i]) * 1099511628211ull;
}

static int hash_write(void *ctx, const void *data, size_t len)
{
    hash_bytes(ctx, data, len);
    return 0;
}

static void convert_digest(const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned threads,
                           conv_digest *d)
{
    memset(d, 0, sizeof *d);
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    o.threads = threads;
    tk_error err;
    tk_error_clear(&err);
    tk_profile *prof;
    d->prof_st = TK_ERR_NOMEM;
    if (tk_profile_open(&prof, NULL) == TK_OK) {
        d->prof_st = tk_dcfg_trace_to_profile(t, cfg, prof, &o, &err);
        snprintf(d->prof_msg, sizeof d->prof_msg, "%s", err.message);
        tk_writer w = {hash_write, &d->prof_h};
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        if (d->prof_st == TK_OK) tk_callgrind_write(prof, &w, &wo, NULL);
        tk_profile_free(prof);
    }
    tk_error_clear(&err);
    tk_dcfg_trace_events *x;
    d->ev_st = TK_ERR_NOMEM;
    if (tk_dcfg_trace_events_open(&x, t, cfg, &o, &err) == TK_OK) {
        tk_event_source src;
        tk_dcfg_trace_events_source(x, &src);
        tk_event ev;
        while ((d->ev_st = src.next(src.ctx, &ev, &err)) == TK_OK) {
            uint64_t f[6] = {(uint64_t)ev.kind, ev.thread, (uint64_t)ev.pid,
                             (uint64_t)ev.tid,  ev.time,   ev.func};
            hash_bytes(&d->ev_h, f, sizeof f);
        }
        snprintf(d->ev_msg, sizeof d->ev_msg, "%s", err.message);
        tk_dcfg_trace_events_free(x);
    }
}

/* The profile made of each thread's chunks cut in two at cut (0 to 255: where among them) and
 * replayed (tk_dcfg_trace_profile_range, _replay: tracekit-mpi's split), as convert_digest's;
 * and the input's bytes replayed as a range's ops of thread 0, which must not crash. */
static void split_digest(const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned cut,
                         const uint8_t *data, size_t size, conv_digest *d)
{
    memset(d, 0, sizeof *d);
    tk_error err;
    tk_error_clear(&err);
    tk_profile *prof;
    d->prof_st = TK_ERR_NOMEM;
    if (tk_profile_open(&prof, NULL) != TK_OK) return;
    d->prof_st = TK_OK;
    size_t ir;
    uint32_t unknown;
    if (tk_profile_add_event(prof, "Ir", 2, &ir, NULL) != TK_OK ||
        tk_profile_intern(prof, "???", 3, &unknown, NULL) != TK_OK)
        d->prof_st = TK_ERR_NOMEM;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && d->prof_st == TK_OK; th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        size_t mid = ti.first_chunk + ti.nchunks * cut / 255, end = ti.first_chunk + ti.nchunks;
        uint8_t *parts[2] = {NULL, NULL};
        size_t sizes[2] = {0, 0};
        d->prof_st = tk_dcfg_trace_profile_range(t, cfg, th, ti.first_chunk, mid, NULL, &parts[0],
                                                 &sizes[0], &err);
        if (d->prof_st == TK_OK)
            d->prof_st =
                tk_dcfg_trace_profile_range(t, cfg, th, mid, end, NULL, &parts[1], &sizes[1], &err);
        if (d->prof_st == TK_OK)
            d->prof_st = tk_dcfg_trace_profile_replay(
                t, cfg, prof, th, (const uint8_t *const *)parts, sizes, 2, &err);
        tk_free(parts[0]);
        tk_free(parts[1]);
    }
    snprintf(d->prof_msg, sizeof d->prof_msg, "%s", err.message);
    tk_writer w = {hash_write, &d->prof_h};
    tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    if (d->prof_st == TK_OK) tk_callgrind_write(prof, &w, &wo, NULL);
    tk_profile_free(prof);
    if (tk_dcfg_trace_thread_count(t) && tk_profile_open(&prof, NULL) == TK_OK) {
        tk_dcfg_trace_profile_replay(t, cfg, prof, 0, &data, &size, 1, NULL);
        tk_profile_free(prof);
    }
}

/* The folded stacks of the trace (tk_export_folded of its events) against those made of each
 * thread's chunks cut in two at cut (0 to 255: where among them) and replayed
 * (tk_dcfg_trace_folded_range, _replay: tracekit-mpi's split), per_thread or not: the same
 * bytes, or the same error; and the input's bytes replayed as a range's ops of thread 0, which
 * must give an error or stacks, never a crash. */
static void folded_split_check(const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned cut,
                               int per_thread, const uint8_t *data, size_t size)
{
    tk_error e1, e2;
    tk_error_clear(&e1);
    tk_error_clear(&e2);
    uint64_t h1 = 0, h2 = 0;
    tk_status s1 = TK_ERR_NOMEM, s2 = TK_OK;
    tk_dcfg_trace_events *x;
    if (tk_dcfg_trace_events_open(&x, t, cfg, NULL, &e1) != TK_OK) return;
    tk_event_source src;
    tk_dcfg_trace_events_source(x, &src);
    tk_writer w1 = {hash_write, &h1}, w2 = {hash_write, &h2};
    s1 = tk_export_folded(&src, &w1, TK_FOLDED_TIME, per_thread, &e1);
    tk_dcfg_trace_events_free(x);
    tk_dcfg_trace_folded *f;
    if (tk_dcfg_trace_folded_open(&f, t, cfg, per_thread, NULL) != TK_OK) return;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && s2 == TK_OK; th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        size_t mid = ti.first_chunk + ti.nchunks * cut / 255, end = ti.first_chunk + ti.nchunks;
        uint8_t *parts[2] = {NULL, NULL};
        size_t sizes[2] = {0, 0};
        if (tk_dcfg_trace_folded_range(t, cfg, th, ti.first_chunk, mid, NULL, &parts[0], &sizes[0],
                                       &e2) == TK_OK &&
            tk_dcfg_trace_folded_range(t, cfg, th, mid, end, NULL, &parts[1], &sizes[1], &e2) ==
                TK_OK)
            s2 = tk_dcfg_trace_folded_replay(f, th, (const uint8_t *const *)parts, sizes, 2, &e2);
        else if (ti.nchunks) /* the thread's process is not in the DCFG: the replay says it */
            s2 = tk_dcfg_trace_folded_replay(f, th, NULL, NULL, 0, &e2);
        tk_free(parts[0]);
        tk_free(parts[1]);
    }
    if (s2 == TK_OK) s2 = tk_dcfg_trace_folded_write(f, &w2, &e2);
    tk_dcfg_trace_folded_free(f);
    if (s1 != s2 || (s1 == TK_OK ? h1 != h2 : strcmp(e1.message, e2.message) != 0))
        __builtin_trap();
    if (!tk_dcfg_trace_thread_count(t) || tk_dcfg_trace_folded_open(&f, t, cfg, 1, NULL) != TK_OK)
        return;
    tk_status st = tk_dcfg_trace_folded_replay(f, 0, &data, &size, 1, NULL);
    if (st != TK_OK && st != TK_ERR_FORMAT && st != TK_ERR_LIMIT && st != TK_ERR_NOMEM)
        __builtin_trap();
    if (st == TK_OK) tk_dcfg_trace_folded_write(f, &w2, NULL);
    tk_dcfg_trace_folded_free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static tk_cfg *cfg;
    tk_error err;
    tk_error_clear(&err);
    if (!cfg) {
        tk_input *in;
        if (tk_input_open_memory(&in, tiny_dcfg, sizeof tiny_dcfg - 1, "tiny.dcfg", NULL, &err) !=
            TK_OK)
            return 0;
        if (tk_dcfg_read(&cfg, in, NULL, &err) != TK_OK) cfg = NULL;
        tk_input_free(in);
    }
    compare_paths(data, size, cfg);
    tk_dcfg_trace *t;
    tk_diag diag;
    tk_diag_init(&diag, ignore, NULL);
    if (tk_dcfg_trace_open_memory(&t, data, size, "fuzz", &diag, &err) != TK_OK) return 0;
    check_chunk_lines(t);
    /* A tiny file may legitimately declare billions of edges (that is what
     * repeats are for): decoding them is linear work, not a bug, so inputs
     * declaring more than FUZZ_MAX_EDGES edges are only parsed. */
    uint64_t declared = 0;
    for (size_t i = 0; i < tk_dcfg_trace_chunk_count(t); i++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, i, &ci);
        declared += ci.edge_count > FUZZ_MAX_EDGES ? FUZZ_MAX_EDGES + 1 : ci.edge_count;
    }
    if (declared > FUZZ_MAX_EDGES) {
        tk_dcfg_trace_free(t);
        return 0;
    }
    uint64_t a = 0, b = 0, total;
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    opt.max_chunk_edges = 1000;
    tk_status s1 = tk_dcfg_trace_decode(t, &opt, count_edges, &a, &total, NULL, &err);
    opt.threads = 2;
    tk_status s2 = tk_dcfg_trace_decode(t, &opt, count_edges, &b, &total, NULL, &err);
    if (s1 != s2 || a != b) __builtin_trap(); /* parallel and serial decoding must agree */
    uint64_t errors_before = diag.errors;
    tk_dcfg_trace_check(t, cfg, 1, &diag, &err);
    if (s1 == TK_OK && cfg) {
        /* what the conversions refuse (a process or edge the DCFG lacks, an
         * instruction count beyond 64 bits or going back), check --dcfg reports */
        int refused = 0;
        conv_digest one, two;
        convert_digest(t, cfg, 1, &one);
        convert_digest(t, cfg, 2, &two);
        /* decoded and looked up on threads, the call stacks made in order: the same */
        if (one.prof_st != two.prof_st || one.ev_st != two.ev_st || one.prof_h != two.prof_h ||
            one.ev_h != two.ev_h || strcmp(one.prof_msg, two.prof_msg) != 0 ||
            strcmp(one.ev_msg, two.ev_msg) != 0)
            __builtin_trap();
        /* each thread's chunks split in two and replayed: the same profile and error */
        split_digest(t, cfg, size ? data[0] : 0, data, size, &two);
        if (one.prof_st != two.prof_st || one.prof_h != two.prof_h ||
            strcmp(one.prof_msg, two.prof_msg) != 0)
            __builtin_trap();
        /* folded stacks split the same way: the serial bytes or error */
        folded_split_check(t, cfg, size ? data[0] : 0, size > 1 && (data[1] & 1), data, size);
        refused |= one.prof_st == TK_ERR_FORMAT || one.prof_st == TK_ERR_LIMIT;
        refused |= one.ev_st == TK_ERR_FORMAT || one.ev_st == TK_ERR_LIMIT;
        if (refused && diag.errors == errors_before) __builtin_trap();
        walk_steps(t, cfg, diag.errors == errors_before);
    }
    if (s1 == TK_OK) reencode(t, size ? data[size - 1] : 0, cfg);
    tk_dcfg_trace_free(t);
    return 0;
}
