/* The storage of a profile report's partial result (tracekit/profile_partial.h has the
 * opaque handle): its names, entries and arcs, which the build from a profile, the merge, the
 * bytes and the report read (profile_partial*.c).
 *
 * The entries' order is the one summarising the profile of the inputs gives them (which a
 * report's call cycles and estimates depend on). By function it is the functions' order. By
 * another key the summary makes its entries in two passes over the parts: first those of the
 * cost lines (and, by file-function, of the calls counted into each entry), then those that
 * only a call reaches (its caller's key, its callee's, the file, object or line that makes a
 * call). So each entry keeps its pass (`phase`) and its rank within it (`seq`): merging a
 * later partial appends its new entries to their pass, and an entry that a later cost line
 * makes but that only calls had reached so far moves to the end of the first pass. */
#ifndef TK_ANALYSIS_PROFILE_PARTIAL_H
#define TK_ANALYSIS_PROFILE_PARTIAL_H

#include "core/hash.h"
#include "tracekit/profile_partial.h"

enum { TK_PP_COSTS = 1, TK_PP_CALLS = 2 }; /* phase */

/* By file-function, the object an entry shows: that of the function of the key's last cost
 * line (TK_PP_SELF_OBJ), else of the first call that reaches the key (TK_PP_CALL_OBJ). */
enum { TK_PP_SELF_OBJ = 1, TK_PP_CALL_OBJ = 2 };

typedef struct tk_pp_entry {
    uint32_t object, file, name; /* string ids of names (TK_PROF_NONE: not in the key) */
    uint32_t phase; /* TK_PP_COSTS or TK_PP_CALLS */
    uint64_t line; /* by line */
    uint64_t seq; /* rank within its phase */
    uint32_t self_obj, call_obj; /* by file-function (string ids) */
    uint32_t has; /* TK_PP_SELF_OBJ | TK_PP_CALL_OBJ */
    uint32_t pad;
} tk_pp_entry;

typedef struct tk_pp_arc {
    uint32_t caller, callee; /* entries */
} tk_pp_arc;

struct tk_prof_partial {
    tk_prof_group group;
    int self_only;
    int has_rows; /* the inputs recorded costs (a later event type is then refused) */
    uint64_t late; /* bit i: event type i came after costs were recorded without it (by a
                      later input than those recording costs): reading the inputs into one
                      profile refuses it unless an earlier input brings it (merge clears the
                      bits of the events into has), so the report refuses it */
    size_t nparts;
    tk_profile *names; /* strings, events, derived events; by function its functions are the
                          entries (entry i is function i) */
    size_t nev;
    uint64_t totals[TK_PROFILE_MAX_EVENTS];
    size_t count, cap;
    tk_pp_entry *entries;
    uint64_t *self; /* count * nev */
    uint64_t *out; /* by file, object and line without self_only: count * nev, the costs of
                        the calls the entry makes to another entry; else NULL */
    uint64_t *calls; /* count: the calls into the entry */
    uint64_t seq[2]; /* the next rank of each phase */
    uint32_t *slots; /* not by function: entry + 1 by key, open addressing */
    size_t nslots;
    uint64_t hash_key;
    size_t narcs, arcs_cap;
    tk_pp_arc *arcs;
    uint64_t *arc_values; /* narcs * (nev + 1): the calls, then their inclusive costs */
    tk_hmap arc_index; /* caller << 32 | callee -> arc */
};

/* String ids of a source profile to those of a partial's names, interned on first use. */
typedef struct tk_pp_strmap {
    const tk_profile *src;
    tk_profile *dst;
    uint32_t *ids; /* per source string: its id in dst, or TK_PROF_NONE */
} tk_pp_strmap;

tk_status tk_pp_strmap_open(tk_pp_strmap *m, const tk_profile *src, tk_profile *dst);
void tk_pp_strmap_free(tk_pp_strmap *m);
/* *out: dst's id of src's string id (TK_PROF_NONE stays so). */
tk_status tk_pp_map_str(tk_pp_strmap *m, uint32_t id, uint32_t *out);
/* The event types and derived events of src into pp's names (after pp's own): evmap[i] is
 * src's event i in pp. An event type new to pp is late when pp->has_rows or when src_late
 * has its bit (src's own late ones). Restrides pp's values when events are added. */
tk_status tk_pp_merge_events(tk_prof_partial *pp, tk_pp_strmap *m, uint64_t src_late, size_t *evmap,
                             tk_error *err);

/* A new empty partial, its names `names` (taken over) or, NULL, a new profile. */
tk_status tk_pp_new(tk_prof_partial **out, tk_prof_group group, int self_only, tk_profile *names);
/* The arrays cut to what they hold (a partial that will mostly be read). */
tk_status tk_pp_shrink(tk_prof_partial *pp);
/* The entry of a key, made (zero costs, in `phase`, last of it) when new: *index; *made
 * says whether. Not by function. */
tk_status tk_pp_entry_find(tk_prof_partial *pp, const tk_pp_entry *key, uint32_t phase,
                           size_t *index, int *made);
/* Entry i of the function fn of names (by function: entries follow the functions). */
tk_status tk_pp_function_entries(tk_prof_partial *pp);
/* The arc caller -> callee, made with zero values when new: its values. NULL: no memory. */
uint64_t *tk_pp_arc_add(tk_prof_partial *pp, uint32_t caller, uint32_t callee);
/* The entries in their order: order[k] is the k-th (the caller's, tk_free). */
tk_status tk_pp_order(const tk_prof_partial *pp, uint32_t **order);
/* The object an entry by file-function shows (TK_PROF_NONE: none). */
uint32_t tk_pp_shown_object(const tk_pp_entry *e);
/* a += b (n values). TK_OK or TK_ERR_LIMIT. */
tk_status tk_pp_add(uint64_t *a, const uint64_t *b, size_t n);

#endif
