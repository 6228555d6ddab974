#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/arena.h"
#include "core/compat.h"
#include "core/hash.h"
#include "core/strpool.h"
#include "core/vec.h"
#include "tk_test.h"

static void test_arena(void)
{
    tk_arena a = TK_ARENA_INIT;
    char *p = tk_arena_strndup(&a, "hello", 5);
    TK_CHECK_STR(p, "hello");
    for (int i = 0; i < 10000; i++) {
        uint64_t *q = tk_arena_alloc(&a, sizeof *q);
        TK_CHECK(q != NULL && ((uintptr_t)q % sizeof(uint64_t)) == 0);
        *q = (uint64_t)i;
    }
    void *big = tk_arena_alloc(&a, 1 << 20);
    TK_CHECK(big != NULL);
    TK_CHECK_STR(p, "hello");
    tk_arena_free(&a);
    TK_CHECK(a.head == NULL);
}

static void test_strpool(void)
{
    tk_strpool sp;
    tk_strpool_init(&sp);
    uint32_t a = tk_strpool_intern(&sp, "main", 4);
    uint32_t b = tk_strpool_intern(&sp, "foo", 3);
    TK_CHECK(a != b);
    TK_CHECK_EQ_U64(tk_strpool_intern(&sp, "main", 4), a);
    TK_CHECK_EQ_U64(tk_strpool_find(&sp, "foo", 3), b);
    TK_CHECK_EQ_U64(tk_strpool_find(&sp, "bar", 3), TK_STR_NONE);
    char name[32];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(name, sizeof name, "fn%d", i);
        uint32_t id = tk_strpool_intern(&sp, name, (size_t)n);
        TK_CHECK_STR(tk_strpool_get(&sp, id), name);
    }
    TK_CHECK_EQ_U64(tk_strpool_count(&sp), 5002);
    TK_CHECK_STR(tk_strpool_get(&sp, a), "main");
    /* embedded NUL bytes are part of the string */
    uint32_t z1 = tk_strpool_intern(&sp, "a\0b", 3), z2 = tk_strpool_intern(&sp, "a\0c", 3);
    TK_CHECK(z1 != z2);
    TK_CHECK_EQ_U64(tk_strpool_len(&sp, z1), 3);
    tk_strpool_free(&sp);
}

static void test_hmap(void)
{
    tk_hmap m = TK_HMAP_INIT;
    uint64_t v;
    TK_CHECK(!tk_hmap_get(&m, 7, &v));
    for (uint64_t k = 0; k < 20000; k++) TK_CHECK(tk_hmap_put(&m, k * 7919, k) == 0);
    TK_CHECK_EQ_U64(m.len, 20000);
    TK_CHECK(tk_hmap_get(&m, 7919 * 123, &v) && v == 123);
    TK_CHECK(tk_hmap_put(&m, UINT64_MAX, 5) == 0);
    TK_CHECK(tk_hmap_get(&m, UINT64_MAX, &v) && v == 5);
    int inserted;
    uint64_t *slot = tk_hmap_slot(&m, 0, 99, &inserted);
    TK_CHECK(slot && !inserted && *slot == 0);
    (*slot)++;
    TK_CHECK(tk_hmap_get(&m, 0, &v) && v == 1);
    uint64_t sum = 0, k2, v2;
    size_t n = 0;
    for (size_t it = 0; tk_hmap_next(&m, &it, &k2, &v2);) n++, sum += v2;
    TK_CHECK_EQ_U64(n, 20001);
    tk_hmap_free(&m);
}

/* Keys made to share one probe run under the unkeyed mixer (tk_hash_u64
 * inverted on multiples of 2^24: equal low bits) spread in tk_hmap, which
 * keys its hash per process (hash flooding: such WET ids made `info`
 * quadratic). Measured as the longest run of used slots, not as time. */
static uint64_t unmix(uint64_t y)
{
    y ^= y >> 33;
    y *= 0x9cb4b2f8129337dbULL; /* inverse of 0xc4ceb9fe1a85ec53 */
    y ^= y >> 33;
    y *= 0x4f74430c22a54005ULL; /* inverse of 0xff51afd7ed558ccd */
    y ^= y >> 33;
    return y;
}

static void test_hmap_crafted_keys(void)
{
    TK_CHECK_EQ_U64(tk_hash_u64(unmix(5ULL << 24)), 5ULL << 24);
    tk_hmap m = TK_HMAP_INIT;
    enum { N = 40000 };
    for (uint64_t i = 1; i <= N; i++) TK_CHECK(tk_hmap_put(&m, unmix(i << 24), i) == 0);
    size_t run = 0, longest = 0;
    for (size_t i = 0; i < m.cap; i++) {
        run = m.used[i] ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    uint64_t v;
    TK_CHECK(tk_hmap_get(&m, unmix(777ULL << 24), &v) && v == 777);
    TK_CHECK_EQ_U64(m.len, N);
    if (longest >= 1000) fprintf(stderr, "longest probe run %zu of %d keys\n", longest, N);
    TK_CHECK(longest < 1000);
    tk_hmap_free(&m);
}

/* tk_hash_bytes: the same bytes hash the same wherever they lie, and
 * strings that differ in one bit anywhere (every length from 0 to 130, so
 * the four-lane rounds, the 8-byte words and the tail are all covered) or
 * only in length hash differently. */
static void test_hash_bytes(void)
{
    uint64_t key = tk_hash_new_key();
    TK_CHECK(key != tk_hash_new_key()); /* a key per table */
    unsigned char buf[200], copy[208];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(i * 37 + 11);
    size_t collisions = 0, tried = 0;
    for (size_t len = 0; len <= 130; len++) {
        uint64_t h = tk_hash_bytes(key, buf, len);
        memcpy(copy + 3, buf, len);
        TK_CHECK_EQ_U64(tk_hash_bytes(key, copy + 3, len), h);
        if (len) TK_CHECK(tk_hash_bytes(key, buf, len - 1) != h);
        for (size_t i = 0; i < len; i++) {
            for (int bit = 0; bit < 8; bit += 3) {
                buf[i] ^= (unsigned char)(1u << bit);
                collisions += tk_hash_bytes(key, buf, len) == h;
                tried++;
                buf[i] ^= (unsigned char)(1u << bit);
            }
        }
    }
    TK_CHECK(tried > 20000);
    TK_CHECK_EQ_U64(collisions, 0);
    /* words swapped between the lanes of a round change the hash */
    unsigned char a[64];
    memcpy(a, buf, 64);
    memcpy(a, buf + 8, 8);
    memcpy(a + 8, buf, 8);
    TK_CHECK(tk_hash_bytes(key, a, 64) != tk_hash_bytes(key, buf, 64));
    /* another key, other hashes */
    TK_CHECK(tk_hash_bytes(key ^ 1, buf, 64) != tk_hash_bytes(key, buf, 64));
}

static void test_vec(void)
{
    TK_VEC(int) v = {0};
    for (int i = 0; i < 1000; i++) TK_CHECK(TK_VEC_PUSH(&v, i * 2) == 0);
    TK_CHECK_EQ_U64(v.len, 1000);
    TK_CHECK_EQ_U64((uint64_t)v.data[999], 1998);
    TK_VEC_FREE(&v);
    TK_CHECK(v.data == NULL && v.len == 0);
}

/* tk_qsort_r: sorted by key; the portable fallback is stable, through scratch or, when the
 * allocator has none to give, in place (the same order). */
typedef struct rec {
    uint32_t key, seq;
} rec;

static int rec_cmp(const void *a, const void *b, void *ctx)
{
    const rec *x = a, *y = b;
    (*(int *)ctx)++;
    return x->key < y->key ? -1 : x->key > y->key;
}

static void fill_recs(rec *r, size_t n)
{
    uint32_t s = 12345;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        r[i].key = (s >> 16) % 37;
        r[i].seq = (uint32_t)i;
    }
}

static int recs_sorted(const rec *r, size_t n, int stable)
{
    for (size_t i = 1; i < n; i++) {
        if (r[i - 1].key > r[i].key) return 0;
        if (stable && r[i - 1].key == r[i].key && r[i - 1].seq > r[i].seq) return 0;
    }
    return 1;
}

#ifndef TK_HAVE_GNU_QSORT_R
static void *no_malloc(void *ctx, size_t size)
{
    (void)ctx, (void)size;
    return NULL;
}
static void *no_realloc(void *ctx, void *p, size_t size)
{
    (void)ctx, (void)p, (void)size;
    return NULL;
}
static void no_free(void *ctx, void *p) { (void)ctx, (void)p; }
#endif

static void test_qsort_r(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 7, 64, 1000, 4099};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        rec *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
        fill_recs(a, n);
        memcpy(b, a, n * sizeof *a);
        int calls = 0;
        tk_qsort_r(a, n, sizeof *a, rec_cmp, &calls);
#ifdef TK_HAVE_GNU_QSORT_R
        TK_CHECK(recs_sorted(a, n, 0));
#else
        TK_CHECK(recs_sorted(a, n, 1));
        static const tk_allocator none = {no_malloc, no_realloc, no_free, NULL};
        tk_set_allocator(&none);
        tk_qsort_r(b, n, sizeof *b, rec_cmp, &calls);
        tk_set_allocator(NULL);
        TK_CHECK(n == 0 || memcmp(a, b, n * sizeof *a) == 0); /* rec has no padding */
#endif
        TK_CHECK(n < 2 || calls > 0);
        free(a);
        free(b);
    }
}

TK_TEST_MAIN(TK_CASE(test_arena), TK_CASE(test_strpool), TK_CASE(test_hmap),
             TK_CASE(test_hmap_crafted_keys), TK_CASE(test_hash_bytes), TK_CASE(test_vec),
             TK_CASE(test_qsort_r))
