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
    *st = tk_flamegraph_svg(folded, strlen(folded), o, f, &err);
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
    TK_CHECK(strstr(s, "fill=\"rgb(255,") != NULL);  /* a grew: red */
    TK_CHECK(strstr(s, ",255)\"") != NULL);           /* b shrank: blue */
    free(s);
}

static void test_bad_line(void)
{
    tk_status st;
    char *s = svg_of("main;a 3\nmain;b\n", NULL, &st);
    TK_CHECK(st == TK_ERR_FORMAT);
    free(s);
}

TK_TEST_MAIN(TK_CASE(test_frames), TK_CASE(test_diff_and_options), TK_CASE(test_bad_line))
