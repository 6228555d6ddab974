/* Text in blocks of a pool (text_blocks.h). */
#include "export/text_blocks.h"

#include <string.h>

#include "core/alloc.h"

int tk_text_pool_init(tk_text_pool *pool)
{
    memset(pool, 0, sizeof *pool);
    return pthread_mutex_init(&pool->lock, NULL) == 0 ? 0 : -1;
}

void tk_text_pool_free(tk_text_pool *pool)
{
    for (size_t i = 0; i < pool->n; i++) tk_free(pool->free[i]);
    tk_free(pool->free);
    pthread_mutex_destroy(&pool->lock);
}

static char *pool_get(tk_text_pool *pool)
{
    char *b = NULL;
    pthread_mutex_lock(&pool->lock);
    if (pool->n) b = pool->free[--pool->n];
    pthread_mutex_unlock(&pool->lock);
    return b ? b : tk_malloc(TK_TEXT_BLOCK);
}

int tk_text_blocks_write(void *text, const void *data, size_t len)
{
    tk_text_blocks *t = text;
    const char *s = data;
    for (size_t done = 0; done < len;) {
        if (t->n == 0 || t->last == TK_TEXT_BLOCK) {
            if (t->n == t->cap) {
                size_t ncap = t->cap ? t->cap * 2 : 16;
                char **nd = tk_reallocarray(t->data, ncap, sizeof *nd);
                if (!nd) return -1;
                t->data = nd;
                t->cap = ncap;
            }
            if (!(t->data[t->n] = pool_get(t->pool))) return -1;
            t->n++;
            t->last = 0;
        }
        size_t k = TK_TEXT_BLOCK - t->last < len - done ? TK_TEXT_BLOCK - t->last : len - done;
        memcpy(t->data[t->n - 1] + t->last, s + done, k);
        t->last += k;
        done += k;
    }
    return 0;
}

size_t tk_text_blocks_len(const tk_text_blocks *t, size_t i)
{
    return i + 1 < t->n ? TK_TEXT_BLOCK : t->last;
}

void tk_text_blocks_free(tk_text_blocks *t)
{
    tk_text_pool *pool = t->pool;
    size_t k = 0;
    if (pool && t->n) {
        pthread_mutex_lock(&pool->lock);
        if (pool->n + t->n > pool->cap) {
            size_t ncap = pool->cap ? pool->cap : 64;
            while (ncap < pool->n + t->n) ncap *= 2;
            char **nf = tk_reallocarray(pool->free, ncap, sizeof *nf);
            if (nf) {
                pool->free = nf;
                pool->cap = ncap;
            }
        }
        for (; k < t->n && pool->n < pool->cap; k++) pool->free[pool->n++] = t->data[k];
        pthread_mutex_unlock(&pool->lock);
    }
    for (; k < t->n; k++) tk_free(t->data[k]);
    tk_free(t->data);
    t->data = NULL;
    t->n = t->cap = t->last = 0;
}
