/* The counts behind `info`: records by kind, threads, time span. */
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "formats/xray/xray_internal.h"

void tk_xray_summary_free(tk_xray_summary *s)
{
    if (!s) return;
    tk_free(s->threads);
    memset(s, 0, sizeof *s);
}

tk_status tk_xray_summarize(tk_xray_reader *r, tk_xray_summary *out, tk_error *err)
{
    memset(out, 0, sizeof *out);
    out->first_tsc = UINT64_MAX;
    size_t cap = 0;
    tk_hmap index = TK_HMAP_INIT; /* (pid, tid) -> thread */
    uint64_t last_key = 0;
    size_t last_thread = SIZE_MAX;
    uint32_t last_buffer = UINT32_MAX;
    int fdr = tk_xray_get_header(r)->type == TK_XRAY_FDR;
    tk_xray_record rec;
    tk_status st;
    while ((st = tk_xray_next(r, &rec, err)) == TK_OK) {
        out->by_kind[rec.kind]++;
        int function = xray_is_function(rec.kind);
        if (!function && rec.kind != TK_XRAY_CUSTOM_EVENT && rec.kind != TK_XRAY_TYPED_EVENT)
            continue;
        if (function) out->functions++;
        if (rec.tsc < out->first_tsc) out->first_tsc = rec.tsc;
        if (rec.tsc > out->last_tsc) out->last_tsc = rec.tsc;
        uint64_t key = (uint64_t)(uint32_t)rec.pid << 32 | (uint32_t)rec.tid;
        if (last_thread == SIZE_MAX || key != last_key) {
            int inserted = 0;
            uint64_t *slot = tk_hmap_slot(&index, key, out->nthreads, &inserted);
            if (!slot) goto nomem;
            if (inserted) {
                if (out->nthreads == cap) {
                    cap = cap ? cap * 2 : 16;
                    tk_xray_thread_summary *n = tk_reallocarray(out->threads, cap, sizeof *n);
                    if (!n) goto nomem;
                    out->threads = n;
                }
                out->threads[out->nthreads++] = (tk_xray_thread_summary){rec.pid, rec.tid, 0, 0};
            }
            last_key = key;
            last_thread = (size_t)*slot;
            last_buffer = UINT32_MAX; /* count the buffer again for this thread */
        }
        tk_xray_thread_summary *t = &out->threads[last_thread];
        t->records++;
        if (fdr && rec.buffer != last_buffer) {
            t->buffers++;
            last_buffer = rec.buffer;
        }
    }
    tk_hmap_free(&index);
    return st == TK_END ? TK_OK : st;
nomem:
    tk_hmap_free(&index);
    return tk_error_set(err, TK_ERR_NOMEM, "out of memory summarising the trace");
}
