/* The files of one run of valgrind --tool=callgrind --separate-threads=yes: the base file
 * callgrind.out.PID (left empty) and beside it PATH-TT per thread (PATH.N-TT for the dumps
 * after the first). */
#include "tracekit/callgrind.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* Digits, at least one, up to the end or to `stop`; returns the end, or NULL. */
static const char *digits(const char *s, int stop)
{
    const char *p = s;
    while (*p >= '0' && *p <= '9') p++;
    return p > s && (*p == stop || (!stop && !*p)) ? p : NULL;
}

/* Whether a name in the directory is a thread file of base: "-TT" or ".N-TT" after it. */
static int is_thread_file(const char *name, const char *base, size_t blen)
{
    if (strncmp(name, base, blen) != 0) return 0;
    const char *s = name + blen;
    if (*s == '.') {
        if (!(s = digits(s + 1, '-'))) return 0;
    }
    return *s == '-' && digits(s + 1, 0) != NULL;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directory of path ("." when it has none), and its base name: *dir to free. */
static tk_status split_path(const char *path, char **dir, const char **base)
{
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 1;
    if (slash && dlen == 0) dlen = 1; /* "/name": the root */
    *dir = tk_malloc(dlen + 1);
    if (!*dir) return TK_ERR_NOMEM;
    memcpy(*dir, slash ? path : ".", dlen);
    (*dir)[dlen] = 0;
    *base = slash ? slash + 1 : path;
    return TK_OK;
}

/* path joined to name: dir/name ("name" when path has no directory). */
static char *join(const char *path, const char *base, const char *name)
{
    size_t dlen = (size_t)(base - path), nlen = strlen(name);
    char *s = tk_malloc(dlen + nlen + 1);
    if (!s) return NULL;
    memcpy(s, path, dlen);
    memcpy(s + dlen, name, nlen + 1);
    return s;
}

tk_status tk_callgrind_thread_files(const char *path, char ***paths, tk_error *err)
{
    *paths = NULL;
    char *dir;
    const char *base;
    if (split_path(path, &dir, &base) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    DIR *d = opendir(dir);
    tk_free(dir);
    if (!d) return tk_error_set_at(err, TK_ERR_IO, path, 0, 0, 0, "cannot read its directory");
    size_t n = 0, cap = 8, blen = strlen(base);
    char **v = tk_malloc(cap * sizeof *v);
    tk_status st = v ? TK_OK : TK_ERR_NOMEM;
    struct dirent *e;
    while (st == TK_OK && *base && (e = readdir(d)) != NULL) {
        if (!is_thread_file(e->d_name, base, blen)) continue;
        if (n + 1 == cap) {
            char **nv = tk_reallocarray(v, cap * 2, sizeof *nv);
            if (!nv) {
                st = TK_ERR_NOMEM;
                break;
            }
            v = nv;
            cap *= 2;
        }
        if (!(v[n] = join(path, base, e->d_name)))
            st = TK_ERR_NOMEM;
        else
            n++;
    }
    closedir(d);
    if (st != TK_OK) {
        for (size_t i = 0; v && i < n; i++) tk_free(v[i]);
        tk_free(v);
        return tk_error_set(err, st, "out of memory");
    }
    qsort(v, n, sizeof *v, cmp_name);
    v[n] = NULL;
    *paths = v;
    return TK_OK;
}
