/* tracekit: the control-flow-graph model (processes, images, symbols, source
 * lines, basic blocks, typed edges with per-thread counts, routines with
 * immediate dominators, loops with nesting).
 *
 * Read from DCFG (tracekit/dcfg.h); used by the DCFG-Trace cross-checks and
 * the DCFG -> CSI bridge.
 *
 * Shape.  A tk_cfg owns everything.  Objects live in flat arrays and are
 * addressed by *index* (uint32_t, TK_CFG_NONE when absent); the file's *ids*
 * are fields.  Lookups id -> index are O(1) (direct table when ids are dense,
 * hash table otherwise).  The structs are readable directly (treat them as
 * const); the functions below cover every query of Intel's DCFG API.
 *
 * Node indexes of a process: 0 .. nblocks-1 are basic blocks,
 * nblocks .. nblocks+nspecial-1 the special nodes (START, END, UNKNOWN)
 * of the file, so edges always refer to node indexes.
 *
 * Lists (exit nodes, back-edge sources, loop nodes, ...) are (offset, length)
 * pairs into the process's u32 pool `ids`: tk_cfg_list(p, off) gives a pointer.
 *
 * Counts.  A block's execution count is its COUNT cell when present, else the
 * sum of its in-edge counts.  Per-thread block counts are always derived from
 * the edges (sum of in-edge per-thread counts; out-edges for a node without
 * in-edges), as the spec says.  Instruction count of a set of blocks =
 * sum COUNT x NUM_INSTRS (the file's INSTR_COUNT is kept separately as
 * file_instr_count, like Intel's API which ignores it).  Once tk_cfg_finish
 * has succeeded without errors, every such sum fits in 64 bits: a block's
 * in- and out-edge counts, COUNT x NUM_INSTRS, the process's and each
 * thread's instructions, and so those of any image, routine or loop (their
 * node lists hold each block once) and loop visits; an overflow is an error
 * of tk_cfg_finish (docs/formats/dcfg.md, "Sums").
 */
#ifndef TRACEKIT_CFG_H
#define TRACEKIT_CFG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracekit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_CFG_NONE UINT32_MAX

/* The pre-defined edge types of DCFG 1.00 (section 2.5), plus OTHER for a
 * name the spec does not define (kept verbatim in the type table). */
typedef enum tk_edge_kind {
    TK_EDGE_ENTRY = 0,
    TK_EDGE_EXIT,
    TK_EDGE_CALL,
    TK_EDGE_DIRECT_CALL,
    TK_EDGE_INDIRECT_CALL,
    TK_EDGE_RETURN,
    TK_EDGE_CALL_BYPASS,
    TK_EDGE_BRANCH,
    TK_EDGE_CONDITIONAL_BRANCH,
    TK_EDGE_UNCONDITIONAL_BRANCH,
    TK_EDGE_DIRECT_BRANCH,
    TK_EDGE_INDIRECT_BRANCH,
    TK_EDGE_DIRECT_CONDITIONAL_BRANCH,
    TK_EDGE_INDIRECT_CONDITIONAL_BRANCH,
    TK_EDGE_DIRECT_UNCONDITIONAL_BRANCH,
    TK_EDGE_INDIRECT_UNCONDITIONAL_BRANCH,
    TK_EDGE_REP,
    TK_EDGE_FALL_THROUGH,
    TK_EDGE_SYSTEM_CALL,
    TK_EDGE_SYSTEM_RETURN,
    TK_EDGE_SYSTEM_CALL_BYPASS,
    TK_EDGE_CONTEXT_CHANGE,
    TK_EDGE_CONTEXT_CHANGE_RETURN,
    TK_EDGE_CONTEXT_CHANGE_BYPASS,
    TK_EDGE_EXCLUDED_CODE_BYPASS,
    TK_EDGE_UNKNOWN,
    TK_EDGE_OTHER, /* a name not in the spec */
    TK_EDGE_KIND_COUNT
} tk_edge_kind;

/* Spec name of a kind ("DIRECT_CALL"); "OTHER" for TK_EDGE_OTHER. */
TK_API const char *tk_edge_kind_name(tk_edge_kind k);
/* Kind of a spec name; TK_EDGE_OTHER when unknown. */
TK_API tk_edge_kind tk_edge_kind_from_name(const char *name, size_t len);

/* Predicates of Intel's API (is_any_*). */
TK_API int tk_edge_kind_is_any_branch(tk_edge_kind k);  /* BRANCH .. INDIRECT_UNCONDITIONAL_BRANCH */
TK_API int tk_edge_kind_is_any_call(tk_edge_kind k);    /* CALL, DIRECT_CALL, INDIRECT_CALL, SYSTEM_CALL, CONTEXT_CHANGE */
TK_API int tk_edge_kind_is_any_return(tk_edge_kind k);  /* RETURN, SYSTEM_RETURN, CONTEXT_CHANGE_RETURN */
TK_API int tk_edge_kind_is_any_bypass(tk_edge_kind k);  /* CALL_BYPASS, SYSTEM_CALL_BYPASS, CONTEXT_CHANGE_BYPASS, EXCLUDED_CODE_BYPASS */
/* Calls, returns, ENTRY and EXIT: edges that routine/loop traversals do not
 * follow (bypass, branch, fall-through, REP and UNKNOWN edges are followed). */
TK_API int tk_edge_kind_is_any_inter_routine(tk_edge_kind k);

typedef enum tk_special_kind {
    TK_SPECIAL_START = 0,
    TK_SPECIAL_END,
    TK_SPECIAL_UNKNOWN,
    TK_SPECIAL_OTHER
} tk_special_kind;

/* Source location of the row an object came from (0 when built in memory). */
typedef struct tk_cfg_loc {
    uint32_t line;
    uint32_t column;
} tk_cfg_loc;

typedef struct tk_cfg_file_name {
    uint32_t id;
    uint32_t name;   /* offset in strings (NUL-terminated) */
    tk_cfg_loc loc;
} tk_cfg_file;

typedef struct tk_cfg_edge_type {
    uint32_t id;
    uint32_t name;   /* offset in strings */
    tk_edge_kind kind;
    tk_cfg_loc loc;
} tk_cfg_edge_type;

typedef struct tk_cfg_special {
    uint32_t id;
    uint32_t name;   /* offset in strings */
    tk_special_kind kind;
    tk_cfg_loc loc;
} tk_cfg_special;

typedef struct tk_cfg_symbol {
    uint32_t name;   /* offset in strings */
    uint32_t image;  /* image index */
    uint64_t addr_offset;
    uint64_t size;
} tk_cfg_symbol;

/* 24 bytes: the image is the one whose source range holds the line; SIZE is
 * read with tk_cfg_source_size (32 bits here while every SIZE of the process
 * fits, else p->source_sizes). */
typedef struct tk_cfg_source {
    uint32_t file_name_id;
    uint32_t line_num;
    uint32_t num_instrs;
    uint32_t size32;       /* see above */
    uint64_t addr_offset;
} tk_cfg_source;

/* 40 bytes: the image is the one whose block range holds the block
 * (tk_cfg_block_image); SIZE and LAST_INSTR_OFFSET are read with
 * tk_cfg_block_size and tk_cfg_block_last_instr_offset (16 bits here while
 * every block of the process has both below 65536, else p->block_wide). */
typedef struct tk_cfg_block {
    uint32_t id;
    uint32_t routine;      /* routine index or NONE */
    uint32_t loop;         /* innermost loop index or NONE */
    uint32_t idom;         /* node index of the immediate dominator, or NONE */
    uint32_t num_instrs;
    uint16_t size16, last16;     /* see above */
    uint64_t addr_offset;        /* relative to the image load address */
    uint64_t count;              /* COUNT cell, or derived (see top) */
} tk_cfg_block;                  /* flags: p->block_flags[index] */

#define TK_CFG_BLOCK_HAS_COUNT 1u  /* the row had a COUNT cell */
#define TK_CFG_BLOCK_HAS_IN_EDGES 2u  /* an edge (whose ends resolved) enters the block */

typedef struct tk_cfg_edge {
    uint32_t id;
    uint32_t src;          /* node index (block or special) */
    uint32_t tgt;          /* node index */
    uint32_t type;         /* index in cfg->edge_types, or NONE when the type id is unknown */
} tk_cfg_edge;            /* COUNT_PER_THREAD: tk_cfg_edge_nthreads, tk_cfg_edge_count_thread;
                           * the total: tk_cfg_edge_count (sum over threads, checked for
                           * 64-bit overflow when read) */

#define TK_CFG_COMPUTED 1u  /* routine or loop computed by tracekit, not read */

typedef struct tk_cfg_routine {
    uint32_t entry;        /* block index; the routine id is the entry's id */
    uint32_t image;
    uint32_t exits, nexits;    /* block indexes in the pool */
    uint32_t nodes, nnodes;    /* block indexes in the pool (file order) */
    uint32_t first_loop, nloops; /* the routine's loops are contiguous in loops[] */
    uint32_t flags;            /* TK_CFG_COMPUTED, TK_CFG_ROUTINE_* */
    tk_cfg_loc loc;
} tk_cfg_routine;
#define TK_CFG_ROUTINE_HAS_IDOMS 2u  /* the NODES table had IDOM_NODE_ID */
#define TK_CFG_ROUTINE_HAS_LOOPS 4u  /* the row had a LOOPS cell */

typedef struct tk_cfg_loop {
    uint32_t head;         /* block index; the loop id is the head's id */
    uint32_t routine;
    uint32_t parent;       /* loop index or NONE */
    uint32_t depth;        /* 0 for an outermost loop */
    uint32_t back_srcs, nback_srcs;  /* block indexes in the pool */
    uint32_t nodes, nnodes;          /* block indexes in the pool */
    uint32_t flags;
    /* the loop's place in a preorder of all loops by parent, and the last
     * place of the loops nested in it (tk_cfg_loop_encloses) */
    uint32_t forest_first, forest_last;
    tk_cfg_loc loc;
} tk_cfg_loop;

typedef struct tk_cfg_image {
    uint32_t id;           /* may be 0 */
    uint32_t file_name_id; /* 0 = none */
    uint64_t load_addr;
    uint64_t size;
    uint32_t first_block, nblocks;     /* blocks of an image are contiguous */
    uint32_t first_symbol, nsymbols;
    uint32_t first_source, nsources;
    uint32_t first_routine, nroutines;
    tk_cfg_loc loc;
} tk_cfg_image;

typedef struct tk_cfg_idmap tk_cfg_idmap;  /* internal */

/* Adjacency (CSR over node indexes): the edges out of / into node n are
 * out_edges[out_start[n] .. out_start[n+1]) (edge indexes, file order); edges
 * whose source or target did not resolve are in neither.  Read it with
 * tk_cfg_out_edges / tk_cfg_in_edges. */
typedef struct tk_cfg_adjacency {
    uint32_t *out_start, *out_edges, *in_start, *in_edges;
} tk_cfg_adjacency;

typedef struct tk_cfg_process {
    uint64_t pid;
    uint64_t file_instr_count;   /* INSTR_COUNT of the file */
    int has_file_instr_count;
    uint32_t nthreads;           /* length of INSTR_COUNT_PER_THREAD (or longest COUNT_PER_THREAD) */
    uint64_t *file_instr_count_per_thread; /* nthreads values (NULL if absent) */
    uint32_t n_file_instr_count_per_thread;

    tk_cfg_image *images; uint32_t nimages;
    tk_cfg_block *blocks; uint32_t nblocks;
    uint8_t *block_flags;        /* per block: TK_CFG_BLOCK_* */
    /* NULL, or SIZE and LAST_INSTR_OFFSET of block b at [2b] and [2b + 1]
     * when some block's do not fit 16 bits */
    uint32_t *block_wide;
    tk_cfg_symbol *symbols; uint32_t nsymbols;
    tk_cfg_source *sources; uint32_t nsources;
    uint64_t *source_sizes;      /* NULL, or every SIZE when one does not fit 32 bits */
    tk_cfg_edge *edges; uint32_t nedges;
    tk_cfg_routine *routines; uint32_t nroutines;
    tk_cfg_loop *loops; uint32_t nloops;
    uint32_t nnodes;             /* nblocks + number of special nodes */

    uint32_t *pool; uint32_t npool;   /* u32 lists */
    /* while reading: the IDOM_NODE_ID cell (0 when none) of every NODES row
     * of every routine, in routine order; tk_cfg_finish frees it (NULL after) */
    uint32_t *node_idom_ids;
    /* per-thread edge counts (COUNT_PER_THREAD cells, ncounts of them): in
     * counts32 while every one fits 32 bits (then counts64 is NULL), else all
     * in counts64 (counts32 NULL).  Read them with tk_cfg_edge_count_thread. */
    uint32_t *counts32;
    uint64_t *counts64;
    uint32_t ncounts;
    /* where an edge's counts are: when every COUNT_PER_THREAD has the same
     * length, edge_counts is NULL and edge e has edge_stride counts from
     * e * edge_stride; else edge e has edge_nthreads[e] counts from
     * edge_counts[e].  Read them with the functions below. */
    uint32_t edge_stride;
    uint32_t *edge_counts, *edge_nthreads;

    /* edges out of / into each node: built on first use (tk_cfg_out_edges,
     * tk_cfg_in_edges, tk_cfg_need_adjacency), NULL until then */
    tk_cfg_adjacency *adjacency;

    tk_cfg_idmap *node_map;      /* node id -> node index */
    tk_cfg_idmap *edge_map;      /* edge id -> edge index: built on demand (tk_cfg_find_edge) */
    tk_cfg_idmap *loop_map;      /* head block index -> loop index */
    tk_cfg_idmap *routine_map;   /* entry block index -> routine index */
    /* block indexes of each image sorted by addr_offset (image i's from
     * first_block): built by the first tk_cfg_blocks_at, NULL until then */
    uint32_t *blocks_by_addr;
    /* the same for symbols (from first_symbol): built by the first
     * tk_cfg_block_symbol, NULL until then */
    uint32_t *symbols_by_addr;
    /* where each block / edge row was in the file: only kept when read with
     * a diagnostics sink (check mode), else NULL (see tk_cfg_block_loc) */
    tk_cfg_loc *block_locs, *edge_locs;
    tk_cfg_loc loc;
    int routines_computed;       /* ROUTINES absent everywhere: computed */
    /* a JSON object the writer puts under the process data's key
     * TRACEKIT_RECORD (what `tracekit record` knows of the run: command, end,
     * completeness): an offset in strings, 0 for none; readers leave it 0 */
    uint32_t extra_json;
} tk_cfg_process;

typedef struct tk_cfg {
    uint32_t major_version, minor_version;
    int has_version;
    tk_cfg_file *file_names; uint32_t nfile_names;
    tk_cfg_idmap *file_name_map; /* FILE_NAME_ID -> index of its first row (tk_cfg_finish) */
    tk_cfg_edge_type *edge_types; uint32_t nedge_types;
    tk_cfg_special *specials; uint32_t nspecials;
    tk_cfg_process *processes; uint32_t nprocesses;
    char *strings; size_t nstrings, cap_strings;
} tk_cfg;

/* ---- lifetime ----------------------------------------------------------- */
TK_API tk_cfg *tk_cfg_new(void);
TK_API void tk_cfg_free(tk_cfg *cfg);

/* ---- tables ------------------------------------------------------------- */
static inline const char *tk_cfg_str(const tk_cfg *cfg, uint32_t off) { return cfg->strings + off; }
static inline const uint32_t *tk_cfg_list(const tk_cfg_process *p, uint32_t off) { return p->pool + off; }
/* File name of an id, or NULL. */
TK_API const char *tk_cfg_file_name(const tk_cfg *cfg, uint32_t file_name_id);
/* Kind of an edge (TK_EDGE_OTHER when its type id is unknown). */
TK_API tk_edge_kind tk_cfg_edge_kind(const tk_cfg *cfg, const tk_cfg_edge *e);
TK_API const char *tk_cfg_edge_type_name(const tk_cfg *cfg, const tk_cfg_edge *e);

/* ---- lookups ------------------------------------------------------------ */
/* Process index of a pid, or NONE. */
TK_API uint32_t tk_cfg_find_process(const tk_cfg *cfg, uint64_t pid);
/* Node index of a node id (block or special), or NONE. */
TK_API uint32_t tk_cfg_find_node(const tk_cfg_process *p, uint32_t node_id);
/* Block index of a block id, or NONE (also NONE for special nodes). */
TK_API uint32_t tk_cfg_find_block(const tk_cfg_process *p, uint32_t node_id);
/* Edge index of an edge id, or NONE.  The id map (4 bytes an id) is built by
 * the first call (from any thread, like the adjacency of tk_cfg_out_edges);
 * tk_cfg_need_edge_map builds it now: TK_OK or TK_ERR_NOMEM (then
 * tk_cfg_find_edge scans the edges). */
TK_API uint32_t tk_cfg_find_edge(const tk_cfg_process *p, uint32_t edge_id);
TK_API tk_status tk_cfg_need_edge_map(const tk_cfg_process *p);
/* Edge index from src to tgt (node indexes), or NONE. */
TK_API uint32_t tk_cfg_find_edge_between(const tk_cfg_process *p, uint32_t src, uint32_t tgt);
/* Routine index whose entry is the block, or NONE. */
TK_API uint32_t tk_cfg_find_routine(const tk_cfg_process *p, uint32_t entry_block);
/* Loop index whose head is the block, or NONE. */
TK_API uint32_t tk_cfg_find_loop(const tk_cfg_process *p, uint32_t head_block);
/* Image index of an IMAGE_ID, or NONE. */
TK_API uint32_t tk_cfg_find_image(const tk_cfg_process *p, uint32_t image_id);
/* Blocks containing the absolute address (first instruction <= addr < end).
 * Writes up to max block indexes into out; returns the number of hits
 * (several when images overlapped).  The first call sorts the blocks by
 * address (4 bytes a block; it modifies the process like tk_cfg_out_edges
 * does); 0 hits when that runs out of memory. */
TK_API size_t tk_cfg_blocks_at(const tk_cfg_process *p, uint64_t addr, uint32_t *out, size_t max);

/* ---- nodes ---------------------------------------------------------------- */
static inline int tk_cfg_is_block(const tk_cfg_process *p, uint32_t node) { return node < p->nblocks; }
/* Special kind of a node index (TK_SPECIAL_OTHER for blocks). */
TK_API tk_special_kind tk_cfg_node_special(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t node);
TK_API uint32_t tk_cfg_node_id(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t node);
TK_API uint32_t tk_cfg_special_node(const tk_cfg *cfg, const tk_cfg_process *p, tk_special_kind k);

/* ---- blocks --------------------------------------------------------------- */
/* Row location of a block / edge ({0, 0} when locations were not kept). */
static inline tk_cfg_loc tk_cfg_block_loc(const tk_cfg_process *p, uint32_t block)
{
    tk_cfg_loc none = {0, 0};
    return p->block_locs && block < p->nblocks ? p->block_locs[block] : none;
}
static inline tk_cfg_loc tk_cfg_edge_loc(const tk_cfg_process *p, uint32_t edge)
{
    tk_cfg_loc none = {0, 0};
    return p->edge_locs && edge < p->nedges ? p->edge_locs[edge] : none;
}
/* SIZE of source line i (an index of p->sources). */
static inline uint64_t tk_cfg_source_size(const tk_cfg_process *p, uint32_t i)
{
    return p->source_sizes ? p->source_sizes[i] : p->sources[i].size32;
}
/* Image index of a block index (NONE when out of range). */
TK_API uint32_t tk_cfg_block_image(const tk_cfg_process *p, uint32_t block);
static inline uint32_t tk_cfg_block_size(const tk_cfg_process *p, uint32_t block)
{
    return p->block_wide ? p->block_wide[2 * (size_t)block] : p->blocks[block].size16;
}
/* Offset of the last instruction from the block's first instruction. */
static inline uint32_t tk_cfg_block_last_instr_offset(const tk_cfg_process *p, uint32_t block)
{
    return p->block_wide ? p->block_wide[2 * (size_t)block + 1] : p->blocks[block].last16;
}
TK_API uint64_t tk_cfg_block_addr(const tk_cfg_process *p, const tk_cfg_block *b);
TK_API uint64_t tk_cfg_block_last_instr_addr(const tk_cfg_process *p, const tk_cfg_block *b);
/* Per-thread execution count (derived from edges). */
TK_API uint64_t tk_cfg_block_count_thread(const tk_cfg_process *p, uint32_t block, uint32_t thread);
/* Symbol containing the block start (nearest symbol at or below), with the
 * offset from it; NULL when none. */
TK_API const char *tk_cfg_block_symbol(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t block,
                                uint64_t *offset);
/* Source file and line of the block's first instruction; 0 when unknown. The
 * line of a block is the SOURCE_DATA line of its image starting last at or
 * before the block (the later in file order among equal starts), when that
 * line's SIZE covers the block's address. One call reads the image's whole
 * source table: for many blocks, use tk_cfg_blocks_source. */
TK_API uint32_t tk_cfg_block_source(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t block,
                             const char **file);
/* The same for blocks[0 .. n): lines[k] (0 = unknown) and files[k] (NULL), in
 * one pass over the source tables. 1, or 0 when out of memory. */
TK_API int tk_cfg_blocks_source(const tk_cfg *cfg, const tk_cfg_process *p, const uint32_t *blocks,
                         uint32_t n, uint32_t *lines, const char **files);
/* Length of the COUNT_PER_THREAD of edge index e (0 when it had none). */
static inline uint32_t tk_cfg_edge_nthreads(const tk_cfg_process *p, uint32_t e)
{
    return p->edge_nthreads ? p->edge_nthreads[e] : p->edge_stride;
}
/* Count of an edge (of p->edges) on one thread (0 beyond its COUNT_PER_THREAD),
 * and in all threads. */
static inline uint64_t tk_cfg_edge_count_thread(const tk_cfg_process *p, const tk_cfg_edge *e,
                                                uint32_t thread)
{
    uint32_t i = (uint32_t)(e - p->edges);
    if (thread >= tk_cfg_edge_nthreads(p, i)) return 0;
    uint32_t at = (p->edge_counts ? p->edge_counts[i] : i * p->edge_stride) + thread;
    return p->counts32 ? p->counts32[at] : p->counts64[at];
}
static inline uint64_t tk_cfg_edge_count(const tk_cfg_process *p, const tk_cfg_edge *e)
{
    uint32_t i = (uint32_t)(e - p->edges), n = tk_cfg_edge_nthreads(p, i);
    uint32_t at = p->edge_counts ? p->edge_counts[i] : i * p->edge_stride;
    uint64_t sum = 0;
    if (p->counts32)
        for (uint32_t t = 0; t < n; t++) sum += p->counts32[at + t];
    else
        for (uint32_t t = 0; t < n; t++) sum += p->counts64[at + t];
    return sum;
}

/* ---- successors and predecessors ------------------------------------------ */
/* The adjacency costs 8 bytes an edge and 8 a node, and reading does not build
 * it (`report` never needs it): the first call of tk_cfg_out_edges or
 * tk_cfg_in_edges builds it (safe from several threads at once, like the edge-id
 * map and the address index: the first caller builds, the others wait).
 * tk_cfg_need_adjacency builds it now if needed: TK_OK, or TK_ERR_NOMEM (then
 * the accessors give empty lists). */
TK_API tk_status tk_cfg_need_adjacency(const tk_cfg_process *p);
/* The adjacency, built if needed (NULL when out of memory). */
static inline const tk_cfg_adjacency *tk_cfg_adjacency_of(const tk_cfg_process *p)
{
    const tk_cfg_adjacency *a = __atomic_load_n(&p->adjacency, __ATOMIC_ACQUIRE);
    if (a) return a;
    (void)tk_cfg_need_adjacency(p);
    return __atomic_load_n(&p->adjacency, __ATOMIC_ACQUIRE);
}
/* Edges out of / into node n (edge indexes, file order), *count of them. */
static inline const uint32_t *tk_cfg_out_edges(const tk_cfg_process *p, uint32_t node,
                                               uint32_t *count)
{
    const tk_cfg_adjacency *a = tk_cfg_adjacency_of(p);
    if (!a || node >= p->nnodes) {
        *count = 0;
        return NULL;
    }
    *count = a->out_start[node + 1] - a->out_start[node];
    return a->out_edges + a->out_start[node];
}
static inline const uint32_t *tk_cfg_in_edges(const tk_cfg_process *p, uint32_t node,
                                              uint32_t *count)
{
    const tk_cfg_adjacency *a = tk_cfg_adjacency_of(p);
    if (!a || node >= p->nnodes) {
        *count = 0;
        return NULL;
    }
    *count = a->in_start[node + 1] - a->in_start[node];
    return a->in_edges + a->in_start[node];
}

/* ---- sets of blocks: inbound / outbound / internal edges ----------------- */
/* A block set is described by a membership predicate over block indexes. */
typedef enum tk_cfg_scope_kind {
    TK_SCOPE_PROCESS, TK_SCOPE_IMAGE, TK_SCOPE_ROUTINE, TK_SCOPE_LOOP, TK_SCOPE_BLOCK
} tk_cfg_scope_kind;
typedef struct tk_cfg_scope {
    tk_cfg_scope_kind kind;
    uint32_t index;   /* image, routine, loop or block index */
} tk_cfg_scope;
/* Is node (index) inside the scope?  Special nodes are inside no scope
 * (for PROCESS: inside, as Intel's internal edges exclude only ENTRY/EXIT). */
TK_API int tk_cfg_scope_contains(const tk_cfg_process *p, tk_cfg_scope s, uint32_t node);
typedef enum tk_cfg_edge_class { TK_EDGES_INBOUND, TK_EDGES_OUTBOUND, TK_EDGES_INTERNAL } tk_cfg_edge_class;
/* Edge indexes of a class for a scope, appended to *out (grown with the C
 * library's realloc: the caller frees it with free(); *n and *cap updated).  With out NULL, only counts them (*n increased, cap unused).
 * Returns TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_cfg_scope_edges(const tk_cfg *cfg, const tk_cfg_process *p, tk_cfg_scope s,
                             tk_cfg_edge_class cls, uint32_t **out, size_t *n, size_t *cap);
/* Instruction count (sum COUNT x NUM_INSTRS) and static instruction count. */
TK_API uint64_t tk_cfg_scope_instr_count(const tk_cfg_process *p, tk_cfg_scope s);
TK_API uint64_t tk_cfg_scope_instr_count_thread(const tk_cfg_process *p, tk_cfg_scope s, uint32_t thread);
/* tk_cfg_scope_instr_count_thread of threads 0 .. nthreads-1 into out[], in one pass. */
TK_API void tk_cfg_scope_instr_count_threads(const tk_cfg_process *p, tk_cfg_scope s, uint64_t *out,
                                      uint32_t nthreads);
TK_API uint64_t tk_cfg_scope_static_instrs(const tk_cfg_process *p, tk_cfg_scope s);
/* Number of blocks in the scope (not their executions). */
TK_API uint64_t tk_cfg_scope_block_count(const tk_cfg_process *p, tk_cfg_scope s);

/* ---- routines and loops --------------------------------------------------- */
/* Routine id (its entry block's id), 0 when the entry did not resolve. */
static inline uint32_t tk_cfg_routine_id(const tk_cfg_process *p, uint32_t routine)
{
    if (routine >= p->nroutines || p->routines[routine].entry >= p->nblocks) return 0;
    return p->blocks[p->routines[routine].entry].id;
}
/* Loop id (its head block's id), 0 when the head did not resolve. */
static inline uint32_t tk_cfg_loop_id(const tk_cfg_process *p, uint32_t loop)
{
    if (loop >= p->nloops || p->loops[loop].head >= p->nblocks) return 0;
    return p->blocks[p->loops[loop].head].id;
}
/* Is loop inner nested in loop outer (or the same loop)?  O(1), by the
 * parents. */
static inline int tk_cfg_loop_encloses(const tk_cfg_process *p, uint32_t outer, uint32_t inner)
{
    if (outer >= p->nloops || inner >= p->nloops) return 0;
    const tk_cfg_loop *o = &p->loops[outer];
    uint32_t at = p->loops[inner].forest_first;
    return o->forest_first <= at && at <= o->forest_last;
}
/* Entry count = entry block's execution count. */
TK_API uint64_t tk_cfg_routine_entry_count(const tk_cfg_process *p, const tk_cfg_routine *r);
/* Immediate dominator (node index) of a block in a routine: the entry's is
 * itself; NONE if not in the routine. */
TK_API uint32_t tk_cfg_routine_idom(const tk_cfg_process *p, uint32_t routine, uint32_t block);
/* Loop visits = sum of the counts of entry edges (edges from outside into the
 * head; calls/returns excluded), iterations = head count. */
TK_API uint64_t tk_cfg_loop_entry_count(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t loop);
TK_API uint64_t tk_cfg_loop_entry_count_thread(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t loop,
                                        uint32_t thread);
TK_API uint64_t tk_cfg_loop_iteration_count(const tk_cfg_process *p, uint32_t loop);
/* Is the edge a back edge of the loop (source in back_srcs, target = head)? */
TK_API int tk_cfg_loop_is_back_edge(const tk_cfg_process *p, uint32_t loop, uint32_t edge);

/* ---- Graphviz ------------------------------------------------------------- */
/* What to draw: the routines containing the given node ids, the loops with
 * the given head ids, the given images; everything when all are empty.
 * Edges touching a drawn block are drawn, with their outside endpoint. */
typedef struct tk_cfg_dot_options {
    const uint32_t *routines; size_t nroutines;
    const uint32_t *loops; size_t nloops;
    const uint32_t *images; size_t nimages;
} tk_cfg_dot_options;
#define TK_CFG_DOT_OPTIONS_INIT {NULL, 0, NULL, 0, NULL, 0}
TK_API tk_status tk_cfg_write_dot(const tk_cfg *cfg, const tk_cfg_dot_options *opt, FILE *f, tk_error *err);

/* ---- building (used by readers) ------------------------------------------ */
/* Copy a string into the string table; returns its offset or UINT32_MAX on
 * out-of-memory. */
TK_API uint32_t tk_cfg_add_string(tk_cfg *cfg, const char *s, size_t len);
/* After the tables are filled: resolve ids, build maps, adjacency, address
 * index, derived counts, routine/loop membership; compute routines,
 * dominators and loops where the file has none.  Errors (duplicate ids,
 * unknown ids, a node listed twice in a routine or a loop, sums of counts
 * beyond 64 bits) are reported through diag when not NULL (the model is
 * then usable, but sums may have wrapped where an overflow was reported);
 * without diag the first one returns TK_ERR_FORMAT with err set. */
TK_API tk_status tk_cfg_finish(tk_cfg *cfg, const char *path, tk_diag *diag, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
