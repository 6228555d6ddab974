#include "core/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"

struct tk_arena_block {
    tk_arena_block *next;
    size_t size;
    alignas(max_align_t) unsigned char data[];
};

#define ALIGN (alignof(max_align_t))

void tk_arena_init(tk_arena *a) { memset(a, 0, sizeof *a); }

void *tk_arena_alloc(tk_arena *a, size_t size)
{
    size_t need = (size + ALIGN - 1) & ~(ALIGN - 1);
    if (need < size) return NULL;
    if (!a->head || a->head->size - a->used < need) {
        size_t bs = a->block_size ? a->block_size : 65536;
        if (need > bs / 4) bs = need; /* big requests get their own block */
        if (bs > SIZE_MAX - sizeof(tk_arena_block)) return NULL;
        tk_arena_block *b = tk_malloc(sizeof *b + bs);
        if (!b) return NULL;
        b->size = bs;
        if (a->head && need == bs && a->head->size - a->used > 256) {
            /* keep filling the current block: insert the big one behind it */
            b->next = a->head->next;
            a->head->next = b;
            a->total += need;
            return b->data;
        }
        b->next = a->head;
        a->head = b;
        a->used = 0;
    }
    void *p = a->head->data + a->used;
    a->used += need;
    a->total += need;
    return p;
}

char *tk_arena_strndup(tk_arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX) return NULL;
    char *p = tk_arena_alloc(a, n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void tk_arena_free(tk_arena *a)
{
    tk_arena_block *b = a->head;
    while (b) {
        tk_arena_block *next = b->next;
        tk_free(b);
        b = next;
    }
    size_t bs = a->block_size;
    memset(a, 0, sizeof *a);
    a->block_size = bs;
}
