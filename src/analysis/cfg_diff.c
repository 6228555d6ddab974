/* The difference of two control-flow graphs: per pair of processes, its images, routines,
 * blocks and edges matched by key (the keys of each side sorted, then merged), the rows
 * that differ ordered by the size of their change and cut. */
#include "tracekit/cfg_diff.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "model/cfg_internal.h"

/* Images are matched by id, routines by (image id, entry offset), blocks by (image id,
 * address offset), edges by their end blocks and type kind: ids may differ between two
 * runs of a program. */
typedef struct diff_key {
    uint64_t a, b; /* image, routine, block: (image id, offset); edge: (src key, tgt key) */
    uint32_t c; /* edge: type kind */
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

/* The sorted keys of table t of process p (*n of them), NULL when out of memory. */
static diff_key *table_keys(const tk_cfg *cfg, const tk_cfg_process *p, tk_cfg_diff_table t,
                            uint32_t *n)
{
    uint32_t cap = t == TK_CFG_DIFF_IMAGES     ? p->nimages
                   : t == TK_CFG_DIFF_ROUTINES ? p->nroutines
                   : t == TK_CFG_DIFF_BLOCKS   ? p->nblocks
                                               : p->nedges;
    diff_key *k = tk_malloc(sizeof *k * (cap ? cap : 1));
    if (!k) return NULL;
    *n = 0;
    for (uint32_t i = 0; i < cap; i++) {
        diff_key *x = &k[*n];
        x->c = 0;
        x->index = i;
        if (t == TK_CFG_DIFF_IMAGES) {
            x->a = p->images[i].id;
            x->b = 0;
        } else if (t == TK_CFG_DIFF_ROUTINES) {
            uint32_t e = p->routines[i].entry;
            if (e >= p->nblocks) continue;
            x->a = p->images[p->routines[i].image].id;
            x->b = p->blocks[e].addr_offset;
        } else if (t == TK_CFG_DIFF_BLOCKS) {
            x->a = p->images[tk_cfg_block_image(p, i)].id;
            x->b = p->blocks[i].addr_offset;
        } else {
            const tk_cfg_edge *e = &p->edges[i];
            x->a = e->src == TK_CFG_NONE ? 0 : node_key(cfg, p, e->src);
            x->b = e->tgt == TK_CFG_NONE ? 0 : node_key(cfg, p, e->tgt);
            x->c = (uint32_t)tk_cfg_stored_edge_kind(cfg, e);
        }
        (*n)++;
    }
    qsort(k, *n, sizeof *k, cmp_diff_key);
    return k;
}

/* A row: the index on each side (TK_CFG_NONE: absent), its place in key order, its count
 * and instructions on each side (measure) and its change. */
typedef struct diff_match {
    uint32_t i[2];
    uint32_t seq;
    uint64_t v[2][2];
    uint64_t change;
} diff_match;

typedef struct diff_rows {
    diff_match *rows;
    size_t n, uncut;
} diff_rows;

typedef struct diff_pair {
    diff_rows t[TK_CFG_DIFF_NTABLES];
    uint64_t instructions[2];
} diff_pair;

struct tk_cfg_diff {
    const tk_cfg *g[2];
    uint32_t npairs;
    diff_pair *pairs;
    uint64_t differences;
};

/* What a pair's rows are measured with on one side: the instructions of each routine (its
 * own blocks), and the instructions and block executions of each image. */
typedef struct diff_side {
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    uint64_t *routine_instrs, *image_instrs, *image_execs;
} diff_side;

static void side_free(diff_side *s)
{
    tk_free(s->routine_instrs);
    tk_free(s->image_instrs);
    tk_free(s->image_execs);
}

/* The sums of side s. Returns 1, or 0 when out of memory. */
static int side_sums(diff_side *s, const tk_cfg *cfg, const tk_cfg_process *p)
{
    s->cfg = cfg;
    s->p = p;
    s->routine_instrs = tk_calloc(p->nroutines ? p->nroutines : 1, sizeof *s->routine_instrs);
    s->image_instrs = tk_calloc(p->nimages ? p->nimages : 1, sizeof *s->image_instrs);
    s->image_execs = tk_calloc(p->nimages ? p->nimages : 1, sizeof *s->image_execs);
    if (!s->routine_instrs || !s->image_instrs || !s->image_execs) return 0;
    for (uint32_t i = 0; i < p->nimages; i++) {
        const tk_cfg_image *im = &p->images[i];
        for (uint32_t k = 0; k < im->nblocks; k++) {
            const tk_cfg_block *b = &p->blocks[im->first_block + k];
            s->image_instrs[i] += b->count * b->num_instrs;
            s->image_execs[i] += b->count;
            if (b->routine < p->nroutines)
                s->routine_instrs[b->routine] += b->count * b->num_instrs;
        }
    }
    return 1;
}

/* Row index n of table t on side s: its count (executions, calls) and instructions. */
static void measure(const diff_side *s, tk_cfg_diff_table t, uint32_t n, uint64_t v[2])
{
    const tk_cfg_process *p = s->p;
    v[0] = v[1] = 0;
    if (n == TK_CFG_NONE) return;
    if (t == TK_CFG_DIFF_IMAGES) {
        v[0] = s->image_execs[n];
        v[1] = s->image_instrs[n];
    } else if (t == TK_CFG_DIFF_ROUTINES) {
        v[0] = tk_cfg_stored_routine_entry_count(p, &p->routines[n]);
        v[1] = s->routine_instrs[n];
    } else if (t == TK_CFG_DIFF_BLOCKS) {
        v[0] = p->blocks[n].count;
        v[1] = p->blocks[n].count * p->blocks[n].num_instrs;
    } else {
        v[0] = cfg_edge_count(p, &p->edges[n]);
    }
}

static uint64_t distance(uint64_t x, uint64_t y) { return x > y ? x - y : y - x; }

/* Largest change first, then key order. */
static int cmp_change(const void *x, const void *y)
{
    const diff_match *p = x, *q = y;
    if (p->change != q->change) return p->change > q->change ? -1 : 1;
    return (p->seq > q->seq) - (p->seq < q->seq);
}

/* Table t of the pair of sides s: the keys of both merged, the rows kept, ordered and cut.
 * Returns 1, or 0 when out of memory. */
static int diff_table(tk_cfg_diff *d, const diff_side s[2], tk_cfg_diff_table t,
                      const tk_cfg_diff_options *o, diff_rows *out)
{
    uint32_t n[2];
    diff_key *k0 = table_keys(s[0].cfg, s[0].p, t, &n[0]);
    diff_key *k1 = k0 ? table_keys(s[1].cfg, s[1].p, t, &n[1]) : NULL;
    out->rows = k1 ? tk_malloc(sizeof *out->rows * ((size_t)n[0] + n[1] + 1)) : NULL;
    if (!out->rows) {
        tk_free(k0);
        tk_free(k1);
        return 0;
    }
    uint32_t i = 0, j = 0, seq = 0;
    out->n = 0;
    while (i < n[0] || j < n[1]) {
        int c = i == n[0] ? 1 : j == n[1] ? -1 : cmp_match(&k0[i], &k1[j]);
        diff_match m = {{TK_CFG_NONE, TK_CFG_NONE}, seq++, {{0, 0}, {0, 0}}, 0};
        if (c <= 0) m.i[0] = k0[i++].index;
        if (c >= 0) m.i[1] = k1[j++].index;
        uint64_t *v0 = m.v[0], *v1 = m.v[1];
        measure(&s[0], t, m.i[0], v0);
        measure(&s[1], t, m.i[1], v1);
        int differ = c != 0 || v0[0] != v1[0] || v0[1] != v1[1];
        if (differ && (t == TK_CFG_DIFF_BLOCKS || t == TK_CFG_DIFF_EDGES)) d->differences++;
        if (!differ && !o->equal) continue;
        m.change = t == TK_CFG_DIFF_EDGES ? distance(v0[0], v1[0]) : distance(v0[1], v1[1]);
        out->rows[out->n++] = m;
    }
    tk_free(k0);
    tk_free(k1);
    qsort(out->rows, out->n, sizeof *out->rows, cmp_change);
    out->uncut = out->n;
    if (o->top && out->n > o->top) out->n = (size_t)o->top;
    return 1;
}

/* Pair pi: its totals and tables. Returns 1, or 0 when out of memory. */
static int diff_pair_of(tk_cfg_diff *d, uint32_t pi, const tk_cfg_diff_options *o)
{
    diff_pair *dp = &d->pairs[pi];
    diff_side s[2];
    memset(s, 0, sizeof s);
    int ok = 1;
    for (int k = 0; k < 2 && ok; k++) {
        const tk_cfg_process *p = &d->g[k]->processes[pi];
        dp->instructions[k] = tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0});
        ok = side_sums(&s[k], d->g[k], p);
    }
    for (int t = 0; t < TK_CFG_DIFF_NTABLES && ok; t++)
        ok = diff_table(d, s, (tk_cfg_diff_table)t, o, &dp->t[t]);
    side_free(&s[0]);
    side_free(&s[1]);
    return ok;
}

tk_status tk_cfg_diff_open(tk_cfg_diff **out, const tk_cfg *a, const tk_cfg *b,
                           const tk_cfg_diff_options *opt, tk_error *err)
{
    tk_cfg_diff_options o = TK_CFG_DIFF_OPTIONS_INIT;
    if (opt) o = *opt;
    tk_cfg_diff *d = tk_calloc(1, sizeof *d);
    *out = NULL;
    if (!d) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    d->g[0] = a;
    d->g[1] = b;
    d->npairs = a->nprocesses < b->nprocesses ? a->nprocesses : b->nprocesses;
    d->differences = a->nprocesses != b->nprocesses;
    d->pairs = tk_calloc(d->npairs ? d->npairs : 1, sizeof *d->pairs);
    int ok = d->pairs != NULL;
    for (uint32_t pi = 0; ok && pi < d->npairs; pi++) ok = diff_pair_of(d, pi, &o);
    if (!ok) {
        tk_cfg_diff_free(d);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    *out = d;
    return TK_OK;
}

uint32_t tk_cfg_diff_pairs(const tk_cfg_diff *d) { return d->npairs; }

void tk_cfg_diff_pair_get(const tk_cfg_diff *d, uint32_t pair, tk_cfg_diff_pair *out)
{
    for (int k = 0; k < 2; k++) {
        out->pid[k] = d->g[k]->processes[pair].pid;
        out->instructions[k] = d->pairs[pair].instructions[k];
    }
}

size_t tk_cfg_diff_rows(const tk_cfg_diff *d, uint32_t pair, tk_cfg_diff_table t)
{
    return d->pairs[pair].t[t].n;
}

size_t tk_cfg_diff_rows_uncut(const tk_cfg_diff *d, uint32_t pair, tk_cfg_diff_table t)
{
    return d->pairs[pair].t[t].uncut;
}

/* Side k's row n of table t into *r (the names from the first side that has them). */
static void side_row(const tk_cfg *cfg, const tk_cfg_process *p, tk_cfg_diff_table t, uint32_t n,
                     int k, tk_cfg_diff_row *r)
{
    r->has[k] = 1;
    int first = !r->has[0] || k == 0;
    if (t == TK_CFG_DIFF_IMAGES) {
        r->id[k] = r->image = p->images[n].id;
        if (first) r->name = tk_cfg_file_name(cfg, p->images[n].file_name_id);
        return;
    }
    if (t == TK_CFG_DIFF_EDGES) {
        const tk_cfg_edge *e = &p->edges[n];
        r->id[k] = e->id;
        if (!first) return;
        r->name = tk_cfg_stored_edge_type_name(cfg, e);
        r->source = e->src == TK_CFG_NONE ? 0 : tk_cfg_node_id(cfg, p, e->src);
        r->target = e->tgt == TK_CFG_NONE ? 0 : tk_cfg_node_id(cfg, p, e->tgt);
        return;
    }
    uint32_t b = t == TK_CFG_DIFF_ROUTINES ? p->routines[n].entry : n;
    r->id[k] = p->blocks[b].id;
    if (!first) return;
    r->image = p->images[tk_cfg_block_image(p, b)].id;
    r->offset = p->blocks[b].addr_offset;
    r->name = tk_cfg_block_symbol(cfg, p, b, &r->symbol_offset);
}

void tk_cfg_diff_row_get(const tk_cfg_diff *d, uint32_t pair, tk_cfg_diff_table t, size_t i,
                         tk_cfg_diff_row *out)
{
    const diff_match *m = &d->pairs[pair].t[t].rows[i];
    memset(out, 0, sizeof *out);
    for (int k = 0; k < 2; k++) {
        if (m->i[k] == TK_CFG_NONE) continue;
        side_row(d->g[k], &d->g[k]->processes[pair], t, m->i[k], k, out);
        out->count[k] = m->v[k][0];
        out->instructions[k] = m->v[k][1];
    }
    out->change = m->change;
}

uint64_t tk_cfg_diff_differences(const tk_cfg_diff *d) { return d->differences; }

uint32_t tk_cfg_diff_process_count(const tk_cfg_diff *d, int side)
{
    return d->g[side ? 1 : 0]->nprocesses;
}

void tk_cfg_diff_free(tk_cfg_diff *d)
{
    if (!d) return;
    for (uint32_t pi = 0; d->pairs && pi < d->npairs; pi++)
        for (int t = 0; t < TK_CFG_DIFF_NTABLES; t++) tk_free(d->pairs[pi].t[t].rows);
    tk_free(d->pairs);
    tk_free(d);
}
