/* Text kept in blocks of TK_TEXT_BLOCK bytes, taken from a pool that keeps the blocks of the
 * texts freed for the next ones (the parts of a chained export made on several threads: Chrome
 * JSON's, JSON events'), so that a long run of parts does not fault fresh pages in for each. */
#ifndef TK_EXPORT_TEXT_BLOCKS_H
#define TK_EXPORT_TEXT_BLOCKS_H

#include <pthread.h>
#include <stddef.h>

#define TK_TEXT_BLOCK (1u << 16)

/* The blocks no text holds (taken and given back on any thread: under the lock). */
typedef struct tk_text_pool {
    pthread_mutex_t lock;
    char **free;
    size_t n, cap;
} tk_text_pool;

/* 0, or -1 (the lock not made). */
int tk_text_pool_init(tk_text_pool *pool);
/* Frees the pool's blocks (every text of it freed before). */
void tk_text_pool_free(tk_text_pool *pool);

/* A text: its bytes in data[0..n), every block full but the last (last bytes). Zero it and set
 * pool before the first write. */
typedef struct tk_text_blocks {
    tk_text_pool *pool;
    char **data;
    size_t n, cap;
    size_t last;
} tk_text_blocks;

/* A tk_writer's callback over a tk_text_blocks: the bytes appended. 0, or -1 (out of memory:
 * the text then holds a prefix of them). */
int tk_text_blocks_write(void *text, const void *data, size_t len);
/* The bytes of block i (< t->n). */
size_t tk_text_blocks_len(const tk_text_blocks *t, size_t i);
/* The blocks given back to the pool (freed when it cannot keep them); t empty again. */
void tk_text_blocks_free(tk_text_blocks *t);

#endif
