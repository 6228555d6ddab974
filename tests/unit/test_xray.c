/* XRay reader on hand-built traces (versions 1, 4, 5, big-endian header, basic mode), the call
 * stacks of the events model and the latency statistics. */
#include <math.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

typedef struct builder {
    uint8_t b[4096];
    size_t n;
} builder;

static void put(builder *w, const void *p, size_t n)
{
    memcpy(w->b + w->n, p, n);
    w->n += n;
}
static void put16(builder *w, uint16_t v) { put(w, &v, 2); }
static void put32(builder *w, uint32_t v) { put(w, &v, 4); }
static void put64(builder *w, uint64_t v) { put(w, &v, 8); }

static void header(builder *w, uint16_t version, uint16_t type, uint64_t freq, uint64_t bufsize)
{
    put16(w, version);
    put16(w, type);
    put32(w, 3);
    put64(w, freq);
    put64(w, bufsize);
    put64(w, 0);
}

/* A metadata record: kind, then payload bytes at offset 1, zero padded to 16. */
static uint8_t *meta(builder *w, unsigned kind)
{
    uint8_t *r = w->b + w->n;
    memset(r, 0, 16);
    r[0] = (uint8_t)(kind << 1 | 1);
    w->n += 16;
    return r;
}

static void func(builder *w, unsigned kind, uint32_t id, uint32_t delta)
{
    put32(w, id << 4 | kind << 1);
    put32(w, delta);
}

static void new_buffer_start(builder *w, int32_t tid, int with_pid, uint64_t tsc, uint16_t cpu)
{
    memcpy(meta(w, 0) + 1, &tid, 4);
    uint8_t *wt = meta(w, 4);
    uint64_t sec = 10;
    memcpy(wt + 1, &sec, 8);
    if (with_pid) {
        int32_t pid = 77;
        memcpy(meta(w, 9) + 1, &pid, 4);
    }
    uint8_t *c = meta(w, 2);
    memcpy(c + 1, &cpu, 2);
    memcpy(c + 3, &tsc, 8);
}

typedef struct collected {
    tk_xray_record recs[64];
    int n;
    tk_status end;
} collected;

static void read_all(builder *w, collected *out)
{
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    out->n = 0;
    TK_CHECK(tk_input_open_memory(&in, w->b, w->n, "mem", NULL, &err) == TK_OK);
    tk_xray_reader *r;
    out->end = tk_xray_open(&r, in, NULL, &err);
    if (out->end == TK_OK) {
        while ((out->end = tk_xray_next(r, &out->recs[out->n], &err)) == TK_OK && out->n < 63)
            out->n++;
        tk_xray_free(r);
    }
    tk_input_free(in);
}

static void test_v5_deltas_and_wrap(void)
{
    builder w = {.n = 0};
    header(&w, 5, 1, 1000, 4096);
    size_t ext = w.n;
    meta(&w, 7);
    size_t start = w.n;
    new_buffer_start(&w, 42, 1, 1000, 3);
    func(&w, 3, 9, 0); /* enter-args */
    uint64_t arg = 123456;
    memcpy(meta(&w, 6) + 1, &arg, 8);
    func(&w, 0, 10, 5);
    uint64_t wrap = 500;
    memcpy(meta(&w, 3) + 1, &wrap, 8);
    func(&w, 1, 10, 7);
    uint8_t *ce = meta(&w, 5); /* v5 custom event: size, delta */
    int32_t size = 3, delta = 2;
    memcpy(ce + 1, &size, 4);
    memcpy(ce + 5, &delta, 4);
    put(&w, "abc", 3);
    func(&w, 2, 9, 1); /* tail exit, unaligned after the payload */
    uint64_t n = w.n - start;
    memcpy(w.b + ext + 1, &n, 8);
    collected c;
    read_all(&w, &c);
    TK_CHECK(c.end == TK_END);
    TK_CHECK_EQ_U64(c.n, 12);
    TK_CHECK(c.recs[0].kind == TK_XRAY_BUFFER_EXTENTS);
    TK_CHECK(c.recs[5].kind == TK_XRAY_ENTER_ARGS);
    TK_CHECK_EQ_U64(c.recs[5].nargs, 1);
    TK_CHECK_EQ_U64(c.recs[5].args[0], 123456);
    TK_CHECK_EQ_I64(c.recs[5].tid, 42);
    TK_CHECK_EQ_I64(c.recs[5].pid, 77);
    TK_CHECK_EQ_U64(c.recs[5].cpu, 3);
    TK_CHECK_EQ_U64(c.recs[7].tsc, 1005);
    TK_CHECK_EQ_U64(c.recs[9].tsc, 507); /* after the wrap: base 500 + 7 */
    TK_CHECK(c.recs[10].kind == TK_XRAY_CUSTOM_EVENT);
    TK_CHECK_EQ_U64(c.recs[10].tsc, 509);
    TK_CHECK(c.recs[10].event_size == 3 && memcmp(c.recs[10].payload, "abc", 3) == 0);
    TK_CHECK(c.recs[11].kind == TK_XRAY_TAIL_EXIT);
    TK_CHECK_EQ_U64(c.recs[11].tsc, 510);
}

static void test_v1_end_of_buffer(void)
{
    builder w = {.n = 0};
    header(&w, 1, 1, 1000, 128);
    size_t start = w.n;
    new_buffer_start(&w, 5, 0, 100, 0);
    func(&w, 0, 1, 1);
    meta(&w, 1); /* EndOfBuffer: the rest of the 128-byte buffer is garbage */
    memset(w.b + w.n, 0xee, start + 128 - w.n);
    w.n = start + 128;
    new_buffer_start(&w, 6, 0, 200, 1);
    func(&w, 1, 1, 4);
    collected c;
    read_all(&w, &c);
    TK_CHECK(c.end == TK_END);
    TK_CHECK_EQ_U64(c.n, 9);
    TK_CHECK(c.recs[4].kind == TK_XRAY_END_OF_BUFFER);
    TK_CHECK_EQ_I64(c.recs[8].tid, 6);
    TK_CHECK_EQ_U64(c.recs[8].tsc, 204);
    TK_CHECK_EQ_I64(c.recs[8].pid, 0);
}

static void test_v4_custom_event_absolute(void)
{
    builder w = {.n = 0};
    header(&w, 4, 1, 1000, 4096);
    size_t ext = w.n;
    meta(&w, 7);
    size_t start = w.n;
    new_buffer_start(&w, 1, 1, 100, 0);
    uint8_t *ce = meta(&w, 5);
    int32_t size = 1;
    uint64_t tsc = 99999;
    uint16_t cpu = 7;
    memcpy(ce + 1, &size, 4);
    memcpy(ce + 5, &tsc, 8);
    memcpy(ce + 13, &cpu, 2);
    put(&w, "z", 1);
    func(&w, 0, 2, 3);
    uint64_t n = w.n - start;
    memcpy(w.b + ext + 1, &n, 8);
    collected c;
    read_all(&w, &c);
    TK_CHECK(c.end == TK_END);
    TK_CHECK(c.recs[5].kind == TK_XRAY_CUSTOM_EVENT);
    TK_CHECK_EQ_U64(c.recs[5].tsc, 99999);
    TK_CHECK_EQ_U64(c.recs[5].cpu, 7);
    TK_CHECK_EQ_U64(c.recs[6].tsc, 103); /* the absolute event did not move the base */
}

static void test_errors_are_located(void)
{
    builder w = {.n = 0};
    header(&w, 5, 1, 1000, 4096);
    size_t ext = w.n;
    meta(&w, 7);
    size_t start = w.n;
    new_buffer_start(&w, 1, 1, 100, 0);
    size_t bad = w.n;
    meta(&w, 11); /* unknown metadata kind */
    uint64_t n = w.n - start;
    memcpy(w.b + ext + 1, &n, 8);
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_input_open_memory(&in, w.b, w.n, "mem", NULL, &err) == TK_OK);
    tk_xray_reader *r;
    TK_CHECK(tk_xray_open(&r, in, NULL, &err) == TK_OK);
    tk_xray_record rec;
    tk_status st;
    while ((st = tk_xray_next(r, &rec, &err)) == TK_OK)
        ;
    TK_CHECK(st == TK_ERR_FORMAT);
    TK_CHECK_EQ_I64(err.offset, (int64_t)bad);
    TK_CHECK(strstr(err.message, "unknown metadata record kind 11") != NULL);
    tk_xray_free(r);
    tk_input_free(in);
}

static void test_header_big_endian(void)
{
    uint8_t h[32] = {0,    5,    0,    1,    0, 0, 0, 3, 0, 0, 0,    0,
                     0x3b, 0x9a, 0xca, 0x00, 0, 0, 0, 0, 0, 0, 0x40, 0};
    tk_xray_header hd;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_xray_parse_header(h, sizeof h, "x", &hd, &err) == TK_OK);
    TK_CHECK(hd.big_endian);
    TK_CHECK_EQ_U64(hd.version, 5);
    TK_CHECK_EQ_U64(hd.cycle_frequency, 1000000000);
    TK_CHECK(tk_xray_emulated_tsc(&hd));
    TK_CHECK_EQ_U64(hd.buffer_size, 16384);
    h[1] = 9;
    TK_CHECK(tk_xray_parse_header(h, sizeof h, "x", &hd, &err) != TK_OK);
    TK_CHECK(tk_xray_parse_header(h, 10, "x", &hd, &err) == TK_ERR_FORMAT);
}

static void test_basic_mode_args(void)
{
    builder w = {.n = 0};
    header(&w, 3, 0, 1000, 0);
    /* enter-args of function 4 on tid 8, then its payload, then the exit */
    put16(&w, 0);
    w.b[w.n++] = 2;
    w.b[w.n++] = 3;
    put32(&w, 4);
    put64(&w, 50);
    put32(&w, 8);
    put32(&w, 9);
    put64(&w, 0);
    put16(&w, 1);
    put16(&w, 0);
    put32(&w, 4);
    put32(&w, 8);
    put32(&w, 9);
    put64(&w, 31337);
    put64(&w, 0);
    put16(&w, 0);
    w.b[w.n++] = 2;
    w.b[w.n++] = 1;
    put32(&w, 4);
    put64(&w, 80);
    put32(&w, 8);
    put32(&w, 9);
    put64(&w, 0);
    collected c;
    read_all(&w, &c);
    TK_CHECK(c.end == TK_END);
    TK_CHECK_EQ_U64(c.n, 3);
    TK_CHECK(c.recs[0].kind == TK_XRAY_ENTER_ARGS);
    TK_CHECK_EQ_U64(c.recs[0].args[0], 31337);
    TK_CHECK(c.recs[1].kind == TK_XRAY_ARG_PAYLOAD);
    TK_CHECK_EQ_U64(c.recs[2].tsc, 80);
    TK_CHECK_EQ_I64(c.recs[2].pid, 9);
}

/* A scripted events source. */
typedef struct script {
    const tk_event *ev;
    size_t n, i;
} script;

static tk_status script_next(void *ctx, tk_event *ev, tk_error *err)
{
    (void)err;
    script *s = ctx;
    if (s->i == s->n) return TK_END;
    *ev = s->ev[s->i++];
    return TK_OK;
}

#define E(kind, f, t) \
    { \
        kind, 0, 1, 1, 0, t, f, 0, NULL, 0, 0, NULL, 0 \
    }

static void test_latency_quantiles_and_unwinding(void)
{
    /* f(1) called 10 times with durations 1..10; g(2) entered inside h(3) and never exits: the
     * exit of h unwinds it; then an exit without entry; then k(4) left open. */
    tk_event evs[40];
    size_t n = 0;
    uint64_t t = 0;
    for (int d = 10; d >= 1; d--) {
        evs[n++] = (tk_event)E(TK_EVENT_ENTER, 1, t);
        t += (uint64_t)d;
        evs[n++] = (tk_event)E(TK_EVENT_EXIT, 1, t);
    }
    evs[n++] = (tk_event)E(TK_EVENT_ENTER, 3, 100);
    evs[n++] = (tk_event)E(TK_EVENT_ENTER, 2, 101);
    evs[n++] = (tk_event)E(TK_EVENT_EXIT, 3, 110);
    evs[n++] = (tk_event)E(TK_EVENT_EXIT, 5, 111);
    evs[n++] = (tk_event)E(TK_EVENT_ENTER, 4, 120);
    evs[n++] = (tk_event)E(TK_EVENT_CUSTOM, 0, 130);
    script s = {evs, n, 0};
    tk_event_source src = {&s, script_next, NULL, 1.0, "ticks", 0, NULL, NULL};
    tk_latency *l = NULL;
    (void)tk_latency_open(&l, 0, NULL);
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_latency_run(l, &src, &err) == TK_OK);
    const tk_latency_row *rows;
    size_t nrows;
    TK_CHECK(tk_latency_rows(l, &rows, &nrows, &err) == TK_OK);
    TK_CHECK_EQ_U64(nrows, 4);
    TK_CHECK_EQ_U64(rows[0].func, 1);
    TK_CHECK_EQ_U64(rows[0].count, 10);
    TK_CHECK_EQ_U64(rows[0].min, 1);
    TK_CHECK_EQ_U64(rows[0].median, 6); /* element 5 of 1..10 */
    TK_CHECK_EQ_U64(rows[0].p90, 10); /* element floor(9.0) */
    TK_CHECK_EQ_U64(rows[0].p99, 10);
    TK_CHECK_EQ_U64(rows[0].max, 10);
    TK_CHECK_EQ_U64(rows[0].sum, 55);
    TK_CHECK_EQ_U64(rows[1].func, 2);
    TK_CHECK_EQ_U64(rows[1].unwound, 1);
    TK_CHECK_EQ_U64(rows[1].sum, 9);
    TK_CHECK_EQ_U64(rows[2].sum, 10);
    TK_CHECK_EQ_U64(rows[3].func, 4);
    TK_CHECK_EQ_U64(rows[3].count, 0);
    TK_CHECK_EQ_U64(rows[3].open, 1);
    tk_latency_totals tot;
    tk_latency_get_totals(l, &tot);
    TK_CHECK_EQ_U64(tot.unmatched_exits, 1);
    TK_CHECK_EQ_U64(tot.open_at_end, 1);
    tk_latency_free(l);
}

/* A generated source: calls of three functions whose durations mix the 16-bit, 32-bit and
 * 64-bit classes in different proportions, enough of them that the 16-bit ones move into the
 * per-series histogram. */
typedef struct gen {
    uint64_t state, t;
    size_t i, n;
    int pending; /* the exit of the call just entered */
    uint64_t func, end;
    uint64_t *durations[3];
    size_t count[3];
} gen;

static uint64_t gen_rand(gen *g)
{
    g->state = g->state * 6364136223846793005ull + 1442695040888963407ull;
    return g->state >> 16;
}

static tk_status gen_next(void *ctx, tk_event *ev, tk_error *err)
{
    (void)err;
    gen *g = ctx;
    memset(ev, 0, sizeof *ev);
    ev->pid = ev->tid = 1;
    if (g->pending) {
        g->pending = 0;
        ev->kind = TK_EVENT_EXIT;
        ev->func = g->func;
        ev->time = g->end;
        g->t = g->end + 1;
        return TK_OK;
    }
    if (g->i == g->n) return TK_END;
    g->i++;
    uint64_t r = gen_rand(g), f = r % 3, pick = (r >> 8) % 1000, d;
    /* func 1: 99% 16-bit; func 2: 85% 16-bit, 14% 32-bit, 1% 64-bit; func 3: 50/50 */
    uint64_t tiny = f == 0 ? 990 : f == 1 ? 850 : 500;
    if (pick < tiny)
        d = gen_rand(g) % 65536;
    else if (f == 1 && pick >= 990)
        d = (1ull << 32) + gen_rand(g) % 1000000;
    else
        d = 65536 + gen_rand(g) % 5000000;
    g->func = f + 1;
    g->end = g->t + d;
    g->durations[f][g->count[f]++] = d;
    g->pending = 1;
    ev->kind = TK_EVENT_ENTER;
    ev->func = g->func;
    ev->time = g->t;
    return TK_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_latency_histogram_matches_sorting(void)
{
    gen g;
    memset(&g, 0, sizeof g);
    g.state = 42;
    g.t = 1;
    g.n = 600000;
    for (int f = 0; f < 3; f++) g.durations[f] = malloc(g.n * sizeof(uint64_t));
    tk_event_source src = {&g, gen_next, NULL, 1.0, "ticks", 0, NULL, NULL};
    tk_latency *l = NULL;
    (void)tk_latency_open(&l, 0, NULL);
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_latency_run(l, &src, &err) == TK_OK);
    const tk_latency_row *rows;
    size_t nrows;
    TK_CHECK(tk_latency_rows(l, &rows, &nrows, &err) == TK_OK);
    TK_CHECK_EQ_U64(nrows, 3);
    for (size_t f = 0; f < 3 && f < nrows; f++) {
        uint64_t *d = g.durations[f];
        size_t n = g.count[f];
        TK_CHECK(n > 150000); /* well beyond the switch to the histogram */
        qsort(d, n, sizeof *d, cmp_u64);
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++) sum += d[i];
        TK_CHECK_EQ_U64(rows[f].func, f + 1);
        TK_CHECK_EQ_U64(rows[f].count, n);
        TK_CHECK_EQ_U64(rows[f].sum, sum);
        TK_CHECK_EQ_U64(rows[f].min, d[0]);
        TK_CHECK_EQ_U64(rows[f].max, d[n - 1]);
        TK_CHECK_EQ_U64(rows[f].median, d[n / 2]);
        TK_CHECK_EQ_U64(rows[f].p90, d[(size_t)floor((double)n * 0.9)]);
        TK_CHECK_EQ_U64(rows[f].p99, d[(size_t)floor((double)n * 0.99)]);
    }
    /* the ranks land in every class: 16-bit (func 1), 32-bit (func 2 p90, func 3), 64-bit
     * (func 2 max) */
    TK_CHECK(nrows == 3 && rows[0].p99 < 65536 && rows[1].p99 >= 65536 &&
             rows[1].max >= (1ull << 32) && rows[2].median >= 65536);
    for (int f = 0; f < 3; f++) free(g.durations[f]);
    tk_latency_free(l);
}

/* The batch fast path (tk_xray_next_calls) and the record-by-record path give the same
 * statistics on the real traces. */
static int latency_of(const char *path, int batches, int per_thread, tk_latency_row *rows,
                      size_t max)
{
    tk_error err;
    tk_error_clear(&err);
    tk_input *in;
    if (tk_input_open(&in, path, NULL, &err) != TK_OK) return -1;
    tk_xray_reader *r;
    tk_xray_events *e;
    tk_event_source src;
    TK_CHECK(tk_xray_open(&r, in, NULL, &err) == TK_OK);
    TK_CHECK(tk_xray_events_open(&e, r, NULL, &err) == TK_OK);
    tk_xray_events_source(e, &src);
    if (!batches) src.next_batch = NULL;
    tk_latency *l = NULL;
    (void)tk_latency_open(&l, per_thread, NULL);
    TK_CHECK(tk_latency_run(l, &src, &err) == TK_OK);
    const tk_latency_row *got;
    size_t n = 0;
    TK_CHECK(tk_latency_rows(l, &got, &n, &err) == TK_OK);
    if (n > max) n = max;
    memcpy(rows, got, n * sizeof *rows);
    tk_latency_free(l);
    tk_xray_events_free(e);
    tk_xray_free(r);
    tk_input_free(in);
    return (int)n;
}

static void test_batches_equal_records(void)
{
    static const char *const traces[] = {
        "tests/data/xray/pass/calltree.fdr", "tests/data/xray/pass/mtpool.fdr",
        "tests/data/xray/pass/mtpool-wrapped.fdr", "tests/data/xray/pass/mtpool.basic",
        "tests/data/xray/pass/calltree-typed.fdr"};
    static tk_latency_row a[512], b[512];
    for (size_t t = 0; t < sizeof traces / sizeof *traces; t++) {
        for (int per_thread = 0; per_thread <= 1; per_thread++) {
            int na = latency_of(traces[t], 1, per_thread, a, 512);
            int nb = latency_of(traces[t], 0, per_thread, b, 512);
            TK_CHECK(na > 0);
            TK_CHECK_EQ_I64(na, nb);
            for (int i = 0; i < na && i < nb; i++) {
                TK_CHECK_EQ_U64(a[i].func, b[i].func);
                TK_CHECK_EQ_U64(a[i].count, b[i].count);
                TK_CHECK_EQ_U64(a[i].sum, b[i].sum);
                TK_CHECK_EQ_U64(a[i].median, b[i].median);
                TK_CHECK_EQ_U64(a[i].p99, b[i].p99);
                TK_CHECK_EQ_U64(a[i].open, b[i].open);
                TK_CHECK_EQ_I64(a[i].tid, b[i].tid);
            }
        }
    }
}

/* The Chrome export through batches (with arguments and events) equals the export pulled one
 * event at a time. */
static char *chrome_of(const char *path, int batches, size_t *len)
{
    tk_error err;
    tk_error_clear(&err);
    tk_input *in;
    if (tk_input_open(&in, path, NULL, &err) != TK_OK) return NULL;
    tk_xray_reader *r;
    tk_xray_events *e;
    tk_event_source src;
    TK_CHECK(tk_xray_open(&r, in, NULL, &err) == TK_OK);
    TK_CHECK(tk_xray_events_open(&e, r, NULL, &err) == TK_OK);
    tk_xray_events_source(e, &src);
    if (!batches) src.next_batch = NULL;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    TK_CHECK(tk_export_chrome(&src, TK_TEST_WRITER(f), &err) == TK_OK);
    fclose(f);
    tk_xray_events_free(e);
    tk_xray_free(r);
    tk_input_free(in);
    return buf;
}

static void test_chrome_batches_equal_events(void)
{
    static const char *const traces[] = {
        "tests/data/xray/pass/calltree.fdr", "tests/data/xray/pass/calltree-typed.fdr",
        "tests/data/xray/pass/mtpool.fdr",   "tests/data/xray/pass/mtpool-wrapped.fdr",
        "tests/data/xray/pass/mtpool.basic", "tests/data/xray/pass/calltree.basic"};
    for (size_t t = 0; t < sizeof traces / sizeof *traces; t++) {
        size_t la = 0, lb = 0;
        char *a = chrome_of(traces[t], 1, &la), *b = chrome_of(traces[t], 0, &lb);
        TK_CHECK(a && b);
        TK_CHECK_EQ_U64(la, lb);
        TK_CHECK(a && b && la == lb && memcmp(a, b, la) == 0);
        TK_CHECK(a && strstr(a, "\"traceEvents\"") != NULL);
        free(a);
        free(b);
    }
}

/* A Chrome trace of sources chained, made part by part (tk_chrome_part_open on each, joined in
 * order) equals tk_export_chrome of the chain, byte for byte, through batches and one event at
 * a time; where a source fails, the join stops with its error, having written what the export
 * wrote before it (whole 64 KiB blocks). Traces with an earlier trace's pid among them (the
 * same trace twice, calltree-typed in both byte orders: its instant events too) get the same
 * process keys both ways. */
typedef struct chrome_set {
    tk_input *in[8];
    tk_xray_reader *r[8];
    tk_xray_events *e[8];
    tk_event_source src[8];
    size_t n;
} chrome_set;

static void chrome_set_open(chrome_set *c, const char *const *paths, size_t n, int batches)
{
    memset(c, 0, sizeof *c);
    tk_error err;
    tk_error_clear(&err);
    for (size_t k = 0; k < n; k++) {
        TK_CHECK(tk_input_open(&c->in[k], paths[k], NULL, &err) == TK_OK);
        TK_CHECK(tk_xray_open(&c->r[k], c->in[k], NULL, &err) == TK_OK);
        TK_CHECK(tk_xray_events_open(&c->e[k], c->r[k], NULL, &err) == TK_OK);
        tk_xray_events_source(c->e[k], &c->src[k]);
        if (!batches) c->src[k].next_batch = NULL;
        c->n++;
    }
}

static void chrome_set_close(chrome_set *c)
{
    for (size_t k = 0; k < c->n; k++) {
        tk_xray_events_free(c->e[k]);
        tk_xray_free(c->r[k]);
        tk_input_free(c->in[k]);
    }
}

static void check_chrome_parts(const char *const *paths, size_t n, int batches, int fails)
{
    chrome_set a, b;
    tk_event_chain chain;
    tk_event_source src;
    tk_error err, err2;
    tk_error_clear(&err);
    tk_error_clear(&err2);
    char *ta = NULL, *tb = NULL;
    size_t la = 0, lb = 0;
    chrome_set_open(&a, paths, n, batches);
    TK_CHECK(tk_event_chain_init(&chain, a.src, a.n, &src, &err) == TK_OK);
    FILE *f = open_memstream(&ta, &la);
    tk_status sa = tk_export_chrome(&src, TK_TEST_WRITER(f), &err);
    fclose(f);
    chrome_set_open(&b, paths, n, batches);
    TK_CHECK(tk_event_chain_init(&chain, b.src, b.n, &src, &err2) == TK_OK);
    f = open_memstream(&tb, &lb);
    tk_chrome_join *j = NULL;
    tk_status sb = tk_chrome_join_open(&j, &src, TK_TEST_WRITER(f), &err2);
    for (size_t k = 0; k < b.n && sb == TK_OK; k++) {
        tk_chrome_part *p = NULL;
        sb = tk_chrome_part_open(&p, j, &b.src[k], &err2);
        if (sb == TK_OK) sb = tk_chrome_join_add(j, p, &err2);
        tk_chrome_part_free(p);
    }
    if (sb == TK_OK) sb = tk_chrome_join_finish(j, &err2);
    tk_chrome_join_free(j);
    fclose(f);
    TK_CHECK_EQ_I64(sa, sb);
    TK_CHECK(fails ? sa != TK_OK : sa == TK_OK);
    TK_CHECK(strcmp(err.message, err2.message) == 0);
    TK_CHECK_EQ_U64(la, lb);
    TK_CHECK(la == lb && memcmp(ta, tb, la) == 0);
    TK_CHECK(la % 65536 == 0 || !fails);
    free(ta);
    free(tb);
    chrome_set_close(&a);
    chrome_set_close(&b);
}

static void test_chrome_parts_equal_chain(void)
{
    static const char *const ok[] = {
        "tests/data/xray/pass/mtpool.fdr",           "tests/data/xray/pass/calltree-typed.fdr",
        "tests/data/xray/pass/mtpool.basic",         "tests/data/xray/pass/calltree.fdr",
        "tests/data/xray/pass/mtpool-wrapped.fdr",   "tests/data/xray/pass/mtpool.fdr",
        "tests/data/xray/pass/calltree-typed-be.fdr"};
    static const char *const bad[] = {
        "tests/data/xray/pass/mtpool.fdr", "tests/data/xray/pass/mtpool.basic",
        "tests/data/xray/pass/mtpool.fdr", "tests/data/xray/fail/unknown-record-type.basic",
        "tests/data/xray/pass/mtpool.fdr"};
    for (int batches = 0; batches < 2; batches++) {
        check_chrome_parts(ok, 7, batches, 0);
        check_chrome_parts(ok + 1, 1, batches, 0);
        check_chrome_parts(bad, 5, batches, 1);
    }
}

TK_TEST_MAIN(TK_CASE(test_batches_equal_records), TK_CASE(test_chrome_batches_equal_events),
             TK_CASE(test_chrome_parts_equal_chain), TK_CASE(test_v5_deltas_and_wrap),
             TK_CASE(test_v1_end_of_buffer), TK_CASE(test_v4_custom_event_absolute),
             TK_CASE(test_errors_are_located), TK_CASE(test_header_big_endian),
             TK_CASE(test_basic_mode_args), TK_CASE(test_latency_quantiles_and_unwinding),
             TK_CASE(test_latency_histogram_matches_sorting))
