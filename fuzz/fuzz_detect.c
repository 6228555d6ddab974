/* Fuzz the input layer (decompression of any of the four formats, line
 * splitting) and format detection on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_input *in;
    tk_error err;
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.max_line = 1 << 16;
    if (tk_input_open_memory(&in, data, size, "fuzz", &opt, &err) != TK_OK) return 0;
    const tk_format *f;
    (void)tk_format_detect_input(in, &f, &err);
    const char *line;
    size_t len, total = 0;
    while (tk_input_getline(in, &line, &len, &err) == TK_OK && total < (1u << 24)) total += len + 1;
    tk_input_free(in);
    return 0;
}
