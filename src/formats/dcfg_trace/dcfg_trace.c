/* DCFG-Trace: open, accessors, and ordered (optionally parallel) decoding. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "formats/dcfg_trace/dt_internal.h"
#include "tracekit/cfg.h"
#include "tracekit/input.h"


static tk_status finish_open(tk_dcfg_trace *t, tk_dcfg_trace **out, tk_diag *diag, int fast,
                             tk_error *err)
{
    tk_status st = tk_dt_parse(t, diag, fast, err);
    if (st != TK_OK) {
        tk_dcfg_trace_free(t);
        return st;
    }
    *out = t;
    return TK_OK;
}

static tk_dcfg_trace *new_trace(const char *name)
{
    tk_dcfg_trace *t = tk_calloc(1, sizeof *t);
    if (!t) return NULL;
    size_t n = strlen(name);
    char *p = tk_malloc(n + 1);
    if (!p) {
        tk_free(t);
        return NULL;
    }
    memcpy(p, name, n + 1);
    t->path = p;
    return t;
}

tk_status tk_dcfg_trace_open(tk_dcfg_trace **out, const char *path, tk_diag *diag, tk_error *err)
{
    *out = NULL;
    tk_input *in = NULL;
    tk_status st = tk_input_open(&in, path, NULL, err);
    if (st != TK_OK) return st;
    tk_dcfg_trace *t = new_trace(tk_input_path(in));
    if (!t) {
        tk_input_free(in);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    t->input = in;
    const uint8_t *data;
    size_t len;
    if ((st = tk_input_map(in, &data, &len, err)) != TK_OK) {
        tk_dcfg_trace_free(t);
        return st;
    }
    t->data = (const char *)data;
    t->len = len;
    return finish_open(t, out, diag, 1, err);
}

tk_status tk_dcfg_trace_open_input(tk_dcfg_trace **out, tk_input *in, tk_diag *diag, tk_error *err)
{
    *out = NULL;
    tk_dcfg_trace *t = new_trace(tk_input_path(in));
    if (!t) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    const uint8_t *data;
    size_t len;
    tk_status st = tk_input_map(in, &data, &len, err);
    if (st != TK_OK) {
        tk_dcfg_trace_free(t);
        return st;
    }
    t->data = (const char *)data;
    t->len = len;
    return finish_open(t, out, diag, 1, err);
}

tk_status tk_dt_parse_paths(tk_dcfg_trace **out, const void *data, size_t len, const char *name,
                            tk_diag *diag, int fast, tk_error *err)
{
    *out = NULL;
    tk_dcfg_trace *t = new_trace(name ? name : "<memory>");
    void *copy = tk_malloc(len ? len : 1);
    if (!t || !copy) {
        tk_free(copy);
        tk_dcfg_trace_free(t);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    if (len) memcpy(copy, data, len);
    t->owned_data = copy;
    t->data = copy;
    t->len = len;
    return finish_open(t, out, diag, fast, err);
}

tk_status tk_dcfg_trace_open_memory(tk_dcfg_trace **out, const void *data, size_t len,
                                    const char *name, tk_diag *diag, tk_error *err)
{
    return tk_dt_parse_paths(out, data, len, name, diag, 1, err);
}

void tk_dcfg_trace_free(tk_dcfg_trace *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->nprocs; i++) {
        dt_process *p = &t->procs[i];
        for (size_t j = 0; j < p->ndict; j++) tk_free(p->dict[j].key);
        tk_free(p->dict);
        tk_free(p->dict_slots);
        tk_dt_table_free(&p->table);
    }
    tk_free(t->procs);
    tk_free(t->threads);
    tk_free(t->chunks);
    tk_free(t->line_marks);
    tk_free(t->owned_data);
    if (t->input) tk_input_free((tk_input *)t->input);
    tk_free((void *)t->path);
    tk_free(t);
}

const char *tk_dcfg_trace_path(const tk_dcfg_trace *t) { return t->path; }

void tk_dcfg_trace_version(const tk_dcfg_trace *t, uint64_t *major, uint64_t *minor)
{
    *major = t->major;
    *minor = t->minor;
}

size_t tk_dcfg_trace_process_count(const tk_dcfg_trace *t) { return t->nprocs; }

void tk_dcfg_trace_process(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_process_info *out)
{
    const dt_process *p = &t->procs[i];
    memset(out, 0, sizeof *out);
    out->pid = p->pid;
    out->dictionary_entries = p->ndict;
    out->transition_rows = p->table.nrows;
    size_t n = 0;
    for (size_t s = 0; s < p->table.nstates; s++)
        if (p->table.states[s].depth == 0 && !p->table.states[s].dead) n++;
    out->transition_states = n;
    out->max_code_bits = p->table.max_code_len;
    out->nthreads = p->nthreads;
}

size_t tk_dcfg_trace_thread_count(const tk_dcfg_trace *t) { return t->nthreads; }

static size_t process_of_thread(const tk_dcfg_trace *t, size_t thread)
{
    for (size_t i = 0; i < t->nprocs; i++)
        if (thread >= t->procs[i].first_thread &&
            thread < t->procs[i].first_thread + t->procs[i].nthreads)
            return i;
    return 0;
}

void tk_dcfg_trace_thread(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_thread_info *out)
{
    const dt_thread *th = &t->threads[i];
    out->thread_id = th->thread_id;
    out->process = process_of_thread(t, i);
    out->nchunks = th->nchunks;
    out->first_chunk = th->first_chunk;
}

size_t tk_dcfg_trace_chunk_count(const tk_dcfg_trace *t) { return t->nchunks; }

void tk_dcfg_trace_chunk(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_chunk_info *out)
{
    const dt_chunk *c = &t->chunks[i];
    out->preceding_instr_count = c->preceding_instr_count;
    out->instr_count = c->instr_count;
    out->edge_count = c->edge_count;
    out->first_edge_id = c->first_edge_id;
    out->sequence_chars = c->seq_len;
    out->line = c->line;
    out->column = c->column;
}

size_t tk_dcfg_trace_dictionary_entry(const tk_dcfg_trace *t, size_t proc, size_t i,
                                      const char **key, const char **value, size_t *value_len)
{
    const dt_process *p = &t->procs[proc];
    if (i >= p->ndict) return p->ndict;
    *key = p->dict[i].key;
    *value = p->dict[i].value;
    *value_len = p->dict[i].value_len;
    return p->ndict;
}

/* The process of a chunk: found through the thread that holds it. */
static const dt_process *process_of_chunk(const tk_dcfg_trace *t, size_t chunk, size_t *thread)
{
    size_t lo = 0, hi = t->nthreads;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const dt_thread *th = &t->threads[mid];
        if (chunk < th->first_chunk)
            hi = mid;
        else if (chunk >= th->first_chunk + th->nchunks)
            lo = mid + 1;
        else {
            if (thread) *thread = mid;
            return &t->procs[process_of_thread(t, mid)];
        }
    }
    return NULL;
}

tk_status tk_dcfg_trace_decode_chunk(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_emit_fn emit,
                                     void *ctx, uint64_t *edges, tk_diag *diag, tk_error *err)
{
    const dt_process *p = process_of_chunk(t, i, NULL);
    if (!p) return tk_error_set(err, TK_ERR_ARG, "chunk %zu does not exist", i);
    tk_error none; /* the decoder reads the code of its errors back: err may be NULL */
    return tk_dt_decode_chunk(t, p, &t->chunks[i], emit, ctx, edges, diag, err ? err : &none);
}

/* ---- ordered decoding of many chunks ---------------------------------------
 *
 * One parallel loop over the selected chunks (handed out in increasing
 * order). A worker decodes its chunk into the job slot (index % window),
 * renders it when asked, marks it ready, and then, if no other thread is
 * delivering, delivers every ready job in order (the callbacks run outside
 * the lock, one thread at a time). No barrier: the other workers keep
 * decoding while one delivers. A worker whose slot is still occupied (it is
 * `window` chunks ahead of delivery) waits; the chunk being delivered next is
 * then always held by a worker that does not wait, so this cannot deadlock. */

tk_status tk_dcfg_trace_text_reserve(tk_dcfg_trace_text *t, size_t more, tk_error *err)
{
    if (t->len + more <= t->cap) return TK_OK;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->len + more) cap *= 2;
    char *p = tk_realloc(t->data, cap);
    if (!p) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    t->data = p;
    t->cap = cap;
    return TK_OK;
}

typedef struct chunk_job {
    size_t chunk;
    tk_dcfg_trace_piece head; /* the chunk's part of its pieces (no edges) */
    dt_walk walk; /* with a DCFG */
    tk_dcfg_trace_step steps[TK_DCFG_TRACE_PIECE_STEPS];
    uint32_t *edges;
    size_t n, cap;
    tk_dcfg_trace_text text;
    uint64_t count;
    tk_status status;
    tk_status walk_status; /* TK_OK, or the error of an edge that failed (in err) */
    tk_error err;
    int overflow; /* more edges than the buffer limit: decode again while delivering */
    int ready;
    tk_diag warnings; /* per-job sink: diag sinks are not thread-safe */
    int has_warning;
    tk_severity warn_sev;
    tk_location warn_loc;
    char warn_msg[512];
} chunk_job;

static void keep_warning(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    chunk_job *j = ctx;
    if (j->has_warning) return;
    j->has_warning = 1;
    j->warn_sev = sev;
    j->warn_loc = *loc;
    snprintf(j->warn_msg, sizeof j->warn_msg, "%s", msg);
}

typedef struct decode_run {
    const tk_dcfg_trace *t;
    const tk_dcfg_trace_decode_options *opt;
    tk_dcfg_trace_chunk_fn fn;
    void *ctx;
    int (*sink)(struct decode_run *, chunk_job *, const tk_dcfg_trace_piece *); /* delivery */
    tk_diag *diag;
    const size_t *chunks; /* the selected chunks */
    chunk_job *jobs;
    size_t window; /* job slots */
    size_t limit; /* max edges buffered per chunk */
    int count_only;
    pthread_mutex_t lock;
    pthread_cond_t slot_free;
    size_t next; /* next job to deliver */
    int delivering; /* a thread is delivering */
    int stop; /* stop decoding (TK_END or an error without diag) */
    int failed; /* errors went to diag */
    tk_status st;
    tk_error err;
    uint64_t total;
} decode_run;

static int collect(void *ctx, const uint32_t *edges, size_t n)
{
    chunk_job *j = ctx;
    if (j->n + n > j->cap) {
        size_t cap = j->cap ? j->cap : 4096;
        while (cap < j->n + n) cap *= 2;
        uint32_t *p = tk_realloc(j->edges, cap * sizeof *p);
        if (!p) return 1;
        j->edges = p;
        j->cap = cap;
    }
    memcpy(j->edges + j->n, edges, n * sizeof *edges);
    j->n += n;
    return 0;
}

/* Where pieces go: rendered into the job's text (on the decoding thread), to the caller's
 * piece or fn (delivering), or nowhere (the edges are only checked). */
typedef int (*piece_sink)(decode_run *run, chunk_job *j, const tk_dcfg_trace_piece *p);

static int sink_render(decode_run *run, chunk_job *j, const tk_dcfg_trace_piece *p)
{
    return run->opt->render(run->opt->render_ctx, p, &j->text);
}

static int sink_piece(decode_run *run, chunk_job *j, const tk_dcfg_trace_piece *p)
{
    (void)j;
    return run->opt->piece(run->ctx, p);
}

static int sink_fn(decode_run *run, chunk_job *j, const tk_dcfg_trace_piece *p)
{
    (void)j;
    return run->fn(run->ctx, p->chunk, p->edges, p->nedges);
}

static int sink_none(decode_run *run, chunk_job *j, const tk_dcfg_trace_piece *p)
{
    (void)run, (void)j, (void)p;
    return 0;
}

/* Hands edges[0..n), the next edges of job j's chunk, to sink in pieces: as they are
 * without a DCFG, else through it (j->walk). Returns 0, 1 when the sink asked to stop, or
 * -1 when an edge failed (j->walk_status and j->err set; the pieces before it handed over). */
static int make_pieces(decode_run *run, chunk_job *j, const uint32_t *edges, size_t n,
                       piece_sink sink)
{
    tk_dcfg_trace_piece p = j->head;
    p.edges = edges;
    p.nedges = n;
    if (!run->opt->cfg) return sink(run, j, &p) ? 1 : 0;
    p.steps = run->opt->steps ? j->steps : NULL;
    size_t i = 0;
    do {
        p.edges = edges + i;
        p.nedges = tk_dt_walk_edges(&j->walk, edges + i, n - i, j->steps, &p.nsteps);
        if (sink(run, j, &p)) return 1;
        i += p.nedges;
        if (j->walk.failed) {
            j->walk_status = tk_dt_walk_error(&j->walk, run->t, &j->err);
            return -1;
        }
    } while (i < n);
    return 0;
}

typedef struct piece_ctx {
    decode_run *run;
    chunk_job *job;
} piece_ctx;

/* A piece of a big chunk, decoded while delivering. */
static int deliver_piece(void *ctx, const uint32_t *edges, size_t n)
{
    piece_ctx *pc = ctx;
    decode_run *run = pc->run;
    const tk_dcfg_trace_decode_options *o = run->opt;
    chunk_job *j = pc->job;
    if (run->sink == sink_fn && !o->cfg) return run->fn(run->ctx, j->chunk, edges, n);
    j->text.len = 0;
    int r = make_pieces(run, j, edges, n, o->render ? sink_render : run->sink);
    if (r == 1) return 1;
    const char *text = j->text.data ? j->text.data : "";
    if (o->render && o->write_text(run->ctx, j->chunk, text, j->text.len)) return 1;
    return r;
}

static const uint32_t no_edges[1] = {0};

/* Deliver job j (the next in order); called by one thread at a time, without
 * the lock. Only the delivering thread writes stop, st, err, failed and total
 * (the lock hands the delivering role over). */
static int deliver(decode_run *run, chunk_job *j)
{
    const tk_dcfg_trace_decode_options *o = run->opt;
    if (run->stop) return 1;
    int r = 0;
    if (j->overflow) {
        piece_ctx pc = {run, j};
        j->status = tk_dcfg_trace_decode_chunk(run->t, j->chunk, deliver_piece, &pc, &j->count,
                                               run->diag, &j->err);
        if (j->status == TK_END && j->walk_status != TK_OK) j->status = j->walk_status;
        r = j->status == TK_END;
    } else if ((j->status == TK_OK || j->walk_status != TK_OK) && !run->count_only) {
        /* what came before an edge that failed goes out first */
        const uint32_t *edges = j->edges ? j->edges : no_edges;
        if (o->render)
            r = o->write_text(run->ctx, j->chunk, j->text.data ? j->text.data : "", j->text.len);
        else if (run->sink == sink_fn && !o->cfg)
            r = run->fn(run->ctx, j->chunk, edges, j->n);
        else if (run->sink != sink_none && make_pieces(run, j, edges, j->n, run->sink) == 1)
            r = 1;
        if (j->walk_status != TK_OK) j->status = j->walk_status;
    }
    if (r) {
        run->total += j->count;
        run->st = TK_END;
        return 1;
    }
    if (j->status != TK_OK) {
        if (!run->diag) {
            run->err = j->err;
            run->st = j->status;
            return 1;
        }
        tk_diag_error(run->diag, &j->err);
        run->failed = 1;
        return 0;
    }
    run->total += j->count;
    if (run->diag && !j->overflow && j->has_warning)
        tk_diag_report(run->diag, j->warn_sev, &j->warn_loc, "%s", j->warn_msg);
    return 0;
}

/* Job j takes chunk: decoded (a big one when its turn comes), checked against the DCFG and
 * rendered when asked. */
static void run_job(decode_run *run, chunk_job *j, size_t chunk)
{
    const tk_dcfg_trace_decode_options *o = run->opt;
    size_t thread = 0;
    const dt_process *P = process_of_chunk(run->t, chunk, &thread);
    j->chunk = chunk;
    memset(&j->head, 0, sizeof j->head);
    j->head.chunk = chunk;
    j->head.thread = thread;
    j->head.pid = P->pid;
    j->head.thread_id = run->t->threads[thread].thread_id;
    tk_dt_walk_start(&j->walk, run->t, o->cfg, o->steps, chunk, P);
    j->head.process = j->walk.proc;
    j->n = 0;
    j->count = 0;
    j->overflow = 0;
    j->has_warning = 0;
    j->status = TK_OK;
    j->walk_status = TK_OK;
    j->text.len = 0;
    tk_error_clear(&j->err);
    const dt_chunk *c = &run->t->chunks[chunk];
    if (!run->count_only && c->edge_count > run->limit) {
        j->overflow = 1; /* decoded piecewise when its turn comes */
        return;
    }
    tk_diag_init(&j->warnings, keep_warning, j);
    j->status = tk_dcfg_trace_decode_chunk(run->t, chunk, run->count_only ? NULL : collect, j,
                                           &j->count, &j->warnings, &j->err);
    if (j->status == TK_END) j->status = tk_error_set(&j->err, TK_ERR_NOMEM, "out of memory");
    /* rendering, or only the check, on this thread */
    if (j->status != TK_OK || run->count_only || !(o->render || run->sink == sink_none)) return;
    int r = make_pieces(run, j, j->edges ? j->edges : no_edges, j->n,
                        o->render ? sink_render : sink_none);
    if (r == 1)
        j->status = tk_error_set(&j->err, TK_ERR_NOMEM, "cannot format chunk %zu", chunk);
    else if (r < 0)
        j->status = j->walk_status;
}

static void decode_job(void *ctx, size_t index, unsigned worker)
{
    (void)worker;
    decode_run *run = ctx;
    chunk_job *j = &run->jobs[index % run->window];
    pthread_mutex_lock(&run->lock);
    while (index >= run->next + run->window && !run->stop)
        pthread_cond_wait(&run->slot_free, &run->lock);
    if (run->stop) {
        /* nothing more is delivered; the slot may still be in use */
        pthread_mutex_unlock(&run->lock);
        return;
    }
    pthread_mutex_unlock(&run->lock);
    run_job(run, j, run->chunks[index]);
    pthread_mutex_lock(&run->lock);
    j->ready = 1;
    if (!run->delivering) {
        run->delivering = 1;
        for (;;) {
            chunk_job *d = &run->jobs[run->next % run->window];
            if (!d->ready || d->chunk != run->chunks[run->next]) break;
            pthread_mutex_unlock(&run->lock);
            int stop = deliver(run, d);
            pthread_mutex_lock(&run->lock);
            if (stop) run->stop = 1;
            d->ready = 0;
            run->next++;
            pthread_cond_broadcast(&run->slot_free);
        }
        run->delivering = 0;
    }
    pthread_mutex_unlock(&run->lock);
}

static int selected(const tk_dcfg_trace *t, const tk_dcfg_trace_decode_options *opt, size_t thread)
{
    if (opt->has_thread && t->threads[thread].thread_id != opt->thread_id) return 0;
    if (opt->has_pid && t->procs[process_of_thread(t, thread)].pid != opt->pid) return 0;
    return 1;
}

tk_status tk_dcfg_trace_processes_in(const tk_dcfg_trace *t, const tk_cfg *cfg,
                                     const tk_dcfg_trace_decode_options *optp, tk_error *err)
{
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    if (optp) opt = *optp;
    for (size_t i = 0; i < t->nthreads; i++) {
        if (!selected(t, &opt, i)) continue;
        const dt_process *P = &t->procs[process_of_thread(t, i)];
        if (tk_cfg_find_process(cfg, P->pid) == TK_CFG_NONE)
            return tk_dt_error_at(t, err, TK_ERR_FORMAT, P->offset,
                                  "process %llu is not in the DCFG", (unsigned long long)P->pid);
    }
    return TK_OK;
}

/* The chunks opt selects, in file order, into *out (*n of them). TK_OK or TK_ERR_NOMEM. */
static tk_status select_chunks(const tk_dcfg_trace *t, const tk_dcfg_trace_decode_options *opt,
                               size_t **out, size_t *n, tk_error *err)
{
    size_t nsel = 0;
    for (size_t i = 0; i < t->nthreads; i++)
        if (selected(t, opt, i)) nsel += t->threads[i].nchunks;
    size_t *chunks = tk_malloc((nsel ? nsel : 1) * sizeof *chunks);
    if (!chunks) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    nsel = 0;
    int ranged = opt->chunk_begin || opt->chunk_end;
    for (size_t i = 0; i < t->nthreads; i++)
        if (selected(t, opt, i))
            for (size_t k = 0; k < t->threads[i].nchunks; k++) {
                size_t c = t->threads[i].first_chunk + k;
                if (!ranged || (c >= opt->chunk_begin && c < opt->chunk_end)) chunks[nsel++] = c;
            }
    *out = chunks;
    *n = nsel;
    return TK_OK;
}

/* Where the decoded pieces go (at most one of fn, opt->piece, opt->render), or
 * TK_ERR_ARG. */
static tk_status choose_sink(decode_run *run, tk_dcfg_trace_chunk_fn fn, tk_error *err)
{
    const tk_dcfg_trace_decode_options *o = run->opt;
    if (o->render && !o->write_text)
        return tk_error_set(err, TK_ERR_ARG, "render without write_text");
    if ((fn != NULL) + (o->piece != NULL) + (o->render != NULL) > 1)
        return tk_error_set(err, TK_ERR_ARG, "more than one of fn, piece and render");
    if (o->steps && !o->cfg) return tk_error_set(err, TK_ERR_ARG, "steps without a DCFG");
    run->sink = fn ? sink_fn : o->piece ? sink_piece : o->render ? sink_render : sink_none;
    run->count_only = run->sink == sink_none && !o->cfg;
    return TK_OK;
}

tk_status tk_dcfg_trace_decode(const tk_dcfg_trace *t, const tk_dcfg_trace_decode_options *optp,
                               tk_dcfg_trace_chunk_fn fn, void *ctx, uint64_t *total, tk_diag *diag,
                               tk_error *err)
{
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    if (optp) opt = *optp;
    *total = 0;
    decode_run run;
    memset(&run, 0, sizeof run);
    run.t = t;
    run.opt = &opt;
    run.fn = fn;
    run.ctx = ctx;
    run.diag = diag;
    tk_status st = choose_sink(&run, fn, err);
    if (st != TK_OK || (opt.cfg && (st = tk_dcfg_trace_processes_in(t, opt.cfg, &opt, err))))
        return st;
    size_t *chunks = NULL, nsel = 0;
    if ((st = select_chunks(t, &opt, &chunks, &nsel, err)) != TK_OK) return st;
    tk_threadpool *pool = NULL;
    /* no more threads than chunks: a range of a few chunks (a rank's share of a short
     * thread) starts no thread it cannot use */
    unsigned nthreads = opt.threads < nsel ? opt.threads : (unsigned)nsel;
    if (nthreads > 1 && (st = tk_threadpool_create(&pool, nthreads, err)) != TK_OK) {
        tk_free(chunks);
        return st;
    }
    unsigned nworkers = tk_threadpool_size(pool);
    size_t window = nworkers > 1 ? (size_t)nworkers * 2 + 2 : 1;
    chunk_job *jobs = tk_calloc(window, sizeof *jobs);
    if (!jobs) {
        tk_free(chunks);
        tk_threadpool_free(pool);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    run.chunks = chunks;
    run.jobs = jobs;
    run.window = window;
    run.limit = opt.max_chunk_edges ? opt.max_chunk_edges : ((size_t)1 << 20);
    run.st = TK_OK;
    tk_error_clear(&run.err);
    pthread_mutex_init(&run.lock, NULL);
    pthread_cond_init(&run.slot_free, NULL);
    tk_threadpool_for(pool, nsel, decode_job, &run);
    pthread_cond_destroy(&run.slot_free);
    pthread_mutex_destroy(&run.lock);
    *total = run.total;
    st = run.st;
    if (st != TK_OK && st != TK_END && err) /* err may be NULL */
        *err = run.err;
    else if (st == TK_OK && run.failed)
        st = TK_ERR_CHECK;
    for (size_t i = 0; i < window; i++) {
        tk_free(jobs[i].edges);
        tk_free(jobs[i].text.data);
    }
    tk_free(jobs);
    tk_free(chunks);
    tk_threadpool_free(pool);
    return st;
}
