/* tracekit: DCFG-Trace (Intel DCFG and DCFG-Trace format 1.00, section 3).
 *
 * Reading.  tk_dcfg_trace_open parses the structure of a trace in one pass:
 * version, processes, per-process string dictionary and transition table
 * (validated and compiled into table-driven decoders), threads and chunks.
 * Edge-id sequences are not decoded at open time: each chunk keeps a span of
 * the content, and tk_dcfg_trace_decode_chunk expands it lazily (repeats and
 * dictionary references through a stack of cursors, never materialised), so
 * memory does not grow with the number of edges. Chunks are independent and
 * may be decoded in parallel (one tk_dcfg_trace is read-only after open).
 *
 * Decisions (docs/formats/dcfg-trace.md has the full list): bits are taken
 * most-significant first from each base64 character of the alphabet
 * A-Z a-z 0-9 + -; EDGE_COUNT is 1 (FIRST_EDGE_ID) plus one per transition
 * decoded (a multi-edge NEXT_EDGE_IDS row emits all its edges for one unit),
 * as Intel's reader does; running out of bits before EDGE_COUNT is an error,
 * more than 5 unused bits a warning.
 *
 * Writing.  tk_dcfg_trace_encoder turns edge sequences (per process and
 * thread) into a trace: Huffman codes per process from the observed
 * transition frequencies, chunking by instructions, repeat compression and a
 * string dictionary depending on the level.
 */
#ifndef TRACEKIT_DCFG_TRACE_H
#define TRACEKIT_DCFG_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/cfg.h"
#include "tracekit/status.h"
#include "tracekit/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deepest nesting of repeats and dictionary references inside one sequence. */
#define TK_DCFG_TRACE_MAX_NESTING 64
/* Most transitions in a row that consume no bits (sole successors): a
 * longer run can only be a cycle of "" codes, reported as an error. */
#define TK_DCFG_TRACE_MAX_ZERO_BIT_RUN (1 << 22)
/* Longest transition code (bits), as the spec says. */
#define TK_DCFG_TRACE_MAX_CODE_BITS 32

typedef struct tk_dcfg_trace tk_dcfg_trace;

/* Parse a trace file (path or "-"; compressed files are decompressed).
 * Warnings (header names, version) go to diag when not NULL.
 * Returns TK_OK, TK_ERR_IO, TK_ERR_NOMEM, TK_ERR_FORMAT or TK_ERR_LIMIT with a
 * located error. The caller owns *out (tk_dcfg_trace_free). */
TK_API tk_status tk_dcfg_trace_open(tk_dcfg_trace **out, const char *path, tk_diag *diag,
                                    tk_error *err);
/* Parse from an open input (borrowed: it must outlive the trace). Returns as
 * tk_dcfg_trace_open: TK_OK, TK_ERR_IO, TK_ERR_NOMEM, TK_ERR_FORMAT or TK_ERR_LIMIT. */
typedef struct tk_input tk_input;
TK_API tk_status tk_dcfg_trace_open_input(tk_dcfg_trace **out, tk_input *in, tk_diag *diag,
                                          tk_error *err);
/* The same on memory (copied; plain JSON, not decompressed). name is used in messages.
 * TK_OK, TK_ERR_NOMEM, TK_ERR_FORMAT or TK_ERR_LIMIT. */
TK_API tk_status tk_dcfg_trace_open_memory(tk_dcfg_trace **out, const void *data, size_t len,
                                           const char *name, tk_diag *diag, tk_error *err);
TK_API void tk_dcfg_trace_free(tk_dcfg_trace *t);

TK_API const char *tk_dcfg_trace_path(const tk_dcfg_trace *t);
TK_API void tk_dcfg_trace_version(const tk_dcfg_trace *t, uint64_t *major, uint64_t *minor);

typedef struct tk_dcfg_trace_process_info {
    uint64_t pid;
    size_t dictionary_entries;
    size_t transition_rows;
    size_t transition_states; /* distinct CURRENT_EDGE_IDs */
    unsigned max_code_bits;
    size_t nthreads;
} tk_dcfg_trace_process_info;

typedef struct tk_dcfg_trace_thread_info {
    uint64_t thread_id;
    size_t process; /* process index */
    size_t nchunks;
    size_t first_chunk; /* global chunk index of the first chunk */
} tk_dcfg_trace_thread_info;

typedef struct tk_dcfg_trace_chunk_info {
    uint64_t preceding_instr_count;
    uint64_t instr_count;
    uint64_t edge_count;
    uint64_t first_edge_id;
    size_t sequence_chars; /* length of the raw sequence string */
    uint64_t line, column; /* of the chunk's row */
} tk_dcfg_trace_chunk_info;

TK_API size_t tk_dcfg_trace_process_count(const tk_dcfg_trace *t);
TK_API void tk_dcfg_trace_process(const tk_dcfg_trace *t, size_t i,
                                  tk_dcfg_trace_process_info *out);
/* Threads of all processes, in file order. */
TK_API size_t tk_dcfg_trace_thread_count(const tk_dcfg_trace *t);
TK_API void tk_dcfg_trace_thread(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_thread_info *out);
/* Chunks of all threads, in file order (a thread's chunks are consecutive). */
TK_API size_t tk_dcfg_trace_chunk_count(const tk_dcfg_trace *t);
TK_API void tk_dcfg_trace_chunk(const tk_dcfg_trace *t, size_t i, tk_dcfg_trace_chunk_info *out);

/* Entry i of the STRING_DICTIONARY of process `proc`, in file order: *key
 * (NUL-terminated) and its value (value_len bytes, not NUL-terminated, as
 * written: repeats and references unexpanded). Returns the number of entries;
 * when i is not below it, nothing is written. Borrowed until
 * tk_dcfg_trace_free. */
TK_API size_t tk_dcfg_trace_dictionary_entry(const tk_dcfg_trace *t, size_t proc, size_t i,
                                             const char **key, const char **value,
                                             size_t *value_len);

/* Receives decoded edge ids in order, in batches. Return 0 to go on, non-zero
 * to stop (the decode call then returns TK_END). */
typedef int (*tk_dcfg_trace_emit_fn)(void *ctx, const uint32_t *edges, size_t n);

/* Decode chunk `i` (global index). *edges gets the number of edge ids
 * emitted. Returns TK_OK, TK_END (emit asked to stop), TK_ERR_FORMAT or
 * TK_ERR_LIMIT (located). Leftover bits are reported to diag (warning).
 * Thread-safe for different chunks of the same trace. */
TK_API tk_status tk_dcfg_trace_decode_chunk(const tk_dcfg_trace *t, size_t i,
                                            tk_dcfg_trace_emit_fn emit, void *ctx, uint64_t *edges,
                                            tk_diag *diag, tk_error *err);

/* The dump (`tracekit dump`): "dcfg-trace MAJOR.MINOR", then per process "process PID", per
 * thread of it "  thread TID", per chunk of it "  chunk preceding_instr_count N instr_count
 * N edge_count N first_edge_id N" (the chunk's fields under the spec's names, as the DCFG
 * dump names its own; FIRST_EDGE_ID 0 without edges) and "    edges ID ID ..." (its
 * decoded edges, FIRST_EDGE_ID first; not with flags
 * TK_DCFG_TRACE_DUMP_STRUCTURE), to out. Returns TK_OK, the error of decoding a chunk
 * (located, after the lines before it), TK_ERR_IO (out failed), TK_ERR_NOMEM. */
#define TK_DCFG_TRACE_DUMP_STRUCTURE 1u
TK_API tk_status tk_dcfg_trace_dump(const tk_dcfg_trace *t, unsigned flags, const tk_writer *out,
                                    tk_error *err);

/* Receives each chunk's edges in file order (all chunks, or those selected). */
typedef int (*tk_dcfg_trace_chunk_fn)(void *ctx, size_t chunk, const uint32_t *edges, size_t n);

/* Decoding through the DCFG of the run (tk_dcfg_trace_decode_options.cfg): every decoded
 * edge is looked up in the DCFG's process of its thread, and with .steps each is also a
 * step, what `tracekit decode --what blocks|addrs|calls` lists. */
typedef enum tk_dcfg_trace_steps {
    TK_DCFG_TRACE_NO_STEPS = 0, /* the edges are only checked (pieces have no steps) */
    TK_DCFG_TRACE_STEPS_ALL, /* a step per edge */
    TK_DCFG_TRACE_STEPS_BLOCKS, /* the edges that leave a block (not a special node) */
    TK_DCFG_TRACE_STEPS_CALLS /* the edges of a call or a return type
                                     (tk_edge_kind_is_any_call, tk_edge_kind_is_any_return) */
} tk_dcfg_trace_steps;

/* One edge of a thread as the DCFG sees it. */
typedef struct tk_dcfg_trace_step {
    uint32_t edge_id;
    uint32_t edge; /* its index in the DCFG's process (tk_cfg_edge_get) */
    uint32_t src, tgt; /* node indexes of its ends (tk_cfg_block_get for a block) */
    tk_edge_kind kind; /* of its type (TK_EDGE_OTHER when the type is unknown) */
    uint64_t instrs; /* the thread's instruction count when it is taken, at the end
                               of its source block: the chunk's PRECEDING_INSTR_COUNT plus
                               the NUM_INSTRS of the source blocks of the chunk's edges up
                               to this one (special nodes: 0) */
} tk_dcfg_trace_step;

/* A piece of a chunk's edges, in order: a chunk comes in one piece or more (an empty chunk
 * in one piece of no edges). Borrowed for the call. */
typedef struct tk_dcfg_trace_piece {
    size_t chunk; /* global chunk index */
    size_t thread; /* thread index (tk_dcfg_trace_thread) */
    uint64_t pid, thread_id;
    const uint32_t *edges; /* the edge ids of the piece */
    size_t nedges;
    const tk_cfg_process *process; /* with a DCFG: the thread's process in it, else NULL */
    const tk_dcfg_trace_step *steps; /* with steps: those of the piece's edges it selects */
    size_t nsteps;
} tk_dcfg_trace_piece;

/* Receives the pieces of the selected chunks in file order. Return 0 to go on, non-zero to
 * stop (the decode call then returns TK_END). */
typedef int (*tk_dcfg_trace_piece_fn)(void *ctx, const tk_dcfg_trace_piece *piece);

/* Bytes produced by a render callback (see below). */
typedef struct tk_dcfg_trace_text {
    char *data;
    size_t len, cap;
} tk_dcfg_trace_text;

/* Make room for `more` bytes after t->len: TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_text_reserve(tk_dcfg_trace_text *t, size_t more, tk_error *err);

/* Formats a piece: appends to out; returns 0, or non-zero to stop. */
typedef int (*tk_dcfg_trace_render_fn)(const void *ctx, const tk_dcfg_trace_piece *piece,
                                       tk_dcfg_trace_text *out);
/* Receives the rendered bytes of a chunk (or piece of a chunk), in order. */
typedef int (*tk_dcfg_trace_write_text_fn)(void *ctx, size_t chunk, const char *data, size_t len);

typedef struct tk_dcfg_trace_decode_options {
    unsigned threads; /* worker threads; 0 or 1 = decode on the caller's thread */
    int has_pid; /* only this process */
    uint64_t pid;
    int has_thread; /* only this thread id */
    uint64_t thread_id;
    size_t max_chunk_edges; /* a chunk with more edges is delivered in pieces (0 = 1 Mi) */
    /* Parallel formatting (optional): render(render_ctx, ...) runs on the
     * decoding thread right after a chunk is decoded (chunks in any order,
     * several at once: it may only read shared data; the pieces of one chunk
     * in order), then write_text(ctx, ...) receives the bytes in file order
     * instead of fn receiving edges. */
    tk_dcfg_trace_render_fn render;
    const void *render_ctx;
    tk_dcfg_trace_write_text_fn write_text;
    /* Only the selected chunks whose global index is in [chunk_begin, chunk_end) (both 0:
     * every one): a part of a trace, as a rank of tracekit-mpi decodes it. */
    size_t chunk_begin, chunk_end;
    /* The DCFG of the run (NULL: none). With it, every edge must be one of the DCFG's
     * process of its thread (the processes are checked first, as
     * tk_dcfg_trace_processes_in does), and with steps the thread's instruction count
     * must stay within 64 bits; the first edge that fails is an error located at its
     * chunk's row, after the pieces of the edges before it were delivered. */
    const tk_cfg *cfg;
    tk_dcfg_trace_steps steps; /* with cfg: the steps the pieces carry (in pieces of at most
                                  TK_DCFG_TRACE_PIECE_STEPS edges) */
    /* Receives the pieces in file order instead of fn receiving edges (optional). */
    tk_dcfg_trace_piece_fn piece;
} tk_dcfg_trace_decode_options;

#define TK_DCFG_TRACE_DECODE_OPTIONS_INIT \
    { \
        0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, NULL, TK_DCFG_TRACE_NO_STEPS, NULL \
    }
/* Most edges of a piece with steps. */
#define TK_DCFG_TRACE_PIECE_STEPS 1024

/* Decode the selected chunks, in parallel when opt->threads > 1, delivering
 * every chunk's edges to fn in file order (a chunk may arrive in several
 * calls with the same index when it is big), or its pieces to opt->piece, or
 * its rendered bytes to opt->write_text (fn NULL then; all NULL: only count).
 * With threads > 1, fn (piece, write_text) is called on whichever worker
 * thread delivers next, never two at once, and decoding goes on meanwhile (no
 * barrier between windows); steps are made on the decoding threads for render,
 * on the delivering one for piece. Stops at the first error (located) unless
 * diag is given, in which case chunk errors (of decoding, and with opt->cfg an
 * edge or an instruction count that fails) are reported to diag and decoding
 * goes on with the next chunk (returns TK_ERR_CHECK at the end if any); a
 * process the DCFG lacks is an error before anything is decoded. *total gets
 * the number of edges of the chunks delivered. Returns TK_OK, TK_END (a
 * callback asked to stop), TK_ERR_CHECK, TK_ERR_FORMAT, TK_ERR_LIMIT,
 * TK_ERR_NOMEM or TK_ERR_ARG (callbacks that do not go together). */
TK_API tk_status tk_dcfg_trace_decode(const tk_dcfg_trace *t,
                                      const tk_dcfg_trace_decode_options *opt,
                                      tk_dcfg_trace_chunk_fn fn, void *ctx, uint64_t *total,
                                      tk_diag *diag, tk_error *err);

/* With a DCFG: TK_OK when the process of every thread opt selects (opt NULL:
 * all) is in cfg, else TK_ERR_FORMAT located at the first such process's row
 * ("process P is not in the DCFG", the error `check --dcfg` reports). */
TK_API tk_status tk_dcfg_trace_processes_in(const tk_dcfg_trace *t, const tk_cfg *cfg,
                                            const tk_dcfg_trace_decode_options *opt, tk_error *err);

/* Check a trace: chunk order, every chunk decodes (errors and leftover-bit
 * warnings to diag), and with cfg (NULL: none) the cross-checks: processes
 * and edges exist, each edge starts where the previous one ended, INSTR_COUNT
 * = sum of NUM_INSTRS of the source blocks, per-thread edge counts within the
 * DCFG's COUNT_PER_THREAD. threads: decoding workers (0/1 = serial).
 * Returns TK_OK (no errors), TK_ERR_CHECK (errors reported), or another error
 * (err set) when checking could not go on. */
TK_API tk_status tk_dcfg_trace_check(const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned threads,
                                     tk_diag *diag, tk_error *err);

/* The options of the events and the profile of a trace (below). */
typedef struct tk_dcfg_trace_convert_options {
    /* decoding workers (0 or 1: the caller's thread): each thread's chunks are decoded and
     * their edges looked up in the DCFG on them, and the call stack is made in order (for
     * the profile on the thread that delivers each chunk, tk_dcfg_trace_decode; for the
     * events in their next()), so that the profile, the events and the errors are those of
     * one thread, for any number */
    unsigned threads;
    /* tk_dcfg_trace_to_profile: the trace's threads [thread_begin, thread_end) only, their
     * parts numbered as among all (0 and 0: every thread; thread_end 0: to the last), so that
     * the profiles of consecutive ranges appended in order (tk_profile_append) are the
     * profile of them all, byte for byte (tracekit-mpi's ranks make those of theirs) */
    size_t thread_begin, thread_end;
} tk_dcfg_trace_convert_options;

#define TK_DCFG_TRACE_CONVERT_OPTIONS_INIT \
    { \
        0 \
    }

/* The events model of a trace (tracekit/events.h), for the viewer exports: the thread's
 * call stack, a frame per routine, its opens enters and its closes exits: CALL-type edges
 * open a frame, RETURN-type edges close the innermost call with the frames jumps opened
 * above it, a jump into another routine opens a frame of it (or closes back to it when it
 * is a frame of the innermost call's chain), so that every instruction is in a frame of its
 * own routine (docs/formats/dcfg-trace.md); time = the thread's instruction count; functions
 * are routine entry block ids, named by their symbols. Threads one after the other; frames
 * still open close at the thread's last instruction. The source borrows t and cfg. opt NULL:
 * the defaults. Open: TK_OK, TK_ERR_NOMEM; its next(): TK_OK, TK_END, TK_ERR_FORMAT (a
 * process or an edge not in the DCFG, located; a decoding error), TK_ERR_NOMEM, TK_ERR_IO (a
 * thread could not be started). */
typedef struct tk_dcfg_trace_events tk_dcfg_trace_events;
typedef struct tk_event_source tk_event_source;
TK_API tk_status tk_dcfg_trace_events_open(tk_dcfg_trace_events **out, const tk_dcfg_trace *t,
                                           const tk_cfg *cfg,
                                           const tk_dcfg_trace_convert_options *opt, tk_error *err);
TK_API void tk_dcfg_trace_events_free(tk_dcfg_trace_events *x);
/* Fill src (time_unit "instructions", ticks_per_second 0). */
TK_API void tk_dcfg_trace_events_source(tk_dcfg_trace_events *x, tk_event_source *src);

/* Add the trace to a profile (tracekit/profile.h) for callgrind output:
 * event Ir, one part per thread, self cost per block address in the
 * function of the block's routine (object = image file); the thread's call stack as
 * its events (tk_dcfg_trace_events_open) make it: a call arc per frame opened by a CALL
 * edge or a jump into another routine, with inclusive Ir until the frame closes, and the
 * thread's top-level frames as the calls of its root function "thread TID". opt NULL: the
 * defaults. Errors: TK_ERR_FORMAT (a process or edge not in the DCFG, or a decoding error),
 * TK_ERR_NOMEM. */
typedef struct tk_profile tk_profile;
TK_API tk_status tk_dcfg_trace_to_profile(const tk_dcfg_trace *t, const tk_cfg *cfg,
                                          tk_profile *prof,
                                          const tk_dcfg_trace_convert_options *opt, tk_error *err);

/* A profile that tk_dcfg_trace_to_profile made, as bytes: its strings, events, functions
 * and parts (header, totals, self and call rows) in their order, so that the bytes read back
 * (tk_dcfg_trace_profile_deserialize) give a profile with the same ids and rows in the same
 * order, and tk_profile_append of the profiles of consecutive thread ranges, in order, gives
 * the profile of all of them. Canonical: LEB128 varints in their shortest form; bytes that read
 * back write themselves again. *data is the caller's (tk_free). Returns TK_OK, TK_ERR_FORMAT
 * (a profile with what tk_dcfg_trace_to_profile does not make: jumps, derived events, a
 * part's command, creator, descriptions, summary), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_profile_serialize(const tk_profile *p, uint8_t **data, size_t *size,
                                                 tk_error *err);
/* The profile serialised in data[0..size). Returns TK_OK, TK_ERR_FORMAT (not such bytes: the
 * message says what, err's offset where: a string or function twice, a row twice, an id out of
 * range), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_profile_deserialize(tk_profile **out, const uint8_t *data,
                                                   size_t size, tk_error *err);

/* One thread's chunks split into ranges (docs/mpi.md, "DCFG-Trace profiles"): the partial of
 * thread th's chunks whose global index is in [chunk_begin, chunk_end) (a contiguous range of
 * the thread's), made without the chunks before it: the edges taken in the context of the
 * stack it starts on, kept to be taken again, and what each stretch above a frame that a
 * call inside the range opened did (its rows, its open frames), with the range's first error.
 * *data is the caller's (tk_free). Returns TK_OK (the range's own errors are in the bytes),
 * TK_ERR_FORMAT (the thread's process not in the DCFG), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_profile_range(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th,
                                             size_t chunk_begin, size_t chunk_end,
                                             const tk_dcfg_trace_convert_options *opt,
                                             uint8_t **data, size_t *size, tk_error *err);
/* Thread th's part added to prof (after its parts: prof as tk_dcfg_trace_to_profile has made
 * those of the threads before th) from the partials of consecutive ranges that cover its
 * chunks, in order: the part tk_dcfg_trace_to_profile makes of the thread, and its error (the
 * first in the thread's order). Returns TK_OK, TK_ERR_FORMAT (the thread's, or bytes that are
 * no such partial), TK_ERR_LIMIT, TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_trace_profile_replay(const tk_dcfg_trace *t, const tk_cfg *cfg,
                                              tk_profile *prof, size_t th,
                                              const uint8_t *const *parts, const size_t *sizes,
                                              size_t n, tk_error *err);

/* ---- writing --------------------------------------------------------------- */

typedef struct tk_dcfg_trace_encoder tk_dcfg_trace_encoder;

/* Encoder levels (tk_dcfg_trace_encode_options.level): 0 is the default. */
enum {
    TK_DCFG_TRACE_PLAIN = -1, /* one row per edge, no repeats, no dictionary */
    TK_DCFG_TRACE_DEFAULT_LEVEL = 5 /* what level 0 stands for */
};

typedef struct tk_dcfg_trace_encode_options {
    int level; /* 0: TK_DCFG_TRACE_DEFAULT_LEVEL; TK_DCFG_TRACE_PLAIN; 1-4
                               repeats "(n*...)", 5-9 repeats + dictionary, 7-9 also
                               multi-edge rows (variable-length paths chosen from the first
                               4 Mi edges of each process) when estimated smaller */
    int compat_intel; /* Intel's reader can read it: empty dictionary (one edge per row
                               always) */
    uint64_t chunk_instrs; /* close a chunk once it holds this many instructions (0 = no limit) */
    uint64_t chunk_edges; /* close a chunk once it holds this many edges (0 = no limit; a
                               chunk never exceeds TK_DCFG_TRACE_MAX_ZERO_BIT_RUN + 1) */
    /* NUM_INSTRS of the source block of an edge (for INSTR_COUNT and
     * PRECEDING_INSTR_COUNT); NULL writes 0 for both. */
    uint64_t (*source_instrs)(void *ctx, uint64_t pid, uint32_t edge);
    void *ctx;
    uint64_t expected_edges; /* about how many edges the input holds (0 = unknown): multi-edge
                                rows are chosen before the end of pass 1, and how often a path
                                must recur to pay for its row depends on the total */
    /* The DCFG of the run (NULL: none). With it, NUM_INSTRS of the source
     * blocks come from it (unless source_instrs is given), and a thread's
     * edges are cut into chunks at every discontinuity (an edge that does not
     * start where the previous one ended: a gap in the edge list), so that no
     * chunk spans one. After a gap, PRECEDING_INSTR_COUNT is the end of the
     * previous chunk plus the NUM_INSTRS of the block its last edge enters
     * (that block ran and is in no chunk): the smallest count the edges
     * allow. Edges it lacks are taken as continuous. */
    const tk_cfg *cfg;
} tk_dcfg_trace_encode_options;

#define TK_DCFG_TRACE_ENCODE_OPTIONS_INIT \
    { \
        0, 0, 0, 0, NULL, NULL, 0, NULL \
    }

/* Two passes over the same data. Pass 1: observe() every edge sequence
 * (per process and thread, in order; a thread may be given in several
 * calls; each thread's edges together, each process's threads together).
 * Then start() writes the header; pass 2: encode() with exactly the same
 * calls; finish() writes the rest. Errors: TK_ERR_ARG (calls out of order,
 * pass 2 differs), TK_ERR_FORMAT (a thread or process not contiguous),
 * TK_ERR_NOMEM, TK_ERR_IO (write failed). */
TK_API tk_status tk_dcfg_trace_encoder_open(tk_dcfg_trace_encoder **out,
                                            const tk_dcfg_trace_encode_options *opt, tk_error *err);
TK_API void tk_dcfg_trace_encoder_free(tk_dcfg_trace_encoder *e);
TK_API tk_status tk_dcfg_trace_encoder_observe(tk_dcfg_trace_encoder *e, uint64_t pid, uint64_t tid,
                                               const uint32_t *edges, size_t n, tk_error *err);
TK_API tk_status tk_dcfg_trace_encoder_start(tk_dcfg_trace_encoder *e, const tk_writer *out,
                                             tk_error *err);
TK_API tk_status tk_dcfg_trace_encoder_encode(tk_dcfg_trace_encoder *e, uint64_t pid, uint64_t tid,
                                              const uint32_t *edges, size_t n, tk_error *err);
TK_API tk_status tk_dcfg_trace_encoder_finish(tk_dcfg_trace_encoder *e, tk_error *err);

/* ---- edge lists --------------------------------------------------------------
 * The text `tracekit decode --what edges` writes and `tracekit encode` reads: a line
 * "PID THREAD EDGE_ID" per edge (decimal numbers, blanks between them; blank lines and
 * lines whose first non-blank is '#' are skipped). The reader hands the edges out in runs:
 * consecutive lines of one thread, at most TK_DCFG_TRACE_EDGE_RUN_MAX. */

typedef struct tk_dcfg_trace_edge_reader tk_dcfg_trace_edge_reader;

#define TK_DCFG_TRACE_EDGE_RUN_MAX 65536

typedef struct tk_dcfg_trace_edge_run {
    uint64_t pid, thread_id;
    const uint32_t *edges; /* borrowed until the next call */
    size_t n; /* 1 .. TK_DCFG_TRACE_EDGE_RUN_MAX */
    uint64_t first_line; /* the lines of the first and the last edge */
    uint64_t line;
} tk_dcfg_trace_edge_run;

/* Read the edge list of `in` (borrowed: it must outlive the reader). With cfg (NULL:
 * none), every edge must be one of the DCFG's process of its line. Returns TK_OK or
 * TK_ERR_NOMEM; the caller owns *out (tk_dcfg_trace_edge_reader_free). */
TK_API tk_status tk_dcfg_trace_edge_reader_open(tk_dcfg_trace_edge_reader **out, tk_input *in,
                                                const tk_cfg *cfg, tk_error *err);
TK_API void tk_dcfg_trace_edge_reader_free(tk_dcfg_trace_edge_reader *r);
/* The next run: TK_OK, TK_END after the last, TK_ERR_FORMAT or TK_ERR_LIMIT (a number over
 * 64 bits) located at the line and column of what is wrong (not three numbers, more after
 * them, an edge id of 0 or over 32 bits, a process or an edge the DCFG lacks), TK_ERR_IO
 * or TK_ERR_LIMIT (a line too long) from the input. */
TK_API tk_status tk_dcfg_trace_edge_reader_next(tk_dcfg_trace_edge_reader *r,
                                                tk_dcfg_trace_edge_run *run, tk_error *err);

/* About how many edges the edge list at path holds (for the encoder's expected_edges): a
 * line takes about 12 bytes of content, and the content of a compressed file is its size
 * times the compression ratio of its first 16 MB. 0 when unknown ("-", a file that cannot
 * be opened). */
TK_API uint64_t tk_dcfg_trace_edge_list_estimate(const char *path);

#ifdef __cplusplus
}
#endif
#endif
