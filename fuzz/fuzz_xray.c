/* Fuzz the XRay reader (strict, partial and check modes), the events adapter, latency
 * accounting and the Chrome, folded and callgrind exporters on arbitrary bytes. Invariants:
 * - partial mode on a trace the strict reader reads whole gives the same records and no cut;
 * - where partial mode reports a cut at byte D, the records read end before D and are those
 *   of the input cut at D (which reports no cut or the same one);
 * - latency rows converted to any time unit keep min <= median <= p90 <= p99 <= max, and the
 *   units agree with each other;
 * - the fast paths (runs of FDR function records, packed batches: core/fastpath.h) give what
 *   the record-by-record reader, their general twin, gives: the same calls, arguments and
 *   events in the same order, latency rows, Chrome and folded exports, status and error. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/xray/xray_internal.h"
#include "fuzz.h"

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

/* The runs of tk_xray_next_calls as text, one line per call, argument list and event in their
 * order (where one run ends and the next begins is the path's own): small capacities, so that
 * runs end on a full array, a full argument or event list, as well as on a thread change. */
static tk_status print_runs(tk_xray_reader *r, int extras, FILE *f, tk_error *err)
{
    uint8_t kind[7];
    uint64_t func[7], tsc[7], arg_values[2 * TK_XRAY_MAX_ARGS];
    uint32_t arg_at[2], event_at[3];
    uint8_t arg_count[2];
    tk_xray_record events[3];
    tk_xray_calls c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.func = func;
    c.tsc = tsc;
    c.cap = sizeof kind;
    if (extras) {
        c.arg_at = arg_at;
        c.arg_count = arg_count;
        c.arg_values = arg_values;
        c.arg_cap = 2;
        c.events = events;
        c.event_at = event_at;
        c.event_cap = 3;
    }
    tk_status st;
    while ((st = tk_xray_next_calls(r, &c, err)) == TK_OK) {
        size_t a = 0, e = 0;
        for (size_t i = 0; i <= c.n; i++) {
            for (; e < c.nevents && c.event_at[e] == i; e++)
                fprintf(f, "event %d:%d %d %llu %d %d @%llu\n", (int)c.events[e].pid,
                        (int)c.events[e].tid, (int)c.events[e].kind,
                        (unsigned long long)c.events[e].tsc, (int)c.events[e].event_size,
                        c.events[e].payload && c.events[e].event_size ? c.events[e].payload[0] : -1,
                        (unsigned long long)c.events[e].offset);
            if (i == c.n) break;
            fprintf(f, "call %d:%d %u %llu %llu\n", (int)c.pid, (int)c.tid, (unsigned)c.kind[i],
                    (unsigned long long)c.func[i], (unsigned long long)c.tsc[i]);
            for (; a < c.nargs && c.arg_at[a] == i; a++)
                for (unsigned k = 0; k < c.arg_count[a]; k++)
                    fprintf(f, "arg %llu\n",
                            (unsigned long long)c.arg_values[a * TK_XRAY_MAX_ARGS + k]);
        }
    }
    return st;
}

/* What one consumer makes of the input with the fast paths (fast = 1) or the general code. */
typedef struct path_out {
    tk_status st;
    tk_error err;
    char *text;
    size_t len;
} path_out;

static void run_path(const uint8_t *data, size_t size, int consumer, int fast, path_out *o)
{
    memset(o, 0, sizeof *o);
    tk_error_clear(&o->err);
    o->st = TK_ERR_IO;
    FILE *f = open_memstream(&o->text, &o->len);
    tk_input *in = open_input(data, size);
    tk_xray_reader *r = NULL;
    tk_xray_events *e = NULL;
    tk_xray_options xopt = TK_XRAY_OPTIONS_INIT;
    xopt.partial = consumer == 2;
    if (f && in && (o->st = tk_xray_open(&r, in, &xopt, &o->err)) == TK_OK) {
        tk_xray_set_paths(r, fast);
        tk_event_source src;
        if (consumer >= 2 && (o->st = tk_xray_events_open(&e, r, NULL, &o->err)) == TK_OK)
            tk_xray_events_source(e, &src);
        if (consumer < 2) {
            o->st = print_runs(r, consumer, f, &o->err);
        } else if (o->st != TK_OK) {
        } else if (consumer == 2) {
            tk_latency *l = NULL;
            uint8_t *bytes = NULL;
            size_t n = 0;
            o->st = tk_latency_open(&l, 1, &o->err);
            if (o->st == TK_OK) o->st = tk_latency_run(l, &src, &o->err);
            if (o->st == TK_OK) o->st = tk_latency_serialize(l, &bytes, &n, &o->err);
            if (o->st == TK_OK) fwrite(bytes, 1, n, f);
            tk_free(bytes);
            tk_latency_free(l);
        } else if (consumer == 3) {
            o->st = tk_export_chrome(&src, FUZZ_WRITER(f), &o->err);
        } else {
            o->st = tk_export_folded(&src, FUZZ_WRITER(f), TK_FOLDED_TIME, 1, &o->err);
        }
    }
    tk_xray_events_free(e);
    tk_xray_free(r);
    tk_input_free(in);
    if (f) fclose(f);
}

/* The fast paths against their general twin, for each consumer: the same status, error (code,
 * offset, message) and output. */
static void compare_paths(const uint8_t *data, size_t size)
{
    static const char *const consumers[] = {"runs", "runs with arguments and events", "latency",
                                            "chrome", "folded"};
    for (int k = 0; k < 5; k++) {
        path_out a, b;
        run_path(data, size, k, 1, &a);
        run_path(data, size, k, 0, &b);
        if (a.st != b.st || a.err.code != b.err.code || a.err.offset != b.err.offset ||
            strcmp(a.err.message, b.err.message) != 0 || a.len != b.len ||
            (a.len && memcmp(a.text, b.text, a.len) != 0)) {
            size_t at = 0;
            while (at < a.len && at < b.len && a.text[at] == b.text[at]) at++;
            fprintf(stderr,
                    "fast and general paths differ (%s): status %d/%d, error @%lld '%s' / "
                    "@%lld '%s', output %zu/%zu bytes, from byte %zu:\nfast: %.200s\n"
                    "general: %.200s\n",
                    consumers[k], (int)a.st, (int)b.st, (long long)a.err.offset, a.err.message,
                    (long long)b.err.offset, b.err.message, a.len, b.len, at,
                    a.text ? a.text + at : "", b.text ? b.text + at : "");
            abort();
        }
        free(a.text);
        free(b.text);
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
        tk_diag_init(&d, fuzz_quiet, NULL);
        tk_xray_check_summary sum;
        (void)tk_xray_check(in, NULL, &d, &sum, &err);
        tk_input_free(in);
    }
    check_partial(data, size);
    compare_paths(data, size);
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
