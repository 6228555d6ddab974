/* The second file: a static function of the same name as one in crash.c. */
#include "cov.h"
#define COV_FILE helper_c

static int twice(int x)
{
    FC(twice);
    BB(twice, 0); return x + x;
}

int helper_work(int n)
{
    FC(helper_work);
    BB(helper_work, 0); int k = n;
    if (n < 0) {
        BB(helper_work, 3); return CALLV(helper_work, 0, twice(n));
    }
    while (k > 10) {
        BB(helper_work, 1); k -= 10;
    }
    BB(helper_work, 2); return k;
}
