/* A growing byte buffer and LEB128 varints in their shortest form (bytes.h). */
#include "core/bytes.h"

#include <math.h>
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

int tk_bytes_write(void *b, const void *data, size_t n)
{
    tk_bytes_out *o = b;
    tk_bytes_put(o, data, n);
    return o->failed ? -1 : 0;
}

char *tk_bytes_cstr(tk_bytes_out *b)
{
    tk_bytes_put(b, "", 1);
    if (b->failed) return NULL;
    b->len--;
    return (char *)b->p;
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

/* ---- reading ------------------------------------------------------------------------------ */

int tk_bytes_fail(tk_bytes_in *r, const char *what)
{
    if (r->st == TK_OK)
        r->st = tk_error_set_at(r->err, TK_ERR_FORMAT, NULL, (int64_t)r->pos, 0, 0, "%s: %s",
                                r->kind, what);
    return -1;
}

int tk_bytes_nomem(tk_bytes_in *r)
{
    if (r->st == TK_OK) r->st = tk_error_set(r->err, TK_ERR_NOMEM, "out of memory");
    return -1;
}

int tk_bytes_get_u64(tk_bytes_in *r, uint64_t *v, const char *what)
{
    switch (tk_varint_get(r->p, r->size, &r->pos, v)) {
    case TK_VARINT_OK: return 0;
    case TK_VARINT_END: return tk_bytes_fail(r, what);
    case TK_VARINT_OVER_64: return tk_bytes_fail(r, "a number over 64 bits");
    case TK_VARINT_NOT_SHORTEST: break;
    }
    return tk_bytes_fail(r, "a number not in its shortest form");
}

int tk_bytes_get_max(tk_bytes_in *r, uint64_t max, uint64_t *v, const char *what)
{
    if (tk_bytes_get_u64(r, v, what)) return -1;
    return *v > max ? tk_bytes_fail(r, what) : 0;
}

int tk_bytes_get_u32(tk_bytes_in *r, uint32_t max, uint32_t *v, const char *what)
{
    uint64_t x;
    if (tk_bytes_get_max(r, max, &x, what)) return -1;
    *v = (uint32_t)x;
    return 0;
}

int tk_bytes_get_count(tk_bytes_in *r, uint32_t least, uint32_t *n, const char *what)
{
    uint64_t x;
    if (tk_bytes_get_u64(r, &x, what)) return -1;
    if (x > UINT32_MAX || x > (r->size - r->pos) / least) return tk_bytes_fail(r, what);
    *n = (uint32_t)x;
    return 0;
}

int tk_bytes_get_str(tk_bytes_in *r, char **out)
{
    uint64_t n;
    if (tk_bytes_get_u64(r, &n, "a string's length")) return -1;
    if (n > r->size - r->pos) return tk_bytes_fail(r, "a string past the end");
    if (memchr(r->p + r->pos, 0, (size_t)n)) return tk_bytes_fail(r, "a string with a NUL byte");
    *out = tk_malloc((size_t)n + 1);
    if (!*out) return tk_bytes_nomem(r);
    memcpy(*out, r->p + r->pos, (size_t)n);
    (*out)[n] = 0;
    r->pos += (size_t)n;
    return 0;
}

tk_status tk_bytes_take(tk_bytes_out *b, uint8_t **data, size_t *size, const char *what,
                        tk_error *err)
{
    if (b->failed) {
        tk_free(b->p);
        b->p = NULL;
        b->len = b->cap = 0;
        return what ? tk_error_set(err, TK_ERR_NOMEM, "out of memory serialising %s", what)
                    : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    *data = b->p;
    *size = b->len;
    return TK_OK;
}

void tk_bytes_put_clock(tk_bytes_out *b, double ticks_per_second, const char *unit)
{
    uint64_t bits;
    memcpy(&bits, &ticks_per_second, sizeof bits);
    tk_bytes_put_u64(b, bits);
    tk_bytes_put_u64(b, unit != NULL);
    if (unit) tk_bytes_put_str(b, unit);
}

int tk_bytes_get_clock(tk_bytes_in *r, double *ticks_per_second, char **unit)
{
    uint64_t bits, has_unit;
    *unit = NULL;
    if (tk_bytes_get_u64(r, &bits, "the clock rate")) return -1;
    memcpy(ticks_per_second, &bits, sizeof *ticks_per_second);
    if (isnan(*ticks_per_second)) return tk_bytes_fail(r, "a clock rate that is not a number");
    if (tk_bytes_get_max(r, 1, &has_unit, "whether there is a time unit")) return -1;
    return has_unit ? tk_bytes_get_str(r, unit) : 0;
}
