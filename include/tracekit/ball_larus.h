/* tracekit: Ball–Larus path numbering, path counting and path regeneration.
 *
 * A control-flow graph with one ENTRY and one EXIT node is turned into the
 * Ball–Larus DAG: every edge marked `back` (a loop back edge, or any edge
 * that cuts paths, like CSI's split edges) is replaced by two hidden edges,
 * ENTRY->dst and src->EXIT. Acyclic paths ENTRY->EXIT of the DAG are the
 * Ball–Larus paths; each gets a distinct number 0..NumPaths(ENTRY)-1, the sum
 * of the weights of its edges.
 *
 * Two ways to fill a tk_bl:
 *  - tk_bl_load(): the weights are given (e.g. read from CSI metadata, where
 *    only the ENTRY->dst weight of a back edge is known). The hidden src->EXIT
 *    weights are rebuilt from the gaps in src's outgoing weight intervals and
 *    every rule of a valid numbering is checked; problems go to a callback.
 *  - tk_bl_number(): a fresh numbering of any CFG (back edges found by DFS).
 *
 * Path counts use checked 64-bit arithmetic: an overflow is reported for the
 * graph (TK_ERR_LIMIT), never wrapped.
 */
#ifndef TRACEKIT_BALL_LARUS_H
#define TRACEKIT_BALL_LARUS_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_BL_NONE UINT32_MAX

/* One edge of the input graph. For a back edge, weight/inc belong to the
 * hidden ENTRY->dst edge (what CSI prints on a `~>` line). */
typedef struct tk_bl_edge {
    uint32_t src, dst;
    int back; /* 1: cuts paths: stands for ENTRY->dst and src->EXIT */
    int64_t inc; /* instrumentation increment (top increment of a back edge) */
    uint64_t weight; /* Ball–Larus weight (of ENTRY->dst for a back edge) */
} tk_bl_edge;

/* What a check found. node/edge/other are TK_BL_NONE when not relevant;
 * edge and other are indices into the caller's edge array. */
typedef enum tk_bl_issue_kind {
    TK_BL_ISSUE_CYCLE, /* node lies on a cycle of non-back edges */
    TK_BL_ISSUE_EXIT_HAS_OUT, /* an edge leaves EXIT (edge) */
    TK_BL_ISSUE_DEAD_END, /* node has no edge towards EXIT */
    TK_BL_ISSUE_UNREACHABLE, /* node cannot be reached from ENTRY (warning) */
    TK_BL_ISSUE_OVERFLOW, /* NumPaths(node) does not fit in 64 bits */
    TK_BL_ISSUE_WEIGHT_RANGE, /* edge's interval [w, w+NumPaths(dst)) leaves [0, NumPaths(src)): a=w, b=NumPaths(src) */
    TK_BL_ISSUE_WEIGHT_OVERLAP, /* edge's interval overlaps other's: a=w(edge), b=w(other) */
    TK_BL_ISSUE_INC_MISMATCH, /* increments do not add up to the weights: a, b = the two (inc-weight) sums met */
    TK_BL_ISSUE_INC_EXIT, /* a path ending at this edge into EXIT: sum(inc)-sum(weight) = a (not 0) */
    TK_BL_ISSUE_TOO_MANY /* fresh numbering: more than 2^63-1 paths (signed 64-bit increments) */
} tk_bl_issue_kind;

typedef struct tk_bl_issue {
    tk_bl_issue_kind kind;
    tk_severity severity;
    uint32_t node;
    uint32_t edge;
    uint32_t other;
    int64_t a, b;
} tk_bl_issue;

typedef void (*tk_bl_issue_fn)(void *ctx, const tk_bl_issue *issue);

typedef struct tk_bl tk_bl;

/* A new, empty numbering; reuse it for many graphs (tk_bl_load/number reset it).
 * TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_bl_open(tk_bl **out, tk_error *err);
TK_API void tk_bl_free(tk_bl *bl);

/* Load a graph with its weights and check it. nodes are 0..nnodes-1; every
 * edge endpoint must be < nnodes (TK_ERR_ARG otherwise). Each problem found
 * is passed to fn (may be NULL). Returns:
 *  TK_OK           a valid numbering: tk_bl_decode works for every id;
 *  TK_ERR_CHECK    problems were reported (decode may still work, best effort,
 *                  when tk_bl_total() is not 0);
 *  TK_ERR_LIMIT    the path count overflowed 64 bits (reported as an issue);
 *  TK_ERR_NOMEM, TK_ERR_ARG. */
TK_API tk_status tk_bl_load(tk_bl *bl, uint32_t nnodes, uint32_t entry, uint32_t exit,
                            const tk_bl_edge *edges, size_t nedges, tk_bl_issue_fn fn, void *ctx,
                            tk_error *err);

/* Fresh Ball–Larus numbering of a CFG: marks back edges (DFS from ENTRY in
 * edge order, then from every node not reached), and writes back, weight
 * and inc into edges[]. Out-edge order: the order of edges[]; a back edge's
 * hidden src->EXIT edge takes that back edge's place; hidden ENTRY->dst
 * edges follow ENTRY's own edges, in edge order. Increments are placed as
 * csi-cc places them: inc = weight, then each increment on an edge out of
 * ENTRY is pushed down through blocks with a single predecessor (a back
 * edge into a block counts as two) onto their out-edges, up to EXIT. Then
 * loads the result as tk_bl_load does. Returns TK_OK, TK_ERR_CHECK (problems
 * passed to fn), TK_ERR_LIMIT (the path count over 64 bits, or over INT64_MAX, the
 * most csi-cc's signed increments can number: reported as an issue), TK_ERR_ARG (a
 * node >= nnodes) or TK_ERR_NOMEM. */
TK_API tk_status tk_bl_number(tk_bl *bl, uint32_t nnodes, uint32_t entry, uint32_t exit,
                              tk_bl_edge *edges, size_t nedges, tk_bl_issue_fn fn, void *ctx,
                              tk_error *err);

/* Same as tk_bl_number but keeps the caller's back flags (no DFS). Returns as
 * tk_bl_number: TK_OK, TK_ERR_CHECK, TK_ERR_LIMIT, TK_ERR_ARG or TK_ERR_NOMEM. */
TK_API tk_status tk_bl_number_keep_back(tk_bl *bl, uint32_t nnodes, uint32_t entry, uint32_t exit,
                                        tk_bl_edge *edges, size_t nedges, tk_bl_issue_fn fn,
                                        void *ctx, tk_error *err);

/* Number of Ball–Larus paths (NumPaths(ENTRY)); 0 when unknown (cycle, overflow). */
TK_API uint64_t tk_bl_total(const tk_bl *bl);
/* NumPaths of a node (paths from it to EXIT); 0 for bad nodes. */
TK_API uint64_t tk_bl_num_paths(const tk_bl *bl, uint32_t node);
/* Weight of the hidden src->EXIT edge of back edge `edge` (TK_OK), or
 * TK_ERR_ARG when edge is not a back edge or its weight is unknown. */
TK_API tk_status tk_bl_exit_weight(const tk_bl *bl, size_t edge, uint64_t *weight, tk_error *err);

/* A regenerated path. nodes[] is caller storage of at least tk_bl_max_nodes()
 * entries. */
typedef struct tk_bl_path {
    uint32_t *nodes; /* blocks in order; ends with EXIT when the path ends at EXIT */
    uint32_t *edges; /* optional (may be NULL): edges[i] = index of the caller's edge
                             taken from nodes[i] to nodes[i+1] (len-1 entries) */
    size_t len;
    uint32_t
        start_edge; /* back edge after which the path starts, or TK_BL_NONE (starts at ENTRY) */
    uint32_t end_edge; /* back edge the path ends by taking, or TK_BL_NONE (ends at EXIT) */
    int end_ambiguous; /* several back edges leave the last node; which one is not recorded */
} tk_bl_path;

TK_API size_t tk_bl_max_nodes(const tk_bl *bl);

/* Regenerate path `id`: at each node take the out-edge with
 * w <= r < w + NumPaths(target). TK_OK, or TK_ERR_ARG (id >= total) or
 * TK_ERR_FORMAT (no edge fits: the numbering is broken). */
TK_API tk_status tk_bl_decode(const tk_bl *bl, uint64_t id, tk_bl_path *path, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
