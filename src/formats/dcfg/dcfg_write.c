/* Canonical DCFG writer and the canonical dump. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/writer.h"
#include "core/alloc.h"
#include "model/cfg_internal.h"
#include "tracekit/dcfg.h"


/* ---- writer ---------------------------------------------------------------- */

/* JSON string the way Intel's reader wants it: '/' escaped as "\/", no \u
 * escapes for printable text (control characters other than \b\f\n\r\t have
 * no other JSON spelling and are written as \u00XX). */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '/': fputs("\\/", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void put_hex(FILE *f, uint64_t v) { fprintf(f, "\"0x%" PRIx64 "\"", v); }

static void put_id_list(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p, uint32_t off,
                        uint32_t n)
{
    fputs("[ ", f);
    for (uint32_t k = 0; k < n; k++)
        fprintf(f, "%s%" PRIu32, k ? ", " : "", tk_cfg_node_id(cfg, p, p->pool[off + k]));
    fputs(n ? " ]" : "]", f);
}

static void write_routine(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p, uint32_t r,
                          int first)
{
    const tk_cfg_routine *ro = &p->routines[r];
    fprintf(f, "%s\n                [ %" PRIu32 ",\n                  ", first ? "" : ",",
            tk_cfg_node_id(cfg, p, ro->entry));
    put_id_list(f, cfg, p, ro->exits, ro->nexits);
    fputs(",\n                  [ [ \"NODE_ID\", \"IDOM_NODE_ID\" ]", f);
    for (uint32_t k = 0; k < ro->nnodes; k++) {
        const tk_cfg_block *b = &p->blocks[p->pool[ro->nodes + k]];
        fprintf(f, ", [ %" PRIu32 ", %" PRIu32 " ]", b->id,
                b->idom == TK_CFG_NONE ? 0 : tk_cfg_node_id(cfg, p, b->idom));
    }
    fputs(" ]", f);
    int any = 0;
    for (uint32_t l = ro->first_loop; l < ro->first_loop + ro->nloops; l++) {
        const tk_cfg_loop *lo = &p->loops[l];
        if (lo->head == TK_CFG_NONE) continue;
        if (!any)
            fputs(",\n                  [ [ \"LOOP_HEAD_NODE_ID\", "
                  "\"LOOP_BACK_EDGE_SOURCE_NODE_IDS\", "
                  "\"LOOP_NODE_IDS\", \"PARENT_LOOP_HEAD_NODE_ID\" ]",
                  f);
        any = 1;
        fprintf(f, ",\n                    [ %" PRIu32 ", ", p->blocks[lo->head].id);
        put_id_list(f, cfg, p, lo->back_srcs, lo->nback_srcs);
        fputs(", ", f);
        put_id_list(f, cfg, p, lo->nodes, lo->nnodes);
        if (lo->parent != TK_CFG_NONE)
            fprintf(f, ", %" PRIu32, p->blocks[p->loops[lo->parent].head].id);
        fputs(" ]", f);
    }
    if (any) fputs(" ]", f);
    fputs(" ]", f);
}

static void write_image(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p, uint32_t i)
{
    const tk_cfg_image *im = &p->images[i];
    fprintf(f, "          [ %" PRIu32 ",\n            ", im->id);
    put_hex(f, im->load_addr);
    fprintf(f, ",\n            %" PRIu64 ",\n            {", im->size);
    const char *sep = " ";
    if (im->file_name_id) {
        fprintf(f, "%s\"FILE_NAME_ID\" : %" PRIu32, sep, im->file_name_id);
        sep = ",\n              ";
    }
    if (im->nsymbols) {
        fprintf(f, "%s\"SYMBOLS\" : [ [ \"NAME\", \"ADDR_OFFSET\", \"SIZE\" ]", sep);
        for (uint32_t k = 0; k < im->nsymbols; k++) {
            const tk_cfg_symbol *s = &p->symbols[im->first_symbol + k];
            fputs(",\n                [ ", f);
            put_string(f, cfg_str(cfg, s->name));
            fputs(", ", f);
            put_hex(f, s->addr_offset);
            fprintf(f, ", %" PRIu64 " ]", s->size);
        }
        fputs("\n              ]", f);
        sep = ",\n              ";
    }
    if (im->nsources) {
        fprintf(
            f,
            "%s\"SOURCE_DATA\" : [ [ \"FILE_NAME_ID\", \"LINE_NUM\", \"ADDR_OFFSET\", \"SIZE\", "
            "\"NUM_INSTRS\" ]",
            sep);
        for (uint32_t k = 0; k < im->nsources; k++) {
            const tk_cfg_source *s = &p->sources[im->first_source + k];
            fprintf(f, ",\n                [ %" PRIu32 ", %" PRIu32 ", ", s->file_name_id,
                    s->line_num);
            put_hex(f, s->addr_offset);
            fprintf(f, ", %" PRIu64 ", %" PRIu32 " ]", cfg_source_size(p, im->first_source + k),
                    s->num_instrs);
        }
        fputs("\n              ]", f);
        sep = ",\n              ";
    }
    if (im->nblocks) {
        fprintf(f,
                "%s\"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", "
                "\"LAST_INSTR_OFFSET\", \"COUNT\" ]",
                sep);
        for (uint32_t k = 0; k < im->nblocks; k++) {
            const tk_cfg_block *b = &p->blocks[im->first_block + k];
            fprintf(f, ",\n                [ %" PRIu32 ", ", b->id);
            put_hex(f, b->addr_offset);
            fprintf(f, ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu64 " ]",
                    cfg_block_size(p, im->first_block + k), b->num_instrs,
                    cfg_block_last_instr_offset(p, im->first_block + k), b->count);
        }
        fputs("\n              ]", f);
        sep = ",\n              ";
    }
    if (im->nroutines) {
        fprintf(f,
                "%s\"ROUTINES\" : [ [ \"ENTRY_NODE_ID\", \"EXIT_NODE_IDS\", \"NODES\", \"LOOPS\" ]",
                sep);
        for (uint32_t k = 0; k < im->nroutines; k++) {
            const tk_cfg_routine *ro = &p->routines[im->first_routine + k];
            if (ro->entry == TK_CFG_NONE) continue;
            write_routine(f, cfg, p, im->first_routine + k, 0);
        }
        fputs("\n              ]", f);
    }
    fputs("\n            }\n          ]", f);
}

static void write_process(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p)
{
    fprintf(f, "    [ %" PRIu64 ",\n      {", p->pid);
    const char *sep = " ";
    if (p->file_instr_count_per_thread) {
        fprintf(f, "%s\"INSTR_COUNT_PER_THREAD\" : [ ", sep);
        for (uint32_t t = 0; t < p->n_file_instr_count_per_thread; t++)
            fprintf(f, "%s%" PRIu64, t ? ", " : "", p->file_instr_count_per_thread[t]);
        fputs(" ]", f);
        sep = ",\n        ";
    }
    if (p->has_file_instr_count) {
        fprintf(f, "%s\"INSTR_COUNT\" : %" PRIu64, sep, p->file_instr_count);
        sep = ",\n        ";
    }
    fprintf(f, "%s\"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ]", sep);
    for (uint32_t i = 0; i < p->nimages; i++) {
        fputs(",\n", f);
        write_image(f, cfg, p, i);
    }
    fputs("\n        ],\n", f);
    fputs("        \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", "
          "\"EDGE_TYPE_ID\", "
          "\"COUNT_PER_THREAD\" ]",
          f);
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (ed->src == TK_CFG_NONE || ed->tgt == TK_CFG_NONE || ed->type == TK_CFG_NONE) continue;
        fprintf(f, ",\n          [ %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", [ ", ed->id,
                tk_cfg_node_id(cfg, p, ed->src), tk_cfg_node_id(cfg, p, ed->tgt),
                cfg->edge_types[ed->type].id);
        for (uint32_t t = 0; t < cfg_edge_nthreads(p, e); t++)
            fprintf(f, "%s%" PRIu64, t ? ", " : "", cfg_edge_count_thread(p, ed, t));
        fputs(" ] ]", f);
    }
    fputs("\n        ]", f);
    if (p->extra_json)
        fprintf(f, ",\n        \"TRACEKIT_RECORD\" : %s", cfg_str(cfg, p->extra_json));
    fputs("\n      }\n    ]", f);
}

static tk_status dcfg_write_stream(const tk_cfg *cfg, FILE *f, tk_error *err)
{
    fprintf(f, "{ \"MAJOR_VERSION\" : %" PRIu32 ",\n  \"MINOR_VERSION\" : %" PRIu32,
            cfg->has_version ? cfg->major_version : 1, cfg->has_version ? cfg->minor_version : 0);
    fputs(",\n  \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ]", f);
    for (uint32_t i = 0; i < cfg->nfile_names; i++) {
        fprintf(f, ", [ %" PRIu32 ", ", cfg->file_names[i].id);
        put_string(f, cfg_str(cfg, cfg->file_names[i].name));
        fputs(" ]", f);
    }
    fputs(" ],\n  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ]", f);
    for (uint32_t i = 0; i < cfg->nedge_types; i++) {
        fprintf(f, ",\n    [ %" PRIu32 ", ", cfg->edge_types[i].id);
        put_string(f, cfg_str(cfg, cfg->edge_types[i].name));
        fputs(" ]", f);
    }
    fputs("\n  ],\n  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ]", f);
    for (uint32_t i = 0; i < cfg->nspecials; i++) {
        fprintf(f, ", [ %" PRIu32 ", ", cfg->specials[i].id);
        put_string(f, cfg_str(cfg, cfg->specials[i].name));
        fputs(" ]", f);
    }
    fputs(" ],\n  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ]", f);
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        fputs(",\n", f);
        write_process(f, cfg, &cfg->processes[i]);
    }
    fputs("\n  ]\n}\n", f);
    if (ferror(f)) return tk_error_set(err, TK_ERR_IO, "write error");
    return TK_OK;
}

/* ---- dump ------------------------------------------------------------------ */

typedef struct sort_key {
    uint64_t key;
    uint32_t index;
} sort_key;

static int cmp_key(const void *a, const void *b)
{
    const sort_key *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Indexes 0..n-1 ordered by key(i); NULL on out-of-memory. */
static uint32_t *order_by(uint32_t n, uint64_t (*key)(const void *, uint32_t), const void *ctx)
{
    sort_key *k = tk_malloc(sizeof *k * (n ? n : 1));
    uint32_t *out = tk_malloc(sizeof *out * (n ? n : 1));
    if (!k || !out) {
        tk_free(k);
        tk_free(out);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        k[i].key = key(ctx, i);
        k[i].index = i;
    }
    qsort(k, n, sizeof *k, cmp_key);
    for (uint32_t i = 0; i < n; i++) out[i] = k[i].index;
    tk_free(k);
    return out;
}

static uint64_t key_block(const void *ctx, uint32_t i)
{
    return ((const tk_cfg_process *)ctx)->blocks[i].id;
}
static uint64_t key_edge(const void *ctx, uint32_t i)
{
    return ((const tk_cfg_process *)ctx)->edges[i].id;
}
static uint64_t key_image(const void *ctx, uint32_t i)
{
    return ((const tk_cfg_process *)ctx)->images[i].id;
}
static uint64_t key_routine(const void *ctx, uint32_t i)
{
    const tk_cfg_process *p = ctx;
    uint32_t e = p->routines[i].entry;
    return e == TK_CFG_NONE ? UINT64_MAX : p->blocks[e].id;
}
static uint64_t key_loop(const void *ctx, uint32_t i)
{
    const tk_cfg_process *p = ctx;
    uint32_t h = p->loops[i].head;
    return h == TK_CFG_NONE ? UINT64_MAX : p->blocks[h].id;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A pool list as sorted node ids. */
static void dump_ids(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p, uint32_t off, uint32_t n)
{
    uint32_t *ids = tk_malloc(sizeof *ids * (n ? n : 1));
    fputc('[', f);
    if (ids) {
        for (uint32_t k = 0; k < n; k++) ids[k] = tk_cfg_node_id(cfg, p, p->pool[off + k]);
        qsort(ids, n, sizeof *ids, cmp_u32);
        for (uint32_t k = 0; k < n; k++) fprintf(f, "%s%" PRIu32, k ? " " : "", ids[k]);
        tk_free(ids);
    }
    fputc(']', f);
}

static const char *node_text(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t n, char *buf,
                             size_t size)
{
    if (n == TK_CFG_NONE) return "?";
    snprintf(buf, size, "%" PRIu32, tk_cfg_node_id(cfg, p, n));
    return buf;
}

static tk_status dump_process(const tk_cfg *cfg, const tk_cfg_process *p, FILE *f)
{
    char b1[16], b2[16], b3[16];
    fprintf(f, "process %" PRIu64 " threads %" PRIu32 " instr_count %" PRIu64, p->pid, p->nthreads,
            tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}));
    if (p->has_file_instr_count) fprintf(f, " file_instr_count %" PRIu64, p->file_instr_count);
    if (p->file_instr_count_per_thread) {
        fputs(" file_instr_count_per_thread [", f);
        for (uint32_t t = 0; t < p->n_file_instr_count_per_thread; t++)
            fprintf(f, "%s%" PRIu64, t ? " " : "", p->file_instr_count_per_thread[t]);
        fputc(']', f);
    }
    fputc('\n', f);
    uint32_t *io = order_by(p->nimages, key_image, p);
    uint32_t *bo = order_by(p->nblocks, key_block, p);
    uint32_t *ro = order_by(p->nroutines, key_routine, p);
    uint32_t *lo = order_by(p->nloops, key_loop, p);
    uint32_t *eo = order_by(p->nedges, key_edge, p);
    tk_status st = TK_ERR_NOMEM;
    if (!io || !bo || !ro || !lo || !eo) goto done;
    for (uint32_t k = 0; k < p->nimages; k++) {
        const tk_cfg_image *im = &p->images[io[k]];
        const char *fn = tk_cfg_file_name(cfg, im->file_name_id);
        fprintf(f,
                "image %" PRIu32 " load 0x%" PRIx64 " size %" PRIu64 " file %" PRIu32 " \"%s\"\n",
                im->id, im->load_addr, im->size, im->file_name_id, fn ? fn : "");
        for (uint32_t s = 0; s < im->nsymbols; s++) {
            const tk_cfg_symbol *sy = &p->symbols[im->first_symbol + s];
            fprintf(f, "  symbol 0x%" PRIx64 " size %" PRIu64 " \"%s\"\n", sy->addr_offset,
                    sy->size, cfg_str(cfg, sy->name));
        }
        for (uint32_t s = 0; s < im->nsources; s++) {
            const tk_cfg_source *so = &p->sources[im->first_source + s];
            fprintf(f,
                    "  source 0x%" PRIx64 " size %" PRIu64 " instrs %" PRIu32 " file %" PRIu32
                    " line %" PRIu32 "\n",
                    so->addr_offset, cfg_source_size(p, im->first_source + s), so->num_instrs,
                    so->file_name_id, so->line_num);
        }
    }
    for (uint32_t k = 0; k < p->nblocks; k++) {
        const tk_cfg_block *b = &p->blocks[bo[k]];
        fprintf(f,
                "block %" PRIu32 " image %" PRIu32 " offset 0x%" PRIx64 " size %" PRIu32
                " instrs %" PRIu32 " last %" PRIu32 " count %" PRIu64
                " routine %s idom %s loop %s\n",
                b->id, p->images[tk_cfg_block_image(p, bo[k])].id, b->addr_offset,
                cfg_block_size(p, bo[k]), b->num_instrs, cfg_block_last_instr_offset(p, bo[k]),
                b->count,
                b->routine == TK_CFG_NONE
                    ? "-"
                    : node_text(cfg, p, p->routines[b->routine].entry, b1, sizeof b1),
                b->idom == TK_CFG_NONE ? "-" : node_text(cfg, p, b->idom, b2, sizeof b2),
                b->loop == TK_CFG_NONE ? "-"
                                       : node_text(cfg, p, p->loops[b->loop].head, b3, sizeof b3));
    }
    for (uint32_t k = 0; k < p->nroutines; k++) {
        const tk_cfg_routine *r = &p->routines[ro[k]];
        fprintf(f, "routine %s exits ", node_text(cfg, p, r->entry, b1, sizeof b1));
        dump_ids(f, cfg, p, r->exits, r->nexits);
        fputs(" nodes ", f);
        dump_ids(f, cfg, p, r->nodes, r->nnodes);
        fputc('\n', f);
    }
    for (uint32_t k = 0; k < p->nloops; k++) {
        const tk_cfg_loop *l = &p->loops[lo[k]];
        fprintf(f, "loop %s parent %s depth %" PRIu32 " back ",
                node_text(cfg, p, l->head, b1, sizeof b1),
                l->parent == TK_CFG_NONE
                    ? "-"
                    : node_text(cfg, p, p->loops[l->parent].head, b2, sizeof b2),
                l->depth);
        dump_ids(f, cfg, p, l->back_srcs, l->nback_srcs);
        fputs(" nodes ", f);
        dump_ids(f, cfg, p, l->nodes, l->nnodes);
        fputc('\n', f);
    }
    for (uint32_t k = 0; k < p->nedges; k++) {
        const tk_cfg_edge *e = &p->edges[eo[k]];
        fprintf(f, "edge %" PRIu32 " %s -> %s %s [", e->id,
                node_text(cfg, p, e->src, b1, sizeof b1), node_text(cfg, p, e->tgt, b2, sizeof b2),
                tk_cfg_stored_edge_type_name(cfg, e));
        for (uint32_t t = 0; t < cfg_edge_nthreads(p, eo[k]); t++)
            fprintf(f, "%s%" PRIu64, t ? " " : "", cfg_edge_count_thread(p, e, t));
        fputs("]\n", f);
    }
    st = TK_OK;
done:
    tk_free(io);
    tk_free(bo);
    tk_free(ro);
    tk_free(lo);
    tk_free(eo);
    return st;
}

static tk_status dcfg_dump_stream(const tk_cfg *cfg, FILE *f, tk_error *err)
{
    fprintf(f, "dcfg %" PRIu32 ".%02" PRIu32 "\n", cfg->major_version, cfg->minor_version);
    for (uint32_t i = 0; i < cfg->nfile_names; i++)
        fprintf(f, "file_name %" PRIu32 " \"%s\"\n", cfg->file_names[i].id,
                cfg_str(cfg, cfg->file_names[i].name));
    for (uint32_t i = 0; i < cfg->nedge_types; i++)
        fprintf(f, "edge_type %" PRIu32 " %s\n", cfg->edge_types[i].id,
                cfg_str(cfg, cfg->edge_types[i].name));
    for (uint32_t i = 0; i < cfg->nspecials; i++)
        fprintf(f, "special_node %" PRIu32 " %s\n", cfg->specials[i].id,
                cfg_str(cfg, cfg->specials[i].name));
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        tk_status st = dump_process(cfg, &cfg->processes[i], f);
        if (st != TK_OK) return tk_error_set(err, st, "out of memory");
    }
    if (ferror(f)) return tk_error_set(err, TK_ERR_IO, "write error");
    return TK_OK;
}

tk_status tk_dcfg_write(const tk_cfg *cfg, const tk_writer *f, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, f, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, dcfg_write_stream(cfg, s.f, err), err);
}

tk_status tk_dcfg_dump(const tk_cfg *cfg, const tk_writer *f, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, f, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, dcfg_dump_stream(cfg, s.f, err), err);
}
