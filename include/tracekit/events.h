/* tracekit: the events model, a timed stream of function enters/exits and events per thread.
 * Readers (XRay, DCFG-Trace) produce it as a pull source; analyses and exporters consume it one
 * event at a time, so memory does not grow with the trace. */
#ifndef TRACEKIT_EVENTS_H
#define TRACEKIT_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_event_kind {
    TK_EVENT_ENTER = 0, /* a function was entered */
    TK_EVENT_EXIT = 1, /* a function returned */
    TK_EVENT_TAIL_EXIT = 2, /* a function left through a tail call */
    TK_EVENT_CUSTOM = 3, /* an application event with an opaque payload */
    TK_EVENT_TYPED = 4 /* an application event with a type and a payload */
} tk_event_kind;

/* "enter", "exit", "tail-exit", "custom", "typed". */
TK_API const char *tk_event_kind_name(tk_event_kind k);

/* One event. Pointers are borrowed until the source's next call. */
typedef struct tk_event {
    tk_event_kind kind;
    uint32_t thread; /* dense thread index 0..n-1, in order of first appearance */
    int64_t pid; /* process id, 0 when unknown */
    int64_t tid; /* thread id as recorded */
    uint32_t cpu;
    uint64_t time; /* in the source's clock units (see tk_event_source.ticks_per_second) */
    uint64_t func; /* function id (enter/exit/tail-exit) */
    uint32_t nargs; /* logged arguments of an enter */
    const uint64_t *args;
    uint32_t type; /* typed events */
    size_t size; /* event payload */
    const uint8_t *data;
    uint64_t offset; /* byte offset in the source file, for messages */
} tk_event;

/* A run of calls (enter, exit, tail-exit) of one thread, in time order. Arrays borrowed until
 * the source's next call. With TK_BATCH_EXTRAS the batch also carries the logged arguments of
 * its enters and the custom/typed events of the thread that happen between its calls. */
#define TK_BATCH_EXTRAS 1u
#define TK_BATCH_MAX_ARGS 6
/* With TK_BATCH_PACKED (and without TK_BATCH_EXTRAS) a batch may instead hold packed calls:
 * records that the consumer decodes itself, straight from the source's memory. */
#define TK_BATCH_PACKED 2u

/* Packed calls: 8-byte records, each a 32-bit little-endian word func << 4 | kind << 1 (kind
 * 0 enter, 1 exit, 2 tail exit, 3 enter with arguments; bit 0 clear) and a 32-bit little-endian
 * time delta from the previous call (the first from time). An enter with arguments is followed
 * by its argument records, 16 bytes each, starting with byte TK_PACKED_ARG_BYTE, which the
 * consumer skips. These are the function and call-argument records of little-endian XRay FDR
 * traces. The consumer takes records from p on, advancing p and time past each one, and
 * stops at end or before the first record that is not such a call or whose function id is
 * outside 1..id_limit (an exit that closes a call the consumer has open may have any id: its
 * enter came from the source); the source continues from p. */
#define TK_PACKED_ARG_BYTE 0x0d

typedef struct tk_packed_calls {
    const uint8_t *p, *end; /* end - p is a multiple of 8 */
    uint64_t time;
    uint32_t id_limit;
} tk_packed_calls;

typedef struct tk_event_batch {
    uint32_t thread;
    int64_t pid, tid;
    size_t n;
    const uint8_t *kind; /* tk_event_kind */
    const uint64_t *func;
    const uint64_t *time;
    /* TK_BATCH_EXTRAS only (else 0): */
    size_t nargs; /* enters with arguments */
    const uint32_t *arg_at; /* their indices in the batch, increasing */
    const uint8_t *arg_count;
    const uint64_t *arg_values; /* TK_BATCH_MAX_ARGS slots per enter with arguments */
    size_t nextra; /* custom/typed events */
    const uint32_t *extra_at; /* event i happens before call extra_at[i] (n: after the last) */
    const tk_event *extra;
    /* TK_BATCH_PACKED only (else NULL): the calls are here instead (n is 0, no extras) */
    tk_packed_calls *packed;
    /* without TK_BATCH_EXTRAS: the thread's custom/typed events left out (counted only), so that
     * a thread with events and no calls is seen as TK_BATCH_EXTRAS and next see it (a batch
     * with n 0 then says so) */
    size_t nskipped;
} tk_event_batch;

/* A pull source of events. next returns TK_OK, TK_END or an error. name returns the display
 * name of a function id (written into buf when it has to be built; never NULL). */
typedef struct tk_event_source {
    void *ctx;
    tk_status (*next)(void *ctx, tk_event *ev, tk_error *err);
    const char *(*name)(void *ctx, uint64_t func, char *buf, size_t size);
    double ticks_per_second; /* clock rate; 0 when time is not in seconds (instruction counts) */
    const char *time_unit; /* "ticks", "ns", "instructions" */
    uint64_t start_time; /* a lower bound of the stream's times (0 when unknown); viewers
                                show times relative to it */
    /* Optional fast path: the next batch (TK_OK with n >= 1, nextra >= 1, nskipped >= 1 or
     * packed calls whose first record the consumer takes, TK_END, or an error). Without TK_BATCH_EXTRAS in flags, custom/typed events and arguments are skipped. A
     * consumer uses either next or next_batch on a source, never both. NULL when the source has
     * no batches. */
    tk_status (*next_batch)(void *ctx, tk_event_batch *batch, unsigned flags, tk_error *err);
    /* Optional: source file and line of a function (1 and the values when known, else 0). */
    int (*location)(void *ctx, uint64_t func, const char **file, uint32_t *line);
} tk_event_source;

/* Units in which times are printed (the CLI's --unit). */
typedef enum tk_time_unit {
    TK_UNIT_S = 0,
    TK_UNIT_MS = 1,
    TK_UNIT_US = 2,
    TK_UNIT_NS = 3
} tk_time_unit;

/* "s", "ms", "us", "ns" ("?" for a value out of range). */
TK_API const char *tk_time_unit_name(tk_time_unit u);
/* The unit named name: TK_OK and *out set, or TK_ERR_ARG when name is none of "s", "ms",
 * "us", "ns". */
TK_API tk_status tk_time_unit_parse(const char *name, tk_time_unit *out, tk_error *err);
/* Units in one second: 1, 1e3, 1e6, 1e9. */
TK_API double tk_time_unit_per_second(tk_time_unit u);
/* Decimals that show one nanosecond in the unit: 9, 6, 3, 0. */
TK_API int tk_time_unit_decimals(tk_time_unit u);
/* ticks of a clock of ticks_per_second in unit u, as ticks / (ticks per unit): exact when the
 * clock rate is a whole multiple of the unit's rate (an emulated 1 GHz TSC in ns, a kHz-granular
 * TSC in ms). ticks_per_second <= 0 (no clock): ticks, unconverted. */
TK_API double tk_ticks_to_unit(uint64_t ticks, double ticks_per_second, tk_time_unit u);

/* Display name of a function through the source (falls back to "#<id>"). */
TK_API const char *tk_event_func_name(const tk_event_source *src, uint64_t func, char *buf,
                                      size_t size);

/* A view of a source with the events of some threads only (their recorded tid). The filter
 * holds the source and the tids (borrowed: both must outlive it); *out reads through it. Its
 * batches are never packed. */
typedef struct tk_event_thread_filter {
    tk_event_source src;
    const int64_t *tids;
    size_t ntids;
} tk_event_thread_filter;

TK_API void tk_event_only_threads(tk_event_thread_filter *f, const tk_event_source *src,
                                  const int64_t *tids, size_t ntids, tk_event_source *out);

/* The state of a chain of sources (tk_event_chain_init). */
typedef struct tk_event_chain {
    const tk_event_source *parts;
    size_t nparts, cur;
    uint32_t offset, seen; /* thread offset of the current part; its max index + 1 so far */
} tk_event_chain;

/* Several sources read one after the other as one source: what one trace holding all of them
 * would give. The threads of part k come after those of parts 0..k-1 (their dense indices are
 * offset by the number of threads the earlier parts had: max index + 1), so threads of
 * different parts are never merged, even when their pid and tid are equal. Names and
 * locations come from part 0 (the parts are traces of one program); start_time is the
 * smallest of the parts'. The parts (borrowed) must outlive the chain; *out reads through it.
 * Returns TK_OK, or TK_ERR_ARG when n is 0 or a part's clock rate or time unit differs from
 * part 0's (the message names the part, "part K: ...", and c->cur is K). */
TK_API tk_status tk_event_chain_init(tk_event_chain *c, const tk_event_source *parts, size_t n,
                                     tk_event_source *out, tk_error *err);

/* The processes of the threads of several traces (the logs of the ranks of a job), as every
 * output of tracekit names them: the threads of different traces are never merged, even when
 * their pid is equal (the same trace twice, nodes that reuse pids), so a thread of trace k
 * (0-based) whose pid a thread of an earlier trace had is of the process key
 * k * TK_PROCESS_KEY_STRIDE + pid (XRay pids fit in 32 bits: the key is no pid and no other
 * trace's key, and reads as the trace and the pid), any other thread of its pid: what a Chrome
 * trace of the chain writes as its pid, a Callgrind profile's "pid:" and the roots of folded
 * stacks and profiles ("process KEY thread TID") say. pids[i] and traces[i] are those of
 * thread i of n (any order); keys[i] is set to its key. Returns TK_OK, TK_ERR_NOMEM. */
#define TK_PROCESS_KEY_STRIDE INT64_C(10000000000)
TK_API tk_status tk_event_process_keys(const int64_t *pids, const uint32_t *traces, size_t n,
                                       int64_t *keys, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
