/* The folded stacks of a DCFG-Trace made of each thread's chunks split into ranges
 * (tracekit/dcfg_trace_folded.h; docs/mpi.md, "DCFG-Trace folded stacks").
 *
 * The reference is tk_export_folded over the trace's events (dt_events.c): the thread's call
 * stack as dt_stack.h makes it, each frame's open an enter and its close an exit at the
 * thread's instruction count, tk_callstacks interning the call paths (a node per function
 * called from a path, made at its first enter, or with per_thread a thread's root, made at
 * its first event) and adding each frame's self time to its path when it closes (duration
 * end - start, 0 when the count went back; self the duration less its closed callees', 0 when
 * they took more). Every exit closes the innermost frame, so the stacks are dt_stack's.
 *
 * A run here is that machine, over dt_stack with per frame its start, the durations of its
 * closed callees and its path node, and over a trie of the paths in the order they were made.
 * On a thread's true stack (global) it checks what tk_callstacks refuses at an enter, in its
 * order: a stack deeper than TK_STACK_MAX_DEPTH, a function id over 2^31 - 1, a path past
 * TK_PATH_MAX_NODES. In a range (split) the edges taken while no frame that a call in the
 * range opened is on the stack are ops for the replay (OP_EDGE, OP_CHUNK); a call edge there
 * opens a stretch, run on a stack of its own whose frame 0 is the call's frame and on a trie
 * of its own whose root stands for that frame's caller: above frame 0 every step is the
 * range's own (dt_profile.c says why), and every time is the thread's instruction count, so
 * each frame closed in the stretch has its true self time. The return that closes frame 0
 * ends the stretch (OP_STRETCH: its nodes, frame 0's closed callees' time, the frames open
 * above frame 0, which the return closes on the true stack), as the range's end does. The
 * replay grafts a stretch's nodes at the path of frame 0's caller in their order, checking
 * each as the enter that made it (a path is entered at one depth only, and its first enter in
 * the stretch made it, so the first node that fails is the serial run's first enter that
 * fails), adds the weights (wrapping, as tk_export_folded's sums), adds frame 0's callees'
 * time to its frame and pushes the open frames. Outside a stretch, once an edge kept as an op
 * went to a block of a function F (F's frame then the true stack's top), the edges from F's
 * blocks that jump within F or call (and the stretches of those calls whose return comes back
 * to F) need nothing below F's frame: they are taken here as a flat run (flat_edge,
 * local_return), kept as one OP_FLAT that the replay grafts at F's path, its callees' time
 * added to F's frame. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/folded_partial_impl.h"
#include "core/alloc.h"
#include "core/bytes.h"
#include "core/hash.h"
#include "core/num.h"
#include "formats/dcfg_trace/dt_internal.h"
#include "formats/dcfg_trace/dt_lookup.h"
#include "formats/dcfg_trace/dt_stack.h"
#include "model/cfg_internal.h"
#include "model/events.h"
#include "tracekit/dcfg_trace_folded.h"

/* Call paths in the order they were made (node 0 the root); index: (parent << 32 | is_thread
 * << 31 | func) -> node, tk_callstacks' key. A thread root's func is its tid, pid its pid. */
typedef struct trie {
    tk_fp_node *nodes;
    uint32_t n, cap;
    tk_hmap index;
    /* a direct-mapped cache in front of index, as tk_callstacks has (TK_PATH_MEMO_BITS): an
     * entry holds while its gen is the trie's (a reset moves gen on) */
    struct memo {
        uint64_t key;
        uint32_t node, gen;
    } * memo;
    uint32_t gen;
} trie;

/* Per frame of the stack: its enter's time, its closed callees' durations, its path. */
typedef struct fframe {
    uint64_t start, child;
    uint32_t node;
} fframe;

/* Why a run stopped. */
enum { WHY_OK, WHY_EDGE, WHY_INSTRS, WHY_DEPTH, WHY_FUNC, WHY_PATHS, WHY_THREAD, WHY_NOMEM };
#define WHY_COUNT 8

enum { OP_CHUNK = 1, OP_EDGE, OP_STRETCH, OP_ERROR, OP_DECODE_ERROR, OP_FLAT };

/* Which frames of the local stack a stretch carries. */
enum { FRAMES_NONE, FRAMES_ABOVE, FRAMES_ALL };

typedef struct fold_run {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    uint64_t pid, tid;
    size_t th;
    dt_stack stack;
    fframe *fr;
    size_t frcap;
    trie *tr;
    uint32_t root; /* the path of the bottom frame's caller */
    int global; /* the thread's true stack (tk_callstacks' limits) */
    int per_thread, seen; /* seen: the thread had its first enter (its root made) */
    uint64_t time;
    size_t cur_chunk;
    int why;
    uint64_t what; /* WHY_EDGE: the edge id; WHY_FUNC: the function id */
    unsigned threads;
    /* a range: in_l, in a stretch (on stack and local); in_flat, in a flat run (flat_edge:
     * local's root stands for the top frame's path, F's, not for a caller of stack's frame 0);
     * l_local, in a stretch a flat run's call opened (its frame 0 not on the true stack);
     * top, the function (tk_dt_stack_fn) of the true stack's top frame as the last edge kept
     * as an op left it (TK_CFG_NONE: not known); flat_child, the durations of the local
     * stack's frames 0 closed in the flat run (F's closed callees) */
    int split, in_l, in_flat, l_local;
    uint32_t top;
    uint64_t flat_child;
    tk_bytes_out *out;
    trie local;
} fold_run;

struct tk_dcfg_trace_folded {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    int per_thread, failed;
    trie tr;
    fold_run r; /* its stack and frames kept from thread to thread */
};

static int stop(fold_run *r, int why, uint64_t what)
{
    r->why = why;
    r->what = what;
    return 1;
}

static int trie_init(trie *tr)
{
    memset(tr, 0, sizeof *tr);
    tr->nodes = tk_calloc(1024, sizeof *tr->nodes);
    tr->memo = tk_calloc((size_t)1 << TK_PATH_MEMO_BITS, sizeof *tr->memo);
    if (!tr->nodes || !tr->memo) {
        tk_free(tr->nodes);
        tk_free(tr->memo);
        return -1;
    }
    tr->gen = 1;
    tr->cap = 1024;
    tr->n = 1;
    return 0;
}

static void trie_free(trie *tr)
{
    tk_free(tr->nodes);
    tk_free(tr->memo);
    tk_hmap_free(&tr->index);
    memset(tr, 0, sizeof *tr);
}

/* Back to the root alone (a large index freed: no large table to clear at each stretch). */
static void trie_reset(trie *tr)
{
    tr->n = 1;
    tr->nodes[0].w = 0;
    if (++tr->gen == 0) { /* wrapped: every entry stale again */
        memset(tr->memo, 0, sizeof *tr->memo << TK_PATH_MEMO_BITS);
        tr->gen = 1;
    }
    if (tr->index.len > 256)
        tk_hmap_free(&tr->index);
    else
        tk_hmap_clear(&tr->index);
}

/* The node of func (a thread's root: is_thread, func its index) under parent, made when new.
 * Returns WHY_OK, WHY_PATHS (TK_PATH_MAX_NODES of them already) or WHY_NOMEM. */
static int trie_child(trie *tr, uint32_t parent, uint64_t func, int is_thread, uint32_t *out)
{
    uint64_t key = (uint64_t)parent << 32 | (uint64_t)is_thread << 31 | func;
    struct memo *m = &tr->memo[tk_path_memo_slot(key)];
    if (m->gen == tr->gen && m->key == key) {
        *out = m->node;
        return WHY_OK;
    }
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&tr->index, key, 0, &inserted);
    if (!slot) return WHY_NOMEM;
    if (!inserted) {
        *out = (uint32_t)*slot;
        *m = (struct memo){key, *out, tr->gen};
        return WHY_OK;
    }
    if (tr->n >= TK_PATH_MAX_NODES) return WHY_PATHS;
    if (tr->n == tr->cap) {
        tk_fp_node *v = tk_reallocarray(tr->nodes, (size_t)tr->cap * 2, sizeof *v);
        if (!v) return WHY_NOMEM;
        tr->nodes = v;
        tr->cap *= 2;
    }
    tk_fp_node *x = &tr->nodes[tr->n];
    memset(x, 0, sizeof *x);
    x->parent = parent;
    x->is_thread = (uint8_t)is_thread;
    x->func = func;
    *out = tr->n;
    *slot = tr->n++;
    *m = (struct memo){key, *out, tr->gen};
    return WHY_OK;
}

/* Frame i closes at r->time: its self time to its path, its duration to its caller's. */
static void close_frame(fold_run *r, size_t i)
{
    const fframe *f = &r->fr[i];
    uint64_t d = r->time >= f->start ? r->time - f->start : 0;
    r->tr->nodes[f->node].w += d > f->child ? d - f->child : 0;
    if (i > 0)
        r->fr[i - 1].child += d;
    else
        r->flat_child += d; /* a flat run's call closed: F's callee (else unused) */
}

/* A frame of function fn (a block index) opens at depth d: tk_callstacks_feed's enter. */
static int open_frame(fold_run *r, size_t d, uint32_t fn)
{
    uint64_t id = r->p->blocks[fn].id;
    int why;
    if (r->global) {
        if (!r->seen) {
            r->seen = 1;
            if (r->per_thread) {
                if (trie_child(r->tr, 0, r->th, 1, &r->root) != WHY_OK)
                    return stop(r, WHY_THREAD, 0);
                r->tr->nodes[r->root].func = r->tid;
                r->tr->nodes[r->root].pid = (int64_t)r->pid;
            }
        }
        if (d == TK_STACK_MAX_DEPTH) return stop(r, WHY_DEPTH, 0);
        if (id > UINT32_MAX >> 1) return stop(r, WHY_FUNC, id);
    }
    if (d >= r->frcap) {
        size_t cap = r->frcap ? r->frcap * 2 : 64;
        fframe *q = tk_reallocarray(r->fr, cap, sizeof *q);
        if (!q) return stop(r, WHY_NOMEM, 0);
        r->fr = q;
        r->frcap = cap;
    }
    uint32_t node;
    if ((why = trie_child(r->tr, d ? r->fr[d - 1].node : r->root, id, 0, &node)) != WHY_OK)
        return stop(r, why, 0);
    r->fr[d] = (fframe){r->time, 0, node};
    return 0;
}

/* Make step: the frames it closes, then the one it opens. Returns 0, or 1 stopped. */
static int take_step(fold_run *r, const dt_step *step)
{
    for (size_t i = r->stack.depth; i > step->keep; i--) close_frame(r, i - 1);
    if (step->open && open_frame(r, step->keep, step->fn)) return 1;
    if (tk_dt_stack_apply(&r->stack, step) != TK_OK) return stop(r, WHY_NOMEM, 0);
    return 0;
}

/* Edge e (its index in the process) taken, as dt_events.c's edge_steps. 0, or 1 stopped. An
 * instruction count that overflows stops it before the step to its source block: edge_steps
 * fails there with that step's events queued, not yet fed to the stacks, which would check
 * them. */
static int take_edge(fold_run *r, uint32_t e)
{
    const tk_cfg_process *p = r->p;
    const tk_cfg_edge *ed = &p->edges[e];
    dt_step step;
    if (cfg_is_block(p, ed->src)) {
        uint64_t after;
        if (tk_add_u64(r->time, p->blocks[ed->src].num_instrs, &after))
            return stop(r, WHY_INSTRS, 0);
        tk_dt_stack_at_block(&r->stack, ed->src, &step);
        if ((step.open || step.keep < r->stack.depth) && take_step(r, &step)) return 1;
        r->time = after;
    }
    tk_dt_stack_edge(&r->stack, ed, &step);
    return take_step(r, &step);
}

static void at_chunk(fold_run *r, size_t chunk)
{
    if (chunk != r->cur_chunk) {
        r->cur_chunk = chunk;
        r->time = r->t->chunks[chunk].preceding_instr_count;
    }
}

/* ---- a range ----------------------------------------------------------------------------- */

/* The stretch or the flat run so far as OP_STRETCH or OP_FLAT (FRAMES_ABOVE: the frames open
 * above its frame 0, which the call kept as an op opens; FRAMES_ALL: every frame of the local
 * stack, frame 0 too, opened by a flat run's call), then left: its stack and its trie
 * emptied. */
static void put_stretch(fold_run *r, int frames)
{
    tk_bytes_out *b = r->out;
    const trie *tr = &r->local;
    int flat = r->in_flat || r->l_local;
    tk_bytes_put_u64(b, flat ? OP_FLAT : OP_STRETCH);
    tk_bytes_put_u64(b, r->time);
    tk_bytes_put_u64(b, r->cur_chunk);
    tk_bytes_put_u64(b, tr->n - 1);
    for (uint32_t k = 1; k < tr->n; k++) {
        tk_bytes_put_u64(b, tr->nodes[k].parent);
        tk_bytes_put_u64(b, tr->nodes[k].func);
        tk_bytes_put_u64(b, tr->nodes[k].w);
    }
    /* the callees' time of the true stack's top frame: F's, or the stretch's frame 0's */
    tk_bytes_put_u64(b, flat ? r->flat_child : r->stack.depth ? r->fr[0].child : 0);
    size_t first = frames == FRAMES_ALL ? 0 : 1;
    size_t n = frames != FRAMES_NONE && r->stack.depth >= first ? r->stack.depth - first : 0;
    tk_bytes_put_u64(b, n);
    for (size_t d = first; d < first + n; d++) {
        const dt_stack_frame *f = &r->stack.frames[d];
        tk_bytes_put_u64(b, f->fn);
        tk_bytes_put_u64(b, (uint64_t)f->called);
        tk_bytes_put_u64(b, r->fr[d].start);
        tk_bytes_put_u64(b, r->fr[d].child);
        tk_bytes_put_u64(b, r->fr[d].node);
    }
    dt_step end = {0, 0, 0, 0};
    tk_dt_stack_apply(&r->stack, &end);
    trie_reset(&r->local);
    r->in_l = r->in_flat = r->l_local = 0;
    r->flat_child = 0;
}

/* A chunk's start: its time (an op outside stretches and flat runs, which carry their end's
 * time and chunk). */
static void split_at_chunk(fold_run *r, size_t chunk)
{
    if (r->split && !r->in_l && !r->in_flat && chunk != r->cur_chunk) {
        tk_bytes_put_u64(r->out, OP_CHUNK);
        tk_bytes_put_u64(r->out, chunk);
    }
    at_chunk(r, chunk);
}

/* Outside a stretch, with the true stack's top function F known (r->top: the last edge kept
 * as an op went to a block of F, and tk_dt_stack_edge leaves the target's function on top),
 * an edge from a block of F that the replay would take without looking below F's frame: its
 * source block is F's top frame's (tk_dt_stack_at_block keeps the stack) and counts its
 * instructions, then
 * - a jump or fall-through to a block of F keeps the stack too (the reconcile finds F on
 *   top): no frame opens or closes, so no event and no weight; only the time moves on, which
 *   F's self time at its close (on the true stack) takes from the flat run's end;
 * - a call opens a frame whose path is known here (a callee of F's path): the stretch it
 *   starts is taken here (l_local, its frame 0 the call's, local's root F's path), and the
 *   return that closes it, if it goes back to a block of F, closes it here too
 *   (local_return), its duration one of F's closed callees' (flat_child).
 * Such edges and stretches are kept as one OP_FLAT: the paths made under F's in the order they
 * were first entered, with their self times, F's callees' time, the time and chunk after them
 * and, when the range ends inside such a call, every frame from the call's up. Returns 1
 * when e was taken so (r->why set at an error), 0 when it must be kept as an op. */
static int flat_edge(fold_run *r, const tk_cfg_edge *ed, tk_edge_kind k)
{
    const tk_cfg_process *p = r->p;
    uint64_t time;
    if (r->top == TK_CFG_NONE || !cfg_is_block(p, ed->src) || !cfg_is_block(p, ed->tgt) ||
        tk_edge_kind_is_any_return(k) || tk_dt_stack_fn(p, ed->src) != r->top ||
        tk_add_u64(r->time, p->blocks[ed->src].num_instrs, &time))
        return 0;
    int call = tk_edge_kind_is_any_call(k);
    if (!call && tk_dt_stack_fn(p, ed->tgt) != r->top) return 0;
    r->in_flat = 1;
    r->time = time;
    if (!call) return 1;
    /* tk_dt_stack_edge's call on the local stack: frame 0 under local's root, F's path */
    dt_step open = {0, 1, 1, tk_dt_stack_fn(p, ed->tgt)};
    r->in_l = r->l_local = 1;
    take_step(r, &open);
    return 1;
}

/* In a stretch that flat_edge started, the return ed that closes its frame 0, back to a block
 * of F: the replay's take_edge would take the step before the source block on the stack above
 * F (its top chain's base is frame 0), count the block, then close the frames down to F's
 * (the return's keep is frame 0's depth; the reconcile finds F on top): so the same here,
 * every local frame closing (frame 0's duration to flat_child), the flat run going on.
 * Returns 0, or 1 to stop. */
static int local_return(fold_run *r, const tk_cfg_edge *ed, uint64_t after)
{
    dt_step step;
    tk_dt_stack_at_block(&r->stack, ed->src, &step);
    if ((step.open || step.keep < r->stack.depth) && take_step(r, &step)) return 1;
    r->time = after;
    dt_step close = {0, 0, 0, 0};
    if (take_step(r, &close)) return 1;
    r->in_l = r->l_local = 0;
    return 0;
}

/* Edge e in a range: in a stretch taken on its stack, but for the return that closes its
 * frame 0 (unless local_return takes it); else an op (and its source block's instructions
 * counted), a call opening a stretch, unless flat_edge takes it. Returns 0, or 1 to stop. */
static int split_edge(fold_run *r, uint32_t e)
{
    const tk_cfg_process *p = r->p;
    const tk_cfg_edge *ed = &p->edges[e];
    /* the top chain's base above frame 0: no return closes frame 0 (the kind not read) */
    if (r->in_l && r->stack.frames[r->stack.depth - 1].base != 0) return take_edge(r, e);
    int from_block = cfg_is_block(p, ed->src), to_block = cfg_is_block(p, ed->tgt);
    tk_edge_kind k = tk_cfg_stored_edge_kind(r->cfg, ed);
    if (r->in_l) {
        if (!(tk_edge_kind_is_any_return(k) && from_block)) return take_edge(r, e);
        uint64_t after;
        if (r->l_local && to_block && tk_dt_stack_fn(p, ed->tgt) == r->top &&
            !tk_add_u64(r->time, p->blocks[ed->src].num_instrs, &after))
            return local_return(r, ed, after);
        put_stretch(r, r->l_local ? FRAMES_ALL : FRAMES_ABOVE);
    }
    if (flat_edge(r, ed, k)) return r->why != WHY_OK;
    if (r->in_flat) put_stretch(r, FRAMES_NONE);
    r->top = to_block ? tk_dt_stack_fn(p, ed->tgt) : TK_CFG_NONE;
    tk_bytes_put_u64(r->out, OP_EDGE);
    tk_bytes_put_u64(r->out, e);
    if (from_block && tk_add_u64(r->time, p->blocks[ed->src].num_instrs, &r->time))
        return stop(r, WHY_OK, 0); /* the replay finds it */
    if (tk_edge_kind_is_any_call(k) && from_block && to_block) {
        dt_step open = {0, 1, 1, tk_dt_stack_fn(p, ed->tgt)};
        r->in_l = 1;
        return take_step(r, &open);
    }
    return 0;
}

static inline int bad_edge(fold_run *r, uint32_t id) { return stop(r, WHY_EDGE, id); }

/* One decoding thread: a chunk's edges, looked up and taken in order. */
static int on_chunk(void *ctx, size_t chunk, const uint32_t *edges, size_t n)
{
    fold_run *r = ctx;
    split_at_chunk(r, chunk);
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_cfg_find_edge(r->p, edges[i]);
        if (e == TK_CFG_NONE) return bad_edge(r, edges[i]);
        if (split_edge(r, e)) return 1;
    }
    return 0;
}

/* With threads, the edges of a chunk looked up on the decoding threads (dt_lookup.h). */
static int on_edges(void *ctx, size_t chunk, const char *data, size_t len)
{
    fold_run *r = ctx;
    split_at_chunk(r, chunk);
    size_t n = len / sizeof(uint32_t);
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_dt_lookup_item(data, i);
        if (e == DT_LOOKUP_MARK) return bad_edge(r, tk_dt_lookup_item(data, i + 1));
        if (split_edge(r, e)) return 1;
    }
    return 0;
}

/* The process of thread th: its index in t->procs' P and in the DCFG (TK_CFG_NONE: none). */
static uint32_t thread_process(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                               const dt_process **P)
{
    *P = NULL;
    for (size_t i = 0; i < t->nprocs; i++)
        if (th >= t->procs[i].first_thread && th < t->procs[i].first_thread + t->procs[i].nthreads)
            *P = &t->procs[i];
    return tk_cfg_find_process(cfg, *P ? (*P)->pid : 0);
}

static tk_status process_error(const tk_dcfg_trace *t, const dt_process *P, tk_error *err)
{
    return tk_dt_walk_fail(t, DT_WALK_PROCESS, 0, P ? P->pid : 0, P ? P->offset : -1, 0, err);
}

/* The range's chunks decoded into r's ops, then its end (the open stretch, or the error). */
static tk_status range_ops(fold_run *r, const dt_process *P, size_t chunk_begin, size_t chunk_end)
{
    tk_dcfg_trace_decode_options o = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    o.has_pid = 1;
    o.pid = P->pid;
    o.has_thread = 1;
    o.thread_id = r->tid;
    o.chunk_begin = chunk_begin;
    o.chunk_end = chunk_end;
    o.max_chunk_edges = SIZE_MAX; /* a chunk whole, as the events read it */
    dt_lookup lk = {r->p, DT_LOOKUP_EDGES, r->threads};
    tk_error derr;
    tk_error_clear(&derr);
    tk_status st = tk_dt_decode_looked_up(r->t, &o, &lk, on_chunk, on_edges, r, &derr);
    if (r->why == WHY_NOMEM) return TK_ERR_NOMEM;
    if (r->why != WHY_OK) {
        if (r->in_l || r->in_flat) put_stretch(r, FRAMES_NONE);
        tk_bytes_put_u64(r->out, OP_ERROR);
        tk_bytes_put_u64(r->out, (uint64_t)r->why);
        tk_bytes_put_u64(r->out, r->what);
        tk_bytes_put_u64(r->out, r->cur_chunk);
    } else if (st != TK_OK && st != TK_END) {
        if (st == TK_ERR_NOMEM) return st;
        if (r->in_l || r->in_flat) put_stretch(r, FRAMES_NONE);
        tk_bytes_put_u64(r->out, OP_DECODE_ERROR);
        tk_bytes_put(r->out, &derr, sizeof derr);
    } else if (r->in_l && st == TK_OK) {
        put_stretch(r, r->l_local ? FRAMES_ALL : FRAMES_ABOVE);
    } else if (r->in_flat && st == TK_OK) {
        put_stretch(r, FRAMES_NONE);
    }
    return TK_OK;
}

tk_status tk_dcfg_trace_folded_range(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                                     size_t chunk_begin, size_t chunk_end,
                                     const tk_dcfg_trace_convert_options *opt, uint8_t **data,
                                     size_t *size, tk_error *err)
{
    *data = NULL;
    *size = 0;
    const dt_process *P;
    uint32_t pix = thread_process(t, cfg, th, &P);
    if (pix == TK_CFG_NONE) return process_error(t, P, err);
    if (chunk_begin >= chunk_end) { /* no ops (the decoder's 0, 0 is every chunk) */
        *data = tk_malloc(1);
        return *data ? TK_OK : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    fold_run r;
    memset(&r, 0, sizeof r);
    tk_bytes_out out = {NULL, 0, 0, 0};
    r.t = t;
    r.cfg = cfg;
    r.p = &cfg->processes[pix];
    r.th = th;
    r.pid = P->pid;
    r.tid = t->threads[th].thread_id;
    r.split = 1;
    r.out = &out;
    r.tr = &r.local;
    r.threads = opt ? opt->threads : 0;
    r.cur_chunk = SIZE_MAX;
    r.top = TK_CFG_NONE;
    tk_status st = TK_ERR_NOMEM;
    if (trie_init(&r.local) == 0 && tk_dt_stack_begin(&r.stack, cfg, r.p) == TK_OK)
        st = range_ops(&r, P, chunk_begin, chunk_end);
    if (st == TK_OK)
        st = tk_bytes_take(&out, data, size, "a DCFG-Trace folded range", err);
    else
        tk_free(out.p);
    if (st == TK_ERR_NOMEM) tk_error_set(err, st, "out of memory");
    trie_free(&r.local);
    tk_free(r.fr);
    tk_dt_stack_free(&r.stack);
    return st;
}

/* ---- the replay -------------------------------------------------------------------------- */

/* A varint below max (max itself excluded), else a format error. */
static int get_below(tk_bytes_in *in, uint64_t max, uint64_t *v, const char *what)
{
    if (tk_bytes_get_u64(in, v, what)) return -1;
    return *v < max ? 0 : tk_bytes_fail(in, what);
}

/* The nodes of an OP_STRETCH grafted at the path of its frame 0's caller (frame 0 the true
 * stack's top), of an OP_FLAT at the path of the true stack's top frame (F's), each checked as
 * the enter that made it; map[k]: node k's on the true trie. */
static int graft_nodes(fold_run *r, tk_bytes_in *in, uint32_t *map, uint32_t *ldepth, uint32_t n,
                       int flat)
{
    /* the depth of the root's path: its nodes at local depth L are frames cd + L - 1 */
    size_t d = r->stack.depth, cd = flat ? d : d - 1;
    map[0] = flat ? r->fr[d - 1].node : d >= 2 ? r->fr[d - 2].node : r->root;
    ldepth[0] = 0;
    for (uint32_t k = 1; k <= n; k++) {
        uint64_t parent, func, w;
        if (get_below(in, k, &parent, "a parent") || tk_bytes_get_u64(in, &func, "a function") ||
            tk_bytes_get_u64(in, &w, "a weight"))
            return -1;
        ldepth[k] = ldepth[parent] + 1;
        /* tk_callstacks_push: the stack full at TK_STACK_MAX_DEPTH, then the function id */
        if (cd + ldepth[k] > TK_STACK_MAX_DEPTH) return stop(r, WHY_DEPTH, 0);
        if (func > UINT32_MAX >> 1) return stop(r, WHY_FUNC, func);
        int why = trie_child(r->tr, map[parent], func, 0, &map[k]);
        if (why != WHY_OK) return stop(r, why, 0);
        r->tr->nodes[map[k]].w += w;
    }
    return 0;
}

/* The frames of an OP_STRETCH open above its frame 0, pushed on the true stack. */
static int push_frames(fold_run *r, tk_bytes_in *in, const uint32_t *map, uint32_t n)
{
    uint32_t nf;
    uint64_t v[5];
    if (tk_bytes_get_count(in, 5, &nf, "frames")) return -1;
    for (uint32_t i = 0; i < nf; i++) {
        if (get_below(in, r->p->nblocks, &v[0], "a frame") || get_below(in, 2, &v[1], "called") ||
            tk_bytes_get_u64(in, &v[2], "a time") || tk_bytes_get_u64(in, &v[3], "a time") ||
            get_below(in, (uint64_t)n + 1, &v[4], "a node"))
            return -1;
        size_t d = r->stack.depth;
        if (d >= r->frcap) {
            size_t cap = r->frcap ? r->frcap * 2 : 64;
            fframe *q = tk_reallocarray(r->fr, cap, sizeof *q);
            if (!q) return tk_bytes_nomem(in);
            r->fr = q;
            r->frcap = cap;
        }
        dt_step open = {d, 1, (int)v[1], (uint32_t)v[0]};
        if (tk_dt_stack_apply(&r->stack, &open) != TK_OK) return tk_bytes_nomem(in);
        r->fr[d] = (fframe){v[2], v[3], map[v[4]]};
    }
    return 0;
}

/* OP_STRETCH, OP_FLAT (flat): its nodes grafted, the callees' time of its frame 0 or of F
 * (the true stack's top frame either way) added, its frames pushed. Returns 0 (r->why set
 * when a node failed), -1 at bytes that are not such ops. */
static int replay_stretch(fold_run *r, tk_bytes_in *in, int flat)
{
    uint64_t time, chunk, child;
    uint32_t n;
    if (tk_bytes_get_u64(in, &time, "a time") || get_below(in, r->t->nchunks, &chunk, "a chunk") ||
        tk_bytes_get_count(in, 3, &n, "nodes"))
        return -1;
    if (r->stack.depth == 0) return tk_bytes_fail(in, "a stretch without its call");
    uint32_t *map = tk_malloc(((size_t)n + 1) * sizeof *map);
    uint32_t *ldepth = tk_malloc(((size_t)n + 1) * sizeof *ldepth);
    int rc = map && ldepth ? graft_nodes(r, in, map, ldepth, n, flat) : tk_bytes_nomem(in);
    if (rc == 0 && r->why == WHY_OK) {
        if (tk_bytes_get_u64(in, &child, "a time")) {
            rc = -1;
        } else {
            r->fr[r->stack.depth - 1].child += child;
            rc = push_frames(r, in, map, n);
        }
    }
    tk_free(map);
    tk_free(ldepth);
    if (rc > 0) rc = 0; /* stopped: r->why */
    r->time = time;
    r->cur_chunk = (size_t)chunk;
    return rc;
}

/* OP_ERROR: the range's error. */
static int replay_error(fold_run *r, tk_bytes_in *in)
{
    uint64_t why, what, chunk;
    if (get_below(in, WHY_COUNT, &why, "a reason") || tk_bytes_get_u64(in, &what, "an id") ||
        get_below(in, r->t->nchunks, &chunk, "a chunk"))
        return -1;
    if (why == WHY_OK) return tk_bytes_fail(in, "an error without a reason");
    r->cur_chunk = (size_t)chunk;
    stop(r, (int)why, what);
    return 0;
}

/* One range's ops taken on r. Returns 0 (r->why set at an error; *decode for a decoding
 * error, in *derr), -1 at bytes that are not such ops (in's error). */
static int replay_ops(fold_run *r, tk_bytes_in *in, tk_error *derr, int *decode)
{
    while (in->pos < in->size && r->why == WHY_OK) {
        uint64_t op, v;
        if (tk_bytes_get_u64(in, &op, "an op")) return -1;
        if (op == OP_CHUNK) {
            if (get_below(in, r->t->nchunks, &v, "a chunk")) return -1;
            at_chunk(r, (size_t)v);
        } else if (op == OP_EDGE) {
            if (get_below(in, r->p->nedges, &v, "an edge")) return -1;
            if (r->cur_chunk == SIZE_MAX) return tk_bytes_fail(in, "an edge before a chunk");
            take_edge(r, (uint32_t)v);
        } else if (op == OP_STRETCH || op == OP_FLAT) {
            if (replay_stretch(r, in, op == OP_FLAT)) return -1;
        } else if (op == OP_ERROR) {
            if (replay_error(r, in)) return -1;
        } else if (op == OP_DECODE_ERROR) {
            if (in->size - in->pos < sizeof *derr) return tk_bytes_fail(in, "an error cut short");
            memcpy(derr, in->p + in->pos, sizeof *derr);
            derr->message[sizeof derr->message - 1] = 0;
            derr->path[sizeof derr->path - 1] = 0;
            if (derr->code >= TK_OK) derr->code = TK_ERR_FORMAT;
            in->pos += sizeof *derr;
            *decode = 1;
            return 0;
        } else {
            return tk_bytes_fail(in, "an unknown op");
        }
    }
    return 0;
}

/* The error of a thread whose replay stopped (r->why), located as dt_events.c and
 * tk_callstacks say it. */
static tk_status run_error(const fold_run *r, tk_error *err)
{
    switch (r->why) {
    case WHY_EDGE:
        return tk_dt_walk_fail(r->t, DT_WALK_EDGE, r->cur_chunk, r->pid, -1, (uint32_t)r->what,
                               err);
    case WHY_INSTRS: return tk_dt_walk_fail(r->t, DT_WALK_INSTRS, r->cur_chunk, r->pid, -1, 0, err);
    case WHY_DEPTH:
        return tk_error_set_at(err, TK_ERR_LIMIT, NULL, 0, 0, 0,
                               "call stack of thread %" PRId64 " deeper than %u frames",
                               (int64_t)r->tid, TK_STACK_MAX_DEPTH);
    case WHY_FUNC:
        return tk_error_set(err, TK_ERR_LIMIT, "function id %" PRIu64 " too large for call paths",
                            r->what);
    case WHY_PATHS:
        return tk_error_set(err, TK_ERR_LIMIT, "more than %u distinct call paths",
                            TK_PATH_MAX_NODES);
    case WHY_THREAD: return tk_error_set(err, TK_ERR_NOMEM, "out of memory tracking threads");
    default: return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
}

tk_status tk_dcfg_trace_folded_open(tk_dcfg_trace_folded **out, const tk_dcfg_trace *t,
                                    const tk_cfg *cfg, int per_thread, tk_error *err)
{
    tk_dcfg_trace_folded *f = tk_calloc(1, sizeof *f);
    if (!f || trie_init(&f->tr) != 0) {
        tk_free(f);
        *out = NULL;
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    f->t = t;
    f->cfg = cfg;
    f->per_thread = per_thread != 0;
    *out = f;
    return TK_OK;
}

void tk_dcfg_trace_folded_free(tk_dcfg_trace_folded *f)
{
    if (!f) return;
    trie_free(&f->tr);
    tk_free(f->r.fr);
    tk_dt_stack_free(&f->r.stack);
    tk_free(f);
}

/* r set to replay thread th of process P (pix in the DCFG) on f's trie. */
static tk_status begin_thread(tk_dcfg_trace_folded *f, size_t th, const dt_process *P, uint32_t pix,
                              tk_error *err)
{
    fold_run *r = &f->r;
    r->t = f->t;
    r->cfg = f->cfg;
    r->p = &f->cfg->processes[pix];
    r->th = th;
    r->pid = P->pid;
    r->tid = f->t->threads[th].thread_id;
    r->tr = &f->tr;
    r->root = 0;
    r->global = 1;
    r->per_thread = f->per_thread;
    r->seen = 0;
    r->time = 0;
    r->cur_chunk = SIZE_MAX;
    r->why = WHY_OK;
    if (tk_dt_stack_begin(&r->stack, f->cfg, r->p) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_OK;
}

tk_status tk_dcfg_trace_folded_replay(tk_dcfg_trace_folded *f, size_t th,
                                      const uint8_t *const *parts, const size_t *sizes, size_t n,
                                      tk_error *err)
{
    if (f->failed) return tk_error_set(err, TK_ERR_ARG, "the folded stacks failed already");
    if (th >= f->t->nthreads || f->t->threads[th].nchunks == 0) return TK_OK;
    const dt_process *P;
    uint32_t pix = thread_process(f->t, f->cfg, th, &P);
    tk_status st =
        pix == TK_CFG_NONE ? process_error(f->t, P, err) : begin_thread(f, th, P, pix, err);
    fold_run *r = &f->r;
    tk_error derr;
    tk_error_clear(&derr);
    int decode = 0;
    for (size_t k = 0; st == TK_OK && k < n && r->why == WHY_OK && !decode; k++) {
        tk_bytes_in in = {parts[k], 0, sizes[k], "DCFG-Trace folded range", err, TK_OK};
        if (replay_ops(r, &in, &derr, &decode) != 0) st = in.st;
    }
    if (st == TK_OK && decode) {
        if (err) *err = derr;
        st = derr.code;
    } else if (st == TK_OK && r->why != WHY_OK) {
        st = run_error(r, err);
    } else if (st == TK_OK) { /* frames still open end with the thread */
        dt_step end;
        tk_dt_stack_end(&r->stack, &end);
        if (take_step(r, &end)) st = run_error(r, err);
    }
    if (st != TK_OK) f->failed = 1;
    return st;
}

tk_status tk_dcfg_trace_folded_write(const tk_dcfg_trace_folded *f, const tk_writer *out,
                                     tk_error *err)
{
    if (f->failed) return tk_error_set(err, TK_ERR_ARG, "the folded stacks failed");
    tk_folded_partial *p = tk_fp_new(TK_FOLDED_TIME, f->per_thread, 0, "instructions");
    tk_dcfg_trace_events *x = NULL;
    tk_status st = p ? tk_dcfg_trace_events_open(&x, f->t, f->cfg, NULL, err) : TK_ERR_NOMEM;
    tk_fp_node *nodes = st == TK_OK ? tk_malloc((size_t)f->tr.n * sizeof *nodes) : NULL;
    if (st == TK_OK && !nodes) st = TK_ERR_NOMEM;
    if (st == TK_OK) {
        memcpy(nodes, f->tr.nodes, (size_t)f->tr.n * sizeof *nodes);
        tk_free(p->nodes);
        p->nodes = nodes;
        p->n = f->tr.n;
        p->ntraces = 1;
        tk_event_source src;
        tk_dcfg_trace_events_source(x, &src);
        st = tk_fp_name_functions(p, &src);
    }
    if (st == TK_OK)
        st = tk_folded_partial_write(p, out, err);
    else if (st == TK_ERR_NOMEM)
        tk_error_set(err, st, "out of memory");
    tk_dcfg_trace_events_free(x);
    tk_folded_partial_free(p);
    return st;
}
