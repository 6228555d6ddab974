#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/num.h"
#include "tk_test.h"

static void test_parse_decimal(void)
{
    uint64_t u = 0;
    TK_CHECK(tk_num_parse_u64("0", 1, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, 0);
    TK_CHECK(tk_num_parse_u64("18446744073709551615", 20, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, UINT64_MAX);
    TK_CHECK(tk_num_parse_u64("18446744073709551616", 20, &u) == TK_ERR_LIMIT);
    TK_CHECK(tk_num_parse_u64("99999999999999999999999", 23, &u) == TK_ERR_LIMIT);
    TK_CHECK(tk_num_parse_u64("", 0, &u) == TK_ERR_FORMAT);
    TK_CHECK(tk_num_parse_u64("12a", 3, &u) == TK_ERR_FORMAT);
    TK_CHECK(tk_num_parse_u64("-1", 2, &u) == TK_ERR_FORMAT);
}

static void test_parse_hex(void)
{
    uint64_t u = 0;
    TK_CHECK(tk_num_parse_u64("0x1f", 4, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, 31);
    TK_CHECK(tk_num_parse_u64("0XFFFFFFFFFFFFFFFF", 18, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, UINT64_MAX);
    TK_CHECK(tk_num_parse_u64("0x10000000000000000", 19, &u) == TK_ERR_LIMIT);
    TK_CHECK(tk_num_parse_u64("0x", 2, &u) == TK_ERR_FORMAT);
    TK_CHECK(tk_num_parse_u64("0xg", 3, &u) == TK_ERR_FORMAT);
}

static void test_parse_signed(void)
{
    int64_t i = 0;
    TK_CHECK(tk_num_parse_i64("-9223372036854775808", 20, &i) == TK_OK);
    TK_CHECK_EQ_I64(i, INT64_MIN);
    TK_CHECK(tk_num_parse_i64("9223372036854775807", 19, &i) == TK_OK);
    TK_CHECK_EQ_I64(i, INT64_MAX);
    TK_CHECK(tk_num_parse_i64("9223372036854775808", 19, &i) == TK_ERR_LIMIT);
    TK_CHECK(tk_num_parse_i64("-9223372036854775809", 20, &i) == TK_ERR_LIMIT);
    TK_CHECK(tk_num_parse_i64("+5", 2, &i) == TK_OK);
    TK_CHECK_EQ_I64(i, 5);
    TK_CHECK(tk_num_parse_i64("-0x10", 5, &i) == TK_OK);
    TK_CHECK_EQ_I64(i, -16);
}

static void test_scan_prefix(void)
{
    const char *s = "123 456", *p = s;
    uint64_t u;
    TK_CHECK(tk_num_scan_u64(&p, s + 7, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, 123);
    TK_CHECK(p == s + 3);
    TK_CHECK(tk_num_scan_u64(&p, s + 7, &u) == TK_ERR_FORMAT);
    TK_CHECK(p == s + 3);
}

static void test_scan_syntaxes(void)
{
    uint64_t u = 7;
    const char *s = "0x1f", *p = s;
    /* decimal only: the 0 of "0x", then 'x' is not a digit */
    TK_CHECK(tk_num_scan(&p, s + 4, TK_NUM_DEC, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, 0);
    TK_CHECK(p == s + 1);
    /* hex with an optional prefix (WET values) */
    TK_CHECK(tk_num_parse("0x1f", 4, TK_NUM_HEX | TK_NUM_BARE_HEX, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, 31);
    TK_CHECK(tk_num_parse("1F", 2, TK_NUM_HEX | TK_NUM_BARE_HEX, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, 31);
    TK_CHECK(tk_num_parse("ffffffffffffffff", 16, TK_NUM_BARE_HEX, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, UINT64_MAX);
    TK_CHECK(tk_num_parse("00000000000000000ffffffffffffffff", 33, TK_NUM_BARE_HEX, &u) == TK_OK);
    TK_CHECK_EQ_U64(u, UINT64_MAX);
    TK_CHECK(tk_num_parse("10000000000000000", 17, TK_NUM_BARE_HEX, &u) == TK_ERR_LIMIT);
    TK_CHECK(tk_num_parse("0xg", 3, TK_NUM_HEX | TK_NUM_BARE_HEX, &u) == TK_ERR_FORMAT);
    TK_CHECK(tk_num_parse("g", 1, TK_NUM_HEX | TK_NUM_BARE_HEX, &u) == TK_ERR_FORMAT);
    /* leading zeros do not overflow */
    TK_CHECK(tk_num_parse("000000000000000000000000018446744073709551615", 45, TK_NUM_DEC, &u) ==
             TK_OK);
    TK_CHECK_EQ_U64(u, UINT64_MAX);
    /* an overflow moves past all the digits and leaves the value */
    u = 7;
    s = "184467440737095516160 1";
    p = s;
    TK_CHECK(tk_num_scan_dec(&p, s + 23, &u) == TK_ERR_LIMIT);
    TK_CHECK(p == s + 21);
    TK_CHECK_EQ_U64(u, 7);
    /* no digit: the position stays */
    s = "+1";
    p = s;
    TK_CHECK(tk_num_scan_dec(&p, s + 2, &u) == TK_ERR_FORMAT && p == s);
    /* signs only with TK_NUM_SIGN */
    int64_t i = 0;
    TK_CHECK(tk_num_parse_signed("-12", 3, TK_NUM_DEC, &i) == TK_ERR_FORMAT);
    TK_CHECK(tk_num_parse_signed("-12", 3, TK_NUM_DEC | TK_NUM_SIGN, &i) == TK_OK);
    TK_CHECK_EQ_I64(i, -12);
    TK_CHECK(tk_num_parse_signed("-0x10", 5, TK_NUM_DEC | TK_NUM_SIGN, &i) == TK_ERR_FORMAT);
    TK_CHECK(tk_num_parse_signed("-", 1, TK_NUM_DEC | TK_NUM_SIGN, &i) == TK_ERR_FORMAT);
    TK_CHECK(tk_num_parse_signed("-9223372036854775808", 20, TK_NUM_DEC | TK_NUM_SIGN, &i) ==
             TK_OK);
    TK_CHECK_EQ_I64(i, INT64_MIN);
    TK_CHECK(tk_num_parse_signed("-99999999999999999999", 21, TK_NUM_DEC | TK_NUM_SIGN, &i) ==
             TK_ERR_LIMIT);
}

/* The scanner against a plain reference on every string of up to 3 bytes of
 * a small alphabet, and on numbers around 2^64. */
static int ref_value(const char *s, size_t n, unsigned base, uint64_t *v)
{
    unsigned __int128 x = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 99u;
        if (d >= base) return -1;
        x = x * base + d;
        if (x > UINT64_MAX) return 1;
    }
    *v = (uint64_t)x;
    return n ? 0 : -1;
}

static void test_scan_reference(void)
{
    static const char alpha[] = "09aFxX -+g";
    char s[4];
    int bad = 0;
    for (int len = 0; len <= 3; len++) {
        int combos = 1;
        for (int k = 0; k < len; k++) combos *= 10;
        for (int c = 0; c < combos; c++) {
            int x = c;
            for (int k = 0; k < len; k++, x /= 10) s[k] = alpha[x % 10];
            uint64_t u, r;
            /* decimal or 0x hex, whole string */
            tk_status st = tk_num_parse(s, (size_t)len, TK_NUM_DEC | TK_NUM_HEX, &u);
            int rr = len >= 3 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
                         ? ref_value(s + 2, (size_t)len - 2, 16, &r)
                         : ref_value(s, (size_t)len, 10, &r);
            if ((rr == 0) != (st == TK_OK) || (rr == 0 && r != u)) bad++;
        }
    }
    TK_CHECK(bad == 0);
    char big[32];
    for (unsigned k = 0; k < 2000; k++) {
        uint64_t want = UINT64_MAX - k * 977, u;
        int n = snprintf(big, sizeof big, "%llu", (unsigned long long)want);
        TK_CHECK(tk_num_parse(big, (size_t)n, TK_NUM_DEC, &u) == TK_OK && u == want);
        /* (floor(2^64 / 10) + 1 + k) * 10 + k % 10 >= 2^64 + 4 */
        n = snprintf(big, sizeof big, "%llu%u", (unsigned long long)(UINT64_MAX / 10 + 1 + k),
                     k % 10);
        TK_CHECK(tk_num_parse(big, (size_t)n, TK_NUM_DEC, &u) == TK_ERR_LIMIT);
    }
}

static void test_checked_arith(void)
{
    uint64_t r;
    TK_CHECK(tk_add_u64(UINT64_MAX, 1, &r) != 0);
    TK_CHECK(tk_add_u64(1, 2, &r) == 0 && r == 3);
    TK_CHECK(tk_mul_u64(UINT64_MAX / 2, 3, &r) != 0);
    double d;
    TK_CHECK(tk_num_parse_double("1.5e3", 5, &d) == TK_OK && d == 1500.0);
    TK_CHECK(tk_num_parse_double("1.5x", 4, &d) == TK_ERR_FORMAT);
}

/* A decimal real: strtod's value; out of range, TK_ERR_LIMIT or with TK_NUM_REAL_ROUND the
 * nearest; up to TK_NUM_REAL_MAX bytes (tk_num_parse_double: 63). */
static void test_parse_real(void)
{
    double d = 0;
    TK_CHECK(tk_num_parse_real("-2.5e-3", 7, 0, &d) == TK_OK && d == -2.5e-3);
    TK_CHECK(tk_num_parse_real("1e400", 5, 0, &d) == TK_ERR_LIMIT);
    TK_CHECK(tk_num_parse_real("1e400", 5, TK_NUM_REAL_ROUND, &d) == TK_OK && d == HUGE_VAL);
    TK_CHECK(tk_num_parse_real("-1e-400", 7, TK_NUM_REAL_ROUND, &d) == TK_OK && d == 0 &&
             signbit(d));
    TK_CHECK(tk_num_parse_double("1e400", 5, &d) == TK_ERR_LIMIT);
    static const char *const bad[] = {"", "inf", "nan", "0x1p3", " 1", "1 ", "1e", "--1", "1,5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        TK_CHECK(tk_num_parse_real(bad[i], strlen(bad[i]), TK_NUM_REAL_ROUND, &d) == TK_ERR_FORMAT);
    char big[TK_NUM_REAL_MAX + 2];
    memset(big, '7', sizeof big);
    big[0] = '0', big[1] = '.';
    TK_CHECK(tk_num_parse_real(big, TK_NUM_REAL_MAX, 0, &d) == TK_OK && d == 7.0 / 9);
    TK_CHECK(tk_num_parse_real(big, TK_NUM_REAL_MAX + 1, 0, &d) == TK_ERR_FORMAT);
    TK_CHECK(tk_num_parse_double(big, 63, &d) == TK_OK);
    TK_CHECK(tk_num_parse_double(big, 64, &d) == TK_ERR_FORMAT);
}

/* The public forms give the scanner's results with a message. */
static void test_public_messages(void)
{
    tk_error err;
    tk_error_clear(&err);
    uint64_t v = 0;
    TK_CHECK_EQ_I64(tk_parse_u64("0x1f", 4, &v, &err), TK_OK);
    TK_CHECK_EQ_U64(v, 31);
    TK_CHECK_EQ_I64(tk_parse_u64("12a", 3, &v, &err), TK_ERR_FORMAT);
    TK_CHECK_STR(err.message, "not a number: '12a'");
    TK_CHECK_EQ_I64(tk_parse_u64("18446744073709551616", 20, &v, NULL), TK_ERR_LIMIT);
    TK_CHECK_EQ_I64(tk_parse_u64("18446744073709551616", 20, &v, &err), TK_ERR_LIMIT);
    TK_CHECK_STR(err.message, "the number '18446744073709551616' is over 64 bits");
    const char *s = "99999999999999999999 x", *p = s;
    TK_CHECK_EQ_I64(tk_scan_num(&p, s + strlen(s), TK_NUM_DEC, &v, &err), TK_ERR_LIMIT);
    TK_CHECK(p == s + 20);
    TK_CHECK_STR(err.message, "the number '99999999999999999999' is over 64 bits");
    int64_t i = 0;
    p = "-5,";
    TK_CHECK_EQ_I64(tk_scan_snum(&p, p + 3, TK_NUM_DEC | TK_NUM_SIGN, &i, &err), TK_OK);
    TK_CHECK_EQ_I64(i, -5);
    TK_CHECK_EQ_I64(tk_parse_i64("9223372036854775808", 19, &i, &err), TK_ERR_LIMIT);
    double d = 0;
    TK_CHECK_EQ_I64(tk_parse_double("1.5", 3, &d, &err), TK_OK);
    TK_CHECK(d == 1.5);
    TK_CHECK_EQ_I64(tk_parse_double("inf", 3, &d, &err), TK_ERR_FORMAT);
}

TK_TEST_MAIN(TK_CASE(test_public_messages), TK_CASE(test_parse_decimal), TK_CASE(test_parse_hex),
             TK_CASE(test_parse_signed), TK_CASE(test_scan_prefix), TK_CASE(test_scan_syntaxes),
             TK_CASE(test_scan_reference), TK_CASE(test_checked_arith), TK_CASE(test_parse_real))
