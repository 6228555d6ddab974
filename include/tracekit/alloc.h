/* tracekit: allocator hook. */
#ifndef TRACEKIT_ALLOC_H
#define TRACEKIT_ALLOC_H

#include <stddef.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* All library allocations go through these functions. realloc must behave like
 * C realloc (NULL ptr allocates); free accepts NULL. */
typedef struct tk_allocator {
    void *(*malloc_fn)(void *ctx, size_t size);
    void *(*realloc_fn)(void *ctx, void *ptr, size_t size);
    void (*free_fn)(void *ctx, void *ptr);
    void *ctx;
} tk_allocator;

/* Install an allocator for the whole process. Call it once, before any other
 * tracekit call (it is the library's only process-wide setting); NULL restores
 * the C library allocator. Not thread-safe. */
TK_API void tk_set_allocator(const tk_allocator *a);

/* Give back a block the library handed to the caller (arrays and strings that
 * a function's comment says are the caller's, "free with tk_free"), through the
 * allocator installed. NULL is accepted. */
TK_API void tk_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
