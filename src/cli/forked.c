/* Units of work run in processes of their own, `jobs` at a time, their outputs printed in
 * order (check -j, report -j, dump -j: forked.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forked.h"

/* A unit started in a child: its pid (0: not started, to run here in its turn), its standard
 * output and error. */
typedef struct child {
    pid_t pid;
    FILE *out, *err;
} child;

static void start(child *c, cli_unit_fn run, void *arg, int k)
{
    memset(c, 0, sizeof *c);
    c->out = tmpfile();
    c->err = tmpfile();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = c->out && c->err ? fork() : -1;
    if (pid == 0) {
        if (dup2(fileno(c->out), STDOUT_FILENO) < 0 || dup2(fileno(c->err), STDERR_FILENO) < 0)
            _exit(CLI_EXIT_BAD_INPUT);
        int rc = run(arg, k);
        fflush(NULL);
        _exit(rc);
    }
    if (pid > 0) c->pid = pid;
}

static void copy(FILE *from, FILE *to)
{
    char buf[65536];
    size_t n;
    fflush(to);
    rewind(from);
    while ((n = fread(buf, 1, sizeof buf, from)) > 0) fwrite(buf, 1, n, to);
    fflush(to);
}

static void drop(child *c)
{
    if (c->out) fclose(c->out);
    if (c->err) fclose(c->err);
    c->out = c->err = NULL;
}

/* Unit k's exit code, its output printed; `print` 0: a unit after the one that stopped the run
 * (its child ended, its output dropped). */
static int finish(child *c, cli_unit_fn run, void *arg, int k, int print)
{
    int rc;
    if (!c->pid) { /* no child: here, in its turn */
        drop(c);
        return print ? run(arg, k) : CLI_EXIT_OK;
    }
    if (!print) kill(c->pid, SIGTERM);
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        ;
    rc = WIFEXITED(status) ? WEXITSTATUS(status) : CLI_EXIT_BAD_INPUT;
    if (print) {
        copy(c->out, stdout);
        copy(c->err, stderr);
        if (WIFSIGNALED(status))
            fprintf(
                stderr,
                "tracekit: error: the process reading part %d of the FILEs ended by signal %d\n",
                k + 1, WTERMSIG(status));
    }
    drop(c);
    return rc;
}

int cli_run_forked(int n, unsigned jobs, int stops, cli_unit_fn run, void *arg)
{
    child *c = calloc((size_t)n + 1, sizeof *c);
    if (!c) jobs = 1;
    int worst = CLI_EXIT_OK, started = 0, stopped = 0;
    for (int k = 0; k < n; k++) {
        if (!c) {
            int rc = run(arg, k);
            worst = rc > worst ? rc : worst;
            if (rc == CLI_EXIT_USAGE || (stops && rc != CLI_EXIT_OK)) break;
            continue;
        }
        while (started < n && (unsigned)(started - k) < jobs && !stopped) {
            start(&c[started], run, arg, started);
            started++;
        }
        int rc = finish(&c[k], run, arg, k, !stopped);
        if (stopped) continue;
        worst = rc > worst ? rc : worst;
        stopped = rc == CLI_EXIT_USAGE || (stops && rc != CLI_EXIT_OK);
    }
    free(c);
    return worst;
}

int cli_same_output(void)
{
    struct stat a, b;
    if (fstat(STDOUT_FILENO, &a) != 0 || fstat(STDERR_FILENO, &b) != 0) return 1;
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
