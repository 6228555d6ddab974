/* Unit tests of the thread pool (src/core/threadpool.c). */
#include <stdatomic.h>

#include "core/threadpool.h"
#include "tk_test.h"

typedef struct sum_ctx {
    atomic_ullong sum;
    unsigned char *seen;
    unsigned nworkers;
    int bad_worker;
} sum_ctx;

static void add_index(void *ctx, size_t i, unsigned worker)
{
    sum_ctx *c = ctx;
    atomic_fetch_add(&c->sum, (unsigned long long)i);
    c->seen[i]++;
    if (worker >= c->nworkers) c->bad_worker = 1;
}

static void test_every_index_once(void)
{
    for (unsigned threads = 1; threads <= 4; threads++) {
        tk_threadpool *pool;
        tk_error err;
        tk_error_clear(&err);
        TK_CHECK_EQ_I64(tk_threadpool_create(&pool, threads, &err), TK_OK);
        TK_CHECK_EQ_U64(tk_threadpool_size(pool), threads);
        for (size_t n = 0; n < 2000; n = n * 3 + 1) {
            sum_ctx c;
            atomic_init(&c.sum, 0);
            c.seen = calloc(n + 1, 1);
            c.nworkers = threads;
            c.bad_worker = 0;
            tk_threadpool_for(pool, n, add_index, &c);
            TK_CHECK_EQ_U64(atomic_load(&c.sum), n ? (unsigned long long)n * (n - 1) / 2 : 0);
            size_t wrong = 0;
            for (size_t i = 0; i < n; i++) wrong += c.seen[i] != 1;
            TK_CHECK_EQ_U64(wrong, 0);
            TK_CHECK(!c.bad_worker);
            free(c.seen);
        }
        tk_threadpool_free(pool);
    }
    tk_threadpool_free(NULL);
    TK_CHECK(tk_cpu_count() >= 1);
}

TK_TEST_MAIN(TK_CASE(test_every_index_once))
