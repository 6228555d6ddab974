/* Mutual recursion (is_even/is_odd), direct recursion (depth) and a
 * non-recursive helper, for annotate's per-line inclusive costs. */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) static int work(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += i * i;
    sink = s;
    return s & 1;
}

__attribute__((noinline)) static int is_odd(int n);

__attribute__((noinline)) static int is_even(int n)
{
    if (n == 0) return 1;
    work(10);
    return is_odd(n - 1);
}

__attribute__((noinline)) static int is_odd(int n)
{
    if (n == 0) return 0;
    work(10);
    return is_even(n - 1);
}

__attribute__((noinline)) static int depth(int n)
{
    if (n == 0) return work(20);
    return depth(n - 1) + 1;
}

int main(void)
{
    int r = 0;
    for (int i = 0; i < 100; i++) r += is_even(i);
    r += depth(30);
    r += work(50);
    printf("%d\n", r);
    return 0;
}
