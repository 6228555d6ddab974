/* The WET report, source lines and id order through the public API
 * (tracekit/deps_report.h): the numbers `tracekit report` and `tracekit annotate` print on
 * tests/data/wet/pass/foo1.wet (tests/cli/wet/report_foo1.out, annotate_foo1.out). */
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static tk_deps *load(const char *path)
{
    tk_error err;
    tk_error_clear(&err);
    tk_input *in;
    tk_deps *d = NULL;
    if (!TK_CHECK(tk_input_open(&in, path, NULL, &err) == TK_OK)) return NULL;
    TK_CHECK(tk_wet_read(in, NULL, &d, &err) == TK_OK);
    tk_input_free(in);
    return d;
}

static uint64_t id_of(const tk_deps *d, uint32_t instr)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    return in.id;
}

static uint32_t line_of(const tk_deps *d, uint32_t instr)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    return in.line;
}

/* report foo1.wet: counts, the hottest lines, the longest chains */
static void test_report(void)
{
    tk_deps *d = load("tests/data/wet/pass/foo1.wet");
    if (!d) return;
    tk_error err;
    tk_error_clear(&err);
    tk_deps_report_options o = TK_DEPS_REPORT_OPTIONS_INIT;
    o.chains = 10;
    tk_deps_report *r;
    TK_CHECK(tk_deps_report_open(&r, d, &o, &err) == TK_OK);
    tk_deps_stats s;
    tk_deps_report_stats(r, &s);
    TK_CHECK_EQ_U64(s.instructions, 6);
    TK_CHECK_EQ_U64(s.instances, 6);
    TK_CHECK_EQ_U64(s.deps_control, 4);
    TK_CHECK_EQ_U64(s.deps_data, 4);
    TK_CHECK_EQ_U64(s.values, 5);
    const tk_deps_lines *l = tk_deps_report_lines(r);
    TK_CHECK_EQ_U64(tk_deps_lines_count(l), 5);
    static const uint32_t line[] = {4, 6, 7, 8, 9};
    static const uint64_t inst[] = {2, 1, 1, 1, 1};
    for (size_t i = 0; i < 5 && i < tk_deps_lines_count(l); i++) {
        TK_CHECK_EQ_U64(line_of(d, tk_deps_lines_at(l, i)->first_instr), line[i]);
        TK_CHECK_EQ_U64(tk_deps_lines_at(l, i)->instances, inst[i]);
        TK_CHECK_EQ_U64(tk_deps_lines_at(l, i)->instrs, inst[i]);
    }
    TK_CHECK_EQ_U64(tk_deps_report_chain_count(r), 6);
    static const uint64_t len[] = {5, 4, 3, 3, 2, 1}, from[] = {2120, 2118, 2113, 2114, 1873, 1870};
    for (size_t i = 0; i < 6 && i < tk_deps_report_chain_count(r); i++) {
        const tk_chain_summary *c = tk_deps_report_chain(r, i);
        TK_CHECK_EQ_U64(c->length, len[i]);
        TK_CHECK_EQ_U64(id_of(d, c->start.instr), from[i]);
        TK_CHECK_EQ_U64(id_of(d, c->end.instr), 1870);
    }
    TK_CHECK(!tk_deps_report_cyclic(r));
    tk_deps_report_free(r);
    /* no chains asked for: none */
    TK_CHECK(tk_deps_report_open(&r, d, NULL, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_deps_report_chain_count(r), 0);
    TK_CHECK_EQ_U64(tk_deps_lines_count(tk_deps_report_lines(r)), 5);
    tk_deps_report_free(r);
    tk_deps_free(d);
}

/* annotate --criterion foo1.c:8: each line's instances in the slice, in source order */
static void test_lines_with_slice(void)
{
    tk_deps *d = load("tests/data/wet/pass/foo1.wet");
    if (!d) return;
    tk_error err;
    tk_error_clear(&err);
    tk_node *nodes;
    size_t n;
    tk_slice *s = NULL;
    tk_slice_options so = TK_SLICE_OPTIONS_INIT;
    TK_CHECK(tk_criterion_parse(d, "foo1.c:8", &nodes, &n, &err) == TK_OK);
    TK_CHECK(tk_slice_compute(d, nodes, n, &so, &s, &err) == TK_OK);
    tk_nodes_free(nodes);
    tk_deps_lines *l;
    TK_CHECK(tk_deps_lines_open(&l, d, s, &err) == TK_OK);
    static const uint32_t line[] = {4, 6, 7, 8, 9};
    static const uint64_t inst[] = {2, 1, 1, 1, 1}, in_slice[] = {2, 1, 0, 1, 0};
    TK_CHECK_EQ_U64(tk_deps_lines_count(l), 5);
    for (size_t i = 0; i < 5 && i < tk_deps_lines_count(l); i++) {
        TK_CHECK_EQ_U64(line_of(d, tk_deps_lines_at(l, i)->first_instr), line[i]);
        TK_CHECK_EQ_U64(tk_deps_lines_at(l, i)->instances, inst[i]);
        TK_CHECK_EQ_U64(tk_deps_lines_at(l, i)->in_slice, in_slice[i]);
    }
    tk_deps_lines_free(l);
    tk_slice_free(s);
    tk_deps_free(d);
}

/* The instructions by id, whatever the order of the file. */
static void test_order_by_id(void)
{
    tk_deps *d = load("tests/data/wet/pass/foo1.wet");
    if (!d) return;
    tk_error err;
    tk_error_clear(&err);
    uint32_t order[6];
    TK_CHECK_EQ_U64(tk_deps_count(d), 6);
    TK_CHECK(tk_deps_order_by_id(d, order, &err) == TK_OK);
    static const uint64_t ids[] = {1870, 1873, 2113, 2114, 2118, 2120};
    for (size_t i = 0; i < 6; i++) TK_CHECK_EQ_U64(id_of(d, order[i]), ids[i]);
    tk_deps_free(d);
}

TK_TEST_MAIN(TK_CASE(test_report), TK_CASE(test_lines_with_slice), TK_CASE(test_order_by_id))
