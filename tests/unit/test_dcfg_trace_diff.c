/* Where two DCFG-Traces first differ, through the public API (tracekit/dcfg_trace_diff.h):
 * what `tracekit diff` prints on the sample traces (tests/cli/dcfg_trace/diff_*.out). */
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

#define VECTORS "tests/data/corpus/dcfg-thirdparty/trace-vectors/"

static tk_dcfg_trace *open_trace(const char *path)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace *t = NULL;
    TK_CHECK(tk_dcfg_trace_open(&t, path, NULL, &err) == TK_OK);
    return t;
}

static tk_dcfg_trace_diff compare(const char *a, const char *b)
{
    tk_dcfg_trace_diff d;
    memset(&d, 0xff, sizeof d);
    tk_dcfg_trace *ta = open_trace(a), *tb = open_trace(b);
    tk_error err;
    tk_error_clear(&err);
    if (ta && tb) TK_CHECK(tk_dcfg_trace_compare(ta, tb, &d, &err) == TK_OK);
    tk_dcfg_trace_free(ta);
    tk_dcfg_trace_free(tb);
    return d;
}

/* diff ok_basic ok_multi_row: edge 4 of thread 0 of process 29003 */
static void test_divergence(void)
{
    tk_dcfg_trace_diff d =
        compare(VECTORS "ok_basic.trace.json", VECTORS "ok_multi_row.trace.json");
    TK_CHECK(d.kind == TK_DCFG_TRACE_DIVERGE);
    TK_CHECK_EQ_U64(d.pid, 29003);
    TK_CHECK_EQ_U64(d.tid, 0);
    TK_CHECK_EQ_U64(d.index + 1, 4);
    TK_CHECK(d.has[0] && d.has[1]);
    TK_CHECK_EQ_U64(d.edge[0], 303);
    TK_CHECK_EQ_U64(d.chunk[0], 1);
    TK_CHECK_EQ_U64(d.chunk_pos[0], 4);
    TK_CHECK_EQ_U64(d.edge[1], 306);
    TK_CHECK_EQ_U64(d.chunk[1], 2);
    TK_CHECK_EQ_U64(d.chunk_pos[1], 1);
}

/* diff ok_count1 ok_basic: the first trace's thread ends after 1 edge */
static void test_prefix(void)
{
    tk_dcfg_trace_diff d = compare(VECTORS "ok_count1.trace.json", VECTORS "ok_basic.trace.json");
    TK_CHECK(d.kind == TK_DCFG_TRACE_DIVERGE);
    TK_CHECK_EQ_U64(d.index, 1);
    TK_CHECK(!d.has[0]);
    TK_CHECK(d.has[1]);
    TK_CHECK_EQ_U64(d.edge[1], 303);
    TK_CHECK_EQ_U64(d.chunk[1], 1);
    TK_CHECK_EQ_U64(d.chunk_pos[1], 2);
}

/* diff ok_basic ok_dict: the same edges, written otherwise */
static void test_same(void)
{
    tk_dcfg_trace_diff d = compare(VECTORS "ok_basic.trace.json", VECTORS "ok_dict.trace.json");
    TK_CHECK(d.kind == TK_DCFG_TRACE_SAME);
}

/* A thread only the second trace has (ok_basic with a thread 7 added). */
static void test_only_in(void)
{
    static const char two[] =
        "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0,\n"
        " \"PROCESSES\" : [ [ \"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", "
        "\"THREAD_DATA\" ],\n"
        "  [ 29003, { },\n"
        "   [ [\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"],\n"
        "    [1690, \"0\", [303]], [1690, \"1\", [1193]], [303, \"\", [306]],\n"
        "    [306, \"0\", [303]], [306, \"1\", [1193]], [1193, \"\", [1905]] ],\n"
        "   [ [ \"THREAD_ID\", \"TRACE_DATA\" ],\n"
        "    [ 0, [ [ \"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", "
        "\"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\" ],\n"
        "      [ 0, 30, 6, 1690, \"I\" ] ] ],\n"
        "    [ 7, [ [ \"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", "
        "\"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\" ],\n"
        "      [ 0, 30, 6, 1690, \"I\" ] ] ] ] ] ] }\n";
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace *a = open_trace(VECTORS "ok_basic.trace.json"), *b = NULL;
    TK_CHECK(tk_dcfg_trace_open_memory(&b, two, sizeof two - 1, "two", NULL, &err) == TK_OK);
    tk_dcfg_trace_diff d;
    if (a && b) {
        TK_CHECK(tk_dcfg_trace_compare(a, b, &d, &err) == TK_OK);
        TK_CHECK(d.kind == TK_DCFG_TRACE_ONLY_IN);
        TK_CHECK_EQ_U64(d.pid, 29003);
        TK_CHECK_EQ_U64(d.tid, 7);
        TK_CHECK_EQ_U64(d.side, 1);
        TK_CHECK(tk_dcfg_trace_compare(b, a, &d, &err) == TK_OK);
        TK_CHECK(d.kind == TK_DCFG_TRACE_ONLY_IN);
        TK_CHECK_EQ_U64(d.side, 0);
    }
    tk_dcfg_trace_free(a);
    tk_dcfg_trace_free(b);
}

TK_TEST_MAIN(TK_CASE(test_divergence), TK_CASE(test_prefix), TK_CASE(test_same),
             TK_CASE(test_only_in))
