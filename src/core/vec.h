/* Growable vectors: TK_VEC(int) v = {0}; TK_VEC_PUSH(&v, 3); ... tk_free(v.data). */
#ifndef TK_CORE_VEC_H
#define TK_CORE_VEC_H

#include <stddef.h>

#define TK_VEC(T) \
    struct { \
        T *data; \
        size_t len, cap; \
    }

/* Make room for `need` elements in total. 0 on success, -1 on overflow/out of memory. */
int tk_vec_reserve_(void **data, size_t *cap, size_t need, size_t elem_size);

/* The same, the elements added zero-filled (arrays indexed by id). */
int tk_vec_reserve_zeroed_(void **data, size_t *cap, size_t need, size_t elem_size);

#define TK_VEC_RESERVE(v, n) tk_vec_reserve_((void **)&(v)->data, &(v)->cap, (n), sizeof *(v)->data)

/* Append x; evaluates to 0 on success, -1 when out of memory. */
#define TK_VEC_PUSH(v, x) \
    (((v)->len < (v)->cap || TK_VEC_RESERVE((v), (v)->len + 1) == 0) \
         ? ((v)->data[(v)->len++] = (x), 0) \
         : -1)

#define TK_VEC_FREE(v) (tk_free((v)->data), (v)->data = NULL, (v)->len = (v)->cap = 0)

#endif
