/* The call stack of a DCFG-Trace thread as its edges make it: one set of rules for the
 * trace's events (Chrome JSON, folded stacks, flame graphs) and for its callgrind profile, so
 * that every export shows the same functions with the same totals.
 *
 * A frame is a function: the routine of a block, named by the routine's entry block (a block
 * that no routine holds is a function of its own). For each edge:
 *  - a call edge (CALL, SYSTEM_CALL, CONTEXT_CHANGE kinds) between two blocks opens a frame of
 *    the target's function, "called";
 *  - a return edge from a block closes the frames down to the top chain's called frame: a
 *    chain is a called frame and the frames jumps opened above it, which one return ends (a
 *    tail call returns for its caller);
 *  - otherwise, and after a return, the top frame must be the function of the edge's target
 *    block: when that function is in the top chain, the frames above its frame close (a jump
 *    back, main.cold to main); when it is not, a frame of it opens, "entered by a jump" (a tail
 *    call, a PLT stub's jump to its function, ld.so's jump to the program's _start); with no
 *    frame open, as the thread's next top-level frame (called).
 * Before an edge from a block, the block's function is reconciled the same way (the thread's
 * first edge, a chunk that does not go on where the last one ended). So every instruction of
 * the trace counts in a frame of its own routine, and every routine entered is reachable from
 * the thread's top-level frames. A function is at most once in a chain: finding it is one
 * look-up. */
#ifndef TK_DT_STACK_H
#define TK_DT_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "model/cfg_internal.h"

#define DT_NO_FRAME SIZE_MAX

typedef struct dt_stack_frame {
    uint32_t fn; /* the function: the entry block index of its routine */
    int called; /* opened by a call edge or as a top-level frame; 0: by a jump */
    size_t base; /* the called frame of this frame's chain */
    size_t below; /* the next frame of fn below this one, or DT_NO_FRAME */
} dt_stack_frame;

typedef struct dt_stack {
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    dt_stack_frame *frames;
    size_t depth, cap;
    size_t *top_of; /* per block index: the topmost frame of the function it names */
    uint32_t nblocks;
} dt_stack;

/* What a step does: frames [keep, depth) close, the top one first; then, with open set, a
 * frame of fn opens (called or by a jump). */
typedef struct dt_step {
    size_t keep;
    int open;
    int called;
    uint32_t fn;
} dt_step;

#define DT_STACK_INIT \
    { \
        0 \
    }

/* Start a thread of process p (frames a thread left open are dropped).
 * TK_OK or TK_ERR_NOMEM. */
tk_status tk_dt_stack_begin(dt_stack *s, const tk_cfg *cfg, const tk_cfg_process *p);
void tk_dt_stack_free(dt_stack *s);

/* The function of a block: its routine's entry block, or the block itself. */
uint32_t tk_dt_stack_fn(const tk_cfg_process *p, uint32_t block);

/* The step before an edge from block (its function on top), of edge ed, and at the thread's
 * end (every frame closes). They do not change the stack: tk_dt_stack_apply does. */
void tk_dt_stack_at_block(const dt_stack *s, uint32_t block, dt_step *step);
void tk_dt_stack_edge(const dt_stack *s, const tk_cfg_edge *ed, dt_step *step);
void tk_dt_stack_end(const dt_stack *s, dt_step *step);

/* Make the step. TK_OK or TK_ERR_NOMEM (the stack is then unchanged). */
tk_status tk_dt_stack_apply(dt_stack *s, const dt_step *step);

#endif
