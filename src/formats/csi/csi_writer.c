/* CSI writers: canonical metadata text, dump, Graphviz dot. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/writer.h"
#include "formats/csi/csi_internal.h"
#include "tracekit/csi.h"


static tk_status io_result(FILE *out, tk_error *err)
{
    if (ferror(out)) return tk_error_set(err, TK_ERR_IO, "write failed");
    return TK_OK;
}

static void write_lines(FILE *out, const tk_csi_block *b, const char *sep, const char *wr)
{
    for (size_t k = 0; k < b->nlines; k++) {
        if (b->lines[k] == TK_CSI_PATH_WRITE)
            fprintf(out, "%s%s", sep, wr);
        else
            fprintf(out, "%s%" PRId64, sep, b->lines[k]);
    }
}

tk_status tk_csi_write_function_stream(FILE *out, const tk_csi_function *fn, tk_error *err)
{
    fprintf(out, "#\n%s\n", fn->name);
    for (uint32_t i = 0; i < fn->nblocks; i++) {
        const tk_csi_block *b = &fn->blocks[i];
        fprintf(out, "%" PRIu64, b->id);
        if (b->kind == TK_CSI_BLOCK_EXIT) {
            fputs("|EXIT\n", out);
            continue;
        }
        if (b->kind == TK_CSI_BLOCK_ENTRY) fputs("|ENTRY", out);
        if (b->null_lines)
            fputs("|NULL", out);
        else
            write_lines(out, b, "|", "-1");
        fputc('\n', out);
    }
    fputs("$\n", out);
    for (uint32_t i = 0; i < fn->nedges; i++) {
        const tk_csi_edge *e = &fn->edges[i];
        fprintf(out, "%" PRIu64 "%s%" PRIu64 "|%" PRId64 "$%" PRIu64 "\n", fn->blocks[e->src].id,
                e->back ? "~>" : "->", fn->blocks[e->dst].id, e->inc, e->weight);
    }
    return io_result(out, err);
}

static tk_status csi_dump_function_stream(FILE *out, const tk_csi_function *fn, const tk_bl *bl,
                                          tk_error *err)
{
    fprintf(out, "function %s\n", fn->name);
    fprintf(out, "  entry %" PRIu64 " exit %" PRIu64 " blocks %" PRIu32 " edges %" PRIu32 "\n",
            fn->blocks[fn->entry].id, fn->blocks[fn->exit].id, fn->nblocks, fn->nedges);
    if (bl && tk_bl_total(bl))
        fprintf(out, "  paths %" PRIu64 "\n", tk_bl_total(bl));
    else
        fputs("  paths unknown\n", out);
    for (uint32_t i = 0; i < fn->nblocks; i++) {
        const tk_csi_block *b = &fn->blocks[i];
        fprintf(out, "  block %" PRIu64, b->id);
        if (b->kind == TK_CSI_BLOCK_EXIT) fputs(" EXIT", out);
        if (b->kind == TK_CSI_BLOCK_ENTRY) fputs(" ENTRY", out);
        if (b->null_lines)
            fputs(" NULL", out);
        else if (b->nlines) {
            fputs(" lines", out);
            write_lines(out, b, " ", "write");
        }
        if (bl && tk_bl_total(bl)) fprintf(out, " numpaths %" PRIu64, tk_bl_num_paths(bl, i));
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < fn->nedges; i++) {
        const tk_csi_edge *e = &fn->edges[i];
        fprintf(out, "  edge %" PRIu64 "%s%" PRIu64 " inc %" PRId64 " weight %" PRIu64,
                fn->blocks[e->src].id, e->back ? "~>" : "->", fn->blocks[e->dst].id, e->inc,
                e->weight);
        uint64_t xw;
        if (e->back && bl && tk_bl_exit_weight(bl, i, &xw, err) == TK_OK)
            fprintf(out, " exit-weight %" PRIu64, xw);
        fputc('\n', out);
    }
    return io_result(out, err);
}

static void dot_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Lines of a block with consecutive duplicates collapsed, -1 shown as "•". */
static void dot_lines(FILE *out, const tk_csi_block *b)
{
    int64_t prev = INT64_MIN;
    int any = 0;
    for (size_t k = 0; k < b->nlines; k++) {
        if (b->lines[k] == prev) continue;
        prev = b->lines[k];
        fputs(any ? " " : "\\nlines ", out);
        any = 1;
        if (b->lines[k] == TK_CSI_PATH_WRITE)
            fputs("[write]", out);
        else
            fprintf(out, "%" PRId64, b->lines[k]);
    }
}

static void csi_dot_begin_stream(FILE *out)
{
    fputs("digraph csi {\n  node [shape=box, fontname=\"monospace\"];\n", out);
}

static tk_status csi_dot_end_stream(FILE *out, tk_error *err)
{
    fputs("}\n", out);
    return io_result(out, err);
}

static void dot_block(FILE *out, const tk_csi_function *fn, uint32_t index, uint32_t i,
                      const tk_bl_path *hl)
{
    const tk_csi_block *b = &fn->blocks[i];
    int on = 0;
    if (hl)
        for (size_t k = 0; k < hl->len; k++) on |= hl->nodes[k] == i;
    fprintf(out, "    f%" PRIu32 "b%" PRIu32 " [label=\"%" PRIu64 "%s", index, i, b->id,
            b->kind == TK_CSI_BLOCK_ENTRY  ? " ENTRY"
            : b->kind == TK_CSI_BLOCK_EXIT ? " EXIT"
                                           : "");
    if (b->null_lines)
        fputs("\\nNULL", out);
    else
        dot_lines(out, b);
    fputc('"', out);
    if (on) fputs(", color=red, penwidth=2", out);
    fputs("];\n", out);
}

static tk_status csi_write_dot_cluster_stream(FILE *out, const tk_csi_function *fn, uint32_t index,
                                              const tk_bl_path *hl, tk_error *err)
{
    fprintf(out, "  subgraph cluster_f%" PRIu32 " {\n    label=", index);
    dot_string(out, fn->name);
    fputs(";\n", out);
    for (uint32_t i = 0; i < fn->nblocks; i++) dot_block(out, fn, index, i, hl);
    for (uint32_t i = 0; i < fn->nedges; i++) {
        const tk_csi_edge *e = &fn->edges[i];
        int on = 0;
        if (hl && hl->edges)
            for (size_t k = 0; k + 1 < hl->len; k++) on |= hl->edges[k] == i;
        if (hl && (hl->start_edge == i || hl->end_edge == i)) on = 1;
        fprintf(out,
                "    f%" PRIu32 "b%" PRIu32 " -> f%" PRIu32 "b%" PRIu32 " [label=\"%s%" PRId64
                " w%" PRIu64 "\"",
                index, e->src, index, e->dst, e->back ? "path=" : "path+", e->inc, e->weight);
        if (e->back) fputs(", style=dashed", out);
        if (on) fputs(", color=red, penwidth=2", out);
        fputs("];\n", out);
    }
    fputs("  }\n", out);
    return io_result(out, err);
}

static tk_status csi_write_dot_stream(FILE *out, const tk_csi_function *fn, const tk_bl_path *hl,
                                      tk_error *err)
{
    csi_dot_begin_stream(out);
    tk_status st = csi_write_dot_cluster_stream(out, fn, 0, hl, err);
    return st == TK_OK ? csi_dot_end_stream(out, err) : st;
}

tk_status tk_csi_write_function(const tk_writer *out, const tk_csi_function *fn, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, tk_csi_write_function_stream(s.f, fn, err), err);
}

tk_status tk_csi_dump_function(const tk_writer *out, const tk_csi_function *fn, const tk_bl *bl,
                               tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, csi_dump_function_stream(s.f, fn, bl, err), err);
}

tk_status tk_csi_dot_begin(const tk_writer *out, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    csi_dot_begin_stream(s.f);
    return tk_wstream_close(&s, TK_OK, err);
}

tk_status tk_csi_write_dot_cluster(const tk_writer *out, const tk_csi_function *fn, uint32_t index,
                                   const tk_bl_path *hl, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, csi_write_dot_cluster_stream(s.f, fn, index, hl, err), err);
}

tk_status tk_csi_dot_end(const tk_writer *out, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, csi_dot_end_stream(s.f, err), err);
}

tk_status tk_csi_write_dot(const tk_writer *out, const tk_csi_function *fn, const tk_bl_path *hl,
                           tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, csi_write_dot_stream(s.f, fn, hl, err), err);
}
