/* The Callgrind annotation through the public API (tracekit/profile_annotate.h) on the
 * profiles of tests/data/callgrind/pass (sources in tests/data/callgrind/prog): files
 * hottest first, the costs of a line and of the calls made on it, the sources found and
 * their lines, --file and --function, conditional jumps, the instruction view. */
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static tk_profile *load(const char *path)
{
    tk_error err;
    tk_error_clear(&err);
    tk_profile *p = NULL;
    tk_input *in;
    if (!TK_CHECK(tk_profile_open(&p, NULL) == TK_OK) ||
        !TK_CHECK(tk_input_open(&in, path, NULL, &err) == TK_OK))
        return p;
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    TK_CHECK(tk_callgrind_read_input(p, in, &o, &err) == TK_OK);
    tk_input_free(in);
    return p;
}

static const char *const dirs[] = {"tests/data/callgrind/prog"};

static tk_prof_annotation *annotate(const tk_profile *p, const tk_prof_annotate_options *o)
{
    tk_error err;
    tk_error_clear(&err);
    tk_prof_annotation *a = NULL;
    TK_CHECK(tk_prof_annotate_open(&a, p, o, &err) == TK_OK);
    return a;
}

/* The site of `line` in file i, or SIZE_MAX. */
static size_t site_of(const tk_prof_annotation *a, size_t i, uint64_t line)
{
    tk_prof_annotate_file_info f;
    tk_prof_annotate_file_get(a, i, &f);
    for (size_t k = f.first_site; k < f.first_site + f.sites; k++) {
        tk_prof_annotate_site_info s;
        tk_prof_annotate_site_get(a, k, &s);
        if (s.line == line) return k;
    }
    return SIZE_MAX;
}

/* The file named `name` among those shown, or SIZE_MAX. */
static size_t file_named(const tk_profile *p, const tk_prof_annotation *a, const char *name)
{
    tk_prof_annotation_info ai;
    tk_prof_annotation_get(a, &ai);
    for (size_t i = 0; i < ai.files; i++) {
        tk_prof_annotate_file_info f;
        tk_prof_annotate_file_get(a, i, &f);
        if (!strcmp(tk_profile_str(p, f.name), name)) return i;
    }
    return SIZE_MAX;
}

/* demo-default.out with the 99 % cut: work.c first, then demo.c; the numbers
 * callgrind_annotate --auto=yes prints for demo.c */
static void test_files_and_lines(void)
{
    tk_profile *p = load("tests/data/callgrind/pass/demo-default.out");
    tk_prof_annotate_options o = TK_PROF_ANNOTATE_OPTIONS_INIT;
    o.coverage = 99;
    o.source_dirs = dirs;
    o.n_source_dirs = 1;
    tk_prof_annotation *a = annotate(p, &o);
    if (!a) return;
    tk_prof_annotation_info ai;
    tk_prof_annotation_get(a, &ai);
    TK_CHECK_EQ_U64(ai.totals[0], 327861);
    TK_CHECK(ai.positions & TK_POS_LINE);
    TK_CHECK(ai.files > 3 && ai.hidden_files > 0);
    uint64_t last = UINT64_MAX;
    for (size_t i = 0; i < ai.files; i++) { /* hottest first */
        tk_prof_annotate_file_info f;
        tk_prof_annotate_file_get(a, i, &f);
        TK_CHECK(f.self[0] <= last);
        last = f.self[0];
    }
    tk_prof_annotate_file_info f;
    tk_prof_annotate_file_get(a, 0, &f);
    TK_CHECK_STR(tk_profile_str(p, f.name), "././work.c");
    TK_CHECK_STR(f.source, "tests/data/callgrind/prog/work.c");
    size_t demo = file_named(p, a, "././demo.c");
    if (!TK_CHECK(demo != SIZE_MAX)) return;
    tk_prof_annotate_file_get(a, demo, &f);
    TK_CHECK_STR(f.source, "tests/data/callgrind/prog/demo.c");
    /* line 8, fib: 15,964 self; its calls of fib'2 are recursive: not in the inclusive */
    tk_prof_annotate_site_info s;
    if (!TK_CHECK(site_of(a, demo, 8) != SIZE_MAX && site_of(a, demo, 20) != SIZE_MAX &&
                  site_of(a, demo, 34) != SIZE_MAX))
        return;
    tk_prof_annotate_site_get(a, site_of(a, demo, 8), &s);
    TK_CHECK(s.has_self);
    TK_CHECK_EQ_U64(s.self[0], 15964);
    TK_CHECK_EQ_U64(s.inclusive[0], 15964);
    TK_CHECK_EQ_U64(s.calls, 1);
    tk_prof_annotate_call_info c;
    tk_prof_annotate_call_get(a, s.first_call, &c);
    tk_prof_function_info callee;
    tk_profile_function_get(p, c.callee, &callee);
    TK_CHECK_STR(tk_profile_str(p, callee.name), "fib'2");
    TK_CHECK(c.recursive);
    /* line 20, phase1's fib(15): callgrind_annotate's "15,964 => ././demo.c:fib (1x)" */
    tk_prof_annotate_site_get(a, site_of(a, demo, 20), &s);
    TK_CHECK_EQ_U64(s.self[0], 4);
    TK_CHECK_EQ_U64(s.inclusive[0], 15968);
    TK_CHECK_EQ_U64(s.calls, 1);
    tk_prof_annotate_call_get(a, s.first_call, &c);
    TK_CHECK_EQ_U64(c.count, 1);
    TK_CHECK_EQ_U64(c.inclusive[0], 15964);
    TK_CHECK(!c.recursive);
    /* line 34, main's phase1() + phase2(): phase2 (167,395) before phase1 (17,974) */
    tk_prof_annotate_site_get(a, site_of(a, demo, 34), &s);
    TK_CHECK_EQ_U64(s.calls, 2);
    tk_prof_annotate_call_get(a, s.first_call, &c);
    TK_CHECK_EQ_U64(c.inclusive[0], 167395);
    tk_prof_annotate_call_get(a, s.first_call + 1, &c);
    TK_CHECK_EQ_U64(c.inclusive[0], 17974);
    TK_CHECK_EQ_U64(s.inclusive[0], 5 + 167395 + 17974);
    /* past the ends: zeros */
    tk_prof_annotate_file_get(a, ai.files, &f);
    TK_CHECK(f.self == NULL && f.source == NULL);
    tk_prof_annotate_call_get(a, SIZE_MAX, &c);
    TK_CHECK(c.inclusive == NULL);
    tk_prof_annotation_free(a);
    tk_profile_free(p);
}

/* The source of demo.c: its lines around the costed ones, a gap, each line's site */
static void test_source(void)
{
    tk_profile *p = load("tests/data/callgrind/pass/demo-default.out");
    tk_prof_annotate_options o = TK_PROF_ANNOTATE_OPTIONS_INIT;
    o.source_dirs = dirs;
    o.n_source_dirs = 1;
    o.file = "demo.c";
    tk_prof_annotation *a = annotate(p, &o);
    if (!a) return;
    tk_prof_annotation_info ai;
    tk_prof_annotation_get(a, &ai);
    TK_CHECK_EQ_U64(ai.files, 1); /* --file: that one only, without the cut */
    TK_CHECK_EQ_U64(ai.hidden_files, 0);
    tk_error err;
    tk_error_clear(&err);
    tk_prof_source *src;
    if (!TK_CHECK(tk_prof_source_open(&src, a, 0, &err) == TK_OK)) return;
    tk_prof_source_item it;
    size_t lines = 0, gaps = 0, costed = 0;
    uint64_t first = 0;
    int fib_seen = 0;
    while (tk_prof_source_next(src, &it, &err) == TK_OK) {
        if (it.kind == TK_SOURCE_GAP) {
            gaps++;
            TK_CHECK(lines == 0 || it.line > 1);
            continue;
        }
        TK_CHECK(it.kind == TK_SOURCE_LINE);
        if (!lines++) first = it.line;
        if (it.site != SIZE_MAX) costed++;
        if (it.line == 8) {
            fib_seen = it.site != SIZE_MAX && it.len > 10 && !memcmp(it.text, "static int", 10);
        }
    }
    TK_CHECK_EQ_U64(first, 5); /* three lines of context before fib's, line 8 */
    TK_CHECK(gaps >= 1);
    TK_CHECK(fib_seen);
    tk_prof_annotate_file_info f;
    tk_prof_annotate_file_get(a, 0, &f);
    TK_CHECK_EQ_U64(costed, f.sites);
    tk_prof_source_free(src);
    /* a file without a source */
    tk_prof_annotation_free(a);
    o.file = "dl-lookup.c";
    a = annotate(p, &o);
    tk_prof_annotation_get(a, &ai);
    TK_CHECK_EQ_U64(ai.files, 1);
    tk_prof_annotate_file_get(a, 0, &f);
    TK_CHECK(f.source == NULL && f.sites > 0);
    TK_CHECK(tk_prof_source_open(&src, a, 0, &err) == TK_ERR_ARG);
    tk_prof_annotation_free(a);
    tk_profile_free(p);
}

/* --function fib: the rows of fib and its contexts fib'2 only */
static void test_function(void)
{
    tk_profile *p = load("tests/data/callgrind/pass/demo-default.out");
    tk_prof_annotate_options o = TK_PROF_ANNOTATE_OPTIONS_INIT;
    o.function = "fib";
    tk_prof_annotation *a = annotate(p, &o);
    if (!a) return;
    tk_prof_annotation_info ai;
    tk_prof_annotation_get(a, &ai);
    TK_CHECK_EQ_U64(ai.files, 1);
    tk_prof_annotate_file_info f;
    tk_prof_annotate_file_get(a, 0, &f);
    TK_CHECK_STR(tk_profile_str(p, f.name), "././demo.c");
    TK_CHECK_EQ_U64(f.sites, 1); /* line 8 */
    TK_CHECK_EQ_U64(f.self[0], 15964);
    tk_prof_annotation_free(a);
    o.function = "no_such_function";
    a = annotate(p, &o);
    tk_prof_annotation_get(a, &ai);
    TK_CHECK_EQ_U64(ai.files + ai.functions, 0);
    tk_prof_annotation_free(a);
    tk_profile_free(p);
}

/* demo-jumps.out (--collect-jumps=yes --dump-instr=yes): work.c line 6, the loop of the
 * insertion sort: a conditional jump to itself taken 22,279 times, not taken 299 times */
static void test_jumps(void)
{
    tk_profile *p = load("tests/data/callgrind/pass/demo-jumps.out");
    tk_prof_annotate_options o = TK_PROF_ANNOTATE_OPTIONS_INIT;
    o.file = "work.c";
    tk_prof_annotation *a = annotate(p, &o);
    if (!a) return;
    tk_prof_annotation_info ai;
    tk_prof_annotation_get(a, &ai);
    TK_CHECK(ai.positions & TK_POS_INSTR);
    tk_prof_annotate_site_info s;
    if (!TK_CHECK(site_of(a, 0, 6) != SIZE_MAX && site_of(a, 0, 5) != SIZE_MAX)) return;
    tk_prof_annotate_site_get(a, site_of(a, 0, 6), &s);
    TK_CHECK_EQ_U64(s.jumps, 1);
    tk_prof_annotate_jump_info j;
    tk_prof_annotate_jump_get(a, s.first_jump, &j);
    TK_CHECK(j.conditional);
    TK_CHECK_EQ_U64(j.target_line, 6);
    TK_CHECK_EQ_U64(j.followed, 22279);
    TK_CHECK_EQ_U64(j.executed - j.followed, 299);
    tk_prof_annotate_site_get(a, site_of(a, 0, 5), &s); /* the jump back to the loop test */
    TK_CHECK_EQ_U64(s.jumps, 1);
    tk_prof_annotate_jump_get(a, s.first_jump, &j);
    TK_CHECK(!j.conditional && j.executed == j.followed && j.followed == 299);
    /* the instruction view (asked for: the profile has source lines too): the functions of
     * work.c, jumps to addresses */
    TK_CHECK(!ai.instructions && ai.functions == 0);
    tk_prof_annotation_free(a);
    o.instructions = 1;
    a = annotate(p, &o);
    tk_prof_annotation_get(a, &ai);
    TK_CHECK(ai.instructions);
    TK_CHECK(ai.functions >= 2);
    size_t jumps = 0;
    for (size_t i = 0; i < ai.functions; i++) {
        tk_prof_annotate_function_info fi;
        tk_prof_annotate_function_get(a, i, &fi);
        for (size_t k = fi.first_site; k < fi.first_site + fi.sites; k++) {
            tk_prof_annotate_site_get(a, k, &s);
            TK_CHECK(s.addr != 0);
            for (size_t x = s.first_jump; x < s.first_jump + s.jumps; x++) {
                tk_prof_annotate_jump_get(a, x, &j);
                TK_CHECK(j.target_addr != 0);
                jumps++;
            }
        }
    }
    TK_CHECK(jumps >= 4);
    tk_prof_annotation_free(a);
    tk_profile_free(p);
}

/* bad options */
static void test_options(void)
{
    tk_profile *p = load("tests/data/callgrind/pass/demo-default.out");
    tk_error err;
    tk_error_clear(&err);
    tk_prof_annotation *a;
    tk_prof_annotate_options o = TK_PROF_ANNOTATE_OPTIONS_INIT;
    o.part = 2;
    TK_CHECK(tk_prof_annotate_open(&a, p, &o, &err) == TK_ERR_ARG && a == NULL);
    o.part = 0;
    o.event = 1;
    TK_CHECK(tk_prof_annotate_open(&a, p, &o, &err) == TK_ERR_ARG);
    o.event = 0;
    o.coverage = 100.5;
    TK_CHECK(tk_prof_annotate_open(&a, p, &o, &err) == TK_ERR_ARG);
    /* no options: every file with a self cost */
    TK_CHECK(tk_prof_annotate_open(&a, p, NULL, &err) == TK_OK);
    tk_prof_annotation_info ai;
    tk_prof_annotation_get(a, &ai);
    TK_CHECK(ai.files > 50 && ai.hidden_files == 0);
    tk_prof_annotation_free(a);
    tk_profile_free(p);
}

TK_TEST_MAIN(TK_CASE(test_files_and_lines), TK_CASE(test_source), TK_CASE(test_function),
             TK_CASE(test_jumps), TK_CASE(test_options))
