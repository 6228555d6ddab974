/* Latency accounting's insides, shared by latency.c (the run, the rows) and latency_merge.c
 * (partial results: merge, serialise). */
#ifndef TK_ANALYSIS_LATENCY_IMPL_H
#define TK_ANALYSIS_LATENCY_IMPL_H

#include "tracekit/latency.h"
#include "core/hash.h"
#include "model/events.h"

typedef struct series {
    uint64_t func;
    uint32_t thread;
    int64_t pid, tid;
    /* Durations by size class; every value of a class is below every value of the next, so
     * the sorted order is the three arrays one after the other. */
    uint16_t *tiny; /* below 2^16 ticks */
    size_t ntiny, captiny;
    uint64_t *hist; /* once there are many 16-bit durations: a count per value instead of
                        tiny (then empty); memory stays bounded however long the trace */
    uint32_t *small; /* below 2^32 */
    size_t nsmall, capsmall;
    uint64_t *large; /* the rest */
    size_t nlarge, caplarge;
    uint64_t open, unwound;
    /* ticks: each call's duration minus the time of the calls it made (saturating), but for
     * the calls that close_call counted in hist directly (their self time: hist[HIST_SELF]) */
    uint64_t self;
} series;

/* A histogram's slots: a count per 16-bit duration, then the self time of the calls that the
 * fast path of close_call counted in it. */
#define HIST_SELF 65536u
#define HIST_SLOTS (HIST_SELF + 1u)

static inline uint64_t tk_latency_add_sat(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

/* A series' self time, all of it. */
static inline uint64_t series_self(const series *s)
{
    return s->hist ? tk_latency_add_sat(s->self, s->hist[HIST_SELF]) : s->self;
}

/* Series index + 1 by function id (0 = none), per thread slot; ids beyond DIRECT_MAX use the map. */
#define DIRECT_MAX (1u << 22)
typedef struct direct_table {
    uint32_t *idx;
    uint32_t cap;
} direct_table;

/* Each function's histogram by id (NULL: none yet): a duration is counted from the id alone. */
typedef struct hist_table {
    uint64_t **of;
    uint32_t cap;
} hist_table;

/* A thread of a per-thread accounting: its pid and trace (UINT32_MAX: an index no event had,
 * no thread), what its process key is computed from (tk_event_process_keys). */
typedef struct lat_thread {
    int64_t pid;
    uint32_t trace;
} lat_thread;

struct tk_latency {
    int per_thread;
    direct_table *direct; /* one per thread (per-thread mode) or one */
    uint32_t ndirect;
    tk_callstacks stacks;
    tk_hmap index; /* key -> series index */
    series *series;
    size_t nseries, capseries;
    int failed; /* out of memory inside a callback */
    hist_table total; /* aggregate mode */
    hist_table *hists; /* per-thread mode: by thread slot */
    uint32_t nhists;
    tk_latency_row *rows;
    size_t nrows;
    /* partials merged in (latency_merge.c): their totals; the tables above that run uses
     * (direct, total, hists, index) are gone, so a merged latency is not run again */
    tk_latency_totals base;
    int merged;
    /* per-thread mode: every thread index's pid and trace (base.threads of them once run or
     * merged), kept after the stacks are gone */
    lat_thread *threads;
};

/* A series switches its 16-bit durations to a histogram after this many (128 KiB of array for
 * 512 KiB of counters). */
#define HIST_AFTER 65536u

#endif
