/* tracekit: the control-flow-graph model (processes, images, symbols, source
 * lines, basic blocks, typed edges with per-thread counts, routines with
 * immediate dominators, loops with nesting).
 *
 * Read from DCFG (tracekit/dcfg.h) or recorded (tracekit/record.h); used by
 * the DCFG-Trace cross-checks and the DCFG -> CSI bridge.
 *
 * Shape.  A tk_cfg owns everything; it and its processes are opaque, read
 * through the functions below (they cover every query of Intel's DCFG API).
 * Objects are addressed by *index* (uint32_t, TK_CFG_NONE when absent), 0 ..
 * count - 1 in each table of a process; the file's *ids* are fields.  A
 * table is walked by index: tk_cfg_process_get gives the counts, and
 * tk_cfg_block_get(p, i, &info), tk_cfg_edge_get, ... fill a struct of the
 * caller's with row i.  Lookups id -> index are O(1).
 *
 * Node indexes of a process: 0 .. nblocks-1 are basic blocks,
 * nblocks .. nnodes-1 the special nodes (START, END, UNKNOWN) of the file, so
 * edges always refer to node indexes.
 *
 * Lists (exit nodes, back-edge sources, loop nodes, ...) are arrays of
 * indexes inside the model, borrowed until tk_cfg_free.
 *
 * Counts.  A block's execution count is its COUNT cell when present, else the
 * sum of its in-edge counts.  Per-thread block counts are always derived from
 * the edges (sum of in-edge per-thread counts; out-edges for a node without
 * in-edges), as the spec says.  Instruction count of a set of blocks =
 * sum COUNT x NUM_INSTRS (the file's INSTR_COUNT is kept separately as
 * file_instr_count, like Intel's API which ignores it).  A model read
 * without errors has every such sum within 64 bits: a block's in- and
 * out-edge counts, COUNT x NUM_INSTRS, the process's and each thread's
 * instructions, and so those of any image, routine or loop (their node lists
 * hold each block once) and loop visits; an overflow is an error of the
 * reader (docs/formats/dcfg.md, "Sums").
 *
 * Threads.  A model is read-only once read: any number of threads may query
 * it at once.  The indexes some queries need (adjacency, edge ids, addresses)
 * are built by the first query that needs them, under a lock of the model.
 */
#ifndef TRACEKIT_CFG_H
#define TRACEKIT_CFG_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/alloc.h"
#include "tracekit/status.h"
#include "tracekit/writer.h"

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
TK_API int tk_edge_kind_is_any_branch(tk_edge_kind k); /* BRANCH .. INDIRECT_UNCONDITIONAL_BRANCH */
TK_API int tk_edge_kind_is_any_call(
    tk_edge_kind k); /* CALL, DIRECT_CALL, INDIRECT_CALL, SYSTEM_CALL, CONTEXT_CHANGE */
TK_API int
tk_edge_kind_is_any_return(tk_edge_kind k); /* RETURN, SYSTEM_RETURN, CONTEXT_CHANGE_RETURN */
TK_API int tk_edge_kind_is_any_bypass(
    tk_edge_kind
        k); /* CALL_BYPASS, SYSTEM_CALL_BYPASS, CONTEXT_CHANGE_BYPASS, EXCLUDED_CODE_BYPASS */
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

typedef struct tk_cfg tk_cfg;
typedef struct tk_cfg_process tk_cfg_process;

/* ---- lifetime ----------------------------------------------------------- */
/* An empty model (what readers fill): TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_cfg_open(tk_cfg **out, tk_error *err);
TK_API void tk_cfg_free(tk_cfg *cfg);

/* ---- the model's tables -------------------------------------------------- */
typedef struct tk_cfg_info {
    uint32_t major_version, minor_version;
    int has_version; /* the file gave a version */
    uint32_t nfile_names, nedge_types, nspecials, nprocesses;
} tk_cfg_info;
TK_API void tk_cfg_get(const tk_cfg *cfg, tk_cfg_info *out);

/* FILE_NAMES row i (0 .. nfile_names - 1). */
typedef struct tk_cfg_file_info {
    uint32_t id;
    const char *name;
    tk_cfg_loc loc;
} tk_cfg_file_info;
TK_API void tk_cfg_file_get(const tk_cfg *cfg, uint32_t i, tk_cfg_file_info *out);

/* EDGE_TYPES row i. */
typedef struct tk_cfg_edge_type_info {
    uint32_t id;
    const char *name;
    tk_edge_kind kind;
    tk_cfg_loc loc;
} tk_cfg_edge_type_info;
TK_API void tk_cfg_edge_type_get(const tk_cfg *cfg, uint32_t i, tk_cfg_edge_type_info *out);

/* SPECIAL_NODES row i (node index nblocks + i of every process). */
typedef struct tk_cfg_special_info {
    uint32_t id;
    const char *name;
    tk_special_kind kind;
    tk_cfg_loc loc;
} tk_cfg_special_info;
TK_API void tk_cfg_special_get(const tk_cfg *cfg, uint32_t i, tk_cfg_special_info *out);

/* Process i (0 .. nprocesses - 1), or NULL; borrowed until tk_cfg_free. */
TK_API const tk_cfg_process *tk_cfg_process_at(const tk_cfg *cfg, uint32_t i);

typedef struct tk_cfg_process_info {
    uint64_t pid;
    uint64_t file_instr_count; /* INSTR_COUNT of the file */
    int has_file_instr_count;
    uint32_t nthreads; /* length of INSTR_COUNT_PER_THREAD (or longest COUNT_PER_THREAD) */
    const uint64_t *file_instr_count_per_thread; /* (NULL if absent) */
    uint32_t n_file_instr_count_per_thread;
    uint32_t nimages, nblocks, nsymbols, nsources, nedges, nroutines, nloops;
    uint32_t nnodes; /* nblocks + number of special nodes */
    int routines_computed; /* ROUTINES absent everywhere: computed */
    const char *extra_json; /* what `tracekit record` knows of the run (a JSON object
                                    written under the key TRACEKIT_RECORD), or NULL */
    tk_cfg_loc loc;
} tk_cfg_process_info;
TK_API void tk_cfg_process_get(const tk_cfg *cfg, const tk_cfg_process *p,
                               tk_cfg_process_info *out);

/* ---- the process's tables (row i of each, by index) ---------------------- */
typedef struct tk_cfg_image_info {
    uint32_t id; /* may be 0 */
    uint32_t file_name_id; /* 0 = none */
    const char *file_name; /* NULL when none */
    uint64_t load_addr;
    uint64_t size;
    uint32_t first_block, nblocks; /* blocks of an image are contiguous */
    uint32_t first_symbol, nsymbols;
    uint32_t first_source, nsources;
    uint32_t first_routine, nroutines;
    tk_cfg_loc loc;
} tk_cfg_image_info;
TK_API void tk_cfg_image_get(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t image,
                             tk_cfg_image_info *out);

#define TK_CFG_BLOCK_HAS_COUNT 1u /* the row had a COUNT cell */
#define TK_CFG_BLOCK_HAS_IN_EDGES 2u /* an edge (whose ends resolved) enters the block */

typedef struct tk_cfg_block_info {
    uint32_t id;
    uint32_t image; /* image index (the one whose block range holds the block) */
    uint32_t routine; /* routine index or NONE */
    uint32_t loop; /* innermost loop index or NONE */
    uint32_t idom; /* node index of the immediate dominator, or NONE */
    uint32_t num_instrs;
    uint32_t size;
    uint32_t last_instr_offset; /* of the last instruction from the first */
    uint64_t addr_offset; /* relative to the image load address */
    uint64_t addr; /* absolute address of the first instruction */
    uint64_t count; /* COUNT cell, or derived (see top) */
    unsigned flags; /* TK_CFG_BLOCK_* */
    tk_cfg_loc loc; /* of the row ({0, 0} when locations were not kept: check mode only) */
} tk_cfg_block_info;
TK_API void tk_cfg_block_get(const tk_cfg_process *p, uint32_t block, tk_cfg_block_info *out);

typedef struct tk_cfg_symbol_info {
    const char *name;
    uint32_t image; /* image index */
    uint64_t addr_offset;
    uint64_t size;
} tk_cfg_symbol_info;
TK_API void tk_cfg_symbol_get(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t symbol,
                              tk_cfg_symbol_info *out);

/* A SOURCE_DATA line: the image is the one whose source range holds it. */
typedef struct tk_cfg_source_info {
    uint32_t file_name_id;
    const char *file_name; /* NULL when the id is unknown */
    uint32_t line_num;
    uint32_t num_instrs;
    uint64_t addr_offset;
    uint64_t size;
} tk_cfg_source_info;
TK_API void tk_cfg_source_get(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t source,
                              tk_cfg_source_info *out);

typedef struct tk_cfg_edge_info {
    uint32_t id;
    uint32_t src; /* node index (block or special) */
    uint32_t tgt; /* node index */
    uint32_t type; /* index in the EDGE_TYPES table, or NONE when the type id is unknown */
    tk_edge_kind kind; /* TK_EDGE_OTHER when the type is unknown */
    uint32_t nthreads; /* length of its COUNT_PER_THREAD (0 when it had none) */
    uint64_t count; /* sum over threads */
    tk_cfg_loc loc; /* of the row ({0, 0} when locations were not kept) */
} tk_cfg_edge_info;
TK_API void tk_cfg_edge_get(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t edge,
                            tk_cfg_edge_info *out);

#define TK_CFG_COMPUTED 1u /* routine or loop computed by tracekit, not read */
#define TK_CFG_ROUTINE_HAS_IDOMS 2u /* the NODES table had IDOM_NODE_ID */
#define TK_CFG_ROUTINE_HAS_LOOPS 4u /* the row had a LOOPS cell */

typedef struct tk_cfg_routine_info {
    uint32_t id; /* its entry block's id, 0 when the entry did not resolve */
    uint32_t entry; /* block index */
    uint32_t image;
    const uint32_t *exits; /* block indexes */
    uint32_t nexits;
    const uint32_t *nodes; /* block indexes (file order) */
    uint32_t nnodes;
    uint32_t first_loop, nloops; /* the routine's loops are contiguous */
    unsigned flags; /* TK_CFG_COMPUTED, TK_CFG_ROUTINE_* */
    tk_cfg_loc loc;
} tk_cfg_routine_info;
TK_API void tk_cfg_routine_get(const tk_cfg_process *p, uint32_t routine, tk_cfg_routine_info *out);

typedef struct tk_cfg_loop_info {
    uint32_t id; /* its head block's id, 0 when the head did not resolve */
    uint32_t head; /* block index */
    uint32_t routine;
    uint32_t parent; /* loop index or NONE */
    uint32_t depth; /* 0 for an outermost loop */
    const uint32_t *back_srcs; /* block indexes */
    uint32_t nback_srcs;
    const uint32_t *nodes; /* block indexes */
    uint32_t nnodes;
    unsigned flags; /* TK_CFG_COMPUTED */
    tk_cfg_loc loc;
} tk_cfg_loop_info;
TK_API void tk_cfg_loop_get(const tk_cfg_process *p, uint32_t loop, tk_cfg_loop_info *out);

/* File name of an id, or NULL. */
TK_API const char *tk_cfg_file_name(const tk_cfg *cfg, uint32_t file_name_id);
/* Kind and type name of an edge (TK_EDGE_OTHER and NULL when its type id is unknown). */
TK_API tk_edge_kind tk_cfg_edge_kind(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t edge);
TK_API const char *tk_cfg_edge_type_name(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t edge);

/* ---- lookups ------------------------------------------------------------ */
/* Process index of a pid, or NONE. */
TK_API uint32_t tk_cfg_find_process(const tk_cfg *cfg, uint64_t pid);
/* Node index of a node id (block or special), or NONE. */
TK_API uint32_t tk_cfg_find_node(const tk_cfg_process *p, uint32_t node_id);
/* Block index of a block id, or NONE (also NONE for special nodes). */
TK_API uint32_t tk_cfg_find_block(const tk_cfg_process *p, uint32_t node_id);
/* Edge index of an edge id, or NONE.  The id map (4 bytes an id) is built by
 * the first call; tk_cfg_need_edge_map builds it now: TK_OK or TK_ERR_NOMEM
 * (then tk_cfg_find_edge scans the edges). */
TK_API uint32_t tk_cfg_find_edge(const tk_cfg_process *p, uint32_t edge_id);
TK_API tk_status tk_cfg_need_edge_map(const tk_cfg_process *p, tk_error *err);
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
 * address (4 bytes a block); when that runs out of memory, the blocks are
 * scanned. */
TK_API size_t tk_cfg_blocks_at(const tk_cfg_process *p, uint64_t addr, uint32_t *out, size_t max);

/* ---- nodes ---------------------------------------------------------------- */
/* Special kind of a node index (TK_SPECIAL_OTHER for blocks). */
TK_API tk_special_kind tk_cfg_node_special(const tk_cfg *cfg, const tk_cfg_process *p,
                                           uint32_t node);
/* Id of a node index (block or special), 0 when out of range. */
TK_API uint32_t tk_cfg_node_id(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t node);
TK_API uint32_t tk_cfg_special_node(const tk_cfg *cfg, const tk_cfg_process *p, tk_special_kind k);

/* ---- blocks --------------------------------------------------------------- */
/* Image index of a block index (NONE when out of range). */
TK_API uint32_t tk_cfg_block_image(const tk_cfg_process *p, uint32_t block);
/* Address of the block's first and last instructions. */
TK_API uint64_t tk_cfg_block_addr(const tk_cfg_process *p, uint32_t block);
TK_API uint64_t tk_cfg_block_last_instr_addr(const tk_cfg_process *p, uint32_t block);
/* Execution count (COUNT, or derived: see top) and per-thread execution count
 * (derived from edges). */
TK_API uint64_t tk_cfg_block_count(const tk_cfg_process *p, uint32_t block);
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
 * one pass over the source tables. TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_cfg_blocks_source(const tk_cfg *cfg, const tk_cfg_process *p,
                                      const uint32_t *blocks, uint32_t n, uint32_t *lines,
                                      const char **files, tk_error *err);

/* ---- edge counts ---------------------------------------------------------- */
/* Length of the COUNT_PER_THREAD of an edge (0 when it had none); its count on
 * one thread (0 beyond that), and in all threads. */
TK_API uint32_t tk_cfg_edge_nthreads(const tk_cfg_process *p, uint32_t edge);
TK_API uint64_t tk_cfg_edge_count_thread(const tk_cfg_process *p, uint32_t edge, uint32_t thread);
TK_API uint64_t tk_cfg_edge_count(const tk_cfg_process *p, uint32_t edge);

/* ---- successors and predecessors ------------------------------------------ */
/* Edges out of / into node n (edge indexes, file order; edges whose source or
 * target did not resolve are in neither), *count of them; borrowed until
 * tk_cfg_free.  The adjacency costs 8 bytes an edge and 8 a node, and reading
 * does not build it (`report` never needs it): the first call builds it.
 * tk_cfg_need_adjacency builds it now if needed: TK_OK, or TK_ERR_NOMEM
 * (then the accessors give empty lists). */
TK_API tk_status tk_cfg_need_adjacency(const tk_cfg_process *p, tk_error *err);
TK_API const uint32_t *tk_cfg_out_edges(const tk_cfg_process *p, uint32_t node, uint32_t *count);
TK_API const uint32_t *tk_cfg_in_edges(const tk_cfg_process *p, uint32_t node, uint32_t *count);

/* ---- sets of blocks: inbound / outbound / internal edges ----------------- */
/* A block set is described by a membership predicate over block indexes. */
typedef enum tk_cfg_scope_kind {
    TK_SCOPE_PROCESS,
    TK_SCOPE_IMAGE,
    TK_SCOPE_ROUTINE,
    TK_SCOPE_LOOP,
    TK_SCOPE_BLOCK
} tk_cfg_scope_kind;
typedef struct tk_cfg_scope {
    tk_cfg_scope_kind kind;
    uint32_t index; /* image, routine, loop or block index */
} tk_cfg_scope;
/* Is node (index) inside the scope?  Special nodes are inside no scope
 * (for PROCESS: inside, as Intel's internal edges exclude only ENTRY/EXIT). */
TK_API int tk_cfg_scope_contains(const tk_cfg_process *p, tk_cfg_scope s, uint32_t node);
typedef enum tk_cfg_edge_class {
    TK_EDGES_INBOUND,
    TK_EDGES_OUTBOUND,
    TK_EDGES_INTERNAL
} tk_cfg_edge_class;
/* Edge indexes of a class for a scope, appended to *out (NULL, or an array of
 * an earlier call, grown with the library's allocator: the caller frees it
 * with tk_free; *n and *cap updated).  With out NULL, only counts them (*n
 * increased, cap unused).  Returns TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_cfg_scope_edges(const tk_cfg *cfg, const tk_cfg_process *p, tk_cfg_scope s,
                                    tk_cfg_edge_class cls, uint32_t **out, size_t *n, size_t *cap,
                                    tk_error *err);
/* Instruction count (sum COUNT x NUM_INSTRS) and static instruction count. */
TK_API uint64_t tk_cfg_scope_instr_count(const tk_cfg_process *p, tk_cfg_scope s);
TK_API uint64_t tk_cfg_scope_instr_count_thread(const tk_cfg_process *p, tk_cfg_scope s,
                                                uint32_t thread);
/* tk_cfg_scope_instr_count_thread of threads 0 .. nthreads-1 into out[], in one pass. */
TK_API void tk_cfg_scope_instr_count_threads(const tk_cfg_process *p, tk_cfg_scope s, uint64_t *out,
                                             uint32_t nthreads);
TK_API uint64_t tk_cfg_scope_static_instrs(const tk_cfg_process *p, tk_cfg_scope s);
/* Number of blocks in the scope (not their executions). */
TK_API uint64_t tk_cfg_scope_block_count(const tk_cfg_process *p, tk_cfg_scope s);

/* ---- routines and loops --------------------------------------------------- */
/* Is loop inner nested in loop outer (or the same loop)?  O(1), by the
 * parents. */
TK_API int tk_cfg_loop_encloses(const tk_cfg_process *p, uint32_t outer, uint32_t inner);
/* Entry count = entry block's execution count. */
TK_API uint64_t tk_cfg_routine_entry_count(const tk_cfg_process *p, uint32_t routine);
/* Immediate dominator (node index) of a block in a routine: the entry's is
 * itself; NONE if not in the routine. */
TK_API uint32_t tk_cfg_routine_idom(const tk_cfg_process *p, uint32_t routine, uint32_t block);
/* Loop visits = sum of the counts of entry edges (edges from outside into the
 * head; calls/returns excluded), iterations = head count. */
TK_API uint64_t tk_cfg_loop_entry_count(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t loop);
TK_API uint64_t tk_cfg_loop_entry_count_thread(const tk_cfg *cfg, const tk_cfg_process *p,
                                               uint32_t loop, uint32_t thread);
TK_API uint64_t tk_cfg_loop_iteration_count(const tk_cfg_process *p, uint32_t loop);
/* Is the edge a back edge of the loop (source in back_srcs, target = head)? */
TK_API int tk_cfg_loop_is_back_edge(const tk_cfg_process *p, uint32_t loop, uint32_t edge);

/* ---- Graphviz ------------------------------------------------------------- */
/* What to draw: the routines containing the given node ids, the loops with
 * the given head ids, the given images; everything when all are empty.
 * Edges touching a drawn block are drawn, with their outside endpoint. */
typedef struct tk_cfg_dot_options {
    const uint32_t *routines;
    size_t nroutines;
    const uint32_t *loops;
    size_t nloops;
    const uint32_t *images;
    size_t nimages;
    int intel_layout; /* 1: exactly the lines of Intel's dcfg-to-dot; 0: also a size that
                         Graphviz scales a bigger drawing into (16,000 px at 96 dpi: what
                         ImageMagick opens) */
} tk_cfg_dot_options;
#define TK_CFG_DOT_OPTIONS_INIT \
    { \
        NULL, 0, NULL, 0, NULL, 0, 0 \
    }
/* The CFG as Graphviz dot, as Intel's dcfg-to-dot draws it. TK_OK,
 * TK_ERR_IO (the writer failed) or TK_ERR_NOMEM. */
TK_API tk_status tk_cfg_write_dot(const tk_cfg *cfg, const tk_cfg_dot_options *opt,
                                  const tk_writer *f, tk_error *err);

/* About what Graphviz lays out of a CFG within its limits (tracekit's dot -Tsvg within 20 s
 * and 16,000 px): a real program's whole CFG (3,000 blocks; also Intel's dcfg-to-dot output of
 * SDE's DCFG of a small one, 1,700) takes dot over a minute and fails ("trouble in
 * init_rank"), and one routine of 70 blocks is 14,000 px high. tracekit convert --to dot of a
 * DCFG with more blocks, and nothing chosen, draws its hottest routines. */
#define TK_CFG_DOT_MAX_BLOCKS 100

/* The hottest routines of cfg by the instructions executed in their own blocks, most first,
 * while their blocks add up to at most max_blocks (the hottest one always; routines that
 * never ran are left out), for tk_cfg_dot_options.routines. */
typedef struct tk_cfg_hot_routines {
    uint32_t *ids; /* the node id of each one's entry, hottest first (tk_free) */
    size_t n;
    uint64_t instrs; /* instructions executed in their blocks */
    uint64_t total; /* instructions executed in every block of cfg */
    uint64_t blocks; /* their blocks */
    uint64_t all_blocks; /* the blocks of cfg */
} tk_cfg_hot_routines;
/* TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_cfg_dot_hot_routines(const tk_cfg *cfg, uint64_t max_blocks,
                                         tk_cfg_hot_routines *out, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
