/* What runs with the program: the helper called at the entry of every
 * superblock, the edge records it counts, the threads, and the trace spill.
 *
 * An edge record is (exit taken, superblock entered, thread, dynamic kind):
 * the superblock-level transfer libtracekit maps onto the edges between true
 * basic blocks.  Each exit keeps the last record taken through it (a
 * one-entry cache), so the helper's usual work is a compare, an increment
 * and, with --trace, a compare with the record that followed the last
 * record the last time.
 *
 * The spill of a thread (docs/record.md): a sequence of tokens, each two
 * LEB128 numbers (hits, id): `hits` records each of which is the one that
 * followed its predecessor the last time it ran (its `pred`), then record
 * `id` (which becomes its predecessor's pred); id 0 is no record (a flush:
 * at the end of the thread, before an exec).  A reader keeps the same pred
 * table (per thread: records are per thread) and replays it.  Loops cost
 * nothing but their exits. */
#include "tkr.h"

#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"

#define TKR_SPILL 262144 /* bytes of a thread's spill buffer */

tkr_exit *tkr_last = &tkr_start_exit;
tkr_thread *tkr_cur;

static tkr_thread *threads; /* by Valgrind ThreadId */
static ThreadId cur_tid;
static UInt next_index, folded;

/* thread ends: (thread index, exit id, traced) */
static UInt *ends;
static UInt nends, cap_ends;

/* ---- edge records -------------------------------------------------------------------- */

static tkr_edge **slots;
static UInt edge_cap, nedges;
static tkr_edge *pool;
static UInt pool_left;
static tkr_edge **by_id;
static UInt cap_by_id;

static UInt edge_hash(UInt exit, UInt tgt, UInt thread, UInt dyn)
{
    ULong x = ((ULong)exit << 32 | tgt) * 0x9E3779B97F4A7C15ULL;
    x ^= (ULong)(thread * 4 + dyn) * 0xC2B2AE3D27D4EB4FULL;
    return (UInt)(x >> 32);
}

static void edges_rehash(void)
{
    UInt cap = edge_cap ? 2 * edge_cap : 65536;
    tkr_edge **s = VG_(calloc)("tkr.edges", cap, sizeof *s);
    for (UInt i = 0; i < nedges; i++) {
        tkr_edge *e = by_id[i];
        UInt j = edge_hash(e->exit->id, e->tgt ? e->tgt->id : 0, e->thread, e->dyn) & (cap - 1);
        e->hnext = s[j];
        s[j] = e;
    }
    if (slots) VG_(free)(slots);
    slots = s;
    edge_cap = cap;
}

static tkr_edge *edge_get(tkr_exit *x, tkr_sb *tgt, UInt thread, UInt dyn)
{
    UInt j = edge_hash(x->id, tgt ? tgt->id : 0, thread, dyn) & (edge_cap - 1);
    for (tkr_edge *e = slots[j]; e; e = e->hnext)
        if (e->exit == x && e->tgt == tgt && e->thread == thread && e->dyn == dyn) return e;
    if (!pool_left) {
        pool_left = 4096;
        pool = VG_(malloc)("tkr.edgepool", pool_left * sizeof *pool);
    }
    tkr_edge *e = pool++;
    pool_left--;
    e->exit = x;
    e->tgt = tgt;
    e->thread = thread;
    e->dyn = dyn;
    e->count = 0;
    e->pred = NULL;
    e->id = ++nedges;
    e->hnext = slots[j];
    slots[j] = e;
    if (nedges > cap_by_id) {
        cap_by_id = cap_by_id ? 2 * cap_by_id : 65536;
        by_id = VG_(realloc)("tkr.edgeids", by_id, cap_by_id * sizeof *by_id);
    }
    by_id[nedges - 1] = e;
    if (nedges > 2 * edge_cap) edges_rehash();
    return e;
}

/* ---- the trace spill ------------------------------------------------------------------ */

static void spill(tkr_thread *t)
{
    const UChar *p = t->buf;
    Int left = (Int)t->nbuf;
    while (left > 0) {
        Int n = VG_(write)(t->fd, p, left);
        if (n <= 0) {
            VG_(umsg)("tkrecord: cannot write the trace spill file; the trace stops here\n");
            VG_(close)(t->fd);
            t->fd = -1;
            break;
        }
        p += n;
        left -= n;
    }
    t->nbuf = 0;
}

static inline void put_num(tkr_thread *t, ULong v)
{
    while (v >= 0x80) {
        t->buf[t->nbuf++] = (UChar)(v | 0x80);
        v >>= 7;
    }
    t->buf[t->nbuf++] = (UChar)v;
}

/* The token (hits, id) of a record that is not its predecessor's pred. */
static void spill_token(tkr_thread *t, tkr_edge *ed)
{
    if (t->nbuf + 24 > TKR_SPILL) spill(t);
    if (t->fd < 0) return;
    put_num(t, t->hits);
    put_num(t, ed ? ed->id : 0);
    t->hits = 0;
    if (t->prev && ed) t->prev->pred = ed;
}

/* Everything of a thread's spill to its file (a (hits, 0) token first). */
static void spill_end(tkr_thread *t)
{
    spill_token(t, NULL);
    if (t->fd >= 0) spill(t);
}

static void spill_open(tkr_thread *t)
{
    t->fd = -1;
    if (!tkr_tracing || (t->index + 1 == tkr_threads_limit && folded)) return;
    HChar suffix[32];
    VG_(snprintf)(suffix, sizeof suffix, ".t%u", t->index);
    HChar *path = tkr_path(suffix);
    SysRes r = VG_(open)(path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY, 0600);
    if (sr_isError(r)) {
        VG_(umsg)("tkrecord: cannot create %s: the thread is not traced\n", path);
    } else {
        t->fd = (Int)sr_Res(r);
        if (!t->buf) t->buf = VG_(malloc)("tkr.spill", TKR_SPILL);
        t->nbuf = 0;
        t->prev = NULL;
        t->hits = 0;
    }
    VG_(free)(path);
}

void tkr_trace_flush_all(void)
{
    for (UInt i = 0; i < VG_N_THREADS; i++)
        if (threads[i].fd >= 0) spill_end(&threads[i]);
}

/* ---- the helper ------------------------------------------------------------------------- */

static tkr_exit *fault_exit(tkr_exit *e, Addr ip)
{
    tkr_sb *sb = e->sb;
    UInt k = sb->ninstrs - 1;
    Addr a = sb->addr;
    for (UInt i = 0; i < sb->ninstrs; a += sb->lens[i], i++)
        if (a == ip) k = i;
    return tkr_exit_dynamic(sb, k, TKR_K_FAULT);
}

static Bool is_inprog(const tkr_exit *e) { return e->sb && e == &e->sb->inprog; }

static tkr_edge *enter_slow(tkr_exit *e, tkr_sb *sb, tkr_thread *t)
{
    if (is_inprog(e)) e = fault_exit(e, 0); /* left without taking an exit */
    tkr_edge *ed = edge_get(e, sb, t->index, t->pending);
    if (!t->pending) {
        e->c_sb = sb;
        e->c_thread = t->index;
        e->c_edge = ed;
    }
    t->pending = TKR_DYN_NONE;
    return ed;
}

VG_REGPARM(1) void tkr_enter(tkr_sb *sb)
{
    tkr_exit *e = tkr_last;
    tkr_thread *t = tkr_cur;
    tkr_edge *ed;
    if (UNLIKELY(!t)) {
        tkr_thread_switch(VG_(get_running_tid)());
        t = tkr_cur;
    }
    if (LIKELY(e->c_sb == sb && e->c_thread == t->index && !t->pending))
        ed = e->c_edge;
    else
        ed = enter_slow(e, sb, t);
    ed->count++;
    if (t->fd >= 0) {
        if (t->prev && t->prev->pred == ed)
            t->hits++;
        else
            spill_token(t, ed);
        t->prev = ed;
    }
    tkr_last = &sb->inprog;
}

/* ---- threads ----------------------------------------------------------------------------- */

void tkr_run_init(void)
{
    threads = VG_(calloc)("tkr.threads", VG_N_THREADS, sizeof *threads);
    for (UInt i = 0; i < VG_N_THREADS; i++) threads[i].fd = -1;
    edges_rehash();
}

tkr_thread *tkr_thread_of(ThreadId tid) { return &threads[tid]; }

UInt tkr_nthreads(void) { return next_index; }

void tkr_thread_new(ThreadId tid)
{
    tkr_thread *t = &threads[tid];
    if (next_index < tkr_threads_limit) {
        t->index = next_index++;
    } else {
        t->index = tkr_threads_limit - 1;
        folded++;
    }
    t->alive = 1;
    t->pending = TKR_DYN_NONE;
    t->last = &tkr_start_exit;
    spill_open(t);
    if (tkr_wet) tkw_thread_start(t, NULL);
}

void tkr_thread_switch(ThreadId tid)
{
    if (tid == cur_tid && tkr_cur) return;
    if (tkr_cur) tkr_cur->last = tkr_last;
    cur_tid = tid;
    tkr_cur = &threads[tid];
    if (!tkr_cur->alive) tkr_thread_new(tid);
    tkr_last = tkr_cur->last;
}

static tkr_exit **last_of(ThreadId tid)
{
    return tid == cur_tid && tkr_cur ? &tkr_last : &threads[tid].last;
}

void tkr_thread_end(ThreadId tid)
{
    tkr_thread *t = &threads[tid];
    if (!t->alive) return;
    tkr_exit **lastp = last_of(tid);
    if (is_inprog(*lastp)) *lastp = fault_exit(*lastp, VG_(get_IP)(tid));
    if (nends + 3 > cap_ends) {
        cap_ends = cap_ends ? 2 * cap_ends : 96;
        ends = VG_(realloc)("tkr.ends", ends, cap_ends * sizeof *ends);
    }
    ends[nends++] = t->index;
    ends[nends++] = (*lastp)->id;
    ends[nends++] = t->fd >= 0; /* its spill ends with it (a folded thread has none) */
    if (t->fd >= 0) {
        spill_end(t);
        if (t->fd >= 0) VG_(close)(t->fd);
        t->fd = -1;
    }
    t->alive = 0;
    if (tid == cur_tid) {
        tkr_cur = NULL;
        cur_tid = 0;
        tkr_last = &tkr_start_exit;
    }
}

void tkr_threads_end_all(void)
{
    for (UInt i = 1; i < VG_N_THREADS; i++)
        if (threads[i].alive) tkr_thread_end(i);
}

/* A signal is about to be delivered to tid: the next edge is a context
 * change.  When the thread is inside a superblock (a synchronous signal of
 * the instruction at the guest IP) the superblock left at that instruction. */
void tkr_signal(ThreadId tid)
{
    tkr_thread *t = &threads[tid];
    if (!t->alive) return;
    tkr_exit **lastp = last_of(tid);
    if (is_inprog(*lastp)) *lastp = fault_exit(*lastp, VG_(get_IP)(tid));
    t->pending = TKR_DYN_SIGNAL;
    if (tkr_wet) tkw_signal(t, False);
}

void tkr_sigreturn(ThreadId tid)
{
    tkr_thread *t = &threads[tid];
    if (t->alive) t->pending = TKR_DYN_SIGRETURN;
    if (t->alive && tkr_wet) tkw_signal(t, True);
}

/* In the child of a fork: only the forking thread is left, its records start
 * anew (numbered from 1: every record of a raw file ran, its ids are dense); the
 * trace (when recorded) goes to the child's own files. */
void tkr_run_reset_after_fork(ThreadId tid)
{
    tkr_code_forget_edges();
    VG_(memset)(slots, 0, edge_cap * sizeof *slots);
    nedges = 0;
    pool_left = 0; /* the parent's records stay allocated (a copy of its memory) */
    for (UInt i = 0; i < VG_N_THREADS; i++) {
        tkr_thread *t = &threads[i];
        if (t->fd >= 0) VG_(close)(t->fd);
        t->fd = -1;
        t->nbuf = 0;
        t->alive = 0;
    }
    nends = 0;
    next_index = 0;
    folded = 0;
    tkr_cur = NULL;
    cur_tid = 0;
    tkr_thread_switch(tid);
}

/* ---- output ------------------------------------------------------------------------------- */

void tkr_run_write(void *out)
{
    tkr_out *o = out;
    tkr_out_printf(o, "threads %u %u\n", next_index, folded);
    for (UInt i = 0; i < nedges; i++) {
        const tkr_edge *e = by_id[i];
        if (!e->count) continue;
        tkr_out_printf(o, "edge %u %u %u %u %u %llu\n", e->id, e->exit->id, e->tgt ? e->tgt->id : 0,
                       e->dyn, e->thread, e->count);
    }
    for (UInt i = 0; i + 2 < nends; i += 3)
        tkr_out_printf(o, "end %u %u %u\n", ends[i], ends[i + 1], ends[i + 2]);
    for (UInt i = 1; i < VG_N_THREADS; i++) {
        const tkr_thread *t = &threads[i];
        if (!t->alive) continue;
        const tkr_exit *last = *last_of(i);
        tkr_out_printf(o, "end %u %u %d\n", t->index, last->id, t->fd >= 0);
    }
}
