/* Test program for callgrind profiles: recursion, mutual recursion,
 * forced-inline helpers, a shared library with a callback. */
#include <stdio.h>
#include <stdlib.h>
#include "inl.h"
#include "work.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static long square_cb(long x) { return mix(x) % 1000; }

__attribute__((noinline)) static long phase1(void)
{
    long s = 0;
    for (int i = 0; i < 200; i++) s += mix(i);
    return s + fib(15);
}

__attribute__((noinline)) static long phase2(void)
{
    int v[300];
    for (int i = 0; i < 300; i++) v[i] = (i * 7919) % 301;
    work_sort_ints(v, 300);
    return v[0] + work_apply(square_cb, 100) + is_even(51);
}

int main(int argc, char **argv)
{
    (void)argv;
    long r = phase1() + phase2();
    char *p = malloc(64);
    snprintf(p, 64, "%ld", r + argc);
    printf("%s\n", p);
    free(p);
    return 0;
}
