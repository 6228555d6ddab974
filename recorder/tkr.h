/* tkrecord: tracekit's Valgrind tool (recorder/).  It runs inside Valgrind's
 * own runtime (no C library: only the pub_tool_*.h API) and writes, for each
 * process it records, a raw file that libtracekit turns into a DCFG (and,
 * with --trace, a DCFG-Trace): docs/record.md describes both.
 *
 * Shape of the tool:
 *   tkr_main.c   registration, options, start and end, threads, signals,
 *                system calls, fork and exec
 *   tkr_code.c   static information gathered at translation time: images,
 *                superblocks (their instructions, exits, symbols, lines)
 *   tkr_instr.c  the instrumentation: one pass over each superblock with
 *                hooks per recording mode (tkr_mode); the DCFG mode adds a
 *                helper call at entry and a store before each exit
 *   tkr_run.c    what runs with the program: the entry helper, the edge
 *                records and their counts, thread states, the trace spill
 *   tkr_out.c    the raw file (buffered writes, temporary name + rename)
 *   tkr_wet.c    the WET mode (--tkr-wet): per instruction, its use ports and
 *                definitions found in its IR, and a helper call where it
 *                completes
 *   tkr_wrun.c   what runs with the WET mode: shadow registers per thread,
 *                sparse shadow memory, the stream of executed instances
 */
#ifndef TKR_H
#define TKR_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#define TKR_RAW_VERSION 1

/* Exit kinds: how control leaves a superblock through one of its exits. */
typedef enum {
    TKR_K_START = 0, /* pseudo exit: a thread starts (ENTRY edges) */
    TKR_K_FALL, /* to the next instruction, not a control-flow instruction */
    TKR_K_COND, /* a conditional branch (taken or not: the target tells) */
    TKR_K_JMP, /* direct unconditional branch */
    TKR_K_IJMP, /* indirect unconditional branch */
    TKR_K_CALL, /* direct call */
    TKR_K_ICALL, /* indirect call */
    TKR_K_RET, /* return */
    TKR_K_SYS, /* system call instruction */
    TKR_K_REP, /* rep-prefixed string instruction (self or next) */
    TKR_K_OTHER, /* Valgrind-internal stop (client request, yield...) */
    TKR_K_SIG, /* the instruction raises a signal (int3, ud2...) */
    TKR_K_FAULT, /* pseudo exit: a signal interrupted the superblock here */
    TKR_K_COUNT
} tkr_kind;

/* Dynamic edge kinds: what the next edge of a thread is, whatever its exit. */
enum { TKR_DYN_NONE = 0, TKR_DYN_SIGNAL = 1, TKR_DYN_SIGRETURN = 2 };

typedef struct tkr_sb tkr_sb;
typedef struct tkr_edge tkr_edge;

typedef struct tkr_exit {
    tkr_sb *sb;
    UInt id;
    UShort instr; /* index of the instruction the exit leaves from */
    UChar kind; /* tkr_kind */
    UChar has_dst;
    Addr dst;
    /* one-entry cache of the edge last taken through this exit */
    tkr_sb *c_sb;
    tkr_edge *c_edge;
    UInt c_thread;
} tkr_exit;

struct tkr_sb {
    Addr addr;
    UInt id;
    UInt image;
    UInt ninstrs;
    UInt nexits;
    UChar *lens; /* length of each instruction */
    UInt *lines; /* per instruction: source file id, line, symbol id */
    tkr_exit *exits; /* static exits, the final one last */
    tkr_exit inprog; /* the superblock is running (no exit taken yet) */
    void *wet; /* WET mode: the helpers' points of its translation (reused) */
    tkr_sb *hnext; /* address hash chain */
};

struct tkr_edge {
    tkr_exit *exit;
    tkr_sb *tgt; /* NULL: the thread ended (EXIT edge) */
    UInt thread;
    UInt dyn;
    UInt id;
    ULong count;
    tkr_edge *hnext;
    tkr_edge *pred; /* trace spill: the record that followed this one last time */
};

typedef struct tkr_thread {
    UInt index; /* thread index of the DCFG (0 = main) */
    UInt windex; /* WET: thread index of the stream (never folded) */
    ULong *wregs; /* WET: shadow registers: the last definer of each 8 bytes of
                             state (TKW_DEF: its timestamp and instruction id) */
    UInt *wregs_inst; /* WET: and its instance */
    ULong wlast; /* WET: the thread's last executed instance (TKW_DEF), 0: none */
    ULong wrsp; /* WET: %rsp after its last call, return or indirect jump */
    UInt wlast_inst;
    UInt alive;
    UInt pending; /* TKR_DYN_* of the next edge */
    tkr_exit *last; /* last exit taken (while not running) */
    UChar *buf; /* trace spill buffer (tokens, see tkr_run.c) */
    UInt nbuf;
    Int fd; /* spill file, -1 when not tracing this thread */
    tkr_edge *prev; /* the thread's last edge record */
    ULong hits; /* records since the last token that were their predecessor's pred */
} tkr_thread;

/* ---- options and global state (tkr_main.c) ---- */
extern const HChar *tkr_out_dir;
extern Bool tkr_tracing;
extern Bool tkr_children;
extern UInt tkr_threads_limit;
extern UInt tkr_pid;
extern UInt tkr_gen;
extern Bool tkr_idle; /* not recorded: the instrumentation adds nothing */

/* ---- tkr_code.c ---- */
void tkr_code_init(void);
void tkr_code_forget_edges(void);
UInt tkr_image_of(Addr a);
void tkr_images_add_mapped(void);
tkr_sb *tkr_sb_get(Addr addr, UInt n, const UChar *lens, UInt nexits, const tkr_exit *exits);
tkr_sb *tkr_sb_containing(Addr a, UInt *instr);
tkr_exit *tkr_exit_dynamic(tkr_sb *sb, UInt instr, UInt kind);
void tkr_code_write(void *out);
extern tkr_exit tkr_start_exit;

/* ---- tkr_instr.c ---- */
/* A recording mode: what the instrumentation adds to a superblock. */
typedef struct tkr_mode {
    /* before the pass (the superblock as VEX made it) */
    void (*prepare)(const IRSB *in, tkr_sb *sb);
    /* before the first instruction */
    void (*sb_start)(IRSB *out, tkr_sb *sb);
    /* before each instruction's IMark is copied */
    void (*instr)(IRSB *out, tkr_sb *sb, UInt index, const IRStmt *imark);
    /* before a side exit (st) is copied */
    void (*side_exit)(IRSB *out, tkr_sb *sb, tkr_exit *e, const IRStmt *st);
    /* at the end, before the final jump */
    void (*sb_end)(IRSB *out, tkr_sb *sb, tkr_exit *e);
} tkr_mode;
extern const tkr_mode tkr_wet_mode;
void tkr_dcfg_sb_start(IRSB *out, tkr_sb *sb);
void tkr_dcfg_store_exit(IRSB *out, tkr_sb *sb, tkr_exit *e);
IRSB *tkr_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
                     const VexGuestExtents *vge, const VexArchInfo *arch, IRType gw, IRType hw);

/* ---- tkr_run.c ---- */
extern tkr_exit *tkr_last; /* stored by the instrumented code */
extern tkr_thread *tkr_cur;
VG_REGPARM(1) void tkr_enter(tkr_sb *sb);
void tkr_run_init(void);
void tkr_run_reset_after_fork(ThreadId tid);
tkr_thread *tkr_thread_of(ThreadId tid);
void tkr_thread_switch(ThreadId tid);
void tkr_thread_new(ThreadId tid);
void tkr_thread_end(ThreadId tid);
void tkr_threads_end_all(void);
void tkr_signal(ThreadId tid);
void tkr_sigreturn(ThreadId tid);
void tkr_run_write(void *out);
void tkr_trace_flush_all(void);
UInt tkr_nthreads(void);

/* ---- the WET mode (tkr_wet.c, tkr_wrun.c) ---- */
extern Bool tkr_wet; /* --tkr-wet=yes */
extern Bool tkr_wet_debug; /* --tkr-wet-debug=yes: print each superblock's IR and ports */
extern ULong tkr_wet_history; /* --tkr-wet-history=N (written to the raw file) */
extern Bool tkr_wet_values; /* --tkr-wet-values=no: the stream holds no values */

#define TKW_MAX_SLOTS 48 /* scratch words an instruction's helper reads */
enum { TKW_REG = 0, TKW_MEM = 1 };
enum { TKW_NOSLOT = 0xFF };
/* Value kinds of a point: how the helper finds the value the instance defines. */
enum { TKW_V_NONE = 0, TKW_V_INT, TKW_V_WIDE, TKW_V_FLAGS, TKW_V_CONST, TKW_V_CAS };

/* A use port or a definition of an instruction. */
typedef struct tkw_op {
    UChar kind; /* TKW_REG, TKW_MEM */
    UChar slot; /* MEM: scratch slot of the address */
    UChar guard; /* MEM: scratch slot of the guard (TKW_NOSLOT: none) */
    UChar cas; /* MEM def: a CAS, done when scratch[guard] == scratch[guard + 1] */
    UShort lo, n; /* REG: shadow slots [lo, lo + n); MEM: n bytes */
    UShort reg; /* REG: register number (tkw_reg_name) */
} tkw_op;

typedef struct tkw_insn tkw_insn;

/* Where an instance completes: the end of the instruction or a side exit
 * taken; the ports and definitions before it in the IR ran. */
typedef struct tkw_point {
    const tkw_insn *insn;
    UChar index; /* of the instruction's points */
    UChar nports, ndefs;
    UChar vkind; /* TKW_V_* */
    UChar vslot, vbytes; /* value: first scratch slot, size in bytes */
    UChar rsp; /* a call, return or indirect jump: %rsp after it follows (in the
                            scratch word TKW_RSP_SLOT) */
    ULong vconst; /* TKW_V_CONST */
} tkw_point;
#define TKW_RSP_SLOT (TKW_MAX_SLOTS - 1)

/* A definer in the shadow state: its timestamp (the instance's place in the run) in the
 * upper 40 bits, so that the latest compares highest, its instruction id in the lower 24
 * (the instance number is kept beside it). */
#define TKW_ID_BITS 24
#define TKW_MAX_INSNS ((1u << TKW_ID_BITS) - 1)
#define TKW_DEF(ts, id) (((ULong)(ts) << TKW_ID_BITS) | (id))

/* A static instruction of the WET trace. */
struct tkw_insn {
    UInt id; /* 1.. in order of first translation */
    UInt count; /* instances so far */
    Addr addr;
    UInt sb, index; /* the superblock (record id) and index it was first seen at */
    UChar len, ctl; /* ctl: tkr_kind of its exit (TKR_K_FALL: none) */
    UChar copy; /* a copy to or from the stack (push, pop, leave): 1 + the port
                            whose definer its definitions but %rsp pass on (0: none) */
    UChar nports, ndefs, npoints;
    tkw_op *ports, *defs;
    UChar *pt_ports, *pt_venc; /* per point: ports run, value encoding (0, 1, 16, 32) */
    tkw_insn *hnext;
};

extern ULong tkw_scr[TKW_MAX_SLOTS];
extern tkw_insn **tkw_ins_list; /* by id - 1 */
VG_REGPARM(1) void tkw_exec(const tkw_point *p);
void tkw_init(void);
void tkw_reg_table_init(void);
UInt tkw_reg_of(UInt offset); /* register number of a guest-state offset (0: none) */
const HChar *tkw_reg_name(UInt reg);
void tkw_reg_range(UInt reg, UShort *lo, UShort *n);
Bool tkw_reg_is_flags(UInt reg);
UInt tkw_reg_rsp(void);
UInt tkw_nslots(void);
void tkw_thread_start(tkr_thread *t, tkr_thread *parent);
void tkw_signal(tkr_thread *t, Bool sigreturn);
void tkw_post_syscall(tkr_thread *t, UInt sysno);
void tkw_mem_written(Addr a, SizeT len, tkr_thread *t);
void tkw_mem_cleared(Addr a, SizeT len);
void tkw_mem_copied(Addr from, Addr to, SizeT len);
void tkw_stream_open(void);
void tkw_stream_flush(void);
void tkw_stop(void);
void tkw_abandon(void);
void tkw_code_write(void *out);
const HChar *tkr_kind_name(UInt kind);
UInt tkr_insn_stack_op(Addr a, UInt len);

/* ---- tkr_out.c ---- */
typedef struct tkr_out tkr_out;
tkr_out *tkr_out_open(const HChar *path);
void tkr_out_printf(tkr_out *o, const HChar *fmt, ...) PRINTF_CHECK(2, 3);
void tkr_out_name(tkr_out *o, const HChar *s);
Bool tkr_out_close(tkr_out *o);
Bool tkr_write_raw(const HChar *end_reason, Int status);
HChar *tkr_path(const HChar *suffix);

#endif
