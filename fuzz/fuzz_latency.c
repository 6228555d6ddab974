/* Fuzz the serialised latency partials (tk_latency_deserialize): what is accepted gives its
 * rows, serialises to the same bytes (the form is canonical) and merges with itself. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_error err;
    tk_error_clear(&err);
    tk_latency *a = NULL, *b = NULL;
    if (tk_latency_deserialize(&a, data, size, 1u << 16, &err) != TK_OK) return 0;
    const tk_latency_row *rows;
    size_t n;
    (void)tk_latency_rows(a, &rows, &n, &err);
    uint8_t *again = NULL;
    size_t again_size = 0;
    if (tk_latency_serialize(a, &again, &again_size, &err) == TK_OK &&
        (again_size != size || memcmp(again, data, size) != 0))
        abort(); /* accepted bytes are canonical: they serialise to themselves */
    tk_free(again);
    if (tk_latency_deserialize(&b, data, size, 1u << 16, &err) == TK_OK)
        (void)tk_latency_merge(a, b, &err);
    tk_latency_free(b);
    tk_latency_free(a);
    return 0;
}
