/* Hash functions and a u64 -> u64 open-addressing hash map. */
#ifndef TK_CORE_HASH_H
#define TK_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* A new random key (getrandom(2); else the time and addresses). Each hash
 * table whose slot order no output depends on draws one when it is made and
 * mixes it into its hashes before any byte of the input, so that crafted
 * input cannot pile its keys into one probe run (hash flooding: 80 K crafted
 * WET ids took `info` 3.8 s with a fixed hash). A key per table, not per
 * process: the library keeps no state of its own between calls. tk_hash_u64
 * itself is fixed (tables whose order is output use it). */
uint64_t tk_hash_new_key(void);

/* FNV-style words mixed from key on. */
uint64_t tk_hash_bytes(uint64_t key, const void *data, size_t len);
static inline uint64_t tk_hash_u64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Map from u64 keys to u64 values. Any key value is allowed. */
typedef struct tk_hmap {
    uint64_t *keys;
    uint64_t *vals;
    uint8_t *used;
    size_t cap; /* power of two, or 0 */
    size_t len;
    uint64_t key; /* tk_hash_new_key, drawn when the table is first grown */
} tk_hmap;

#define TK_HMAP_INIT \
    { \
        NULL, NULL, NULL, 0, 0, 0 \
    }

/* 1 and *val set when found, 0 when not. val may be NULL. */
int tk_hmap_get(const tk_hmap *m, uint64_t key, uint64_t *val);
/* Insert or replace. 0 on success, -1 when out of memory. */
int tk_hmap_put(tk_hmap *m, uint64_t key, uint64_t val);
/* Pointer to the value of key, inserting `init` when absent; NULL when out of
 * memory. *inserted tells which (may be NULL). Valid until the next insert. */
uint64_t *tk_hmap_slot(tk_hmap *m, uint64_t key, uint64_t init, int *inserted);
void tk_hmap_clear(tk_hmap *m);
void tk_hmap_free(tk_hmap *m);

/* Iterate: for (size_t i = 0; tk_hmap_next(m, &i, &k, &v);) ... */
int tk_hmap_next(const tk_hmap *m, size_t *iter, uint64_t *key, uint64_t *val);

#endif
