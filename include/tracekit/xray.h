/* tracekit: LLVM XRay traces (FDR versions 1-5 and basic/naive mode versions 1-3) and the
 * xray_instr_map of instrumented ELF binaries. See docs/formats/xray.md. */
#ifndef TRACEKIT_XRAY_H
#define TRACEKIT_XRAY_H

#include <stddef.h>
#include <stdint.h>

#include "input.h"
#include "alloc.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- file header ------------------------------------------------------- */

#define TK_XRAY_HEADER_SIZE 32

typedef enum tk_xray_mode { TK_XRAY_BASIC = 0, TK_XRAY_FDR = 1 } tk_xray_mode;

typedef struct tk_xray_header {
    uint16_t version; /* FDR 1-5, basic 1-3 */
    uint16_t type; /* tk_xray_mode */
    uint32_t flags; /* raw word; bit 0 constant TSC, bit 1 nonstop TSC */
    uint64_t cycle_frequency; /* ticks per second; 1e9 when the runtime emulated the TSC */
    uint64_t buffer_size; /* FDR: configured per-thread buffer size; basic: 0 */
    int big_endian; /* the file's byte order */
} tk_xray_header;

/* Parse the 32-byte header (either byte order). TK_ERR_FORMAT with byte offsets when it is not
 * an XRay header or its version/type is unsupported. path is used in errors (may be NULL). */
TK_API tk_status tk_xray_parse_header(const uint8_t *data, size_t len, const char *path,
                                      tk_xray_header *out, tk_error *err);

/* 1 when the runtime emulated the TSC (frequency exactly 1e9 Hz; ticks are nanoseconds). */
TK_API int tk_xray_emulated_tsc(const tk_xray_header *h);

/* ---- records ------------------------------------------------------------ */

typedef enum tk_xray_kind {
    /* function records (FDR 8 bytes, basic 32 bytes) */
    TK_XRAY_ENTER = 0,
    TK_XRAY_EXIT = 1,
    TK_XRAY_TAIL_EXIT = 2,
    TK_XRAY_ENTER_ARGS = 3,
    /* FDR metadata records (16 bytes, kind = first byte >> 1), numbered 16 + kind */
    TK_XRAY_NEW_BUFFER = 16,
    TK_XRAY_END_OF_BUFFER = 17,
    TK_XRAY_NEW_CPU = 18,
    TK_XRAY_TSC_WRAP = 19,
    TK_XRAY_WALLTIME = 20,
    TK_XRAY_CUSTOM_EVENT = 21,
    TK_XRAY_CALL_ARG = 22,
    TK_XRAY_BUFFER_EXTENTS = 23,
    TK_XRAY_TYPED_EVENT = 24,
    TK_XRAY_PID = 25,
    /* basic mode: the argument payload record after an ENTER_ARGS */
    TK_XRAY_ARG_PAYLOAD = 32
} tk_xray_kind;

#define TK_XRAY_KIND_MAX 33

/* Stable lower-case name ("enter", "exit", "tail-exit", "enter-args", "new-buffer", ...). */
TK_API const char *tk_xray_kind_name(tk_xray_kind k);
/* 1 for the function records (enter, exit, tail exit, enter with arguments). */
TK_API int tk_xray_is_function(tk_xray_kind k);

#define TK_XRAY_MAX_ARGS 6

/* One record with its reconstructed context. Borrowed until the next call of tk_xray_next. */
typedef struct tk_xray_record {
    tk_xray_kind kind;
    uint64_t offset; /* byte offset of the record in the file content */
    uint32_t buffer; /* FDR: index of the buffer in file order; basic: 0 */
    int32_t tid; /* thread id (from NewBuffer, or the basic record) */
    int32_t pid; /* process id (Pid record / basic v3), 0 when the trace has none */
    uint16_t cpu; /* CPU from the last NewCPUId (basic: the record's) */
    uint64_t tsc; /* absolute timestamp of function/event records (and NewCPUId/TSCWrap) */
    uint32_t func_id; /* function records; basic ARG_PAYLOAD */
    uint32_t delta; /* FDR function records: raw tsc delta */
    uint64_t value; /* CallArgument/ARG_PAYLOAD arg, BufferExtents size, Walltime seconds,
                            NewBuffer tid, Pid pid, NewCPUId/TSCWrap tsc */
    uint32_t micros; /* Walltime microseconds */
    int32_t event_size; /* custom/typed event payload size */
    uint16_t event_type; /* typed event type */
    const uint8_t *payload; /* custom/typed event payload (event_size bytes) */
    uint32_t nargs; /* ENTER_ARGS: arguments found in the records that follow */
    uint64_t args[TK_XRAY_MAX_ARGS];
} tk_xray_record;

/* ---- reader ------------------------------------------------------------- */

typedef struct tk_xray_reader tk_xray_reader;

typedef struct tk_xray_options {
    /* 0: visit each thread's FDR buffers in timestamp order (fixes the order of a wrapped ring
     * buffer; threads keep their slots in the file); 1: strict file order. */
    int file_order;
    /* When not NULL, structural problems are reported here (with byte offsets) and the reader
     * skips to the next buffer instead of failing; used by `check`. */
    struct tk_diag *diag;
    /* 1: hand the pages of finished buffers of a memory-mapped file back to the kernel, so a
     * one-pass reader keeps little of a big trace resident. */
    int release_pages;
    /* 1: a trace cut short (the file ends inside a buffer's extents, a version-1 buffer or a
     * record) is read up to the cut: the complete records before it come out, then TK_END, and
     * tk_xray_truncation says where the damage starts. 0: the cut is an error (TK_ERR_FORMAT)
     * when it is reached. Without effect with diag (check reports the cut as errors). Damage
     * inside the file (an unknown kind, a bad grammar) stays an error either way. */
    int partial;
} tk_xray_options;

#define TK_XRAY_OPTIONS_INIT \
    { \
        0, NULL, 0, 0 \
    }

/* Open a reader over an input positioned at the start of the content. The input must stay
 * open while the reader is used. Returns TK_OK, TK_ERR_FORMAT (bad header),
 * TK_ERR_UNSUPPORTED (a version tracekit does not read), TK_ERR_IO,
 * TK_ERR_NOMEM. The caller owns *out (tk_xray_free). */
TK_API tk_status tk_xray_open(tk_xray_reader **out, tk_input *in, const tk_xray_options *opt,
                              tk_error *err);
TK_API void tk_xray_free(tk_xray_reader *r);
TK_API const tk_xray_header *tk_xray_get_header(const tk_xray_reader *r);

/* The next record: TK_OK, TK_END, or TK_ERR_FORMAT with a byte offset (truncated records,
 * unknown kinds, extents past the end, a record past its buffer). In partial mode a cut at the
 * end of the file ends the records with TK_END instead (see tk_xray_truncation). With
 * release_pages on a file, a buffer is read into memory of the reader's when it is reached:
 * also TK_ERR_NOMEM and TK_ERR_IO (the read failed). */
TK_API tk_status tk_xray_next(tk_xray_reader *r, tk_xray_record *rec, tk_error *err);

/* Buffers and results of tk_xray_next_calls. The caller provides the arrays and capacities;
 * the arg and event arrays may be NULL (those records are then skipped). */
typedef struct tk_xray_calls {
    uint8_t *kind; /* tk_event_kind values: 0 enter (also EnterArgs), 1 exit, 2 tail exit */
    uint64_t *func;
    uint64_t *tsc;
    size_t cap;
    uint32_t *arg_at; /* call index of each enter with arguments */
    uint8_t *arg_count;
    uint64_t *arg_values; /* TK_XRAY_MAX_ARGS slots each */
    size_t arg_cap;
    tk_xray_record *events; /* custom/typed event records (payloads borrowed from the reader
                               until its next call: a run ends with its FDR buffer) */
    uint32_t *event_at; /* the call index the event comes before */
    size_t event_cap;
    /* results */
    size_t n, nargs, nevents;
    size_t nskipped; /* custom/typed events of the run's thread not asked for (events NULL):
                        counted, so that a thread with events and no calls still makes runs */
    int32_t tid, pid;
    uint64_t max_func; /* largest function id; 2^32 when the run holds the invalid id 0 */
} tk_xray_calls;

/* The next run of records of one thread: function records, and (when asked) their arguments and
 * the custom/typed events between them; other records are skipped (their timestamps still
 * apply). TK_OK with n + nevents + nskipped >= 1, TK_END, or an error as tk_xray_next (TK_ERR_FORMAT;
 * TK_ERR_NOMEM, TK_ERR_IO). Do not mix with tk_xray_next on the same reader. */
TK_API tk_status tk_xray_next_calls(tk_xray_reader *r, tk_xray_calls *c, tk_error *err);

/* Partial mode: 1 when the file was found cut short, with *where (may be NULL) set to the
 * location where the damage starts (path and byte offset: the first record that is not whole,
 * or the end of the file when the cut falls between records; the message says what was cut);
 * 0 otherwise. Final once tk_xray_next or tk_xray_next_calls has returned TK_END (open may
 * already know of a buffer cut short; reading finds the record cut inside it). The records
 * read all end at or before the offset. */
TK_API int tk_xray_truncation(const tk_xray_reader *r, tk_error *where);

/* Number of FDR buffers found (after open), and the file's content size. */
TK_API uint64_t tk_xray_buffer_count(const tk_xray_reader *r);
TK_API uint64_t tk_xray_content_size(const tk_xray_reader *r);
/* Earliest timestamp at the start of a buffer (FDR) or of any record (basic); 0 when none. */
TK_API uint64_t tk_xray_first_tsc(const tk_xray_reader *r);

/* ---- events ------------------------------------------------------------------ */

struct tk_event_source;
typedef struct tk_xray_map tk_xray_map;
typedef struct tk_xray_events tk_xray_events;

/* An events-model source over a reader: function records and custom/typed events with dense
 * thread indices (by pid and tid, in order of first appearance). map (may be NULL) names the
 * functions. Borrows r and map. Caller owns *out. TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_xray_events_open(tk_xray_events **out, tk_xray_reader *r,
                                     const tk_xray_map *map, tk_error *err);
TK_API void tk_xray_events_free(tk_xray_events *e);
/* Fill src so that analyses and exporters can pull from e. */
TK_API void tk_xray_events_source(tk_xray_events *e, struct tk_event_source *src);
/* Distinct function ids seen that the map does not know (0 without a map), and the largest. */
TK_API uint64_t tk_xray_events_unknown_ids(const tk_xray_events *e, uint32_t *largest);
/* A source without events that names functions (and their locations) as an events source
 * with this map does ("#ID" for ids it lacks; map may be NULL): the names of a report made of
 * several traces' results once their readers are gone. Borrows map. */
TK_API void tk_xray_map_names(const tk_xray_map *map, struct tk_event_source *src);

/* ---- summary (info) ------------------------------------------------------------ */

typedef struct tk_xray_thread_summary {
    int32_t pid, tid;
    uint64_t records; /* function records and events */
    uint64_t buffers; /* FDR buffers holding them */
} tk_xray_thread_summary;

typedef struct tk_xray_summary {
    uint64_t by_kind[TK_XRAY_KIND_MAX];
    uint64_t functions; /* function records */
    uint64_t first_tsc, last_tsc; /* of function records and events; first > last when none */
    tk_xray_thread_summary *threads; /* in order of first appearance */
    size_t nthreads;
} tk_xray_summary;

/* Read the whole trace and count. TK_OK, TK_ERR_NOMEM, or an error as tk_xray_next
 * (TK_ERR_FORMAT, TK_ERR_IO; the counts so far stay valid). Free with tk_xray_summary_free. */
TK_API tk_status tk_xray_summarize(tk_xray_reader *r, tk_xray_summary *out, tk_error *err);
TK_API void tk_xray_summary_free(tk_xray_summary *s);

/* ---- check and dump --------------------------------------------------------- */

typedef struct tk_xray_check_summary {
    uint64_t records;
    uint64_t buffers;
    uint64_t open_calls; /* calls without an exit at the end (normal for a stopped trace) */
    uint32_t threads;
} tk_xray_check_summary;

/* Validate a trace: decoding, the record grammar of each FDR buffer (NewBuffer, Walltime,
 * [Pid], NewCPUId at the start; CallArgument only after EnterArgs), extents, TSC regressions,
 * exits without entries, function ids missing from map (may be NULL). Every problem goes to
 * diag with its byte offset; returns TK_OK unless the check itself failed (TK_ERR_NOMEM). */
TK_API tk_status tk_xray_check(tk_input *in, const tk_xray_map *map, struct tk_diag *diag,
                               tk_xray_check_summary *sum, tk_error *err);

/* Canonical text: the header, then one line per record ("@offset kind fields..."). TK_OK,
 * TK_ERR_IO (the writer failed), TK_ERR_NOMEM, or an error as tk_xray_next (TK_ERR_FORMAT). */
TK_API tk_status tk_xray_dump(tk_xray_reader *r, const tk_xray_map *map, const tk_writer *out,
                              tk_error *err);

/* ---- instrumentation map and symbols ------------------------------------- */

typedef struct tk_xray_function {
    uint32_t id; /* 1-based, as the runtime assigns them */
    uint64_t address; /* link-time address of the function */
    const char *name; /* demangled symbol name, or NULL when unknown */
    const char *file; /* DWARF file of the function, or NULL */
    uint32_t line; /* DWARF line, or 0 */
    uint32_t sleds; /* sleds of the function */
    int always_instrument;
    int logs_args;
} tk_xray_function;

/* Read the xray_instr_map section of an instrumented ELF binary and symbolise every function
 * (symbol table, DWARF file/line, demangled C++ names). Errors: TK_ERR_IO, TK_ERR_FORMAT (not
 * ELF, no xray_instr_map, bad sled entries) with the binary's path. Caller owns *out. */
TK_API tk_status tk_xray_map_read(tk_xray_map **out, const char *binary, tk_error *err);
TK_API void tk_xray_map_free(tk_xray_map *m);
/* Number of function ids (ids run from 1 to count). */
TK_API uint32_t tk_xray_map_count(const tk_xray_map *m);
/* The function with this id, or NULL when out of range. */
TK_API const tk_xray_function *tk_xray_map_function(const tk_xray_map *m, uint32_t id);
/* Total sleds and the sled entry version found. */
TK_API uint64_t tk_xray_map_sleds(const tk_xray_map *m);
TK_API unsigned tk_xray_map_version(const tk_xray_map *m);

/* Demangle an Itanium C++ name ("_Z..."): *out, a string the caller frees with tk_free.
 * TK_ERR_FORMAT when name is not mangled or cannot be demangled (*out NULL), TK_ERR_NOMEM. */
TK_API tk_status tk_xray_demangle(const char *name, char **out, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
