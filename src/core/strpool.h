/* String pool: interns byte strings, giving each distinct string a dense id. */
#ifndef TK_CORE_STRPOOL_H
#define TK_CORE_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

#define TK_STR_NONE UINT32_MAX

typedef struct tk_strpool {
    tk_arena arena; /* string bytes, NUL-terminated */
    const char **strs; /* id -> string */
    uint32_t *lens; /* id -> length */
    uint64_t *hashes; /* id -> hash */
    uint32_t count, cap;
    uint32_t *table; /* open addressing: id + 1, 0 = empty */
    size_t table_cap; /* power of two */
    uint64_t key; /* of the hashes (tk_hash_new_key) */
} tk_strpool;

void tk_strpool_init(tk_strpool *p);
void tk_strpool_free(tk_strpool *p);
/* Id of s[0..len), adding it when new. TK_STR_NONE when out of memory or
 * the pool is full (2^32-1 strings) or len >= 2^32. */
uint32_t tk_strpool_intern(tk_strpool *p, const char *s, size_t len);
/* Id, or TK_STR_NONE when absent. */
uint32_t tk_strpool_find(const tk_strpool *p, const char *s, size_t len);
static inline const char *tk_strpool_get(const tk_strpool *p, uint32_t id) { return p->strs[id]; }
static inline uint32_t tk_strpool_len(const tk_strpool *p, uint32_t id) { return p->lens[id]; }
static inline uint32_t tk_strpool_count(const tk_strpool *p) { return p->count; }

#endif
