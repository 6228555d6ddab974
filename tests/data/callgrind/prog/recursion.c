/* Call cycles of several shapes, for the inclusive-cost estimate
 * (tests/integration/callgrind_inclusive.sh): direct recursion (fib, a
 * quicksort), mutual recursion (is_even/is_odd), an interpreter
 * (eval -> apply -> eval), a recursive descent parser (value -> list ->
 * value), a cycle of three with a helper called from inside and outside it.
 * argv[1] picks one shape (0: all). Deterministic: valgrind runs of it with
 * different --separate-recs give the same costs. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void work(int n)
{
    for (int i = 0; i < n; i++) sink += (unsigned long)i * 7;
}

__attribute__((noinline)) static int fib(int n)
{
    work(3);
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int is_odd(int n);

__attribute__((noinline)) static int is_even(int n)
{
    work(n % 5);
    return n == 0 ? 1 : is_odd(n - 1);
}

__attribute__((noinline)) static int is_odd(int n)
{
    work(2);
    return n == 0 ? 0 : is_even(n - 1);
}

typedef struct node {
    int op, v;
    struct node *a, *b;
} node;

static node pool[20000];
static int used;

static unsigned next(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 8;
}

__attribute__((noinline)) static node *make_tree(int depth, unsigned *seed)
{
    node *n = &pool[used++];
    if (depth == 0 || next(seed) % 4 == 0) {
        n->op = 0;
        n->v = (int)(next(seed) % 100);
        return n;
    }
    n->op = 1 + (int)(next(seed) % 3);
    n->a = make_tree(depth - 1, seed);
    n->b = make_tree(depth - 1, seed);
    return n;
}

static int eval(const node *n);

__attribute__((noinline)) static int lookup(int v)
{
    work(v % 7);
    return v;
}

__attribute__((noinline)) static int apply(int op, const node *a, const node *b)
{
    int x = eval(a), y = eval(b);
    work(op);
    return op == 1 ? x + y : op == 2 ? x - y : (x * y) % 1000;
}

__attribute__((noinline)) static int eval(const node *n)
{
    return n->op == 0 ? lookup(n->v) : apply(n->op, n->a, n->b);
}

static const char *src;
static char text[1 << 18];
static size_t text_len;

__attribute__((noinline)) static int parse_atom(void)
{
    int k = 0;
    while (*src >= 'a' && *src <= 'z') {
        k++;
        src++;
    }
    work(k);
    return k;
}

static int parse_value(void);

__attribute__((noinline)) static int parse_list(void)
{
    int s = 0;
    src++;
    while (*src && *src != ')') {
        s += parse_value();
        if (*src == ' ') src++;
    }
    if (*src) src++;
    return s;
}

__attribute__((noinline)) static int parse_value(void)
{
    work(1);
    return *src == '(' ? parse_list() : parse_atom();
}

static void make_text(int depth, unsigned *seed)
{
    if (depth == 0 || next(seed) % 3 == 0) {
        int k = 1 + (int)(next(seed) % 6);
        for (int i = 0; i < k; i++) text[text_len++] = (char)('a' + i);
        return;
    }
    text[text_len++] = '(';
    int m = 1 + (int)(next(seed) % 4);
    for (int i = 0; i < m; i++) {
        make_text(depth - 1, seed);
        if (i + 1 < m) text[text_len++] = ' ';
    }
    text[text_len++] = ')';
}

__attribute__((noinline)) static int partition(int *a, int lo, int hi)
{
    int p = a[hi], i = lo;
    for (int j = lo; j < hi; j++)
        if (a[j] < p) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
        }
    int t = a[i];
    a[i] = a[hi];
    a[hi] = t;
    return i;
}

__attribute__((noinline)) static void quicksort(int *a, int lo, int hi)
{
    if (lo < hi) {
        int p = partition(a, lo, hi);
        quicksort(a, lo, p - 1);
        quicksort(a, p + 1, hi);
    }
}

static int cycle_b(int n);
static int cycle_c(int n);

__attribute__((noinline)) static int helper(int n)
{
    work(10);
    return n;
}

__attribute__((noinline)) static int cycle_a(int n)
{
    work(2);
    if (n <= 0) return helper(n);
    return cycle_b(n - 1) + (n % 3 == 0 ? helper(n) : 0);
}

__attribute__((noinline)) static int cycle_b(int n)
{
    work(3);
    return n % 4 == 0 ? cycle_c(n - 1) : cycle_a(n - 1);
}

__attribute__((noinline)) static int cycle_c(int n)
{
    work(5);
    return n > 0 ? cycle_a(n - 1) + cycle_b(n - 2) : 0;
}

int main(int argc, char **argv)
{
    int which = argc > 1 ? atoi(argv[1]) : 0;
    unsigned seed = 42;
    long r = 0;
    if (which == 0 || which == 1)
        for (int i = 0; i < 5; i++) r += fib(14 + i % 3);
    if (which == 0 || which == 2)
        for (int i = 0; i < 300; i++) r += is_even(i % 97);
    if (which == 0 || which == 3)
        for (int k = 0; k < 40; k++) {
            used = 0;
            r += eval(make_tree(12, &seed));
        }
    if (which == 0 || which == 4) {
        make_text(9, &seed);
        for (int k = 0; k < 20; k++) {
            src = text;
            r += parse_value();
        }
    }
    if (which == 0 || which == 5) {
        int n = 20000;
        int *a = malloc((size_t)n * sizeof *a);
        if (!a) return 1;
        for (int i = 0; i < n; i++) a[i] = (int)next(&seed);
        quicksort(a, 0, n - 1);
        r += a[n / 2];
        free(a);
    }
    if (which == 0 || which == 6)
        for (int i = 0; i < 200; i++) r += cycle_a(i % 40) + helper(i);
    printf("%ld\n", r);
    return 0;
}
