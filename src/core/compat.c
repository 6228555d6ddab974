/* Portable fallbacks (see compat.h). */
#include "compat.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef TK_HAVE_GETRANDOM
#include <sys/random.h>
#endif

#include "alloc.h"

#ifndef TK_HAVE_GNU_QSORT_R
typedef int (*cmp_fn)(const void *, const void *, void *);

static void insertion_sort(char *b, size_t n, size_t size, cmp_fn cmp, void *ctx, char *tmp)
{
    for (size_t i = 1; i < n; i++) {
        size_t k = i;
        memcpy(tmp, b + i * size, size);
        while (k > 0 && cmp(tmp, b + (k - 1) * size, ctx) < 0) {
            memcpy(b + k * size, b + (k - 1) * size, size);
            k--;
        }
        memcpy(b + k * size, tmp, size);
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
    if (s) {
        merge_sort(base, s, n, size, cmp, ctx);
        tk_free(s);
        return;
    }
    char *tmp = tk_malloc(size);
    if (!tmp) abort(); /* no element of scratch: nothing sensible is left */
    insertion_sort(base, n, size, cmp, ctx, tmp);
    tk_free(tmp);
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
