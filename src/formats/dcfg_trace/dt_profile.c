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
#include "core/bytes.h"
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
    /* a range's partial (split_edge): ops into out; in_l: in a stretch, stack frame 0 the one
     * its call opened; fn_block: per function of the scratch profile, the block that named
     * it; blocks: the blocks the stretch named first; stopped: an edge left to the replay;
     * l_local: the stretch's call taken here (flat_edge); in_flat: outside a stretch, rows made
     * here (flat_edge); top: the function (tk_dt_stack_fn) of the top frame outside a stretch,
     * as the last edge kept as an op left it (TK_CFG_NONE: not known) */
    int split, in_l, l_local, in_flat, stopped;
    uint32_t top;
    tk_bytes_out *out;
    uint32_t *fn_block;
    size_t fn_block_cap;
    uint32_t *blocks;
    size_t nblocks, blocks_cap;
} prof_run;

static void note_block(prof_run *r, uint32_t b, uint32_t fn);

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
    if (r->split) note_block(r, b, fn);
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

static int split_edge(prof_run *r, uint32_t e);

/* at_chunk, and in a range's partial outside a stretch, the chunk as an op (OP_CHUNK) */
static void split_at_chunk(prof_run *r, size_t chunk);

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
    split_at_chunk(r, chunk);
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_cfg_find_edge(r->p, edges[i]);
        if (e == TK_CFG_NONE) return bad_edge(r, edges[i]);
        if (r->split ? split_edge(r, e) : take_edge(r, e)) return 1;
    }
    return 0;
}

/* With threads, the edges of a chunk (or a piece of it), looked up on the decoding threads
 * (dt_lookup.h), taken in the thread's order: on_chunk's steps. */
static int on_edges(void *ctx, size_t chunk, const char *data, size_t len)
{
    prof_run *r = ctx;
    split_at_chunk(r, chunk);
    size_t n = len / sizeof(uint32_t);
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_dt_lookup_item(data, i);
        if (e == DT_LOOKUP_MARK) return bad_edge(r, tk_dt_lookup_item(data, i + 1));
        if (r->split ? split_edge(r, e) : take_edge(r, e)) return 1;
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

/* A part of its own for thread th (of process P, r->p), the run set to start it. */
static tk_status start_part(prof_run *r, const dt_process *P, size_t th, tk_error *err)
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
    return TK_OK;
}

/* Thread th (of process P, r->p) as a part of its own. */
static tk_status thread_part(prof_run *r, const dt_process *P, size_t th, tk_error *err)
{
    const tk_dcfg_trace *t = r->t;
    tk_status st0 = start_part(r, P, th, err);
    if (st0 != TK_OK) return st0;
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

/* ---- one thread's chunks split into ranges (docs/mpi.md, "DCFG-Trace profiles") ------------
 * A range's partial is a sequence of ops: the edges taken while no frame that a call inside
 * the range opened is on the stack (OP_EDGE, with OP_CHUNK where the chunk changes), which
 * the replay takes on the true stack; and for each stretch above such a frame, what it did
 * (OP_STRETCH: the blocks it named first, its rows in their first order with their sums, the
 * frames still open above the stretch's frame when the range ends); then the range's error
 * (OP_ERROR, OP_DECODE_ERROR). */

enum { OP_CHUNK = 1, OP_EDGE, OP_STRETCH, OP_ERROR, OP_DECODE_ERROR };

static void note_block(prof_run *r, uint32_t b, uint32_t fn)
{
    if (fn >= r->fn_block_cap) {
        size_t cap = r->fn_block_cap ? r->fn_block_cap : 64;
        while (cap <= fn) cap *= 2;
        uint32_t *q = tk_reallocarray(r->fn_block, cap, sizeof *q);
        if (!q) {
            r->st = TK_ERR_NOMEM;
            return;
        }
        for (size_t i = r->fn_block_cap; i < cap; i++) q[i] = TK_CFG_NONE;
        r->fn_block = q;
        r->fn_block_cap = cap;
    }
    if (r->fn_block[fn] == TK_CFG_NONE) r->fn_block[fn] = b;
    if (r->nblocks == r->blocks_cap) {
        size_t cap = r->blocks_cap ? r->blocks_cap * 2 : 64;
        uint32_t *q = tk_reallocarray(r->blocks, cap, sizeof *q);
        if (!q) {
            r->st = TK_ERR_NOMEM;
            return;
        }
        r->blocks = q;
        r->blocks_cap = cap;
    }
    r->blocks[r->nblocks++] = b;
}

static void end_flat(prof_run *r);

static void split_at_chunk(prof_run *r, size_t chunk)
{
    if (r->split && !r->in_l && chunk != r->cur_chunk) {
        end_flat(r);
        tk_bytes_put_u64(r->out, OP_CHUNK);
        tk_bytes_put_u64(r->out, chunk);
    }
    at_chunk(r, chunk);
}

/* Which frames of the local stack an OP_STRETCH carries. */
enum { FRAMES_NONE, FRAMES_ABOVE, FRAMES_ALL };

/* The stretch so far as OP_STRETCH (FRAMES_ABOVE: the frames open above its own, which the
 * call kept as an op opens; FRAMES_ALL: every frame, its own too, opened by a call taken here),
 * its scratch part dropped. */
static void put_stretch(prof_run *r, int frames)
{
    tk_bytes_out *b = r->out;
    tk_bytes_put_u64(b, OP_STRETCH);
    tk_bytes_put_u64(b, r->time);
    tk_bytes_put_u64(b, r->cur_chunk);
    tk_bytes_put_u64(b, r->nblocks);
    for (size_t i = 0; i < r->nblocks; i++) tk_bytes_put_u64(b, r->blocks[i]);
    r->nblocks = 0;
    const tk_prof_part *part = r->part;
    tk_bytes_put_u64(b, part ? part->self.count : 0);
    for (size_t i = 0; part && i < part->self.count; i++) {
        const tk_prof_self *k = (const tk_prof_self *)part->self.rows + i;
        tk_bytes_put_u64(b, r->fn_block[k->fn]);
        tk_bytes_put_u64(b, k->pos.addr);
        tk_bytes_put_u64(b, part->self.values[i]);
    }
    tk_bytes_put_u64(b, part ? part->calls.count : 0);
    for (size_t i = 0; part && i < part->calls.count; i++) {
        const tk_prof_call *k = (const tk_prof_call *)part->calls.rows + i;
        tk_bytes_put_u64(b, r->fn_block[k->fn]);
        tk_bytes_put_u64(b, r->fn_block[k->callee]);
        tk_bytes_put_u64(b, k->pos.addr);
        tk_bytes_put_u64(b, k->target.addr);
        tk_bytes_put_u64(b, part->calls.values[2 * i]);
        tk_bytes_put_u64(b, part->calls.values[2 * i + 1]);
    }
    size_t first = frames == FRAMES_ALL ? 0 : 1;
    size_t n = frames != FRAMES_NONE && r->stack.depth >= first ? r->stack.depth - first : 0;
    tk_bytes_put_u64(b, n);
    for (size_t d = first; d < first + n; d++) {
        const dt_stack_frame *f = &r->stack.frames[d];
        const open_call *c = &r->calls[d];
        tk_bytes_put_u64(b, f->fn);
        tk_bytes_put_u64(b, (uint64_t)f->called);
        tk_bytes_put_u64(b, r->fn_block[c->key.fn]);
        tk_bytes_put_u64(b, r->fn_block[c->key.callee]);
        tk_bytes_put_u64(b, c->key.pos.addr);
        tk_bytes_put_u64(b, c->key.target.addr);
        tk_bytes_put_u64(b, c->start);
    }
    tk_profile_drop_parts(r->prof);
    r->part = NULL;
}

/* Leave a stretch (its frames dropped from the local stack). */
static void end_stretch(prof_run *r, int frames)
{
    put_stretch(r, frames);
    dt_step end = {0, 0, 0, 0};
    tk_dt_stack_apply(&r->stack, &end);
    r->in_l = 0;
    r->l_local = 0;
}

/* Leave a run of rows made here outside a stretch (flat_edge): a stretch without frames. */
static void end_flat(prof_run *r)
{
    if (!r->in_flat) return;
    put_stretch(r, FRAMES_NONE);
    r->in_flat = 0;
}

/* The scratch part of rows made here (a stretch's, or a flat run's). Returns 0, or 1 to stop. */
static int open_rows(prof_run *r)
{
    if (r->part) return 0;
    if (tk_profile_add_part(r->prof, &r->part, NULL) == TK_OK) return 0;
    r->st = TK_ERR_NOMEM;
    return 1;
}

/* Room for the arc of the local stack's frame 0. Returns 0, or 1 to stop. */
static int calls_room(prof_run *r)
{
    if (r->cap == 0) {
        r->calls = tk_reallocarray(NULL, 64, sizeof *r->calls);
        r->cap = r->calls ? 64 : 0;
    }
    if (r->calls) return 0;
    r->st = TK_ERR_NOMEM;
    return 1;
}

/* Outside a stretch, with the top frame's function F known (r->top: the last edge kept as an
 * op went to a block of F), an edge from a block of F that the replay would take without
 * looking below F: its source block executes in F's frame (tk_dt_stack_at_block keeps the
 * stack), then
 * - a jump or fall-through to a block of F keeps the stack too (tk_dt_stack_edge reconciles
 *   to F): all the edge does is add the block's self row and instructions;
 * - a call opens a frame whose arc is known here (its caller is F, at the source block's last
 *   instruction): the stretch it starts is taken here (l_local), and the return that closes
 *   it, if it goes back to a block of F, closes it here too (local_return).
 * Such edges and stretches are kept as their rows, in the order they first appeared, and the
 * time after them. Returns 1 when e was taken so (r->st set at an error), 0 when it must be
 * kept as an op. */
static int flat_edge(prof_run *r, const tk_cfg_edge *ed, tk_edge_kind k)
{
    const tk_cfg_process *p = r->p;
    uint64_t time;
    if (r->top == TK_CFG_NONE || !cfg_is_block(p, ed->src) || !cfg_is_block(p, ed->tgt) ||
        tk_edge_kind_is_any_return(k) || tk_dt_stack_fn(p, ed->src) != r->top ||
        tk_add_u64(r->time, p->blocks[ed->src].num_instrs, &time))
        return 0;
    int call = tk_edge_kind_is_any_call(k);
    if (!call && tk_dt_stack_fn(p, ed->tgt) != r->top) return 0;
    if (open_rows(r) || (call && calls_room(r))) return 1;
    r->in_flat = 1;
    exec_block(r, ed->src);
    r->time = time;
    if (!call || r->st != TK_OK) return 1;
    /* open_frame's arc, with F's frame below */
    open_call *c = &r->calls[0];
    memset(c, 0, sizeof *c);
    c->key.callee = block_fn(r, tk_dt_stack_fn(p, ed->tgt));
    c->key.fn = block_fn(r, r->top);
    c->key.file = r->unknown_file;
    c->key.pos.addr = tk_cfg_stored_block_last_instr_addr(p, &p->blocks[ed->src]);
    c->key.target.addr = tk_cfg_stored_block_addr(p, &p->blocks[ed->tgt]);
    c->start = r->time;
    dt_step open = {0, 1, 1, tk_dt_stack_fn(p, ed->tgt)};
    if (r->st == TK_OK && tk_dt_stack_apply(&r->stack, &open) != TK_OK) r->st = TK_ERR_NOMEM;
    r->in_flat = 0;
    r->in_l = r->l_local = 1;
    return 1;
}

/* In a stretch that flat_edge started, the return e that closes its frame, back to a block of
 * F: the replay's take_edge would execute the source block on the stack above F, then keep the
 * frames up to F's (the return's base is the stretch's frame; the reconcile to F finds F's frame
 * on top): so the same here, the stretch's frames closed and its rows kept for the flat run. */
static int local_return(prof_run *r, const tk_cfg_edge *ed)
{
    const tk_cfg_process *p = r->p;
    dt_step step;
    tk_dt_stack_at_block(&r->stack, ed->src, &step);
    if (step.open || step.keep < r->stack.depth) take_step(r, &step, TK_CFG_NONE, ed->src);
    exec_block(r, ed->src);
    if (tk_add_u64(r->time, p->blocks[ed->src].num_instrs, &r->time)) {
        r->st = TK_ERR_FORMAT;
        r->bad_instrs = 1;
        return 1;
    }
    dt_step close = {0, 0, 0, 0};
    if (r->st == TK_OK) take_step(r, &close, TK_CFG_NONE, TK_CFG_NONE);
    r->in_l = r->l_local = 0;
    r->in_flat = 1;
    return r->st != TK_OK;
}

/* Edge e in a range: outside a stretch an op (and the source block's instructions, so that
 * the stretch a call starts knows the time) unless flat_edge takes it; inside, taken on the
 * local stack but for the return that closes the stretch's frame. Returns 0, or 1 to stop. */
static int split_edge(prof_run *r, uint32_t e)
{
    const tk_cfg_process *p = r->p;
    const tk_cfg_edge *ed = &p->edges[e];
    int from_block = cfg_is_block(p, ed->src), to_block = cfg_is_block(p, ed->tgt);
    tk_edge_kind k = tk_cfg_stored_edge_kind(r->cfg, ed);
    if (r->in_l) {
        if (!(tk_edge_kind_is_any_return(k) && from_block &&
              r->stack.frames[r->stack.depth - 1].base == 0))
            return take_edge(r, e);
        if (r->l_local && to_block && tk_dt_stack_fn(p, ed->tgt) == r->top)
            return local_return(r, ed);
        end_stretch(r, r->l_local ? FRAMES_ALL : FRAMES_ABOVE);
    }
    if (flat_edge(r, ed, k)) return r->st != TK_OK;
    end_flat(r);
    r->top = to_block ? tk_dt_stack_fn(p, ed->tgt) : TK_CFG_NONE;
    tk_bytes_put_u64(r->out, OP_EDGE);
    tk_bytes_put_u64(r->out, e);
    if (from_block && tk_add_u64(r->time, p->blocks[ed->src].num_instrs, &r->time)) {
        r->stopped = 1; /* the replay finds it */
        return 1;
    }
    if (tk_edge_kind_is_any_call(k) && from_block && to_block) {
        dt_step open = {0, 1, 1, tk_dt_stack_fn(p, ed->tgt)};
        if (calls_room(r) || open_rows(r)) return 1;
        if (tk_dt_stack_apply(&r->stack, &open) != TK_OK) {
            r->st = TK_ERR_NOMEM;
            return 1;
        }
        memset(&r->calls[0], 0, sizeof r->calls[0]);
        r->in_l = 1;
    }
    return 0;
}

tk_status tk_dcfg_trace_profile_range(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                                      size_t chunk_begin, size_t chunk_end,
                                      const tk_dcfg_trace_convert_options *opt, uint8_t **data,
                                      size_t *size, tk_error *err)
{
    *data = NULL;
    *size = 0;
    const dt_process *P = NULL;
    for (size_t i = 0; i < t->nprocs; i++)
        if (th >= t->procs[i].first_thread && th < t->procs[i].first_thread + t->procs[i].nthreads)
            P = &t->procs[i];
    uint32_t pix = P ? tk_cfg_find_process(cfg, P->pid) : TK_CFG_NONE;
    if (pix == TK_CFG_NONE)
        return tk_dt_walk_fail(t, DT_WALK_PROCESS, 0, P ? P->pid : 0, P ? P->offset : -1, 0, err);
    if (chunk_begin >= chunk_end) { /* no ops (the decoder's 0, 0 is every chunk) */
        *data = tk_malloc(1);
        return *data ? TK_OK : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    prof_run r;
    memset(&r, 0, sizeof r);
    tk_bytes_out out = {NULL, 0, 0, 0};
    r.t = t;
    r.cfg = cfg;
    r.p = &cfg->processes[pix];
    r.split = 1;
    r.out = &out;
    r.threads = opt ? opt->threads : 0;
    r.tid = t->threads[th].thread_id;
    r.root = TK_PROF_NONE;
    r.cur_chunk = SIZE_MAX;
    r.top = TK_CFG_NONE;
    size_t ir;
    tk_status st = tk_profile_open(&r.prof, err);
    if (st != TK_OK) return st;
    r.fn_of_block = tk_malloc((r.p->nblocks ? r.p->nblocks : 1) * sizeof *r.fn_of_block);
    if (!r.fn_of_block || tk_profile_add_event(r.prof, "Ir", 2, &ir, NULL) != TK_OK ||
        tk_profile_intern(r.prof, "???", 3, &r.unknown_file, NULL) != TK_OK ||
        tk_dt_stack_begin(&r.stack, cfg, r.p) != TK_OK) {
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    } else {
        for (uint32_t b = 0; b < r.p->nblocks; b++) r.fn_of_block[b] = TK_PROF_NONE;
        tk_dcfg_trace_decode_options o = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        o.has_pid = 1;
        o.pid = P->pid;
        o.has_thread = 1;
        o.thread_id = r.tid;
        o.chunk_begin = chunk_begin;
        o.chunk_end = chunk_end;
        dt_lookup lk = {r.p, DT_LOOKUP_EDGES, r.threads};
        tk_error derr;
        tk_error_clear(&derr);
        st = tk_dt_decode_looked_up(t, &o, &lk, on_chunk, on_edges, &r, &derr);
        if (r.st != TK_OK) {
            if (r.part) put_stretch(&r, FRAMES_NONE);
            tk_bytes_put_u64(&out, OP_ERROR);
            tk_bytes_put_u64(&out, (uint64_t)-r.st);
            tk_bytes_put_u64(&out, r.bad_time ? 1 : 0);
            tk_bytes_put_u64(&out, (uint64_t)r.bad_instrs);
            tk_bytes_put_u64(&out, r.bad_edge);
            tk_bytes_put_u64(&out, r.cur_chunk);
        } else if (st != TK_OK && st != TK_END) {
            if (r.part) put_stretch(&r, FRAMES_NONE);
            tk_bytes_put_u64(&out, OP_DECODE_ERROR);
            tk_bytes_put(&out, &derr, sizeof derr);
        } else if (r.in_l && !r.stopped) {
            put_stretch(&r, r.l_local ? FRAMES_ALL : FRAMES_ABOVE);
        } else if (r.in_flat) {
            put_stretch(&r, FRAMES_NONE);
        }
        st = tk_bytes_take(&out, data, size, "a DCFG-Trace profile range", err);
    }
    tk_free(r.fn_of_block);
    tk_free(r.fn_block);
    tk_free(r.blocks);
    tk_free(r.calls);
    tk_dt_stack_free(&r.stack);
    tk_profile_free(r.prof);
    return st;
}

/* A varint below max (max itself excluded), else a format error. */
static int get_below(tk_bytes_in *in, uint64_t max, uint64_t *v, const char *what)
{
    if (tk_bytes_get_u64(in, v, what)) return -1;
    return *v < max ? 0 : tk_bytes_fail(in, what);
}

/* The frames of OP_STRETCH pushed on the stack. */
static int replay_frames(prof_run *r, tk_bytes_in *in)
{
    uint64_t n, v[7];
    uint32_t nb = r->p->nblocks;
    if (tk_bytes_get_u64(in, &n, "frames")) return -1;
    for (uint64_t i = 0; i < n && r->st == TK_OK; i++) {
        if (get_below(in, nb, &v[0], "a frame") || get_below(in, 2, &v[1], "called") ||
            get_below(in, nb, &v[2], "a caller") || get_below(in, nb, &v[3], "a callee") ||
            tk_bytes_get_u64(in, &v[4], "an address") ||
            tk_bytes_get_u64(in, &v[5], "an address") || tk_bytes_get_u64(in, &v[6], "a time"))
            return -1;
        size_t d = r->stack.depth;
        if (d == 0) return tk_bytes_fail(in, "frames without the stretch's");
        if (d >= r->cap) {
            size_t cap = r->cap ? r->cap * 2 : 64;
            open_call *q = tk_reallocarray(r->calls, cap, sizeof *q);
            if (!q) return tk_bytes_nomem(in);
            r->calls = q;
            r->cap = cap;
        }
        open_call *c = &r->calls[d];
        memset(c, 0, sizeof *c);
        c->key.fn = block_fn(r, (uint32_t)v[2]);
        c->key.callee = block_fn(r, (uint32_t)v[3]);
        c->key.file = r->unknown_file;
        c->key.pos.addr = v[4];
        c->key.target.addr = v[5];
        c->start = v[6];
        dt_step open = {d, 1, (int)v[1], (uint32_t)v[0]};
        if (tk_dt_stack_apply(&r->stack, &open) != TK_OK) r->st = TK_ERR_NOMEM;
    }
    return 0;
}

/* OP_STRETCH: its blocks named, its rows added in order, its frames pushed. */
static int replay_stretch(prof_run *r, tk_bytes_in *in)
{
    uint64_t n, v[6];
    uint32_t nb = r->p->nblocks;
    if (tk_bytes_get_u64(in, &r->time, "a time") ||
        get_below(in, r->t->nchunks, &v[0], "a chunk") || tk_bytes_get_u64(in, &n, "blocks"))
        return -1;
    r->cur_chunk = (size_t)v[0];
    for (uint64_t i = 0; i < n && r->st == TK_OK; i++) {
        if (get_below(in, nb, &v[0], "a block")) return -1;
        block_fn(r, (uint32_t)v[0]);
    }
    if (tk_bytes_get_u64(in, &n, "self rows")) return -1;
    for (uint64_t i = 0; i < n && r->st == TK_OK; i++) {
        if (get_below(in, nb, &v[0], "a block") || tk_bytes_get_u64(in, &v[1], "an address") ||
            tk_bytes_get_u64(in, &v[2], "a cost"))
            return -1;
        tk_prof_self key;
        memset(&key, 0, sizeof key);
        key.fn = block_fn(r, (uint32_t)v[0]);
        key.file = r->unknown_file;
        key.pos.addr = v[1];
        tk_status st =
            r->st == TK_OK ? tk_profile_add_self(r->prof, r->part, &key, &v[2], NULL) : r->st;
        if (st != TK_OK) r->st = st;
    }
    if (tk_bytes_get_u64(in, &n, "call rows")) return -1;
    for (uint64_t i = 0; i < n && r->st == TK_OK; i++) {
        if (get_below(in, nb, &v[0], "a block") || get_below(in, nb, &v[1], "a block") ||
            tk_bytes_get_u64(in, &v[2], "an address") ||
            tk_bytes_get_u64(in, &v[3], "an address") || tk_bytes_get_u64(in, &v[4], "a count") ||
            tk_bytes_get_u64(in, &v[5], "a cost"))
            return -1;
        tk_prof_call key;
        memset(&key, 0, sizeof key);
        key.fn = block_fn(r, (uint32_t)v[0]);
        key.callee = block_fn(r, (uint32_t)v[1]);
        key.file = r->unknown_file;
        key.pos.addr = v[2];
        key.target.addr = v[3];
        tk_status st =
            r->st == TK_OK ? tk_profile_add_call(r->prof, r->part, &key, v[4], &v[5], NULL) : r->st;
        if (st != TK_OK) r->st = st;
    }
    return r->st == TK_OK ? replay_frames(r, in) : 0;
}

/* One range's ops taken on r. Returns 0, 1 at an error (r->st, or *derr for a decoding
 * error: *decode set), -1 at bytes that are not such ops (in's error). */
static int replay_ops(prof_run *r, tk_bytes_in *in, tk_error *derr, int *decode)
{
    while (in->pos < in->size && r->st == TK_OK) {
        uint64_t op, v[5];
        if (tk_bytes_get_u64(in, &op, "an op")) return -1;
        if (op == OP_CHUNK) {
            if (get_below(in, r->t->nchunks, &v[0], "a chunk")) return -1;
            at_chunk(r, (size_t)v[0]);
        } else if (op == OP_EDGE) {
            if (get_below(in, r->p->nedges, &v[0], "an edge")) return -1;
            if (r->cur_chunk == SIZE_MAX) return tk_bytes_fail(in, "an edge before a chunk");
            take_edge(r, (uint32_t)v[0]);
        } else if (op == OP_STRETCH) {
            if (replay_stretch(r, in)) return -1;
        } else if (op == OP_ERROR) {
            if (get_below(in, 32, &v[0], "a status") || get_below(in, 2, &v[1], "a flag") ||
                get_below(in, 2, &v[2], "a flag") || get_below(in, UINT32_MAX, &v[3], "an id") ||
                get_below(in, r->t->nchunks, &v[4], "a chunk"))
                return -1;
            r->st = -(tk_status)v[0];
            if (r->st == TK_OK) return tk_bytes_fail(in, "an error without a status");
            r->bad_time = v[1] ? "PRECEDING_INSTR_COUNT goes back to before an open call" : NULL;
            r->bad_instrs = (int)v[2];
            r->bad_edge = (uint32_t)v[3];
            r->cur_chunk = (size_t)v[4];
        } else if (op == OP_DECODE_ERROR) {
            if (in->size - in->pos < sizeof *derr) return tk_bytes_fail(in, "an error cut short");
            memcpy(derr, in->p + in->pos, sizeof *derr);
            derr->message[sizeof derr->message - 1] = 0;
            derr->path[sizeof derr->path - 1] = 0;
            in->pos += sizeof *derr;
            *decode = 1;
            return 1;
        } else {
            return tk_bytes_fail(in, "an unknown op");
        }
    }
    return r->st == TK_OK ? 0 : 1;
}

tk_status tk_dcfg_trace_profile_replay(const tk_dcfg_trace *t, const tk_cfg *cfg, tk_profile *prof,
                                       size_t th, const uint8_t *const *parts, const size_t *sizes,
                                       size_t n, tk_error *err)
{
    size_t ir;
    tk_status st = tk_profile_add_event(prof, "Ir", 2, &ir, err);
    if (st != TK_OK) return st;
    prof_run r;
    memset(&r, 0, sizeof r);
    r.t = t;
    r.cfg = cfg;
    r.prof = prof;
    if (tk_profile_intern(prof, "???", 3, &r.unknown_file, NULL) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    const dt_process *P = NULL;
    for (size_t i = 0; i < t->nprocs; i++)
        if (th >= t->procs[i].first_thread && th < t->procs[i].first_thread + t->procs[i].nthreads)
            P = &t->procs[i];
    uint32_t pix = P ? tk_cfg_find_process(cfg, P->pid) : TK_CFG_NONE;
    if (pix == TK_CFG_NONE)
        return tk_dt_walk_fail(t, DT_WALK_PROCESS, 0, P ? P->pid : 0, P ? P->offset : -1, 0, err);
    r.p = &cfg->processes[pix];
    st = start_part(&r, P, th, err);
    tk_error derr;
    tk_error_clear(&derr);
    int decode = 0, rc = 0;
    for (size_t k = 0; st == TK_OK && k < n && rc == 0; k++) {
        tk_bytes_in in = {parts[k], 0, sizes[k], "DCFG-Trace profile range", err, TK_OK};
        rc = replay_ops(&r, &in, &derr, &decode);
        if (rc < 0) st = in.st;
    }
    if (st == TK_OK && rc == 0) {
        dt_step step;
        tk_dt_stack_end(&r.stack, &step);
        take_step(&r, &step, TK_CFG_NONE, TK_CFG_NONE);
        if (r.st == TK_OK) r.st = tk_profile_part_fill_totals(r.prof, r.part, NULL);
    }
    if (st == TK_OK && decode) {
        if (err) *err = derr;
        st = derr.code;
    } else if (st == TK_OK && r.st != TK_OK) {
        st = run_error(&r, P, th, err);
    }
    tk_free(r.fn_of_block);
    tk_free(r.calls);
    tk_dt_stack_free(&r.stack);
    return st;
}
