/* Graphviz DOT of a cfg: the layout of Intel's dcfg-to-dot (process, image
 * and routine clusters, blocks labelled with address, instruction count and
 * executions, edges with id, type and executions), restricted to chosen
 * routines, loops or images, since the whole-program graph is unreadable (and more than
 * Graphviz lays out: tk_cfg_dot_hot_routines chooses what it can draw). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/writer.h"
#include "core/alloc.h"
#include "model/cfg_internal.h"
#include "tracekit/cfg.h"

static void dot_str(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if (*s == '\n') {
            fputs("\\n", f);
            continue;
        }
        fputc(*s, f);
    }
}

static void block_label(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p, uint32_t n)
{
    if (n >= p->nblocks) {
        /* special nodes: dcfg-to-dot declares them bare ("node1;"), which Graphviz draws as
         * "node1"; they carry their name (START, END, UNKNOWN) here */
        const tk_cfg_special *sp = &cfg->specials[n - p->nblocks];
        fprintf(f, "node%" PRIu32 " [label=\"", sp->id);
        dot_str(f, cfg->strings + sp->name);
        fputs("\", shape=oval];\n", f);
        return;
    }
    const tk_cfg_block *b = &p->blocks[n];
    fprintf(f,
            "node%" PRIu32 " [label=\"BB %" PRIu32 "\\naddr=0x%" PRIx64 "\\nnum-instrs=%" PRIu32
            "\\nexecutions=%" PRIu64 "\"];\n",
            b->id, b->id, tk_cfg_stored_block_addr(p, b), b->num_instrs, b->count);
}

/* Marks the blocks the options select (bit 0 of sel) and their routines (rsel). */
static void dot_select(const tk_cfg_process *p, const tk_cfg_dot_options *o, int everything,
                       unsigned char *sel, unsigned char *rsel)
{
    for (uint32_t b = 0; b < p->nblocks; b++) {
        const tk_cfg_block *bl = &p->blocks[b];
        int s = everything;
        for (size_t k = 0; k < o->nroutines && !s; k++) {
            uint32_t nb = tk_cfg_find_block(p, o->routines[k]);
            s = nb != TK_CFG_NONE && p->blocks[nb].routine != TK_CFG_NONE &&
                p->blocks[nb].routine == bl->routine;
        }
        for (size_t k = 0; k < o->nloops && !s; k++) {
            uint32_t l = tk_cfg_find_loop(p, tk_cfg_find_block(p, o->loops[k]));
            s = l != TK_CFG_NONE && tk_cfg_scope_contains(p, (tk_cfg_scope){TK_SCOPE_LOOP, l}, b);
        }
        for (size_t k = 0; k < o->nimages && !s; k++)
            s = p->images[tk_cfg_block_image(p, b)].id == o->images[k];
        if (s) {
            sel[b] = 1;
            if (bl->routine != TK_CFG_NONE) rsel[bl->routine] = 1;
        }
    }
}

/* One routine's cluster: its selected blocks, declared (bit 1 of sel) here. */
static void dot_routine(FILE *f, const tk_cfg *cfg, const tk_cfg_process *p,
                        const tk_cfg_routine *ro, unsigned char *sel)
{
    const tk_cfg_block *e = &p->blocks[ro->entry];
    fprintf(
        f, "  subgraph cluster_routine%" PRIu32 " {\n   color=violet;\n   label=\"Routine %" PRIu32,
        e->id, e->id);
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(cfg, p, ro->entry, &off);
    if (sym) {
        fputs("\\nname='", f);
        dot_str(f, sym);
        fputc('\'', f);
        if (off) fprintf(f, "+0x%" PRIx64, off);
    }
    fprintf(f, "\\naddr=0x%" PRIx64 "\";\n", tk_cfg_stored_block_addr(p, e));
    for (uint32_t q = 0; q < ro->nnodes; q++) {
        uint32_t b = p->pool[ro->nodes + q];
        if (!(sel[b] & 1)) continue;
        fputs("   ", f);
        block_label(f, cfg, p, b);
        sel[b] |= 2;
    }
    fputs("  }\n", f);
}

static tk_status cfg_write_dot_stream(const tk_cfg *cfg, const tk_cfg_dot_options *o, FILE *f,
                                      tk_error *err)
{
    fputs("# This file is in the DOT graph-visualization language.\n"
          "# See http://www.graphviz.org for a list of programs to render the graph.\n"
          "digraph dcfg {\n",
          f);
    if (!o->intel_layout) fputs(" graph [size=\"166,166\"];\n", f);
    int everything = !o->nroutines && !o->nloops && !o->nimages;
    for (uint32_t pi = 0; pi < cfg->nprocesses; pi++) {
        const tk_cfg_process *p = &cfg->processes[pi];
        unsigned char *sel =
            tk_calloc((size_t)p->nnodes + 1, 1); /* bit 0 selected, bit 1 declared */
        unsigned char *rsel = tk_calloc((size_t)p->nroutines + 1, 1);
        if (!sel || !rsel) {
            tk_free(sel);
            tk_free(rsel);
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        }
        dot_select(p, o, everything, sel, rsel);
        fprintf(f,
                " subgraph cluster_pid%" PRIu64 " {\n  color=blue;\n  label=\"Process %" PRIu64
                "\";\n",
                p->pid, p->pid);
        for (uint32_t i = 0; i < p->nimages; i++) {
            const tk_cfg_image *im = &p->images[i];
            fprintf(f,
                    "  subgraph cluster_image%" PRIu32
                    " {\n   color=plum;\n   label=\"Image %" PRIu32 "\\n",
                    im->id, im->id);
            dot_str(f, tk_cfg_file_name(cfg, im->file_name_id));
            fprintf(f, "\\nload-addr = 0x%" PRIx64 "\\nsize = %" PRIu64 "\";\n", im->load_addr,
                    im->size);
            for (uint32_t k = 0; k < im->nroutines; k++) {
                uint32_t r = im->first_routine + k;
                const tk_cfg_routine *ro = &p->routines[r];
                if (!rsel[r] || ro->entry == TK_CFG_NONE) continue;
                dot_routine(f, cfg, p, ro, sel);
            }
            /* selected blocks outside any routine */
            for (uint32_t k = 0; k < im->nblocks; k++) {
                uint32_t b = im->first_block + k;
                if (sel[b] != 1) continue;
                fputs("   ", f);
                block_label(f, cfg, p, b);
                sel[b] |= 2;
            }
            fprintf(f, "  } /* image%" PRIu32 " */\n", im->id);
        }
        fputs("\n# Edges\n", f);
        for (uint32_t e = 0; e < p->nedges; e++) {
            const tk_cfg_edge *ed = &p->edges[e];
            if (ed->src == TK_CFG_NONE || ed->tgt == TK_CFG_NONE) continue;
            if (!(sel[ed->src] & 1) && !(sel[ed->tgt] & 1)) continue;
            fprintf(f,
                    "node%" PRIu32 " -> node%" PRIu32 " [label=\"EDGE%" PRIu32
                    "\\n%s\\nexecutions=%" PRIu64 "\"];\n",
                    tk_cfg_node_id(cfg, p, ed->src), tk_cfg_node_id(cfg, p, ed->tgt), ed->id,
                    tk_cfg_stored_edge_type_name(cfg, ed), cfg_edge_count(p, ed));
            uint32_t ends[2] = {ed->src, ed->tgt};
            for (int k = 0; k < 2; k++)
                if (!(sel[ends[k]] & 2)) {
                    fputs("   ", f);
                    block_label(f, cfg, p, ends[k]);
                    sel[ends[k]] |= 2;
                }
        }
        fprintf(f, " } /* pid%" PRIu64 " */\n", p->pid);
        tk_free(sel);
        tk_free(rsel);
    }
    fputs("}\n", f);
    if (ferror(f)) return tk_error_set(err, TK_ERR_IO, "write error");
    return TK_OK;
}

tk_status tk_cfg_write_dot(const tk_cfg *cfg, const tk_cfg_dot_options *o, const tk_writer *f,
                           tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, f, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, cfg_write_dot_stream(cfg, o, s.f, err), err);
}

typedef struct hot_row {
    uint64_t instrs;
    uint32_t blocks, id;
} hot_row;

static int hot_cmp(const void *a, const void *b)
{
    const hot_row *x = a, *y = b;
    if (x->instrs != y->instrs) return x->instrs < y->instrs ? 1 : -1;
    return x->id < y->id ? -1 : x->id > y->id;
}

tk_status tk_cfg_dot_hot_routines(const tk_cfg *cfg, uint64_t max_blocks, tk_cfg_hot_routines *out,
                                  tk_error *err)
{
    memset(out, 0, sizeof *out);
    size_t nrows = 0;
    for (uint32_t pi = 0; pi < cfg->nprocesses; pi++) nrows += cfg->processes[pi].nroutines;
    hot_row *rows = tk_calloc(nrows ? nrows : 1, sizeof *rows);
    if (!rows) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t at = 0;
    for (uint32_t pi = 0; pi < cfg->nprocesses; pi++) {
        const tk_cfg_process *p = &cfg->processes[pi];
        out->all_blocks += p->nblocks;
        for (uint32_t b = 0; b < p->nblocks; b++) {
            const tk_cfg_block *bl = &p->blocks[b];
            uint64_t n = bl->count * bl->num_instrs;
            out->total += n;
            if (bl->routine >= p->nroutines) continue;
            rows[at + bl->routine].instrs += n;
            rows[at + bl->routine].blocks++;
        }
        for (uint32_t r = 0; r < p->nroutines; r++) {
            uint32_t entry = p->routines[r].entry;
            rows[at + r].id = entry < p->nblocks ? p->blocks[entry].id : 0;
        }
        at += p->nroutines;
    }
    qsort(rows, nrows, sizeof *rows, hot_cmp);
    size_t n = 0;
    while (n < nrows && rows[n].instrs && (n == 0 || out->blocks + rows[n].blocks <= max_blocks)) {
        out->blocks += rows[n].blocks;
        out->instrs += rows[n].instrs;
        n++;
    }
    out->ids = tk_malloc((n ? n : 1) * sizeof *out->ids);
    if (!out->ids) {
        tk_free(rows);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) out->ids[i] = rows[i].id;
    out->n = n;
    tk_free(rows);
    return TK_OK;
}
