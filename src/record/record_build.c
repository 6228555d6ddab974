/* From a raw file to a process of the cfg model: true basic blocks out of
 * Valgrind's superblocks, typed edges with per-thread counts out of the edge
 * records (docs/record.md, "Blocks" and "Edges").
 *
 * 1. Every instruction of every superblock goes into one table, sorted by
 *    (image, address), duplicates (superblocks overlap) merged.
 * 2. Each edge record marks its target instruction a leader and its source
 *    instruction a block end, unless it is a plain fall-through from an
 *    instruction that is not a control transfer (a superblock cut at
 *    Valgrind's instruction limit) into the next instruction.
 * 3. Blocks are the runs of the table that are contiguous, in one image,
 *    start at a leader or after a block end and hold no other.
 * 4. Each edge record stands for the fall-through edges between the blocks
 *    its source superblock ran through up to the exit, then the exit's own
 *    edge; a thread's end for the same chain, then an EXIT edge. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compat.h"
#include "core/hash.h"
#include "model/cfg_internal.h"
#include "record/record_internal.h"

enum { F_LEADER = 1, F_CUT = 2 };

typedef struct ins {
    uint64_t addr;
    uint32_t image; /* raw image id */
    uint32_t block;
    uint32_t file, line;
    uint32_t sym; /* raw symbol id, 0 none */
    uint8_t len, flags;
} ins;

typedef struct bedge {
    uint32_t src, tgt; /* node indexes: blocks, then START, END, UNKNOWN */
    uint32_t type; /* tk_edge_kind */
    uint32_t next; /* next edge of the same (src, tgt), or UINT32_MAX */
} bedge;

typedef struct bld {
    rec_builder *b;
    const rec_raw *r;
    tk_error *err;
    ins *ins;
    uint32_t nins;
    uint32_t *sb_ins; /* by raw lens index: table index of the instruction */
    uint32_t *block_first; /* nblocks + 1 */
    uint32_t nblocks;
    uint32_t nthreads;
    tk_hmap pairs; /* (src << 32 | tgt) -> first edge */
    TK_VEC(bedge) edges;
    TK_VEC(uint64_t) counts; /* nthreads a edge */
    TK_VEC(uint32_t) chain; /* scratch: the edges of one record */
    uint32_t *routine; /* by block: its routine */
    uint32_t *rentry; /* by routine: entry block */
    uint32_t nroutines;
} bld;

static tk_status nomem(bld *d)
{
    return tk_error_set(d->err, TK_ERR_NOMEM, "out of memory building the DCFG of %s", d->r->path);
}

/* ---- the instruction table ------------------------------------------------------------ */

static int ins_cmp(const void *a, const void *b)
{
    const ins *x = a, *y = b;
    if (x->image != y->image) return x->image < y->image ? -1 : 1;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return 0;
}

static uint32_t ins_find(const bld *d, uint32_t image, uint64_t addr)
{
    uint32_t lo = 0, hi = d->nins;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const ins *m = &d->ins[mid];
        if (m->image < image || (m->image == image && m->addr < addr))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Sorted, merged instructions; each superblock instruction's index; lines. */
static tk_status make_table(bld *d)
{
    const rec_raw *r = d->r;
    size_t n = r->lens.len;
    d->ins = tk_calloc(n ? n : 1, sizeof *d->ins);
    d->sb_ins = tk_malloc(sizeof *d->sb_ins * (n ? n : 1));
    if (!d->ins || !d->sb_ins) return nomem(d);
    size_t k = 0;
    for (size_t s = 0; s < r->sbs.len; s++) {
        const rec_sb *sb = &r->sbs.data[s];
        uint64_t a = sb->addr;
        for (uint32_t i = 0; i < sb->ninstrs; i++) {
            uint8_t len = r->lens.data[sb->lens + i];
            d->ins[k].addr = a;
            d->ins[k].image = sb->image;
            d->ins[k].len = len;
            k++;
            a += len;
        }
    }
    qsort(d->ins, k, sizeof *d->ins, ins_cmp);
    uint32_t u = 0;
    for (size_t i = 0; i < k; i++) /* merge: the first length of an address stays */
        if (!u || ins_cmp(&d->ins[u - 1], &d->ins[i]) != 0) d->ins[u++] = d->ins[i];
    d->nins = u;
    for (size_t s = 0; s < r->sbs.len; s++) {
        const rec_sb *sb = &r->sbs.data[s];
        uint64_t a = sb->addr;
        for (uint32_t i = 0; i < sb->ninstrs; i++) {
            uint32_t at = ins_find(d, sb->image, a);
            d->sb_ins[sb->lens + i] = at;
            a += r->lens.data[sb->lens + i];
        }
        for (uint32_t q = 0; q < sb->nfn; q++) { /* symbols of the runs */
            const rec_src *fn = &r->fns.data[sb->fn + q];
            uint32_t end = q + 1 < sb->nfn ? r->fns.data[sb->fn + q + 1].index : sb->ninstrs;
            for (uint32_t i = fn->index; i < end; i++) {
                ins *in = &d->ins[d->sb_ins[sb->lens + i]];
                if (!in->sym) in->sym = fn->file;
            }
        }
        for (uint32_t q = 0; q < sb->nsrc; q++) { /* source lines of the runs */
            const rec_src *src = &r->srcs.data[sb->src + q];
            uint32_t end = q + 1 < sb->nsrc ? r->srcs.data[sb->src + q + 1].index : sb->ninstrs;
            for (uint32_t i = src->index; i < end; i++) {
                ins *in = &d->ins[d->sb_ins[sb->lens + i]];
                if (!in->file && src->file < r->files.len &&
                    r->files.data[src->file] != UINT32_MAX) {
                    in->file = src->file;
                    in->line = src->line;
                }
            }
        }
    }
    return TK_OK;
}

static inline uint32_t sb_instr(const bld *d, const rec_sb *sb, uint32_t i)
{
    return d->sb_ins[sb->lens + i];
}

static inline const rec_sb *sb_of(const rec_raw *r, uint32_t id) { return &r->sbs.data[id - 1]; }

/* Whether control going through exit x into superblock tgt starts a block:
 * all but a plain fall-through to the next instruction. */
static int is_boundary(const bld *d, const rec_exit *x, uint32_t dyn, const rec_sb *tgt)
{
    if (dyn != REC_DYN_NONE || x->kind == REC_START) return 1;
    if (x->kind != REC_FALL && x->kind != REC_OTHER) return 1;
    const rec_sb *s = sb_of(d->r, x->sb);
    const ins *at = &d->ins[sb_instr(d, s, x->instr)];
    return !(tgt->image == s->image && tgt->addr == at->addr + at->len);
}

/* Leaders and block ends from the edge records and the thread ends. */
static void mark(bld *d)
{
    const rec_raw *r = d->r;
    for (size_t i = 0; i < r->edges.len; i++) {
        const rec_edge *e = &r->edges.data[i];
        const rec_exit *x = &r->exits.data[e->exit];
        const rec_sb *tgt = sb_of(r, e->tgt);
        if (!is_boundary(d, x, e->dyn, tgt)) continue;
        d->ins[sb_instr(d, tgt, 0)].flags |= F_LEADER;
        if (x->kind != REC_START) d->ins[sb_instr(d, sb_of(r, x->sb), x->instr)].flags |= F_CUT;
    }
    for (size_t i = 0; i < r->ends.len; i++) {
        const rec_exit *x = &r->exits.data[r->ends.data[i].exit];
        if (x->kind != REC_START) d->ins[sb_instr(d, sb_of(r, x->sb), x->instr)].flags |= F_CUT;
    }
}

static tk_status make_blocks(bld *d)
{
    d->block_first = tk_malloc(sizeof *d->block_first * ((size_t)d->nins + 1));
    if (!d->block_first) return nomem(d);
    uint32_t nb = 0;
    for (uint32_t i = 0; i < d->nins; i++) {
        const ins *in = &d->ins[i], *prev = i ? &d->ins[i - 1] : NULL;
        if (!prev || prev->image != in->image || prev->addr + prev->len != in->addr ||
            (in->flags & F_LEADER) || (prev->flags & F_CUT))
            d->block_first[nb++] = i;
        d->ins[i].block = nb - 1;
    }
    d->block_first[nb] = d->nins;
    d->nblocks = nb;
    if ((uint64_t)nb + REC_FIRST_BLOCK_ID > 0x7fffffffu)
        return tk_error_set(d->err, TK_ERR_LIMIT, "%s: more blocks than DCFG ids", d->r->path);
    return TK_OK;
}

/* ---- edges --------------------------------------------------------------------------------- */

/* Index of the edge (src, tgt, type), made when new; UINT32_MAX when out of memory. */
static uint32_t edge_get(bld *d, uint32_t src, uint32_t tgt, uint32_t type)
{
    uint64_t key = (uint64_t)src << 32 | tgt;
    int added;
    uint64_t *slot = tk_hmap_slot(&d->pairs, key, UINT32_MAX, &added);
    if (!slot) return UINT32_MAX;
    for (uint32_t e = (uint32_t)*slot; e != UINT32_MAX; e = d->edges.data[e].next)
        if (d->edges.data[e].type == type) return e;
    if (d->edges.len >= 0x7ffffff0u) return UINT32_MAX;
    bedge be = {src, tgt, type, (uint32_t)*slot};
    if (TK_VEC_PUSH(&d->edges, be)) return UINT32_MAX;
    *slot = d->edges.len - 1;
    if (TK_VEC_RESERVE(&d->counts, d->counts.len + d->nthreads)) return UINT32_MAX;
    memset(d->counts.data + d->counts.len, 0, sizeof *d->counts.data * d->nthreads);
    d->counts.len += d->nthreads;
    return (uint32_t)(d->edges.len - 1);
}

static int add(bld *d, uint32_t src, uint32_t tgt, uint32_t type, uint32_t thread, uint64_t count)
{
    uint32_t e = edge_get(d, src, tgt, type);
    if (e == UINT32_MAX || TK_VEC_PUSH(&d->chain, e + 1)) return 0;
    d->counts.data[(size_t)e * d->nthreads + thread] += count;
    return 1;
}

static uint32_t exit_type(const bld *d, const rec_exit *x, uint32_t dyn, const rec_sb *tgt)
{
    if (dyn == REC_DYN_SIGNAL) return TK_EDGE_CONTEXT_CHANGE;
    if (dyn == REC_DYN_SIGRETURN) return TK_EDGE_CONTEXT_CHANGE_RETURN;
    if (x->kind == REC_START) return TK_EDGE_ENTRY;
    const ins *at = &d->ins[sb_instr(d, sb_of(d->r, x->sb), x->instr)];
    int next = tgt->addr == at->addr + at->len;
    switch (x->kind) {
    case REC_COND: return next ? TK_EDGE_FALL_THROUGH : TK_EDGE_DIRECT_CONDITIONAL_BRANCH;
    case REC_JMP: return TK_EDGE_DIRECT_UNCONDITIONAL_BRANCH;
    case REC_IJMP: return TK_EDGE_INDIRECT_UNCONDITIONAL_BRANCH;
    case REC_CALL: return TK_EDGE_DIRECT_CALL;
    case REC_ICALL: return TK_EDGE_INDIRECT_CALL;
    case REC_RET: return TK_EDGE_RETURN;
    case REC_SYS: return TK_EDGE_SYSTEM_CALL_BYPASS;
    case REC_REP: return tgt->addr == at->addr ? TK_EDGE_REP : TK_EDGE_FALL_THROUGH;
    case REC_FALL:
    case REC_OTHER: return next ? TK_EDGE_FALL_THROUGH : TK_EDGE_UNKNOWN;
    default: return TK_EDGE_UNKNOWN;
    }
}

/* The fall-through edges between the blocks superblock sb ran through from
 * its first instruction to instruction last; the block it ends in. */
static int walk(bld *d, const rec_sb *sb, uint32_t last, uint32_t thread, uint64_t count,
                uint32_t *end_block)
{
    uint32_t b = d->ins[sb_instr(d, sb, 0)].block;
    for (uint32_t i = 1; i <= last; i++) {
        uint32_t c = d->ins[sb_instr(d, sb, i)].block;
        if (c != b && !add(d, b, c, TK_EDGE_FALL_THROUGH, thread, count)) return 0;
        b = c;
    }
    *end_block = b;
    return 1;
}

static int record_edges(bld *d, const rec_edge *e)
{
    const rec_raw *r = d->r;
    const rec_exit *x = &r->exits.data[e->exit];
    const rec_sb *tgt = sb_of(r, e->tgt);
    uint32_t tgt_ins = sb_instr(d, tgt, 0), tblock = d->ins[tgt_ins].block;
    if (x->kind == REC_START)
        return add(d, d->nblocks + 0, tblock, TK_EDGE_ENTRY, e->thread, e->count);
    uint32_t from;
    if (!walk(d, sb_of(r, x->sb), x->instr, e->thread, e->count, &from)) return 0;
    int starts = d->block_first[tblock] == tgt_ins;
    if (!is_boundary(d, x, e->dyn, tgt) && !starts) return 1; /* the block goes on */
    return add(d, from, tblock, exit_type(d, x, e->dyn, tgt), e->thread, e->count);
}

/* Append the scratch chain (the edges of one record) to the trace map's
 * edges: its offset and length. */
static int map_put(bld *d, rec_trace_map *m, uint32_t *off, uint32_t *len)
{
    *off = (uint32_t)m->edges.len;
    *len = (uint32_t)d->chain.len;
    if (d->chain.len > UINT16_MAX || m->edges.len + d->chain.len > UINT32_MAX) return 0;
    if (TK_VEC_RESERVE(&m->edges, m->edges.len + d->chain.len)) return 0;
    memcpy(m->edges.data + m->edges.len, d->chain.data, sizeof *d->chain.data * d->chain.len);
    m->edges.len += d->chain.len;
    return 1;
}

static tk_status make_edges(bld *d, rec_trace_map *m)
{
    const rec_raw *r = d->r;
    if (m) {
        m->nrecords = r->max_edge_id + 1;
        m->off = tk_calloc(m->nrecords, sizeof *m->off);
        m->len = tk_calloc(m->nrecords, sizeof *m->len);
        if (!m->off || !m->len) return nomem(d);
    }
    for (size_t i = 0; i < r->edges.len; i++) {
        const rec_edge *e = &r->edges.data[i];
        uint32_t off, len;
        d->chain.len = 0;
        if (!record_edges(d, e)) return nomem(d);
        if (!m) continue;
        if (!map_put(d, m, &off, &len)) return nomem(d);
        m->off[e->id] = off;
        m->len[e->id] = (uint16_t)len;
    }
    for (size_t i = 0; i < r->ends.len; i++) {
        const rec_end *en = &r->ends.data[i];
        const rec_exit *x = &r->exits.data[en->exit];
        uint32_t from, off = 0, len = 0;
        d->chain.len = 0;
        if (x->kind != REC_START) { /* else a thread that never ran */
            if (!walk(d, sb_of(r, x->sb), x->instr, en->thread, 1, &from) ||
                !add(d, from, d->nblocks + 1, TK_EDGE_EXIT, en->thread, 1))
                return nomem(d);
        }
        if (!m) continue;
        if (!map_put(d, m, &off, &len) || TK_VEC_PUSH(&m->ends, off) || TK_VEC_PUSH(&m->ends, len))
            return nomem(d);
    }
    return TK_OK;
}

/* CALL_BYPASS edges: from each call's block to the block at its return
 * address when that ran, count 0 (the spec's rule when the call and the
 * return are in the graph). */
static tk_status bypasses(bld *d)
{
    size_t n = d->edges.len;
    for (size_t e = 0; e < n; e++) {
        bedge be = d->edges.data[e];
        if (be.type != TK_EDGE_DIRECT_CALL && be.type != TK_EDGE_INDIRECT_CALL) continue;
        if (be.src >= d->nblocks) continue;
        const ins *li = &d->ins[d->block_first[be.src + 1] - 1];
        uint32_t at = ins_find(d, li->image, li->addr + li->len);
        if (at >= d->nins || d->ins[at].image != li->image || d->ins[at].addr != li->addr + li->len)
            continue;
        uint32_t rb = d->ins[at].block;
        if (d->block_first[rb] != at) continue;
        if (edge_get(d, be.src, rb, TK_EDGE_CALL_BYPASS) == UINT32_MAX) return nomem(d);
    }
    return TK_OK;
}

/* ---- the cfg process ------------------------------------------------------------------------ */

static uint32_t file_id(bld *d, const char *name)
{
    rec_builder *b = d->b;
    uint32_t before = tk_strpool_count(&b->files);
    uint32_t id = tk_strpool_intern(&b->files, name, strlen(name));
    if (id == TK_STR_NONE) return 0;
    if (id == before) { /* new: a row of FILE_NAMES */
        tk_cfg *cfg = b->cfg;
        tk_cfg_file *t = tk_realloc(cfg->file_names, sizeof *t * ((size_t)cfg->nfile_names + 1));
        if (!t) return 0;
        cfg->file_names = t;
        uint32_t s = tk_cfg_add_string(cfg, name, strlen(name));
        if (s == UINT32_MAX) return 0;
        memset(&t[cfg->nfile_names], 0, sizeof *t);
        t[cfg->nfile_names].id = id + 1;
        t[cfg->nfile_names].name = s;
        cfg->nfile_names++;
    }
    return id + 1;
}

static tk_status fill_blocks(bld *d, tk_cfg_process *p)
{
    int wide = 0;
    for (uint32_t b = 0; b < d->nblocks; b++) {
        const ins *f = &d->ins[d->block_first[b]], *l = &d->ins[d->block_first[b + 1] - 1];
        if (l->addr + l->len - f->addr > UINT16_MAX) wide = 1;
    }
    size_t n = d->nblocks ? d->nblocks : 1;
    p->blocks = tk_calloc(n, sizeof *p->blocks);
    p->block_flags = tk_calloc(n, 1);
    if (wide) p->block_wide = tk_calloc(2 * n, sizeof *p->block_wide);
    if (!p->blocks || !p->block_flags || (wide && !p->block_wide)) return nomem(d);
    p->nblocks = d->nblocks;
    for (uint32_t b = 0; b < d->nblocks; b++) {
        const ins *f = &d->ins[d->block_first[b]], *l = &d->ins[d->block_first[b + 1] - 1];
        tk_cfg_image *im = &p->images[f->image - 1];
        tk_cfg_block *bl = &p->blocks[b];
        if (!im->nblocks) im->first_block = b;
        im->nblocks++;
        uint64_t size = l->addr + l->len - f->addr, last = l->addr - f->addr;
        bl->id = REC_FIRST_BLOCK_ID + b;
        bl->num_instrs = d->block_first[b + 1] - d->block_first[b];
        bl->addr_offset = f->addr - im->load_addr;
        if (wide) {
            p->block_wide[2 * (size_t)b] = (uint32_t)size;
            p->block_wide[2 * (size_t)b + 1] = (uint32_t)last;
        } else {
            bl->size16 = (uint16_t)size;
            bl->last16 = (uint16_t)last;
        }
    }
    /* an image without blocks starts where the blocks before it end: first_block stays
     * monotonic, as tk_cfg_block_image's search needs */
    for (uint32_t i = 0, end = 0; i < p->nimages; i++) {
        tk_cfg_image *im = &p->images[i];
        if (!im->nblocks)
            im->first_block = end;
        else
            end = im->first_block + im->nblocks;
    }
    return TK_OK;
}

/* SOURCE_DATA: runs of contiguous instructions of one file and line. */
static tk_status fill_sources(bld *d, tk_cfg_process *p)
{
    TK_VEC(tk_cfg_source) v = {0};
    const rec_raw *r = d->r;
    for (uint32_t i = 0; i < d->nins; i++) {
        const ins *in = &d->ins[i], *prev = i ? &d->ins[i - 1] : NULL;
        if (!in->file) continue;
        tk_cfg_source *last = v.len ? &v.data[v.len - 1] : NULL;
        if (last && prev && prev->file == in->file && prev->line == in->line &&
            prev->image == in->image && prev->addr + prev->len == in->addr) {
            last->size32 += in->len;
            last->num_instrs++;
            continue;
        }
        tk_cfg_source s;
        memset(&s, 0, sizeof s);
        s.file_name_id = file_id(d, rec_str(r, r->files.data[in->file]));
        if (!s.file_name_id) goto oom;
        s.line_num = in->line;
        s.num_instrs = 1;
        s.size32 = in->len;
        tk_cfg_image *im = &p->images[in->image - 1];
        s.addr_offset = in->addr - im->load_addr;
        if (!im->nsources) im->first_source = (uint32_t)v.len;
        im->nsources++;
        if (TK_VEC_PUSH(&v, s)) goto oom;
    }
    p->sources = v.data;
    p->nsources = (uint32_t)v.len;
    return TK_OK;
oom:
    TK_VEC_FREE(&v);
    return nomem(d);
}

/* Every image of the raw file; the range widened if code ran outside it. */
static tk_status fill_images(bld *d, tk_cfg_process *p)
{
    const rec_raw *r = d->r;
    size_t n = r->images.len;
    p->images = tk_calloc(n ? n : 1, sizeof *p->images);
    if (!p->images) return nomem(d);
    p->nimages = (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        tk_cfg_image *im = &p->images[i];
        im->id = (uint32_t)i + 1;
        im->load_addr = r->images.data[i].lo;
        im->size = r->images.data[i].size;
        im->file_name_id = file_id(d, rec_str(r, r->images.data[i].name));
        if (!im->file_name_id) return nomem(d);
    }
    for (uint32_t i = 0; i < d->nins; i++) {
        const ins *in = &d->ins[i];
        tk_cfg_image *im = &p->images[in->image - 1];
        uint64_t end = im->load_addr + im->size;
        if (in->addr < im->load_addr) {
            im->size += im->load_addr - in->addr;
            im->load_addr = in->addr;
        }
        if (in->addr + in->len > end) im->size = in->addr + in->len - im->load_addr;
    }
    return TK_OK;
}

/* EDGES with their per-thread counts (32 bits while every count fits), and
 * each thread's instructions (INSTR_COUNT_PER_THREAD). */
static tk_status fill_edges(bld *d, tk_cfg_process *p)
{
    size_t n = d->edges.len, nc = n * d->nthreads;
    if (nc > UINT32_MAX)
        return tk_error_set(d->err, TK_ERR_LIMIT, "%s: too many counts", d->r->path);
    int big = 0;
    for (size_t i = 0; i < nc; i++) big |= d->counts.data[i] > UINT32_MAX;
    p->edges = tk_calloc(n ? n : 1, sizeof *p->edges);
    p->file_instr_count_per_thread = tk_calloc(d->nthreads ? d->nthreads : 1, sizeof(uint64_t));
    if (big)
        p->counts64 = tk_malloc(sizeof *p->counts64 * (nc ? nc : 1));
    else
        p->counts32 = tk_malloc(sizeof *p->counts32 * (nc ? nc : 1));
    if (!p->edges || !p->file_instr_count_per_thread || (!p->counts64 && !p->counts32))
        return nomem(d);
    for (size_t i = 0; i < nc; i++) {
        if (big)
            p->counts64[i] = d->counts.data[i];
        else
            p->counts32[i] = (uint32_t)d->counts.data[i];
    }
    p->nedges = (uint32_t)n;
    p->ncounts = (uint32_t)nc;
    p->edge_stride = d->nthreads;
    p->nthreads = p->n_file_instr_count_per_thread = d->nthreads;
    const tk_cfg *cfg = d->b->cfg;
    uint32_t special[3];
    for (uint32_t k = 0; k < 3; k++) special[k] = cfg->specials[k].id;
    for (size_t e = 0; e < n; e++) {
        const bedge *be = &d->edges.data[e];
        tk_cfg_edge *ed = &p->edges[e];
        ed->id = (uint32_t)e + 1;
        uint32_t nb = d->nblocks;
        ed->src = be->src < nb ? REC_FIRST_BLOCK_ID + be->src : special[be->src - nb];
        ed->tgt = be->tgt < nb ? REC_FIRST_BLOCK_ID + be->tgt : special[be->tgt - nb];
        ed->type = cfg->edge_types[be->type].id;
        if (be->tgt >= d->nblocks) continue;
        uint64_t instrs = d->block_first[be->tgt + 1] - d->block_first[be->tgt];
        for (uint32_t t = 0; t < d->nthreads; t++)
            p->file_instr_count_per_thread[t] += d->counts.data[e * d->nthreads + t] * instrs;
    }
    p->has_file_instr_count = 1;
    for (uint32_t t = 0; t < d->nthreads; t++)
        p->file_instr_count += p->file_instr_count_per_thread[t];
    return TK_OK;
}

/* ---- routines ------------------------------------------------------------------------------- */

static int is_intra(uint32_t type)
{
    return !tk_edge_kind_is_any_inter_routine((tk_edge_kind)type);
}

/* Out-edges of each block (CSR): intra-routine edges between blocks only. */
static tk_status intra_adjacency(bld *d, uint32_t **start, uint32_t **adj)
{
    uint32_t nb = d->nblocks;
    *start = tk_calloc((size_t)nb + 1, sizeof **start);
    *adj = tk_malloc(sizeof **adj * (d->edges.len ? d->edges.len : 1));
    if (!*start || !*adj) return nomem(d);
    for (size_t e = 0; e < d->edges.len; e++) {
        const bedge *be = &d->edges.data[e];
        if (be->src < nb && be->tgt < nb && is_intra(be->type)) (*start)[be->src + 1]++;
    }
    for (uint32_t b = 0; b < nb; b++) (*start)[b + 1] += (*start)[b];
    uint32_t *fill = tk_malloc(sizeof *fill * (nb ? nb : 1));
    if (!fill) return nomem(d);
    memcpy(fill, *start, sizeof *fill * nb);
    for (size_t e = 0; e < d->edges.len; e++) {
        const bedge *be = &d->edges.data[e];
        if (be->src < nb && be->tgt < nb && is_intra(be->type)) (*adj)[fill[be->src]++] = be->tgt;
    }
    tk_free(fill);
    return TK_OK;
}

/* Blocks by (image, symbol, rank, address): a group is a symbol's blocks (or
 * an image's blocks without a symbol); rank 0 for the block at the symbol's
 * start, 1 for blocks entered by calls and other inter-routine edges, 2 for
 * the others. */
static int group_cmp(const void *a, const void *b, void *ctx)
{
    const bld *d = ctx;
    uint32_t x = ((const uint32_t *)a)[0], y = ((const uint32_t *)b)[0];
    uint32_t rx = ((const uint32_t *)a)[1], ry = ((const uint32_t *)b)[1];
    const ins *ix = &d->ins[d->block_first[x]], *iy = &d->ins[d->block_first[y]];
    if (ix->image != iy->image) return ix->image < iy->image ? -1 : 1;
    if (ix->sym != iy->sym) return ix->sym < iy->sym ? -1 : 1;
    if (rx != ry) return rx < ry ? -1 : 1;
    return ix->addr < iy->addr ? -1 : ix->addr > iy->addr;
}

static tk_status group_order(bld *d, uint32_t *pairs)
{
    uint32_t nb = d->nblocks;
    for (uint32_t b = 0; b < nb; b++) {
        pairs[2 * b] = b;
        pairs[2 * b + 1] = 2;
    }
    for (size_t e = 0; e < d->edges.len; e++) {
        const bedge *be = &d->edges.data[e];
        if (be->tgt < nb && !is_intra(be->type) && pairs[2 * be->tgt + 1] == 2)
            pairs[2 * be->tgt + 1] = 1;
    }
    for (uint32_t b = 0; b < nb; b++) {
        const ins *in = &d->ins[d->block_first[b]];
        if (in->sym && d->r->syms.data[in->sym - 1].addr == in->addr) pairs[2 * b + 1] = 0;
    }
    tk_qsort_r(pairs, nb, 2 * sizeof *pairs, group_cmp, d);
    return TK_OK;
}

/* Routines: each symbol's blocks, entered at the symbol's start (else its
 * lowest called block), claim by breadth-first search the blocks of the same
 * symbol they reach through intra-routine edges; a block left over (a
 * landing pad reached only from another image, code reached only through a
 * signal) starts a routine of its own. */
static tk_status assign_routines(bld *d)
{
    uint32_t nb = d->nblocks, *start = NULL, *adj = NULL;
    uint32_t *pairs = tk_malloc(sizeof *pairs * 2 * (nb ? nb : 1));
    uint32_t *queue = tk_malloc(sizeof *queue * (nb ? nb : 1));
    d->routine = tk_malloc(sizeof *d->routine * (nb ? nb : 1));
    d->rentry = tk_malloc(sizeof *d->rentry * (nb ? nb : 1));
    tk_status st =
        pairs && queue && d->routine && d->rentry ? intra_adjacency(d, &start, &adj) : nomem(d);
    if (st == TK_OK) st = group_order(d, pairs);
    for (uint32_t b = 0; st == TK_OK && b < nb; b++) d->routine[b] = UINT32_MAX;
    for (uint32_t k = 0; st == TK_OK && k < nb; k++) {
        uint32_t e = pairs[2 * k];
        if (d->routine[e] != UINT32_MAX) continue;
        uint32_t r = d->nroutines++, head = 0, tail = 0;
        const ins *ie = &d->ins[d->block_first[e]];
        d->rentry[r] = e;
        d->routine[e] = r;
        queue[tail++] = e;
        while (head < tail) {
            uint32_t b = queue[head++];
            for (uint32_t q = start[b]; q < start[b + 1]; q++) {
                uint32_t t = adj[q];
                const ins *it = &d->ins[d->block_first[t]];
                if (d->routine[t] != UINT32_MAX || it->image != ie->image || it->sym != ie->sym)
                    continue;
                d->routine[t] = r;
                queue[tail++] = t;
            }
        }
    }
    tk_free(pairs);
    tk_free(queue);
    tk_free(start);
    tk_free(adj);
    return st;
}

/* ROUTINES of each image: entry, exits (blocks with an edge leaving the
 * routine or an inter-routine edge) and nodes; dominators and loops are
 * computed by tk_cfg_finish. */
static tk_status fill_routines(bld *d, tk_cfg_process *p)
{
    uint32_t nb = d->nblocks, nr = d->nroutines;
    uint32_t *count = tk_calloc((size_t)nr + 1, sizeof *count);
    uint8_t *exit = tk_calloc(nb ? nb : 1, 1);
    p->routines = tk_calloc(nr ? nr : 1, sizeof *p->routines);
    p->pool = tk_malloc(sizeof *p->pool * (2 * (size_t)nb + nr + 1));
    if (!count || !exit || !p->routines || !p->pool) {
        tk_free(count);
        tk_free(exit);
        return nomem(d);
    }
    for (size_t e = 0; e < d->edges.len; e++) {
        const bedge *be = &d->edges.data[e];
        if (be->src < nb &&
            (!is_intra(be->type) || be->tgt >= nb || d->routine[be->tgt] != d->routine[be->src]))
            exit[be->src] = 1;
    }
    /* routines in the order of their entries: images' routines are contiguous */
    uint32_t *order = tk_malloc(sizeof *order * (nr ? nr : 1));
    if (!order) {
        tk_free(count);
        tk_free(exit);
        return nomem(d);
    }
    for (uint32_t b = 0, r = 0; b < nb; b++)
        if (d->rentry[d->routine[b]] == b) order[d->routine[b]] = r++;
    for (uint32_t b = 0; b < nb; b++) count[order[d->routine[b]] + 1]++;
    for (uint32_t r = 0; r < nr; r++) count[r + 1] += count[r];
    uint32_t npool = 0;
    for (uint32_t r = 0; r < nr; r++) { /* nodes: count[r] .. count[r + 1] of the pool */
        tk_cfg_routine *ro = &p->routines[r];
        ro->nodes = count[r];
        ro->flags = TK_CFG_COMPUTED;
    }
    for (uint32_t b = 0; b < nb; b++) {
        tk_cfg_routine *ro = &p->routines[order[d->routine[b]]];
        p->pool[ro->nodes + ro->nnodes++] = REC_FIRST_BLOCK_ID + b;
    }
    npool = nb;
    for (uint32_t r = 0; r < nr; r++) {
        tk_cfg_routine *ro = &p->routines[r];
        ro->entry = REC_FIRST_BLOCK_ID + 0; /* set below */
        ro->exits = npool;
        for (uint32_t k = 0; k < ro->nnodes; k++) {
            uint32_t b = p->pool[ro->nodes + k] - REC_FIRST_BLOCK_ID;
            if (exit[b]) p->pool[npool++] = REC_FIRST_BLOCK_ID + b, ro->nexits++;
        }
    }
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t b = d->rentry[r];
        tk_cfg_routine *ro = &p->routines[order[r]];
        ro->entry = REC_FIRST_BLOCK_ID + b;
        ro->image = d->ins[d->block_first[b]].image - 1;
        tk_cfg_image *im = &p->images[ro->image];
        if (!im->nroutines || order[r] < im->first_routine) im->first_routine = order[r];
        im->nroutines++;
    }
    p->nroutines = nr;
    p->npool = npool;
    tk_free(count);
    tk_free(exit);
    tk_free(order);
    return TK_OK;
}

/* ---- symbols ------------------------------------------------------------------------------- */

typedef struct bsym {
    uint32_t image; /* 0-based */
    uint32_t name; /* raw string offset, or UINT32_MAX: made from the address */
    uint64_t addr, end;
} bsym;

static int bsym_cmp(const void *a, const void *b)
{
    const bsym *x = a, *y = b;
    if (x->image != y->image) return x->image < y->image ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* SYMBOLS: those of the instructions that ran (Valgrind's tool interface
 * tells where a symbol starts, not its size: SIZE covers its instructions
 * that ran), and for each routine of code without a symbol (PLT stubs, code
 * made at run time) one named by its address as Valgrind names such code. */
static tk_status fill_symbols(bld *d, tk_cfg_process *p)
{
    const rec_raw *r = d->r;
    size_t ns = r->syms.len;
    bsym *all = tk_calloc(ns + d->nroutines + 1, sizeof *all);
    if (!all) return nomem(d);
    for (size_t i = 0; i < ns; i++) {
        all[i].image = r->syms.data[i].image - 1;
        all[i].name = r->syms.data[i].name;
        all[i].addr = r->syms.data[i].addr;
    }
    for (uint32_t i = 0; i < d->nins; i++) {
        const ins *in = &d->ins[i];
        if (!in->sym) continue;
        bsym *s = &all[in->sym - 1];
        if (s->image == in->image - 1 && in->addr >= s->addr && in->addr + in->len > s->end)
            s->end = in->addr + in->len;
    }
    size_t n = ns;
    for (uint32_t k = 0; k < d->nroutines; k++) {
        uint32_t b = d->rentry[k];
        const ins *f = &d->ins[d->block_first[b]], *l = &d->ins[d->block_first[b + 1] - 1];
        if (f->sym) continue;
        all[n].image = f->image - 1;
        all[n].name = UINT32_MAX;
        all[n].addr = f->addr;
        all[n++].end = l->addr + l->len;
    }
    qsort(all, n, sizeof *all, bsym_cmp);
    tk_status st = TK_OK;
    p->symbols = tk_calloc(n ? n : 1, sizeof *p->symbols);
    if (!p->symbols) st = nomem(d);
    for (size_t i = 0; st == TK_OK && i < n; i++) {
        if (!all[i].end) continue; /* no instruction of it ran */
        tk_cfg_image *im = &p->images[all[i].image];
        tk_cfg_symbol *s = &p->symbols[p->nsymbols];
        char buf[32];
        const char *name = buf;
        if (all[i].name == UINT32_MAX)
            snprintf(buf, sizeof buf, "0x%016" PRIx64, all[i].addr);
        else
            name = rec_str(r, all[i].name);
        s->image = all[i].image;
        s->addr_offset = all[i].addr - im->load_addr;
        s->size = all[i].end - all[i].addr;
        s->name = tk_cfg_add_string(d->b->cfg, name, strlen(name));
        if (s->name == UINT32_MAX) st = nomem(d);
        if (!im->nsymbols) im->first_symbol = p->nsymbols;
        im->nsymbols++;
        p->nsymbols++;
    }
    tk_free(all);
    return st;
}

static tk_status fill_process(bld *d, tk_cfg_process *p)
{
    tk_status st;
    p->pid = d->r->pid;
    if ((st = fill_images(d, p)) != TK_OK || (st = fill_blocks(d, p)) != TK_OK ||
        (st = assign_routines(d)) != TK_OK || (st = fill_routines(d, p)) != TK_OK ||
        (st = fill_symbols(d, p)) != TK_OK || (st = fill_sources(d, p)) != TK_OK)
        return st;
    return fill_edges(d, p);
}

static void bld_free(bld *d)
{
    tk_free(d->routine);
    tk_free(d->rentry);
    tk_free(d->ins);
    tk_free(d->sb_ins);
    tk_free(d->block_first);
    tk_hmap_free(&d->pairs);
    TK_VEC_FREE(&d->edges);
    TK_VEC_FREE(&d->counts);
    TK_VEC_FREE(&d->chain);
}

tk_status tk_rec_build_process(rec_builder *b, const rec_raw *r, rec_trace_map *map, tk_error *err)
{
    bld d;
    memset(&d, 0, sizeof d);
    d.b = b;
    d.r = r;
    d.err = err;
    d.nthreads = r->nthreads ? r->nthreads : 1;
    tk_cfg *cfg = b->cfg;
    tk_status st = make_table(&d);
    if (st == TK_OK) {
        mark(&d);
        st = make_blocks(&d);
    }
    if (st == TK_OK) st = make_edges(&d, map);
    if (st == TK_OK) st = bypasses(&d);
    if (st == TK_OK) {
        tk_cfg_process *t = tk_realloc(cfg->processes, sizeof *t * ((size_t)cfg->nprocesses + 1));
        if (!t)
            st = nomem(&d);
        else
            cfg->processes = t;
    }
    if (st == TK_OK) {
        tk_cfg_process *p = &cfg->processes[cfg->nprocesses++];
        memset(p, 0, sizeof *p);
        st = fill_process(&d, p);
    }
    bld_free(&d);
    return st;
}

/* ---- the builder ------------------------------------------------------------------------ */

static const char *const special_names[3] = {"START", "END", "UNKNOWN"};

tk_status tk_rec_builder_init(rec_builder *b, tk_error *err)
{
    memset(b, 0, sizeof *b);
    tk_strpool_init(&b->files);
    if (tk_cfg_open(&b->cfg, err) != TK_OK) return TK_ERR_NOMEM;
    tk_cfg *cfg = b->cfg;
    cfg->has_version = 3;
    cfg->major_version = 1;
    cfg->minor_version = 0;
    cfg->edge_types = tk_calloc(TK_EDGE_UNKNOWN + 1, sizeof *cfg->edge_types);
    cfg->specials = tk_calloc(3, sizeof *cfg->specials);
    if (!cfg->edge_types || !cfg->specials) goto oom;
    for (int k = TK_EDGE_ENTRY; k <= TK_EDGE_UNKNOWN; k++) {
        const char *name = tk_edge_kind_name((tk_edge_kind)k);
        tk_cfg_edge_type *t = &cfg->edge_types[cfg->nedge_types++];
        t->id = (uint32_t)k + 1; /* the ids of Intel's files */
        t->kind = (tk_edge_kind)k;
        if ((t->name = tk_cfg_add_string(cfg, name, strlen(name))) == UINT32_MAX) goto oom;
    }
    for (uint32_t k = 0; k < 3; k++) {
        tk_cfg_special *s = &cfg->specials[cfg->nspecials++];
        s->id = REC_NODE_START + k;
        s->kind = (tk_special_kind)k;
        if ((s->name = tk_cfg_add_string(cfg, special_names[k], strlen(special_names[k]))) ==
            UINT32_MAX)
            goto oom;
    }
    return TK_OK;
oom:
    tk_rec_builder_release(b);
    tk_cfg_free(b->cfg);
    b->cfg = NULL;
    return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
}

void tk_rec_builder_release(rec_builder *b) { tk_strpool_free(&b->files); }

void tk_rec_trace_map_free(rec_trace_map *m)
{
    tk_free(m->off);
    tk_free(m->len);
    TK_VEC_FREE(&m->edges);
    TK_VEC_FREE(&m->ends);
    memset(m, 0, sizeof *m);
}
