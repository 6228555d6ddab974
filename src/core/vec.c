#include "core/vec.h"

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"

int tk_vec_reserve_(void **data, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap) return 0;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) return -1;
        ncap *= 2;
    }
    void *p = tk_reallocarray(*data, ncap, elem_size);
    if (!p) return -1;
    *data = p;
    *cap = ncap;
    return 0;
}

int tk_vec_reserve_zeroed_(void **data, size_t *cap, size_t need, size_t elem_size)
{
    size_t old = *cap;
    if (tk_vec_reserve_(data, cap, need, elem_size)) return -1;
    if (*cap > old) memset((char *)*data + old * elem_size, 0, (*cap - old) * elem_size);
    return 0;
}
