/* The dump of a DCFG-Trace (what `tracekit dump` prints): its structure, process by process
 * and thread by thread, each chunk's fields as "name value" under the spec's names (as the
 * DCFG dump names its fields), and its edges. */
#include <inttypes.h>
#include <stdio.h>

#include "core/writer.h"
#include "tracekit/dcfg_trace.h"

/* Each edge id as " ID" (a digit buffer per id: the edges of a chunk can be millions). */
static int dump_edges(void *ctx, const uint32_t *edges, size_t n)
{
    FILE *f = ctx;
    for (size_t i = 0; i < n; i++) {
        char buf[12], *p = buf + sizeof buf;
        uint32_t v = edges[i];
        do *--p = (char)('0' + v % 10);
        while ((v /= 10) != 0);
        *--p = ' ';
        fwrite(p, 1, (size_t)(buf + sizeof buf - p), f);
    }
    return ferror(f) != 0;
}

/* Thread th's chunks (and their edges unless structure_only). */
static tk_status dump_thread(const tk_dcfg_trace *t, size_t th, int structure_only, FILE *f,
                             tk_error *err)
{
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    fprintf(f, "  thread %" PRIu64 "\n", ti.thread_id);
    for (size_t c = 0; c < ti.nchunks; c++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
        fprintf(f,
                "  chunk preceding_instr_count %" PRIu64 " instr_count %" PRIu64
                " edge_count %" PRIu64 " first_edge_id %" PRIu64 "\n",
                ci.preceding_instr_count, ci.instr_count, ci.edge_count,
                ci.edge_count ? ci.first_edge_id : 0);
        if (structure_only) continue;
        fputs("    edges", f);
        uint64_t n;
        tk_status st =
            tk_dcfg_trace_decode_chunk(t, ti.first_chunk + c, dump_edges, f, &n, NULL, err);
        fputc('\n', f);
        if (st == TK_END) return tk_error_set(err, TK_ERR_IO, "cannot write the output");
        if (st != TK_OK) return st;
    }
    return TK_OK;
}

tk_status tk_dcfg_trace_dump(const tk_dcfg_trace *t, unsigned flags, const tk_writer *out,
                             tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    uint64_t major, minor;
    tk_dcfg_trace_version(t, &major, &minor);
    fprintf(s.f, "dcfg-trace %" PRIu64 ".%" PRIu64 "\n", major, minor);
    for (size_t i = 0; i < tk_dcfg_trace_process_count(t) && st == TK_OK; i++) {
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, i, &pi);
        fprintf(s.f, "process %" PRIu64 "\n", pi.pid);
        for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && st == TK_OK; th++) {
            tk_dcfg_trace_thread_info ti;
            tk_dcfg_trace_thread(t, th, &ti);
            if (ti.process == i)
                st = dump_thread(t, th, (flags & TK_DCFG_TRACE_DUMP_STRUCTURE) != 0, s.f, err);
        }
    }
    return tk_wstream_close(&s, st, err);
}
