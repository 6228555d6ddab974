/* The basic-block vectors of one thread's chunks split into ranges (tracekit/dcfg_trace_bbv.h:
 * each range's blocks, their walk in order, parts from the walk's open counts, made of the
 * blocks and by decoding again, the two the same bytes, serialised, read back and merged in
 * order), as tracekit-mpi's ranks make them: for every cut of each thread's chunks
 * in two, every pair of cuts of threads of up to 8 chunks, and random cuts into up to 5
 * ranges, both groupings of the merges, at intervals from 1 to 2^40 with and without loop
 * boundaries, on -j 1 and 3, the slices (and their loop heads, addresses and counts) are those
 * tk_dcfg_trace_bbv makes of the whole thread, and a thread that fails fails in the first
 * range that holds its failing chunk with the same message; on traces generated over gen11's
 * DCFG (walks along its edges broken by jumps, in small chunks) and the corpus's. The part's
 * bytes: read back they write themselves again; cut short or changed, they are an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tk_test_dcfg_trace_gen.h"
#include "tracekit/tracekit.h"

static const char gen11_dcfg[] = "tests/data/dcfg_trace/pass/gen11.dcfg.json";

/* tk_dcfg_trace_bbv_fn: every field of a slice as a line of text. */
static int print_slice(void *ctx, const tk_dcfg_trace_bbv_slice *s)
{
    char line[128];
    int n = snprintf(line, sizeof line, "%llu %llu #%llu", (unsigned long long)s->pid,
                     (unsigned long long)s->thread_id, (unsigned long long)s->index);
    put(ctx, line, (size_t)n);
    if (s->at_loop_head) {
        n = snprintf(line, sizeof line, " head %u 0x%llx count %llu", s->head_id,
                     (unsigned long long)s->head_addr, (unsigned long long)s->head_count);
        put(ctx, line, (size_t)n);
    }
    for (size_t i = 0; i < s->nentries; i++) {
        n = snprintf(line, sizeof line, " :%u:%llu", s->entries[i].block_id,
                     (unsigned long long)s->entries[i].instructions);
        put(ctx, line, (size_t)n);
    }
    return put(ctx, "\n", 1);
}

/* A part read back from its bytes (which must write themselves again). */
static tk_dcfg_trace_bbv_part *round_trip(tk_dcfg_trace_bbv_part *p)
{
    uint8_t *d = NULL, *d2 = NULL;
    size_t n = 0, n2 = 0;
    tk_dcfg_trace_bbv_part *q = NULL;
    TK_CHECK(tk_dcfg_trace_bbv_part_serialize(p, &d, &n, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_trace_bbv_part_deserialize(&q, d, n, NULL) == TK_OK);
    if (q) TK_CHECK(tk_dcfg_trace_bbv_part_serialize(q, &d2, &n2, NULL) == TK_OK);
    TK_CHECK(q && n == n2 && memcmp(d, d2, n) == 0);
    tk_free(d);
    tk_free(d2);
    tk_dcfg_trace_bbv_part_free(p);
    return q;
}

/* Whether two parts are the same bytes. */
static int same_bytes(const tk_dcfg_trace_bbv_part *a, const tk_dcfg_trace_bbv_part *b)
{
    uint8_t *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    int same = tk_dcfg_trace_bbv_part_serialize(a, &x, &nx, NULL) == TK_OK &&
               tk_dcfg_trace_bbv_part_serialize(b, &y, &ny, NULL) == TK_OK && nx == ny &&
               memcmp(x, y, nx) == 0;
    tk_free(x);
    tk_free(y);
    return same;
}

/* A copy of p, through its bytes. */
static tk_dcfg_trace_bbv_part *copy_of(const tk_dcfg_trace_bbv_part *p)
{
    uint8_t *d = NULL;
    size_t n = 0;
    tk_dcfg_trace_bbv_part *q = NULL;
    TK_CHECK(tk_dcfg_trace_bbv_part_serialize(p, &d, &n, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_trace_bbv_part_deserialize(&q, d, n, NULL) == TK_OK);
    tk_free(d);
    return q;
}

/* Thread th cut at cuts[0..ncuts) (global chunk indexes, ascending, within its chunks) made in
 * the three passes, its parts merged grouped from the left and (copies of them) from the
 * right, and the slices of each printed to out[0] and out[1]. Returns the status, *err the
 * first range's error. */
static tk_status split_thread(const tk_dcfg_trace *t, const tk_cfg *cfg,
                              const tk_dcfg_trace_bbv_options *o, size_t th, const size_t *cuts,
                              size_t ncuts, buf out[2], tk_error *err)
{
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    size_t bounds[8], nr = ncuts + 1;
    bounds[0] = ti.first_chunk;
    for (size_t k = 0; k < ncuts; k++) bounds[k + 1] = cuts[k];
    bounds[nr] = ti.first_chunk + ti.nchunks;
    uint64_t open[8], at = 0;
    tk_status st = TK_OK;
    /* passes 1 and 2: each range's blocks, walked in order */
    tk_dcfg_trace_bbv_blocks *blocks[8] = {NULL};
    for (size_t k = 0; k < nr && st == TK_OK; k++) {
        st =
            tk_dcfg_trace_bbv_blocks_open(&blocks[k], t, cfg, o, th, bounds[k], bounds[k + 1], err);
        open[k] = at;
        if (st == TK_OK) st = tk_dcfg_trace_bbv_blocks_walk(blocks[k], &at, err);
    }
    /* pass 3: the parts of the blocks (the same bytes as decoding again), read back */
    tk_dcfg_trace_bbv_part *parts[2][8];
    for (size_t k = 0; k < nr; k++) {
        parts[0][k] = parts[1][k] = NULL;
        tk_dcfg_trace_bbv_part *again = NULL;
        if (st == TK_OK) st = tk_dcfg_trace_bbv_blocks_part(&parts[0][k], blocks[k], open[k], err);
        if (st == TK_OK)
            TK_CHECK(tk_dcfg_trace_bbv_part_open(&again, t, cfg, o, th, bounds[k], bounds[k + 1],
                                                 open[k], NULL) == TK_OK);
        if (parts[0][k] && again) TK_CHECK(same_bytes(parts[0][k], again));
        tk_dcfg_trace_bbv_part_free(again);
        if (parts[0][k]) parts[0][k] = round_trip(parts[0][k]);
        if (parts[0][k]) parts[1][k] = copy_of(parts[0][k]);
    }
    for (size_t k = 0; k < nr; k++) tk_dcfg_trace_bbv_blocks_free(blocks[k]);
    for (int right = 0; right < 2; right++) {
        tk_dcfg_trace_bbv_part **pr = parts[right];
        for (size_t k = 1; k < nr && st == TK_OK; k++) {
            size_t into = right ? nr - 1 - k : 0, later = right ? nr - k : k;
            TK_CHECK(tk_dcfg_trace_bbv_part_merge(pr[into], pr[later], err) == TK_OK);
            if (right) {
                tk_dcfg_trace_bbv_part_free(pr[later]);
                pr[later] = NULL;
            }
        }
        tk_error e2;
        tk_error_clear(&e2);
        if (st == TK_OK)
            st = tk_dcfg_trace_bbv_part_slices(pr[0], t, cfg, th, print_slice, &out[right],
                                               right ? &e2 : err);
        for (size_t k = 0; k < nr; k++) tk_dcfg_trace_bbv_part_free(pr[k]);
    }
    return st;
}

/* The threads' slices with thread th cut as cuts says (the others whole), both groupings of
 * the merges, compared with the serial ones (want, wst, werr: up to the thread that fails). */
static void check_cut(const tk_dcfg_trace *t, const tk_cfg *cfg, const tk_dcfg_trace_bbv_options *o,
                      size_t th, const size_t *cuts, size_t ncuts, const char *want, tk_status wst,
                      const tk_error *werr)
{
    buf got[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
    put(&got[0], "", 0);
    put(&got[1], "", 0);
    tk_error err;
    tk_error_clear(&err);
    tk_status st = TK_OK;
    for (size_t k = 0; k < tk_dcfg_trace_thread_count(t) && st == TK_OK; k++)
        st = split_thread(t, cfg, o, k, k == th ? cuts : NULL, k == th ? ncuts : 0, got, &err);
    for (int right = 0; right < 2; right++) {
        int same = wst == TK_OK ? st == TK_OK && strcmp(got[right].p, want) == 0
                                : st != TK_OK && strcmp(err.message, werr->message) == 0 &&
                                      strncmp(got[right].p, want, got[right].len) == 0;
        if (!TK_CHECK(same))
            fprintf(stderr,
                    "  interval %llu%s -j %u, thread %zu cut %zu times (%zu...)%s: %s / %s\n",
                    (unsigned long long)o->interval, o->loop_boundaries ? " loops" : "", o->threads,
                    th, ncuts, ncuts ? cuts[0] : 0, right ? ", merged from the right" : "",
                    err.message, werr->message);
        free(got[right].p);
    }
}

/* Every cut of each thread in two, every pair of cuts of a thread of up to 8 chunks, and
 * random cuts into up to 5 ranges. */
static void check_cuts(const tk_dcfg_trace *t, const tk_cfg *cfg,
                       const tk_dcfg_trace_bbv_options *o, uint64_t seed)
{
    buf want = {NULL, 0, 0};
    put(&want, "", 0);
    tk_error werr;
    tk_error_clear(&werr);
    tk_status wst = tk_dcfg_trace_bbv(t, cfg, o, print_slice, &want, &werr);
    /* the pairs and the random cuts on one thread: -j N decodes each range as -j 1 does (the
     * single cuts check it), and every range's threads cost more than the rest of the test */
    tk_dcfg_trace_bbv_options o1 = *o;
    o1.threads = 1;
    rng r = {seed};
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        size_t lo = ti.first_chunk, hi = lo + ti.nchunks, cuts[4];
        for (size_t a = lo; a <= hi; a++) {
            cuts[0] = a;
            check_cut(t, cfg, o, th, cuts, 1, want.p, wst, &werr);
            for (size_t b = a; ti.nchunks <= 8 && b <= hi; b++) {
                cuts[1] = b;
                check_cut(t, cfg, &o1, th, cuts, 2, want.p, wst, &werr);
            }
        }
        for (int k = 0; k < 8; k++) {
            size_t n = 2 + (size_t)(next(&r) % 3);
            for (size_t i = 0; i < n; i++) cuts[i] = lo + (size_t)(next(&r) % (ti.nchunks + 1));
            for (size_t i = 1; i < n; i++) /* ascending */
                for (size_t j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
                    size_t x = cuts[j];
                    cuts[j] = cuts[j - 1];
                    cuts[j - 1] = x;
                }
            check_cut(t, cfg, &o1, th, cuts, n, want.p, wst, &werr);
        }
    }
    free(want.p);
}

static const uint64_t intervals[] = {1, 2, 3, 7, 50, 333, 100000, 1ULL << 40};

static void check_options(const tk_dcfg_trace *t, const tk_cfg *cfg, uint64_t seed)
{
    for (size_t i = 0; i < sizeof intervals / sizeof *intervals; i++)
        for (int loops = 0; loops < 2; loops++) {
            tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
            o.interval = intervals[i];
            o.loop_boundaries = loops;
            o.threads = i % 4 == 1 && seed % 2 ? 3 : 1; /* -j 3 now and then: threads cost */
            check_cuts(t, cfg, &o, seed + i);
        }
}

static void test_cuts_of_generated_traces(void)
{
    tk_cfg *cfg = NULL;
    TK_CHECK(tk_dcfg_read_path(&cfg, gen11_dcfg, NULL, NULL) == TK_OK);
    static const size_t lens[][3] = {{300, 0, 0}, {200, 1, 0}, {120, 30, 250}};
    static const size_t nthreads[] = {1, 2, 3};
    for (size_t c = 0; cfg && c < sizeof lens / sizeof *lens; c++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            tk_dcfg_trace *t =
                make_trace(cfg, seed + c * 10, nthreads[c], lens[c], 9 + seed * 7, 3 + seed * 8);
            if (t) check_options(t, cfg, seed);
            tk_dcfg_trace_free(t);
        }
    tk_cfg_free(cfg);
}

static void test_cuts_of_corpus_traces(void)
{
    static const char *const traces[][2] = {
        {"tests/data/dcfg_trace/pass/gen11.level0.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/gen11.intel.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/tailjump.trace.json",
         "tests/data/dcfg_trace/pass/tailjump.dcfg.json"},
        {"tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/fail/bad_instr_count.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/gen11.level0.trace.json",
         "tests/data/dcfg_trace/pass/tailjump.dcfg.json"}, /* a process the DCFG lacks */
    };
    for (size_t f = 0; f < sizeof traces / sizeof *traces; f++) {
        tk_dcfg_trace *t = NULL;
        tk_cfg *g = NULL;
        TK_CHECK(tk_dcfg_trace_open(&t, traces[f][0], NULL, NULL) == TK_OK);
        TK_CHECK(tk_dcfg_read_path(&g, traces[f][1], NULL, NULL) == TK_OK);
        if (t && g) check_options(t, g, f);
        tk_dcfg_trace_free(t);
        tk_cfg_free(g);
    }
}

/* A file's bytes (NULL when it cannot be read). */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    buf b = {NULL, 0, 0};
    char chunk[4096];
    size_t k;
    while (f && (k = fread(chunk, 1, sizeof chunk, f)) > 0) put(&b, chunk, k);
    if (f) fclose(f);
    *n = b.len;
    return b.p;
}

/* gen11's trace with its 4th chunk's sequence damaged (a character no sequence has): the
 * thread fails at that chunk, the same error in whichever range holds it. */
static void test_damaged_chunk(void)
{
    size_t n;
    char *text = slurp("tests/data/dcfg_trace/pass/gen11.level0.trace.json", &n);
    char *at = text ? strstr(text, "\"v-f-3-v-5-2\"") : NULL;
    if (!TK_CHECK(at != NULL)) {
        free(text);
        return;
    }
    at[10] = '!';
    tk_dcfg_trace *t = NULL;
    tk_cfg *g = NULL;
    TK_CHECK(tk_dcfg_trace_open_memory(&t, text, n, "damaged", NULL, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_read_path(&g, gen11_dcfg, NULL, NULL) == TK_OK);
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(t && g &&
             tk_dcfg_trace_bbv(t, g, NULL, print_slice, &(buf){NULL, 0, 0}, &err) == TK_ERR_FORMAT);
    if (t && g) check_options(t, g, 5);
    tk_dcfg_trace_free(t);
    tk_cfg_free(g);
    free(text);
}

/* A part's bytes cut short at every length are an error; with any byte changed, an error or
 * bytes that write themselves again (canonical); parts that do not follow are refused, and so
 * is a part that does not start its thread. */
static void test_bytes_refused(void)
{
    tk_dcfg_trace *t = NULL;
    tk_cfg *g = NULL;
    TK_CHECK(tk_dcfg_trace_open(&t, "tests/data/dcfg_trace/pass/gen11.intel.trace.json", NULL,
                                NULL) == TK_OK);
    TK_CHECK(tk_dcfg_read_path(&g, gen11_dcfg, NULL, NULL) == TK_OK);
    if (!t || !g) return;
    tk_dcfg_trace_bbv_options o = TK_DCFG_TRACE_BBV_OPTIONS_INIT;
    o.interval = 40;
    o.loop_boundaries = 1;
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, 0, &ti);
    size_t mid = ti.first_chunk + ti.nchunks / 2, end = ti.first_chunk + ti.nchunks;
    tk_dcfg_trace_bbv_part *a = NULL, *b = NULL;
    TK_CHECK(tk_dcfg_trace_bbv_part_open(&a, t, g, &o, 0, ti.first_chunk, mid, 0, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_trace_bbv_part_open(&b, t, g, &o, 0, mid, end, 7, NULL) == TK_OK);
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_dcfg_trace_bbv_part_merge(a, b, &err) == TK_ERR_ARG); /* 7 is not a's end */
    TK_CHECK(strstr(err.message, "do not follow") != NULL);
    TK_CHECK(tk_dcfg_trace_bbv_part_slices(b, t, g, 0, print_slice, &(buf){NULL, 0, 0}, &err) ==
             TK_ERR_ARG);
    uint8_t *d = NULL;
    size_t n = 0;
    TK_CHECK(tk_dcfg_trace_bbv_part_serialize(a, &d, &n, NULL) == TK_OK);
    tk_dcfg_trace_bbv_part *q = NULL;
    for (size_t k = 0; d && k < n; k++) {
        TK_CHECK(tk_dcfg_trace_bbv_part_deserialize(&q, d, k, &err) == TK_ERR_FORMAT);
        TK_CHECK(q == NULL);
    }
    for (size_t k = 0; d && k < n; k++)
        for (unsigned bit = 0; bit < 8; bit++) {
            d[k] ^= (uint8_t)(1u << bit);
            if (tk_dcfg_trace_bbv_part_deserialize(&q, d, n, &err) == TK_OK) {
                uint8_t *d2 = NULL;
                size_t n2 = 0;
                TK_CHECK(tk_dcfg_trace_bbv_part_serialize(q, &d2, &n2, NULL) == TK_OK);
                TK_CHECK(n2 == n && memcmp(d, d2, n) == 0);
                tk_free(d2);
                buf sink = {NULL, 0, 0};
                tk_dcfg_trace_bbv_part_slices(q, t, g, 0, print_slice, &sink, &err);
                free(sink.p);
                tk_dcfg_trace_bbv_part_free(q);
            }
            d[k] ^= (uint8_t)(1u << bit);
        }
    tk_free(d);
    tk_dcfg_trace_bbv_part_free(a);
    tk_dcfg_trace_bbv_part_free(b);
    tk_dcfg_trace_free(t);
    tk_cfg_free(g);
}

TK_TEST_MAIN(TK_CASE(test_cuts_of_generated_traces), TK_CASE(test_cuts_of_corpus_traces),
             TK_CASE(test_damaged_chunk), TK_CASE(test_bytes_refused))
