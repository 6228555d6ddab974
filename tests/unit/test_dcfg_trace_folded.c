/* The folded stacks of a DCFG-Trace made of each thread's chunks cut into ranges
 * (tk_dcfg_trace_folded_range) and replayed thread by thread (tk_dcfg_trace_folded_replay), as
 * tracekit-mpi's ranks make and rank 0 takes them: with every thread's chunks cut at every
 * chunk boundary (and at every pair of boundaries for threads of up to 12 chunks), the
 * others whole, on one and three decoding threads, with and without per-thread roots, the
 * bytes tk_export_folded writes of the trace's events, or its error (status and message). On
 * traces generated over gen11's DCFG (walks along its edges with calls, returns and jumps into
 * other routines, broken by jumps to anywhere), the corpus's, one whose chunks' instruction
 * counts go back (self times clamped as tk_callstacks clamps them) and one with an edge the
 * DCFG lacks; and bytes that are no partial refused, never read past. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tk_test_dcfg_trace_gen.h"
#include "tracekit/tracekit.h"

static const char gen11_dcfg[] = "tests/data/dcfg_trace/pass/gen11.dcfg.json";

/* Every third chunk row of the trace text in b made to start at a third of its
 * PRECEDING_INSTR_COUNT: before where the chunk before it ended, so that frames open across it
 * close before they opened (their durations and self times 0, tk_callstacks' clamps). */
static void back_in_time(buf *b)
{
    buf o = {NULL, 0, 0};
    size_t k = 0;
    for (char *at = b->p, *end = b->p + b->len; at < end;) {
        char *nl = memchr(at, '\n', (size_t)(end - at));
        size_t n = nl ? (size_t)(nl - at) + 1 : (size_t)(end - at);
        if (n > 9 && memcmp(at, "      [ ", 8) == 0 && at[8] >= '0' && at[8] <= '9' &&
            k++ % 3 == 2) {
            char *q;
            unsigned long long v = strtoull(at + 8, &q, 10);
            char num[32];
            snprintf(num, sizeof num, "      [ %llu", v / 3);
            put(&o, num, strlen(num));
            put(&o, q, n - (size_t)(q - at));
        } else {
            put(&o, at, n);
        }
        at += n;
    }
    free(b->p);
    *b = o;
}

/* The serial folded stacks of t (tk_export_folded of its events), or its error. */
static char *serial(const tk_dcfg_trace *t, const tk_cfg *cfg, int per_thread, tk_status *st,
                    tk_error *err)
{
    tk_dcfg_trace_events *x;
    TK_CHECK(tk_dcfg_trace_events_open(&x, t, cfg, NULL, NULL) == TK_OK);
    tk_event_source src;
    tk_dcfg_trace_events_source(x, &src);
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    *st = tk_export_folded(&src, TK_TEST_WRITER(f), TK_FOLDED_TIME, per_thread, err);
    fclose(f);
    tk_dcfg_trace_events_free(x);
    if (*st != TK_OK) {
        free(s);
        return NULL;
    }
    return s;
}

/* Thread th's chunks [lo, hi) cut at cuts[0..ncuts) into ranges: their partials. */
static size_t thread_parts(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t th, const size_t *cuts,
                           size_t ncuts, unsigned threads, uint8_t **parts, size_t *sizes)
{
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    o.threads = threads;
    size_t n = 0, at = ti.first_chunk;
    for (size_t c = 0; c <= ncuts; c++) {
        size_t end = c < ncuts ? cuts[c] : ti.first_chunk + ti.nchunks;
        tk_error err;
        tk_status st =
            tk_dcfg_trace_folded_range(t, cfg, th, at, end, &o, &parts[n], &sizes[n], &err);
        if (st != TK_OK) { /* the process is not in the DCFG: the replay says it */
            parts[n] = NULL;
            sizes[n] = 0;
        }
        n++;
        at = end;
    }
    return n;
}

/* The folded stacks replayed thread by thread from the ranges of each thread's chunks: thread
 * k's chunks cut at cuts[k][0..ncuts[k]) (global indexes, ascending). */
static char *replayed(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t *const *cuts,
                      const size_t *ncuts, unsigned threads, int per_thread, tk_status *st,
                      tk_error *err)
{
    tk_dcfg_trace_folded *f;
    TK_CHECK(tk_dcfg_trace_folded_open(&f, t, cfg, per_thread, NULL) == TK_OK);
    *st = TK_OK;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && *st == TK_OK; th++) {
        uint8_t *parts[8];
        size_t sizes[8];
        size_t n = thread_parts(t, cfg, th, cuts[th], ncuts[th], threads, parts, sizes);
        *st = tk_dcfg_trace_folded_replay(f, th, (const uint8_t *const *)parts, sizes, n, err);
        for (size_t i = 0; i < n; i++) tk_free(parts[i]);
    }
    char *s = NULL;
    if (*st == TK_OK) {
        size_t len = 0;
        FILE *out = open_memstream(&s, &len);
        TK_CHECK(tk_dcfg_trace_folded_write(f, TK_TEST_WRITER(out), NULL) == TK_OK);
        fclose(out);
    } else {
        TK_CHECK(tk_dcfg_trace_folded_write(f, TK_TEST_WRITER(stdout), NULL) == TK_ERR_ARG);
    }
    tk_dcfg_trace_folded_free(f);
    return s;
}

/* Every thread's chunks cut at every boundary (one cut), and at every pair of boundaries for
 * threads of few chunks, the others whole: the serial stacks, or their error. */
static void check_chunk_cuts(const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned threads,
                             int per_thread)
{
    tk_error werr, gerr;
    tk_error_clear(&werr);
    tk_status wst;
    char *want = serial(t, cfg, per_thread, &wst, &werr);
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
                char *got = replayed(t, cfg, cuts, ncuts, threads, per_thread, &st, &gerr);
                int same = st == wst && (wst != TK_OK ? strcmp(gerr.message, werr.message) == 0 &&
                                                            gerr.offset == werr.offset
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

static void test_chunk_cuts_generated(void)
{
    tk_cfg *cfg = NULL;
    TK_CHECK(tk_dcfg_read_path(&cfg, gen11_dcfg, NULL, NULL) == TK_OK);
    static const size_t lens[][3] = {{300, 0, 0}, {200, 500, 0}, {400, 30, 250}, {1, 600, 1}};
    static const size_t nthreads[] = {1, 2, 3, 3};
    for (size_t c = 0; cfg && c < sizeof lens / sizeof *lens; c++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            tk_dcfg_trace *t =
                make_trace(cfg, seed + c * 10, nthreads[c], lens[c], 7 + seed * 5, 3 + seed * 8);
            if (t) check_chunk_cuts(t, cfg, seed == 2 ? 3 : 1, seed % 2 == 0);
            tk_dcfg_trace_free(t);
            /* other walks, their chunks going back in time */
            t = make_trace_edited(cfg, 100 + seed + c * 10, nthreads[c], lens[c], 7 + seed * 5,
                                  3 + seed * 8, back_in_time);
            if (t) check_chunk_cuts(t, cfg, seed == 3 ? 3 : 1, seed % 2 == 1);
            tk_dcfg_trace_free(t);
        }
    tk_cfg_free(cfg);
}

static void check_file(const char *trace, const char *dcfg)
{
    tk_dcfg_trace *t = NULL;
    tk_cfg *g = NULL;
    TK_CHECK(tk_dcfg_trace_open(&t, trace, NULL, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_read_path(&g, dcfg, NULL, NULL) == TK_OK);
    for (int pt = 0; t && g && pt < 2; pt++) {
        check_chunk_cuts(t, g, 1, pt);
        check_chunk_cuts(t, g, 3, pt);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(g);
}

static void test_chunk_cuts_corpus(void)
{
    check_file("tests/data/dcfg_trace/pass/gen11.level0.trace.json", gen11_dcfg);
    check_file("tests/data/dcfg_trace/pass/gen11.level9.trace.json", gen11_dcfg);
    check_file("tests/data/dcfg_trace/pass/gen11.intel.trace.json", gen11_dcfg);
    check_file("tests/data/dcfg_trace/pass/tailjump.trace.json",
               "tests/data/dcfg_trace/pass/tailjump.dcfg.json");
    check_file("tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json", gen11_dcfg);
}

/* gen11.level0 with the instruction counts of chunks going back (PRECEDING_INSTR_COUNT below
 * where the chunk before ended: durations and self times clamped at 0, as tk_callstacks
 * clamps them), a damaged chunk, and a thread of a process the DCFG lacks. */
static void check_edited(const char *from, const char *to, const char *from2, const char *to2)
{
    FILE *f = fopen("tests/data/dcfg_trace/pass/gen11.level0.trace.json", "rb");
    char text[8192];
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[len] = 0;
    TK_CHECK(len > 0 && len < sizeof text - 64);
    char *at = strstr(text, from);
    if (!TK_CHECK(at != NULL)) return;
    char out[8192];
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    if (from2) {
        memcpy(text, out, strlen(out) + 1);
        at = strstr(text, from2);
        if (!TK_CHECK(at != NULL)) return;
        snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to2, at + strlen(from2));
    }
    tk_dcfg_trace *t = NULL;
    tk_cfg *g = NULL;
    TK_CHECK(tk_dcfg_trace_open_memory(&t, out, strlen(out), "edited", NULL, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_read_path(&g, gen11_dcfg, NULL, NULL) == TK_OK);
    for (int pt = 0; t && g && pt < 2; pt++) {
        check_chunk_cuts(t, g, 1, pt);
        check_chunk_cuts(t, g, 3, pt);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(g);
}

static void test_chunk_cuts_edited(void)
{
    /* thread 0's 3rd and 5th chunks start before the chunk before them ended */
    check_edited("[ 1415, 708, 70, 122", "[ 700, 708, 70, 122", "[ 2831, 705, 69, 124",
                 "[ 10, 705, 69, 124");
    /* thread 1's 4th chunk far back, its 5th far ahead */
    check_edited("[ 2123, 708, 74, 124, \"v-f-3-v-5-2\" ],\n      [ 2831, 705, 69, 124, "
                 "\"-9-7-+-9--Y\" ],\n      [ 3536, 434",
                 "[ 5, 708, 74, 124, \"v-f-3-v-5-2\" ],\n      [ 999999, 705, 69, 124, "
                 "\"-9-7-+-9--Y\" ],\n      [ 3536, 434",
                 NULL, NULL);
    /* a damaged 4th chunk of thread 0 (a character that is no digit of the sequence's) */
    check_edited("\"v-f-3-v-5-2\"", "\"v-f-3-v-5-!\"", NULL, NULL);
    /* thread 1's chunks claim more edges than the sequence holds (it runs out of bits) */
    check_edited("[ 711, 704, 71, 124, \"-v-f-3-v-7+\" ],\n      [ 1415",
                 "[ 711, 704, 999, 124, \"-v-f-3-v-7+\" ],\n      [ 1415", NULL, NULL);
    /* empty chunks (the time set to their PRECEDING_INSTR_COUNT): in the middle of thread 0,
     * at the end of thread 1, where its frames close */
    check_edited("[ 1415, 708, 70, 122", "[ 1415, 0, 0, 122, \"\" ],\n      [ 1415, 708, 70, 122",
                 "\"-v----Q\" ] ] ]", "\"-v----Q\" ],\n      [ 9999, 0, 0, 122, \"\" ] ] ]");
    /* thread 0's 5th chunk starts 616 instructions short of 2^64 and claims 600 of its 705:
     * the count overflows in it */
    check_edited("[ 2831, 705, 69, 124", "[ 18446744073709551000, 600, 69, 124", NULL, NULL);
    /* the process is not gen11's */
    check_edited("[ 77, { },", "[ 78, { },", NULL, NULL);
}

/* A range's bytes cut short, a byte changed, bytes of another thread: an error or stacks,
 * never a crash nor a read past them. */
static void test_replay_refuses(void)
{
    tk_dcfg_trace *t = NULL;
    tk_cfg *cfg = NULL;
    TK_CHECK(tk_dcfg_trace_open(&t, "tests/data/dcfg_trace/pass/gen11.level9.trace.json", NULL,
                                NULL) == TK_OK);
    TK_CHECK(tk_dcfg_read_path(&cfg, gen11_dcfg, NULL, NULL) == TK_OK);
    if (!t || !cfg) return;
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, 0, &ti);
    uint8_t *d;
    size_t n;
    TK_CHECK(tk_dcfg_trace_folded_range(t, cfg, 0, ti.first_chunk + 2, ti.first_chunk + ti.nchunks,
                                        NULL, &d, &n, NULL) == TK_OK);
    unsigned refused = 0;
    uint8_t *copy = malloc(n);
    for (size_t i = 0; copy && i <= 2 * n; i++) {
        size_t size = i <= n ? i : n;
        memcpy(copy, d, n);
        if (i > n) copy[i - n - 1] ^= (uint8_t)(0x5a + i);
        /* a copy of exactly size bytes: ASan finds a read past them */
        uint8_t *exact = malloc(size ? size : 1);
        memcpy(exact, copy, size);
        tk_dcfg_trace_folded *f;
        TK_CHECK(tk_dcfg_trace_folded_open(&f, t, cfg, (int)(i & 1), NULL) == TK_OK);
        const uint8_t *parts[1] = {exact};
        tk_error err;
        tk_status st = tk_dcfg_trace_folded_replay(f, 0, parts, &size, 1, &err);
        TK_CHECK(st == TK_OK || st == TK_ERR_FORMAT || st == TK_ERR_LIMIT);
        refused += st != TK_OK;
        if (st == TK_OK) {
            FILE *out = fopen("/dev/null", "w");
            TK_CHECK(tk_dcfg_trace_folded_write(f, TK_TEST_WRITER(out), NULL) == TK_OK);
            fclose(out);
        }
        tk_dcfg_trace_folded_free(f);
        free(exact);
    }
    TK_CHECK(refused > n / 2);
    /* the whole bytes without the chunks before them: a stack of another start, no error */
    const uint8_t *whole[1] = {d};
    tk_dcfg_trace_folded *f;
    TK_CHECK(tk_dcfg_trace_folded_open(&f, t, cfg, 0, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_trace_folded_replay(f, 0, whole, &n, 1, NULL) == TK_OK);
    TK_CHECK(tk_dcfg_trace_folded_replay(f, 1, whole, &n, 1, NULL) == TK_OK);
    tk_dcfg_trace_folded_free(f);
    free(copy);
    tk_free(d);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

TK_TEST_MAIN(TK_CASE(test_chunk_cuts_generated), TK_CASE(test_chunk_cuts_corpus),
             TK_CASE(test_chunk_cuts_edited), TK_CASE(test_replay_refuses))
