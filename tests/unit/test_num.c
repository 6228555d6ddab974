#include "core/num.h"
#include "tk_test.h"

static void test_parse_decimal(void)
{
    uint64_t u = 0;
    TK_CHECK(tk_parse_u64("0", 1, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, 0);
    TK_CHECK(tk_parse_u64("18446744073709551615", 20, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, UINT64_MAX);
    TK_CHECK(tk_parse_u64("18446744073709551616", 20, &u) == TK_ERR_LIMIT);
    TK_CHECK(tk_parse_u64("99999999999999999999999", 23, &u) == TK_ERR_LIMIT);
    TK_CHECK(tk_parse_u64("", 0, &u) == TK_ERR_FORMAT);
    TK_CHECK(tk_parse_u64("12a", 3, &u) == TK_ERR_FORMAT);
    TK_CHECK(tk_parse_u64("-1", 2, &u) == TK_ERR_FORMAT);
}

static void test_parse_hex(void)
{
    uint64_t u = 0;
    TK_CHECK(tk_parse_u64("0x1f", 4, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, 31);
    TK_CHECK(tk_parse_u64("0XFFFFFFFFFFFFFFFF", 18, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, UINT64_MAX);
    TK_CHECK(tk_parse_u64("0x10000000000000000", 19, &u) == TK_ERR_LIMIT);
    TK_CHECK(tk_parse_u64("0x", 2, &u) == TK_ERR_FORMAT);
    TK_CHECK(tk_parse_u64("0xg", 3, &u) == TK_ERR_FORMAT);
}

static void test_parse_signed(void)
{
    int64_t i = 0;
    TK_CHECK(tk_parse_i64("-9223372036854775808", 20, &i) == TK_OK);
    TK_CHECK_EQ_I64(i, INT64_MIN);
    TK_CHECK(tk_parse_i64("9223372036854775807", 19, &i) == TK_OK);
    TK_CHECK_EQ_I64(i, INT64_MAX);
    TK_CHECK(tk_parse_i64("9223372036854775808", 19, &i) == TK_ERR_LIMIT);
    TK_CHECK(tk_parse_i64("-9223372036854775809", 20, &i) == TK_ERR_LIMIT);
    TK_CHECK(tk_parse_i64("+5", 2, &i) == TK_OK);
    TK_CHECK_EQ_I64(i, 5);
    TK_CHECK(tk_parse_i64("-0x10", 5, &i) == TK_OK);
    TK_CHECK_EQ_I64(i, -16);
}

static void test_scan_prefix(void)
{
    const char *s = "123 456", *p = s;
    uint64_t u;
    TK_CHECK(tk_scan_u64(&p, s + 7, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, 123);
    TK_CHECK(p == s + 3);
    TK_CHECK(tk_scan_u64(&p, s + 7, &u) == TK_ERR_FORMAT);
    TK_CHECK(p == s + 3);
}

static void test_checked_arith(void)
{
    uint64_t r;
    TK_CHECK(tk_add_u64(UINT64_MAX, 1, &r) != 0);
    TK_CHECK(tk_add_u64(1, 2, &r) == 0 && r == 3);
    TK_CHECK(tk_mul_u64(UINT64_MAX / 2, 3, &r) != 0);
    double d;
    TK_CHECK(tk_parse_double("1.5e3", 5, &d) == TK_OK && d == 1500.0);
    TK_CHECK(tk_parse_double("1.5x", 4, &d) == TK_ERR_FORMAT);
}

TK_TEST_MAIN(TK_CASE(test_parse_decimal), TK_CASE(test_parse_hex), TK_CASE(test_parse_signed),
             TK_CASE(test_scan_prefix), TK_CASE(test_checked_arith))
