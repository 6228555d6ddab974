/* Callgrind reader: diagnostics, numbers and the header lines ("events:",
 * "positions:", "totals:", "part:", ...). See callgrind_parser.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/num.h"
#include "formats/callgrind/callgrind_parser.h"

/* ---- diagnostics -------------------------------------------------------- */

tk_status tk_cg_fail_at(tk_callgrind_parser *ps, tk_status code, const char *where, const char *fmt,
                        ...)
{
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint64_t col = where && ps->line ? (uint64_t)(where - ps->line) + 1 : 1;
    if (!ps->had_error) {
        tk_error_set_at(&ps->first_error, code, ps->opt.path, -1, ps->lineno, col, "%s", msg);
        ps->had_error = 1;
    }
    if (ps->opt.diag) {
        tk_location loc = {ps->opt.path, -1, ps->lineno, col};
        tk_diag_report(ps->opt.diag, TK_SEV_ERROR, &loc, "%s", msg);
    }
    return code;
}

void tk_cg_warn_at(tk_callgrind_parser *ps, const char *where, const char *fmt, ...)
{
    if (!ps->opt.diag) return;
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tk_location loc = {ps->opt.path, -1, ps->lineno, where ? (uint64_t)(where - ps->line) + 1 : 1};
    tk_diag_report(ps->opt.diag, TK_SEV_WARNING, &loc, "%s", msg);
}

void tk_cg_note_line(tk_callgrind_parser *ps, int check_error, uint64_t lineno, const char *fmt,
                     ...)
{
    tk_diag *d = ps->opt.diag ? ps->opt.diag : ps->opt.notes;
    if (!d) return;
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ps->opt.diag && check_error) {
        uint64_t save = ps->lineno;
        const char *sl = ps->line;
        ps->lineno = lineno;
        ps->line = NULL;
        tk_cg_fail_at(ps, TK_ERR_FORMAT, NULL, "%s", msg);
        ps->lineno = save;
        ps->line = sl;
        return;
    }
    tk_location loc = {ps->opt.path, -1, lineno, 1};
    tk_diag_report(d, TK_SEV_WARNING, &loc, "%s", msg);
}

tk_status tk_cg_nomem(tk_callgrind_parser *ps)
{
    return tk_cg_fail_at(ps, TK_ERR_NOMEM, NULL, "out of memory");
}

void tk_cg_found_text(const char *s, const char *e, char *buf, size_t size)
{
    size_t n = 0;
    if (s >= e) {
        snprintf(buf, size, "end of line");
        return;
    }
    buf[n++] = '\'';
    /* room kept at the end: one escape (4), "..." (3), quote and NUL (2) */
    for (; s < e && n + 9 < size && *s != ' ' && *s != '\t'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f)
            buf[n++] = (char)c;
        else
            n += (size_t)snprintf(buf + n, size - n, "\\x%02x", c);
    }
    if (s < e && *s != ' ' && *s != '\t') {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n++] = '\'';
    buf[n] = 0;
}

/* ---- numbers -------------------------------------------------------------- */

tk_status tk_cg_parse_u64(const char **sp, const char *e, uint64_t *out, char stop)
{
    const char *s = *sp;
    uint64_t v;
    tk_status st = tk_num_scan_u64(&s, e, &v); /* decimal or 0x hex (core/num) */
    if (st != TK_OK) return st;
    if (s < e && !is_space(*s) && !(stop && *s == stop) && *s != '\r') return TK_ERR_FORMAT;
    *sp = s;
    *out = v;
    return TK_OK;
}

tk_status tk_cg_number_error(tk_callgrind_parser *ps, tk_status rc, const char *s, const char *e,
                             const char *what)
{
    char found[64];
    tk_cg_found_text(s, e, found, sizeof found);
    if (rc == TK_ERR_LIMIT)
        return tk_cg_fail_at(ps, TK_ERR_LIMIT, s, "%s %s does not fit in 64 bits", what, found);
    return tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "expected %s (decimal or 0x hex), found %s", what,
                         found);
}

/* ---- header lines ------------------------------------------------------- */

tk_status tk_cg_parse_costs(tk_callgrind_parser *ps, const char *s, const char *e, int *any)
{
    size_t w = tk_profile_event_count(ps->p);
    memset(ps->costs, 0, w * sizeof *ps->costs);
    *any = 0;
    size_t col = 0;
    for (;;) {
        s = skip_space(s, e);
        if (s >= e || *s == '\r') break;
        if (col >= ps->ncols) {
            char found[64];
            tk_cg_found_text(s, e, found, sizeof found);
            return tk_cg_fail_at(ps, TK_ERR_FORMAT, s,
                                 "more cost numbers than the %zu event type%s of 'events:' (extra "
                                 "value %s)",
                                 ps->ncols, ps->ncols == 1 ? "" : "s", found);
        }
        uint64_t v;
        const char *at = s;
        tk_status rc = tk_cg_parse_u64(&s, e, &v, 0);
        if (rc != TK_OK) return tk_cg_number_error(ps, rc, at, e, "a cost");
        ps->costs[ps->col_map[col++]] = v;
        *any = 1;
    }
    return TK_OK;
}

/* A summary: may exceed the cost lines (the spec: "the cost lines may not
 * represent all cost of the program run"; valgrind's counts the last,
 * unfinished basic block of every thread, and with --collect-systime the
 * time of the system calls in progress); a whole file of another producer
 * was seen 0.04 % above (gprof2dot's bzr.callgrind). Beyond this share a
 * part without totals: looks cut. */
#define SUMMARY_SLACK_PERCENT 1

void tk_cg_check_part_sums(tk_callgrind_parser *ps)
{
    tk_prof_part *part = ps->part;
    if (!part || (!ps->opt.diag && !ps->opt.notes)) return;
    size_t w = tk_profile_event_count(ps->p);
    if (part->has_totals && ps->totals_lineno) {
        /* callgrind's totals: is the sum of what it wrote, and its last line:
         * it vouches for the part, whatever the summary: says */
        for (size_t i = 0; i < w; i++) {
            if (part->totals[i] == ps->sum[i]) continue;
            tk_cg_note_line(ps, 1, ps->totals_lineno,
                            "totals: %s is %llu but the cost lines of this part sum to %llu",
                            tk_profile_str(ps->p, tk_profile_event(ps->p, i)->name),
                            (unsigned long long)part->totals[i], (unsigned long long)ps->sum[i]);
            return;
        }
        return;
    }
    if (!part->has_summary || !ps->summary_lineno) return;
    for (size_t i = 0; i < w; i++) {
        uint64_t s = part->summary[i], sum = ps->sum[i];
        const char *ev = tk_profile_str(ps->p, tk_profile_event(ps->p, i)->name);
        if (ps->creator_callgrind) {
            /* callgrind ends every part with totals:, so this one was cut;
             * its summary: may be below the cost lines (the unfinished
             * blocks of the dump before are written in this one; with
             * --cacheuse=yes it leaves the AcCost and SpLoss events out) */
            if (s <= sum) continue;
            tk_cg_note_line(ps, 1, ps->summary_lineno,
                            "summary: %s is %llu but the cost lines of this part sum to %llu, and "
                            "the part has no totals: line (callgrind ends every part with one): "
                            "the file is truncated",
                            ev, (unsigned long long)s, (unsigned long long)sum);
            return;
        }
        if (s < sum) {
            tk_cg_note_line(ps, 0, ps->summary_lineno,
                            "summary: %s is %llu but the cost lines of this part sum to %llu, more "
                            "(a summary is at least the sum of the cost lines)",
                            ev, (unsigned long long)s, (unsigned long long)sum);
            return;
        }
        if (s - sum > s / 100 * SUMMARY_SLACK_PERCENT) {
            tk_cg_note_line(ps, 0, ps->summary_lineno,
                            "summary: %s is %llu but the cost lines of this part sum to %llu "
                            "(%.1f%% less, and no totals: line): truncated file?",
                            ev, (unsigned long long)s, (unsigned long long)sum,
                            100.0 * (double)(s - sum) / (double)s);
            return;
        }
    }
}

void tk_cg_add_read_sums(tk_callgrind_parser *ps, unsigned what, const uint64_t *v, size_t n,
                         uint64_t lineno)
{
    tk_profile_read_sums *rs = tk_profile_read_sums_of(ps->p);
    uint64_t *sum;
    switch (what) {
    case TK_SUMS_SELF: sum = rs->self; break;
    case TK_SUMS_COSTS: sum = rs->costs; break;
    case TK_SUMS_CALLS: sum = &rs->calls; break;
    case TK_SUMS_JUMPS: sum = rs->jumps; break;
    case TK_SUMS_SUMMARY: sum = rs->summary; break;
    default: sum = rs->totals; break;
    }
    for (size_t i = 0; i < n; i++) {
        if (!__builtin_add_overflow(sum[i], v[i], &sum[i])) continue;
        sum[i] = UINT64_MAX;
        if (rs->reported & what) continue;
        rs->reported |= what;
        if (what == TK_SUMS_SELF) rs->reported |= TK_SUMS_COSTS; /* a part of them */
        const char *ev = what == TK_SUMS_CALLS || what == TK_SUMS_JUMPS
                             ? ""
                             : tk_profile_str(ps->p, tk_profile_event(ps->p, i)->name);
        uint64_t save = ps->lineno;
        const char *sl = ps->line;
        if (lineno) {
            ps->lineno = lineno;
            ps->line = NULL;
        }
        switch (what) {
        case TK_SUMS_SELF:
            tk_cg_fail_at(ps, TK_ERR_LIMIT, NULL,
                          "the cost lines of all parts read add up past 2^64 for %s (the program "
                          "total of report and merge)",
                          ev);
            break;
        case TK_SUMS_COSTS:
            tk_cg_fail_at(ps, TK_ERR_LIMIT, NULL,
                          "the cost lines and the inclusive costs of the calls add up past 2^64 "
                          "for %s: the inclusive costs of report, diff and convert may not fit "
                          "in 64 bits",
                          ev);
            break;
        case TK_SUMS_CALLS:
            tk_cg_fail_at(ps, TK_ERR_LIMIT, NULL,
                          "the call counts add up past 2^64: the calls that report and merge "
                          "count may not fit in 64 bits");
            break;
        case TK_SUMS_JUMPS:
            tk_cg_fail_at(ps, TK_ERR_LIMIT, NULL,
                          "the %s counts of the jumps add up past 2^64: the jumps that dump, "
                          "convert and merge add up may not fit in 64 bits",
                          i ? "followed" : "executed");
            break;
        case TK_SUMS_SUMMARY:
        default:
            tk_cg_fail_at(ps, TK_ERR_LIMIT, NULL,
                          "the %s: lines of all parts read add up past 2^64 for %s (merge adds "
                          "them up)",
                          what == TK_SUMS_SUMMARY ? "summary" : "totals", ev);
            break;
        }
        ps->lineno = save;
        ps->line = sl;
    }
}

static tk_status header_events(tk_callgrind_parser *ps, const char *s, const char *e)
{
    if (ps->part_has_events) {
        return tk_cg_fail_at(ps, TK_ERR_FORMAT, s,
                             "second 'events:' line in this part (first on line %llu)",
                             (unsigned long long)ps->events_lineno);
    }
    ps->ncols = 0;
    uint64_t present = 0;
    tk_status refused = TK_OK;
    for (;;) {
        s = skip_space(s, e);
        if (s >= e) break;
        const char *n = s;
        while (s < e && !is_space(*s)) s++;
        if (ps->ncols >= TK_PROFILE_MAX_EVENTS)
            return tk_cg_fail_at(ps, TK_ERR_LIMIT, n, "more than %d event types",
                                 TK_PROFILE_MAX_EVENTS);
        size_t idx;
        tk_error err;
        tk_error_clear(&err);
        /* check keeps no rows: it says here what a reader keeping them refuses */
        if (ps->opt.diag && !refused && tk_profile_read_sums_of(ps->p)->rows &&
            tk_profile_find_event(ps->p, n, (size_t)(s - n)) < 0)
            refused = tk_cg_fail_at(ps, TK_ERR_UNSUPPORTED, n,
                                    "event type '%.*s' appears after costs were recorded without "
                                    "it%s",
                                    (int)(s - n > 200 ? 200 : s - n), n,
                                    ps->rows_here ? ""
                                                  : " (in the files before: the commands read "
                                                    "their files together, and so does check)");
        tk_status st = tk_profile_add_event(ps->p, n, (size_t)(s - n), &idx, &err);
        if (st != TK_OK) return tk_cg_fail_at(ps, st, n, "%s", err.message);
        for (size_t c = 0; c < ps->ncols; c++)
            if (ps->col_map[c] == idx)
                return tk_cg_fail_at(ps, TK_ERR_FORMAT, n, "event type '%.*s' listed twice",
                                     (int)(s - n), n);
        ps->col_map[ps->ncols++] = idx;
        present |= 1ULL << idx;
    }
    if (ps->ncols == 0) return tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "'events:' names no event type");
    ps->col_identity = ps->ncols == tk_profile_event_count(ps->p);
    for (size_t c = 0; c < ps->ncols; c++)
        if (ps->col_map[c] != c) ps->col_identity = 0;
    ps->part_has_events = 1;
    ps->events_lineno = ps->lineno;
    ps->part->events_mask_valid = 1;
    ps->part->events_present = present;
    for (size_t i = 0; i < ps->pending_count; i++) {
        const char *pn = tk_profile_str(ps->p, ps->pending[i].name);
        int ev = tk_profile_find_event(ps->p, pn, strlen(pn));
        if (ev >= 0) tk_profile_set_event_long_name(ps->p, (size_t)ev, ps->pending[i].long_name);
    }
    ps->pending_count = 0;
    return TK_OK;
}

/* event: Name [= formula] [: long name] */
static tk_status header_event(tk_callgrind_parser *ps, const char *s, const char *e)
{
    s = skip_space(s, e);
    const char *n = s;
    while (s < e && !is_space(*s) && *s != '=' && *s != ':') s++;
    if (s == n) return tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "expected an event name after 'event:'");
    uint32_t name, formula = TK_PROF_NONE, long_name = TK_PROF_NONE;
    if (tk_profile_intern(ps->p, n, (size_t)(s - n), &name, NULL) != TK_OK) return tk_cg_nomem(ps);
    s = skip_space(s, e);
    if (s < e && *s == '=') {
        const char *f = skip_space(s + 1, e);
        const char *fe = f;
        while (fe < e && *fe != ':') fe++;
        const char *ft = trim_end(f, fe);
        if (ft == f) return tk_cg_fail_at(ps, TK_ERR_FORMAT, f, "expected a formula after '='");
        if (tk_profile_intern(ps->p, f, (size_t)(ft - f), &formula, NULL) != TK_OK)
            return tk_cg_nomem(ps);
        s = fe;
    }
    if (s < e && *s == ':') {
        const char *l = skip_space(s + 1, e);
        const char *le = trim_end(l, e);
        if (tk_profile_intern(ps->p, l, (size_t)(le - l), &long_name, NULL) != TK_OK)
            return tk_cg_nomem(ps);
        s = e;
    }
    s = skip_space(s, e);
    if (s < e) {
        char found[64];
        tk_cg_found_text(s, e, found, sizeof found);
        return tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "expected '=' or ':' in 'event:' line, found %s",
                             found);
    }
    if (formula != TK_PROF_NONE) {
        tk_status st = tk_profile_add_derived(ps->p, name, formula, long_name, NULL);
        if (st == TK_ERR_LIMIT)
            return tk_cg_fail_at(ps, TK_ERR_LIMIT, n,
                                 "more than %d derived events ('event:' lines with '=')",
                                 TK_PROFILE_MAX_EVENTS);
        if (st != TK_OK) return tk_cg_nomem(ps);
        return TK_OK;
    }
    if (long_name == TK_PROF_NONE) return TK_OK;
    const char *nm = tk_profile_str(ps->p, name);
    int ev = tk_profile_find_event(ps->p, nm, strlen(nm));
    if (ev >= 0 && ps->part_has_events) {
        tk_profile_set_event_long_name(ps->p, (size_t)ev, long_name);
    } else if (ps->pending_count < TK_PROFILE_MAX_EVENTS) {
        ps->pending[ps->pending_count].name = name;
        ps->pending[ps->pending_count++].long_name = long_name;
    }
    return TK_OK;
}

static tk_status header_positions(tk_callgrind_parser *ps, const char *s, const char *e)
{
    unsigned pos = 0;
    for (;;) {
        s = skip_space(s, e);
        if (s >= e) break;
        const char *n = s;
        while (s < e && !is_space(*s)) s++;
        size_t len = (size_t)(s - n);
        unsigned bit;
        if ((len == 5 && memcmp(n, "instr", 5) == 0) || (len == 4 && memcmp(n, "addr", 4) == 0))
            bit = TK_POS_INSTR;
        else if (len == 4 && memcmp(n, "line", 4) == 0)
            bit = TK_POS_LINE;
        else if (len == 2 && memcmp(n, "bb", 2) == 0)
            bit = TK_POS_BB;
        else
            return tk_cg_fail_at(ps, TK_ERR_FORMAT, n,
                                 "expected 'instr', 'bb' or 'line' in 'positions:', found '%.*s'",
                                 (int)(len > 40 ? 40 : len), n);
        if (pos & bit)
            return tk_cg_fail_at(ps, TK_ERR_FORMAT, n, "'%.*s' repeated in 'positions:'", (int)len,
                                 n);
        pos |= bit;
    }
    if (!pos) return tk_cg_fail_at(ps, TK_ERR_FORMAT, s, "'positions:' names no position kind");
    set_positions(ps, pos);
    ps->part->positions = pos;
    return TK_OK;
}

static tk_status header_costs(tk_callgrind_parser *ps, const char *key, const char *s,
                              const char *e, int totals)
{
    if (!ps->part_has_events)
        return tk_cg_fail_at(ps, TK_ERR_FORMAT, key, "'%s:' before the 'events:' line of this part",
                             totals ? "totals" : "summary");
    int any;
    tk_status st = tk_cg_parse_costs(ps, s, e, &any);
    if (st != TK_OK) return st;
    size_t w = tk_profile_event_count(ps->p);
    if (totals) {
        memcpy(ps->part->totals, ps->costs, w * sizeof *ps->costs);
        ps->part->has_totals = 1;
        ps->totals_lineno = ps->lineno;
    } else {
        memcpy(ps->part->summary, ps->costs, w * sizeof *ps->costs);
        ps->part->has_summary = 1;
        ps->summary_lineno = ps->lineno;
    }
    return TK_OK;
}

static tk_status header_number(tk_callgrind_parser *ps, const char *s, const char *e,
                               const char *key, uint64_t *out, int *has)
{
    s = skip_space(s, e);
    e = trim_end(s, e);
    const char *at = s;
    uint64_t v;
    tk_status rc = tk_cg_parse_u64(&s, e, &v, 0);
    if (rc != TK_OK || s != e) {
        char what[32];
        snprintf(what, sizeof what, "a number after '%s:'", key);
        return tk_cg_number_error(ps, rc == TK_OK ? TK_ERR_FORMAT : rc, at, e, what);
    }
    *out = v;
    *has = 1;
    return TK_OK;
}

tk_status tk_cg_header_line(tk_callgrind_parser *ps, const char *key, size_t klen, const char *s,
                            const char *e)
{
#define KEY(str) (klen == sizeof(str) - 1 && memcmp(key, str, sizeof(str) - 1) == 0)
    tk_status st;
    if (KEY("version") && ps->part && ps->part_has_events) {
        if ((st = tk_cg_begin_part(ps)) != TK_OK) return st;
    }
    int starts = KEY("part") || KEY("pid") || KEY("thread") || KEY("positions") || KEY("events") ||
                 KEY("version") || KEY("creator") || KEY("cmd");
    if ((st = tk_cg_header_part(ps, starts)) != TK_OK) return st;
    tk_prof_part *part = ps->part;
    if (KEY("events")) return header_events(ps, s, e);
    if (KEY("positions")) {
        if (ps->part_has_events)
            tk_cg_warn_at(ps, key, "'positions:' after 'events:' (callgrind writes it before)");
        return header_positions(ps, s, e);
    }
    if (KEY("summary")) return header_costs(ps, key, s, e, 0);
    if (KEY("totals")) return header_costs(ps, key, s, e, 1);
    if (KEY("event")) return header_event(ps, s, e);
    if (KEY("part")) return header_number(ps, s, e, "part", &part->number, &part->has_number);
    if (KEY("pid")) return header_number(ps, s, e, "pid", &part->pid, &part->has_pid);
    if (KEY("thread")) return header_number(ps, s, e, "thread", &part->thread, &part->has_thread);
    if (KEY("version")) {
        const char *v = skip_space(s, e);
        const char *ve = trim_end(v, e);
        if (ve - v == 1 && *v == '1') return TK_OK;
        return tk_cg_fail_at(ps, TK_ERR_UNSUPPORTED, v,
                             "unsupported format version '%.*s' (expected 1)",
                             (int)(ve - v > 40 ? 40 : ve - v), v);
    }
    if (KEY("cmd") || KEY("creator")) {
        const char *v = skip_space(s, e);
        const char *ve = trim_end(v, e);
        if (KEY("creator")) ps->creator_callgrind = ve - v >= 9 && memcmp(v, "callgrind", 9) == 0;
        if (tk_profile_part_set_string(KEY("cmd") ? &part->cmd : &part->creator, v,
                                       (size_t)(ve - v), NULL) != TK_OK)
            return tk_cg_nomem(ps);
        return TK_OK;
    }
    if (KEY("desc")) {
        const char *v = skip_space(s, e);
        const char *ve = e;
        while (ve > v && e[-1] == '\r') ve--;
        if (tk_profile_part_add_desc(part, v, (size_t)(ve - v), NULL) != TK_OK)
            return tk_cg_nomem(ps);
        return TK_OK;
    }
    /* Keys real tools write that the spec does not list: ignored. */
    if (KEY("arch") || KEY("timeframe (BB)")) return TK_OK;
    tk_cg_warn_at(ps, key, "unknown header key '%.*s:' ignored", (int)(klen > 60 ? 60 : klen), key);
    return TK_OK;
#undef KEY
}
