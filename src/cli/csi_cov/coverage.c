/* tracekit coverage: what a crashed CSI program had covered, from its core. */
#include "csi_cov.h"

void cli_csi_cov_coverage_help(FILE *f) { (void)f; }

int cli_csi_cov_coverage(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return CLI_EXIT_USAGE;
}
