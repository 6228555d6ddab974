/* Helpers shared by the CSI coverage modules (not public API). */
#ifndef TK_CSI_COV_INTERNAL_H
#define TK_CSI_COV_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/csi_cov.h"
#include "tracekit/format.h"

/* Length of the kind's array prefix ("__CC_arr_": 9). */
size_t tk_cov_prefix_len(tk_csi_cov_kind kind);

/* The part of an array name after its kind's prefix ("tests_funcs_funcs_c_a"),
 * which the function's CC, FC and BBC arrays share; the whole name when it has
 * no known prefix. */
const char *tk_cov_array_key(const char *array, size_t len, size_t *key_len);

/* Length of the function name up to its first '$' (csi-cc names a clone's
 * array after the original). */
size_t tk_cov_base_len(const char *name, size_t len);

/* The format an ELF file (content) is read as when none is given: path
 * tracing when it has .debug_PT, else the first of its coverage sections
 * .debug_CC, .debug_BBC, .debug_FC; csi (whose reader says what is missing)
 * when it has none of them or is not a valid ELF file. */
const tk_format *tk_csi_elf_format(const uint8_t *image, size_t len);

#endif
