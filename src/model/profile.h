/* Internal header of the profile model; the API is public in tracekit/profile.h. */
#ifndef TK_MODEL_PROFILE_H
#define TK_MODEL_PROFILE_H

#include "tracekit/profile.h"

/* Sort ranks of all strings (rank[id], byte order); caller frees. NULL on OOM. */
uint32_t *tk_profile_string_ranks(const tk_profile *p);
size_t tk_profile_string_count(const tk_profile *p);

/* Rank of each function (sorted by object, file, name ranks); caller frees. */
uint32_t *tk_profile_function_ranks(const tk_profile *p, const uint32_t *str_rank);

#endif
