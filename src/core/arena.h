/* Arena: many small allocations freed together. */
#ifndef TK_CORE_ARENA_H
#define TK_CORE_ARENA_H

#include <stddef.h>

typedef struct tk_arena_block tk_arena_block;

typedef struct tk_arena {
    tk_arena_block *head;
    size_t used; /* bytes used in head */
    size_t total; /* bytes handed out, for statistics */
    size_t block_size; /* 0: 64 KiB */
} tk_arena;

#define TK_ARENA_INIT \
    { \
        NULL, 0, 0, 0 \
    }

void tk_arena_init(tk_arena *a);
/* size bytes aligned for any type; NULL when out of memory. Never freed alone. */
void *tk_arena_alloc(tk_arena *a, size_t size);
char *tk_arena_strndup(tk_arena *a, const char *s, size_t n);
/* Free everything; the arena can be used again. */
void tk_arena_free(tk_arena *a);

#endif
