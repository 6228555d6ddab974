/* The Ball-Larus path profile of a process of a DCFG-Trace: its edges decoded, each chunk's
 * given to the profile as its thread's. */
#include "core/alloc.h"
#include "tracekit/csi.h"
#include "tracekit/dcfg_trace.h"

typedef struct feed {
    tk_csi_profile *pr;
    const uint64_t *chunk_thread; /* per chunk of the trace: its thread's id */
    tk_error *err;
    tk_status st;
} feed;

static int feed_chunk(void *ctx, size_t chunk, const uint32_t *edges, size_t n)
{
    feed *f = ctx;
    f->st = tk_csi_profile_edges(f->pr, f->chunk_thread[chunk], edges, n, f->err);
    return f->st != TK_OK;
}

tk_status tk_csi_profile_read_trace(tk_csi_profile **out, const tk_cfg *cfg, const tk_dcfg_trace *t,
                                    uint64_t pid, tk_error *err)
{
    *out = NULL;
    size_t nchunks = tk_dcfg_trace_chunk_count(t);
    uint64_t *chunk_thread = tk_calloc(nchunks + 1, sizeof *chunk_thread);
    if (!chunk_thread) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (size_t j = 0; j < tk_dcfg_trace_thread_count(t); j++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, j, &ti);
        for (size_t c = 0; c < ti.nchunks && ti.first_chunk + c < nchunks; c++)
            chunk_thread[ti.first_chunk + c] = ti.thread_id;
    }
    tk_csi_profile *pr = NULL;
    tk_status st = tk_csi_profile_open(&pr, cfg, pid, err);
    if (st == TK_OK) {
        feed f = {pr, chunk_thread, err, TK_OK};
        tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        opt.has_pid = 1;
        opt.pid = pid;
        uint64_t total = 0;
        st = tk_dcfg_trace_decode(t, &opt, feed_chunk, &f, &total, NULL, err);
        if (f.st != TK_OK) st = f.st;
    }
    tk_free(chunk_thread);
    if (st != TK_OK) {
        tk_csi_profile_free(pr);
        return st;
    }
    tk_csi_profile_finish(pr);
    *out = pr;
    return TK_OK;
}
