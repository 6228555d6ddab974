/* A program with path tracing (the CFG of the CSI guide's "loop" example,
 * pt.PT.in) and function and block coverage, crashing on purpose in the
 * fourth iteration, below main: main's locals then hold the completed paths
 * 0, 4, 3 and the running sum 4 of the path 4 5 8 in progress. A comment
 * "PT n" marks the lines of path-tracing block n. */
#include <stdio.h>
#include "cov.h"
#include "pt.h"
#define COV_FILE pt_c

static void crash_now(volatile int *p)
{
    FC(crash_now);
    BB(crash_now, 0); *p = 1;
}

static int work_odd(int i)
{
    FC(work_odd);
    BB(work_odd, 0); if (i == 3) crash_now(0);
    BB(work_odd, 1); return i * 3;
}

int main(void)
{
    PT_BEGIN(10);
    FC(main);
    BB(main, 0); int n = 4, sum = 0;                 /* PT 2 */
    for (int i = 0;; i++) {
        BB(main, 1); if (!(i < n)) {                 /* PT 4 */
            PT_INC(2); break;
        }
        BB(main, 2); if (i % 2 == 0) {               /* PT 5 */
            BB(main, 3); sum += i;                   /* PT 7 */
        } else {
            BB(main, 4); PT_INC(1); sum += work_odd(i); /* PT 8 */
        }
        BB(main, 5); PT_WRITE(); PT_SET(3);          /* PT 9 */
    }
    BB(main, 6); PT_WRITE(); printf("%d\n", sum);    /* PT 6 */
    return 0;
}
