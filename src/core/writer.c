/* A stdio stream over a tk_writer: fopencookie where the C library has it,
 * else a temporary file handed to the writer when the stream is closed. */
#include "core/writer.h"

#include <errno.h>
#include <string.h>
#include <sys/types.h>

#include "core/alloc.h"
#include "core/compat.h"

#define STREAM_BUFFER_SIZE ((size_t)64 << 10)

/* The writer's callback over data[0..len): 0, or -1 with errno set (EIO
 * when the callback left it 0). */
static int put(const tk_writer *w, const void *data, size_t len)
{
    errno = 0;
    if (w->write(w->ctx, data, len) == 0) return 0;
    if (errno == 0) errno = EIO;
    return -1;
}

int tk_write_to_file(void *f, const void *data, size_t len)
{
    return len && fwrite(data, 1, len, f) != len ? -1 : 0;
}

static tk_status closed(int bad, int e, tk_status st, tk_error *err)
{
    if (st < 0) return st;
    if (bad) return tk_error_set(err, TK_ERR_IO, "write failed: %s", strerror(e));
    return st;
}

#ifdef TK_HAVE_FOPENCOOKIE
typedef struct cookie {
    tk_writer w;
    char buf[STREAM_BUFFER_SIZE];
} cookie;

static ssize_t cookie_write(void *c, const char *data, size_t len)
{
    cookie *k = c;
    return put(&k->w, data, len) == 0 ? (ssize_t)len : -1;
}

static int cookie_close(void *c)
{
    tk_free(c);
    return 0;
}

tk_status tk_wstream_open(tk_wstream *s, const tk_writer *w, tk_error *err)
{
    s->f = NULL;
    s->buf = NULL;
    if (!w || !w->write) return tk_error_set(err, TK_ERR_ARG, "no writer");
    s->w = *w;
    cookie *k = tk_malloc(sizeof *k);
    if (!k) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    k->w = *w;
    cookie_io_functions_t io = {NULL, cookie_write, NULL, cookie_close};
    s->f = fopencookie(k, "w", io);
    if (!s->f) {
        tk_free(k);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    setvbuf(s->f, k->buf, _IOFBF, sizeof k->buf);
    return TK_OK;
}

tk_status tk_wstream_close(tk_wstream *s, tk_status st, tk_error *err)
{
    int bad = fflush(s->f) != 0 || ferror(s->f);
    int e = errno;
    if (fclose(s->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    s->f = NULL;
    return closed(bad, e, st, err);
}

#else
/* Without a stream over callbacks: a temporary file, read back into the
 * writer when the stream is closed. */
tk_status tk_wstream_open(tk_wstream *s, const tk_writer *w, tk_error *err)
{
    s->f = NULL;
    s->buf = NULL;
    if (!w || !w->write) return tk_error_set(err, TK_ERR_ARG, "no writer");
    s->w = *w;
    s->f = tmpfile();
    if (!s->f)
        return tk_error_set(err, TK_ERR_IO, "cannot create a temporary file: %s", strerror(errno));
    /* a buffer of the stream's size, not the C library's (musl's is 1 KiB: a write call a
     * kilobyte; and musl keeps its own when given none) */
    s->buf = tk_malloc(STREAM_BUFFER_SIZE);
    if (s->buf) setvbuf(s->f, s->buf, _IOFBF, STREAM_BUFFER_SIZE);
    return TK_OK;
}

tk_status tk_wstream_close(tk_wstream *s, tk_status st, tk_error *err)
{
    int bad = fflush(s->f) != 0 || ferror(s->f) || fseek(s->f, 0, SEEK_SET) != 0;
    int e = errno;
    /* What was written before an error is handed over too, as the stream over callbacks
     * has handed it (a dump cut short by a damaged input shows what came before it) */
    char *buf = bad ? NULL : tk_malloc(STREAM_BUFFER_SIZE);
    if (!buf && !bad && st >= 0) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    while (buf && !bad) {
        size_t n = fread(buf, 1, STREAM_BUFFER_SIZE, s->f);
        if (n == 0) {
            bad = ferror(s->f);
            e = errno;
            break;
        }
        if (put(&s->w, buf, n) != 0) {
            bad = 1;
            e = errno;
        }
    }
    tk_free(buf);
    fclose(s->f);
    s->f = NULL;
    tk_free(s->buf);
    s->buf = NULL;
    return closed(bad, e, st, err);
}
#endif
