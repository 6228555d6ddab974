/* tracekit-mpi: tracekit's commands run by every rank of an MPI job (mpirun, srun), as one
 * team (src/cli/team.h): the inputs of the commands that run in a team are split across the
 * ranks by size and their partial results reduced to rank 0, which prints and writes
 * everything; the other commands run on rank 0 alone. The other ranks' standard output and
 * error go to /dev/null: a rank that cannot go on says so on the real standard error.
 * TRACEKIT_MPI_TIMEOUT=S ends a rank (exit 1) that has not finished after S seconds, and with
 * it the job; TRACEKIT_MPI_FANIN=N (default 8) is the reduction tree's fan-in;
 * TRACEKIT_MPI_TIMES=1 has every rank say where its time went (bench/mpi.sh). */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "cli.h"
#include "team_mpi.h"

#define DEFAULT_FANIN 8

static char timeout_msg[200];
static size_t timeout_len;
static int timeout_fd = 2;

static void on_timeout(int sig)
{
    (void)sig;
    ssize_t n = write(timeout_fd, timeout_msg, timeout_len);
    (void)n;
    _exit(CLI_EXIT_BAD_INPUT);
}

/* A positive number from the environment variable name, else dflt (-1: not a number). */
static long long env_number(const char *name, long long dflt)
{
    const char *v = getenv(name);
    uint64_t n;
    if (!v || !*v) return dflt;
    if (tk_parse_u64(v, strlen(v), &n, NULL) != TK_OK || n > 1000000000) return -1;
    return (long long)n;
}

/* The real standard error kept for what this rank must say; the others' standard output and
 * error to /dev/null. Returns the stream of the real standard error. */
static FILE *quiet_unless_root(int rank)
{
    int fd = dup(STDERR_FILENO);
    FILE *err = fd >= 0 ? fdopen(fd, "w") : NULL;
    timeout_fd = fd >= 0 ? fd : STDERR_FILENO;
    if (rank != 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            fflush(stdout);
            fflush(stderr);
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            close(null);
        }
    }
    return err ? err : stderr;
}

static void arm_timeout(int rank, long long seconds)
{
    if (seconds <= 0) return;
    int n = snprintf(timeout_msg, sizeof timeout_msg,
                     "tracekit-mpi: rank %d: error: not done after %lld s "
                     "(TRACEKIT_MPI_TIMEOUT): a rank is stuck or gone\n",
                     rank, seconds);
    timeout_len = n > 0 ? (size_t)n : 0;
    signal(SIGALRM, on_timeout);
    alarm((unsigned)seconds);
}

int main(int argc, char **argv)
{
    int provided;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "tracekit-mpi: error: MPI_Init failed\n");
        return CLI_EXIT_BAD_INPUT;
    }
    long long fanin = env_number("TRACEKIT_MPI_FANIN", DEFAULT_FANIN);
    long long timeout = env_number("TRACEKIT_MPI_TIMEOUT", 0);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (fanin < 2 || timeout < 0) {
        if (rank == 0)
            fprintf(stderr, "tracekit-mpi: error: TRACEKIT_MPI_%s must be a number%s\n",
                    fanin < 2 ? "FANIN" : "TIMEOUT", fanin < 2 ? " from 2 on" : " of seconds");
        MPI_Finalize();
        return CLI_EXIT_USAGE;
    }
    FILE *err = quiet_unless_root(rank);
    arm_timeout(rank, timeout);
    mpi_team m;
    if (cli_mpi_team_open(&m, (int)fanin, err) != 0) {
        fprintf(err, "tracekit-mpi: rank %d: error: cannot set up the ranks\n", rank);
        MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_BAD_INPUT);
    }
    cli_set_team(&m.team);
    int rc = cli_mpi_team_run(&m, argc, argv);
    const char *times = getenv("TRACEKIT_MPI_TIMES");
    if (times && strcmp(times, "0") != 0 && *times) cli_mpi_team_times(&m);
    cli_set_team(NULL);
    cli_mpi_team_close(&m);
    MPI_Finalize();
    return rc;
}
