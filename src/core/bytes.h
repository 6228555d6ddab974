/* The canonical bytes of the mergeable partial results (profile, latency, DCFG counts,
 * DCFG-Trace report, folded stacks): a growing byte buffer, and numbers as LEB128 varints in
 * their shortest form, so that equal partials give equal bytes and bytes that read back write
 * themselves again. Each format's reader says its own errors from tk_varint_get's status. */
#ifndef TK_CORE_BYTES_H
#define TK_CORE_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* Zero-initialise; p (tk_realloc'd, the caller's to tk_free) holds len bytes; failed once a
 * growth ran out of memory (later puts do nothing). */
typedef struct tk_bytes_out {
    uint8_t *p;
    size_t len, cap;
    int failed;
} tk_bytes_out;

void tk_bytes_put(tk_bytes_out *b, const void *v, size_t n);
void tk_bytes_put_u64(tk_bytes_out *b, uint64_t v); /* a varint */
void tk_bytes_put_str(tk_bytes_out *b, const char *s); /* its length (a varint), its bytes */

typedef enum tk_varint_status {
    TK_VARINT_OK,
    TK_VARINT_END, /* the bytes end inside (or before) the number */
    TK_VARINT_OVER_64, /* more than 64 bits */
    TK_VARINT_NOT_SHORTEST /* a zero group after the first: not canonical */
} tk_varint_status;

/* Reads the varint at p[*pos], below size. On TK_VARINT_OK *v is the number and *pos is past
 * it; otherwise *pos is at the byte that is wrong (size when they end). */
tk_varint_status tk_varint_get(const uint8_t *p, size_t size, size_t *pos, uint64_t *v);

#endif
