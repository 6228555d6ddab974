/* Crash-time path tracing: the crashed thread's frames (libdwfl unwinds the
 * core with BIN's call frame information) and, in each frame of a function
 * with csi-cc's path-tracing locals (__PT_counter_arr, __PT_counter_idx,
 * __PT_current_path: PathTracing.cpp), their values read from the core
 * through the locals' DWARF locations. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/alloc.h"
#include "formats/csi_cov/cov_crash.h"

/* Frames walked at most; path values read at most per frame. */
#define MAX_FRAMES 256
#define MAX_PATH_SLOTS 4096

typedef struct walk_ctx {
    tk_csi_crash *c;
    const crash_open *o;
    Dwfl *dwfl;
    uint32_t depth;
    int thread_seen;
} walk_ctx;

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

/* ---- DWARF expressions of the locals ---------------------------------- */

/* The value of a one-operation location: a register (DW_OP_regN,
 * DW_OP_regx), a register plus an offset (DW_OP_bregN, DW_OP_bregx) or the
 * frame's CFA. 0 or -1. */
static int eval_op(Dwfl_Frame *state, const Dwarf_Op *op, Dwarf_Addr cfa, int has_cfa,
                   Dwarf_Word *out)
{
    Dwarf_Word v;
    if ((op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) || op->atom == DW_OP_bregx) {
        int bregx = op->atom == DW_OP_bregx; /* libdw gives CFA rules so */
        unsigned reg = bregx ? (unsigned)op->number : (unsigned)(op->atom - DW_OP_breg0);
        if (dwfl_frame_reg(state, reg, &v) != 0) return -1;
        *out = v + (Dwarf_Word)(Dwarf_Sword)(bregx ? op->number2 : op->number);
        return 0;
    }
    if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31)
        return dwfl_frame_reg(state, op->atom - DW_OP_reg0, out);
    if (op->atom == DW_OP_regx) return dwfl_frame_reg(state, (unsigned)op->number, out);
    if (op->atom == DW_OP_call_frame_cfa && has_cfa) {
        *out = cfa;
        return 0;
    }
    return -1;
}

/* The frame's canonical frame address from the module's CFI at pc. */
static int frame_cfa(Dwfl_Module *mod, Dwfl_Frame *state, Dwarf_Addr pc, Dwarf_Addr *cfa)
{
    Dwarf_Addr bias;
    Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);
    if (!cfi) cfi = dwfl_module_dwarf_cfi(mod, &bias);
    Dwarf_Frame *fr;
    if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &fr) != 0) return -1;
    Dwarf_Op *ops;
    size_t n;
    int rc = -1;
    if (dwarf_frame_cfa(fr, &ops, &n) == 0 && n == 1) rc = eval_op(state, &ops[0], 0, 0, cfa);
    free(fr);
    return rc;
}

/* Address of a variable at pc (a location in memory: DW_OP_fbreg from the
 * subprogram's frame base, DW_OP_bregN, DW_OP_addr). 0 or -1. */
static int var_address(Dwfl_Module *mod, Dwfl_Frame *state, Dwarf_Die *sub, Dwarf_Die *var,
                       Dwarf_Addr pc, Dwarf_Addr bias, Dwarf_Addr *addr)
{
    Dwarf_Attribute a;
    Dwarf_Op *expr;
    size_t n;
    if (!dwarf_attr_integrate(var, DW_AT_location, &a) ||
        dwarf_getlocation_addr(&a, pc - bias, &expr, &n, 1) != 1 || n != 1)
        return -1;
    if (expr[0].atom == DW_OP_addr) {
        *addr = expr[0].number + bias;
        return 0;
    }
    if (expr[0].atom != DW_OP_fbreg)
        return ((expr[0].atom >= DW_OP_breg0 && expr[0].atom <= DW_OP_breg31) ||
                expr[0].atom == DW_OP_bregx)
                   ? eval_op(state, &expr[0], 0, 0, addr)
                   : -1;
    Dwarf_Op *fb;
    size_t nfb;
    if (!dwarf_attr_integrate(sub, DW_AT_frame_base, &a) ||
        dwarf_getlocation_addr(&a, pc - bias, &fb, &nfb, 1) != 1 || nfb != 1)
        return -1;
    Dwarf_Addr cfa = 0;
    int has_cfa = fb[0].atom == DW_OP_call_frame_cfa && frame_cfa(mod, state, pc, &cfa) == 0;
    Dwarf_Word base;
    if (eval_op(state, &fb[0], cfa, has_cfa, &base) != 0) return -1;
    *addr = base + (Dwarf_Word)(Dwarf_Sword)expr[0].number;
    return 0;
}

/* ---- one frame -------------------------------------------------------- */

static int little_endian_core(const crash_open *o) { return !tk_coredump_big_endian(o->mem); }

static int64_t load_i64(const uint8_t *p, int little)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[little ? i : 7 - i] << (8 * i);
    return (int64_t)v;
}

/* A local's bytes at pc (n bytes, n = 0: the size of its type). */
static const char *read_local(walk_ctx *w, Dwfl_Module *mod, Dwfl_Frame *state, Dwarf_Die *sub,
                              Dwarf_Die *var, Dwarf_Addr pc, Dwarf_Addr bias, uint8_t **bytes,
                              size_t *n)
{
    Dwarf_Addr addr;
    if (var_address(mod, state, sub, var, pc, bias, &addr) != 0)
        return "its location is not one tracekit evaluates (not in memory at this point)";
    if (*n == 0) {
        Dwarf_Attribute a;
        Dwarf_Die type;
        Dwarf_Word size;
        if (!dwarf_attr_integrate(var, DW_AT_type, &a) || !dwarf_formref_die(&a, &type) ||
            dwarf_aggregate_size(&type, &size) != 0 || size == 0 || size % 8 != 0 ||
            size / 8 > MAX_PATH_SLOTS)
            return "its type is not an array of 64-bit path numbers";
        *n = (size_t)size;
    }
    *bytes = tk_arena_alloc(&w->c->arena, *n);
    if (!*bytes) return "out of memory";
    if (tk_coredump_read(w->o->mem, addr, *bytes, *n, NULL) != TK_OK)
        return "its bytes are not in the core";
    return NULL;
}

/* The three locals of a traced frame; problem set when one cannot be read. */
static void read_locals(walk_ctx *w, Dwfl_Module *mod, Dwfl_Frame *state, Dwarf_Die *scopes,
                        int nscopes, int sub, Dwarf_Addr pc, Dwarf_Addr bias, tk_csi_crash_frame *f)
{
    static const char *const names[3] = {"__PT_counter_arr", "__PT_counter_idx",
                                         "__PT_current_path"};
    uint8_t *bytes[3] = {NULL, NULL, NULL};
    size_t n[3] = {0, 8, 8};
    for (int k = 0; k < 3; k++) {
        Dwarf_Die var;
        if (dwarf_getscopevar(scopes, nscopes, names[k], 0, NULL, 0, 0, &var) < 0) {
            if (k > 0)
                f->problem = k == 1 ? "it has __PT_counter_arr but no __PT_counter_idx"
                                    : "it has __PT_counter_arr but no __PT_current_path";
            return;
        }
        f->traced = 1;
        const char *why = read_local(w, mod, state, &scopes[sub], &var, pc, bias, &bytes[k], &n[k]);
        if (why) {
            char *msg = tk_arena_alloc(&w->c->arena, strlen(why) + 40);
            if (msg) snprintf(msg, strlen(why) + 40, "%s: %s", names[k], why);
            f->problem = msg ? msg : why;
            return;
        }
    }
    int little = little_endian_core(w->o);
    int64_t *paths = tk_arena_alloc(&w->c->arena, n[0]);
    if (!paths) {
        f->problem = "out of memory";
        return;
    }
    for (size_t i = 0; i < n[0] / 8; i++) paths[i] = load_i64(bytes[0] + 8 * i, little);
    f->paths = paths;
    f->npaths = n[0] / 8;
    f->idx = load_i64(bytes[1], little);
    f->cur = load_i64(bytes[2], little);
}

/* Function, source line and path-tracing locals of the frame at pc. */
static void describe_frame(walk_ctx *w, Dwfl_Frame *state, Dwarf_Addr pc, tk_csi_crash_frame *f)
{
    Dwfl_Module *mod = dwfl_addrmodule(w->dwfl, pc);
    if (!mod) return;
    Dwfl_Line *l = dwfl_module_getsrc(mod, pc);
    int lineno = 0;
    const char *src = l ? dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (src) f->source = tk_arena_strndup(&w->c->arena, src, strlen(src));
    f->line = lineno > 0 ? (uint64_t)lineno : 0;
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, &bias);
    Dwarf_Die *scopes = NULL;
    int n = cu ? dwarf_getscopes(cu, pc - bias, &scopes) : 0;
    int sub = -1;
    for (int i = 0; i < n && sub < 0; i++)
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) sub = i;
    if (sub >= 0) {
        const char *name = dwarf_diename(&scopes[sub]);
        if (name) f->function = tk_arena_strndup(&w->c->arena, name, strlen(name));
        read_locals(w, mod, state, scopes, n, sub, pc, bias, f);
    }
    free(scopes);
}

static int on_frame(Dwfl_Frame *state, void *arg)
{
    walk_ctx *w = arg;
    Dwarf_Addr pc;
    bool activation;
    if (w->depth >= MAX_FRAMES || !dwfl_frame_pc(state, &pc, &activation)) return DWARF_CB_ABORT;
    tk_csi_crash_frame f;
    memset(&f, 0, sizeof f);
    f.depth = w->depth++;
    f.pc = pc;
    /* a return address is after its call: look the call up */
    describe_frame(w, state, activation || pc == 0 ? pc : pc - 1, &f);
    if (TK_VEC_PUSH(&w->c->frames, f) != 0) return DWARF_CB_ABORT;
    return DWARF_CB_OK;
}

/* The first thread of the core is the one that crashed (the kernel and gdb
 * write it first). The others are passed over, not cut short: libdwfl frees
 * its iteration state of a core only at the end of the threads. */
static int on_thread(Dwfl_Thread *thread, void *arg)
{
    walk_ctx *w = arg;
    if (w->thread_seen++) return DWARF_CB_OK;
    w->c->crashed_tid = (uint64_t)dwfl_thread_tid(thread);
    if (dwfl_thread_getframes(thread, on_frame, w) != 0 && w->depth == 0)
        tk_crash_note(w->c, "the crashed thread's stack could not be unwound: %s", dwfl_errmsg(-1));
    return DWARF_CB_OK;
}

/* BIN's bytes as a file for libdwfl (which reads modules from descriptors). */
static int bin_fd(const crash_open *o)
{
    int fd = memfd_create("tracekit-program", MFD_CLOEXEC);
    if (fd < 0) return -1;
    const uint8_t *p = o->bin;
    size_t left = o->bin_len;
    while (left > 0) {
        ssize_t k = write(fd, p, left);
        if (k <= 0) {
            close(fd);
            return -1;
        }
        p += k;
        left -= (size_t)k;
    }
    return lseek(fd, 0, SEEK_SET) == 0 ? fd : (close(fd), -1);
}

void tk_crash_read_frames(tk_csi_crash *c, const crash_open *o)
{
    int64_t bad_id;
    tk_coredump_threads(o->mem, &bad_id);
    if (bad_id <= 0) { /* libdwfl's thread walk would stop there and leak its state */
        tk_crash_note(c,
                      "the crashed thread's frames are not read: a thread's status "
                      "(NT_PRSTATUS) has the id %lld",
                      (long long)bad_id);
        return;
    }
    walk_ctx w = {c, o, dwfl_begin(&callbacks), 0, 0};
    Elf *core = elf_memory((char *)(uintptr_t)o->core, o->core_len);
    int fd = bin_fd(o);
    if (!w.dwfl || !core || fd < 0) {
        tk_crash_note(c, "the frames of the crashed thread are not read: %s",
                      fd < 0 ? "cannot hand the program to libdwfl" : dwfl_errmsg(-1));
        if (fd >= 0) close(fd);
    } else if (!dwfl_report_elf(w.dwfl, o->bin_path, o->bin_path, fd, c->bias, false)) {
        close(fd);
        tk_crash_note(c, "the frames of the crashed thread are not read: %s", dwfl_errmsg(-1));
    } else if (dwfl_report_end(w.dwfl, NULL, NULL) != 0 ||
               dwfl_core_file_attach(w.dwfl, core) < 0) {
        tk_crash_note(c,
                      "the crashed thread's frames are not read: the core has no thread state "
                      "libdwfl takes (NT_PRSTATUS with NT_PRPSINFO): %s",
                      dwfl_errmsg(-1));
    } else {
        dwfl_getthreads(w.dwfl, on_thread, &w);
    }
    if (w.dwfl) dwfl_end(w.dwfl);
    if (core) elf_end(core);
}
