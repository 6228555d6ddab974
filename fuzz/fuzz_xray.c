/* Fuzz the XRay reader (strict, partial and check modes), the events adapter, latency
 * accounting and the Chrome, folded and callgrind exporters on arbitrary bytes. Invariants:
 * - partial mode on a trace the strict reader reads whole gives the same records and no cut;
 * - where partial mode reports a cut at byte D, the records read end before D and are those
 *   of the input cut at D (which reports no cut or the same one);
 * - latency rows converted to any time unit keep min <= median <= p90 <= p99 <= max, and the
 *   units agree with each other. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/tracekit.h"

/* A writer (tracekit/writer.h) into the stream f. */
static int fuzz_write_file(void *f, const void *data, size_t len)
{
    return len && fwrite(data, 1, len, (FILE *)f) != len ? -1 : 0;
}
#define FUZZ_WRITER(f) (&(tk_writer){fuzz_write_file, (f)})

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

typedef struct pass {
    tk_status end;
    uint64_t records, hash, last_end;
    int cut;
    int64_t cut_offset;
} pass;

/* Every record of data[0..size) through tk_xray_next in strict or partial mode. */
static void read_records(const uint8_t *data, size_t size, int partial, pass *out)
{
    memset(out, 0, sizeof *out);
    out->end = TK_ERR_IO;
    tk_input *in = open_input(data, size);
    if (!in) return;
    tk_error err;
    tk_error_clear(&err);
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.partial = partial;
    tk_xray_reader *r;
    out->end = tk_xray_open(&r, in, &opt, &err);
    if (out->end == TK_OK) {
        int basic = tk_xray_get_header(r)->type == TK_XRAY_BASIC;
        tk_xray_record rec;
        uint64_t h = 1469598103934665603ull;
        while ((out->end = tk_xray_next(r, &rec, &err)) == TK_OK) {
            out->records++;
            h = (h ^ (rec.offset * 31 + rec.kind)) * 1099511628211ull;
            h = (h ^ (rec.tsc + rec.func_id + (uint64_t)(uint32_t)rec.tid)) * 1099511628211ull;
            uint64_t len = 16 + (uint64_t)rec.event_size; /* metadata and its payload */
            if (basic)
                len = 32;
            else if (tk_xray_is_function(rec.kind))
                len = 8;
            if (rec.offset + len > out->last_end) out->last_end = rec.offset + len;
        }
        out->hash = h;
        tk_error where;
        tk_error_clear(&where);
        out->cut = tk_xray_truncation(r, &where);
        out->cut_offset = where.offset;
        tk_xray_free(r);
    }
    tk_input_free(in);
}

static void check_partial(const uint8_t *data, size_t size)
{
    pass strict, part;
    read_records(data, size, 0, &strict);
    read_records(data, size, 1, &part);
    if (strict.end == TK_END && (part.end != TK_END || part.cut || part.records != strict.records ||
                                 part.hash != strict.hash))
        abort();
    if (part.end != TK_END || !part.cut) return;
    if (part.cut_offset < TK_XRAY_HEADER_SIZE || (uint64_t)part.cut_offset > size ||
        part.last_end > (uint64_t)part.cut_offset)
        abort();
    pass prefix;
    read_records(data, (size_t)part.cut_offset, 1, &prefix);
    if (prefix.end != TK_END || prefix.records != part.records || prefix.hash != part.hash ||
        (prefix.cut && prefix.cut_offset != part.cut_offset))
        abort();
}

static void check_units(const tk_latency_row *rows, size_t n, double hz)
{
    for (size_t i = 0; i < n; i++) {
        const tk_latency_row *r = &rows[i];
        double prev_ns = -1;
        for (int u = TK_UNIT_S; u <= TK_UNIT_NS; u++) {
            double v[5] = {tk_ticks_to_unit(r->min, hz, (tk_time_unit)u),
                           tk_ticks_to_unit(r->median, hz, (tk_time_unit)u),
                           tk_ticks_to_unit(r->p90, hz, (tk_time_unit)u),
                           tk_ticks_to_unit(r->p99, hz, (tk_time_unit)u),
                           tk_ticks_to_unit(r->max, hz, (tk_time_unit)u)};
            for (int k = 1; k < 5; k++)
                if (!(v[k - 1] <= v[k]) && r->count) abort();
            /* the same time in every unit: the max in ns from this unit */
            double ns = hz > 0 ? v[4] * (1e9 / tk_time_unit_per_second((tk_time_unit)u)) : v[4];
            if (prev_ns >= 0 && fabs(ns - prev_ns) > 1e-9 * prev_ns + 1e-6) abort();
            prev_ns = ns;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_error err;
    tk_error_clear(&err);
    FILE *sink = fopen("/dev/null", "w");
    if (!sink) return 0;
    /* check mode */
    tk_input *in = open_input(data, size);
    if (in) {
        tk_diag d;
        tk_diag_init(&d, ignore_diag, NULL);
        tk_xray_check_summary sum;
        (void)tk_xray_check(in, NULL, &d, &sum, &err);
        tk_input_free(in);
    }
    check_partial(data, size);
    /* strict reader through every consumer (latency: partial mode) */
    for (int consumer = 0; consumer < 5; consumer++) {
        in = open_input(data, size);
        if (!in) break;
        tk_xray_reader *r = NULL;
        tk_xray_events *e = NULL;
        tk_xray_options xopt = TK_XRAY_OPTIONS_INIT;
        xopt.partial = consumer == 1;
        if (tk_xray_open(&r, in, &xopt, &err) == TK_OK &&
            tk_xray_events_open(&e, r, NULL, &err) == TK_OK) {
            tk_event_source src;
            tk_xray_events_source(e, &src);
            if (consumer == 0) {
                (void)tk_xray_dump(r, NULL, FUZZ_WRITER(sink), &err);
            } else if (consumer == 1) {
                tk_latency *l = NULL;
                (void)tk_latency_open(&l, 1, NULL);
                const tk_latency_row *rows;
                size_t n;
                if (l && tk_latency_run(l, &src, &err) == TK_OK &&
                    tk_latency_rows(l, &rows, &n, &err) == TK_OK)
                    check_units(rows, n, src.ticks_per_second);
                tk_latency_free(l);
            } else if (consumer == 2) {
                (void)tk_export_chrome(&src, FUZZ_WRITER(sink), &err);
            } else if (consumer == 3) {
                (void)tk_export_folded(&src, FUZZ_WRITER(sink), TK_FOLDED_TIME, 1, &err);
            } else {
                tk_profile *p = NULL;
                if (tk_events_profile(&src, NULL, 1, &p, &err) == TK_OK) {
                    tk_callgrind_write_options opt = TK_CALLGRIND_WRITE_OPTIONS_INIT;
                    (void)tk_callgrind_write(p, FUZZ_WRITER(sink), &opt, &err);
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
