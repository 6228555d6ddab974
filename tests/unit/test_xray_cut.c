/* XRay traces cut short (a crashed copy, `head -c N`): the committed real traces cut at many
 * byte offsets (every byte around each buffer boundary, and a stride over the rest). In partial
 * mode the reader never fails on a cut, reports where the damage starts unless the cut falls
 * between whole buffers (or whole basic-mode records), and gives exactly what the file holds
 * before that offset: the same records and the same latency rows as the file cut there. The
 * strict reader fails on the same cuts and `check` reports them as errors. */
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static uint8_t *load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *b = malloc(1 << 20);
    *len = b ? fread(b, 1, 1 << 20, f) : 0;
    fclose(f);
    return b;
}

typedef struct cut_result {
    tk_status end; /* the status that ended the reading */
    uint64_t records; /* records read */
    uint64_t hash; /* of the records' kind, offset, thread, function and time */
    uint64_t last_end; /* one past the last byte of the last record read */
    int cut; /* tk_xray_truncation */
    int64_t cut_offset;
    char message[TK_ERROR_MSG_MAX];
} cut_result;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v;
    h *= 0x100000001b3ull;
    return h ^ (h >> 29);
}

static uint64_t record_size(const tk_xray_record *rec, int basic)
{
    if (basic) return 32;
    if (tk_xray_is_function(rec->kind)) return 8; /* arguments come as records of their own */
    return 16 + (uint64_t)rec->event_size;
}

static void read_cut(const uint8_t *data, size_t n, int partial, cut_result *out)
{
    memset(out, 0, sizeof *out);
    tk_error err;
    tk_error_clear(&err);
    tk_input *in;
    out->end = tk_input_open_memory(&in, data, n, "cut", NULL, &err);
    if (out->end != TK_OK) return;
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.partial = partial;
    tk_xray_reader *r;
    out->end = tk_xray_open(&r, in, &opt, &err);
    if (out->end == TK_OK) {
        int basic = tk_xray_get_header(r)->type == TK_XRAY_BASIC;
        tk_xray_record rec;
        uint64_t h = 0xcbf29ce484222325ull;
        while ((out->end = tk_xray_next(r, &rec, &err)) == TK_OK) {
            out->records++;
            h = mix(h, rec.kind);
            h = mix(h, rec.offset);
            h = mix(h, (uint64_t)(uint32_t)rec.tid);
            h = mix(h, rec.func_id);
            h = mix(h, rec.tsc);
            uint64_t end = rec.offset + record_size(&rec, basic);
            if (end > out->last_end) out->last_end = end;
        }
        out->hash = h;
        tk_error where;
        tk_error_clear(&where);
        out->cut = tk_xray_truncation(r, &where);
        out->cut_offset = where.offset;
        snprintf(out->message, sizeof out->message, "%s", where.message);
        tk_xray_free(r);
    }
    tk_input_free(in);
}

/* Latency totals of the partial reader through the events source (batches, packed calls). */
static int latency_of(const uint8_t *data, size_t n, tk_latency_totals *t, uint64_t *sum)
{
    tk_error err;
    tk_error_clear(&err);
    tk_input *in;
    if (tk_input_open_memory(&in, data, n, "cut", NULL, &err) != TK_OK) return -1;
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.partial = 1;
    tk_xray_reader *r = NULL;
    tk_xray_events *e = NULL;
    tk_latency *l = NULL;
    (void)tk_latency_open(&l, 0, NULL);
    int ok = -1;
    if (l && tk_xray_open(&r, in, &opt, &err) == TK_OK &&
        tk_xray_events_open(&e, r, NULL, &err) == TK_OK) {
        tk_event_source src;
        tk_xray_events_source(e, &src);
        const tk_latency_row *rows;
        size_t nrows;
        if (tk_latency_run(l, &src, &err) == TK_OK &&
            tk_latency_rows(l, &rows, &nrows, &err) == TK_OK) {
            tk_latency_get_totals(l, t);
            *sum = 0;
            for (size_t i = 0; i < nrows; i++)
                *sum += rows[i].sum * 31 + rows[i].count * 7 + rows[i].func;
            ok = 0;
        }
    }
    tk_latency_free(l);
    tk_xray_events_free(e);
    tk_xray_free(r);
    tk_input_free(in);
    return ok;
}

static void ignore(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)ctx, (void)sev, (void)loc, (void)msg;
}

static uint64_t check_errors(const uint8_t *data, size_t n)
{
    tk_error err;
    tk_error_clear(&err);
    tk_input *in;
    if (tk_input_open_memory(&in, data, n, "cut", NULL, &err) != TK_OK) return 0;
    tk_diag d;
    tk_diag_init(&d, ignore, NULL);
    tk_xray_check_summary sum;
    TK_CHECK(tk_xray_check(in, NULL, &d, &sum, &err) == TK_OK);
    tk_input_free(in);
    return d.errors;
}

/* Offsets where a cut leaves only whole buffers (FDR) or whole records (basic). */
static int at_boundary(const uint8_t *data, size_t full, size_t n)
{
    if (n == full || n == 32) return 1;
    if (data[2] == 0) /* basic mode */
        return (n - 32) % 32 == 0;
    for (size_t pos = 32; pos + 16 <= full;) { /* version 2-5: jump from extents to extents */
        uint64_t len;
        memcpy(&len, data + pos + 1, 8);
        pos += 16 + (size_t)len;
        if (pos == n) return 1;
    }
    return 0;
}

static void cut_everywhere(const char *path, size_t stride)
{
    size_t full;
    uint8_t *data = load(path, &full);
    TK_CHECK(data && full > 64);
    if (!data) return;
    /* the offsets: every byte within 24 of a buffer boundary (basic mode: of two records), a
     * stride elsewhere */
    unsigned char *want = calloc(full + 1, 1);
    for (size_t n = 32; n <= full; n += stride) want[n] = 1;
    for (size_t n = 32; n <= full; n++)
        if (data[2] != 0 ? at_boundary(data, full, n) : n == 32 + 64 * 32 || n == full)
            for (size_t k = n >= 24 ? n - 24 : 0; k <= n + 24 && k <= full; k++) want[k] = 1;
    uint64_t last_records = 0, cuts = 0, undetected = 0;
    for (size_t n = 0; n <= full; n++) {
        if (!want[n]) continue;
        cut_result c, strict;
        read_cut(data, n, 1, &c);
        if (n < 32) { /* no header: an error either way */
            TK_CHECK(c.end == TK_ERR_FORMAT);
            continue;
        }
        if (c.end != TK_END) {
            fprintf(stderr, "  %s cut at %zu: status %d\n", path, n, (int)c.end);
            TK_CHECK(c.end == TK_END);
            continue;
        }
        TK_CHECK(c.records >= last_records); /* a longer file never gives less */
        last_records = c.records;
        read_cut(data, n, 0, &strict);
        int boundary = at_boundary(data, full, n);
        if (boundary) {
            /* nothing to tell: the trace may just end there */
            TK_CHECK(!c.cut);
            TK_CHECK(strict.end == TK_END && strict.records == c.records);
            undetected++;
            continue;
        }
        cuts++;
        if (!c.cut) {
            fprintf(stderr, "  %s cut at %zu: not reported\n", path, n);
            TK_CHECK(c.cut);
            continue;
        }
        TK_CHECK(c.cut_offset >= 32 && (uint64_t)c.cut_offset <= n);
        TK_CHECK(c.last_end <= (uint64_t)c.cut_offset);
        TK_CHECK(strstr(c.message, "the trace is cut short") == c.message);
        TK_CHECK(strict.end == TK_ERR_FORMAT); /* the strict reader refuses it */
        TK_CHECK(check_errors(data, n) > 0); /* and check fails on it */
        /* what came out is what the file holds before the damage */
        cut_result p;
        read_cut(data, (size_t)c.cut_offset, 1, &p);
        TK_CHECK(p.end == TK_END);
        TK_CHECK_EQ_U64(p.records, c.records);
        TK_CHECK_EQ_U64(p.hash, c.hash);
        TK_CHECK(!p.cut || p.cut_offset == c.cut_offset);
        tk_latency_totals tc, tp;
        uint64_t sc = 0, sp = 0;
        TK_CHECK(latency_of(data, n, &tc, &sc) == 0);
        TK_CHECK(latency_of(data, (size_t)c.cut_offset, &tp, &sp) == 0);
        TK_CHECK_EQ_U64(tc.enters, tp.enters);
        TK_CHECK_EQ_U64(tc.exits, tp.exits);
        TK_CHECK_EQ_U64(tc.open_at_end, tp.open_at_end);
        TK_CHECK_EQ_U64(sc, sp);
    }
    TK_CHECK(cuts > 100);
    TK_CHECK(undetected > 0);
    free(want);
    free(data);
}

static void test_cut_fdr_single_thread(void)
{
    cut_everywhere("tests/data/xray/pass/calltree.fdr", 73);
}
static void test_cut_fdr_threads(void) { cut_everywhere("tests/data/xray/pass/mtpool.fdr", 401); }
static void test_cut_fdr_wrapped(void)
{
    cut_everywhere("tests/data/xray/pass/mtpool-wrapped.fdr", 97);
}
static void test_cut_fdr_typed(void)
{
    cut_everywhere("tests/data/xray/pass/calltree-typed.fdr", 83);
}
static void test_cut_basic(void) { cut_everywhere("tests/data/xray/pass/mtpool.basic", 331); }

/* A version-1 file (fixed-size buffers): a short last buffer is a cut even between records. */
static void test_cut_v1(void)
{
    uint8_t b[32 + 2 * 128];
    memset(b, 0, sizeof b);
    uint16_t v = 1, type = 1;
    uint64_t freq = 1000, bs = 128;
    memcpy(b, &v, 2);
    memcpy(b + 2, &type, 2);
    memcpy(b + 8, &freq, 8);
    memcpy(b + 16, &bs, 8);
    for (int k = 0; k < 2; k++) {
        uint8_t *p = b + 32 + 128 * k;
        p[0] = 0 << 1 | 1; /* NewBuffer */
        p[1] = (uint8_t)(5 + k);
        p[16] = 4 << 1 | 1; /* Walltime */
        p[32] = 2 << 1 | 1; /* NewCPUId, tsc 100 */
        p[35] = 100;
        uint32_t w = 1u << 4, d = 1; /* enter #1, exit #1 */
        memcpy(p + 48, &w, 4);
        memcpy(p + 52, &d, 4);
        w |= 1u << 1;
        memcpy(p + 56, &w, 4);
        memcpy(p + 60, &d, 4);
        p[64] = 1 << 1 | 1; /* EndOfBuffer */
    }
    cut_result c;
    read_cut(b, sizeof b, 1, &c);
    TK_CHECK(c.end == TK_END && !c.cut);
    read_cut(b, 32 + 128 + 64, 1, &c); /* between records of the second buffer */
    TK_CHECK(c.end == TK_END && c.cut);
    TK_CHECK_EQ_I64(c.cut_offset, 32 + 128 + 64);
    TK_CHECK(strstr(c.message, "version-1 buffers are 128 bytes") != NULL);
    read_cut(b, 32 + 128 + 60, 1, &c); /* inside the exit record */
    TK_CHECK(c.end == TK_END && c.cut);
    TK_CHECK_EQ_I64(c.cut_offset, 32 + 128 + 56);
    TK_CHECK(strstr(c.message, "function record (4 of its 8 bytes") != NULL);
    TK_CHECK(check_errors(b, 32 + 128 + 64) > 0);
    TK_CHECK(check_errors(b, sizeof b) == 0);
}

TK_TEST_MAIN(TK_CASE(test_cut_fdr_single_thread), TK_CASE(test_cut_fdr_threads),
             TK_CASE(test_cut_fdr_wrapped), TK_CASE(test_cut_fdr_typed), TK_CASE(test_cut_basic),
             TK_CASE(test_cut_v1))
