/* Text made into a buffer that hands a tk_writer whole blocks of TK_TEXT_BLOCK bytes (the
 * exports of events streams: Chrome JSON, JSON events), with hand-rolled number formatting (the
 * export of a big trace is dominated by formatting). Static inline: each export's loops inline
 * what they call. */
#ifndef TK_EXPORT_TEXT_OUT_H
#define TK_EXPORT_TEXT_OUT_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "export/text_blocks.h"
#include "tracekit/writer.h"

typedef struct outbuf {
    tk_writer w;
    char buf[TK_TEXT_BLOCK + 1024];
    size_t len;
    int failed;
} outbuf;

static inline void ob_flush(outbuf *o)
{
    errno = 0;
    if (o->len && !o->failed && o->w.write(o->w.ctx, o->buf, o->len) != 0)
        o->failed = errno ? errno : EIO;
    o->len = 0;
}

/* A full block written out, the bytes past it moved to the front. The writer is handed whole
 * blocks of TK_TEXT_BLOCK bytes until the last flush: what it got when the export stops early (an
 * error of the source) is the first TK_TEXT_BLOCK * k bytes of the text, k as many as are whole,
 * the same whether the text was made in one run or joined from parts (tk_chrome_join_add). */
static inline void ob_spill(outbuf *o)
{
    errno = 0;
    if (!o->failed && o->w.write(o->w.ctx, o->buf, TK_TEXT_BLOCK) != 0)
        o->failed = errno ? errno : EIO;
    o->len -= TK_TEXT_BLOCK;
    memmove(o->buf, o->buf + TK_TEXT_BLOCK, o->len);
}

/* After the buffer grew: below TK_TEXT_BLOCK bytes again, so that 1024 more always fit. */
static inline void ob_settle(outbuf *o)
{
    if (o->len >= TK_TEXT_BLOCK) ob_spill(o);
}

/* Room for n more bytes (n <= 1024 for the small writes): there is, as len < TK_TEXT_BLOCK. */
static inline char *ob_room(outbuf *o, size_t n)
{
    (void)n;
    return o->buf + o->len;
}

static inline void ob_write_long(outbuf *o, const char *s, size_t n)
{
    while (n) {
        size_t k = TK_TEXT_BLOCK - o->len < n ? TK_TEXT_BLOCK - o->len : n;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
        ob_settle(o);
    }
}

static inline void ob_write(outbuf *o, const char *s, size_t n)
{
    if (n > 1024) {
        ob_write_long(o, s, n);
        return;
    }
    memcpy(ob_room(o, n), s, n);
    o->len += n;
    ob_settle(o);
}

static inline void ob_puts(outbuf *o, const char *s) { ob_write(o, s, strlen(s)); }

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static inline void ob_u64(outbuf *o, uint64_t v)
{
    char tmp[24];
    char *e = tmp + sizeof tmp, *p = e;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, digit_pairs + 2 * d, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    size_t n = (size_t)(e - p);
    memcpy(ob_room(o, 24), p, n);
    o->len += n;
    ob_settle(o);
}

static inline void ob_i64(outbuf *o, int64_t v)
{
    if (v < 0) {
        ob_write(o, "-", 1);
        ob_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        ob_u64(o, (uint64_t)v);
    }
}

/* A buffer over w (tk_free frees it), or NULL when out of memory. */
static inline outbuf *outbuf_open(const tk_writer *w)
{
    outbuf *o = tk_malloc(sizeof *o);
    if (!o) return NULL;
    o->w = *w;
    o->len = 0;
    o->failed = 0;
    return o;
}

#endif
