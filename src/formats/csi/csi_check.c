/* CSI numbering of one function and the semantic check. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/vec.h"
#include "formats/csi/csi_internal.h"
#include "tracekit/csi.h"

struct tk_csi_numbering {
    tk_bl *bl;
    tk_bl *fresh; /* check: a fresh numbering to compare with */
    TK_VEC(tk_bl_edge) fresh_edges;
    TK_VEC(tk_bl_edge) edges;
    uint32_t *nodes;
    uint32_t *path_edges;
    size_t nodes_cap;
    tk_bl_path path;
};

tk_status tk_csi_numbering_open(tk_csi_numbering **out, tk_error *err)
{
    tk_csi_numbering *n = tk_calloc(1, sizeof *n);
    if (!n) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (tk_bl_open(&n->bl, err) != TK_OK) {
        tk_free(n);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    *out = n;
    return TK_OK;
}

void tk_csi_numbering_free(tk_csi_numbering *n)
{
    if (!n) return;
    tk_bl_free(n->bl);
    tk_bl_free(n->fresh);
    TK_VEC_FREE(&n->edges);
    TK_VEC_FREE(&n->fresh_edges);
    tk_free(n->nodes);
    tk_free(n->path_edges);
    tk_free(n);
}

tk_status tk_csi_numbering_load(tk_csi_numbering *n, const tk_csi_function *fn,
                                tk_bl_issue_fn fn_issue, void *ctx, tk_error *err)
{
    n->edges.len = 0;
    if (TK_VEC_RESERVE(&n->edges, fn->nedges + (size_t)1) != 0)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < fn->nedges; i++) {
        const tk_csi_edge *e = &fn->edges[i];
        tk_bl_edge be = {e->src, e->dst, e->back, e->inc, e->weight};
        n->edges.data[n->edges.len++] = be;
    }
    size_t need = fn->nblocks + (size_t)1;
    if (need > n->nodes_cap) {
        uint32_t *nodes = tk_reallocarray(n->nodes, need, sizeof *nodes);
        if (!nodes) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        n->nodes = nodes;
        uint32_t *pe = tk_reallocarray(n->path_edges, need, sizeof *pe);
        if (!pe) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        n->path_edges = pe;
        n->nodes_cap = need;
    }
    n->path.nodes = n->nodes;
    n->path.edges = n->path_edges;
    n->path.len = 0;
    return tk_bl_load(n->bl, fn->nblocks, fn->entry, fn->exit, n->edges.data, n->edges.len,
                      fn_issue, ctx, err);
}

tk_status tk_csi_renumber(const tk_csi_function *fn, tk_csi_numbering *n, tk_csi_edge *out,
                          tk_error *err)
{
    n->edges.len = 0;
    if (TK_VEC_RESERVE(&n->edges, fn->nedges + (size_t)1) != 0)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < fn->nedges; i++) {
        tk_bl_edge be = {fn->edges[i].src, fn->edges[i].dst, 0, 0, 0};
        n->edges.data[n->edges.len++] = be;
    }
    tk_status st = tk_bl_number(n->bl, fn->nblocks, fn->entry, fn->exit, n->edges.data,
                                n->edges.len, NULL, NULL, err);
    if (st != TK_OK) return st;
    for (uint32_t i = 0; i < fn->nedges; i++) {
        out[i] = fn->edges[i];
        out[i].back = n->edges.data[i].back;
        out[i].inc = n->edges.data[i].inc;
        out[i].weight = n->edges.data[i].weight;
    }
    return TK_OK;
}

const tk_bl *tk_csi_numbering_bl(const tk_csi_numbering *n) { return n->bl; }

tk_bl_path *tk_csi_numbering_path(tk_csi_numbering *n) { return &n->path; }

uint32_t tk_csi_find_block(const tk_csi_function *fn, uint64_t id)
{
    for (uint32_t i = 0; i < fn->nblocks; i++)
        if (fn->blocks[i].id == id) return i;
    return UINT32_MAX;
}

long tk_csi_write_pos(const tk_csi_block *b)
{
    for (size_t i = 0; i < b->nlines; i++)
        if (b->lines[i] == TK_CSI_PATH_WRITE) return (long)i;
    return -1;
}

/* "2->4", "9~>4", or for the hidden edge of a back edge "ENTRY->4 (of 9~>4)". */
static void edge_name(const tk_csi_function *fn, uint32_t ei, int hidden_entry, char *buf,
                      size_t size)
{
    if (ei >= fn->nedges) {
        snprintf(buf, size, "?");
        return;
    }
    const tk_csi_edge *e = &fn->edges[ei];
    unsigned long long a = (unsigned long long)fn->blocks[e->src].id;
    unsigned long long b = (unsigned long long)fn->blocks[e->dst].id;
    if (hidden_entry)
        snprintf(buf, size, "hidden edge ENTRY->%llu of %llu~>%llu at line %llu", b, a, b,
                 (unsigned long long)e->text_line);
    else
        snprintf(buf, size, "edge %llu%s%llu at line %llu", a, e->back ? "~>" : "->", b,
                 (unsigned long long)e->text_line);
}

void tk_csi_issue_message(const tk_csi_function *fn, const tk_bl_issue *is, char *buf, size_t size)
{
    char e1[160], e2[160];
    unsigned long long node =
        is->node < fn->nblocks ? (unsigned long long)fn->blocks[is->node].id : 0;
    /* on ENTRY, a back edge's interval is that of its hidden ENTRY->dst edge */
    int hid1 = is->edge < fn->nedges && fn->edges[is->edge].back && is->node == fn->entry;
    int hid2 = is->other < fn->nedges && fn->edges[is->other].back && is->node == fn->entry;
    if (is->kind == TK_BL_ISSUE_INC_MISMATCH || is->kind == TK_BL_ISSUE_INC_EXIT) {
        hid1 = is->edge < fn->nedges && fn->edges[is->edge].back;
        hid2 = is->other < fn->nedges && fn->edges[is->other].back;
    }
    edge_name(fn, is->edge, hid1, e1, sizeof e1);
    edge_name(fn, is->other, hid2, e2, sizeof e2);
    switch (is->kind) {
    case TK_BL_ISSUE_CYCLE:
        snprintf(buf, size,
                 "block %llu lies on a cycle of '->' edges: a loop without a back edge ('~>')",
                 node);
        break;
    case TK_BL_ISSUE_EXIT_HAS_OUT:
        snprintf(buf, size, "%s leaves the EXIT block %llu", e1, node);
        break;
    case TK_BL_ISSUE_DEAD_END:
        snprintf(buf, size, "block %llu has no outgoing edge: no path reaches EXIT from it", node);
        break;
    case TK_BL_ISSUE_UNREACHABLE:
        snprintf(buf, size, "block %llu cannot be reached from ENTRY", node);
        break;
    case TK_BL_ISSUE_OVERFLOW:
        snprintf(buf, size,
                 "path count overflow in function %s: the paths from block %llu number more "
                 "than 2^64-1",
                 fn->name, node);
        break;
    case TK_BL_ISSUE_WEIGHT_RANGE:
        snprintf(buf, size,
                 "weight %" PRIu64 " of %s is out of range: its paths would be numbered past "
                 "the %" PRIu64 " paths of block %llu",
                 (uint64_t)is->a, e1, (uint64_t)is->b, node);
        break;
    case TK_BL_ISSUE_WEIGHT_OVERLAP:
        snprintf(buf, size,
                 "weights collide: %s (weight %" PRIu64 ") and %s (weight %" PRIu64
                 ") give some paths from block %llu the same number",
                 e1, (uint64_t)is->a, e2, (uint64_t)is->b, node);
        break;
    case TK_BL_ISSUE_INC_MISMATCH:
        if (is->other == TK_BL_NONE)
            snprintf(buf, size,
                     "increments do not add up to the weights: the sums overflow along %s", e1);
        else
            snprintf(buf, size,
                     "increments do not add up to the weights: paths reaching block %llu "
                     "through %s have sum(inc)-sum(weight) = %" PRId64 ", through %s %" PRId64,
                     node, e1, is->a, e2, is->b);
        break;
    case TK_BL_ISSUE_TOO_MANY:
        snprintf(buf, size,
                 "function %s has more than 2^63-1 paths: signed 64-bit increments cannot number "
                 "them",
                 fn->name);
        break;
    case TK_BL_ISSUE_INC_EXIT:
        snprintf(buf, size,
                 "increments do not add up to the weights: paths ending with %s have "
                 "sum(inc)-sum(weight) = %" PRId64 " (must be 0)",
                 e1, is->a);
        break;
    }
}

typedef struct check_ctx {
    const tk_csi_function *fn;
    const char *path;
    tk_diag *diag;
    size_t errors;
} check_ctx;

static void on_issue(void *vctx, const tk_bl_issue *is)
{
    check_ctx *c = vctx;
    char msg[768];
    tk_csi_issue_message(c->fn, is, msg, sizeof msg);
    uint64_t line = c->fn->text_line;
    if (is->edge < c->fn->nedges)
        line = c->fn->edges[is->edge].text_line;
    else if (is->node < c->fn->nblocks)
        line = c->fn->blocks[is->node].text_line;
    tk_location loc = {c->path, -1, line, 1};
    tk_diag_report(c->diag, is->severity, &loc, "%s", msg);
    if (is->severity == TK_SEV_ERROR) c->errors++;
}

tk_status tk_csi_check_function(const tk_csi_function *fn, tk_csi_numbering *n, const char *path,
                                tk_diag *diag, tk_error *err)
{
    check_ctx c = {fn, path, diag, 0};
    for (uint32_t i = 0; i < fn->nedges; i++) {
        const tk_csi_edge *e = &fn->edges[i];
        if (e->inc < 0) {
            tk_location loc = {path, -1, e->text_line, 1};
            tk_diag_report(diag, TK_SEV_WARNING, &loc,
                           "negative increment %" PRId64 " (csi-cc never writes one)", e->inc);
        }
    }
    tk_status st = tk_csi_numbering_load(n, fn, on_issue, &c, err);
    if (st == TK_ERR_NOMEM || st == TK_ERR_ARG)
        return st == TK_ERR_ARG ? tk_error_set(err, TK_ERR_CHECK, "a block outside the function")
                                : st;
    if (st == TK_OK && !c.errors) {
        /* compare with a fresh numbering (same back edges, edge order): a
         * valid numbering may order the intervals differently */
        if (!n->fresh && tk_bl_open(&n->fresh, err) != TK_OK)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        n->fresh_edges.len = 0;
        if (TK_VEC_RESERVE(&n->fresh_edges, fn->nedges + (size_t)1) != 0)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        memcpy(n->fresh_edges.data, n->edges.data, fn->nedges * sizeof *n->edges.data);
        n->fresh_edges.len = fn->nedges;
        if (tk_bl_number_keep_back(n->fresh, fn->nblocks, fn->entry, fn->exit, n->fresh_edges.data,
                                   fn->nedges, NULL, NULL, err) == TK_OK) {
            for (uint32_t i = 0; i < fn->nedges; i++) {
                if (n->fresh_edges.data[i].weight == fn->edges[i].weight) continue;
                tk_location loc = {path, -1, fn->edges[i].text_line, 1};
                tk_diag_report(diag, TK_SEV_NOTE, &loc,
                               "valid numbering, but not the fresh one in edge order (csi-cc's): "
                               "weight %" PRIu64 " here, %" PRIu64 " there",
                               fn->edges[i].weight, n->fresh_edges.data[i].weight);
                break;
            }
        }
    }
    return c.errors ? tk_error_set(err, TK_ERR_CHECK, "%s: problems found (reported)", fn->name)
                    : TK_OK;
}
