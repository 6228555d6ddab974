/* The storage of an events profile partial (tracekit/events_profile.h), shared by
 * events_profile.c (made, merged, made into a profile) and events_profile_bytes.c (bytes). */
#ifndef TK_EXPORT_EVENTS_PROFILE_IMPL_H
#define TK_EXPORT_EVENTS_PROFILE_IMPL_H

#include "core/hash.h"
#include "tracekit/events_profile.h"

#define TK_EP_ID_BITS 28
#define TK_EP_ID_LIMIT (1u << TK_EP_ID_BITS) /* function ids below it */
#define TK_EP_PART_LIMIT 256u /* per_thread: parts (threads with calls) below it */

/* The tables: self (part, function; ticks, calls), arcs (part, caller, callee; count, ticks,
 * calls), roots (thread, callee; count, ticks, calls). */
enum { TK_EP_SELF, TK_EP_ARCS, TK_EP_ROOTS, TK_EP_TABLES };

/* The rows of one table, tk_ep_width cells each (the key's tk_ep_nkey cells, then its sums),
 * in the order they first appeared: rows [0, end) made while the source was read, [end, n)
 * by the calls still open at its end. index (key -> row) only while a table is made. */
typedef struct tk_ep_table {
    uint64_t *v;
    size_t n, cap, end;
    tk_hmap index;
} tk_ep_table;

typedef struct tk_ep_function {
    uint64_t id;
    char *name;
    char *file; /* NULL: not known (line 0) */
    uint32_t line;
} tk_ep_function;

struct tk_events_profile_partial {
    int per_thread;
    double ticks_per_second;
    char *time_unit; /* may be NULL */
    int over_limit; /* per_thread: calls in a thread past TK_EP_PART_LIMIT (tables empty) */
    uint32_t nthreads;
    int64_t *pids, *tids;
    uint32_t *traces; /* per thread the source it came from (< ntraces), UINT32_MAX for an
                         index no event had (no thread) */
    uint32_t ntraces; /* the traces it covers: the parts of a chain, 1 for another source */
    tk_ep_function *fns; /* ascending ids */
    uint32_t nfns;
    tk_ep_table t[TK_EP_TABLES];
};

unsigned tk_ep_width(int table);
unsigned tk_ep_nkey(int table);
/* The hash key of a row's key cells (the fields packed as tk_events_profile packs them:
 * functions below 2^28, self and arc parts below 256). */
uint64_t tk_ep_key(int table, const uint64_t *key);
/* The row of key in t (added with zero sums when absent, t->index kept). NULL: out of
 * memory. Valid until the next row is added. */
uint64_t *tk_ep_row(tk_ep_table *t, int table, const uint64_t *key);
/* An empty partial. NULL when out of memory. */
tk_events_profile_partial *tk_ep_new(int per_thread, double ticks_per_second,
                                     const char *time_unit);

#endif
