/* tkrecord: registration, options, start and end of a recording, and the
 * events of the core the recording follows (threads, signals, system calls,
 * fork and exec). */
#include "tkr.h"

#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"

const HChar *tkr_out_dir;
Bool tkr_tracing;
Bool tkr_children;
UInt tkr_threads_limit = 256;
UInt tkr_pid;
UInt tkr_gen;
Bool tkr_wet;
Bool tkr_wet_debug;
ULong tkr_wet_history;
Bool tkr_wet_values = True;

static Long threads_limit_opt = 256;
static Long wet_history_opt = 0;
static Long root_opt = 0; /* --tkr-root: the pid of the recorded program */
Bool tkr_idle; /* a program a forked child exec'd: runs, not recorded */
static Bool recording = True;
static Int exit_code; /* the argument of exit_group (fini's is always 0) */

/* ---- options ---------------------------------------------------------------------------- */

static Bool process_option(const HChar *arg)
{
    if VG_STR_CLO (arg, "--tkr-out", tkr_out_dir) {
    } else if VG_BOOL_CLO (arg, "--tkr-trace", tkr_tracing) {
    } else if VG_BOOL_CLO (arg, "--tkr-children", tkr_children) {
    } else if VG_BINT_CLO (arg, "--tkr-threads-limit", threads_limit_opt, 1, 65536) {
    } else if VG_BOOL_CLO (arg, "--tkr-wet", tkr_wet) {
    } else if VG_BOOL_CLO (arg, "--tkr-wet-debug", tkr_wet_debug) {
    } else if VG_BINT_CLO (arg, "--tkr-wet-history", wet_history_opt, 0, 1000000000000LL) {
    } else if VG_BOOL_CLO (arg, "--tkr-wet-values", tkr_wet_values) {
    } else if VG_BINT_CLO (arg, "--tkr-root", root_opt, 0, 0x7fffffff) {
    } else {
        return False;
    }
    return True;
}

static void print_usage(void)
{
    static const HChar usage[] =
        "    --tkr-out=DIR              where the raw files go (required)\n"
        "    --tkr-trace=no|yes         spill each thread's edges for a DCFG-Trace [no]\n"
        "    --tkr-children=no|yes      record forked and exec'd children [no]\n"
        "    --tkr-threads-limit=N      threads counted apart; later ones share the\n"
        "                               last [256]\n"
        "    --tkr-wet=no|yes           whole execution trace: the stream of instances\n"
        "                               [no]\n"
        "    --tkr-wet-history=N        the size of the history buffer (for the raw file)\n"
        "    --tkr-wet-values=yes|no    WET: the values instances define [yes]\n"
        "    --tkr-root=PID             record only the programs process PID runs (its\n"
        "                               execs): others run without being recorded\n";
    VG_(printf)("%s", usage);
}

static void print_debug_usage(void)
{
    VG_(printf)("    --tkr-wet-debug=no|yes     print each superblock's IR and WET ports [no]\n");
}

/* ---- the raw file ----------------------------------------------------------------------- */

/* Reserve this process's name in the output directory: the first free
 * generation (an exec'd program keeps its pid and takes the next one). */
static void reserve(void)
{
    for (tkr_gen = 0; tkr_gen < 100000; tkr_gen++) {
        HChar *path = tkr_path(".tkr");
        SysRes r = VG_(open)(path, VKI_O_CREAT | VKI_O_EXCL | VKI_O_WRONLY, 0600);
        VG_(free)(path);
        if (!sr_isError(r)) {
            const HChar text[] = "TKRECORD 1\nrunning\n";
            (void)VG_(write)((Int)sr_Res(r), text, sizeof text - 1);
            VG_(close)((Int)sr_Res(r));
            return;
        }
        if (sr_Err(r) != VKI_EEXIST) break;
    }
    VG_(fmsg)("tkrecord: cannot create a file in %s\n", tkr_out_dir);
    VG_(exit)(1);
}

static void write_header(tkr_out *o)
{
    tkr_out_printf(o, "TKRECORD %d\n", TKR_RAW_VERSION);
    tkr_out_printf(o, "pid %u\nppid %d\ngen %u\n", tkr_pid, VG_(getppid)(), tkr_gen);
    tkr_out_printf(o, "trace %d\n", tkr_tracing ? 1 : 0);
    tkr_out_printf(o, "exe ");
    tkr_out_name(o, VG_(args_the_exename) ? VG_(args_the_exename) : "");
    if (VG_(args_for_client)) {
        Word n = VG_(sizeXA)(VG_(args_for_client));
        for (Word i = 0; i < n; i++) {
            tkr_out_printf(o, "arg ");
            tkr_out_name(o, *(HChar **)VG_(indexXA)(VG_(args_for_client), i));
        }
    }
}

/* Write the whole raw file (temporary name, then renamed over the
 * reservation).  end: "exit" (status: the exit code) or "exec". */
static void write_raw(const HChar *end, Int status)
{
    HChar *path = tkr_path(".tkr"), *tmp = tkr_path(".tkr.tmp");
    tkr_out *o = tkr_out_open(tmp);
    Bool ok = o != NULL;
    if (o) {
        write_header(o);
        tkr_code_write(o);
        if (tkr_wet) tkw_code_write(o);
        tkr_run_write(o);
        tkr_out_printf(o, "end-of-run %s %d\n", end, status);
        tkr_out_printf(o, "done\n");
        ok = tkr_out_close(o) && VG_(rename)(tmp, path) == 0;
    }
    if (!ok) {
        VG_(umsg)("tkrecord: cannot write %s\n", path);
        VG_(unlink)(tmp);
    }
    VG_(free)(path);
    VG_(free)(tmp);
}

/* ---- events ----------------------------------------------------------------------------- */

static void start_client(ThreadId tid, ULong blocks)
{
    (void)blocks;
    tkr_thread_switch(tid);
}

static void thread_create(ThreadId parent, ThreadId child)
{
    tkr_thread_new(child);
    if (tkr_wet && parent) tkw_thread_start(tkr_thread_of(child), tkr_thread_of(parent));
}

static void thread_exit(ThreadId tid) { tkr_thread_end(tid); }

static void deliver_signal(ThreadId tid, Int sig, Bool alt_stack)
{
    (void)sig, (void)alt_stack;
    tkr_signal(tid);
}

static void pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
    if (tkr_idle) return;
    if (sysno == __NR_rt_sigreturn) {
        tkr_sigreturn(tid);
    } else if (sysno == __NR_exit_group && nargs > 0) {
        exit_code = (Int)(args[0] & 0xff);
    } else if ((sysno == __NR_execve || sysno == __NR_execveat) && recording) {
        /* what ran so far, in case the new program replaces this one (when
         * the exec fails, the end of the run writes the file again) */
        tkr_trace_flush_all();
        if (tkr_wet) tkw_stream_flush();
        write_raw("exec", 0);
    }
}

static void post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res)
{
    (void)args, (void)nargs, (void)res;
    if (tkr_wet && recording) tkw_post_syscall(tkr_thread_of(tid), sysno);
}

/* ---- memory the core changes (the WET mode's shadow memory) ---------------------------------- */

static void mem_written(CorePart part, ThreadId tid, Addr a, SizeT size)
{
    (void)part;
    tkw_mem_written(a, size, tkr_thread_of(tid));
}

static void mem_mapped(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di_handle)
{
    (void)rr, (void)ww, (void)xx, (void)di_handle;
    tkw_mem_cleared(a, len);
}

static void mem_brk(Addr a, SizeT len, ThreadId tid)
{
    (void)tid;
    tkw_mem_cleared(a, len);
}

static void wet_track(void)
{
    VG_(track_post_mem_write)(mem_written);
    VG_(track_new_mem_mmap)(mem_mapped);
    VG_(track_new_mem_brk)(mem_brk);
    VG_(track_die_mem_munmap)(tkw_mem_cleared);
    VG_(track_die_mem_brk)(tkw_mem_cleared);
    VG_(track_copy_mem_remap)(tkw_mem_copied);
}

static void fork_child(ThreadId tid)
{
    if (tkr_wet) tkw_abandon(); /* the parent's stream, not the child's */
    if (!tkr_children) {
        recording = False;
        tkr_tracing = False;
    } else {
        tkr_pid = (UInt)VG_(getpid)();
        reserve();
    }
    tkr_run_reset_after_fork(tid);
}

/* ---- start and end ---------------------------------------------------------------------- */

static void post_clo_init(void)
{
    if (!tkr_out_dir) VG_(fmsg_bad_option)("--tkr-out", "tkrecord needs an output directory\n");
    if (root_opt && VG_(getpid)() != (Int)root_opt) {
        /* Valgrind follows execs (--trace-children=yes) for the recorded process's; this is
         * one of a forked child, which is not recorded */
        tkr_idle = True;
        recording = False;
        tkr_wet = False;
        return;
    }
    tkr_threads_limit = (UInt)threads_limit_opt;
    /* superblocks that stop at every control transfer (no chasing of jumps
     * and calls, no loop unrolling): each exit is a real one */
    VG_(clo_vex_control).guest_chase = False;
    VG_(clo_vex_control).iropt_unroll_thresh = 0;
    /* the real names of the functions below main */
    VG_(clo_show_below_main) = True;
    if (tkr_wet) {
        /* every register an instruction reads is a GET of its IR: VEX replaces a GET of a
         * register written earlier in the same superblock by what was written (even at
         * --vex-iropt-level=0), so each superblock is one instruction */
        VG_(clo_vex_control).guest_max_insns = 1;
        VG_(clo_vex_control).iropt_level = 2;
        tkr_wet_history = (ULong)wet_history_opt;
        tkw_init();
        wet_track();
    }
    tkr_pid = (UInt)VG_(getpid)();
    reserve();
    if (tkr_wet) tkw_stream_open();
    tkr_code_init();
    tkr_run_init();
    VG_(track_start_client_code)(start_client);
    VG_(track_pre_thread_ll_create)(thread_create);
    VG_(track_pre_thread_ll_exit)(thread_exit);
    VG_(track_pre_deliver_signal)(deliver_signal);
    VG_(atfork)(NULL, NULL, fork_child);
}

static void fini(Int exitcode)
{
    if (!recording) return;
    tkr_threads_end_all();
    tkr_trace_flush_all();
    if (tkr_wet) tkw_stop();
    write_raw("exit", exitcode ? exitcode : exit_code);
}

static void pre_clo_init(void)
{
    VG_(details_name)("tkrecord");
    VG_(details_version)(NULL);
    VG_(details_description)("tracekit's recorder of dynamic control-flow graphs");
    VG_(details_copyright_author)("Copyright (C) the tracekit authors.");
    VG_(details_bug_reports_to)("the tracekit issue tracker");
    VG_(details_avg_translation_sizeB)(200);
    VG_(basic_tool_funcs)(post_clo_init, tkr_instrument, fini);
    VG_(needs_command_line_options)(process_option, print_usage, print_debug_usage);
    VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
