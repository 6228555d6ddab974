/* Flame graphs from folded stacks (tk_flamegraph_svg). */
#include "tk_test.h"
#include "tracekit/tracekit.h"

static char *svg_of(const char *folded, const tk_flame_options *o, tk_status *st)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tk_error err;
    tk_error_clear(&err);
    *st = tk_flamegraph_svg(folded, strlen(folded), o, TK_TEST_WRITER(f), &err);
    fclose(f);
    return buf;
}

static void test_frames(void)
{
    tk_status st;
    char *s = svg_of("main;a 3\nmain;b<int> 2\nmain;a;c 5\n", NULL, &st);
    TK_CHECK(st == TK_OK);
    TK_CHECK(strstr(s, "data-total=\"10\"") != NULL);
    /* main;a merged: 3 + 5; the name escaped */
    TK_CHECK(strstr(s, "data-n=\"8\" data-d=\"2\" data-p=\"f1\" data-name=\"a\"") != NULL);
    TK_CHECK(strstr(s, "data-name=\"b&lt;int&gt;\"") != NULL);
    TK_CHECK(strstr(s, ">Flame Graph<") != NULL);
    TK_CHECK(strstr(s, "http://") == strstr(s, "http://www.w3.org/2000/svg"));
    free(s);
}

static void test_diff_and_options(void)
{
    tk_status st;
    tk_flame_options o = TK_FLAME_OPTIONS_INIT;
    o.reverse = 1;
    o.unit = "Ir";
    char *s = svg_of("main;a 10 20\nmain;b 10 5\n", &o, &st);
    TK_CHECK(st == TK_OK);
    TK_CHECK(strstr(s, ">Differential Flame Graph<") != NULL);
    TK_CHECK(strstr(s, "a (10 -> 20 Ir") != NULL);
    TK_CHECK(strstr(s, "fill=\"rgb(255,") != NULL); /* a grew: red */
    TK_CHECK(strstr(s, ",255)\"") != NULL); /* b shrank: blue */
    free(s);
}

static void test_bad_line(void)
{
    tk_status st;
    char *s = svg_of("main;a 3\nmain;b\n", NULL, &st);
    TK_CHECK(st == TK_ERR_FORMAT);
    free(s);
}

/* folded stacks read by tk_folded_scan: a number ending a frame's name stays in it unless every
 * line has two counts; decimals; blank lines and CRLF */
static void test_folded_scan(void)
{
    const char *t = "thread 7 12\r\nthread 7;main 2.5\n\nthread 8;main\t4\n";
    tk_folded_summary s;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_folded_summarize(t, strlen(t), "t", &s, &err) == TK_OK);
    TK_CHECK(!s.differential);
    TK_CHECK(s.stacks == 3 && s.nfunctions == 3 && s.max_depth == 2);
    TK_CHECK(s.total == 18.5);
    TK_CHECK(s.functions[0].name_len == 8 && memcmp(s.functions[0].name, "thread 7", 8) == 0);
    TK_CHECK(s.functions[0].self == 12 && s.functions[0].total == 14.5);
    TK_CHECK(s.functions[1].total == 6.5 && s.functions[1].self == 6.5); /* main */
    TK_CHECK_EQ_U64(s.shown, 3);
    tk_folded_summary_sort(&s, TK_FOLDED_BY_SELF);
    tk_folded_summary_cut(&s, 2); /* report --top 2: the first two of the order */
    TK_CHECK(s.shown == 2 && s.nfunctions == 3 && s.functions[0].self == 12);
    tk_folded_summary_cut(&s, 0);
    TK_CHECK_EQ_U64(s.shown, 3);
    tk_folded_summary_cut(&s, 5);
    TK_CHECK_EQ_U64(s.shown, 3);
    tk_folded_summary_free(&s);
    /* recursion: a name counted once per stack in its total */
    const char *r = "a;b;a 5\na 3\n";
    TK_CHECK(tk_folded_summarize(r, strlen(r), "r", &s, &err) == TK_OK);
    TK_CHECK(!s.differential && s.functions[0].total == 8 && s.functions[0].self == 8);
    tk_folded_summary_free(&s);
    const char *d = "a;b 1 3\na 2 0\n";
    TK_CHECK(tk_folded_summarize(d, strlen(d), "d", &s, &err) == TK_OK);
    TK_CHECK(s.differential && s.total == 3 && s.total_before == 3);
    TK_CHECK(s.functions[0].total_before == 3 && s.functions[0].self_before == 2);
    tk_folded_summary_free(&s);
}

static void test_folded_errors(void)
{
    tk_error err;
    tk_error_clear(&err);
    const char *t = "a 1\na;b -1\n";
    TK_CHECK(tk_folded_scan(t, strlen(t), "t", NULL, NULL, NULL, NULL, &err) == TK_ERR_FORMAT);
    TK_CHECK(err.line == 2 && err.column == 5);
    const char *big = "a 1\nb 18446744073709551616\n";
    TK_CHECK(tk_folded_scan(big, strlen(big), "b", NULL, NULL, NULL, NULL, &err) == TK_ERR_LIMIT);
    TK_CHECK(err.line == 2 && err.column == 3);
    const char *empty = "\t7\n";
    TK_CHECK(tk_folded_scan(empty, strlen(empty), "e", NULL, NULL, NULL, NULL, &err) ==
             TK_ERR_FORMAT);
    TK_CHECK(tk_folded_scan("", 0, "e", NULL, NULL, NULL, NULL, &err) == TK_OK);
}

TK_TEST_MAIN(TK_CASE(test_frames), TK_CASE(test_diff_and_options), TK_CASE(test_bad_line),
             TK_CASE(test_folded_scan), TK_CASE(test_folded_errors))
