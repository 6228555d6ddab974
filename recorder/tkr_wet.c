/* The WET mode (--tkr-wet): whole execution traces (docs/record.md, "WET").
 *
 * At translation, each instruction's IR gives its static ports and
 * definitions, in IR order (each superblock is one instruction: VEX replaces
 * a GET of a register an earlier instruction of the superblock wrote by the
 * value written, which would hide the read):
 *   - a use port per register it reads (GET, GETI, a helper's guest-state
 *     read) before writing it, the flags thunk counting as one register
 *     ("flags"); per memory operand it loads (Load, LoadG, CAS, a helper's
 *     memory read);
 *   - a definition per register it writes (PUT, PUTI, a helper's write) and
 *     per memory operand it stores (Store, StoreG, CAS, a helper's write).
 * Where the instruction completes (before the next instruction, before the
 * final jump, before each side exit that is taken: a guarded call), a helper
 * (tkw_exec, tkr_wrun.c) gets a *point*: the ports and definitions that ran
 * up to there, where the addresses and the value defined are (stored into
 * the scratch words tkw_scr just before the call).
 *
 * The value an instance defines is the first of, in IR order: a memory store
 * (a CAS: what memory holds after it); else a register other than %rsp; else
 * %rsp; else the flags (computed from the thunk); else %rip, where control
 * goes next (branches, nop). */
#include "tkr.h"

#include "libvex_guest_amd64.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"

#define MAX_OPS 32
#define MAX_POINTS 8

enum { VS_NONE, VS_GET, VS_ATOM, VS_CAS, VS_FLAGS, VS_CONST };

typedef struct op_plan {
    tkw_op op;
    IRExpr *addr; /* MEM: the address */
    IRExpr *guard; /* MEM: the guard (NULL: none); CAS def: the old value */
    IRExpr *expd; /* CAS def: the expected value */
} op_plan;

typedef struct val_plan {
    UInt src, prio; /* VS_*; 4 store, 3 register, 2 %rsp, 1 flags */
    Int off; /* VS_GET */
    IRType ty; /* VS_GET, VS_ATOM: the value's type */
    IRExpr *atom; /* VS_ATOM; VS_CAS: the new value */
    IRExpr *old, *expd; /* VS_CAS */
    ULong cst; /* VS_CONST */
} val_plan;

typedef struct pt_plan {
    IRExpr *guard; /* a side exit's guard; NULL: the end */
    UInt nports, ndefs;
    val_plan v;
} pt_plan;

typedef struct in_plan {
    Addr addr;
    UInt len, ctl, stack_op, copy;
    UInt nports, ndefs, npoints;
    op_plan ports[MAX_OPS], defs[MAX_OPS];
    pt_plan points[MAX_POINTS];
    val_plan best; /* the value so far */
    UInt nslots; /* scratch words of the addresses and guards */
    tkw_insn *insn;
    tkw_point *rt; /* its runtime points */
} in_plan;

static in_plan *plans; /* of the superblock being instrumented */
static UInt nplans;
static const IRSB *cur_in;

/* ---- static instructions ----------------------------------------------------------- */

static tkw_insn **ins_slots;
static UInt ins_cap, nins;
tkw_insn **tkw_ins_list; /* by id - 1 */
#define ins_list tkw_ins_list
static UInt cap_ins_list;

static UInt addr_hash(Addr a)
{
    ULong x = (ULong)a * 0x9E3779B97F4A7C15ULL;
    return (UInt)(x >> 32);
}

static void ins_rehash(void)
{
    UInt cap = ins_cap ? 2 * ins_cap : 16384;
    tkw_insn **slots = VG_(calloc)("tkw.ins", cap, sizeof *slots);
    for (UInt i = 0; i < nins; i++) {
        tkw_insn *w = ins_list[i];
        UInt j = addr_hash(w->addr) & (cap - 1);
        w->hnext = slots[j];
        slots[j] = w;
    }
    if (ins_slots) VG_(free)(ins_slots);
    ins_slots = slots;
    ins_cap = cap;
}

static Bool same_op(const tkw_op *a, const op_plan *b)
{
    return a->kind == b->op.kind && a->reg == b->op.reg && a->n == b->op.n && a->lo == b->op.lo;
}

static UInt venc_of(const pt_plan *p);

static Bool insn_matches(const tkw_insn *w, const in_plan *pl)
{
    if (w->addr != pl->addr || w->len != pl->len || w->nports != pl->nports ||
        w->ndefs != pl->ndefs || w->npoints != pl->npoints || w->ctl != pl->ctl ||
        w->copy != pl->copy)
        return False;
    for (UInt i = 0; i < pl->nports; i++)
        if (!same_op(&w->ports[i], &pl->ports[i])) return False;
    for (UInt i = 0; i < pl->ndefs; i++)
        if (!same_op(&w->defs[i], &pl->defs[i])) return False;
    for (UInt i = 0; i < pl->npoints; i++)
        if (w->pt_ports[i] != pl->points[i].nports || w->pt_venc[i] != venc_of(&pl->points[i]))
            return False;
    return True;
}

/* The static instruction of a plan: the one seen before at its address with the
 * same ports, definitions and points, else a new one (code generated again). */
static tkw_insn *insn_get(const in_plan *pl, UInt sb_id, UInt index)
{
    if (!ins_cap) ins_rehash();
    UInt j = addr_hash(pl->addr) & (ins_cap - 1);
    for (tkw_insn *w = ins_slots[j]; w; w = w->hnext)
        if (insn_matches(w, pl)) return w;
    if (nins == TKW_MAX_INSNS) {
        const HChar *what = "distinct instructions: more than the WET mode can tell apart";
        VG_(fmsg)("tkrecord: more than %u %s\n", TKW_MAX_INSNS, what);
        VG_(exit)(1);
    }
    tkw_insn *w = VG_(calloc)("tkw.insn", 1, sizeof *w);
    w->id = ++nins;
    w->addr = pl->addr;
    w->sb = sb_id;
    w->index = index;
    w->len = (UChar)pl->len;
    w->ctl = (UChar)pl->ctl;
    w->copy = (UChar)pl->copy;
    w->nports = (UChar)pl->nports;
    w->ndefs = (UChar)pl->ndefs;
    w->npoints = (UChar)pl->npoints;
    w->ports = VG_(malloc)("tkw.ops", (pl->nports + pl->ndefs + 1) * sizeof *w->ports);
    w->defs = w->ports + pl->nports;
    for (UInt i = 0; i < pl->nports; i++) w->ports[i] = pl->ports[i].op;
    for (UInt i = 0; i < pl->ndefs; i++) w->defs[i] = pl->defs[i].op;
    w->pt_ports = VG_(malloc)("tkw.pts", 2 * pl->npoints + 1);
    w->pt_venc = w->pt_ports + pl->npoints;
    for (UInt i = 0; i < pl->npoints; i++) {
        w->pt_ports[i] = (UChar)pl->points[i].nports;
        w->pt_venc[i] = (UChar)venc_of(&pl->points[i]);
    }
    w->hnext = ins_slots[j];
    ins_slots[j] = w;
    if (nins > cap_ins_list) {
        cap_ins_list = cap_ins_list ? 2 * cap_ins_list : 16384;
        ins_list = VG_(realloc)("tkw.inslist", ins_list, cap_ins_list * sizeof *ins_list);
    }
    ins_list[nins - 1] = w;
    if (nins > 2 * ins_cap) ins_rehash();
    return w;
}

/* ---- the analysis --------------------------------------------------------------------- */

/* Value bytes of a type (0: a type whose value is not recorded). */
static UInt type_bytes(IRType ty)
{
    switch (ty) {
    case Ity_I1:
    case Ity_I8: return 1;
    case Ity_I16: return 2;
    case Ity_I32:
    case Ity_F32: return 4;
    case Ity_I64:
    case Ity_F64:
    case Ity_D64: return 8;
    case Ity_I128:
    case Ity_V128: return 16;
    case Ity_V256: return 32;
    default: return 0;
    }
}

static UInt value_bytes(const val_plan *v)
{
    switch (v->src) {
    case VS_GET:
    case VS_ATOM: return type_bytes(v->ty);
    case VS_CAS: return type_bytes(v->ty) <= 8 ? type_bytes(v->ty) : 0;
    case VS_FLAGS:
    case VS_CONST: return 8;
    default: return 0;
    }
}

/* How the stream holds a point's value: 0 none, 1 a LEB128 number, 16 or 32 raw bytes. */
static UInt venc_of(const pt_plan *p)
{
    UInt b = value_bytes(&p->v);
    return b == 0 ? 0 : b <= 8 ? 1 : b;
}

static op_plan *find_reg(op_plan *ops, UInt n, UInt reg)
{
    for (UInt i = 0; i < n; i++)
        if (ops[i].op.kind == TKW_REG && ops[i].op.reg == reg) return &ops[i];
    return NULL;
}

/* A range of guest state [off, off + size) read (def False) or written. */
static void reg_access(in_plan *pl, UInt off, UInt size, Bool def)
{
    for (UInt at = off; at < off + size;) {
        UInt reg = tkw_reg_of(at);
        if (!reg) {
            at++;
            continue;
        }
        UShort lo, n;
        tkw_reg_range(reg, &lo, &n);
        UInt end = at + 1;
        while (end < off + size && tkw_reg_of(end) == reg) end++;
        UShort slo = tkw_reg_is_flags(reg) ? lo : (UShort)(at / 8);
        UShort shi = tkw_reg_is_flags(reg) ? lo + n : (UShort)((end + 7) / 8);
        at = end;
        op_plan *ops = def ? pl->defs : pl->ports;
        UInt *cnt = def ? &pl->ndefs : &pl->nports;
        if (!def && (find_reg(pl->defs, pl->ndefs, reg) || (pl->stack_op && reg == tkw_reg_rsp())))
            continue; /* its own value, or the implicit %rsp of push, pop, call, ret */
        op_plan *o = find_reg(ops, *cnt, reg);
        if (!o) {
            if (*cnt == MAX_OPS) continue;
            o = &ops[(*cnt)++];
            VG_(memset)(o, 0, sizeof *o);
            o->op.kind = TKW_REG;
            o->op.reg = (UShort)reg;
            o->op.lo = slo;
            o->op.n = shi - slo;
            o->op.guard = TKW_NOSLOT;
        } else {
            UShort hi = o->op.lo + o->op.n;
            if (slo < o->op.lo) o->op.lo = slo;
            if (shi > hi) hi = shi;
            o->op.n = hi - o->op.lo;
        }
    }
}

static UInt new_slot(in_plan *pl)
{
    return pl->nslots < TKW_MAX_SLOTS - 8 ? pl->nslots++ : TKW_NOSLOT;
}

/* A memory operand of size bytes at addr read (def False) or written. */
static op_plan *mem_access(in_plan *pl, IRExpr *addr, UInt size, IRExpr *guard, Bool def)
{
    op_plan *ops = def ? pl->defs : pl->ports;
    UInt *cnt = def ? &pl->ndefs : &pl->nports;
    if (*cnt == MAX_OPS || size == 0) return NULL;
    UInt slot = new_slot(pl), gslot = TKW_NOSLOT;
    if (guard && !(guard->tag == Iex_Const && guard->Iex.Const.con->Ico.U1)) gslot = new_slot(pl);
    if (slot == TKW_NOSLOT || (guard && gslot == TKW_NOSLOT && guard->tag != Iex_Const))
        return NULL;
    op_plan *o = &ops[(*cnt)++];
    VG_(memset)(o, 0, sizeof *o);
    o->op.kind = TKW_MEM;
    o->op.slot = (UChar)slot;
    o->op.guard = (UChar)gslot;
    o->op.n = (UShort)(size > 0xFFFF ? 0xFFFF : size);
    o->addr = addr;
    o->guard = gslot == TKW_NOSLOT ? NULL : guard;
    return o;
}

static void value_candidate(in_plan *pl, UInt src, UInt prio, Int off, IRType ty, IRExpr *atom)
{
    if (prio <= pl->best.prio || type_bytes(ty) == 0) return;
    VG_(memset)(&pl->best, 0, sizeof pl->best);
    pl->best.src = src;
    pl->best.prio = prio;
    pl->best.off = off;
    pl->best.ty = ty;
    pl->best.atom = atom;
}

static void reg_value(in_plan *pl, Int off, IRType ty)
{
    UInt reg = tkw_reg_of((UInt)off);
    if (!reg) return;
    UInt prio = tkw_reg_is_flags(reg) ? 1 : reg == tkw_reg_rsp() ? 2 : 3;
    if (tkw_reg_is_flags(reg)) {
        if (pl->best.prio < 1) {
            VG_(memset)(&pl->best, 0, sizeof pl->best);
            pl->best.src = VS_FLAGS;
            pl->best.prio = 1;
        }
        return;
    }
    value_candidate(pl, VS_GET, prio, off, ty, NULL);
}

static void dirty_effects(in_plan *pl, const IRDirty *d)
{
    for (Int i = 0; i < d->nFxState; i++) {
        UInt fx = d->fxState[i].fx;
        for (UInt r = 0; r <= d->fxState[i].nRepeats; r++) {
            UInt off = d->fxState[i].offset + r * d->fxState[i].repeatLen;
            if (fx == Ifx_Read || fx == Ifx_Modify) reg_access(pl, off, d->fxState[i].size, False);
        }
    }
    IRExpr *g = d->guard;
    if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify) mem_access(pl, d->mAddr, d->mSize, g, False);
    for (Int i = 0; i < d->nFxState; i++) {
        UInt fx = d->fxState[i].fx;
        for (UInt r = 0; r <= d->fxState[i].nRepeats; r++) {
            UInt off = d->fxState[i].offset + r * d->fxState[i].repeatLen;
            if (fx == Ifx_Write || fx == Ifx_Modify) {
                reg_access(pl, off, d->fxState[i].size, True);
                if (d->fxState[i].size == 8) reg_value(pl, (Int)off, Ity_I64);
            }
        }
    }
    if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify) mem_access(pl, d->mAddr, d->mSize, g, True);
}

static void cas_effects(in_plan *pl, const IRCAS *c)
{
    IRType ty = typeOfIRExpr(cur_in->tyenv, c->dataLo);
    UInt size = type_bytes(ty) * (c->oldHi == IRTemp_INVALID ? 1 : 2);
    mem_access(pl, c->addr, size, NULL, False);
    op_plan *o = mem_access(pl, c->addr, size, NULL, True);
    if (o && c->oldHi == IRTemp_INVALID) {
        UInt g = new_slot(pl), e = new_slot(pl);
        if (g != TKW_NOSLOT && e == g + 1) {
            o->op.cas = 1;
            o->op.guard = (UChar)g;
            o->guard = IRExpr_RdTmp(c->oldLo);
            o->expd = c->expdLo;
        }
    }
    if (pl->best.prio < 4 && c->oldHi == IRTemp_INVALID) {
        VG_(memset)(&pl->best, 0, sizeof pl->best);
        pl->best.src = VS_CAS;
        pl->best.prio = 4;
        pl->best.ty = ty;
        pl->best.atom = c->dataLo;
        pl->best.old = IRExpr_RdTmp(c->oldLo);
        pl->best.expd = c->expdLo;
    }
}

/* A side exit leaves from inside the instruction: does the instruction complete there
 * (a branch taken, a rep instruction done) or raise a signal? */
static Bool completes(IRJumpKind jk)
{
    switch (jk) {
    case Ijk_SigTRAP:
    case Ijk_SigILL:
    case Ijk_SigSEGV:
    case Ijk_SigBUS:
    case Ijk_SigFPE:
    case Ijk_SigFPE_IntDiv:
    case Ijk_SigFPE_IntOvf:
    case Ijk_NoDecode:
    case Ijk_EmFail:
    case Ijk_MapFail: return False;
    default: return True;
    }
}

static void add_point(in_plan *pl, IRExpr *guard, const val_plan *rip)
{
    if (pl->npoints == MAX_POINTS) return;
    pt_plan *p = &pl->points[pl->npoints++];
    p->guard = guard;
    p->nports = pl->nports;
    p->ndefs = pl->ndefs;
    p->v = pl->best.src != VS_NONE ? pl->best : *rip;
}

static void stmt_effects(in_plan *pl, IRStmt *st)
{
    switch (st->tag) {
    case Ist_WrTmp: {
        IRExpr *e = st->Ist.WrTmp.data;
        if (e->tag == Iex_Get)
            reg_access(pl, e->Iex.Get.offset, type_bytes(e->Iex.Get.ty), False);
        else if (e->tag == Iex_GetI)
            reg_access(pl, e->Iex.GetI.descr->base,
                       e->Iex.GetI.descr->nElems * sizeofIRType(e->Iex.GetI.descr->elemTy), False);
        else if (e->tag == Iex_Load)
            mem_access(pl, e->Iex.Load.addr, sizeofIRType(e->Iex.Load.ty), NULL, False);
        break;
    }
    case Ist_Put: {
        IRType ty = typeOfIRExpr(cur_in->tyenv, st->Ist.Put.data);
        reg_access(pl, st->Ist.Put.offset, sizeofIRType(ty), True);
        reg_value(pl, st->Ist.Put.offset, ty);
        break;
    }
    case Ist_PutI: {
        const IRRegArray *a = st->Ist.PutI.details->descr;
        reg_access(pl, a->base, a->nElems * sizeofIRType(a->elemTy), True);
        break;
    }
    case Ist_Store: {
        IRType ty = typeOfIRExpr(cur_in->tyenv, st->Ist.Store.data);
        mem_access(pl, st->Ist.Store.addr, sizeofIRType(ty), NULL, True);
        value_candidate(pl, VS_ATOM, 4, 0, ty, st->Ist.Store.data);
        break;
    }
    case Ist_StoreG: {
        IRStoreG *sg = st->Ist.StoreG.details;
        IRType ty = typeOfIRExpr(cur_in->tyenv, sg->data);
        mem_access(pl, sg->addr, sizeofIRType(ty), sg->guard, True);
        value_candidate(pl, VS_ATOM, 4, 0, ty, sg->data);
        break;
    }
    case Ist_LoadG: {
        IRLoadG *lg = st->Ist.LoadG.details;
        IRType ty = typeOfIRTemp(cur_in->tyenv, lg->dst), arg;
        typeOfIRLoadGOp(lg->cvt, &ty, &arg);
        mem_access(pl, lg->addr, sizeofIRType(arg), lg->guard, False);
        break;
    }
    case Ist_CAS: cas_effects(pl, st->Ist.CAS.details); break;
    case Ist_LLSC: {
        IRExpr *a = st->Ist.LLSC.addr;
        if (st->Ist.LLSC.storedata) {
            IRType ty = typeOfIRExpr(cur_in->tyenv, st->Ist.LLSC.storedata);
            mem_access(pl, a, sizeofIRType(ty), IRExpr_RdTmp(st->Ist.LLSC.result), True);
        } else {
            mem_access(pl, a, sizeofIRType(typeOfIRTemp(cur_in->tyenv, st->Ist.LLSC.result)), NULL,
                       False);
        }
        break;
    }
    case Ist_Dirty: dirty_effects(pl, st->Ist.Dirty.details); break;
    default: break;
    }
}

/* The kind of the superblock's exit at instruction k (TKR_K_FALL: none). */
static UInt ctl_of(const tkr_sb *sb, UInt k)
{
    UInt kind = TKR_K_FALL;
    for (UInt i = 0; i < sb->nexits; i++)
        if (sb->exits[i].instr == k && sb->exits[i].kind != TKR_K_FALL) kind = sb->exits[i].kind;
    return kind;
}

static void begin_plan(in_plan *pl, const tkr_sb *sb, UInt k, Addr addr, UInt len)
{
    VG_(memset)(pl, 0, sizeof *pl);
    pl->addr = addr;
    pl->len = len;
    pl->ctl = ctl_of(sb, k);
    pl->stack_op = tkr_insn_stack_op(addr, len);
}

/* The end of instruction pl: its end point (when it completes there), with the
 * implicit operands of a system call. last: the superblock's last instruction. */
/* A push, pop or leave passes on the definer of what it copies: its first memory port (a
 * pop, leave, a push of memory), else its one register port (a push of a register). */
static void copy_port(in_plan *pl)
{
    UInt nreg = 0, reg = 0;
    pl->copy = 0;
    if (pl->stack_op != 2) return;
    for (UInt i = 0; i < pl->nports; i++) {
        if (pl->ports[i].op.kind == TKW_MEM) {
            pl->copy = i + 1;
            return;
        }
        nreg++;
        reg = i + 1;
    }
    if (nreg == 1) pl->copy = reg;
}

static void end_plan(in_plan *pl, Bool last)
{
    copy_port(pl);
    val_plan rip;
    VG_(memset)(&rip, 0, sizeof rip);
    rip.src = VS_CONST;
    rip.cst = pl->addr + pl->len;
    if (last) {
        if (!completes(cur_in->jumpkind)) return;
        if (cur_in->next->tag == Iex_Const) {
            rip.cst = cur_in->next->Iex.Const.con->Ico.U64;
        } else {
            rip.src = VS_ATOM;
            rip.ty = Ity_I64;
            rip.atom = cur_in->next;
        }
        if (cur_in->jumpkind == Ijk_Sys_syscall) {
            static const Int args[] = {
                offsetof(VexGuestAMD64State, guest_RAX), offsetof(VexGuestAMD64State, guest_RDI),
                offsetof(VexGuestAMD64State, guest_RSI), offsetof(VexGuestAMD64State, guest_RDX),
                offsetof(VexGuestAMD64State, guest_R10), offsetof(VexGuestAMD64State, guest_R8),
                offsetof(VexGuestAMD64State, guest_R9)};
            for (UInt i = 0; i < sizeof args / sizeof *args; i++)
                reg_access(pl, (UInt)args[i], 8, False);
        }
    }
    add_point(pl, NULL, &rip);
}

/* Plans of every instruction of the superblock. */
static void analyse(const IRSB *in, const tkr_sb *sb)
{
    cur_in = in;
    nplans = 0;
    in_plan *pl = NULL;
    for (Int i = 0; i < in->stmts_used; i++) {
        IRStmt *st = in->stmts[i];
        if (st->tag == Ist_IMark && st->Ist.IMark.len) {
            if (pl) end_plan(pl, False);
            pl = &plans[nplans];
            begin_plan(pl, sb, nplans, (Addr)st->Ist.IMark.addr + st->Ist.IMark.delta,
                       st->Ist.IMark.len);
            nplans++;
        } else if (!pl) {
            continue;
        } else if (st->tag == Ist_Exit) {
            if (!completes(st->Ist.Exit.jk)) continue;
            val_plan rip;
            VG_(memset)(&rip, 0, sizeof rip);
            rip.src = VS_CONST;
            rip.cst = st->Ist.Exit.dst->Ico.U64;
            add_point(pl, st->Ist.Exit.guard, &rip);
        } else {
            stmt_effects(pl, st);
        }
    }
    if (pl) end_plan(pl, True);
}

/* ---- the runtime points --------------------------------------------------------------- */

static UInt value_slots(const val_plan *v)
{
    switch (v->src) {
    case VS_GET:
    case VS_ATOM: return (type_bytes(v->ty) + 7) / 8;
    case VS_CAS: return 3;
    case VS_FLAGS: return 4;
    default: return 0;
    }
}

static void make_points(const tkr_sb *sb)
{
    UInt total = 0;
    for (UInt k = 0; k < nplans; k++) total += plans[k].npoints;
    tkw_point *pts = VG_(calloc)("tkw.points", total ? total : 1, sizeof *pts);
    for (UInt k = 0, at = 0; k < nplans; k++) {
        in_plan *pl = &plans[k];
        pl->insn = insn_get(pl, sb->id, k);
        pl->rt = &pts[at];
        for (UInt q = 0; q < pl->npoints; q++, at++) {
            const pt_plan *pp = &pl->points[q];
            tkw_point *p = &pts[at];
            p->insn = pl->insn;
            p->index = (UChar)q;
            p->nports = (UChar)pp->nports;
            p->ndefs = (UChar)pp->ndefs;
            p->vbytes = (UChar)value_bytes(&pp->v);
            p->vslot = (UChar)pl->nslots;
            p->vconst = pp->v.cst;
            p->vkind = pp->v.src == VS_GET || pp->v.src == VS_ATOM
                           ? (p->vbytes > 8 ? TKW_V_WIDE : TKW_V_INT)
                       : pp->v.src == VS_CAS   ? TKW_V_CAS
                       : pp->v.src == VS_FLAGS ? TKW_V_FLAGS
                       : pp->v.src == VS_CONST ? TKW_V_CONST
                                               : TKW_V_NONE;
            if (!p->vbytes) p->vkind = TKW_V_NONE;
            if (pl->nslots + value_slots(&pp->v) > TKW_RSP_SLOT) p->vkind = TKW_V_NONE;
            p->rsp = pl->ctl == TKR_K_CALL || pl->ctl == TKR_K_ICALL || pl->ctl == TKR_K_RET ||
                     pl->ctl == TKR_K_IJMP;
        }
    }
    ((tkr_sb *)sb)->wet = pts;
}

/* The runtime points of the superblock's instructions: those of an earlier translation
 * of the same code, else new ones. */
static void attach_points(const tkr_sb *sb)
{
    if (!sb->wet) {
        make_points(sb);
        return;
    }
    tkw_point *pts = sb->wet;
    for (UInt k = 0, at = 0; k < nplans; k++) {
        plans[k].rt = &pts[at];
        plans[k].insn = (tkw_insn *)pts[at].insn;
        at += plans[k].npoints;
    }
}

/* ---- emitting the IR --------------------------------------------------------------------- */

/* Store atom (widened to 64-bit words) into the scratch from slot on. */
static void stash(IRSB *out, UInt slot, IRExpr *atom)
{
    IRType ty = typeOfIRExpr(out->tyenv, atom);
    IROp ops[4] = {Iop_INVALID, Iop_INVALID, Iop_INVALID, Iop_INVALID};
    UInt n = 1;
    switch (ty) {
    case Ity_I1: ops[0] = Iop_1Uto64; break;
    case Ity_I8: ops[0] = Iop_8Uto64; break;
    case Ity_I16: ops[0] = Iop_16Uto64; break;
    case Ity_I32: ops[0] = Iop_32Uto64; break;
    case Ity_I64: break;
    case Ity_F64: ops[0] = Iop_ReinterpF64asI64; break;
    case Ity_D64: ops[0] = Iop_ReinterpD64asI64; break;
    case Ity_F32: {
        IRTemp t = newIRTemp(out->tyenv, Ity_I32);
        addStmtToIRSB(out, IRStmt_WrTmp(t, IRExpr_Unop(Iop_ReinterpF32asI32, atom)));
        stash(out, slot, IRExpr_RdTmp(t));
        return;
    }
    case Ity_I128: n = 2, ops[0] = Iop_128to64, ops[1] = Iop_128HIto64; break;
    case Ity_V128: n = 2, ops[0] = Iop_V128to64, ops[1] = Iop_V128HIto64; break;
    case Ity_V256:
        n = 4, ops[0] = Iop_V256to64_0, ops[1] = Iop_V256to64_1, ops[2] = Iop_V256to64_2,
        ops[3] = Iop_V256to64_3;
        break;
    default: return;
    }
    for (UInt i = 0; i < n && slot + i < TKW_MAX_SLOTS; i++) {
        IRExpr *w = atom;
        if (ops[i] != Iop_INVALID) {
            IRTemp t = newIRTemp(out->tyenv, Ity_I64);
            addStmtToIRSB(out, IRStmt_WrTmp(t, IRExpr_Unop(ops[i], atom)));
            w = IRExpr_RdTmp(t);
        }
        addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&tkw_scr[slot + i]), w));
    }
}

static void stash_get(IRSB *out, UInt slot, Int off, IRType ty)
{
    IRTemp t = newIRTemp(out->tyenv, ty);
    addStmtToIRSB(out, IRStmt_WrTmp(t, IRExpr_Get(off, ty)));
    stash(out, slot, IRExpr_RdTmp(t));
}

static void stash_ops(IRSB *out, const op_plan *ops, UInt n)
{
    for (UInt i = 0; i < n; i++) {
        const op_plan *o = &ops[i];
        if (o->op.kind != TKW_MEM) continue;
        stash(out, o->op.slot, deepCopyIRExpr(o->addr));
        if (o->guard) stash(out, o->op.guard, deepCopyIRExpr(o->guard));
        if (o->op.cas) stash(out, o->op.guard + 1u, deepCopyIRExpr(o->expd));
    }
}

static void stash_value(IRSB *out, const tkw_point *p, const val_plan *v)
{
    UInt s = p->vslot;
    switch (p->vkind) {
    case TKW_V_INT:
    case TKW_V_WIDE:
        if (v->src == VS_GET)
            stash_get(out, s, v->off, v->ty);
        else
            stash(out, s, deepCopyIRExpr(v->atom));
        break;
    case TKW_V_CAS:
        stash(out, s, deepCopyIRExpr(v->old));
        stash(out, s + 1, deepCopyIRExpr(v->atom));
        stash(out, s + 2, deepCopyIRExpr(v->expd));
        break;
    case TKW_V_FLAGS:
        stash_get(out, s, offsetof(VexGuestAMD64State, guest_CC_OP), Ity_I64);
        stash_get(out, s + 1, offsetof(VexGuestAMD64State, guest_CC_DEP1), Ity_I64);
        stash_get(out, s + 2, offsetof(VexGuestAMD64State, guest_CC_DEP2), Ity_I64);
        stash_get(out, s + 3, offsetof(VexGuestAMD64State, guest_CC_NDEP), Ity_I64);
        break;
    default: break;
    }
}

/* The helper call of point q of plan pl (guarded by a side exit's guard). */
static void emit_point(IRSB *out, const in_plan *pl, UInt q)
{
    const pt_plan *pp = &pl->points[q];
    const tkw_point *p = &pl->rt[q];
    stash_ops(out, pl->ports, pp->nports);
    stash_ops(out, pl->defs, pp->ndefs);
    stash_value(out, p, &pp->v);
    if (p->rsp) stash_get(out, TKW_RSP_SLOT, offsetof(VexGuestAMD64State, guest_RSP), Ity_I64);
    IRExpr **args = mkIRExprVec_1(mkIRExpr_HWord((HWord)p));
    IRDirty *d = unsafeIRDirty_0_N(1, "tkw_exec", VG_(fnptr_to_fnentry)((void *)&tkw_exec), args);
    if (pp->guard) d->guard = deepCopyIRExpr(pp->guard);
    addStmtToIRSB(out, IRStmt_Dirty(d));
}

/* ---- the mode's hooks ------------------------------------------------------------------------ */

static UInt cur_point; /* next side-exit point of the current instruction */

static void debug_print(const IRSB *in)
{
    VG_(printf)("tkrecord wet: superblock at 0x%lx\n", plans[0].addr);
    ppIRSB(in);
    for (UInt k = 0; k < nplans; k++) {
        const in_plan *pl = &plans[k];
        VG_(printf)("  insn %u at 0x%lx: id %u, ports", k, pl->addr, pl->insn->id);
        for (UInt i = 0; i < pl->nports; i++) {
            const tkw_op *o = &pl->ports[i].op;
            if (o->kind == TKW_REG)
                VG_(printf)(" %s", tkw_reg_name(o->reg));
            else
                VG_(printf)(" m%u", (UInt)o->n);
        }
        VG_(printf)(", defs");
        for (UInt i = 0; i < pl->ndefs; i++) {
            const tkw_op *o = &pl->defs[i].op;
            if (o->kind == TKW_REG)
                VG_(printf)(" %s", tkw_reg_name(o->reg));
            else
                VG_(printf)(" m%u", (UInt)o->n);
        }
        for (UInt q = 0; q < pl->npoints; q++) {
            VG_(printf)
            (", point %u: %u ports %u defs value %u/%u", q, pl->points[q].nports,
             pl->points[q].ndefs, (UInt)pl->rt[q].vkind, (UInt)pl->rt[q].vbytes);
        }
        VG_(printf)("\n");
    }
}

static void wet_prepare(const IRSB *in, tkr_sb *sb)
{
    if (!plans) plans = VG_(malloc)("tkw.plans", 256 * sizeof *plans);
    analyse(in, sb);
    attach_points(sb);
    cur_point = 0;
    if (tkr_wet_debug) debug_print(in);
}

/* Before instruction index: the previous one ends. */
static void wet_instr(IRSB *out, tkr_sb *sb, UInt index, const IRStmt *imark)
{
    (void)sb, (void)imark;
    if (index > 0 && index - 1 < nplans) {
        const in_plan *pl = &plans[index - 1];
        if (cur_point < pl->npoints && !pl->points[cur_point].guard) emit_point(out, pl, cur_point);
    }
    cur_point = 0;
}

/* Before a side exit of the current instruction: its point, when the exit is taken. */
static void wet_side_exit(IRSB *out, tkr_sb *sb, tkr_exit *e, const IRStmt *st)
{
    tkr_dcfg_store_exit(out, sb, e);
    UInt k = e->instr;
    if (k >= nplans || !completes(st->Ist.Exit.jk)) return;
    const in_plan *pl = &plans[k];
    if (cur_point < pl->npoints && pl->points[cur_point].guard) emit_point(out, pl, cur_point++);
}

static void wet_sb_end(IRSB *out, tkr_sb *sb, tkr_exit *e)
{
    tkr_dcfg_store_exit(out, sb, e);
    if (!nplans) return;
    const in_plan *pl = &plans[nplans - 1];
    if (cur_point < pl->npoints && !pl->points[cur_point].guard) emit_point(out, pl, cur_point);
}

const tkr_mode tkr_wet_mode = {wet_prepare, tkr_dcfg_sb_start, wet_instr, wet_side_exit,
                               wet_sb_end};

/* ---- the raw file ------------------------------------------------------------------------ */

static void write_op(tkr_out *o, const tkw_op *op, Bool first)
{
    if (op->kind == TKW_REG)
        tkr_out_printf(o, "%s%s", first ? "" : ",", tkw_reg_name(op->reg));
    else
        tkr_out_printf(o, "%sm%u", first ? "" : ",", (UInt)op->n);
}

/* wet HISTORY NSLOTS, then per static instruction:
 * (wet HISTORY NINS VALUES: VALUES 0 when the stream holds no values)
 * wi ID ADDR SB INDEX CTL NPORTS POINTS NAMES  (POINTS: ports:venc,...; NAMES: its ports) */
void tkw_code_write(void *out)
{
    tkr_out *o = out;
    tkr_out_printf(o, "wet %llu %u %d\n", tkr_wet_history, nins, tkr_wet_values ? 1 : 0);
    for (UInt i = 0; i < nins; i++) {
        const tkw_insn *w = ins_list[i];
        tkr_out_printf(o, "wi %u %lx %u %u %s %u ", w->id, w->addr, w->sb, w->index,
                       tkr_kind_name(w->ctl), (UInt)w->nports);
        for (UInt q = 0; q < w->npoints; q++)
            tkr_out_printf(o, "%s%u:%u", q ? "," : "", (UInt)w->pt_ports[q], (UInt)w->pt_venc[q]);
        if (!w->npoints) tkr_out_printf(o, "-");
        tkr_out_printf(o, " ");
        for (UInt p = 0; p < w->nports; p++) write_op(o, &w->ports[p], p == 0);
        if (!w->nports) tkr_out_printf(o, "-");
        tkr_out_printf(o, "\n");
    }
}
