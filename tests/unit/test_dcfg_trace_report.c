/* The DCFG-Trace report through the public API (tracekit/dcfg_trace_report.h): the numbers
 * `tracekit report` prints on the sample traces (tests/cli/dcfg_trace/pass_gen11_report.out,
 * report_plain.out). */
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static void check_row(const tk_dcfg_trace_report *r, tk_dcfg_trace_report_table t, size_t i,
                      uint64_t value, uint32_t id, uint64_t extra)
{
    if (!TK_CHECK(i < tk_dcfg_trace_report_count(r, t))) return;
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
    if (!TK_CHECK(tk_dcfg_trace_open(&t, "tests/data/dcfg_trace/pass/gen11.level9.trace.json", NULL,
                                     &err) == TK_OK) ||
        !TK_CHECK(tk_dcfg_read_path(&cfg, "tests/data/dcfg_trace/pass/gen11.dcfg.json", NULL,
                                    &err) == TK_OK))
        return;
    tk_dcfg_trace_report_options o = TK_DCFG_TRACE_REPORT_OPTIONS_INIT;
    o.threads = 2;
    tk_dcfg_trace_report *r;
    TK_CHECK(tk_dcfg_trace_report_open(&r, t, 0, &o, &err) == TK_OK);
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
        TK_CHECK(tk_dcfg_trace_report_hot(r, tk_cfg_process_at(cfg, pix), &err) == TK_OK);
        check_row(r, TK_DCFG_TRACE_HOT_BLOCKS, 0, 2568, 66, 214);
        check_row(r, TK_DCFG_TRACE_HOT_BLOCKS, 1, 1155, 65, 165);
        check_row(r, TK_DCFG_TRACE_HOT_BLOCKS, 2, 165, 67, 15);
        check_row(r, TK_DCFG_TRACE_HOT_LOOPS, 0, 3889, 65, 165);
        check_row(r, TK_DCFG_TRACE_HOT_LOOPS, 1, 2734, 66, 214);
        check_row(r, TK_DCFG_TRACE_HOT_LOOPS, 2, 166, 67, 15);
    }
    /* the cut (report --top 2): the first rows of every table, before and after hot */
    tk_dcfg_trace_report_cut(r, 2);
    TK_CHECK_EQ_U64(tk_dcfg_trace_report_count(r, TK_DCFG_TRACE_TOP_EDGES), 2);
    TK_CHECK_EQ_U64(tk_dcfg_trace_report_total(r, TK_DCFG_TRACE_TOP_EDGES), 12);
    TK_CHECK_EQ_U64(tk_dcfg_trace_report_count(r, TK_DCFG_TRACE_HOT_BLOCKS), 2);
    TK_CHECK(tk_dcfg_trace_report_total(r, TK_DCFG_TRACE_HOT_BLOCKS) > 2);
    tk_dcfg_trace_report_cut(r, 100);
    TK_CHECK_EQ_U64(tk_dcfg_trace_report_count(r, TK_DCFG_TRACE_TOP_EDGES), 12);
    tk_dcfg_trace_report_cut(r, 0);
    TK_CHECK_EQ_U64(tk_dcfg_trace_report_count(r, TK_DCFG_TRACE_TOP_EDGES), 12);
    tk_dcfg_trace_report_free(r);
    /* thread 1; then no such thread */
    TK_CHECK(tk_dcfg_trace_report_open(&r, t, 1, NULL, &err) == TK_OK);
    check_row(r, TK_DCFG_TRACE_TOP_EDGES, 0, 211, 124, 0);
    tk_dcfg_trace_report_free(r);
    TK_CHECK(tk_dcfg_trace_report_open(&r, t, tk_dcfg_trace_thread_count(t), NULL, &err) ==
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
    TK_CHECK(tk_dcfg_trace_report_open(&r, t, 0, NULL, &err) == TK_OK);
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

/* ---- partial reports: chunk ranges merged in every grouping, serialised ------------------ */

static const char *const GEN11 = "tests/data/dcfg_trace/pass/gen11.level9.trace.json";

/* The report of thread 0's chunks [a, b) (NULL on failure); an empty one as [6, 6) ([0, 0)
 * is every chunk). */
static tk_dcfg_trace_report *part_of(const tk_dcfg_trace *t, size_t a, size_t b)
{
    if (a == b) a = b = 6;
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace_report_options o = TK_DCFG_TRACE_REPORT_OPTIONS_INIT;
    o.chunk_begin = a;
    o.chunk_end = b;
    tk_dcfg_trace_report *r = NULL;
    TK_CHECK(tk_dcfg_trace_report_open(&r, t, 0, &o, &err) == TK_OK);
    return r;
}

/* r's bytes equal want's (want_size). */
static int same_bytes(const tk_dcfg_trace_report *r, const uint8_t *want, size_t want_size)
{
    uint8_t *d = NULL;
    size_t n = 0;
    tk_error err;
    tk_error_clear(&err);
    int same = tk_dcfg_trace_report_serialize(r, &d, &n, &err) == TK_OK && n == want_size &&
               memcmp(d, want, n) == 0;
    tk_free(d);
    return same;
}

/* [0, i), [i, j), [j, 6) merged as (x + y) + z and as x + (y + z), for every 0 <= i <= j <= 6:
 * each gives the whole thread's bytes and table. */
static void test_report_merge_groupings(void)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace *t = NULL;
    if (!TK_CHECK(tk_dcfg_trace_open(&t, GEN11, NULL, &err) == TK_OK)) return;
    tk_dcfg_trace_report *whole = part_of(t, 0, 6);
    uint8_t *want = NULL;
    size_t want_size = 0;
    if (!whole ||
        !TK_CHECK(tk_dcfg_trace_report_serialize(whole, &want, &want_size, &err) == TK_OK)) {
        tk_dcfg_trace_report_free(whole);
        tk_dcfg_trace_free(t);
        return;
    }
    for (size_t i = 0; i <= 6; i++)
        for (size_t j = i; j <= 6; j++)
            for (int right = 0; right < 2; right++) {
                tk_dcfg_trace_report *x = part_of(t, 0, i), *y = part_of(t, i, j),
                                     *z = part_of(t, j, 6);
                if (!x || !y || !z) {
                    tk_dcfg_trace_report_free(x);
                    tk_dcfg_trace_report_free(y);
                    tk_dcfg_trace_report_free(z);
                    continue;
                }
                if (right) {
                    TK_CHECK(tk_dcfg_trace_report_merge(y, z, &err) == TK_OK);
                    TK_CHECK(tk_dcfg_trace_report_merge(x, y, &err) == TK_OK);
                } else {
                    TK_CHECK(tk_dcfg_trace_report_merge(x, y, &err) == TK_OK);
                    TK_CHECK(tk_dcfg_trace_report_merge(x, z, &err) == TK_OK);
                }
                TK_CHECK(same_bytes(x, want, want_size));
                size_t n = tk_dcfg_trace_report_count(x, TK_DCFG_TRACE_TOP_EDGES);
                TK_CHECK_EQ_U64(n, tk_dcfg_trace_report_count(whole, TK_DCFG_TRACE_TOP_EDGES));
                for (size_t k = 0; k < n; k++) {
                    const tk_dcfg_trace_report_row *u = tk_dcfg_trace_report_row_at(
                                                       x, TK_DCFG_TRACE_TOP_EDGES, k),
                                                   *v = tk_dcfg_trace_report_row_at(
                                                       whole, TK_DCFG_TRACE_TOP_EDGES, k);
                    TK_CHECK(u->value == v->value && u->id == v->id && u->extra == v->extra);
                }
                tk_dcfg_trace_report_stats a, b;
                tk_dcfg_trace_report_get_stats(x, &a);
                tk_dcfg_trace_report_get_stats(whole, &b);
                TK_CHECK_EQ_U64(a.chunks, b.chunks);
                TK_CHECK_EQ_U64(a.edges, b.edges);
                TK_CHECK_EQ_U64(a.instructions, b.instructions);
                TK_CHECK_EQ_U64(a.distinct_edges, b.distinct_edges);
                TK_CHECK(a.pid == b.pid && a.thread_id == b.thread_id);
                tk_dcfg_trace_report_free(x);
                tk_dcfg_trace_report_free(y);
                tk_dcfg_trace_report_free(z);
            }
    /* another thread's report does not merge */
    tk_dcfg_trace_report_options o = TK_DCFG_TRACE_REPORT_OPTIONS_INIT;
    tk_dcfg_trace_report *other = NULL;
    if (TK_CHECK(tk_dcfg_trace_report_open(&other, t, 1, &o, &err) == TK_OK))
        TK_CHECK(tk_dcfg_trace_report_merge(whole, other, &err) == TK_ERR_ARG);
    tk_dcfg_trace_report_free(other);
    tk_free(want);
    tk_dcfg_trace_report_free(whole);
    tk_dcfg_trace_free(t);
}

/* The bytes read back serialise to themselves; damaged bytes are refused, located. */
static void test_report_deserialize(void)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace *t = NULL;
    if (!TK_CHECK(tk_dcfg_trace_open(&t, GEN11, NULL, &err) == TK_OK)) return;
    tk_dcfg_trace_report *r = part_of(t, 1, 4), *back = NULL;
    uint8_t *d = NULL;
    size_t n = 0;
    if (r && TK_CHECK(tk_dcfg_trace_report_serialize(r, &d, &n, &err) == TK_OK) &&
        TK_CHECK(tk_dcfg_trace_report_deserialize(&back, d, n, &err) == TK_OK)) {
        TK_CHECK(same_bytes(back, d, n));
        TK_CHECK_EQ_U64(tk_dcfg_trace_report_count(back, TK_DCFG_TRACE_TOP_EDGES),
                        tk_dcfg_trace_report_count(r, TK_DCFG_TRACE_TOP_EDGES));
        tk_dcfg_trace_report *bad = NULL;
        for (size_t cut = 0; cut < n; cut++) /* every prefix is short of something */
            TK_CHECK(tk_dcfg_trace_report_deserialize(&bad, d, cut, &err) == TK_ERR_FORMAT);
        uint8_t *more = malloc(n + 1);
        if (more) {
            memcpy(more, d, n);
            more[n] = 0;
            TK_CHECK(tk_dcfg_trace_report_deserialize(&bad, more, n + 1, &err) == TK_ERR_FORMAT);
            more[n - 1] ^= 1; /* the last count changed: the counts no longer add up */
            TK_CHECK(tk_dcfg_trace_report_deserialize(&bad, more, n, &err) == TK_ERR_FORMAT);
            free(more);
        }
        TK_CHECK(bad == NULL);
    }
    tk_free(d);
    tk_dcfg_trace_report_free(back);
    tk_dcfg_trace_report_free(r);
    tk_dcfg_trace_free(t);
}

TK_TEST_MAIN(TK_CASE(test_report_gen11), TK_CASE(test_report_plain),
             TK_CASE(test_report_merge_groupings), TK_CASE(test_report_deserialize))
