/* Callgrind reader: a line-driven state machine that feeds the profile model.
 *
 * Read mode stops at the first error; check mode (opt.diag != NULL) reports
 * every problem with its line and column and goes on with the next line.
 * Lines are parsed in place (no copies, no allocation per line). The header
 * lines are in callgrind_header.c, the names in callgrind_names.c (see
 * callgrind_parser.h). */
#include "tracekit/callgrind.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compat.h"
#include "core/fastpath.h"
#include "formats/callgrind/callgrind_parser.h"

/* ---- parts -------------------------------------------------------------- */

/* A function whose call list grew this long goes to the table's hash (which
 * indexes every row then): a dispatcher calling thousands of functions must
 * not cost a walk of thousands per call line. */
#define CALL_LIST_MAX 32
#define CALLS_HASHED UINT32_MAX /* call_head value of such a function */

/* A call with a function-only key (drop_files): found in its function's list. */
static tk_status call_by_function(tk_callgrind_parser *ps, const tk_prof_call *key, uint64_t count,
                                  const uint64_t *inclusive)
{
    tk_prof_part *part = ps->part;
    uint32_t fn = key->fn;
    if (!grow_u32(&ps->call_head, &ps->call_head_cap, (size_t)fn + 1)) return TK_ERR_NOMEM;
    if (ps->call_head[fn] == CALLS_HASHED)
        return tk_profile_add_call(ps->p, part, key, count, inclusive, NULL);
    const tk_prof_call *rows = part->calls.rows;
    size_t w = tk_profile_event_count(ps->p) + 1;
    unsigned walked = 0;
    for (uint32_t r = ps->call_head[fn]; r; r = ps->call_next[r - 1]) {
        if (++walked > CALL_LIST_MAX) {
            ps->call_head[fn] = CALLS_HASHED;
            return tk_profile_add_call(ps->p, part, key, count, inclusive, NULL);
        }
        if (memcmp(&rows[r - 1], key, sizeof *key) != 0) continue;
        uint64_t *v = part->calls.values + (size_t)(r - 1) * w;
        if (__builtin_add_overflow(v[0], count, &v[0])) return TK_ERR_LIMIT;
        for (size_t i = 1; i < w; i++)
            if (__builtin_add_overflow(v[i], inclusive[i - 1], &v[i])) return TK_ERR_LIMIT;
        return TK_OK;
    }
    size_t row;
    tk_status st = tk_profile_append_call(ps->p, part, key, count, inclusive, &row, NULL);
    if (st != TK_OK) return st;
    if (!grow_u32(&ps->call_next, &ps->call_next_cap, row + 1)) return TK_ERR_NOMEM;
    ps->call_next[row] = ps->call_head[fn];
    ps->call_head[fn] = (uint32_t)row + 1;
    return TK_OK;
}

/* Check mode, no rows: what a reader keeping rows would add up (model/profile.h). */
static void check_call_sums(tk_callgrind_parser *ps, uint64_t count, const uint64_t *inclusive)
{
    tk_profile_read_sums_of(ps->p)->rows = ps->rows_here = 1;
    tk_cg_add_read_sums(ps, TK_SUMS_CALLS, &count, 1, 0);
    tk_cg_add_read_sums(ps, TK_SUMS_COSTS, inclusive, tk_profile_event_count(ps->p), 0);
}

/* Rows the caller asked not to keep are dropped here. */
static tk_status store_call(tk_callgrind_parser *ps, const tk_prof_call *key, uint64_t count,
                            const uint64_t *inclusive)
{
    ps->part->call_lines++;
    if (ps->opt.detail == TK_CALLGRIND_DETAIL_NONE) {
        if (ps->opt.diag) check_call_sums(ps, count, inclusive);
        return TK_OK;
    }
    if (ps->opt.call_counts_only)
        return tk_profile_part_count_calls(ps->part, key->callee, count, NULL);
    if (ps->drop_files && key->file == ps->empty_str && !key->pos.addr && !key->pos.bb &&
        !key->pos.line && !key->target.addr && !key->target.bb && !key->target.line)
        return call_by_function(ps, key, count, inclusive);
    return tk_profile_add_call(ps->p, ps->part, key, count, inclusive, NULL);
}

static tk_status store_jump(tk_callgrind_parser *ps, const tk_prof_jump *key, uint64_t executed,
                            uint64_t followed)
{
    ps->part->jump_lines++;
    if (ps->opt.detail == TK_CALLGRIND_DETAIL_NONE && ps->opt.diag) {
        uint64_t counts[2] = {executed, followed};
        tk_profile_read_sums_of(ps->p)->rows = ps->rows_here = 1;
        tk_cg_add_read_sums(ps, TK_SUMS_JUMPS, counts, 2, 0);
    }
    if (ps->opt.detail == TK_CALLGRIND_DETAIL_NONE || ps->opt.skip_jumps) return TK_OK;
    return tk_profile_add_jump(ps->p, ps->part, key, executed, followed, NULL);
}

/* The pending costs of a function-only key: to the function's row. */
static tk_status self_by_function(tk_callgrind_parser *ps, size_t w)
{
    uint32_t fn = ps->pend_key.fn;
    if (!grow_u32(&ps->self_row, &ps->self_row_cap, (size_t)fn + 1)) return TK_ERR_NOMEM;
    if (ps->self_row[fn]) {
        uint64_t *v = ps->part->self.values + (size_t)(ps->self_row[fn] - 1) * w;
        for (size_t i = 0; i < w; i++)
            if (__builtin_add_overflow(v[i], ps->pend[i], &v[i])) return TK_ERR_LIMIT;
        return TK_OK;
    }
    size_t row;
    tk_status st = tk_profile_append_self(ps->p, ps->part, &ps->pend_key, ps->pend, &row, NULL);
    if (st == TK_OK) ps->self_row[fn] = (uint32_t)row + 1;
    return st;
}

static tk_status flush_self(tk_callgrind_parser *ps)
{
    if (!ps->pend_valid) return TK_OK;
    ps->pend_valid = 0;
    size_t w = tk_profile_event_count(ps->p);
    for (size_t i = 0; i < w; i++)
        if (__builtin_add_overflow(ps->sum[i], ps->pend[i], &ps->sum[i]))
            return tk_cg_fail_at(ps, TK_ERR_LIMIT, ps->line, "sum of costs overflows 64 bits");
    const tk_prof_self *k = &ps->pend_key;
    tk_status st;
    if (ps->opt.detail == TK_CALLGRIND_DETAIL_NONE) {
        /* check: a reader keeping rows makes one (the sums of the part are
         * added up at its end) */
        if (ps->opt.diag) tk_profile_read_sums_of(ps->p)->rows = ps->rows_here = 1;
        st = TK_OK;
    } else if (ps->drop_files && k->file == ps->empty_str && !k->pos.addr && !k->pos.bb &&
               !k->pos.line) {
        st = self_by_function(ps, w);
    } else {
        st = tk_profile_add_self(ps->p, ps->part, k, ps->pend, NULL);
    }
    if (st == TK_ERR_LIMIT) return tk_cg_fail_at(ps, st, ps->line, "cost sum overflows 64 bits");
    if (st != TK_OK) return tk_cg_nomem(ps);
    return TK_OK;
}

static tk_status end_part(tk_callgrind_parser *ps)
{
    tk_status st = TK_OK;
    if (!ps->part) return TK_OK;
    st = flush_self(ps);
    if (st != TK_OK && !ps->opt.diag) return st;
    uint64_t save = ps->lineno;
    const char *sl = ps->line;
    ps->line = NULL;
    if (ps->expecting == EXPECT_CALL_COST) {
        ps->lineno = ps->expect_lineno;
        st = tk_cg_fail_at(ps, TK_ERR_FORMAT, NULL, "calls= line is not followed by a cost line");
    } else if (ps->have_cfn) {
        /* callgrind writes cfn= right before its calls=: the input was cut
         * inside a call (cob= and cfi= alone may close a function: a reader
         * must reset them, and speedscope's cfn-reset test file ends so) */
        ps->lineno = ps->cfn_lineno;
        st =
            tk_cg_fail_at(ps, TK_ERR_FORMAT, NULL,
                          "cfn= line is not followed by a calls= line: the part ends inside a call "
                          "(truncated file?)");
    } else if (ps->have_jfi || ps->have_jfn) {
        ps->lineno = ps->jname_lineno;
        st = tk_cg_fail_at(ps, TK_ERR_FORMAT, NULL,
                           "%s line is not followed by a jump line: the part ends inside a jump "
                           "(truncated file?)",
                           ps->have_jfn ? "jfn=" : "jfi=");
    }
    ps->lineno = save;
    ps->line = sl;
    ps->have_cfn = ps->have_jfi = ps->have_jfn = 0;
    ps->expecting = EXPECT_ANY;
    size_t w = tk_profile_event_count(ps->p);
    memcpy(ps->part->line_sum, ps->sum, w * sizeof *ps->sum);
    ps->part->has_line_sum = 1;
    tk_cg_check_part_sums(ps);
    if (ps->opt.diag) { /* the program total; merge adds up summary: and totals: */
        tk_cg_add_read_sums(ps, TK_SUMS_SELF, ps->sum, w, 0);
        tk_cg_add_read_sums(ps, TK_SUMS_COSTS, ps->sum, w, 0);
        tk_cg_add_read_sums(ps, TK_SUMS_SUMMARY, ps->part->summary, w, ps->summary_lineno);
        tk_cg_add_read_sums(ps, TK_SUMS_TOTALS, ps->part->totals, w, ps->totals_lineno);
    }
    /* self_row and call_head point into this part's rows only: cleared
     * through those rows (a memset of arrays sized by all functions cost
     * each of thousands of tiny parts the whole array) */
    const tk_prof_self *srows = ps->part->self.rows;
    for (size_t i = 0; ps->self_row_cap && i < ps->part->self.count; i++)
        if (srows[i].fn < ps->self_row_cap) ps->self_row[srows[i].fn] = 0;
    const tk_prof_call *crows = ps->part->calls.rows;
    for (size_t i = 0; ps->call_head_cap && i < ps->part->calls.count; i++)
        if (crows[i].fn < ps->call_head_cap) ps->call_head[crows[i].fn] = 0;
    ps->part = NULL;
    return st;
}

tk_status tk_cg_begin_part(tk_callgrind_parser *ps)
{
    tk_status st = end_part(ps);
    if (st != TK_OK && !ps->opt.diag) return st;
    if (tk_profile_add_part(ps->p, &ps->part, NULL) != TK_OK) return tk_cg_nomem(ps);
    ps->part_has_data = 0;
    ps->part_has_events = 0;
    ps->ncols = 0;
    set_positions(ps, TK_POS_LINE);
    ps->part->positions = TK_POS_LINE;
    memset(ps->sum, 0, sizeof ps->sum);
    ps->totals_lineno = ps->summary_lineno = 0;
    ps->pending_count = 0;
    for (int k = 0; k < KIND_COUNT; k++) tk_cg_id_map_reset(&ps->ids[k]);
    ps->ob = ps->fl = ps->file = ps->empty_str;
    ps->have_fn = 0;
    ps->fn_lazy = 0;
    ps->have_cob = ps->have_cfi = ps->have_cfn = ps->have_jfi = ps->have_jfn = 0;
    memset(ps->have_last, 0, sizeof ps->have_last);
    memset(ps->last, 0, sizeof ps->last);
    ps->expecting = EXPECT_ANY;
    return TK_OK;
}

tk_status tk_cg_header_part(tk_callgrind_parser *ps, int starts_part)
{
    if (!ps->part || (starts_part && ps->part_has_data)) return tk_cg_begin_part(ps);
    return TK_OK;
}

/* ---- positions and cost lines ------------------------------------------- */

/* A position from its subpositions, in the order of `positions:`. */
static void set_position(const tk_callgrind_parser *ps, const uint64_t *v, tk_prof_pos *pos)
{
    memset(pos, 0, sizeof *pos);
    for (size_t i = 0; i < ps->npos; i++) {
        switch (ps->pos_order[i]) {
        case TK_POS_INSTR: pos->addr = v[i]; break;
        case TK_POS_BB: pos->bb = v[i]; break;
        default: pos->line = v[i]; break;
        }
    }
}

/* Parse npos subpositions (the general code). update: store them as the new
 * "last" values. */
static tk_status parse_position(tk_callgrind_parser *ps, const char **sp, const char *e,
                                tk_prof_pos *pos, int update)
{
    const char *s = *sp;
    uint64_t v[3];
    for (size_t i = 0; i < ps->npos; i++) {
        s = skip_space(s, e);
        const char *at = s;
        if (s >= e) {
            return tk_cg_fail_at(
                ps, TK_ERR_FORMAT, s,
                "expected %zu subposition%s ('positions:' has %zu), found end of line", ps->npos,
                ps->npos == 1 ? "" : "s", ps->npos);
        }
        char c = *s;
        if (c == '*' || c == '+' || c == '-') {
            if (!ps->have_last[i])
                return tk_cg_fail_at(ps, TK_ERR_FORMAT, at,
                                     "relative subposition '%c' before any absolute one", c);
            if (c == '*') {
                s++;
                if (s < e && !is_space(*s) && *s != '\r')
                    return tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "expected a space after '*'");
                v[i] = ps->last[i];
            } else {
                s++;
                uint64_t d;
                tk_status rc = tk_cg_parse_u64(&s, e, &d, 0);
                if (rc != TK_OK)
                    return tk_cg_number_error(ps, rc, at + 1, e, "a relative subposition");
                if (c == '+') {
                    if (__builtin_add_overflow(ps->last[i], d, &v[i]))
                        return tk_cg_fail_at(ps, TK_ERR_LIMIT, at,
                                             "relative subposition overflows 64 bits");
                } else {
                    if (d > ps->last[i])
                        return tk_cg_fail_at(
                            ps, TK_ERR_FORMAT, at,
                            "relative subposition -%llu goes below 0 (last was %llu)",
                            (unsigned long long)d, (unsigned long long)ps->last[i]);
                    v[i] = ps->last[i] - d;
                }
            }
        } else {
            tk_status rc = tk_cg_parse_u64(&s, e, &v[i], 0);
            if (rc != TK_OK) return tk_cg_number_error(ps, rc, at, e, "a subposition");
        }
    }
    set_position(ps, v, pos);
    for (size_t i = 0; update && i < ps->npos; i++) {
        ps->last[i] = v[i];
        ps->have_last[i] = 1;
    }
    *sp = s;
    return TK_OK;
}

static void reduce_pos(const tk_callgrind_parser *ps, tk_prof_pos *pos)
{
    if (ps->opt.detail == TK_CALLGRIND_DETAIL_FULL) return;
    pos->addr = 0;
    pos->bb = 0;
    if (ps->opt.detail == TK_CALLGRIND_DETAIL_FUNCTIONS) pos->line = 0;
}

static tk_status need_body(tk_callgrind_parser *ps, const char *s)
{
    if (!ps->part_has_events)
        return tk_cg_fail_at(ps, TK_ERR_FORMAT, s,
                             "cost data before the 'events:' line of this part");
    return TK_OK;
}

static tk_status add_status(tk_callgrind_parser *ps, tk_status st, const char *s)
{
    if (st == TK_OK) return TK_OK;
    if (st == TK_ERR_LIMIT) return tk_cg_fail_at(ps, st, s, "cost sum overflows 64 bits");
    return tk_cg_nomem(ps);
}

static tk_status set_function(tk_callgrind_parser *ps, uint32_t name)
{
    ps->lazy_ob = ps->ob;
    ps->lazy_fl = ps->fl;
    ps->lazy_name = name;
    ps->fn_lazy = 1;
    ps->have_fn = 0;
    ps->file = ps->fl;
    return TK_OK;
}

/* Creates the function of the last fn= line if that is still pending. */
static tk_status resolve_function(tk_callgrind_parser *ps)
{
    if (!ps->fn_lazy) return TK_OK;
    if (tk_profile_function(ps->p, ps->lazy_ob, ps->lazy_fl, ps->lazy_name, &ps->fn, NULL) != TK_OK)
        return tk_cg_nomem(ps);
    ps->fn_lazy = 0;
    ps->have_fn = 1;
    return TK_OK;
}

/* ---- fast paths ------------------------------------------------------------
 *
 * Lines that a '\n' ends somewhere at or after them in the buffer (the block
 * reader's lines but the input's last one without a newline), parsed without
 * an end pointer: cost runs (fast_run), single cost lines (fast_line_nl), jump
 * and call lines (quick_count_pos). Each declines (NULL or 0, nothing
 * changed) on anything unusual, and the general code (cost_line, calls_line,
 * jump_line, body_spec through tk_callgrind_parser_line) reads and reports the
 * line; the numbers are at most 19 decimal or 16 hex digits (core/fastpath.h).
 * CG_FAST(ps) is 0 with TK_NO_FAST_PATH, and 0 at run time in the parser of
 * tk_cg_read_buffer_paths(..., 0, ...), which the fuzz harness compares with the
 * fast one on every input. */

/* One subposition of a cost line at p for the fast paths (the caller
 * guarantees a '\n' ahead): +N, *, absolute decimal or 0x hex, -N, relative
 * to last when have; NULL when unusual. */
static inline __attribute__((always_inline)) const char *run_subpos(const char *p, int have,
                                                                    uint64_t last, uint64_t *out)
{
    unsigned c = (unsigned char)*p;
    if (c == '+') {
        uint64_t d;
        if (!have || !tk_fast_is_digit(p[1]) || !(p = tk_fast_dec_nl(p + 1, &d)) ||
            __builtin_add_overflow(last, d, out))
            return NULL;
        return p;
    }
    if (c == '*') {
        if (!have) return NULL;
        *out = last;
        return p + 1;
    }
    if (c - '0' < 10) {
        if (c == '0' && (p[1] == 'x' || p[1] == 'X')) return tk_fast_hex_nl(p + 2, out);
        return tk_fast_dec_nl(p, out);
    }
    if (c == '-') {
        uint64_t d;
        if (!have || !tk_fast_is_digit(p[1]) || !(p = tk_fast_dec_nl(p + 1, &d)) || d > last)
            return NULL;
        *out = last - d;
        return p;
    }
    return NULL;
}

/* The costs of a cost line for the fast paths: p is after the
 * subpositions (at ' ' or '\n'), line the line's start, and a '\n' ends the
 * line. Up to ncols numbers into vals, *np of them; blanks may repeat. The
 * address of the '\n', or NULL when the line is anything else (another
 * byte, more than ncols numbers, a number over 19 digits, over the length
 * limit). */
static inline __attribute__((always_inline)) const char *
line_costs(const char *p, const char *line, size_t ncols, uint64_t *vals, size_t *np)
{
    if (*p != ' ' && *p != '\n') return NULL;
    size_t n = 0;
    for (;;) { /* a number ends at a non-digit, which the next round checks */
        unsigned c = (unsigned char)*p;
        if (c == ' ') {
            p++;
            continue;
        }
        if (c - '0' >= 10) {
            if (c == '\n') break;
            return NULL;
        }
        if (n >= ncols || !(p = tk_fast_dec_nl(p, &vals[n]))) return NULL;
        n++;
    }
    if ((size_t)(p - line) > TK_CALLGRIND_MAX_LINE) return NULL;
    *np = n;
    return p;
}

/* A cost line of a function body (also the cost line of a call and the
 * source position of a jump) that ends with '\n' somewhere at or after p.
 * Returns the address of that '\n', or NULL without having changed any state
 * when the line is anything unusual (the general code then handles it).
 * *st receives an error status (overflow, out of memory), TK_OK otherwise. */
static const char *fast_line_nl(tk_callgrind_parser *ps, const char *p, int *st)
{
    const char *line = p;
    uint64_t v[3];
    size_t npos = ps->npos;
    for (size_t i = 0; i < npos; i++) {
        if (i) {
            if (*p != ' ') return NULL;
            p++;
        }
        p = run_subpos(p, ps->have_last[i], ps->last[i], &v[i]);
        if (!p) return NULL;
    }
    uint64_t vals[TK_PROFILE_MAX_EVENTS];
    size_t n;
    if (!(p = line_costs(p, line, ps->ncols, vals, &n))) return NULL;
    if (ps->expecting == EXPECT_JUMP_POS && n) return NULL; /* jump source with costs */
    /* commit */
    *st = TK_OK;
    switch (npos) {
    case 3: ps->last[2] = v[2]; ps->have_last[2] = 1; /* fall through */
    case 2: ps->last[1] = v[1]; ps->have_last[1] = 1; /* fall through */
    default:
        ps->last[0] = v[0];
        ps->have_last[0] = 1;
        break;
    }
    tk_prof_pos pos = {0, 0, 0};
    if (ps->opt.detail != TK_CALLGRIND_DETAIL_FUNCTIONS) {
        set_position(ps, v, &pos);
        if (ps->opt.detail == TK_CALLGRIND_DETAIL_LINES) pos.addr = pos.bb = 0;
    }
    if (ps->expecting != EXPECT_ANY) {
        if (ps->expecting == EXPECT_CALL_COST) {
            ps->expecting = EXPECT_ANY;
            if (!ps->opt.call_counts_only) { /* else only the count is kept */
                size_t w = tk_profile_event_count(ps->p);
                memset(ps->costs, 0, w * sizeof *ps->costs);
                for (size_t i = 0; i < n; i++) ps->costs[ps->col_map[i]] = vals[i];
            }
            ps->call.pos = pos;
            ps->call.fn = ps->fn;
            ps->call.file = ROW_FILE(ps);
            *st = add_status(ps, store_call(ps, &ps->call, ps->call_count, ps->costs), ps->line);
            return p;
        }
        ps->expecting = EXPECT_ANY;
        ps->jump.pos = pos;
        ps->jump.fn = ps->fn;
        ps->jump.file = ps->file;
        *st = add_status(ps, store_jump(ps, &ps->jump, ps->jump_exec, ps->jump_follow), ps->line);
        return p;
    }
    if (n == 0) return p; /* position only */
    const tk_prof_self *pk = &ps->pend_key;
    if (!ps->pend_valid || ps->fn != pk->fn || ROW_FILE(ps) != pk->file ||
        pos.line != pk->pos.line || pos.addr != pk->pos.addr || pos.bb != pk->pos.bb) {
        int fst = flush_self(ps);
        if (fst != TK_OK) {
            *st = fst;
            return p;
        }
        memset(&ps->pend_key, 0, sizeof ps->pend_key);
        ps->pend_key.fn = ps->fn;
        ps->pend_key.file = ROW_FILE(ps);
        ps->pend_key.pos = pos;
        memset(ps->pend, 0, tk_profile_event_count(ps->p) * sizeof *ps->pend);
        ps->pend_valid = 1;
    }
    const size_t *map = ps->col_map;
    uint64_t *pend = ps->pend;
    for (size_t i = 0; i < n; i++) {
        uint64_t *t = &pend[map[i]];
        if (__builtin_add_overflow(*t, vals[i], t)) {
            *st = tk_cg_fail_at(ps, TK_ERR_LIMIT, ps->line, "sum of costs overflows 64 bits");
            return p;
        }
    }
    return p;
}

/* The costs of a cost line for fast_run: " N" repeated up to '\n' (p is
 * after the subpositions, line is the line start). The numbers are added to
 * acc[0..n) and *np = n; returns the address of the '\n'. An unusual line
 * (anything else, more than ncols numbers, a number over 19 digits, an
 * overflowing sum, a line over the limit) returns NULL with acc unchanged. */
static inline __attribute__((always_inline)) const char *run_costs(const char *p, const char *line,
                                                                   const char *last_nl,
                                                                   uint64_t *acc, size_t ncols,
                                                                   size_t *np)
{
    const char *costs = p;
    size_t n = 0;
    int bad = 0;
    while (*p == ' ') {
        unsigned d = (unsigned char)p[1] - '0';
        if (d >= 10 || n >= ncols) {
            bad = 1;
            break;
        }
        uint64_t x = d;
        /* a number ends at a non-digit; the next round (or the end-of-line
         * check) accepts only ' ' or '\n' there */
        if ((unsigned)((unsigned char)p[2] - '0') >= 10) {
            p += 2; /* one digit: the common case */
            if (!d) { /* " 0" adds nothing; often three more follow */
                n++;
                if (p + 8 <= last_nl && n + 3 <= ncols && tk_fast_three_zeros(p)) {
                    p += 6;
                    n += 3;
                }
                continue;
            }
        } else if (!(p = tk_fast_dec_nl_after(p + 1, p + 2, d, &x))) {
            bad = 1; /* (p is not read after this) */
            break;
        }
        /* an overflowing sum is reported by the general code */
        if (__builtin_add_overflow(acc[n], x, &acc[n])) {
            acc[n] -= x;
            bad = 1;
            break;
        }
        n++;
    }
    if (bad || *p != '\n' || (size_t)(p - line) > TK_CALLGRIND_MAX_LINE) {
        /* take back the n numbers added (they parse the same again) */
        for (size_t i = 0; i < n; i++) {
            uint64_t x = 0; /* (each parsed before: at most 19 digits) */
            costs = tk_fast_dec_nl(costs + 1, &x);
            acc[i] -= x;
        }
        return NULL;
    }
    *np = n;
    return p;
}

/* The target position at the end of a jump or call line in a cost run
 * (s the line's start, p after its counts): " SUB" per subposition,
 * relative to last[] without moving it, into t; blanks and a '\r' may end
 * the line. The start of the next line (which must exist), or NULL. */
static inline __attribute__((always_inline)) const char *
run_target(const char *p, const char *s, const char *last_nl, const size_t npos,
           const uint64_t *last, const int *have, uint64_t *t)
{
    for (size_t i = 0; i < npos; i++)
        if (*p != ' ' || !(p = run_subpos(p + 1, have[i], last[i], &t[i]))) return NULL;
    while (is_space(*p)) p++;
    if (*p == '\r') p++;
    if (*p != '\n' || (size_t)(p - s) > TK_CALLGRIND_MAX_LINE || p == last_nl) return NULL;
    return p + 1;
}

/* The subpositions that start a line in a cost run, one blank between
 * them, into v (last[] not moved yet). After them, or NULL. */
static inline __attribute__((always_inline)) const char *
run_positions(const char *p, const size_t npos, const uint64_t *last, const int *have, uint64_t *v)
{
    for (size_t i = 0; i < npos; i++) {
        if (i && *p++ != ' ') return NULL;
        if (!(p = run_subpos(p, have[i], last[i], &v[i]))) return NULL;
    }
    return p;
}

/* A jump inside a cost run (TK_CALLGRIND_DETAIL_FUNCTIONS): the jump line as
 * callgrind writes it (`jcnd=F/E POS` or `jump=N POS`, as quick_count_pos
 * takes it, target relative to last[] without moving it) and the source
 * position line after it (subpositions only, moving last[]), both usual;
 * the target's file and function from jfi= and jfn= lines before. Stored
 * as jump_line and fast_line_nl would store it (in this detail every
 * position of the key is 0). Returns the start of
 * the line after the two with *ln advanced by 2, or NULL with nothing
 * changed: the run ends and the general code takes both lines. *st gets
 * the status of storing the jump. Jump lines are a tenth of the lines of a
 * --collect-jumps profile; each ended the run before. */
static inline __attribute__((always_inline)) const char *
run_jump(tk_callgrind_parser *ps, const char *s, const char *last_nl, uint64_t *last, int *have,
         const size_t npos, uint64_t *ln, int *st)
{
    if (s + 5 > last_nl) return NULL;
    int cond;
    if (memcmp(s, "jcnd=", 5) == 0)
        cond = 1;
    else if (memcmp(s, "jump=", 5) == 0)
        cond = 0;
    else
        return NULL;
    const char *p = s + 5;
    uint64_t a, b = 0, t[3], v[3];
    if (!tk_fast_is_digit(*p) || !(p = tk_fast_dec_nl(p, &a))) return NULL;
    if (cond && (*p != '/' || !tk_fast_is_digit(p[1]) || !(p = tk_fast_dec_nl(p + 1, &b))))
        return NULL;
    const char *src = run_target(p, s, last_nl, npos, last, have, t);
    if (!src || !(p = run_positions(src, npos, last, have, v))) return NULL;
    while (*p == ' ') p++; /* callgrind ends it with one */
    if (*p != '\n' || (size_t)(p - src) > TK_CALLGRIND_MAX_LINE) return NULL;
    uint32_t target_fn = ps->fn;
    if (ps->have_jfn) { /* a jfn= before: the target function, as jump_line makes it */
        const tk_prof_function *from = tk_profile_function_at(ps->p, ps->fn);
        if (tk_profile_function(ps->p, from->object, from->file, ps->jfn, &target_fn, NULL) !=
            TK_OK) {
            ps->line = s;
            ps->lineno = ++*ln;
            *st = tk_cg_nomem(ps);
            return src;
        }
    }
    /* commit: the source position moves last[] */
    for (size_t i = 0; i < npos; i++) {
        last[i] = v[i];
        have[i] = 1;
    }
    ps->jump_follow = a;
    ps->jump_exec = cond ? b : a;
    memset(&ps->jump, 0, sizeof ps->jump);
    ps->jump.conditional = (uint32_t)cond;
    ps->jump.target_file = ps->have_jfi ? ps->jfi : ps->file;
    ps->jump.target_fn = target_fn;
    ps->jump.fn = ps->fn;
    ps->jump.file = ps->file;
    ps->have_jfi = ps->have_jfn = 0;
    ps->line = src;
    ps->lineno = *ln + 2;
    *ln += 2;
    *st = add_status(ps, store_jump(ps, &ps->jump, ps->jump_exec, ps->jump_follow), src);
    return p + 1;
}

/* The name of a `key=` line in a cost run (s the line's start, p after
 * the '='): a reference `(id)` to a defined id, or a definition `(id) name`
 * through parse_name (as body_spec would send it), the id in plain decimal
 * of at most 9 digits. *sid gets the string id. Returns the start of the
 * next line with *ln advanced, or NULL with nothing changed (the general
 * code takes the line: other forms, ids not defined here, NUL bytes). When
 * parse_name fails, *st has its status, the line is counted and its end
 * returned. */
static inline __attribute__((always_inline)) const char *run_name(tk_callgrind_parser *ps, int kind,
                                                                  const char *s, const char *p,
                                                                  uint64_t *ln, int *st,
                                                                  uint32_t *sid)
{
    if (*p != '(' || (unsigned)((unsigned char)p[1] - '0') >= 10) return NULL;
    uint64_t id;
    const char *d = tk_fast_dec_nl(p + 1, &id);
    if (!d || d - p > 10 || *d != ')') return NULL;
    if (d[1] == '\n') { /* a reference */
        uint32_t have = id_map_get(&ps->ids[kind], id);
        if (!have) return NULL; /* undefined here: forward definitions, errors */
        *sid = have - 1;
        *ln += 1;
        return d + 2;
    }
    if (d[1] != ' ') return NULL;
    const char *nl = tk_strchrnul(d, '\n');
    if (*nl != '\n' || (size_t)(nl - s) > TK_CALLGRIND_MAX_LINE)
        return NULL; /* a NUL: general code */
    ps->line = s;
    ps->lineno = *ln + 1;
    *ln += 1;
    tk_status pst = tk_cg_parse_name(ps, kind, p, nl, sid);
    if (pst != TK_OK) *st = (int)pst;
    return nl + 1;
}

/* A name line inside a cost run that leaves the self-cost key as it is:
 * `cfi=` `cfl=` `cfn=` `cob=` `jfi=` `jfn=`, and `fi=` `fe=` when the rows
 * drop files (drop_files: the key is the function only). A reference
 * `(id)` to a defined id is taken here; a definition `(id) name` goes
 * through parse_name as body_spec would send it. Returns the start of the next line
 * with *ln advanced, or NULL with nothing changed (the run ends and the
 * general code takes the line). After parse_name fails, *st has its status,
 * the line is counted and its end returned. */
static inline __attribute__((always_inline)) const char *
run_name_line(tk_callgrind_parser *ps, const char *s, uint64_t *ln, int *st)
{
    int kind;
    uint32_t *dst;
    int *have = NULL;
    const char *p;
    if (s[0] == 'f') {
        if ((s[1] != 'i' && s[1] != 'e') || s[2] != '=' || !ps->drop_files) return NULL;
        kind = KIND_FILE;
        dst = &ps->file;
        p = s + 3;
    } else if (s[0] == 'j') { /* jfi= jfn=: the next jump's target */
        if (s[1] != 'f' || (s[2] != 'i' && s[2] != 'n') || s[3] != '=') return NULL;
        kind = s[2] == 'i' ? KIND_FILE : KIND_FUNCTION;
        dst = s[2] == 'i' ? &ps->jfi : &ps->jfn;
        have = s[2] == 'i' ? &ps->have_jfi : &ps->have_jfn;
        p = s + 4;
    } else { /* (each byte read is before the line's '\n' or is that '\n') */
        if (s[1] == 'f' && (s[2] == 'i' || s[2] == 'l')) {
            kind = KIND_FILE;
            dst = &ps->cfi;
            have = &ps->have_cfi;
        } else if (s[1] == 'f' && s[2] == 'n') {
            kind = KIND_FUNCTION;
            dst = &ps->cfn;
            have = &ps->have_cfn;
        } else if (s[1] == 'o' && s[2] == 'b') {
            kind = KIND_OBJECT;
            dst = &ps->cob;
            have = &ps->have_cob;
        } else {
            return NULL;
        }
        if (s[3] != '=') return NULL;
        p = s + 4;
    }
    uint32_t sid;
    const char *next = run_name(ps, kind, s, p, ln, st, &sid);
    if (next && *st == TK_OK) {
        *dst = sid;
        if (have) {
            *have = 1;
            /* where a part that ends before the call or jump was cut */
            if (have == &ps->have_cfn)
                ps->cfn_lineno = *ln;
            else if (s[0] == 'j')
                ps->jname_lineno = *ln;
        }
    }
    return next;
}

/* A call inside a cost run: `calls=COUNT TARGET` as callgrind writes it
 * (quick_count_pos's form; the target relative to last[] without moving it)
 * after a `cfn=`, and its cost line (subpositions, moving last[], and up to
 * ncols costs), both usual. Stored as calls_line and fast_line_nl would store
 * it (in this detail every position of the key is 0). Returns the start of
 * the line after the two with *ln advanced by 2, or NULL with nothing
 * changed. *st gets the status of storing the call. */
static inline __attribute__((always_inline)) const char *
run_call(tk_callgrind_parser *ps, const char *s, const char *last_nl, uint64_t *last, int *have,
         const size_t npos, uint64_t *ln, int *st)
{
    if (!ps->have_cfn || s + 6 > last_nl || memcmp(s, "calls=", 6) != 0) return NULL;
    const char *p = s + 6;
    uint64_t count, t[3], v[3];
    if (!tk_fast_is_digit(*p) || !(p = tk_fast_dec_nl(p, &count))) return NULL;
    const char *line = run_target(p, s, last_nl, npos, last, have, t);
    if (!line || !(p = run_positions(line, npos, last, have, v))) return NULL;
    uint64_t vals[TK_PROFILE_MAX_EVENTS];
    size_t n;
    if (!(p = line_costs(p, line, ps->ncols, vals, &n))) return NULL;
    /* commit: the cost line moves last[] */
    for (size_t i = 0; i < npos; i++) {
        last[i] = v[i];
        have[i] = 1;
    }
    memset(&ps->call, 0, sizeof ps->call);
    ps->call_count = count;
    ps->line = line;
    ps->lineno = *ln + 2;
    *ln += 2;
    uint32_t cob = ps->have_cob ? ps->cob : ps->ob;
    uint32_t cfi = ps->have_cfi ? ps->cfi : ps->file;
    ps->have_cob = ps->have_cfi = ps->have_cfn = 0;
    if (tk_profile_function(ps->p, cob, cfi, ps->cfn, &ps->call.callee, NULL) != TK_OK) {
        *st = tk_cg_nomem(ps);
        return p + 1;
    }
    if (!ps->opt.call_counts_only) { /* else only the count is kept */
        memset(ps->costs, 0, tk_profile_event_count(ps->p) * sizeof *ps->costs);
        for (size_t i = 0; i < n; i++) ps->costs[ps->col_map[i]] = vals[i];
    }
    ps->call.fn = ps->fn;
    ps->call.file = ROW_FILE(ps);
    *st = add_status(ps, store_call(ps, &ps->call, count, ps->costs), line);
    return p + 1;
}

/* A `fn=` line inside a cost run: a reference `(id)` to a defined id, or a
 * definition through parse_name, then set_function as body_spec would. When
 * a cost line follows, the function is made now (as the general code makes
 * it at that line) and *more = 1: the run goes on with the new function's
 * key. Otherwise *more = 0 and the general code goes on after this line.
 * NULL with nothing changed when the line is unusual. After an error, *st
 * has its status, the line is counted and its end returned (*more = 0). */
static inline __attribute__((always_inline)) const char *
run_fn_line(tk_callgrind_parser *ps, const char *s, const char *last_nl, uint64_t *ln, int *st,
            int *more)
{
    *more = 0;
    if (s[2] != '=') return NULL;
    uint32_t sid;
    const char *next = run_name(ps, KIND_FUNCTION, s, s + 3, ln, st, &sid);
    if (!next || *st != TK_OK) return next;
    set_function(ps, sid);
    unsigned c0 = next <= last_nl ? (unsigned char)*next : 0;
    if (!tk_fast_cost_start(c0)) return next;
    tk_status rst = resolve_function(ps);
    if (rst != TK_OK) {
        *st = (int)rst;
        return next;
    }
    *more = 1;
    return next;
}

/* The self-cost sums of the key a run is reading (fast_run_body): *acc is
 * pend itself (col_map the identity: the pending row's sums in place), or
 * buf with pend's sums in column order, or zeros when the key is not the
 * pending row's (*pend_ready 0); *touched says whether a line added to them. */
static inline __attribute__((always_inline)) void run_key_start(tk_callgrind_parser *ps,
                                                                uint64_t *buf, uint64_t **acc,
                                                                int *pend_ready, int *touched,
                                                                int identity, size_t ncols)
{
    const size_t *map = ps->col_map;
    uint64_t *pend = ps->pend;
    *pend_ready = ps->pend_valid && ps->pend_key.fn == ps->fn &&
                  ps->pend_key.file == ROW_FILE(ps) && ps->pend_key.pos.line == 0 &&
                  ps->pend_key.pos.addr == 0 && ps->pend_key.pos.bb == 0;
    *acc = buf;
    if (*pend_ready) {
        if (identity)
            *acc = pend;
        else
            for (size_t i = 0; i < ncols; i++) buf[i] = pend[map[i]];
    } else {
        memset(buf, 0, ncols * sizeof *buf);
    }
    *touched = 0;
}

/* The sums of the key back into the pending row (run_key_start). */
static inline __attribute__((always_inline)) void
run_key_end(tk_callgrind_parser *ps, const uint64_t *acc, int touched, int identity, size_t ncols)
{
    uint64_t *pend = ps->pend;
    if (touched && acc != pend) {
        if (identity)
            memcpy(pend, acc, ncols * sizeof *acc);
        else
            for (size_t i = 0; i < ncols; i++) pend[ps->col_map[i]] = acc[i];
    }
}

/* The first costed line s (line ln + 1) of a new self-cost key in a run: the
 * pending row of the previous key is flushed and an empty one is started for
 * this key. TK_OK or an error (located). */
static inline __attribute__((always_inline)) tk_status run_new_key(tk_callgrind_parser *ps,
                                                                   const char *s, uint64_t ln)
{
    ps->line = s;
    ps->lineno = ln + 1;
    int fst = flush_self(ps);
    if (fst != TK_OK) return fst;
    memset(&ps->pend_key, 0, sizeof ps->pend_key);
    ps->pend_key.fn = ps->fn;
    ps->pend_key.file = ROW_FILE(ps);
    memset(ps->pend, 0, tk_profile_event_count(ps->p) * sizeof *ps->pend);
    ps->pend_valid = 1;
    return TK_OK;
}

/* A cost line taken: its subpositions v are the last ones. */
static inline __attribute__((always_inline)) void run_commit(uint64_t *last, int *have,
                                                             const uint64_t *v, const size_t npos)
{
    last[0] = v[0];
    have[0] = 1;
    if (npos > 1) {
        last[1] = v[1];
        have[1] = 1;
        if (npos > 2) {
            last[2] = v[2];
            have[2] = 1;
        }
    }
}

/* Consecutive lines of function bodies when only per-function costs are
 * kept (TK_CALLGRIND_DETAIL_FUNCTIONS, nothing expected): cost lines, which
 * cannot change the self-cost key (function, file), and the usual lines
 * between them (jumps, calls, name lines, fn= lines, which start a new key
 * in the loop, and empty lines), parsed in one loop with the position state
 * in locals. Anything else ends the loop. Preconditions: as for
 * fast_line_nl, s <= last_nl, and s starts like a cost line. Returns the start
 * of the first line not taken (the general code handles it); *lineno counts
 * the lines taken. *st receives an error status, TK_OK otherwise; after an
 * error the location is set and the line is counted. */
static inline __attribute__((always_inline)) const char *
fast_run_body(tk_callgrind_parser *ps, const char *s, const char *last_nl, uint64_t *lineno,
              int *st, const size_t npos, const int have_all)
{
    const size_t ncols = ps->ncols;
    uint64_t last[3] = {ps->last[0], ps->last[1], ps->last[2]};
    int have[3] = {have_all || ps->have_last[0], have_all || ps->have_last[1],
                   have_all || ps->have_last[2]};
    uint64_t ln = *lineno;
    /* the pending sums in column order, written back at the end (and when
     * a fn= line inside the run changes the key) */
    uint64_t acc_buf[TK_PROFILE_MAX_EVENTS], *acc;
    /* col_map is the identity in the first part of a file (the usual case):
     * a run that continues the pending row sums into it in place */
    int identity = ps->col_identity;
    int pend_ready, touched;
    run_key_start(ps, acc_buf, &acc, &pend_ready, &touched, identity, ncols);
    *st = TK_OK;
    for (;;) {
        const char *p = s;
        uint64_t v[3] = {0, 0, 0};
        p = run_subpos(p, have[0], last[0], &v[0]);
        if (!p) break;
        if (npos > 1) {
            if (*p != ' ' || !(p = run_subpos(p + 1, have[1], last[1], &v[1]))) break;
            if (npos > 2 && (*p != ' ' || !(p = run_subpos(p + 1, have[2], last[2], &v[2])))) break;
        }
        if (*p != ' ' && *p != '\n') break;
        /* costs: " N" repeated, then '\n'. Sums go straight into acc and are
         * taken back if the line turns out to be unusual. */
        size_t n;
        p = run_costs(p, s, last_nl, acc, ncols, &n);
        if (!p) break;
        if (n && !pend_ready) {
            /* the first costed line of a new self-cost key: flush the old
             * one (acc was zero and holds this line's costs) */
            int fst = run_new_key(ps, s, ln);
            if (fst != TK_OK) {
                *st = fst;
                ln++;
                s = p + 1;
                break;
            }
            pend_ready = 1;
        }
        /* commit the line */
        ln++;
        touched |= n != 0;
        run_commit(last, have, v, npos);
        s = p + 1;
        if (s > last_nl) break;
        unsigned c0 = (unsigned char)*s;
        /* jumps and their source positions: the run goes on after them */
        for (;;) {
            const char *q;
            if (c0 == '\n') { /* an empty line: nothing (as in the general code) */
                q = s + 1;
                ln++;
            } else if (c0 == 'j')
                q = s[1] == 'f' ? run_name_line(ps, s, &ln, st)
                                : run_jump(ps, s, last_nl, last, have, npos, &ln, st);
            else if (c0 == 'c' && s[1] == 'a')
                q = run_call(ps, s, last_nl, last, have, npos, &ln, st);
            else if (c0 == 'f' && s[1] == 'n') {
                /* a new function: its first cost line starts a new key */
                int more;
                q = run_fn_line(ps, s, last_nl, &ln, st, &more);
                if (q && more) {
                    run_key_end(ps, acc, touched, identity, ncols);
                    run_key_start(ps, acc_buf, &acc, &pend_ready, &touched, identity, ncols);
                }
                if (q && !more) { /* the general code goes on from there */
                    s = q;
                    break;
                }
            } else if (c0 == 'c' || c0 == 'f')
                q = run_name_line(ps, s, &ln, st);
            else
                break;
            if (!q) break;
            s = q;
            c0 = *st == TK_OK && s <= last_nl ? (unsigned char)*s : 0;
        }
        if (!tk_fast_cost_start(c0)) break; /* not a cost line */
    }
    run_key_end(ps, acc, touched, identity, ncols);
    /* keeps GCC 12 from reading last[0..1] for these copies with one 16-byte
     * load inside the loop (core/fastpath.h) */
    TK_FAST_BARRIER();
    ps->last[0] = last[0];
    ps->last[1] = last[1];
    ps->last[2] = last[2];
    ps->have_last[0] = have[0];
    ps->have_last[1] = have[1];
    ps->have_last[2] = have[2];
    *lineno = ln;
    return s;
}

/* fast_run for `positions: instr line` (two subpositions, the usual case
 * with --dump-instr=yes) once both have a value, compiled with that known,
 * and for any count. */
static const char *fast_run2(tk_callgrind_parser *ps, const char *s, const char *last_nl,
                             uint64_t *lineno, int *st)
{
    return fast_run_body(ps, s, last_nl, lineno, st, 2, 1);
}

static const char *fast_run(tk_callgrind_parser *ps, const char *s, const char *last_nl,
                            uint64_t *lineno, int *st)
{
    return fast_run_body(ps, s, last_nl, lineno, st, ps->npos, 0);
}

static tk_status cost_line(tk_callgrind_parser *ps, const char *s, const char *e)
{
    tk_status st;
    if (!ps->part && (st = tk_cg_begin_part(ps)) != TK_OK) return st;
    ps->part_has_data = 1;
    if ((st = need_body(ps, s)) != TK_OK) return st;
    const char *start = s;
    tk_prof_pos pos;
    if ((st = parse_position(ps, &s, e, &pos, 1)) != TK_OK) return st;
    int any;
    if ((st = tk_cg_parse_costs(ps, s, e, &any)) != TK_OK) return st;
    reduce_pos(ps, &pos);
    size_t w = tk_profile_event_count(ps->p);
    if (ps->expecting == EXPECT_CALL_COST) {
        ps->expecting = EXPECT_ANY;
        ps->call.pos = pos;
        ps->call.fn = ps->fn;
        ps->call.file = ROW_FILE(ps);
        return add_status(ps, store_call(ps, &ps->call, ps->call_count, ps->costs), start);
    }
    if ((st = resolve_function(ps)) != TK_OK) return st;
    if (!ps->have_fn)
        return tk_cg_fail_at(ps, TK_ERR_FORMAT, start, "cost line before any 'fn=' line");
    if (ps->expecting == EXPECT_JUMP_POS) {
        ps->expecting = EXPECT_ANY;
        ps->jump.pos = pos;
        ps->jump.fn = ps->fn;
        ps->jump.file = ps->file;
        if ((st = add_status(ps, store_jump(ps, &ps->jump, ps->jump_exec, ps->jump_follow),
                             start)) != TK_OK)
            return st;
    }
    if (!any) return TK_OK;
    tk_prof_self key = {ps->fn, ROW_FILE(ps), pos};
    if (ps->pend_valid && memcmp(&key, &ps->pend_key, sizeof key) == 0) {
        for (size_t i = 0; i < w; i++)
            if (__builtin_add_overflow(ps->pend[i], ps->costs[i], &ps->pend[i]))
                return tk_cg_fail_at(ps, TK_ERR_LIMIT, start, "sum of costs overflows 64 bits");
        return TK_OK;
    }
    if ((st = flush_self(ps)) != TK_OK) return st;
    ps->pend_key = key;
    memcpy(ps->pend, ps->costs, w * sizeof *ps->pend);
    ps->pend_valid = 1;
    return TK_OK;
}


/* A jump or call line as callgrind writes it, `jcnd=F/E POS`, `jump=N POS`
 * or `calls=N POS` (s: after the '='): decimal counts, the target's
 * subpositions one space apart as on cost lines, then only blanks (or a CR)
 * before the line's '\n'. 1 with the counts and the target set; 0 when
 * anything is unusual, and the general code parses (and reports) the line.
 * Jump lines are a tenth of the lines of a --collect-jumps profile; the
 * general code spent ~450 instructions on each (counts and hex addresses
 * digit by digit, through generic parsers). */
static int quick_count_pos(const tk_callgrind_parser *ps, const char *s, const char *e, int cond,
                           uint64_t *a, uint64_t *b, tk_prof_pos *target)
{
    /* the line's end is the '\n' the block loop found (the scans below stop
     * at it); lines not found so are left to the general code */
    if (!ps->nul_free_end || e != ps->nul_free_end) return 0;
    const char *p = s;
    if (!tk_fast_is_digit(*p) || !(p = tk_fast_dec_nl(p, a))) return 0;
    if (cond && (*p != '/' || !tk_fast_is_digit(p[1]) || !(p = tk_fast_dec_nl(p + 1, b)))) return 0;
    uint64_t v[3];
    for (size_t i = 0; i < ps->npos; i++) {
        if (*p != ' ' || !(p = run_subpos(p + 1, ps->have_last[i], ps->last[i], &v[i]))) return 0;
    }
    while (p < e && is_space(*p)) p++;
    if (p < e && *p != '\r') return 0;
    set_position(ps, v, target);
    return 1;
}

static tk_status calls_line(tk_callgrind_parser *ps, const char *key, const char *s, const char *e)
{
    tk_status st;
    if ((st = need_body(ps, key)) != TK_OK) return st;
    if ((st = resolve_function(ps)) != TK_OK) return st;
    if (!ps->have_fn)
        return tk_cg_fail_at(ps, TK_ERR_FORMAT, key, "'calls=' before any 'fn=' line");
    if (!ps->have_cfn)
        return tk_cg_fail_at(ps, TK_ERR_FORMAT, key, "'calls=' without a preceding 'cfn=' line");
    memset(&ps->call, 0, sizeof ps->call);
    if (CG_FAST(ps) && quick_count_pos(ps, s, e, 0, &ps->call_count, NULL, &ps->call.target))
        goto parsed;
    s = skip_space(s, e);
    const char *at = s;
    tk_status rc = tk_cg_parse_u64(&s, e, &ps->call_count, 0);
    if (rc != TK_OK) return tk_cg_number_error(ps, rc, at, e, "a call count");
    memset(&ps->call, 0, sizeof ps->call);
    if ((st = parse_position(ps, &s, e, &ps->call.target, 0)) != TK_OK) return st;
    s = skip_space(s, e);
    if (s < e && *s != '\r') {
        char found[64];
        tk_cg_found_text(s, e, found, sizeof found);
        return tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "unexpected %s after the call target position",
                             found);
    }
parsed:
    reduce_pos(ps, &ps->call.target);
    uint32_t cob = ps->have_cob ? ps->cob : ps->ob;
    uint32_t cfi = ps->have_cfi ? ps->cfi : ps->file;
    if (tk_profile_function(ps->p, cob, cfi, ps->cfn, &ps->call.callee, NULL) != TK_OK)
        return tk_cg_nomem(ps);
    ps->have_cob = ps->have_cfi = ps->have_cfn = 0;
    ps->expecting = EXPECT_CALL_COST;
    ps->expect_lineno = ps->lineno;
    return TK_OK;
}

static tk_status jump_line(tk_callgrind_parser *ps, const char *key, const char *s, const char *e,
                           int cond)
{
    tk_status st;
    if ((st = need_body(ps, key)) != TK_OK) return st;
    if ((st = resolve_function(ps)) != TK_OK) return st;
    if (!ps->have_fn) return tk_cg_fail_at(ps, TK_ERR_FORMAT, key, "jump before any 'fn=' line");
    uint64_t a, b = 0;
    memset(&ps->jump, 0, sizeof ps->jump);
    if (CG_FAST(ps) && quick_count_pos(ps, s, e, cond, &a, &b, &ps->jump.target)) {
        /* callgrind's "followed/executed" */
        ps->jump_follow = a;
        ps->jump_exec = cond ? b : a;
        goto parsed;
    }
    s = skip_space(s, e);
    const char *at = s;
    tk_status rc = tk_cg_parse_u64(&s, e, &a, cond ? '/' : 0);
    if (rc != TK_OK) return tk_cg_number_error(ps, rc, at, e, "a jump count");
    if (cond) {
        /* callgrind writes "followed/executed"; the spec "executed followed" */
        int slash = s < e && *s == '/';
        s = slash ? s + 1 : skip_space(s, e);
        at = s;
        rc = tk_cg_parse_u64(&s, e, &b, 0);
        if (rc != TK_OK) return tk_cg_number_error(ps, rc, at, e, "the second jcnd= count");
        if (slash) {
            ps->jump_follow = a;
            ps->jump_exec = b;
        } else {
            ps->jump_exec = a;
            ps->jump_follow = b;
        }
    } else {
        ps->jump_exec = ps->jump_follow = a;
    }
    memset(&ps->jump, 0, sizeof ps->jump);
    if ((st = parse_position(ps, &s, e, &ps->jump.target, 0)) != TK_OK) return st;
    s = skip_space(s, e);
    if (s < e && *s != '\r') {
        char found[64];
        tk_cg_found_text(s, e, found, sizeof found);
        return tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "unexpected %s after the jump target position",
                             found);
    }
parsed:
    reduce_pos(ps, &ps->jump.target);
    ps->jump.conditional = (uint32_t)cond;
    ps->jump.target_file = ps->have_jfi ? ps->jfi : ps->file;
    ps->jump.target_fn = ps->fn;
    if (ps->have_jfn) {
        /* Nothing says the target function's object or own file (there is no
         * job= line, and jfi= is the target position's file): they are the
         * jumping function's (an ob= or fl= line after its fn= line does not
         * count; a writer could not say it). */
        const tk_prof_function *src = tk_profile_function_at(ps->p, ps->fn);
        if (tk_profile_function(ps->p, src->object, src->file, ps->jfn, &ps->jump.target_fn,
                                NULL) != TK_OK)
            return tk_cg_nomem(ps);
    }
    ps->have_jfi = ps->have_jfn = 0;
    ps->expecting = EXPECT_JUMP_POS;
    return TK_OK;
}

static tk_status body_spec(tk_callgrind_parser *ps, const char *key, size_t klen, const char *s,
                           const char *e)
{
    tk_status st;
    if (!ps->part && (st = tk_cg_begin_part(ps)) != TK_OK) return st;
    ps->part_has_data = 1;
    uint32_t id;
#define KEY(str) (klen == sizeof(str) - 1 && memcmp(key, str, sizeof(str) - 1) == 0)
    switch (key[0]) {
    case 'o':
        if (KEY("ob")) {
            if ((st = tk_cg_parse_name(ps, KIND_OBJECT, s, e, &ps->ob)) != TK_OK) return st;
            return TK_OK;
        }
        break;
    case 'f':
        if (KEY("fn")) {
            if ((st = tk_cg_parse_name(ps, KIND_FUNCTION, s, e, &id)) != TK_OK) return st;
            return set_function(ps, id);
        }
        if (KEY("fl")) {
            if ((st = tk_cg_parse_name(ps, KIND_FILE, s, e, &ps->fl)) != TK_OK) return st;
            ps->file = ps->fl;
            return TK_OK;
        }
        if (KEY("fi") || KEY("fe")) return tk_cg_parse_name(ps, KIND_FILE, s, e, &ps->file);
        if (KEY("frfn")) return TK_OK; /* --mangle-names=no recursion info: ignored */
        break;
    case 'c':
        if (KEY("calls")) return calls_line(ps, key, s, e);
        if (KEY("cfn")) {
            if ((st = tk_cg_parse_name(ps, KIND_FUNCTION, s, e, &ps->cfn)) != TK_OK) return st;
            ps->have_cfn = 1;
            ps->cfn_lineno = ps->lineno;
            return TK_OK;
        }
        if (KEY("cfi") || KEY("cfl")) {
            if ((st = tk_cg_parse_name(ps, KIND_FILE, s, e, &ps->cfi)) != TK_OK) return st;
            ps->have_cfi = 1;
            return TK_OK;
        }
        if (KEY("cob")) {
            if ((st = tk_cg_parse_name(ps, KIND_OBJECT, s, e, &ps->cob)) != TK_OK) return st;
            ps->have_cob = 1;
            return TK_OK;
        }
        break;
    case 'j':
        if (KEY("jump")) return jump_line(ps, key, s, e, 0);
        if (KEY("jcnd")) return jump_line(ps, key, s, e, 1);
        if (KEY("jfi")) {
            if ((st = tk_cg_parse_name(ps, KIND_FILE, s, e, &ps->jfi)) != TK_OK) return st;
            ps->have_jfi = 1;
            ps->jname_lineno = ps->lineno;
            return TK_OK;
        }
        if (KEY("jfn")) {
            if ((st = tk_cg_parse_name(ps, KIND_FUNCTION, s, e, &ps->jfn)) != TK_OK) return st;
            ps->have_jfn = 1;
            ps->jname_lineno = ps->lineno;
            return TK_OK;
        }
        break;
    case 'b':
    case 'l':
    case 'r':
        /* --dump-bbs=yes basic-block lines and --mangle-names=no recursion lines */
        if (KEY("bb") || KEY("ln") || KEY("rec")) return TK_OK;
        break;
    default: break;
    }
#undef KEY
    return tk_cg_fail_at(ps, TK_ERR_FORMAT, key,
                         "unknown line '%.*s=' (expected ob= fl= fi= fe= fn= "
                         "cob= cfi= cfl= cfn= calls= jump= jcnd= jfi= jfn=)",
                         (int)(klen > 40 ? 40 : klen), key);
}

/* ---- dispatcher --------------------------------------------------------- */

static tk_status dispatch(tk_callgrind_parser *ps, const char *s, const char *e)
{
    char c = *s;
    if ((unsigned)(c - '0') < 10 || c == '+' || c == '-' || c == '*') {
        if (ps->fn_lazy && ps->expecting != EXPECT_CALL_COST && ps->part_has_events) {
            tk_status st = resolve_function(ps);
            if (st != TK_OK) return st;
        }
        return cost_line(ps, s, e);
    }
    if (c == '#') {
        if (e - s >= 18 && memcmp(s, "# callgrind format", 18) == 0)
            return ps->part && ps->part_has_events ? tk_cg_begin_part(ps)
                                                   : tk_cg_header_part(ps, 1);
        return TK_OK;
    }
    if (ps->expecting == EXPECT_CALL_COST) {
        ps->expecting = EXPECT_ANY;
        tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "expected the cost line of the 'calls=' on line %llu",
                      (unsigned long long)ps->expect_lineno);
        if (!ps->opt.diag) return ps->first_error.code;
    }
    ps->expecting = EXPECT_ANY;
    const char *k = s;
    while (k < e && ((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z'))) k++;
    if (k < e && *k == '=' && k > s) return body_spec(ps, s, (size_t)(k - s), k + 1, e);
    if (k > s) {
        const char *colon = k;
        while (colon < e && *colon != ':' && *colon != '=') colon++;
        if (colon < e && *colon == ':')
            return tk_cg_header_line(ps, s, (size_t)(colon - s), colon + 1, e);
    }
    char found[64];
    tk_cg_found_text(s, e, found, sizeof found);
    return tk_cg_fail_at(ps, TK_ERR_FORMAT, s,
                         "expected a header 'key: value', a 'key=' line or a cost line, found %s",
                         found);
}

/* Only line[0] is read: a block reader passes the part of the line it kept. */
static tk_status too_long(tk_callgrind_parser *ps, const char *line, uint64_t len)
{
    return tk_cg_fail_at(ps, TK_ERR_LIMIT, line,
                         "line of %llu bytes is longer than the limit of %u",
                         (unsigned long long)len, TK_CALLGRIND_MAX_LINE);
}

tk_status tk_callgrind_parser_line(tk_callgrind_parser *ps, const char *line, size_t len,
                                   uint64_t lineno, int64_t offset, tk_error *err)
{
    ps->line = line;
    ps->lineno = lineno;
    ps->offset = offset;
    const char *e = line + len;
    const char *nul;
    tk_status st = TK_OK;
    if (len > TK_CALLGRIND_MAX_LINE) {
        st = too_long(ps, line, len);
    } else if ((!ps->nul_free_end || e > ps->nul_free_end) &&
               (nul = memchr(line, 0, len)) != NULL) {
        st = tk_cg_fail_at(ps, TK_ERR_FORMAT, nul, "NUL byte in a text line (binary data?)");
    } else {
        const char *s = line;
        while (s < e && (is_space(*s) || *s == '\r')) s++;
        if (s < e) {
            if (s != line && *s != '#') {
                st = tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "line starts with white space");
            } else {
                st = dispatch(ps, line, e);
            }
        }
    }
    if (st != TK_OK && !ps->opt.diag) {
        if (err) *err = ps->first_error;
        return ps->first_error.code;
    }
    if (st == TK_ERR_NOMEM) {
        if (err) *err = ps->first_error;
        return st;
    }
    return TK_OK;
}

tk_status tk_callgrind_parser_open(tk_callgrind_parser **out, tk_profile *p,
                                   const tk_callgrind_read_options *opt, tk_error *err)
{
    *out = NULL;
    tk_callgrind_parser *ps = tk_calloc(1, sizeof *ps);
    if (!ps) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    ps->p = p;
    ps->fast = 1;
    if (opt) ps->opt = *opt;
    ps->drop_files = ps->opt.drop_files && ps->opt.detail == TK_CALLGRIND_DETAIL_FUNCTIONS;
    tk_error_clear(&ps->first_error);
    if (tk_profile_intern(p, "", 0, &ps->empty_str, err) != TK_OK) {
        tk_free(ps);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    *out = ps;
    return TK_OK;
}

tk_status tk_callgrind_parser_finish(tk_callgrind_parser *ps, tk_error *err)
{
    ps->line = NULL;
    if (ps->part && !ps->part_has_events) {
        ps->lineno = ps->lineno ? ps->lineno : 1;
        tk_cg_fail_at(ps, TK_ERR_FORMAT, NULL, "missing 'events:' line in part %zu",
                      tk_profile_part_count(ps->p));
    }
    if (ps->expecting == EXPECT_JUMP_POS) {
        tk_cg_fail_at(ps, TK_ERR_FORMAT, NULL,
                      "jump line is not followed by its source position line");
        ps->expecting = EXPECT_ANY;
    }
    end_part(ps);
    if (ps->had_error) {
        if (err) *err = ps->first_error;
        return ps->opt.diag ? TK_ERR_CHECK : ps->first_error.code;
    }
    return TK_OK;
}

void tk_callgrind_parser_free(tk_callgrind_parser *ps)
{
    if (!ps) return;
    for (int k = 0; k < KIND_COUNT; k++) {
        tk_cg_id_map_clear(&ps->ids[k]);
        tk_hmap_free(&ps->fwd[k]);
    }
    tk_free(ps->self_row);
    tk_free(ps->call_head);
    tk_free(ps->call_next);
    tk_free(ps);
}

/* The end of the line at s ('\n', or end for the last line of the input):
 * lines up to last_nl end with a newline, found with strchrnul, which stops
 * at a NUL too (the fused fast paths stop at a NUL as at any unusual byte:
 * NUL bytes are found line by line, not by a pass over the block). Returns
 * the '\n' or NULL. */
static inline const char *line_end(tk_callgrind_parser *ps, const char *s, const char *end,
                                   const char *last_nl)
{
    const char *nl;
    if (s <= last_nl) { /* a '\n' ends the line */
        nl = tk_strchrnul(s, '\n');
        if (*nl == '\n')
            ps->nul_free_end = nl;
        else /* a NUL in the line: the general code reports it */
            nl = memchr(nl, '\n', (size_t)(end - nl));
    } else {
        nl = memchr(s, '\n', (size_t)(end - s));
    }
    return nl;
}

/* The last newline of data[0, len), or NULL. */
static inline const char *last_newline(const char *data, size_t len)
{
    const char *last_nl = data + len;
    while (last_nl > data && last_nl[-1] != '\n') last_nl--;
    return last_nl > data ? last_nl - 1 : NULL;
}

/* The lines of data[0, len): every one ends with '\n' but, at the end of the
 * input, the last. base: content offset of data[0]; *lineno: lines before it
 * (updated). */
static tk_status parse_block(tk_callgrind_parser *ps, const char *data, size_t len, uint64_t base,
                             uint64_t *lineno_io, tk_error *err)
{
    ps->nul_free_end = data; /* NUL bytes are found line by line (line_end) */
    const char *s = data, *end = data + len;
    /* lines that start at or before the last newline end with a newline:
     * the fused fast path scans them without an end pointer */
    const char *last_nl = last_newline(data, len);
    uint64_t lineno = *lineno_io;
    tk_status st = TK_OK;
    while (s < end) {
        if (CG_FAST(ps) && s <= last_nl) {
            int cost_start = tk_fast_cost_start((unsigned char)*s);
            /* the first cost line after fn= creates the function (as dispatch
             * would) and then takes the fast paths below */
            if (cost_start && ps->fn_lazy && ps->expecting != EXPECT_CALL_COST && ps->part &&
                ps->part_has_events && (st = resolve_function(ps)) != TK_OK) {
                if (err) *err = ps->first_error;
                break;
            }
            if (cost_start && ps->have_fn && ps->part && ps->part_has_events) {
                if (ps->opt.detail == TK_CALLGRIND_DETAIL_FUNCTIONS &&
                    ps->expecting == EXPECT_ANY) {
                    int fst;
                    const char *next = ps->npos == 2 && ps->have_last[0] && ps->have_last[1]
                                           ? fast_run2(ps, s, last_nl, &lineno, &fst)
                                           : fast_run(ps, s, last_nl, &lineno, &fst);
                    if (fst != TK_OK && (!ps->opt.diag || fst == TK_ERR_NOMEM)) {
                        if (err) *err = ps->first_error;
                        st = (tk_status)fst;
                        break;
                    }
                    if (next != s) {
                        s = next;
                        continue;
                    }
                }
                ps->line = s;
                ps->lineno = lineno + 1;
                ps->offset = (int64_t)(base + (uint64_t)(s - data));
                int fst = TK_OK;
                const char *nl = fast_line_nl(ps, s, &fst);
                if (nl) {
                    ++lineno;
                    if (fst != TK_OK && (!ps->opt.diag || fst == TK_ERR_NOMEM)) {
                        if (err) *err = ps->first_error;
                        st = (tk_status)fst;
                        break;
                    }
                    s = nl + 1;
                    continue;
                }
            }
        }
        const char *nl = line_end(ps, s, end, last_nl);
        const char *le = nl ? nl : end;
        ++lineno;
        /* a body line "key=..." (fn= cfn= calls= jcnd= fi= ...): straight to
         * body_spec, as dispatch would after its checks */
        unsigned char c = (unsigned char)*s;
        if (CG_FAST(ps) && (unsigned)(c - 'a') < 26 && ps->expecting != EXPECT_CALL_COST &&
            le <= ps->nul_free_end && (size_t)(le - s) <= TK_CALLGRIND_MAX_LINE) {
            const char *k = s + 1;
            while (k < le && (unsigned char)(*k - 'a') < 26) k++;
            if (k < le && *k == '=') {
                ps->line = s;
                ps->lineno = lineno;
                ps->offset = (int64_t)(base + (uint64_t)(s - data));
                ps->expecting = EXPECT_ANY;
                st = body_spec(ps, s, (size_t)(k - s), k + 1, le);
                if (st != TK_OK && (!ps->opt.diag || st == TK_ERR_NOMEM)) {
                    if (err) *err = ps->first_error;
                    st = ps->opt.diag ? st : ps->first_error.code;
                    break;
                }
                st = TK_OK;
                s = nl ? nl + 1 : end;
                continue;
            }
        }
        st = tk_callgrind_parser_line(ps, s, (size_t)(le - s), lineno,
                                      (int64_t)(base + (uint64_t)(s - data)), err);
        if (st != TK_OK) break;
        s = nl ? nl + 1 : end;
    }
    *lineno_io = lineno;
    ps->nul_free_end = NULL;
    return st;
}

/* End of input: the warning for a last line without '\n' (last: its start,
 * lineno: its number, at: the end of the input), then the final checks. */
static tk_status finish_input(tk_callgrind_parser *ps, const char *last, uint64_t lineno,
                              const char *at, tk_error *err)
{
    if (last) {
        ps->line = last;
        ps->lineno = lineno;
        tk_cg_warn_at(ps, at, "the last line has no newline (truncated file?)");
    }
    return tk_callgrind_parser_finish(ps, err);
}

tk_status tk_cg_read_buffer_paths(tk_profile *p, const char *data, size_t len,
                                  const tk_callgrind_read_options *opt, int fast, tk_error *err)
{
    tk_callgrind_parser *ps;
    if (len == 0) data = ""; /* data may be NULL then: NULL + 0 is undefined */
    if (tk_callgrind_parser_open(&ps, p, opt, err) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    ps->fast = fast;
    ps->buf = data;
    ps->buf_end = data + len;
    uint64_t lineno = 0;
    tk_status st = parse_block(ps, data, len, 0, &lineno, err);
    if (st == TK_OK) {
        const char *last = NULL;
        if (len && data[len - 1] != '\n') {
            last = data + len;
            while (last > data && last[-1] != '\n') last--;
        }
        st = finish_input(ps, last, lineno, data + len, err);
    }
    tk_callgrind_parser_free(ps);
    return st;
}

tk_status tk_callgrind_read_buffer(tk_profile *p, const char *data, size_t len,
                                   const tk_callgrind_read_options *opt, tk_error *err)
{
    return tk_cg_read_buffer_paths(p, data, len, opt, 1, err);
}

/* A line that runs across blocks of the input is gathered here (up to the
 * line limit; beyond it only its length is counted). */
typedef struct carry_line {
    char *text;
    size_t len, cap;
    uint64_t offset; /* content offset of its start */
    uint64_t dropped; /* bytes beyond the limit, not kept */
} carry_line;

static int carry_add(carry_line *c, const char *s, size_t n)
{
    size_t room = (size_t)TK_CALLGRIND_MAX_LINE + 1 - c->len;
    size_t keep = n < room ? n : room;
    if (c->len + keep > c->cap) {
        size_t cap = c->cap ? c->cap : 4096;
        while (cap < c->len + keep) cap *= 2;
        char *t = tk_realloc(c->text, cap);
        if (!t) return 0;
        c->text = t;
        c->cap = cap;
    }
    memcpy(c->text + c->len, s, keep);
    c->len += keep;
    c->dropped += n - keep;
    return 1;
}

/* The gathered line (with its '\n' unless it is the input's last). */
static tk_status carry_parse(tk_callgrind_parser *ps, carry_line *c, uint64_t *lineno,
                             tk_error *err)
{
    tk_status st;
    if (c->dropped) {
        /* too long: reported at its start; in diagnostic mode reading goes on */
        ps->line = c->text;
        ps->lineno = ++*lineno;
        ps->offset = (int64_t)c->offset;
        st = too_long(ps, c->text, (uint64_t)c->len + c->dropped - 1);
        if (st != TK_OK && (!ps->opt.diag || st == TK_ERR_NOMEM)) {
            if (err) *err = ps->first_error;
        } else {
            st = TK_OK;
        }
    } else {
        st = parse_block(ps, c->text, c->len, c->offset, lineno, err);
    }
    c->len = 0;
    c->dropped = 0;
    return st;
}

tk_status tk_callgrind_read_input(tk_profile *p, tk_input *in, const tk_callgrind_read_options *opt,
                                  tk_error *err)
{
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    if (opt) o = *opt;
    if (!o.path) o.path = tk_input_path(in);
    /* block by block (memory input is one block unless the input bounds its
     * chunks), each block's whole lines in place, a line across two blocks
     * gathered in `c` */
    tk_callgrind_parser *ps;
    if (tk_callgrind_parser_open(&ps, p, &o, err) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    ps->in = in;
    carry_line c = {NULL, 0, 0, 0, 0};
    uint64_t lineno = 0, base = tk_input_offset(in);
    tk_status st;
    for (;;) {
        const uint8_t *d;
        size_t n;
        st = tk_input_chunk(in, &d, &n, err);
        if (st == TK_END) {
            st = TK_OK;
            break;
        }
        if (st != TK_OK) break;
        const char *s = (const char *)d, *e = s + n;
        if (c.len) {
            const char *nl = memchr(s, '\n', n);
            size_t take = nl ? (size_t)(nl - s) + 1 : n;
            if (!carry_add(&c, s, take)) {
                st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
                break;
            }
            s += take;
            if (nl && (st = carry_parse(ps, &c, &lineno, err)) != TK_OK) break;
        }
        const char *last = e;
        while (last > s && last[-1] != '\n') last--;
        if (last > s &&
            (st = parse_block(ps, s, (size_t)(last - s), base + (uint64_t)(s - (const char *)d),
                              &lineno, err)) != TK_OK)
            break;
        if (last < e) {
            if (!c.len) c.offset = base + (uint64_t)(last - (const char *)d);
            if (!carry_add(&c, last, (size_t)(e - last))) {
                st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
                break;
            }
        }
        base += n;
    }
    if (st == TK_OK && c.len) {
        /* the input's last line has no newline */
        size_t tail = c.len;
        st = carry_parse(ps, &c, &lineno, err);
        if (st == TK_OK) st = finish_input(ps, c.text, lineno, c.text + tail, err);
    } else if (st == TK_OK) {
        st = tk_callgrind_parser_finish(ps, err);
    }
    tk_free(c.text);
    tk_callgrind_parser_free(ps);
    return st;
}
