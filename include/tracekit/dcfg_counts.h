/* tracekit: the counts of several DCFGs of one program, summed over the union of their graphs
 * (what `merge` of DCFGs and tracekit-mpi compute).
 *
 * A counts partial holds the graphs of some DCFGs and their counts: the processes (matched in
 * their order; the pids may differ), each with its images (by file name and size: the load
 * address may differ, as it does under address randomisation), their symbols and source
 * lines, the blocks (by their image and offset in it, with their size, instructions and last
 * instruction) with their execution counts, and the edges (by their ends and type name) with
 * their counts per thread, keyed by where they are: block and edge ids and the order of the
 * rows do not matter, and the routines and loops of the files are not kept. Partials of
 * consecutive inputs merge, exactly and associatively, into the partial of all of them: the
 * union of their rows, the counts of a row summed (per thread: thread k with thread k), a
 * block's COUNT cell kept when any input has one, INSTR_COUNT and INSTR_COUNT_PER_THREAD kept
 * only when every input has them. tk_dcfg_counts_merged makes the merged DCFG of the result:
 * the first DCFG with the summed counts when every later input's graph is part of its graph,
 * else the DCFG of the union (docs/formats/dcfg.md, "merge"). */
#ifndef TRACEKIT_DCFG_COUNTS_H
#define TRACEKIT_DCFG_COUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "cfg.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_dcfg_counts tk_dcfg_counts;

/* The counts of cfg (path: its file, named by the messages about its rows). Returns TK_OK,
 * TK_ERR_FORMAT (two images of one name and size, two blocks at one place with the same size
 * and instructions, or two edges with the same ends and type: such DCFGs are not merged),
 * TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_counts_open(tk_dcfg_counts **out, const tk_cfg *cfg, const char *path,
                                     tk_error *err);
TK_API void tk_dcfg_counts_free(tk_dcfg_counts *c);

/* Merge `later`, the counts of the inputs read after into's, into `into`. Returns TK_OK,
 * TK_ERR_FORMAT (another number of processes, or a process of another program: its first
 * image, the executable, has another file name; the message names the first file of later
 * and of into), TK_ERR_LIMIT (a sum over 64 bits), TK_ERR_NOMEM. On an error into is
 * unchanged. */
TK_API tk_status tk_dcfg_counts_merge(tk_dcfg_counts *into, const tk_dcfg_counts *later,
                                      tk_error *err);

/* cfg's counts become c's: cfg must have c's graph (the DCFG c's first input was read from,
 * when no later input added to its graph); what `tracekit record` wrote of one run
 * (TRACEKIT_RECORD) is dropped. Call it before anything else reads cfg. Returns TK_OK,
 * TK_ERR_FORMAT (cfg's graph is not c's), TK_ERR_LIMIT (a sum of the new counts over 64 bits:
 * docs/formats/dcfg.md, "Sums"; cfg is then unusable), TK_ERR_NOMEM (the same). */
TK_API tk_status tk_dcfg_counts_apply(tk_cfg *cfg, const tk_dcfg_counts *c, tk_error *err);

/* The merged DCFG of c's inputs into *out. first (or NULL) is the DCFG of c's first input:
 * when its graph is c's (no later input has a block, an edge or an image it lacks), *out is
 * first with c's counts (tk_dcfg_counts_apply), its ids, symbols, source lines, routines and
 * loops kept. Otherwise *out is a new DCFG, the caller's to free, of the union of the graphs
 * (first unchanged): where the blocks of the inputs overlap (one run entered a block of
 * another in its middle) they are cut where any of them starts, each piece a block of some
 * input; new ids; routines, dominators and loops computed as for a DCFG without ROUTINES.
 * Returns TK_OK, TK_ERR_FORMAT (blocks that overlap but do not split into each other, or one
 * place with other instructions: the message names both blocks and their files),
 * TK_ERR_LIMIT (a sum over 64 bits), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_counts_merged(tk_cfg *first, const tk_dcfg_counts *c, tk_cfg **out,
                                       tk_error *err);

/* c as bytes, in a block the caller frees with tk_free. The form is canonical: equal
 * partials give equal bytes, whatever merges made them. "TKDC" 2, then LEB128 varints in
 * their shortest form: the inputs' paths, the names (image files, symbols, source files, edge
 * types, special nodes: ascending, each once), then per process its pid and instruction
 * counts, its images (with their rank, load address, symbols and source lines) and blocks in
 * the order of their keys, its edges in the order of their ends, with their counts. Returns
 * TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_counts_serialize(const tk_dcfg_counts *c, uint8_t **data, size_t *size,
                                          tk_error *err);
/* The partial serialised in data[0..size). Returns TK_OK, TK_ERR_FORMAT (not such bytes: the
 * message says what, err's offset where), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_counts_deserialize(tk_dcfg_counts **out, const uint8_t *data, size_t size,
                                            tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
