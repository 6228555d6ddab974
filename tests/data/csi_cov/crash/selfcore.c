/* A program that writes its own core file when it crashes: a SIGSEGV handler
 * writes an ELF core of the process (to the path in $SELFCORE) the way the
 * kernel does with its default coredump_filter: the writable and anonymous
 * mappings whole, the first page of each file mapping (ELF headers and build
 * id), the auxiliary vector as NT_AUXV and, on x86-64, the registers of the
 * crash as NT_PRSTATUS with an NT_PRPSINFO (so a debugger can unwind the
 * stack); then the signal is raised again.
 * The test suite uses it where neither gdb nor the kernel can give a core
 * (a container without ptrace, core_pattern piped to a handler). Only
 * async-signal-safe calls in the handler: open, read, write, close. x86-64
 * and AArch64, little-endian ELF64. */
#define _GNU_SOURCE /* REG_RIP... of ucontext_t */
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__x86_64__)
#define SELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define SELF_MACHINE EM_AARCH64
#endif

#define MAX_SEGS 256

typedef struct seg {
    uint64_t start, end, dump;
} seg;

static char maps[1 << 16], auxv[4096];
/* struct elf_prstatus of x86-64: 336 bytes, pr_pid at 32, pr_reg (struct
 * user_regs_struct: r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi
 * rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs) at 112 */
static uint8_t prstatus[336];
static size_t prstatus_len;
/* struct elf_prpsinfo of x86-64: 136 bytes, pr_pid at 24, pr_fname at 40
 * (libdwfl wants it to attach to a core's threads) */
static uint8_t prpsinfo[136];
static seg segs[MAX_SEGS];

static size_t slurp(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY);
    size_t n = 0;
    ssize_t k;
    if (fd < 0)
        return 0;
    while (n < cap && (k = read(fd, buf + n, cap - n)) > 0)
        n += (size_t)k;
    close(fd);
    return n;
}

static uint64_t hex(const char **p)
{
    uint64_t v = 0;
    for (;; (*p)++) {
        char c = **p;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return v;
        v = v * 16 + (uint64_t)d;
    }
}

/* "start-end perms offset dev inode path": which bytes of it to dump. */
static size_t parse_maps(size_t len)
{
    size_t n = 0;
    for (const char *p = maps, *end = maps + len; p < end && n < MAX_SEGS;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        seg s;
        s.start = hex(&p);
        p++;
        s.end = hex(&p);
        p++;
        int readable = p[0] == 'r', writable = p[1] == 'w';
        p += 5;
        uint64_t offset = hex(&p);
        const char *path = memchr(p, '/', (size_t)(nl - p));
        const char *br = memchr(p, '[', (size_t)(nl - p));
        int special = br && (memcmp(br, "[vvar", 5) == 0 || memcmp(br, "[vsyscall]", 10) == 0);
        if (readable && !special) {
            s.dump = writable || !path ? s.end - s.start : offset == 0 ? 4096 : 0;
            if (s.dump > s.end - s.start)
                s.dump = s.end - s.start;
            segs[n++] = s;
        }
        p = nl + 1;
    }
    return n;
}

static void put(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = write(fd, c, n);
        if (k <= 0)
            return;
        c += k;
        n -= (size_t)k;
    }
}

#if defined(__x86_64__)
static void fill_prstatus(int sig, const ucontext_t *uc)
{
    static const int order[] = {REG_R15, REG_R14, REG_R13, REG_R12, REG_RBP, REG_RBX,
                                REG_R11, REG_R10, REG_R9,  REG_R8,  REG_RAX, REG_RCX,
                                REG_RDX, REG_RSI, REG_RDI, -1,      REG_RIP, -2,
                                REG_EFL, REG_RSP, -3};
    int32_t signo = sig, pid = (int32_t)getpid();
    memcpy(prstatus, &signo, 4);
    memcpy(prstatus + 12, &signo, 2); /* pr_cursig */
    memcpy(prstatus + 32, &pid, 4);
    memcpy(prpsinfo + 24, &pid, 4);
    memcpy(prpsinfo + 40, "selfcore", 8);
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        uint64_t v = 0;
        if (order[i] >= 0)
            v = (uint64_t)uc->uc_mcontext.gregs[order[i]];
        else if (order[i] == -2 || order[i] == -3) /* cs, ss of a 64-bit process */
            v = order[i] == -2 ? 0x33 : 0x2b;
        memcpy(prstatus + 112 + 8 * i, &v, 8);
    }
    prstatus_len = sizeof prstatus;
}
#endif

static void write_core(int fd, size_t nseg, size_t auxv_len)
{
    Elf64_Ehdr eh;
    memset(&eh, 0, sizeof eh);
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_CORE;
    eh.e_machine = SELF_MACHINE;
    eh.e_version = EV_CURRENT;
    eh.e_phoff = sizeof eh;
    eh.e_ehsize = sizeof eh;
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = (Elf64_Half)(nseg + 1);
    put(fd, &eh, sizeof eh);
    uint64_t note_off = sizeof eh + (nseg + 1) * sizeof(Elf64_Phdr);
    uint64_t note_len = 12 + 8 + ((auxv_len + 3) & ~(uint64_t)3) +
                        (prstatus_len ? 2 * (12 + 8) + prstatus_len + sizeof prpsinfo : 0);
    Elf64_Phdr ph;
    memset(&ph, 0, sizeof ph);
    ph.p_type = PT_NOTE;
    ph.p_offset = note_off;
    ph.p_filesz = note_len;
    ph.p_align = 4;
    put(fd, &ph, sizeof ph);
    uint64_t off = (note_off + note_len + 4095) & ~(uint64_t)4095;
    for (size_t i = 0; i < nseg; i++) {
        memset(&ph, 0, sizeof ph);
        ph.p_type = PT_LOAD;
        ph.p_flags = PF_R | PF_W;
        ph.p_offset = off;
        ph.p_vaddr = segs[i].start;
        ph.p_filesz = segs[i].dump;
        ph.p_memsz = segs[i].end - segs[i].start;
        ph.p_align = 4096;
        put(fd, &ph, sizeof ph);
        off += segs[i].dump;
    }
    static const char zeros[8192];
    if (prstatus_len) { /* the crashed thread first, as the kernel writes it */
        uint32_t ph_note[3] = {5, (uint32_t)prstatus_len, NT_PRSTATUS};
        put(fd, ph_note, sizeof ph_note);
        put(fd, "CORE\0\0\0", 8);
        put(fd, prstatus, prstatus_len);
        uint32_t ps_note[3] = {5, (uint32_t)sizeof prpsinfo, NT_PRPSINFO};
        put(fd, ps_note, sizeof ps_note);
        put(fd, "CORE\0\0\0", 8);
        put(fd, prpsinfo, sizeof prpsinfo);
    }
    uint32_t nh[3] = {5, (uint32_t)auxv_len, NT_AUXV};
    put(fd, nh, sizeof nh);
    put(fd, "CORE\0\0\0", 8);
    put(fd, auxv, auxv_len);
    uint64_t at = note_off + note_len - ((auxv_len + 3) & ~(uint64_t)3) + auxv_len;
    uint64_t pad = ((note_off + note_len + 4095) & ~(uint64_t)4095) - at;
    put(fd, zeros, (size_t)pad);
    for (size_t i = 0; i < nseg; i++)
        put(fd, (const void *)(uintptr_t)segs[i].start, (size_t)segs[i].dump);
}

static void on_crash(int sig, siginfo_t *si, void *uc)
{
    (void)si;
#if defined(__x86_64__)
    fill_prstatus(sig, uc);
#else
    (void)uc;
#endif
    const char *path = getenv("SELFCORE");
    size_t len = slurp("/proc/self/maps", maps, sizeof maps);
    size_t alen = slurp("/proc/self/auxv", auxv, sizeof auxv);
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    if (fd >= 0) {
        write_core(fd, parse_maps(len), alen);
        close(fd);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) static void install(void)
{
#ifdef SELF_MACHINE
    if (getenv("SELFCORE")) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_crash;
        sa.sa_flags = SA_SIGINFO;
        sigaction(SIGSEGV, &sa, NULL);
    }
#endif
}
