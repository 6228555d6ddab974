/* Portable fallbacks (see compat.h). */
#include "core/compat.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef TK_HAVE_GETRANDOM
#include <sys/random.h>
#endif

#include "core/alloc.h"

#ifndef TK_HAVE_GNU_QSORT_R
typedef int (*cmp_fn)(const void *, const void *, void *);

static void swap_elems(char *a, char *b, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        char t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

static void reverse_elems(char *b, size_t n, size_t size)
{
    for (size_t i = 0, j = n; i + 1 < j; i++, j--)
        swap_elems(b + i * size, b + (j - 1) * size, size);
}

/* Merge the sorted runs b[0, n1) and b[n1, n1 + n2) in place, stably, with no scratch:
 * cut the longer run at its middle, find where that element goes in the other (after its
 * equals in the first run, before them in the second), rotate the two middle pieces past each
 * other and merge each side. The longer run halves at every level, so the recursion is at most
 * 2 log2(n1 + n2) deep. */
static void merge_in_place(char *b, size_t n1, size_t n2, size_t size, cmp_fn cmp, void *ctx)
{
    if (n1 == 0 || n2 == 0) return;
    if (n1 + n2 == 2) {
        if (cmp(b + size, b, ctx) < 0) swap_elems(b, b + size, size);
        return;
    }
    size_t cut1, cut2; /* b[cut1, n1) and b[n1, cut2) change places */
    if (n1 >= n2) {
        cut1 = n1 / 2;
        size_t lo = n1, hi = n1 + n2; /* the first of the second run not below b[cut1] */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cmp(b + mid * size, b + cut1 * size, ctx) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        cut2 = lo;
    } else {
        cut2 = n1 + n2 / 2;
        size_t lo = 0, hi = n1; /* the first of the first run above b[cut2] */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cmp(b + cut2 * size, b + mid * size, ctx) < 0)
                hi = mid;
            else
                lo = mid + 1;
        }
        cut1 = lo;
    }
    /* rotate by three reversals */
    reverse_elems(b + cut1 * size, n1 - cut1, size);
    reverse_elems(b + n1 * size, cut2 - n1, size);
    reverse_elems(b + cut1 * size, cut2 - cut1, size);
    size_t mid = cut1 + (cut2 - n1);
    merge_in_place(b, cut1, mid - cut1, size, cmp, ctx);
    merge_in_place(b + mid * size, n1 - cut1, n1 + n2 - cut2, size, cmp, ctx);
}

/* Bottom-up merge sort of b[0, n) in place: the same order as merge_sort (both are stable),
 * in O(n log^2 n) moves, for when there is no memory for scratch. */
static void merge_sort_in_place(char *b, size_t n, size_t size, cmp_fn cmp, void *ctx)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo + w < n; lo += 2 * w) {
            size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            merge_in_place(b + lo * size, w, hi - lo - w, size, cmp, ctx);
        }
        if (w > SIZE_MAX / 2) break;
    }
}

/* Bottom-up merge sort of b[0, n) through scratch s of n elements. */
static void merge_sort(char *b, char *s, size_t n, size_t size, cmp_fn cmp, void *ctx)
{
    char *src = b, *dst = s;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (cmp(src + j * size, src + i * size, ctx) < 0)
                    memcpy(dst + k++ * size, src + j++ * size, size);
                else
                    memcpy(dst + k++ * size, src + i++ * size, size);
            }
            memcpy(dst + k * size, src + i * size, (mid - i) * size);
            k += mid - i;
            memcpy(dst + k * size, src + j * size, (hi - j) * size);
        }
        char *t = src;
        src = dst;
        dst = t;
    }
    if (src != b) memcpy(b, src, n * size);
}
#endif

void tk_qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
                void *ctx)
{
#ifdef TK_HAVE_GNU_QSORT_R
    qsort_r(base, n, size, cmp, ctx);
#else
    if (n < 2 || !size) return;
    char *s = n <= SIZE_MAX / size ? tk_malloc(n * size) : NULL;
    if (!s) {
        merge_sort_in_place(base, n, size, cmp, ctx);
        return;
    }
    merge_sort(base, s, n, size, cmp, ctx);
    tk_free(s);
#endif
}

int tk_random_u64(uint64_t *out)
{
#ifdef TK_HAVE_GETRANDOM
    if (getrandom(out, sizeof *out, GRND_NONBLOCK) == (ssize_t)sizeof *out) return 1;
#endif
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t got = read(fd, out, sizeof *out);
    close(fd);
    return got == (ssize_t)sizeof *out;
}
