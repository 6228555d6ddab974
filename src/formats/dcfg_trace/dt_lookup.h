/* A thread of a DCFG-Trace decoded with its edges looked up in the DCFG: on one thread each
 * chunk's edge ids go to the caller's direct function as they come (it looks them up itself,
 * the reference); with threads the chunks are decoded and their edges looked up on the
 * decoding threads (tk_dt_lookup_render, through tk_dcfg_trace_decode's render), and the
 * caller's ordered function receives, in the thread's order, one item per edge: the edge's
 * index in the process (DT_LOOKUP_EDGES) or its source block's index (DT_LOOKUP_SOURCES: the
 * edges from a special node left out); an edge the process lacks ends the items with
 * DT_LOOKUP_MARK and the edge's id. Used by the basic-block vectors (dcfg_trace_bbv.c) and
 * the callgrind profile (dt_profile.c), whose work along the thread stays in order. */
#ifndef TK_DT_LOOKUP_H
#define TK_DT_LOOKUP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/cfg_internal.h"
#include "tracekit/dcfg_trace.h"

typedef enum dt_lookup_what { DT_LOOKUP_EDGES, DT_LOOKUP_SOURCES } dt_lookup_what;

typedef struct dt_lookup {
    const tk_cfg_process *p; /* the thread's process in the DCFG */
    dt_lookup_what what;
    unsigned threads; /* 0 or 1: the direct function on the caller's thread */
} dt_lookup;

/* No index: edge and node indexes are below nedges, nnodes <= UINT32_MAX. */
#define DT_LOOKUP_MARK UINT32_MAX

/* Item i of the items data[0..len) (len / 4 of them, unaligned). */
static inline uint32_t tk_dt_lookup_item(const char *data, size_t i)
{
    uint32_t v;
    memcpy(&v, data + i * sizeof v, sizeof v);
    return v;
}

/* Decode the chunks opt selects (one thread's: has_pid, has_thread) as lk says: on one
 * thread, direct(ctx, ...) receives the edge ids; with threads, ordered(ctx, ...) the items.
 * The process's edge map is built first. tk_dcfg_trace_decode's statuses (TK_END: a callback
 * asked to stop). */
tk_status tk_dt_decode_looked_up(const tk_dcfg_trace *t, const tk_dcfg_trace_decode_options *opt,
                                 const dt_lookup *lk, tk_dcfg_trace_chunk_fn direct,
                                 tk_dcfg_trace_write_text_fn ordered, void *ctx, tk_error *err);

#endif
