/* Fuzz the streaming JSON tokenizer: tokenize to the end or the first error. */
#include <stddef.h>
#include <stdint.h>

#include "core/json.h"
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    return 0;
}
