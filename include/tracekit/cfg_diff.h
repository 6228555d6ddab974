/* tracekit: the difference of two control-flow graphs (two DCFGs of one program: what
 * `tracekit diff` prints for them). Processes are paired in order; blocks are matched by
 * (image id, address offset) and edges by their end blocks and type, since ids may differ
 * between two runs. */
#ifndef TRACEKIT_CFG_DIFF_H
#define TRACEKIT_CFG_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "cfg.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_cfg_diff_options {
    int all; /* also the blocks and edges of both graphs whose counts are equal */
} tk_cfg_diff_options;

#define TK_CFG_DIFF_OPTIONS_INIT {0}

typedef enum tk_cfg_diff_kind {
    TK_CFG_DIFF_PROCESS = 0, /* a pair of processes; its blocks, then its edges follow */
    TK_CFG_DIFF_BLOCK,
    TK_CFG_DIFF_EDGE
} tk_cfg_diff_kind;

/* One item of the difference. Side 0 is the first graph, side 1 the second. */
typedef struct tk_cfg_diff_item {
    tk_cfg_diff_kind kind;
    uint32_t process;          /* index of the pair of processes */
    uint64_t pid[2];           /* PROCESS: the processes' ids */
    uint64_t instructions[2];  /* PROCESS: their instructions executed */
    uint64_t image, offset;    /* BLOCK: image id and address offset */
    const char *type;          /* EDGE: the type name (the first graph's when both have it) */
    int has[2];                /* BLOCK, EDGE: whether that side has it */
    uint32_t id[2];            /* BLOCK, EDGE: its id on each side that has it */
    uint64_t count[2];         /* BLOCK, EDGE: its count on each side (0: absent) */
} tk_cfg_diff_item;

typedef struct tk_cfg_diff tk_cfg_diff;

/* A walk over the difference of a and b (both must outlive it; opt NULL: the defaults).
 * Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_cfg_diff_open(tk_cfg_diff **out, const tk_cfg *a, const tk_cfg *b,
                                  const tk_cfg_diff_options *opt, tk_error *err);
/* The next item: each pair of processes (as many as the graph with fewer has), then its
 * blocks in key order (image id, offset) and its edges in key order (ends, type): those of
 * one side, and those of both whose counts differ (with `all`, every one). Returns TK_OK
 * with *item (borrowed until the next call), TK_END after the last, TK_ERR_NOMEM. */
TK_API tk_status tk_cfg_diff_next(tk_cfg_diff *d, const tk_cfg_diff_item **item,
                                  tk_error *err);
/* The differences met so far (after TK_END: all of them): blocks and edges of one side or
 * whose counts differ, and one more when the graphs' numbers of processes differ. */
TK_API uint64_t tk_cfg_diff_differences(const tk_cfg_diff *d);
/* The graphs' numbers of processes (side 0 and 1). */
TK_API uint32_t tk_cfg_diff_process_count(const tk_cfg_diff *d, int side);
TK_API void tk_cfg_diff_free(tk_cfg_diff *d);

#ifdef __cplusplus
}
#endif
#endif
