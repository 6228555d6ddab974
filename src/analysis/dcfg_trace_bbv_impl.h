/* What the basic-block vectors of a whole thread (dcfg_trace_bbv.c) and those of a range of
 * its chunks (dcfg_trace_bbv_part.c) share: one run over a thread's chunks, the source block
 * of each edge executing once, with the one rule of where a slice ends (tk_bbv_ends) and the
 * one adding of blocks into slices (exec_block in dcfg_trace_bbv.c). A run hands its slices
 * to the caller's fn (the whole thread), or to a sink (a range's part, which starts with the
 * instructions of the slice still open before it), or keeps no slices and only appends each
 * executed block's index (the blocks a range's walk reads and its part is made of without
 * decoding again: pass 1 of docs/mpi.md, "DCFG-Trace basic-block vectors"). */
#ifndef TK_DCFG_TRACE_BBV_IMPL_H
#define TK_DCFG_TRACE_BBV_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"
#include "model/cfg_internal.h"
#include "tracekit/dcfg_trace_bbv.h"

/* Why the decoding of a thread stopped. */
enum { BBV_GOING, BBV_STOPPED, BBV_BAD_EDGE, BBV_OVERFLOW, BBV_NOMEM };

/* A block of a slice, as a slice's blocks are sorted: by id, then by index. */
typedef struct tk_bbv_ent {
    uint32_t id, index;
    uint64_t instructions;
} tk_bbv_ent;

typedef struct tk_bbv_run tk_bbv_run;

/* The blocks a run keeps: their indexes in the process, in the order they executed; failed
 * once a growth ran out of memory. */
typedef struct tk_bbv_kept {
    uint32_t *v;
    size_t n, cap;
} tk_bbv_kept;

/* A slice of the run ended: its blocks ents[0..n) (sorted), ended before an execution of the
 * loop head block index head (TK_CFG_NONE: not at a loop head), which had run head_count
 * times in the run before. Returns 0, or -1 out of memory. */
typedef int (*tk_bbv_sink_fn)(void *part, const tk_bbv_ent *ents, size_t n, uint32_t head,
                              uint64_t head_count);

/* One thread's run (of process p of the DCFG). */
struct tk_bbv_run {
    const tk_cfg_process *p;
    const tk_dcfg_trace_bbv_options *o; /* its interval set */
    tk_dcfg_trace_bbv_fn fn; /* the slices, numbered from 1 (without sink) */
    void *ctx;
    tk_bbv_sink_fn sink; /* or the slices to sink(part, ...) */
    void *part;
    tk_bbv_kept *kept; /* or no slices: each executed block's index appended */
    uint64_t *slice; /* instructions per block index in the current slice */
    uint32_t *touched; /* block indexes with slice[b] != 0, ntouched of them */
    size_t ntouched;
    uint64_t *execs; /* executions per block index since the run started */
    uint8_t *is_head; /* block index is a loop head */
    tk_bbv_ent *ents;
    tk_dcfg_trace_bbv_entry *entries;
    uint64_t in_slice; /* instructions in the current slice (at the start: of the one open) */
    uint64_t slices; /* slices handed out */
    uint64_t pid, tid;
    size_t chunk; /* the chunk decoded */
    int stop;
    uint32_t bad_edge;
};

/* Whether a slice that holds in_slice instructions ends before a block starts (a loop head or
 * not): once it holds interval or more, at the next block, or with loop boundaries at the next
 * loop head. The rule of every boundary, of the run and of the walk over kept blocks. */
static inline int tk_bbv_ends(uint64_t in_slice, uint64_t interval, int loops, int head)
{
    return in_slice >= interval && (!loops || head);
}

/* The options as a run reads them (opt NULL: the defaults; interval 0: 100,000,000). */
void tk_bbv_options(const tk_dcfg_trace_bbv_options *opt, tk_dcfg_trace_bbv_options *o);

/* r set up for thread th of t (zeroed, p, o, pid and tid; the caller then sets fn, sink or
 * kept, in_slice). Returns TK_OK, or TK_ERR_FORMAT when the thread's process is not in cfg
 * (at its row, as check --dcfg says it). */
tk_status tk_bbv_run_init(tk_bbv_run *r, const tk_dcfg_trace *t, const tk_cfg *cfg,
                          const tk_dcfg_trace_bbv_options *o, size_t th, tk_error *err);

/* The run over the thread's chunks of global index in [begin, end) (begin == end: none, and
 * all == 1: every chunk of the thread), decoded on o->threads threads. At the end, the last
 * slice: ended (fn) when it holds instructions, or with a sink left open in r (tk_bbv_collect).
 * Frees nothing: tk_bbv_run_free. Returns TK_OK; TK_END when fn asked to stop; TK_ERR_FORMAT
 * (an edge not in the process, an instruction count past 2^64 - 1, at the chunk), the
 * decoder's errors, TK_ERR_NOMEM. */
tk_status tk_bbv_run_chunks(tk_bbv_run *r, const tk_dcfg_trace *t, int all, size_t begin,
                            size_t end, tk_error *err);

/* The run (with a sink) over kept blocks (indexes below p->nblocks, in order) instead of
 * decoding: the same adding of each into the slices. Returns TK_OK; TK_ERR_FORMAT (an
 * instruction count past 2^64 - 1, not located), TK_ERR_NOMEM. */
tk_status tk_bbv_run_kept(tk_bbv_run *r, const uint32_t *blocks, size_t n, tk_error *err);

/* The current slice's blocks into r->ents (sorted), its counts cleared; *n of them. */
void tk_bbv_collect(tk_bbv_run *r, size_t *n);

void tk_bbv_run_free(tk_bbv_run *r);

#endif
