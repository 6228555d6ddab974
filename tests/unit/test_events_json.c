/* JSON events (tracekit/events_json.h): the export of a trace; the JSON events of traces chained
 * made part by part and joined in order equal the export of the chain, byte for byte, also
 * where a trace fails (every event before the failure written); each event of several traces
 * with its "trace", none of one; a part out of order, a source
 * the chain has not, a failing writer. */
#include <errno.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

typedef struct trace_set {
    tk_input *in[8];
    tk_xray_reader *r[8];
    tk_xray_events *e[8];
    tk_event_source src[8];
    size_t n;
    tk_event_chain chain;
    tk_event_source all; /* the chain of src */
} trace_set;

static void set_open(trace_set *t, const char *const *paths, size_t n)
{
    memset(t, 0, sizeof *t);
    tk_error err;
    tk_error_clear(&err);
    for (size_t k = 0; k < n; k++) {
        TK_CHECK(tk_input_open(&t->in[k], paths[k], NULL, &err) == TK_OK);
        TK_CHECK(tk_xray_open(&t->r[k], t->in[k], NULL, &err) == TK_OK);
        TK_CHECK(tk_xray_events_open(&t->e[k], t->r[k], NULL, &err) == TK_OK);
        tk_xray_events_source(t->e[k], &t->src[k]);
        t->n++;
    }
    TK_CHECK(tk_event_chain_init(&t->chain, t->src, t->n, &t->all, &err) == TK_OK);
}

static void set_close(trace_set *t)
{
    for (size_t k = 0; k < t->n; k++) {
        tk_xray_events_free(t->e[k]);
        tk_xray_free(t->r[k]);
        tk_input_free(t->in[k]);
    }
}

/* The parts of t's traces made (all of them first: the blocks of none given back yet) and
 * joined in order into f. Returns the status of the first step that failed. */
static tk_status join_parts(trace_set *t, FILE *f, tk_error *err)
{
    tk_events_json_join *j = NULL;
    tk_events_json_part *p[8] = {NULL};
    tk_status st = tk_events_json_join_open(&j, &t->all, TK_TEST_WRITER(f), err);
    for (size_t k = 0; k < t->n && st == TK_OK; k++)
        st = tk_events_json_part_open(&p[k], j, k, &t->src[k], err);
    for (size_t k = 0; k < t->n && st == TK_OK; k++) {
        st = tk_events_json_join_add(j, p[k], err);
        tk_events_json_part_free(p[k]);
        p[k] = NULL;
    }
    if (st == TK_OK) st = tk_events_json_join_finish(j, err);
    for (size_t k = 0; k < t->n; k++) tk_events_json_part_free(p[k]);
    tk_events_json_join_free(j);
    return st;
}

static void check_parts(const char *const *paths, size_t n, int fails)
{
    trace_set a, b;
    tk_error err, err2;
    tk_error_clear(&err);
    tk_error_clear(&err2);
    char *ta = NULL, *tb = NULL;
    size_t la = 0, lb = 0;
    set_open(&a, paths, n);
    FILE *f = open_memstream(&ta, &la);
    tk_status sa = tk_export_events_json(&a.all, TK_TEST_WRITER(f), &err);
    fclose(f);
    set_open(&b, paths, n);
    f = open_memstream(&tb, &lb);
    tk_status sb = join_parts(&b, f, &err2);
    fclose(f);
    TK_CHECK_EQ_I64(sa, sb);
    TK_CHECK(fails ? sa != TK_OK : sa == TK_OK);
    TK_CHECK(strcmp(err.message, err2.message) == 0);
    TK_CHECK_EQ_U64(la, lb);
    TK_CHECK(la == lb && memcmp(ta, tb, la) == 0);
    TK_CHECK(strncmp(ta, "{\"version\":1,\"clock\":{\"ticks_per_second\":", 41) == 0);
    if (!fails) TK_CHECK(la > 4 && memcmp(ta + la - 4, "\n]}\n", 4) == 0);
    if (fails) /* the last event before the failure, or the list's opening */
        TK_CHECK(la > 1 && (ta[la - 1] == '}' || ta[la - 1] == '['));
    free(ta);
    free(tb);
    set_close(&a);
    set_close(&b);
}

static void test_parts_equal_chain(void)
{
    static const char *const ok[] = {
        "tests/data/xray/pass/mtpool.fdr",           "tests/data/xray/pass/calltree-typed.fdr",
        "tests/data/xray/pass/mtpool.basic",         "tests/data/xray/pass/calltree.fdr",
        "tests/data/xray/pass/mtpool-wrapped.fdr",   "tests/data/xray/pass/mtpool.fdr",
        "tests/data/xray/pass/calltree-typed-be.fdr"};
    static const char *const bad[] = {
        "tests/data/xray/pass/mtpool.fdr", "tests/data/xray/pass/mtpool.basic",
        "tests/data/xray/pass/mtpool.fdr", "tests/data/xray/fail/unknown-record-type.basic",
        "tests/data/xray/pass/mtpool.fdr"};
    check_parts(ok, 7, 0);
    check_parts(ok + 1, 1, 0);
    check_parts(bad, 5, 1);
    check_parts(bad + 3, 2, 1); /* the first trace fails */
}

/* The events of a typed-event trace: their lines and members. */
static void test_event_lines(void)
{
    static const char *const one[] = {"tests/data/xray/pass/calltree-typed.fdr"};
    trace_set t;
    set_open(&t, one, 1);
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    tk_error err;
    TK_CHECK(tk_export_events_json(&t.all, TK_TEST_WRITER(f), &err) == TK_OK);
    fclose(f);
    static const char head[] =
        "{\"version\":1,\"clock\":{\"ticks_per_second\":2445000000,\"unit\":\"ticks\"},"
        "\"events\":[\n{\"kind\":\"enter\",\"pid\":6242,\"tid\":6242,\"cpu\":0,"
        "\"time\":2653034291261,\"func\":2,\"name\":\"#2\"},\n";
    TK_CHECK(strncmp(s, head, sizeof head - 1) == 0);
    TK_CHECK(strstr(s, "\n{\"kind\":\"typed\",\"pid\":6242,") != NULL);
    TK_CHECK(strstr(s, ",\"type\":") != NULL && strstr(s, ",\"data\":\"") != NULL);
    TK_CHECK(strstr(s, "\"trace\":") == NULL); /* one trace */
    free(s);
    set_close(&t);
    /* the same trace twice: each event with the place of its trace */
    static const char *const twice[] = {"tests/data/xray/pass/calltree-typed.fdr",
                                        "tests/data/xray/pass/calltree-typed.fdr"};
    set_open(&t, twice, 2);
    s = NULL;
    f = open_memstream(&s, &len);
    TK_CHECK(tk_export_events_json(&t.all, TK_TEST_WRITER(f), &err) == TK_OK);
    fclose(f);
    const char *second = strstr(s, "\"tid\":6242,\"trace\":1,\"cpu\":0,\"time\":2653034291261,");
    TK_CHECK(strstr(s, "\n{\"kind\":\"enter\",\"pid\":6242,\"tid\":6242,\"trace\":0,") ==
             strchr(s, '\n'));
    TK_CHECK(second != NULL && strstr(second, "\"trace\":0") == NULL);
    free(s);
    set_close(&t);
}

/* A writer that takes `room` bytes, then fails with ENOSPC. */
typedef struct full_writer {
    size_t room;
} full_writer;

static int write_full(void *ctx, const void *data, size_t len)
{
    full_writer *w = ctx;
    (void)data;
    if (len > w->room) {
        errno = ENOSPC;
        return -1;
    }
    w->room -= len;
    return 0;
}

static void test_failing_writer(void)
{
    static const char *const two[] = {"tests/data/xray/pass/mtpool.fdr",
                                      "tests/data/xray/pass/mtpool.basic"};
    for (size_t room = 0; room < 200000; room += 70000) {
        trace_set t;
        set_open(&t, two, 2);
        full_writer fw = {room};
        tk_writer w = {write_full, &fw};
        tk_error err;
        tk_error_clear(&err);
        TK_CHECK(tk_export_events_json(&t.all, &w, &err) == TK_ERR_IO);
        TK_CHECK(strstr(err.message, "cannot write the JSON events: ") != NULL);
        set_close(&t);

        set_open(&t, two, 2);
        fw.room = room;
        tk_error_clear(&err);
        tk_events_json_join *j = NULL;
        TK_CHECK(tk_events_json_join_open(&j, &t.all, &w, &err) == TK_OK);
        for (size_t k = 0; k < 2; k++) {
            tk_events_json_part *p = NULL;
            TK_CHECK(tk_events_json_part_open(&p, j, k, &t.src[k], &err) == TK_OK);
            TK_CHECK(p && tk_events_json_join_add(j, p, &err) == TK_OK);
            tk_events_json_part_free(p);
        }
        TK_CHECK(tk_events_json_join_finish(j, &err) == TK_ERR_IO);
        TK_CHECK(strstr(err.message, "No space left") != NULL);
        tk_events_json_join_free(j);
        set_close(&t);
    }
    tk_writer none = {NULL, NULL};
    tk_event_source src;
    memset(&src, 0, sizeof src);
    tk_events_json_join *j = (tk_events_json_join *)&src;
    TK_CHECK(tk_export_events_json(&src, &none, NULL) == TK_ERR_ARG);
    TK_CHECK(tk_events_json_join_open(&j, &src, &none, NULL) == TK_ERR_ARG && j == NULL);
}

/* A part added out of order, or of a source the chain has not: TK_ERR_ARG, nothing written. */
static void test_misuse(void)
{
    static const char *const two[] = {"tests/data/xray/pass/calltree.fdr",
                                      "tests/data/xray/pass/mtpool.fdr"};
    trace_set t;
    set_open(&t, two, 2);
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    tk_error err;
    tk_events_json_join *j = NULL;
    tk_events_json_part *p = NULL, *q = NULL;
    TK_CHECK(tk_events_json_join_open(&j, &t.all, TK_TEST_WRITER(f), &err) == TK_OK);
    TK_CHECK(tk_events_json_part_open(&q, j, 2, &t.src[1], &err) == TK_ERR_ARG && q == NULL);
    TK_CHECK(tk_events_json_part_open(&p, j, 1, &t.src[1], &err) == TK_OK);
    TK_CHECK(tk_events_json_part_status(p, &err) == TK_OK);
    fflush(f);
    size_t head = len;
    TK_CHECK(tk_events_json_join_add(j, p, &err) == TK_ERR_ARG);
    fflush(f);
    TK_CHECK_EQ_U64(len, head);
    tk_events_json_part_free(p);
    tk_events_json_part_free(NULL);
    tk_events_json_join_free(j);
    tk_events_json_join_free(NULL);
    fclose(f);
    free(s);
    set_close(&t);
}

TK_TEST_MAIN(TK_CASE(test_parts_equal_chain), TK_CASE(test_event_lines),
             TK_CASE(test_failing_writer), TK_CASE(test_misuse))
