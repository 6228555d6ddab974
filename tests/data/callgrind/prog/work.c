#include "work.h"
static void insert_sort(int *v, int n)
{
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
        v[j + 1] = x;
    }
}
void work_sort_ints(int *v, int n) { insert_sort(v, n); }
long work_apply(long (*fn)(long), int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) s += fn(i);
    return s;
}
