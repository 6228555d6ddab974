/* Fuzz the serialised events profile partials (tk_events_profile_partial_deserialize): what is
 * accepted serialises to the same bytes (the form is canonical), makes a profile that writes as
 * Callgrind, and merges with a copy of itself into a partial that serialises, reads back and
 * makes a profile. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int drop(void *ctx, const void *data, size_t len)
{
    (void)ctx, (void)data, (void)len;
    return 0;
}

static void write_profile(const tk_events_profile_partial *p)
{
    tk_profile *prof = NULL;
    tk_error err;
    tk_error_clear(&err);
    if (tk_events_profile_partial_profile(p, "fuzz", &prof, &err) != TK_OK) return;
    tk_writer none = {drop, NULL};
    tk_callgrind_write_options o = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    (void)tk_callgrind_write(prof, &none, &o, &err);
    tk_profile_free(prof);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_error err;
    tk_error_clear(&err);
    tk_events_profile_partial *a = NULL, *b = NULL, *c = NULL;
    if (tk_events_profile_partial_deserialize(&a, data, size, &err) != TK_OK) return 0;
    uint8_t *again = NULL;
    size_t again_size = 0;
    if (tk_events_profile_partial_serialize(a, &again, &again_size, &err) == TK_OK &&
        (again_size != size || memcmp(again, data, size) != 0))
        abort(); /* accepted bytes are canonical: they serialise to themselves */
    tk_free(again);
    write_profile(a);
    if (tk_events_profile_partial_deserialize(&b, data, size, &err) == TK_OK) {
        tk_status st = tk_events_profile_partial_merge(a, b, &err);
        if (st != TK_OK && st != TK_ERR_LIMIT && st != TK_ERR_NOMEM) abort(); /* of one kind */
        if (tk_events_profile_partial_serialize(a, &again, &again_size, &err) == TK_OK) {
            if (tk_events_profile_partial_deserialize(&c, again, again_size, &err) != TK_OK)
                abort();
            tk_free(again);
            write_profile(c);
        }
    }
    tk_events_profile_partial_free(c);
    tk_events_profile_partial_free(b);
    tk_events_profile_partial_free(a);
    return 0;
}
