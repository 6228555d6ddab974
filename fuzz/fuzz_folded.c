/* Fuzz the folded-stacks reader (tk_folded_scan, with and without a diagnostics sink), its
 * summary, the flame graph drawn from it (both orientations) and the format's detection. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    tk_error err;
    tk_error_clear(&err);
    tk_diag diag;
    tk_diag_init(&diag, fuzz_quiet, NULL);
    int diff;
    (void)tk_folded_scan(text, size, "fuzz", &diag, NULL, NULL, &diff, &err);
    tk_folded_summary s;
    if (tk_folded_summarize(text, size, "fuzz", &s, &err) == TK_OK) tk_folded_summary_free(&s);
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
        tk_flame_options o = TK_FLAME_OPTIONS_INIT;
        (void)tk_flamegraph_svg(text, size, &o, FUZZ_WRITER(sink), &err);
        o.reverse = 1;
        o.width = 200;
        (void)tk_flamegraph_svg(text, size, &o, FUZZ_WRITER(sink), &err);
        fclose(sink);
    }
    const tk_format *f = tk_format_find("folded");
    if (f && f->detect) (void)f->detect(data, size < TK_DETECT_BYTES ? size : TK_DETECT_BYTES);
    return 0;
}
