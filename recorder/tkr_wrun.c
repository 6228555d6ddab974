/* What runs with the WET mode: the shadow state and the stream of executed
 * instances (docs/record.md, "WET").
 *
 * An instance's timestamp is its place in the run (1, 2, ...: every thread's
 * instances in the order Valgrind ran them).  Shadow state holds, for every
 * 8 bytes of each thread's registers and every byte of memory, the instance
 * that defined it last: TKW_DEF(timestamp, instruction id) and the instance
 * number (0: none), 12 bytes.  Memory's is sparse: three levels of 64 Ki
 * entries over the 48-bit address space, a chunk of 64 KiB of memory (768 KiB
 * of shadow) made when first written, shared by the threads.  A use of several
 * bytes or slots names the latest of their definers (the highest timestamp).
 *
 * The stream (p<pid>.<gen>.wet, written through a 4 MiB buffer) is a
 * sequence of LEB128 numbers.  An even number 2z starts an instance of the
 * static instruction prev + 1 + unzigzag(z) (prev: the last one's id, 0 at
 * first); then its point (when the instruction has several), per port that
 * ran 0 (nothing defined what it used) or 1 + zigzag(definer's id - this id)
 * followed by the definer's instances since (0: its latest), and the value
 * (a number, or 16 or 32 raw bytes; none with --tkr-wet-values=no), and for a
 * call, a return or an indirect jump, zigzag(%rsp after it - the thread's
 * previous such %rsp).  Instance numbers count from 0 per
 * instruction; an instance's own counts after its ports.  An odd number
 * 2k + 1 is an event: k = 1 THREAD T (the instances that follow are thread
 * T's), 2 SIGNAL (a handler starts in the current thread), 3 SIGRETURN (it
 * returns), 0 END (the last). */
#include "tkr.h"

#include "libvex_guest_amd64.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define WBUF (4u << 20)
#define WREC_MAX 2048 /* bytes an instance or an event takes at most */

enum { EV_END = 0, EV_THREAD = 1, EV_SIGNAL = 2, EV_SIGRETURN = 3 };

ULong tkw_scr[TKW_MAX_SLOTS];

static Bool wet_on;
static ULong now;
static UChar *wbuf;
static UInt wn;
static Int wfd = -1;
static const tkr_thread *wthread;
static UInt wprev;
static UInt next_windex;

/* libvex: the flags of a thunk (guest_amd64_helpers.c) */
extern ULong amd64g_calculate_rflags_all(ULong cc_op, ULong cc_dep1, ULong cc_dep2, ULong cc_ndep);

/* ---- registers ---------------------------------------------------------------------------- */

#define NREGS 64
#define STATE_SIZE sizeof(VexGuestAMD64State)
#define NSLOTS ((STATE_SIZE + 7) / 8)

static UChar reg_of[STATE_SIZE];
static const HChar *reg_names[NREGS];
static UShort reg_lo[NREGS], reg_n[NREGS];
static UInt nregs, flags_reg, rsp_reg;

static UInt add_reg(const HChar *name, UInt off, UInt size)
{
    UInt r = ++nregs;
    tl_assert(r < NREGS);
    reg_names[r] = name;
    reg_lo[r] = (UShort)(off / 8);
    reg_n[r] = (UShort)((off + size + 7) / 8 - off / 8);
    for (UInt i = 0; i < size; i++) reg_of[off + i] = (UChar)r;
    return r;
}

#define REG(name, field) \
    add_reg(name, offsetof(VexGuestAMD64State, field), sizeof(((VexGuestAMD64State *)0)->field))

/* The registers of the program: what is not here (%rip, the rounding modes,
 * Valgrind's own fields) is neither a port nor a definition. */
void tkw_reg_table_init(void)
{
    static const HChar *const gpr[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                         "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    static const HChar *const ymm[16] = {"ymm0",  "ymm1",  "ymm2",  "ymm3", "ymm4",  "ymm5",
                                         "ymm6",  "ymm7",  "ymm8",  "ymm9", "ymm10", "ymm11",
                                         "ymm12", "ymm13", "ymm14", "ymm15"};
    if (nregs) return;
    for (UInt i = 0; i < 16; i++) {
        UInt r = add_reg(gpr[i], offsetof(VexGuestAMD64State, guest_RAX) + 8 * i, 8);
        if (i == 4) rsp_reg = r;
    }
    flags_reg = add_reg("flags", offsetof(VexGuestAMD64State, guest_CC_OP), 32);
    REG("df", guest_DFLAG);
    REG("ac", guest_ACFLAG);
    REG("id", guest_IDFLAG);
    REG("fs", guest_FS_CONST);
    REG("gs", guest_GS_CONST);
    for (UInt i = 0; i < 16; i++)
        add_reg(ymm[i], offsetof(VexGuestAMD64State, guest_YMM0) + 32 * i, 32);
    REG("ftop", guest_FTOP);
    REG("st", guest_FPREG);
    REG("fptag", guest_FPTAG);
    REG("fpsw", guest_FC3210);
}

UInt tkw_reg_of(UInt offset) { return offset < STATE_SIZE ? reg_of[offset] : 0; }

const HChar *tkw_reg_name(UInt reg) { return reg && reg <= nregs ? reg_names[reg] : "?"; }

void tkw_reg_range(UInt reg, UShort *lo, UShort *n)
{
    *lo = reg_lo[reg];
    *n = reg_n[reg];
}

Bool tkw_reg_is_flags(UInt reg) { return reg == flags_reg; }

UInt tkw_reg_rsp(void) { return rsp_reg; }

UInt tkw_nslots(void) { return NSLOTS; }

/* ---- shadow memory ------------------------------------------------------------------------ */

#define CHUNK_BITS 16
#define CHUNK (1u << CHUNK_BITS)

typedef struct chunk {
    ULong def[CHUNK]; /* TKW_DEF of the definer of each byte */
    UInt inst[CHUNK]; /* its instance */
} chunk;

static chunk ***l1; /* [addr >> 32] -> [addr >> 16 & 0xffff] -> chunk */
static Addr last_base = 1; /* the chunk of the last lookup */
static chunk *last_chunk;

static chunk *chunk_of(Addr a, Bool make)
{
    Addr base = a & ~(Addr)(CHUNK - 1);
    if (base == last_base) return last_chunk;
    if (a >> 48) return NULL;
    chunk **l2 = l1[a >> 32];
    if (!l2) {
        if (!make) return NULL;
        l2 = l1[a >> 32] = VG_(calloc)("tkw.shadow2", CHUNK, sizeof *l2);
    }
    chunk *c = l2[(a >> CHUNK_BITS) & (CHUNK - 1)];
    if (!c) {
        if (!make) return NULL;
        c = l2[(a >> CHUNK_BITS) & (CHUNK - 1)] = VG_(calloc)("tkw.shadow", 1, sizeof *c);
    }
    last_base = base;
    last_chunk = c;
    return c;
}

/* The latest definer of the bytes [a, a + n): its TKW_DEF (0: none), *inst its instance. */
static ULong shadow_max(Addr a, UInt n, UInt *inst)
{
    ULong m = 0;
    while (n > 0) {
        UInt off = (UInt)(a & (CHUNK - 1)), k = CHUNK - off < n ? CHUNK - off : n;
        const chunk *c = chunk_of(a, False);
        if (c)
            for (UInt i = 0; i < k; i++)
                if (c->def[off + i] > m) {
                    m = c->def[off + i];
                    *inst = c->inst[off + i];
                }
        a += k;
        n -= k;
    }
    return m;
}

static void shadow_set(Addr a, SizeT n, ULong def, UInt inst, Bool make)
{
    while (n > 0) {
        UInt off = (UInt)(a & (CHUNK - 1));
        SizeT k = CHUNK - off < n ? CHUNK - off : n;
        chunk *c = chunk_of(a, make);
        if (c)
            for (SizeT i = 0; i < k; i++) {
                c->def[off + i] = def;
                c->inst[off + i] = inst;
            }
        a += k;
        n -= k;
    }
}

/* ---- the stream ------------------------------------------------------------------------------ */

static inline void put(ULong v)
{
    while (v >= 0x80) {
        wbuf[wn++] = (UChar)(v | 0x80);
        v >>= 7;
    }
    wbuf[wn++] = (UChar)v;
}

void tkw_stream_flush(void)
{
    const UChar *p = wbuf;
    UInt left = wn;
    while (left > 0 && wfd >= 0) {
        Int n = VG_(write)(wfd, p, (Int)left);
        if (n <= 0) {
            VG_(umsg)("tkrecord: cannot write the WET stream; the recording stops here\n");
            VG_(close)(wfd);
            wfd = -1;
            wet_on = False;
            break;
        }
        p += n;
        left -= (UInt)n;
    }
    wn = 0;
}

void tkw_stream_open(void)
{
    HChar *path = tkr_path(".wet");
    SysRes r = VG_(open)(path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY, 0600);
    if (sr_isError(r)) {
        VG_(fmsg)("tkrecord: cannot create %s\n", path);
        VG_(exit)(1);
    }
    wfd = (Int)sr_Res(r);
    VG_(free)(path);
    if (!wbuf) wbuf = VG_(malloc)("tkw.buf", WBUF);
    wn = 0;
    wet_on = True;
}

/* The end of the recording (the end of the run, an exec, a fork's child). */
void tkw_stop(void)
{
    if (wet_on && wfd >= 0) {
        put((EV_END << 1) | 1);
        tkw_stream_flush();
    }
    if (wfd >= 0) VG_(close)(wfd);
    wfd = -1;
    wet_on = False;
}

/* In a forked child: the stream is the parent's; the child records nothing. */
void tkw_abandon(void)
{
    if (wfd >= 0) VG_(close)(wfd);
    wfd = -1;
    wn = 0;
    wet_on = False;
}

static void event(const tkr_thread *t, UInt kind)
{
    if (wn > WBUF - WREC_MAX) tkw_stream_flush();
    if (t != wthread) {
        put((EV_THREAD << 1) | 1);
        put(t->windex);
        wthread = t;
    }
    if (kind != EV_THREAD) put((kind << 1) | 1);
}

/* ---- the helper ---------------------------------------------------------------------------- */

static ULong reg_max(const tkr_thread *t, const tkw_op *o, UInt *inst)
{
    ULong m = 0;
    for (UInt i = 0; i < o->n; i++)
        if (t->wregs[o->lo + i] > m) {
            m = t->wregs[o->lo + i];
            *inst = t->wregs_inst[o->lo + i];
        }
    return m;
}

static void put_value(const tkw_point *p)
{
    const ULong *s = &tkw_scr[p->vslot];
    ULong mask = p->vbytes >= 8 ? ~0ULL : (1ULL << (8 * p->vbytes)) - 1;
    switch (p->vkind) {
    case TKW_V_INT: put(s[0] & mask); break;
    case TKW_V_CONST: put(p->vconst); break;
    case TKW_V_FLAGS: put(amd64g_calculate_rflags_all(s[0], s[1], s[2], s[3]) & 0x8D5); break;
    case TKW_V_CAS: put((s[0] & mask) == (s[2] & mask) ? s[1] & mask : s[0] & mask); break;
    case TKW_V_WIDE:
        VG_(memcpy)(wbuf + wn, s, p->vbytes);
        wn += p->vbytes;
        break;
    default: break;
    }
}

/* Its definitions: each now names this instance (def, inst), but for a copy's (cdef, cinst),
 * the definer of what it copied, when there is one, except for %rsp. */
static void apply_defs(const tkw_point *p, tkr_thread *t, ULong def, UInt inst, ULong cdef,
                       UInt cinst)
{
    const tkw_insn *in = p->insn;
    for (UInt k = 0; k < p->ndefs; k++) {
        const tkw_op *o = &in->defs[k];
        Bool pass = cdef && (o->kind != TKW_REG || o->reg != rsp_reg);
        ULong d = pass ? cdef : def;
        UInt di = pass ? cinst : inst;
        if (o->kind == TKW_REG) {
            for (UInt i = 0; i < o->n; i++) {
                t->wregs[o->lo + i] = d;
                t->wregs_inst[o->lo + i] = di;
            }
        } else if (o->cas) {
            if (tkw_scr[o->guard] == tkw_scr[o->guard + 1])
                shadow_set(tkw_scr[o->slot], o->n, d, di, True);
        } else if (o->guard == TKW_NOSLOT || tkw_scr[o->guard]) {
            shadow_set(tkw_scr[o->slot], o->n, d, di, True);
        }
    }
}

static inline ULong zigzag(Long d) { return ((ULong)d << 1) ^ (ULong)(d >> 63); }

/* An instance completed at point p: its dependences, then its definitions. */
VG_REGPARM(1) void tkw_exec(const tkw_point *p)
{
    tkr_thread *t = tkr_cur;
    if (UNLIKELY(!wet_on || !t || !t->wregs)) return;
    if (UNLIKELY(wn > WBUF - WREC_MAX)) tkw_stream_flush();
    if (UNLIKELY(t != wthread)) event(t, EV_THREAD);
    tkw_insn *in = (tkw_insn *)p->insn;
    ULong def = TKW_DEF(++now, in->id);
    put(zigzag((Long)in->id - (Long)wprev - 1) << 1);
    wprev = in->id;
    if (in->npoints > 1) put(p->index);
    ULong cdef = 0;
    UInt cinst = 0;
    for (UInt k = 0; k < p->nports; k++) {
        const tkw_op *o = &in->ports[k];
        ULong d = 0;
        UInt di = 0;
        if (o->kind == TKW_REG)
            d = reg_max(t, o, &di);
        else if (o->guard == TKW_NOSLOT || o->cas || tkw_scr[o->guard])
            d = shadow_max(tkw_scr[o->slot], o->n, &di);
        if (!d) {
            put(0);
            continue;
        }
        if (k + 1 == in->copy) cdef = d, cinst = di;
        UInt did = (UInt)(d & TKW_MAX_INSNS);
        put(1 + zigzag((Long)did - (Long)in->id));
        put(tkw_ins_list[did - 1]->count - 1 - di);
    }
    UInt inst = in->count++;
    apply_defs(p, t, def, inst, cdef, cinst);
    if (tkr_wet_values) put_value(p);
    if (p->rsp) {
        ULong rsp = tkw_scr[TKW_RSP_SLOT];
        put(zigzag((Long)(rsp - t->wrsp)));
        t->wrsp = rsp;
    }
    t->wlast = def;
    t->wlast_inst = inst;
}

/* ---- events of the core ---------------------------------------------------------------------- */

void tkw_init(void)
{
    tkw_reg_table_init();
    l1 = VG_(calloc)("tkw.shadow1", CHUNK, sizeof *l1);
}

/* A thread starts (parent: the thread that made it, whose registers it starts with). */
void tkw_thread_start(tkr_thread *t, tkr_thread *parent)
{
    if (!t->wregs) {
        t->wregs = VG_(malloc)("tkw.regs", NSLOTS * sizeof *t->wregs);
        t->wregs_inst = VG_(malloc)("tkw.regs", NSLOTS * sizeof *t->wregs_inst);
    }
    if (parent && parent->wregs) {
        VG_(memcpy)(t->wregs, parent->wregs, NSLOTS * sizeof *t->wregs);
        VG_(memcpy)(t->wregs_inst, parent->wregs_inst, NSLOTS * sizeof *t->wregs_inst);
    } else {
        VG_(memset)(t->wregs, 0, NSLOTS * sizeof *t->wregs);
        VG_(memset)(t->wregs_inst, 0, NSLOTS * sizeof *t->wregs_inst);
    }
    t->windex = next_windex++;
    t->wlast = 0;
    t->wrsp = 0;
}

void tkw_signal(tkr_thread *t, Bool sigreturn)
{
    if (wet_on && t->wregs) event(t, sigreturn ? EV_SIGRETURN : EV_SIGNAL);
}

/* After a system call: its result register was defined by the system call instruction. */
void tkw_post_syscall(tkr_thread *t, UInt sysno)
{
    (void)sysno;
    if (!wet_on || !t->wregs || !t->wlast) return;
    UShort lo, n;
    tkw_reg_range(tkw_reg_of(offsetof(VexGuestAMD64State, guest_RAX)), &lo, &n);
    t->wregs[lo] = t->wlast;
    t->wregs_inst[lo] = t->wlast_inst;
}

/* Memory the kernel wrote for the thread's last instance (a system call's buffers). */
void tkw_mem_written(Addr a, SizeT len, tkr_thread *t)
{
    if (wet_on && t && t->wlast) shadow_set(a, len, t->wlast, t->wlast_inst, True);
}

/* Memory mapped or unmapped: nothing defined it. */
void tkw_mem_cleared(Addr a, SizeT len)
{
    if (wet_on && len < (1ULL << 40)) shadow_set(a, len, 0, 0, False);
}

void tkw_mem_copied(Addr from, Addr to, SizeT len)
{
    if (!wet_on) return;
    for (SizeT i = 0; i < len; i++) {
        const chunk *c = chunk_of(from + i, False);
        UInt off = (UInt)((from + i) & (CHUNK - 1));
        ULong v = c ? c->def[off] : 0;
        UInt inst = c ? c->inst[off] : 0;
        if (v || chunk_of(to + i, False)) shadow_set(to + i, 1, v, inst, True);
    }
}
