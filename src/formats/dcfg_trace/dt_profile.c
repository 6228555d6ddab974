/* DCFG-Trace -> profile model (for convert --to callgrind): event Ir (instructions); one part
 * per thread; self cost of each block execution (the source block of every edge, as
 * INSTR_COUNT counts them) at the block's address in the function of its routine (object =
 * image file); the thread's call stack as dt_stack.h makes it, as for the trace's events (Chrome
 * JSON, folded stacks): a frame opened by a call edge or by a jump into another routine is a
 * call arc (count, inclusive Ir until the frame closes, or until the thread's end), and the
 * thread's top-level frames are the calls of its root function "thread TID" (no cost of its
 * own), so that viewers that start their call trees at the functions nobody calls (speedscope,
 * KCachegrind) find every routine, with the totals of the other exports. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "formats/dcfg_trace/dt_internal.h"
#include "formats/dcfg_trace/dt_lookup.h"
#include "formats/dcfg_trace/dt_stack.h"
#include "model/cfg_internal.h"
#include "model/profile.h"
#include "tracekit/cfg.h"
#include "tracekit/profile.h"

typedef struct open_call {
    tk_prof_call key;
    uint64_t start; /* instruction count at the call */
} open_call;

typedef struct prof_run {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    tk_profile *prof;
    tk_prof_part *part;
    uint32_t *fn_of_block; /* profile function id per block index (TK_PROF_NONE = not yet) */
    uint32_t unknown_file;
    uint32_t root; /* the thread's root function (TK_PROF_NONE = not yet) */
    uint64_t tid;
    uint64_t time;
    dt_stack stack;
    open_call *calls; /* per frame of the stack: its arc */
    size_t cap;
    size_t cur_chunk;
    tk_status st;
    uint32_t bad_edge;
    const char *bad_time; /* why the instruction count cannot go on (TK_ERR_FORMAT) */
    int bad_instrs; /* TK_ERR_FORMAT: the instruction count passes 2^64 - 1 */
    unsigned threads; /* decoding threads (dt_lookup.h) */
} prof_run;

static uint32_t block_fn(prof_run *r, uint32_t b)
{
    if (r->fn_of_block[b] != TK_PROF_NONE) return r->fn_of_block[b];
    const tk_cfg_process *p = r->p;
    uint32_t entry = b;
    uint32_t rt = p->blocks[b].routine;
    if (rt != TK_CFG_NONE && rt < p->nroutines) entry = p->routines[rt].entry;
    char name[512];
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(r->cfg, p, entry, &off);
    if (sym && off == 0)
        snprintf(name, sizeof name, "%s", sym);
    else if (sym)
        snprintf(name, sizeof name, "%s+0x%llx", sym, (unsigned long long)off);
    else
        snprintf(name, sizeof name, "block %u", p->blocks[entry].id);
    const char *obj = tk_cfg_file_name(r->cfg, p->images[tk_cfg_block_image(p, b)].file_name_id);
    if (!obj || !*obj) obj = "???";
    uint32_t sname, sobj, fn;
    if (tk_profile_intern(r->prof, name, strlen(name), &sname, NULL) != TK_OK ||
        tk_profile_intern(r->prof, obj, strlen(obj), &sobj, NULL) != TK_OK ||
        tk_profile_function(r->prof, sobj, r->unknown_file, sname, &fn, NULL) != TK_OK) {
        r->st = TK_ERR_NOMEM;
        return TK_PROF_NONE;
    }
    r->fn_of_block[b] = fn;
    return fn;
}

static void exec_block(prof_run *r, uint32_t b)
{
    uint32_t fn = block_fn(r, b);
    if (fn == TK_PROF_NONE) return;
    tk_prof_self key;
    memset(&key, 0, sizeof key);
    key.fn = fn;
    key.file = r->unknown_file;
    key.pos.addr = tk_cfg_stored_block_addr(r->p, &r->p->blocks[b]);
    uint64_t cost = r->p->blocks[b].num_instrs;
    tk_status st = tk_profile_add_self(r->prof, r->part, &key, &cost, NULL);
    if (st != TK_OK) r->st = st; /* TK_ERR_NOMEM, or TK_ERR_LIMIT: a cost beyond 64 bits */
}

static void close_call(prof_run *r, const open_call *c)
{
    if (r->time < c->start) {
        /* a later chunk starts before the call (check reports it) */
        r->st = TK_ERR_FORMAT;
        r->bad_time = "PRECEDING_INSTR_COUNT goes back to before an open call";
        return;
    }
    uint64_t incl = r->time - c->start;
    tk_status st = tk_profile_add_call(r->prof, r->part, &c->key, 1, &incl, NULL);
    if (st != TK_OK) r->st = st;
}

/* The thread's root function "thread TID" (in the object of its first callee). */
static uint32_t root_fn(prof_run *r, uint32_t callee)
{
    if (r->root != TK_PROF_NONE) return r->root;
    char name[48];
    uint32_t sname;
    snprintf(name, sizeof name, "thread %llu", (unsigned long long)r->tid);
    if (tk_profile_intern(r->prof, name, strlen(name), &sname, NULL) != TK_OK ||
        tk_profile_function(r->prof, tk_profile_function_at(r->prof, callee)->object,
                            r->unknown_file, sname, &r->root, NULL) != TK_OK) {
        r->st = TK_ERR_NOMEM;
        r->root = TK_PROF_NONE;
    }
    return r->root;
}

/* The arc of the frame that step opens (from: the block whose edge opened it, or
 * TK_CFG_NONE): its caller is the frame below, or the thread's root. */
static void open_frame(prof_run *r, const dt_step *step, uint32_t from, uint32_t to)
{
    const tk_cfg_process *p = r->p;
    size_t d = step->keep; /* the frames above close first */
    if (d >= r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        open_call *q = tk_reallocarray(r->calls, cap, sizeof *q);
        if (!q) {
            r->st = TK_ERR_NOMEM;
            return;
        }
        r->calls = q;
        r->cap = cap;
    }
    open_call *c = &r->calls[d];
    memset(c, 0, sizeof *c);
    c->key.callee = block_fn(r, step->fn);
    if (c->key.callee == TK_PROF_NONE) return;
    c->key.fn = d ? block_fn(r, r->stack.frames[d - 1].fn) : root_fn(r, c->key.callee);
    c->key.file = r->unknown_file;
    if (d && from != TK_CFG_NONE && tk_dt_stack_fn(p, from) == r->stack.frames[d - 1].fn)
        c->key.pos.addr = tk_cfg_stored_block_last_instr_addr(p, &p->blocks[from]);
    c->key.target.addr = tk_cfg_stored_block_addr(p, &p->blocks[to]);
    c->start = r->time;
}

/* Make step: the arcs of the frames it closes, then the one it opens. */
static void take_step(prof_run *r, const dt_step *step, uint32_t from, uint32_t to)
{
    for (size_t i = r->stack.depth; i > step->keep && r->st == TK_OK; i--)
        close_call(r, &r->calls[i - 1]);
    if (r->st != TK_OK) return;
    if (step->open) open_frame(r, step, from, to);
    if (r->st == TK_OK && tk_dt_stack_apply(&r->stack, step) != TK_OK) r->st = TK_ERR_NOMEM;
}

/* The thread's next chunk (or piece of it). */
static inline void at_chunk(prof_run *r, size_t chunk)
{
    if (chunk != r->cur_chunk) {
        r->cur_chunk = chunk;
        r->time = r->t->chunks[chunk].preceding_instr_count;
    }
}

/* Edge e (its index in the process) taken. Returns 0, or 1 to stop (r->st set). */
static inline int take_edge(prof_run *r, uint32_t e)
{
    const tk_cfg_process *p = r->p;
    const tk_cfg_edge *ed = &p->edges[e];
    dt_step step;
    /* the source block of every edge executes once (INSTR_COUNT's rule), in a frame of its
     * function */
    if (cfg_is_block(p, ed->src)) {
        tk_dt_stack_at_block(&r->stack, ed->src, &step);
        if (step.open || step.keep < r->stack.depth) take_step(r, &step, TK_CFG_NONE, ed->src);
        exec_block(r, ed->src);
        if (tk_add_u64(r->time, p->blocks[ed->src].num_instrs, &r->time)) {
            r->st = TK_ERR_FORMAT;
            r->bad_instrs = 1;
            return 1;
        }
    }
    tk_dt_stack_edge(&r->stack, ed, &step);
    if (r->st == TK_OK && (step.open || step.keep < r->stack.depth))
        take_step(r, &step, cfg_is_block(p, ed->src) ? ed->src : TK_CFG_NONE, ed->tgt);
    return r->st != TK_OK;
}

static inline int bad_edge(prof_run *r, uint32_t id)
{
    r->bad_edge = id;
    r->st = TK_ERR_FORMAT;
    return 1;
}

/* One thread: a chunk's edges, looked up and taken in order (the reference that on_edges
 * follows with threads). */
static int on_chunk(void *ctx, size_t chunk, const uint32_t *edges, size_t n)
{
    prof_run *r = ctx;
    at_chunk(r, chunk);
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_cfg_find_edge(r->p, edges[i]);
        if (e == TK_CFG_NONE) return bad_edge(r, edges[i]);
        if (take_edge(r, e)) return 1;
    }
    return 0;
}

/* With threads, the edges of a chunk (or a piece of it), looked up on the decoding threads
 * (dt_lookup.h), taken in the thread's order: on_chunk's steps. */
static int on_edges(void *ctx, size_t chunk, const char *data, size_t len)
{
    prof_run *r = ctx;
    at_chunk(r, chunk);
    size_t n = len / sizeof(uint32_t);
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_dt_lookup_item(data, i);
        if (e == DT_LOOKUP_MARK) return bad_edge(r, tk_dt_lookup_item(data, i + 1));
        if (take_edge(r, e)) return 1;
    }
    return 0;
}

/* The error of a thread whose run stopped (r->st), located. */
static tk_status run_error(const prof_run *r, const dt_process *P, size_t th, tk_error *err)
{
    const tk_dcfg_trace *t = r->t;
    if (r->st == TK_ERR_FORMAT && r->bad_time)
        return tk_dt_error_at(t, err, TK_ERR_FORMAT, t->chunks[r->cur_chunk].row_offset, "%s",
                              r->bad_time);
    if (r->st == TK_ERR_FORMAT)
        return tk_dt_walk_fail(t, r->bad_instrs ? DT_WALK_INSTRS : DT_WALK_EDGE, r->cur_chunk,
                               P->pid, P->offset, r->bad_edge, err);
    if (r->st == TK_ERR_LIMIT)
        return tk_error_set(
            err, TK_ERR_LIMIT, "process %llu thread %llu: a cost passes 2^64 - 1 instructions",
            (unsigned long long)P->pid, (unsigned long long)t->threads[th].thread_id);
    return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
}

/* Thread th (of process P, r->p) as a part of its own. */
static tk_status thread_part(prof_run *r, const dt_process *P, size_t th, tk_error *err)
{
    const tk_dcfg_trace *t = r->t;
    tk_free(r->fn_of_block);
    r->fn_of_block = tk_malloc((r->p->nblocks ? r->p->nblocks : 1) * sizeof *r->fn_of_block);
    if (!r->fn_of_block || tk_profile_add_part(r->prof, &r->part, NULL) != TK_OK ||
        tk_dt_stack_begin(&r->stack, r->cfg, r->p) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (uint32_t b = 0; b < r->p->nblocks; b++) r->fn_of_block[b] = TK_PROF_NONE;
    r->part->positions = TK_POS_INSTR;
    r->part->has_pid = 1;
    r->part->pid = P->pid;
    r->part->has_thread = 1;
    r->part->thread = r->tid = t->threads[th].thread_id;
    r->part->has_number = 1;
    r->part->number = th + 1;
    r->root = TK_PROF_NONE;
    r->cur_chunk = SIZE_MAX;
    r->st = TK_OK;
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    opt.has_pid = 1;
    opt.pid = P->pid;
    opt.has_thread = 1;
    opt.thread_id = t->threads[th].thread_id;
    dt_lookup lk = {r->p, DT_LOOKUP_EDGES, r->threads};
    tk_status st = tk_dt_decode_looked_up(t, &opt, &lk, on_chunk, on_edges, r, err);
    if (st == TK_OK) {
        /* frames still open end with the thread */
        dt_step step;
        tk_dt_stack_end(&r->stack, &step);
        take_step(r, &step, TK_CFG_NONE, TK_CFG_NONE);
        if (r->st == TK_OK) r->st = tk_profile_part_fill_totals(r->prof, r->part, NULL);
    }
    if (st == TK_END || r->st != TK_OK) return run_error(r, P, th, err);
    return st;
}

tk_status tk_dcfg_trace_to_profile(const tk_dcfg_trace *t, const tk_cfg *cfg, tk_profile *prof,
                                   const tk_dcfg_trace_convert_options *opt, tk_error *err)
{
    size_t ir;
    tk_status st = tk_profile_add_event(prof, "Ir", 2, &ir, err);
    if (st != TK_OK) return st;
    prof_run r;
    memset(&r, 0, sizeof r);
    r.t = t;
    r.cfg = cfg;
    r.prof = prof;
    r.threads = opt ? opt->threads : 0;
    if (tk_profile_intern(prof, "???", 3, &r.unknown_file, NULL) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t end =
        opt && opt->thread_end && opt->thread_end < t->nthreads ? opt->thread_end : t->nthreads;
    for (size_t th = opt ? opt->thread_begin : 0; th < end && st == TK_OK; th++) {
        const dt_process *P = NULL;
        for (size_t i = 0; i < t->nprocs; i++)
            if (th >= t->procs[i].first_thread &&
                th < t->procs[i].first_thread + t->procs[i].nthreads)
                P = &t->procs[i];
        uint32_t pix = P ? tk_cfg_find_process(cfg, P->pid) : TK_CFG_NONE;
        if (pix == TK_CFG_NONE) {
            st = tk_dt_walk_fail(t, DT_WALK_PROCESS, 0, P ? P->pid : 0, P ? P->offset : -1, 0, err);
            break;
        }
        r.p = &cfg->processes[pix];
        st = thread_part(&r, P, th, err);
    }
    tk_free(r.fn_of_block);
    tk_free(r.calls);
    tk_dt_stack_free(&r.stack);
    return st;
}
