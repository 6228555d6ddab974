/* tracekit: folded stacks as a partial result (what tracekit-mpi merges for `convert --to
 * folded` and `--to svg` of several traces).
 *
 * A partial is the call-path trie of some event sources read one after the other: its nodes
 * in the order they first appeared (a node is a function called from its parent node, or
 * with per_thread a thread's root), each with its weight (self time in ticks, or calls), and
 * the names of the functions. Partials of consecutive sources merge, exactly and
 * associatively, into the partial of all of them read as one chained source
 * (tk_event_chain_init: the threads of each after those of the ones before), and writing a
 * partial gives the bytes tk_export_folded gives of that chained source. A partial knows the
 * traces it covers (a chain's parts, one for any other source) and, per_thread, the trace and
 * pid of each thread, so that the roots of several traces' threads are named with their
 * processes (tk_export_folded) whatever the grouping. */
#ifndef TRACEKIT_FOLDED_PARTIAL_H
#define TRACEKIT_FOLDED_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "events.h"
#include "status.h"
#include "viewers.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_folded_partial tk_folded_partial;

/* The partial of src, read to its end. Returns TK_OK, the source's errors, TK_ERR_LIMIT (a
 * stack deeper or more paths than the exporter takes), TK_ERR_NOMEM. */
TK_API tk_status tk_folded_partial_open(tk_folded_partial **out, const tk_event_source *src,
                                        tk_folded_weight weight, int per_thread, tk_error *err);
TK_API void tk_folded_partial_free(tk_folded_partial *p);

/* Merge `later`, the partial of the sources read after into's. Returns TK_OK, TK_ERR_ARG
 * (another weight or per_thread, or another clock: a rate or time unit other than into's, which
 * tk_event_chain_init refuses to chain: the message says which), TK_ERR_LIMIT (a weight
 * over 64 bits, more paths than the exporter takes), TK_ERR_NOMEM. On an error into is
 * unchanged. */
TK_API tk_status tk_folded_partial_merge(tk_folded_partial *into, const tk_folded_partial *later,
                                         tk_error *err);

/* The folded stacks, as tk_export_folded writes them. Returns TK_OK, TK_ERR_IO, TK_ERR_NOMEM. */
TK_API tk_status tk_folded_partial_write(const tk_folded_partial *p, const tk_writer *out,
                                         tk_error *err);

/* p as bytes, in a block the caller frees with tk_free; canonical: equal partials give equal
 * bytes. "TKFP" 3, then LEB128 varints in their shortest form: the weight, per_thread, the
 * clock rate's bits, whether there is a time unit and its text, the number of traces it
 * covers, the named functions ascending (id, name), then the nodes in their order (parent,
 * whether a thread's root, the function or thread id, the weight; a thread's root then its
 * pid's bits and its trace, 0-based). Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_folded_partial_serialize(const tk_folded_partial *p, uint8_t **data,
                                             size_t *size, tk_error *err);
/* The partial serialised in data[0..size). Returns TK_OK, TK_ERR_FORMAT (not such bytes, or a
 * clock rate that is not a number: the message says what, err's offset where), TK_ERR_NOMEM. */
TK_API tk_status tk_folded_partial_deserialize(tk_folded_partial **out, const uint8_t *data,
                                               size_t size, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
