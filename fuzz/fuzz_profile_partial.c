/* Fuzz the serialised profile report partials (tk_prof_partial_deserialize): what is accepted
 * is canonical (serialises to the same bytes), gives a report (of the kinds its detail
 * allows), and merges with a copy of itself into a partial that serialises and reports too. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reports a partial of this key and detail gives: of self costs; unless self costs only,
 * of inclusive costs with the callers and callees or the call cycles (by function). */
static void reports(const tk_prof_partial *pp, const uint8_t *data, size_t size)
{
    tk_prof_report_options o = TK_PROF_REPORT_OPTIONS_INIT;
    tk_error err;
    tk_error_clear(&err);
    /* the key is the byte after the magic (a one-byte varint in any partial accepted) */
    o.group = (tk_prof_group)(size > 5 ? data[5] : 0);
    o.self_only = 1;
    for (int kind = 0; kind < 3; kind++) {
        tk_prof_report *r = NULL;
        if (kind == 1) {
            o.self_only = 0;
            o.inclusive = 1;
            o.tree = o.group == TK_GROUP_FUNCTION || o.group == TK_GROUP_FILE_FUNCTION;
        } else if (kind == 2) {
            o.tree = 0;
            o.cycles = o.group == TK_GROUP_FUNCTION || o.group == TK_GROUP_FILE_FUNCTION;
        }
        if (tk_prof_report_open_partial(&r, pp, &o, &err) == TK_OK) {
            const tk_prof_arcs *arcs = tk_prof_report_arcs(r);
            size_t *idx = malloc(((arcs ? tk_prof_arcs_count(arcs) : 0) + 1) * sizeof *idx);
            for (size_t i = 0; idx && i < tk_prof_report_rows(r); i++)
                (void)tk_prof_report_tree(r, i, 1, idx);
            free(idx);
        }
        tk_prof_report_free(r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_error err;
    tk_error_clear(&err);
    tk_prof_partial *a = NULL, *b = NULL;
    if (tk_prof_partial_deserialize(&a, data, size, &err) != TK_OK) return 0;
    uint8_t *again = NULL;
    size_t again_size = 0;
    if (tk_prof_partial_serialize(a, &again, &again_size, &err) == TK_OK &&
        (again_size != size || memcmp(again, data, size) != 0))
        abort(); /* accepted bytes are canonical: they serialise to themselves */
    tk_free(again);
    reports(a, data, size);
    if (tk_prof_partial_deserialize(&b, data, size, &err) == TK_OK) {
        tk_status st = tk_prof_partial_merge(a, b, &err);
        if (st != TK_OK && st != TK_ERR_LIMIT && st != TK_ERR_NOMEM) abort();
        if (st == TK_OK) {
            reports(a, data, size);
            if (tk_prof_partial_serialize(a, &again, &again_size, &err) == TK_OK) tk_free(again);
        }
    }
    tk_prof_partial_free(b);
    tk_prof_partial_free(a);
    return 0;
}
