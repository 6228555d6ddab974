/* Parallel bzip2 decoding: the same bytes as the serial decoder on good data,
 * and on damaged data the same error at the same offset, after a prefix of the
 * true content. */
#include <bzlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bz2_parallel.h"
#include "tk_test.h"
#include "tracekit/tracekit.h"

/* Text that compresses about 3:1, so level 1 makes several blocks. */
static char *make_words(size_t len, unsigned seed)
{
    static const char *words[] = {"block", "edge", "0x4005d0", "routine", "loop", "42", "\"COUNT\"",
                                  "[",     "]",    ",",        "thread",  "7",    "\n"};
    char *t = malloc(len + 16);
    size_t n = 0;
    uint32_t x = seed;
    while (n < len) {
        x = x * 1103515245u + 12345u;
        const char *w = words[(x >> 16) % (sizeof words / sizeof *words)];
        size_t k = strlen(w);
        memcpy(t + n, w, k);
        n += k;
        t[n++] = (x >> 8 & 3) ? ' ' : '\n';
    }
    return t;
}

static unsigned char *bz2(const char *t, size_t len, int level, size_t *out_len)
{
    unsigned n = (unsigned)(len + len / 50 + 1024);
    unsigned char *o = malloc(n);
    TK_CHECK(BZ2_bzBuffToBuffCompress((char *)o, &n, (char *)(uintptr_t)t, (unsigned)len, level, 0,
                                      0) == BZ_OK);
    *out_len = n;
    return o;
}

typedef struct result {
    tk_status st;
    tk_error err;
    unsigned char *out;
    size_t len;
} result;

static result read_all(const unsigned char *data, size_t len, unsigned threads)
{
    result r = {TK_OK, {0}, NULL, 0};
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.threads = threads;
    opt.parallel_min = 1;
    tk_input *in;
    tk_error_clear(&r.err);
    r.st = tk_input_open_memory(&in, data, len, "t.bz2", &opt, &r.err);
    if (r.st != TK_OK) return r;
    const uint8_t *d;
    size_t n, cap = 0;
    while ((r.st = tk_input_chunk(in, &d, &n, &r.err)) == TK_OK) {
        if (r.len + n > cap) {
            cap = (r.len + n) * 2;
            r.out = realloc(r.out, cap);
        }
        memcpy(r.out + r.len, d, n);
        r.len += n;
    }
    tk_input_free(in);
    return r;
}

/* Serial and parallel agree: status, message, offset; the content handed out
 * is a prefix of want (all of it when the data is good). */
static void check_same(const unsigned char *data, size_t len, const char *want, size_t want_len,
                       const char *what)
{
    result s = read_all(data, len, 1), p = read_all(data, len, 3);
    int ok = s.st == p.st;
    if (s.st != TK_END)
        ok = ok && strcmp(s.err.message, p.err.message) == 0 && s.err.offset == p.err.offset &&
             p.len <= want_len && (p.len == 0 || memcmp(p.out, want, p.len) == 0);
    else
        ok = ok && s.len == want_len && p.len == want_len &&
             (want_len == 0 ||
              (memcmp(s.out, want, want_len) == 0 && memcmp(p.out, want, want_len) == 0));
    if (!TK_CHECK(ok))
        fprintf(stderr,
                "    case %s: serial %d \"%s\" at %lld (%zu bytes), parallel %d \"%s\" at %lld "
                "(%zu bytes)\n",
                what, s.st, s.st == TK_END ? "" : s.err.message, (long long)s.err.offset, s.len,
                p.st, p.st == TK_END ? "" : p.err.message, (long long)p.err.offset, p.len);
    free(s.out);
    free(p.out);
}

static void test_good_data(void)
{
    size_t tl, zl;
    char *t = make_words(700000, 1);
    unsigned char *z = bz2(t, 700000, 1, &zl);
    tl = 700000;
    check_same(z, zl, t, tl, "one stream, level 1");

    /* the parallel decoder really runs, and ends cleanly */
    tk_bz2par *p = tk_bz2par_start(z, zl, 2, 1);
    if (TK_CHECK(p != NULL)) {
        unsigned char *out = malloc(tl);
        size_t have = 0, got;
        tk_bz2par_stop stop;
        int r;
        uint64_t last_pos = 0;
        int monotonic = 1;
        while ((r = tk_bz2par_read(p, out + have, 4096, &got, &stop)) == 1) {
            have += got;
            uint64_t pos = tk_bz2par_raw_position(p);
            monotonic &= pos >= last_pos && pos <= zl;
            last_pos = pos;
        }
        TK_CHECK(monotonic);
        TK_CHECK(last_pos > zl / 2);
        TK_CHECK(r == 0);
        TK_CHECK(have == tl && memcmp(out, t, tl) == 0);
        free(out);
        tk_bz2par_free(p);
    }
    TK_CHECK(tk_bz2par_start(z, zl, 1, 1) == NULL);

    /* several streams: level 1, an empty stream, level 9 */
    size_t el, nl;
    unsigned char *e = bz2("", 0, 9, &el);
    unsigned char *z9 = bz2(t, 300000, 9, &nl);
    unsigned char *cat = malloc(zl + el + nl);
    memcpy(cat, z, zl);
    memcpy(cat + zl, e, el);
    memcpy(cat + zl + el, z9, nl);
    char *want = malloc(tl + 300000);
    memcpy(want, t, tl);
    memcpy(want + tl, t, 300000);
    check_same(cat, zl + el + nl, want, tl + 300000, "three streams");
    check_same(e, el, "", 0, "empty stream");
    free(want);
    free(cat);
    free(e);
    free(z9);
    free(z);
    free(t);
}

static void test_damaged_data(void)
{
    size_t tl = 600000, zl;
    char *t = make_words(tl, 2);
    unsigned char *z = bz2(t, tl, 1, &zl);
    unsigned char *d = malloc(zl + 16);
    char what[64];
    /* truncated anywhere */
    for (int k = 1; k <= 12; k++) {
        size_t cut = zl * (size_t)k / 13;
        snprintf(what, sizeof what, "cut at %zu of %zu", cut, zl);
        check_same(z, cut, t, tl, what);
    }
    check_same(z, zl - 1, t, tl, "last byte missing");
    /* a byte changed anywhere (also in a block magic, a CRC, the end) */
    for (int k = 0; k <= 16; k++) {
        size_t at = 4 + (zl - 5) * (size_t)k / 16;
        memcpy(d, z, zl);
        d[at] ^= (unsigned char)(0x11 << (k % 4));
        snprintf(what, sizeof what, "byte %zu of %zu changed", at, zl);
        check_same(d, zl, t, tl, what);
    }
    /* data after the stream */
    for (size_t extra = 1; extra <= 6; extra++) {
        memcpy(d, z, zl);
        memcpy(d + zl, "garbage", extra);
        snprintf(what, sizeof what, "%zu bytes after the stream", extra);
        check_same(d, zl + extra, t, tl, what);
    }
    memcpy(d, z, zl);
    memcpy(d + zl, "BZh9", 4);
    check_same(d, zl + 4, t, tl, "a stream header alone after the stream");

    /* a corrupt block: the parallel decoder stops at its stream's start and
     * says how much of the stream it handed out */
    memcpy(d, z, zl);
    d[zl / 2] ^= 0x40;
    tk_bz2par *p = tk_bz2par_start(d, zl, 2, 1);
    if (TK_CHECK(p != NULL)) {
        unsigned char buf[8192];
        size_t have = 0, got;
        tk_bz2par_stop stop;
        int r;
        while ((r = tk_bz2par_read(p, buf, sizeof buf, &got, &stop)) == 1) have += got;
        TK_CHECK(r == -1);
        TK_CHECK_EQ_U64(stop.raw, 0);
        TK_CHECK_EQ_U64(stop.skip, have);
        TK_CHECK(!stop.after_end);
        TK_CHECK(have > 0 && have < tl);
        tk_bz2par_free(p);
    }
    free(d);
    free(z);
    free(t);
}

TK_TEST_MAIN(TK_CASE(test_good_data), TK_CASE(test_damaged_data))
