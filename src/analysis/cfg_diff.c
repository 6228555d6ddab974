/* The difference of two control-flow graphs: blocks matched by (image id, address offset),
 * edges by their end blocks and type, walked in key order. */
#include "tracekit/cfg_diff.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* Blocks are matched by (image id, address offset), edges by their end blocks and type
 * name: ids may differ between two runs of a program. */
typedef struct diff_key {
    uint64_t a, b; /* block: (image id, offset); edge: (src key hash, tgt key hash) */
    uint32_t c;    /* edge: type kind */
    uint32_t index;
} diff_key;

static int cmp_diff_key(const void *x, const void *y)
{
    const diff_key *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    if (p->c != q->c) return p->c < q->c ? -1 : 1;
    return (p->index > q->index) - (p->index < q->index);
}

/* The keys' order without the index (whether two keys match). */
static int cmp_match(const diff_key *p, const diff_key *q)
{
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return (p->c > q->c) - (p->c < q->c);
}

static uint64_t node_key(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t n)
{
    if (n >= p->nblocks) return UINT64_MAX - (uint64_t)tk_cfg_node_special(cfg, p, n);
    const tk_cfg_block *b = &p->blocks[n];
    return ((uint64_t)p->images[tk_cfg_block_image(p, n)].id << 40) ^ b->addr_offset;
}

static diff_key *block_keys(const tk_cfg_process *p)
{
    diff_key *k = tk_malloc(sizeof *k * (p->nblocks ? p->nblocks : 1));
    if (!k) return NULL;
    for (uint32_t i = 0; i < p->nblocks; i++) {
        k[i].a = p->images[tk_cfg_block_image(p, i)].id;
        k[i].b = p->blocks[i].addr_offset;
        k[i].c = 0;
        k[i].index = i;
    }
    qsort(k, p->nblocks, sizeof *k, cmp_diff_key);
    return k;
}

static diff_key *edge_keys(const tk_cfg *cfg, const tk_cfg_process *p)
{
    diff_key *k = tk_malloc(sizeof *k * (p->nedges ? p->nedges : 1));
    if (!k) return NULL;
    for (uint32_t i = 0; i < p->nedges; i++) {
        const tk_cfg_edge *e = &p->edges[i];
        k[i].a = e->src == TK_CFG_NONE ? 0 : node_key(cfg, p, e->src);
        k[i].b = e->tgt == TK_CFG_NONE ? 0 : node_key(cfg, p, e->tgt);
        k[i].c = (uint32_t)tk_cfg_edge_kind(cfg, e);
        k[i].index = i;
    }
    qsort(k, p->nedges, sizeof *k, cmp_diff_key);
    return k;
}

enum { PHASE_PROCESS, PHASE_BLOCKS, PHASE_EDGES };

struct tk_cfg_diff {
    const tk_cfg *g[2];
    int all;
    uint32_t pi;              /* the pair of processes walked */
    int phase;
    diff_key *bk[2], *ek[2];  /* its sorted keys on each side */
    uint32_t i, j;            /* the cursors of the merge */
    uint64_t differences;
    int ended;
    tk_cfg_diff_item item;
};

static void keys_free(tk_cfg_diff *d)
{
    for (int s = 0; s < 2; s++) {
        tk_free(d->bk[s]);
        tk_free(d->ek[s]);
        d->bk[s] = d->ek[s] = NULL;
    }
}

tk_status tk_cfg_diff_open(tk_cfg_diff **out, const tk_cfg *a, const tk_cfg *b,
                           const tk_cfg_diff_options *opt, tk_error *err)
{
    *out = tk_calloc(1, sizeof **out);
    if (!*out) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    (*out)->g[0] = a;
    (*out)->g[1] = b;
    (*out)->all = opt ? opt->all : 0;
    return TK_OK;
}

/* The item of pair pi, its keys made. */
static tk_status process_item(tk_cfg_diff *d, tk_error *err)
{
    tk_cfg_diff_item *it = &d->item;
    memset(it, 0, sizeof *it);
    it->kind = TK_CFG_DIFF_PROCESS;
    it->process = d->pi;
    keys_free(d);
    for (int s = 0; s < 2; s++) {
        const tk_cfg_process *p = &d->g[s]->processes[d->pi];
        it->pid[s] = p->pid;
        it->instructions[s] = tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0});
        d->bk[s] = block_keys(p);
        d->ek[s] = edge_keys(d->g[s], p);
        if (!d->bk[s] || !d->ek[s]) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    d->phase = PHASE_BLOCKS;
    d->i = d->j = 0;
    return TK_OK;
}

/* Side s's block or edge (index n of its process) into the item. */
static void side_block(tk_cfg_diff *d, int s, uint32_t n)
{
    const tk_cfg_block *b = &d->g[s]->processes[d->pi].blocks[n];
    d->item.has[s] = 1;
    d->item.id[s] = b->id;
    d->item.count[s] = b->count;
    d->item.offset = b->addr_offset;
}

static void side_edge(tk_cfg_diff *d, int s, uint32_t n)
{
    const tk_cfg_process *p = &d->g[s]->processes[d->pi];
    const tk_cfg_edge *e = &p->edges[n];
    d->item.has[s] = 1;
    d->item.id[s] = e->id;
    d->item.count[s] = tk_cfg_edge_count(p, e);
    if (!d->item.type) d->item.type = tk_cfg_edge_type_name(d->g[s], e);
}

/* One step of the merge of the blocks (edges 0) or the edges (1): 1 with an item, 0 when
 * a matched pair is left out, -1 at the end of the list. */
static int merge_step(tk_cfg_diff *d, int edges)
{
    const diff_key *k0 = edges ? d->ek[0] : d->bk[0], *k1 = edges ? d->ek[1] : d->bk[1];
    uint32_t n0 = edges ? d->g[0]->processes[d->pi].nedges : d->g[0]->processes[d->pi].nblocks;
    uint32_t n1 = edges ? d->g[1]->processes[d->pi].nedges : d->g[1]->processes[d->pi].nblocks;
    if (d->i == n0 && d->j == n1) return -1;
    int c = d->i == n0 ? 1 : d->j == n1 ? -1 : cmp_match(&k0[d->i], &k1[d->j]);
    tk_cfg_diff_item *it = &d->item;
    memset(it, 0, sizeof *it);
    it->kind = edges ? TK_CFG_DIFF_EDGE : TK_CFG_DIFF_BLOCK;
    it->process = d->pi;
    it->image = c <= 0 ? k0[d->i].a : k1[d->j].a;
    void (*side)(tk_cfg_diff *, int, uint32_t) = edges ? side_edge : side_block;
    if (c <= 0) side(d, 0, k0[d->i++].index);
    if (c >= 0) side(d, 1, k1[d->j++].index);
    if (c == 0 && it->count[0] == it->count[1] && !d->all) return 0;
    d->differences += c != 0 || it->count[0] != it->count[1];
    if (edges) it->image = 0;
    return 1;
}

tk_status tk_cfg_diff_next(tk_cfg_diff *d, const tk_cfg_diff_item **item, tk_error *err)
{
    *item = NULL;
    for (;;) {
        if (d->ended) return TK_END;
        if (d->phase == PHASE_PROCESS) {
            uint32_t na = d->g[0]->nprocesses, nb = d->g[1]->nprocesses;
            if (d->pi >= na || d->pi >= nb) {
                d->differences += na != nb;
                d->ended = 1;
                keys_free(d);
                return TK_END;
            }
            tk_status st = process_item(d, err);
            if (st != TK_OK) return st;
            *item = &d->item;
            return TK_OK;
        }
        int r = merge_step(d, d->phase == PHASE_EDGES);
        if (r > 0) {
            *item = &d->item;
            return TK_OK;
        }
        if (r < 0 && d->phase == PHASE_BLOCKS) {
            d->phase = PHASE_EDGES;
            d->i = d->j = 0;
        } else if (r < 0) {
            d->phase = PHASE_PROCESS;
            d->pi++;
        }
    }
}

uint64_t tk_cfg_diff_differences(const tk_cfg_diff *d)
{
    return d->differences;
}

uint32_t tk_cfg_diff_process_count(const tk_cfg_diff *d, int side)
{
    return d->g[side ? 1 : 0]->nprocesses;
}

void tk_cfg_diff_free(tk_cfg_diff *d)
{
    if (!d) return;
    keys_free(d);
    tk_free(d);
}
