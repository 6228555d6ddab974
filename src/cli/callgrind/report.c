/* tracekit report for callgrind profiles: totals and the table of functions
 * (or files, objects, lines) by self or inclusive cost, text, JSON or CSV;
 * with --tree, each function's callers and callees. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

/* ---- number formatting ------------------------------------------------------------ */

/* put_padded into memory: appends at out (room for 64 bytes), returns the new end. */
static char *fmt_padded(char *out, uint64_t v, int width)
{
    static const uint64_t pow10[20] = {1ULL,
                                       10ULL,
                                       100ULL,
                                       1000ULL,
                                       10000ULL,
                                       100000ULL,
                                       1000000ULL,
                                       10000000ULL,
                                       100000000ULL,
                                       1000000000ULL,
                                       10000000000ULL,
                                       100000000000ULL,
                                       1000000000000ULL,
                                       10000000000000ULL,
                                       100000000000000ULL,
                                       1000000000000000ULL,
                                       10000000000000000ULL,
                                       100000000000000000ULL,
                                       1000000000000000000ULL,
                                       10000000000000000000ULL};
    /* digits of v: log10 from the bit length, corrected by one comparison */
    int bits = 64 - __builtin_clzll(v | 1);
    int digits = (bits * 1233) >> 12;
    digits += (v | 1) >= pow10[digits];
    int len = digits + (digits - 1) / 3;
    if (width > 64) width = 64; /* put_padded's limit */
    if (width <= 32)
        memset(out, ' ', 32);
    else
        memset(out, ' ', 64);
    char *end = out + (len > width ? len : width);
    char *p = end;
    for (int group = 0;;) {
        *--p = (char)('0' + v % 10);
        v /= 10;
        if (!v) break;
        if (++group == 3) {
            *--p = ',';
            group = 0;
        }
    }
    return end;
}

static int width_commas(uint64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d + (d - 1) / 3;
}

static double pct(uint64_t v, uint64_t total)
{
    return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* " ( 12.3%) ", like printf(" (%5.1f%%) ") for 0..999.9, without printf: appends at out
 * (room for 64 bytes), returns the new end. */
static char *fmt_pct(char *out, double v)
{
    if (!(v >= 0) || v >= 999.95) {
        int n = snprintf(out, 64, " (%5.1f%%) ", v);
        return out + (n < 0 ? 0 : n > 63 ? 63 : n);
    }
    unsigned t = (unsigned)(v * 10.0 + 0.5);
    unsigned whole = t / 10;
    out[0] = ' ';
    out[1] = '(';
    out[2] = whole >= 100 ? (char)('0' + whole / 100) : ' ';
    out[3] = whole >= 10 ? (char)('0' + whole / 10 % 10) : ' ';
    out[4] = (char)('0' + whole % 10);
    out[5] = '.';
    out[6] = (char)('0' + t % 10);
    memcpy(out + 7, "%) ", 3);
    return out + 10;
}

/* The cost per call, cost / calls with one decimal, right-aligned in width + 2 characters
 * ("1,234.5"; blank without calls): appends at out (room for 64 bytes), returns the new end. */
static char *fmt_per_call(char *out, uint64_t cost, uint64_t calls, int width)
{
    if (!calls) {
        memset(out, ' ', (size_t)width + 2);
        return out + width + 2;
    }
    double v = (double)cost / (double)calls;
    uint64_t t = v < 1e17 ? (uint64_t)(v * 10.0 + 0.5) : (uint64_t)v * 10;
    char *r = fmt_padded(out, t / 10, width);
    *r++ = '.';
    *r++ = (char)('0' + t % 10);
    return r;
}

/* ---- report --------------------------------------------------------------------- */

/* " <cycle N>" into tag (32 bytes): the mark of a member of a call cycle, as
 * gprof and KCachegrind write it. Returns its length. */
static size_t cycle_tag(char *tag, uint32_t cycle)
{
    int n = snprintf(tag, 32, " <cycle %" PRIu32 ">", cycle);
    return n > 0 ? (size_t)n : 0;
}

/* ,"cycles":[...] when the summary has call cycles */
static void json_cycles(FILE *f, const tk_prof_summary *s)
{
    tk_prof_summary_info si;
    tk_prof_summary_get(s, &si);
    if (!si.n_cycles) return;
    fputs(",\"cycles\":[", f);
    for (size_t c = 0; c < si.n_cycles; c++) {
        tk_prof_cycle_info cy;
        tk_prof_cycle_get(s, c + 1, &cy);
        fprintf(f, "%s{\"cycle\":%zu,\"members\":%zu,\"calls\":%" PRIu64 ",\"self\":", c ? "," : "",
                c + 1, cy.members, cy.calls);
        cli_callgrind_json_u64s(f, cy.self, si.n_events);
        fputs(",\"inclusive\":", f);
        cli_callgrind_json_u64s(f, cy.inclusive, si.n_events);
        fputc('}', f);
    }
    fputc(']', f);
}

const cli_opt cli_callgrind_report_opts[] = {
    {"by", 0, "KEY",
     "function (default), file-function (callgrind_annotate's key), file, object, "
     "line"},
    {"sort", 's', "EVENT[,EVENT]", "sort by these events (default: the first event)"},
    CLI_TOP_OPT("rows"),
    CLI_ALL_OPT("rows"),
    {"threshold", 0, "PCT",
     "the rows, in order, until their self costs cover PCT% of the total "
     "of the first sort event (callgrind_annotate's --threshold; not "
     "with --inclusive)"},
    {"coverage", 0, "PCT", "the same as --threshold"},
    {"min-share", 0, "PCT", "hide rows whose sort cost is below PCT% of the total"},
    {"inclusive", 0, NULL, "sort by and show inclusive costs"},
    {"show", 0, "EVENT[,EVENT]",
     "text: only these event columns (callgrind_annotate --show), "
     "default all"},
    {"tree", 0, "KIND",
     "caller, calling, both or none (default): list each function's "
     "callers (<) and/or callees (>) with the calls' counts and "
     "inclusive costs, as "
     "callgrind_annotate --tree"},
    {"focus", 0, "FUNC",
     "only the call tree through FUNC (its name, or its name without a "
     "context suffix): it, what it calls and what calls it, as gprof2dot "
     "-z and -l; by function or file-function"},
    {"strip", 0, NULL,
     "names without C++ template arguments and parameter lists, as "
     "gprof2dot --strip and KCachegrind's Shorten Templates"},
    {"cycles", 0, NULL,
     "list the call cycles (functions that call each other) as units: "
     "members, calls from outside, self and inclusive cost; a member's "
     "inclusive cost is an estimate"},
    {"part", 0, "N", "only part N (1-based, over all files), default: all parts combined"},
    {"format", 0, "FMT", "text (default), json or csv"},
    {"jobs", 'j', "N", "read N profiles at once (default: the number of CPUs)"},
    CLI_OUTPUT_OPTS,
    {NULL, 0, NULL, NULL},
};

/* Derived events ("event: Sum = Ir + 2 Dr") evaluated on a cost vector;
 * ok[i] = 0 when the formula cannot be evaluated (unknown event, overflow). */
static void eval_derived(const tk_profile *p, const uint64_t *costs, uint64_t *out, int *ok)
{
    for (size_t i = 0; i < tk_profile_derived_count(p); i++)
        ok[i] = tk_profile_eval_derived(p, i, costs, &out[i], NULL) == TK_OK;
}

static void json_derived(FILE *f, const tk_profile *p, const uint64_t *costs)
{
    uint64_t v[TK_PROFILE_MAX_EVENTS];
    int ok[TK_PROFILE_MAX_EVENTS];
    eval_derived(p, costs, v, ok);
    fputc('[', f);
    for (size_t i = 0; i < tk_profile_derived_count(p); i++) {
        if (i) fputc(',', f);
        if (ok[i])
            cli_callgrind_put_u64(f, v[i]);
        else
            fputs("null", f);
    }
    fputc(']', f);
}

static void csv_derived(FILE *f, const tk_profile *p, const uint64_t *costs)
{
    uint64_t v[TK_PROFILE_MAX_EVENTS];
    int ok[TK_PROFILE_MAX_EVENTS];
    eval_derived(p, costs, v, ok);
    for (size_t i = 0; i < tk_profile_derived_count(p); i++) {
        fputc(',', f);
        if (ok[i]) cli_callgrind_put_u64(f, v[i]);
    }
}

/* --by: what a row of the table is */
static const cli_choice report_groups[] = {
    {"function", TK_GROUP_FUNCTION}, {"file-function", TK_GROUP_FILE_FUNCTION},
    {"file", TK_GROUP_FILE},         {"object", TK_GROUP_OBJECT},
    {"line", TK_GROUP_LINE},         {NULL, 0}};

static const char *group_name(tk_prof_group g)
{
    for (const cli_choice *c = report_groups; c->name; c++)
        if (c->value == (int)g) return c->name;
    return "";
}

/* --strip: C++ template arguments and parameter lists dropped from the names shown */
#define NAME_MAX_SHOWN 8192

/* The name of id as shown: "dflt" when there is none, shortened (tk_short_name) into buf
 * (NAME_MAX_SHOWN bytes) with strip. */
static const char *shown_name(const tk_profile *p, uint32_t id, const char *dflt, int strip,
                              char *buf)
{
    const char *n = cli_callgrind_str_or(p, id, dflt);
    return strip && n != dflt ? tk_short_name(n, buf, NAME_MAX_SHOWN) : n;
}

static void entry_label(FILE *f, const tk_profile *p, tk_prof_group g, int strip,
                        const tk_prof_entry_info *e)
{
    char buf[NAME_MAX_SHOWN];
    switch (g) {
    case TK_GROUP_FUNCTION: {
        const char *n = shown_name(p, e->name, "???", strip, buf);
        const char *o = cli_callgrind_str_or(p, e->object, "???");
        const char *fl = cli_callgrind_str_or(p, e->file, "???");
        out_write(n, strlen(n), f);
        out_write(" [", 2, f);
        out_write(o, strlen(o), f);
        out_write("] ", 2, f);
        out_write(fl, strlen(fl), f);
        break;
    }
    case TK_GROUP_FILE_FUNCTION:
        fprintf(f, "%s:%s", cli_callgrind_str_or(p, e->file, "???"),
                shown_name(p, e->name, "???", strip, buf));
        break;
    case TK_GROUP_FILE: fputs(cli_callgrind_str_or(p, e->file, "???"), f); break;
    case TK_GROUP_OBJECT: fputs(cli_callgrind_str_or(p, e->object, "???"), f); break;
    case TK_GROUP_LINE:
        fprintf(f, "%s:%" PRIu64, cli_callgrind_str_or(p, e->file, "???"), e->line);
        break;
    }
}

/* Text rows are collected in a 1 MiB buffer and written with one fwrite
 * each time it fills: a report can be as large as its input (long context
 * names), and stdio's own 4 KiB buffer would make one write(2) per 4 KiB. */
typedef struct row_buf {
    char *b;
    size_t n, cap;
    FILE *f;
} row_buf;

static void rb_flush(row_buf *o)
{
    if (o->n) out_write(o->b, o->n, o->f);
    o->n = 0;
}

static void rb_put(row_buf *o, const char *p, size_t n)
{
    if (o->n + n > o->cap) {
        rb_flush(o);
        if (n > o->cap) {
            out_write(p, n, o->f);
            return;
        }
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

/* A name of the profile, "???" when it has none (as str_or). */
static void rb_put_str(row_buf *o, const tk_profile *p, uint32_t id)
{
    size_t n = id == TK_PROF_NONE ? 0 : tk_profile_str_len(p, id);
    if (n)
        rb_put(o, tk_profile_str(p, id), n);
    else
        rb_put(o, "???", 3);
}

/* ---- report --tree ---------------------------------------------------------------- */

/* --tree: which ends of each function's calls it lists (bits) */
enum { TREE_NONE = 0, TREE_CALLERS = 1, TREE_CALLEES = 2, TREE_BOTH = 3 };
static const cli_choice report_trees[] = {{"none", TREE_NONE},
                                          {"caller", TREE_CALLERS},
                                          {"calling", TREE_CALLEES},
                                          {"both", TREE_BOTH},
                                          {NULL, 0}};

/* One text row of a tree: costs (the entry's, or a call's inclusive cost in
 * the inclusive columns when the table has them), calls, mark, label. */
static void tree_row(FILE *f, const tk_profile *p, tk_prof_group group, int strip,
                     const uint64_t *totals, const tk_prof_entry_info *e, const uint64_t *self,
                     const uint64_t *incl, uint64_t calls, const char *mark, const int *w,
                     size_t primary, const size_t *col, size_t ncol)
{
    char row[(2 * TK_PROFILE_MAX_EVENTS + 1) * 2 * 64];
    char *r = row;
    for (int pass = 0; pass < 2; pass++) {
        const uint64_t *v = pass ? incl : self;
        if (pass && !incl) break;
        for (size_t c = 0; c < ncol; c++) {
            size_t j = col[c];
            size_t width = (size_t)w[j] + (j == primary ? 10 : 1);
            if (!v) {
                memset(r, ' ', width);
                r += width;
                continue;
            }
            r = fmt_padded(r, v[j], w[j]);
            if (j == primary)
                r = fmt_pct(r, pct(v[j], totals[j]));
            else
                *r++ = ' ';
        }
    }
    r = fmt_padded(r, calls, 10);
    *r++ = ' ';
    r = fmt_per_call(r, (incl ? incl : self) ? (incl ? incl : self)[primary] : 0, calls,
                     w[primary]);
    *r++ = ' ';
    out_write(row, (size_t)(r - row), f);
    fputs(mark, f);
    entry_label(f, p, group, strip, e);
    out_char('\n', f);
}

/* The text table with each function's callers and callees around it. */
static void tree_text(FILE *f, const tk_profile *p, tk_prof_group group, int strip,
                      const tk_prof_summary *s, const tk_prof_report *rep, size_t limit, int tree,
                      int inclusive, size_t primary, const int *w, const size_t *col, size_t ncol,
                      size_t *idx)
{
    const tk_prof_arcs *a = tk_prof_report_arcs(rep);
    tk_prof_summary_info si;
    tk_prof_summary_get(s, &si);
    for (size_t i = 0; i < limit; i++) {
        tk_prof_entry_info e;
        tk_prof_entry_get(s, i, &e);
        if (i) out_char('\n', f);
        for (int side = 0; side < 2; side++) {
            if (side == 0 && !(tree & TREE_CALLERS)) continue;
            if (side == 1) /* the function itself, between its callers and callees */
                tree_row(f, p, group, strip, si.totals, &e, e.self, inclusive ? e.inclusive : NULL,
                         e.calls, "* ", w, primary, col, ncol);
            if (side == 1 && !(tree & TREE_CALLEES)) continue;
            size_t n = tk_prof_report_tree(rep, i, side, idx);
            for (size_t k = 0; k < n; k++) {
                tk_prof_arc_info arc;
                tk_prof_entry_info other;
                tk_prof_arc_get(a, idx[k], &arc);
                tk_prof_entry_get(s, side ? arc.callee : arc.caller, &other);
                tree_row(f, p, group, strip, si.totals, &other, inclusive ? NULL : arc.inclusive,
                         inclusive ? arc.inclusive : NULL, arc.calls, side ? "  > " : "  < ", w,
                         primary, col, ncol);
            }
        }
    }
}

/* ,"callers":[...],"callees":[...] of entry i (as the tree asks). */
static void tree_json(FILE *f, const tk_profile *p, int strip, const tk_prof_summary *s,
                      const tk_prof_report *rep, size_t i, int tree, size_t *idx)
{
    const tk_prof_arcs *a = tk_prof_report_arcs(rep);
    size_t nev = tk_profile_event_count(p);
    for (int side = 0; side < 2; side++) {
        if (!(tree & (side ? TREE_CALLEES : TREE_CALLERS))) continue;
        fputs(side ? ",\"callees\":[" : ",\"callers\":[", f);
        size_t n = tk_prof_report_tree(rep, i, side, idx);
        for (size_t k = 0; k < n; k++) {
            tk_prof_arc_info arc;
            tk_prof_entry_info o;
            tk_prof_arc_get(a, idx[k], &arc);
            tk_prof_entry_get(s, side ? arc.callee : arc.caller, &o);
            fputs(k ? ",{\"object\":" : "{\"object\":", f);
            cli_put_json_string(f, cli_callgrind_str_or(p, o.object, ""));
            fputs(",\"file\":", f);
            cli_put_json_string(f, cli_callgrind_str_or(p, o.file, ""));
            fputs(",\"name\":", f);
            char buf[NAME_MAX_SHOWN];
            cli_put_json_string(f, shown_name(p, o.name, "", strip, buf));
            fprintf(f, ",\"calls\":%" PRIu64 ",\"inclusive\":", arc.calls);
            cli_callgrind_json_u64s(f, arc.inclusive, nev);
            fputc('}', f);
        }
        fputc(']', f);
    }
}

/* One member of cycle c in a --cycles listing (first: the cycle's first). */
static void cycle_member(FILE *f, const tk_profile *p, int strip, const tk_prof_summary *s, int fmt,
                         tk_prof_group group, size_t primary, size_t c, int not_first,
                         const tk_prof_entry_info *e)
{
    char buf[NAME_MAX_SHOWN];
    tk_prof_summary_info si;
    tk_prof_cycle_info cyi, *cy = &cyi;
    tk_prof_summary_get(s, &si);
    tk_prof_cycle_get(s, c, &cyi);
    size_t nev = si.n_events;
    uint64_t total = nev ? si.totals[primary] : 0;
    if (fmt == CLI_OUT_JSON) {
        fputs(not_first ? ",{\"object\":" : "{\"object\":", f);
        cli_put_json_string(f, cli_callgrind_str_or(p, e->object, ""));
        fputs(",\"file\":", f);
        cli_put_json_string(f, cli_callgrind_str_or(p, e->file, ""));
        fputs(",\"name\":", f);
        cli_put_json_string(f, shown_name(p, e->name, "", strip, buf));
        fputs(",\"self\":", f);
        cli_callgrind_json_u64s(f, e->self, nev);
        fputs(",\"inclusive\":", f);
        cli_callgrind_json_u64s(f, e->inclusive, nev);
        fprintf(f, ",\"calls\":%" PRIu64 ",\"estimated\":%s}", e->calls,
                e->estimated ? "true" : "false");
    } else if (fmt == CLI_OUT_CSV) {
        fprintf(f, "%zu,%zu,%" PRIu64, c, cy->members, cy->calls);
        for (size_t j = 0; j < nev; j++) fprintf(f, ",%" PRIu64, cy->inclusive[j]);
        fputc(',', f);
        cli_put_csv_field(f, cli_callgrind_str_or(p, e->object, ""));
        fputc(',', f);
        cli_put_csv_field(f, cli_callgrind_str_or(p, e->file, ""));
        fputc(',', f);
        cli_put_csv_field(f, shown_name(p, e->name, "", strip, buf));
        for (size_t j = 0; j < nev; j++) fprintf(f, ",%" PRIu64, e->self[j]);
        for (size_t j = 0; j < nev; j++) fprintf(f, ",%" PRIu64, e->inclusive[j]);
        fprintf(f, ",%" PRIu64 ",%d\n", e->calls, e->estimated ? 1 : 0);
    } else {
        fputs("  ", f);
        cli_callgrind_put_padded(f, nev ? e->self[primary] : 0, 14);
        fprintf(f, " (%5.1f%%) ", pct(nev ? e->self[primary] : 0, total));
        cli_callgrind_put_padded(f, nev ? e->inclusive[primary] : 0, 14);
        fprintf(f, " (%5.1f%%) %s ", pct(nev ? e->inclusive[primary] : 0, total),
                e->estimated ? "~" : " ");
        cli_callgrind_put_padded(f, e->calls, 10);
        fputc(' ', f);
        entry_label(f, p, group, strip, e);
        fputc('\n', f);
    }
}

static void cycles_head(FILE *f, const tk_profile *p, const tk_prof_summary *s, int fmt)
{
    tk_prof_summary_info si;
    tk_prof_summary_get(s, &si);
    size_t nev = si.n_events;
    if (fmt == CLI_OUT_JSON) {
        fputs("{\"version\":1,\"format\":\"callgrind\",\"events\":", f);
        cli_callgrind_json_events(f, p);
        fputs(",\"totals\":", f);
        cli_callgrind_json_u64s(f, si.totals, nev);
        fputs(",\"cycles\":[", f);
    } else if (fmt == CLI_OUT_CSV) {
        fputs("cycle,cycle_members,cycle_calls", f);
        for (size_t j = 0; j < nev; j++)
            fprintf(f, ",cycle_inclusive_%s", tk_profile_event_name(p, j));
        fputs(",object,file,name", f);
        for (size_t j = 0; j < nev; j++) fprintf(f, ",self_%s", tk_profile_event_name(p, j));
        for (size_t j = 0; j < nev; j++) fprintf(f, ",inclusive_%s", tk_profile_event_name(p, j));
        fputs(",calls,estimated\n", f);
    } else {
        fprintf(f, "call cycles: %zu\n", si.n_cycles);
        if (si.n_cycles)
            fputs("A cycle's inclusive cost is exact (calls into a cycle from outside never "
                  "nest); its members' marked ~ are estimates.\n",
                  f);
    }
}

/* The line (text) or the start of the object (JSON) of cycle c. */
static void cycle_head(FILE *f, const tk_profile *p, const tk_prof_summary *s, int fmt,
                       size_t primary, size_t c)
{
    tk_prof_summary_info si;
    tk_prof_cycle_info cyi, *cy = &cyi;
    tk_prof_summary_get(s, &si);
    tk_prof_cycle_get(s, c, &cyi);
    size_t nev = si.n_events;
    const char *ev = nev ? tk_profile_event_name(p, primary) : "";
    uint64_t total = nev ? si.totals[primary] : 0;
    if (fmt == CLI_OUT_JSON) {
        fprintf(f, "%s\n{\"cycle\":%zu,\"calls\":%" PRIu64 ",\"self\":", c > 1 ? "," : "", c,
                cy->calls);
        cli_callgrind_json_u64s(f, cy->self, nev);
        fputs(",\"inclusive\":", f);
        cli_callgrind_json_u64s(f, cy->inclusive, nev);
        fputs(",\"members\":[", f);
    } else if (fmt == CLI_OUT_TEXT) {
        fprintf(f, "\ncycle %zu: %zu member%s, ", c, cy->members, cy->members == 1 ? "" : "s");
        cli_callgrind_put_commas(f, cy->calls);
        fprintf(f, " call%s from outside, %s self ", cy->calls == 1 ? "" : "s", ev);
        if (nev) cli_callgrind_put_commas(f, cy->self[primary]);
        fprintf(f, " (%.1f%%), inclusive ", pct(nev ? cy->self[primary] : 0, total));
        if (nev) cli_callgrind_put_commas(f, cy->inclusive[primary]);
        fprintf(f, " (%.1f%%)\n", pct(nev ? cy->inclusive[primary] : 0, total));
    }
}

/* report --cycles: each call cycle as a unit (its members' self costs added,
 * its inclusive cost, the calls into it from outside), then its members,
 * heaviest inclusive first (at most `top`, 0: all). The entries are
 * sorted by inclusive cost. */
static void cycles_report(FILE *f, const tk_profile *p, int strip, const tk_prof_report *rep,
                          int fmt, tk_prof_group group, uint64_t top)
{
    const tk_prof_summary *s = tk_prof_report_summary(rep);
    tk_prof_summary_info si;
    tk_prof_summary_get(s, &si);
    size_t primary = tk_prof_report_primary(rep);
    cycles_head(f, p, s, fmt);
    for (size_t c = 1; c <= si.n_cycles; c++) {
        cycle_head(f, p, s, fmt, primary, c);
        size_t limit = top ? (size_t)top : SIZE_MAX;
        const size_t *members;
        size_t n = tk_prof_report_cycle(rep, c, &members);
        for (size_t k = 0; k < n && k < limit; k++) {
            tk_prof_entry_info e;
            tk_prof_entry_get(s, members[k], &e);
            cycle_member(f, p, strip, s, fmt, group, primary, c, k > 0, &e);
        }
        if (fmt == CLI_OUT_JSON) fputs("]}", f);
        if (fmt == CLI_OUT_TEXT && n > limit)
            fprintf(f, "  (%zu more member%s not shown: --all shows them)\n", n - limit,
                    cli_s(n - limit));
    }
    const char *ev = si.n_events ? tk_profile_event_name(p, primary) : "";
    if (fmt == CLI_OUT_JSON) fputs("\n]}\n", f);
    if (fmt == CLI_OUT_TEXT && si.n_cycles)
        fprintf(f, "\ncolumns: %s self, %s inclusive (~: an estimate), calls, function\n", ev, ev);
}

/* The reading's warnings in the report's header: one line each in text, a
 * "warnings" array in JSON (neither when there are none). */
static void notes_text(FILE *f, const cli_callgrind_notes *n)
{
    for (size_t i = 0; i < n->count; i++) {
        tk_location loc = {n->v[i].path, -1, n->v[i].line, 1};
        char buf[TK_ERROR_MSG_MAX + TK_ERROR_PATH_MAX + 128];
        fprintf(f, "%s\n", tk_diag_format(TK_SEV_WARNING, &loc, n->v[i].message, buf, sizeof buf));
    }
    if (n->more) fprintf(f, "(%" PRIu64 " more warnings)\n", n->more);
}

static void notes_json(FILE *f, const cli_callgrind_notes *n)
{
    if (!n->count) return;
    fputs(",\"warnings\":[", f);
    for (size_t i = 0; i < n->count; i++) {
        fputs(i ? ",{\"path\":" : "{\"path\":", f);
        cli_put_json_string(f, n->v[i].path);
        fprintf(f, ",\"line\":%" PRIu64 ",\"message\":", n->v[i].line);
        cli_put_json_string(f, n->v[i].message);
        fputc('}', f);
    }
    fputc(']', f);
}


/* ---- what report was asked for, and the table it computes ---------------------------- */

typedef struct settings {
    tk_prof_group group; /* --by */
    int fmt; /* CLI_OUT_TEXT, _JSON or _CSV */
    int tree; /* TREE_* */
    int cycles, inclusive, strip;
    const char *focus; /* --focus */
    uint64_t part;
    cli_rows rows; /* -n, --threshold, --all */
    double min_share;
    unsigned jobs; /* -j */
    /* once the profile is read: */
    size_t sort[4], nsort; /* the sort events */
    size_t primary; /* the first of them (or 0) */
    size_t col[TK_PROFILE_MAX_EVENTS], ncol; /* the event columns of a text table */
} settings;

static int parse_settings(const cli_args *args, settings *o)
{
    const char *cmd = "report";
    memset(o, 0, sizeof *o);
    int by = cli_get_choice(cmd, args, "by", report_groups, TK_GROUP_FUNCTION);
    o->fmt = cli_get_choice(cmd, args, "format", cli_out_text_json_csv, CLI_OUT_TEXT);
    o->inclusive = cli_has(args, "inclusive");
    o->tree = cli_get_choice(cmd, args, "tree", report_trees, TREE_NONE);
    if (o->tree < 0) return CLI_EXIT_USAGE;
    /* the rows of every table (docs/cli.md); --threshold is callgrind_annotate's */
    if (by < 0 || o->fmt < 0 || cli_get_rows(cmd, args, o->fmt == CLI_OUT_TEXT, &o->rows) ||
        cli_get_u64(cmd, args, "part", 0, &o->part) || cli_get_jobs(cmd, args, &o->jobs) ||
        cli_get_double(cmd, args, "min-share", 0.0, &o->min_share))
        return CLI_EXIT_USAGE;
    o->cycles = cli_has(args, "cycles");
    if (o->rows.threshold < 100.0 && (o->inclusive || o->cycles))
        return cli_usage_error(cmd, "--threshold: inclusive costs overlap (a caller's include "
                                    "its callees'), no rows cover a share of the total: use "
                                    "-n N");
    o->group = (tk_prof_group)by;
    int functions = o->group == TK_GROUP_FUNCTION || o->group == TK_GROUP_FILE_FUNCTION;
    if (o->tree && !functions)
        return cli_usage_error(cmd, "--tree lists the callers and callees of functions: "
                                    "use it with --by function or file-function");
    if (o->tree && o->fmt == CLI_OUT_CSV)
        return cli_usage_error(cmd, "--tree is for text and json output");
    o->strip = cli_has(args, "strip");
    o->focus = cli_get(args, "focus");
    if (o->focus && !functions)
        return cli_usage_error(cmd, "--focus follows the calls of functions: use it with --by "
                                    "function or file-function");
    if (o->cycles && (o->tree || !functions))
        return cli_usage_error(cmd, "--cycles lists call cycles of functions: use it with --by "
                                    "function or file-function, without --tree");
    if (o->cycles) o->inclusive = 1;
    return CLI_EXIT_OK;
}

/* --sort and --show, once the profile's events are known. */
static int parse_events(const cli_args *args, const tk_profile *p, settings *o)
{
    const char *cmd = "report";
    size_t nev = tk_profile_event_count(p);
    o->nsort = nev ? 1 : 0;
    const char *sortarg = cli_get(args, "sort");
    if (sortarg) {
        int n = cli_callgrind_event_list(cmd, "sort", p, sortarg, o->sort, 4);
        if (n < 0) return CLI_EXIT_USAGE;
        o->nsort = (size_t)n;
    }
    o->primary = o->nsort ? o->sort[0] : 0;
    o->ncol = nev;
    for (size_t j = 0; j < nev; j++) o->col[j] = j;
    const char *showarg = cli_get(args, "show");
    if (showarg) {
        int n = cli_callgrind_event_list(cmd, "show", p, showarg, o->col, TK_PROFILE_MAX_EVENTS);
        if (n < 0) return CLI_EXIT_USAGE;
        o->ncol = (size_t)n;
    }
    return CLI_EXIT_OK;
}

/* What the report shows: the profile, the report's summary in the sort order, the
 * rows shown (the first `limit`) and, with --tree, the call arcs between them. */
typedef struct table {
    tk_profile *p; /* the profile, or the names of pp */
    tk_prof_partial *pp; /* several inputs: their summary partial (or NULL) */
    size_t nparts;
    size_t nev, nder; /* events and derived events */
    tk_prof_report *rep;
    const tk_prof_summary *s;
    tk_prof_summary_info si; /* of s */
    size_t limit;
    const tk_prof_arcs *arcs;
    size_t *arc_idx; /* room for the arcs of one entry */
} table;

static void table_free(table *t)
{
    free(t->arc_idx);
    tk_prof_report_free(t->rep);
    if (t->pp)
        tk_prof_partial_free(t->pp);
    else
        tk_profile_free(t->p);
}

/* The report of the part(s) asked for (tk_prof_report_open); with --tree the arcs. */
static int summarize(const settings *o, int self_only, table *t)
{
    tk_error err;
    tk_error_clear(&err);
    tk_prof_report_options ro = TK_PROF_REPORT_OPTIONS_INIT;
    ro.group = o->group;
    ro.part = (size_t)o->part;
    memcpy(ro.sort, o->sort, sizeof ro.sort);
    ro.nsort = o->nsort;
    ro.inclusive = o->inclusive;
    ro.self_only = self_only;
    ro.threshold = o->min_share;
    ro.coverage = o->rows.threshold;
    ro.top = o->cycles ? 0 : o->rows.top; /* --cycles: -n is the members shown of each cycle */
    ro.tree = o->tree != TREE_NONE;
    ro.cycles = o->cycles;
    ro.focus = o->focus;
    tk_status st = t->pp ? tk_prof_report_open_partial(&t->rep, t->pp, &ro, &err)
                         : tk_prof_report_open(&t->rep, t->p, &ro, &err);
    if (st != TK_OK) {
        if (err.code == TK_ERR_ARG) { /* what the options ask cannot be: say which */
            const char *opt = o->focus && strstr(err.message, o->focus) ? "focus"
                              : o->part                                 ? "part"
                                                                        : NULL;
            return cli_usage_error("report", "%s%s%s%s", opt ? "option '--" : "", opt ? opt : "",
                                   opt ? "': " : "", err.message);
        }
        return cli_error(&err);
    }
    t->s = tk_prof_report_summary(t->rep);
    tk_prof_summary_get(t->s, &t->si);
    t->limit = tk_prof_report_rows(t->rep);
    t->arcs = tk_prof_report_arcs(t->rep);
    if (t->arcs && !(t->arc_idx = malloc((tk_prof_arcs_count(t->arcs) + 1) * sizeof *t->arc_idx))) {
        tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
        return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

static int compute_table(cli_ctx *ctx, const cli_args *args, settings *o,
                         cli_callgrind_notes *notes, table *t)
{
    /* the report needs no jumps; per function it needs no cost files either;
     * a text table of self costs shows no inclusive cost: the calls are only
     * counted, and the summary has no inclusive costs */
    int self_only = o->fmt == CLI_OUT_TEXT && !o->inclusive && !o->tree && !o->focus;
    tk_callgrind_read_options how = TK_CALLGRIND_READ_OPTIONS_INIT;
    how.detail =
        o->group == TK_GROUP_LINE ? TK_CALLGRIND_DETAIL_LINES : TK_CALLGRIND_DETAIL_FUNCTIONS;
    how.skip_jumps = 1;
    how.drop_files = o->group == TK_GROUP_FUNCTION;
    how.call_counts_only = self_only;
    int rc;
    if ((ctx->ninputs > 1 || ctx->team) && !o->part) { /* summaries of each, merged */
        tk_prof_partial_options po = {o->group, self_only};
        rc = cli_callgrind_load_summary(ctx, &how, &po, o->jobs, notes, &t->pp, &t->p);
        if (t->pp) t->p = (tk_profile *)(uintptr_t)tk_prof_partial_names(t->pp);
    } else {
        rc = cli_callgrind_load_jobs(ctx, &how, o->jobs, notes, &t->p);
    }
    if (rc || !t->p) return rc; /* no profile: a team's member, which prints nothing */
    t->nparts = t->pp ? tk_prof_partial_parts(t->pp) : tk_profile_part_count(t->p);
    t->nev = tk_profile_event_count(t->p);
    t->nder = tk_profile_derived_count(t->p);
    rc = parse_events(args, t->p, o);
    return rc ? rc : summarize(o, self_only, t);
}

/* ---- JSON and CSV ------------------------------------------------------------------ */

static void json_head(FILE *f, const settings *o, const table *t, const cli_callgrind_notes *n)
{
    const tk_profile *p = t->p;
    fprintf(f, "{\"version\":1,\"format\":\"callgrind\",\"by\":\"%s\",\"parts\":%zu,",
            group_name(o->group), o->part ? (size_t)1 : t->nparts);
    fputs("\"events\":", f);
    cli_callgrind_json_events(f, p);
    fputs(",\"totals\":", f);
    cli_callgrind_json_u64s(f, t->si.totals, t->nev);
    if (t->nder) {
        fputs(",\"derived_events\":[", f);
        for (size_t i = 0; i < t->nder; i++) {
            tk_prof_derived_info di, *d = &di;
            tk_profile_derived_get(p, i, &di);
            fputs(i ? ",{\"name\":" : "{\"name\":", f);
            cli_put_json_string(f, tk_profile_str(p, d->name));
            fputs(",\"formula\":", f);
            cli_put_json_string(f, tk_profile_str(p, d->formula));
            fputc('}', f);
        }
        fputs("],\"derived_totals\":", f);
        json_derived(f, p, t->si.totals);
    }
    notes_json(f, n);
    json_cycles(f, t->s);
}

static void json_entry(FILE *f, const settings *o, const table *t, size_t i)
{
    const tk_profile *p = t->p;
    tk_prof_entry_info ei, *e = &ei;
    tk_prof_entry_get(t->s, i, &ei);
    fputs(i ? ",\n{" : "\n{", f);
    fputs("\"object\":", f);
    cli_put_json_string(f, cli_callgrind_str_or(p, e->object, ""));
    fputs(",\"file\":", f);
    cli_put_json_string(f, cli_callgrind_str_or(p, e->file, ""));
    fputs(",\"name\":", f);
    char buf[NAME_MAX_SHOWN];
    cli_put_json_string(f, shown_name(p, e->name, "", o->strip, buf));
    if (o->group == TK_GROUP_LINE) fprintf(f, ",\"line\":%" PRIu64, e->line);
    fputs(",\"self\":", f);
    cli_callgrind_json_u64s(f, e->self, t->nev);
    fputs(",\"inclusive\":", f);
    cli_callgrind_json_u64s(f, e->inclusive, t->nev);
    if (t->nder) {
        fputs(",\"derived_self\":", f);
        json_derived(f, p, e->self);
        fputs(",\"derived_inclusive\":", f);
        json_derived(f, p, e->inclusive);
    }
    fprintf(f, ",\"calls\":%" PRIu64, e->calls);
    if (e->cycle)
        fprintf(f, ",\"cycle\":%" PRIu32 ",\"estimated\":%s", e->cycle,
                e->estimated ? "true" : "false");
    if (t->arcs) tree_json(f, p, o->strip, t->s, t->rep, i, o->tree, t->arc_idx);
    fputc('}', f);
}

static void report_json(FILE *f, const settings *o, const table *t, const cli_callgrind_notes *n)
{
    json_head(f, o, t, n);
    fputs(",\"functions\":[", f);
    for (size_t i = 0; i < t->limit; i++) json_entry(f, o, t, i);
    fputs("\n]}\n", f);
}

static const char *derived_name(const tk_profile *p, size_t i)
{
    tk_prof_derived_info d;
    tk_profile_derived_get(p, i, &d);
    return tk_profile_str(p, d.name);
}

static void csv_head(FILE *f, const table *t)
{
    const tk_profile *p = t->p;
    fputs("object,file,name,line", f);
    for (size_t i = 0; i < t->nev; i++) fprintf(f, ",self_%s", tk_profile_event_name(p, i));
    for (size_t i = 0; i < t->nev; i++) fprintf(f, ",inclusive_%s", tk_profile_event_name(p, i));
    fputs(",calls", f);
    for (size_t i = 0; i < t->nder; i++) fprintf(f, ",self_%s", derived_name(p, i));
    for (size_t i = 0; i < t->nder; i++) fprintf(f, ",inclusive_%s", derived_name(p, i));
    fputs(",cycle,estimated\n", f);
}

static void report_csv(FILE *f, const settings *o, const table *t)
{
    const tk_profile *p = t->p;
    csv_head(f, t);
    for (size_t i = 0; i < t->limit; i++) {
        tk_prof_entry_info ei, *e = &ei;
        tk_prof_entry_get(t->s, i, &ei);
        cli_put_csv_field(f, cli_callgrind_str_or(p, e->object, ""));
        fputc(',', f);
        cli_put_csv_field(f, cli_callgrind_str_or(p, e->file, ""));
        fputc(',', f);
        char buf[NAME_MAX_SHOWN];
        cli_put_csv_field(f, shown_name(p, e->name, "", o->strip, buf));
        fprintf(f, ",%" PRIu64, e->line);
        for (size_t j = 0; j < t->nev; j++) {
            fputc(',', f);
            cli_callgrind_put_u64(f, e->self[j]);
        }
        for (size_t j = 0; j < t->nev; j++) {
            fputc(',', f);
            cli_callgrind_put_u64(f, e->inclusive[j]);
        }
        fprintf(f, ",%" PRIu64, e->calls);
        csv_derived(f, p, e->self);
        csv_derived(f, p, e->inclusive);
        if (e->cycle)
            fprintf(f, ",%" PRIu32 ",%d\n", e->cycle, e->estimated ? 1 : 0);
        else
            fputs(",,0\n", f);
    }
}

/* ---- text -------------------------------------------------------------------------- */

/* Parts, events, program totals, derived events and the reading's warnings. */
static void text_totals(FILE *f, const settings *o, const table *t, const cli_callgrind_notes *n)
{
    const tk_profile *p = t->p;
    fprintf(f, "parts: %zu%s\n", o->part ? (size_t)1 : t->nparts, o->part ? " (selected)" : "");
    fputs("events:", f);
    for (size_t i = 0; i < t->nev; i++) fprintf(f, " %s", tk_profile_event_name(p, i));
    fputs("\n", f);
    fputs("program totals:", f);
    for (size_t c = 0; c < o->ncol; c++) {
        fputc(' ', f);
        cli_callgrind_put_commas(f, t->si.totals[o->col[c]]);
    }
    fputc('\n', f);
    if (t->nder) {
        uint64_t dv[TK_PROFILE_MAX_EVENTS];
        int ok[TK_PROFILE_MAX_EVENTS];
        eval_derived(p, t->si.totals, dv, ok);
        for (size_t i = 0; i < t->nder; i++) {
            tk_prof_derived_info di, *d = &di;
            tk_profile_derived_get(p, i, &di);
            fprintf(f, "derived %s = %s: ", tk_profile_str(p, d->name),
                    tk_profile_str(p, d->formula));
            if (ok[i])
                cli_callgrind_put_commas(f, dv[i]);
            else
                fputs("(cannot be evaluated)", f);
            fputc('\n', f);
        }
    }
    notes_text(f, n);
    fputc('\n', f);
}

/* The column headings; w: the width of each event's columns. */
static void text_columns(FILE *f, const settings *o, const table *t, int *w)
{
    const tk_profile *p = t->p;
    for (size_t j = 0; j < t->nev; j++) {
        w[j] = width_commas(t->si.totals[j]);
        int nl = (int)strlen(tk_profile_event_name(p, j)) + (o->inclusive ? 5 : 0);
        if (nl > w[j]) w[j] = nl;
    }
    for (size_t c = 0; c < o->ncol; c++) {
        size_t j = o->col[c];
        const char *n = tk_profile_event_name(p, j);
        if (j == o->primary)
            fprintf(f, "%*s %-9s", w[j], n, "");
        else
            fprintf(f, "%*s ", w[j], n);
    }
    if (o->inclusive)
        for (size_t c = 0; c < o->ncol; c++) {
            size_t j = o->col[c];
            char h[80];
            snprintf(h, sizeof h, "%s-incl", tk_profile_event_name(p, j));
            if (j == o->primary)
                fprintf(f, "%*s %-9s", w[j], h, "");
            else
                fprintf(f, "%*s ", w[j], h);
        }
    if (o->group == TK_GROUP_FUNCTION || o->group == TK_GROUP_FILE_FUNCTION) {
        /* the calls into each function; "called" (KCachegrind's word) where an event column
         * is named calls already (convert --to callgrind of an XRay trace: events ns calls) */
        const char *calls = "calls";
        for (size_t c = 0; c < o->ncol; c++)
            if (strcmp(tk_profile_event_name(p, o->col[c]), "calls") == 0) calls = "called";
        char h[80];
        snprintf(h, sizeof h, "%s/call", t->nev ? tk_profile_event_name(p, o->primary) : "");
        fprintf(f, "%10s %*s ", calls, t->nev ? w[o->primary] + 2 : 2, h);
    }
    fprintf(f, "%s\n", group_name(o->group));
}

/* The cost columns v of a text row into r (see fmt_padded); returns the new end. */
static char *cost_columns(char *r, const uint64_t *v, const settings *o, const int *w,
                          const uint64_t *totals)
{
    for (size_t c = 0; c < o->ncol; c++) {
        size_t j = o->col[c];
        r = fmt_padded(r, v[j], w[j]);
        if (j == o->primary)
            r = fmt_pct(r, pct(v[j], totals[j]));
        else
            *r++ = ' ';
    }
    return r;
}

/* The rows of the text table; returns whether one has a <cycle N> mark. */
static int text_rows(FILE *f, const settings *o, const table *t, const int *w)
{
    const tk_profile *p = t->p;
    const tk_prof_summary *s = t->s;
    size_t limit = t->limit;
    int by_function = o->group == TK_GROUP_FUNCTION;
    int calls = by_function || o->group == TK_GROUP_FILE_FUNCTION;
    /* each row's numbers are formatted in memory and written at once */
    char row[(2 * TK_PROFILE_MAX_EVENTS + 1) * 2 * 64];
    int tagged = 0;
    row_buf rb = {NULL, 0, 0, f};
    if (limit > 64 && (rb.b = malloc(1 << 20)) != NULL) rb.cap = 1 << 20;
    /* The rows are in cost order, their names and costs anywhere in
     * memory: look the names up first in a loop of independent loads
     * (the misses overlap), then fetch a few rows ahead (the entries of
     * the next AHEAD rows wait in a ring). */
    enum { AHEAD = 8 };
    const char **names = rb.b && by_function ? malloc(limit * sizeof *names) : NULL;
    tk_prof_entry_info ring[AHEAD], ei, *e = &ei;
    for (size_t i = 0; names && i < limit; i++) { /* NULL: "???" (rb_put_str) */
        tk_prof_entry_get(s, i, &ei);
        names[i] = tk_profile_str_len(p, ei.name) ? tk_profile_str(p, ei.name) : NULL;
    }
    for (size_t i = 0; i < AHEAD && i < limit; i++) tk_prof_entry_get(s, i, &ring[i]);
    for (size_t i = 0; i < limit; i++) {
        ei = ring[i % AHEAD];
        if (i + AHEAD < limit) {
            tk_prof_entry_get(s, i + AHEAD, &ring[i % AHEAD]);
            if (names) {
                __builtin_prefetch(names[i + AHEAD]);
                __builtin_prefetch(ring[i % AHEAD].self);
            }
        }
        char *r = cost_columns(row, e->self, o, w, t->si.totals);
        if (o->inclusive) r = cost_columns(r, e->inclusive, o, w, t->si.totals);
        if (calls) {
            r = fmt_padded(r, e->calls, 10);
            *r++ = ' ';
            const uint64_t *v = o->inclusive ? e->inclusive : e->self;
            r = fmt_per_call(r, t->nev ? v[o->primary] : 0, e->calls, t->nev ? w[o->primary] : 0);
            *r++ = ' ';
        }
        if (rb.b && by_function) {
            rb_put(&rb, row, (size_t)(r - row));
            if (o->strip) {
                char buf[NAME_MAX_SHOWN];
                const char *n = shown_name(p, e->name, "???", 1, buf);
                rb_put(&rb, n, strlen(n));
            } else if (names && names[i]) {
                rb_put(&rb, names[i], tk_profile_str_len(p, e->name));
            } else {
                rb_put_str(&rb, p, e->name);
            }
            rb_put(&rb, " [", 2);
            rb_put_str(&rb, p, e->object);
            rb_put(&rb, "] ", 2);
            rb_put_str(&rb, p, e->file);
            if (o->inclusive && e->estimated) {
                char tag[32];
                rb_put(&rb, tag, cycle_tag(tag, e->cycle));
                tagged = 1;
            }
            rb_put(&rb, "\n", 1);
            continue;
        }
        out_write(row, (size_t)(r - row), f);
        entry_label(f, p, o->group, o->strip, e);
        if (o->inclusive && e->estimated) {
            char tag[32];
            out_write(tag, cycle_tag(tag, e->cycle), f);
            tagged = 1;
        }
        out_char('\n', f);
    }
    rb_flush(&rb);
    free(rb.b);
    free(names);
    return tagged;
}

static void report_text(FILE *f, const settings *o, const table *t, const cli_callgrind_notes *n)
{
    int w[TK_PROFILE_MAX_EVENTS];
    text_totals(f, o, t, n);
    text_columns(f, o, t, w);
    size_t more = t->si.count - t->limit;
    if (t->arcs) {
        tree_text(f, t->p, o->group, o->strip, t->s, t->rep, t->limit, o->tree, o->inclusive,
                  o->primary, w, o->col, o->ncol, t->arc_idx);
        if (more) fputc('\n', f);
        cli_rows_note(f, t->limit, t->si.count, "row");
        return;
    }
    int tagged = text_rows(f, o, t, w);
    cli_rows_note(f, t->limit, t->si.count, "row");
    if (tagged)
        fputs("<cycle N>: a member of call cycle N, whose inclusive cost is an estimate "
              "(report --cycles lists the cycles)\n",
              f);
}

/* ---- the handler ------------------------------------------------------------------- */

int cli_callgrind_report(cli_ctx *ctx, const cli_args *args)
{
    settings o;
    int rc = parse_settings(args, &o);
    if (rc) return rc;
    cli_callgrind_notes notes = {NULL, 0, 0, 0};
    table t;
    memset(&t, 0, sizeof t);
    rc = compute_table(ctx, args, &o, &notes, &t);
    tk_output *out;
    int writes = rc == CLI_EXIT_OK && t.p; /* no profile: a team's member, which writes nothing */
    if (writes) rc = cli_output_open(args, 0, &out);
    if (writes && rc == CLI_EXIT_OK) {
        FILE *f = cli_output_file(out);
        if (o.cycles)
            cycles_report(f, t.p, o.strip, t.rep, o.fmt, o.group, o.rows.top);
        else if (o.fmt == CLI_OUT_JSON)
            report_json(f, &o, &t, &notes);
        else if (o.fmt == CLI_OUT_CSV)
            report_csv(f, &o, &t);
        else
            report_text(f, &o, &t, &notes);
        rc = cli_output_commit(out);
    }
    table_free(&t);
    cli_callgrind_notes_free(&notes);
    return rc;
}

const cli_opt_choices cli_callgrind_report_choices[] = {
    {"by", report_groups}, {"tree", report_trees}, {"format", cli_out_text_json_csv}, {NULL, NULL}};
