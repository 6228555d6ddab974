/* A growing byte buffer and LEB128 varints in their shortest form (bytes.h). */
#include "core/bytes.h"

#include <string.h>

#include "core/alloc.h"

void tk_bytes_put(tk_bytes_out *b, const void *v, size_t n)
{
    if (b->failed || n == 0) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + n) cap *= 2;
        uint8_t *np = tk_realloc(b->p, cap);
        if (!np) {
            b->failed = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, v, n);
    b->len += n;
}

void tk_bytes_put_u64(tk_bytes_out *b, uint64_t v)
{
    uint8_t t[10];
    size_t n = 0;
    do {
        t[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        t[n++] |= v ? 0x80 : 0;
    } while (v);
    tk_bytes_put(b, t, n);
}

void tk_bytes_put_str(tk_bytes_out *b, const char *s)
{
    size_t n = strlen(s);
    tk_bytes_put_u64(b, n);
    tk_bytes_put(b, s, n);
}

tk_varint_status tk_varint_get(const uint8_t *p, size_t size, size_t *pos, uint64_t *v)
{
    uint64_t x = 0;
    size_t at = *pos;
    for (int shift = 0;; shift += 7) {
        if (at >= size) {
            *pos = at;
            return TK_VARINT_END;
        }
        uint8_t byte = p[at];
        /* the tenth group holds bit 63 only; a zero group after the first pads */
        tk_varint_status bad = shift == 63 && byte > 1  ? TK_VARINT_OVER_64
                               : shift > 0 && byte == 0 ? TK_VARINT_NOT_SHORTEST
                                                        : TK_VARINT_OK;
        if (bad != TK_VARINT_OK) {
            *pos = at;
            return bad;
        }
        at++;
        x |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *v = x;
            *pos = at;
            return TK_VARINT_OK;
        }
    }
}
