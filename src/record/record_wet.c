/* WET: the stream of executed instances tkrecord wrote (recorder/tkr_wrun.c)
 * replayed into dependences (docs/record.md, "WET").
 *
 * Data dependences come with the stream: each port names the instruction
 * that defined what it used, relative to the instruction using it, and how
 * many of its instances ran since; the replay counts every instruction's
 * instances as the tool did, which makes them WET's (id, instance).  Memory
 * is the static table, the threads' stacks and the outputs' (the history's
 * ring, the comprehensive form's store, which spills), not the run's length.
 *
 * Control dependences are computed here, per thread, with a stack of the
 * branch instances whose region the thread is in (Xin and Zhang's online
 * detection): a conditional branch (or a rep instruction's repeat) pushes
 * itself with its block's immediate post-dominator in the routine's control
 * flow graph (graph/postdom.c) and the frame it ran in; entering that block in
 * that frame pops it; an instance is control dependent on the top of the
 * stack.  A branch of the same post-dominator in the same frame replaces the
 * top (a loop's next iteration).  Calls open a frame, and a return leaves the
 * frames whose return address is below the stack pointer after it (so do the
 * jumps of longjmp and of an exception's unwinder), popping what is left of
 * them; signal handlers run in a frame of their own.  So a callee's
 * instructions depend on the branch the call depended on, and no branch is
 * popped by a block of another frame (recursion). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compat.h"
#include "core/vec.h"
#include "graph/postdom.h"
#include "model/cfg_internal.h"
#include "record/record_internal.h"
#include "tracekit/deps.h"

enum { EV_END = 0, EV_THREAD = 1, EV_SIGNAL = 2, EV_SIGRETURN = 3 };

typedef TK_VEC(uint64_t) u64vec;

typedef struct cd_ent {
    uint32_t instr, inst; /* the branch instance */
    uint32_t ipdom; /* block index, TK_CFG_NONE: the routine's end */
    uint32_t frame;
} cd_ent;

/* A call (or a signal's delivery) not returned from yet. */
typedef struct wframe {
    uint64_t rsp; /* %rsp after the call: where its return address is */
    int signal;
} wframe;

typedef struct wthread {
    TK_VEC(cd_ent) stack; /* the branch instances whose region the thread is in */
    TK_VEC(wframe) frames; /* the frame an instance runs in: frames.len */
    uint64_t rsp; /* %rsp after its last call, return or indirect jump */
} wthread;

struct rec_wet {
    const rec_raw *raw;
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    tk_error *err;
    rec_wi *wis;
    uint32_t n;
    char *names; /* file and function names without blanks */
    size_t names_len;
    TK_VEC(wthread) threads;
    rec_wstore *store;
    rec_wring *ring;
    rec_wet_stats stats;
};

static tk_status nomem(rec_wet *w)
{
    return tk_error_set(w->err, TK_ERR_NOMEM, "out of memory replaying the WET stream");
}

/* ---- static facts ------------------------------------------------------------------------- */

/* Room for a copy of name s (its blanks as '_': the WET static line is blank-separated). */
static void plain_name(rec_wet *w, const char *s, size_t *off)
{
    *off = w->names_len;
    w->names_len += strlen(s) + 1;
}

/* The source run of instruction `index` of superblock sb (srcs or fns). */
static const rec_src *run_of(const rec_src *runs, uint32_t nruns, uint32_t index)
{
    const rec_src *at = NULL;
    for (uint32_t q = 0; q < nruns; q++)
        if (runs[q].index <= index) at = &runs[q];
    return at;
}

static const char *file_of(const rec_raw *r, const rec_winsn *x, uint32_t *line)
{
    const rec_sb *sb = &r->sbs.data[x->sb - 1];
    const rec_src *src = run_of(r->srcs.data + sb->src, sb->nsrc, x->index);
    *line = 0;
    if (!src || !src->file || src->file >= r->files.len || r->files.data[src->file] == UINT32_MAX)
        return NULL;
    *line = src->line;
    return rec_str(r, r->files.data[src->file]);
}

static const char *func_of(const rec_raw *r, const rec_winsn *x)
{
    const rec_sb *sb = &r->sbs.data[x->sb - 1];
    const rec_src *fn = run_of(r->fns.data + sb->fn, sb->nfn, x->index);
    if (!fn || !fn->file || fn->file > r->syms.len) return NULL;
    const char *s = rec_str(r, r->syms.data[fn->file - 1].name);
    return *s ? s : NULL;
}

/* Names: two passes, one to size the copy, one to fill it. */
static tk_status static_names(rec_wet *w)
{
    const rec_raw *r = w->raw;
    size_t *offs = tk_malloc(sizeof *offs * 2 * (w->n ? w->n : 1));
    if (!offs) return nomem(w);
    for (uint32_t i = 0; i < w->n; i++) {
        uint32_t line;
        const char *f = file_of(r, &r->winsns.data[i], &line), *fn = func_of(r, &r->winsns.data[i]);
        w->wis[i].line = f ? line : 0;
        offs[2 * i] = offs[2 * i + 1] = SIZE_MAX;
        if (f) plain_name(w, f, &offs[2 * i]);
        if (fn) plain_name(w, fn, &offs[2 * i + 1]);
    }
    w->names = tk_malloc(w->names_len ? w->names_len : 1);
    if (!w->names) {
        tk_free(offs);
        return nomem(w);
    }
    for (uint32_t i = 0; i < w->n; i++) {
        uint32_t line;
        const char *src[2] = {file_of(r, &r->winsns.data[i], &line),
                              func_of(r, &r->winsns.data[i])};
        const char **dst[2] = {&w->wis[i].file, &w->wis[i].func};
        for (int k = 0; k < 2; k++) {
            *dst[k] = NULL;
            if (offs[2 * i + k] == SIZE_MAX) continue;
            char *o = w->names + offs[2 * i + k];
            size_t len = strlen(src[k]);
            for (size_t j = 0; j <= len; j++)
                o[j] = src[k][j] == ' ' || src[k][j] == '\t' ? '_' : src[k][j];
            *dst[k] = o;
        }
    }
    tk_free(offs);
    return TK_OK;
}

/* The DCFG block holding each instruction, and whether it starts it. */
static void static_blocks(rec_wet *w)
{
    const tk_cfg_process *p = w->p;
    for (uint32_t i = 0; i < w->n; i++) {
        rec_wi *x = &w->wis[i];
        uint32_t hits[8];
        size_t nh = tk_cfg_blocks_at(p, x->addr, hits, 8);
        x->block = TK_CFG_NONE;
        for (size_t k = 0; k < nh && k < 8; k++) {
            if (x->block == TK_CFG_NONE) x->block = hits[k];
            if (tk_cfg_stored_block_addr(p, &p->blocks[hits[k]]) == x->addr) {
                x->block = hits[k];
                x->block_start = 1;
                break;
            }
        }
    }
}

static tk_status static_table(rec_wet *w)
{
    const rec_raw *r = w->raw;
    w->n = (uint32_t)r->winsns.len;
    w->wis = tk_calloc(w->n ? w->n : 1, sizeof *w->wis);
    if (!w->wis) return nomem(w);
    for (uint32_t i = 0; i < w->n; i++) {
        const rec_winsn *x = &r->winsns.data[i];
        rec_wi *o = &w->wis[i];
        o->addr = x->addr;
        o->nports = x->nports;
        o->ctl = x->ctl;
        o->npoints = x->npoints;
        o->pts = x->pts;
        o->ipdom = TK_CFG_NONE;
        for (uint32_t q = 0; q < x->npoints; q++)
            if (r->wpts.data[x->pts + 2 * q + 1]) o->has_values = 1;
    }
    tk_status st = static_names(w);
    if (st == TK_OK) static_blocks(w);
    w->stats.instructions = w->n;
    return st;
}

/* ---- post-dominators ------------------------------------------------------------------------ */

/* Both sides of every conditional branch (and rep instruction) that ran are known: its
 * target and the next instruction. A side never taken from it is not an edge of the
 * DCFG; when that side's code ran at another time (it starts a block), it becomes one
 * here: per block, the blocks its branch can go to (pairs src, tgt sorted by src). A side
 * whose code never ran at all is left out (docs/record.md, "Control dependences"). */
static tk_status static_pair(rec_wet *w, u64vec *pairs, uint64_t from, uint64_t to)
{
    const tk_cfg_process *p = w->p;
    uint32_t src, tgt;
    if (tk_cfg_blocks_at(p, from, &src, 1) == 0 || tk_cfg_blocks_at(p, to, &tgt, 1) == 0)
        return TK_OK;
    if (tk_cfg_stored_block_addr(p, &p->blocks[tgt]) != to) return TK_OK; /* not a block start */
    return TK_VEC_PUSH(pairs, (uint64_t)src << 32 | tgt) ? nomem(w) : TK_OK;
}

static tk_status static_targets(rec_wet *w, u64vec *pairs)
{
    const rec_raw *r = w->raw;
    for (size_t id = 1; id < r->exits.len; id++) {
        const rec_exit *x = &r->exits.data[id];
        if (!r->exit_seen.data[id] || !x->has_dst || (x->kind != REC_COND && x->kind != REC_REP))
            continue;
        const rec_sb *sb = &r->sbs.data[x->sb - 1];
        uint64_t at = sb->addr;
        for (uint32_t i = 0; i < x->instr; i++) at += r->lens.data[sb->lens + i];
        tk_status st = static_pair(w, pairs, at, x->dst);
        if (st == TK_OK) st = static_pair(w, pairs, at, at + r->lens.data[sb->lens + x->instr]);
        if (st != TK_OK) return st;
    }
    return TK_OK;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

typedef struct rgraph {
    uint32_t *blocks; /* local -> block index, by address */
    uint32_t *local; /* block index -> local (TK_CFG_NONE), for the whole process */
    TK_VEC(uint32_t) start, adj;
    uint32_t *ipdom;
} rgraph;

static int addr_cmp(const void *a, const void *b, void *ctx)
{
    const tk_cfg_process *p = ctx;
    uint64_t x = tk_cfg_stored_block_addr(p, &p->blocks[*(const uint32_t *)a]);
    uint64_t y = tk_cfg_stored_block_addr(p, &p->blocks[*(const uint32_t *)b]);
    return (x > y) - (x < y);
}

/* Where control goes from block b of the routine: a local node, or the exit (n). */
static int out_nodes(rec_wet *w, rgraph *g, uint32_t b, uint32_t n, uint32_t r,
                     const uint64_t *pairs, size_t npairs)
{
    const tk_cfg_process *p = w->p;
    uint32_t cnt, before = (uint32_t)g->adj.len;
    const uint32_t *es = cfg_out_edges(p, b, &cnt);
    for (uint32_t k = 0; k < cnt; k++) {
        const tk_cfg_edge *e = &p->edges[es[k]];
        tk_edge_kind kind = tk_cfg_stored_edge_kind(w->cfg, e);
        uint32_t to;
        if (kind == TK_EDGE_RETURN || kind == TK_EDGE_EXIT)
            to = n;
        else if (tk_edge_kind_is_any_inter_routine(kind) || kind == TK_EDGE_CONTEXT_CHANGE ||
                 kind == TK_EDGE_CONTEXT_CHANGE_RETURN)
            continue;
        else if (e->tgt < p->nblocks && p->blocks[e->tgt].routine == r)
            to = g->local[e->tgt];
        else
            to = n; /* a jump out of the routine (a tail call) */
        if (TK_VEC_PUSH(&g->adj, to)) return -1;
    }
    size_t lo = 0, hi = npairs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((pairs[mid] >> 32) < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < npairs && (pairs[lo] >> 32) == b; lo++) {
        uint32_t t = (uint32_t)pairs[lo];
        if (p->blocks[t].routine == r && TK_VEC_PUSH(&g->adj, g->local[t])) return -1;
    }
    if (g->adj.len == before && TK_VEC_PUSH(&g->adj, n)) return -1; /* a dead end: the end */
    return 0;
}

/* Immediate post-dominators of routine r's blocks (g->ipdom by local index; n: the end). */
static tk_status routine_postdoms(rec_wet *w, rgraph *g, uint32_t r, const uint64_t *pairs,
                                  size_t npairs, uint32_t *nout)
{
    const tk_cfg_process *p = w->p;
    const tk_cfg_routine *rt = &p->routines[r];
    uint32_t n = rt->nnodes;
    const uint32_t *nodes = cfg_list(p, rt->nodes);
    tk_free(g->blocks);
    tk_free(g->ipdom);
    g->blocks = tk_malloc(sizeof *g->blocks * (n ? n : 1));
    g->ipdom = tk_malloc(sizeof *g->ipdom * ((size_t)n + 1));
    if (!g->blocks || !g->ipdom) return nomem(w);
    memcpy(g->blocks, nodes, sizeof *g->blocks * n);
    tk_qsort_r(g->blocks, n, sizeof *g->blocks, addr_cmp, (void *)p);
    for (uint32_t i = 0; i < n; i++) g->local[g->blocks[i]] = i;
    g->start.len = g->adj.len = 0;
    tk_status st = TK_OK;
    for (uint32_t i = 0; i < n && st == TK_OK; i++) {
        if (TK_VEC_PUSH(&g->start, (uint32_t)g->adj.len) ||
            out_nodes(w, g, g->blocks[i], n, r, pairs, npairs) != 0)
            st = nomem(w);
    }
    if (st == TK_OK && (TK_VEC_PUSH(&g->start, (uint32_t)g->adj.len) ||
                        TK_VEC_PUSH(&g->start, (uint32_t)g->adj.len)))
        st = nomem(w);
    if (st == TK_OK && tk_postdominators(n + 1, g->start.data, g->adj.data, n, g->ipdom) != TK_OK)
        st = nomem(w);
    *nout = n;
    return st;
}

static int wi_routine_cmp(const void *a, const void *b, void *ctx)
{
    const rec_wet *w = ctx;
    const rec_wi *x = &w->wis[*(const uint32_t *)a], *y = &w->wis[*(const uint32_t *)b];
    uint32_t rx = w->p->blocks[x->block].routine, ry = w->p->blocks[y->block].routine;
    return (rx > ry) - (rx < ry);
}

/* Each branch's post-dominator, routine by routine. */
static tk_status branch_postdoms(rec_wet *w)
{
    const tk_cfg_process *p = w->p;
    u64vec pairs = {0};
    TK_VEC(uint32_t) br = {0};
    rgraph g;
    memset(&g, 0, sizeof g);
    tk_status st = static_targets(w, &pairs);
    if (st == TK_OK && pairs.len > 1) qsort(pairs.data, pairs.len, sizeof *pairs.data, u64_cmp);
    for (uint32_t i = 0; st == TK_OK && i < w->n; i++) {
        const rec_wi *x = &w->wis[i];
        if ((x->ctl == REC_COND || x->ctl == REC_REP) && x->block != TK_CFG_NONE &&
            p->blocks[x->block].routine != TK_CFG_NONE && TK_VEC_PUSH(&br, i))
            st = nomem(w);
    }
    if (st == TK_OK && br.len) {
        tk_qsort_r(br.data, br.len, sizeof *br.data, wi_routine_cmp, w);
        g.local = tk_malloc(sizeof *g.local * (p->nblocks ? p->nblocks : 1));
        if (!g.local) st = nomem(w);
    }
    uint32_t cur = TK_CFG_NONE, n = 0;
    for (size_t k = 0; st == TK_OK && k < br.len; k++) {
        rec_wi *x = &w->wis[br.data[k]];
        uint32_t r = p->blocks[x->block].routine;
        if (r != cur) st = routine_postdoms(w, &g, cur = r, pairs.data, pairs.len, &n);
        if (st != TK_OK) break;
        uint32_t d = g.ipdom[g.local[x->block]];
        x->ipdom = d < n ? g.blocks[d] : TK_CFG_NONE;
    }
    tk_free(g.blocks);
    tk_free(g.ipdom);
    tk_free(g.local);
    TK_VEC_FREE(&g.start);
    TK_VEC_FREE(&g.adj);
    TK_VEC_FREE(&pairs);
    TK_VEC_FREE(&br);
    return st;
}

/* ---- the stream ----------------------------------------------------------------------------- */

/* The stream, read through a buffer of its own. */
#define SBUF (1u << 20)
#define SREC_MAX 4096 /* bytes an instance takes at most (the tool's WREC_MAX, 2048) */

typedef struct sreader {
    tk_input *in;
    const char *path;
    uint64_t off; /* of buf[0] in the stream */
    uint8_t *buf;
    size_t at, len;
    int eof;
    const uint8_t *chunk; /* what is left of the input's last chunk */
    size_t chunk_len;
    tk_status failed; /* a read that failed: its error */
    tk_error read_err;
} sreader;

static tk_status bad_stream(rec_wet *w, const sreader *s, const char *what)
{
    return tk_error_set(w->err, TK_ERR_FORMAT, "%s: byte %" PRIu64 ": WET stream: %s", s->path,
                        s->off + s->at, what);
}

/* At least SREC_MAX bytes ahead in the buffer, unless the stream ends before. */
static void refill(sreader *s)
{
    if (s->eof || s->len - s->at >= SREC_MAX) return;
    memmove(s->buf, s->buf + s->at, s->len - s->at);
    s->off += s->at;
    s->len -= s->at;
    s->at = 0;
    while (!s->eof && s->len < SBUF) {
        if (!s->chunk_len) {
            tk_status st = tk_input_chunk(s->in, &s->chunk, &s->chunk_len, &s->read_err);
            if (st != TK_OK) {
                s->eof = 1;
                s->chunk_len = 0;
                if (st != TK_END) s->failed = st;
                break;
            }
        }
        size_t n = SBUF - s->len < s->chunk_len ? SBUF - s->len : s->chunk_len;
        memcpy(s->buf + s->len, s->chunk, n);
        s->chunk += n;
        s->chunk_len -= n;
        s->len += n;
    }
}

static int get_num(sreader *s, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned sh = 0; sh < 64 && s->at < s->len; sh += 7) {
        unsigned c = s->buf[s->at++];
        x |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return 0;
}

static wthread *thread_of(rec_wet *w, uint64_t index)
{
    if (index > 1000000) return NULL;
    while (w->threads.len <= index) {
        wthread t;
        memset(&t, 0, sizeof t);
        if (TK_VEC_PUSH(&w->threads, t)) return NULL;
    }
    return &w->threads.data[index];
}

static tk_status emit_dep(rec_wet *w, uint32_t instr, uint32_t inst, uint32_t port, uint32_t dep,
                          uint32_t dep_inst)
{
    w->stats.deps++;
    if (w->ring) tk_rec_wring_push(w->ring, instr, inst, port, dep, dep_inst);
    if (w->store) return tk_rec_wstore_dep(w->store, instr, inst, port, dep, dep_inst, w->err);
    return TK_OK;
}

/* The control dependence of instance inst of instruction i in thread t (port 0), then a
 * conditional branch's (or a rep instruction's) entry on the stack. */
static tk_status control(rec_wet *w, wthread *t, uint32_t i, uint32_t inst)
{
    const rec_wi *x = &w->wis[i];
    uint32_t depth = (uint32_t)t->frames.len;
    if (x->block_start)
        while (t->stack.len && t->stack.data[t->stack.len - 1].frame == depth &&
               t->stack.data[t->stack.len - 1].ipdom == x->block)
            t->stack.len--;
    cd_ent *top = t->stack.len ? &t->stack.data[t->stack.len - 1] : NULL;
    if (top) {
        tk_status st = emit_dep(w, i, inst, 0, top->instr, top->inst);
        if (st != TK_OK) return st;
    }
    if (x->ctl == REC_COND || x->ctl == REC_REP) {
        cd_ent e = {i, inst, x->ipdom, depth};
        if (top && top->frame == depth && top->ipdom == x->ipdom)
            *top = e;
        else if (TK_VEC_PUSH(&t->stack, e))
            return nomem(w);
    }
    return TK_OK;
}

/* The stack's entries of frames left. */
static void leave_frames(wthread *t)
{
    while (t->stack.len && t->stack.data[t->stack.len - 1].frame > t->frames.len) t->stack.len--;
}

static int moves_frames(uint8_t ctl)
{
    return ctl == REC_CALL || ctl == REC_ICALL || ctl == REC_RET || ctl == REC_IJMP;
}

/* After a call, a return or an indirect jump, %rsp rsp: a call opens a frame; a return
 * or a jump leaves every frame whose return address is below rsp (one for a return; more
 * when an exception's unwinder or longjmp skips frames; none for a jump inside a function),
 * never a signal handler's. */
static tk_status frames_after(rec_wet *w, wthread *t, uint8_t ctl, uint64_t rsp)
{
    t->rsp = rsp;
    if (ctl == REC_CALL || ctl == REC_ICALL) {
        wframe f = {rsp, 0};
        return TK_VEC_PUSH(&t->frames, f) ? nomem(w) : TK_OK;
    }
    while (t->frames.len && !t->frames.data[t->frames.len - 1].signal &&
           t->frames.data[t->frames.len - 1].rsp < rsp)
        t->frames.len--;
    leave_frames(t);
    return TK_OK;
}

/* A signal handler runs in a frame of its own, left when it returns (sigreturn). */
static tk_status frame_event(rec_wet *w, wthread *t, int sigreturn)
{
    if (!sigreturn) {
        wframe f = {0, 1};
        return TK_VEC_PUSH(&t->frames, f) ? nomem(w) : TK_OK;
    }
    while (t->frames.len && !t->frames.data[--t->frames.len].signal)
        ;
    leave_frames(t);
    return TK_OK;
}

/* The value of an instance: a number, or 16 or 32 raw bytes. */
static tk_status value(rec_wet *w, sreader *s, uint32_t i, uint32_t inst, unsigned venc)
{
    uint8_t le[32];
    uint32_t n = 0;
    if (venc == 1) {
        uint64_t v;
        if (!get_num(s, &v)) return bad_stream(w, s, "cut short in a value");
        while (v) {
            le[n++] = (uint8_t)v;
            v >>= 8;
        }
    } else {
        if (s->len - s->at < venc) return bad_stream(w, s, "cut short in a value");
        memcpy(le, s->buf + s->at, venc);
        s->at += venc;
        n = venc;
        while (n && !le[n - 1]) n--;
    }
    w->stats.values++;
    return w->store ? tk_rec_wstore_value(w->store, i, inst, le, n, w->err) : TK_OK;
}

/* The data dependences of instance inst of instruction i: per port, 0 or 1 + zigzag(the
 * definer's id - i's), then the definer's instances since. */
static tk_status ports(rec_wet *w, sreader *s, uint32_t i, uint32_t inst, uint32_t nports)
{
    for (uint32_t k = 0; k < nports; k++) {
        uint64_t z, since;
        if (!get_num(s, &z)) return bad_stream(w, s, "cut short in a port");
        if (!z) continue;
        z--;
        int64_t d = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
        uint64_t id = (uint64_t)i + 1 + (uint64_t)d;
        if (!get_num(s, &since)) return bad_stream(w, s, "cut short in a port");
        if (id == 0 || id > w->n) return bad_stream(w, s, "a dependence on an unknown instruction");
        uint64_t count = w->wis[id - 1].count;
        if (since >= count) return bad_stream(w, s, "a dependence on an instance not yet run");
        tk_status st =
            emit_dep(w, i, inst, k + 1, (uint32_t)(id - 1), (uint32_t)(count - 1 - since));
        if (st != TK_OK) return st;
    }
    return TK_OK;
}

static tk_status instance(rec_wet *w, sreader *s, wthread *t, uint32_t i)
{
    rec_wi *x = &w->wis[i];
    uint64_t point = 0;
    if (x->npoints > 1 && !get_num(s, &point)) return bad_stream(w, s, "cut short");
    if (point >= x->npoints) return bad_stream(w, s, "a point the instruction does not have");
    if (x->count >= TK_DEPS_MAX_INSTANCE)
        return tk_error_set(w->err, TK_ERR_LIMIT,
                            "instruction 0x%" PRIx64 " ran more than %u "
                            "times: more instances than a WET trace can hold",
                            x->addr, TK_DEPS_MAX_INSTANCE);
    uint32_t inst = x->count;
    w->stats.instances++;
    tk_status st = control(w, t, i, inst);
    const uint8_t *pt = &w->raw->wpts.data[x->pts + 2 * point];
    if (st == TK_OK) st = ports(w, s, i, inst, pt[0]);
    x->count++; /* after its ports: a use of its own last instance names the one before */
    if (st == TK_OK && pt[1] && w->raw->wet_values) st = value(w, s, i, inst, pt[1]);
    if (st == TK_OK && moves_frames(x->ctl)) {
        uint64_t z;
        if (!get_num(s, &z)) return bad_stream(w, s, "cut short in a stack pointer");
        st = frames_after(w, t, x->ctl, t->rsp + (uint64_t)((int64_t)(z >> 1) ^ -(int64_t)(z & 1)));
    }
    return st;
}

static tk_status replay(rec_wet *w, sreader *s)
{
    wthread *t = NULL;
    uint64_t prev = 0, v, k;
    for (;;) {
        refill(s);
        if (s->at == s->len && s->eof && !strcmp(w->raw->end_reason, "exec"))
            return TK_OK; /* flushed before an exec that replaced the program */
        if (!get_num(s, &v)) return bad_stream(w, s, "cut short (no END event)");
        if (v & 1) {
            k = v >> 1;
            if (k == EV_END) return TK_OK;
            if (k == EV_THREAD) {
                if (!get_num(s, &k) || !(t = thread_of(w, k)))
                    return bad_stream(w, s, "a bad THREAD event");
            } else if (k == EV_SIGNAL || k == EV_SIGRETURN) {
                tk_status st = t ? frame_event(w, t, k == EV_SIGRETURN) : TK_OK;
                if (st != TK_OK) return st;
            } else {
                return bad_stream(w, s, "an unknown event");
            }
            continue;
        }
        uint64_t z = v >> 1;
        int64_t d = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
        uint64_t id = prev + 1 + (uint64_t)d;
        if (!t) return bad_stream(w, s, "an instance before any THREAD event");
        if (id == 0 || id > w->n) return bad_stream(w, s, "an instance of an unknown instruction");
        prev = id;
        tk_status st = instance(w, s, t, (uint32_t)(id - 1));
        if (st != TK_OK) return st;
    }
}

/* ---- the whole ------------------------------------------------------------------------------- */

static tk_status open_stream(rec_wet *w, const rec_proc *proc, const char *raw_dir, sreader *s,
                             char *path, size_t size)
{
    snprintf(path, size, "%s/p%" PRIu64 ".%" PRIu32 ".wet", raw_dir, proc->raw.pid, proc->raw.gen);
    memset(s, 0, sizeof *s);
    s->path = path;
    s->buf = tk_malloc(SBUF);
    if (!s->buf) return nomem(w);
    return tk_rec_input_open(&s->in, path, w->err);
}

tk_status tk_rec_wet_load(rec_wet **out, const tk_cfg *cfg, const rec_proc *proc,
                          const char *raw_dir, const rec_wet_opts *o, tk_error *err)
{
    *out = NULL;
    rec_wet *w = tk_calloc(1, sizeof *w);
    if (!w) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    w->raw = &proc->raw;
    w->cfg = cfg;
    w->err = err;
    uint32_t pi = tk_cfg_find_process(cfg, proc->process_id);
    tk_status st = TK_OK;
    if (pi == TK_CFG_NONE || !proc->raw.wet)
        st = tk_error_set(err, TK_ERR_FORMAT, "%s: no WET data", proc->raw.path);
    else if (o->comprehensive && !proc->raw.wet_values)
        st = tk_error_set(err, TK_ERR_FORMAT, "%s: the WET stream holds no values", proc->raw.path);
    if (st == TK_OK) {
        w->p = &cfg->processes[pi];
        st = static_table(w);
    }
    if (st == TK_OK) st = branch_postdoms(w);
    if (st == TK_OK && o->comprehensive)
        st = tk_rec_wstore_new(&w->store, w->wis, w->n, o->memory, o->tmpdir, err);
    if (st == TK_OK && o->history) st = tk_rec_wring_new(&w->ring, o->history, err);
    char path[8300];
    sreader s;
    memset(&s, 0, sizeof s);
    if (st == TK_OK) st = open_stream(w, proc, raw_dir, &s, path, sizeof path);
    if (st == TK_OK) st = replay(w, &s);
    if (s.failed && st != TK_ERR_NOMEM) { /* the read's error, not what it left of the stream */
        if (err) *err = s.read_err;
        st = s.failed;
    }
    tk_input_free(s.in);
    tk_free(s.buf);
    if (st != TK_OK) {
        tk_rec_wet_free(w);
        return st;
    }
    w->stats.history = w->ring ? tk_rec_wring_count(w->ring) : 0;
    w->stats.spills = w->store ? tk_rec_wstore_spills(w->store) : 0;
    *out = w;
    return TK_OK;
}

tk_status tk_rec_wet_write(rec_wet *w, FILE *f, tk_error *err)
{
    return tk_rec_wstore_write(w->store, f, err);
}

tk_status tk_rec_wet_write_history(rec_wet *w, FILE *f, tk_error *err)
{
    return tk_rec_wring_write(w->ring, w->wis, w->n, f, err);
}

void tk_rec_wet_get_stats(const rec_wet *w, rec_wet_stats *out) { *out = w->stats; }

void tk_rec_wet_free(rec_wet *w)
{
    if (!w) return;
    for (size_t i = 0; i < w->threads.len; i++) {
        TK_VEC_FREE(&w->threads.data[i].stack);
        TK_VEC_FREE(&w->threads.data[i].frames);
    }
    TK_VEC_FREE(&w->threads);
    tk_rec_wstore_free(w->store);
    tk_rec_wring_free(w->ring);
    tk_free(w->wis);
    tk_free(w->names);
    tk_free(w);
}
