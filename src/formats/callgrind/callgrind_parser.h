/* Callgrind reader internals: the parser's state and what its files share.
 *   callgrind_read.c    parts, body lines, cost lines and their fast paths,
 *                       the public parser and reader functions
 *   callgrind_header.c  diagnostics, numbers, header lines ("events:", ...)
 *   callgrind_names.c   name ids ("fn=(12) main"), forward definitions,
 *                       compressed context names */
#ifndef TK_CALLGRIND_PARSER_H
#define TK_CALLGRIND_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "core/fastpath.h"
#include "core/hash.h"
#include "core/vec.h"
#include "model/profile.h"
#include "tracekit/callgrind.h"

enum { KIND_OBJECT = 0, KIND_FILE = 1, KIND_FUNCTION = 2, KIND_COUNT = 3 };

/* id (as written in the file) -> string id of the profile */
typedef struct id_map {
    uint64_t *keys;
    uint32_t *vals; /* string id + 1, 0 = empty */
    size_t cap, count;
    uint64_t hash_key; /* tk_hash_new_key, drawn when keys is first made */
    /* ids below ID_DIRECT_MAX (all that callgrind writes) index this array.
     * It lives as long as the parser; a new part empties the entries it
     * set (listed in `set`) instead of the whole array, so that a part costs
     * what it defines (1000 tiny parts naming id 4194000 made and zeroed a
     * 16 MB array each: 1.6 s). callgrind defines ids out of order (the
     * bench profile: 58 K of 152 K function ids above twice the number
     * defined before them), so the array is not kept for dense ids only. */
    uint32_t *direct; /* string id + 1, 0 = empty */
    size_t direct_cap;
    uint32_t *set;
    size_t nset, set_cap;
} id_map;

#define ID_DIRECT_MAX (1u << 22)

typedef enum expect {
    EXPECT_ANY = 0,
    EXPECT_CALL_COST, /* after calls= */
    EXPECT_JUMP_POS /* after jump=/jcnd= */
} expect;

typedef struct pending_event {
    uint32_t name, long_name;
} pending_event;

struct tk_callgrind_parser {
    tk_profile *p;
    tk_callgrind_read_options opt;
    tk_error first_error; /* check mode: the first error, for the return value */
    int had_error;
    /* the fast paths may be taken (CG_FAST): 1 but in tk_cg_read_buffer_paths
     * (here, in the padding before `line`: the hot fields keep their offsets) */
    int fast;

    /* location of the current line */
    const char *line;
    uint64_t lineno;
    int64_t offset;

    /* part state */
    tk_prof_part *part;
    int part_has_data;
    int part_has_events;
    uint64_t events_lineno;
    size_t ncols;
    size_t col_map[TK_PROFILE_MAX_EVENTS];
    int col_identity; /* col_map[i] == i for every event of the profile */
    unsigned positions; /* TK_POS_* of this part */
    size_t npos; /* subpositions per position */
    unsigned pos_order[3];
    uint64_t sum[TK_PROFILE_MAX_EVENTS];
    uint64_t totals_lineno, summary_lineno;
    /* the input's last `creator:` names callgrind, which ends every part it
     * writes with a `totals:` line (a part without one was cut) */
    int creator_callgrind;
    int rows_here; /* check: this input has costs that would make rows */
    pending_event pending[TK_PROFILE_MAX_EVENTS];
    size_t pending_count;
    id_map ids[KIND_COUNT];

    /* body state */
    uint32_t empty_str;
    uint32_t ob, fl, file; /* string ids; file = current cost file (fl/fi/fe) */
    int have_fn;
    uint32_t fn;
    /* fn= seen, function not created yet: it is created (with the ob= and
     * fl= of the fn= line) at its first cost, calls= or jump line, so bare
     * definitions (--compress-mangled=yes writes `fn=(10) f` for the parts of
     * a context name) add no function */
    int fn_lazy;
    uint32_t lazy_ob, lazy_fl, lazy_name;
    int have_cob, have_cfi, have_cfn, have_jfi, have_jfn;
    uint32_t cob, cfi, cfn, jfi, jfn;
    /* the line of the last cfn= and of the last jfi=/jfn= (a part that ends
     * before their calls= or jump line ends inside a call or jump) */
    uint64_t cfn_lineno, jname_lineno;
    uint64_t last[3]; /* last subposition values, indexed by pos_order slot */
    int have_last[3];

    expect expecting;
    uint64_t expect_lineno;
    tk_prof_call call;
    uint64_t call_count;
    tk_prof_jump jump;
    uint64_t jump_exec, jump_follow;

    uint64_t costs[TK_PROFILE_MAX_EVENTS];

    /* self costs of consecutive lines with the same key are summed here and
     * added to the profile when the key changes (one hash lookup per run of
     * lines instead of one per line) */
    int pend_valid;
    tk_prof_self pend_key;
    uint64_t pend[TK_PROFILE_MAX_EVENTS];
    /* input known to hold no NUL byte before this address (NULL: unknown) */
    const char *nul_free_end;

    /* opt.drop_files with TK_CALLGRIND_DETAIL_FUNCTIONS: self and call rows
     * are keyed by function only (the cost file is the empty string), and
     * self_row[fn] is the function's self row in this part + 1 (0: none yet),
     * so its costs go to the row without a lookup */
    int drop_files;
    uint32_t *self_row;
    size_t self_row_cap;
    /* and each function's call rows in this part as a list (few per
     * function): call_head[fn] = its first row + 1, call_next[row] = the
     * next + 1, so a call finds its row without the table's hash */
    uint32_t *call_head, *call_next;
    size_t call_head_cap, call_next_cap;

    /* whole input when known: lets a reference to an id that is defined
     * later in the part (old callgrind versions write those) be resolved.
     * buf: the buffer being parsed; otherwise `in` (a plain file read in
     * blocks) lends its mapping for the search. */
    const char *buf, *buf_end;
    tk_input *in;
    unsigned forward_scans;
    /* the definitions ("key=(id) name" lines) from fwd_from to the end of
     * fwd_base's buffer: per kind, id -> 1 + offset of the first one's name;
     * made at the first forward reference (one pass, not a search per id) */
    tk_hmap fwd[KIND_COUNT];
    const char *fwd_base;
    size_t fwd_from;
};

/* Whether the fast paths of callgrind_read.c and callgrind_names.c may be
 * taken (core/fastpath.h): never with TK_NO_FAST_PATH. */
#if TK_FAST_PATHS
#define CG_FAST(ps) ((ps)->fast)
#else
#define CG_FAST(ps) 0
#endif

/* tk_callgrind_read_buffer with the fast paths (fast = 1, what it does) or
 * with the general code only (fast = 0). The fuzz harness requires the same
 * result of both on every input. */
tk_status tk_cg_read_buffer_paths(tk_profile *p, const char *data, size_t len,
                                  const tk_callgrind_read_options *opt, int fast, tk_error *err);

/* The cost file of self and call rows. */
#define ROW_FILE(ps) ((ps)->drop_files ? (ps)->empty_str : (ps)->file)

/* Bound on the forward searches that the index of definitions cannot
 * answer (see forward_define). */
#define MAX_FORWARD_SCANS 4096

/* ---- diagnostics (callgrind_header.c) ---------------------------------- */

/* An error at `where` (a pointer into the current line, or NULL): the first
 * one is kept for the return value; check mode reports each. Returns code. */
__attribute__((format(printf, 4, 5))) tk_status
tk_cg_fail_at(tk_callgrind_parser *ps, tk_status code, const char *where, const char *fmt, ...);
/* A warning (check mode only). */
__attribute__((format(printf, 3, 4))) void tk_cg_warn_at(tk_callgrind_parser *ps, const char *where,
                                                         const char *fmt, ...);
/* A finding on line `lineno` that reading does not fail on: in check mode an
 * error (check_error) or a warning through diag, in read mode a warning
 * through opt.notes (when set). */
__attribute__((format(printf, 4, 5))) void tk_cg_note_line(tk_callgrind_parser *ps, int check_error,
                                                           uint64_t lineno, const char *fmt, ...);
tk_status tk_cg_nomem(tk_callgrind_parser *ps);
/* A short, printable excerpt of what was found, for messages. */
void tk_cg_found_text(const char *s, const char *e, char *buf, size_t size);

/* ---- numbers and spaces ---------------------------------------------------- */

static inline int is_space(char c) { return c == ' ' || c == '\t'; }

static inline const char *skip_space(const char *s, const char *e)
{
    while (s < e && is_space(*s)) s++;
    return s;
}

static inline const char *trim_end(const char *s, const char *e)
{
    while (e > s && (is_space(e[-1]) || e[-1] == '\r')) e--;
    return e;
}

/* Decimal or 0x hex (tk_num_scan_u64 of core/num). The number must end at a
 * space, tab, CR or end of line (or at `stop` when it is not 0). TK_OK,
 * TK_ERR_FORMAT (not such a number), TK_ERR_LIMIT (over 64 bits). */
tk_status tk_cg_parse_u64(const char **sp, const char *e, uint64_t *out, char stop);
/* The error of a tk_cg_parse_u64 result rc for `what` found at s. */
tk_status tk_cg_number_error(tk_callgrind_parser *ps, tk_status rc, const char *s, const char *e,
                             const char *what);

/* ---- id maps (callgrind_names.c) ------------------------------------------ */

/* Grows a zero-filled array of uint32 to at least `need` entries. */
static inline int grow_u32(uint32_t **a, size_t *cap, size_t need)
{
    /* room already (nearly always): no call */
    return need <= *cap || tk_vec_reserve_zeroed_((void **)a, cap, need, sizeof **a) == 0;
}

static inline uint64_t id_hash(const id_map *m, uint64_t k)
{
    k ^= m->hash_key; /* large ids are the file's: keyed against crafted ones */
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

/* Returns string id + 1, or 0 when not defined. */
static inline uint32_t id_map_get(const id_map *m, uint64_t key)
{
    if (key < m->direct_cap) return m->direct[key];
    if (!m->cap) return 0;
    size_t mask = m->cap - 1;
    for (size_t j = id_hash(m, key) & mask; m->vals[j]; j = (j + 1) & mask)
        if (m->keys[j] == key) return m->vals[j];
    return 0;
}

void tk_cg_id_map_clear(id_map *m);
/* Empty for a new part: the array's entries that were set, the hash whole. */
void tk_cg_id_map_reset(id_map *m);
/* 1, or 0 when out of memory. */
int tk_cg_id_map_put(id_map *m, uint64_t key, uint32_t val);

/* "(id) name", "(id)" or "name" of a KIND_* key; returns the string id in *out. */
tk_status tk_cg_parse_name(tk_callgrind_parser *ps, int kind, const char *s, const char *e,
                           uint32_t *out);

/* ---- parts (callgrind_read.c) ---------------------------------------------- */

static inline void set_positions(tk_callgrind_parser *ps, unsigned positions)
{
    ps->positions = positions;
    ps->npos = 0;
    if (positions & TK_POS_INSTR) ps->pos_order[ps->npos++] = TK_POS_INSTR;
    if (positions & TK_POS_BB) ps->pos_order[ps->npos++] = TK_POS_BB;
    if (positions & TK_POS_LINE) ps->pos_order[ps->npos++] = TK_POS_LINE;
}

/* Ends the current part (if any) and starts a new one. */
tk_status tk_cg_begin_part(tk_callgrind_parser *ps);
/* Make sure a part exists; a header line after body data starts a new one. */
tk_status tk_cg_header_part(tk_callgrind_parser *ps, int starts_part);

/* ---- header lines (callgrind_header.c) ------------------------------------- */

/* Costs after a "summary:"/"totals:" key, or on a cost line: up to ncols
 * numbers into ps->costs (profile event order). */
tk_status tk_cg_parse_costs(tk_callgrind_parser *ps, const char *s, const char *e, int *any);
/* The part's "totals:" and "summary:" against the sum of its cost lines (at
 * the end of a part, in both modes; see tk_cg_note_line). */
void tk_cg_check_part_sums(tk_callgrind_parser *ps);
/* Check mode: v (n values) added to the sum `what` (TK_SUMS_*) of the
 * profile's read sums (model/profile.h); the first time one of its values
 * passes 2^64, an error at line `lineno` (0: the current line) says which
 * commands would refuse the input. */
void tk_cg_add_read_sums(tk_callgrind_parser *ps, unsigned what, const uint64_t *v, size_t n,
                         uint64_t lineno);
/* A "key: value" line; key..key+klen is the key, s..e the value. */
tk_status tk_cg_header_line(tk_callgrind_parser *ps, const char *key, size_t klen, const char *s,
                            const char *e);

#endif
