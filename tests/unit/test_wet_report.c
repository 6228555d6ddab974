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
    TK_CHECK(tk_wet_read(&d, in, NULL, &err) == TK_OK);
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
    uint32_t order[6];
    TK_CHECK_EQ_U64(tk_deps_count(d), 6);
    tk_deps_order_by_id(d, order);
    static const uint64_t ids[] = {1870, 1873, 2113, 2114, 2118, 2120};
    for (size_t i = 0; i < 6; i++) TK_CHECK_EQ_U64(id_of(d, order[i]), ids[i]);
    tk_deps_free(d);
}

/* The dependence table: the dynamic dependences by instruction, port and instruction depended
 * on, in id order; the value statistics, wide values told apart by their upper words. */
static void test_pairs_and_values(void)
{
    tk_deps *d = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_deps_open(&d, TK_DEPS_COMPREHENSIVE, &err) == TK_OK);
    if (!d) return;
    uint32_t a, b, c;
    TK_CHECK(tk_deps_ref(d, 10, 1, 1, &a, &err) == TK_OK);
    TK_CHECK(tk_deps_ref(d, 20, 1, 1, &b, &err) == TK_OK);
    TK_CHECK(tk_deps_ref(d, 5, 1, 1, &c, &err) == TK_OK);
    /* 10: three instances, values 5 5 7 */
    TK_CHECK(tk_deps_define(d, a, 2, 1, 0x400, "f.c", 3, "main", 4, 7, &err) == TK_OK);
    tk_deps_set_values(d, 1);
    static const uint64_t av[] = {5, 5, 7};
    for (uint32_t i = 0; i < 3; i++) TK_CHECK(tk_deps_add_value(d, i, av[i], &err) == TK_OK);
    /* 20: control on 10's instances, data on 5, 10, 5 */
    TK_CHECK(tk_deps_define(d, b, 3, 2, 0x404, "f.c", 3, "main", 4, 8, &err) == TK_OK);
    for (uint32_t i = 0; i < 3; i++) TK_CHECK(tk_deps_add_dep(d, i, a, i, &err) == TK_OK);
    TK_CHECK(tk_deps_next_port(d, &err) == TK_OK);
    TK_CHECK(tk_deps_add_dep(d, 0, c, 0, &err) == TK_OK);
    TK_CHECK(tk_deps_add_dep(d, 1, a, 1, &err) == TK_OK);
    TK_CHECK(tk_deps_add_dep(d, 2, c, 0, &err) == TK_OK);
    tk_deps_set_values(d, 0);
    /* 5: four values of low word 1: 2^64+1 twice, 1, 2^65+1 */
    TK_CHECK(tk_deps_define(d, c, 4, 1, 0x408, NULL, 0, NULL, 0, 0, &err) == TK_OK);
    tk_deps_set_values(d, 1);
    static const uint64_t cv[4][2] = {{1, 1}, {1, 0}, {1, 1}, {1, 2}};
    for (uint32_t i = 0; i < 4; i++)
        TK_CHECK(tk_deps_add_value_wide(d, i, cv[i], 2, &err) == TK_OK);
    TK_CHECK(tk_deps_finish(d, &err) == TK_OK);

    tk_deps_pairs *p = NULL;
    TK_CHECK(tk_deps_pairs_open(&p, d, &err) == TK_OK);
    if (!p) {
        tk_deps_free(d);
        return;
    }
    static const struct {
        uint64_t instr, port, dep, count;
    } want[] = {{20, 0, 10, 3}, {20, 1, 5, 2}, {20, 1, 10, 1}};
    TK_CHECK_EQ_U64(tk_deps_pairs_count(p), 3);
    for (size_t i = 0; i < 3 && i < tk_deps_pairs_count(p); i++) {
        const tk_deps_pair *x = tk_deps_pairs_at(p, i);
        TK_CHECK_EQ_U64(id_of(d, x->instr), want[i].instr);
        TK_CHECK_EQ_U64(x->port, want[i].port);
        TK_CHECK_EQ_U64(id_of(d, x->dep), want[i].dep);
        TK_CHECK_EQ_U64(x->count, want[i].count);
    }
    tk_deps_pairs_free(p);

    tk_deps_value_stats v;
    char hex[TK_DEPS_VALUE_HEX];
    TK_CHECK(tk_deps_value_stats_get(d, tk_deps_find_id(d, 10), &v, &err) == TK_OK);
    TK_CHECK_EQ_U64(v.count, 3);
    TK_CHECK_EQ_U64(v.distinct, 2);
    TK_CHECK_EQ_U64(v.top_count, 2);
    tk_deps_value_hex(d, tk_deps_find_id(d, 10), v.top, hex);
    TK_CHECK_STR(hex, "5");
    TK_CHECK(tk_deps_value_stats_get(d, tk_deps_find_id(d, 5), &v, &err) == TK_OK);
    TK_CHECK_EQ_U64(v.count, 4);
    TK_CHECK_EQ_U64(v.distinct, 3);
    TK_CHECK_EQ_U64(v.top_count, 2);
    tk_deps_value_hex(d, tk_deps_find_id(d, 5), v.top, hex);
    TK_CHECK_STR(hex, "10000000000000001");
    TK_CHECK(tk_deps_value_stats_get(d, tk_deps_find_id(d, 20), &v, &err) == TK_OK);
    TK_CHECK(v.count == 0 && v.distinct == 0 && v.top_count == 0);
    tk_deps_free(d);
}

TK_TEST_MAIN(TK_CASE(test_report), TK_CASE(test_lines_with_slice), TK_CASE(test_order_by_id),
             TK_CASE(test_pairs_and_values))
