/* The DCFG of the union of the graphs of a counts partial (tk_dc_union, for
 * tk_dcfg_counts_merged): every image, block and edge of any input, the counts of each summed.
 *
 * Runs of one program cut their code into blocks where each run entered it: a block of one
 * run may be two of another, which entered its middle (a branch taken in one run only; a
 * region that starts there). The blocks of one image that overlap are cut where any of them
 * starts or ends; each piece must be a block of some input, with the same instructions in
 * every input that has it, and the pieces of a block must hold its instructions (their
 * counts add up, its last instruction is the last one's): else the inputs conflict, an error
 * naming both blocks and their files. A block cut into pieces counts for each piece; the
 * edges into it go into its first piece, those out of it leave its last, and each piece falls
 * through to the next as often as the block ran on each thread (its in-edges' counts). The
 * routines, dominators and loops are those tk_cfg_finish computes for a DCFG without
 * ROUTINES; ids are new: the special nodes first (START, END, UNKNOWN), then the blocks in
 * the images' order and by address, the edges by their ends. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dcfg_counts_impl.h"
#include "core/alloc.h"
#include "core/num.h"
#include "core/vec.h"
#include "model/cfg_internal.h"

#define RULE "blocks merge when they are the same or one splits into others"

/* A block of the union DCFG: a piece of one or more of the partial's blocks. */
typedef struct piece {
    uint64_t offset, count;
    uint32_t size, num_instrs, last;
    uint8_t has_count, known; /* known: its instructions (else derive() finds them) */
} piece;

/* An edge of the union DCFG: model node indexes, an index of cfg->edge_types. */
typedef struct uedge {
    uint32_t src, tgt, type, nthreads;
    uint64_t at;
} uedge;

typedef TK_VEC(tk_cfg_symbol) symbol_vec;
typedef TK_VEC(tk_cfg_source) source_vec;

typedef struct ub {
    const tk_dcfg_counts *c;
    tk_cfg *cfg;
    tk_error *err;
    uint32_t *file_of, *type_of, *special_of; /* per name: FILE_NAME_ID (0: none yet), indexes */
    uint32_t nfiles, fall_through;
    /* the process being made */
    uint32_t proc;
    const tk_dc_process *dp;
    tk_cfg_process *p;
    uint32_t *first_piece, *last_piece; /* per partial block: model block indexes */
    TK_VEC(piece) pieces;
    TK_VEC(uedge) edges;
    TK_VEC(uint64_t) counts;
} ub;

static tk_status nomem(ub *u)
{
    return tk_error_set(u->err, TK_ERR_NOMEM, "out of memory making the union of DCFGs");
}

/* ---- the tables of names ------------------------------------------------------------------ */

static uint32_t add_string(ub *u, const char *s) { return tk_cfg_add_string(u->cfg, s, strlen(s)); }

/* name's FILE_NAME_ID, given the next one when it has none yet (0: out of memory). */
static uint32_t file_id(ub *u, uint32_t name)
{
    if (u->file_of[name]) return u->file_of[name];
    tk_cfg *cfg = u->cfg;
    tk_cfg_file *t = tk_realloc(cfg->file_names, sizeof *t * ((size_t)cfg->nfile_names + 1));
    if (!t) return 0;
    cfg->file_names = t;
    memset(&t[cfg->nfile_names], 0, sizeof *t);
    t[cfg->nfile_names].id = cfg->nfile_names + 1;
    if ((t[cfg->nfile_names].name = add_string(u, u->c->names[name])) == UINT32_MAX) return 0;
    u->file_of[name] = ++cfg->nfile_names;
    return u->file_of[name];
}

static const char *const special_names[3] = {"START", "END", "UNKNOWN"};

/* Intel's edge types in their order (ids 1 to 26) and START, END, UNKNOWN (1 to 3). */
static tk_status standard_tables(ub *u)
{
    tk_cfg *cfg = u->cfg;
    for (int k = TK_EDGE_ENTRY; k <= TK_EDGE_UNKNOWN; k++) {
        tk_cfg_edge_type *t = &cfg->edge_types[cfg->nedge_types++];
        t->id = cfg->nedge_types;
        t->kind = (tk_edge_kind)k;
        if ((t->name = add_string(u, tk_edge_kind_name(t->kind))) == UINT32_MAX)
            return TK_ERR_NOMEM;
    }
    for (uint32_t k = 0; k < 3; k++) {
        tk_cfg_special *s = &cfg->specials[cfg->nspecials++];
        s->id = cfg->nspecials;
        s->kind = (tk_special_kind)k;
        if ((s->name = add_string(u, special_names[k])) == UINT32_MAX) return TK_ERR_NOMEM;
    }
    u->fall_through = (uint32_t)(TK_EDGE_FALL_THROUGH - TK_EDGE_ENTRY);
    return TK_OK;
}

/* Name i as an edge type (is_type) and a special node (is_node) of the union. */
static tk_status name_roles(ub *u, uint32_t i, int is_type, int is_node)
{
    tk_cfg *cfg = u->cfg;
    const char *s = u->c->names[i];
    u->type_of[i] = u->special_of[i] = TK_CFG_NONE;
    if (is_type) {
        tk_edge_kind k = tk_edge_kind_from_name(s, strlen(s));
        if (k != TK_EDGE_OTHER) {
            u->type_of[i] = (uint32_t)(k - TK_EDGE_ENTRY);
        } else { /* a type of its own, after Intel's */
            tk_cfg_edge_type *t = &cfg->edge_types[cfg->nedge_types];
            t->id = cfg->nedge_types + 1;
            t->kind = TK_EDGE_OTHER;
            if ((t->name = add_string(u, s)) == UINT32_MAX) return TK_ERR_NOMEM;
            u->type_of[i] = cfg->nedge_types++;
        }
    }
    if (is_node) {
        uint32_t k = 0;
        while (k < 3 && strcmp(special_names[k], s) != 0) k++;
        if (k == 3) {
            tk_cfg_special *sp = &cfg->specials[cfg->nspecials];
            sp->id = cfg->nspecials + 1;
            sp->kind = TK_SPECIAL_OTHER;
            if ((sp->name = add_string(u, s)) == UINT32_MAX) return TK_ERR_NOMEM;
            k = cfg->nspecials++;
        }
        u->special_of[i] = k;
    }
    return TK_OK;
}

/* The edge types and the special nodes: Intel's, then any other an edge has. */
static tk_status name_tables(ub *u)
{
    const tk_dcfg_counts *c = u->c;
    tk_cfg *cfg = u->cfg;
    uint32_t n = c->nnames;
    u->file_of = tk_calloc((size_t)n + 1, sizeof *u->file_of);
    u->type_of = tk_malloc(((size_t)n + 1) * sizeof *u->type_of);
    u->special_of = tk_malloc(((size_t)n + 1) * sizeof *u->special_of);
    cfg->edge_types = tk_calloc((size_t)TK_EDGE_UNKNOWN + 1 + n, sizeof *cfg->edge_types);
    cfg->specials = tk_calloc(3 + (size_t)n, sizeof *cfg->specials);
    uint8_t *role = tk_calloc((size_t)n + 1, 1); /* 1: an edge's type, 2: an edge's end */
    tk_status st =
        u->file_of && u->type_of && u->special_of && cfg->edge_types && cfg->specials && role
            ? standard_tables(u)
            : TK_ERR_NOMEM;
    for (uint32_t i = 0; st == TK_OK && i < c->nprocesses; i++) {
        const tk_dc_process *p = &c->procs[i];
        for (uint32_t k = 0; k < p->nedges; k++) {
            const tk_dc_edge *e = &p->edges[k];
            role[e->type] |= 1;
            if (e->src >= p->nblocks) role[e->src - p->nblocks] |= 2;
            if (e->tgt >= p->nblocks) role[e->tgt - p->nblocks] |= 2;
        }
    }
    for (uint32_t i = 0; st == TK_OK && i < n; i++)
        st = name_roles(u, i, role[i] & 1, (role[i] & 2) != 0);
    tk_free(role);
    return st;
}

/* ---- blocks: the overlapping ones cut into pieces ------------------------------------------ */

/* Where block b ends (UINT64_MAX for a block that would end past it). */
static uint64_t end_of(const tk_dc_block *b)
{
    return b->offset + b->size < b->offset ? UINT64_MAX : b->offset + b->size;
}

/* "block ID (IMAGE + 0xOFFSET, N instructions) of PATH" of partial block k. */
static void describe(const ub *u, uint32_t k, char *buf, size_t n)
{
    char b[300];
    tk_dc_describe_block(u->c, u->dp, k, b, sizeof b);
    snprintf(buf, n, "%s of %s", b, u->c->paths[u->dp->blocks[k].input]);
}

/* The error "process N: X WHAT Y of FILE TAIL" that blocks x and y of the partial conflict,
 * X the later input's (at its file). */
static tk_status conflict(ub *u, uint32_t x, uint32_t y, const char *what, const char *tail)
{
    const tk_dc_block *bx = &u->dp->blocks[x], *by = &u->dp->blocks[y];
    if (bx->input < by->input) {
        uint32_t t = x;
        x = y;
        y = t;
    }
    char dx[400], dy[400];
    tk_dc_describe_block(u->c, u->dp, x, dx, sizeof dx);
    describe(u, y, dy, sizeof dy);
    return tk_error_set_at(u->err, TK_ERR_FORMAT, u->c->paths[u->dp->blocks[x].input], -1, 0, 0,
                           "process %" PRIu32 ": %s %s %s%s (" RULE ")", u->proc, dx, what, dy,
                           tail);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* The first block of [lo, hi) at offset `at` of `size` bytes, or hi. */
static uint32_t find_exact(const tk_dc_block *b, uint32_t lo, uint32_t hi, uint64_t at,
                           uint64_t size)
{
    uint32_t l = lo, h = hi;
    while (l < h) {
        uint32_t mid = l + (h - l) / 2;
        if (b[mid].offset < at || (b[mid].offset == at && b[mid].size < size))
            l = mid + 1;
        else
            h = mid;
    }
    return l < hi && b[l].offset == at && b[l].size == size ? l : hi;
}

/* The error that no input has the piece [a, b) of the blocks [lo, hi) as a block, nor do
 * its blocks say its instructions: one of them over it, one that starts or ends inside. */
static tk_status no_piece(ub *u, uint32_t lo, uint32_t hi, uint64_t a, uint64_t b)
{
    const tk_dc_block *bl = u->dp->blocks;
    uint32_t x = lo, y = lo;
    while (x < hi && !(bl[x].offset <= a && end_of(&bl[x]) >= b)) x++;
    while (y < hi && (y == x || (bl[y].offset != a && bl[y].offset != b && end_of(&bl[y]) != a &&
                                 end_of(&bl[y]) != b)))
        y++;
    char tail[160];
    snprintf(tail, sizeof tail,
             ", and no input has its bytes 0x%" PRIx64 "-0x%" PRIx64 " as a block of their own", a,
             b);
    if (x == hi) x = lo;
    if (y == hi) y = x == lo ? lo + 1 : lo;
    return conflict(u, x, y, "overlaps", tail);
}

/* The piece [a, b) of the blocks [lo, hi), which overlap: one of them exactly, the others of
 * its place with the same instructions; or, when none is, a piece not known yet, which
 * derive() fills. */
static tk_status one_piece(ub *u, uint32_t lo, uint32_t hi, uint64_t a, uint64_t b)
{
    const tk_dc_block *bl = u->dp->blocks;
    uint32_t e = find_exact(bl, lo, hi, a, b - a);
    piece pc = {a, 0, (uint32_t)(b - a), 0, 0, 0, 0};
    if (e < hi && e + 1 < hi && bl[e + 1].offset == a && bl[e + 1].size == b - a)
        return conflict(u, e, e + 1, "starts and ends as", " does, with other instructions");
    if (e < hi) {
        pc.num_instrs = bl[e].num_instrs;
        pc.last = bl[e].last;
        pc.known = 1;
    }
    return TK_VEC_PUSH(&u->pieces, pc) ? nomem(u) : TK_OK;
}

/* The pieces of no input's block, from a block over them whose other pieces are known: its
 * instructions less theirs; the last instruction, its own when the piece ends it, else the
 * piece's first when it has one instruction (a block entered after its first instructions by
 * one run, run through by another). pieces[first + k] is the piece [cut[k], cut[k + 1]). */
static tk_status derive(ub *u, uint32_t lo, uint32_t hi, const uint64_t *cut, uint32_t n,
                        uint32_t first)
{
    const tk_dc_block *bl = u->dp->blocks;
    piece *pc = u->pieces.data + first;
    for (int again = 1; again;) {
        again = 0;
        for (uint32_t k = lo; k < hi; k++) {
            uint64_t *at = bsearch(&bl[k].offset, cut, n, sizeof *cut, cmp_u64);
            uint64_t end = end_of(&bl[k]);
            uint64_t *to = bsearch(&end, cut, n, sizeof *cut, cmp_u64);
            if (!at || !to) continue;
            uint32_t i0 = (uint32_t)(at - cut), i1 = (uint32_t)(to - cut), unknown = i1, nu = 0;
            uint64_t known = 0;
            for (uint32_t i = i0; i < i1; i++) {
                if (pc[i].known) {
                    known += pc[i].num_instrs;
                } else {
                    nu++;
                    unknown = i;
                }
            }
            if (nu != 1 || known >= bl[k].num_instrs) continue;
            uint32_t instrs = bl[k].num_instrs - (uint32_t)known;
            uint64_t last = bl[k].offset + bl[k].last;
            if (unknown == i1 - 1 && last >= pc[unknown].offset &&
                last - pc[unknown].offset < pc[unknown].size)
                pc[unknown].last = (uint32_t)(last - pc[unknown].offset);
            else if (instrs != 1)
                continue;
            pc[unknown].num_instrs = instrs;
            pc[unknown].known = 1;
            again = 1;
        }
    }
    for (uint32_t i = 0; i + 1 < n; i++)
        if (!pc[i].known) return no_piece(u, lo, hi, cut[i], cut[i + 1]);
    return TK_OK;
}

/* Block k of the cluster [lo, hi) over pieces [first, first + n) of the model: its
 * instructions theirs, its counts added to theirs. */
static tk_status cover(ub *u, uint32_t lo, uint32_t hi, uint32_t k, uint32_t first, uint32_t n)
{
    const tk_dc_block *b = &u->dp->blocks[k];
    if (n == 0) return conflict(u, k, k == lo ? lo + 1 : lo, "and", " overlap, one of no bytes");
    uint64_t instrs = 0;
    piece *pc = &u->pieces.data[first];
    for (uint32_t i = 0; i < n; i++) instrs += pc[i].num_instrs;
    if (instrs != b->num_instrs || pc[n - 1].offset + pc[n - 1].last != b->offset + b->last) {
        uint32_t other = find_exact(u->dp->blocks, lo, hi, pc[0].offset, pc[0].size);
        if (other == hi || other == k) other = k == lo ? lo + 1 : lo; /* a piece found */
        return conflict(u, k, other, "and", " do not cut into pieces of the same instructions");
    }
    for (uint32_t i = 0; i < n; i++) {
        if (tk_add_u64(pc[i].count, b->count, &pc[i].count))
            return tk_error_set_at(u->err, TK_ERR_LIMIT, u->c->paths[b->input], -1, 0, 0,
                                   "process %" PRIu32 ": the sum of the counts of the blocks at "
                                   "0x%" PRIx64 " overflows 64 bits",
                                   u->proc, pc[i].offset);
        pc[i].has_count |= b->has_count;
    }
    u->first_piece[k] = first;
    u->last_piece[k] = first + n - 1;
    return TK_OK;
}

/* The blocks [lo, hi) of one image, which overlap, cut where any starts or ends. */
static tk_status split(ub *u, uint32_t lo, uint32_t hi)
{
    const tk_dc_block *bl = u->dp->blocks;
    uint32_t m = 0, base = (uint32_t)u->pieces.len;
    uint64_t *cut = tk_malloc(2 * (size_t)(hi - lo) * sizeof *cut);
    if (!cut) return nomem(u);
    for (uint32_t k = lo; k < hi; k++) {
        cut[m++] = bl[k].offset;
        cut[m++] = end_of(&bl[k]);
    }
    qsort(cut, m, sizeof *cut, cmp_u64);
    uint32_t n = 0;
    for (uint32_t k = 0; k < m; k++)
        if (!n || cut[n - 1] != cut[k]) cut[n++] = cut[k];
    tk_status st = TK_OK;
    for (uint32_t k = 0; k + 1 < n && st == TK_OK; k++)
        st = one_piece(u, lo, hi, cut[k], cut[k + 1]);
    if (st == TK_OK) st = derive(u, lo, hi, cut, n, base);
    for (uint32_t k = lo; k < hi && st == TK_OK; k++) {
        uint64_t *at = bsearch(&bl[k].offset, cut, n, sizeof *cut, cmp_u64);
        uint64_t end = end_of(&bl[k]);
        uint64_t *to = bsearch(&end, cut, n, sizeof *cut, cmp_u64);
        if (!at || !to) { /* cannot be: every start and end is a cut */
            st = conflict(u, k, k == lo ? lo + 1 : lo, "and", " overlap where no cut is");
            break;
        }
        st = cover(u, lo, hi, k, base + (uint32_t)(at - cut), (uint32_t)(to - at));
    }
    tk_free(cut);
    return st;
}

/* The blocks [lo, hi) of one image (in key order) as the model's blocks. */
static tk_status image_blocks(ub *u, uint32_t lo, uint32_t hi)
{
    const tk_dc_block *bl = u->dp->blocks;
    tk_status st = TK_OK;
    for (uint32_t k = lo; k < hi && st == TK_OK;) {
        uint32_t next = k + 1;
        uint64_t end = end_of(&bl[k]);
        while (next < hi && bl[next].offset < end) {
            if (end_of(&bl[next]) > end) end = end_of(&bl[next]);
            next++;
        }
        if (next == k + 1) {
            piece pc = {bl[k].offset, bl[k].count,     bl[k].size, bl[k].num_instrs,
                        bl[k].last,   bl[k].has_count, 1};
            u->first_piece[k] = u->last_piece[k] = (uint32_t)u->pieces.len;
            if (TK_VEC_PUSH(&u->pieces, pc)) st = nomem(u);
        } else {
            st = split(u, k, next);
        }
        k = next;
    }
    return st;
}

/* ---- images, symbols, source lines -------------------------------------------------------- */

/* The model's image of partial image `at` (its rank r: image r of the model), its symbols and
 * source lines. */
static tk_status make_image(ub *u, uint32_t at, symbol_vec *syms, source_vec *srcs,
                            int *wide_sources)
{
    const tk_dc_image *di = &u->dp->images[at];
    tk_cfg_image *im = &u->p->images[di->rank];
    im->id = di->rank + 1;
    im->load_addr = di->load_addr;
    im->size = di->size;
    im->file_name_id = u->c->names[di->name][0] ? file_id(u, di->name) : 0;
    if (u->c->names[di->name][0] && !im->file_name_id) return nomem(u);
    im->first_symbol = (uint32_t)syms->len;
    im->nsymbols = di->nsymbols;
    for (uint32_t k = 0; k < di->nsymbols; k++) {
        const tk_dc_symbol *s = &di->symbols[k];
        tk_cfg_symbol cs = {add_string(u, u->c->names[s->name]), di->rank, s->offset, s->size};
        if (cs.name == UINT32_MAX || TK_VEC_PUSH(syms, cs)) return nomem(u);
    }
    im->first_source = (uint32_t)srcs->len;
    im->nsources = di->nsources;
    for (uint32_t k = 0; k < di->nsources; k++) {
        const tk_dc_source *s = &di->sources[k];
        tk_cfg_source cs = {file_id(u, s->file), s->line, s->num_instrs, (uint32_t)s->size,
                            s->offset};
        if (s->size > UINT32_MAX) *wide_sources = 1;
        if (!cs.file_name_id || TK_VEC_PUSH(srcs, cs)) return nomem(u);
    }
    return TK_OK;
}

/* The sizes of the source lines when one is over 32 bits (p->source_sizes). */
static tk_status wide_source_sizes(ub *u)
{
    tk_cfg_process *p = u->p;
    p->source_sizes = tk_malloc((p->nsources ? p->nsources : 1) * sizeof *p->source_sizes);
    if (!p->source_sizes) return nomem(u);
    for (uint32_t i = 0, n = 0; i < u->dp->nimages; i++) {
        const tk_dc_image *di = &u->dp->images[i];
        const tk_cfg_image *im = &p->images[di->rank];
        for (uint32_t k = 0; k < di->nsources; k++, n++)
            p->source_sizes[im->first_source + k] = di->sources[k].size;
    }
    return TK_OK;
}

/* The images in rank order, each with its blocks (cut into pieces), symbols, source lines. */
static tk_status make_images(ub *u)
{
    const tk_dc_process *dp = u->dp;
    tk_cfg_process *p = u->p;
    uint32_t n = dp->nimages;
    uint32_t *by_rank = tk_malloc((n ? n : 1) * sizeof *by_rank);
    uint32_t *first = tk_calloc((size_t)n + 1, sizeof *first); /* by position: its blocks */
    p->images = tk_calloc(n ? n : 1, sizeof *p->images);
    if (!by_rank || !first || !p->images) {
        tk_free(by_rank);
        tk_free(first);
        return nomem(u);
    }
    p->nimages = n;
    for (uint32_t i = 0; i < n; i++) by_rank[dp->images[i].rank] = i;
    for (uint32_t b = 0; b < dp->nblocks; b++) first[dp->blocks[b].image + 1]++;
    for (uint32_t i = 0; i < n; i++) first[i + 1] += first[i];
    symbol_vec syms = {0};
    source_vec srcs = {0};
    int wide = 0;
    tk_status st = TK_OK;
    for (uint32_t r = 0; r < n && st == TK_OK; r++) {
        uint32_t at = by_rank[r];
        p->images[r].first_block = (uint32_t)u->pieces.len;
        st = image_blocks(u, first[at], first[at + 1]);
        p->images[r].nblocks = (uint32_t)u->pieces.len - p->images[r].first_block;
        if (st == TK_OK) st = make_image(u, at, &syms, &srcs, &wide);
    }
    p->symbols = syms.data;
    p->nsymbols = (uint32_t)syms.len;
    p->sources = srcs.data;
    p->nsources = (uint32_t)srcs.len;
    if (st == TK_OK && wide) st = wide_source_sizes(u);
    tk_free(by_rank);
    tk_free(first);
    return st;
}

/* The model's blocks: the pieces, with ids after the special nodes'. */
static tk_status make_blocks(ub *u)
{
    tk_cfg_process *p = u->p;
    uint32_t n = (uint32_t)u->pieces.len, id0 = u->cfg->nspecials + 1;
    if ((uint64_t)n + id0 > UINT32_MAX)
        return tk_error_set(u->err, TK_ERR_LIMIT, "more than 2^32 blocks in a process");
    int wide = 0;
    for (uint32_t b = 0; b < n; b++) wide |= u->pieces.data[b].size > UINT16_MAX;
    p->blocks = tk_calloc(n ? n : 1, sizeof *p->blocks);
    p->block_flags = tk_calloc(n ? n : 1, 1);
    if (wide) p->block_wide = tk_calloc(2 * (size_t)(n ? n : 1), sizeof *p->block_wide);
    if (!p->blocks || !p->block_flags || (wide && !p->block_wide)) return nomem(u);
    p->nblocks = n;
    for (uint32_t b = 0; b < n; b++) {
        const piece *pc = &u->pieces.data[b];
        tk_cfg_block *bl = &p->blocks[b];
        bl->id = id0 + b;
        bl->num_instrs = pc->num_instrs;
        bl->addr_offset = pc->offset;
        bl->count = pc->has_count ? pc->count : 0;
        p->block_flags[b] = pc->has_count ? TK_CFG_BLOCK_HAS_COUNT : 0;
        if (wide) {
            p->block_wide[2 * (size_t)b] = pc->size;
            p->block_wide[2 * (size_t)b + 1] = pc->last;
        } else {
            bl->size16 = (uint16_t)pc->size;
            bl->last16 = (uint16_t)pc->last;
        }
    }
    return TK_OK;
}

/* ---- edges -------------------------------------------------------------------------------- */

static tk_status over_edges(ub *u)
{
    return tk_error_set_at(u->err, TK_ERR_LIMIT, u->c->paths[0], -1, 0, 0,
                           "process %" PRIu32 ": a sum of edge counts over the inputs overflows "
                           "64 bits",
                           u->proc);
}

/* An edge of the model from partial nodes src, tgt (nodes of the partial: blocks or special
 * nodes), its counts n values from v. */
static tk_status add_edge(ub *u, uint32_t src, uint32_t tgt, uint32_t type, const uint64_t *v,
                          uint32_t n)
{
    uedge e = {src, tgt, type, n, u->counts.len};
    for (uint32_t t = 0; t < n; t++)
        if (TK_VEC_PUSH(&u->counts, v[t])) return nomem(u);
    return TK_VEC_PUSH(&u->edges, e) ? nomem(u) : TK_OK;
}

/* A model node of partial node x: as a source (a block's last piece) or a target. */
static uint32_t model_node(const ub *u, uint32_t x, int as_src)
{
    const tk_dc_process *dp = u->dp;
    if (x < dp->nblocks) return as_src ? u->last_piece[x] : u->first_piece[x];
    return (uint32_t)u->pieces.len + u->special_of[x - dp->nblocks];
}

/* How often each block cut into pieces ran, per thread: the sum of its in-edges' counts (of
 * its out-edges' when it has none), nt values a block in flow (by index of `split`). */
static tk_status flows(ub *u, const uint32_t *split, uint32_t nt, uint64_t *in, uint64_t *out)
{
    const tk_dc_process *dp = u->dp;
    for (uint32_t k = 0; k < dp->nedges; k++) {
        const tk_dc_edge *e = &dp->edges[k];
        for (int end = 0; end < 2; end++) {
            uint32_t node = end ? e->src : e->tgt;
            if (node >= dp->nblocks || split[node] == TK_CFG_NONE) continue;
            uint64_t *v = (end ? out : in) + (size_t)split[node] * nt;
            for (uint32_t t = 0; t < e->nthreads; t++)
                if (tk_add_u64(v[t], dp->counts[e->at + t], &v[t])) return over_edges(u);
        }
    }
    return TK_OK;
}

/* The fall-through edges between the pieces of each block cut in pieces. */
static tk_status piece_edges(ub *u, uint32_t nt)
{
    const tk_dc_process *dp = u->dp;
    uint32_t *split = tk_malloc((dp->nblocks ? dp->nblocks : 1) * sizeof *split), n = 0;
    if (!split) return nomem(u);
    for (uint32_t b = 0; b < dp->nblocks; b++)
        split[b] = u->first_piece[b] != u->last_piece[b] ? n++ : TK_CFG_NONE;
    uint64_t *in = tk_calloc((size_t)n * nt + 1, sizeof *in);
    uint64_t *out = tk_calloc((size_t)n * nt + 1, sizeof *out);
    tk_status st = in && out ? flows(u, split, nt, in, out) : nomem(u);
    for (uint32_t b = 0; b < dp->nblocks && st == TK_OK; b++) {
        if (split[b] == TK_CFG_NONE) continue;
        const uint64_t *v = in + (size_t)split[b] * nt;
        int any = 0;
        for (uint32_t t = 0; t < nt; t++) any |= v[t] != 0;
        if (!any) v = out + (size_t)split[b] * nt;
        for (uint32_t pc = u->first_piece[b]; pc < u->last_piece[b] && st == TK_OK; pc++)
            st = add_edge(u, pc, pc + 1, u->fall_through, v, nt);
    }
    tk_free(split);
    tk_free(in);
    tk_free(out);
    return st;
}

static int cmp_uedge(const void *x, const void *y)
{
    const uedge *a = x, *b = y;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    if (a->tgt != b->tgt) return a->tgt < b->tgt ? -1 : 1;
    if (a->type != b->type) return a->type < b->type ? -1 : 1;
    return 0;
}

/* The edges sorted by their ends and type, those of the same ends and type summed. */
static tk_status sum_edges(ub *u, uint64_t **counts, uint64_t *ncounts)
{
    size_t n = u->edges.len, total = 0;
    uedge *e = u->edges.data;
    if (n) qsort(e, n, sizeof *e, cmp_uedge);
    for (size_t k = 0; k < n; k++) total += e[k].nthreads;
    uint64_t *v = tk_calloc(total + 1, sizeof *v);
    if (!v) return nomem(u);
    size_t m = 0, at = 0;
    for (size_t k = 0; k < n; k++) {
        if (m && cmp_uedge(&e[m - 1], &e[k]) == 0) { /* more of the same edge */
            uedge *d = &e[m - 1];
            if (e[k].nthreads > d->nthreads) {
                at += e[k].nthreads - d->nthreads;
                d->nthreads = e[k].nthreads;
            }
            for (uint32_t t = 0; t < e[k].nthreads; t++)
                if (tk_add_u64(v[d->at + t], u->counts.data[e[k].at + t], &v[d->at + t])) {
                    tk_free(v);
                    return over_edges(u);
                }
            continue;
        }
        uedge d = e[k];
        d.at = at;
        for (uint32_t t = 0; t < d.nthreads; t++) v[at + t] = u->counts.data[e[k].at + t];
        at += d.nthreads;
        e[m++] = d;
    }
    u->edges.len = m;
    *counts = v;
    *ncounts = at;
    return TK_OK;
}

/* The model's edges: the partial's between the pieces, and those between pieces; ids in
 * order, counts per thread (64 bits each, as many as each edge has). */
static tk_status make_edges(ub *u)
{
    const tk_dc_process *dp = u->dp;
    tk_cfg_process *p = u->p;
    uint32_t nt = 0;
    tk_status st = TK_OK;
    for (uint32_t k = 0; k < dp->nedges && st == TK_OK; k++) {
        const tk_dc_edge *e = &dp->edges[k];
        if (e->nthreads > nt) nt = e->nthreads;
        st = add_edge(u, model_node(u, e->src, 1), model_node(u, e->tgt, 0), u->type_of[e->type],
                      dp->counts + e->at, e->nthreads);
    }
    if (st == TK_OK) st = piece_edges(u, nt);
    uint64_t *counts = NULL, ncounts = 0;
    if (st == TK_OK) st = sum_edges(u, &counts, &ncounts);
    if (st != TK_OK) return st;
    size_t n = u->edges.len;
    if (n > UINT32_MAX || ncounts > UINT32_MAX) {
        tk_free(counts);
        return tk_error_set(u->err, TK_ERR_LIMIT, "more than 2^32 edges or counts in a process");
    }
    p->counts64 = counts;
    p->ncounts = (uint32_t)ncounts;
    p->edges = tk_calloc(n ? n : 1, sizeof *p->edges);
    p->edge_counts = tk_calloc(n ? n : 1, sizeof *p->edge_counts);
    p->edge_nthreads = tk_calloc(n ? n : 1, sizeof *p->edge_nthreads);
    if (!p->edges || !p->edge_counts || !p->edge_nthreads) return nomem(u);
    p->nedges = (uint32_t)n;
    uint32_t nb = p->nblocks;
    for (size_t k = 0; k < n; k++) {
        const uedge *e = &u->edges.data[k];
        tk_cfg_edge *ed = &p->edges[k];
        ed->id = (uint32_t)k + 1;
        ed->src = e->src < nb ? p->blocks[e->src].id : u->cfg->specials[e->src - nb].id;
        ed->tgt = e->tgt < nb ? p->blocks[e->tgt].id : u->cfg->specials[e->tgt - nb].id;
        ed->type = u->cfg->edge_types[e->type].id;
        p->edge_counts[k] = (uint32_t)e->at;
        p->edge_nthreads[k] = e->nthreads;
        if (e->nthreads > p->nthreads) p->nthreads = e->nthreads;
    }
    return TK_OK;
}

static tk_status make_process(ub *u)
{
    const tk_dc_process *dp = u->dp;
    tk_cfg_process *p = u->p;
    p->pid = dp->pid;
    p->has_file_instr_count = dp->has_instr_count;
    p->file_instr_count = dp->instr_count;
    if (dp->has_per_thread) {
        size_t n = dp->nper_thread;
        p->file_instr_count_per_thread = tk_malloc((n ? n : 1) * sizeof(uint64_t));
        if (!p->file_instr_count_per_thread) return nomem(u);
        if (n) memcpy(p->file_instr_count_per_thread, dp->per_thread, n * sizeof(uint64_t));
        p->n_file_instr_count_per_thread = dp->nper_thread;
    }
    u->first_piece = tk_malloc((dp->nblocks ? dp->nblocks : 1) * sizeof *u->first_piece);
    u->last_piece = tk_malloc((dp->nblocks ? dp->nblocks : 1) * sizeof *u->last_piece);
    if (!u->first_piece || !u->last_piece) return nomem(u);
    tk_status st = make_images(u);
    if (st == TK_OK) st = make_blocks(u);
    if (st == TK_OK) st = make_edges(u);
    return st;
}

static void ub_release(ub *u)
{
    tk_free(u->first_piece);
    tk_free(u->last_piece);
    u->first_piece = u->last_piece = NULL;
    TK_VEC_FREE(&u->pieces);
    TK_VEC_FREE(&u->edges);
    TK_VEC_FREE(&u->counts);
}

tk_status tk_dc_union(tk_cfg **out, const tk_dcfg_counts *c, tk_error *err)
{
    *out = NULL;
    ub u;
    memset(&u, 0, sizeof u);
    u.c = c;
    u.err = err;
    tk_status st = tk_cfg_open(&u.cfg, err);
    if (st != TK_OK) return st;
    u.cfg->has_version = 1;
    u.cfg->major_version = 1;
    u.cfg->minor_version = 0;
    st = name_tables(&u);
    if (st == TK_ERR_NOMEM) st = nomem(&u);
    if (st == TK_OK) {
        u.cfg->processes = tk_calloc(c->nprocesses ? c->nprocesses : 1, sizeof(tk_cfg_process));
        if (!u.cfg->processes) st = nomem(&u);
    }
    for (uint32_t i = 0; st == TK_OK && i < c->nprocesses; i++) {
        u.proc = i;
        u.dp = &c->procs[i];
        u.p = &u.cfg->processes[i];
        u.cfg->nprocesses++;
        st = make_process(&u);
        ub_release(&u);
    }
    if (st == TK_OK) st = tk_cfg_finish(u.cfg, c->paths[0], NULL, err);
    tk_free(u.file_of);
    tk_free(u.type_of);
    tk_free(u.special_of);
    if (st != TK_OK) {
        tk_cfg_free(u.cfg);
        return st;
    }
    *out = u.cfg;
    return TK_OK;
}
