/* A program that crashes on purpose, with csi-cc's coverage arrays. */
#include <stdio.h>
#include <stdlib.h>
#include "cov.h"
#define COV_FILE crash_c

int helper_work(int n);

static int twice(int x)
{
    FC(twice);
    BB(twice, 0); return x * 2;
}

int leaf(int n)
{
    FC(leaf);
    BB(leaf, 0); int r = 0;
    if (n > 100) {
        BB(leaf, 1); r = n * 3;
    } else {
        BB(leaf, 2); r = CALLV(leaf, 0, twice(n));
    }
    BB(leaf, 3); return r;
}

static void crash_now(volatile int *p)
{
    FC(crash_now);
    BB(crash_now, 0); *p = 42;
    BB(crash_now, 1); fputs("not reached\n", stderr);
}

int never_called(int x)
{
    FC(never_called);
    BB(never_called, 0); return CALLV(never_called, 0, leaf(x)) + 1;
}

int main(int argc, char **argv)
{
    FC(main);
    BB(main, 0); int total = 0;
    (void)argv;
    for (int i = 0; i < 3; i++) {
        BB(main, 1); total += CALLV(main, 0, leaf(i));
    }
    BB(main, 2); total += CALLV(main, 1, helper_work(total));
    if (total < 0) {
        BB(main, 3); CALL(main, 2, puts("negative"));
    }
    BBU(main); CALLU(main, fputs("crashing\n", stderr));
    BB(main, 4); CALL(main, 3, crash_now(argc > 5 ? &total : NULL));
    BB(main, 5); return total;
}
