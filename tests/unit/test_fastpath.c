/* The fast-path primitives (core/fastpath.h) against their general twins:
 * the scanner of core/num and plain byte tests, on random strings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fastpath.h"
#include "core/num.h"
#include "tk_test.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned next_rand(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* A random string of digits, mostly, ended by '\n' (room for 8 more bytes). */
static size_t random_text(char *s, size_t cap)
{
    static const char alpha[] = "0123456789000000000abcdefABCDEFxX +-*g\n";
    size_t n = 1 + next_rand(26);
    if (n + 9 > cap) n = cap - 9;
    for (size_t i = 0; i < n; i++) s[i] = alpha[next_rand(sizeof alpha - 1)];
    memset(s + n, '\n', 9);
    return n;
}

/* The bounded loop with an end pointer (tk_fast_dec, tk_fast_hex) against the scanner of
 * syntax on the digits before s + n, for each max from 1 to top by step: the failures. */
static int bounded_bad(const char *s, size_t n, unsigned syntax, unsigned top, unsigned step,
                       const char *(*fast)(const char *, const char *, unsigned, uint64_t *))
{
    const char *pe = s;
    uint64_t want = 0, got = 0;
    tk_status st = tk_num_scan(&pe, s + n, syntax, &want);
    size_t digits = st == TK_ERR_FORMAT ? 0 : (size_t)(pe - s);
    int bad = 0;
    for (unsigned max = 1; max <= top; max += step) {
        const char *r = fast(s, s + n, max, &got);
        if (digits >= 1 && digits <= max)
            bad += r != pe || got != want;
        else
            bad += r != NULL;
    }
    return bad;
}

static void test_decimal(void)
{
    char s[48];
    int bad = 0;
    for (int k = 0; k < 200000; k++) {
        size_t n = random_text(s, sizeof s);
        const char *e = s + n + 1, *p = s;
        uint64_t want = 0, got = 0;
        tk_status st = tk_num_scan_dec(&p, e, &want);
        size_t digits = st == TK_ERR_FORMAT ? 0 : (size_t)(p - s);
        /* sentinel version (after a look at the first byte): the digits when
         * 1..19 of them, else NULL */
        const char *q = tk_fast_is_digit((unsigned char)s[0]) ? tk_fast_dec_nl(s, &got) : NULL;
        if (digits >= 1 && digits <= TK_FAST_DEC_MAX)
            bad += !q || q != p || got != want;
        else
            bad += q != NULL;
        bad += bounded_bad(s, n, TK_NUM_DEC, TK_FAST_DEC_MAX, 6, tk_fast_dec);
    }
    TK_CHECK(bad == 0);
}

static void test_hex(void)
{
    char s[48];
    int bad = 0;
    for (int k = 0; k < 200000; k++) {
        size_t n = random_text(s, sizeof s);
        const char *p = s;
        uint64_t want = 0, got = 0;
        tk_status st = tk_num_scan(&p, s + n + 1, TK_NUM_BARE_HEX, &want);
        size_t digits = st == TK_ERR_FORMAT ? 0 : (size_t)(p - s);
        const char *q = tk_fast_hex_nl(s, &got);
        if (digits >= 1 && digits <= TK_FAST_HEX_MAX)
            bad += !q || q != p || got != want;
        else
            bad += q != NULL;
        bad += bounded_bad(s, n, TK_NUM_BARE_HEX, TK_FAST_HEX_MAX, 5, tk_fast_hex);
    }
    for (unsigned c = 0; c < 256; c++) {
        unsigned v = tk_fast_hexval((unsigned char)c);
        char ch = (char)c;
        uint64_t u;
        tk_status st = tk_num_parse(&ch, 1, TK_NUM_BARE_HEX, &u);
        bad += st == TK_OK ? v != u : v < 16;
    }
    TK_CHECK(bad == 0);
}

static void test_byte_tricks(void)
{
    int bad = 0;
    for (unsigned c = 0; c < 256; c++) {
        bad += tk_fast_is_digit((unsigned char)c) != (c >= '0' && c <= '9');
        int want = (c >= '0' && c <= '9') || c == '*' || c == '+' || c == '-';
        bad += tk_fast_cost_start(c) != want;
        int plain = c == 0 || c == 2 || c == 4;
        bad += c < 16 && (int)((TK_FAST_XRAY_PLAIN_CALLS >> c) & 1) != plain;
    }
    static const char *const yes[] = {" 0 0 0 ", " 0 0 0\n"};
    static const char *const no[] = {" 0 0 1 ", " 0 0 0x", "0 0 0  ", " 0 0 00", " 0  0 0 "};
    char w[9];
    for (size_t i = 0; i < 2; i++) {
        memset(w, 'z', sizeof w);
        memcpy(w, yes[i], 7);
        bad += !tk_fast_three_zeros(w);
    }
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        memset(w, 'z', sizeof w);
        memcpy(w, no[i], strlen(no[i]) < 8 ? strlen(no[i]) : 8);
        bad += tk_fast_three_zeros(w);
    }
    bad += tk_fast_opaque_u64(12345) != 12345;
    TK_CHECK(bad == 0);
}

/* The SWAR parsers, where built: every 8-byte window of random text. */
static void test_swar(void)
{
#if TK_FAST_SWAR
    char s[48];
    int bad = 0;
    for (int k = 0; k < 200000; k++) {
        random_text(s, sizeof s);
        uint64_t w = tk_fast_load8(s);
        /* the leading digits: their count from the first non-digit byte */
        unsigned want_n = 0;
        while (want_n < 8 && s[want_n] >= '0' && s[want_n] <= '9') want_n++;
        uint64_t nd = tk_swar_nondigits(w);
        unsigned n = nd ? (unsigned)__builtin_ctzll(nd) >> 3 : 8;
        bad += n != want_n;
        if (want_n >= 1) {
            uint64_t want;
            TK_CHECK(tk_num_parse(s, want_n, TK_NUM_DEC, &want) == TK_OK);
            bad += tk_swar_dec(w, want_n) != want;
        }
        unsigned want_h = 0;
        while (want_h < 8 && tk_fast_hexval((unsigned char)s[want_h]) < 16) want_h++;
        uint64_t hv = 0;
        unsigned h = tk_swar_hex(w, &hv);
        bad += h != want_h;
        if (h >= 1 && h <= 7) {
            uint64_t want;
            TK_CHECK(tk_num_parse(s, h, TK_NUM_BARE_HEX, &want) == TK_OK);
            bad += hv != want;
        }
    }
    /* where a JSON string's plain run stops: '"', '\\', below 0x20 */
    for (int k = 0; k < 100000; k++) {
        unsigned char b[8];
        for (int i = 0; i < 8; i++) {
            static const unsigned char pick[] = {'"',  '\\', 0x1f, 0x00, 0x20, 'a', 0x80,
                                                 0xff, 0xa2, 0xdc, 0x21, 0x5d, 0x5b};
            b[i] = next_rand(3) ? (unsigned char)(0x20 + next_rand(0xe0)) : pick[next_rand(13)];
        }
        unsigned want = 0;
        while (want < 8 && b[want] >= 0x20 && b[want] != '"' && b[want] != '\\') want++;
        uint64_t m = tk_swar_string_stops(tk_fast_load8(b));
        bad += (m ? (unsigned)__builtin_ctzll(m) >> 3 : 8) != want;
    }
    /* bytes with the high bit set are neither digits nor hex digits */
    uint64_t hv;
    memcpy(s,
           "12\xb1"
           "4567z",
           8);
    bad += tk_swar_hex(tk_fast_load8(s), &hv) != 2 || hv != 0x12;
    bad += (unsigned)__builtin_ctzll(tk_swar_nondigits(tk_fast_load8(s))) >> 3 != 2;
    TK_CHECK(bad == 0);
#endif
}

TK_TEST_MAIN(TK_CASE(test_decimal), TK_CASE(test_hex), TK_CASE(test_byte_tricks),
             TK_CASE(test_swar))
