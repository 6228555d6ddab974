/* Internal allocation wrappers over the installed tk_allocator. */
#ifndef TK_CORE_ALLOC_H
#define TK_CORE_ALLOC_H

#include <stddef.h>

#include "tracekit/alloc.h"

void *tk_malloc(size_t size);
void *tk_calloc(size_t n, size_t size); /* zeroed; NULL on overflow */
void *tk_realloc(void *ptr, size_t size);
void *tk_reallocarray(void *ptr, size_t n, size_t size); /* NULL on overflow */

/* A block of 128 KiB or more has a header of this size in front of it in its
 * mapping: an arena that wants whole (huge) pages asks for a power of two
 * less this, or the page after its last byte is mapped for a few bytes. */
#define TK_ALLOC_BIG_HEADER 64
char *tk_strndup(const char *s, size_t n);
char *tk_strdup(const char *s);

#endif
