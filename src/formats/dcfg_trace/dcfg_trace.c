/* DCFG-Trace: open, accessors, and ordered (optionally parallel) decoding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "dt_internal.h"
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

/* ---- ordered decoding of many chunks --------------------------------------- */

typedef struct chunk_job {
    size_t chunk;
    uint32_t *edges;
    size_t n, cap;
    uint64_t count;
    tk_status status;
    tk_error err;
    int overflow;           /* more edges than the buffer limit: decode again serially */
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
    chunk_job *jobs;
    size_t limit;           /* max edges buffered per chunk */
    int count_only;
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

static void decode_job(void *ctx, size_t index, unsigned worker) {
    (void)worker;
    decode_run *run = ctx;
    chunk_job *j = &run->jobs[index];
    tk_error_clear(&j->err);
    j->n = 0;
    const dt_chunk *c = &run->t->chunks[j->chunk];
    if (!run->count_only && c->edge_count > run->limit) {
        j->overflow = 1;  /* delivered piecewise by the caller's thread */
        j->status = TK_OK;
        return;
    }
    j->overflow = 0;
    j->has_warning = 0;
    tk_diag_init(&j->warnings, keep_warning, j);
    j->status = tk_dcfg_trace_decode_chunk(run->t, j->chunk, run->count_only ? NULL : collect, j,
                                           &j->count, &j->warnings, &j->err);
    if (j->status == TK_END)
        j->status = tk_error_set(&j->err, TK_ERR_NOMEM, "out of memory");
}

typedef struct piece_ctx {
    tk_dcfg_trace_chunk_fn fn;
    void *ctx;
    size_t chunk;
} piece_ctx;

static int deliver_piece(void *ctx, const uint32_t *edges, size_t n) {
    piece_ctx *pc = ctx;
    return pc->fn(pc->ctx, pc->chunk, edges, n);
}

static const uint32_t no_edges[1] = {0};

static int selected(const tk_dcfg_trace *t, const tk_dcfg_trace_decode_options *opt, size_t thread) {
    if (opt->has_thread && t->threads[thread].thread_id != opt->thread_id)
        return 0;
    if (opt->has_pid && t->procs[process_of_thread(t, thread)].pid != opt->pid)
        return 0;
    return 1;
}

tk_status tk_dcfg_trace_decode(const tk_dcfg_trace *t, const tk_dcfg_trace_decode_options *optp,
                               tk_dcfg_trace_chunk_fn fn, void *ctx, uint64_t *total, tk_diag *diag,
                               tk_error *err) {
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    if (optp)
        opt = *optp;
    *total = 0;
    size_t limit = opt.max_chunk_edges ? opt.max_chunk_edges : ((size_t)1 << 20);
    tk_threadpool *pool = NULL;
    tk_status st = TK_OK;
    if (opt.threads > 1 && (st = tk_threadpool_create(&pool, opt.threads, err)) != TK_OK)
        return st;
    unsigned nworkers = tk_threadpool_size(pool);
    size_t window = nworkers > 1 ? (size_t)nworkers * 4 : 1;
    chunk_job *jobs = tk_calloc(window, sizeof *jobs);
    if (!jobs) {
        tk_threadpool_free(pool);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    decode_run run = {t, jobs, limit, fn == NULL};
    int failed = 0;
    size_t next_thread = 0, next_chunk = 0; /* cursor over selected chunks */
    for (;;) {
        /* fill a window of selected chunks */
        size_t n = 0;
        while (n < window && next_thread < t->nthreads) {
            const dt_thread *th = &t->threads[next_thread];
            if (!selected(t, &opt, next_thread) || next_chunk >= th->nchunks) {
                next_thread++;
                next_chunk = 0;
                continue;
            }
            jobs[n++].chunk = th->first_chunk + next_chunk++;
        }
        if (n == 0)
            break;
        tk_threadpool_for(pool, n, decode_job, &run);
        for (size_t i = 0; i < n; i++) {
            chunk_job *j = &jobs[i];
            if (j->overflow) {
                piece_ctx pc = {fn, ctx, j->chunk};
                j->status = tk_dcfg_trace_decode_chunk(t, j->chunk, deliver_piece, &pc, &j->count,
                                                       diag, &j->err);
                if (j->status == TK_END) {
                    *total += j->count;
                    st = TK_END;
                    goto done;
                }
            } else if (j->status == TK_OK && fn &&
                       fn(ctx, j->chunk, j->edges ? j->edges : no_edges, j->n)) {
                *total += j->count;
                st = TK_END;
                goto done;
            }
            if (j->status != TK_OK) {
                if (!diag) {
                    *err = j->err;
                    st = j->status;
                    goto done;
                }
                tk_diag_error(diag, &j->err);
                failed = 1;
                continue;
            }
            *total += j->count;
            if (diag && !j->overflow && j->has_warning)
                tk_diag_report(diag, j->warn_sev, &j->warn_loc, "%s", j->warn_msg);
        }
    }
    if (failed)
        st = TK_ERR_CHECK;
done:
    for (size_t i = 0; i < window; i++)
        tk_free(jobs[i].edges);
    tk_free(jobs);
    tk_threadpool_free(pool);
    return st;
}
