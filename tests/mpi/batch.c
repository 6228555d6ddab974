/* The tracekit-mpi tests' driver (tests/integration/lib/mpi.sh): many command lines run by
 * one MPI job, each as tracekit-mpi runs it (cli_mpi_team_run over a team of every rank), so that
 * a test pays MPI's start-up once per number of ranks instead of once per command.
 *   mpirun -np N mpi_batch LIST OUTDIR
 * LIST has a command a line, its words separated by tabs: the reduction tree's fan-in (a
 * number, or - for tracekit-mpi's default), the standard input (a path, or - for /dev/null),
 * then the words after `tracekit`. Rank 0 writes each command's standard output, standard
 * error and exit status into OUTDIR/K.out, K.err and K.rc (K = 1, 2, ...); the other ranks'
 * output goes to /dev/null, as tracekit-mpi's does. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "cli.h"
#include "team_mpi.h"

#define MAX_WORDS 256
#define DEFAULT_FANIN 8

/* The line's words (tabs between them) into w; returns how many. */
static int split(char *line, char **w)
{
    int n = 0;
    line[strcspn(line, "\n")] = 0;
    for (char *s = line; n < MAX_WORDS - 1;) {
        w[n++] = s;
        char *t = strchr(s, '\t');
        if (!t) break;
        *t = 0;
        s = t + 1;
    }
    w[n] = NULL;
    return n;
}

static void redirect(int fd, const char *path, int flags)
{
    int f = open(path, flags, 0644);
    if (f < 0 || dup2(f, fd) < 0) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    close(f);
}

/* Command k of words w[0..n) (fan-in, standard input, the command line) on every rank. */
static void run_one(int rank, int k, const char *dir, char **w, int n, FILE *err)
{
    char path[4096];
    int fanin = strcmp(w[0], "-") ? atoi(w[0]) : DEFAULT_FANIN;
    int saved[3] = {dup(0), dup(1), dup(2)};
    fflush(stdout);
    fflush(stderr);
    redirect(0, strcmp(w[1], "-") ? w[1] : "/dev/null", O_RDONLY);
    if (rank == 0) {
        snprintf(path, sizeof path, "%s/%d.out", dir, k);
        redirect(1, path, O_WRONLY | O_CREAT | O_TRUNC);
        snprintf(path, sizeof path, "%s/%d.err", dir, k);
        redirect(2, path, O_WRONLY | O_CREAT | O_TRUNC);
    }
    mpi_team m;
    if (cli_mpi_team_open(&m, fanin, err) != 0) {
        fprintf(err, "mpi_batch: rank %d: cannot set up the ranks\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    cli_set_team(&m.team);
    cli_set_input_threads(0); /* what a command's --jobs set is not the next one's */
    w[1] = "tracekit-mpi";
    int rc = cli_mpi_team_run(&m, n - 1, w + 1);
    fflush(stdout);
    fflush(stderr);
    clearerr(stdin);
    cli_set_team(NULL);
    cli_mpi_team_close(&m);
    for (int fd = 0; fd < 3; fd++) {
        dup2(saved[fd], fd);
        close(saved[fd]);
    }
    if (rank == 0) {
        snprintf(path, sizeof path, "%s/%d.rc", dir, k);
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%d\n", rc);
            fclose(f);
        }
    }
}

int main(int argc, char **argv)
{
    int provided, rank = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    FILE *list = argc == 3 ? fopen(argv[1], "r") : NULL;
    if (!list) {
        fprintf(stderr, "usage: mpi_batch LIST OUTDIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    FILE *err = fdopen(dup(2), "w");
    if (rank != 0) { /* as tracekit-mpi: only the root prints */
        redirect(1, "/dev/null", O_WRONLY);
        redirect(2, "/dev/null", O_WRONLY);
    }
    char line[65536], *w[MAX_WORDS];
    for (int k = 1; fgets(line, sizeof line, list); k++) {
        int n = split(line, w);
        if (n >= 3) run_one(rank, k, argv[2], w, n, err ? err : stderr);
    }
    fclose(list);
    MPI_Finalize();
    return 0;
}
