/* A DCFG counts partial as bytes and back (tk_dcfg_counts_serialize, _deserialize): a
 * canonical form, so that equal partials give equal bytes and bytes that read back write
 * themselves again. LEB128 varints in their shortest form; strings as their length and bytes;
 * the names ascending and each used; the rows in the order of their keys, each key once. */
#include <string.h>

#include "analysis/dcfg_counts_impl.h"
#include "core/alloc.h"
#include "core/bytes.h"

static const uint8_t magic[5] = {'T', 'K', 'D', 'C', 2};

/* ---- writing ---------------------------------------------------------------------------- */

static void put_image(tk_bytes_out *b, const tk_dc_image *im)
{
    tk_bytes_put_u64(b, im->name);
    tk_bytes_put_u64(b, im->size);
    tk_bytes_put_u64(b, im->rank);
    tk_bytes_put_u64(b, im->load_addr);
    tk_bytes_put_u64(b, im->nsymbols);
    for (uint32_t k = 0; k < im->nsymbols; k++) {
        tk_bytes_put_u64(b, im->symbols[k].offset);
        tk_bytes_put_u64(b, im->symbols[k].name);
        tk_bytes_put_u64(b, im->symbols[k].size);
    }
    tk_bytes_put_u64(b, im->nsources);
    for (uint32_t k = 0; k < im->nsources; k++) {
        const tk_dc_source *s = &im->sources[k];
        tk_bytes_put_u64(b, s->offset);
        tk_bytes_put_u64(b, s->size);
        tk_bytes_put_u64(b, s->file);
        tk_bytes_put_u64(b, s->line);
        tk_bytes_put_u64(b, s->num_instrs);
    }
}

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
    for (uint32_t k = 0; k < p->nimages; k++) put_image(b, &p->images[k]);
    tk_bytes_put_u64(b, p->nblocks);
    for (uint32_t k = 0; k < p->nblocks; k++) {
        const tk_dc_block *x = &p->blocks[k];
        tk_bytes_put_u64(b, x->image);
        tk_bytes_put_u64(b, x->offset);
        tk_bytes_put_u64(b, x->size);
        tk_bytes_put_u64(b, x->num_instrs);
        tk_bytes_put_u64(b, x->last);
        tk_bytes_put_u64(b, x->input);
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
    tk_bytes_put_u64(&b, c->npaths);
    for (uint32_t i = 0; i < c->npaths; i++) tk_bytes_put_str(&b, c->paths[i]);
    tk_bytes_put_u64(&b, c->nnames);
    for (uint32_t i = 0; i < c->nnames; i++) tk_bytes_put_str(&b, c->names[i]);
    tk_bytes_put_u64(&b, c->nprocesses);
    for (uint32_t i = 0; i < c->nprocesses; i++) put_process(&b, &c->procs[i]);
    return tk_bytes_take(&b, data, size, "DCFG counts", err);
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct rd {
    tk_bytes_in in;
    tk_dcfg_counts *c;
    uint8_t *used; /* per name: referred to */
} rd;

static int fail(rd *r, const char *what) { return tk_bytes_fail(&r->in, what); }
static int nomem(rd *r) { return tk_bytes_nomem(&r->in); }
static int get_u64(rd *r, uint64_t *v, const char *what)
{
    return tk_bytes_get_u64(&r->in, v, what);
}
static int get_u32(rd *r, uint32_t max, uint32_t *v, const char *what)
{
    return tk_bytes_get_u32(&r->in, max, v, what);
}
static int get_count(rd *r, uint32_t least, uint32_t *n, const char *what)
{
    return tk_bytes_get_count(&r->in, least, n, what);
}

static int get_strings(rd *r, char ***out, uint32_t *n, uint32_t least, const char *what)
{
    uint32_t m;
    if (get_count(r, least, &m, what)) return -1;
    *out = tk_calloc(m ? m : 1, sizeof **out);
    if (!*out) return nomem(r);
    for (uint32_t i = 0; i < m; i++) {
        if (tk_bytes_get_str(&r->in, &(*out)[i])) return -1;
        (*n)++;
    }
    return 0;
}

static int get_names(rd *r)
{
    tk_dcfg_counts *c = r->c;
    if (get_strings(r, &c->paths, &c->npaths, 1, "the number of inputs")) return -1;
    if (!c->npaths) return fail(r, "no input");
    if (get_strings(r, &c->names, &c->nnames, 1, "the number of names")) return -1;
    r->used = tk_calloc(c->nnames ? c->nnames : 1, 1);
    if (!r->used) return nomem(r);
    for (uint32_t i = 1; i < c->nnames; i++)
        if (strcmp(c->names[i - 1], c->names[i]) >= 0)
            return fail(r, "names not ascending, or one twice");
    return 0;
}

static int get_name(rd *r, uint32_t *v, const char *what)
{
    if (!r->c->nnames) return fail(r, what);
    if (get_u32(r, r->c->nnames - 1, v, what)) return -1;
    r->used[*v] = 1;
    return 0;
}

static int get_instr_counts(rd *r, tk_dc_process *p)
{
    uint32_t has;
    if (get_u32(r, 1, &has, "whether INSTR_COUNT is there")) return -1;
    p->has_instr_count = (uint8_t)has;
    if (has && get_u64(r, &p->instr_count, "INSTR_COUNT")) return -1;
    if (get_u32(r, 1, &has, "whether INSTR_COUNT_PER_THREAD is there")) return -1;
    p->has_per_thread = (uint8_t)has;
    if (!has) return 0;
    if (get_count(r, 1, &p->nper_thread, "the length of INSTR_COUNT_PER_THREAD")) return -1;
    p->per_thread = tk_malloc((p->nper_thread ? p->nper_thread : 1) * sizeof *p->per_thread);
    if (!p->per_thread) return nomem(r);
    for (uint32_t t = 0; t < p->nper_thread; t++)
        if (get_u64(r, &p->per_thread[t], "an INSTR_COUNT_PER_THREAD")) return -1;
    return 0;
}

#define BEFORE(a, b) \
    if ((a) != (b)) return (a) < (b)

static int symbol_before(const tk_dc_symbol *a, const tk_dc_symbol *b)
{
    BEFORE(a->offset, b->offset);
    BEFORE(a->name, b->name);
    return a->size < b->size;
}

static int source_before(const tk_dc_source *a, const tk_dc_source *b)
{
    BEFORE(a->offset, b->offset);
    BEFORE(a->size, b->size);
    BEFORE(a->file, b->file);
    BEFORE(a->line, b->line);
    return a->num_instrs < b->num_instrs;
}

static int get_tables(rd *r, tk_dc_image *im)
{
    uint32_t n;
    if (get_count(r, 3, &n, "the number of symbols")) return -1;
    if (!(im->symbols = tk_malloc((n ? n : 1) * sizeof *im->symbols))) return nomem(r);
    for (uint32_t k = 0; k < n; k++) {
        tk_dc_symbol *s = &im->symbols[k];
        if (get_u64(r, &s->offset, "a symbol's offset") ||
            get_name(r, &s->name, "a symbol's name") || get_u64(r, &s->size, "a symbol's size"))
            return -1;
        im->nsymbols++;
        if (k && !symbol_before(&im->symbols[k - 1], s))
            return fail(r, "symbols not in the order of their keys, or one twice");
    }
    if (get_count(r, 5, &n, "the number of source lines")) return -1;
    if (!(im->sources = tk_malloc((n ? n : 1) * sizeof *im->sources))) return nomem(r);
    for (uint32_t k = 0; k < n; k++) {
        tk_dc_source *s = &im->sources[k];
        if (get_u64(r, &s->offset, "a source line's offset") ||
            get_u64(r, &s->size, "a source line's size") ||
            get_name(r, &s->file, "a source line's file") ||
            get_u32(r, UINT32_MAX, &s->line, "a source line's number") ||
            get_u32(r, UINT32_MAX, &s->num_instrs, "a source line's instructions"))
            return -1;
        im->nsources++;
        if (k && !source_before(&im->sources[k - 1], s))
            return fail(r, "source lines not in the order of their keys, or one twice");
    }
    return 0;
}

static int get_images(rd *r, tk_dc_process *p)
{
    uint32_t n;
    if (get_count(r, 6, &n, "the number of images")) return -1;
    p->images = tk_calloc(n ? n : 1, sizeof *p->images);
    uint8_t *ranked = tk_calloc(n ? n : 1, 1);
    int rc = p->images && ranked ? 0 : nomem(r);
    for (uint32_t k = 0; k < n && rc == 0; k++) {
        tk_dc_image *im = &p->images[k];
        p->nimages++;
        rc = get_name(r, &im->name, "an image's name") ||
             get_u64(r, &im->size, "an image's size") ||
             get_u32(r, n - 1, &im->rank, "an image's rank") || ranked[im->rank]++ ||
             get_u64(r, &im->load_addr, "an image's load address") || get_tables(r, im);
        if (rc == 0 && k) {
            const tk_dc_image *prev = &p->images[k - 1];
            if (prev->name > im->name || (prev->name == im->name && prev->size >= im->size))
                rc = fail(r, "images not in the order of their keys, or one twice");
        }
    }
    if (rc && r->in.st == TK_OK) fail(r, "an image's rank twice");
    tk_free(ranked);
    return rc ? -1 : 0;
}

static int block_before(const tk_dc_block *a, const tk_dc_block *b)
{
    BEFORE(a->image, b->image);
    BEFORE(a->offset, b->offset);
    BEFORE(a->size, b->size);
    BEFORE(a->num_instrs, b->num_instrs);
    return a->last < b->last;
}

static int get_blocks(rd *r, tk_dc_process *p)
{
    uint32_t n;
    if (get_count(r, 9, &n, "the number of blocks")) return -1;
    p->blocks = tk_malloc((n ? n : 1) * sizeof *p->blocks);
    if (!p->blocks) return nomem(r);
    for (uint32_t k = 0; k < n; k++) {
        tk_dc_block *b = &p->blocks[k];
        uint32_t has;
        b->orig = TK_CFG_NONE;
        if (!p->nimages) return fail(r, "a block without images");
        if (get_u32(r, p->nimages - 1, &b->image, "a block's image") ||
            get_u64(r, &b->offset, "a block's offset") ||
            get_u32(r, UINT32_MAX, &b->size, "a block's size") ||
            get_u32(r, UINT32_MAX, &b->num_instrs, "a block's instructions") ||
            get_u32(r, UINT32_MAX, &b->last, "a block's last instruction") ||
            get_u32(r, r->c->npaths - 1, &b->input, "a block's input") ||
            get_u32(r, UINT32_MAX, &b->id, "a block's id") ||
            get_u32(r, 1, &has, "whether a block has a COUNT") ||
            get_u64(r, &b->count, "a block's count"))
            return -1;
        b->has_count = (uint8_t)has;
        p->nblocks++;
        if (k && !block_before(&p->blocks[k - 1], b))
            return fail(r, "blocks not in the order of their keys, or one twice");
    }
    return 0;
}

static int edge_before(const tk_dc_edge *a, const tk_dc_edge *b)
{
    BEFORE(a->src, b->src);
    BEFORE(a->tgt, b->tgt);
    return a->type < b->type;
}

/* An edge's end: a block's position, or nblocks + a name's index. */
static int get_node(rd *r, const tk_dc_process *p, uint32_t *v)
{
    uint64_t x;
    if (get_u64(r, &x, "an edge's end")) return -1;
    if (x >= (uint64_t)p->nblocks + r->c->nnames) return fail(r, "an edge's end");
    *v = (uint32_t)x;
    if (x >= p->nblocks) r->used[x - p->nblocks] = 1;
    return 0;
}

static int get_edges(rd *r, tk_dc_process *p)
{
    uint32_t n;
    if (get_count(r, 5, &n, "the number of edges")) return -1;
    p->edges = tk_malloc((n ? n : 1) * sizeof *p->edges);
    if (!p->edges) return nomem(r);
    uint64_t cap = 0;
    for (uint32_t k = 0; k < n; k++) {
        tk_dc_edge *e = &p->edges[k];
        e->orig = TK_CFG_NONE;
        if (get_node(r, p, &e->src) || get_node(r, p, &e->tgt) ||
            get_name(r, &e->type, "an edge's type") ||
            get_u32(r, UINT32_MAX, &e->id, "an edge's id") ||
            get_count(r, 1, &e->nthreads, "an edge's threads"))
            return -1;
        p->nedges++;
        if (k && !edge_before(&p->edges[k - 1], e))
            return fail(r, "edges not in the order of their ends, or one twice");
        e->at = p->ncounts;
        if (p->ncounts + e->nthreads > cap) {
            cap = (p->ncounts + e->nthreads) * 2;
            uint64_t *v = tk_realloc(p->counts, cap * sizeof *v);
            if (!v) return nomem(r);
            p->counts = v;
        }
        for (uint32_t t = 0; t < e->nthreads; t++)
            if (get_u64(r, &p->counts[p->ncounts++], "an edge's count")) return -1;
    }
    return 0;
}

static int get_all(rd *r)
{
    if (r->in.size < sizeof magic || memcmp(r->in.p, magic, sizeof magic) != 0)
        return fail(r, "not a DCFG counts partial (no \"TKDC\" 2)");
    r->in.pos = sizeof magic;
    if (get_names(r)) return -1;
    uint32_t n;
    if (get_count(r, 6, &n, "the number of processes")) return -1;
    r->c->procs = tk_calloc(n ? n : 1, sizeof *r->c->procs);
    if (!r->c->procs) return nomem(r);
    for (uint32_t i = 0; i < n; i++) {
        tk_dc_process *p = &r->c->procs[i];
        r->c->nprocesses++;
        if (get_u64(r, &p->pid, "a pid") || get_instr_counts(r, p) || get_images(r, p) ||
            get_blocks(r, p) || get_edges(r, p))
            return -1;
    }
    for (uint32_t i = 0; i < r->c->nnames; i++)
        if (!r->used[i]) return fail(r, "a name that nothing refers to");
    return r->in.pos == r->in.size ? 0 : fail(r, "bytes after the partial");
}

tk_status tk_dcfg_counts_deserialize(tk_dcfg_counts **out, const uint8_t *data, size_t size,
                                     tk_error *err)
{
    *out = NULL;
    rd r = {{data, 0, size, "DCFG counts partial", err, TK_OK},
            tk_calloc(1, sizeof(tk_dcfg_counts)),
            NULL};
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
