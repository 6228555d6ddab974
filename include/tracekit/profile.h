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
 * write it with tk_callgrind_write (include/tracekit/callgrind.h).
 * The structs are public for reading; change them only through the builder.
 */
#ifndef TRACEKIT_PROFILE_H
#define TRACEKIT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_PROFILE_MAX_EVENTS 64

/* Position kinds (bits of tk_prof_part.positions), in the callgrind order. */
enum { TK_POS_INSTR = 1, TK_POS_BB = 2, TK_POS_LINE = 4 };

typedef struct tk_prof_pos {
    uint64_t addr; /* instruction address (TK_POS_INSTR) */
    uint64_t bb;   /* basic block (TK_POS_BB) */
    uint64_t line; /* source line, 0 = unknown (TK_POS_LINE) */
} tk_prof_pos;

typedef struct tk_prof_function {
    uint32_t object; /* string ids */
    uint32_t file;
    uint32_t name;
} tk_prof_function;

/* Row keys are compared with memcmp: no padding, unused fields zero. */
typedef struct tk_prof_self {
    uint32_t fn;   /* function id */
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
    uint32_t reserved;    /* zero */
} tk_prof_jump;

typedef struct tk_prof_table {
    void *rows;       /* array of row structs */
    uint64_t *values; /* per row: `width` values */
    size_t count;
    size_t capacity;
    uint32_t *slots; /* open addressing, row index + 1, 0 = empty */
    size_t slot_count;
    size_t last; /* row index of the last hit + 1 (0 = none) */
} tk_prof_table;

typedef struct tk_prof_part {
    /* header values as read (has_* says whether present) */
    int has_number, has_thread, has_pid;
    uint64_t number, thread, pid;
    char *cmd;     /* NULL if absent */
    char *creator; /* NULL if absent */
    char **desc;   /* "key: value" strings, in order */
    size_t desc_count;
    unsigned positions; /* TK_POS_* bits; 0 means "line" */
    int has_summary, has_totals;
    uint64_t summary[TK_PROFILE_MAX_EVENTS]; /* in profile event order */
    uint64_t totals[TK_PROFILE_MAX_EVENTS];
    unsigned events_mask_valid;              /* 1 if `events` was given for this part */
    uint64_t events_present;                 /* bit i: profile event i named in this part */
    tk_prof_table self;  /* values: n_events costs */
    tk_prof_table calls; /* values: count, then n_events inclusive costs */
    tk_prof_table jumps; /* values: executed, followed */
    /* what the Callgrind reader saw in the part, at any detail level (zero in
     * profiles built otherwise) */
    uint64_t call_lines;                      /* calls= lines */
    uint64_t jump_lines;                      /* jump= and jcnd= lines */
    int has_line_sum;                         /* line_sum is set */
    uint64_t line_sum[TK_PROFILE_MAX_EVENTS]; /* sum of the cost lines, profile event order */
    /* read with call counts only (tk_callgrind_read_options.call_counts_only):
     * no call rows; calls_into[f] = calls into function f (calls_into_len
     * entries, the functions after them have none). NULL otherwise. */
    uint64_t *calls_into;
    size_t calls_into_len;
} tk_prof_part;

typedef struct tk_prof_event {
    uint32_t name;      /* string id */
    uint32_t long_name; /* string id, or UINT32_MAX */
} tk_prof_event;

typedef struct tk_prof_derived {
    uint32_t name;
    uint32_t formula;   /* string id of the text after '=' (trimmed) */
    uint32_t long_name; /* or UINT32_MAX */
} tk_prof_derived;

typedef struct tk_profile tk_profile;

#define TK_PROF_NONE UINT32_MAX

TK_API tk_status tk_profile_new(tk_profile **out);
TK_API void tk_profile_free(tk_profile *p);

/* ---- strings ----------------------------------------------------------- */
TK_API tk_status tk_profile_intern(tk_profile *p, const char *s, size_t len, uint32_t *id);
TK_API const char *tk_profile_str(const tk_profile *p, uint32_t id);
TK_API size_t tk_profile_str_len(const tk_profile *p, uint32_t id);

TK_API size_t tk_profile_string_count(const tk_profile *p);
/* Sort rank of every string (rank[id], byte order), for deterministic output.
 * The caller frees the array with free(); NULL when out of memory. */
TK_API uint32_t *tk_profile_string_ranks(const tk_profile *p);

/* ---- event types ------------------------------------------------------- */
TK_API size_t tk_profile_event_count(const tk_profile *p);
TK_API const tk_prof_event *tk_profile_event(const tk_profile *p, size_t i);
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
                                 uint32_t long_name);
TK_API size_t tk_profile_derived_count(const tk_profile *p);
TK_API const tk_prof_derived *tk_profile_derived(const tk_profile *p, size_t i);
/* Evaluate a derived formula ("Ir + 2 Dr", "3*Ir") on a cost vector. */
TK_API tk_status tk_profile_eval_derived(const tk_profile *p, size_t i, const uint64_t *costs,
                                  uint64_t *result);

/* ---- functions --------------------------------------------------------- */
TK_API tk_status tk_profile_function(tk_profile *p, uint32_t object, uint32_t file, uint32_t name,
                              uint32_t *fn);
TK_API size_t tk_profile_function_count(const tk_profile *p);
TK_API const tk_prof_function *tk_profile_function_at(const tk_profile *p, uint32_t fn);

/* Rank of every function (sorted by name, object, file ranks); the caller
 * frees it with free(). */
TK_API uint32_t *tk_profile_function_ranks(const tk_profile *p, const uint32_t *str_rank);

/* ---- parts ------------------------------------------------------------- */
TK_API tk_status tk_profile_add_part(tk_profile *p, tk_prof_part **out);
TK_API size_t tk_profile_part_count(const tk_profile *p);
TK_API tk_prof_part *tk_profile_part(const tk_profile *p, size_t i);
TK_API tk_status tk_profile_part_add_desc(tk_prof_part *part, const char *s, size_t len);
/* Adds count calls into function fn to part->calls_into (TK_ERR_LIMIT when
 * the sum overflows 64 bits). */
TK_API tk_status tk_profile_part_count_calls(tk_prof_part *part, uint32_t fn, uint64_t count);
TK_API tk_status tk_profile_part_set_string(char **field, const char *s, size_t len);

/* Costs are given as n_events values in profile event order.
 * All return TK_OK, TK_ERR_NOMEM or TK_ERR_LIMIT (64-bit overflow of a sum). */
TK_API tk_status tk_profile_add_self(tk_profile *p, tk_prof_part *part, const tk_prof_self *key,
                              const uint64_t *costs);
TK_API tk_status tk_profile_add_call(tk_profile *p, tk_prof_part *part, const tk_prof_call *key,
                              uint64_t count, const uint64_t *inclusive);
/* A self row whose key the caller knows is not in the part yet (a reader that
 * keeps one row per function): no lookup. *row gets the row's index, so that
 * later costs of the key can be added to part->self.values directly. */
TK_API tk_status tk_profile_append_self(tk_profile *p, tk_prof_part *part, const tk_prof_self *key,
                                 const uint64_t *costs, size_t *row);
/* The same for a call row (values: the count, then the inclusive costs). */
TK_API tk_status tk_profile_append_call(tk_profile *p, tk_prof_part *part, const tk_prof_call *key,
                                 uint64_t count, const uint64_t *inclusive, size_t *row);
TK_API tk_status tk_profile_add_jump(tk_profile *p, tk_prof_part *part, const tk_prof_jump *key,
                              uint64_t executed, uint64_t followed);

/* Sum of self costs of a part (n_events values). */
TK_API tk_status tk_profile_part_sum(const tk_profile *p, const tk_prof_part *part, uint64_t *sum);
/* Store the computed sum as the part's totals (for writers of built profiles). */
TK_API tk_status tk_profile_part_fill_totals(const tk_profile *p, tk_prof_part *part);

/* Add every part of src into dst (appending parts, or into dst part `into`
 * when into != NULL). Names are re-interned; events must be known to dst or
 * are added when dst has no rows yet. */
TK_API tk_status tk_profile_merge(tk_profile *dst, const tk_profile *src, tk_prof_part *into,
                           tk_error *err);

/* The parts of *prof as one part (speedscope and callgrind_annotate read one part of a
 * file): when *prof has two parts or more, it is replaced by a new profile of one part whose
 * costs are the sums over the parts (the first part's positions, pid, command and creator; no
 * thread); with fewer parts nothing changes. TK_OK, TK_ERR_NOMEM, TK_ERR_LIMIT (a sum over 64
 * bits): *prof is then unchanged. */
TK_API tk_status tk_profile_one_part(tk_profile **prof, tk_error *err);

/* Canonical, deterministic text of the whole model (sorted). */
TK_API tk_status tk_profile_dump(const tk_profile *p, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
