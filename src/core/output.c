/* Output: stdout, or a temporary file renamed into place on commit. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/output.h"

#include "core/alloc.h"

struct tk_output {
    FILE *f;
    tk_writer w; /* into f */
    char *path; /* final path, NULL for stdout */
    char *tmp; /* temporary path; NULL when writing a device or FIFO directly */
    char *buf; /* stdio buffer of f (glibc ignores a size given without a buffer) */
    int buffered; /* f has it (given on the first write: a program that writes to the
                       descriptor itself needs none) */
};

#define OUTPUT_BUFFER_SIZE ((size_t)1 << 20)

/* A large stdio buffer: exports write hundreds of MB in small pieces. */
static void big_buffer(tk_output *o)
{
    o->buf = tk_malloc(OUTPUT_BUFFER_SIZE);
    if (o->buf) setvbuf(o->f, o->buf, _IOFBF, OUTPUT_BUFFER_SIZE);
    o->buffered = 1;
}

/* A device, FIFO or socket (/dev/null, /dev/stdout, a named pipe): written
 * directly; a temporary file renamed over it would replace the device. */
static tk_status open_special(tk_output *o, tk_output **out, const char *path, unsigned flags,
                              tk_error *err)
{
    o->path = tk_strdup(path);
    if (!o->path) {
        tk_free(o);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    o->f = fopen(path, "w");
    if (!o->f) {
        int e = errno;
        tk_output_abort(o);
        return tk_error_set_at(err, TK_ERR_IO, path, -1, 0, 0, "cannot open output: %s",
                               strerror(e));
    }
    if ((flags & TK_OUTPUT_BINARY) && isatty(fileno(o->f))) {
        tk_output_abort(o);
        return tk_error_set_at(err, TK_ERR_ARG, path, -1, 0, 0,
                               "refusing to write binary data to a terminal");
    }
    *out = o;
    return TK_OK;
}

tk_status tk_output_open(tk_output **out, const char *path, unsigned flags, tk_error *err)
{
    tk_output *o = tk_calloc(1, sizeof *o);
    if (!o) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (!path || strcmp(path, "-") == 0) {
        if ((flags & TK_OUTPUT_BINARY) && isatty(STDOUT_FILENO)) {
            tk_free(o);
            return tk_error_set(err, TK_ERR_ARG,
                                "refusing to write binary data to a terminal (use -o FILE)");
        }
        o->f = stdout;
        *out = o;
        return TK_OK;
    }
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        tk_free(o);
        return tk_error_set_at(err, TK_ERR_IO, path, -1, 0, 0, "output is a directory");
    }
    if (exists && !S_ISREG(sb.st_mode)) return open_special(o, out, path, flags, err);
    if (exists && !(flags & TK_OUTPUT_FORCE)) {
        tk_free(o);
        return tk_error_set_at(err, TK_ERR_EXISTS, path, -1, 0, 0, "output file already exists");
    }
    /* A symbolic link to a file: replace the file it points to, keep the link. */
    char *resolved = NULL; /* from realpath: the C library's allocator */
    struct stat lsb;
    if (exists && lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode)) resolved = realpath(path, NULL);
    const char *target = resolved ? resolved : path;
    size_t n = strlen(target);
    o->path = tk_strdup(target);
    o->tmp = tk_malloc(n + 16);
    free(resolved);
    if (!o->path || !o->tmp) {
        tk_output_abort(o);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    memcpy(o->tmp, o->path, n);
    memcpy(o->tmp + n, ".tmp.XXXXXX", 12);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        tk_free(o->tmp);
        o->tmp = NULL;
        tk_output_abort(o);
        return tk_error_set_at(err, TK_ERR_IO, path, -1, 0, 0, "cannot create output: %s",
                               strerror(e));
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        close(fd);
        tk_output_abort(o);
        return tk_error_set_at(err, TK_ERR_IO, path, -1, 0, 0, "cannot open output: %s",
                               strerror(errno));
    }
    *out = o;
    return TK_OK;
}

FILE *tk_output_stream(tk_output *o)
{
    if (o->path && !o->buffered) big_buffer(o);
    return o->f;
}

int tk_output_fd(const tk_output *o) { return fileno(o->f); }

static int write_to(void *ctx, const void *data, size_t len)
{
    FILE *f = ctx;
    return len && fwrite(data, 1, len, f) != len ? -1 : 0;
}

const tk_writer *tk_output_writer(tk_output *o)
{
    o->w.write = write_to;
    o->w.ctx = tk_output_stream(o);
    return &o->w;
}
const char *tk_output_path(const tk_output *o) { return o->path ? o->path : "<stdout>"; }

tk_status tk_output_commit(tk_output *o, tk_error *err)
{
    if (!o->path) {
        int bad = fflush(stdout) != 0 || ferror(stdout);
        tk_free(o);
        if (bad)
            return tk_error_set(err, TK_ERR_IO, "write failure on standard output: %s",
                                strerror(errno));
        return TK_OK;
    }
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = errno;
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    o->f = NULL;
    if (bad) {
        tk_error_set_at(err, TK_ERR_IO, o->path, -1, 0, 0, "write failed: %s", strerror(e));
        tk_output_abort(o);
        return TK_ERR_IO;
    }
    if (o->tmp && rename(o->tmp, o->path) != 0) {
        tk_error_set_at(err, TK_ERR_IO, o->path, -1, 0, 0, "cannot rename into place: %s",
                        strerror(errno));
        tk_output_abort(o);
        return TK_ERR_IO;
    }
    tk_free(o->buf);
    tk_free(o->tmp);
    tk_free(o->path);
    tk_free(o);
    return TK_OK;
}

void tk_output_abort(tk_output *o)
{
    if (!o) return;
    if (o->path) {
        if (o->f) fclose(o->f);
        if (o->tmp) unlink(o->tmp);
    }
    tk_free(o->buf);
    tk_free(o->tmp);
    tk_free(o->path);
    tk_free(o);
}
