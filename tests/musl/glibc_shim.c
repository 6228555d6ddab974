/* Linked into the musl test build only (make check's build-musl): Debian's
 * static archives of tracekit's dependencies (zlib, xz, zstd, bzip2,
 * elfutils, libiberty) were compiled against glibc with _FORTIFY_SOURCE and
 * call these glibc entry points, which musl does not have. tracekit's own
 * code calls none of them. libdwfl (tracekit coverage's unwinder) brings in
 * libdw's backends, which call the string and asprintf ones. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int __sprintf_chk(char *s, int flag, size_t slen, const char *fmt, ...);
int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, ...);
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
void error(int status, int errnum, const char *fmt, ...);
int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, va_list ap);
int __asprintf_chk(char **out, int flag, const char *fmt, ...);
char *__strcpy_chk(char *dst, const char *src, size_t dstlen);
char *__stpcpy_chk(char *dst, const char *src, size_t dstlen);
char *__strcat_chk(char *dst, const char *src, size_t dstlen);

int __sprintf_chk(char *s, int flag, size_t slen, const char *fmt, ...)
{
    (void)flag;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s, slen, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n >= slen) abort(); /* what the checked version does */
    return n;
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, ...)
{
    (void)flag;
    if (maxlen > slen) abort();
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s, maxlen, fmt, ap);
    va_end(ap);
    return n;
}

int __fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
    (void)flag;
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

void error(int status, int errnum, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (errnum) fprintf(stderr, ": %s", strerror(errnum));
    fputc('\n', stderr);
    if (status) exit(status);
}

int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, va_list ap)
{
    (void)flag;
    if (maxlen > slen) abort();
    return vsnprintf(s, maxlen, fmt, ap);
}

int __asprintf_chk(char **out, int flag, const char *fmt, ...)
{
    (void)flag;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(out, fmt, ap);
    va_end(ap);
    return n;
}

/* the checked copies abort when the destination (dstlen bytes) is too small */
char *__strcpy_chk(char *dst, const char *src, size_t dstlen)
{
    if (strlen(src) >= dstlen) abort();
    return strcpy(dst, src);
}

char *__stpcpy_chk(char *dst, const char *src, size_t dstlen)
{
    if (strlen(src) >= dstlen) abort();
    return stpcpy(dst, src);
}

char *__strcat_chk(char *dst, const char *src, size_t dstlen)
{
    size_t used = strnlen(dst, dstlen);
    if (used == dstlen || strlen(src) >= dstlen - used) abort();
    return strcat(dst, src);
}
