/* The instrumentation: one pass over a superblock's statements that finds
 * its instructions and exits (the static record, tkr_code.c), then a second
 * that copies the statements and lets the recording mode add its own.
 *
 * Modes are tables of hooks (tkr_mode).  The DCFG mode adds, per superblock,
 * one helper call before the first instruction (tkr_enter: counts the edge
 * that led here) and, before each exit, a store of that exit's record into
 * tkr_last (so that the next superblock's helper knows how control left).
 * A mode that needs every instruction or statement (the whole-execution
 * traces, tkr_wet.c) fills the instr hook and adds its own at the exits;
 * the DCFG mode leaves it empty, so its superblocks carry no per-instruction
 * code. */
#include "tkr.h"

#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"

#define TKR_MAX_INSTRS 256
#define TKR_MAX_EXITS 512

/* ---- classifying exits ----------------------------------------------------------- */

enum { C_OTHER, C_COND, C_JMP, C_IJMP, C_CALL, C_ICALL, C_RET, C_SYS, C_REP };

/* The prefixes of an x86-64 instruction (legacy and REX): their length; *rep when one is
 * a rep prefix. */
static UInt skip_prefixes(const UChar *p, UInt len, Bool *rep)
{
    UInt i = 0;
    for (; i < len; i++) {
        UChar b = p[i];
        if (b == 0xF3 || b == 0xF2)
            *rep = True;
        else if (b == 0x66 || b == 0x67 || b == 0x2E || b == 0x3E || b == 0x26 || b == 0x36 ||
                 b == 0x64 || b == 0x65 || b == 0xF0 || (b & 0xF0) == 0x40)
            ;
        else
            break;
    }
    return i;
}

/* Whether the x86-64 instruction at a moves the stack pointer by itself (push, pop, call,
 * ret, leave, enter, pushf, popf): its use of %rsp is implicit (docs/record.md, WET).
 * 2: it copies a value between a register (or memory) and the stack: push and pop of a
 * register or memory, pushf, popf, leave (%rbp from the stack). */
UInt tkr_insn_stack_op(Addr a, UInt len)
{
    const UChar *p = (const UChar *)a;
    Bool rep = False;
    UInt i = skip_prefixes(p, len, &rep);
    if (i >= len) return 0;
    UChar op = p[i], op2 = i + 1 < len ? p[i + 1] : 0;
    UInt reg = (op2 >> 3) & 7;
    if ((op >= 0x50 && op <= 0x5F) || op == 0x9C || op == 0x9D || op == 0xC9) return 2;
    if ((op == 0x8F && reg == 0) || (op == 0xFF && reg == 6)) return 2;
    if (op == 0x68 || op == 0x6A || op == 0xC8) return 1;
    if (op == 0xC2 || op == 0xC3 || op == 0xCA || op == 0xCB || op == 0xE8) return 1;
    if (op == 0xFF && (reg == 2 || reg == 3)) return 1;
    if (op == 0x0F && (op2 == 0xA0 || op2 == 0xA1 || op2 == 0xA8 || op2 == 0xA9)) return 1;
    return 0;
}

/* What kind of x86-64 instruction is at a (len bytes, just decoded by VEX):
 * enough of the opcode map to tell branches, calls, returns, system calls and
 * rep-prefixed string instructions. */
static UInt insn_class(Addr a, UInt len)
{
    const UChar *p = (const UChar *)a;
    Bool rep = False;
    UInt i = skip_prefixes(p, len, &rep);
    if (i >= len) return C_OTHER;
    UChar op = p[i], op2 = i + 1 < len ? p[i + 1] : 0;
    if ((op >= 0x70 && op <= 0x7F) || (op >= 0xE0 && op <= 0xE3)) return C_COND;
    if (op == 0x0F && op2 >= 0x80 && op2 <= 0x8F) return C_COND;
    if (op == 0x0F && (op2 == 0x05 || op2 == 0x34)) return C_SYS;
    if (op == 0xCD) return C_SYS;
    if (op == 0xE9 || op == 0xEB) return C_JMP;
    if (op == 0xE8) return C_CALL;
    if (op == 0xFF && i + 1 < len) {
        UInt reg = (op2 >> 3) & 7;
        if (reg == 2 || reg == 3) return C_ICALL;
        if (reg == 4 || reg == 5) return C_IJMP;
    }
    if (op == 0xC3 || op == 0xC2 || op == 0xCA || op == 0xCB) return C_RET;
    if (rep &&
        ((op >= 0xA4 && op <= 0xA7) || (op >= 0xAA && op <= 0xAF) || (op >= 0x6C && op <= 0x6F)))
        return C_REP;
    return C_OTHER;
}

static UInt exit_kind(IRJumpKind jk, Bool has_dst, Addr dst, Addr at, UInt len)
{
    switch (jk) {
    case Ijk_Call: return has_dst ? TKR_K_CALL : TKR_K_ICALL;
    case Ijk_Ret: return TKR_K_RET;
    case Ijk_Sys_syscall:
    case Ijk_Sys_int32:
    case Ijk_Sys_int128:
    case Ijk_Sys_int129:
    case Ijk_Sys_int130:
    case Ijk_Sys_int145:
    case Ijk_Sys_int210:
    case Ijk_Sys_sysenter: return TKR_K_SYS;
    case Ijk_Boring: {
        UInt c = insn_class(at, len);
        if (c == C_COND) return TKR_K_COND;
        if (c == C_REP) return TKR_K_REP;
        if (!has_dst) return TKR_K_IJMP;
        if (c == C_JMP) return TKR_K_JMP;
        if (dst == at + len) return TKR_K_FALL;
        return TKR_K_JMP;
    }
    case Ijk_SigTRAP:
    case Ijk_SigILL:
    case Ijk_SigSEGV:
    case Ijk_SigBUS:
    case Ijk_SigFPE:
    case Ijk_SigFPE_IntDiv:
    case Ijk_SigFPE_IntOvf:
    case Ijk_NoDecode:
    case Ijk_EmFail:
    case Ijk_MapFail: return TKR_K_SIG;
    default: return TKR_K_OTHER;
    }
}

static Bool const_addr(const IRExpr *e, Addr *out)
{
    if (e->tag != Iex_Const) return False;
    const IRConst *c = e->Iex.Const.con;
    switch (c->tag) {
    case Ico_U64: *out = (Addr)c->Ico.U64; return True;
    case Ico_U32: *out = (Addr)c->Ico.U32; return True;
    default: return False;
    }
}

static Addr const_of(const IRConst *c)
{
    return c->tag == Ico_U64 ? (Addr)c->Ico.U64 : c->tag == Ico_U32 ? (Addr)c->Ico.U32 : 0;
}

/* ---- the DCFG mode ------------------------------------------------------------------- */

void tkr_dcfg_sb_start(IRSB *out, tkr_sb *sb)
{
    IRExpr **args = mkIRExprVec_1(mkIRExpr_HWord((HWord)sb));
    IRDirty *d = unsafeIRDirty_0_N(1, "tkr_enter", VG_(fnptr_to_fnentry)((void *)&tkr_enter), args);
    addStmtToIRSB(out, IRStmt_Dirty(d));
}

void tkr_dcfg_store_exit(IRSB *out, tkr_sb *sb, tkr_exit *e)
{
    (void)sb;
    addStmtToIRSB(
        out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&tkr_last), mkIRExpr_HWord((HWord)e)));
}

static void dcfg_side_exit(IRSB *out, tkr_sb *sb, tkr_exit *e, const IRStmt *st)
{
    (void)st;
    tkr_dcfg_store_exit(out, sb, e);
}

static const tkr_mode dcfg_mode = {NULL, tkr_dcfg_sb_start, NULL, dcfg_side_exit,
                                   tkr_dcfg_store_exit};

/* ---- the pass ------------------------------------------------------------------------- */

typedef struct scan {
    Addr addr;
    UInt n, nexits;
    UChar lens[TKR_MAX_INSTRS];
    Addr at[TKR_MAX_INSTRS];
    tkr_exit exits[TKR_MAX_EXITS];
} scan;

/* First pass: instructions and exits.  False when the superblock is not
 * one the tool records (no instruction, or not a straight run of them). */
static Bool scan_sb(const IRSB *in, scan *s)
{
    s->n = s->nexits = 0;
    for (Int i = 0; i < in->stmts_used; i++) {
        const IRStmt *st = in->stmts[i];
        if (st->tag == Ist_IMark) {
            Addr a = (Addr)st->Ist.IMark.addr + st->Ist.IMark.delta;
            UInt len = st->Ist.IMark.len;
            if (len == 0) continue; /* an instruction VEX could not decode */
            if (s->n == TKR_MAX_INSTRS) return False;
            if (s->n && a != s->at[s->n - 1] + s->lens[s->n - 1]) return False;
            if (!s->n) s->addr = a;
            s->at[s->n] = a;
            s->lens[s->n++] = (UChar)len;
        } else if (st->tag == Ist_Exit && s->n) {
            if (s->nexits == TKR_MAX_EXITS - 1) return False;
            tkr_exit *e = &s->exits[s->nexits++];
            VG_(memset)(e, 0, sizeof *e);
            UInt k = s->n - 1;
            e->instr = (UShort)k;
            e->has_dst = 1;
            e->dst = const_of(st->Ist.Exit.dst);
            e->kind = (UChar)exit_kind(st->Ist.Exit.jk, True, e->dst, s->at[k], s->lens[k]);
        }
    }
    if (!s->n) return False;
    tkr_exit *e = &s->exits[s->nexits++];
    VG_(memset)(e, 0, sizeof *e);
    UInt k = s->n - 1;
    Addr dst = 0;
    Bool has = const_addr(in->next, &dst);
    e->instr = (UShort)k;
    e->has_dst = has ? 1 : 0;
    e->dst = dst;
    e->kind = (UChar)exit_kind(in->jumpkind, has, dst, s->at[k], s->lens[k]);
    return True;
}

static scan the_scan;

IRSB *tkr_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
                     const VexGuestExtents *vge, const VexArchInfo *arch, IRType gw, IRType hw)
{
    (void)closure, (void)layout, (void)vge, (void)arch;
    if (gw != hw) VG_(tool_panic)("tkrecord: host and guest word sizes differ");
    if (tkr_idle) return in;
    scan *s = &the_scan;
    if (!scan_sb(in, s)) return in;
    tkr_sb *sb = tkr_sb_get(s->addr, s->n, s->lens, s->nexits, s->exits);
    const tkr_mode *m = tkr_wet ? &tkr_wet_mode : &dcfg_mode;
    if (m->prepare) m->prepare(in, sb);
    IRSB *out = deepCopyIRSBExceptStmts(in);
    Int i = 0;
    for (; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
        addStmtToIRSB(out, in->stmts[i]); /* the preamble, verbatim */
    if (m->sb_start) m->sb_start(out, sb);
    UInt instr = 0, exit = 0, seen = 0;
    for (; i < in->stmts_used; i++) {
        IRStmt *st = in->stmts[i];
        if (st->tag == Ist_IMark && st->Ist.IMark.len) {
            instr = seen++;
            if (m->instr) m->instr(out, sb, instr, st);
        } else if (st->tag == Ist_Exit) {
            if (m->side_exit) m->side_exit(out, sb, &sb->exits[exit], st);
            exit++;
        }
        addStmtToIRSB(out, st);
    }
    tl_assert(exit + 1 == sb->nexits);
    if (m->sb_end) m->sb_end(out, sb, &sb->exits[exit]);
    return out;
}
