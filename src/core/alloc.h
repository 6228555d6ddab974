/* Internal allocation wrappers over the installed tk_allocator. */
#ifndef TK_CORE_ALLOC_H
#define TK_CORE_ALLOC_H

#include <stddef.h>

#include "tracekit/alloc.h"

void *tk_malloc(size_t size);
void *tk_calloc(size_t n, size_t size);   /* zeroed; NULL on overflow */
void *tk_realloc(void *ptr, size_t size);
void *tk_reallocarray(void *ptr, size_t n, size_t size); /* NULL on overflow */
void tk_free(void *ptr);
char *tk_strndup(const char *s, size_t n);
char *tk_strdup(const char *s);

#endif
