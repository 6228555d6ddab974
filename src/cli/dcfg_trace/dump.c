/* tracekit dump for DCFG-Trace files: the structure and the decoded edges. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

const cli_opt cli_dcfg_trace_dump_opts[] = {
    {"no-edges", 0, NULL, "only the structure, not the decoded edges"},
    {NULL, 0, NULL, NULL},
};

static int dump_edges(void *ctx, const uint32_t *edges, size_t n)
{
    cli_dcfg_trace_writer *w = ctx;
    for (size_t i = 0; i < n; i++) {
        cli_dcfg_trace_put_char(w, ' ');
        cli_dcfg_trace_put_u64(w, edges[i]);
    }
    return w->failed;
}

int cli_dcfg_trace_dump(cli_ctx *ctx, const cli_args *a)
{
    tk_dcfg_trace *t;
    int rc = cli_dcfg_trace_open_input(ctx, &t, NULL);
    if (rc != CLI_EXIT_OK) return rc;
    int with_edges = !cli_has(a, "no-edges");
    uint64_t major, minor;
    tk_dcfg_trace_version(t, &major, &minor);
    printf("dcfg-trace %llu.%llu\n", (unsigned long long)major, (unsigned long long)minor);
    tk_error err;
    tk_error_clear(&err);
    for (size_t i = 0; i < tk_dcfg_trace_process_count(t) && rc == CLI_EXIT_OK; i++) {
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, i, &pi);
        printf("process %llu\n", (unsigned long long)pi.pid);
        for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && rc == CLI_EXIT_OK; th++) {
            tk_dcfg_trace_thread_info ti;
            tk_dcfg_trace_thread(t, th, &ti);
            if (ti.process != i) continue;
            printf("  thread %llu\n", (unsigned long long)ti.thread_id);
            for (size_t c = 0; c < ti.nchunks; c++) {
                tk_dcfg_trace_chunk_info ci;
                tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
                printf("  chunk preceding=%llu instrs=%llu edge_count=%llu first=%llu\n",
                       (unsigned long long)ci.preceding_instr_count,
                       (unsigned long long)ci.instr_count, (unsigned long long)ci.edge_count,
                       (unsigned long long)(ci.edge_count ? ci.first_edge_id : 0));
                if (!with_edges) continue;
                cli_dcfg_trace_writer w;
                cli_dcfg_trace_writer_init(&w, stdout);
                fflush(stdout);
                cli_dcfg_trace_put_str(&w, "    edges:");
                uint64_t n;
                tk_status st = tk_dcfg_trace_decode_chunk(t, ti.first_chunk + c, dump_edges, &w, &n,
                                                          NULL, &err);
                cli_dcfg_trace_put_char(&w, '\n');
                if (cli_dcfg_trace_writer_flush(&w) != 0 && st == TK_OK)
                    st = tk_error_set(&err, TK_ERR_IO, "cannot write the output");
                if (st != TK_OK) {
                    rc = cli_error(&err);
                    break;
                }
            }
        }
    }
    tk_dcfg_trace_free(t);
    return rc;
}
