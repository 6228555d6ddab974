#include "core/textout.h"
#include "tk_test.h"

#include <string.h>

/* What f wrote to a memory stream, as a string (caller frees). */
static char *capture(void (*put)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    put(f, s);
    fclose(f);
    return buf;
}

static void check_put(void (*put)(FILE *, const char *), const char *in, const char *want)
{
    char *got = capture(put, in);
    TK_CHECK_STR(got, want);
    free(got);
}

static void test_json_string(void)
{
    check_put(tk_put_json_string, "plain", "\"plain\"");
    check_put(tk_put_json_string, "a\"b\\c", "\"a\\\"b\\\\c\"");
    check_put(tk_put_json_string, "tab\there\nnl\x01", "\"tab\\u0009here\\u000anl\\u0001\"");
    check_put(tk_put_json_string, "caf\xc3\xa9 /x", "\"caf\xc3\xa9 /x\"");
    check_put(tk_put_json_string, "", "\"\"");
    check_put(tk_put_json_string, NULL, "\"\"");
}

/* The buffer form escapes like the stream form, takes embedded NULs and
 * stays within TK_JSON_QUOTED_MAX. */
static void test_json_quote(void)
{
    const char in[] = "a\"\\\x1f\0z\xc3\xa9";
    size_t n = sizeof in - 1;
    char buf[TK_JSON_QUOTED_MAX(sizeof in - 1) + 8];
    memset(buf, 'X', sizeof buf);
    size_t len = tk_json_quote(buf, in, n);
    TK_CHECK_STR(buf, "\"a\\\"\\\\\\u001f\\u0000z\xc3\xa9\"");
    TK_CHECK_EQ_U64(len, strlen(buf));
    TK_CHECK(len + 1 <= TK_JSON_QUOTED_MAX(n));
    TK_CHECK(buf[TK_JSON_QUOTED_MAX(n)] == 'X');

    char all[TK_JSON_QUOTED_MAX(4)];
    TK_CHECK_EQ_U64(tk_json_quote(all, "\x01\x02\x03\x04", 4), TK_JSON_QUOTED_MAX(4) - 1);
    TK_CHECK_EQ_U64(tk_json_quote(all, "", 0), 2);
    TK_CHECK_STR(all, "\"\"");
}

static void test_csv_field(void)
{
    check_put(tk_put_csv_field, "main", "main");
    check_put(tk_put_csv_field, "f(int, char)", "\"f(int, char)\"");
    check_put(tk_put_csv_field, "say \"hi\"", "\"say \"\"hi\"\"\"");
    check_put(tk_put_csv_field, "two\nlines", "\"two\nlines\"");
    check_put(tk_put_csv_field, "cr\r", "\"cr\r\"");
    check_put(tk_put_csv_field, "", "");
    check_put(tk_put_csv_field, NULL, "");
}

/* The buffer form quotes like the stream form, takes embedded NULs and stays
 * within TK_CSV_QUOTED_MAX. */
static void test_csv_quote(void)
{
    char buf[TK_CSV_QUOTED_MAX(8) + 8];
    memset(buf, 'X', sizeof buf);
    TK_CHECK_EQ_U64(tk_csv_quote(buf, "\"\"\"\"\"\"\"\"", 8), TK_CSV_QUOTED_MAX(8) - 1);
    TK_CHECK(buf[TK_CSV_QUOTED_MAX(8)] == 'X');
    TK_CHECK_EQ_U64(tk_csv_quote(buf, "a,b", 3), 5);
    TK_CHECK_STR(buf, "\"a,b\"");
    TK_CHECK_EQ_U64(tk_csv_quote(buf, "a\0b", 3), 3);
    TK_CHECK(memcmp(buf, "a\0b", 4) == 0);
    TK_CHECK_EQ_U64(tk_csv_quote(buf, "", 0), 0);
}

TK_TEST_MAIN(TK_CASE(test_json_string), TK_CASE(test_json_quote), TK_CASE(test_csv_field),
             TK_CASE(test_csv_quote))
