/* tracekit info for DCFG-Trace files: processes, threads, chunks. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

int cli_dcfg_trace_info(cli_ctx *ctx, const cli_args *a) {
    (void)a;
    tk_dcfg_trace *t;
    int rc = cli_dcfg_trace_open_input(ctx, &t, NULL);
    if (rc != CLI_EXIT_OK)
        return rc;
    uint64_t major, minor;
    tk_dcfg_trace_version(t, &major, &minor);
    printf("version: %llu.%llu\n", (unsigned long long)major, (unsigned long long)minor);
    size_t np = tk_dcfg_trace_process_count(t);
    printf("processes: %zu\n", np);
    for (size_t i = 0; i < np; i++) {
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, i, &pi);
        printf("process %llu: %zu threads, %zu transition rows from %zu edges (codes up to %u "
               "bits), %zu dictionary entries\n",
               (unsigned long long)pi.pid, pi.nthreads, pi.transition_rows, pi.transition_states,
               pi.max_code_bits, pi.dictionary_entries);
        for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++) {
            tk_dcfg_trace_thread_info ti;
            tk_dcfg_trace_thread(t, th, &ti);
            if (ti.process != i)
                continue;
            uint64_t edges = 0, instrs = 0, first = 0, end = 0, chars = 0;
            for (size_t c = 0; c < ti.nchunks; c++) {
                tk_dcfg_trace_chunk_info ci;
                tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
                edges += ci.edge_count;
                instrs += ci.instr_count;
                chars += ci.sequence_chars;
                if (c == 0)
                    first = ci.preceding_instr_count;
                end = ci.preceding_instr_count + ci.instr_count;
            }
            printf("  thread %llu: %zu chunks, %llu edges (EDGE_COUNT), %llu instructions "
                   "(INSTR_COUNT), instructions %llu..%llu, %llu sequence characters\n",
                   (unsigned long long)ti.thread_id, ti.nchunks, (unsigned long long)edges,
                   (unsigned long long)instrs, (unsigned long long)first, (unsigned long long)end,
                   (unsigned long long)chars);
        }
    }
    tk_dcfg_trace_free(t);
    return CLI_EXIT_OK;
}
