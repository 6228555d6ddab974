/* The semantic rules of DCFG 1.00 that reading does not already enforce:
 * tables' ids, routines (membership, image, reachability, dominators, exits),
 * loops (head dominance, back edges, node sets, nesting), counts. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/dominators.h"
#include "graph/loops.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/num.h"
#include "model/cfg_internal.h"
#include "tracekit/dcfg.h"

typedef struct checker {
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    const char *path;
    tk_diag *diag;
} checker;

static void say(checker *c, tk_severity sev, tk_cfg_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say(checker *c, tk_severity sev, tk_cfg_loc loc, const char *fmt, ...)
{
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tk_location l = {c->path, -1, loc.line, loc.column};
    tk_diag_report(c->diag, sev, &l, "%s", msg);
}

static uint32_t bid(const checker *c, uint32_t block)
{
    return tk_cfg_node_id(c->cfg, c->p, block);
}

static void check_tables(checker *c)
{
    const tk_cfg *cfg = c->cfg;
    for (uint32_t i = 0; i < cfg->nfile_names; i++) {
        int dup = 0; /* an earlier row has the id: the map holds the first */
        if (cfg->file_name_map)
            dup = tk_cfg_idmap_get(cfg->file_name_map, cfg->file_names[i].id) != i;
        else
            for (uint32_t k = 0; k < i && !dup; k++)
                dup = cfg->file_names[k].id == cfg->file_names[i].id;
        if (dup)
            say(c, TK_SEV_ERROR, cfg->file_names[i].loc, "duplicate FILE_NAME_ID %" PRIu32,
                cfg->file_names[i].id);
    }
    for (uint32_t i = 0; i < cfg->nedge_types; i++)
        for (uint32_t k = 0; k < i; k++)
            if (cfg->edge_types[k].id == cfg->edge_types[i].id) {
                say(c, TK_SEV_ERROR, cfg->edge_types[i].loc, "duplicate EDGE_TYPE_ID %" PRIu32,
                    cfg->edge_types[i].id);
                break;
            }
    for (uint32_t i = 0; i < cfg->nprocesses; i++)
        for (uint32_t k = 0; k < i; k++)
            if (cfg->processes[k].pid == cfg->processes[i].pid) {
                say(c, TK_SEV_ERROR, cfg->processes[i].loc, "duplicate PROCESS_ID %" PRIu64,
                    cfg->processes[i].pid);
                break;
            }
}

static void check_images(checker *c)
{
    const tk_cfg_process *p = c->p;
    for (uint32_t i = 0; i < p->nimages; i++) {
        const tk_cfg_image *im = &p->images[i];
        for (uint32_t k = 0; k < i; k++)
            if (p->images[k].id == im->id) {
                say(c, TK_SEV_ERROR, im->loc, "duplicate IMAGE_ID %" PRIu32, im->id);
                break;
            }
        if (im->file_name_id && !tk_cfg_file_name(c->cfg, im->file_name_id))
            say(c, TK_SEV_ERROR, im->loc,
                "image %" PRIu32 ": FILE_NAME_ID %" PRIu32 " is not in FILE_NAMES", im->id,
                im->file_name_id);
        for (uint32_t s = 0; s < im->nsources; s++) {
            const tk_cfg_source *so = &p->sources[im->first_source + s];
            if (!tk_cfg_file_name(c->cfg, so->file_name_id)) {
                say(c, TK_SEV_ERROR, im->loc,
                    "image %" PRIu32 ": SOURCE_DATA refers to FILE_NAME_ID %" PRIu32
                    ", not in FILE_NAMES",
                    im->id, so->file_name_id);
                break;
            }
        }
        for (uint32_t k = 0; k < im->nblocks; k++) {
            const tk_cfg_block *b = &p->blocks[im->first_block + k];
            uint32_t size = cfg_block_size(p, im->first_block + k);
            uint32_t last = cfg_block_last_instr_offset(p, im->first_block + k);
            if (size && last >= size)
                say(c, TK_SEV_ERROR, cfg_block_loc(p, im->first_block + k),
                    "block %" PRIu32 ": LAST_INSTR_OFFSET %" PRIu32
                    " is not inside the block (SIZE %" PRIu32 ")",
                    b->id, last, size);
            if (b->num_instrs == 0)
                say(c, TK_SEV_WARNING, cfg_block_loc(p, im->first_block + k),
                    "block %" PRIu32 ": NUM_INSTRS is 0", b->id);
            if (im->size && (b->addr_offset > im->size || size > im->size - b->addr_offset))
                say(c, TK_SEV_WARNING, cfg_block_loc(p, im->first_block + k),
                    "block %" PRIu32 " (offset 0x%" PRIx64 ", size %" PRIu32
                    ") extends beyond its image (size %" PRIu64 ")",
                    b->id, b->addr_offset, size, im->size);
        }
    }
}

static void check_counts(checker *c)
{
    const tk_cfg *cfg = c->cfg;
    const tk_cfg_process *p = c->p;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        const tk_cfg_block *bl = &p->blocks[b];
        if (!(p->block_flags[b] & TK_CFG_BLOCK_HAS_COUNT)) continue;
        uint64_t in = 0, out = 0;
        int in_over = 0, out_over = 0; /* reported by tk_cfg_finish: not compared */
        uint32_t nin, nout;
        const uint32_t *ins = cfg_in_edges(p, b, &nin), *outs = cfg_out_edges(p, b, &nout);
        for (uint32_t k = 0; k < nin; k++)
            in_over |= tk_add_u64(in, cfg_edge_count(p, &p->edges[ins[k]]), &in);
        for (uint32_t k = 0; k < nout; k++)
            out_over |= tk_add_u64(out, cfg_edge_count(p, &p->edges[outs[k]]), &out);
        if (nin && !in_over && in != bl->count)
            say(c, TK_SEV_ERROR, cfg_block_loc(p, b),
                "block %" PRIu32 ": COUNT %" PRIu64
                " differs from the sum of its in-edge counts (%" PRIu64 ")",
                bl->id, bl->count, in);
        if (nout && !out_over && out != bl->count)
            say(c, TK_SEV_ERROR, cfg_block_loc(p, b),
                "block %" PRIu32 ": COUNT %" PRIu64
                " differs from the sum of its out-edge counts (%" PRIu64 ")",
                bl->id, bl->count, out);
    }
    /* an overflow of the total (or of a block's product) is tk_cfg_finish's error */
    uint64_t total = 0;
    int total_over = 0;
    for (uint32_t b = 0; b < p->nblocks && !total_over; b++) {
        uint64_t x;
        total_over = tk_mul_u64(p->blocks[b].count, p->blocks[b].num_instrs, &x) ||
                     tk_add_u64(total, x, &total);
    }
    if (p->has_file_instr_count && !total_over && p->file_instr_count != total)
        say(c, TK_SEV_WARNING, p->loc,
            "process %" PRIu64 ": INSTR_COUNT %" PRIu64
            " differs from sum COUNT x NUM_INSTRS = %" PRIu64
            " (usual in real files: partial blocks)",
            p->pid, p->file_instr_count, total);
    if (p->file_instr_count_per_thread) {
        uint64_t sum = 0;
        int over = 0;
        for (uint32_t t = 0; t < p->n_file_instr_count_per_thread && !over; t++)
            over = tk_add_u64(sum, p->file_instr_count_per_thread[t], &sum);
        if (over)
            say(c, TK_SEV_ERROR, p->loc,
                "process %" PRIu64 ": the sum of INSTR_COUNT_PER_THREAD overflows 64 bits", p->pid);
        else if (p->has_file_instr_count && sum != p->file_instr_count)
            say(c, TK_SEV_ERROR, p->loc,
                "process %" PRIu64 ": INSTR_COUNT %" PRIu64
                " differs from the sum of INSTR_COUNT_PER_THREAD (%" PRIu64 ")",
                p->pid, p->file_instr_count, sum);
    }
    uint32_t warned = 0;
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (p->file_instr_count_per_thread &&
            cfg_edge_nthreads(p, e) != p->n_file_instr_count_per_thread && warned++ < 10)
            say(c, TK_SEV_WARNING, cfg_edge_loc(p, e),
                "edge %" PRIu32 ": COUNT_PER_THREAD has %" PRIu32 " values for %" PRIu32 " threads",
                ed->id, cfg_edge_nthreads(p, e), p->n_file_instr_count_per_thread);
        if (ed->src == TK_CFG_NONE || ed->tgt == TK_CFG_NONE) continue;
        tk_edge_kind k = tk_cfg_stored_edge_kind(cfg, ed);
        tk_special_kind ss = tk_cfg_node_special(cfg, p, ed->src),
                        ts = tk_cfg_node_special(cfg, p, ed->tgt);
        if (ss == TK_SPECIAL_START && k != TK_EDGE_ENTRY)
            say(c, TK_SEV_WARNING, cfg_edge_loc(p, e),
                "edge %" PRIu32 " leaves the START node but is not an ENTRY edge", ed->id);
        if (ts == TK_SPECIAL_END && k != TK_EDGE_EXIT)
            say(c, TK_SEV_WARNING, cfg_edge_loc(p, e),
                "edge %" PRIu32 " enters the END node but is not an EXIT edge", ed->id);
        if (ts == TK_SPECIAL_START)
            say(c, TK_SEV_ERROR, cfg_edge_loc(p, e), "edge %" PRIu32 " enters the START node",
                ed->id);
        if (ss == TK_SPECIAL_END)
            say(c, TK_SEV_ERROR, cfg_edge_loc(p, e), "edge %" PRIu32 " leaves the END node",
                ed->id);
        uint32_t dup = tk_cfg_find_edge_between(p, ed->src, ed->tgt);
        if (dup != TK_CFG_NONE && dup != e)
            say(c, TK_SEV_WARNING, cfg_edge_loc(p, e),
                "edge %" PRIu32 " duplicates edge %" PRIu32 " (same source and target)", ed->id,
                p->edges[dup].id);
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* For each loop of routine ro: whether its parent's LOOP_NODE_IDS lack its
 * head (lacks[l - first_loop]), for parents in the routine; the loops are
 * grouped by parent so that each parent's nodes are marked once (a routine
 * can have thousands of nested loops).  mark: a cell per routine node. */
static tk_status loops_outside_parent(const checker *c, const tk_cfg_routine *ro,
                                      const uint32_t *local, uint32_t *mark, uint8_t *lacks)
{
    const tk_cfg_process *p = c->p;
    uint32_t first = ro->first_loop, nl = ro->nloops, *cstart, *child;
    if (tk_cfg_loop_children(p, first, nl, &cstart, &child) != TK_OK) return TK_ERR_NOMEM;
    for (uint32_t k = 0; k < ro->nnodes; k++) mark[k] = 0;
    for (uint32_t par = 0; par < nl; par++) {
        if (cstart[par] == cstart[par + 1]) continue;
        const tk_cfg_loop *pl = &p->loops[first + par];
        for (uint32_t k = 0; k < pl->nnodes; k++) {
            uint32_t v = local[p->pool[pl->nodes + k]];
            if (v != TK_CFG_NONE) mark[v] = par + 1;
        }
        for (uint32_t q = cstart[par]; q < cstart[par + 1]; q++) {
            uint32_t h = p->loops[first + child[q]].head;
            lacks[child[q]] =
                h == TK_CFG_NONE || local[h] == TK_CFG_NONE || mark[local[h]] != par + 1;
        }
    }
    tk_free(cstart);
    tk_free(child);
    return TK_OK;
}

/* Each LOOPS row of routine r against the routine's dominator tree: nodes
 * in the routine and dominated by the head, the head among them, back-edge
 * sources, the parent containing the head. */
static void check_loop_rows(checker *c, const tk_cfg_routine *ro, const uint32_t *local,
                            const tk_domtree *dt, const uint8_t *lacks)
{
    const tk_cfg_process *p = c->p;
    for (uint32_t l = ro->first_loop; l < ro->first_loop + ro->nloops; l++) {
        const tk_cfg_loop *lo = &p->loops[l];
        if (lo->head == TK_CFG_NONE) continue;
        uint32_t h = local[lo->head];
        if (h == TK_CFG_NONE) {
            say(c, TK_SEV_ERROR, lo->loc, "loop %" PRIu32 ": the head is not in routine %" PRIu32,
                bid(c, lo->head), bid(c, ro->entry));
            continue;
        }
        int has_head = 0;
        for (uint32_t k = 0; k < lo->nnodes; k++) {
            uint32_t v = p->pool[lo->nodes + k];
            has_head |= v == lo->head;
            if (local[v] == TK_CFG_NONE)
                say(c, TK_SEV_ERROR, lo->loc,
                    "loop %" PRIu32 ": node %" PRIu32 " is not in the routine", bid(c, lo->head),
                    bid(c, v));
            else if (!tk_domtree_dominates(dt, h, local[v]))
                say(c, TK_SEV_ERROR, lo->loc,
                    "loop %" PRIu32 ": the head does not dominate loop node %" PRIu32,
                    bid(c, lo->head), bid(c, v));
        }
        if (!has_head)
            say(c, TK_SEV_ERROR, lo->loc, "loop %" PRIu32 ": LOOP_NODE_IDS lacks the head",
                bid(c, lo->head));
        for (uint32_t k = 0; k < lo->nback_srcs; k++) {
            uint32_t s = p->pool[lo->back_srcs + k];
            if (tk_cfg_find_edge_between(p, s, lo->head) == TK_CFG_NONE)
                say(c, TK_SEV_ERROR, lo->loc,
                    "loop %" PRIu32 ": no edge from back-edge source %" PRIu32 " to the head",
                    bid(c, lo->head), bid(c, s));
            if (local[s] == TK_CFG_NONE || !tk_domtree_dominates(dt, h, local[s]))
                say(c, TK_SEV_ERROR, lo->loc,
                    "loop %" PRIu32 ": the head does not dominate back-edge source %" PRIu32,
                    bid(c, lo->head), bid(c, s));
        }
        if (lo->parent != TK_CFG_NONE) {
            const tk_cfg_loop *pl = &p->loops[lo->parent];
            int inside = 0;
            if (lo->parent - ro->first_loop < ro->nloops)
                inside = !lacks[l - ro->first_loop];
            else /* a parent in another routine (an error of its own) */
                for (uint32_t k = 0; k < pl->nnodes && !inside; k++)
                    inside = p->pool[pl->nodes + k] == lo->head;
            if (!inside)
                say(c, TK_SEV_ERROR, lo->loc,
                    "loop %" PRIu32 ": its parent loop %" PRIu32 " does not contain it",
                    bid(c, lo->head), pl->head == TK_CFG_NONE ? 0 : bid(c, pl->head));
        }
    }
}

/* The LOOPS rows of routine ro against the natural loops of its intra-routine
 * graph (ldom: immediate dominators as routine-node indexes): same heads,
 * same node sets, no natural loop missing.  mark: a cell per routine node. */
static tk_status check_natural_loops(checker *c, const tk_cfg_routine *ro, const uint32_t *local,
                                     const uint32_t *ldom, uint32_t *mark)
{
    const tk_cfg *cfg = c->cfg;
    const tk_cfg_process *p = c->p;
    const uint32_t *nodes = p->pool + ro->nodes;
    uint32_t n = ro->nnodes, nadj = 0;
    uint32_t *start = tk_calloc((size_t)n + 1, sizeof *start), *adj = NULL;
    if (!start) return TK_ERR_NOMEM;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        nadj = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t nout;
            const uint32_t *out = cfg_out_edges(p, nodes[k], &nout);
            for (uint32_t q = 0; q < nout; q++) {
                const tk_cfg_edge *e = &p->edges[out[q]];
                if (e->tgt < p->nblocks && local[e->tgt] != TK_CFG_NONE &&
                    !tk_edge_kind_is_any_inter_routine(tk_cfg_stored_edge_kind(cfg, e))) {
                    if (pass) adj[nadj] = local[e->tgt];
                    nadj++;
                }
            }
            if (!pass) start[k + 1] = nadj;
        }
        if (!pass && !(adj = tk_malloc(sizeof *adj * (nadj ? nadj : 1)))) {
            tk_free(start);
            return TK_ERR_NOMEM;
        }
    }
    tk_loops L;
    tk_status st = tk_loops_find(&L, n, start, adj, ldom);
    tk_free(start);
    tk_free(adj);
    if (st != TK_OK) return st;
    /* mark[v]: 1 + the natural loop headed by v, or 0 */
    for (uint32_t k = 0; k < n; k++) mark[k] = 0;
    for (uint32_t i = 0; i < L.nloops; i++) mark[L.head[i]] = i + 1;
    uint32_t *in_nat = tk_calloc(n ? n : 1, sizeof *in_nat); /* stamps: 1 + file loop */
    if (!in_nat) {
        tk_loops_free(&L);
        return TK_ERR_NOMEM;
    }
    for (uint32_t l = ro->first_loop; l < ro->first_loop + ro->nloops; l++) {
        const tk_cfg_loop *lo = &p->loops[l];
        if (lo->head == TK_CFG_NONE || local[lo->head] == TK_CFG_NONE) continue;
        if (!mark[local[lo->head]]) {
            say(c, TK_SEV_ERROR, lo->loc, "loop %" PRIu32 ": no back edge reaches this head",
                bid(c, lo->head));
            continue;
        }
        uint32_t found = mark[local[lo->head]] - 1, stamp = l - ro->first_loop + 1;
        uint32_t want = L.node_start[found + 1] - L.node_start[found];
        for (uint32_t q = L.node_start[found]; q < L.node_start[found + 1]; q++)
            in_nat[L.nodes[q]] = stamp;
        int same = want == lo->nnodes;
        for (uint32_t k = 0; same && k < lo->nnodes; k++) {
            uint32_t v = local[p->pool[lo->nodes + k]];
            same = v != TK_CFG_NONE && in_nat[v] == stamp;
        }
        if (!same)
            say(c, TK_SEV_ERROR, lo->loc,
                "loop %" PRIu32 ": LOOP_NODE_IDS has %" PRIu32
                " nodes, the natural loop has %" PRIu32,
                bid(c, lo->head), lo->nnodes, want);
    }
    for (uint32_t i = 0; i < L.nloops; i++) {
        uint32_t hb = nodes[L.head[i]];
        if (tk_cfg_find_loop(p, hb) == TK_CFG_NONE)
            say(c, TK_SEV_WARNING, ro->loc,
                "routine %" PRIu32 ": the loop headed by %" PRIu32 " is missing from LOOPS",
                bid(c, ro->entry), bid(c, hb));
    }
    tk_free(in_nat);
    tk_loops_free(&L);
    return TK_OK;
}

/* The LOOPS of routine r.  local: block -> index in the routine's nodes
 * (NONE outside); idom: per node, the block of its immediate dominator (or
 * NONE); mark: a cell per routine node, scratch. */
static tk_status check_routine_loops(checker *c, uint32_t r, const uint32_t *local,
                                     const uint32_t *idom, uint32_t *mark)
{
    const tk_cfg_routine *ro = &c->p->routines[r];
    uint32_t n = ro->nnodes;
    uint32_t *ldom = tk_malloc(sizeof *ldom * (n ? n : 1));
    uint8_t *lacks = tk_calloc(ro->nloops, 1);
    tk_domtree dt;
    tk_status st = ldom && lacks ? TK_OK : TK_ERR_NOMEM;
    for (uint32_t k = 0; st == TK_OK && k < n; k++)
        ldom[k] = idom[k] == TK_CFG_NONE ? TK_DOM_NONE : local[idom[k]];
    if (st == TK_OK) st = tk_domtree_build(&dt, n, ldom);
    if (st == TK_OK) {
        st = loops_outside_parent(c, ro, local, mark, lacks);
        if (st == TK_OK) check_loop_rows(c, ro, local, &dt, lacks);
        /* out of memory for the natural loops: that comparison is skipped */
        if (st == TK_OK) (void)check_natural_loops(c, ro, local, ldom, mark);
        tk_domtree_free(&dt);
    }
    tk_free(lacks);
    tk_free(ldom);
    return st;
}

/* Routines: image, reachability from the entry, IDOMs, exits; loops. */
static tk_status check_routines(checker *c)
{
    const tk_cfg *cfg = c->cfg;
    const tk_cfg_process *p = c->p;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        const tk_cfg_block *bl = &p->blocks[b];
        if (bl->routine == TK_CFG_NONE)
            say(c, TK_SEV_ERROR, cfg_block_loc(p, b),
                "block %" PRIu32 " is in no routine of image %" PRIu32, bl->id,
                p->images[tk_cfg_block_image(p, b)].id);
    }
    uint32_t *idom = NULL, *local = tk_malloc(sizeof *local * (p->nblocks ? p->nblocks : 1));
    uint32_t *set = NULL;
    size_t cap = 0;
    if (!local) return TK_ERR_NOMEM;
    memset(local, 0xff, sizeof *local * (p->nblocks ? p->nblocks : 1));
    tk_status st = TK_OK;
    for (uint32_t r = 0; r < p->nroutines && st == TK_OK; r++) {
        const tk_cfg_routine *ro = &p->routines[r];
        if (ro->flags & TK_CFG_COMPUTED || ro->entry == TK_CFG_NONE) continue;
        const uint32_t *nodes = p->pool + ro->nodes;
        uint32_t n = ro->nnodes;
        if (n > cap || !set) { /* never NULL, even for a routine without nodes */
            tk_free(idom);
            tk_free(set);
            cap = n ? n : 1;
            idom = tk_malloc(sizeof *idom * cap);
            set = tk_malloc(sizeof *set * cap);
            if (!idom || !set) {
                st = TK_ERR_NOMEM;
                break;
            }
        }
        if (tk_cfg_block_image(p, ro->entry) != ro->image)
            say(c, TK_SEV_ERROR, ro->loc, "routine %" PRIu32 ": entry is in another image",
                bid(c, ro->entry));
        for (uint32_t k = 0; k < n; k++) {
            local[nodes[k]] = k;
            if (tk_cfg_block_image(p, nodes[k]) != ro->image)
                say(c, TK_SEV_ERROR, ro->loc,
                    "routine %" PRIu32 ": node %" PRIu32 " is not in the routine's image",
                    bid(c, ro->entry), bid(c, nodes[k]));
        }
        if ((st = tk_cfg_routine_dominators(cfg, p, r, idom)) != TK_OK) break;
        for (uint32_t k = 0; k < n; k++) {
            const tk_cfg_block *b = &p->blocks[nodes[k]];
            if (idom[k] == TK_CFG_NONE) {
                say(c, TK_SEV_ERROR, ro->loc,
                    "routine %" PRIu32 ": node %" PRIu32
                    " is not reachable from the entry by intra-routine edges",
                    bid(c, ro->entry), b->id);
                continue;
            }
            if (!(ro->flags & TK_CFG_ROUTINE_HAS_IDOMS)) continue;
            if (b->idom != idom[k])
                say(c, TK_SEV_ERROR, ro->loc,
                    "routine %" PRIu32 ": IDOM_NODE_ID of node %" PRIu32 " is %" PRIu32
                    ", but its immediate dominator is %" PRIu32,
                    bid(c, ro->entry), b->id, b->idom == TK_CFG_NONE ? 0 : bid(c, b->idom),
                    bid(c, idom[k]));
        }
        /* exits: nodes with an edge leaving the routine */
        uint32_t nexp = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t b = nodes[k], nout;
            const uint32_t *out = cfg_out_edges(p, b, &nout);
            for (uint32_t q = 0; q < nout; q++) {
                const tk_cfg_edge *e = &p->edges[out[q]];
                if (e->tgt >= p->nblocks || p->blocks[e->tgt].routine != r ||
                    tk_edge_kind_is_any_inter_routine(tk_cfg_stored_edge_kind(cfg, e))) {
                    set[nexp++] = bid(c, b);
                    break;
                }
            }
        }
        qsort(set, nexp, sizeof *set, cmp_u32);
        for (uint32_t k = 0; k < ro->nexits; k++) {
            uint32_t x = p->pool[ro->exits + k];
            if (x == TK_CFG_NONE) continue;
            uint32_t id = bid(c, x);
            if (!bsearch(&id, set, nexp, sizeof *set, cmp_u32))
                say(c, TK_SEV_WARNING, ro->loc,
                    "routine %" PRIu32 ": exit node %" PRIu32 " has no edge leaving the routine",
                    bid(c, ro->entry), id);
        }
        /* loops of this routine against the dominator tree and the natural loops */
        if (ro->nloops && (st = check_routine_loops(c, r, local, idom, set)) != TK_OK) break;
        for (uint32_t k = 0; k < n; k++) local[nodes[k]] = TK_CFG_NONE;
    }
    tk_free(idom);
    tk_free(set);
    tk_free(local);
    return st;
}

tk_status tk_dcfg_check(const tk_cfg *cfg, const char *path, tk_diag *diag, tk_error *err)
{
    checker c = {cfg, NULL, path, diag};
    check_tables(&c);
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        c.p = &cfg->processes[i];
        if (tk_cfg_need_adjacency(c.p, err) != TK_OK) return TK_ERR_NOMEM;
        check_images(&c);
        check_counts(&c);
        tk_status st = check_routines(&c);
        if (st != TK_OK) return tk_error_from(err, st, "checking routines");
    }
    if (cfg->nedge_types == 0 && cfg->nprocesses && cfg->processes[0].nedges)
        say(&c, TK_SEV_ERROR, (tk_cfg_loc){1, 1}, "edges present but no EDGE_TYPES table");
    return diag->errors ? tk_error_set(err, TK_ERR_CHECK, "problems found (reported)") : TK_OK;
}
