/* What the CSI report (csi_report.c) and the CSI coverage report (csi_cov_report.c) share:
 * their rows, one per function of the metadata, are sorted by a count, the most first, or by
 * name, ties going by the functions' order in the metadata. */
#ifndef TK_ANALYSIS_CSI_ROWS_H
#define TK_ANALYSIS_CSI_ROWS_H

#include <stdint.h>
#include <string.h>

/* Two rows compared for tk_qsort_r: by name when `name_a` is not NULL (byte order), else by
 * their counts x and y (the larger first); then by their order in the metadata. */
static inline int tk_csi_row_cmp(const char *name_a, const char *name_b, uint64_t x, uint64_t y,
                                 uint64_t order_a, uint64_t order_b)
{
    if (name_a) {
        int c = strcmp(name_a, name_b);
        if (c) return c;
    }
    if (x != y) return x < y ? 1 : -1;
    return order_a < order_b ? -1 : order_a > order_b;
}

#endif
