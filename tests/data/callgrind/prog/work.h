void work_sort_ints(int *v, int n);
long work_apply(long (*fn)(long), int n);
