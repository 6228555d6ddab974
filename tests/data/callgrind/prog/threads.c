#include <pthread.h>
#include <stdio.h>
static long counter(long n) { long s = 0; for (long i = 0; i < n; i++) s += i % 7; return s; }
static void *worker(void *arg) { long n = (long)arg; return (void *)counter(n); }
int main(void)
{
    pthread_t t[3];
    long r = 0;
    for (long i = 0; i < 3; i++) pthread_create(&t[i], NULL, worker, (void *)(1000 * (i + 1)));
    for (int i = 0; i < 3; i++) { void *v; pthread_join(t[i], &v); r += (long)v; }
    printf("%ld\n", r + counter(500));
    return 0;
}
