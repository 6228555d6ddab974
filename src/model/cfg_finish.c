/* Turning the tables a reader filled (raw ids) into the linked model:
 * id maps, adjacency, derived counts, routine and loop membership, and the
 * routines, dominators and loops a file does not provide.
 *
 * Raw conventions of a reader (see cfg_internal.h):
 *   edge.src/tgt = node ids, edge.type = edge-type id;
 *   routine.entry = node id, exits = node ids,
 *   routine.nodes = nnodes pool cells (node ids), their IDOM_NODE_ID cells
 *   (or 0) in p->node_idom_ids (all routines' in routine order);
 *   loop.head/back_srcs/nodes = node ids, loop.parent = head id or 0. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/dominators.h"
#include "graph/loops.h"
#include "core/alloc.h"
#include "core/num.h"
#include "model/cfg_internal.h"

typedef struct finish_ctx {
    tk_cfg *cfg;
    tk_cfg_process *p;
    const char *path;
    tk_diag *diag;
    tk_error *err;
    uint64_t errors;
    uint32_t pool_cap;
    uint32_t *scratch; /* per block, NONE when unused */
    /* bounds of the process's sums (check_sums): the COUNT cells' sum and
     * their sum x NUM_INSTRS, the largest NUM_INSTRS, whether those overflowed */
    uint64_t count_cells, instr_cells;
    uint32_t max_instrs;
    int cells_overflow;
} finish_ctx;

static void report(finish_ctx *c, tk_severity sev, tk_cfg_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void report(finish_ctx *c, tk_severity sev, tk_cfg_loc loc, const char *fmt, ...)
{
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (sev == TK_SEV_ERROR) c->errors++;
    if (c->diag) {
        tk_location l = {c->path, -1, loc.line, loc.column};
        tk_diag_report(c->diag, sev, &l, "%s", msg);
    } else if (sev == TK_SEV_ERROR && c->errors == 1) {
        tk_error_set_at(c->err, TK_ERR_FORMAT, c->path, -1, loc.line, loc.column, "%s", msg);
    }
}

static int pool_push(finish_ctx *c, uint32_t v)
{
    tk_cfg_process *p = c->p;
    if (p->npool + 1 > c->pool_cap) {
        if (c->pool_cap < p->npool) c->pool_cap = p->npool;
        if (!tk_cfg_grow((void **)&p->pool, &c->pool_cap, p->npool + 1, sizeof *p->pool)) return 0;
    }
    p->pool[p->npool++] = v;
    return 1;
}

static int is_intra(const tk_cfg *cfg, const tk_cfg_process *p, const tk_cfg_edge *e)
{
    if (e->src >= p->nblocks || e->tgt >= p->nblocks) return 0;
    return !tk_edge_kind_is_any_inter_routine(tk_cfg_stored_edge_kind(cfg, e));
}

/* ---- ids, edges, adjacency ------------------------------------------------ */

static tk_status build_node_map(finish_ctx *c)
{
    tk_cfg *cfg = c->cfg;
    tk_cfg_process *p = c->p;
    p->nnodes = p->nblocks + cfg->nspecials;
    uint32_t max_id = 0, max_instrs = 0;
    uint64_t cells = 0, instrs = 0;
    int over = 0;
    for (uint32_t b = 0; b < p->nblocks; b++) { /* one sweep: also what finish derives */
        tk_cfg_block *bl = &p->blocks[b];
        if (bl->id > max_id) max_id = bl->id;
        bl->routine = bl->loop = bl->idom = TK_CFG_NONE;
        /* the bounds of check_sums (count is 0 here unless the row had a COUNT) */
        uint64_t x;
        if (bl->num_instrs > max_instrs) max_instrs = bl->num_instrs;
        over |= tk_mul_u64(bl->count, bl->num_instrs, &x) | tk_add_u64(instrs, x, &instrs) |
                tk_add_u64(cells, bl->count, &cells);
    }
    c->count_cells = cells;
    c->instr_cells = instrs;
    c->max_instrs = max_instrs;
    c->cells_overflow = over;
    for (uint32_t s = 0; s < cfg->nspecials; s++)
        if (cfg->specials[s].id > max_id) max_id = cfg->specials[s].id;
    p->node_map = tk_cfg_idmap_new(p->nnodes, max_id);
    if (!p->node_map) return TK_ERR_NOMEM;
    /* blocks first: when a producer reuses a block id for a special node
     * (jdomke's QEMU plugin sets START and END to real blocks), the id means
     * the block, with a warning */
    for (uint32_t b = 0; b < p->nblocks; b++) {
        uint32_t old = tk_cfg_idmap_put(p->node_map, p->blocks[b].id, b);
        if (old != TK_CFG_NONE)
            report(c, TK_SEV_ERROR, cfg_block_loc(p, b),
                   "duplicate node id %u (first defined at line %u)", p->blocks[b].id,
                   cfg_block_loc(p, old).line);
    }
    for (uint32_t s = 0; s < cfg->nspecials; s++) {
        uint32_t old = tk_cfg_idmap_put(p->node_map, cfg->specials[s].id, p->nblocks + s);
        if (old == TK_CFG_NONE) continue;
        if (old < p->nblocks)
            report(
                c, TK_SEV_WARNING, cfg_block_loc(p, old),
                "basic-block id %u is also the id of special node %s: the id refers to the block",
                p->blocks[old].id, cfg_str(cfg, cfg->specials[s].name));
        else
            report(c, TK_SEV_ERROR, cfg->specials[s].loc, "duplicate special node id %u",
                   cfg->specials[s].id);
    }
    return TK_OK;
}

static tk_status resolve_edges(finish_ctx *c)
{
    tk_cfg *cfg = c->cfg;
    tk_cfg_process *p = c->p;
    uint32_t max_id = 0, max_type = 0;
    for (uint32_t e = 0; e < p->nedges; e++)
        if (p->edges[e].id > max_id) max_id = p->edges[e].id;
    for (uint32_t t = 0; t < cfg->nedge_types; t++)
        if (cfg->edge_types[t].id > max_type) max_type = cfg->edge_types[t].id;
    /* duplicate ids: the edge-id map is built on demand (tk_cfg_find_edge),
     * so dense ids are checked with a bit each; the map of the edges before
     * is built when a duplicate shows up (to say where the first one is) */
    int dense = (uint64_t)max_id <= 2 * (uint64_t)p->nedges + 1024;
    uint64_t *seen = dense ? tk_calloc((size_t)max_id / 64 + 1, sizeof *seen) : NULL;
    tk_cfg_idmap *ids = dense ? NULL : tk_cfg_idmap_new(p->nedges, max_id);
    tk_cfg_idmap *types = tk_cfg_idmap_new(cfg->nedge_types, max_type);
    if ((!seen && !ids) || !types) {
        tk_free(seen);
        tk_cfg_idmap_free(ids);
        tk_cfg_idmap_free(types);
        return TK_ERR_NOMEM;
    }
    for (uint32_t t = 0; t < cfg->nedge_types; t++)
        tk_cfg_idmap_put(types, cfg->edge_types[t].id, t); /* duplicates: checked by the checker */
    for (uint32_t e = 0; e < p->nedges; e++) {
        tk_cfg_edge *ed = &p->edges[e];
        uint32_t old = TK_CFG_NONE;
        if (!ids && (seen[ed->id / 64] >> (ed->id % 64) & 1)) {
            ids = tk_cfg_idmap_new(p->nedges, max_id);
            if (!ids) {
                tk_free(seen);
                tk_cfg_idmap_free(types);
                return TK_ERR_NOMEM;
            }
            for (uint32_t k = 0; k < e; k++) tk_cfg_idmap_put(ids, p->edges[k].id, k);
        }
        if (ids)
            old = tk_cfg_idmap_put(ids, ed->id, e);
        else
            seen[ed->id / 64] |= 1ull << (ed->id % 64);
        if (old != TK_CFG_NONE)
            report(c, TK_SEV_ERROR, cfg_edge_loc(p, e),
                   "duplicate edge id %u (first defined at line %u)", ed->id,
                   cfg_edge_loc(p, old).line);
        uint32_t s = tk_cfg_idmap_get(p->node_map, ed->src);
        uint32_t t = tk_cfg_idmap_get(p->node_map, ed->tgt);
        if (s == TK_CFG_NONE)
            report(c, TK_SEV_ERROR, cfg_edge_loc(p, e), "edge %u: source node %u does not exist",
                   ed->id, ed->src);
        if (t == TK_CFG_NONE)
            report(c, TK_SEV_ERROR, cfg_edge_loc(p, e), "edge %u: target node %u does not exist",
                   ed->id, ed->tgt);
        uint32_t ty = tk_cfg_idmap_get(types, ed->type);
        if (ty == TK_CFG_NONE)
            report(c, TK_SEV_ERROR, cfg_edge_loc(p, e),
                   "edge %u: edge type id %u is not in EDGE_TYPES", ed->id, ed->type);
        ed->src = s;
        ed->tgt = t;
        ed->type = ty;
        if (cfg_edge_nthreads(p, e) > p->nthreads) p->nthreads = cfg_edge_nthreads(p, e);
    }
    tk_free(seen);
    tk_cfg_idmap_free(ids);
    tk_cfg_idmap_free(types);
    return TK_OK;
}

/* Block counts from the in-edges where the file has none, and which blocks
 * have in-edges: one pass over the edges. */
static void derive_block_counts(finish_ctx *c)
{
    tk_cfg_process *p = c->p;
    for (uint32_t b = 0; b < p->nblocks; b++)
        if (!(p->block_flags[b] & TK_CFG_BLOCK_HAS_COUNT)) p->blocks[b].count = 0;
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (ed->tgt >= p->nblocks || ed->src >= p->nnodes) continue;
        p->block_flags[ed->tgt] |= TK_CFG_BLOCK_HAS_IN_EDGES;
        if (!(p->block_flags[ed->tgt] & TK_CFG_BLOCK_HAS_COUNT))
            p->blocks[ed->tgt].count += cfg_edge_count(p, ed);
    }
}

/* ---- sums ------------------------------------------------------------------
 * Every sum the model, the checker, the reports and the conversions make of
 * counts fits in 64 bits once tk_cfg_finish has succeeded: a block's in-edge
 * and out-edge counts (its derived count, its per-thread counts), COUNT x
 * NUM_INSTRS of a block, the process's block executions and instructions,
 * each thread's instructions (so those of any image, routine or loop: their
 * blocks are distinct), loop visits (distinct edges). check_sums proves it
 * from three bounds made in passes finish does anyway: S, the sum of every
 * per-thread count cell, bounds every sum of edge counts; the COUNT cells
 * plus S bound the executions; their instructions plus S x 2 x the largest
 * NUM_INSTRS bound every instruction count (an edge counts for its target
 * block and at most once more for its source). Only when a bound does not
 * fit (hardly a real file) is each sum made exactly, and each that
 * overflows is a located error. */

/* The exact sums, when a bound failed. */
static tk_status check_sums_exact(finish_ctx *c)
{
    tk_cfg_process *p = c->p;
    uint32_t nb = p->nblocks, nt = p->nthreads;
    uint64_t *in = tk_calloc(nb ? nb : 1, sizeof *in), *out = tk_calloc(nb ? nb : 1, sizeof *out);
    uint64_t *thread = tk_calloc(nt ? nt : 1, sizeof *thread);
    uint8_t *bad = tk_calloc(nb ? nb : 1, 1), *tbad = tk_calloc(nt ? nt : 1, 1);
    tk_status st = TK_OK;
    if (!in || !out || !thread || !bad || !tbad) {
        st = TK_ERR_NOMEM;
        goto done;
    }
    /* in and out sums of every block (an edge's own sum is checked when read) */
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (ed->src >= p->nnodes || ed->tgt >= p->nnodes) continue;
        uint64_t n = cfg_edge_count(p, ed);
        if (ed->tgt < nb && tk_add_u64(in[ed->tgt], n, &in[ed->tgt])) bad[ed->tgt] |= 1;
        if (ed->src < nb && tk_add_u64(out[ed->src], n, &out[ed->src])) bad[ed->src] |= 2;
    }
    uint64_t execs = 0, instrs = 0;
    int execs_over = 0, instrs_over = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const tk_cfg_block *bl = &p->blocks[b];
        if (bad[b] & 1)
            report(c, TK_SEV_ERROR, cfg_block_loc(p, b),
                   "block %u: the sum of its in-edge counts overflows 64 bits", bl->id);
        if (bad[b] & 2)
            report(c, TK_SEV_ERROR, cfg_block_loc(p, b),
                   "block %u: the sum of its out-edge counts overflows 64 bits", bl->id);
        /* a count derived from overflowing in-edges is reported above */
        if ((bad[b] & 1) && !(p->block_flags[b] & TK_CFG_BLOCK_HAS_COUNT)) continue;
        uint64_t x;
        if (tk_mul_u64(bl->count, bl->num_instrs, &x)) {
            report(c, TK_SEV_ERROR, cfg_block_loc(p, b),
                   "block %u: COUNT x NUM_INSTRS (%llu x %u) overflows 64 bits", bl->id,
                   (unsigned long long)bl->count, bl->num_instrs);
            continue;
        }
        if (!execs_over && tk_add_u64(execs, bl->count, &execs)) {
            execs_over = 1;
            report(c, TK_SEV_ERROR, p->loc,
                   "process %llu: the sum of its blocks' execution counts overflows 64 bits "
                   "(from block %u on)",
                   (unsigned long long)p->pid, bl->id);
        }
        if (!instrs_over && tk_add_u64(instrs, x, &instrs)) {
            instrs_over = 1;
            report(c, TK_SEV_ERROR, p->loc,
                   "process %llu: its instruction count (the sum of COUNT x NUM_INSTRS) overflows "
                   "64 bits (from block %u on)",
                   (unsigned long long)p->pid, bl->id);
        }
    }
    /* each thread's instructions: a block's per-thread count comes from its
     * in-edges, or its out-edges when it has none (tk_cfg_block_count_thread) */
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (ed->src >= p->nnodes || ed->tgt >= p->nnodes) continue;
        uint64_t n = 0;
        if (ed->tgt < nb) n += p->blocks[ed->tgt].num_instrs;
        if (ed->src < nb && !(p->block_flags[ed->src] & TK_CFG_BLOCK_HAS_IN_EDGES))
            n += p->blocks[ed->src].num_instrs;
        uint32_t ne = cfg_edge_nthreads(p, e);
        for (uint32_t t = 0; n && t < ne && t < nt; t++) {
            uint64_t x;
            if (tk_mul_u64(cfg_edge_count_thread(p, ed, t), n, &x) ||
                tk_add_u64(thread[t], x, &thread[t]))
                tbad[t] = 1;
        }
    }
    for (uint32_t t = 0; t < nt; t++)
        if (tbad[t])
            report(c, TK_SEV_ERROR, p->loc,
                   "process %llu: the instruction count of thread %u (its block executions x "
                   "NUM_INSTRS) overflows 64 bits",
                   (unsigned long long)p->pid, t);
done:
    tk_free(in);
    tk_free(out);
    tk_free(thread);
    tk_free(bad);
    tk_free(tbad);
    return st;
}

/* The bounds above; the exact sums only when one of them overflows. */
static tk_status check_sums(finish_ctx *c)
{
    const tk_cfg_process *p = c->p;
    uint64_t cells = 0;
    int over = c->cells_overflow;
    if (p->counts32) {
        /* below 2^32 cells of below 2^32 each: no overflow */
        for (uint32_t i = 0; i < p->ncounts; i++) cells += p->counts32[i];
    } else if (p->counts64) {
        for (uint32_t i = 0; i < p->ncounts; i++) over |= tk_add_u64(cells, p->counts64[i], &cells);
    }
    uint64_t x, y;
    over |= tk_add_u64(c->count_cells, cells, &x) |
            tk_mul_u64(cells, 2 * (uint64_t)c->max_instrs, &y) | tk_add_u64(c->instr_cells, y, &x);
    return over ? check_sums_exact(c) : TK_OK;
}

/* ---- routines and loops read from the file ------------------------------ */

static uint32_t resolve_block(finish_ctx *c, uint32_t id, tk_cfg_loc loc, const char *what)
{
    uint32_t b = tk_cfg_idmap_get(c->p->node_map, id);
    if (b == TK_CFG_NONE || b >= c->p->nblocks) {
        report(c, TK_SEV_ERROR, loc, "%s %u is not a basic block", what, id);
        return TK_CFG_NONE;
    }
    return b;
}

static void resolve_routines(finish_ctx *c)
{
    tk_cfg_process *p = c->p;
    uint32_t idom_pos = 0; /* in node_idom_ids: the routines' NODES rows in order */
    for (uint32_t r = 0; r < p->nroutines; r++) {
        tk_cfg_routine *ro = &p->routines[r];
        ro->entry = resolve_block(c, ro->entry, ro->loc, "routine entry node");
        for (uint32_t k = 0; k < ro->nexits; k++)
            p->pool[ro->exits + k] =
                resolve_block(c, p->pool[ro->exits + k], ro->loc, "routine exit node");
        uint32_t w = 0;
        const uint32_t *idoms = p->node_idom_ids ? p->node_idom_ids + idom_pos : NULL;
        idom_pos += ro->nnodes;
        for (uint32_t k = 0; k < ro->nnodes; k++) {
            uint32_t id = p->pool[ro->nodes + k], idom = idoms ? idoms[k] : 0;
            uint32_t b = resolve_block(c, id, ro->loc, "routine node");
            if (b == TK_CFG_NONE) continue;
            tk_cfg_block *bl = &p->blocks[b];
            if (bl->routine != TK_CFG_NONE) {
                if (bl->routine == r)
                    report(c, TK_SEV_ERROR, ro->loc, "node %u is listed twice in routine %u", id,
                           ro->entry < p->nblocks ? p->blocks[ro->entry].id : 0);
                else
                    report(c, TK_SEV_ERROR, ro->loc, "node %u is in two routines (%u and %u)", id,
                           cfg_routine_id(p, bl->routine), cfg_routine_id(p, r));
                continue;
            }
            bl->routine = r;
            if (ro->flags & TK_CFG_ROUTINE_HAS_IDOMS)
                bl->idom =
                    idom ? resolve_block(c, idom, ro->loc, "immediate dominator") : TK_CFG_NONE;
            p->pool[ro->nodes + w++] = b;
        }
        ro->nnodes = w;
        if (ro->entry != TK_CFG_NONE && p->blocks[ro->entry].routine != r &&
            p->blocks[ro->entry].routine == TK_CFG_NONE) {
            report(c, TK_SEV_ERROR, ro->loc, "routine entry %u is not in its NODES table",
                   p->blocks[ro->entry].id);
        }
    }
}

/* Loop heads, back-edge sources and nodes from ids to block indexes. A node
 * listed twice in a loop is an error (as in a routine) and kept once, so
 * that no sum over a loop's nodes counts a block twice. */
static tk_status resolve_loops_nodes(finish_ctx *c)
{
    tk_cfg_process *p = c->p;
    uint32_t *stamp = NULL; /* per block: the last loop that listed it */
    if (p->nloops) {
        stamp = tk_malloc(sizeof *stamp * (p->nblocks ? p->nblocks : 1));
        if (!stamp) return TK_ERR_NOMEM;
        memset(stamp, 0xff, sizeof *stamp * (p->nblocks ? p->nblocks : 1));
    }
    for (uint32_t l = 0; l < p->nloops; l++) {
        tk_cfg_loop *lo = &p->loops[l];
        lo->head = resolve_block(c, lo->head, lo->loc, "loop head node");
        uint32_t w = 0;
        for (uint32_t k = 0; k < lo->nback_srcs; k++) {
            uint32_t b =
                resolve_block(c, p->pool[lo->back_srcs + k], lo->loc, "loop back-edge source node");
            if (b != TK_CFG_NONE) p->pool[lo->back_srcs + w++] = b;
        }
        lo->nback_srcs = w;
        w = 0;
        for (uint32_t k = 0; k < lo->nnodes; k++) {
            uint32_t b = resolve_block(c, p->pool[lo->nodes + k], lo->loc, "loop node");
            if (b == TK_CFG_NONE) continue;
            if (stamp[b] == l) {
                report(c, TK_SEV_ERROR, lo->loc, "node %u is listed twice in loop %u",
                       p->blocks[b].id, lo->head < p->nblocks ? p->blocks[lo->head].id : 0);
                continue;
            }
            stamp[b] = l;
            p->pool[lo->nodes + w++] = b;
        }
        lo->nnodes = w;
    }
    tk_free(stamp);
    return TK_OK;
}

/* ---- computing what the file lacks ------------------------------------------- */

/* Local graph of a routine: nodes in pool order, intra-routine edges only. */
typedef struct local_graph {
    uint32_t n, entry;
    uint32_t *start, *adj, *idom;
} local_graph;

static void local_free(local_graph *g)
{
    tk_free(g->start);
    tk_free(g->adj);
    tk_free(g->idom);
    memset(g, 0, sizeof *g);
}

/* Uses c->scratch as block -> local index; leaves it all NONE again. */
static tk_status local_build(finish_ctx *c, uint32_t r, local_graph *g)
{
    tk_cfg_process *p = c->p;
    const tk_cfg_routine *ro = &p->routines[r];
    memset(g, 0, sizeof *g);
    g->n = ro->nnodes;
    const uint32_t *nodes = p->pool + ro->nodes;
    for (uint32_t k = 0; k < g->n; k++) c->scratch[nodes[k]] = k;
    g->entry = ro->entry != TK_CFG_NONE ? c->scratch[ro->entry] : TK_CFG_NONE;
    g->start = tk_calloc((size_t)g->n + 1, sizeof *g->start);
    g->idom = tk_malloc(sizeof *g->idom * (g->n ? g->n : 1));
    uint32_t nadj = 0;
    tk_status st = TK_ERR_NOMEM;
    if (!g->start || !g->idom) goto out;
    for (uint32_t k = 0; k < g->n; k++) {
        uint32_t nout;
        const uint32_t *out = cfg_out_edges(p, nodes[k], &nout);
        for (uint32_t q = 0; q < nout; q++) {
            const tk_cfg_edge *e = &p->edges[out[q]];
            if (is_intra(c->cfg, p, e) && c->scratch[e->tgt] != TK_CFG_NONE) nadj++;
        }
        g->start[k + 1] = nadj;
    }
    g->adj = tk_malloc(sizeof *g->adj * (nadj ? nadj : 1));
    if (!g->adj) goto out;
    nadj = 0;
    for (uint32_t k = 0; k < g->n; k++) {
        uint32_t nout;
        const uint32_t *out = cfg_out_edges(p, nodes[k], &nout);
        for (uint32_t q = 0; q < nout; q++) {
            const tk_cfg_edge *e = &p->edges[out[q]];
            if (is_intra(c->cfg, p, e) && c->scratch[e->tgt] != TK_CFG_NONE)
                g->adj[nadj++] = c->scratch[e->tgt];
        }
    }
    if (g->entry != TK_CFG_NONE) {
        st = tk_dominators(g->n, g->start, g->adj, g->entry, g->idom);
    } else {
        for (uint32_t k = 0; k < g->n; k++) g->idom[k] = TK_DOM_NONE;
        st = TK_OK;
    }
out:
    for (uint32_t k = 0; k < g->n; k++) c->scratch[nodes[k]] = TK_CFG_NONE;
    if (st != TK_OK) local_free(g);
    return st;
}

tk_status tk_cfg_routine_dominators(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t r,
                                    uint32_t *idom_blocks)
{
    if (tk_cfg_need_adjacency(p, NULL) != TK_OK) return TK_ERR_NOMEM;
    finish_ctx c;
    memset(&c, 0, sizeof c);
    c.cfg = (tk_cfg *)cfg;
    c.p = (tk_cfg_process *)p;
    c.scratch = tk_malloc(sizeof *c.scratch * (p->nblocks ? p->nblocks : 1));
    if (!c.scratch) return TK_ERR_NOMEM;
    memset(c.scratch, 0xff, sizeof *c.scratch * (p->nblocks ? p->nblocks : 1));
    local_graph g;
    tk_status st = local_build(&c, r, &g);
    if (st == TK_OK) {
        const uint32_t *nodes = p->pool + p->routines[r].nodes;
        for (uint32_t k = 0; k < g.n; k++)
            idom_blocks[k] = g.idom[k] == TK_DOM_NONE ? TK_CFG_NONE : nodes[g.idom[k]];
        local_free(&g);
    }
    tk_free(c.scratch);
    return st;
}

/* c->scratch (per block, all NONE), allocated when first needed: files
 * with routines, dominators and loops never need it. */
static tk_status need_scratch(finish_ctx *c)
{
    if (c->scratch) return TK_OK;
    uint32_t n = c->p->nblocks ? c->p->nblocks : 1;
    c->scratch = tk_malloc(sizeof *c->scratch * n);
    if (!c->scratch) return TK_ERR_NOMEM;
    memset(c->scratch, 0xff, sizeof *c->scratch * n);
    return TK_OK;
}

/* A computed routine entered at block b of the image: claim[b] its index; 0
 * when out of memory. */
static int new_routine(tk_cfg_process *p, uint32_t image, uint32_t b, uint32_t *cap,
                       uint32_t *claim)
{
    if (!tk_cfg_grow((void **)&p->routines, cap, p->nroutines + 1, sizeof *p->routines)) return 0;
    tk_cfg_routine *ro = &p->routines[p->nroutines];
    memset(ro, 0, sizeof *ro);
    ro->entry = b;
    ro->image = image;
    ro->flags = TK_CFG_COMPUTED;
    claim[b] = p->nroutines++;
    return 1;
}

/* The entries of the image's blocks [first, first + nb): call and ENTRY
 * targets, and blocks without intra-routine in-edges; 0 when out of memory. */
static int routine_entries(finish_ctx *c, uint32_t image, uint32_t *cap, uint32_t *claim)
{
    tk_cfg_process *p = c->p;
    const tk_cfg_image *im = &p->images[image];
    uint32_t first = im->first_block, nb = im->nblocks;
    for (uint32_t b = first; b < first + nb; b++) {
        int intra_in = 0, called = 0;
        uint32_t nin;
        const uint32_t *in = cfg_in_edges(p, b, &nin);
        for (uint32_t q = 0; q < nin; q++) {
            const tk_cfg_edge *e = &p->edges[in[q]];
            tk_edge_kind k = tk_cfg_stored_edge_kind(c->cfg, e);
            if (tk_edge_kind_is_any_call(k) || k == TK_EDGE_ENTRY)
                called = 1;
            else if (is_intra(c->cfg, p, e) && e->src != b && e->src - first < nb)
                intra_in = 1;
        }
        if ((called || !intra_in) && !new_routine(p, image, b, cap, claim)) return 0;
    }
    return 1;
}

/* Every block of the image claimed by a routine: by breadth-first search from
 * each entry over intra-routine edges, then from the blocks left over (each a
 * new routine); 0 when out of memory. */
static int claim_blocks(finish_ctx *c, uint32_t image, uint32_t *cap, uint32_t *claim,
                        uint32_t *queue)
{
    tk_cfg_process *p = c->p;
    const tk_cfg_image *im = &p->images[image];
    uint32_t first = im->first_block, nb = im->nblocks;
    uint32_t next_leftover = first;
    for (uint32_t r = im->first_routine;; r++) {
        if (r == p->nroutines) {
            while (next_leftover < first + nb && claim[next_leftover] != TK_CFG_NONE)
                next_leftover++;
            if (next_leftover == first + nb) break;
            if (!new_routine(p, image, next_leftover, cap, claim)) return 0;
        }
        uint32_t head = 0, tail = 0;
        queue[tail++] = p->routines[r].entry;
        while (head < tail) {
            uint32_t b = queue[head++], nout;
            const uint32_t *out = cfg_out_edges(p, b, &nout);
            for (uint32_t q = 0; q < nout; q++) {
                const tk_cfg_edge *e = &p->edges[out[q]];
                if (!is_intra(c->cfg, p, e) || e->tgt - first >= nb) continue;
                if (claim[e->tgt] != TK_CFG_NONE) continue;
                claim[e->tgt] = r;
                queue[tail++] = e->tgt;
            }
        }
    }
    return 1;
}

/* The node lists (block order) and exits of the image's computed routines,
 * from claim; 0 when out of memory. */
static int routine_lists(finish_ctx *c, uint32_t image, const uint32_t *claim)
{
    tk_cfg_process *p = c->p;
    const tk_cfg_image *im = &p->images[image];
    uint32_t first = im->first_block, nb = im->nblocks;
    for (uint32_t r = im->first_routine; r < p->nroutines; r++) p->routines[r].nnodes = 0;
    for (uint32_t b = first; b < first + nb; b++) p->routines[claim[b]].nnodes++; /* counting */
    uint32_t base = p->npool;
    for (uint32_t r = im->first_routine; r < p->nroutines; r++) {
        p->routines[r].nodes = base;
        base += p->routines[r].nnodes;
        p->routines[r].nnodes = 0;
    }
    for (uint32_t k = p->npool; k < base; k++)
        if (!pool_push(c, 0)) return 0;
    for (uint32_t b = first; b < first + nb; b++) {
        tk_cfg_routine *ro = &p->routines[claim[b]];
        p->pool[ro->nodes + ro->nnodes++] = b;
        p->blocks[b].routine = claim[b];
    }
    for (uint32_t r = im->first_routine; r < p->nroutines; r++) {
        tk_cfg_routine *ro = &p->routines[r];
        ro->exits = p->npool;
        for (uint32_t k = 0; k < ro->nnodes; k++) {
            uint32_t b = p->pool[ro->nodes + k], nout;
            const uint32_t *out = cfg_out_edges(p, b, &nout);
            for (uint32_t q = 0; q < nout; q++) {
                const tk_cfg_edge *e = &p->edges[out[q]];
                if (!is_intra(c->cfg, p, e) || claim[e->tgt] != r) {
                    if (!pool_push(c, b)) return 0;
                    ro->nexits++;
                    break;
                }
            }
        }
    }
    return 1;
}

static tk_status compute_routines(finish_ctx *c, uint32_t image)
{
    if (need_scratch(c) != TK_OK) return TK_ERR_NOMEM;
    tk_cfg_process *p = c->p;
    tk_cfg_image *im = &p->images[image];
    uint32_t first = im->first_block, nb = im->nblocks;
    uint32_t *claim = c->scratch; /* NONE = unclaimed; else routine index */
    uint32_t *queue = tk_malloc(sizeof *queue * (nb ? nb : 1));
    if (!queue) return TK_ERR_NOMEM;
    uint32_t cap = p->nroutines;
    im->first_routine = p->nroutines;
    im->nroutines = 0;
    int ok = routine_entries(c, image, &cap, claim) && claim_blocks(c, image, &cap, claim, queue);
    im->nroutines = p->nroutines - im->first_routine;
    ok = ok && routine_lists(c, image, claim);
    for (uint32_t b = first; b < first + nb; b++) claim[b] = TK_CFG_NONE;
    tk_free(queue);
    return ok ? TK_OK : TK_ERR_NOMEM;
}

static tk_status compute_idoms_and_loops(finish_ctx *c, uint32_t r, int want_idoms, int want_loops,
                                         uint32_t *loop_cap)
{
    if (need_scratch(c) != TK_OK) return TK_ERR_NOMEM;
    tk_cfg_process *p = c->p;
    local_graph g;
    tk_status st = local_build(c, r, &g);
    if (st != TK_OK) return st;
    uint32_t nodes_off = p->routines[r].nodes;
    if (want_idoms)
        for (uint32_t k = 0; k < g.n; k++)
            p->blocks[p->pool[nodes_off + k]].idom =
                g.idom[k] == TK_DOM_NONE ? TK_CFG_NONE : p->pool[nodes_off + g.idom[k]];
    if (want_loops && g.n) {
        tk_loops L;
        st = tk_loops_find(&L, g.n, g.start, g.adj, g.idom);
        if (st != TK_OK) {
            local_free(&g);
            return st;
        }
        uint32_t base = p->nloops;
        p->routines[r].first_loop = base;
        p->routines[r].nloops = L.nloops;
        if (!tk_cfg_grow((void **)&p->loops, loop_cap, p->nloops + L.nloops, sizeof *p->loops)) {
            tk_loops_free(&L);
            local_free(&g);
            return TK_ERR_NOMEM;
        }
        for (uint32_t i = 0; i < L.nloops; i++) {
            tk_cfg_loop *lo = &p->loops[base + i];
            memset(lo, 0, sizeof *lo);
            lo->head = p->pool[nodes_off + L.head[i]];
            lo->routine = r;
            lo->parent = L.parent[i] == TK_DOM_NONE ? TK_CFG_NONE : base + L.parent[i];
            lo->depth = L.depth[i];
            lo->flags = TK_CFG_COMPUTED;
            lo->back_srcs = p->npool;
            for (uint32_t k = L.back_start[i]; k < L.back_start[i + 1]; k++)
                if (!pool_push(c, p->pool[nodes_off + L.back[k]])) st = TK_ERR_NOMEM;
            lo->nback_srcs = L.back_start[i + 1] - L.back_start[i];
            lo->nodes = p->npool;
            for (uint32_t k = L.node_start[i]; k < L.node_start[i + 1]; k++)
                if (!pool_push(c, p->pool[nodes_off + L.nodes[k]])) st = TK_ERR_NOMEM;
            lo->nnodes = L.node_start[i + 1] - L.node_start[i];
        }
        p->nloops += L.nloops;
        tk_loops_free(&L);
    }
    local_free(&g);
    return st;
}

tk_status tk_cfg_loop_children(const tk_cfg_process *p, uint32_t first, uint32_t n,
                               uint32_t **start, uint32_t **child)
{
    uint32_t *st = tk_calloc((size_t)n + 2, sizeof *st), *ch = tk_malloc(sizeof *ch * (n ? n : 1));
    if (!st || !ch) {
        tk_free(st);
        tk_free(ch);
        return TK_ERR_NOMEM;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t par = p->loops[first + k].parent - first; /* NONE and loops outside: >= n */
        if (par < n) st[par + 2]++;
    }
    for (uint32_t k = 0; k < n; k++) st[k + 2] += st[k + 1];
    for (uint32_t k = 0; k < n; k++) {
        uint32_t par = p->loops[first + k].parent - first;
        if (par < n) ch[st[par + 1]++] = k;
    }
    *start = st;
    *child = ch;
    return TK_OK;
}

/* forest_first / forest_last of every loop: a preorder of the loops by
 * parent (parents are acyclic by now), iterative. */
static tk_status number_loop_forest(tk_cfg_process *p)
{
    uint32_t n = p->nloops, *first = NULL, *child = NULL;
    uint32_t *next_child =
        tk_malloc(sizeof *next_child * (n ? n : 1)); /* the walk's cursor per loop */
    uint32_t *stack = tk_malloc(sizeof *stack * (n ? n : 1));
    tk_status st =
        next_child && stack ? tk_cfg_loop_children(p, 0, n, &first, &child) : TK_ERR_NOMEM;
    if (st == TK_OK) {
        for (uint32_t l = 0; l < n; l++) next_child[l] = first[l];
        uint32_t next = 0;
        for (uint32_t root = 0; root < n; root++) {
            if (p->loops[root].parent < n) continue;
            uint32_t sp = 0;
            stack[sp++] = root;
            p->loops[root].forest_first = next++;
            while (sp) {
                uint32_t l = stack[sp - 1];
                if (next_child[l] < first[l + 1]) {
                    uint32_t k = child[next_child[l]++];
                    p->loops[k].forest_first = next++;
                    stack[sp++] = k;
                } else {
                    p->loops[l].forest_last = next - 1;
                    sp--;
                }
            }
        }
    }
    tk_free(first);
    tk_free(child);
    tk_free(next_child);
    tk_free(stack);
    return st;
}

/* Resolve raw parents of file loops, compute depths (detecting cycles) and
 * each block's innermost loop. */
static tk_status link_loops(finish_ctx *c)
{
    tk_cfg_process *p = c->p;
    tk_cfg_idmap_free(p->loop_map);
    p->loop_map = tk_cfg_idmap_new(p->nloops, p->nblocks);
    if (!p->loop_map) return TK_ERR_NOMEM;
    for (uint32_t l = 0; l < p->nloops; l++) {
        tk_cfg_loop *lo = &p->loops[l];
        if (lo->head == TK_CFG_NONE) continue;
        if (tk_cfg_idmap_put(p->loop_map, lo->head, l) != TK_CFG_NONE)
            report(c, TK_SEV_ERROR, lo->loc, "two loops have the head node %u",
                   p->blocks[lo->head].id);
    }
    for (uint32_t l = 0; l < p->nloops; l++) {
        tk_cfg_loop *lo = &p->loops[l];
        if (lo->flags & TK_CFG_COMPUTED) continue;
        uint32_t raw = lo->parent;
        lo->parent = TK_CFG_NONE;
        if (raw == 0) continue;
        uint32_t b = resolve_block(c, raw, lo->loc, "parent loop head node");
        if (b == TK_CFG_NONE) continue;
        uint32_t pl = tk_cfg_idmap_get(p->loop_map, b);
        if (pl == TK_CFG_NONE)
            report(c, TK_SEV_ERROR, lo->loc, "parent loop head %u is not the head of a loop", raw);
        else if (pl == l)
            report(c, TK_SEV_ERROR, lo->loc, "loop %u is its own parent", raw);
        else
            lo->parent = pl;
    }
    /* depths: walk up with an explicit path; 'state' = NONE unknown, NONE-1 on path */
    uint32_t *state = tk_malloc(sizeof *state * (p->nloops ? p->nloops : 1));
    uint32_t *path = tk_malloc(sizeof *path * (p->nloops ? p->nloops : 1));
    if (!state || !path) {
        tk_free(state);
        tk_free(path);
        return TK_ERR_NOMEM;
    }
    const uint32_t on_path = TK_CFG_NONE - 1;
    for (uint32_t l = 0; l < p->nloops; l++) state[l] = TK_CFG_NONE;
    for (uint32_t l = 0; l < p->nloops; l++) {
        uint32_t n = 0, cur = l;
        while (cur != TK_CFG_NONE && state[cur] == TK_CFG_NONE) {
            state[cur] = on_path;
            path[n++] = cur;
            cur = p->loops[cur].parent;
        }
        uint32_t depth;
        if (cur == TK_CFG_NONE) {
            depth = 0;
        } else if (state[cur] == on_path) {
            /* cycle: break it at cur */
            report(c, TK_SEV_ERROR, p->loops[cur].loc, "cycle in loop parents through loop %u",
                   p->loops[cur].head < p->nblocks ? p->blocks[p->loops[cur].head].id : 0);
            p->loops[cur].parent = TK_CFG_NONE;
            /* re-walk from scratch for this chain */
            for (uint32_t k = 0; k < n; k++) state[path[k]] = TK_CFG_NONE;
            l--;
            continue;
        } else {
            depth = state[cur] + 1;
        }
        while (n) {
            uint32_t x = path[--n];
            state[x] = depth;
            p->loops[x].depth = depth;
            depth++;
        }
    }
    tk_free(path);
    tk_free(state);
    if (number_loop_forest(p) != TK_OK) return TK_ERR_NOMEM;
    for (uint32_t l = 0; l < p->nloops; l++) {
        const tk_cfg_loop *lo = &p->loops[l];
        for (uint32_t k = 0; k < lo->nnodes; k++) {
            tk_cfg_block *b = &p->blocks[p->pool[lo->nodes + k]];
            if (b->loop == TK_CFG_NONE || p->loops[b->loop].depth < lo->depth) b->loop = l;
        }
    }
    return TK_OK;
}

static tk_status finish_process(finish_ctx *c)
{
    tk_cfg_process *p = c->p;
    tk_status st;
    c->pool_cap = p->npool;
    if ((st = build_node_map(c)) != TK_OK) return st; /* also sets routine, loop, idom NONE */
    if ((st = resolve_edges(c)) != TK_OK) return st;
    if (p->n_file_instr_count_per_thread > p->nthreads)
        p->nthreads = p->n_file_instr_count_per_thread;
    resolve_routines(c);
    tk_free(p->node_idom_ids);
    p->node_idom_ids = NULL;
    derive_block_counts(c);
    if ((st = check_sums(c)) != TK_OK) return st;
    if ((st = resolve_loops_nodes(c)) != TK_OK) return st;
    uint32_t file_routines = p->nroutines;
    for (uint32_t i = 0; i < p->nimages; i++) {
        if (p->images[i].nblocks && !p->images[i].nroutines) {
            if ((st = tk_cfg_need_adjacency(p, NULL)) != TK_OK ||
                (st = compute_routines(c, i)) != TK_OK)
                return st;
            p->routines_computed = 1;
        }
    }
    uint32_t loop_cap = p->nloops;
    for (uint32_t r = 0; r < p->nroutines; r++) {
        tk_cfg_routine *ro = &p->routines[r];
        int want_idoms = r >= file_routines || !(ro->flags & TK_CFG_ROUTINE_HAS_IDOMS);
        int want_loops = r >= file_routines || !(ro->flags & TK_CFG_ROUTINE_HAS_LOOPS);
        if (!want_idoms && !want_loops) continue;
        if ((st = tk_cfg_need_adjacency(p, NULL)) != TK_OK ||
            (st = compute_idoms_and_loops(c, r, want_idoms, want_loops, &loop_cap)) != TK_OK)
            return st;
    }
    p->routine_map = tk_cfg_idmap_new(p->nroutines, p->nblocks);
    if (!p->routine_map) return TK_ERR_NOMEM;
    for (uint32_t r = 0; r < p->nroutines; r++)
        if (p->routines[r].entry != TK_CFG_NONE &&
            tk_cfg_idmap_put(p->routine_map, p->routines[r].entry, r) != TK_CFG_NONE)
            report(c, TK_SEV_ERROR, p->routines[r].loc, "two routines have the entry node %u",
                   p->blocks[p->routines[r].entry].id);
    return link_loops(c);
}

/* FILE_NAME_ID -> the first row with that id (tk_cfg_file_name). */
static tk_status map_file_names(tk_cfg *cfg)
{
    uint32_t max_id = 0;
    for (uint32_t i = 0; i < cfg->nfile_names; i++)
        if (cfg->file_names[i].id > max_id) max_id = cfg->file_names[i].id;
    tk_cfg_idmap_free(cfg->file_name_map);
    cfg->file_name_map = tk_cfg_idmap_new(cfg->nfile_names, max_id);
    if (!cfg->file_name_map) return TK_ERR_NOMEM;
    for (uint32_t i = 0; i < cfg->nfile_names; i++)
        tk_cfg_idmap_put(cfg->file_name_map, cfg->file_names[i].id, i);
    return TK_OK;
}

tk_status tk_cfg_finish(tk_cfg *cfg, const char *path, tk_diag *diag, tk_error *err)
{
    finish_ctx c;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.path = path;
    c.diag = diag;
    c.err = err;
    if (map_file_names(cfg) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory while linking the graph");
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        c.p = &cfg->processes[i];
        c.p->cache_lock = &cfg->cache_lock; /* the array does not move any more */
        tk_status st = finish_process(&c);
        tk_free(c.scratch);
        c.scratch = NULL;
        if (st != TK_OK) return tk_error_set(err, st, "out of memory while linking the graph");
    }
    if (!diag && c.errors) return TK_ERR_FORMAT;
    return TK_OK;
}

tk_status tk_cfg_recount(tk_cfg *cfg, uint32_t i, const char *path, tk_error *err)
{
    finish_ctx c;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.p = &cfg->processes[i];
    c.path = path;
    c.err = err;
    tk_cfg_process *p = c.p;
    for (uint32_t b = 0; b < p->nblocks; b++) { /* the bounds of check_sums, as build_node_map */
        const tk_cfg_block *bl = &p->blocks[b];
        if (bl->num_instrs > c.max_instrs) c.max_instrs = bl->num_instrs;
        if (!(p->block_flags[b] & TK_CFG_BLOCK_HAS_COUNT)) continue;
        uint64_t x;
        c.cells_overflow |= tk_mul_u64(bl->count, bl->num_instrs, &x) |
                            tk_add_u64(c.instr_cells, x, &c.instr_cells) |
                            tk_add_u64(c.count_cells, bl->count, &c.count_cells);
    }
    derive_block_counts(&c);
    tk_status st = check_sums(&c);
    if (st != TK_OK) return tk_error_set(err, st, "out of memory checking the sums of counts");
    if (c.errors) {
        if (err) err->code = TK_ERR_LIMIT;
        return TK_ERR_LIMIT;
    }
    return TK_OK;
}
