#include "core/hash.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/compat.h"

uint64_t tk_hash_new_key(void)
{
    uint64_t k = 0;
    if (!tk_random_u64(&k)) {
        struct timespec ts, mono;
        clock_gettime(CLOCK_REALTIME, &ts);
        clock_gettime(CLOCK_MONOTONIC, &mono);
        k = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 32 ^ (uint64_t)getpid() << 16 ^
            (uint64_t)(uintptr_t)&k ^
            tk_hash_u64((uint64_t)mono.tv_nsec ^ (uint64_t)mono.tv_sec << 30);
    }
    return tk_hash_u64(k);
}

uint64_t tk_hash_bytes(uint64_t key, const void *data, size_t len)
{
    /* FNV-1a over 8-byte words, finished with a mixer. From 32 bytes on,
     * four independent lanes take 32 bytes a round: one chain of multiplies
     * is bound by their latency (~6 cycles per 8 bytes; the 38 MB of names
     * of a big Callgrind profile spent ~10 ms there). */
    const unsigned char *p = data;
    uint64_t h = tk_hash_u64(0xcbf29ce484222325ULL ^ key) ^ len;
    if (len >= 32) {
        const uint64_t m = 0x9e3779b97f4a7c15ULL;
        uint64_t a = h, b = h ^ 0xc2b2ae3d27d4eb4fULL, c = h ^ 0x165667b19e3779f9ULL,
                 d = h ^ 0x27d4eb2f165667c5ULL;
        do {
            uint64_t w[4];
            memcpy(w, p, 32);
            a = (a ^ w[0]) * m;
            b = (b ^ w[1]) * m;
            c = (c ^ w[2]) * m;
            d = (d ^ w[3]) * m;
            a ^= a >> 29;
            b ^= b >> 29;
            c ^= c >> 29;
            d ^= d >> 29;
            p += 32;
            len -= 32;
        } while (len >= 32);
        /* the lanes meet rotated (equal lanes must not cancel); the tail
         * and the final mixer follow */
        h = a ^ (b << 17 | b >> 47) ^ (c << 31 | c >> 33) ^ (d << 47 | d >> 17);
    }
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
        p += 8;
        len -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, len);
    h = (h ^ w) * 0x100000001b3ULL;
    return tk_hash_u64(h);
}

static size_t find(const tk_hmap *m, uint64_t key, int *found)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)tk_hash_u64(key ^ m->key) & mask;
    while (m->used[i]) {
        if (m->keys[i] == key) {
            *found = 1;
            return i;
        }
        i = (i + 1) & mask;
    }
    *found = 0;
    return i;
}

int tk_hmap_get(const tk_hmap *m, uint64_t key, uint64_t *val)
{
    if (!m->cap) return 0;
    int found;
    size_t i = find(m, key, &found);
    if (found && val) *val = m->vals[i];
    return found;
}

static int grow(tk_hmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 16;
    if (ncap < m->cap) return -1;
    tk_hmap n = {tk_calloc(ncap, sizeof(uint64_t)),
                 tk_calloc(ncap, sizeof(uint64_t)),
                 tk_calloc(ncap, 1),
                 ncap,
                 0,
                 m->cap ? m->key : tk_hash_new_key()};
    if (!n.keys || !n.vals || !n.used) {
        tk_hmap_free(&n);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->used[i]) continue;
        int found;
        size_t j = find(&n, m->keys[i], &found);
        n.used[j] = 1;
        n.keys[j] = m->keys[i];
        n.vals[j] = m->vals[i];
        n.len++;
    }
    tk_hmap_free(m);
    *m = n;
    return 0;
}

uint64_t *tk_hmap_slot(tk_hmap *m, uint64_t key, uint64_t init, int *inserted)
{
    if ((m->len + 1) * 4 > m->cap * 3 && grow(m) != 0) return NULL;
    int found;
    size_t i = find(m, key, &found);
    if (!found) {
        m->used[i] = 1;
        m->keys[i] = key;
        m->vals[i] = init;
        m->len++;
    }
    if (inserted) *inserted = !found;
    return &m->vals[i];
}

int tk_hmap_put(tk_hmap *m, uint64_t key, uint64_t val)
{
    uint64_t *slot = tk_hmap_slot(m, key, val, NULL);
    if (!slot) return -1;
    *slot = val;
    return 0;
}

void tk_hmap_clear(tk_hmap *m)
{
    if (m->cap) memset(m->used, 0, m->cap);
    m->len = 0;
}

void tk_hmap_free(tk_hmap *m)
{
    tk_free(m->keys);
    tk_free(m->vals);
    tk_free(m->used);
    memset(m, 0, sizeof *m);
}

int tk_hmap_next(const tk_hmap *m, size_t *iter, uint64_t *key, uint64_t *val)
{
    for (size_t i = *iter; i < m->cap; i++) {
        if (m->used[i]) {
            if (key) *key = m->keys[i];
            if (val) *val = m->vals[i];
            *iter = i + 1;
            return 1;
        }
    }
    *iter = m->cap;
    return 0;
}
