/* DCFG-Trace: `check` — decode everything, and with a DCFG cross-check the
 * edges against the graph. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "formats/dcfg_trace/dt_internal.h"
#include "model/cfg_internal.h"
#include "tracekit/cfg.h"

typedef struct check_run {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    tk_diag *diag;
    /* state of the thread being checked */
    size_t thread; /* index in t->threads */
    const tk_cfg_process *proc; /* DCFG process of the thread (NULL when unknown) */
    uint64_t *edge_counts; /* per edge index of proc, this thread */
    int reported_chunk; /* errors reported for the current chunk (limit) */
    int unknown_edge; /* the chunk holds an edge the DCFG lacks */
    int instrs_overflow; /* the chunk's source blocks hold more than 2^64 - 1 */
    size_t cur_chunk;
    uint64_t cur_edge_index;
    uint64_t cur_instrs;
    uint32_t prev_tgt;
    int have_prev;
} check_run;

static void report_chunk(check_run *r, size_t chunk, tk_severity sev, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report_chunk(check_run *r, size_t chunk, tk_severity sev, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const dt_chunk *c = &r->t->chunks[chunk];
    tk_location loc = {r->t->path, c->row_offset, c->line, c->column};
    tk_diag_report(r->diag, sev, &loc, "%s", msg);
}

static void report_at(const tk_dcfg_trace *t, tk_diag *diag, int64_t off, tk_severity sev,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void report_at(const tk_dcfg_trace *t, tk_diag *diag, int64_t off, tk_severity sev,
                      const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint64_t line, col;
    tk_dt_line_col(t, off, &line, &col);
    tk_location loc = {t->path, off, line, col};
    tk_diag_report(diag, sev, &loc, "%s", msg);
}

#define MAX_CHUNK_REPORTS 5

static void end_chunk(check_run *r)
{
    if (!r->proc || r->cur_chunk == SIZE_MAX) return;
    const dt_chunk *c = &r->t->chunks[r->cur_chunk];
    if (r->instrs_overflow)
        report_chunk(r, r->cur_chunk, TK_SEV_ERROR,
                     "INSTR_COUNT is %llu, but the source blocks of the chunk's %llu edges hold "
                     "more than 2^64 - 1 instructions in the DCFG",
                     (unsigned long long)c->instr_count, (unsigned long long)c->edge_count);
    else if (r->cur_edge_index >= c->edge_count && !r->unknown_edge &&
             r->cur_instrs != c->instr_count)
        report_chunk(
            r, r->cur_chunk, TK_SEV_ERROR,
            "INSTR_COUNT is %llu, but the source blocks of the chunk's %llu edges hold %llu "
            "instructions in the DCFG",
            (unsigned long long)c->instr_count, (unsigned long long)c->edge_count,
            (unsigned long long)r->cur_instrs);
}

static int on_edges(void *ctx, size_t chunk, const uint32_t *edges, size_t n)
{
    check_run *r = ctx;
    if (!r->proc) return 0;
    if (chunk != r->cur_chunk) {
        end_chunk(r);
        /* chunks need not be contiguous: continuity is checked inside a chunk only */
        r->have_prev = 0;
        r->cur_chunk = chunk;
        r->cur_edge_index = 0;
        r->cur_instrs = 0;
        r->reported_chunk = 0;
        r->unknown_edge = 0;
        r->instrs_overflow = 0;
    }
    const tk_cfg_process *p = r->proc;
    for (size_t i = 0; i < n; i++, r->cur_edge_index++) {
        uint32_t e = tk_cfg_find_edge(p, edges[i]);
        if (e == TK_CFG_NONE) {
            r->unknown_edge = 1;
            if (r->reported_chunk++ < MAX_CHUNK_REPORTS)
                report_chunk(
                    r, chunk, TK_SEV_ERROR,
                    "edge %u (edge %llu of the chunk) is not an edge of process %llu in the "
                    "DCFG",
                    edges[i], (unsigned long long)r->cur_edge_index + 1,
                    (unsigned long long)p->pid);
            r->have_prev = 0;
            continue;
        }
        const tk_cfg_edge *ed = &p->edges[e];
        if (r->have_prev && ed->src != r->prev_tgt && r->reported_chunk++ < MAX_CHUNK_REPORTS)
            report_chunk(
                r, chunk, TK_SEV_ERROR,
                "edge %u (edge %llu of the chunk) starts at node %u, but the previous edge "
                "ended at node %u",
                edges[i], (unsigned long long)r->cur_edge_index + 1,
                tk_cfg_node_id(r->cfg, p, ed->src), tk_cfg_node_id(r->cfg, p, r->prev_tgt));
        if (cfg_is_block(p, ed->src))
            r->instrs_overflow |=
                tk_add_u64(r->cur_instrs, p->blocks[ed->src].num_instrs, &r->cur_instrs) != 0;
        r->edge_counts[e]++;
        r->prev_tgt = ed->tgt;
        r->have_prev = 1;
    }
    return 0;
}

/* Chunk order and instruction counts, without the DCFG. */
static void check_chunk_order(const tk_dcfg_trace *t, tk_diag *diag)
{
    for (size_t th = 0; th < t->nthreads; th++) {
        const dt_thread *T = &t->threads[th];
        for (size_t k = 1; k < T->nchunks; k++) {
            const dt_chunk *p = &t->chunks[T->first_chunk + k - 1], *c = p + 1;
            uint64_t end = p->preceding_instr_count + p->instr_count;
            if (end < p->preceding_instr_count || c->preceding_instr_count < end)
                report_at(t, diag, c->row_offset, TK_SEV_ERROR,
                          "PRECEDING_INSTR_COUNT %llu is before the end of the previous chunk "
                          "(%llu + %llu); chunks must be in execution order",
                          (unsigned long long)c->preceding_instr_count,
                          (unsigned long long)p->preceding_instr_count,
                          (unsigned long long)p->instr_count);
        }
    }
}

/* The DCFG's process of P (NULL, reported, when it has none); every edge of
 * P's transition table must be in it. */
static const tk_cfg_process *check_process(const tk_dcfg_trace *t, const tk_cfg *cfg,
                                           const dt_process *P, tk_diag *diag)
{
    uint32_t idx = tk_cfg_find_process(cfg, P->pid);
    if (idx == TK_CFG_NONE) {
        report_at(t, diag, P->offset, TK_SEV_ERROR, "process %llu is not in the DCFG",
                  (unsigned long long)P->pid);
        return NULL;
    }
    const tk_cfg_process *cp = &cfg->processes[idx];
    size_t bad = 0;
    for (size_t s = 0; s < P->table.nstates; s++) {
        const dt_state *S = &P->table.states[s];
        if (S->depth == 0 && tk_cfg_find_edge(cp, S->edge) == TK_CFG_NONE && bad++ < 5)
            report_at(t, diag, P->offset, TK_SEV_ERROR,
                      "TRANSITION_TABLE of process %llu names edge %u, which is not in "
                      "the DCFG",
                      (unsigned long long)P->pid, S->edge);
    }
    return cp;
}

/* The thread's decoded edge counts (edge_counts) against the DCFG's
 * COUNT_PER_THREAD: more is an error; fewer a warning when the trace is
 * complete (from instruction 0, without gaps, up to the DCFG's count of the
 * thread). */
static void check_thread_counts(const tk_dcfg_trace *t, const dt_thread *T,
                                const tk_cfg_process *cp, const uint64_t *edge_counts,
                                tk_diag *diag)
{
    int complete = T->nchunks > 0 && t->chunks[T->first_chunk].preceding_instr_count == 0;
    uint64_t traced = 0;
    for (size_t k = 0; complete && k < T->nchunks; k++) {
        const dt_chunk *c = &t->chunks[T->first_chunk + k];
        if (k > 0)
            complete = c[-1].preceding_instr_count + c[-1].instr_count == c->preceding_instr_count;
        traced += c->instr_count;
    }
    /* a thread id beyond 32 bits has no counts in the DCFG (not those of
     * the id's low 32 bits) */
    uint32_t tix = T->thread_id > UINT32_MAX ? UINT32_MAX : (uint32_t)T->thread_id;
    if (complete) {
        /* the thread's instructions in the DCFG fit in 64 bits (tk_cfg_finish) */
        uint64_t dcfg_instrs = 0;
        for (uint32_t b = 0; b < cp->nblocks; b++)
            dcfg_instrs += tk_cfg_block_count_thread(cp, b, tix) * cp->blocks[b].num_instrs;
        complete = traced >= dcfg_instrs;
    }
    size_t over = 0, under = 0;
    for (uint32_t e = 0; e < cp->nedges; e++) {
        uint64_t want = cfg_edge_count_thread(cp, &cp->edges[e], tix);
        uint64_t got = edge_counts[e];
        if (got > want && over++ < 5)
            report_at(t, diag, T->offset, TK_SEV_ERROR,
                      "thread %llu traverses edge %u %llu time%s, but the DCFG counts %llu",
                      (unsigned long long)T->thread_id, cp->edges[e].id, (unsigned long long)got,
                      got == 1 ? "" : "s", (unsigned long long)want);
        else if (got < want)
            under++;
    }
    if (complete && under > 0)
        report_at(t, diag, T->offset, TK_SEV_WARNING,
                  "thread %llu: %zu edge(s) are traversed fewer times than the DCFG counts "
                  "(the trace covers the thread from instruction 0 without gaps)",
                  (unsigned long long)T->thread_id, under);
}

/* Decodes and checks thread th of process P (cp: its DCFG process, or NULL). */
static tk_status check_thread(check_run *r, const dt_process *P, size_t th,
                              const tk_cfg_process *cp, unsigned threads, tk_error *err)
{
    const tk_dcfg_trace *t = r->t;
    const dt_thread *T = &t->threads[th];
    r->thread = th;
    r->proc = cp;
    r->cur_chunk = SIZE_MAX;
    r->have_prev = 0;
    tk_free(r->edge_counts);
    r->edge_counts = NULL;
    if (cp && !(r->edge_counts = tk_calloc(cp->nedges ? cp->nedges : 1, sizeof *r->edge_counts)))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    opt.threads = threads;
    opt.has_pid = 1;
    opt.pid = P->pid;
    opt.has_thread = 1;
    opt.thread_id = T->thread_id;
    uint64_t total;
    tk_status st = tk_dcfg_trace_decode(t, &opt, on_edges, r, &total, r->diag, err);
    if (st != TK_OK && st != TK_ERR_CHECK) return st;
    end_chunk(r);
    if (cp) check_thread_counts(t, T, cp, r->edge_counts, r->diag);
    return TK_OK;
}

tk_status tk_dcfg_trace_check(const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned threads,
                              tk_diag *diag, tk_error *err)
{
    uint64_t errors_before = diag->errors;
    check_chunk_order(t, diag);
    tk_status st = TK_OK;
    check_run r;
    memset(&r, 0, sizeof r);
    r.t = t;
    r.cfg = cfg;
    r.diag = diag;
    for (size_t pi = 0; pi < t->nprocs && st == TK_OK; pi++) {
        const dt_process *P = &t->procs[pi];
        const tk_cfg_process *cp = cfg ? check_process(t, cfg, P, diag) : NULL;
        for (size_t th = P->first_thread; th < P->first_thread + P->nthreads && st == TK_OK; th++)
            st = check_thread(&r, P, th, cp, threads, err);
    }
    tk_free(r.edge_counts);
    if (st != TK_OK) return st;
    return diag->errors > errors_before ? TK_ERR_CHECK : TK_OK;
}
