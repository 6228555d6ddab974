/* The profile model inside the library: the storage of a part (tracekit/profile.h
 * has the opaque handle and its accessors) and what the readers need beyond
 * the public builder. A part's rows are arrays with an open-addressing index
 * of slots (built when a lookup first needs it, keyed per profile): the
 * library's loops read part->self.rows and .values directly. */
#ifndef TK_MODEL_PROFILE_H
#define TK_MODEL_PROFILE_H

#include "tracekit/profile.h"

/* The stored records of functions, event types and derived events (the public header copies
 * them into tk_prof_function_info, _event_info, _derived_info). */
typedef struct tk_prof_function {
    uint32_t object; /* string ids */
    uint32_t file;
    uint32_t name;
} tk_prof_function;

typedef struct tk_prof_event {
    uint32_t name; /* string id */
    uint32_t long_name; /* string id, or TK_PROF_NONE */
} tk_prof_event;

typedef struct tk_prof_derived {
    uint32_t name;
    uint32_t formula; /* string id of the text after '=' (trimmed) */
    uint32_t long_name; /* or TK_PROF_NONE */
} tk_prof_derived;

/* The library's reads of them: the stored record, or NULL past the end. */
const tk_prof_event *tk_profile_event(const tk_profile *p, size_t i);
const tk_prof_derived *tk_profile_derived(const tk_profile *p, size_t i);
const tk_prof_function *tk_profile_function_at(const tk_profile *p, uint32_t fn);

/* A part's rows: self rows are stored as tk_prof_self, call rows as tk_prof_call, jump rows
 * as tk_prof_jump (the keys of the public header, compared with memcmp: no padding), their
 * values beside them. */
typedef struct tk_prof_table {
    void *rows; /* array of row structs */
    uint64_t *values; /* per row: `width` values */
    size_t width; /* set by the first row */
    size_t count;
    size_t capacity;
    uint32_t *slots; /* open addressing, row index + 1, 0 = empty */
    size_t slot_count;
    size_t last; /* row index of the last hit + 1 (0 = none) */
} tk_prof_table;

struct tk_prof_part {
    /* header values as read (has_* says whether present) */
    int has_number, has_thread, has_pid;
    uint64_t number, thread, pid;
    char *cmd; /* NULL if absent */
    char *creator; /* NULL if absent */
    char **desc; /* "key: value" strings, in order */
    size_t desc_count;
    unsigned positions; /* TK_POS_* bits; 0 means "line" */
    int has_summary, has_totals;
    uint64_t summary[TK_PROFILE_MAX_EVENTS]; /* in profile event order */
    uint64_t totals[TK_PROFILE_MAX_EVENTS];
    unsigned events_mask_valid; /* 1 if `events` was given for this part */
    uint64_t events_present; /* bit i: profile event i named in this part */
    tk_prof_table self; /* values: n_events costs */
    tk_prof_table calls; /* values: count, then n_events inclusive costs */
    tk_prof_table jumps; /* values: executed, followed */
    /* what the Callgrind reader saw in the part, at any detail level (zero in
     * profiles built otherwise) */
    uint64_t call_lines; /* calls= lines */
    uint64_t jump_lines; /* jump= and jcnd= lines */
    int has_line_sum; /* line_sum is set */
    uint64_t line_sum[TK_PROFILE_MAX_EVENTS]; /* sum of the cost lines, profile event order */
    /* read with call counts only (tk_callgrind_read_options.call_counts_only):
     * no call rows; calls_into[f] = calls into function f (calls_into_len
     * entries, the functions after them have none). NULL otherwise. */
    uint64_t *calls_into;
    size_t calls_into_len;
};

/* A self row whose key the caller knows is not in the part yet (a reader that
 * keeps one row per function): no lookup. *row gets the row's index, so that
 * later costs of the key can be added to part->self.values directly. (Internal:
 * the Callgrind reader's fast path.) */
tk_status tk_profile_append_self(tk_profile *p, tk_prof_part *part, const tk_prof_self *key,
                                 const uint64_t *costs, size_t *row, tk_error *err);
/* The same for a call row (values: the count, then the inclusive costs). */
tk_status tk_profile_append_call(tk_profile *p, tk_prof_part *part, const tk_prof_call *key,
                                 uint64_t count, const uint64_t *inclusive, size_t *row,
                                 tk_error *err);

/* tk_profile_merge with src's functions given: fn_map[fn] is the dst function of src's
 * function fn (every one of them; NULL: found by their names, as tk_profile_merge does).
 * The rows' own file names are re-interned as they are. (Internal: tk_prof_diff_add, which
 * matches functions by other keys than their names.) */
tk_status tk_profile_merge_mapped(tk_profile *dst, const tk_profile *src, tk_prof_part *into,
                                  const uint32_t *fn_map, tk_error *err);

/* Whether a cost row was added to any part (tk_profile_add_event then refuses new events). */
int tk_profile_has_rows(const tk_profile *p);
/* Every part freed: what stays are the strings, events, derived events and functions (a
 * profile without rows again). */
void tk_profile_drop_parts(tk_profile *p);

/* Adds count calls into function fn to part->calls_into (TK_ERR_LIMIT when
 * the sum overflows 64 bits). */
tk_status tk_profile_part_count_calls(tk_prof_part *part, uint32_t fn, uint64_t count,
                                      tk_error *err);
/* Replace *field (a part's cmd or creator) by a copy of s[0..len). */
tk_status tk_profile_part_set_string(char **field, const char *s, size_t len, tk_error *err);

/* What a reader in validation mode (check: no rows kept) adds up over
 * everything read into one profile, over its parts and over the inputs read
 * into it, so that it can report first what the commands that keep rows and
 * add them up would refuse (docs/formats/callgrind.md, "What check adds up").
 * Each sum is in profile event order. */
typedef struct tk_profile_read_sums {
    uint64_t self[TK_PROFILE_MAX_EVENTS]; /* every cost line: the program total */
    uint64_t costs[TK_PROFILE_MAX_EVENTS]; /* every cost line and every call's inclusive cost:
                                              a bound on every sum of them a summary forms */
    uint64_t calls; /* every call count */
    uint64_t jumps[2]; /* every jump's executed and followed counts */
    uint64_t summary[TK_PROFILE_MAX_EVENTS]; /* the parts' summary: lines (merge adds them) */
    uint64_t totals[TK_PROFILE_MAX_EVENTS]; /* the parts' totals: lines */
    unsigned reported; /* TK_SUMS_* bits: each overflow is reported once */
    int rows; /* a reader keeping rows would have made one: a new event type is refused after
                 that (tk_profile_add_event) */
} tk_profile_read_sums;

enum {
    TK_SUMS_SELF = 1,
    TK_SUMS_COSTS = 2,
    TK_SUMS_CALLS = 4,
    TK_SUMS_JUMPS = 8,
    TK_SUMS_SUMMARY = 16,
    TK_SUMS_TOTALS = 32
};

/* The profile's read sums (zero in a new profile). */
tk_profile_read_sums *tk_profile_read_sums_of(tk_profile *p);
#endif
