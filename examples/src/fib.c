/* A small program for the bundled sample traces: recursion and a loop. */
#include <stdio.h>
#include <stdlib.h>

#ifdef WITH_XRAY
/* The XRay runtime's C entry points (its headers are C++ only): FDR mode keeps
 * its buffers in memory until the program finalizes and flushes them. */
int __xray_log_select_mode(const char *mode);
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_patch(void);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);
#endif

__attribute__((noinline)) static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) static long sum_squares(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) s += i * i;
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 15;
#ifdef WITH_XRAY
    __xray_log_select_mode("xray-fdr");
    __xray_log_init_mode("xray-fdr", "func_duration_threshold_us=0");
    __xray_patch();
#endif
    printf("fib(%d) = %ld\n", n, fib(n));
    printf("sum_squares = %ld\n", sum_squares(n * 1000));
#ifdef WITH_XRAY
    __xray_log_finalize();
    __xray_log_flushLog();
#endif
    return 0;
}
