/* The DCFG-Trace report through the public API (tracekit/dcfg_trace_report.h): the numbers
 * `tracekit report` prints on the sample traces (tests/cli/dcfg_trace/pass_gen11_report.out,
 * report_plain.out). */
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static void check_row(const tk_dcfg_trace_report *r, tk_dcfg_trace_report_table t, size_t i,
                      uint64_t value, uint32_t id, uint64_t extra)
{
    if (!TK_CHECK(i < tk_dcfg_trace_report_count(r, t)))
        return;
    const tk_dcfg_trace_report_row *row = tk_dcfg_trace_report_row_at(r, t, i);
    TK_CHECK_EQ_U64(row->value, value);
    TK_CHECK_EQ_U64(row->id, id);
    TK_CHECK_EQ_U64(row->extra, extra);
}

/* report --dcfg gen11.dcfg.json gen11.level9.trace.json: thread 0 of process 77 */
static void test_report_gen11(void)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace *t = NULL;
    tk_cfg *cfg = NULL;
    if (!TK_CHECK(tk_dcfg_trace_open(&t, "tests/data/dcfg_trace/pass/gen11.level9.trace.json",
                                     NULL, &err) == TK_OK) ||
        !TK_CHECK(tk_dcfg_read_path(&cfg, "tests/data/dcfg_trace/pass/gen11.dcfg.json", NULL,
                                    &err) == TK_OK))
        return;
    tk_dcfg_trace_report_options o = TK_DCFG_TRACE_REPORT_OPTIONS_INIT;
    o.threads = 2;
    tk_dcfg_trace_report *r;
    TK_CHECK(tk_dcfg_trace_report_new(&r, t, 0, &o, &err) == TK_OK);
    tk_dcfg_trace_report_stats st;
    tk_dcfg_trace_report_get_stats(r, &st);
    TK_CHECK_EQ_U64(st.pid, 77);
    TK_CHECK_EQ_U64(st.thread_id, 0);
    TK_CHECK_EQ_U64(st.chunks, 6);
    TK_CHECK_EQ_U64(st.edges, 400);
    TK_CHECK_EQ_U64(st.instructions, 3915);
    TK_CHECK_EQ_U64(st.distinct_edges, 12);
    TK_CHECK_EQ_U64(tk_dcfg_trace_report_count(r, TK_DCFG_TRACE_TOP_EDGES), 12);
    check_row(r, TK_DCFG_TRACE_TOP_EDGES, 0, 200, 124, 0);
    check_row(r, TK_DCFG_TRACE_TOP_EDGES, 1, 150, 122, 0);
    check_row(r, TK_DCFG_TRACE_TOP_EDGES, 2, 15, 121, 0);
    TK_CHECK_EQ_U64(tk_dcfg_trace_report_count(r, TK_DCFG_TRACE_HOT_BLOCKS), 0);
    uint32_t pix = tk_cfg_find_process(cfg, 77);
    if (TK_CHECK(pix != TK_CFG_NONE)) {
        TK_CHECK(tk_dcfg_trace_report_hot(r, &cfg->processes[pix], &err) == TK_OK);
        check_row(r, TK_DCFG_TRACE_HOT_BLOCKS, 0, 2568, 66, 214);
        check_row(r, TK_DCFG_TRACE_HOT_BLOCKS, 1, 1155, 65, 165);
        check_row(r, TK_DCFG_TRACE_HOT_BLOCKS, 2, 165, 67, 15);
        check_row(r, TK_DCFG_TRACE_HOT_LOOPS, 0, 3889, 65, 165);
        check_row(r, TK_DCFG_TRACE_HOT_LOOPS, 1, 2734, 66, 214);
        check_row(r, TK_DCFG_TRACE_HOT_LOOPS, 2, 166, 67, 15);
    }
    tk_dcfg_trace_report_free(r);
    /* thread 1; then no such thread */
    TK_CHECK(tk_dcfg_trace_report_new(&r, t, 1, NULL, &err) == TK_OK);
    check_row(r, TK_DCFG_TRACE_TOP_EDGES, 0, 211, 124, 0);
    tk_dcfg_trace_report_free(r);
    TK_CHECK(tk_dcfg_trace_report_new(&r, t, tk_dcfg_trace_thread_count(t), NULL, &err) ==
             TK_ERR_ARG);
    tk_cfg_free(cfg);
    tk_dcfg_trace_free(t);
}

/* report ok_multi_row.trace.json: 2 chunks, 6 edges, 32 instructions */
static void test_report_plain(void)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace *t = NULL;
    if (!TK_CHECK(tk_dcfg_trace_open(
                      &t, "tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_multi_row.trace.json",
                      NULL, &err) == TK_OK))
        return;
    tk_dcfg_trace_report *r;
    TK_CHECK(tk_dcfg_trace_report_new(&r, t, 0, NULL, &err) == TK_OK);
    tk_dcfg_trace_report_stats st;
    tk_dcfg_trace_report_get_stats(r, &st);
    TK_CHECK_EQ_U64(st.pid, 29003);
    TK_CHECK_EQ_U64(st.chunks, 2);
    TK_CHECK_EQ_U64(st.edges, 6);
    TK_CHECK_EQ_U64(st.instructions, 32);
    TK_CHECK_EQ_U64(st.distinct_edges, 5);
    check_row(r, TK_DCFG_TRACE_TOP_EDGES, 0, 2, 306, 0);
    check_row(r, TK_DCFG_TRACE_TOP_EDGES, 1, 1, 303, 0);
    tk_dcfg_trace_report_free(r);
    tk_dcfg_trace_free(t);
}

TK_TEST_MAIN(TK_CASE(test_report_gen11), TK_CASE(test_report_plain))
