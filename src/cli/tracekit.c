/* tracekit: one process (tracekit-mpi, src/mpi/main.c, runs the same cli_main on every rank). */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
