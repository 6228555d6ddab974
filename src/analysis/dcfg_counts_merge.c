/* Merging DCFG counts partials (tk_dcfg_counts_merge): the union of two partials, the later's
 * rows after the earlier's where their keys say, the counts of a row both have summed. Each
 * table of both is in key order and every index (a name's, an image's, a block's) maps to the
 * union's in the same order, so each union is one walk of the two tables. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/dcfg_counts_impl.h"
#include "core/alloc.h"
#include "core/num.h"

#define CMP(a, b) \
    if ((a) != (b)) return (a) < (b) ? -1 : 1

/* The union being made, and how each side's indexes map into it. */
typedef struct side {
    const tk_dcfg_counts *c;
    const tk_dc_process *p;
    uint32_t *names, *images, *blocks; /* into the union's */
    uint32_t input0; /* the union's index of the side's first path */
} side;

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = tk_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* The union's names and paths; a->names, b->names. */
static tk_status union_names(tk_dcfg_counts *u, side *a, side *b)
{
    const tk_dcfg_counts *x = a->c, *y = b->c;
    u->names = tk_malloc(((size_t)x->nnames + y->nnames + 1) * sizeof *u->names);
    u->paths = tk_malloc(((size_t)x->npaths + y->npaths) * sizeof *u->paths);
    a->names = tk_malloc((x->nnames + 1) * sizeof *a->names);
    b->names = tk_malloc((y->nnames + 1) * sizeof *b->names);
    if (!u->names || !u->paths || !a->names || !b->names) return TK_ERR_NOMEM;
    uint32_t i = 0, j = 0;
    while (i < x->nnames || j < y->nnames) {
        int d = i == x->nnames ? 1 : j == y->nnames ? -1 : strcmp(x->names[i], y->names[j]);
        char *s = dup_str(d <= 0 ? x->names[i] : y->names[j]);
        if (!s) return TK_ERR_NOMEM;
        if (d <= 0) a->names[i++] = u->nnames;
        if (d >= 0) b->names[j++] = u->nnames;
        u->names[u->nnames++] = s;
    }
    for (uint32_t k = 0; k < x->npaths + y->npaths; k++) {
        const char *p = k < x->npaths ? x->paths[k] : y->paths[k - x->npaths];
        if (!(u->paths[k] = dup_str(p))) return TK_ERR_NOMEM;
        u->npaths++;
    }
    a->input0 = 0;
    b->input0 = x->npaths;
    return TK_OK;
}

/* ---- images: their symbols and source lines ----------------------------------------------- */

static int cmp_symbol(const side *a, const tk_dc_symbol *x, const side *b, const tk_dc_symbol *y)
{
    CMP(x->offset, y->offset);
    CMP(a->names[x->name], b->names[y->name]);
    CMP(x->size, y->size);
    return 0;
}

static int cmp_source(const side *a, const tk_dc_source *x, const side *b, const tk_dc_source *y)
{
    CMP(x->offset, y->offset);
    CMP(x->size, y->size);
    CMP(a->names[x->file], b->names[y->file]);
    CMP(x->line, y->line);
    CMP(x->num_instrs, y->num_instrs);
    return 0;
}

/* The union of x's and y's symbols and source lines into u (either may be NULL). */
static tk_status union_tables(tk_dc_image *u, const side *a, const tk_dc_image *x, const side *b,
                              const tk_dc_image *y)
{
    uint32_t nx = x ? x->nsymbols : 0, ny = y ? y->nsymbols : 0;
    u->symbols = tk_malloc(((size_t)nx + ny + 1) * sizeof *u->symbols);
    for (uint32_t i = 0, j = 0; u->symbols && (i < nx || j < ny);) {
        int d = i == nx ? 1 : j == ny ? -1 : cmp_symbol(a, &x->symbols[i], b, &y->symbols[j]);
        tk_dc_symbol s = d <= 0 ? x->symbols[i] : y->symbols[j];
        s.name = d <= 0 ? a->names[s.name] : b->names[s.name];
        u->symbols[u->nsymbols++] = s;
        i += d <= 0;
        j += d >= 0;
    }
    nx = x ? x->nsources : 0;
    ny = y ? y->nsources : 0;
    u->sources = tk_malloc(((size_t)nx + ny + 1) * sizeof *u->sources);
    for (uint32_t i = 0, j = 0; u->sources && (i < nx || j < ny);) {
        int d = i == nx ? 1 : j == ny ? -1 : cmp_source(a, &x->sources[i], b, &y->sources[j]);
        tk_dc_source s = d <= 0 ? x->sources[i] : y->sources[j];
        s.file = d <= 0 ? a->names[s.file] : b->names[s.file];
        u->sources[u->nsources++] = s;
        i += d <= 0;
        j += d >= 0;
    }
    return u->symbols && u->sources ? TK_OK : TK_ERR_NOMEM;
}

/* The union's images (key order); those new in b ranked after a's, in b's order. */
static tk_status union_images(tk_dc_process *u, side *a, side *b)
{
    const tk_dc_process *x = a->p, *y = b->p;
    u->images = tk_calloc((size_t)x->nimages + y->nimages + 1, sizeof *u->images);
    a->images = tk_malloc((x->nimages + 1) * sizeof *a->images);
    b->images = tk_malloc((y->nimages + 1) * sizeof *b->images);
    uint32_t *fresh = tk_malloc((y->nimages + 1) * sizeof *fresh); /* by b's rank: union's */
    tk_status st = u->images && a->images && b->images && fresh ? TK_OK : TK_ERR_NOMEM;
    for (uint32_t r = 0; r <= y->nimages && fresh; r++) fresh[r] = TK_CFG_NONE;
    for (uint32_t i = 0, j = 0; st == TK_OK && (i < x->nimages || j < y->nimages);) {
        const tk_dc_image *xi = i < x->nimages ? &x->images[i] : NULL;
        const tk_dc_image *yj = j < y->nimages ? &y->images[j] : NULL;
        int d = !xi ? 1 : !yj ? -1 : 0;
        if (!d && a->names[xi->name] != b->names[yj->name])
            d = a->names[xi->name] < b->names[yj->name] ? -1 : 1;
        if (!d && xi->size != yj->size) d = xi->size < yj->size ? -1 : 1;
        tk_dc_image *ui = &u->images[u->nimages];
        *ui = d <= 0 ? *xi : *yj;
        ui->name = d <= 0 ? a->names[xi->name] : b->names[yj->name];
        ui->symbols = NULL;
        ui->sources = NULL;
        ui->nsymbols = ui->nsources = 0;
        if (d > 0) fresh[yj->rank] = u->nimages;
        st = union_tables(ui, a, d <= 0 ? xi : NULL, b, d >= 0 ? yj : NULL);
        if (d <= 0) a->images[i++] = u->nimages;
        if (d >= 0) b->images[j++] = u->nimages;
        u->nimages++;
    }
    for (uint32_t r = 0, next = x->nimages; st == TK_OK && r < y->nimages; r++)
        if (fresh[r] != TK_CFG_NONE) u->images[fresh[r]].rank = next++;
    tk_free(fresh);
    return st;
}

/* ---- blocks and edges --------------------------------------------------------------------- */

static tk_status over(const tk_dcfg_counts *later, tk_error *err, const tk_dc_process *p,
                      const char *what, uint32_t id)
{
    char row[64];
    if (what)
        snprintf(row, sizeof row, "the counts of %s %" PRIu32, what, id);
    else
        snprintf(row, sizeof row, "INSTR_COUNT");
    return tk_error_set_at(err, TK_ERR_LIMIT, later->paths[0], -1, 0, 0,
                           "process %" PRIu64 ": the sum of %s over the inputs overflows 64 bits",
                           p->pid, row);
}

static int cmp_block(const side *a, const tk_dc_block *x, const side *b, const tk_dc_block *y)
{
    CMP(a->images[x->image], b->images[y->image]);
    CMP(x->offset, y->offset);
    CMP(x->size, y->size);
    CMP(x->num_instrs, y->num_instrs);
    CMP(x->last, y->last);
    return 0;
}

/* The union's blocks; *over: the id (in a) of the first block whose sum overflows, reported
 * after the edges' sums, or TK_CFG_NONE. */
static tk_status union_blocks(tk_dc_process *u, side *a, side *b, uint32_t *over_id)
{
    *over_id = TK_CFG_NONE;
    const tk_dc_process *x = a->p, *y = b->p;
    u->blocks = tk_malloc(((size_t)x->nblocks + y->nblocks + 1) * sizeof *u->blocks);
    a->blocks = tk_malloc((x->nblocks + 1) * sizeof *a->blocks);
    b->blocks = tk_malloc((y->nblocks + 1) * sizeof *b->blocks);
    if (!u->blocks || !a->blocks || !b->blocks) return TK_ERR_NOMEM;
    for (uint32_t i = 0, j = 0; i < x->nblocks || j < y->nblocks;) {
        const tk_dc_block *xi = i < x->nblocks ? &x->blocks[i] : NULL;
        const tk_dc_block *yj = j < y->nblocks ? &y->blocks[j] : NULL;
        int d = !xi ? 1 : !yj ? -1 : cmp_block(a, xi, b, yj);
        tk_dc_block *ub = &u->blocks[u->nblocks];
        *ub = d <= 0 ? *xi : *yj;
        ub->image = d <= 0 ? a->images[xi->image] : b->images[yj->image];
        ub->input += d <= 0 ? a->input0 : b->input0;
        ub->orig = TK_CFG_NONE;
        if (d == 0) {
            if (tk_add_u64(xi->count, yj->count, &ub->count) && *over_id == TK_CFG_NONE)
                *over_id = xi->id;
            ub->has_count = xi->has_count | yj->has_count;
        }
        if (d <= 0) a->blocks[i++] = u->nblocks;
        if (d >= 0) b->blocks[j++] = u->nblocks;
        u->nblocks++;
    }
    return TK_OK;
}

/* An end of an edge of side s in the union's numbering. */
static uint32_t node_of(const tk_dc_process *u, const side *s, uint32_t node)
{
    return node < s->p->nblocks ? s->blocks[node] : u->nblocks + s->names[node - s->p->nblocks];
}

static int cmp_edge(const tk_dc_process *u, const side *a, const tk_dc_edge *x, const side *b,
                    const tk_dc_edge *y)
{
    CMP(node_of(u, a, x->src), node_of(u, b, y->src));
    CMP(node_of(u, a, x->tgt), node_of(u, b, y->tgt));
    CMP(a->names[x->type], b->names[y->type]);
    return 0;
}

/* An edge's counts (x's, y's, either NULL) summed thread by thread into u's. */
static tk_status add_counts(tk_dc_process *u, tk_dc_edge *ue, const side *a, const tk_dc_edge *x,
                            const side *b, const tk_dc_edge *y, tk_error *err)
{
    uint32_t nx = x ? x->nthreads : 0, ny = y ? y->nthreads : 0, nt = nx > ny ? nx : ny;
    ue->at = u->ncounts;
    ue->nthreads = nt;
    for (uint32_t t = 0; t < nt; t++) {
        uint64_t s = t < nx ? a->p->counts[x->at + t] : 0;
        if (t < ny && tk_add_u64(s, b->p->counts[y->at + t], &s))
            return over(b->c, err, a->p, "edge", x->id);
        u->counts[u->ncounts++] = s;
    }
    return TK_OK;
}

static tk_status union_edges(tk_dc_process *u, side *a, side *b, tk_error *err)
{
    const tk_dc_process *x = a->p, *y = b->p;
    u->edges = tk_malloc(((size_t)x->nedges + y->nedges + 1) * sizeof *u->edges);
    u->counts = tk_malloc((x->ncounts + y->ncounts + 1) * sizeof *u->counts);
    if (!u->edges || !u->counts) return TK_ERR_NOMEM;
    tk_status st = TK_OK;
    for (uint32_t i = 0, j = 0; st == TK_OK && (i < x->nedges || j < y->nedges);) {
        const tk_dc_edge *xi = i < x->nedges ? &x->edges[i] : NULL;
        const tk_dc_edge *yj = j < y->nedges ? &y->edges[j] : NULL;
        int d = !xi ? 1 : !yj ? -1 : cmp_edge(u, a, xi, b, yj);
        tk_dc_edge *ue = &u->edges[u->nedges++];
        const side *s = d <= 0 ? a : b;
        *ue = d <= 0 ? *xi : *yj;
        ue->src = node_of(u, s, ue->src);
        ue->tgt = node_of(u, s, ue->tgt);
        ue->type = s->names[ue->type];
        ue->orig = TK_CFG_NONE;
        st = add_counts(u, ue, a, d <= 0 ? xi : NULL, b, d >= 0 ? yj : NULL, err);
        i += d <= 0;
        j += d >= 0;
    }
    return st;
}

/* ---- processes ---------------------------------------------------------------------------- */

/* INSTR_COUNT and INSTR_COUNT_PER_THREAD, kept when both have them. */
static tk_status union_instrs(tk_dc_process *u, const side *a, const side *b, tk_error *err)
{
    const tk_dc_process *x = a->p, *y = b->p;
    u->pid = x->pid;
    u->has_instr_count = x->has_instr_count && y->has_instr_count;
    if (u->has_instr_count && tk_add_u64(x->instr_count, y->instr_count, &u->instr_count))
        return over(b->c, err, x, NULL, 0);
    if (!x->has_per_thread || !y->has_per_thread) return TK_OK;
    uint32_t n = x->nper_thread > y->nper_thread ? x->nper_thread : y->nper_thread;
    u->per_thread = tk_calloc(n ? n : 1, sizeof *u->per_thread);
    if (!u->per_thread) return TK_ERR_NOMEM;
    u->has_per_thread = 1;
    u->nper_thread = n;
    for (uint32_t t = 0; t < n; t++) {
        uint64_t v = t < x->nper_thread ? x->per_thread[t] : 0;
        if (t < y->nper_thread && tk_add_u64(v, y->per_thread[t], &v))
            return over(b->c, err, x, "INSTR_COUNT_PER_THREAD of thread", t);
        u->per_thread[t] = v;
    }
    return TK_OK;
}

/* In the order the sums are checked: edges, blocks, instructions. */
static tk_status union_process(tk_dc_process *u, side *a, side *b, tk_error *err)
{
    uint32_t over_id = TK_CFG_NONE;
    tk_status st = union_images(u, a, b);
    if (st == TK_OK) st = union_blocks(u, a, b, &over_id);
    if (st == TK_OK) st = union_edges(u, a, b, err);
    if (st == TK_OK && over_id != TK_CFG_NONE) st = over(b->c, err, a->p, "block", over_id);
    if (st == TK_OK) st = union_instrs(u, a, b, err);
    tk_free(a->images);
    tk_free(b->images);
    tk_free(a->blocks);
    tk_free(b->blocks);
    a->images = b->images = a->blocks = b->blocks = NULL;
    return st;
}

/* The name of process p's program: its first image in the order of the inputs (the
 * executable, in the DCFGs of SDE and of tracekit record), or NULL without images. */
static const char *program_of(const tk_dcfg_counts *c, const tk_dc_process *p)
{
    for (uint32_t i = 0; i < p->nimages; i++)
        if (p->images[i].rank == 0) return c->names[p->images[i].name];
    return NULL;
}

tk_status tk_dcfg_counts_merge(tk_dcfg_counts *into, const tk_dcfg_counts *later, tk_error *err)
{
    if (into->nprocesses != later->nprocesses)
        return tk_error_set_at(err, TK_ERR_FORMAT, later->paths[0], -1, 0, 0,
                               "%" PRIu32 " process%s, %" PRIu32
                               " in %s (DCFGs merge process by process, in their order)",
                               later->nprocesses, later->nprocesses == 1 ? "" : "es",
                               into->nprocesses, into->paths[0]);
    /* the runs of one program only: another program's code is at other offsets of other
     * images, and its threads are not these; a union of the two would be a process that
     * never ran */
    for (uint32_t i = 0; i < into->nprocesses; i++) {
        const char *x = program_of(into, &into->procs[i]), *y = program_of(later, &later->procs[i]);
        if (x && y && strcmp(x, y) != 0)
            return tk_error_set_at(err, TK_ERR_FORMAT, later->paths[0], -1, 0, 0,
                                   "process %" PRIu32 ": a run of %s, not of %s as %s (DCFGs "
                                   "of one program merge: another's counts are not of the "
                                   "same code)",
                                   i, y[0] ? y : "(no name)", x[0] ? x : "(no name)",
                                   into->paths[0]);
    }
    tk_dcfg_counts *u = tk_calloc(1, sizeof *u);
    side a = {into, NULL, NULL, NULL, NULL, 0}, b = {later, NULL, NULL, NULL, NULL, 0};
    tk_status st = u ? union_names(u, &a, &b) : TK_ERR_NOMEM;
    if (st == TK_OK && !(u->procs = tk_calloc(into->nprocesses + 1, sizeof *u->procs)))
        st = TK_ERR_NOMEM;
    for (uint32_t i = 0; st == TK_OK && i < into->nprocesses; i++) {
        a.p = &into->procs[i];
        b.p = &later->procs[i];
        u->nprocesses++;
        st = union_process(&u->procs[i], &a, &b, err);
    }
    tk_free(a.names);
    tk_free(b.names);
    if (st == TK_OK) { /* into becomes the union, its old content freed with u */
        tk_dcfg_counts old = *into;
        *into = *u;
        *u = old;
    }
    tk_dcfg_counts_free(u);
    if (st == TK_ERR_NOMEM) return tk_error_set(err, st, "out of memory merging DCFG counts");
    return st;
}
