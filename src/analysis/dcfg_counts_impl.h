/* The storage of a DCFG counts partial (tracekit/dcfg_counts.h), shared by its building,
 * merging and applying (dcfg_counts.c) and its bytes (dcfg_counts_bytes.c). */
#ifndef TK_ANALYSIS_DCFG_COUNTS_IMPL_H
#define TK_ANALYSIS_DCFG_COUNTS_IMPL_H

#include "tracekit/dcfg_counts.h"

/* An image: its file name (an index of names; "" when it has none) and size. */
typedef struct tk_dc_image {
    uint32_t name;
    uint64_t size;
} tk_dc_image;

/* A block, keyed by (image, offset, size, num_instrs): image is a position in the process's
 * images. count: its COUNT cell, or the sum of its in-edges' counts (has_count 0). id and orig
 * are the first input's (its node id, its index in the model the partial was made of: not in
 * the bytes, which give TK_CFG_NONE). */
typedef struct tk_dc_block {
    uint32_t image, size, num_instrs, id, orig;
    uint8_t has_count;
    uint64_t offset, count;
} tk_dc_block;

/* An edge, keyed by (src, tgt, type): a node is a block's position, or nblocks + the index of
 * a special node's name; type, the index of its type's name. Its counts per thread are
 * counts[at .. at + nthreads). */
typedef struct tk_dc_edge {
    uint32_t src, tgt, type, id, orig, nthreads;
    uint64_t at;
} tk_dc_edge;

typedef struct tk_dc_process {
    uint64_t pid; /* the first input's */
    uint8_t has_instr_count, has_per_thread;
    uint64_t instr_count;
    uint64_t *per_thread; /* INSTR_COUNT_PER_THREAD, nper_thread of them */
    uint32_t nper_thread, nimages, nblocks, nedges;
    tk_dc_image *images;
    tk_dc_block *blocks;
    tk_dc_edge *edges;
    uint64_t *counts;
    uint64_t ncounts;
} tk_dc_process;

struct tk_dcfg_counts {
    char *path; /* the first input's */
    char **names; /* ascending (strcmp), each once */
    uint32_t nnames, nprocesses;
    tk_dc_process *procs;
};

/* A partial with no process yet, of path (copied). NULL when out of memory. */
tk_dcfg_counts *tk_dc_new(const char *path);

#endif
