/* The profile of a DCFG-Trace made of ranges of its threads (tk_dcfg_trace_convert_options
 * thread_begin, thread_end), serialised (tk_dcfg_trace_profile_serialize), read back and
 * appended in order (tk_profile_append), as tracekit-mpi's ranks make and merge it: for every
 * cut of the threads into up to three ranges, and both groupings of the appends, the profile
 * is the one made of every thread at once (its dump, its callgrind text, its call graph), on
 * traces generated over gen11's DCFG: walks along its edges with calls, returns and jumps
 * into other routines, broken by jumps to anywhere (a chunk that starts elsewhere), in small
 * chunks, threads of other lengths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tk_test_dcfg_trace_gen.h"
#include "tracekit/tracekit.h"

static const char gen11_dcfg[] = "tests/data/dcfg_trace/pass/gen11.dcfg.json";

/* What the tests compare of a profile: its dump, its callgrind text and its call graph. */
static char *text_of(const tk_profile *p)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (!f) return NULL;
    TK_CHECK(tk_profile_dump(p, TK_TEST_WRITER(f), NULL) == TK_OK);
    tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    TK_CHECK(tk_callgrind_write(p, TK_TEST_WRITER(f), &wo, NULL) == TK_OK);
    tk_dot_options dot = TK_DOT_OPTIONS_INIT;
    TK_CHECK(tk_profile_write_dot(p, &dot, TK_TEST_WRITER(f), NULL) == TK_OK);
    fclose(f);
    return s;
}

/* The profile of threads [b, e), as bytes (NULL when the range is empty). */
static uint8_t *range_bytes(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t b, size_t e,
                            unsigned threads, size_t *size)
{
    *size = 0;
    if (b == e) return NULL;
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    o.thread_begin = b;
    o.thread_end = e;
    o.threads = threads;
    tk_profile *p;
    uint8_t *d = NULL;
    TK_CHECK(tk_profile_open(&p, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_trace_to_profile(t, cfg, p, &o, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_trace_profile_serialize(p, &d, size, NULL) == TK_OK);
    tk_profile_free(p);
    /* canonical: read back, it writes the same bytes */
    tk_profile *back = NULL;
    uint8_t *again = NULL;
    size_t n2 = 0;
    TK_CHECK(tk_dcfg_trace_profile_deserialize(&back, d, *size, NULL) == TK_OK);
    TK_CHECK(back && tk_dcfg_trace_profile_serialize(back, &again, &n2, NULL) == TK_OK);
    TK_CHECK(n2 == *size && again && memcmp(again, d, n2) == 0);
    tk_free(again);
    tk_profile_free(back);
    return d;
}

/* parts[0..n) (NULL: empty) merged as a reduction does: read, appended in order into the
 * first (left: ((a b) c); else a (b c)), written again. */
static tk_profile *merged(uint8_t **parts, const size_t *sizes, size_t n, int left)
{
    tk_profile *ps[3] = {NULL, NULL, NULL};
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (parts[i])
            TK_CHECK(tk_dcfg_trace_profile_deserialize(&ps[m++], parts[i], sizes[i], NULL) ==
                     TK_OK);
    if (m == 3 && !left) {
        TK_CHECK(tk_profile_append(ps[1], ps[2], NULL) == TK_OK);
        uint8_t *d;
        size_t len;
        TK_CHECK(tk_dcfg_trace_profile_serialize(ps[1], &d, &len, NULL) == TK_OK);
        tk_profile_free(ps[1]);
        tk_profile_free(ps[2]);
        TK_CHECK(tk_dcfg_trace_profile_deserialize(&ps[1], d, len, NULL) == TK_OK);
        tk_free(d);
        m = 2;
    }
    for (size_t i = 1; i < m; i++) {
        TK_CHECK(tk_profile_append(ps[0], ps[i], NULL) == TK_OK);
        tk_profile_free(ps[i]);
    }
    return ps[0];
}

/* Every cut of t's threads into three ranges (some empty), both groupings. */
static void check_cuts(const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned threads)
{
    size_t nt = tk_dcfg_trace_thread_count(t);
    tk_profile *whole;
    TK_CHECK(tk_profile_open(&whole, NULL) == TK_OK);
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    TK_CHECK(tk_dcfg_trace_to_profile(t, cfg, whole, &o, NULL) == TK_OK);
    char *want = text_of(whole);
    tk_profile_free(whole);
    for (size_t a = 0; a <= nt; a++)
        for (size_t b = a; b <= nt; b++) {
            uint8_t *parts[3];
            size_t sizes[3];
            parts[0] = range_bytes(t, cfg, 0, a, threads, &sizes[0]);
            parts[1] = range_bytes(t, cfg, a, b, threads, &sizes[1]);
            parts[2] = range_bytes(t, cfg, b, nt, threads, &sizes[2]);
            for (int left = 0; left < 2 && nt; left++) {
                tk_profile *m = merged(parts, sizes, 3, left);
                char *got = m ? text_of(m) : NULL;
                if (!TK_CHECK(got && want && strcmp(got, want) == 0))
                    fprintf(stderr, "  %zu threads cut at %zu and %zu (left %d)\n", nt, a, b, left);
                free(got);
                tk_profile_free(m);
            }
            for (int i = 0; i < 3; i++) tk_free(parts[i]);
        }
    free(want);
}

static void test_cuts_of_generated_traces(void)
{
    tk_cfg *cfg = NULL;
    TK_CHECK(tk_dcfg_read_path(&cfg, gen11_dcfg, NULL, NULL) == TK_OK);
    static const size_t lens[][5] = {
        {300, 0, 0, 0, 0},      {200, 500, 0, 0, 0}, {400, 30, 250, 0, 0},
        {150, 150, 1, 600, 80}, {0, 90, 300, 0, 40},
    };
    static const size_t nthreads[] = {1, 2, 3, 5, 5};
    for (size_t c = 0; cfg && c < sizeof lens / sizeof *lens; c++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            size_t n = nthreads[c];
            size_t l[5];
            for (size_t k = 0; k < n; k++) l[k] = lens[c][k];
            if (l[0] == 0) l[0] = 1; /* a thread of one edge (the trace needs a first one) */
            tk_dcfg_trace *t = make_trace(cfg, seed + c * 10, n, l, 7 + seed * 13, 5 + seed * 10);
            if (t) check_cuts(t, cfg, seed == 2 ? 3 : 1);
            tk_dcfg_trace_free(t);
        }
    tk_cfg_free(cfg);
}

/* The corpus's traces of gen11 (two threads) and tailjump (one). */
static void test_cuts_of_corpus_traces(void)
{
    static const char *const traces[][2] = {
        {"tests/data/dcfg_trace/pass/gen11.level0.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/gen11.level9.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/gen11.intel.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/tailjump.trace.json",
         "tests/data/dcfg_trace/pass/tailjump.dcfg.json"},
    };
    for (size_t f = 0; f < sizeof traces / sizeof *traces; f++) {
        tk_dcfg_trace *t = NULL;
        tk_cfg *cfg = NULL;
        TK_CHECK(tk_dcfg_trace_open(&t, traces[f][0], NULL, NULL) == TK_OK);
        TK_CHECK(tk_dcfg_read_path(&cfg, traces[f][1], NULL, NULL) == TK_OK);
        if (t && cfg) check_cuts(t, cfg, 1);
        tk_dcfg_trace_free(t);
        tk_cfg_free(cfg);
    }
}

/* Damaged bytes are refused (every prefix, a byte more, a string twice), never read past. */
static void test_deserialize_refuses(void)
{
    tk_dcfg_trace *t = NULL;
    tk_cfg *cfg = NULL;
    TK_CHECK(tk_dcfg_trace_open(&t, "tests/data/dcfg_trace/pass/gen11.level9.trace.json", NULL,
                                NULL) == TK_OK);
    TK_CHECK(tk_dcfg_read_path(&cfg, gen11_dcfg, NULL, NULL) == TK_OK);
    if (!t || !cfg) return;
    size_t n;
    uint8_t *d = range_bytes(t, cfg, 0, 2, 1, &n);
    tk_profile *bad = NULL;
    tk_error err;
    for (size_t cut = 0; d && cut < n; cut++)
        TK_CHECK(tk_dcfg_trace_profile_deserialize(&bad, d, cut, &err) == TK_ERR_FORMAT);
    uint8_t *more = malloc(n + 1);
    if (d && more) {
        memcpy(more, d, n);
        more[n] = 0;
        TK_CHECK(tk_dcfg_trace_profile_deserialize(&bad, more, n + 1, &err) == TK_ERR_FORMAT);
        TK_CHECK_STR(err.message, "DCFG-Trace profile: bytes after the profile");
        /* the second string made the first's copy: "Ir" twice */
        memcpy(more, d, n);
        TK_CHECK(more[5] >= 2 && more[6] == 2 && more[7] == 'I' && more[8] == 'r');
        more[9] = 2, more[10] = 'I', more[11] = 'r';
        TK_CHECK(tk_dcfg_trace_profile_deserialize(&bad, more, n, &err) == TK_ERR_FORMAT);
    }
    free(more);
    TK_CHECK(bad == NULL);
    tk_free(d);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

/* The profile made thread by thread from the ranges of each thread's chunks: thread k's
 * chunks [first, first + nchunks) cut at cuts[k][0..ncuts[k]) (global indexes, ascending). */
static char *replayed(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t *const *cuts,
                      const size_t *ncuts, unsigned threads, tk_status *st, tk_error *err)
{
    tk_profile *p;
    TK_CHECK(tk_profile_open(&p, NULL) == TK_OK);
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    o.threads = threads;
    *st = TK_OK;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && *st == TK_OK; th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        uint8_t *parts[8];
        size_t sizes[8], n = 0, at = ti.first_chunk;
        for (size_t c = 0; c <= ncuts[th]; c++) {
            size_t end = c < ncuts[th] ? cuts[th][c] : ti.first_chunk + ti.nchunks;
            TK_CHECK(tk_dcfg_trace_profile_range(t, cfg, th, at, end, &o, &parts[n], &sizes[n],
                                                 NULL) == TK_OK);
            n++;
            at = end;
        }
        *st = tk_dcfg_trace_profile_replay(t, cfg, p, th, (const uint8_t *const *)parts, sizes, n,
                                           err);
        for (size_t i = 0; i < n; i++) tk_free(parts[i]);
    }
    char *text = *st == TK_OK ? text_of(p) : NULL;
    tk_profile_free(p);
    return text;
}

/* Every thread's chunks cut at every boundary (one cut), and at every pair of boundaries for
 * threads of few chunks, the others whole: the serial profile, or its error. */
static void check_chunk_cuts(const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned threads)
{
    tk_profile *whole;
    TK_CHECK(tk_profile_open(&whole, NULL) == TK_OK);
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    tk_error werr, gerr;
    tk_error_clear(&werr);
    tk_status wst = tk_dcfg_trace_to_profile(t, cfg, whole, &o, &werr);
    char *want = wst == TK_OK ? text_of(whole) : NULL;
    tk_profile_free(whole);
    size_t nt = tk_dcfg_trace_thread_count(t);
    size_t none[8][2], *cuts[8], ncuts[8];
    for (size_t th = 0; th < nt && th < 8; th++) {
        cuts[th] = none[th];
        ncuts[th] = 0;
    }
    for (size_t th = 0; th < nt && th < 8; th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        size_t lo = ti.first_chunk, hi = ti.first_chunk + ti.nchunks;
        for (size_t a = lo; a <= hi; a++)
            for (size_t b = a; b <= hi; b++) {
                if (b != a && ti.nchunks > 12) continue;
                none[th][0] = a;
                none[th][1] = b;
                ncuts[th] = b == a ? 1 : 2;
                tk_status st;
                tk_error_clear(&gerr);
                char *got = replayed(t, cfg, cuts, ncuts, threads, &st, &gerr);
                int same = st == wst && (wst != TK_OK ? strcmp(gerr.message, werr.message) == 0
                                                      : got && want && strcmp(got, want) == 0);
                if (!TK_CHECK(same))
                    fprintf(stderr, "  thread %zu cut at %zu and %zu: %d %s / %d %s\n", th, a, b,
                            (int)st, gerr.message, (int)wst, werr.message);
                free(got);
            }
        ncuts[th] = 0;
    }
    free(want);
}

static void test_chunk_cuts(void)
{
    tk_cfg *cfg = NULL;
    TK_CHECK(tk_dcfg_read_path(&cfg, gen11_dcfg, NULL, NULL) == TK_OK);
    static const size_t lens[][3] = {{300, 0, 0}, {200, 500, 0}, {400, 30, 250}};
    static const size_t nthreads[] = {1, 2, 3};
    for (size_t c = 0; cfg && c < sizeof lens / sizeof *lens; c++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            tk_dcfg_trace *t =
                make_trace(cfg, seed + c * 10, nthreads[c], lens[c], 7 + seed * 5, 3 + seed * 8);
            if (t) check_chunk_cuts(t, cfg, seed == 2 ? 3 : 1);
            tk_dcfg_trace_free(t);
        }
    static const char *const traces[][2] = {
        {"tests/data/dcfg_trace/pass/gen11.level0.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/gen11.intel.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/tailjump.trace.json",
         "tests/data/dcfg_trace/pass/tailjump.dcfg.json"},
        {"tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json", gen11_dcfg},
    };
    for (size_t f = 0; f < sizeof traces / sizeof *traces; f++) {
        tk_dcfg_trace *t = NULL;
        tk_cfg *g = NULL;
        TK_CHECK(tk_dcfg_trace_open(&t, traces[f][0], NULL, NULL) == TK_OK);
        TK_CHECK(tk_dcfg_read_path(&g, traces[f][1], NULL, NULL) == TK_OK);
        if (t && g) check_chunk_cuts(t, g, 1);
        tk_dcfg_trace_free(t);
        tk_cfg_free(g);
    }
    tk_cfg_free(cfg);
}

TK_TEST_MAIN(TK_CASE(test_chunk_cuts), TK_CASE(test_cuts_of_generated_traces),
             TK_CASE(test_cuts_of_corpus_traces), TK_CASE(test_deserialize_refuses))
