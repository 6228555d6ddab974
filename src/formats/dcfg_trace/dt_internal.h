/* DCFG-Trace internals: the parsed file (spans into the content), the
 * compiled transition tables, the lazy sequence expander. */
#ifndef TK_DCFG_TRACE_INTERNAL_H
#define TK_DCFG_TRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/fastpath.h"
#include "tracekit/dcfg_trace.h"

/* ---- compiled transition table ------------------------------------------
 * One state per CURRENT_EDGE_ID, plus one "dead end" state per edge that is
 * only ever a target. Each state owns a lookup table of 2^bits entries indexed
 * by the next `bits` bits of the stream (MSB first); an entry either is a
 * transition (consumes len bits, emits one or more edges, moves to a state),
 * points to a sub-table for longer codes, or marks a bit pattern with no
 * transition. */

#define DT_ENTRY_TRANSITION 0u
#define DT_ENTRY_SUBTABLE 1u
#define DT_ENTRY_NONE 2u

/* The widest lookup of one table level. */
#define DT_LOOKUP_BITS 8

typedef struct dt_entry {
    uint32_t next; /* state after the transition, or the sub-table state */
    uint32_t edge; /* the single edge emitted, or index in multi_edges when nedges > 1 */
    uint16_t nedges; /* edges emitted (transitions); 0 for sub-table and NONE */
    uint8_t len; /* bits consumed */
    uint8_t kind; /* DT_ENTRY_* */
} dt_entry;

typedef struct dt_state {
    uint32_t first; /* index of the state's first entry in entries */
    uint32_t edge; /* the edge id this state stands for (for messages) */
    uint8_t bits; /* lookup width; 0 = sole "" successor */
    uint8_t dead; /* 1: no transitions from this edge */
    uint8_t depth; /* bits already consumed before this (sub-)table */
    uint8_t pad;
} dt_state;

typedef struct dt_table {
    dt_state *states;
    size_t nstates;
    dt_entry *entries;
    size_t nentries;
    uint32_t *multi_edges; /* edge lists of multi-edge transitions */
    size_t nmulti;
    /* edge id -> state index (open addressing, keys+1 so 0 = empty) */
    uint64_t *map_keys;
    uint32_t *map_vals;
    size_t map_cap;
    unsigned max_code_len; /* longest code in the table (bits) */
    size_t nrows;
} dt_table;

/* State of an edge id, or UINT32_MAX when the edge never appears in the table. */
uint32_t tk_dt_table_state_of(const dt_table *t, uint64_t edge);
void tk_dt_table_free(dt_table *t);

/* One row of TRANSITION_TABLE as parsed. */
typedef struct dt_row {
    uint64_t current;
    const char *code; /* the raw code string (span in the content) */
    uint32_t code_len;
    uint32_t next_first; /* index in the parse's next-id pool */
    uint32_t next_count;
    int64_t code_offset; /* byte offset of the code string (for messages) */
    int64_t row_offset;
} dt_row;

/* Validate rows and build t. next_pool holds the NEXT_EDGE_IDS of all rows.
 * Located errors refer to path/content (offsets only; the caller adds lines). */
tk_status tk_dt_table_build(dt_table *t, const dt_row *rows, size_t nrows,
                            const uint32_t *next_pool, int64_t *err_offset, tk_error *err);

/* ---- the parsed file ------------------------------------------------------ */

typedef struct dt_dict_entry {
    char *key; /* key without whitespace (owned) */
    size_t key_len;
    const char *value; /* raw value span in the content */
    size_t value_len;
    int64_t value_offset; /* byte offset of the value's first character */
    int64_t key_offset; /* byte offset of the key's opening quote */
} dt_dict_entry;

typedef struct dt_chunk {
    uint64_t preceding_instr_count;
    uint64_t instr_count;
    uint64_t edge_count;
    uint64_t first_edge_id;
    size_t seq_len; /* the raw EDGE_ID_SEQUENCE span: seq_len bytes at data + seq_offset */
    int64_t seq_offset; /* byte offset of the sequence's first character */
    int64_t row_offset;
    /* line and column (1-based) of the row's '[', from the lexer as the parse reads the
     * row: tk_dcfg_trace_chunk and the messages about a chunk need no scan of the content */
    uint64_t line, column;
} dt_chunk;

typedef struct dt_thread {
    uint64_t thread_id;
    size_t first_chunk;
    size_t nchunks;
    int64_t offset;
} dt_thread;

typedef struct dt_process {
    uint64_t pid;
    dt_dict_entry *dict;
    size_t ndict;
    uint32_t *dict_slots; /* hash of the keys: entry index + 1, 0 = empty */
    size_t dict_cap; /* power of two (0 without entries) */
    dt_table table;
    size_t first_thread;
    size_t nthreads;
    int64_t offset;
} dt_process;

struct tk_dcfg_trace {
    const char *path; /* owned copy */
    const char *data; /* the content (borrowed from input or owned copy) */
    size_t len;
    void *owned_data;
    void *input; /* tk_input kept open while data is borrowed */
    uint64_t major, minor;
    dt_process *procs;
    size_t nprocs;
    dt_thread *threads;
    size_t nthreads, cap_threads;
    dt_chunk *chunks;
    size_t nchunks, cap_chunks;
    /* lines: where the line holding byte k * DT_LINE_STEP starts and its
     * number, for every k (tk_dt_line_col scans at most one step, or from the
     * row of the last chunk before the offset when that is nearer); NULL until
     * a successful tk_dt_parse, or when out of memory (then it scans from 0 or
     * that chunk) */
    struct dt_line_mark *line_marks;
};
#define DT_LINE_STEP ((size_t)1 << 16)
typedef struct dt_line_mark {
    uint64_t line;
    uint64_t line_start;
} dt_line_mark;

/* Parse the content of t (data, len, path set) into t, with the fast row paths (fast = 1) or
 * their general twins (0). */
tk_status tk_dt_parse(tk_dcfg_trace *t, tk_diag *diag, int fast, tk_error *err);

/* The fast paths of the parse (the rows of TRANSITION_TABLE and TRACE_DATA through
 * tk_json_scan_row_strings: fast_transition_row, fast_trace_row, core/fastpath.h) are taken
 * when DT_FAST(ps) of its parser: always, but with TK_NO_FAST_PATH or in
 * tk_dt_parse_paths(..., 0, ...), which the fuzz harness uses to compare them with the rows
 * read value by value (transition_row, trace_row), their general twins, on every input.
 * tk_dt_parse_paths(..., 0, ...) turns the tokenizer's fast paths off too (tk_json_set_fast). */
#define DT_FAST(ps) (TK_FAST_PATHS && (ps)->fast)
/* tk_dcfg_trace_open_memory parsed with the fast paths (fast = 1: tk_dcfg_trace_open_memory)
 * or without (0). */
tk_status tk_dt_parse_paths(tk_dcfg_trace **out, const void *data, size_t len, const char *name,
                            tk_diag *diag, int fast, tk_error *err);

/* Line and column (1-based) of a byte offset in the content: a scan from the nearer of the
 * line mark before it and the row of the last chunk parsed before it (chunks[0..nchunks) are
 * in file order; binary search), so an offset in or just after a chunk's row costs the
 * distance from that row, not up to DT_LINE_STEP. */
void tk_dt_line_col(const tk_dcfg_trace *t, int64_t offset, uint64_t *line, uint64_t *col);
/* Set a located error at a byte offset of the content. */
tk_status tk_dt_error_at(const tk_dcfg_trace *t, tk_error *err, tk_status code, int64_t offset,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- the lazy sequence expander --------------------------------------------
 * Yields the 6-bit values of a sequence string with repeats and dictionary
 * references expanded on the fly. Memory: one frame per open repeat or
 * reference (at most TK_DCFG_TRACE_MAX_NESTING). */

#define DT_FRAME_REPEAT 1
#define DT_FRAME_DICT 2

typedef struct dt_frame {
    const char *body; /* REPEAT: first char of the body; DICT: where to resume */
    const char *end; /* DICT: end of the text to resume */
    uint64_t remaining; /* REPEAT: iterations still to run after this one */
    uint64_t count; /* REPEAT: the count as written */
    uint64_t chars_at_iter; /* REPEAT: characters produced when this iteration started */
    uint32_t dict_index; /* DICT: the entry being expanded */
    uint8_t kind;
} dt_frame;

typedef struct dt_expander {
    const char *p; /* cursor in the current text */
    const char *end;
    const tk_dcfg_trace *trace;
    const dt_process *proc;
    uint64_t chars; /* base64 characters produced so far */
    uint64_t char_budget; /* characters the chunk can consume at most (+1 slack) */
    size_t depth;
    dt_frame frames[TK_DCFG_TRACE_MAX_NESTING];
    const char *last_char; /* position of the last character produced */
} dt_expander;

/* Index of the dictionary entry whose key equals the characters [k, kend)
 * with spaces and tabs skipped, or -1. */
long tk_dt_dict_find(const dt_process *p, const char *k, const char *kend);
/* Build p->dict_slots (after the dictionary is read). Returns 0 or -1 (no memory). */
int tk_dt_dict_index(dt_process *p);

/* Value of a base64 character, or -1. */
extern const signed char tk_dt_b64_value[256];
/* The alphabet in value order. */
extern const char tk_dt_b64_chars[65];

void tk_dt_expander_init(dt_expander *x, const tk_dcfg_trace *t, const dt_process *p,
                         const char *seq, size_t len, uint64_t char_budget);
/* Slow path: next 6-bit value (>= 0), -1 at the end of the sequence, or -2 on
 * an error (err set, located). */
int tk_dt_expander_next_slow(dt_expander *x, tk_error *err);

static inline int dt_expander_next(dt_expander *x, tk_error *err)
{
    if (x->p < x->end) {
        int v = tk_dt_b64_value[(unsigned char)*x->p];
        if (v >= 0) {
            x->last_char = x->p++;
            x->chars++;
            return v;
        }
    }
    return tk_dt_expander_next_slow(x, err);
}

/* ---- chunk decoding ------------------------------------------------------- */

/* Decode one chunk of process p, calling emit for batches of edge ids.
 * Warnings (leftover bits) go to diag when not NULL. */
tk_status tk_dt_decode_chunk(const tk_dcfg_trace *t, const dt_process *p, const dt_chunk *c,
                             tk_dcfg_trace_emit_fn emit, void *ctx, uint64_t *edges_out,
                             tk_diag *diag, tk_error *err);

/* ---- decoded edges through the DCFG (dt_walk.c) ------------------------------ */

enum { DT_WALK_OK, DT_WALK_PROCESS, DT_WALK_EDGE, DT_WALK_INSTRS };

/* A chunk's walk, from one piece of its edges to the next. */
typedef struct dt_walk {
    const tk_cfg *cfg;
    const tk_cfg_process *proc; /* the thread's process in cfg (NULL: none) */
    tk_dcfg_trace_steps which;
    size_t chunk;
    uint64_t pid;
    int64_t pid_offset; /* of the process's row */
    uint64_t instrs; /* the thread's instruction count after the edges so far */
    int failed; /* DT_WALK_*: why the walk stopped */
    uint32_t bad_edge; /* DT_WALK_EDGE: the edge the process lacks */
} dt_walk;

/* Start the walk of chunk (of process P) through cfg (NULL: a walk that only passes the
 * edges on). */
void tk_dt_walk_start(dt_walk *w, const tk_dcfg_trace *t, const tk_cfg *cfg,
                      tk_dcfg_trace_steps which, size_t chunk, const dt_process *P);
/* The next edges of the chunk: returns how many of edges[0..n) it took (all, or at most
 * TK_DCFG_TRACE_PIECE_STEPS with steps: the steps of those it selects go to
 * steps[0..*nsteps)); fewer when one failed (w->failed set, that edge not taken). */
size_t tk_dt_walk_edges(dt_walk *w, const uint32_t *edges, size_t n, tk_dcfg_trace_step *steps,
                        size_t *nsteps);
/* The located error of a walk that failed: TK_ERR_FORMAT. */
tk_status tk_dt_walk_error(const dt_walk *w, const tk_dcfg_trace *t, tk_error *err);
/* The same for every reader of the edges through the DCFG (tk_dt_walk_error's; the profile and
 * the events of dt_profile.c and dt_events.c): why (DT_WALK_PROCESS: process pid, whose row
 * is at pid_offset, is not in the DCFG; DT_WALK_EDGE: edge is not one of its edges;
 * DT_WALK_INSTRS: the instruction count overflows), located at the process's row or at
 * chunk's. TK_ERR_FORMAT. */
tk_status tk_dt_walk_fail(const tk_dcfg_trace *t, int why, size_t chunk, uint64_t pid,
                          int64_t pid_offset, uint32_t edge, tk_error *err);

#endif
