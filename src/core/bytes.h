/* The canonical bytes of the mergeable partial results (profile, latency, DCFG counts,
 * DCFG-Trace report, folded stacks): a growing byte buffer, and numbers as LEB128 varints in
 * their shortest form, so that equal partials give equal bytes and bytes that read back write
 * themselves again; a reader of them (tk_bytes_in) that names what it found wrong and where. */
#ifndef TK_CORE_BYTES_H
#define TK_CORE_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

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
/* A tk_writer's callback appending to the tk_bytes_out b given as its context
 * ({tk_bytes_write, &b}: text or bytes in memory, through the installed allocator); -1 once b
 * has failed. */
int tk_bytes_write(void *b, const void *data, size_t n);
/* b's bytes as a C string: a NUL after them (not counted in len), so that p is not NULL even
 * when empty; NULL when b has failed. */
char *tk_bytes_cstr(tk_bytes_out *b);

/* A serialiser's end: b's bytes into *data and *size (the caller's to tk_free), TK_OK; or,
 * when b has failed, its bytes freed and TK_ERR_NOMEM "out of memory serialising WHAT" ("out
 * of memory" when what is NULL). */
tk_status tk_bytes_take(tk_bytes_out *b, uint8_t **data, size_t *size, const char *what,
                        tk_error *err);

typedef enum tk_varint_status {
    TK_VARINT_OK,
    TK_VARINT_END, /* the bytes end inside (or before) the number */
    TK_VARINT_OVER_64, /* more than 64 bits */
    TK_VARINT_NOT_SHORTEST /* a zero group after the first: not canonical */
} tk_varint_status;

/* Reads the varint at p[*pos], below size. On TK_VARINT_OK *v is the number and *pos is past
 * it; otherwise *pos is at the byte that is wrong (size when they end). */
tk_varint_status tk_varint_get(const uint8_t *p, size_t size, size_t *pos, uint64_t *v);

/* A reader of such bytes: p[pos..size). Its functions return 0, or -1 after the first error
 * was set into err (TK_ERR_FORMAT at the byte offset where the bytes are wrong, the message
 * "KIND: what", KIND the partial's name; TK_ERR_NOMEM "out of memory"), st its status (TK_OK
 * until then; later errors keep the first). */
typedef struct tk_bytes_in {
    const uint8_t *p;
    size_t pos, size;
    const char *kind; /* "DCFG counts partial", ... */
    tk_error *err;
    tk_status st;
} tk_bytes_in;

int tk_bytes_fail(tk_bytes_in *r, const char *what);
int tk_bytes_nomem(tk_bytes_in *r);
/* A varint (what: the field, named when the bytes end in it). */
int tk_bytes_get_u64(tk_bytes_in *r, uint64_t *v, const char *what);
/* A varint up to max (what: named when over it too). */
int tk_bytes_get_max(tk_bytes_in *r, uint64_t max, uint64_t *v, const char *what);
int tk_bytes_get_u32(tk_bytes_in *r, uint32_t max, uint32_t *v, const char *what);
/* A count of rows of at least `least` bytes each: no more than the bytes left allow. */
int tk_bytes_get_count(tk_bytes_in *r, uint32_t least, uint32_t *n, const char *what);
/* A string (its length, its bytes: no NUL) into *out, tk_malloc'd. */
int tk_bytes_get_str(tk_bytes_in *r, char **out);
/* An event source's clock: its ticks per second (the double's bits as a varint) and its time
 * unit or none (NULL). The reader refuses a rate that is not a number (no source has one:
 * tk_event_chain_init refuses it); *unit is the allocator's, or NULL. */
void tk_bytes_put_clock(tk_bytes_out *b, double ticks_per_second, const char *unit);
int tk_bytes_get_clock(tk_bytes_in *r, double *ticks_per_second, char **unit);

#endif
