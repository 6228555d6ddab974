/* DCFG-Trace: open, accessors, and ordered (optionally parallel) decoding. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "dt_internal.h"
#include "tracekit/cfg.h"
#include "tracekit/input.h"


static tk_status finish_open(tk_dcfg_trace *t, tk_dcfg_trace **out, tk_diag *diag, tk_error *err) {
    tk_status st = dt_parse(t, diag, err);
    if (st != TK_OK) {
        tk_dcfg_trace_free(t);
        return st;
    }
    *out = t;
    return TK_OK;
}

static tk_dcfg_trace *new_trace(const char *name) {
    tk_dcfg_trace *t = tk_calloc(1, sizeof *t);
    if (!t)
        return NULL;
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

tk_status tk_dcfg_trace_open(tk_dcfg_trace **out, const char *path, tk_diag *diag,
                             tk_error *err) {
    *out = NULL;
    tk_input *in = NULL;
    tk_status st = tk_input_open(&in, path, NULL, err);
    if (st != TK_OK)
        return st;
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
    return finish_open(t, out, diag, err);
}

tk_status tk_dcfg_trace_open_input(tk_dcfg_trace **out, tk_input *in, tk_diag *diag,
                                   tk_error *err) {
    *out = NULL;
    tk_dcfg_trace *t = new_trace(tk_input_path(in));
    if (!t)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    const uint8_t *data;
    size_t len;
    tk_status st = tk_input_map(in, &data, &len, err);
    if (st != TK_OK) {
        tk_dcfg_trace_free(t);
        return st;
    }
    t->data = (const char *)data;
    t->len = len;
    return finish_open(t, out, diag, err);
}

tk_status tk_dcfg_trace_open_memory(tk_dcfg_trace **out, const void *data, size_t len,
                                    const char *name, tk_diag *diag, tk_error *err) {
    *out = NULL;
    tk_dcfg_trace *t = new_trace(name ? name : "<memory>");
    void *copy = tk_malloc(len ? len : 1);
    if (!t || !copy) {
        tk_free(copy);
        tk_dcfg_trace_free(t);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    if (len)
        memcpy(copy, data, len);
    t->owned_data = copy;
    t->data = copy;
    t->len = len;
    return finish_open(t, out, diag, err);
}

void tk_dcfg_trace_free(tk_dcfg_trace *t) {
    if (!t)
        return;
    for (size_t i = 0; i < t->nprocs; i++) {
        dt_process *p = &t->procs[i];
        for (size_t j = 0; j < p->ndict; j++)
            tk_free(p->dict[j].key);
        tk_free(p->dict);
        tk_free(p->dict_slots);
        dt_table_free(&p->table);
    }
    tk_free(t->procs);
    tk_free(t->threads);
    tk_free(t->chunks);
    tk_free(t->line_marks);
    tk_free(t->owned_data);
    if (t->input)
        tk_input_free((tk_input *)t->input);
    tk_free((void *)t->path);
    tk_free(t);
}

const char *tk_dcfg_trace_path(const tk_dcfg_trace *t) { return t->path; }

void tk_dcfg_trace_version(const tk_dcfg_trace *t, uint64_t *major, uint64_t *minor) {
    *major = t->major;
    *minor = t->minor;
}

size_t tk_dcfg_trace_process_count(const tk_dcfg_trace *t) { return t->nprocs; }

void tk_dcfg_trace_process(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_process_info *out) {
    const dt_process *p = &t->procs[i];
    memset(out, 0, sizeof *out);
    out->pid = p->pid;
    out->dictionary_entries = p->ndict;
    out->transition_rows = p->table.nrows;
    size_t n = 0;
    for (size_t s = 0; s < p->table.nstates; s++)
        if (p->table.states[s].depth == 0 && !p->table.states[s].dead)
            n++;
    out->transition_states = n;
    out->max_code_bits = p->table.max_code_len;
    out->nthreads = p->nthreads;
}

size_t tk_dcfg_trace_thread_count(const tk_dcfg_trace *t) { return t->nthreads; }

static size_t process_of_thread(const tk_dcfg_trace *t, size_t thread) {
    for (size_t i = 0; i < t->nprocs; i++)
        if (thread >= t->procs[i].first_thread &&
            thread < t->procs[i].first_thread + t->procs[i].nthreads)
            return i;
    return 0;
}

void tk_dcfg_trace_thread(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_thread_info *out) {
    const dt_thread *th = &t->threads[i];
    out->thread_id = th->thread_id;
    out->process = process_of_thread(t, i);
    out->nchunks = th->nchunks;
    out->first_chunk = th->first_chunk;
}

size_t tk_dcfg_trace_chunk_count(const tk_dcfg_trace *t) { return t->nchunks; }

void tk_dcfg_trace_chunk(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_chunk_info *out) {
    const dt_chunk *c = &t->chunks[i];
    out->preceding_instr_count = c->preceding_instr_count;
    out->instr_count = c->instr_count;
    out->edge_count = c->edge_count;
    out->first_edge_id = c->first_edge_id;
    out->sequence_chars = c->seq_len;
    dt_line_col(t, c->row_offset, &out->line, &out->column);
}

size_t tk_dcfg_trace_dictionary_entry(const tk_dcfg_trace *t, size_t proc, size_t i,
                                      const char **key, const char **value, size_t *value_len) {
    const dt_process *p = &t->procs[proc];
    if (i >= p->ndict)
        return p->ndict;
    *key = p->dict[i].key;
    *value = p->dict[i].value;
    *value_len = p->dict[i].value_len;
    return p->ndict;
}

/* The process of a chunk: found through the thread that holds it. */
static const dt_process *process_of_chunk(const tk_dcfg_trace *t, size_t chunk, size_t *thread) {
    size_t lo = 0, hi = t->nthreads;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const dt_thread *th = &t->threads[mid];
        if (chunk < th->first_chunk)
            hi = mid;
        else if (chunk >= th->first_chunk + th->nchunks)
            lo = mid + 1;
        else {
            if (thread)
                *thread = mid;
            return &t->procs[process_of_thread(t, mid)];
        }
    }
    return NULL;
}

tk_status tk_dcfg_trace_decode_chunk(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_emit_fn emit,
                                     void *ctx, uint64_t *edges, tk_diag *diag, tk_error *err) {
    const dt_process *p = process_of_chunk(t, i, NULL);
    if (!p)
        return tk_error_set(err, TK_ERR_ARG, "chunk %zu does not exist", i);
    return dt_decode_chunk(t, p, &t->chunks[i], emit, ctx, edges, diag, err);
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

tk_status tk_dcfg_trace_text_reserve(tk_dcfg_trace_text *t, size_t more, tk_error *err) {
    if (t->len + more <= t->cap)
        return TK_OK;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->len + more)
        cap *= 2;
    char *p = tk_realloc(t->data, cap);
    if (!p)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    t->data = p;
    t->cap = cap;
    return TK_OK;
}

typedef struct chunk_job {
    size_t chunk;
    uint32_t *edges;
    size_t n, cap;
    tk_dcfg_trace_text text;
    uint64_t count;
    tk_status status;
    tk_error err;
    int overflow;           /* more edges than the buffer limit: decode again while delivering */
    int ready;
    tk_diag warnings;       /* per-job sink: diag sinks are not thread-safe */
    int has_warning;
    tk_severity warn_sev;
    tk_location warn_loc;
    char warn_msg[512];
} chunk_job;

static void keep_warning(void *ctx, tk_severity sev, const tk_location *loc, const char *msg) {
    chunk_job *j = ctx;
    if (j->has_warning)
        return;
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
    tk_diag *diag;
    const size_t *chunks;   /* the selected chunks */
    chunk_job *jobs;
    size_t window;          /* job slots */
    size_t limit;           /* max edges buffered per chunk */
    int count_only;
    pthread_mutex_t lock;
    pthread_cond_t slot_free;
    size_t next;            /* next job to deliver */
    int delivering;         /* a thread is delivering */
    int stop;               /* stop decoding (TK_END or an error without diag) */
    int failed;             /* errors went to diag */
    tk_status st;
    tk_error err;
    uint64_t total;
} decode_run;

static int collect(void *ctx, const uint32_t *edges, size_t n) {
    chunk_job *j = ctx;
    if (j->n + n > j->cap) {
        size_t cap = j->cap ? j->cap : 4096;
        while (cap < j->n + n)
            cap *= 2;
        uint32_t *p = tk_realloc(j->edges, cap * sizeof *p);
        if (!p)
            return 1;
        j->edges = p;
        j->cap = cap;
    }
    memcpy(j->edges + j->n, edges, n * sizeof *edges);
    j->n += n;
    return 0;
}

typedef struct piece_ctx {
    decode_run *run;
    chunk_job *job;
} piece_ctx;

static int deliver_piece(void *ctx, const uint32_t *edges, size_t n) {
    piece_ctx *pc = ctx;
    decode_run *run = pc->run;
    const tk_dcfg_trace_decode_options *o = run->opt;
    if (!o->render)
        return run->fn(run->ctx, pc->job->chunk, edges, n);
    pc->job->text.len = 0;
    if (o->render(o->render_ctx, pc->job->chunk, edges, n, &pc->job->text))
        return 1;
    return o->write_text(run->ctx, pc->job->chunk, pc->job->text.data, pc->job->text.len);
}

static const uint32_t no_edges[1] = {0};

/* Deliver job j (the next in order); called by one thread at a time, without
 * the lock. Only the delivering thread writes stop, st, err, failed and total
 * (the lock hands the delivering role over). */
static int deliver(decode_run *run, chunk_job *j) {
    const tk_dcfg_trace_decode_options *o = run->opt;
    if (run->stop)
        return 1;
    if (j->overflow) {
        piece_ctx pc = {run, j};
        j->status = tk_dcfg_trace_decode_chunk(run->t, j->chunk, deliver_piece, &pc, &j->count,
                                               run->diag, &j->err);
        if (j->status == TK_END) {
            run->total += j->count;
            run->st = TK_END;
            return 1;
        }
    } else if (j->status == TK_OK && !run->count_only) {
        int r = o->render ? o->write_text(run->ctx, j->chunk, j->text.data ? j->text.data : "", j->text.len)
                          : run->fn(run->ctx, j->chunk, j->edges ? j->edges : no_edges, j->n);
        if (r) {
            run->total += j->count;
            run->st = TK_END;
            return 1;
        }
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

static void decode_job(void *ctx, size_t index, unsigned worker) {
    (void)worker;
    decode_run *run = ctx;
    const tk_dcfg_trace_decode_options *o = run->opt;
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
    j->chunk = run->chunks[index];
    j->n = 0;
    j->count = 0;
    j->overflow = 0;
    j->has_warning = 0;
    j->status = TK_OK;
    j->text.len = 0;
    tk_error_clear(&j->err);
    {
        const dt_chunk *c = &run->t->chunks[j->chunk];
        if (!run->count_only && c->edge_count > run->limit) {
            j->overflow = 1;  /* decoded piecewise when its turn comes */
        } else {
            tk_diag_init(&j->warnings, keep_warning, j);
            j->status = tk_dcfg_trace_decode_chunk(run->t, j->chunk, run->count_only ? NULL : collect, j,
                                                   &j->count, &j->warnings, &j->err);
            if (j->status == TK_END)
                j->status = tk_error_set(&j->err, TK_ERR_NOMEM, "out of memory");
            if (j->status == TK_OK && o->render && !run->count_only &&
                o->render(o->render_ctx, j->chunk, j->edges ? j->edges : no_edges, j->n, &j->text))
                j->status = tk_error_set(&j->err, TK_ERR_NOMEM, "cannot format chunk %zu", j->chunk);
        }
    }
    pthread_mutex_lock(&run->lock);
    j->ready = 1;
    if (!run->delivering) {
        run->delivering = 1;
        for (;;) {
            chunk_job *d = &run->jobs[run->next % run->window];
            if (!d->ready || d->chunk != run->chunks[run->next])
                break;
            pthread_mutex_unlock(&run->lock);
            int stop = deliver(run, d);
            pthread_mutex_lock(&run->lock);
            if (stop)
                run->stop = 1;
            d->ready = 0;
            run->next++;
            pthread_cond_broadcast(&run->slot_free);
        }
        run->delivering = 0;
    }
    pthread_mutex_unlock(&run->lock);
}

static int selected(const tk_dcfg_trace *t, const tk_dcfg_trace_decode_options *opt, size_t thread) {
    if (opt->has_thread && t->threads[thread].thread_id != opt->thread_id)
        return 0;
    if (opt->has_pid && t->procs[process_of_thread(t, thread)].pid != opt->pid)
        return 0;
    return 1;
}

tk_status tk_dcfg_trace_processes_in(const tk_dcfg_trace *t, const tk_cfg *cfg,
                                    const tk_dcfg_trace_decode_options *optp, tk_error *err) {
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    if (optp)
        opt = *optp;
    for (size_t i = 0; i < t->nthreads; i++) {
        if (!selected(t, &opt, i))
            continue;
        const dt_process *P = &t->procs[process_of_thread(t, i)];
        if (tk_cfg_find_process(cfg, P->pid) == TK_CFG_NONE)
            return dt_error_at(t, err, TK_ERR_FORMAT, P->offset, "process %llu is not in the DCFG",
                               (unsigned long long)P->pid);
    }
    return TK_OK;
}

tk_status tk_dcfg_trace_decode(const tk_dcfg_trace *t, const tk_dcfg_trace_decode_options *optp,
                               tk_dcfg_trace_chunk_fn fn, void *ctx, uint64_t *total, tk_diag *diag,
                               tk_error *err) {
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    if (optp)
        opt = *optp;
    *total = 0;
    if (opt.render && !opt.write_text)
        return tk_error_set(err, TK_ERR_ARG, "render without write_text");
    /* the selected chunks */
    size_t nsel = 0;
    for (size_t i = 0; i < t->nthreads; i++)
        if (selected(t, &opt, i))
            nsel += t->threads[i].nchunks;
    size_t *chunks = tk_malloc((nsel ? nsel : 1) * sizeof *chunks);
    if (!chunks)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    nsel = 0;
    int ranged = opt.chunk_begin || opt.chunk_end;
    for (size_t i = 0; i < t->nthreads; i++)
        if (selected(t, &opt, i))
            for (size_t k = 0; k < t->threads[i].nchunks; k++) {
                size_t c = t->threads[i].first_chunk + k;
                if (!ranged || (c >= opt.chunk_begin && c < opt.chunk_end))
                    chunks[nsel++] = c;
            }
    tk_threadpool *pool = NULL;
    tk_status st = TK_OK;
    if (opt.threads > 1 && nsel > 1 && (st = tk_threadpool_create(&pool, opt.threads, err)) != TK_OK) {
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
    decode_run run;
    memset(&run, 0, sizeof run);
    run.t = t;
    run.opt = &opt;
    run.fn = fn;
    run.ctx = ctx;
    run.diag = diag;
    run.chunks = chunks;
    run.jobs = jobs;
    run.window = window;
    run.limit = opt.max_chunk_edges ? opt.max_chunk_edges : ((size_t)1 << 20);
    run.count_only = fn == NULL && !opt.render;
    run.st = TK_OK;
    tk_error_clear(&run.err);
    pthread_mutex_init(&run.lock, NULL);
    pthread_cond_init(&run.slot_free, NULL);
    tk_threadpool_for(pool, nsel, decode_job, &run);
    pthread_cond_destroy(&run.slot_free);
    pthread_mutex_destroy(&run.lock);
    *total = run.total;
    st = run.st;
    if (st != TK_OK && st != TK_END)
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
