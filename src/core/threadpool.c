/* tracekit core: thread pool (see threadpool.h). */
#include "core/alloc.h"
#include "core/threadpool.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct tk_threadpool {
    unsigned size; /* workers including the caller */
    pthread_t *threads; /* size - 1 helper threads */
    pthread_mutex_t lock;
    pthread_cond_t work_cv; /* a new loop or shutdown */
    pthread_cond_t done_cv; /* a helper finished its part */
    unsigned long generation;
    int shutdown;
    /* the current loop */
    tk_threadpool_fn fn;
    void *ctx;
    size_t n;
    size_t next; /* next index to hand out (under lock) */
    unsigned busy; /* helpers still working on this loop */
};

typedef struct helper_arg {
    tk_threadpool *pool;
    unsigned worker;
} helper_arg;

static void run_loop(tk_threadpool *pool, unsigned worker)
{
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        size_t i = pool->next < pool->n ? pool->next++ : pool->n;
        pthread_mutex_unlock(&pool->lock);
        if (i >= pool->n) return;
        pool->fn(pool->ctx, i, worker);
    }
}

static void *helper_main(void *p)
{
    helper_arg arg = *(helper_arg *)p;
    tk_free(p);
    tk_threadpool *pool = arg.pool;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        while (!pool->shutdown && pool->generation == seen)
            pthread_cond_wait(&pool->work_cv, &pool->lock);
        if (pool->shutdown) {
            pthread_mutex_unlock(&pool->lock);
            return NULL;
        }
        seen = pool->generation;
        pthread_mutex_unlock(&pool->lock);
        run_loop(pool, arg.worker);
        pthread_mutex_lock(&pool->lock);
        if (--pool->busy == 0) pthread_cond_signal(&pool->done_cv);
        pthread_mutex_unlock(&pool->lock);
    }
}

unsigned tk_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}

tk_status tk_threadpool_create(tk_threadpool **out, unsigned threads, tk_error *err)
{
    *out = NULL;
    if (threads == 0) threads = tk_cpu_count();
    if (threads > 256) threads = 256;
    tk_threadpool *pool = tk_calloc(1, sizeof *pool);
    if (!pool) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    pool->size = 1;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->work_cv, NULL);
    pthread_cond_init(&pool->done_cv, NULL);
    if (threads > 1 && !(pool->threads = tk_calloc(threads - 1, sizeof *pool->threads))) {
        tk_threadpool_free(pool);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    for (unsigned i = 1; i < threads; i++) {
        helper_arg *arg = tk_malloc(sizeof *arg);
        if (!arg) {
            tk_threadpool_free(pool);
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        }
        arg->pool = pool;
        arg->worker = i;
        if (pthread_create(&pool->threads[i - 1], NULL, helper_main, arg) != 0) {
            tk_free(arg);
            tk_threadpool_free(pool);
            return tk_error_set(err, TK_ERR_IO, "cannot create a thread");
        }
        pool->size++;
    }
    *out = pool;
    return TK_OK;
}

void tk_threadpool_free(tk_threadpool *pool)
{
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    pool->shutdown = 1;
    pthread_cond_broadcast(&pool->work_cv);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 1; i < pool->size; i++) pthread_join(pool->threads[i - 1], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->work_cv);
    pthread_cond_destroy(&pool->done_cv);
    tk_free(pool->threads);
    tk_free(pool);
}

unsigned tk_threadpool_size(const tk_threadpool *pool) { return pool ? pool->size : 1; }

void tk_threadpool_for(tk_threadpool *pool, size_t n, tk_threadpool_fn fn, void *ctx)
{
    if (n == 0) return;
    if (!pool || pool->size == 1 || n == 1) {
        for (size_t i = 0; i < n; i++) fn(ctx, i, 0);
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->fn = fn;
    pool->ctx = ctx;
    pool->n = n;
    pool->next = 0;
    pool->busy = pool->size - 1;
    pool->generation++;
    pthread_cond_broadcast(&pool->work_cv);
    pthread_mutex_unlock(&pool->lock);
    run_loop(pool, 0);
    pthread_mutex_lock(&pool->lock);
    while (pool->busy > 0) pthread_cond_wait(&pool->done_cv, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}
