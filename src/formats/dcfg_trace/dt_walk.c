/* DCFG-Trace: decoded edges seen through the DCFG of the run (tk_dcfg_trace_decode with
 * a DCFG): every edge looked up in its thread's process, and for the steps the thread's
 * instruction count carried from edge to edge and from one piece of a chunk to the next. */
#include "formats/dcfg_trace/dt_internal.h"
#include "model/cfg_internal.h"

void tk_dt_walk_start(dt_walk *w, const tk_dcfg_trace *t, const tk_cfg *cfg,
                      tk_dcfg_trace_steps which, size_t chunk, const dt_process *P)
{
    uint64_t pid = P->pid;
    w->cfg = cfg;
    w->which = which;
    w->chunk = chunk;
    w->pid = pid;
    w->pid_offset = P->offset;
    w->instrs = t->chunks[chunk].preceding_instr_count;
    w->failed = DT_WALK_OK;
    w->bad_edge = 0;
    w->proc = NULL;
    if (cfg) {
        uint32_t pi = tk_cfg_find_process(cfg, pid);
        w->proc = pi == TK_CFG_NONE ? NULL : tk_cfg_process_at(cfg, pi);
        if (!w->proc) w->failed = DT_WALK_PROCESS;
    }
}

/* Whether the walk keeps a step of edge e (its source is a block, or it is a call or a
 * return, as w->which asks). */
static int keeps(const dt_walk *w, const tk_cfg_edge *e, tk_edge_kind kind)
{
    switch (w->which) {
    case TK_DCFG_TRACE_STEPS_BLOCKS: return tk_cfg_block_image(w->proc, e->src) != TK_CFG_NONE;
    case TK_DCFG_TRACE_STEPS_CALLS:
        return tk_edge_kind_is_any_call(kind) || tk_edge_kind_is_any_return(kind);
    default: return 1;
    }
}

/* Only the check: the edges up to the first one the process lacks. */
static size_t check_edges(dt_walk *w, const uint32_t *edges, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tk_cfg_find_edge(w->proc, edges[i]) == TK_CFG_NONE) {
            w->failed = DT_WALK_EDGE;
            w->bad_edge = edges[i];
            return i;
        }
    return n;
}

size_t tk_dt_walk_edges(dt_walk *w, const uint32_t *edges, size_t n, tk_dcfg_trace_step *steps,
                        size_t *nsteps)
{
    *nsteps = 0;
    if (w->failed) return 0;
    if (!w->cfg) return n;
    if (w->which == TK_DCFG_TRACE_NO_STEPS) return check_edges(w, edges, n);
    const tk_cfg_process *p = w->proc;
    if (n > TK_DCFG_TRACE_PIECE_STEPS) n = TK_DCFG_TRACE_PIECE_STEPS;
    size_t k = 0;
    uint64_t instrs = w->instrs;
    for (size_t i = 0; i < n; i++) {
        uint32_t ei = tk_cfg_find_edge(p, edges[i]);
        if (ei == TK_CFG_NONE) {
            w->failed = DT_WALK_EDGE;
            w->bad_edge = edges[i];
            n = i;
            break;
        }
        const tk_cfg_edge *e = &p->edges[ei];
        /* the edge leaves its source block after the block's instructions
         * (PRECEDING_INSTR_COUNT + INSTR_COUNT fits: more is a check error) */
        uint32_t ni = cfg_is_block(p, e->src) ? p->blocks[e->src].num_instrs : 0;
        if (instrs + ni < instrs) {
            w->failed = DT_WALK_INSTRS;
            n = i;
            break;
        }
        instrs += ni;
        tk_edge_kind kind = tk_cfg_stored_edge_kind(w->cfg, e);
        if (keeps(w, e, kind))
            steps[k++] = (tk_dcfg_trace_step){edges[i], ei, e->src, e->tgt, kind, instrs};
    }
    w->instrs = instrs;
    *nsteps = k;
    return n;
}

tk_status tk_dt_walk_fail(const tk_dcfg_trace *t, int why, size_t chunk, uint64_t pid,
                          int64_t pid_offset, uint32_t edge, tk_error *err)
{
    const dt_chunk *c = &t->chunks[chunk];
    switch (why) {
    case DT_WALK_PROCESS:
        return tk_dt_error_at(t, err, TK_ERR_FORMAT, pid_offset, "process %llu is not in the DCFG",
                              (unsigned long long)pid);
    case DT_WALK_INSTRS:
        return tk_dt_error_at(t, err, TK_ERR_FORMAT, c->row_offset,
                              "the thread's instruction count passes 2^64 - 1 in this chunk (its "
                              "source blocks hold more than its INSTR_COUNT)");
    default:
        return tk_dt_error_at(t, err, TK_ERR_FORMAT, c->row_offset,
                              "edge %llu is not an edge of process %llu in the DCFG",
                              (unsigned long long)edge, (unsigned long long)pid);
    }
}

tk_status tk_dt_walk_error(const dt_walk *w, const tk_dcfg_trace *t, tk_error *err)
{
    return tk_dt_walk_fail(t, w->failed, w->chunk, w->pid, w->pid_offset, w->bad_edge, err);
}
