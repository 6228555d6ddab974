/* tracekit: basic-block vectors of a DCFG-Trace (what `tracekit convert --to bbv` writes in
 * SimPoint's .bb format): each thread's run cut into slices of N instructions, each slice
 * the instructions every block executed in it. A slice ends before the first block that
 * starts once it holds N instructions or more: blocks are not split, the block that crosses
 * the N-th instruction stays whole in its slice, and the next slice counts its N from there
 * (so the boundaries are not multiples of N of the thread's count: each depends on where the
 * one before it fell). With loop boundaries a slice does not end at its N-th instruction but
 * at the next execution of a loop head, as LoopPoint cuts regions, and the boundary is named
 * by the head and its executions before it. */
#ifndef TRACEKIT_DCFG_TRACE_BBV_H
#define TRACEKIT_DCFG_TRACE_BBV_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "cfg.h"
#include "dcfg_trace.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_dcfg_trace_bbv_options {
    uint64_t interval; /* instructions per slice (0: 100,000,000) */
    int loop_boundaries; /* end a slice at the first loop-head execution after interval */
    int has_pid; /* only this process */
    uint64_t pid;
    int has_thread; /* only this thread id */
    uint64_t thread_id;
    /* decoding workers (0 or 1: the caller's thread): each thread's chunks are decoded and
     * their edges looked up in the DCFG on them, and the blocks are added to the slices in
     * order on the thread that delivers each chunk (tk_dcfg_trace_decode), so that the
     * slices, fn's calls and the errors are those of one thread, for any number */
    unsigned threads;
    /* tk_dcfg_trace_bbv: the trace's threads [thread_begin, thread_end) only (0 and 0: every
     * thread; thread_end 0: to the last), each as among all (tracekit-mpi's root goes on alone
     * from a thread that failed on the ranks) */
    size_t thread_begin, thread_end;
} tk_dcfg_trace_bbv_options;

#define TK_DCFG_TRACE_BBV_OPTIONS_INIT \
    { \
        0, 0, 0, 0, 0, 0, 0, 0, 0 \
    }

/* A block of a slice: its id and the instructions it executed in the slice (its executions
 * times its NUM_INSTRS; blocks of 0 instructions are left out). */
typedef struct tk_dcfg_trace_bbv_entry {
    uint32_t block_id;
    uint64_t instructions;
} tk_dcfg_trace_bbv_entry;

typedef struct tk_dcfg_trace_bbv_slice {
    uint64_t pid, thread_id;
    uint64_t index; /* 1 for the thread's first slice */
    const tk_dcfg_trace_bbv_entry *entries; /* by block id */
    size_t nentries;
    /* with loop boundaries, the slice ended before an execution of the loop head block
     * head_id (address head_addr), which had run head_count times before; else 0 (and so
     * the last slice of a thread, cut by its end) */
    int at_loop_head;
    uint32_t head_id;
    uint64_t head_addr, head_count;
} tk_dcfg_trace_bbv_slice;

/* Receives each slice (borrowed until it returns) in order: the threads one after the other
 * in file order, each thread's slices in order, the last one partial. Returns 0 to go on,
 * non-zero to stop. With opt->threads > 1 it is called on whichever decoding thread delivers
 * next, never two at once. */
typedef int (*tk_dcfg_trace_bbv_fn)(void *ctx, const tk_dcfg_trace_bbv_slice *slice);

/* The vectors of the threads opt selects (NULL: all, the defaults), each edge's source block
 * executing once (the blocks INSTR_COUNT counts). cfg is the DCFG of the traced run.
 * Returns TK_OK; TK_END when fn asked to stop; TK_ERR_FORMAT located when a thread's process
 * is not in cfg (at its row), an edge is not in its process, or a thread's instructions pass
 * 2^64 - 1 (at the chunk: its source blocks hold more than its INSTR_COUNT); the decoder's
 * errors; TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_bbv(const tk_dcfg_trace *t, const tk_cfg *cfg,
                                   const tk_dcfg_trace_bbv_options *opt, tk_dcfg_trace_bbv_fn fn,
                                   void *ctx, tk_error *err);

/* Whether thread th (an index below tk_dcfg_trace_thread_count) is one that opt's pid and
 * thread select (opt NULL: all). */
TK_API int tk_dcfg_trace_bbv_selects(const tk_dcfg_trace *t, const tk_dcfg_trace_bbv_options *opt,
                                     size_t th);

/* ---- one thread's chunks split into ranges (docs/mpi.md, "DCFG-Trace basic-block vectors") --
 * Where a slice ends depends on the instructions of the slice still open when a range starts
 * (its "open" count), a function of every block before it. Three passes make the vectors of
 * ranges that tk_dcfg_trace_bbv makes of the whole thread: (1) each range's blocks, decoded and
 * looked up, kept in the order they executed (4 bytes a block); (2) the ranges' walks one after
 * the other, each from the open count the one before it ended with (thread start: 0), giving
 * each range its own; (3) each range's part from its open count, made of its blocks: its
 * slices, the first continuing the one open before it, which merge in order into the
 * thread's. */

typedef struct tk_dcfg_trace_bbv_blocks tk_dcfg_trace_bbv_blocks;

/* The blocks of thread th's chunks of global index in [chunk_begin, chunk_end) (a contiguous
 * range of the thread's; empty: none), decoded on opt->threads threads; opt's interval and
 * loop_boundaries are the walk's and the part's. They borrow t and cfg. Returns TK_OK;
 * TK_ERR_FORMAT when the thread's process is not in cfg (at its row), an edge of the range is
 * not in it (at its chunk), the decoder's errors, TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_bbv_blocks_open(tk_dcfg_trace_bbv_blocks **out,
                                               const tk_dcfg_trace *t, const tk_cfg *cfg,
                                               const tk_dcfg_trace_bbv_options *opt, size_t th,
                                               size_t chunk_begin, size_t chunk_end, tk_error *err);
/* The range's walk: *open, the instructions of the slice open before the range, becomes that
 * of the slice open after it. Returns TK_OK, or TK_ERR_LIMIT when the thread's instruction
 * count passes 2^64 - 1 in the range (*open unchanged). */
TK_API tk_status tk_dcfg_trace_bbv_blocks_walk(const tk_dcfg_trace_bbv_blocks *k, uint64_t *open,
                                               tk_error *err);
TK_API void tk_dcfg_trace_bbv_blocks_free(tk_dcfg_trace_bbv_blocks *k);

/* The vectors of a range: its slices (the first continuing the slice open before it, the last
 * left open), each boundary's loop head and its executions in the range, and each loop head's
 * executions in it. */
typedef struct tk_dcfg_trace_bbv_part tk_dcfg_trace_bbv_part;

/* The part of thread th's chunks [chunk_begin, chunk_end) (as for the blocks) from open, the
 * instructions of the slice open before them (its walk's), decoded again on opt->threads
 * threads (no blocks kept). Returns TK_OK; the errors of tk_dcfg_trace_bbv that the range
 * meets (TK_ERR_FORMAT located), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_bbv_part_open(tk_dcfg_trace_bbv_part **out, const tk_dcfg_trace *t,
                                             const tk_cfg *cfg,
                                             const tk_dcfg_trace_bbv_options *opt, size_t th,
                                             size_t chunk_begin, size_t chunk_end, uint64_t open,
                                             tk_error *err);
/* The same part made of the range's kept blocks, without decoding. Returns TK_OK,
 * TK_ERR_FORMAT (an instruction count past 2^64 - 1), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_bbv_blocks_part(tk_dcfg_trace_bbv_part **out,
                                               const tk_dcfg_trace_bbv_blocks *k, uint64_t open,
                                               tk_error *err);
/* later, the part of the range right after into's, added to into: into's open slice and
 * later's first added up (an exact merge), later's other slices after it, its loop heads'
 * executions counted from into's. Returns TK_OK, TK_ERR_ARG (parts that do not follow: later's
 * open count is not the one into ends with, or other options), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_bbv_part_merge(tk_dcfg_trace_bbv_part *into,
                                              const tk_dcfg_trace_bbv_part *later, tk_error *err);
/* The part as bytes (canonical: LEB128 varints in their shortest form), *data the caller's
 * (tk_free). Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_bbv_part_serialize(const tk_dcfg_trace_bbv_part *p, uint8_t **data,
                                                  size_t *size, tk_error *err);
/* The part serialised in data[0..size). Returns TK_OK, TK_ERR_FORMAT (bytes that are no such
 * part: the message says what, err's offset where), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_bbv_part_deserialize(tk_dcfg_trace_bbv_part **out,
                                                    const uint8_t *data, size_t size,
                                                    tk_error *err);
TK_API void tk_dcfg_trace_bbv_part_free(tk_dcfg_trace_bbv_part *p);
/* The slices of thread th from p, the merged parts of ranges that cover all its chunks in
 * order, to fn as tk_dcfg_trace_bbv gives them (the last, open one when it holds
 * instructions). Returns TK_OK; TK_END when fn asked to stop; TK_ERR_ARG (p does not start at
 * the thread's start: an open count that is not 0); TK_ERR_FORMAT (the thread's process not in
 * cfg; a block p names that is not the process's). */
TK_API tk_status tk_dcfg_trace_bbv_part_slices(const tk_dcfg_trace_bbv_part *p,
                                               const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                                               tk_dcfg_trace_bbv_fn fn, void *ctx, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
