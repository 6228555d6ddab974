/* Internal helpers of the cfg model, shared by the model and its readers. */
#ifndef TK_MODEL_CFG_INTERNAL_H
#define TK_MODEL_CFG_INTERNAL_H

#include "core/hash.h"
#include "tracekit/cfg.h"

struct tk_cfg_idmap {
    int direct;
    uint32_t key;   /* hash only: of the slots (tk_hash_new_key) */
    uint32_t cap;   /* direct: max key + 1; hash: power of two */
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
tk_status tk_cfg_loop_children(const tk_cfg_process *p, uint32_t first, uint32_t n, uint32_t **start,
                               uint32_t **child);

#endif
