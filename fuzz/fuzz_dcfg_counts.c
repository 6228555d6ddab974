/* Fuzz the serialised DCFG counts partials (tk_dcfg_counts_deserialize): what is accepted
 * serialises to the same bytes (the form is canonical), merges with a copy of itself (the
 * same processes: it must merge) into a partial that serialises and reads back, makes the
 * DCFG of its union (tk_dcfg_counts_merged: overlapping blocks cut, routines and loops
 * computed, or a conflict refused), and is refused by a DCFG it does not match without
 * harm. */
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
    tk_dcfg_counts *a = NULL, *b = NULL, *c = NULL;
    if (tk_dcfg_counts_deserialize(&a, data, size, &err) != TK_OK) return 0;
    uint8_t *again = NULL;
    size_t again_size = 0;
    if (tk_dcfg_counts_serialize(a, &again, &again_size, &err) == TK_OK &&
        (again_size != size || memcmp(again, data, size) != 0))
        abort(); /* accepted bytes are canonical: they serialise to themselves */
    tk_free(again);
    if (tk_dcfg_counts_deserialize(&b, data, size, &err) == TK_OK) {
        tk_status st = tk_dcfg_counts_merge(a, b, &err);
        if (st != TK_OK && st != TK_ERR_LIMIT && st != TK_ERR_NOMEM) abort(); /* it matches */
        if (tk_dcfg_counts_serialize(a, &again, &again_size, &err) == TK_OK) {
            if (tk_dcfg_counts_deserialize(&c, again, again_size, &err) != TK_OK) abort();
            tk_free(again);
        }
    }
    tk_cfg *u = NULL;
    if (tk_dcfg_counts_merged(NULL, a, &u, &err) == TK_OK && !u) abort();
    tk_cfg_free(u);
    /* an empty DCFG (no process) matches no partial of a process */
    tk_cfg *cfg = NULL;
    if (tk_cfg_open(&cfg, &err) == TK_OK && tk_dcfg_counts_apply(cfg, a, &err) == TK_OK &&
        tk_dcfg_counts_serialize(a, &again, &again_size, &err) == TK_OK)
        tk_free(again);
    tk_cfg_free(cfg);
    tk_dcfg_counts_free(c);
    tk_dcfg_counts_free(b);
    tk_dcfg_counts_free(a);
    return 0;
}
