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
} tk_dcfg_trace_bbv_options;

#define TK_DCFG_TRACE_BBV_OPTIONS_INIT \
    { \
        0, 0, 0, 0, 0, 0, 0 \
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

#ifdef __cplusplus
}
#endif
#endif
