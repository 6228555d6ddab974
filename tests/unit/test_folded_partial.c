/* Folded-stacks partials (tracekit/folded_partial.h): of XRay traces, merged in every
 * grouping, written, they are the bytes tk_export_folded writes of the traces chained, with
 * both weights, with and without threads; their bytes read back; partials of another weight,
 * or of a clock that tk_event_chain_init refuses to chain (another rate, or the same rate in
 * another time unit), refused, into unchanged; bytes with a clock rate that is not a number
 * refused. The folded diff of two partials (tk_prof_folded_diff_open_partials) has the rows of
 * the diff of their two sources; partials of two weights refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

#define X "tests/data/xray/pass/"

typedef struct trace {
    tk_input *in;
    tk_xray_reader *r;
    tk_xray_events *e;
    tk_event_source src;
} trace;

static int trace_open(trace *t, const char *path)
{
    memset(t, 0, sizeof *t);
    tk_xray_options o = TK_XRAY_OPTIONS_INIT;
    return TK_CHECK(tk_input_open(&t->in, path, NULL, NULL) == TK_OK &&
                    tk_xray_open(&t->r, t->in, &o, NULL) == TK_OK &&
                    tk_xray_events_open(&t->e, t->r, NULL, NULL) == TK_OK) &&
           (tk_xray_events_source(t->e, &t->src), 1);
}

static void trace_close(trace *t)
{
    tk_xray_events_free(t->e);
    tk_xray_free(t->r);
    tk_input_free(t->in);
}

typedef struct exported {
    const tk_event_source *src;
    tk_folded_weight weight;
    int per_thread;
} exported;

static tk_status write_export(const void *x, const tk_writer *w, tk_error *err)
{
    const exported *e = x;
    return tk_export_folded(e->src, w, e->weight, e->per_thread, err);
}

static tk_status write_partial(const void *x, const tk_writer *w, tk_error *err)
{
    return tk_folded_partial_write(x, w, err);
}

/* The partial of each of paths[0..n) on its own. */
static void partials(const char *const *paths, int n, tk_folded_weight w, int per_thread,
                     tk_folded_partial **out)
{
    for (int k = 0; k < n; k++) {
        trace t;
        out[k] = NULL;
        if (trace_open(&t, paths[k]))
            TK_CHECK(tk_folded_partial_open(&out[k], &t.src, w, per_thread, NULL) == TK_OK);
        trace_close(&t);
    }
}

/* per_thread: the stacks of several traces start at their threads' processes; root (when not
 * NULL) is one of them. */
static void check_set(const char *const *paths, tk_folded_weight w, int per_thread,
                      const char *root)
{
    trace t[3];
    tk_event_source srcs[3], chained;
    for (int k = 0; k < 3; k++) {
        if (!trace_open(&t[k], paths[k])) return;
        srcs[k] = t[k].src;
    }
    tk_event_chain chain;
    TK_CHECK(tk_event_chain_init(&chain, srcs, 3, &chained, NULL) == TK_OK);
    exported e = {&chained, w, per_thread};
    char *want = tk_test_text_of(write_export, &e);
    for (int k = 0; k < 3; k++) trace_close(&t[k]);
    if (want && per_thread) {
        TK_CHECK(strncmp(want, "process ", 8) == 0 && !strstr(want, "\nthread "));
        if (root) TK_CHECK(strstr(want, root) != NULL);
    }
    /* ((0 + 1) + 2) and (0 + (1 + 2)) */
    tk_folded_partial *a[3], *b[3];
    partials(paths, 3, w, per_thread, a);
    partials(paths, 3, w, per_thread, b);
    if (!a[0] || !a[1] || !a[2] || !b[0] || !b[1] || !b[2] || !want) return;
    TK_CHECK(tk_folded_partial_merge(a[0], a[1], NULL) == TK_OK);
    TK_CHECK(tk_folded_partial_merge(a[0], a[2], NULL) == TK_OK);
    TK_CHECK(tk_folded_partial_merge(b[1], b[2], NULL) == TK_OK);
    TK_CHECK(tk_folded_partial_merge(b[0], b[1], NULL) == TK_OK);
    char *got_a = tk_test_text_of(write_partial, a[0]),
         *got_b = tk_test_text_of(write_partial, b[0]);
    TK_CHECK(got_a && strcmp(got_a, want) == 0);
    TK_CHECK(got_b && strcmp(got_b, want) == 0);
    TK_CHECK(strlen(want) > 20);
    /* the bytes read back write themselves; cut, refused */
    uint8_t *bytes = NULL, *again = NULL;
    size_t n = 0, n2 = 0;
    tk_folded_partial *back = NULL;
    TK_CHECK(tk_folded_partial_serialize(a[0], &bytes, &n, NULL) == TK_OK);
    TK_CHECK(tk_folded_partial_deserialize(&back, bytes, n, NULL) == TK_OK);
    TK_CHECK(back && tk_folded_partial_serialize(back, &again, &n2, NULL) == TK_OK && n2 == n &&
             memcmp(bytes, again, n) == 0);
    for (size_t cut = 0; cut < n; cut += 1 + n / 200) {
        tk_folded_partial *bad = NULL;
        TK_CHECK(tk_folded_partial_deserialize(&bad, bytes, cut, NULL) == TK_ERR_FORMAT);
    }
    tk_free(bytes);
    tk_free(again);
    tk_folded_partial_free(back);
    free(want);
    free(got_a);
    free(got_b);
    for (int k = 0; k < 3; k++) {
        tk_folded_partial_free(a[k]);
        tk_folded_partial_free(b[k]);
    }
}

static void test_chained_traces(void)
{
    static const char *const mt[3] = {X "mtpool.fdr", X "mtpool-wrapped.fdr", X "mtpool.fdr"};
    static const char *const ct[3] = {X "calltree.fdr", X "mtpool.fdr", X "calltree-typed.fdr"};
    for (int per_thread = 0; per_thread < 2; per_thread++) {
        /* the third trace is the first again: its threads are of process 2 * 10^10 + pid */
        check_set(mt, TK_FOLDED_TIME, per_thread, "\nprocess 20000006259 thread 6263;");
        check_set(mt, TK_FOLDED_CALLS, per_thread, "\nprocess 20000006259 thread 6261;");
        check_set(ct, TK_FOLDED_TIME, per_thread, "process 6231 thread 6231;");
    }
}

/* The processes of several traces' threads: the pid, or K * 10^10 + pid for a thread of trace K
 * whose pid an earlier trace had, in any order of the threads. */
static void test_process_keys(void)
{
    static const int64_t pids[] = {7, 7, 9, 7, 9, 0, 0, 5};
    static const uint32_t traces[] = {0, 0, 1, 2, 3, 3, 4, UINT32_MAX};
    static const int64_t want[] = {7, 7, 9, 20000000007, 30000000009, 0, 40000000000, 5};
    int64_t keys[8];
    TK_CHECK(tk_event_process_keys(pids, traces, 8, keys, NULL) == TK_OK);
    for (int i = 0; i < 8; i++) TK_CHECK(keys[i] == want[i]);
    /* the same threads in another order: the same keys */
    static const int order[] = {7, 4, 6, 3, 1, 5, 2, 0};
    int64_t p2[8], k2[8];
    uint32_t t2[8];
    for (int i = 0; i < 8; i++) {
        p2[i] = pids[order[i]];
        t2[i] = traces[order[i]];
    }
    TK_CHECK(tk_event_process_keys(p2, t2, 8, k2, NULL) == TK_OK);
    for (int i = 0; i < 8; i++) TK_CHECK(k2[i] == want[order[i]]);
    TK_CHECK(tk_event_process_keys(NULL, NULL, 0, NULL, NULL) == TK_OK);
}

static void test_refused(void)
{
    static const char *const one[1] = {X "calltree.fdr"};
    tk_folded_partial *a, *b;
    partials(one, 1, TK_FOLDED_TIME, 0, &a);
    partials(one, 1, TK_FOLDED_CALLS, 0, &b);
    if (!a || !b) return;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_folded_partial_merge(a, b, &err) == TK_ERR_ARG);
    tk_folded_partial_free(a);
    tk_folded_partial_free(b);
}

/* The partial of src with its clock as given (rate, unit). */
static tk_folded_partial *partial_with_clock(const char *path, double rate, const char *unit)
{
    trace t;
    tk_folded_partial *p = NULL;
    if (trace_open(&t, path)) {
        t.src.ticks_per_second = rate;
        t.src.time_unit = unit;
        TK_CHECK(tk_folded_partial_open(&p, &t.src, TK_FOLDED_TIME, 0, NULL) == TK_OK);
    }
    trace_close(&t);
    return p;
}

/* Whether tk_event_chain_init chains two sources of these clocks. */
static int chained(double rate0, const char *unit0, double rate1, const char *unit1)
{
    tk_event_source srcs[2];
    memset(srcs, 0, sizeof srcs);
    srcs[0].ticks_per_second = rate0;
    srcs[0].time_unit = unit0;
    srcs[1].ticks_per_second = rate1;
    srcs[1].time_unit = unit1;
    tk_event_chain chain;
    tk_event_source out;
    return tk_event_chain_init(&chain, srcs, 2, &out, NULL) == TK_OK;
}

/* The merge refuses exactly the clocks the chain refuses: another rate, or the rate of an
 * emulated TSC (1 GHz, in ns) in ticks; into is unchanged. */
static void test_refused_clocks(void)
{
    static const struct {
        double rate;
        const char *unit;
    } clocks[] = {{1e9, "ns"}, {1e9, "ticks"}, {1e9, NULL}, {2.445e9, "ticks"}, {0, "ticks"}};
    const int n = (int)(sizeof clocks / sizeof *clocks);
    const char *path = X "calltree-emutsc.fdr";
    tk_folded_partial *alone = partial_with_clock(path, 1e9, "ns");
    char *want = alone ? tk_test_text_of(write_partial, alone) : NULL;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            tk_folded_partial *a = partial_with_clock(path, clocks[i].rate, clocks[i].unit);
            tk_folded_partial *b = partial_with_clock(path, clocks[j].rate, clocks[j].unit);
            if (!a || !b) break;
            int chains = chained(clocks[i].rate, clocks[i].unit, clocks[j].rate, clocks[j].unit);
            TK_CHECK(chains == (i == j));
            tk_error err;
            tk_error_clear(&err);
            tk_status st = tk_folded_partial_merge(a, b, &err);
            TK_CHECK(st == (chains ? TK_OK : TK_ERR_ARG));
            if (st != TK_OK) {
                TK_CHECK(strstr(err.message, "clock") != NULL);
                /* into unchanged (its stacks, in ns with its rate of 1 GHz, its clock) */
                char *got = tk_test_text_of(write_partial, a);
                if (clocks[i].rate == 1e9) TK_CHECK(got && want && strcmp(got, want) == 0);
                free(got);
                uint8_t *bytes = NULL;
                size_t size = 0;
                tk_folded_partial *back = NULL;
                TK_CHECK(tk_folded_partial_serialize(a, &bytes, &size, NULL) == TK_OK);
                TK_CHECK(tk_folded_partial_deserialize(&back, bytes, size, NULL) == TK_OK);
                if (back) TK_CHECK(tk_folded_partial_merge(back, b, NULL) == TK_ERR_ARG);
                tk_folded_partial_free(back);
                tk_free(bytes);
            }
            tk_folded_partial_free(a);
            tk_folded_partial_free(b);
        }
    free(want);
    tk_folded_partial_free(alone);
    /* a clock rate that is not a number: no source chains with it, its bytes are refused */
    TK_CHECK(!chained(NAN, "ticks", NAN, "ticks"));
    tk_folded_partial *nan = partial_with_clock(path, NAN, "ticks");
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (nan && TK_CHECK(tk_folded_partial_serialize(nan, &bytes, &size, NULL) == TK_OK)) {
        tk_folded_partial *back = NULL;
        tk_error err;
        tk_error_clear(&err);
        TK_CHECK(tk_folded_partial_deserialize(&back, bytes, size, &err) == TK_ERR_FORMAT);
        TK_CHECK(strstr(err.message, "not a number") != NULL);
    }
    tk_free(bytes);
    tk_folded_partial_free(nan);
}

/* The rows of d and e the same. */
static void same_rows(const tk_prof_folded_diff *d, const tk_prof_folded_diff *e)
{
    TK_CHECK_EQ_U64(tk_prof_folded_diff_count(d), tk_prof_folded_diff_count(e));
    for (size_t i = 0; i < tk_prof_folded_diff_count(d) && i < tk_prof_folded_diff_count(e); i++) {
        const tk_prof_folded_diff_row *r = tk_prof_folded_diff_row_at(d, i),
                                      *q = tk_prof_folded_diff_row_at(e, i);
        TK_CHECK(r->len == q->len && memcmp(r->stack, q->stack, r->len) == 0);
        TK_CHECK_EQ_U64(r->count[0], q->count[0]);
        TK_CHECK_EQ_U64(r->count[1], q->count[1]);
    }
}

static void test_folded_diff(void)
{
    static const char *const two[2] = {X "mtpool.basic", X "mtpool.fdr"};
    for (int w = 0; w < 2; w++) {
        tk_folded_weight weight = w ? TK_FOLDED_CALLS : TK_FOLDED_TIME;
        trace t[2];
        if (!trace_open(&t[0], two[0])) return;
        if (!trace_open(&t[1], two[1])) {
            trace_close(&t[0]);
            return;
        }
        tk_prof_folded_diff *want = NULL, *got = NULL;
        TK_CHECK(tk_prof_folded_diff_open_events(&want, &t[0].src, &t[1].src, weight, NULL) ==
                 TK_OK);
        trace_close(&t[0]);
        trace_close(&t[1]);
        tk_folded_partial *p[2];
        partials(two, 2, weight, 0, p);
        if (want && p[0] && p[1]) {
            TK_CHECK(tk_prof_folded_diff_open_partials(&got, p[0], p[1], NULL) == TK_OK);
            TK_CHECK(tk_prof_folded_diff_count(want) > 20);
            if (got) same_rows(want, got);
        }
        tk_prof_folded_diff_free(want);
        tk_prof_folded_diff_free(got);
        tk_folded_partial_free(p[0]);
        tk_folded_partial_free(p[1]);
    }
    /* another weight, or threads apart on one side only: refused */
    tk_folded_partial *time = NULL, *calls = NULL, *threads = NULL;
    partials(two, 1, TK_FOLDED_TIME, 0, &time);
    partials(two, 1, TK_FOLDED_CALLS, 0, &calls);
    partials(two, 1, TK_FOLDED_TIME, 1, &threads);
    tk_prof_folded_diff *d = (tk_prof_folded_diff *)&d;
    tk_error err;
    if (time && calls && threads) {
        TK_CHECK(tk_prof_folded_diff_open_partials(&d, time, calls, &err) == TK_ERR_ARG && !d);
        d = (tk_prof_folded_diff *)&d;
        TK_CHECK(tk_prof_folded_diff_open_partials(&d, time, threads, &err) == TK_ERR_ARG && !d);
    }
    tk_folded_partial_free(time);
    tk_folded_partial_free(calls);
    tk_folded_partial_free(threads);
}

TK_TEST_MAIN(TK_CASE(test_chained_traces), TK_CASE(test_process_keys), TK_CASE(test_refused),
             TK_CASE(test_refused_clocks), TK_CASE(test_folded_diff))
