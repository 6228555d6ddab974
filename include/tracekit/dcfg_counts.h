/* tracekit: the counts of several DCFGs of one program, summed (what `merge` of DCFGs and
 * tracekit-mpi compute).
 *
 * A counts partial holds what varies between runs of one program that took the same paths:
 * each block's execution count, each edge's count per thread, the instruction counts the
 * files give (INSTR_COUNT, INSTR_COUNT_PER_THREAD), keyed by where they are, with the
 * structure they are keyed by. DCFGs match when they have the same processes (in order; the
 * pids may differ), each with the same images (by file name and size: the load address may
 * differ, as it does under address randomisation), the same blocks (by their image and
 * offset in it, with the same size and number of instructions) and the same edges (by their
 * ends and type name): block and edge ids, the order of the rows and the routines and loops
 * of the files are not compared. Partials of consecutive inputs merge, exactly and
 * associatively, into the partial of all of them: counts summed (per thread: thread k with
 * thread k), a block's COUNT cell kept when any input has one, INSTR_COUNT and
 * INSTR_COUNT_PER_THREAD kept only when every input has them. Applied to the first DCFG, the
 * result is that DCFG with the summed counts (tk_dcfg_write writes it). */
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

/* The counts of cfg (path: its file, named by the messages of a merge that refuses it).
 * Returns TK_OK, TK_ERR_FORMAT (two images of one name and size, two blocks at one place or
 * two edges with the same ends and type: such DCFGs are not matched), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_counts_open(tk_dcfg_counts **out, const tk_cfg *cfg, const char *path,
                                     tk_error *err);
TK_API void tk_dcfg_counts_free(tk_dcfg_counts *c);

/* Merge `later`, the counts of the inputs read after into's, into `into`. Returns TK_OK,
 * TK_ERR_FORMAT (the DCFGs do not match: the message names the first file of later, the
 * process and the image, block or edge that differs, and the first file of into),
 * TK_ERR_LIMIT (a sum over 64 bits), TK_ERR_NOMEM. On an error into is unchanged. */
TK_API tk_status tk_dcfg_counts_merge(tk_dcfg_counts *into, const tk_dcfg_counts *later,
                                      tk_error *err);

/* cfg's counts become c's: cfg must match c (the DCFG c's first input was read from, or one
 * that matches it); what `tracekit record` wrote of one run (TRACEKIT_RECORD) is dropped.
 * Call it before anything else reads cfg. Returns TK_OK, TK_ERR_FORMAT (cfg does not match
 * c), TK_ERR_LIMIT (a sum of the new counts over 64 bits: docs/formats/dcfg.md, "Sums"; cfg
 * is then unusable), TK_ERR_NOMEM (the same). */
TK_API tk_status tk_dcfg_counts_apply(tk_cfg *cfg, const tk_dcfg_counts *c, tk_error *err);

/* c as bytes, in a block the caller frees with tk_free. The form is canonical: equal
 * partials give equal bytes, whatever merges made them. "TKDC" 1, then LEB128 varints in
 * their shortest form: the first input's path, the names (image files, edge types, special
 * nodes: ascending, each once), then per process its pid and instruction counts, its images
 * and blocks in the order of their keys, its edges in the order of their ends, with their
 * counts. Returns TK_OK, TK_ERR_NOMEM. */
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
