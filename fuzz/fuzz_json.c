/* Fuzz the JSON lexer: the streaming tokenizer to the end or the first error, then the
 * fixed-layout calls over the same bytes in memory (peek, take, raw strings, integers,
 * compiled rows with string cells), whose spans must lie inside the input. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/json.h"
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_span(const uint8_t *data, size_t size, const char *s, size_t len)
{
    if ((const uint8_t *)s < data || (const uint8_t *)s + len > data + size) abort();
}

/* Walks the input with the fixed-layout calls, choosing each call by the next byte. */
static void fixed_layout(const uint8_t *data, size_t size)
{
    tk_json *j;
    tk_error err;
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_depth = 64;
    jo.max_string = 1 << 16;
    if (tk_json_open_memory(&j, data, size, "fuzz", &jo, &err) != TK_OK) return;
    tk_json_row_prog pg = {0};
    pg.ncells = 3;
    pg.slot[0] = 0, pg.hi[0] = UINT64_MAX;
    pg.slot[1] = 1, pg.is_array[1] = TK_JSON_CELL_STRING;
    pg.slot[2] = 2, pg.is_array[2] = TK_JSON_CELL_ARRAY, pg.hi[2] = UINT64_MAX;
    static tk_json_row_out row;
    tk_status st = TK_OK;
    for (unsigned step = 0; st == TK_OK; step++) {
        int c;
        if (tk_json_peek(j, &c, &err) != TK_OK || c < 0) break;
        const char *s;
        size_t len;
        uint64_t v;
        int n = tk_json_scan_row_strings(j, &pg, &row);
        if (n >= 0) {
            if (n >= 2) check_span(data, size, (const char *)data + row.v[1], row.n[1]);
            tk_json_take_scanned(j, &row);
            continue;
        }
        if (c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}') {
            st = tk_json_take(j, &err);
        } else if (c == '"' && step % 2) {
            st = tk_json_next_raw(j, "a string", &s, &len, &err);
            if (st == TK_OK) check_span(data, size, s, len);
        } else if (c == '"' || c == '-' || (c >= '0' && c <= '9')) {
            st = tk_json_next_u64(j, "a number", &v, &err);
        } else {
            tk_json_token t;
            st = tk_json_next(j, &t, &err);
        }
    }
    tk_json_free(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_input *in;
    tk_error err;
    if (tk_input_open_memory(&in, data, size, "fuzz", NULL, &err) != TK_OK) return 0;
    tk_json *j;
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_depth = 64;
    jo.max_string = 1 << 16;
    if (tk_json_open(&j, in, &jo, &err) == TK_OK) {
        tk_json_token t;
        while (tk_json_next(j, &t, &err) == TK_OK) {
            uint64_t u;
            (void)tk_json_token_u64(&t, &u);
        }
        tk_json_free(j);
    }
    tk_input_free(in);
    fixed_layout(data, size);
    return 0;
}
