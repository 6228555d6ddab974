#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *default_malloc(void *ctx, size_t size) { (void)ctx; return malloc(size); }
static void *default_realloc(void *ctx, void *p, size_t size) { (void)ctx; return realloc(p, size); }
static void default_free(void *ctx, void *p) { (void)ctx; free(p); }

static tk_allocator g_alloc = {default_malloc, default_realloc, default_free, NULL};

void tk_set_allocator(const tk_allocator *a)
{
    if (a) {
        g_alloc = *a;
    } else {
        g_alloc.malloc_fn = default_malloc;
        g_alloc.realloc_fn = default_realloc;
        g_alloc.free_fn = default_free;
        g_alloc.ctx = NULL;
    }
}

void *tk_malloc(size_t size) { return g_alloc.malloc_fn(g_alloc.ctx, size ? size : 1); }

void *tk_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    void *p = tk_malloc(n * size);
    if (p) memset(p, 0, n * size);
    return p;
}

void *tk_realloc(void *ptr, size_t size) { return g_alloc.realloc_fn(g_alloc.ctx, ptr, size ? size : 1); }

void *tk_reallocarray(void *ptr, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    return tk_realloc(ptr, n * size);
}

void tk_free(void *ptr)
{
    if (ptr) g_alloc.free_fn(g_alloc.ctx, ptr);
}

char *tk_strndup(const char *s, size_t n)
{
    char *p = tk_malloc(n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *tk_strdup(const char *s) { return tk_strndup(s, strlen(s)); }
