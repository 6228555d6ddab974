/* The DCFG-Trace of a recording: each thread's spill file (the ids of the
 * edge records it went through, in order, written by tkrecord while the
 * program ran) is read twice (the encoder's two passes), each record expanded
 * into the DCFG edges it stands for, the thread's end into its last edges.
 * Memory stays bounded whatever the length of the run: a spill is read in
 * pieces and the encoder streams. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "record/record_internal.h"
#include "tracekit/dcfg_trace.h"

#define READ_RECORDS 65536u
#define FEED_EDGES (1u << 20)

typedef tk_status (*feed_fn)(tk_dcfg_trace_encoder *e, uint64_t pid, uint64_t tid,
                             const uint32_t *edges, size_t n, tk_error *err);

typedef struct feeder {
    tk_dcfg_trace_encoder *enc;
    feed_fn fn;
    uint64_t pid, tid;
    uint32_t *buf;
    size_t n;
    uint64_t total;
    tk_error *err;
} feeder;

static tk_status feed_flush(feeder *f)
{
    tk_status st = f->n ? f->fn(f->enc, f->pid, f->tid, f->buf, f->n, f->err) : TK_OK;
    f->total += f->n;
    f->n = 0;
    return st;
}

static tk_status feed(feeder *f, const uint32_t *edges, size_t n)
{
    if (f->n + n > FEED_EDGES) {
        tk_status st = feed_flush(f);
        if (st != TK_OK) return st;
    }
    memcpy(f->buf + f->n, edges, sizeof *edges * n);
    f->n += n;
    return TK_OK;
}

static void spill_path(char *buf, size_t size, const char *dir, const rec_raw *r, uint32_t t)
{
    snprintf(buf, size, "%s/p%llu.%u.t%u", dir, (unsigned long long)r->pid, r->gen, t);
}

/* One thread of one process through the encoder (pass 1 or 2). */
static tk_status feed_thread(feeder *f, const char *dir, const rec_proc *p, uint32_t t,
                             uint32_t *recs)
{
    char path[4096];
    spill_path(path, sizeof path, dir, &p->raw, t);
    FILE *in = fopen(path, "rb");
    if (!in) return TK_OK; /* not traced (a thread beyond --threads-limit) */
    const rec_trace_map *m = &p->map;
    tk_status st = TK_OK;
    size_t got;
    while (st == TK_OK && (got = fread(recs, sizeof *recs, READ_RECORDS, in)) > 0) {
        for (size_t i = 0; st == TK_OK && i < got; i++) {
            uint32_t id = recs[i];
            if (id >= m->nrecords || !m->len[id]) {
                if (id < m->nrecords) continue; /* a record that stands for no edge */
                st = tk_error_set(f->err, TK_ERR_FORMAT, "%s: edge record %u is not in the raw file",
                                  path, id);
                break;
            }
            st = feed(f, m->edges.data + m->off[id], m->len[id]);
        }
    }
    if (st == TK_OK && ferror(in))
        st = tk_error_set(f->err, TK_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    fclose(in);
    for (size_t k = 0; st == TK_OK && k < p->raw.ends.len; k++) /* then how it ended */
        if (p->raw.ends.data[k].thread == t)
            st = feed(f, m->edges.data + m->ends.data[2 * k], m->ends.data[2 * k + 1]);
    if (st == TK_OK) st = feed_flush(f);
    return st;
}

static tk_status pass(feeder *f, const char *dir, const rec_set *s, uint32_t *recs)
{
    for (size_t i = 0; i < s->n; i++) {
        const rec_proc *p = &s->procs[i];
        if (!p->raw.done || !p->raw.trace) continue;
        f->pid = p->process_id;
        for (uint32_t t = 0; t < p->raw.nthreads; t++) {
            f->tid = t;
            tk_status st = feed_thread(f, dir, p, t, recs);
            if (st != TK_OK) return st;
        }
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
            if (stat(path, &st) == 0) n += (uint64_t)st.st_size / 4;
        }
    return n;
}

static int write_file(void *ctx, const void *data, size_t n)
{
    return fwrite(data, 1, n, ctx) == n ? 0 : -1;
}

tk_status rec_write_trace(const tk_cfg *cfg, const rec_set *s, const char *dir, int level,
                          FILE *out, uint64_t *edges, tk_error *err)
{
    tk_dcfg_trace_encode_options o = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
    if (level >= 0) o.level = level;
    o.cfg = cfg;
    o.chunk_instrs = 1000000;
    o.expected_edges = spilled_records(dir, s) * 2;
    tk_dcfg_trace_encoder *enc = NULL;
    feeder f;
    memset(&f, 0, sizeof f);
    f.err = err;
    f.buf = tk_malloc(sizeof *f.buf * FEED_EDGES);
    uint32_t *recs = tk_malloc(sizeof *recs * READ_RECORDS);
    tk_status st = f.buf && recs ? tk_dcfg_trace_encoder_new(&enc, &o, err)
                                 : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) {
        f.enc = enc;
        f.fn = tk_dcfg_trace_encoder_observe;
        st = pass(&f, dir, s, recs);
    }
    if (st == TK_OK) st = tk_dcfg_trace_encoder_start(enc, write_file, out, err);
    if (st == TK_OK) {
        f.fn = tk_dcfg_trace_encoder_encode;
        f.total = 0;
        st = pass(&f, dir, s, recs);
    }
    if (st == TK_OK) st = tk_dcfg_trace_encoder_finish(enc, err);
    if (edges) *edges = f.total;
    tk_dcfg_trace_encoder_free(enc);
    tk_free(f.buf);
    tk_free(recs);
    return st;
}
