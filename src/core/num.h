/* Numbers inside the library: the scanner of tracekit/num.h (which every
 * reader parses its numbers with) and checked arithmetic. Fast paths
 * (core/fastpath.h) may parse digits their own way, bounded so that they
 * cannot overflow, and leave anything else to the general code, which uses
 * the scanner. */
#ifndef TK_CORE_NUM_H
#define TK_CORE_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/num.h"

/* Checked arithmetic: 0 on success, -1 on overflow (*out unspecified). */
static inline int tk_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_add_overflow(a, b, out) ? -1 : 0;
}
static inline int tk_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}
static inline int tk_add_i64(int64_t a, int64_t b, int64_t *out)
{
    return __builtin_add_overflow(a, b, out) ? -1 : 0;
}

#endif
