/* The system calls and library functions that are not in C11 or POSIX, each
 * behind a feature test with a portable fallback. -DTK_PORTABLE takes the
 * fallbacks everywhere: `make check` builds that way with musl-gcc
 * (build-musl) so that they are compiled and tested. */
#ifndef TK_CORE_COMPAT_H
#define TK_CORE_COMPAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GLIBC__) && !defined(TK_PORTABLE)
#define TK_HAVE_GNU_QSORT_R 1 /* glibc's argument order (musl 1.2.3 has it too, undetectable) */
#define TK_HAVE_STRCHRNUL 1
#define TK_HAVE_MALLOC_USABLE_SIZE 1
#define TK_HAVE_FOPENCOOKIE 1 /* a stdio stream over callbacks (musl has it too) */
#endif
#if defined(__linux__) && !defined(TK_PORTABLE)
#define TK_HAVE_MREMAP 1 /* Linux */
#define TK_HAVE_GETRANDOM 1 /* Linux 3.17, glibc 2.25, musl 1.1.20 */
#endif

/* qsort with a context pointer passed to the comparison (GNU qsort_r's
 * order of arguments). Cannot fail: the fallback is a stable merge sort through
 * n elements of scratch, or, when there is no memory for them, in place (the
 * same order, in O(n log^2 n) moves). */
void tk_qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
                void *ctx);

/* The first c in s, or its terminating NUL. */
static inline const char *tk_strchrnul(const char *s, int c)
{
#ifdef TK_HAVE_STRCHRNUL
    return strchrnul(s, c);
#else
    const char *p = strchr(s, c);
    return p ? p : s + strlen(s);
#endif
}

/* 8 random bytes for hash keys: getrandom where the system has it, else
 * /dev/urandom; 0 when neither answers (the caller mixes in the time). */
int tk_random_u64(uint64_t *out);

#endif
