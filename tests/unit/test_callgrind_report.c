/* The Callgrind report and diffs through the public API (tracekit/profile_report.h): the
 * rows, callers and callees, call cycles and differences `tracekit report` and `tracekit
 * diff` print on the sample profiles (tests/cli/callgrind/). */
#include <stdio.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static tk_profile *load(const char *path, tk_callgrind_detail detail)
{
    tk_error err;
    tk_error_clear(&err);
    tk_profile *p = NULL;
    tk_input *in;
    if (!TK_CHECK(tk_profile_open(&p, NULL) == TK_OK) ||
        !TK_CHECK(tk_input_open(&in, path, NULL, &err) == TK_OK))
        return p;
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.detail = detail;
    o.skip_jumps = 1;
    TK_CHECK(tk_callgrind_read_input(p, in, &o, &err) == TK_OK);
    tk_input_free(in);
    return p;
}

/* Both profiles as parts 1 and 2 of one (what `diff` compares). */
static tk_profile *load_both(const char *a, const char *b)
{
    tk_error err;
    tk_error_clear(&err);
    tk_profile *both;
    if (!TK_CHECK(tk_profile_open(&both, NULL) == TK_OK)) return NULL;
    const char *paths[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        tk_profile *one = load(paths[i], TK_CALLGRIND_DETAIL_FUNCTIONS);
        tk_prof_part *into;
        TK_CHECK(tk_profile_add_part(both, &into, NULL) == TK_OK);
        TK_CHECK(tk_profile_merge(both, one, into, &err) == TK_OK);
        tk_profile_free(one);
    }
    return both;
}

/* Entry i of the summary (tk_prof_entry_get). */
static tk_prof_entry_info entry(const tk_prof_summary *s, size_t i)
{
    tk_prof_entry_info e;
    tk_prof_entry_get(s, i, &e);
    return e;
}

static const char *name_of(const tk_profile *p, const tk_prof_summary *s, size_t i)
{
    tk_prof_entry_info e = entry(s, i);
    return e.name == TK_PROF_NONE ? "" : tk_profile_str(p, e.name);
}

/* report mutual-recs.out: self costs, the first rows, coverage and top */
static void test_report_self(void)
{
    tk_profile *p =
        load("tests/data/callgrind/pass/mutual-recs.out", TK_CALLGRIND_DETAIL_FUNCTIONS);
    tk_error err;
    tk_error_clear(&err);
    tk_prof_report_options o = TK_PROF_REPORT_OPTIONS_INIT;
    o.self_only = 1;
    tk_prof_report *r;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_OK);
    const tk_prof_summary *s = tk_prof_report_summary(r);
    tk_prof_summary_info si;
    tk_prof_summary_get(s, &si);
    TK_CHECK_EQ_U64(si.totals[0], 519647);
    TK_CHECK_EQ_U64(si.n_events, 1);
    TK_CHECK(!si.inclusive);
    TK_CHECK(si.count >= 254);
    TK_CHECK_EQ_U64(tk_prof_report_rows(r), 254); /* every row with a cost */
    static const char *const names[] = {"work", "is_odd'3", "is_even'3"};
    static const uint64_t self[] = {332084, 29664, 25536}, calls[] = {4952, 2304, 2352};
    for (size_t i = 0; i < 3; i++) {
        tk_prof_entry_info e = entry(s, i);
        TK_CHECK_STR(name_of(p, s, i), names[i]);
        TK_CHECK_EQ_U64(e.self[0], self[i]);
        TK_CHECK_EQ_U64(e.calls, calls[i]);
        TK_CHECK(e.inclusive == NULL);
        TK_CHECK(e.fn != TK_PROF_NONE && e.object != TK_PROF_NONE);
    }
    /* past the end: zeros */
    tk_prof_entry_info past = entry(s, si.count);
    TK_CHECK(past.self == NULL && past.calls == 0 && past.name == 0);
    tk_prof_report_free(r);
    /* callgrind_annotate's cut at 99 % of the total: 72 rows */
    o.coverage = 99;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_prof_report_rows(r), 72);
    tk_prof_report_free(r);
    o.top = 3;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_prof_report_rows(r), 3);
    TK_CHECK(tk_prof_report_arcs(r) == NULL);
    tk_prof_report_free(r);
    /* bad options */
    o.sort[0] = 5;
    o.nsort = 1;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_ERR_ARG);
    o.nsort = 0;
    o.part = 9;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_ERR_ARG);
    tk_profile_free(p);
}

/* report mutual-recs.out --tree both --inclusive: the first entry's callees */
static void test_report_tree(void)
{
    tk_profile *p =
        load("tests/data/callgrind/pass/mutual-recs.out", TK_CALLGRIND_DETAIL_FUNCTIONS);
    tk_error err;
    tk_error_clear(&err);
    tk_prof_report_options o = TK_PROF_REPORT_OPTIONS_INIT;
    o.inclusive = 1;
    o.tree = 1;
    tk_prof_report *r;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_OK);
    const tk_prof_summary *s = tk_prof_report_summary(r);
    const tk_prof_arcs *a = tk_prof_report_arcs(r);
    if (!TK_CHECK(a != NULL)) return;
    TK_CHECK_STR(name_of(p, s, 0), "0x000000000001ab70");
    TK_CHECK_EQ_U64(entry(s, 0).inclusive[0], 519647);
    size_t idx[4096];
    size_t narcs = tk_prof_arcs_count(a);
    TK_CHECK(narcs > 3 && narcs <= 4096);
    size_t n = tk_prof_report_tree(r, 0, 1, idx);
    TK_CHECK_EQ_U64(n, 3);
    static const char *const callees[] = {"(below main)", "_dl_start", "_dl_init"};
    static const uint64_t incl[] = {398612, 120646, 374};
    tk_prof_arc_info arc;
    for (size_t k = 0; k < n && k < 3; k++) {
        tk_prof_arc_get(a, idx[k], &arc);
        TK_CHECK_EQ_U64(arc.caller, 0);
        TK_CHECK_STR(name_of(p, s, arc.callee), callees[k]);
        TK_CHECK_EQ_U64(arc.inclusive[0], incl[k]);
        TK_CHECK_EQ_U64(arc.calls, 1);
    }
    /* entry 1, (below main): one caller, the entry above */
    n = tk_prof_report_tree(r, 1, 0, idx);
    TK_CHECK_EQ_U64(n, 1);
    tk_prof_arc_get(a, idx[0], &arc);
    TK_CHECK_EQ_U64(arc.caller, 0);
    /* the arcs by callee, and through by_caller by caller: each arc once in each order */
    size_t first, into = 0, out = 0;
    tk_prof_arc_info prev = {0, 0, 0, NULL};
    for (size_t k = 0; k < narcs; k++) {
        tk_prof_arc_get(a, tk_prof_arcs_by_caller(a, k), &arc);
        TK_CHECK(k == 0 || prev.caller < arc.caller ||
                 (prev.caller == arc.caller && prev.callee < arc.callee));
        prev = arc;
    }
    for (size_t e = 0; e < tk_prof_report_rows(r); e++) {
        into += tk_prof_arcs_into(a, e, &first);
        out += tk_prof_arcs_out_of(a, e, &first);
    }
    TK_CHECK(into <= narcs && out <= narcs && into > 0 && out > 0);
    tk_prof_arc_get(a, narcs, &arc);
    TK_CHECK(arc.inclusive == NULL && arc.calls == 0);
    TK_CHECK_EQ_U64(tk_prof_arcs_by_caller(a, narcs), SIZE_MAX);
    tk_prof_report_free(r);
    tk_profile_free(p);
}

/* report mutual-recs.out --cycles: two cycles, their members by inclusive cost */
static void test_report_cycles(void)
{
    tk_profile *p =
        load("tests/data/callgrind/pass/mutual-recs.out", TK_CALLGRIND_DETAIL_FUNCTIONS);
    tk_error err;
    tk_error_clear(&err);
    tk_prof_report_options o = TK_PROF_REPORT_OPTIONS_INIT;
    o.cycles = 1;
    tk_prof_report *r;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_OK);
    const tk_prof_summary *s = tk_prof_report_summary(r);
    tk_prof_summary_info si;
    tk_prof_summary_get(s, &si);
    TK_CHECK_EQ_U64(si.n_cycles, 2);
    TK_CHECK(si.inclusive);
    const size_t *m;
    size_t n = tk_prof_report_cycle(r, 1, &m);
    TK_CHECK_EQ_U64(n, 2);
    if (n == 2) {
        TK_CHECK_STR(name_of(p, s, m[0]), "is_even'3");
        TK_CHECK_STR(name_of(p, s, m[1]), "is_odd'3");
        TK_CHECK_EQ_U64(entry(s, m[0]).inclusive[0], 360720);
        TK_CHECK_EQ_U64(entry(s, m[1]).inclusive[0], 349770);
        TK_CHECK(entry(s, m[1]).estimated);
        TK_CHECK_EQ_U64(entry(s, m[1]).cycle, 1);
    }
    tk_prof_cycle_info cy;
    tk_prof_cycle_get(s, 1, &cy);
    TK_CHECK_EQ_U64(cy.members, 2);
    TK_CHECK_EQ_U64(cy.calls, 96);
    TK_CHECK_EQ_U64(cy.self[0], 55200);
    TK_CHECK_EQ_U64(cy.inclusive[0], 360720);
    tk_prof_cycle_get(s, 0, &cy); /* cycles are numbered from 1 */
    TK_CHECK(cy.members == 0 && cy.self == NULL);
    tk_prof_cycle_get(s, 3, &cy);
    TK_CHECK(cy.members == 0 && cy.inclusive == NULL);
    n = tk_prof_report_cycle(r, 2, &m);
    TK_CHECK_EQ_U64(n, 1);
    if (n == 1) TK_CHECK_STR(name_of(p, s, m[0]), "depth'3");
    TK_CHECK_EQ_U64(tk_prof_report_cycle(r, 3, &m), 0);
    tk_prof_report_free(r);
    /* by file: no call cycles */
    o.group = TK_GROUP_FILE;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_ERR_ARG);
    tk_profile_free(p);
}

/* report demo-default.out --focus phase1: phase1, what it calls (fib and its recursion
 * levels) and its callers up to the program's start, with their costs of the whole
 * profile; not phase2 nor what only phase2 calls */
static void test_report_focus(void)
{
    tk_profile *p =
        load("tests/data/callgrind/pass/demo-default.out", TK_CALLGRIND_DETAIL_FUNCTIONS);
    tk_error err;
    tk_error_clear(&err);
    tk_prof_report_options o = TK_PROF_REPORT_OPTIONS_INIT;
    o.inclusive = 1;
    o.focus = "phase1";
    tk_prof_report *r;
    if (!TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_OK)) return;
    const tk_prof_summary *s = tk_prof_report_summary(r);
    tk_prof_summary_info si;
    tk_prof_summary_get(s, &si);
    TK_CHECK_EQ_U64(si.totals[0], 327861); /* the whole program's */
    int seen_phase1 = 0, seen_fib2 = 0, seen_main = 0, seen_phase2 = 0, seen_sort = 0;
    for (size_t i = 0; i < si.count; i++) {
        const char *n = name_of(p, s, i);
        seen_phase1 |= !strcmp(n, "phase1");
        seen_fib2 |= !strcmp(n, "fib'2");
        seen_main |= !strcmp(n, "main");
        seen_phase2 |= !strcmp(n, "phase2");
        seen_sort |= !strcmp(n, "work_sort_ints");
        if (!strcmp(n, "phase1")) TK_CHECK_EQ_U64(entry(s, i).inclusive[0], 17974);
    }
    TK_CHECK(seen_phase1 && seen_fib2 && seen_main);
    TK_CHECK(!seen_phase2 && !seen_sort);
    TK_CHECK(si.count < 20);
    tk_prof_report_free(r);
    /* "fib" takes its recursion levels too: fib'2 calls nothing else */
    o.focus = "fib";
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_OK);
    tk_prof_summary_get(tk_prof_report_summary(r), &si);
    TK_CHECK(si.count >= 4); /* fib, fib'2, phase1, main, ... */
    tk_prof_report_free(r);
    o.focus = "no_such_function";
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_ERR_ARG);
    TK_CHECK(strstr(err.message, "no_such_function") != NULL);
    o.focus = "main";
    o.cycles = 1;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_ERR_ARG);
    o.cycles = 0;
    o.group = TK_GROUP_FILE;
    TK_CHECK(tk_prof_report_open(&r, p, &o, &err) == TK_ERR_ARG);
    tk_profile_free(p);
}

/* diff --top 8 demo-default.out demo-recs.out */
static void test_diff_functions(void)
{
    tk_profile *both = load_both("tests/data/callgrind/pass/demo-default.out",
                                 "tests/data/callgrind/pass/demo-recs.out");
    tk_error err;
    tk_error_clear(&err);
    tk_prof_diff *d;
    TK_CHECK(tk_prof_diff_open(&d, both, 0, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_prof_diff_totals(d, 0)[0], 327861);
    TK_CHECK_EQ_U64(tk_prof_diff_totals(d, 1)[0], 327861);
    TK_CHECK(tk_prof_diff_count(d) >= 8);
    const tk_prof_diff_row *r0 = tk_prof_diff_row_at(d, 0), *r1 = tk_prof_diff_row_at(d, 1);
    TK_CHECK_STR(r0->name, "fib'2");
    TK_CHECK_STR(r0->file, "././demo.c");
    TK_CHECK_EQ_U64(r0->self[0][0], 15908);
    TK_CHECK_EQ_U64(r0->self[1][0], 266);
    TK_CHECK_EQ_U64(r0->change, 15642);
    TK_CHECK_STR(r1->name, "fib'6");
    TK_CHECK_EQ_U64(r1->self[0][0], 0);
    TK_CHECK_EQ_U64(r1->self[1][0], 3024);
    for (size_t i = 1; i < tk_prof_diff_count(d); i++)
        TK_CHECK(tk_prof_diff_row_at(d, i - 1)->change >= tk_prof_diff_row_at(d, i)->change);
    tk_prof_diff_free(d);
    TK_CHECK(tk_prof_diff_open(&d, both, 7, &err) == TK_ERR_ARG);
    tk_profile_free(both);
}

/* diff --format folded compare-test1 compare-test2: 736 stacks, each side's sum its total */
static void test_diff_folded(void)
{
    tk_profile *both =
        load_both("tests/data/corpus/callgrind-thirdparty/gprof2dot/compare-test1.callgrind",
                  "tests/data/corpus/callgrind-thirdparty/gprof2dot/compare-test2.callgrind");
    tk_error err;
    tk_error_clear(&err);
    tk_prof_folded_diff *d;
    TK_CHECK(tk_prof_folded_diff_open(&d, both, 0, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_prof_folded_diff_count(d), 736);
    uint64_t sum[2] = {0, 0};
    for (size_t i = 0; i < tk_prof_folded_diff_count(d); i++) {
        sum[0] += tk_prof_folded_diff_row_at(d, i)->count[0];
        sum[1] += tk_prof_folded_diff_row_at(d, i)->count[1];
    }
    TK_CHECK_EQ_U64(sum[0], 610235);
    TK_CHECK_EQ_U64(sum[1], 610544);
    const tk_prof_folded_diff_row *r = tk_prof_folded_diff_row_at(d, 1);
    TK_CHECK(r->len == 37 && memcmp(r->stack, "0x0000000000001140;0x000000000040224a", 37) == 0);
    TK_CHECK_EQ_U64(r->count[0], 16);
    TK_CHECK_EQ_U64(r->count[1], 16);
    tk_prof_folded_diff_free(d);
    tk_profile_free(both);
}

/* ---- tk_prof_match: the functions of two builds (tracekit diff --mod-filename, --match) -- */

/* A profile of one part with a self cost of `cost` Ir in each function (object, file, name). */
static tk_profile *built(const char *const (*fns)[3], size_t n, uint64_t cost)
{
    tk_profile *p;
    if (!TK_CHECK(tk_profile_open(&p, NULL) == TK_OK)) return NULL;
    size_t ev;
    tk_prof_part *part;
    TK_CHECK(tk_profile_add_event(p, "Ir", 2, &ev, NULL) == TK_OK);
    TK_CHECK(tk_profile_add_part(p, &part, NULL) == TK_OK);
    for (size_t i = 0; i < n; i++) {
        uint32_t id[3], fn;
        for (int k = 0; k < 3; k++)
            TK_CHECK(tk_profile_intern(p, fns[i][k], strlen(fns[i][k]), &id[k], NULL) == TK_OK);
        TK_CHECK(tk_profile_function(p, id[0], id[1], id[2], &fn, NULL) == TK_OK);
        tk_prof_self key;
        memset(&key, 0, sizeof key);
        key.fn = fn;
        key.file = id[1];
        TK_CHECK(tk_profile_add_self(p, part, &key, &cost, NULL) == TK_OK);
    }
    return p;
}

/* The name `expr` (a --mod-funcname) makes of `name`, into out. */
static void renamed(const char *expr, const char *name, char *out, size_t cap)
{
    const char *const fns[1][3] = {{"obj", "file", name}};
    tk_profile *src = built(fns, 1, 1), *both;
    tk_prof_match_options o = TK_PROF_MATCH_OPTIONS_INIT;
    o.mod_funcname = &expr;
    o.n_mod_funcname = 1;
    tk_prof_match *m;
    tk_error err;
    tk_error_clear(&err);
    out[0] = 0;
    TK_CHECK(tk_profile_open(&both, NULL) == TK_OK);
    if (TK_CHECK(tk_prof_match_open(&m, &o, &err) == TK_OK)) {
        TK_CHECK(tk_prof_diff_add(both, src, m, &err) == TK_OK);
        tk_prof_function_info f;
        tk_profile_function_get(both, 0, &f);
        snprintf(out, cap, "%s", tk_profile_str(both, f.name));
        tk_prof_match_free(m);
    }
    tk_profile_free(both);
    tk_profile_free(src);
}

/* The substitutions: sed's and Perl's s/// as cg_diff users write them */
static void test_match_substitutions(void)
{
    static const char *const cases[][3] = {
        {"s|/a/|/|", "/a/x/a/", "/x/a/"}, /* the first match only */
        {"s|/a/|/|g", "/a/x/a/", "/x/"}, /* g: every one */
        {"s/x/[$&]/g", "x.x", "[x].[x]"}, /* $& the match */
        {"s/^/P:/", "f", "P:f"}, /* an empty match at the start */
        {"s/y*/-/g", "ab", "-a-b-"}, /* empty matches: each character kept, as sed */
        {"s/(A)(B)/\\2\\1/i", "ab", "ba"}, /* groups, i */
        {"s/(a)(b)/$2$1/", "ab", "ba"}, /* Perl's $N */
        {"s/\\//_/g", "/a/x", "_a_x"}, /* the delimiter escaped */
        {"s|a\\|b|X|", "a|b", "X"}, /* a delimiter special in a regex, escaped: itself */
        {"s/z/Q/", "abc", "abc"}, /* no match: unchanged */
        {"s/'[0-9]+$//", "fib'12", "fib"}, /* recursion levels dropped */
        {"s/b/\\\\/", "abc", "a\\c"}, /* a backslash in TEXT */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[64];
        renamed(cases[i][0], cases[i][1], out, sizeof out);
        if (!TK_CHECK(strcmp(out, cases[i][2]) == 0))
            fprintf(stderr, "  %s on '%s': '%s', expected '%s'\n", cases[i][0], cases[i][1], out,
                    cases[i][2]);
    }
    static const char *const bad[] = {"s/a", "s/a/b", "s/(a/b/", "s/a/b/x", "y/a/b/", "sabab", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tk_prof_match_options o = TK_PROF_MATCH_OPTIONS_INIT;
        o.mod_filename = &bad[i];
        o.n_mod_filename = 1;
        tk_prof_match *m = NULL;
        tk_error err;
        tk_error_clear(&err);
        TK_CHECK(tk_prof_match_open(&m, &o, &err) == TK_ERR_ARG);
        TK_CHECK(m == NULL && strstr(err.message, bad[i]) != NULL);
    }
}

/* The profiles A and B added into *both through a matcher of options o (which it returns) */
static tk_prof_match *matched(const tk_prof_match_options *o, const tk_profile *pa,
                              const tk_profile *pb, tk_profile **both)
{
    tk_prof_match *m = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_prof_match_open(&m, o, &err) == TK_OK);
    TK_CHECK(tk_profile_open(both, NULL) == TK_OK);
    TK_CHECK(tk_prof_diff_add(*both, pa, m, &err) == TK_OK);
    TK_CHECK(tk_prof_diff_add(*both, pb, m, &err) == TK_OK);
    return m;
}

/* Two builds in /a and /b: B's functions paired with A's by name (one of each only) or by
 * base name; without either, every function is in one profile only */
static void test_match_pairing(void)
{
    static const char *const a[][3] = {
        {"/a/x", "/a/x.c", "f"}, {"/a/x", "/a/x.c", "init"}, {"/a/lib.so", "/a/lib.c", "init"}};
    static const char *const b[][3] = {{"/b/x", "/b/x.c", "f"},
                                       {"/b/x", "/b/x.c", "init"},
                                       {"/b/lib.so", "/b/lib.c", "init"},
                                       {"/b/x", "/b/x.c", "h"}};
    /* key, functions in `both`, paired, ambiguous, rows of the diff */
    static const size_t want[][5] = {{TK_PROF_MATCH_PATH, 7, 0, 0, 7},
                                     {TK_PROF_MATCH_NAME, 6, 1, 2, 6},
                                     {TK_PROF_MATCH_BASENAME, 4, 3, 0, 4}};
    tk_profile *pa = built(a, 3, 10), *pb = built(b, 4, 12);
    for (size_t i = 0; i < 3; i++) {
        tk_prof_match_options o = TK_PROF_MATCH_OPTIONS_INIT;
        o.key = (tk_prof_match_key)want[i][0];
        tk_profile *both;
        tk_error err;
        tk_error_clear(&err);
        tk_prof_match *m = matched(&o, pa, pb, &both);
        TK_CHECK(tk_prof_diff_add(both, pb, m, &err) == TK_ERR_ARG); /* a third */
        tk_prof_match_info mi;
        tk_prof_match_get(m, &mi);
        TK_CHECK_EQ_U64(tk_profile_function_count(both), want[i][1]);
        TK_CHECK_EQ_U64(mi.paired, want[i][2]);
        TK_CHECK_EQ_U64(mi.ambiguous, want[i][3]);
        TK_CHECK_EQ_U64(mi.renamed, 0);
        tk_prof_diff *d;
        TK_CHECK(tk_prof_diff_open(&d, both, 0, &err) == TK_OK);
        TK_CHECK_EQ_U64(tk_prof_diff_count(d), want[i][4]);
        /* f, paired: 10 -> 12 Ir, with A's paths */
        for (size_t k = 0; k < tk_prof_diff_count(d); k++) {
            const tk_prof_diff_row *r = tk_prof_diff_row_at(d, k);
            if (strcmp(r->name, "f") || want[i][0] == TK_PROF_MATCH_PATH) continue;
            TK_CHECK_STR(r->object, "/a/x");
            TK_CHECK_EQ_U64(r->self[0][0], 10);
            TK_CHECK_EQ_U64(r->self[1][0], 12);
        }
        TK_CHECK_EQ_U64(tk_prof_diff_totals(d, 0)[0], 30);
        TK_CHECK_EQ_U64(tk_prof_diff_totals(d, 1)[0], 48);
        tk_prof_diff_free(d);
        tk_profile_free(both);
        tk_prof_match_free(m);
    }
    /* --mod-filename 's,^/[ab]/,,': the same functions, their costs summed where two become
     * one (--mod-funcname 's/init/f/' on both: f is 10 + 10 + 10 in A) */
    const char *mf = "s,^/[ab]/,,", *mfn = "s/init/f/";
    tk_prof_match_options o = TK_PROF_MATCH_OPTIONS_INIT;
    o.mod_filename = &mf;
    o.n_mod_filename = 1;
    tk_profile *both;
    tk_error err;
    tk_error_clear(&err);
    tk_prof_match *m = matched(&o, pa, pb, &both);
    tk_prof_match_info mi;
    tk_prof_match_get(m, &mi);
    TK_CHECK_EQ_U64(mi.renamed, 7);
    TK_CHECK_EQ_U64(tk_profile_function_count(both), 4);
    tk_profile_free(both);
    tk_prof_match_free(m);
    o.mod_funcname = &mfn;
    o.n_mod_funcname = 1;
    m = matched(&o, pa, pb, &both);
    tk_prof_diff *d;
    TK_CHECK(tk_prof_diff_open(&d, both, 0, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_prof_diff_count(d), 3); /* h (+12), f of x (+4), f of lib.so (+2) */
    const tk_prof_diff_row *r = tk_prof_diff_row_at(d, 1);
    TK_CHECK_STR(r->name, "f");
    TK_CHECK_STR(r->object, "x");
    TK_CHECK_EQ_U64(r->self[0][0], 20);
    TK_CHECK_EQ_U64(r->self[1][0], 24);
    tk_prof_diff_free(d);
    tk_profile_free(both);
    tk_prof_match_free(m);
    tk_profile_free(pa);
    tk_profile_free(pb);
}

TK_TEST_MAIN(TK_CASE(test_report_self), TK_CASE(test_report_tree), TK_CASE(test_report_cycles),
             TK_CASE(test_report_focus), TK_CASE(test_diff_functions), TK_CASE(test_diff_folded),
             TK_CASE(test_match_substitutions), TK_CASE(test_match_pairing))
