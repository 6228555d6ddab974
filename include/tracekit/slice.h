/* tracekit: dynamic slicing and dependence chains over the deps model. */
#ifndef TRACEKIT_SLICE_H
#define TRACEKIT_SLICE_H

#include <stddef.h>
#include <stdint.h>

#include "deps.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_slice_deps {
    TK_SLICE_ALL = 0, /* control and data */
    TK_SLICE_DATA, /* data only (ports >= 1) */
    TK_SLICE_CONTROL /* control only (port 0) */
} tk_slice_deps;

typedef struct tk_slice_options {
    int forward; /* 0: what the criterion depends on; 1: what depends on it */
    tk_slice_deps deps;
    uint64_t max_depth; /* dependence steps from the criterion; 0 = unlimited */
} tk_slice_options;

#define TK_SLICE_OPTIONS_INIT \
    { \
        0, TK_SLICE_ALL, 0 \
    }

/* One instance node. */
typedef struct tk_node {
    uint32_t instr;
    uint32_t inst;
} tk_node;

typedef struct tk_slice tk_slice;

/* The dynamic slice of the criterion nodes (which are part of it). A forward
 * slice builds the model's reverse index. TK_ERR_ARG for a node that does not
 * exist or for data/control slices of a limited-history trace. */
TK_API tk_status tk_slice_compute(tk_deps *d, const tk_node *criterion, size_t ncriterion,
                                  const tk_slice_options *opt, tk_slice **out, tk_error *err);
TK_API void tk_slice_free(tk_slice *s);
TK_API uint64_t tk_slice_size(const tk_slice *s);
TK_API int tk_slice_contains(const tk_slice *s, const tk_deps *d, uint32_t instr, uint32_t inst);
/* Instances of instruction `instr` in the slice. */
TK_API uint64_t tk_slice_count_instr(const tk_slice *s, const tk_deps *d, uint32_t instr);
/* The distinct source places of the slice's instructions (tk_deps_source, with statics),
 * sorted as bytes: *lines[0..*n) in one block the caller frees with tk_free(*lines).
 * Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_slice_lines(const tk_slice *s, const tk_deps *d, const tk_deps *statics,
                                char ***lines, size_t *n, tk_error *err);

/* A dependence chain: steps[0] is `from`, steps[n-1] is `to`; step k+1 is what
 * step k depends on through port steps[k+1].port (or the reverse when
 * *reversed is set: `to` depends on `from`). */
typedef struct tk_chain_step {
    uint32_t instr;
    uint32_t inst;
    uint32_t port; /* port of the dependent instruction used to reach this step */
} tk_chain_step;

/* One shortest chain from `from` to `to` following "depends upon", or, when
 * none exists, from `to` to `from` (then *reversed = 1). TK_END when neither
 * exists. The caller frees *steps with tk_chain_free. TK_OK, TK_END, TK_ERR_ARG (a node
 * the model has not, or dependences of a kind it has not) or TK_ERR_NOMEM. */
TK_API tk_status tk_chain_find(const tk_deps *d, tk_node from, tk_node to, tk_slice_deps deps,
                               tk_chain_step **steps, size_t *nsteps, int *reversed, tk_error *err);
TK_API void tk_chain_free(tk_chain_step *steps);

/* The longest "depends upon" chain starting at each node; reports the `max`
 * longest, starting from distinct instructions. A chain of length 1 is a node
 * with no dependences. Cycles (bad input) are cut; *cyclic tells. */
typedef struct tk_chain_summary {
    tk_node start;
    tk_node end;
    uint64_t length; /* nodes in the chain */
} tk_chain_summary;

/* (TK_OK, TK_ERR_NOMEM) */
TK_API tk_status tk_chain_longest(const tk_deps *d, size_t max, tk_chain_summary *out, size_t *nout,
                                  int *cyclic, tk_error *err);

/* Parse a criterion: "ID:INSTANCE", "ID" (last instance), "0xADDR#INSTANCE",
 * "0xADDR" (last instance), "FILE:LINE" (last instance of each instruction of
 * the line) or "FILE:LINE#INSTANCE". TK_ERR_ARG with a message when nothing
 * matches or an ID is over 64 bits. The caller frees *nodes with
 * tk_chain_free-compatible tk_nodes_free. */
TK_API tk_status tk_criterion_parse(const tk_deps *d, const char *text, tk_node **nodes, size_t *n,
                                    tk_error *err);
/* Whether a criterion names its instance (ID:INSTANCE, 0xADDR#INSTANCE, FILE:LINE#INSTANCE)
 * rather than meaning the last one, as tk_criterion_parse reads it (the text only). */
TK_API int tk_criterion_has_instance(const char *text);
TK_API void tk_nodes_free(tk_node *nodes);

#ifdef __cplusplus
}
#endif
#endif
