/* Prints the TSC frequency in kHz, measured against CLOCK_MONOTONIC over 200 ms (uninstrumented). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

int main(void)
{
    struct timespec a, b, pause = { 0, 200000000L };
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t t0 = __rdtsc();
    nanosleep(&pause, NULL);
    uint64_t t1 = __rdtsc();
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    double khz = (double)(t1 - t0) / ns * 1e6;
    printf("%ld\n", (long)(khz / 1000.0 + 0.5) * 1000); /* rounded to whole MHz */
    return 0;
}
