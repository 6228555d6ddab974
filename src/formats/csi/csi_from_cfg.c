/* DCFG -> CSI: Ball–Larus path-tracing metadata for every routine of a CFG
 * model, in csi-cc's text layout. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/writer.h"
#include "core/alloc.h"
#include "formats/csi/csi_internal.h"
#include "model/cfg_internal.h"
#include "tracekit/cfg.h"
#include "tracekit/csi.h"

/* Edges are pushed source by source (ascending): those of src are the last
 * ones, and only they can already hold the pair. */
static int push_edge(csi_bridge_routine *b, size_t *n, uint32_t src, uint32_t dst, uint32_t *k)
{
    for (size_t q = *n;
         q-- > 0 && b->edges[q].src == src;) /* one edge per pair: DCFG has one per pair too */
        if (b->edges[q].dst == dst) {
            *k = (uint32_t)q;
            return 0;
        }
    if (*n == b->edges_cap) {
        size_t cap = b->edges_cap ? b->edges_cap * 2 : 64;
        tk_csi_edge *e = tk_reallocarray(b->edges, cap, sizeof *e);
        if (!e) return -1;
        b->edges = e;
        tk_csi_edge *m = tk_reallocarray(b->numbered, cap, sizeof *m);
        if (!m) return -1;
        b->numbered = m;
        b->edges_cap = cap;
    }
    tk_csi_edge e;
    memset(&e, 0, sizeof e);
    e.src = src;
    e.dst = dst;
    *k = (uint32_t)*n;
    b->edges[(*n)++] = e;
    return 0;
}

static int map_edge(csi_bridge_routine *b, uint32_t edge, uint32_t k)
{
    if (b->nmapped == b->mapped_cap) {
        size_t cap = b->mapped_cap ? b->mapped_cap * 2 : 64;
        uint32_t *x = tk_reallocarray(b->mapped_edge, cap, sizeof *x);
        if (!x) return -1;
        b->mapped_edge = x;
        x = tk_reallocarray(b->mapped_k, cap, sizeof *x);
        if (!x) return -1;
        b->mapped_k = x;
        b->mapped_cap = cap;
    }
    b->mapped_edge[b->nmapped] = edge;
    b->mapped_k[b->nmapped++] = k;
    return 0;
}

tk_status tk_csi_bridge_begin(csi_bridge_routine *b, const tk_cfg *cfg, const tk_cfg_process *p)
{
    memset(b, 0, sizeof *b);
    b->cfg = cfg;
    b->p = p;
    size_t nb = p->nblocks + (size_t)2;
    b->local = tk_reallocarray(NULL, nb, sizeof *b->local);
    b->order = tk_reallocarray(NULL, nb, sizeof *b->order);
    b->blocks = tk_reallocarray(NULL, nb, sizeof *b->blocks);
    b->lines = tk_reallocarray(NULL, nb, sizeof *b->lines);
    b->block_line = tk_reallocarray(NULL, nb, sizeof *b->block_line);
    const char **files = tk_reallocarray(NULL, nb, sizeof *files);
    if (!b->local || !b->order || !b->blocks || !b->lines || !b->block_line || !files ||
        tk_cfg_need_adjacency(p, NULL) != TK_OK || tk_csi_numbering_open(&b->num, NULL) != TK_OK) {
        tk_free(files);
        tk_csi_bridge_end(b);
        return TK_ERR_NOMEM;
    }
    /* the source lines of all blocks at once (one pass over the source table),
     * the local array as the list of block indexes */
    for (uint32_t i = 0; i < p->nblocks; i++) b->local[i] = i;
    int ok =
        tk_cfg_blocks_source(cfg, p, b->local, p->nblocks, b->block_line, files, NULL) == TK_OK;
    tk_free(files);
    if (!ok) {
        tk_csi_bridge_end(b);
        return TK_ERR_NOMEM;
    }
    for (size_t i = 0; i < nb; i++) b->local[i] = TK_CFG_NONE;
    return TK_OK;
}

void tk_csi_bridge_end(csi_bridge_routine *b)
{
    tk_free(b->local);
    tk_free(b->order);
    tk_free(b->blocks);
    tk_free(b->lines);
    tk_free(b->block_line);
    tk_free(b->edges);
    tk_free(b->numbered);
    tk_free(b->mapped_edge);
    tk_free(b->mapped_k);
    tk_csi_numbering_free(b->num);
    memset(b, 0, sizeof *b);
}

/* The routine's blocks in the local layout: 0 = EXIT, 1 = ENTRY, then the
 * other blocks in file order (b->order, b->local, b->blocks, b->lines).
 * Returns how many (EXIT included). */
static uint32_t bridge_blocks(csi_bridge_routine *b, const tk_cfg_routine *r)
{
    const tk_cfg_process *p = b->p;
    const uint32_t *nodes = cfg_list(p, r->nodes);
    uint32_t k = 1;
    uint64_t max_id = 0;
    b->order[0] = TK_CFG_NONE;
    b->order[k] = r->entry;
    b->local[r->entry] = k++;
    for (uint32_t i = 0; i < r->nnodes; i++) {
        uint32_t blk = nodes[i];
        if (b->local[blk] != TK_CFG_NONE) continue;
        b->order[k] = blk;
        b->local[blk] = k++;
    }
    uint32_t nb = k;
    for (uint32_t i = 1; i < nb; i++) {
        const tk_cfg_block *bl = &p->blocks[b->order[i]];
        if (bl->id > max_id) max_id = bl->id;
        uint32_t line = b->block_line[b->order[i]];
        tk_csi_block *cb = &b->blocks[i];
        memset(cb, 0, sizeof *cb);
        cb->id = bl->id;
        cb->kind = i == 1 ? TK_CSI_BLOCK_ENTRY : TK_CSI_BLOCK_PLAIN;
        b->lines[i] = line;
        cb->lines = &b->lines[i];
        cb->nlines = line ? 1 : 0;
        cb->null_lines = line == 0;
    }
    memset(&b->blocks[0], 0, sizeof b->blocks[0]);
    b->blocks[0].id = max_id + 1;
    b->blocks[0].kind = TK_CSI_BLOCK_EXIT;
    return nb;
}

/* The edges inside the routine; returns, ENTRY/EXIT edges and jumps out of
 * the routine go to EXIT; calls are left out (their bypass edge stays).
 * *ne: how many. Returns 0, or nonzero when out of memory. */
static int bridge_edges(csi_bridge_routine *b, const tk_cfg_routine *r, uint32_t nb, size_t *ne)
{
    const tk_cfg_process *p = b->p;
    int status = 0;
    const uint32_t *exits = cfg_list(p, r->exits);
    for (uint32_t i = 1; i < nb && status == 0; i++) {
        uint32_t blk = b->order[i];
        int to_exit = 0, any = 0;
        for (uint32_t x = 0; x < r->nexits; x++) to_exit |= exits[x] == blk;
        uint32_t nout;
        const uint32_t *out = cfg_out_edges(p, blk, &nout);
        for (uint32_t q = 0; q < nout && status == 0; q++) {
            uint32_t ei = out[q];
            const tk_cfg_edge *e = &p->edges[ei];
            tk_edge_kind kind = tk_cfg_stored_edge_kind(b->cfg, e);
            if (tk_edge_kind_is_any_call(kind)) continue;
            uint32_t kk;
            if (!tk_edge_kind_is_any_inter_routine(kind) && cfg_is_block(p, e->tgt) &&
                b->local[e->tgt] != TK_CFG_NONE) {
                status = push_edge(b, ne, i, b->local[e->tgt], &kk);
                any = 1;
            } else {
                status = push_edge(b, ne, i, 0, &kk);
                to_exit = 1;
            }
            if (status == 0) status = map_edge(b, ei, kk);
        }
        uint32_t kk;
        if (status == 0 && (to_exit || !any)) status = push_edge(b, ne, i, 0, &kk);
    }
    return status;
}

/* The function's name: the entry's symbol (+offset), else routine_ID. */
static void bridge_name(csi_bridge_routine *b, const tk_cfg_routine *r)
{
    const tk_cfg_process *p = b->p;
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(b->cfg, p, r->entry, &off);
    if (sym && off == 0)
        snprintf(b->name, sizeof b->name, "%s", sym);
    else if (sym)
        snprintf(b->name, sizeof b->name, "%s+0x%" PRIx64, sym, off);
    else
        snprintf(b->name, sizeof b->name, "routine_%" PRIu32, p->blocks[r->entry].id);
}

tk_status tk_csi_bridge_build(csi_bridge_routine *b, uint32_t ri, tk_error *err)
{
    const tk_cfg_process *p = b->p;
    const tk_cfg_routine *r = &p->routines[ri];
    b->nmapped = 0;
    uint32_t nb = bridge_blocks(b, r);
    size_t ne = 0;
    int status = bridge_edges(b, r, nb, &ne);
    for (uint32_t i = 1; i < nb; i++) b->local[b->order[i]] = TK_CFG_NONE;
    if (status != 0) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    bridge_name(b, r);
    tk_csi_function *fn = &b->fn;
    memset(fn, 0, sizeof *fn);
    fn->name = b->name;
    fn->name_len = strlen(b->name);
    fn->blocks = b->blocks;
    fn->nblocks = nb;
    fn->edges = b->edges;
    fn->nedges = (uint32_t)ne;
    fn->entry = 1;
    fn->exit = 0;
    tk_status st = tk_csi_renumber(fn, b->num, b->numbered, err);
    if (st == TK_ERR_NOMEM) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    b->numbered_ok = st == TK_OK;
    if (b->numbered_ok) fn->edges = b->numbered;
    return TK_OK;
}

static tk_status csi_write_cfg_stream(FILE *out, const tk_cfg *cfg, uint64_t *skipped,
                                      tk_error *err)
{
    *skipped = 0;
    tk_status st = TK_OK;
    for (uint32_t pi = 0; pi < cfg->nprocesses && st == TK_OK; pi++) {
        csi_bridge_routine b;
        if (tk_csi_bridge_begin(&b, cfg, &cfg->processes[pi]) != TK_OK)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        for (uint32_t ri = 0; ri < cfg->processes[pi].nroutines && st == TK_OK; ri++) {
            st = tk_csi_bridge_build(&b, ri, err);
            if (st != TK_OK) break;
            if (!b.numbered_ok) {
                (*skipped)++; /* too many paths: left out, as csi-cc does */
                continue;
            }
            st = tk_csi_write_function_stream(out, &b.fn, err);
        }
        tk_csi_bridge_end(&b);
    }
    return st;
}

tk_status tk_csi_write_cfg(const tk_writer *out, const tk_cfg *cfg, uint64_t *skipped,
                           tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, csi_write_cfg_stream(s.f, cfg, skipped, err), err);
}
