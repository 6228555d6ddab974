/* tracekit: the difference of two control-flow graphs (two DCFGs of one program: what
 * `tracekit diff` prints for them). Processes are paired in order. In a pair, images are
 * matched by id, routines by their entry block, blocks by (image id, address offset) and
 * edges by their end blocks and type, since ids may differ between two runs. Each pair has
 * four tables (images, routines, blocks, edges): the rows whose figures differ (with
 * `equal`, every row), the largest change first, cut to `top` rows. */
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
    int equal; /* also the rows whose figures are equal */
    uint64_t top; /* at most this many rows in each table of a pair (0: every row) */
} tk_cfg_diff_options;

#define TK_CFG_DIFF_OPTIONS_INIT \
    { \
        0, 0 \
    }

/* The tables of a pair, in the order `tracekit diff` prints them: the totals of images and
 * routines before the blocks and edges they are made of. */
typedef enum tk_cfg_diff_table {
    TK_CFG_DIFF_IMAGES = 0,
    TK_CFG_DIFF_ROUTINES,
    TK_CFG_DIFF_BLOCKS,
    TK_CFG_DIFF_EDGES
} tk_cfg_diff_table;

#define TK_CFG_DIFF_NTABLES 4

/* A pair of processes. Side 0 is the first graph, side 1 the second. */
typedef struct tk_cfg_diff_pair {
    uint64_t pid[2];
    uint64_t instructions[2]; /* executed */
} tk_cfg_diff_pair;

/* A row of a table: an image, routine, block or edge of one side or of both. */
typedef struct tk_cfg_diff_row {
    int has[2]; /* whether that side has it */
    uint32_t id[2]; /* on each side that has it: the image's id, the routine's
                               * (its entry node's), the block's, the edge's */
    uint32_t image; /* images, routines, blocks: the image id */
    uint64_t offset; /* routines: the entry block's address offset; blocks: theirs */
    const char *name; /* images: the file (NULL: none); routines, blocks: the symbol
                               * at or below the (entry) block (NULL: none); edges: the type */
    uint64_t symbol_offset; /* routines, blocks: the address's offset from that symbol */
    uint32_t source, target; /* edges: the node ids of their ends (the first side's when
                               * both have it) */
    uint64_t count[2]; /* images: block executions; routines: calls (the entry
                               * block's count); blocks, edges: counts */
    uint64_t instructions[2]; /* images, routines (their own blocks), blocks: instructions
                               * executed; edges: 0 */
    uint64_t change; /* what the rows are ordered by: |B - A| of the instructions
                               * (edges: of the counts) */
} tk_cfg_diff_row;

typedef struct tk_cfg_diff tk_cfg_diff;

/* The difference of a and b (both must outlive it; opt NULL: the defaults), computed
 * whole. The rows of each table: those of one side only, and those of both whose figures
 * (count, instructions, calls, executions) differ (with `equal`, every one); the largest
 * change first, then in key order (image id, offset; an edge's ends, then its type); the
 * first `top`. Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_cfg_diff_open(tk_cfg_diff **out, const tk_cfg *a, const tk_cfg *b,
                                  const tk_cfg_diff_options *opt, tk_error *err);
/* The pairs of processes: as many as the graph with fewer has. */
TK_API uint32_t tk_cfg_diff_pairs(const tk_cfg_diff *d);
TK_API void tk_cfg_diff_pair_get(const tk_cfg_diff *d, uint32_t pair, tk_cfg_diff_pair *out);
/* The rows of a table of a pair (pair < tk_cfg_diff_pairs): kept (after the cut to top),
 * and before the cut. */
TK_API size_t tk_cfg_diff_rows(const tk_cfg_diff *d, uint32_t pair, tk_cfg_diff_table t);
TK_API size_t tk_cfg_diff_rows_uncut(const tk_cfg_diff *d, uint32_t pair, tk_cfg_diff_table t);
/* Row i (< tk_cfg_diff_rows) into *out; its name is borrowed from the graphs. */
TK_API void tk_cfg_diff_row_get(const tk_cfg_diff *d, uint32_t pair, tk_cfg_diff_table t, size_t i,
                                tk_cfg_diff_row *out);
/* The differences: blocks and edges of one side or whose counts differ (cut or not), and
 * one more when the graphs' numbers of processes differ. */
TK_API uint64_t tk_cfg_diff_differences(const tk_cfg_diff *d);
/* The graphs' numbers of processes (side 0 and 1). */
TK_API uint32_t tk_cfg_diff_process_count(const tk_cfg_diff *d, int side);
TK_API void tk_cfg_diff_free(tk_cfg_diff *d);

#ifdef __cplusplus
}
#endif
#endif
