/* Multi-threaded XRay test program: a main thread feeds jobs to N pthread workers through a
 * mutex/condvar queue; each job runs a middleware chain, a recursive quicksort, a recursive
 * descent expression parser and a hash table. Usage: mtpool [jobs] [workers]. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xray_ctl.h"

#define QUEUE_CAP 64
#define MAX_WORKERS 16

static int queue[QUEUE_CAP];
static int q_head, q_len, q_closed;
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t q_space = PTHREAD_COND_INITIALIZER;
static volatile long total;

__attribute__((noinline)) static void queue_push(int job)
{
    pthread_mutex_lock(&q_lock);
    while (q_len == QUEUE_CAP)
        pthread_cond_wait(&q_space, &q_lock);
    queue[(q_head + q_len++) % QUEUE_CAP] = job;
    pthread_cond_signal(&q_ready);
    pthread_mutex_unlock(&q_lock);
}

__attribute__((noinline)) static int queue_pop(void)
{
    pthread_mutex_lock(&q_lock);
    while (q_len == 0 && !q_closed)
        pthread_cond_wait(&q_ready, &q_lock);
    int job = -1;
    if (q_len > 0) {
        job = queue[q_head];
        q_head = (q_head + 1) % QUEUE_CAP;
        q_len--;
        pthread_cond_signal(&q_space);
    }
    pthread_mutex_unlock(&q_lock);
    return job;
}

__attribute__((noinline)) static void swap_ints(int *a, int *b) { int t = *a; *a = *b; *b = t; }

__attribute__((noinline)) static void quicksort(int *v, int n)
{
    if (n < 2)
        return;
    int pivot = v[n / 2], i = 0, j = n - 1;
    while (i <= j) {
        while (v[i] < pivot) i++;
        while (v[j] > pivot) j--;
        if (i <= j)
            swap_ints(&v[i++], &v[j--]);
    }
    quicksort(v, j + 1);
    quicksort(v + i, n - i);
}

/* expr := term ('+' term)*; term := factor ('*' factor)*; factor := digit | '(' expr ')' */
static long parse_expr(const char **p);
__attribute__((noinline)) static long parse_factor(const char **p)
{
    if (**p == '(') {
        (*p)++;
        long v = parse_expr(p);
        (*p)++;
        return v;
    }
    return *(*p)++ - '0';
}
__attribute__((noinline)) static long parse_term(const char **p)
{
    long v = parse_factor(p);
    while (**p == '*') { (*p)++; v *= parse_factor(p); }
    return v;
}
__attribute__((noinline)) static long parse_expr(const char **p)
{
    long v = parse_term(p);
    while (**p == '+') { (*p)++; v += parse_term(p); }
    return v;
}

__attribute__((noinline)) static unsigned hash_str(const char *s)
{
    unsigned h = 2166136261u;
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

__attribute__((noinline)) static long hash_table_work(int job)
{
    char key[32];
    long acc = 0;
    for (int i = 0; i < 8; i++) {
        snprintf(key, sizeof key, "k%d-%d", job, i);
        acc += hash_str(key) % 1000;
    }
    return acc;
}

#define LAYER(i, next)                                                                      \
    __attribute__((noinline)) static long middleware_##i(int job) { return next(job) + i; }

__attribute__((noinline)) static long compute(int job)
{
    int v[24];
    for (int i = 0; i < 24; i++) v[i] = (job * 7919 + i * 104729) % 1000;
    quicksort(v, 24);
    const char *expr = "(1+2)*(3+4*(5+6))+7*8";
    return v[0] + parse_expr(&expr) + hash_table_work(job);
}
LAYER(5, compute) LAYER(4, middleware_5) LAYER(3, middleware_4) LAYER(2, middleware_3)
LAYER(1, middleware_2) LAYER(0, middleware_1)

[[clang::xray_always_instrument, clang::xray_log_args(1)]] __attribute__((noinline))
static void handle_job(long job_id)
{
    long r = middleware_0((int)job_id);
    __atomic_fetch_add(&total, r, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void *worker_main(void *arg)
{
    (void)arg;
    for (int job; (job = queue_pop()) >= 0;)
        handle_job(job);
    return NULL;
}

int main(int argc, char **argv)
{
    int jobs = argc > 1 ? atoi(argv[1]) : 200;
    int workers = argc > 2 ? atoi(argv[2]) : 4;
    if (workers < 1 || workers > MAX_WORKERS) workers = 4;
    pthread_t tids[MAX_WORKERS];
    xray_ctl_start();
    for (int i = 0; i < workers; i++)
        pthread_create(&tids[i], NULL, worker_main, NULL);
    for (int j = 0; j < jobs; j++)
        queue_push(j);
    pthread_mutex_lock(&q_lock);
    q_closed = 1;
    pthread_cond_broadcast(&q_ready);
    pthread_mutex_unlock(&q_lock);
    for (int i = 0; i < workers; i++)
        pthread_join(tids[i], NULL);
    xray_ctl_stop();
    printf("%ld\n", total);
    return 0;
}
