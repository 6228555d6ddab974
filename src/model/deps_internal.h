/* The deps model inside the library: its storage read in place (tracekit/deps.h copies
 * the same out). Each returns the count and *out (or *insts and *values) pointing at the
 * stored items, NULL when there are none; borrowed until the model changes. */
#ifndef TK_MODEL_DEPS_INTERNAL_H
#define TK_MODEL_DEPS_INTERNAL_H

#include "tracekit/deps.h"

/* The entries of a port, sorted by inst (a dense port holds instance k at k). */
size_t tk_deps_port_span(const tk_deps *d, uint32_t index, uint32_t port, const tk_dep **out);
/* The entries of a port for one instance. */
size_t tk_deps_port_find_span(const tk_deps *d, uint32_t index, uint32_t port, uint32_t inst,
                              const tk_dep **out);
/* The values of an instruction: instances (sorted) and their low 64 bits. */
size_t tk_deps_values_span(const tk_deps *d, uint32_t index, const uint32_t **insts,
                           const uint64_t **values);
/* The users of instance inst of instruction index (after tk_deps_build_reverse). */
size_t tk_deps_users_span(const tk_deps *d, uint32_t index, uint32_t inst, const tk_dep_use **out);
#endif
