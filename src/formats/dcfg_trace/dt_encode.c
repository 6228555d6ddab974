/* DCFG-Trace encoder.
 *
 * Two passes over the same edge sequences. Pass 1 (observe) counts, per
 * process, how often each edge follows each other edge. start() turns those
 * counts into one Huffman code per (edge, successor) (length-limited to 32
 * bits, canonical, "" for a sole successor). Pass 2 (encode) writes the bits
 * of each chunk MSB-first as modified base64, then compresses the text:
 * level >= 1 replaces consecutive repeats by "(n*...)", level >= 5 adds a
 * STRING_DICTIONARY of segments that recur across chunks. A process's rows
 * are kept (compressed) until the process ends, because the dictionary comes
 * before the thread data in the file. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "core/vec.h"
#include "formats/dcfg_trace/dt_internal.h"
#include "formats/dcfg_trace/dt_phrase.h"
#include "model/cfg_internal.h"
#include "tracekit/cfg.h"

/* ---- small helpers ---------------------------------------------------------- */

typedef struct strbuf {
    char *p;
    size_t n, cap;
} strbuf;

static int sb_reserve(strbuf *b, size_t more)
{
    if (b->n + more <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more) cap *= 2;
    char *q = tk_realloc(b->p, cap);
    if (!q) return -1;
    b->p = q;
    b->cap = cap;
    return 0;
}

static int sb_add(strbuf *b, const char *s, size_t n)
{
    if (n == 0) return 0;
    if (sb_reserve(b, n)) return -1;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    return 0;
}

static int sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sb_printf(strbuf *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) return -1;
    return sb_add(b, tmp, (size_t)n);
}

/* Symbols of the transition tables: (current edge, path of 1..n next edges).
 * Keys are variable-length records x, n, e[0..n) in one array (koff[s] is
 * where symbol s's record starts). Open addressing over symbol indexes. */
typedef struct sym_map {
    uint32_t *keys; /* key records */
    size_t nkeys, cap_keys;
    size_t *koff; /* record offset of each symbol */
    uint64_t *counts;
    uint32_t *code; /* right-aligned code bits, after start() */
    uint8_t *len; /* code length */
    size_t n, cap;
    uint32_t *slots; /* symbol index + 1, 0 = empty */
    size_t nslots;
} sym_map;

static inline const uint32_t *sm_key(const sym_map *m, size_t s) { return m->keys + m->koff[s]; }

static inline uint64_t sym_hash(uint32_t x, const uint32_t *e, unsigned n)
{
    uint64_t h = (uint64_t)x * 0x9e3779b97f4a7c15ULL + n;
    for (unsigned i = 0; i < n; i++) h = (h ^ e[i]) * 0xff51afd7ed558ccdULL;
    return h ^ (h >> 29) ^ (h >> 47);
}

static inline int sym_equal(const sym_map *m, size_t s, uint32_t x, const uint32_t *e, unsigned n)
{
    const uint32_t *k = sm_key(m, s);
    if (k[0] != x || k[1] != n) return 0;
    for (unsigned i = 0; i < n; i++)
        if (k[2 + i] != e[i]) return 0;
    return 1;
}

static size_t sm_find(const sym_map *m, uint32_t x, const uint32_t *e, unsigned n)
{
    if (!m->nslots) return SIZE_MAX;
    size_t j = sym_hash(x, e, n) & (m->nslots - 1);
    while (m->slots[j]) {
        if (sym_equal(m, m->slots[j] - 1, x, e, n)) return m->slots[j] - 1;
        j = (j + 1) & (m->nslots - 1);
    }
    return SIZE_MAX;
}

static int sm_rehash(sym_map *m, size_t nslots)
{
    uint32_t *slots = tk_calloc(nslots, sizeof *slots);
    if (!slots) return -1;
    for (size_t s = 0; s < m->n; s++) {
        const uint32_t *k = sm_key(m, s);
        size_t j = sym_hash(k[0], k + 2, k[1]) & (nslots - 1);
        while (slots[j]) j = (j + 1) & (nslots - 1);
        slots[j] = (uint32_t)s + 1;
    }
    tk_free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
    return 0;
}

/* Append a new symbol (x, e[0..n)) with count 0 without indexing it; its
 * index in *out. */
static int sm_append(sym_map *m, uint32_t x, const uint32_t *e, unsigned n, size_t *out)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        size_t *koff = tk_realloc(m->koff, cap * sizeof *koff);
        if (!koff) return -1;
        m->koff = koff;
        uint64_t *counts = tk_realloc(m->counts, cap * sizeof *counts);
        if (!counts) return -1;
        m->counts = counts;
        m->cap = cap;
    }
    if (m->nkeys + 2 + n > m->cap_keys) {
        size_t cap = m->cap_keys ? m->cap_keys : 1024;
        while (cap < m->nkeys + 2 + n) cap *= 2;
        uint32_t *keys = tk_realloc(m->keys, cap * sizeof *keys);
        if (!keys) return -1;
        m->keys = keys;
        m->cap_keys = cap;
    }
    uint32_t *k = m->keys + m->nkeys;
    k[0] = x;
    k[1] = n;
    memcpy(k + 2, e, n * sizeof *e);
    m->koff[m->n] = m->nkeys;
    m->nkeys += 2 + n;
    m->counts[m->n] = 0;
    *out = m->n++;
    return 0;
}

/* Count one occurrence of (x, e[0..n)); its index in *out when out is set. */
static int sm_add(sym_map *m, uint32_t x, const uint32_t *e, unsigned n, size_t *out)
{
    size_t s = sm_find(m, x, e, n);
    if (s != SIZE_MAX) {
        m->counts[s]++;
        if (out) *out = s;
        return 0;
    }
    if ((m->n + 1) * 2 > m->nslots && sm_rehash(m, m->nslots ? m->nslots * 2 : 512)) return -1;
    if (sm_append(m, x, e, n, &s)) return -1;
    m->counts[s] = 1;
    size_t j = sym_hash(x, e, n) & (m->nslots - 1);
    while (m->slots[j]) j = (j + 1) & (m->nslots - 1);
    m->slots[j] = (uint32_t)s + 1;
    if (out) *out = s;
    return 0;
}

static void sm_free(sym_map *m)
{
    tk_free(m->keys);
    tk_free(m->koff);
    tk_free(m->counts);
    tk_free(m->code);
    tk_free(m->len);
    tk_free(m->slots);
}

/* ---- the encoder -------------------------------------------------------------- */

typedef struct enc_thread {
    uint64_t pid, tid;
} enc_thread;

typedef struct enc_process {
    uint64_t pid;
    sym_map syms; /* symbols of the parse (phrases, or one edge per transition) */
    sym_map single; /* with phrases: the symbols of the one-edge parse */
    int phrases; /* multi-edge rows; start() keeps them when estimated smaller */
    int ph_ready; /* the phrases are chosen (pass 1) */
    dt_phrases ph;
    uint8_t *code_len; /* pass 2: code length of the phrase ending at each trie node */
    /* recent one-edge transitions of the one-edge parse (direct-mapped):
     * (previous edge, edge) -> symbol + 1 */
    uint32_t single_prev[4096], single_edge[4096], single_sym[4096];
    /* the same for syms when a transition is one edge (no phrases); cleared
     * by start(), which may replace or renumber syms */
    uint32_t one_prev[4096], one_edge[4096], one_sym[4096];
    size_t first_group, ngroups; /* threads, in order */
} enc_process;

struct tk_dcfg_trace_encoder {
    tk_dcfg_trace_encode_options opt;
    enc_process *procs;
    size_t nprocs, cap_procs;
    enc_thread *groups; /* (pid, tid) in the order observed */
    size_t ngroups, cap_groups;
    int phrases; /* multi-edge rows tried (level >= 7, not compat) */
    /* pass 1, phrases: the sample of the process being sampled, in segments
     * (one per thread), and the one-edge parse running alongside */
    int sampling;
    uint32_t *sample;
    size_t nsample, cap_sample;
    size_t *sseg; /* segment starts, plus room for the end */
    size_t nsseg, cap_sseg;
    size_t sample_group; /* group of the last segment */
    int s_open;
    uint32_t s_prev;
    uint64_t s_edges, s_instrs;
    int s_last_known; /* the one-edge parse's last edge is in the DCFG: */
    uint32_t s_last_tgt; /* the node it enters */
    int pass; /* 0 observe, 1 encode */
    uint32_t *pend; /* edges of the current thread not parsed yet */
    size_t npend, cap_pend;
    /* pass 2 */
    int started;
    tk_write_fn write;
    void *write_ctx;
    size_t cur_proc; /* index of the process being encoded */
    size_t cur_group; /* group being encoded (pass 2) */
    int in_group;
    int wrote_any_process;
    strbuf rows; /* the current process's thread rows (text) */
    int wrote_any_group;
    strbuf chunk_text; /* plain base64 of the current chunk */
    uint64_t acc; /* pending bits, right-aligned */
    unsigned nacc;
    uint64_t chunk_edges, chunk_instrs, preceding;
    uint32_t chunk_first, prev;
    int chunk_open;
    size_t scan; /* pend index after the last edge counted in the chunk */
    uint64_t span_edges; /* edges counted in the chunk */
    int full; /* the chunk ends at pend[scan - 1] */
    /* with a DCFG: the last edge counted (in this chunk or the one before) */
    int last_known; /* it is in the DCFG: */
    uint32_t last_tgt; /* the node it enters */
    uint64_t chunk_gap; /* the chunk follows a gap: instructions known to be in it */
    const tk_cfg_process *cp; /* the DCFG's process of cp_pid (NULL: not in it) */
    uint64_t cp_pid;
    int cp_valid;
    /* pass 2 with phrases: the shortest-path parse */
    uint32_t *sp_cost, *sp_from, *sp_sym;
    size_t sp_cap, sp_cap_from, sp_cap_sym;
    int32_t *last_seen; /* repeat finder: last position of each 3-char gram */
    /* chunk texts kept for the dictionary (offsets in rows where sequences start/end) */
    size_t *seq_spans;
    size_t nspans, cap_spans;
};

static tk_status nomem(tk_error *err) { return tk_error_set(err, TK_ERR_NOMEM, "out of memory"); }

tk_status tk_dcfg_trace_encoder_open(tk_dcfg_trace_encoder **out,
                                     const tk_dcfg_trace_encode_options *opt, tk_error *err)
{
    tk_dcfg_trace_encoder *e = tk_calloc(1, sizeof *e);
    if (!e) return nomem(err);
    tk_dcfg_trace_encode_options def = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
    e->opt = opt ? *opt : def;
    int level = e->opt.level;
    if (level != TK_DCFG_TRACE_PLAIN && (level < 0 || level > 9)) {
        tk_free(e);
        return tk_error_set(err, TK_ERR_ARG, "level %d out of range 1..9", level);
    }
    /* inside the encoder: 0 plain, 1-9 */
    e->opt.level = level == 0                     ? TK_DCFG_TRACE_DEFAULT_LEVEL
                   : level == TK_DCFG_TRACE_PLAIN ? 0
                                                  : level;
    e->phrases = e->opt.level >= 7 && !e->opt.compat_intel;
    *out = e;
    return TK_OK;
}

void tk_dcfg_trace_encoder_free(tk_dcfg_trace_encoder *e)
{
    if (!e) return;
    for (size_t i = 0; i < e->nprocs; i++) {
        sm_free(&e->procs[i].syms);
        sm_free(&e->procs[i].single);
        tk_dt_phrases_free(&e->procs[i].ph);
        tk_free(e->procs[i].code_len);
    }
    tk_free(e->pend);
    tk_free(e->sample);
    tk_free(e->sseg);
    tk_free(e->procs);
    tk_free(e->groups);
    tk_free(e->rows.p);
    tk_free(e->chunk_text.p);
    tk_free(e->last_seen);
    tk_free(e->seq_spans);
    tk_free(e->sp_cost);
    tk_free(e->sp_from);
    tk_free(e->sp_sym);
    tk_free(e);
}

/* What the encoder knows of an edge of process pid: the NUM_INSTRS of its
 * source block (source_instrs, else the DCFG's; 0 without either) and, with
 * a DCFG that has the edge (known), the nodes it leaves and enters. */
typedef struct edge_facts {
    uint64_t instrs;
    int known;
    uint32_t src, tgt;
} edge_facts;

static void edge_facts_of(tk_dcfg_trace_encoder *e, uint64_t pid, uint32_t edge, edge_facts *f)
{
    const tk_dcfg_trace_encode_options *o = &e->opt;
    f->instrs = 0;
    f->known = 0;
    f->src = f->tgt = TK_CFG_NONE;
    if (o->cfg) {
        if (!e->cp_valid || e->cp_pid != pid) {
            uint32_t i = tk_cfg_find_process(o->cfg, pid);
            e->cp = i == TK_CFG_NONE ? NULL : &o->cfg->processes[i];
            e->cp_pid = pid;
            e->cp_valid = 1;
        }
        const tk_cfg_process *p = e->cp;
        uint32_t i = p ? tk_cfg_find_edge(p, edge) : TK_CFG_NONE;
        if (i != TK_CFG_NONE) {
            f->known = 1;
            f->src = p->edges[i].src;
            f->tgt = p->edges[i].tgt;
            if (cfg_is_block(p, f->src)) f->instrs = p->blocks[f->src].num_instrs;
        }
    }
    if (o->source_instrs) f->instrs = o->source_instrs(o->ctx, pid, edge);
}

/* Enter group (pid, tid) in pass 1: a new group, or the continuation of the last one. */
static tk_status parse(tk_dcfg_trace_encoder *e, int final, tk_error *err);

static tk_status observe_group(tk_dcfg_trace_encoder *e, uint64_t pid, uint64_t tid, tk_error *err)
{
    if (e->ngroups > 0 && e->groups[e->ngroups - 1].pid == pid &&
        e->groups[e->ngroups - 1].tid == tid)
        return TK_OK;
    if (e->ngroups > 0) {
        /* the previous thread is complete */
        tk_status st = parse(e, 1, err);
        if (st != TK_OK) return st;
        e->chunk_open = 0;
        e->s_open = 0;
    }
    e->last_known = 0; /* a new thread: no edge before its first */
    e->s_last_known = 0;
    for (size_t i = 0; i < e->ngroups; i++)
        if (e->groups[i].pid == pid && e->groups[i].tid == tid)
            return tk_error_set(err, TK_ERR_FORMAT,
                                "the edges of process %llu thread %llu are not contiguous (each "
                                "thread's edges must come together)",
                                (unsigned long long)pid, (unsigned long long)tid);
    if (e->nprocs == 0 || e->procs[e->nprocs - 1].pid != pid) {
        for (size_t i = 0; i < e->nprocs; i++)
            if (e->procs[i].pid == pid)
                return tk_error_set(
                    err, TK_ERR_FORMAT,
                    "the threads of process %llu are not contiguous (each process's "
                    "edges must come together)",
                    (unsigned long long)pid);
        if (tk_vec_reserve_((void **)&e->procs, &e->cap_procs, e->nprocs + 1, sizeof *e->procs))
            return nomem(err);
        enc_process *p = &e->procs[e->nprocs++];
        memset(p, 0, sizeof *p);
        p->pid = pid;
        p->first_group = e->ngroups;
        p->phrases = e->phrases;
    }
    if (tk_vec_reserve_((void **)&e->groups, &e->cap_groups, e->ngroups + 1, sizeof *e->groups))
        return nomem(err);
    e->groups[e->ngroups++] = (enc_thread){pid, tid};
    e->procs[e->nprocs - 1].ngroups++;
    return TK_OK;
}

static tk_status append_pending(tk_dcfg_trace_encoder *e, const uint32_t *edges, size_t n,
                                tk_error *err)
{
    if (n == 0) return TK_OK;
    for (size_t i = 0; i < n; i++)
        if (edges[i] == 0) return tk_error_set(err, TK_ERR_ARG, "edge id 0 is not valid");
    if (tk_vec_reserve_((void **)&e->pend, &e->cap_pend, e->npend + n, sizeof *e->pend))
        return nomem(err);
    memcpy(e->pend + e->npend, edges, n * sizeof *edges);
    e->npend += n;
    return TK_OK;
}

/* Pass 1, when multi-edge transitions are tried: the statistics of the
 * one-edge parse (same chunk rule), to choose the smaller at start(). */
static tk_status observe_single(tk_dcfg_trace_encoder *e, const uint32_t *edges, size_t n,
                                tk_error *err)
{
    const tk_dcfg_trace_encode_options *o = &e->opt;
    enc_process *P = &e->procs[e->nprocs - 1];
    for (size_t i = 0; i < n; i++) {
        uint32_t x = edges[i];
        edge_facts f;
        edge_facts_of(e, P->pid, x, &f);
        /* a discontinuity ends the chunk before x (as scan_chunk) */
        if (e->s_open && e->s_last_known && f.known && f.src != e->s_last_tgt) e->s_open = 0;
        e->s_last_known = f.known;
        e->s_last_tgt = f.tgt;
        if (!e->s_open) {
            e->s_open = 1;
            e->s_edges = 1;
            e->s_instrs = 0;
        } else {
            unsigned slot = ((e->s_prev * 0x9e3779b1u) ^ (x * 0x85ebca6bu)) >> 20;
            if (P->single_prev[slot] == e->s_prev && P->single_edge[slot] == x &&
                P->single_sym[slot]) {
                P->single.counts[P->single_sym[slot] - 1]++;
            } else {
                size_t sidx;
                if (sm_add(&P->single, e->s_prev, &x, 1, &sidx)) return nomem(err);
                P->single_prev[slot] = e->s_prev;
                P->single_edge[slot] = x;
                P->single_sym[slot] = (uint32_t)sidx + 1;
            }
            e->s_edges++;
        }
        e->s_instrs += f.instrs;
        e->s_prev = x;
        if ((o->chunk_instrs && e->s_instrs >= o->chunk_instrs) ||
            (o->chunk_edges && e->s_edges >= o->chunk_edges) ||
            e->s_edges > TK_DCFG_TRACE_MAX_ZERO_BIT_RUN) /* as parse() */
            e->s_open = 0;
    }
    return TK_OK;
}

/* Phrases are chosen from the first DT_SAMPLE_EDGES edges of each process. */
#define DT_SAMPLE_EDGES ((size_t)1 << 22)

/* The sample of the last process is complete: choose its phrases, then
 * parse the sample (counting symbols) as if it had just been observed. */
static tk_status finish_sample(tk_dcfg_trace_encoder *e, tk_error *err)
{
    enc_process *P = &e->procs[e->nprocs - 1];
    e->sampling = 0;
    P->ph_ready = 1;
    if (tk_vec_reserve_((void **)&e->sseg, &e->cap_sseg, e->nsseg + 1, sizeof *e->sseg))
        return nomem(err);
    e->sseg[e->nsseg] = e->nsample;
    /* A row pays for its table text only when its path recurs often enough
     * in the whole process, so the thresholds are counts in the whole input
     * (expected_edges, else the sample is taken as all of it) scaled down to
     * the sample: a pair becomes a token once it is expected about 1400 times,
     * a (current edge, token) becomes a row once expected about 100 times
     * (tuned on bench/dcfg_trace.sh at 10 M and 100 M edges). */
    double share = 1.0;
    if (e->opt.expected_edges > e->nsample)
        share = (double)e->nsample / (double)e->opt.expected_edges;
    dt_phrase_params prm = {4, 256, 16};
    if (1400.0 * share > prm.min_count) prm.min_count = (unsigned)(1400.0 * share);
    if (100.0 * share > prm.min_uses) prm.min_uses = (unsigned)(100.0 * share);
    if (tk_dt_phrases_select(&P->ph, e->sample, e->sseg, e->nsseg, &prm)) return nomem(err);
    tk_status st = TK_OK;
    for (size_t s = 0; s < e->nsseg && st == TK_OK; s++) {
        if (s > 0) {
            /* the previous segment's thread is complete */
            if ((st = parse(e, 1, err)) != TK_OK) break;
            e->chunk_open = 0;
        }
        e->last_known = 0; /* each segment is a thread from its first edge */
        size_t len = e->sseg[s + 1] - e->sseg[s]; /* no sample array when all are empty */
        st = append_pending(e, len ? e->sample + e->sseg[s] : NULL, len, err);
        if (st == TK_OK) st = parse(e, 0, err);
    }
    e->nsample = 0;
    e->nsseg = 0;
    return st;
}

/* Pass 1: the same parse as pass 2 (chunks and transitions), counting the
 * symbols, so the codes fit the transitions written. With phrases, the
 * first edges of each process are only kept until the phrases are chosen. */
tk_status tk_dcfg_trace_encoder_observe(tk_dcfg_trace_encoder *e, uint64_t pid, uint64_t tid,
                                        const uint32_t *edges, size_t n, tk_error *err)
{
    if (e->started) return tk_error_set(err, TK_ERR_ARG, "observe() after start()");
    tk_status st;
    if (e->sampling && e->procs[e->nprocs - 1].pid != pid && (st = finish_sample(e, err)) != TK_OK)
        return st;
    if ((st = observe_group(e, pid, tid, err)) != TK_OK) return st;
    enc_process *P = &e->procs[e->nprocs - 1];
    if (P->phrases) {
        if ((st = observe_single(e, edges, n, err)) != TK_OK) return st;
        if (!P->ph_ready) {
            for (size_t i = 0; i < n; i++)
                if (edges[i] == 0) return tk_error_set(err, TK_ERR_ARG, "edge id 0 is not valid");
            if (!e->sampling || e->sample_group != e->ngroups - 1) {
                if (tk_vec_reserve_((void **)&e->sseg, &e->cap_sseg, e->nsseg + 2, sizeof *e->sseg))
                    return nomem(err);
                e->sseg[e->nsseg++] = e->nsample;
                e->sample_group = e->ngroups - 1;
                e->sampling = 1;
            }
            size_t take = DT_SAMPLE_EDGES - e->nsample < n ? DT_SAMPLE_EDGES - e->nsample : n;
            if (tk_vec_reserve_((void **)&e->sample, &e->cap_sample, e->nsample + take,
                                sizeof *e->sample))
                return nomem(err);
            if (take) /* a thread without edges: no sample array yet */
                memcpy(e->sample + e->nsample, edges, take * sizeof *edges);
            e->nsample += take;
            if (e->nsample < DT_SAMPLE_EDGES) return TK_OK;
            if ((st = finish_sample(e, err)) != TK_OK) return st;
            edges += take;
            n -= take;
        }
    }
    if ((st = append_pending(e, edges, n, err)) != TK_OK) return st;
    return parse(e, 0, err);
}

/* ---- Huffman codes -------------------------------------------------------------- */

typedef struct sym {
    uint64_t weight;
    size_t index; /* symbol index in the map */
    const uint32_t *key; /* its key record */
    uint8_t len;
} sym;

/* Symbol order for canonical codes and table rows: by path (n, then edges). */
static int cmp_path(const uint32_t *x, const uint32_t *y)
{
    unsigned n = x[1] < y[1] ? x[1] : y[1];
    for (unsigned i = 0; i < n; i++)
        if (x[2 + i] != y[2 + i]) return x[2 + i] < y[2 + i] ? -1 : 1;
    return x[1] < y[1] ? -1 : (x[1] > y[1]);
}

static int cmp_weight(const void *a, const void *b)
{
    const sym *x = a, *y = b;
    if (x->weight != y->weight) return x->weight < y->weight ? -1 : 1;
    return cmp_path(x->key, y->key);
}

static int cmp_len_path(const void *a, const void *b)
{
    const sym *x = a, *y = b;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return cmp_path(x->key, y->key);
}

/* Symbols sorted by (current edge, path): the table's row order. */
typedef struct row_ref {
    const uint32_t *key;
    size_t index;
} row_ref;

static int cmp_row(const void *a, const void *b)
{
    const uint32_t *x = ((const row_ref *)a)->key, *y = ((const row_ref *)b)->key;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return cmp_path(x, y);
}

/* Huffman code lengths of s[0..n) (sorted by weight); two-queue method.
 * Returns the longest length. scratch needs 2n weights and 2n parents. */
static unsigned huffman_lengths(sym *s, size_t n, uint64_t *w, size_t *parent)
{
    if (n == 1) {
        s[0].len = 0;
        return 0;
    }
    /* leaves 0..n-1, internal n..2n-2 */
    for (size_t i = 0; i < n; i++) w[i] = s[i].weight;
    size_t leaf = 0, node = n, next_internal = n;
    for (size_t k = 0; k < n - 1; k++) {
        size_t pick[2];
        for (int j = 0; j < 2; j++) {
            if (leaf < n && (node >= next_internal || w[leaf] <= w[node]))
                pick[j] = leaf++;
            else
                pick[j] = node++;
        }
        w[next_internal] = w[pick[0]] + w[pick[1]];
        parent[pick[0]] = parent[pick[1]] = next_internal;
        next_internal++;
    }
    /* depth of internal nodes top-down (root = 2n-2) */
    size_t root = 2 * n - 2;
    unsigned maxlen = 0;
    w[root] = 0;
    for (size_t i = root; i-- > n;) w[i] = w[parent[i]] + 1;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(w[parent[i]] + 1);
        s[i].len = (uint8_t)(d > 255 ? 255 : d);
        if (d > maxlen) maxlen = d;
    }
    return maxlen;
}

/* Sorted row order of the process's symbols (caller frees). */
static size_t *row_order(const sym_map *m)
{
    size_t *order = tk_malloc((m->n ? m->n : 1) * sizeof *order);
    row_ref *refs = tk_malloc((m->n ? m->n : 1) * sizeof *refs);
    if (!order || !refs) {
        tk_free(order);
        tk_free(refs);
        return NULL;
    }
    for (size_t i = 0; i < m->n; i++) refs[i] = (row_ref){sm_key(m, i), i};
    qsort(refs, m->n, sizeof *refs, cmp_row);
    for (size_t i = 0; i < m->n; i++) order[i] = refs[i].index;
    tk_free(refs);
    return order;
}

static unsigned digits(uint64_t v);

/* Estimated bytes of a table and the sequences it codes. */
static uint64_t estimate_size(const sym_map *m)
{
    uint64_t bits = 0, text = 0;
    for (size_t i = 0; i < m->n; i++) {
        const uint32_t *k = sm_key(m, i);
        bits += m->counts[i] * m->len[i];
        text += 9 + digits(k[0]) + m->len[i]; /* the compact row layout of flush_process */
        for (unsigned j = 0; j < k[1]; j++) text += 1 + digits(k[2 + j]);
    }
    return bits / 6 + text;
}

static tk_status build_codes(sym_map *m, tk_error *err)
{
    if (m->n == 0) return TK_OK;
    m->code = tk_calloc(m->n, sizeof *m->code);
    m->len = tk_calloc(m->n, sizeof *m->len);
    size_t *order = row_order(m);
    if (!m->code || !m->len || !order) {
        tk_free(order);
        return nomem(err);
    }
    sym *syms = NULL;
    uint64_t *w = NULL;
    size_t *parent = NULL;
    size_t cap = 0;
    tk_status st = TK_OK;
    for (size_t i = 0; i < m->n;) {
        uint32_t cur = sm_key(m, order[i])[0];
        size_t j = i;
        while (j < m->n && sm_key(m, order[j])[0] == cur) j++;
        size_t n = j - i;
        if (n > cap) {
            cap = n * 2;
            tk_free(syms);
            tk_free(w);
            tk_free(parent);
            syms = tk_malloc(cap * sizeof *syms);
            w = tk_malloc(2 * cap * sizeof *w);
            parent = tk_malloc(2 * cap * sizeof *parent);
            if (!syms || !w || !parent) {
                st = nomem(err);
                break;
            }
        }
        for (size_t a = 0; a < n; a++)
            syms[a] = (sym){m->counts[order[i + a]], order[i + a], sm_key(m, order[i + a]), 0};
        /* length-limit to 32 bits by flattening the weights until it fits */
        for (;;) {
            qsort(syms, n, sizeof *syms, cmp_weight);
            if (huffman_lengths(syms, n, w, parent) <= TK_DCFG_TRACE_MAX_CODE_BITS) break;
            for (size_t a = 0; a < n; a++) syms[a].weight = (syms[a].weight >> 1) + 1;
        }
        /* canonical codes: by (length, path) */
        qsort(syms, n, sizeof *syms, cmp_len_path);
        uint64_t code = 0;
        unsigned last_len = syms[0].len;
        for (size_t a = 0; a < n; a++) {
            if (a > 0) {
                code++;
                code <<= (syms[a].len - last_len);
                last_len = syms[a].len;
            }
            m->code[syms[a].index] = (uint32_t)code;
            m->len[syms[a].index] = syms[a].len;
        }
        i = j;
    }
    tk_free(syms);
    tk_free(w);
    tk_free(parent);
    tk_free(order);
    return st;
}

/* ---- output ----------------------------------------------------------------------- */

static tk_status out(tk_dcfg_trace_encoder *e, const char *s, size_t n, tk_error *err)
{
    if (e->write(e->write_ctx, s, n)) return tk_error_set(err, TK_ERR_IO, "cannot write the trace");
    return TK_OK;
}

static tk_status outs(tk_dcfg_trace_encoder *e, const char *s, tk_error *err)
{
    return out(e, s, strlen(s), err);
}

tk_status tk_dcfg_trace_encoder_start(tk_dcfg_trace_encoder *e, const tk_writer *out, tk_error *err)
{
    if (!out || !out->write) return tk_error_set(err, TK_ERR_ARG, "no writer");
    if (e->started) return tk_error_set(err, TK_ERR_ARG, "start() called twice");
    if (e->sampling) {
        tk_status st = finish_sample(e, err);
        if (st != TK_OK) return st;
    }
    if (e->ngroups > 0) {
        tk_status st = parse(e, 1, err);
        if (st != TK_OK) return st;
    }
    e->chunk_open = 0;
    e->npend = 0;
    e->pass = 1;
    for (size_t i = 0; i < e->nprocs; i++) {
        enc_process *P = &e->procs[i];
        memset(P->one_sym, 0, sizeof P->one_sym);
        tk_status st = build_codes(&P->syms, err);
        if (st != TK_OK) return st;
        if (P->phrases) {
            /* keep the multi-edge parse only when it is estimated smaller */
            if ((st = build_codes(&P->single, err)) != TK_OK) return st;
            if (estimate_size(&P->single) <= estimate_size(&P->syms)) {
                sm_free(&P->syms);
                P->syms = P->single;
                memset(&P->single, 0, sizeof P->single);
                P->phrases = 0;
                tk_dt_phrases_free(&P->ph);
            } else {
                sm_free(&P->single);
                memset(&P->single, 0, sizeof P->single);
                if (tk_dt_phrases_automaton(&P->ph) ||
                    !(P->code_len = tk_calloc(P->ph.n ? P->ph.n : 1, sizeof *P->code_len)))
                    return nomem(err);
                for (size_t k = 0; k < P->ph.n; k++)
                    if (P->ph.nodes[k].sym != DT_PHRASE_NONE)
                        P->code_len[k] = P->syms.len[P->ph.nodes[k].sym];
            }
        }
    }
    if (e->opt.level >= 1) {
        e->last_seen = tk_malloc(((size_t)1 << 18) * sizeof *e->last_seen);
        if (!e->last_seen) return nomem(err);
    }
    e->started = 1;
    e->write = out->write;
    e->write_ctx = out->ctx;
    e->cur_group = 0;
    e->in_group = 0;
    return outs(e,
                "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0,\n"
                " \"PROCESSES\" : [ [ \"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", "
                "\"THREAD_DATA\" ]",
                err);
}

/* ---- repeat compression ("(n*...)") ------------------------------------------------- */

static unsigned digits(uint64_t v);
static unsigned digits(uint64_t v)
{
    unsigned d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

#define MAX_PERIOD 4096

/* Append s[0..n) to dst with consecutive repeats folded. The finder keeps the
 * last position of every 3-character gram; a gram seen p characters back
 * proposes a run of period p starting there. */
static int compress_repeats(tk_dcfg_trace_encoder *e, const char *s, size_t n, strbuf *dst)
{
    if (n < 8 || !e->last_seen) return sb_add(dst, s, n);
    int32_t *last = e->last_seen;
    memset(last, 0xff, ((size_t)1 << 18) * sizeof *last);
    size_t lit = 0, i = 0;
    while (i + 3 <= n) {
        uint32_t g = ((uint32_t)tk_dt_b64_value[(unsigned char)s[i]] << 12) |
                     ((uint32_t)tk_dt_b64_value[(unsigned char)s[i + 1]] << 6) |
                     (uint32_t)tk_dt_b64_value[(unsigned char)s[i + 2]];
        int32_t j = last[g];
        last[g] = (int32_t)i;
        if (j >= 0 && (size_t)j >= lit && i - (size_t)j <= MAX_PERIOD) {
            size_t p = i - (size_t)j;
            size_t L = 0;
            while (i + L < n && s[i + L] == s[(size_t)j + L]) L++;
            uint64_t r = (p + L) / p;
            if (r >= 2 && p * r > p + digits(r) + 3) {
                if (sb_add(dst, s + lit, (size_t)j - lit) ||
                    sb_printf(dst, "(%llu*", (unsigned long long)r) || sb_add(dst, s + j, p) ||
                    sb_add(dst, ")", 1))
                    return -1;
                i = (size_t)j + p * r;
                lit = i;
                continue;
            }
        }
        i++;
    }
    return sb_add(dst, s + lit, n - lit);
}

/* ---- chunks --------------------------------------------------------------------------- */

static tk_status close_chunk(tk_dcfg_trace_encoder *e, tk_error *err)
{
    if (!e->chunk_open) return TK_OK;
    if (e->nacc > 0) {
        unsigned v = (unsigned)(e->acc << (6 - e->nacc)) & 63u;
        if (sb_add(&e->chunk_text, &tk_dt_b64_chars[v], 1)) return nomem(err);
        e->nacc = 0;
        e->acc = 0;
    }
    strbuf *r = &e->rows;
    /* after a gap the chunk starts at least chunk_gap instructions later */
    uint64_t first, end;
    if (tk_add_u64(e->preceding, e->chunk_gap, &first) || tk_add_u64(first, e->chunk_instrs, &end))
        return tk_error_set(err, TK_ERR_LIMIT,
                            "process %llu thread %llu: the instruction count passes 2^64 - 1",
                            (unsigned long long)e->groups[e->cur_group].pid,
                            (unsigned long long)e->groups[e->cur_group].tid);
    if (sb_printf(r, ",\n      [ %llu, %llu, %llu, %u, \"", (unsigned long long)first,
                  (unsigned long long)e->chunk_instrs, (unsigned long long)e->chunk_edges,
                  e->chunk_first))
        return nomem(err);
    size_t start = r->n;
    if (compress_repeats(e, e->chunk_text.p, e->chunk_text.n, r)) return nomem(err);
    if (tk_vec_reserve_((void **)&e->seq_spans, &e->cap_spans, e->nspans + 2, sizeof *e->seq_spans))
        return nomem(err);
    e->seq_spans[e->nspans++] = start;
    e->seq_spans[e->nspans++] = r->n;
    if (sb_add(r, "\" ]", 3)) return nomem(err);
    e->preceding = end;
    e->chunk_text.n = 0;
    e->chunk_open = 0;
    return TK_OK;
}

static tk_status close_thread(tk_dcfg_trace_encoder *e, tk_error *err)
{
    if (!e->in_group) return TK_OK;
    tk_status st = close_chunk(e, err);
    if (st != TK_OK) return st;
    if (sb_add(&e->rows, " ] ]", 4)) return nomem(err);
    e->in_group = 0;
    return TK_OK;
}

/* ---- the dictionary (level >= 5) --------------------------------------------------------
 * Candidates are the segments of the compressed sequences: each repeat group
 * "(n*...)" at top level and each literal run between them. A segment that
 * occurs often enough to pay for its entry gets a key. */

typedef struct seg {
    size_t off, len; /* in rows */
    uint64_t hash;
    size_t entry; /* dictionary entry index + 1, 0 = none */
} seg;

typedef struct dict_cand {
    uint64_t hash;
    size_t off, len; /* first occurrence */
    uint64_t count;
    size_t key; /* key number + 1 when chosen */
} dict_cand;

static uint64_t hash_span(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static void key_name(size_t k, char *buf)
{
    /* 0 -> "A", 63 -> "-", 64 -> "AA", ... */
    char tmp[16];
    size_t n = 0;
    k++;
    while (k > 0) {
        k--;
        tmp[n++] = tk_dt_b64_chars[k % 64];
        k /= 64;
    }
    for (size_t i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
}

static size_t split_segments(const char *s, size_t start, size_t end, seg *out, size_t max)
{
    size_t n = 0, i = start;
    while (i < end && n < max) {
        size_t j = i;
        if (s[i] == '(') {
            int depth = 0;
            do {
                if (s[j] == '(')
                    depth++;
                else if (s[j] == ')')
                    depth--;
                j++;
            } while (j < end && depth > 0);
        } else {
            while (j < end && s[j] != '(') j++;
        }
        out[n].off = i;
        out[n].len = j - i;
        out[n].entry = 0;
        n++;
        i = j;
    }
    return n;
}

static int cmp_cand(const void *a, const void *b)
{
    const dict_cand *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return x->off < y->off ? -1 : (x->off > y->off);
}

static int same_text(const char *s, const dict_cand *a, const seg *b)
{
    return a->len == b->len && memcmp(s + a->off, s + b->off, a->len) == 0;
}

/* The dictionary's candidates: every segment of the rows' sequences
 * (*segs, *nseg) and their distinct texts with their counts (*cands, *ncand),
 * sorted by hash. */
static tk_status dict_candidates(tk_dcfg_trace_encoder *e, seg **segs, size_t *nseg,
                                 dict_cand **cands, size_t *ncand, tk_error *err)
{
    const char *s = e->rows.p;
    size_t total = 0;
    for (size_t i = 0; i < e->nspans; i += 2) total += e->seq_spans[i + 1] - e->seq_spans[i];
    seg *g = *segs = tk_malloc((total + 1) * sizeof *g);
    if (!g) return nomem(err);
    size_t n = 0;
    for (size_t i = 0; i < e->nspans; i += 2)
        n += split_segments(s, e->seq_spans[i], e->seq_spans[i + 1], g + n, total + 1 - n);
    *nseg = n;
    dict_cand *c = *cands = tk_malloc((n + 1) * sizeof *c);
    if (!c) return nomem(err);
    for (size_t i = 0; i < n; i++) {
        g[i].hash = hash_span(s + g[i].off, g[i].len);
        c[i] = (dict_cand){g[i].hash, g[i].off, g[i].len, 1, 0};
    }
    qsort(c, n, sizeof *c, cmp_cand);
    /* merge identical texts */
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && c[j].hash == c[i].hash && c[j].len == c[i].len &&
               memcmp(s + c[j].off, s + c[i].off, c[i].len) == 0)
            j++;
        dict_cand d = c[i];
        d.count = j - i;
        c[m++] = d;
        i = j;
    }
    *ncand = m;
    return TK_OK;
}

/* Which candidates become entries (an entry costs len + key + 8 once and
 * saves len - key - 2 per use): their keys, then each segment's entry (its
 * candidate found by binary search on the hash). */
static void dict_choose(const char *s, seg *segs, size_t nseg, dict_cand *cands, size_t ncand)
{
    size_t nkeys = 0;
    for (size_t i = 0; i < ncand; i++) {
        char key[16];
        key_name(nkeys, key);
        size_t kl = strlen(key);
        if (cands[i].len <= kl + 2) continue;
        uint64_t saved = cands[i].count * (cands[i].len - kl - 2);
        if (saved > cands[i].len + kl + 8) cands[i].key = ++nkeys;
    }
    for (size_t i = 0; i < nseg; i++) {
        size_t lo = 0, hi = ncand;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (cands[mid].hash < segs[i].hash)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t k = lo; k < ncand && cands[k].hash == segs[i].hash; k++)
            if (same_text(s, &cands[k], &segs[i])) {
                if (cands[k].key) segs[i].entry = cands[k].key;
                break;
            }
    }
}

/* The dictionary's entries in key order (after "{ "); *first stays 1 when
 * there is none. */
static tk_status dict_entries(tk_dcfg_trace_encoder *e, const dict_cand *cands, size_t ncand,
                              int *first, tk_error *err)
{
    const char *s = e->rows.p;
    size_t nkeys = 0;
    for (size_t i = 0; i < ncand; i++)
        if (cands[i].key > nkeys) nkeys = cands[i].key;
    size_t *by_key = tk_calloc(nkeys + 1, sizeof *by_key);
    if (!by_key) return nomem(err);
    for (size_t i = 0; i < ncand; i++)
        if (cands[i].key) by_key[cands[i].key - 1] = i;
    tk_status st = TK_OK;
    for (size_t k = 0; k < nkeys && st == TK_OK; k++) {
        char key[16];
        key_name(k, key);
        const dict_cand *c = &cands[by_key[k]];
        char head[40];
        snprintf(head, sizeof head, "%s\n    \"%s\" : \"", *first ? "" : ",", key);
        *first = 0;
        if ((st = outs(e, head, err)) == TK_OK && (st = out(e, s + c->off, c->len, err)) == TK_OK)
            st = outs(e, "\"", err);
    }
    tk_free(by_key);
    return st;
}

/* The rows, each segment with an entry written as its reference "<KEY>". */
static tk_status rows_with_references(tk_dcfg_trace_encoder *e, const seg *segs, size_t nseg,
                                      tk_error *err)
{
    const char *s = e->rows.p;
    size_t pos = 0;
    tk_status st;
    for (size_t si = 0; si < nseg; si++) {
        const seg *g = &segs[si];
        if (!g->entry) continue;
        if ((st = out(e, s + pos, g->off - pos, err)) != TK_OK) return st;
        char key[20];
        key[0] = '<';
        key_name(g->entry - 1, key + 1);
        size_t kl = strlen(key);
        key[kl] = '>';
        if ((st = out(e, key, kl + 1, err)) != TK_OK) return st;
        pos = g->off + g->len;
    }
    return out(e, s + pos, e->rows.n - pos, err);
}

/* Write STRING_DICTIONARY and the rows with references substituted. */
static tk_status write_dictionary_and_rows(tk_dcfg_trace_encoder *e, const char *table_text,
                                           size_t table_len, tk_error *err)
{
    size_t nseg = 0, ncand = 0;
    seg *segs = NULL;
    dict_cand *cands = NULL;
    tk_status st = TK_OK;
    int use_dict = e->opt.level >= 5 && !e->opt.compat_intel && e->nspans > 0;
    if (use_dict && (st = dict_candidates(e, &segs, &nseg, &cands, &ncand, err)) == TK_OK)
        dict_choose(e->rows.p, segs, nseg, cands, ncand);
    int first = 1;
    if (st == TK_OK) st = outs(e, "{ ", err);
    if (st == TK_OK && use_dict) st = dict_entries(e, cands, ncand, &first, err);
    if (st == TK_OK) st = outs(e, first ? "},\n" : " },\n", err);
    if (st == TK_OK) st = out(e, table_text, table_len, err);
    if (st == TK_OK) st = outs(e, ",\n   [ [ \"THREAD_ID\", \"TRACE_DATA\" ]", err);
    if (st == TK_OK) st = rows_with_references(e, segs, nseg, err); /* none when !use_dict */
    tk_free(segs);
    tk_free(cands);
    return st;
}

/* Write the finished process (index e->cur_proc). */
static tk_status flush_process(tk_dcfg_trace_encoder *e, tk_error *err)
{
    enc_process *p = &e->procs[e->cur_proc];
    sym_map *m = &p->syms;
    strbuf table = {0};
    tk_status st = TK_OK;
    /* the rows without spaces (they are most of the table's size); what
     * Intel's reader gets keeps the layout of Intel's writer */
    int compact = !e->opt.compat_intel;
    /* transition table, sorted by (current edge, path) */
    size_t *ks = row_order(m);
    if (!ks) return nomem(err);
    if (sb_printf(&table, "   [ [ \"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\" ]")) {
        st = nomem(err);
        goto done;
    }
    for (size_t i = 0; i < m->n; i++) {
        size_t s = ks[i];
        const uint32_t *key = sm_key(m, s);
        char code[40];
        unsigned len = m->len[s];
        for (unsigned b = 0; b < len; b++)
            code[b] = (char)('0' + ((m->code[s] >> (len - 1 - b)) & 1u));
        code[len] = 0;
        if (sb_printf(&table, compact ? ",\n[%u,\"%s\",[%u" : ",\n    [ %u, \"%s\", [ %u", key[0],
                      code, key[2])) {
            st = nomem(err);
            goto done;
        }
        for (unsigned j = 1; j < key[1]; j++)
            if (sb_printf(&table, compact ? ",%u" : ", %u", key[2 + j])) {
                st = nomem(err);
                goto done;
            }
        if (compact ? sb_add(&table, "]]", 2) : sb_add(&table, " ] ]", 4)) {
            st = nomem(err);
            goto done;
        }
    }
    if (sb_add(&table, " ]", 2)) {
        st = nomem(err);
        goto done;
    }
    char head[64];
    snprintf(head, sizeof head, ",\n  [ %llu, ", (unsigned long long)p->pid);
    if ((st = outs(e, head, err)) != TK_OK) goto done;
    if ((st = write_dictionary_and_rows(e, table.p, table.n, err)) != TK_OK) goto done;
    st = outs(e, " ] ]", err);
done:
    tk_free(ks);
    tk_free(table.p);
    e->rows.n = 0;
    e->nspans = 0;
    return st;
}

/* Enter (pid, tid) in pass 2: must follow the order of pass 1. */
static tk_status enter_group(tk_dcfg_trace_encoder *e, uint64_t pid, uint64_t tid, tk_error *err)
{
    if (e->in_group && e->groups[e->cur_group].pid == pid && e->groups[e->cur_group].tid == tid)
        return TK_OK;
    tk_status st = e->in_group ? parse(e, 1, err) : TK_OK;
    if (st == TK_OK) st = close_thread(e, err);
    if (st != TK_OK) return st;
    size_t next = e->wrote_any_group ? e->cur_group + 1 : 0;
    if (next >= e->ngroups || e->groups[next].pid != pid || e->groups[next].tid != tid)
        return tk_error_set(err, TK_ERR_ARG,
                            "encode(): process %llu thread %llu is not the next thread observed in "
                            "pass 1",
                            (unsigned long long)pid, (unsigned long long)tid);
    if (e->wrote_any_group && e->groups[e->cur_group].pid != pid) {
        if ((st = flush_process(e, err)) != TK_OK) return st;
        e->cur_proc++;
    }
    e->cur_group = next;
    e->wrote_any_group = 1;
    e->in_group = 1;
    e->preceding = 0;
    e->last_known = 0;
    if (sb_printf(&e->rows,
                  ",\n    [ %llu, [ [ \"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", "
                  "\"EDGE_COUNT\", \"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\" ]",
                  (unsigned long long)tid))
        return nomem(err);
    return TK_OK;
}

static inline tk_status put_bits(tk_dcfg_trace_encoder *e, uint32_t code, unsigned len,
                                 tk_error *err)
{
    if (len == 0) return TK_OK;
    e->acc = (e->acc << len) | code;
    e->nacc += len;
    if (e->nacc >= 6) {
        if (sb_reserve(&e->chunk_text, 8)) return nomem(err);
        while (e->nacc >= 6) {
            e->nacc -= 6;
            e->chunk_text.p[e->chunk_text.n++] = tk_dt_b64_chars[(e->acc >> e->nacc) & 63u];
        }
        e->acc &= ((uint64_t)1 << e->nacc) - 1;
    }
    return TK_OK;
}

static tk_status put_code(tk_dcfg_trace_encoder *e, const sym_map *m, size_t sidx, tk_error *err)
{
    /* code lengths <= 32; keep acc below 64 bits */
    unsigned len = m->len[sidx];
    tk_status st;
    if (len > 26) {
        if ((st = put_bits(e, m->code[sidx] >> 16, len - 16, err)) != TK_OK) return st;
        return put_bits(e, m->code[sidx] & 0xffffu, 16, err);
    }
    return put_bits(e, m->code[sidx], len, err);
}

/* Count the chunk's edges from pend[e->scan] on until it is full. With a
 * DCFG, an edge that does not start where the previous one ended makes the
 * chunk full before it (no chunk spans a gap, whatever the limits), and the
 * chunk it starts records the gap (chunk_gap). */
static void scan_chunk(tk_dcfg_trace_encoder *e, uint64_t pid)
{
    const tk_dcfg_trace_encode_options *o = &e->opt;
    while (!e->full && e->scan < e->npend) {
        uint32_t x = e->pend[e->scan];
        if (o->cfg) {
            edge_facts f;
            edge_facts_of(e, pid, x, &f);
            if (e->last_known && f.known && f.src != e->last_tgt) {
                if (e->span_edges > 0) {
                    e->full = 1;
                    break;
                }
                /* the block the last edge entered ran, in no chunk (cp: pid's) */
                e->chunk_gap =
                    cfg_is_block(e->cp, e->last_tgt) ? e->cp->blocks[e->last_tgt].num_instrs : 0;
            }
            e->last_known = f.known;
            e->last_tgt = f.tgt;
            e->chunk_instrs += f.instrs;
        } else if (o->source_instrs) {
            e->chunk_instrs += o->source_instrs(o->ctx, pid, x);
        }
        e->span_edges++;
        e->scan++;
        e->full = (o->chunk_instrs && e->chunk_instrs >= o->chunk_instrs) ||
                  (o->chunk_edges && e->span_edges >= o->chunk_edges) ||
                  e->span_edges > TK_DCFG_TRACE_MAX_ZERO_BIT_RUN;
    }
}

/* Pass 2 with phrases: the transitions from pend[i] to the chunk's last
 * edge pend[t - 1] that take the fewest bits (shortest path over the
 * phrases of known symbols; pass 1's greedy parse of the chunk is one such
 * path). A chunk holds at most TK_DCFG_TRACE_MAX_ZERO_BIT_RUN + 1 edges. */
#define SP_UNREACHED (UINT32_MAX / 2) /* cost of an edge no path reaches (sums stay above it) */

static tk_status shortest_path(tk_dcfg_trace_encoder *e, enc_process *P, size_t i, size_t t,
                               tk_error *err)
{
    sym_map *m = &P->syms;
    size_t w = t - i;
    if (tk_vec_reserve_((void **)&e->sp_cost, &e->sp_cap, w + 1, sizeof *e->sp_cost) ||
        tk_vec_reserve_((void **)&e->sp_from, &e->sp_cap_from, w + 1, sizeof *e->sp_from) ||
        tk_vec_reserve_((void **)&e->sp_sym, &e->sp_cap_sym, w + 1, sizeof *e->sp_sym))
        return nomem(err);
    dt_phrases *ph = &P->ph;
    uint32_t *cost = e->sp_cost;
    cost[0] = 0;
    /* every phrase ending at edge r comes from the automaton, fed from the current edge on */
    uint32_t s = tk_dt_phrases_step(ph, DT_PHRASE_NONE, e->prev);
    for (size_t r = 1; r <= w; r++) {
        s = tk_dt_phrases_step(ph, s, e->pend[i + r - 1]);
        uint32_t best = SP_UNREACHED;
        for (uint32_t o = s == DT_PHRASE_NONE ? s : ph->out[s]; o != DT_PHRASE_NONE;
             o = ph->next_out[o]) {
            size_t q = r - ph->depth[o];
            uint32_t c = cost[q] + P->code_len[o];
            if (c < best) {
                best = c;
                e->sp_from[r] = (uint32_t)q;
                e->sp_sym[r] = o;
            }
        }
        cost[r] = best;
    }
    if (cost[w] >= SP_UNREACHED)
        return tk_error_set(err, TK_ERR_ARG, "encode(): the edges differ from pass 1");
    /* the path backwards into sp_cost (no longer needed), then forwards */
    size_t n = 0;
    for (size_t q = w; q > 0; q = e->sp_from[q]) cost[n++] = (uint32_t)q;
    tk_status st;
    while (n-- > 0) {
        if ((st = put_code(e, m, ph->nodes[e->sp_sym[cost[n]]].sym, err)) != TK_OK) return st;
        e->chunk_edges++;
    }
    e->prev = e->pend[t - 1];
    return TK_OK;
}

/* One transition of one edge, x after e->prev: pass 1 counts its symbol,
 * pass 2 writes its code; the symbol through the cache of recent
 * transitions (a lookup of the map costs ~3 cache misses). */
static inline tk_status one_edge(tk_dcfg_trace_encoder *e, enc_process *P, uint32_t x,
                                 tk_error *err)
{
    sym_map *m = &P->syms;
    size_t sidx;
    unsigned slot = ((e->prev * 0x9e3779b1u) ^ (x * 0x85ebca6bu)) >> 20;
    if (P->one_prev[slot] == e->prev && P->one_edge[slot] == x && P->one_sym[slot]) {
        sidx = P->one_sym[slot] - 1;
        if (e->pass == 0) m->counts[sidx]++;
    } else {
        if (e->pass == 0 && sm_add(m, e->prev, &x, 1, &sidx)) return nomem(err);
        if (e->pass == 1 && (sidx = sm_find(m, e->prev, &x, 1)) == SIZE_MAX)
            return tk_error_set(err, TK_ERR_ARG,
                                "encode(): edge %u after edge %u was not seen in pass 1", x,
                                e->prev);
        P->one_prev[slot] = e->prev;
        P->one_edge[slot] = x;
        P->one_sym[slot] = (uint32_t)sidx + 1;
    }
    tk_status st = e->pass == 1 ? put_code(e, m, sidx, err) : TK_OK;
    e->chunk_edges++;
    e->prev = x;
    return st;
}

/* The parse shared by both passes: a chunk starts with its FIRST_EDGE_ID
 * and ends with the edge that brings it to chunk_instrs instructions or
 * chunk_edges edges (so where chunks end does not depend on the parse);
 * each transition takes the next edge, or with phrases the longest phrase
 * from the current edge that the next edges start with, within the chunk
 * (greedy, looking at most max_depth edges ahead, so the parse does not
 * depend on how the edges are handed in). Pass 1 counts the symbols; pass 2
 * writes their codes, with phrases along the path of fewest bits through
 * the whole chunk (shortest_path). final: the thread has no more edges. */
static tk_status parse(tk_dcfg_trace_encoder *e, int final, tk_error *err)
{
    enc_process *P = &e->procs[e->pass ? e->cur_proc : e->nprocs - 1];
    sym_map *m = &P->syms;
    uint64_t pid = P->pid;
    size_t ahead = P->phrases ? P->ph.max_depth : 1;
    size_t i = 0;
    tk_status st = TK_OK;
    while (i < e->npend) {
        if (!e->chunk_open) {
            uint32_t f = e->pend[i++];
            e->chunk_open = 1;
            e->chunk_first = f;
            e->chunk_edges = 1;
            e->chunk_instrs = 0;
            e->chunk_gap = 0;
            e->span_edges = 0;
            e->full = 0;
            e->scan = i - 1;
            e->prev = f;
            e->acc = 0;
            e->nacc = 0;
        }
        scan_chunk(e, pid);
        size_t end = e->full ? e->scan : e->npend; /* the chunk's edges available */
        if (i < end && e->pass == 1 && P->phrases) {
            /* the whole chunk at once */
            if (!e->full && !final) break;
            if ((st = shortest_path(e, P, i, end, err)) != TK_OK) return st;
            i = end;
        } else if (i < end && !P->phrases) {
            /* one edge a transition: every edge of the chunk available, in one go */
            for (; i < end; i++)
                if ((st = one_edge(e, P, e->pend[i], err)) != TK_OK) return st;
        } else if (i < end) {
            if (end - i < ahead && !e->full && !final) break;
            /* pass 1 with phrases: the longest phrase the next edges start with */
            const uint32_t *path = e->pend + i;
            unsigned k = 1;
            size_t sidx = SIZE_MAX;
            uint32_t node = tk_dt_phrases_match(&P->ph, e->prev, path, end - i, 1, &k);
            if (node == DT_PHRASE_NONE) return nomem(err);
            uint32_t *slot = &P->ph.nodes[node].sym;
            if (*slot == DT_PHRASE_NONE) {
                if (sm_append(m, e->prev, path, k, &sidx) || sidx >= DT_PHRASE_NONE)
                    return nomem(err);
                *slot = (uint32_t)sidx;
            }
            m->counts[*slot]++;
            e->chunk_edges++;
            e->prev = path[k - 1];
            i += k;
        }
        if (e->full && i == e->scan) {
            if (e->pass == 0)
                e->chunk_open = 0;
            else if ((st = close_chunk(e, err)) != TK_OK)
                return st;
        } else if (i == e->npend) {
            break;
        }
    }
    if (i > 0) {
        if (e->npend > i) memmove(e->pend, e->pend + i, (e->npend - i) * sizeof *e->pend);
        e->npend -= i;
        e->scan -= i;
    }
    return TK_OK;
}

tk_status tk_dcfg_trace_encoder_encode(tk_dcfg_trace_encoder *e, uint64_t pid, uint64_t tid,
                                       const uint32_t *edges, size_t n, tk_error *err)
{
    if (!e->started) return tk_error_set(err, TK_ERR_ARG, "encode() before start()");
    tk_status st = enter_group(e, pid, tid, err);
    if (st != TK_OK || (st = append_pending(e, edges, n, err)) != TK_OK) return st;
    return parse(e, 0, err);
}

tk_status tk_dcfg_trace_encoder_finish(tk_dcfg_trace_encoder *e, tk_error *err)
{
    if (!e->started) return tk_error_set(err, TK_ERR_ARG, "finish() before start()");
    tk_status st = e->in_group ? parse(e, 1, err) : TK_OK;
    if (st == TK_OK) st = close_thread(e, err);
    if (st != TK_OK) return st;
    if (e->wrote_any_group) {
        if (e->cur_group + 1 != e->ngroups)
            return tk_error_set(err, TK_ERR_ARG,
                                "finish(): pass 2 ended before all threads of pass 1");
        if ((st = flush_process(e, err)) != TK_OK) return st;
    } else if (e->ngroups > 0) {
        return tk_error_set(err, TK_ERR_ARG, "finish(): pass 2 ended before all threads of pass 1");
    }
    return outs(e, " ] }\n", err);
}
