/* The storage of a DCFG counts partial (tracekit/dcfg_counts.h), shared by its building and
 * applying (dcfg_counts.c), its merging (dcfg_counts_merge.c), the union DCFG made of it
 * (dcfg_counts_union.c) and its bytes (dcfg_counts_bytes.c). Every table is in the order of
 * its keys, each key once; names are indexes of the ascending names, so that indexes compare
 * as the names do. */
#ifndef TK_ANALYSIS_DCFG_COUNTS_IMPL_H
#define TK_ANALYSIS_DCFG_COUNTS_IMPL_H

#include "tracekit/dcfg_counts.h"

/* A symbol of an image, keyed by (offset, name, size). */
typedef struct tk_dc_symbol {
    uint32_t name;
    uint64_t offset, size;
} tk_dc_symbol;

/* A SOURCE_DATA row, keyed by (offset, size, file, line, num_instrs). */
typedef struct tk_dc_source {
    uint32_t file, line, num_instrs;
    uint64_t offset, size;
} tk_dc_source;

/* An image, keyed by (name, size): name, an index of names ("" when it has none). rank: its
 * place in the order in which the inputs list their images (the first input's, then each
 * later input's images that the earlier ones lack); load_addr, that of the first input that
 * has it. */
typedef struct tk_dc_image {
    uint32_t name, rank, nsymbols, nsources;
    uint64_t size, load_addr;
    tk_dc_symbol *symbols;
    tk_dc_source *sources;
} tk_dc_image;

/* A block, keyed by (image, offset, size, num_instrs, last): image, a position in the
 * process's images; last, its LAST_INSTR_OFFSET. count: its COUNT cells summed, or the sums
 * of its in-edges' counts (has_count 0: no input gave it a COUNT). input: the first input
 * that has it (an index of paths), id its node id there; orig, its index in the model the
 * partial was made of (TK_CFG_NONE in a merged or deserialised partial). */
typedef struct tk_dc_block {
    uint32_t image, size, num_instrs, last, input, id, orig;
    uint8_t has_count;
    uint64_t offset, count;
} tk_dc_block;

/* An edge, keyed by (src, tgt, type): a node is a block's position, or nblocks + the index of
 * a special node's name; type, the index of its type's name. id: its id in the first input
 * that has it. Its counts per thread are counts[at .. at + nthreads). */
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
    char **paths; /* the inputs', in their order */
    char **names; /* ascending (strcmp), each once */
    uint32_t npaths, nnames, nprocesses;
    tk_dc_process *procs;
};

/* A partial with no process yet, of the one input path (copied). NULL when out of memory. */
tk_dcfg_counts *tk_dc_new(const char *path);
void tk_dc_process_release(tk_dc_process *p);

/* "block ID (IMAGE + 0xOFFSET, N instructions)" of block k of process p of c. */
void tk_dc_describe_block(const tk_dcfg_counts *c, const tk_dc_process *p, uint32_t k, char *buf,
                          size_t n);

/* The DCFG of the union of c's graphs (dcfg_counts_union.c): a new model, finished. Returns
 * TK_OK, TK_ERR_FORMAT (blocks of the inputs that conflict: the message names both and their
 * files), TK_ERR_LIMIT (a sum over 64 bits, a table over 2^32 rows), TK_ERR_NOMEM. */
tk_status tk_dc_union(tk_cfg **out, const tk_dcfg_counts *c, tk_error *err);

#endif
