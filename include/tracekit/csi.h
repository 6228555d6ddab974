/* tracekit: CSI path-tracing metadata (.debug_PT of csi-cc).
 *
 * Text, one function after the other:
 *
 *   #                      function header
 *   main                   function name (raw symbol, maybe `name$CC$PT`)
 *   3|EXIT                 blocks: id, then ENTRY/EXIT/NULL/line numbers/-1
 *   2|ENTRY|9|9
 *   6|-1|20|21
 *   $                      end of blocks
 *   2->4|0$0               edges: src->dst|increment$weight
 *   9~>4|3$3               ~> : back (or split) edge; inc/weight of ENTRY->4
 *
 * The reader streams: tk_csi_reader_next() returns one function at a time,
 * borrowed until the next call, so memory does not grow with the file.
 * See docs/formats/csi.md for every decision taken where the spec is silent.
 */
#ifndef TRACEKIT_CSI_H
#define TRACEKIT_CSI_H

#include <stddef.h>
#include <stdint.h>

#include "ball_larus.h"
#include "cfg.h"
#include "dcfg_trace.h"
#include "input.h"
#include "alloc.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The -1 entry of a line list: a completed path value is written here. */
#define TK_CSI_PATH_WRITE (-1)

typedef enum tk_csi_block_kind {
    TK_CSI_BLOCK_PLAIN = 0,
    TK_CSI_BLOCK_ENTRY = 1,
    TK_CSI_BLOCK_EXIT = 2
} tk_csi_block_kind;

typedef struct tk_csi_block {
    uint64_t id;
    tk_csi_block_kind kind;
    int null_lines; /* the line list was written NULL */
    const int64_t *lines; /* line numbers in order; TK_CSI_PATH_WRITE for -1 */
    size_t nlines;
    uint64_t text_line; /* line of the metadata text that defines the block */
} tk_csi_block;

typedef struct tk_csi_edge {
    uint32_t src, dst; /* indices into the function's blocks */
    int back; /* written with "~>" */
    int64_t inc;
    uint64_t weight;
    uint64_t text_line;
} tk_csi_edge;

typedef struct tk_csi_function {
    const char *name; /* NUL-terminated */
    size_t name_len;
    uint64_t ordinal; /* 0-based position among the functions of the input */
    uint64_t text_line; /* line of the "#" header */
    const tk_csi_block *blocks;
    uint32_t nblocks;
    const tk_csi_edge *edges;
    uint32_t nedges;
    uint32_t entry, exit; /* block indices */
    uint32_t occurrence; /* 1 for the first function of its name in the input, 2 for the
                            * second...: its label (tk_csi_function_label); 0 outside a reader */
} tk_csi_function;

/* ---- reading ---------------------------------------------------------- */

typedef struct tk_csi_reader tk_csi_reader;

/* Read metadata text from `in` (borrowed; must outlive the reader).
 * TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_csi_reader_open(tk_csi_reader **out, tk_input *in, tk_error *err);
TK_API void tk_csi_reader_free(tk_csi_reader *r);

/* The next function. TK_OK (*fn borrowed until the next call), TK_END, or an
 * error located at path:line:column: TK_ERR_FORMAT (grammar, unknown or
 * duplicate block, missing or repeated ENTRY/EXIT), TK_ERR_LIMIT (a number
 * or a count too large), TK_ERR_IO, TK_ERR_NOMEM. After TK_ERR_FORMAT or
 * TK_ERR_LIMIT the next call resumes at the next "#" header, so a checker can
 * go on; after an error of the input itself (a line longer than the input's
 * max_line, I/O, corrupt compressed data) the next call returns TK_END. */
TK_API tk_status tk_csi_reader_next(tk_csi_reader *r, const tk_csi_function **fn, tk_error *err);

/* ---- writing ---------------------------------------------------------- */

/* Canonical csi-cc text of one function. TK_OK or TK_ERR_IO. */
TK_API tk_status tk_csi_write_function(const tk_writer *out, const tk_csi_function *fn,
                                       tk_error *err);

/* Deterministic description of one function (the golden format of `dump`).
 * bl: a numbering loaded for fn (tk_csi_numbering_load), or NULL. Returns TK_OK, TK_ERR_IO
 * (out failed), TK_ERR_NOMEM, TK_ERR_ARG (a writer without a callback). */
TK_API tk_status tk_csi_dump_function(const tk_writer *out, const tk_csi_function *fn,
                                      const tk_bl *bl, tk_error *err);

/* Graphviz dot of a function's CFG with increments and weights; back edges
 * dashed. highlight: a decoded path to draw in bold red, or NULL. One digraph "csi" with the
 * function as a cluster labelled with its name. Returns TK_OK, TK_ERR_IO (out failed),
 * TK_ERR_NOMEM, TK_ERR_ARG (a writer without a callback). */
TK_API tk_status tk_csi_write_dot(const tk_writer *out, const tk_csi_function *fn,
                                  const tk_bl_path *highlight, tk_error *err);
/* Several functions in one graph (`dot -Tpng` draws the first graph of a file only): begin,
 * a cluster per function (index: a number unique in the graph, part of the node names), end.
 * tk_csi_dot_end returns TK_OK or TK_ERR_IO (a write error on out so far). */
TK_API tk_status tk_csi_dot_begin(const tk_writer *out, tk_error *err);
TK_API tk_status tk_csi_write_dot_cluster(const tk_writer *out, const tk_csi_function *fn,
                                          uint32_t index, const tk_bl_path *highlight,
                                          tk_error *err);
TK_API tk_status tk_csi_dot_end(const tk_writer *out, tk_error *err);

/* ---- numbering -------------------------------------------------------- */

/* The Ball–Larus numbering of one function, reusable for many functions. */
typedef struct tk_csi_numbering tk_csi_numbering;

/* An empty numbering (TK_OK, TK_ERR_NOMEM). */
TK_API tk_status tk_csi_numbering_open(tk_csi_numbering **out, tk_error *err);
TK_API void tk_csi_numbering_free(tk_csi_numbering *n);

/* Load fn's weights and check them: tk_bl_load's statuses (TK_OK, TK_ERR_CHECK, TK_ERR_LIMIT
 * for a path count over 64 bits, TK_ERR_NOMEM, TK_ERR_ARG). Issues go to fn_issue. */
TK_API tk_status tk_csi_numbering_load(tk_csi_numbering *n, const tk_csi_function *fn,
                                       tk_bl_issue_fn fn_issue, void *ctx, tk_error *err);
TK_API const tk_bl *tk_csi_numbering_bl(const tk_csi_numbering *n);
/* A path buffer sized for the loaded function (valid until the next load). */
TK_API tk_bl_path *tk_csi_numbering_path(tk_csi_numbering *n);

/* Fresh Ball–Larus numbering of fn's CFG (back edges found by DFS from
 * ENTRY, in edge order; the file's '~>' marks are ignored, so split edges
 * become ordinary edges). Writes fn->nedges edges into out (same order, new
 * back/inc/weight; increments placed as csi-cc does, see tk_bl_number). TK_OK, TK_ERR_LIMIT (path count overflow),
 * TK_ERR_CHECK (a block has no path to EXIT), TK_ERR_NOMEM. */
TK_API tk_status tk_csi_renumber(const tk_csi_function *fn, tk_csi_numbering *n, tk_csi_edge *out,
                                 tk_error *err);

/* ---- checking --------------------------------------------------------- */

/* Semantic check of one function: numbering (distinct sums 0..NumPaths-1),
 * increments against weights, EXIT without lines, structure. Every problem
 * goes to diag, located in the metadata text (path). Returns TK_OK or
 * TK_ERR_CHECK (problems reported), TK_ERR_NOMEM. */
TK_API tk_status tk_csi_check_function(const tk_csi_function *fn, tk_csi_numbering *n,
                                       const char *path, tk_diag *diag, tk_error *err);

/* Text of an issue of a function's numbering, with block ids. */
TK_API void tk_csi_issue_message(const tk_csi_function *fn, const tk_bl_issue *is, char *buf,
                                 size_t size);

/* ---- runtime states --------------------------------------------------- */

/* The path-tracing locals of one stack frame. */
typedef struct tk_csi_state {
    char function[256]; /* "" when not given */
    int64_t *paths; /* values: raw array (ordered == 0) or completed paths oldest first */
    size_t npaths;
    int ordered; /* 1: paths are already oldest first (grissom local.data) */
    int64_t idx; /* next slot to write (raw array only) */
    int has_cur;
    int64_t cur; /* running path sum */
    int has_block;
    uint64_t block; /* block id of the program point */
    int has_line;
    int64_t line; /* source line of the program point */
    int has_expected;
    uint64_t *expected; /* block sequence the state is documented to encode */
    size_t nexpected;
    char label[64]; /* "state 1", "frame 0", ... */
    uint64_t text_line; /* where the state starts in its file */
} tk_csi_state;

TK_API void tk_csi_state_free(tk_csi_state *s);

/* Read runtime states from a text file: either key=value sections
 * ("[state N]", arr=, idx=, cur=, pc_block=, line=, function=, suffix=) or
 * csi-grissom's local.data frames ("#func|file:line:cur", then the %, ^ and $
 * lines). *states is the caller's: tk_csi_states_free frees each state and the
 * array. TK_OK; TK_ERR_FORMAT or TK_ERR_LIMIT (a number over 64 bits), located;
 * TK_ERR_NOMEM; the input's TK_ERR_IO. */
TK_API tk_status tk_csi_states_read(tk_input *in, tk_csi_state **states, size_t *nstates,
                                    tk_error *err);
TK_API void tk_csi_states_free(tk_csi_state *states, size_t nstates);

/* One reading of the unfinished current path. */
typedef struct tk_csi_reading {
    int after_write; /* 1: the newest completed path already ends here */
    uint32_t *blocks; /* block indices of the partial path (after_write: none) */
    size_t nblocks;
    uint32_t start_edge; /* the partial path starts after this back edge, or TK_BL_NONE */
    uint32_t at_block; /* block index of the program point */
} tk_csi_reading;

/* A decoded state. */
typedef struct tk_csi_decoded {
    /* completed paths, oldest first */
    uint64_t *ids;
    size_t nids;
    tk_bl_path *paths; /* decoded, same order; nodes owned here */
    int *path_ok; /* 0 when an id did not decode */
    /* readings of the current path; several = ambiguous */
    tk_csi_reading *readings;
    size_t nreadings;
    int readings_truncated;
    /* the block sequence (indices) for each reading: completed paths then
     * current path; seqs[k] for reading k (or one sequence when no reading) */
    uint32_t **seqs;
    size_t *seq_lens;
    size_t nseqs;
    /* problems (one per line, "\n"-separated), empty when none */
    char notes[1024];
    int consistent; /* the back edges between consecutive paths match */
    int matches_expected; /* the state has_expected, and one of seqs is its block ids */
} tk_csi_decoded;

/* Decode a state against a function's numbering (loaded in n).
 * TK_OK, TK_ERR_FORMAT (a value is not a path id of this function; err says
 * which), TK_ERR_NOMEM. */
TK_API tk_status tk_csi_state_decode(const tk_csi_function *fn, tk_csi_numbering *n,
                                     const tk_csi_state *s, tk_csi_decoded *out, tk_error *err);
TK_API void tk_csi_decoded_free(tk_csi_decoded *d);

/* Whether a function (with its label, "name" or "name#K" for the K-th function of that
 * name in its input) is one a selector names: NULL selects all; "NAME" selects NAME and
 * its variants NAME$... (csi-cc's clones); "NAME#K" the K-th function called NAME (or a
 * function whose name is "NAME#K"). */
TK_API int tk_csi_function_matches(const char *selector, const tk_csi_function *fn,
                                   const char *label);
/* The function's label into buf (snprintf's rules): its name, or "name#K" for the K-th
 * function of that name in its input (fn->occurrence K > 1). Returns the label's length. */
TK_API size_t tk_csi_function_label(const tk_csi_function *fn, char *buf, size_t size);

/* The runtime states of a file indexed by the function each names, so that each function
 * of the metadata finds its states by binary search instead of testing them all (8000
 * states against 37 K functions: 14 s). A state goes with a function when it names it as a
 * selector does (tk_csi_function_matches), or names its plain name while the function is a
 * variant (foo for foo$CC$PT, or the other way round); a state naming no function goes
 * with the functions the index's selector selects. */
typedef struct tk_csi_state_index tk_csi_state_index;

/* The index of states[0..n) (borrowed: they must outlive it); selector for the states
 * without a function (NULL: every function). Returns TK_OK, TK_ERR_NOMEM. */
TK_API tk_status tk_csi_state_index_open(tk_csi_state_index **out, const tk_csi_state *states,
                                         size_t n, const char *selector, tk_error *err);
/* The states that go with function fn (labelled label), each once, as indexes into the
 * states, into out (room for n). Returns how many. */
TK_API size_t tk_csi_state_index_find(tk_csi_state_index *ix, const tk_csi_function *fn,
                                      const char *label, size_t *out);
TK_API void tk_csi_state_index_free(tk_csi_state_index *ix);

/* ---- DCFG -> CSI ------------------------------------------------------ */

/* Ball–Larus metadata for every routine of a CFG model (read from DCFG):
 * the routine's blocks (ENTRY = its entry block; EXIT a new block, id = the
 * largest block id + 1), its intra-routine edges (branches, fall-throughs,
 * call bypasses; returns and edges leaving the routine go to EXIT; calls are
 * left out), source lines from SOURCE_DATA (the line of each block's first
 * instruction, NULL when unknown) and a fresh numbering (tk_csi_renumber).
 * Routines whose paths overflow 64 bits are left out, as csi-cc does, and
 * counted in *skipped. TK_OK, TK_ERR_IO, TK_ERR_NOMEM. */
TK_API tk_status tk_csi_write_cfg(const tk_writer *out, const tk_cfg *cfg, uint64_t *skipped,
                                  tk_error *err);

/* ---- path profile of a DCFG-Trace ------------------------------------ */

/* Ball–Larus paths counted over a DCFG-Trace: each routine numbered as
 * tk_csi_write_cfg does (the same path ids), each thread's edges walked with
 * a call stack (calls push, returns pop and resume the caller at its call
 * bypass edge). A path whose start was not seen (the trace began inside the
 * routine, or an unknown edge broke the walk) is counted as unknown_start;
 * frames still open at the end as unfinished. */
typedef struct tk_csi_profile tk_csi_profile;

typedef struct tk_csi_profile_stats {
    uint64_t completed; /* completed path executions counted */
    uint64_t distinct; /* distinct path ids among them */
    uint64_t unknown_start; /* completed paths whose start was not seen */
    uint64_t unfinished; /* paths still running when the trace ended */
} tk_csi_profile_stats;

/* For process pid of cfg (borrowed: must outlive the profile). TK_OK,
 * TK_ERR_FORMAT (no such process), TK_ERR_NOMEM. */
TK_API tk_status tk_csi_profile_open(tk_csi_profile **out, const tk_cfg *cfg, uint64_t pid,
                                     tk_error *err);
TK_API void tk_csi_profile_free(tk_csi_profile *pr);
/* Feed the next edges (DCFG edge ids) of a thread. TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_csi_profile_edges(tk_csi_profile *pr, uint64_t thread, const uint32_t *edges,
                                      size_t n, tk_error *err);
/* End of the trace: open frames become unfinished paths. */
TK_API void tk_csi_profile_finish(tk_csi_profile *pr);
/* The profile of process pid of the DCFG-Trace t over cfg, the program's DCFG (both borrowed:
 * they must outlive it): its edges decoded, each chunk's fed as its thread's, then finished.
 * TK_OK, TK_ERR_FORMAT (no such process in cfg; an error of decoding, located),
 * TK_ERR_NOMEM. */
TK_API tk_status tk_csi_profile_read_trace(tk_csi_profile **out, const tk_cfg *cfg,
                                           const tk_dcfg_trace *t, uint64_t pid, tk_error *err);
TK_API void tk_csi_profile_totals(const tk_csi_profile *pr, uint64_t *edges,
                                  uint64_t *unknown_edges);
TK_API uint32_t tk_csi_profile_routine_count(const tk_csi_profile *pr);
/* Routine i as a CSI function, its numbering (NULL when it overflows) and counts. */
TK_API const tk_csi_function *tk_csi_profile_routine(const tk_csi_profile *pr, uint32_t i,
                                                     tk_csi_numbering **num,
                                                     tk_csi_profile_stats *stats);
/* The most executed paths of routine i as (id, count) pairs, most first: at
 * most max of them, *n written. TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_csi_profile_paths(const tk_csi_profile *pr, uint32_t i, uint64_t *pairs,
                                      size_t max, size_t *n, tk_error *err);

/* ---- ELF -------------------------------------------------------------- */

/* Bytes start with the ELF magic. */
TK_API int tk_csi_is_elf(const uint8_t *data, size_t len);

/* Copy the contents of every section `section` (e.g. ".debug_PT") of an ELF
 * file or memory image into a new buffer (*data, *len; caller frees with
 * tk_free). TK_OK, TK_END (no such section), TK_ERR_FORMAT, TK_ERR_IO, TK_ERR_NOMEM. */
TK_API tk_status tk_csi_elf_section(const char *path, const void *image, size_t image_len,
                                    const char *section, uint8_t **data, size_t *len,
                                    tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
