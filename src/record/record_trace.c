/* The DCFG-Trace of a recording: each thread's spill file (the ids of the
 * edge records it went through, in order, written by tkrecord while the
 * program ran) is read twice (the encoder's two passes), each record expanded
 * into the DCFG edges it stands for, the thread's end into its last edges.
 * Memory stays bounded whatever the length of the run: a spill is read in
 * pieces and the encoder streams.  The replay runs on a thread of its own,
 * a ring of NBUF buffers ahead of the encoder. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "model/cfg_internal.h"
#include "record/record_internal.h"
#include "tracekit/dcfg_trace.h"
#include "tracekit/input.h"

#define FEED_EDGES (1u << 20)
#define NBUF 4 /* buffers between the replay and the encoder */

typedef tk_status (*feed_fn)(tk_dcfg_trace_encoder *e, uint64_t pid, uint64_t tid,
                             const uint32_t *edges, size_t n, tk_error *err);

/* The replay (a thread of its own) hands buffers of edges to the encoder
 * (the caller's thread) through a ring of NBUF. */
typedef struct queue {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint32_t *bufs[NBUF];
    size_t n[NBUF];
    uint64_t pid[NBUF], tid[NBUF];
    unsigned head, tail; /* buffers taken / handed over */
    int done, stop; /* the replay ended / the encoder stops it */
} queue;

typedef struct feeder {
    queue *q;
    uint64_t pid, tid;
    uint32_t *buf;
    size_t n;
    uint64_t total;
    tk_error *err;
} feeder;

/* Hand the buffer over and wait for a free one.  TK_END when the encoder
 * stopped. */
static tk_status feed_flush(feeder *f)
{
    queue *q = f->q;
    if (!f->n) return TK_OK;
    pthread_mutex_lock(&q->mu);
    unsigned slot = q->tail % NBUF;
    q->n[slot] = f->n;
    q->pid[slot] = f->pid;
    q->tid[slot] = f->tid;
    q->tail++;
    f->total += f->n;
    f->n = 0;
    pthread_cond_broadcast(&q->cv);
    while (q->tail - q->head >= NBUF && !q->stop) pthread_cond_wait(&q->cv, &q->mu);
    f->buf = q->bufs[q->tail % NBUF];
    int stop = q->stop;
    pthread_mutex_unlock(&q->mu);
    return stop ? TK_END : TK_OK;
}

static inline tk_status feed(feeder *f, const uint32_t *edges, size_t n)
{
    if (f->n + n > FEED_EDGES) {
        tk_status st = feed_flush(f);
        if (st != TK_OK) return st;
    }
    uint32_t *to = f->buf + f->n; /* mostly one or two edges: no memcpy call */
    for (size_t i = 0; i < n; i++) to[i] = edges[i];
    f->n += n;
    return TK_OK;
}

static void spill_path(char *buf, size_t size, const char *dir, const rec_raw *r, uint32_t t)
{
    snprintf(buf, size, "%s/p%llu.%u.t%u", dir, (unsigned long long)r->pid, r->gen, t);
}

/* A spill file read in pieces (tk_input's chunks): LEB128 numbers. */
typedef struct spill_in {
    tk_input *in;
    const unsigned char *buf; /* the chunk */
    size_t n, at;
    uint64_t off; /* of buf[0] in the file */
    int eof;
    tk_status failed; /* a read that failed (its error in err) */
    tk_error *err;
} spill_in;

/* The next number: 1, 0 at the end of the file, -1 when it is cut or too long. */
static inline int next_num(spill_in *in, uint64_t *v)
{
    if (in->at < in->n && !(in->buf[in->at] & 0x80)) { /* one byte, the usual */
        *v = in->buf[in->at++];
        return 1;
    }
    *v = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (in->at == in->n) {
            in->off += in->n;
            in->n = in->at = 0;
            if (!in->eof) {
                tk_status st = tk_input_chunk(in->in, &in->buf, &in->n, in->err);
                if (st != TK_OK) {
                    in->eof = 1;
                    in->n = 0;
                    if (st != TK_END) in->failed = st;
                }
            }
            if (in->n == 0) return shift ? -1 : 0;
        }
        unsigned char b = in->buf[in->at++];
        if (shift > 63) return -1;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return 1;
    }
}

/* Record id of the spill: its edges; left[id], what the raw file counted of it in this
 * thread, goes down by one (a spill never holds a record more often). */
static inline tk_status emit_record(feeder *f, const rec_trace_map *m, uint64_t *left, uint64_t id,
                                    const spill_in *in, const char *path)
{
    if (id >= m->nrecords)
        return tk_error_set(f->err, TK_ERR_FORMAT,
                            "%s: byte %" PRIu64 ": edge record %" PRIu64 " is not in the raw file",
                            path, in->off + in->at, id);
    if (!left[id]--)
        return tk_error_set(f->err, TK_ERR_FORMAT,
                            "%s: byte %" PRIu64 ": edge record %" PRIu64
                            " is in the spill more often than the raw file counts it for this "
                            "thread",
                            path, in->off + in->at, id);
    return m->len[id] ? feed(f, m->edges.data + m->off[id], m->len[id]) : TK_OK;
}

/* Replay a spill (tkr_run.c): tokens (hits, id), pred per record. */
static tk_status replay(feeder *f, spill_in *in, const rec_trace_map *m, uint32_t *pred,
                        uint64_t *left, const char *path)
{
    uint64_t prev = 0, hits, id;
    tk_status st = TK_OK;
    int r;
    while (st == TK_OK && (r = next_num(in, &hits)) > 0) {
        if (next_num(in, &id) <= 0) {
            r = -1;
            break;
        }
        for (uint64_t k = 0; st == TK_OK && k < hits; k++) {
            if (prev == 0 || prev >= m->nrecords || !pred[prev]) {
                st = tk_error_set(f->err, TK_ERR_FORMAT,
                                  "%s: byte %" PRIu64 ": a repeat with "
                                  "nothing to repeat",
                                  path, in->off + in->at);
                break;
            }
            prev = pred[prev];
            st = emit_record(f, m, left, prev, in, path);
        }
        if (st != TK_OK || id == 0) continue;
        if ((st = emit_record(f, m, left, id, in, path)) != TK_OK) break;
        if (prev) pred[prev] = (uint32_t)id;
        prev = id;
    }
    if (st == TK_OK && in->failed)
        st = in->failed; /* the read's error, not what it left of a number */
    else if (st == TK_OK && r < 0)
        st = tk_error_set(f->err, TK_ERR_FORMAT, "%s: byte %" PRIu64 ": cut short in a number",
                          path, in->off + in->at);
    return st;
}

/* What the raw file counts of each record of thread t (left: by record id). */
static void thread_counts(const rec_raw *r, uint32_t t, uint64_t *left, uint32_t nrecords)
{
    memset(left, 0, sizeof *left * nrecords);
    for (size_t k = 0; k < r->edges.len; k++) {
        const rec_edge *e = &r->edges.data[k];
        if (e->thread == t && e->id < nrecords) left[e->id] += e->count;
    }
}

/* A spill holds every record its thread ran, as often as the raw file counts it, unless
 * the thread is the one later threads were folded into (they have no spill). */
static tk_status all_replayed(feeder *f, const rec_raw *r, uint32_t t, const uint64_t *left,
                              uint32_t nrecords, const char *path)
{
    if (r->folded && t + 1 == r->nthreads) return TK_OK;
    for (uint32_t id = 0; id < nrecords; id++)
        if (left[id])
            return tk_error_set(f->err, TK_ERR_FORMAT,
                                "%s: at its end: edge record %" PRIu32
                                " is in the spill less often than the raw file counts it for "
                                "this thread",
                                path, id);
    return TK_OK;
}

/* One thread of one process through the encoder (pass 1 or 2). */
static tk_status feed_thread(feeder *f, const char *dir, const rec_proc *p, uint32_t t,
                             spill_in *in, uint32_t *pred, uint64_t *left)
{
    char path[4096];
    spill_path(path, sizeof path, dir, &p->raw, t);
    if (tk_rec_input_open(&in->in, path, NULL) != TK_OK)
        return TK_OK; /* not traced (a thread beyond --threads-limit) */
    in->buf = NULL;
    in->n = in->at = 0;
    in->off = 0;
    in->eof = 0;
    in->failed = TK_OK;
    in->err = f->err;
    const rec_trace_map *m = &p->map;
    memset(pred, 0, sizeof *pred * m->nrecords);
    thread_counts(&p->raw, t, left, m->nrecords);
    tk_status st = replay(f, in, m, pred, left, path);
    if (st == TK_OK) st = all_replayed(f, &p->raw, t, left, m->nrecords, path);
    tk_input_free(in->in);
    in->in = NULL;
    for (size_t k = 0; st == TK_OK && k < p->raw.ends.len; k++) /* then how it ended */
        if (p->raw.ends.data[k].thread == t && p->raw.ends.data[k].traced)
            st = feed(f, m->edges.data + m->ends.data[2 * k], m->ends.data[2 * k + 1]);
    if (st == TK_OK) st = feed_flush(f);
    return st;
}

static tk_status pass(feeder *f, const char *dir, const rec_set *s, spill_in *in)
{
    for (size_t i = 0; i < s->n; i++) {
        const rec_proc *p = &s->procs[i];
        if (!p->raw.done || !p->raw.trace) continue;
        size_t n = p->map.nrecords ? p->map.nrecords : 1;
        uint32_t *pred = tk_malloc(sizeof *pred * n);
        uint64_t *left = tk_malloc(sizeof *left * n);
        tk_status st = TK_OK;
        if (!pred || !left) st = tk_error_set(f->err, TK_ERR_NOMEM, "out of memory");
        f->pid = p->process_id;
        for (uint32_t t = 0; st == TK_OK && t < p->raw.nthreads; t++) {
            f->tid = t;
            st = feed_thread(f, dir, p, t, in, pred, left);
        }
        tk_free(pred);
        tk_free(left);
        if (st != TK_OK) return st;
    }
    return TK_OK;
}

static uint64_t spilled_records(const char *dir, const rec_set *s)
{
    uint64_t n = 0;
    char path[4096];
    for (size_t i = 0; i < s->n; i++)
        for (uint32_t t = 0; t < s->procs[i].raw.nthreads; t++) {
            struct stat st;
            spill_path(path, sizeof path, dir, &s->procs[i].raw, t);
            if (stat(path, &st) == 0) n += (uint64_t)st.st_size * 4; /* a guess */
        }
    return n;
}

/* NUM_INSTRS of each edge's source block, by process and edge id: what the
 * encoder needs for INSTR_COUNT (a lookup instead of the DCFG's edge map;
 * the walks have no gaps to find). */
typedef struct instr_table {
    const tk_cfg *cfg;
    uint64_t pid;
    uint32_t **by_edge; /* by process index */
    uint32_t *nedges;
    const uint32_t *cur;
    uint32_t ncur;
} instr_table;

static uint64_t source_instrs(void *ctx, uint64_t pid, uint32_t edge)
{
    instr_table *t = ctx;
    if (pid != t->pid || !t->cur) {
        uint32_t i = tk_cfg_find_process(t->cfg, pid);
        t->pid = pid;
        t->cur = i == TK_CFG_NONE ? NULL : t->by_edge[i];
        t->ncur = i == TK_CFG_NONE ? 0 : t->nedges[i];
    }
    return edge < t->ncur ? t->cur[edge] : 0;
}

static tk_status instr_table_make(instr_table *t, const tk_cfg *cfg)
{
    memset(t, 0, sizeof *t);
    t->cfg = cfg;
    t->by_edge = tk_calloc(cfg->nprocesses + 1, sizeof *t->by_edge);
    t->nedges = tk_calloc(cfg->nprocesses + 1, sizeof *t->nedges);
    if (!t->by_edge || !t->nedges) return TK_ERR_NOMEM;
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        const tk_cfg_process *p = &cfg->processes[i];
        uint32_t max = 0;
        for (uint32_t e = 0; e < p->nedges; e++)
            if (p->edges[e].id > max) max = p->edges[e].id;
        t->by_edge[i] = tk_calloc((size_t)max + 1, sizeof **t->by_edge);
        if (!t->by_edge[i]) return TK_ERR_NOMEM;
        t->nedges[i] = max + 1;
        for (uint32_t e = 0; e < p->nedges; e++)
            if (cfg_is_block(p, p->edges[e].src))
                t->by_edge[i][p->edges[e].id] = p->blocks[p->edges[e].src].num_instrs;
    }
    return TK_OK;
}

static void instr_table_free(instr_table *t)
{
    for (uint32_t i = 0; t->by_edge && i < t->cfg->nprocesses; i++) tk_free(t->by_edge[i]);
    tk_free(t->by_edge);
    tk_free(t->nedges);
}

static int write_file(void *ctx, const void *data, size_t n)
{
    return fwrite(data, 1, n, ctx) == n ? 0 : -1;
}

/* The replay's thread: one pass over the spills. */
typedef struct replay_job {
    feeder f;
    const char *dir;
    const rec_set *s;
    spill_in in;
    tk_status st;
    tk_error err;
} replay_job;

static void *replay_main(void *arg)
{
    replay_job *j = arg;
    j->st = pass(&j->f, j->dir, j->s, &j->in);
    queue *q = j->f.q;
    pthread_mutex_lock(&q->mu);
    q->done = 1;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

/* One pass of the encoder (fn: observe or encode) over the spills replayed
 * on a thread of their own. */
static tk_status encoder_pass(tk_dcfg_trace_encoder *enc, feed_fn fn, queue *q, replay_job *j,
                              tk_error *err)
{
    q->head = q->tail = 0;
    q->done = q->stop = 0;
    j->f.buf = q->bufs[0];
    j->f.n = 0;
    j->f.total = 0;
    j->f.err = &j->err;
    j->f.q = q;
    pthread_t th;
    if (pthread_create(&th, NULL, replay_main, j) != 0)
        return tk_error_set(err, TK_ERR_NOMEM, "cannot start a thread");
    tk_status st = TK_OK;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (q->head == q->tail && !q->done) pthread_cond_wait(&q->cv, &q->mu);
        if (q->head == q->tail) break;
        unsigned slot = q->head % NBUF;
        pthread_mutex_unlock(&q->mu);
        st = fn(enc, q->pid[slot], q->tid[slot], q->bufs[slot], q->n[slot], err);
        pthread_mutex_lock(&q->mu);
        q->head++;
        if (st != TK_OK) q->stop = 1;
        pthread_cond_broadcast(&q->cv);
        if (st != TK_OK) break;
    }
    pthread_mutex_unlock(&q->mu);
    pthread_join(th, NULL);
    if (st == TK_OK && j->st != TK_OK && j->st != TK_END) {
        if (err) *err = j->err;
        st = j->st;
    }
    return st;
}

tk_status tk_rec_write_trace(const tk_cfg *cfg, const rec_set *s, const char *dir, int level,
                             FILE *out, uint64_t *edges, tk_error *err)
{
    tk_dcfg_trace_encode_options o = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
    o.level = level;
    instr_table it;
    queue q;
    replay_job j;
    memset(&q, 0, sizeof q);
    memset(&j, 0, sizeof j);
    tk_status st = instr_table_make(&it, cfg);
    for (int k = 0; st == TK_OK && k < NBUF; k++)
        if (!(q.bufs[k] = tk_malloc(sizeof *q.bufs[k] * FEED_EDGES))) st = TK_ERR_NOMEM;
    if (st != TK_OK) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    pthread_mutex_init(&q.mu, NULL);
    pthread_cond_init(&q.cv, NULL);
    o.source_instrs = source_instrs;
    o.ctx = &it;
    o.chunk_instrs = 1000000;
    o.expected_edges = spilled_records(dir, s) * 2;
    j.dir = dir;
    j.s = s;
    tk_dcfg_trace_encoder *enc = NULL;
    if (st == TK_OK) st = tk_dcfg_trace_encoder_open(&enc, &o, err);
    if (st == TK_OK) st = encoder_pass(enc, tk_dcfg_trace_encoder_observe, &q, &j, err);
    tk_writer w = {write_file, out};
    if (st == TK_OK) st = tk_dcfg_trace_encoder_start(enc, &w, err);
    if (st == TK_OK) st = encoder_pass(enc, tk_dcfg_trace_encoder_encode, &q, &j, err);
    if (st == TK_OK) st = tk_dcfg_trace_encoder_finish(enc, err);
    if (edges) *edges = j.f.total;
    tk_dcfg_trace_encoder_free(enc);
    pthread_cond_destroy(&q.cv);
    pthread_mutex_destroy(&q.mu);
    for (int k = 0; k < NBUF; k++) tk_free(q.bufs[k]);
    instr_table_free(&it);
    return st;
}
