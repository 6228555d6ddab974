/* tracekit-mpi's team over MPI (team_mpi.c): what src/cli/team.h's operations run on. */
#ifndef TK_MPI_TEAM_MPI_H
#define TK_MPI_TEAM_MPI_H

#include <stdio.h>

#include <mpi.h>

#include "cli.h"
#include "team.h"

#define MPI_TEAM_LEVELS 32

typedef struct mpi_team {
    cli_team team;
    MPI_Comm world; /* a duplicate of MPI_COMM_WORLD, errors returned */
    int fanin; /* the tree's: partials gathered at once by one rank */
    int levels;
    MPI_Comm level[MPI_TEAM_LEVELS]; /* level L's group, MPI_COMM_NULL where not in one */
    FILE *err; /* where a rank says why it stops (the real stderr) */
    /* TRACEKIT_MPI_TIMES: where the time went, said at the end (cli_mpi_team_times) */
    double start, first_reduce, reducing; /* MPI_Wtime: at open, at the first reduction;
                                              seconds in reductions */
    int reductions;
    int gathers, inputs; /* the first gather is of this rank's inputs (dispatch.c) */
} mpi_team;

/* The team of every rank of MPI_COMM_WORLD (after MPI_Init). Returns 0 or -1. */
int cli_mpi_team_open(mpi_team *m, int fanin, FILE *err);
void cli_mpi_team_close(mpi_team *m);
/* tracekit's command line (argv[0] the program) run by every rank of the team: its exit
 * status, the worst of the ranks' (the same on every rank). The team must be the current one
 * (cli_set_team). */
int cli_mpi_team_run(mpi_team *m, int argc, char **argv);
/* "tracekit-mpi: rank R: N inputs read in S s, reductions S s (L levels), total S s, peak
 * memory M MB, CPU S s" on m->err. */
void cli_mpi_team_times(const mpi_team *m);

#endif
