/* tracekit: the profile model (aggregated costs).
 *
 * A profile holds event types (names, long names, derived formulas), a string
 * table of names, functions keyed by (object, file, name), and one or more
 * parts (callgrind dumps, threads, runs). Each part holds:
 *   - self cost rows: (function, cost file, position) -> cost per event
 *   - call rows: (caller, call-site file, position, callee, target position)
 *     -> call count and inclusive cost per event
 *   - jump rows: (function, file, position, target function/file/position,
 *     conditional) -> executed and followed counts.
 * Adding the same key twice sums the costs, so the builder aggregates.
 *
 * Other formats build a profile with the builder functions below and can then
 * write it with tk_callgrind_write (include/tracekit/callgrind.h). The profile
 * and its parts are opaque: an event type, a derived event and a function are
 * read with tk_profile_event_get, _derived_get, _function_get, a part's header
 * with tk_prof_part_get, its rows by index (tk_prof_part_self, _call, _jump:
 * row 0 .. count - 1), each copied into the caller's structs and arrays; how
 * the library stores them is its own (src/model/profile.h).
 */
#ifndef TRACEKIT_PROFILE_H
#define TRACEKIT_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_PROFILE_MAX_EVENTS 64

/* Position kinds (bits of tk_prof_part.positions), in the callgrind order. */
enum { TK_POS_INSTR = 1, TK_POS_BB = 2, TK_POS_LINE = 4 };

typedef struct tk_prof_pos {
    uint64_t addr; /* instruction address (TK_POS_INSTR) */
    uint64_t bb; /* basic block (TK_POS_BB) */
    uint64_t line; /* source line, 0 = unknown (TK_POS_LINE) */
} tk_prof_pos;

/* A function: string ids of its object, file and name (tk_profile_function_get). */
typedef struct tk_prof_function_info {
    uint32_t object;
    uint32_t file;
    uint32_t name;
} tk_prof_function_info;

/* The keys of a part's rows: what a builder adds (tk_profile_add_self, _call, _jump) and
 * what tk_prof_part_self, _call, _jump copy out. The fields a key does not use (reserved,
 * the positions a part does not have) are zero. */
typedef struct tk_prof_self {
    uint32_t fn; /* function id */
    uint32_t file; /* string id of the file the cost belongs to (fl/fi/fe) */
    tk_prof_pos pos;
} tk_prof_self;

typedef struct tk_prof_call {
    uint32_t fn;
    uint32_t file;
    tk_prof_pos pos; /* call site */
    uint32_t callee;
    uint32_t reserved; /* zero */
    tk_prof_pos target; /* position in the callee */
} tk_prof_call;

typedef struct tk_prof_jump {
    uint32_t fn;
    uint32_t file;
    tk_prof_pos pos; /* jump source */
    uint32_t target_fn;
    uint32_t target_file;
    tk_prof_pos target;
    uint32_t conditional; /* 1 for jcnd= */
    uint32_t reserved; /* zero */
} tk_prof_jump;

/* A part: its header and its cost, call and jump rows (opaque). */
typedef struct tk_prof_part tk_prof_part;

/* An event type (tk_profile_event_get). */
typedef struct tk_prof_event_info {
    uint32_t name; /* string id */
    uint32_t long_name; /* string id, or TK_PROF_NONE */
} tk_prof_event_info;

/* A derived event (tk_profile_derived_get). */
typedef struct tk_prof_derived_info {
    uint32_t name; /* string id */
    uint32_t formula; /* string id of the text after '=' (trimmed) */
    uint32_t long_name; /* string id, or TK_PROF_NONE */
} tk_prof_derived_info;

typedef struct tk_profile tk_profile;

#define TK_PROF_NONE UINT32_MAX

/* A new, empty profile (*out, tk_profile_free). TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_profile_open(tk_profile **out, tk_error *err);
TK_API void tk_profile_free(tk_profile *p);

/* ---- strings ----------------------------------------------------------- */
/* The id of s[0..len) (added when new). TK_OK, TK_ERR_LIMIT (a string over 4 GiB, more
 * than 2^32 - 2 strings) or TK_ERR_NOMEM. */
TK_API tk_status tk_profile_intern(tk_profile *p, const char *s, size_t len, uint32_t *id,
                                   tk_error *err);
TK_API const char *tk_profile_str(const tk_profile *p, uint32_t id);
TK_API size_t tk_profile_str_len(const tk_profile *p, uint32_t id);

TK_API size_t tk_profile_string_count(const tk_profile *p);
/* Sort rank of every string (rank[id], byte order), for deterministic output:
 * *out, the caller's (tk_free). TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_profile_string_ranks(const tk_profile *p, uint32_t **out, tk_error *err);

/* ---- event types ------------------------------------------------------- */
TK_API size_t tk_profile_event_count(const tk_profile *p);
/* Event type i into *out (TK_PROF_NONE ids past the end). */
TK_API void tk_profile_event_get(const tk_profile *p, size_t i, tk_prof_event_info *out);
/* The name of event type i, or NULL past the end (borrowed until tk_profile_free). */
TK_API const char *tk_profile_event_name(const tk_profile *p, size_t i);
/* Index of an event by name, or -1. */
TK_API int tk_profile_find_event(const tk_profile *p, const char *name, size_t len);
/* Adds an event type (or finds it). Adding is refused with TK_ERR_UNSUPPORTED
 * once cost rows exist (the row width is fixed then). */
TK_API tk_status tk_profile_add_event(tk_profile *p, const char *name, size_t len, size_t *index,
                                      tk_error *err);
TK_API void tk_profile_set_event_long_name(tk_profile *p, size_t index, uint32_t long_name);
/* Adds a derived event (or replaces the formula of the one of that name);
 * TK_ERR_LIMIT past TK_PROFILE_MAX_EVENTS of them. */
TK_API tk_status tk_profile_add_derived(tk_profile *p, uint32_t name, uint32_t formula,
                                        uint32_t long_name, tk_error *err);
TK_API size_t tk_profile_derived_count(const tk_profile *p);
/* Derived event i into *out (TK_PROF_NONE ids past the end). */
TK_API void tk_profile_derived_get(const tk_profile *p, size_t i, tk_prof_derived_info *out);
/* Evaluate derived event i's formula ("Ir + 2 Dr", "3*Ir") on a cost vector. TK_OK,
 * TK_ERR_FORMAT (not the grammar's, or an event the profile has not), TK_ERR_LIMIT (a
 * coefficient or the value over 64 bits) or TK_ERR_ARG (no derived event i). */
TK_API tk_status tk_profile_eval_derived(const tk_profile *p, size_t i, const uint64_t *costs,
                                         uint64_t *result, tk_error *err);

/* ---- functions --------------------------------------------------------- */
/* The id of the function (object, file, name) (string ids; added when new) into *fn. TK_OK,
 * TK_ERR_LIMIT (more than 2^32 - 2 functions) or TK_ERR_NOMEM. */
TK_API tk_status tk_profile_function(tk_profile *p, uint32_t object, uint32_t file, uint32_t name,
                                     uint32_t *fn, tk_error *err);
TK_API size_t tk_profile_function_count(const tk_profile *p);
/* Function fn into *out (TK_PROF_NONE ids past the end). */
TK_API void tk_profile_function_get(const tk_profile *p, uint32_t fn, tk_prof_function_info *out);

/* Rank of every function (sorted by name, object, file ranks): *out, the
 * caller's (tk_free). TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_profile_function_ranks(const tk_profile *p, const uint32_t *str_rank,
                                           uint32_t **out, tk_error *err);

/* ---- parts ------------------------------------------------------------- */
/* A new, empty part at the end (*out, borrowed from p). TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_profile_add_part(tk_profile *p, tk_prof_part **out, tk_error *err);
TK_API size_t tk_profile_part_count(const tk_profile *p);
/* Part i, or NULL; borrowed until tk_profile_free. */
TK_API tk_prof_part *tk_profile_part(const tk_profile *p, size_t i);

/* What a part holds: its header values as read (has_* says whether
 * present) and the sizes of its tables. Pointers are borrowed from the part
 * until it changes. */
typedef struct tk_prof_part_info {
    int has_number, has_thread, has_pid;
    uint64_t number, thread, pid;
    const char *cmd; /* NULL if absent */
    const char *creator; /* NULL if absent */
    size_t desc_count; /* "key: value" lines: tk_prof_part_desc */
    unsigned positions; /* TK_POS_* bits; 0 means "line" */
    int has_summary, has_totals;
    const uint64_t *summary; /* n_events values in profile event order */
    const uint64_t *totals;
    int events_mask_valid; /* 1 if `events` was given for this part */
    uint64_t events_present; /* bit i: profile event i named in this part */
    size_t self_rows, call_rows, jump_rows;
    /* what the Callgrind reader saw in the part, at any detail level (zero in
     * profiles built otherwise) */
    uint64_t call_lines; /* calls= lines */
    uint64_t jump_lines; /* jump= and jcnd= lines */
    int has_line_sum;
    const uint64_t *line_sum; /* sum of the cost lines, profile event order */
    /* read with call counts only (tk_callgrind_read_options.call_counts_only):
     * no call rows; calls_into[f] = calls into function f (calls_into_len
     * entries, the functions after them have none). NULL otherwise. */
    const uint64_t *calls_into;
    size_t calls_into_len;
} tk_prof_part_info;
TK_API void tk_prof_part_get(const tk_prof_part *part, tk_prof_part_info *out);
/* Description line i ("key: value"), or NULL. */
TK_API const char *tk_prof_part_desc(const tk_prof_part *part, size_t i);

/* Row i of a part's tables (0 .. self_rows - 1, ...), in the order the rows
 * were added, copied into the caller's (each pointer may be NULL): its key
 * into *key, and its values into the arrays given: a self row's n_events costs (n_events =
 * tk_profile_event_count); a call row's count and n_events inclusive costs; a
 * jump row's executed and followed counts. Returns 1, or 0 past the end
 * (nothing written). */
TK_API int tk_prof_part_self(const tk_prof_part *part, size_t i, tk_prof_self *key,
                             uint64_t *costs);
TK_API int tk_prof_part_call(const tk_prof_part *part, size_t i, tk_prof_call *key, uint64_t *count,
                             uint64_t *inclusive);
TK_API int tk_prof_part_jump(const tk_prof_part *part, size_t i, tk_prof_jump *key,
                             uint64_t *executed, uint64_t *followed);

/* Header values of a part being built. */
TK_API void tk_prof_part_set_number(tk_prof_part *part, uint64_t number);
TK_API void tk_prof_part_set_thread(tk_prof_part *part, uint64_t thread);
TK_API void tk_prof_part_set_pid(tk_prof_part *part, uint64_t pid);
TK_API void tk_prof_part_set_positions(tk_prof_part *part, unsigned positions);
/* The summary: line (n_events values of p's events), or none (summary NULL). */
TK_API void tk_prof_part_set_summary(const tk_profile *p, tk_prof_part *part,
                                     const uint64_t *summary);
/* cmd: and creator: (copied). TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_prof_part_set_cmd(tk_prof_part *part, const char *s, size_t len, tk_error *err);
TK_API tk_status tk_prof_part_set_creator(tk_prof_part *part, const char *s, size_t len,
                                          tk_error *err);
/* A description line "key: value" (copied). TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_profile_part_add_desc(tk_prof_part *part, const char *s, size_t len,
                                          tk_error *err);

/* Costs are given as n_events values in profile event order.
 * All return TK_OK, TK_ERR_NOMEM or TK_ERR_LIMIT (64-bit overflow of a sum). */
TK_API tk_status tk_profile_add_self(tk_profile *p, tk_prof_part *part, const tk_prof_self *key,
                                     const uint64_t *costs, tk_error *err);
TK_API tk_status tk_profile_add_call(tk_profile *p, tk_prof_part *part, const tk_prof_call *key,
                                     uint64_t count, const uint64_t *inclusive, tk_error *err);
TK_API tk_status tk_profile_add_jump(tk_profile *p, tk_prof_part *part, const tk_prof_jump *key,
                                     uint64_t executed, uint64_t followed, tk_error *err);

/* Sum of self costs of a part (n_events values). TK_OK or TK_ERR_LIMIT (a sum over 64
 * bits). */
TK_API tk_status tk_profile_part_sum(const tk_profile *p, const tk_prof_part *part, uint64_t *sum,
                                     tk_error *err);
/* Store the computed sum as the part's totals (for writers of built profiles). TK_OK or
 * TK_ERR_LIMIT (a sum over 64 bits). */
TK_API tk_status tk_profile_part_fill_totals(const tk_profile *p, tk_prof_part *part,
                                             tk_error *err);

/* Add every part of src into dst (appending parts, or into dst part `into`
 * when into != NULL). Names are re-interned; events must be known to dst or
 * are added when dst has no rows yet. TK_OK, TK_ERR_UNSUPPORTED (an event type dst lacks
 * and dst has rows), TK_ERR_LIMIT (more than TK_PROFILE_MAX_EVENTS event types or derived
 * events, a sum over 64 bits, more strings or functions than ids) or TK_ERR_NOMEM. */
TK_API tk_status tk_profile_merge(tk_profile *dst, const tk_profile *src, tk_prof_part *into,
                                  tk_error *err);

/* src appended to dst: exactly the profile that reading src's input into dst (after the
 * inputs dst was read from) makes, with src read from that input into a profile of its own:
 * the same strings and functions in the same id order, events, derived events, parts (header,
 * descriptions, summary, totals, rows in order) and what the reader counted (src/model/profile.c
 * says what that requires). TK_OK, TK_ERR_UNSUPPORTED (an event type src brings after dst's
 * rows), TK_ERR_LIMIT (a sum over 64 bits: reading in order says where), TK_ERR_NOMEM; dst is
 * then only fit for tk_profile_free. */
TK_API tk_status tk_profile_append(tk_profile *dst, const tk_profile *src, tk_error *err);

/* The parts of *prof as one part (speedscope and callgrind_annotate read one part of a
 * file): when *prof has two parts or more, it is replaced by a new profile of one part whose
 * costs are the sums over the parts (the first part's positions, pid, command and creator; no
 * thread); with fewer parts nothing changes. TK_OK, TK_ERR_NOMEM, TK_ERR_LIMIT (a sum over 64
 * bits): *prof is then unchanged. */
TK_API tk_status tk_profile_one_part(tk_profile **prof, tk_error *err);

/* What `tracekit merge` writes: a new profile of src's costs. */
typedef struct tk_profile_merge_options {
    int keep_parts; /* 1: every part of src as it is, appended in order; 0: one part, the
                         sums over src's parts, with the first part's command, the description
                         line `desc` and its totals and summary the sums of its cost lines */
    const char *desc; /* "key: value" (e.g. "Trigger: tracekit merge"), or NULL: none */
} tk_profile_merge_options;

#define TK_PROFILE_MERGE_OPTIONS_INIT \
    { \
        0, NULL \
    }

/* *out gets the merged profile (tk_profile_free). Returns TK_OK, TK_ERR_NOMEM, TK_ERR_LIMIT
 * (a sum over 64 bits). */
TK_API tk_status tk_profile_merged(tk_profile **out, const tk_profile *src,
                                   const tk_profile_merge_options *opt, tk_error *err);

/* The same made one profile at a time: tk_profile_merger_add of the profiles of some inputs
 * (each read on its own), in their order, then tk_profile_merger_finish, give what
 * tk_profile_merged gives of the profile of all of them read one after the other.
 * tk_profile_merger_open: TK_OK or TK_ERR_NOMEM. */
typedef struct tk_profile_merger tk_profile_merger;
TK_API tk_status tk_profile_merger_open(tk_profile_merger **out,
                                        const tk_profile_merge_options *opt, tk_error *err);
/* src's costs into the merge. An event type that src brings after the earlier ones recorded
 * costs is refused, as reading them into one profile refuses it. Returns TK_OK,
 * TK_ERR_UNSUPPORTED (such an event type), TK_ERR_NOMEM, TK_ERR_LIMIT (a sum over 64 bits);
 * after an error, only tk_profile_merger_free. */
TK_API tk_status tk_profile_merger_add(tk_profile_merger *m, const tk_profile *src, tk_error *err);
/* The merged profile (*out, tk_profile_free); m is freed. Returns TK_OK, TK_ERR_LIMIT. */
TK_API tk_status tk_profile_merger_finish(tk_profile_merger *m, tk_profile **out, tk_error *err);
TK_API void tk_profile_merger_free(tk_profile_merger *m);

/* Canonical, deterministic text of the whole model (sorted). TK_OK, TK_ERR_IO (the writer
 * failed) or TK_ERR_NOMEM. */
TK_API tk_status tk_profile_dump(const tk_profile *p, const tk_writer *out, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
