/* The cfg model inside the library: its storage (tracekit/cfg.h has the
 * opaque handles and their accessors), the building functions of the
 * readers, and the helpers the model, its readers and analyses share. The
 * storage keeps the model small: SIZE and LAST_INSTR_OFFSET of blocks in 16
 * bits while every block's fit (block_wide else), per-thread edge counts in
 * 32 bits while every one fits (counts64 else), source SIZE in 32 bits
 * (source_sizes else); the inline readers below hide it from the library's
 * own loops. */
#ifndef TK_MODEL_CFG_INTERNAL_H
#define TK_MODEL_CFG_INTERNAL_H

#include <pthread.h>

#include "core/hash.h"
#include "tracekit/cfg.h"

typedef struct tk_cfg_idmap tk_cfg_idmap;


typedef struct tk_cfg_file_name {
    uint32_t id;
    uint32_t name; /* offset in strings (NUL-terminated) */
    tk_cfg_loc loc;
} tk_cfg_file;

typedef struct tk_cfg_edge_type {
    uint32_t id;
    uint32_t name; /* offset in strings */
    tk_edge_kind kind;
    tk_cfg_loc loc;
} tk_cfg_edge_type;

typedef struct tk_cfg_special {
    uint32_t id;
    uint32_t name; /* offset in strings */
    tk_special_kind kind;
    tk_cfg_loc loc;
} tk_cfg_special;

typedef struct tk_cfg_symbol {
    uint32_t name; /* offset in strings */
    uint32_t image; /* image index */
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
    uint32_t size32; /* see above */
    uint64_t addr_offset;
} tk_cfg_source;

/* 40 bytes: the image is the one whose block range holds the block
 * (tk_cfg_block_image); SIZE and LAST_INSTR_OFFSET are read with
 * tk_cfg_block_size and tk_cfg_block_last_instr_offset (16 bits here while
 * every block of the process has both below 65536, else p->block_wide). */
typedef struct tk_cfg_block {
    uint32_t id;
    uint32_t routine; /* routine index or NONE */
    uint32_t loop; /* innermost loop index or NONE */
    uint32_t idom; /* node index of the immediate dominator, or NONE */
    uint32_t num_instrs;
    uint16_t size16, last16; /* see above */
    uint64_t addr_offset; /* relative to the image load address */
    uint64_t count; /* COUNT cell, or derived (see top) */
} tk_cfg_block; /* flags: p->block_flags[index] */


typedef struct tk_cfg_edge {
    uint32_t id;
    uint32_t src; /* node index (block or special) */
    uint32_t tgt; /* node index */
    uint32_t type; /* index in cfg->edge_types, or NONE when the type id is unknown */
} tk_cfg_edge; /* COUNT_PER_THREAD: tk_cfg_edge_nthreads, tk_cfg_edge_count_thread;
                           * the total: tk_cfg_edge_count (sum over threads, checked for
                           * 64-bit overflow when read) */


typedef struct tk_cfg_routine {
    uint32_t entry; /* block index; the routine id is the entry's id */
    uint32_t image;
    uint32_t exits, nexits; /* block indexes in the pool */
    uint32_t nodes, nnodes; /* block indexes in the pool (file order) */
    uint32_t first_loop, nloops; /* the routine's loops are contiguous in loops[] */
    uint32_t flags; /* TK_CFG_COMPUTED, TK_CFG_ROUTINE_* */
    tk_cfg_loc loc;
} tk_cfg_routine;

typedef struct tk_cfg_loop {
    uint32_t head; /* block index; the loop id is the head's id */
    uint32_t routine;
    uint32_t parent; /* loop index or NONE */
    uint32_t depth; /* 0 for an outermost loop */
    uint32_t back_srcs, nback_srcs; /* block indexes in the pool */
    uint32_t nodes, nnodes; /* block indexes in the pool */
    uint32_t flags;
    /* the loop's place in a preorder of all loops by parent, and the last
     * place of the loops nested in it (tk_cfg_loop_encloses) */
    uint32_t forest_first, forest_last;
    tk_cfg_loc loc;
} tk_cfg_loop;

typedef struct tk_cfg_image {
    uint32_t id; /* may be 0 */
    uint32_t file_name_id; /* 0 = none */
    uint64_t load_addr;
    uint64_t size;
    uint32_t first_block, nblocks; /* blocks of an image are contiguous */
    uint32_t first_symbol, nsymbols;
    uint32_t first_source, nsources;
    uint32_t first_routine, nroutines;
    tk_cfg_loc loc;
} tk_cfg_image;


/* Adjacency (CSR over node indexes): the edges out of / into node n are
 * out_edges[out_start[n] .. out_start[n+1]) (edge indexes, file order); edges
 * whose source or target did not resolve are in neither.  Read it with
 * tk_cfg_out_edges / tk_cfg_in_edges. */
typedef struct tk_cfg_adjacency {
    uint32_t *out_start, *out_edges, *in_start, *in_edges;
} tk_cfg_adjacency;

struct tk_cfg_process {
    uint64_t pid;
    uint64_t file_instr_count; /* INSTR_COUNT of the file */
    int has_file_instr_count;
    uint32_t nthreads; /* length of INSTR_COUNT_PER_THREAD (or longest COUNT_PER_THREAD) */
    uint64_t *file_instr_count_per_thread; /* nthreads values (NULL if absent) */
    uint32_t n_file_instr_count_per_thread;

    tk_cfg_image *images;
    uint32_t nimages;
    tk_cfg_block *blocks;
    uint32_t nblocks;
    uint8_t *block_flags; /* per block: TK_CFG_BLOCK_* */
    /* NULL, or SIZE and LAST_INSTR_OFFSET of block b at [2b] and [2b + 1]
     * when some block's do not fit 16 bits */
    uint32_t *block_wide;
    tk_cfg_symbol *symbols;
    uint32_t nsymbols;
    tk_cfg_source *sources;
    uint32_t nsources;
    uint64_t *source_sizes; /* NULL, or every SIZE when one does not fit 32 bits */
    tk_cfg_edge *edges;
    uint32_t nedges;
    tk_cfg_routine *routines;
    uint32_t nroutines;
    tk_cfg_loop *loops;
    uint32_t nloops;
    uint32_t nnodes; /* nblocks + number of special nodes */

    uint32_t *pool;
    uint32_t npool; /* u32 lists */
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
    /* the lock of the caches (adjacency, edge_map, blocks_by_addr,
     * symbols_by_addr): the model's (tk_cfg_finish sets it) */
    pthread_mutex_t *cache_lock;

    tk_cfg_idmap *node_map; /* node id -> node index */
    tk_cfg_idmap *edge_map; /* edge id -> edge index: built on demand (tk_cfg_find_edge) */
    tk_cfg_idmap *loop_map; /* head block index -> loop index */
    tk_cfg_idmap *routine_map; /* entry block index -> routine index */
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
    int routines_computed; /* ROUTINES absent everywhere: computed */
    /* a JSON object the writer puts under the process data's key
     * TRACEKIT_RECORD (what `tracekit record` knows of the run: command, end,
     * completeness): an offset in strings, 0 for none; readers leave it 0 */
    uint32_t extra_json;
};

struct tk_cfg {
    pthread_mutex_t cache_lock; /* builds the processes' caches (see tk_cfg_process) */
    uint32_t major_version, minor_version;
    int has_version;
    tk_cfg_file *file_names;
    uint32_t nfile_names;
    tk_cfg_idmap *file_name_map; /* FILE_NAME_ID -> index of its first row (tk_cfg_finish) */
    tk_cfg_edge_type *edge_types;
    uint32_t nedge_types;
    tk_cfg_special *specials;
    uint32_t nspecials;
    tk_cfg_process *processes;
    uint32_t nprocesses;
    char *strings;
    size_t nstrings, cap_strings;
};


/* ---- building (the readers) ----------------------------------------------- */
/* An empty model: TK_OK or TK_ERR_NOMEM. */
tk_status tk_cfg_open(tk_cfg **out, tk_error *err);
/* Copy a string into the string table; returns its offset or UINT32_MAX on
 * out-of-memory. */
uint32_t tk_cfg_add_string(tk_cfg *cfg, const char *s, size_t len);
/* After the tables are filled: resolve ids, build maps, adjacency, address
 * index, derived counts, routine/loop membership; compute routines,
 * dominators and loops where the file has none.  Errors (duplicate ids,
 * unknown ids, a node listed twice in a routine or a loop, sums of counts
 * beyond 64 bits) are reported through diag when not NULL (the model is
 * then usable, but sums may have wrapped where an overflow was reported);
 * without diag the first one returns TK_ERR_FORMAT with err set. */
tk_status tk_cfg_finish(tk_cfg *cfg, const char *path, tk_diag *diag, tk_error *err);
/* After process i's counts were replaced (its edges' per-thread counts, its blocks' COUNT
 * cells and TK_CFG_BLOCK_HAS_COUNT flags; tk_dcfg_counts_apply): the derived block counts
 * made anew and the sums checked as tk_cfg_finish checks them. Returns TK_OK, TK_ERR_LIMIT
 * (a sum over 64 bits, err naming the first, at path), TK_ERR_NOMEM. */
tk_status tk_cfg_recount(tk_cfg *cfg, uint32_t i, const char *path, tk_error *err);

/* ---- reading the storage (what the public accessors give, inline) ---------- */
static inline const char *cfg_str(const tk_cfg *cfg, uint32_t off) { return cfg->strings + off; }
static inline const uint32_t *cfg_list(const tk_cfg_process *p, uint32_t off)
{
    return p->pool + off;
}
static inline int cfg_is_block(const tk_cfg_process *p, uint32_t node) { return node < p->nblocks; }
/* Row location of a block / edge ({0, 0} when locations were not kept). */
static inline tk_cfg_loc cfg_block_loc(const tk_cfg_process *p, uint32_t block)
{
    tk_cfg_loc none = {0, 0};
    return p->block_locs && block < p->nblocks ? p->block_locs[block] : none;
}
static inline tk_cfg_loc cfg_edge_loc(const tk_cfg_process *p, uint32_t edge)
{
    tk_cfg_loc none = {0, 0};
    return p->edge_locs && edge < p->nedges ? p->edge_locs[edge] : none;
}
/* SIZE of source line i (an index of p->sources). */
static inline uint64_t cfg_source_size(const tk_cfg_process *p, uint32_t i)
{
    return p->source_sizes ? p->source_sizes[i] : p->sources[i].size32;
}
static inline uint32_t cfg_block_size(const tk_cfg_process *p, uint32_t block)
{
    return p->block_wide ? p->block_wide[2 * (size_t)block] : p->blocks[block].size16;
}
/* Offset of the last instruction from the block's first instruction. */
static inline uint32_t cfg_block_last_instr_offset(const tk_cfg_process *p, uint32_t block)
{
    return p->block_wide ? p->block_wide[2 * (size_t)block + 1] : p->blocks[block].last16;
}
/* Length of the COUNT_PER_THREAD of edge index e (0 when it had none). */
static inline uint32_t cfg_edge_nthreads(const tk_cfg_process *p, uint32_t e)
{
    return p->edge_nthreads ? p->edge_nthreads[e] : p->edge_stride;
}
/* Count of an edge (of p->edges) on one thread (0 beyond its COUNT_PER_THREAD),
 * and in all threads. */
static inline uint64_t cfg_edge_count_thread(const tk_cfg_process *p, const tk_cfg_edge *e,
                                             uint32_t thread)
{
    uint32_t i = (uint32_t)(e - p->edges);
    if (thread >= cfg_edge_nthreads(p, i)) return 0;
    uint32_t at = (p->edge_counts ? p->edge_counts[i] : i * p->edge_stride) + thread;
    return p->counts32 ? p->counts32[at] : p->counts64[at];
}
static inline uint64_t cfg_edge_count(const tk_cfg_process *p, const tk_cfg_edge *e)
{
    uint32_t i = (uint32_t)(e - p->edges), n = cfg_edge_nthreads(p, i);
    uint32_t at = p->edge_counts ? p->edge_counts[i] : i * p->edge_stride;
    uint64_t sum = 0;
    if (p->counts32)
        for (uint32_t t = 0; t < n; t++) sum += p->counts32[at + t];
    else
        for (uint32_t t = 0; t < n; t++) sum += p->counts64[at + t];
    return sum;
}
/* The adjacency, built if needed (NULL when out of memory). */
static inline const tk_cfg_adjacency *cfg_adjacency_of(const tk_cfg_process *p)
{
    const tk_cfg_adjacency *a = __atomic_load_n(&p->adjacency, __ATOMIC_ACQUIRE);
    if (a) return a;
    (void)tk_cfg_need_adjacency(p, NULL);
    return __atomic_load_n(&p->adjacency, __ATOMIC_ACQUIRE);
}
/* Edges out of / into node n (edge indexes, file order), *count of them. */
static inline const uint32_t *cfg_out_edges(const tk_cfg_process *p, uint32_t node, uint32_t *count)
{
    const tk_cfg_adjacency *a = cfg_adjacency_of(p);
    if (!a || node >= p->nnodes) {
        *count = 0;
        return NULL;
    }
    *count = a->out_start[node + 1] - a->out_start[node];
    return a->out_edges + a->out_start[node];
}
static inline const uint32_t *cfg_in_edges(const tk_cfg_process *p, uint32_t node, uint32_t *count)
{
    const tk_cfg_adjacency *a = cfg_adjacency_of(p);
    if (!a || node >= p->nnodes) {
        *count = 0;
        return NULL;
    }
    *count = a->in_start[node + 1] - a->in_start[node];
    return a->in_edges + a->in_start[node];
}
/* Routine id (its entry block's id), 0 when the entry did not resolve. */
static inline uint32_t cfg_routine_id(const tk_cfg_process *p, uint32_t routine)
{
    if (routine >= p->nroutines || p->routines[routine].entry >= p->nblocks) return 0;
    return p->blocks[p->routines[routine].entry].id;
}
/* Loop id (its head block's id), 0 when the head did not resolve. */
static inline uint32_t cfg_loop_id(const tk_cfg_process *p, uint32_t loop)
{
    if (loop >= p->nloops || p->loops[loop].head >= p->nblocks) return 0;
    return p->blocks[p->loops[loop].head].id;
}
/* Is loop inner nested in loop outer (or the same loop)?  O(1). */
static inline int cfg_loop_encloses(const tk_cfg_process *p, uint32_t outer, uint32_t inner)
{
    if (outer >= p->nloops || inner >= p->nloops) return 0;
    const tk_cfg_loop *o = &p->loops[outer];
    uint32_t at = p->loops[inner].forest_first;
    return o->forest_first <= at && at <= o->forest_last;
}
/* Of a stored record (tk_cfg_stored_: internal; the public forms, tk_cfg_block_addr, ...,
 * take indexes). */
uint64_t tk_cfg_stored_block_addr(const tk_cfg_process *p, const tk_cfg_block *b);
uint64_t tk_cfg_stored_block_last_instr_addr(const tk_cfg_process *p, const tk_cfg_block *b);
tk_edge_kind tk_cfg_stored_edge_kind(const tk_cfg *cfg, const tk_cfg_edge *e);
const char *tk_cfg_stored_edge_type_name(const tk_cfg *cfg, const tk_cfg_edge *e);
uint64_t tk_cfg_stored_routine_entry_count(const tk_cfg_process *p, const tk_cfg_routine *r);

struct tk_cfg_idmap {
    int direct;
    uint32_t key; /* hash only: of the slots (tk_hash_new_key) */
    uint32_t cap; /* direct: max key + 1; hash: power of two */
    uint32_t *keys; /* hash only */
    uint32_t *vals; /* TK_CFG_NONE = empty */
};

/* Keyed (the map's key): only lookups go through the slots. */
static inline uint32_t tk_cfg_hash32(uint32_t key, uint32_t x)
{
    x ^= key;
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

tk_cfg_idmap *tk_cfg_idmap_new(uint32_t count, uint32_t max_key);
void tk_cfg_idmap_free(tk_cfg_idmap *m);
/* Insert key -> val unless present; returns the previous value or NONE. */
uint32_t tk_cfg_idmap_put(tk_cfg_idmap *m, uint32_t key, uint32_t val);
static inline uint32_t tk_cfg_idmap_get(const tk_cfg_idmap *m, uint32_t key)
{
    if (!m) return TK_CFG_NONE;
    if (m->direct) return key < m->cap ? m->vals[key] : TK_CFG_NONE;
    uint32_t mask = m->cap - 1;
    for (uint32_t i = tk_cfg_hash32(m->key, key) & mask;; i = (i + 1) & mask) {
        if (m->vals[i] == TK_CFG_NONE) return TK_CFG_NONE;
        if (m->keys[i] == key) return m->vals[i];
    }
}

/* Grow *arr (elements of elem bytes, capacity *cap) to hold need; 0 on failure. */
int tk_cfg_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem);
void tk_cfg_process_release(tk_cfg_process *p);

/* Sorts ord[0..n) (record indexes, ascending on entry) by the u64 address at
 * byte `off` of the records of `stride` bytes at base, equal addresses by
 * index: a stable LSD radix sort.  With pairs, of (address, index) pairs when
 * addresses fit 32 bits (passes in memory order, faster; 16 bytes of scratch
 * an element), else of the indexes (4 bytes).  0 when out of memory. */
int tk_cfg_sort_by_addr(uint32_t *ord, uint32_t n, const void *base, size_t stride, size_t off,
                        int pairs);

/* tk_cfg_loop_entry_count of loops[0 .. n) into out[]: one pass over the
 * edges (no adjacency) when the loops are small.  0 when out of memory. */
int tk_cfg_loop_entry_counts(const tk_cfg *cfg, const tk_cfg_process *p, const uint32_t *loops,
                             uint32_t n, uint64_t *out);

/* Immediate dominators of routine r computed from its intra-routine edges:
 * idom_blocks[k] for the k-th node of the routine's node list (block index,
 * NONE when unreachable from the entry). */
tk_status tk_cfg_routine_dominators(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t r,
                                    uint32_t *idom_blocks);

/* The loops first .. first + n - 1 grouped by parent, for parents in that
 * range: the children of loop first + k are (*child)[(*start)[k] ..
 * (*start)[k + 1]), offsets from first, in index order.  The caller frees
 * both arrays (*start has n + 2 cells). */
tk_status tk_cfg_loop_children(const tk_cfg_process *p, uint32_t first, uint32_t n,
                               uint32_t **start, uint32_t **child);

#endif
