/* The XRay report and diff through the public API (tracekit/latency.h): the numbers and
 * orders `tracekit report` and `tracekit diff` print on the sample traces
 * (tests/cli/xray/report-*.out, diff.out). */
#include <stdio.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

/* A trace's latency accounting (the map of binary for names when not NULL). */
typedef struct run {
    tk_input *in;
    tk_xray_reader *r;
    tk_xray_map *map;
    tk_xray_events *e;
    tk_event_source src;
    tk_latency *l;
} run;

static int run_open(run *x, const char *path, const char *binary, int per_thread)
{
    tk_error err;
    tk_error_clear(&err);
    memset(x, 0, sizeof *x);
    if (!TK_CHECK(tk_input_open(&x->in, path, NULL, &err) == TK_OK) ||
        !TK_CHECK(tk_xray_open(&x->r, x->in, NULL, &err) == TK_OK) ||
        (binary && !TK_CHECK(tk_xray_map_read(&x->map, binary, &err) == TK_OK)) ||
        !TK_CHECK(tk_xray_events_open(&x->e, x->r, x->map, &err) == TK_OK))
        return 0;
    tk_xray_events_source(x->e, &x->src);
    x->l = NULL;
    (void)tk_latency_open(&x->l, per_thread, NULL);
    return TK_CHECK(x->l && tk_latency_run(x->l, &x->src, &err) == TK_OK);
}

static void run_close(run *x)
{
    tk_latency_free(x->l);
    tk_xray_events_free(x->e);
    tk_xray_map_free(x->map);
    tk_xray_free(x->r);
    tk_input_free(x->in);
}

/* "%.3f" of ticks in us, as the text report prints them */
static const char *us(uint64_t ticks, double hz, char *buf)
{
    snprintf(buf, 32, "%.3f", tk_ticks_to_unit(ticks, hz, TK_UNIT_US));
    return buf;
}

/* report -m calltree calltree.fdr: by total time, the heaviest first */
static void test_report_by_sum(void)
{
    run x;
    tk_error err;
    tk_error_clear(&err);
    if (!run_open(&x, "tests/data/xray/pass/calltree.fdr", "tests/data/xray/bin/calltree", 0))
        return;
    tk_latency_report *rep;
    TK_CHECK(tk_latency_report_open(&rep, x.l, NULL, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_latency_report_count(rep), 56);
    const tk_latency_row *r0 = tk_latency_report_row(rep, 0), *r1 = tk_latency_report_row(rep, 1);
    char b[32];
    TK_CHECK_EQ_U64(r0->func, 3);
    TK_CHECK_EQ_U64(r0->count, 1);
    TK_CHECK_STR(us(r0->sum, x.src.ticks_per_second, b), "2200450.896");
    TK_CHECK_EQ_U64(r1->func, 5);
    TK_CHECK_EQ_U64(r1->count, 930);
    TK_CHECK_STR(us(r1->sum, x.src.ticks_per_second, b), "3767.917");
    TK_CHECK_STR(us(r1->median, x.src.ticks_per_second, b), "0.240");
    TK_CHECK_STR(us(r1->p99, x.src.ticks_per_second, b), "57.918");
    for (size_t i = 1; i < tk_latency_report_count(rep); i++)
        TK_CHECK(tk_latency_report_row(rep, i - 1)->sum >= tk_latency_report_row(rep, i)->sum);
    tk_latency_report_free(rep);
    run_close(&x);
}

/* report -m mtpool mtpool.basic --sort=func: by name, ascending (the map's names) */
static void test_report_by_name(void)
{
    run x;
    tk_error err;
    tk_error_clear(&err);
    if (!run_open(&x, "tests/data/xray/pass/mtpool.basic", "tests/data/xray/bin/mtpool", 0)) return;
    tk_latency_report_options o = TK_LATENCY_REPORT_OPTIONS_INIT;
    o.key = TK_LATENCY_KEY_FUNC;
    o.names = &x.src;
    tk_latency_report *rep;
    TK_CHECK(tk_latency_report_open(&rep, x.l, &o, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_latency_report_count(rep), 19);
    static const uint64_t first[] = {12, 5, 19, 15, 1, 6, 7, 8}; /* compute, handle_job, ... */
    for (size_t i = 0; i < 8 && i < tk_latency_report_count(rep); i++)
        TK_CHECK_EQ_U64(tk_latency_report_row(rep, i)->func, first[i]);
    TK_CHECK_EQ_U64(tk_latency_report_row(rep, 2)->count, 160);
    tk_latency_report_free(rep);
    /* descending names: the same rows the other way round */
    o.order = TK_LATENCY_ORDER_DESC;
    TK_CHECK(tk_latency_report_open(&rep, x.l, &o, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_latency_report_row(rep, 18)->func, 12);
    tk_latency_report_free(rep);
    run_close(&x);
}

/* report mtpool.fdr --per-thread --sort count --top 3 */
static void test_report_per_thread_top(void)
{
    run x;
    tk_error err;
    tk_error_clear(&err);
    if (!run_open(&x, "tests/data/xray/pass/mtpool.fdr", NULL, 1)) return;
    tk_latency_report_options o = TK_LATENCY_REPORT_OPTIONS_INIT;
    o.key = TK_LATENCY_KEY_COUNT;
    o.top = 3;
    tk_latency_report *rep;
    TK_CHECK(tk_latency_report_open(&rep, x.l, &o, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_latency_report_count(rep), 3);
    static const int64_t tid[] = {6263, 6261, 6263};
    static const uint64_t func[] = {13, 13, 16}, count[] = {1250, 1213, 938};
    for (size_t i = 0; i < 3 && i < tk_latency_report_count(rep); i++) {
        const tk_latency_row *r = tk_latency_report_row(rep, i);
        TK_CHECK_EQ_I64(r->tid, tid[i]);
        TK_CHECK_EQ_U64(r->func, func[i]);
        TK_CHECK_EQ_U64(r->count, count[i]);
    }
    tk_latency_report_free(rep);
    run_close(&x);
}

/* diff calltree.fdr calltree.basic: by the change of the total time */
static void test_diff(void)
{
    run a, b;
    tk_error err;
    tk_error_clear(&err);
    tk_latency_diff *d;
    TK_CHECK(tk_latency_diff_open(&d, TK_UNIT_US, &err) == TK_OK);
    if (!run_open(&a, "tests/data/xray/pass/calltree.fdr", NULL, 0)) return;
    TK_CHECK(tk_latency_diff_add(d, 0, a.l, a.src.ticks_per_second, &err) == TK_OK);
    run_close(&a);
    TK_CHECK(tk_latency_diff_finish(d, &err) == TK_ERR_ARG); /* B missing */
    if (!run_open(&b, "tests/data/xray/pass/calltree.basic", NULL, 0)) return;
    TK_CHECK(tk_latency_diff_add(d, 0, b.l, b.src.ticks_per_second, &err) == TK_ERR_ARG);
    TK_CHECK(tk_latency_diff_add(d, 1, b.l, b.src.ticks_per_second, &err) == TK_OK);
    run_close(&b);
    TK_CHECK(tk_latency_diff_finish(d, &err) == TK_OK);
    TK_CHECK(tk_latency_diff_has_clock(d));
    TK_CHECK_EQ_U64(tk_latency_diff_count(d), 57);
    const tk_latency_diff_row *r0 = tk_latency_diff_row_at(d, 0);
    const tk_latency_diff_row *r1 = tk_latency_diff_row_at(d, 1);
    const tk_latency_diff_row *r2 = tk_latency_diff_row_at(d, 2);
    char buf[64];
    TK_CHECK_EQ_U64(r0->func, 3);
    TK_CHECK_EQ_U64(r0->count[0], 1);
    TK_CHECK_EQ_U64(r0->count[1], 0);
    snprintf(buf, sizeof buf, "%.3f %.3f", r0->sum[0], r0->sum[1]);
    TK_CHECK_STR(buf, "2200450.896 0.000");
    TK_CHECK_EQ_U64(r1->func, 1);
    snprintf(buf, sizeof buf, "%.3f", r1->median[1]);
    TK_CHECK_STR(buf, "827.248");
    TK_CHECK_EQ_U64(r2->func, 5);
    TK_CHECK_EQ_U64(r2->count[0], 930);
    TK_CHECK_EQ_U64(r2->count[1], 465);
    snprintf(buf, sizeof buf, "%.3f %.3f %+.3f", r2->sum[0], r2->sum[1], r2->sum[1] - r2->sum[0]);
    TK_CHECK_STR(buf, "3767.917 3077.560 -690.356");
    tk_latency_diff_free(d);
}

TK_TEST_MAIN(TK_CASE(test_report_by_sum), TK_CASE(test_report_by_name),
             TK_CASE(test_report_per_thread_top), TK_CASE(test_diff))
