#include "core/strpool.h"

#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"

void tk_strpool_init(tk_strpool *p)
{
    memset(p, 0, sizeof *p);
    tk_arena_init(&p->arena);
    p->key = tk_hash_new_key();
}

void tk_strpool_free(tk_strpool *p)
{
    tk_arena_free(&p->arena);
    tk_free(p->strs);
    tk_free(p->lens);
    tk_free(p->hashes);
    tk_free(p->table);
    memset(p, 0, sizeof *p);
}

static size_t lookup(const tk_strpool *p, const char *s, size_t len, uint64_t h, uint32_t *id)
{
    size_t mask = p->table_cap - 1;
    size_t i = (size_t)h & mask;
    while (p->table[i]) {
        uint32_t cand = p->table[i] - 1;
        if (p->hashes[cand] == h && p->lens[cand] == len && memcmp(p->strs[cand], s, len) == 0) {
            *id = cand;
            return i;
        }
        i = (i + 1) & mask;
    }
    *id = TK_STR_NONE;
    return i;
}

uint32_t tk_strpool_find(const tk_strpool *p, const char *s, size_t len)
{
    if (!p->table_cap) return TK_STR_NONE;
    uint32_t id;
    lookup(p, s, len, tk_hash_bytes(p->key, s, len), &id);
    return id;
}

static int rehash(tk_strpool *p)
{
    size_t ncap = p->table_cap ? p->table_cap * 2 : 64;
    uint32_t *t = tk_calloc(ncap, sizeof *t);
    if (!t) return -1;
    for (uint32_t id = 0; id < p->count; id++) {
        size_t i = (size_t)p->hashes[id] & (ncap - 1);
        while (t[i]) i = (i + 1) & (ncap - 1);
        t[i] = id + 1;
    }
    tk_free(p->table);
    p->table = t;
    p->table_cap = ncap;
    return 0;
}

uint32_t tk_strpool_intern(tk_strpool *p, const char *s, size_t len)
{
    if (len >= UINT32_MAX) return TK_STR_NONE;
    if (((size_t)p->count + 1) * 2 > p->table_cap && rehash(p) != 0) return TK_STR_NONE;
    uint64_t h = tk_hash_bytes(p->key, s, len);
    uint32_t id;
    size_t slot = lookup(p, s, len, h, &id);
    if (id != TK_STR_NONE) return id;
    if (p->count == UINT32_MAX - 1) return TK_STR_NONE;
    if (p->count == p->cap) {
        uint32_t ncap = p->cap ? (p->cap > UINT32_MAX / 2 ? UINT32_MAX - 1 : p->cap * 2) : 64;
        const char **strs = tk_reallocarray(p->strs, ncap, sizeof *strs);
        if (!strs) return TK_STR_NONE;
        p->strs = strs;
        uint32_t *lens = tk_reallocarray(p->lens, ncap, sizeof *lens);
        if (!lens) return TK_STR_NONE;
        p->lens = lens;
        uint64_t *hashes = tk_reallocarray(p->hashes, ncap, sizeof *hashes);
        if (!hashes) return TK_STR_NONE;
        p->hashes = hashes;
        p->cap = ncap;
    }
    char *copy = tk_arena_strndup(&p->arena, s, len);
    if (!copy) return TK_STR_NONE;
    id = p->count++;
    p->strs[id] = copy;
    p->lens[id] = (uint32_t)len;
    p->hashes[id] = h;
    p->table[slot] = id + 1;
    return id;
}
