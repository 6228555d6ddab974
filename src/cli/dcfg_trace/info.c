/* tracekit info for DCFG-Trace files: processes, threads, chunks. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

/* A thread: its chunks, edge transitions and instructions; with --verbose, the fields they come from,
 * the range of its instruction counts and the length of its sequences. */
static void print_thread(const tk_dcfg_trace *t, const tk_dcfg_trace_thread_info *ti, int verbose)
{
    uint64_t edges = 0, instrs = 0, first = 0, end = 0, chars = 0;
    for (size_t c = 0; c < ti->nchunks; c++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, ti->first_chunk + c, &ci);
        edges += ci.edge_count;
        instrs += ci.instr_count;
        chars += ci.sequence_chars;
        if (c == 0) first = ci.preceding_instr_count;
        end = ci.preceding_instr_count + ci.instr_count;
    }
    /* EDGE_COUNT: the first edge and one per transition, as Intel's reader counts them (a
     * transition of a multi-edge row stands for several edges, which report counts) */
    printf("  thread %llu: %zu chunk%s, %llu edge transition%s recorded%s, %llu instruction%s%s",
           (unsigned long long)ti->thread_id, ti->nchunks, cli_s(ti->nchunks),
           (unsigned long long)edges, cli_s(edges), verbose ? " (EDGE_COUNT)" : "",
           (unsigned long long)instrs, cli_s(instrs), verbose ? " (INSTR_COUNT)" : "");
    if (verbose)
        printf(", instructions %llu..%llu, %llu sequence character%s", (unsigned long long)first,
               (unsigned long long)end, (unsigned long long)chars, cli_s(chars));
    printf("\n");
}

int cli_dcfg_trace_info(cli_ctx *ctx, const cli_args *a)
{
    tk_dcfg_trace *t;
    int rc = cli_dcfg_trace_open_input(ctx, &t, NULL);
    if (rc != CLI_EXIT_OK) return rc;
    int verbose = cli_has(a, "verbose");
    uint64_t major, minor;
    tk_dcfg_trace_version(t, &major, &minor);
    printf("version: %llu.%llu\n", (unsigned long long)major, (unsigned long long)minor);
    size_t np = tk_dcfg_trace_process_count(t);
    printf("processes: %zu\n", np);
    for (size_t i = 0; i < np; i++) {
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, i, &pi);
        printf("process %llu: %zu thread%s", (unsigned long long)pi.pid, pi.nthreads,
               cli_s(pi.nthreads));
        if (verbose)
            printf("; transition table: %zu row%s from %zu edge%s, codes up to %u bit%s; "
                   "dictionary: %zu entr%s",
                   pi.transition_rows, cli_s(pi.transition_rows), pi.transition_states,
                   cli_s(pi.transition_states), pi.max_code_bits, cli_s(pi.max_code_bits),
                   pi.dictionary_entries, pi.dictionary_entries == 1 ? "y" : "ies");
        printf("\n");
        for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++) {
            tk_dcfg_trace_thread_info ti;
            tk_dcfg_trace_thread(t, th, &ti);
            if (ti.process == i) print_thread(t, &ti, verbose);
        }
    }
    tk_dcfg_trace_free(t);
    return CLI_EXIT_OK;
}
