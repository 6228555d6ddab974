/* What the files of the DCFG report share (dcfg_report.c: the summary and the hot
 * tables; dcfg_report_intel.c: the tables of Intel's dcfg-reader). */
#ifndef TK_ANALYSIS_DCFG_REPORT_H
#define TK_ANALYSIS_DCFG_REPORT_H

#include <stdio.h>

#include "model/cfg_internal.h"
#include "tracekit/dcfg.h"

/* The report of one process. */
typedef struct tk_dcfg_rep {
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    const tk_dcfg_report_options *o;
    FILE *f;
} tk_dcfg_rep;

/* Does loop l (index) pass --image, --routine and --loop? */
int tk_dcfg_rep_loop_selected(const tk_dcfg_rep *r, uint32_t l);

/* The tables of Intel's dcfg-reader. */
typedef enum tk_dcfg_intel_table {
    TK_DCFG_INTEL_STATISTICS, /* its count, average, max, min lines */
    TK_DCFG_INTEL_SOURCE_LOOPS, /* the file of -all_source_loops_stats */
    TK_DCFG_INTEL_INNER_SOURCE_LOOPS /* the file of -inner_source_loops_stats */
} tk_dcfg_intel_table;

/* Table t of process r->p in r->o->format (*first_table: nothing printed before it in
 * this process; cleared). Returns 1, or 0 when out of memory. */
int tk_dcfg_rep_intel_table(tk_dcfg_rep *r, tk_dcfg_intel_table t, int *first_table);

#endif
