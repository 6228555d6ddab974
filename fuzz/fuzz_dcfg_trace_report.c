/* Fuzz the serialised partial DCFG-Trace reports (tk_dcfg_trace_report_deserialize): what is
 * accepted is canonical (serialises to the same bytes), has its edges ranked, and merges with
 * itself. */
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
    tk_dcfg_trace_report *a = NULL, *b = NULL;
    if (tk_dcfg_trace_report_deserialize(&a, data, size, &err) != TK_OK) return 0;
    size_t n = tk_dcfg_trace_report_count(a, TK_DCFG_TRACE_TOP_EDGES);
    tk_dcfg_trace_report_stats st;
    tk_dcfg_trace_report_get_stats(a, &st);
    if (n != st.distinct_edges) abort();
    uint8_t *again = NULL;
    size_t again_size = 0;
    if (tk_dcfg_trace_report_serialize(a, &again, &again_size, &err) == TK_OK &&
        (again_size != size || memcmp(again, data, size) != 0))
        abort(); /* accepted bytes are canonical: they serialise to themselves */
    tk_free(again);
    if (tk_dcfg_trace_report_deserialize(&b, data, size, &err) == TK_OK) {
        tk_status st2 = tk_dcfg_trace_report_merge(a, b, &err);
        if (st2 != TK_OK && st2 != TK_ERR_LIMIT && st2 != TK_ERR_NOMEM) abort();
    }
    tk_dcfg_trace_report_free(b);
    tk_dcfg_trace_report_free(a);
    return 0;
}
