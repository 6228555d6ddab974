/* Fuzz the XRay reader (strict and check modes), the events adapter, latency accounting and
 * the Chrome, folded and callgrind exporters on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore_diag(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)ctx;
    (void)sev;
    (void)loc;
    (void)msg;
}

static tk_input *open_input(const uint8_t *data, size_t size)
{
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.no_decompress = 1;
    return tk_input_open_memory(&in, data, size, "fuzz", &opt, &err) == TK_OK ? in : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_error err;
    tk_error_clear(&err);
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        return 0;
    /* check mode */
    tk_input *in = open_input(data, size);
    if (in) {
        tk_diag d;
        tk_diag_init(&d, ignore_diag, NULL);
        tk_xray_check_summary sum;
        (void)tk_xray_check(in, NULL, &d, &sum, &err);
        tk_input_free(in);
    }
    /* strict reader through every consumer */
    for (int consumer = 0; consumer < 5; consumer++) {
        in = open_input(data, size);
        if (!in)
            break;
        tk_xray_reader *r = NULL;
        tk_xray_events *e = NULL;
        if (tk_xray_open(&r, in, NULL, &err) == TK_OK &&
            tk_xray_events_open(&e, r, NULL, &err) == TK_OK) {
            tk_event_source src;
            tk_xray_events_source(e, &src);
            if (consumer == 0) {
                (void)tk_xray_dump(r, NULL, sink, &err);
            } else if (consumer == 1) {
                tk_latency *l = tk_latency_new(1);
                const tk_latency_row *rows;
                size_t n;
                if (l && tk_latency_run(l, &src, &err) == TK_OK)
                    (void)tk_latency_rows(l, &rows, &n, &err);
                tk_latency_free(l);
            } else if (consumer == 2) {
                (void)tk_export_chrome(&src, sink, &err);
            } else if (consumer == 3) {
                (void)tk_export_folded(&src, sink, TK_FOLDED_TIME, 1, &err);
            } else {
                tk_profile *p = NULL;
                if (tk_events_profile(&src, NULL, 1, &p, &err) == TK_OK) {
                    tk_callgrind_write_options opt = TK_CALLGRIND_WRITE_OPTIONS_INIT;
                    (void)tk_callgrind_write(p, sink, &opt, &err);
                }
                tk_profile_free(p);
            }
        }
        tk_xray_events_free(e);
        tk_xray_free(r);
        tk_input_free(in);
    }
    fclose(sink);
    return 0;
}
