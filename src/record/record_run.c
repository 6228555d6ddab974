/* Running a program under Valgrind with tkrecord: finding the program, the
 * tool, Valgrind and its library folder; the VALGRIND_LIB folder the run
 * uses (links to Valgrind's files and to tkrecord); the child and its exit. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "record/record_internal.h"

#define TOOL_FILE "tkrecord-amd64-linux"
#define CORE_FILE "vgpreload_core-amd64-linux.so" /* in every Valgrind library folder */

/* snprintf into a path buffer: 1 when it fits. */
static int pathf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int pathf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < size;
}

static int is_file(const char *path, int exec)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (!exec || access(path, X_OK) == 0);
}

static int join(char *buf, size_t size, const char *a, const char *b)
{
    return pathf(buf, size, "%s/%s", a, b);
}

/* The folder of the running program (/proc/self/exe), or "" */
static void exe_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    buf[n > 0 ? n : 0] = 0;
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = 0;
    else
        buf[0] = 0;
}

/* The folder of the object holding this function: libtracekit.so when the
 * library is shared (installed: LIBDIR), else the program; "" if unknown. */
static void lib_dir(char *buf, size_t size)
{
    Dl_info info;
    buf[0] = 0;
    if (dladdr((void *)(uintptr_t)&lib_dir, &info) && info.dli_fname &&
        strchr(info.dli_fname, '/') && realpath(info.dli_fname, buf)) {
        char *slash = strrchr(buf, '/');
        if (slash) *slash = 0;
    }
    if (strlen(buf) >= size) buf[0] = 0;
}

tk_status tk_record_find_tool(const tk_record_options *opt, char *buf, size_t size, tk_error *err)
{
    char exe[PATH_MAX], lib[PATH_MAX], cand[8][PATH_MAX + 32], file[PATH_MAX + 64];
    int n = 0;
    const char *env = getenv("TRACEKIT_RECORDER_DIR");
    if (opt && opt->tool_dir)
        pathf(cand[n++], sizeof cand[0], "%s", opt->tool_dir);
    else if (env && *env)
        pathf(cand[n++], sizeof cand[0], "%s", env);
    else {
        exe_dir(exe, sizeof exe);
        lib_dir(lib, sizeof lib);
        if (*lib) pathf(cand[n++], sizeof cand[0], "%s/tracekit", lib);
        if (*exe) {
            pathf(cand[n++], sizeof cand[0], "%s/recorder", exe); /* a build tree */
            pathf(cand[n++], sizeof cand[0], "%s/../lib/tracekit", exe);
            pathf(cand[n++], sizeof cand[0], "%s/../lib64/tracekit", exe);
            pathf(cand[n++], sizeof cand[0], "%s/../lib/x86_64-linux-gnu/tracekit", exe);
        }
    }
    for (int i = 0; i < n; i++) {
        if (!join(file, sizeof file, cand[i], TOOL_FILE) || !is_file(file, 1)) continue;
        if (!realpath(cand[i], buf) || strlen(buf) >= size) pathf(buf, size, "%s", cand[i]);
        return TK_OK;
    }
    char where[8 * PATH_MAX] = "";
    for (int i = 0; i < n; i++)
        pathf(where + strlen(where), sizeof where - strlen(where), "%s%s", i ? ", " : "", cand[i]);
    return tk_error_set(err, TK_ERR_UNSUPPORTED,
                        "tkrecord (tracekit's Valgrind tool, %s) is not installed: looked in %s "
                        "(make builds it when valgrind is installed; TRACEKIT_RECORDER_DIR "
                        "names its folder)",
                        TOOL_FILE, where);
}

/* name through PATH like execvp: the first executable file. */
static int in_path(const char *name, char *out, size_t size)
{
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        if (pathf(out, size, "%.*s/%s", (int)len, len ? path : ".", name) && is_file(out, 1))
            return 1;
        path += len;
        if (*path == ':') path++;
    }
    return 0;
}

/* What Valgrind (and tkrecord, x86-64 only) can run: an x86-64 ELF file or a
 * script with a #! line. */
static tk_status check_program(const char *name, char *path, size_t size, tk_error *err)
{
    if (strchr(name, '/'))
        pathf(path, size, "%s", name);
    else if (!in_path(name, path, size))
        return tk_error_set(err, TK_ERR_ARG, "%s: no such program in PATH", name);
    struct stat st;
    if (stat(path, &st) != 0) return tk_error_set(err, TK_ERR_ARG, "%s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) return tk_error_set(err, TK_ERR_ARG, "%s: is a folder", path);
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
        return tk_error_set(err, TK_ERR_ARG, "%s: not an executable file", path);
    unsigned char h[64];
    memset(h, 0, sizeof h);
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, h, sizeof h) : -1;
    if (fd >= 0) close(fd);
    if (n < 0)
        return tk_error_set(err, TK_ERR_ARG, "%s: cannot read it: %s", path, strerror(errno));
    if (n >= 2 && h[0] == '#' && h[1] == '!') return TK_OK;
    if (n < 20 || memcmp(h, ELFMAG, SELFMAG) != 0)
        return tk_error_set(err, TK_ERR_ARG,
                            "%s: neither an ELF program nor a script with a #! line (a shell "
                            "would run it with /bin/sh: record /bin/sh %s)",
                            path, path);
    uint16_t machine = (uint16_t)(h[18] | h[19] << 8);
    if (h[EI_CLASS] != ELFCLASS64 || machine != EM_X86_64)
        return tk_error_set(err, TK_ERR_UNSUPPORTED,
                            "%s: not an x86-64 program: tkrecord records x86-64 Linux programs "
                            "only",
                            path);
    Elf64_Ehdr eh;
    memcpy(&eh, h, sizeof eh);
    if (n < (ssize_t)sizeof eh || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) || !eh.e_phnum ||
        eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize > (uint64_t)st.st_size)
        return tk_error_set(err, TK_ERR_ARG, "%s: not an ELF program that can be loaded", path);
    return TK_OK;
}

/* Valgrind's folder of tools and preloaded libraries. */
static int valgrind_libdir(const char *valgrind, char *out, size_t size)
{
    char probe[PATH_MAX + 64], real[PATH_MAX];
    const char *env = getenv("TRACEKIT_VALGRIND_LIBDIR");
    const char *fixed[] = {"/usr/libexec/valgrind", "/usr/lib/x86_64-linux-gnu/valgrind",
                           "/usr/lib/valgrind", "/usr/local/libexec/valgrind",
                           "/usr/local/lib/valgrind"};
    if (env && *env) {
        pathf(out, size, "%s", env);
        return join(probe, sizeof probe, out, CORE_FILE) && is_file(probe, 0);
    }
    if (realpath(valgrind, real)) { /* PREFIX/bin/valgrind -> PREFIX/libexec/valgrind */
        char *slash = strrchr(real, '/');
        if (slash) *slash = 0;
        slash = strrchr(real, '/');
        if (slash) {
            *slash = 0;
            pathf(out, size, "%s/libexec/valgrind", real);
            if (join(probe, sizeof probe, out, CORE_FILE) && is_file(probe, 0)) return 1;
        }
    }
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        pathf(out, size, "%s", fixed[i]);
        if (join(probe, sizeof probe, out, CORE_FILE) && is_file(probe, 0)) return 1;
    }
    return 0;
}

/* dir/lib: a link to every file of Valgrind's folder, and to tkrecord. */
static tk_status make_libdir(const char *lib, const char *sys, const char *tool_dir, tk_error *err)
{
    char from[PATH_MAX + 300], to[PATH_MAX + 300];
    if (mkdir(lib, 0700) != 0)
        return tk_error_set(err, TK_ERR_IO, "cannot create %s: %s", lib, strerror(errno));
    DIR *dp = opendir(sys);
    if (!dp) return tk_error_set(err, TK_ERR_IO, "cannot read %s: %s", sys, strerror(errno));
    struct dirent *de;
    tk_status st = TK_OK;
    while (st == TK_OK && (de = readdir(dp))) {
        if (de->d_name[0] == '.' || !strcmp(de->d_name, TOOL_FILE)) continue;
        if (!join(from, sizeof from, sys, de->d_name) || !join(to, sizeof to, lib, de->d_name) ||
            symlink(from, to) != 0)
            st = tk_error_set(err, TK_ERR_IO, "cannot link %s: %s", to, strerror(errno));
    }
    closedir(dp);
    if (st == TK_OK && (!join(from, sizeof from, tool_dir, TOOL_FILE) ||
                        !join(to, sizeof to, lib, TOOL_FILE) || symlink(from, to) != 0))
        st = tk_error_set(err, TK_ERR_IO, "cannot link %s: %s", to, strerror(errno));
    return st;
}

/* Whether folder dir is empty (1), holds something (0) or cannot be read (-1). */
static int is_empty(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) return -1;
    struct dirent *de;
    int empty = 1;
    while (empty && (de = readdir(dp)))
        empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
    closedir(dp);
    return empty;
}

/* --keep-raw DIR: DIR made when missing, DIR/raw made or empty (the raw files of another
 * recording there would be read as processes of this one). TK_ERR_IO, TK_ERR_EXISTS. */
static tk_status keep_raw_dir(const char *dir, const char *raw, tk_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return tk_error_set(err, TK_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
    if (mkdir(raw, 0700) == 0) return TK_OK;
    if (errno != EEXIST)
        return tk_error_set(err, TK_ERR_IO, "cannot create %s: %s", raw, strerror(errno));
    int empty = is_empty(raw);
    if (empty < 0) return tk_error_set(err, TK_ERR_IO, "cannot read %s: %s", raw, strerror(errno));
    if (!empty)
        return tk_error_set(err, TK_ERR_EXISTS,
                            "%s exists and is not empty (the raw files of another recording?)",
                            raw);
    return TK_OK;
}

tk_status tk_rec_prepare(rec_run *run, const char *const *argv, const tk_record_options *opt,
                         tk_error *err)
{
    memset(run, 0, sizeof *run);
    if (!argv || !argv[0] || !*argv[0]) return tk_error_set(err, TK_ERR_ARG, "no program to run");
    tk_status st = check_program(argv[0], run->program, sizeof run->program, err);
    if (st != TK_OK) return st;
    if ((st = tk_record_find_tool(opt, run->tool_dir, sizeof run->tool_dir, err)) != TK_OK)
        return st;
    const char *vg = opt && opt->valgrind ? opt->valgrind : "valgrind";
    if (strchr(vg, '/') ? !is_file(vg, 1) : !in_path(vg, run->valgrind, sizeof run->valgrind))
        return tk_error_set(err, TK_ERR_UNSUPPORTED,
                            "%s: Valgrind is not installed (tracekit record runs the program "
                            "under it; Debian: apt-get install valgrind)",
                            vg);
    if (strchr(vg, '/')) pathf(run->valgrind, sizeof run->valgrind, "%s", vg);
    if (!valgrind_libdir(run->valgrind, run->vg_libdir, sizeof run->vg_libdir)) {
        const char *env = getenv("TRACEKIT_VALGRIND_LIBDIR");
        if (env && *env)
            return tk_error_set(err, TK_ERR_UNSUPPORTED,
                                "TRACEKIT_VALGRIND_LIBDIR=%s: no vgpreload_core-amd64-linux.so "
                                "there (it names Valgrind's library folder)",
                                env);
        return tk_error_set(err, TK_ERR_UNSUPPORTED,
                            "cannot find Valgrind's library folder (vgpreload_core-amd64-linux.so) "
                            "next to %s: set TRACEKIT_VALGRIND_LIBDIR",
                            run->valgrind);
    }
    const char *tmp = getenv("TMPDIR");
    pathf(run->dir, sizeof run->dir, "%s/tracekit-record.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(run->dir)) {
        pathf(run->dir, sizeof run->dir, "/tmp/tracekit-record.XXXXXX");
        if (!mkdtemp(run->dir)) {
            run->dir[0] = 0;
            return tk_error_set(err, TK_ERR_IO, "cannot create a temporary folder: %s",
                                strerror(errno));
        }
    }
    char lib[PATH_MAX + 16];
    pathf(lib, sizeof lib, "%s/lib", run->dir);
    pathf(run->raw, sizeof run->raw, "%s/raw", opt && opt->keep_raw ? opt->keep_raw : run->dir);
    if (opt && opt->keep_raw) {
        st = keep_raw_dir(opt->keep_raw, run->raw, err);
        if (st != TK_OK) return st;
    } else if (mkdir(run->raw, 0700) != 0) {
        return tk_error_set(err, TK_ERR_IO, "cannot create %s: %s", run->raw, strerror(errno));
    }
    return make_libdir(lib, run->vg_libdir, run->tool_dir, err);
}

/* Remove a folder and what is in it (files and links, one level of folders). */
static void remove_tree(const char *dir)
{
    DIR *dp = opendir(dir);
    if (dp) {
        struct dirent *de;
        char path[PATH_MAX + 300];
        while ((de = readdir(dp))) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
            if (!join(path, sizeof path, dir, de->d_name)) continue;
            struct stat st;
            if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
                remove_tree(path);
            else
                unlink(path);
        }
        closedir(dp);
    }
    rmdir(dir);
}

void tk_rec_cleanup(rec_run *run, const tk_record_options *opt)
{
    if (!run->dir[0]) return;
    (void)opt; /* with --keep-raw, the raw files are not in it */
    remove_tree(run->dir);
    run->dir[0] = 0;
}

static void child(const rec_run *run, const char *const *argv, const tk_record_options *opt,
                  const sigset_t *mask)
{
    pthread_sigmask(SIG_SETMASK, mask, NULL); /* the caller's, not tk_rec_spawn's */
    char lib[PATH_MAX + 32], out[PATH_MAX + 32], log[PATH_MAX + 32], lim[48], hist[64], root[48];
    pathf(lib, sizeof lib, "VALGRIND_LIB=%s/lib", run->dir);
    pathf(out, sizeof out, "--tkr-out=%s", run->raw);
    pathf(log, sizeof log, "--log-file=%s/valgrind.%%p.log", run->dir);
    pathf(lim, sizeof lim, "--tkr-threads-limit=%u", opt->threads_limit ? opt->threads_limit : 256);
    size_t argc = 0;
    while (argv[argc]) argc++;
    const char **args = calloc(argc + 20, sizeof *args);
    if (!args || putenv(lib) != 0) _exit(127);
    size_t k = 0;
    args[k++] = run->valgrind;
    args[k++] = "--tool=tkrecord";
    args[k++] = "--vgdb=no"; /* no gdbserver FIFOs in TMPDIR (left there when killed) */
    args[k++] = out;
    args[k++] = log;
    args[k++] = lim;
    args[k++] = opt->trace_path ? "--tkr-trace=yes" : "--tkr-trace=no";
    args[k++] = opt->trace_children ? "--tkr-children=yes" : "--tkr-children=no";
    int wet = opt->wet_path || opt->wet_history_path;
    /* a WET trace follows the program's execs (a wrapper script, a shim), not its children */
    args[k++] = opt->trace_children || wet ? "--trace-children=yes" : "--trace-children=no";
    if (wet) {
        pathf(root, sizeof root, "--tkr-root=%ld", (long)getpid());
        args[k++] = root;
    }
    if (opt->wet_path || opt->wet_history_path) {
        pathf(hist, sizeof hist, "--tkr-wet-history=%llu",
              (unsigned long long)(opt->wet_history_path
                                       ? opt->wet_history ? opt->wet_history : TK_RECORD_WET_HISTORY
                                       : 0));
        args[k++] = "--tkr-wet=yes";
        args[k++] = opt->wet_path ? "--tkr-wet-values=yes" : "--tkr-wet-values=no";
        args[k++] = hist;
    }
    args[k++] = "--";
    args[k++] = run->program;
    for (size_t i = 1; i < argc; i++) args[k++] = argv[i];
    execv(run->valgrind, (char *const *)args);
    fprintf(stderr, "tracekit: cannot run %s: %s\n", run->valgrind, strerror(errno));
    _exit(127);
}

/* Reap what has ended: 1 when waiting is over (the program ended, or with
 * children recorded nobody is left), else 0. */
static int reap(pid_t pid, int all, int *status)
{
    for (;;) {
        int s;
        pid_t w = waitpid(all ? -1 : pid, &s, WNOHANG);
        if (w == 0) return 0;
        if (w < 0) return errno != EINTR; /* ECHILD: nobody left */
        if (w == pid) {
            *status = s;
            if (!all) return 1;
        }
    }
}

/* Run Valgrind and wait for it (and, recording children or a WET trace, for which
 * Valgrind follows every exec, for every process left behind by the program:
 * tracekit is then their subreaper). SIGTERM and
 * SIGHUP sent to tracekit meanwhile are passed on to Valgrind: they are
 * blocked and taken with sigwait along with SIGCHLD (no handler, so no state
 * outside this call). */
tk_status tk_rec_spawn(rec_run *run, const char *const *argv, const tk_record_options *opt,
                       tk_error *err)
{
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigset_t waited, old_mask;
    sigemptyset(&waited);
    sigaddset(&waited, SIGTERM);
    sigaddset(&waited, SIGHUP);
    sigaddset(&waited, SIGCHLD);
    int all = opt->trace_children || opt->wet_path || opt->wet_history_path;
    if (all) prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    fflush(NULL);
    pthread_sigmask(SIG_BLOCK, &waited, &old_mask);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
        return tk_error_set(err, TK_ERR_IO, "cannot start a process: %s", strerror(e));
    }
    if (pid == 0) child(run, argv, opt, &old_mask);
    run->pid = pid;
    sigaction(SIGINT, &ign, &old_int); /* the terminal's keys go to the program */
    sigaction(SIGQUIT, &ign, &old_quit);
    int status = 0;
    while (!reap(pid, all, &status)) {
        int sig = 0;
        if (sigwait(&waited, &sig) == 0 && (sig == SIGTERM || sig == SIGHUP)) kill(pid, sig);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    if (all) prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
    run->status = status;
    return TK_OK;
}

/* Valgrind's first message of its log of pid (what it said when it could
 * not run the program), into buf; "" when none. */
void tk_rec_valgrind_message(const rec_run *run, char *buf, size_t size)
{
    char path[PATH_MAX + 64];
    buf[0] = 0;
    pathf(path, sizeof path, "%s/valgrind.%ld.log", run->dir, (long)run->pid);
    tk_input *in;
    if (tk_rec_input_open(&in, path, NULL) != TK_OK) return;
    char line[1024];
    const char *s;
    size_t n;
    while (tk_input_getline(in, &s, &n, NULL) == TK_OK) {
        if (n >= sizeof line) n = sizeof line - 1; /* a long line's start */
        memcpy(line, s, n);
        line[n] = 0;
        char *p = line;
        if (p[0] == '=' && p[1] == '=') { /* ==PID== text */
            p = strstr(p + 2, "==");
            if (!p) continue;
            p += 2;
            while (*p == ' ') p++;
        }
        if (!*p || !strncmp(p, "tkrecord", 8) || !strncmp(p, "Copyright", 9) ||
            !strncmp(p, "Using Valgrind", 14) || !strncmp(p, "Command:", 8))
            continue;
        pathf(buf, size, "%s", p);
        break;
    }
    tk_input_free(in);
}
