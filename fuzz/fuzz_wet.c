/* Fuzz the WET reader and loader (both forms), then the analyses on what loads. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracekit/tracekit.h"

/* A writer (tracekit/writer.h) into the stream f. */
static int fuzz_write_file(void *f, const void *data, size_t len)
{
    return len && fwrite(data, 1, len, (FILE *)f) != len ? -1 : 0;
}
#define FUZZ_WRITER(f) (&(tk_writer){fuzz_write_file, (f)})

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.max_line = 1 << 16;
    opt.no_decompress = 1; /* decompression is fuzzed by fuzz_detect */
    if (tk_input_open_memory(&in, data, size, "fuzz", &opt, &err) != TK_OK) return 0;
    tk_deps *d = NULL;
    tk_diag diag;
    tk_diag_init(&diag, NULL, NULL);
    if (tk_wet_read(&d, in, &diag, &err) == TK_OK && d && tk_deps_node_count(d) < 100000) {
        /* slice from the last instance of the first instruction, both ways */
        if (tk_deps_count(d) > 0) {
            tk_deps_instr first;
            tk_deps_get_instr(d, 0, &first);
            tk_node n = {0, first.ninstances - 1};
            tk_slice_options so = TK_SLICE_OPTIONS_INIT;
            tk_slice *s = NULL;
            for (int fwd = 0; fwd < 2; fwd++) {
                so.forward = fwd;
                if (tk_slice_compute(d, &n, 1, &so, &s, &err) == TK_OK) tk_slice_free(s);
            }
            tk_chain_step *steps;
            size_t ns;
            int rev;
            tk_node last = {tk_deps_count(d) - 1, 0};
            if (tk_chain_find(d, n, last, TK_SLICE_ALL, &steps, &ns, &rev, &err) == TK_OK)
                tk_chain_free(steps);
            tk_chain_summary sum[3];
            size_t nsum;
            int cyclic;
            (void)tk_chain_longest(d, 3, sum, &nsum, &cyclic, &err);
        }
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            (void)tk_wet_write(d, FUZZ_WRITER(f), &err);
            (void)tk_wet_write_history(d, FUZZ_WRITER(f), &err);
            (void)tk_wet_write_json(d, FUZZ_WRITER(f), &err);
            (void)tk_wet_dump(d, FUZZ_WRITER(f), &err);
            fclose(f);
        }
    }
    tk_deps_free(d);
    tk_input_free(in);
    return 0;
}
