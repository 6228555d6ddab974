/* The counts of DCFGs of one program (tracekit/dcfg_counts.h): made of a model, and applied
 * to the first model when every input's graph is part of its graph. A partial's images,
 * symbols, source lines, blocks and edges are in the order of their keys (the key of an image
 * is its name and size; of a block, its image's position, offset, size, instructions and last
 * instruction; of an edge, its ends' positions and its type's name), so that two graphs are
 * the same when their tables are equal row by row. Merging is dcfg_counts_merge.c's, the
 * union DCFG dcfg_counts_union.c's. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dcfg_counts_impl.h"
#include "core/alloc.h"
#include "core/compat.h"
#include "core/num.h"
#include "model/cfg_internal.h"

tk_dcfg_counts *tk_dc_new(const char *path)
{
    tk_dcfg_counts *c = tk_calloc(1, sizeof *c);
    size_t n = path ? strlen(path) : 0;
    if (c) c->paths = tk_malloc(sizeof *c->paths);
    if (c && c->paths) c->paths[0] = tk_malloc(n + 1);
    if (!c || !c->paths || !c->paths[0]) {
        if (c) tk_free(c->paths);
        tk_free(c);
        return NULL;
    }
    memcpy(c->paths[0], path ? path : "", n + 1);
    c->npaths = 1;
    return c;
}

void tk_dc_process_release(tk_dc_process *p)
{
    for (uint32_t k = 0; p->images && k < p->nimages; k++) {
        tk_free(p->images[k].symbols);
        tk_free(p->images[k].sources);
    }
    tk_free(p->per_thread);
    tk_free(p->images);
    tk_free(p->blocks);
    tk_free(p->edges);
    tk_free(p->counts);
    memset(p, 0, sizeof *p);
}

void tk_dcfg_counts_free(tk_dcfg_counts *c)
{
    if (!c) return;
    for (uint32_t i = 0; i < c->nprocesses; i++) tk_dc_process_release(&c->procs[i]);
    for (uint32_t i = 0; i < c->nnames; i++) tk_free(c->names[i]);
    for (uint32_t i = 0; i < c->npaths; i++) tk_free(c->paths[i]);
    tk_free(c->names);
    tk_free(c->paths);
    tk_free(c->procs);
    tk_free(c);
}

/* ---- the names ----------------------------------------------------------------------- */

static int edge_resolved(const tk_cfg_process *p, const tk_cfg_edge *e)
{
    return e->src < p->nnodes && e->tgt < p->nnodes && e->type != TK_CFG_NONE;
}

static const char *image_name(const tk_cfg *cfg, const tk_cfg_image *im)
{
    const char *s = tk_cfg_file_name(cfg, im->file_name_id);
    return s ? s : "";
}

static const char *node_name(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t node)
{
    return cfg_str(cfg, cfg->specials[node - p->nblocks].name);
}

/* The file of source line s (NULL when FILE_NAMES lacks it: the line is left out). */
static const char *source_file(const tk_cfg *cfg, const tk_cfg_source *s)
{
    return tk_cfg_file_name(cfg, s->file_name_id);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Every name the partial refers to, ascending, each once (copied). */
static tk_status collect_names(tk_dcfg_counts *c, const tk_cfg *cfg)
{
    size_t n = 0, cap = 0;
    for (uint32_t i = 0; i < cfg->nprocesses; i++)
        cap += cfg->processes[i].nimages + 3 * (size_t)cfg->processes[i].nedges +
               cfg->processes[i].nsymbols + cfg->processes[i].nsources;
    const char **all = tk_malloc((cap ? cap : 1) * sizeof *all);
    if (!all) return TK_ERR_NOMEM;
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        const tk_cfg_process *p = &cfg->processes[i];
        for (uint32_t k = 0; k < p->nimages; k++) all[n++] = image_name(cfg, &p->images[k]);
        for (uint32_t k = 0; k < p->nsymbols; k++) all[n++] = cfg_str(cfg, p->symbols[k].name);
        for (uint32_t k = 0; k < p->nsources; k++)
            if (source_file(cfg, &p->sources[k])) all[n++] = source_file(cfg, &p->sources[k]);
        for (uint32_t e = 0; e < p->nedges; e++) {
            const tk_cfg_edge *ed = &p->edges[e];
            if (!edge_resolved(p, ed)) continue;
            all[n++] = cfg_str(cfg, cfg->edge_types[ed->type].name);
            if (ed->src >= p->nblocks) all[n++] = node_name(cfg, p, ed->src);
            if (ed->tgt >= p->nblocks) all[n++] = node_name(cfg, p, ed->tgt);
        }
    }
    if (n) qsort(all, n, sizeof *all, cmp_str);
    c->names = tk_malloc((n ? n : 1) * sizeof *c->names);
    tk_status st = c->names ? TK_OK : TK_ERR_NOMEM;
    for (size_t k = 0; k < n && st == TK_OK; k++) {
        if (c->nnames && strcmp(c->names[c->nnames - 1], all[k]) == 0) continue;
        size_t len = strlen(all[k]);
        char *s = tk_malloc(len + 1);
        if (!s) {
            st = TK_ERR_NOMEM;
            break;
        }
        memcpy(s, all[k], len + 1);
        c->names[c->nnames++] = s;
    }
    tk_free(all);
    return st;
}

static uint32_t name_index(const tk_dcfg_counts *c, const char *s)
{
    uint32_t lo = 0, hi = c->nnames;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int d = strcmp(c->names[mid], s);
        if (d == 0) return mid;
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return TK_CFG_NONE; /* cannot happen: every name was collected */
}

/* ---- a process's tables in the order of their keys ----------------------------------- */

#define CMP(a, b) \
    if ((a) != (b)) return (a) < (b) ? -1 : 1

static int cmp_image(const void *x, const void *y, void *ctx)
{
    const tk_dcfg_counts *c = ctx;
    const tk_dc_image *a = x, *b = y;
    int d = strcmp(c->names[a->name], c->names[b->name]);
    if (d) return d;
    CMP(a->size, b->size);
    return 0;
}

static int cmp_block(const void *x, const void *y)
{
    const tk_dc_block *a = x, *b = y;
    CMP(a->image, b->image);
    CMP(a->offset, b->offset);
    CMP(a->size, b->size);
    CMP(a->num_instrs, b->num_instrs);
    CMP(a->last, b->last);
    return 0;
}

static int cmp_edge(const void *x, const void *y)
{
    const tk_dc_edge *a = x, *b = y;
    CMP(a->src, b->src);
    CMP(a->tgt, b->tgt);
    CMP(a->type, b->type);
    return 0;
}

static tk_status dup_error(const tk_dcfg_counts *c, tk_error *err, uint64_t pid, const char *what)
{
    return tk_error_set_at(err, TK_ERR_FORMAT, c->paths[0], -1, 0, 0,
                           "process %" PRIu64 ": %s: DCFGs with such rows are not merged", pid,
                           what);
}

static int cmp_symbol(const void *x, const void *y)
{
    const tk_dc_symbol *a = x, *b = y;
    CMP(a->offset, b->offset);
    CMP(a->name, b->name);
    CMP(a->size, b->size);
    return 0;
}

static int cmp_source(const void *x, const void *y)
{
    const tk_dc_source *a = x, *b = y;
    CMP(a->offset, b->offset);
    CMP(a->size, b->size);
    CMP(a->file, b->file);
    CMP(a->line, b->line);
    CMP(a->num_instrs, b->num_instrs);
    return 0;
}

/* Sorts n rows of `size` bytes by cmp and drops the repeated ones; returns how many stay. */
static uint32_t sort_unique(void *rows, uint32_t n, size_t size,
                            int (*cmp)(const void *, const void *))
{
    if (n < 2) return n;
    uint8_t *r = rows;
    qsort(r, n, size, cmp);
    uint32_t u = 1;
    for (uint32_t k = 1; k < n; k++)
        if (cmp(r + (size_t)(u - 1) * size, r + (size_t)k * size) != 0) {
            if (u != k) memcpy(r + (size_t)u * size, r + (size_t)k * size, size);
            u++;
        }
    return u;
}

/* The symbols and source lines of image im of p into di. */
static tk_status image_tables(const tk_dcfg_counts *c, const tk_cfg *cfg, const tk_cfg_process *p,
                              const tk_cfg_image *im, tk_dc_image *di)
{
    di->symbols = tk_malloc((im->nsymbols ? im->nsymbols : 1) * sizeof *di->symbols);
    di->sources = tk_malloc((im->nsources ? im->nsources : 1) * sizeof *di->sources);
    if (!di->symbols || !di->sources) return TK_ERR_NOMEM;
    for (uint32_t k = 0; k < im->nsymbols; k++) {
        const tk_cfg_symbol *sy = &p->symbols[im->first_symbol + k];
        di->symbols[k] =
            (tk_dc_symbol){name_index(c, cfg_str(cfg, sy->name)), sy->addr_offset, sy->size};
    }
    di->nsymbols = sort_unique(di->symbols, im->nsymbols, sizeof *di->symbols, cmp_symbol);
    uint32_t n = 0;
    for (uint32_t k = 0; k < im->nsources; k++) {
        const tk_cfg_source *so = &p->sources[im->first_source + k];
        if (!source_file(cfg, so)) continue;
        di->sources[n++] =
            (tk_dc_source){name_index(c, source_file(cfg, so)), so->line_num, so->num_instrs,
                           so->addr_offset, cfg_source_size(p, im->first_source + k)};
    }
    di->nsources = sort_unique(di->sources, n, sizeof *di->sources, cmp_source);
    return TK_OK;
}

/* The images in key order, ranked in file order; pos[i]: the position of image i. */
static tk_status build_images(tk_dcfg_counts *c, const tk_cfg *cfg, const tk_cfg_process *p,
                              tk_dc_process *dp, uint32_t *pos, tk_error *err)
{
    uint32_t n = p->nimages;
    dp->images = tk_calloc(n ? n : 1, sizeof *dp->images);
    tk_dc_image *key = tk_calloc(n ? n : 1, sizeof *key);
    tk_status st = dp->images && key ? TK_OK : TK_ERR_NOMEM;
    for (uint32_t i = 0; st == TK_OK && i < n; i++) {
        const tk_cfg_image *im = &p->images[i];
        key[i].name = name_index(c, image_name(cfg, im));
        key[i].rank = i;
        key[i].size = im->size;
        key[i].load_addr = im->load_addr;
        dp->images[i] = key[i];
    }
    if (st == TK_OK) {
        tk_qsort_r(dp->images, n, sizeof *dp->images, cmp_image, c);
        dp->nimages = n;
        for (uint32_t i = 1; i < n && st == TK_OK; i++)
            if (cmp_image(&dp->images[i - 1], &dp->images[i], c) == 0)
                st = dup_error(c, err, p->pid, "two images with the same file name and size");
    }
    for (uint32_t i = 0; i < n && st == TK_OK; i++) { /* the position of its (distinct) key */
        uint32_t lo = 0, hi = n;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (cmp_image(&dp->images[mid], &key[i], c) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        pos[i] = lo;
        st = image_tables(c, cfg, p, &p->images[i], &dp->images[lo]);
    }
    tk_free(key);
    return st;
}

/* The blocks in key order; pos[b]: the position of block b. */
static tk_status build_blocks(const tk_dcfg_counts *c, const tk_cfg_process *p, tk_dc_process *dp,
                              const uint32_t *image_pos, uint32_t *pos, tk_error *err)
{
    dp->blocks = tk_malloc((p->nblocks ? p->nblocks : 1) * sizeof *dp->blocks);
    if (!dp->blocks) return TK_ERR_NOMEM;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        const tk_cfg_block *bl = &p->blocks[b];
        uint32_t im = tk_cfg_block_image(p, b);
        if (im == TK_CFG_NONE) return dup_error(c, err, p->pid, "a block outside every image");
        dp->blocks[b] = (tk_dc_block){image_pos[im],
                                      cfg_block_size(p, b),
                                      bl->num_instrs,
                                      cfg_block_last_instr_offset(p, b),
                                      0,
                                      bl->id,
                                      b,
                                      (p->block_flags[b] & TK_CFG_BLOCK_HAS_COUNT) != 0,
                                      bl->addr_offset,
                                      bl->count};
    }
    dp->nblocks = p->nblocks;
    if (p->nblocks) qsort(dp->blocks, p->nblocks, sizeof *dp->blocks, cmp_block);
    for (uint32_t k = 0; k < p->nblocks; k++) {
        if (k && cmp_block(&dp->blocks[k - 1], &dp->blocks[k]) == 0)
            return dup_error(c, err, p->pid, "two blocks at the same place of one image");
        pos[dp->blocks[k].orig] = k;
    }
    return TK_OK;
}

static uint32_t node_key(const tk_dcfg_counts *c, const tk_cfg *cfg, const tk_cfg_process *p,
                         const uint32_t *block_pos, uint32_t node)
{
    return node < p->nblocks ? block_pos[node]
                             : p->nblocks + name_index(c, node_name(cfg, p, node));
}

/* The edges whose ends and type resolved, in key order, with their counts. */
static tk_status build_edges(const tk_dcfg_counts *c, const tk_cfg *cfg, const tk_cfg_process *p,
                             tk_dc_process *dp, const uint32_t *block_pos, tk_error *err)
{
    dp->edges = tk_malloc((p->nedges ? p->nedges : 1) * sizeof *dp->edges);
    if (!dp->edges) return TK_ERR_NOMEM;
    uint64_t total = 0;
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (!edge_resolved(p, ed)) continue;
        tk_dc_edge *de = &dp->edges[dp->nedges++];
        de->src = node_key(c, cfg, p, block_pos, ed->src);
        de->tgt = node_key(c, cfg, p, block_pos, ed->tgt);
        de->type = name_index(c, cfg_str(cfg, cfg->edge_types[ed->type].name));
        de->id = ed->id;
        de->orig = e;
        de->nthreads = cfg_edge_nthreads(p, e);
        total += de->nthreads;
    }
    if (dp->nedges) qsort(dp->edges, dp->nedges, sizeof *dp->edges, cmp_edge);
    dp->counts = tk_malloc((total ? total : 1) * sizeof *dp->counts);
    if (!dp->counts) return TK_ERR_NOMEM;
    for (uint32_t k = 0; k < dp->nedges; k++) {
        tk_dc_edge *de = &dp->edges[k];
        if (k && cmp_edge(&dp->edges[k - 1], de) == 0)
            return dup_error(c, err, p->pid, "two edges with the same ends and type");
        de->at = dp->ncounts;
        for (uint32_t t = 0; t < de->nthreads; t++)
            dp->counts[dp->ncounts++] = cfg_edge_count_thread(p, &p->edges[de->orig], t);
    }
    return TK_OK;
}

static tk_status build_process(tk_dcfg_counts *c, const tk_cfg *cfg, const tk_cfg_process *p,
                               tk_dc_process *dp, tk_error *err)
{
    dp->pid = p->pid;
    dp->has_instr_count = p->has_file_instr_count != 0;
    dp->instr_count = p->file_instr_count;
    if (p->file_instr_count_per_thread) {
        dp->has_per_thread = 1;
        dp->nper_thread = p->n_file_instr_count_per_thread;
        dp->per_thread = tk_malloc((dp->nper_thread ? dp->nper_thread : 1) * sizeof(uint64_t));
        if (!dp->per_thread) return TK_ERR_NOMEM;
        if (dp->nper_thread)
            memcpy(dp->per_thread, p->file_instr_count_per_thread,
                   dp->nper_thread * sizeof(uint64_t));
    }
    uint32_t *image_pos = tk_malloc((p->nimages ? p->nimages : 1) * sizeof *image_pos);
    uint32_t *block_pos = tk_malloc((p->nblocks ? p->nblocks : 1) * sizeof *block_pos);
    tk_status st = image_pos && block_pos ? TK_OK : TK_ERR_NOMEM;
    if (st == TK_OK) st = build_images(c, cfg, p, dp, image_pos, err);
    if (st == TK_OK) st = build_blocks(c, p, dp, image_pos, block_pos, err);
    if (st == TK_OK) st = build_edges(c, cfg, p, dp, block_pos, err);
    tk_free(image_pos);
    tk_free(block_pos);
    return st;
}

tk_status tk_dcfg_counts_open(tk_dcfg_counts **out, const tk_cfg *cfg, const char *path,
                              tk_error *err)
{
    *out = NULL;
    tk_dcfg_counts *c = tk_dc_new(path);
    tk_status st = c ? collect_names(c, cfg) : TK_ERR_NOMEM;
    if (st == TK_OK) {
        c->procs = tk_calloc(cfg->nprocesses ? cfg->nprocesses : 1, sizeof *c->procs);
        if (!c->procs) st = TK_ERR_NOMEM;
    }
    for (uint32_t i = 0; st == TK_OK && i < cfg->nprocesses; i++) {
        c->nprocesses++;
        st = build_process(c, cfg, &cfg->processes[i], &c->procs[i], err);
    }
    if (st != TK_OK) {
        tk_dcfg_counts_free(c);
        return st == TK_ERR_NOMEM ? tk_error_set(err, st, "out of memory collecting DCFG counts")
                                  : st;
    }
    *out = c;
    return TK_OK;
}

/* ---- matching ------------------------------------------------------------------------ */

#define MATCH_RULE "the counts apply to a DCFG of the same images, blocks and edges"

typedef struct side {
    const tk_dcfg_counts *c;
    const tk_dc_process *p;
} side;

static tk_status mismatch(const side *a, const side *b, tk_error *err, uint32_t proc,
                          const char *what)
{
    return tk_error_set_at(err, TK_ERR_FORMAT, b->c->paths[0], -1, 0, 0,
                           "process %" PRIu32 " (pid %" PRIu64 "): %s %s (" MATCH_RULE ")", proc,
                           b->p->pid, what, a->c->paths[0]);
}

void tk_dc_describe_block(const tk_dcfg_counts *c, const tk_dc_process *p, uint32_t k, char *buf,
                          size_t n)
{
    const tk_dc_block *b = &p->blocks[k];
    snprintf(buf, n, "block %" PRIu32 " (%s + 0x%" PRIx64 ", %" PRIu32 " instruction%s)", b->id,
             c->names[p->images[b->image].name], b->offset, b->num_instrs,
             b->num_instrs == 1 ? "" : "s");
}

static void describe_block(const side *s, uint32_t k, char *buf, size_t n)
{
    tk_dc_describe_block(s->c, s->p, k, buf, n);
}

static void describe_node(const side *s, uint32_t node, char *buf, size_t n)
{
    if (node < s->p->nblocks)
        snprintf(buf, n, "block %" PRIu32, s->p->blocks[node].id);
    else
        snprintf(buf, n, "%s", s->c->names[node - s->p->nblocks]);
}

static void describe_edge(const side *s, uint32_t k, char *buf, size_t n)
{
    const tk_dc_edge *e = &s->p->edges[k];
    char from[64], to[64];
    describe_node(s, e->src, from, sizeof from);
    describe_node(s, e->tgt, to, sizeof to);
    snprintf(buf, n, "edge %" PRIu32 " (%s from %s to %s)", e->id, s->c->names[e->type], from, to);
}

static int cmp_image_sides(const side *a, uint32_t i, const side *b, uint32_t j)
{
    int d = strcmp(a->c->names[a->p->images[i].name], b->c->names[b->p->images[j].name]);
    if (d) return d;
    CMP(a->p->images[i].size, b->p->images[j].size);
    return 0;
}

/* Nodes of equal block tables compare by position, special nodes by name. */
static int cmp_node_sides(const side *a, uint32_t x, const side *b, uint32_t y)
{
    int ax = x >= a->p->nblocks, by = y >= b->p->nblocks;
    if (ax != by) return ax - by;
    if (!ax) return (x > y) - (x < y);
    return strcmp(a->c->names[x - a->p->nblocks], b->c->names[y - b->p->nblocks]);
}

static int cmp_edge_sides(const side *a, uint32_t i, const side *b, uint32_t j)
{
    const tk_dc_edge *x = &a->p->edges[i], *y = &b->p->edges[j];
    int d = cmp_node_sides(a, x->src, b, y->src);
    if (!d) d = cmp_node_sides(a, x->tgt, b, y->tgt);
    if (!d) d = strcmp(a->c->names[x->type], b->c->names[y->type]);
    return d;
}

typedef int (*cmp_sides_fn)(const side *, uint32_t, const side *, uint32_t);
typedef void (*describe_fn)(const side *, uint32_t, char *, size_t);

static int cmp_block_sides(const side *a, uint32_t i, const side *b, uint32_t j)
{
    return cmp_block(&a->p->blocks[i], &b->p->blocks[j]);
}

static void describe_image(const side *s, uint32_t k, char *buf, size_t n)
{
    snprintf(buf, n, "image %s (%" PRIu64 " bytes)", s->c->names[s->p->images[k].name],
             s->p->images[k].size);
}

/* Two tables of rows in key order: equal, or the error of the first row that differs. */
static tk_status match_rows(const side *a, const side *b, uint32_t proc, uint32_t na, uint32_t nb,
                            cmp_sides_fn cmp, describe_fn describe, tk_error *err)
{
    char row[400], what[480];
    for (uint32_t k = 0; k < na || k < nb; k++) {
        int d = k >= na ? 1 : k >= nb ? -1 : cmp(a, k, b, k);
        if (!d) continue;
        if (d > 0) { /* b's row k comes before a's: a has none such */
            describe(b, k, row, sizeof row);
            snprintf(what, sizeof what, "%s is not in", row);
        } else {
            describe(a, k, row, sizeof row);
            snprintf(what, sizeof what, "nothing matches %s of", row);
        }
        return mismatch(a, b, err, proc, what);
    }
    return TK_OK;
}

/* b matches a (a: the earlier inputs), or the error names what differs. */
static tk_status match(const tk_dcfg_counts *a, const tk_dcfg_counts *b, tk_error *err)
{
    if (a->nprocesses != b->nprocesses)
        return tk_error_set_at(err, TK_ERR_FORMAT, b->paths[0], -1, 0, 0,
                               "%" PRIu32 " process%s, %" PRIu32 " in %s (" MATCH_RULE ")",
                               b->nprocesses, b->nprocesses == 1 ? "" : "es", a->nprocesses,
                               a->paths[0]);
    for (uint32_t i = 0; i < a->nprocesses; i++) {
        side x = {a, &a->procs[i]}, y = {b, &b->procs[i]};
        tk_status st =
            match_rows(&x, &y, i, x.p->nimages, y.p->nimages, cmp_image_sides, describe_image, err);
        if (st == TK_OK)
            st = match_rows(&x, &y, i, x.p->nblocks, y.p->nblocks, cmp_block_sides, describe_block,
                            err);
        if (st == TK_OK)
            st =
                match_rows(&x, &y, i, x.p->nedges, y.p->nedges, cmp_edge_sides, describe_edge, err);
        if (st != TK_OK) return st;
    }
    return TK_OK;
}

/* ---- applying ------------------------------------------------------------------------ */

/* p's edge counts become cp's (bp: p's own partial, the same rows). */
static tk_status apply_edges(tk_cfg_process *p, const tk_dc_process *cp, const tk_dc_process *bp,
                             tk_error *err)
{
    if (cp->ncounts > UINT32_MAX)
        return tk_error_set(err, TK_ERR_LIMIT, "more than 2^32 merged edge counts in a process");
    uint64_t *counts = tk_malloc((cp->ncounts ? cp->ncounts : 1) * sizeof *counts);
    uint32_t *at = tk_calloc(p->nedges ? p->nedges : 1, sizeof *at);
    uint32_t *nt = tk_calloc(p->nedges ? p->nedges : 1, sizeof *nt);
    if (!counts || !at || !nt) {
        tk_free(counts);
        tk_free(at);
        tk_free(nt);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory applying DCFG counts");
    }
    if (cp->ncounts) memcpy(counts, cp->counts, cp->ncounts * sizeof *counts);
    uint32_t threads = 0;
    for (uint32_t k = 0; k < bp->nedges; k++) {
        uint32_t e = bp->edges[k].orig;
        at[e] = (uint32_t)cp->edges[k].at;
        nt[e] = cp->edges[k].nthreads;
        if (nt[e] > threads) threads = nt[e];
    }
    tk_free(p->counts32);
    tk_free(p->counts64);
    tk_free(p->edge_counts);
    tk_free(p->edge_nthreads);
    p->counts32 = NULL;
    p->counts64 = counts;
    p->ncounts = (uint32_t)cp->ncounts;
    p->edge_counts = at;
    p->edge_nthreads = nt;
    p->edge_stride = 0;
    p->nthreads = threads;
    return TK_OK;
}

static tk_status apply_process(tk_cfg *cfg, uint32_t i, const tk_dc_process *cp,
                               const tk_dc_process *bp, const char *path, tk_error *err)
{
    tk_cfg_process *p = &cfg->processes[i];
    tk_status st = apply_edges(p, cp, bp, err);
    if (st != TK_OK) return st;
    for (uint32_t k = 0; k < bp->nblocks; k++) {
        uint32_t b = bp->blocks[k].orig;
        p->blocks[b].count = cp->blocks[k].count;
        p->block_flags[b] = cp->blocks[k].has_count ? TK_CFG_BLOCK_HAS_COUNT : 0;
    }
    p->has_file_instr_count = cp->has_instr_count;
    p->file_instr_count = cp->instr_count;
    tk_free(p->file_instr_count_per_thread);
    p->file_instr_count_per_thread = NULL;
    p->n_file_instr_count_per_thread = 0;
    if (cp->has_per_thread) {
        size_t n = cp->nper_thread;
        p->file_instr_count_per_thread = tk_malloc((n ? n : 1) * sizeof(uint64_t));
        if (!p->file_instr_count_per_thread)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory applying DCFG counts");
        if (n) memcpy(p->file_instr_count_per_thread, cp->per_thread, n * sizeof(uint64_t));
        p->n_file_instr_count_per_thread = cp->nper_thread;
        if (cp->nper_thread > p->nthreads) p->nthreads = cp->nper_thread;
    }
    p->extra_json = 0;
    return tk_cfg_recount(cfg, i, path, err);
}

/* cfg's counts become c's, own being cfg's partial, which matches c. */
static tk_status apply_all(tk_cfg *cfg, const tk_dcfg_counts *c, const tk_dcfg_counts *own,
                           tk_error *err)
{
    tk_status st = TK_OK;
    for (uint32_t i = 0; st == TK_OK && i < cfg->nprocesses; i++)
        st = apply_process(cfg, i, &c->procs[i], &own->procs[i], c->paths[0], err);
    return st;
}

tk_status tk_dcfg_counts_apply(tk_cfg *cfg, const tk_dcfg_counts *c, tk_error *err)
{
    tk_dcfg_counts *own = NULL;
    tk_status st = tk_dcfg_counts_open(&own, cfg, c->paths[0], err);
    if (st == TK_OK) st = match(c, own, err);
    if (st == TK_OK) st = apply_all(cfg, c, own, err);
    tk_dcfg_counts_free(own);
    return st;
}

tk_status tk_dcfg_counts_merged(tk_cfg *first, const tk_dcfg_counts *c, tk_cfg **out, tk_error *err)
{
    *out = NULL;
    if (first) {
        tk_dcfg_counts *own = NULL;
        tk_status st = tk_dcfg_counts_open(&own, first, c->paths[0], err);
        if (st == TK_OK) {
            st = match(c, own, NULL);
            if (st == TK_OK) {
                st = apply_all(first, c, own, err);
                if (st == TK_OK) *out = first;
            }
        }
        tk_dcfg_counts_free(own);
        if (st != TK_ERR_FORMAT) return st; /* else the union */
    }
    return tk_dc_union(out, c, err);
}
