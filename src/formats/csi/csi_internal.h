/* Helpers shared by the CSI modules (not public API). */
#ifndef TK_CSI_INTERNAL_H
#define TK_CSI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/csi.h"

/* Quote at most 40 bytes of s for a message ('abc', unprintable as \xNN). */
void csi_quote(const char *s, size_t len, char *buf, size_t size);

/* Index of the block with this id, or UINT32_MAX (linear search). */
uint32_t csi_find_block(const tk_csi_function *fn, uint64_t id);

/* Does the block's line list contain the path write (-1)? Position of the first one, or -1. */
long csi_write_pos(const tk_csi_block *b);

#endif
