/* A DCFG counts partial as bytes and back (tk_dcfg_counts_serialize, _deserialize): a
 * canonical form, so that equal partials give equal bytes and bytes that read back write
 * themselves again. LEB128 varints in their shortest form; strings as their length and bytes;
 * the names ascending and each used; the rows in the order of their keys, each key once. */
#include <string.h>

#include "analysis/dcfg_counts_impl.h"
#include "core/alloc.h"
#include "core/bytes.h"

static const uint8_t magic[5] = {'T', 'K', 'D', 'C', 1};

/* ---- writing ---------------------------------------------------------------------------- */

static void put_process(tk_bytes_out *b, const tk_dc_process *p)
{
    tk_bytes_put_u64(b, p->pid);
    tk_bytes_put_u64(b, p->has_instr_count);
    if (p->has_instr_count) tk_bytes_put_u64(b, p->instr_count);
    tk_bytes_put_u64(b, p->has_per_thread);
    if (p->has_per_thread) {
        tk_bytes_put_u64(b, p->nper_thread);
        for (uint32_t t = 0; t < p->nper_thread; t++) tk_bytes_put_u64(b, p->per_thread[t]);
    }
    tk_bytes_put_u64(b, p->nimages);
    for (uint32_t k = 0; k < p->nimages; k++) {
        tk_bytes_put_u64(b, p->images[k].name);
        tk_bytes_put_u64(b, p->images[k].size);
    }
    tk_bytes_put_u64(b, p->nblocks);
    for (uint32_t k = 0; k < p->nblocks; k++) {
        const tk_dc_block *x = &p->blocks[k];
        tk_bytes_put_u64(b, x->image);
        tk_bytes_put_u64(b, x->offset);
        tk_bytes_put_u64(b, x->size);
        tk_bytes_put_u64(b, x->num_instrs);
        tk_bytes_put_u64(b, x->id);
        tk_bytes_put_u64(b, x->has_count);
        tk_bytes_put_u64(b, x->count);
    }
    tk_bytes_put_u64(b, p->nedges);
    for (uint32_t k = 0; k < p->nedges; k++) {
        const tk_dc_edge *e = &p->edges[k];
        tk_bytes_put_u64(b, e->src);
        tk_bytes_put_u64(b, e->tgt);
        tk_bytes_put_u64(b, e->type);
        tk_bytes_put_u64(b, e->id);
        tk_bytes_put_u64(b, e->nthreads);
        for (uint32_t t = 0; t < e->nthreads; t++) tk_bytes_put_u64(b, p->counts[e->at + t]);
    }
}

tk_status tk_dcfg_counts_serialize(const tk_dcfg_counts *c, uint8_t **data, size_t *size,
                                   tk_error *err)
{
    *data = NULL;
    *size = 0;
    tk_bytes_out b = {NULL, 0, 0, 0};
    tk_bytes_put(&b, magic, sizeof magic);
    tk_bytes_put_str(&b, c->path);
    tk_bytes_put_u64(&b, c->nnames);
    for (uint32_t i = 0; i < c->nnames; i++) tk_bytes_put_str(&b, c->names[i]);
    tk_bytes_put_u64(&b, c->nprocesses);
    for (uint32_t i = 0; i < c->nprocesses; i++) put_process(&b, &c->procs[i]);
    if (b.failed) {
        tk_free(b.p);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory serialising DCFG counts");
    }
    *data = b.p;
    *size = b.len;
    return TK_OK;
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct rd {
    tk_bytes_in in;
    tk_dcfg_counts *c;
    uint8_t *used; /* per name: referred to */
} rd;

static int get_names(rd *r)
{
    tk_dcfg_counts *c = r->c;
    uint32_t n;
    if (tk_bytes_get_count(&r->in, 1, &n, "the number of names")) return -1;
    c->names = tk_malloc((n ? n : 1) * sizeof *c->names);
    r->used = tk_calloc(n ? n : 1, 1);
    if (!c->names || !r->used) return tk_bytes_nomem(&r->in);
    for (uint32_t i = 0; i < n; i++) {
        if (tk_bytes_get_str(&r->in, &c->names[i])) return -1;
        c->nnames++;
        if (i && strcmp(c->names[i - 1], c->names[i]) >= 0)
            return tk_bytes_fail(&r->in, "names not ascending, or one twice");
    }
    return 0;
}

static int get_name(rd *r, uint32_t *v, const char *what)
{
    uint64_t x;
    if (tk_bytes_get_u64(&r->in, &x, what)) return -1;
    if (x >= r->c->nnames) return tk_bytes_fail(&r->in, what);
    *v = (uint32_t)x;
    r->used[x] = 1;
    return 0;
}

static int get_instr_counts(rd *r, tk_dc_process *p)
{
    uint64_t has, x;
    if (tk_bytes_get_max(&r->in, 1, &has, "whether INSTR_COUNT is there")) return -1;
    p->has_instr_count = (uint8_t)has;
    if (has && tk_bytes_get_u64(&r->in, &p->instr_count, "INSTR_COUNT")) return -1;
    if (tk_bytes_get_max(&r->in, 1, &has, "whether INSTR_COUNT_PER_THREAD is there")) return -1;
    p->has_per_thread = (uint8_t)has;
    if (!has) return 0;
    if (tk_bytes_get_count(&r->in, 1, &p->nper_thread, "the length of INSTR_COUNT_PER_THREAD"))
        return -1;
    p->per_thread = tk_malloc((p->nper_thread ? p->nper_thread : 1) * sizeof *p->per_thread);
    if (!p->per_thread) return tk_bytes_nomem(&r->in);
    for (uint32_t t = 0; t < p->nper_thread; t++) {
        if (tk_bytes_get_u64(&r->in, &x, "an INSTR_COUNT_PER_THREAD")) return -1;
        p->per_thread[t] = x;
    }
    return 0;
}

static int get_images(rd *r, tk_dc_process *p)
{
    uint32_t n;
    if (tk_bytes_get_count(&r->in, 2, &n, "the number of images")) return -1;
    p->images = tk_malloc((n ? n : 1) * sizeof *p->images);
    if (!p->images) return tk_bytes_nomem(&r->in);
    for (uint32_t k = 0; k < n; k++) {
        tk_dc_image *im = &p->images[k];
        if (get_name(r, &im->name, "an image's name") ||
            tk_bytes_get_u64(&r->in, &im->size, "an image's size"))
            return -1;
        p->nimages++;
        if (k) {
            const tk_dc_image *prev = &p->images[k - 1];
            int d = strcmp(r->c->names[prev->name], r->c->names[im->name]);
            if (d > 0 || (d == 0 && prev->size >= im->size))
                return tk_bytes_fail(&r->in, "images not in the order of their keys, or one twice");
        }
    }
    return 0;
}

static int block_before(const tk_dc_block *a, const tk_dc_block *b)
{
    if (a->image != b->image) return a->image < b->image;
    if (a->offset != b->offset) return a->offset < b->offset;
    if (a->size != b->size) return a->size < b->size;
    return a->num_instrs < b->num_instrs;
}

static int get_blocks(rd *r, tk_dc_process *p)
{
    uint32_t n;
    if (tk_bytes_get_count(&r->in, 7, &n, "the number of blocks")) return -1;
    p->blocks = tk_malloc((n ? n : 1) * sizeof *p->blocks);
    if (!p->blocks) return tk_bytes_nomem(&r->in);
    for (uint32_t k = 0; k < n; k++) {
        tk_dc_block *b = &p->blocks[k];
        uint32_t has;
        b->orig = TK_CFG_NONE;
        if (!p->nimages) return tk_bytes_fail(&r->in, "a block without images");
        if (tk_bytes_get_u32(&r->in, p->nimages - 1, &b->image, "a block's image") ||
            tk_bytes_get_u64(&r->in, &b->offset, "a block's offset") ||
            tk_bytes_get_u32(&r->in, UINT32_MAX, &b->size, "a block's size") ||
            tk_bytes_get_u32(&r->in, UINT32_MAX, &b->num_instrs, "a block's instructions") ||
            tk_bytes_get_u32(&r->in, UINT32_MAX, &b->id, "a block's id") ||
            tk_bytes_get_u32(&r->in, 1, &has, "whether a block has a COUNT") ||
            tk_bytes_get_u64(&r->in, &b->count, "a block's count"))
            return -1;
        b->has_count = (uint8_t)has;
        p->nblocks++;
        if (k && !block_before(&p->blocks[k - 1], b))
            return tk_bytes_fail(&r->in, "blocks not in the order of their keys, or one twice");
    }
    return 0;
}

static int edge_before(const tk_dc_edge *a, const tk_dc_edge *b)
{
    if (a->src != b->src) return a->src < b->src;
    if (a->tgt != b->tgt) return a->tgt < b->tgt;
    return a->type < b->type;
}

/* An edge's end: a block's position, or nblocks + a name's index. */
static int get_node(rd *r, const tk_dc_process *p, uint32_t *v)
{
    uint64_t x;
    if (tk_bytes_get_u64(&r->in, &x, "an edge's end")) return -1;
    if (x >= (uint64_t)p->nblocks + r->c->nnames) return tk_bytes_fail(&r->in, "an edge's end");
    *v = (uint32_t)x;
    if (x >= p->nblocks) r->used[x - p->nblocks] = 1;
    return 0;
}

static int get_edges(rd *r, tk_dc_process *p)
{
    uint32_t n;
    if (tk_bytes_get_count(&r->in, 5, &n, "the number of edges")) return -1;
    p->edges = tk_malloc((n ? n : 1) * sizeof *p->edges);
    if (!p->edges) return tk_bytes_nomem(&r->in);
    uint64_t cap = 0;
    for (uint32_t k = 0; k < n; k++) {
        tk_dc_edge *e = &p->edges[k];
        e->orig = TK_CFG_NONE;
        if (get_node(r, p, &e->src) || get_node(r, p, &e->tgt) ||
            get_name(r, &e->type, "an edge's type") ||
            tk_bytes_get_u32(&r->in, UINT32_MAX, &e->id, "an edge's id") ||
            tk_bytes_get_count(&r->in, 1, &e->nthreads, "an edge's threads"))
            return -1;
        p->nedges++;
        if (k && !edge_before(&p->edges[k - 1], e))
            return tk_bytes_fail(&r->in, "edges not in the order of their ends, or one twice");
        e->at = p->ncounts;
        if (p->ncounts + e->nthreads > cap) {
            cap = (p->ncounts + e->nthreads) * 2;
            uint64_t *v = tk_realloc(p->counts, cap * sizeof *v);
            if (!v) return tk_bytes_nomem(&r->in);
            p->counts = v;
        }
        for (uint32_t t = 0; t < e->nthreads; t++)
            if (tk_bytes_get_u64(&r->in, &p->counts[p->ncounts++], "an edge's count")) return -1;
    }
    return 0;
}

static int get_all(rd *r)
{
    if (r->in.size < sizeof magic || memcmp(r->in.p, magic, sizeof magic) != 0)
        return tk_bytes_fail(&r->in, "not a DCFG counts partial (no \"TKDC\" 1)");
    r->in.pos = sizeof magic;
    tk_free(r->c->path);
    r->c->path = NULL;
    if (tk_bytes_get_str(&r->in, &r->c->path) || get_names(r)) return -1;
    uint32_t n;
    if (tk_bytes_get_count(&r->in, 6, &n, "the number of processes")) return -1;
    r->c->procs = tk_calloc(n ? n : 1, sizeof *r->c->procs);
    if (!r->c->procs) return tk_bytes_nomem(&r->in);
    for (uint32_t i = 0; i < n; i++) {
        tk_dc_process *p = &r->c->procs[i];
        r->c->nprocesses++;
        if (tk_bytes_get_u64(&r->in, &p->pid, "a pid") || get_instr_counts(r, p) ||
            get_images(r, p) || get_blocks(r, p) || get_edges(r, p))
            return -1;
    }
    for (uint32_t i = 0; i < r->c->nnames; i++)
        if (!r->used[i]) return tk_bytes_fail(&r->in, "a name that nothing refers to");
    return r->in.pos == r->in.size ? 0 : tk_bytes_fail(&r->in, "bytes after the partial");
}

tk_status tk_dcfg_counts_deserialize(tk_dcfg_counts **out, const uint8_t *data, size_t size,
                                     tk_error *err)
{
    *out = NULL;
    rd r = {{data, 0, size, "DCFG counts partial", err, TK_OK}, tk_dc_new(""), NULL};
    if (!r.c) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    int rc = get_all(&r);
    tk_free(r.used);
    if (rc) {
        tk_dcfg_counts_free(r.c);
        return r.in.st;
    }
    *out = r.c;
    return TK_OK;
}
