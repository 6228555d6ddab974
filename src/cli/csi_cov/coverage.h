/* tracekit coverage: what coverage.c computes and coverage_print.c and
 * coverage_annotate.c print. */
#ifndef TK_CLI_CSI_COV_COVERAGE_H
#define TK_CLI_CSI_COV_COVERAGE_H

#include <stdint.h>
#include <stdio.h>

#include "csi_cov.h"

typedef struct cli_csi_cov_result {
    const char *bin, *core;
    const tk_csi_crash *crash;
    const char *selector; /* --function */
    const char *source_dir; /* --source-dir */
    const uint8_t *bin_bytes; /* BIN's bytes (for its .debug_PT) */
    size_t bin_len;
    tk_csi_crash_counts total; /* of the functions selected */
} cli_csi_cov_result;

/* Is function i selected (--function)? */
int cli_csi_cov_selected(const cli_csi_cov_result *r, size_t i);

/* Text, JSON, CSV (coverage_print.c); annotated sources (coverage_annotate.c: a CLI
 * exit code, the error printed). */
void cli_csi_cov_print_text(FILE *out, const cli_csi_cov_result *r);
void cli_csi_cov_print_json(FILE *out, const cli_csi_cov_result *r);
void cli_csi_cov_print_csv(FILE *out, const cli_csi_cov_result *r);
int cli_csi_cov_print_annotated(FILE *out, const cli_csi_cov_result *r);

/* The crashed thread's frames and the paths of the traced ones
 * (coverage_paths.c); bin: BIN's bytes, for its .debug_PT. */
void cli_csi_cov_print_paths(FILE *out, const cli_csi_cov_result *r, const uint8_t *bin,
                             size_t bin_len);

/* "covered", "not covered", "unknown"; JSON/CSV: "yes", "no", "unknown". */
const char *cli_csi_cov_hit_word(tk_csi_hit h);
const char *cli_csi_cov_hit_short(tk_csi_hit h);

#endif
