/* A DCFG-Trace thread's edges looked up in the DCFG on the decoding threads (dt_lookup.h). */
#include "formats/dcfg_trace/dt_lookup.h"

/* The items of a piece, on a decoding thread, appended to out. Reads only the DCFG (its edge
 * map built before). Returns 0, or 1 out of memory. */
static int render_items(const void *ctx, const tk_dcfg_trace_piece *piece, tk_dcfg_trace_text *out)
{
    const dt_lookup *lk = ctx;
    const tk_cfg_process *p = lk->p;
    if (tk_dcfg_trace_text_reserve(out, (piece->nedges + 2) * sizeof(uint32_t), NULL) != TK_OK)
        return 1;
    char *w = out->data + out->len;
    int sources = lk->what == DT_LOOKUP_SOURCES;
    for (size_t i = 0; i < piece->nedges; i++) {
        uint32_t e = tk_cfg_find_edge(p, piece->edges[i]);
        if (e == TK_CFG_NONE) {
            uint32_t mark[2] = {DT_LOOKUP_MARK, piece->edges[i]};
            memcpy(w, mark, sizeof mark);
            w += sizeof mark;
            break;
        }
        if (sources) {
            e = p->edges[e].src;
            if (e >= p->nblocks) continue; /* a special node is no block */
        }
        memcpy(w, &e, sizeof e);
        w += sizeof e;
    }
    out->len = (size_t)(w - out->data);
    return 0;
}

tk_status tk_dt_decode_looked_up(const tk_dcfg_trace *t, const tk_dcfg_trace_decode_options *optp,
                                 const dt_lookup *lk, tk_dcfg_trace_chunk_fn direct,
                                 tk_dcfg_trace_write_text_fn ordered, void *ctx, tk_error *err)
{
    if (tk_cfg_need_edge_map(lk->p, NULL) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_dcfg_trace_decode_options opt = *optp;
    int many = lk->threads > 1;
    if (many) {
        opt.threads = lk->threads;
        opt.render = render_items;
        opt.render_ctx = lk;
        opt.write_text = ordered;
    }
    uint64_t total;
    return tk_dcfg_trace_decode(t, &opt, many ? NULL : direct, ctx, &total, NULL, err);
}
