/* Events profile partials (tracekit/events_profile.h): the partials of consecutive sources,
 * merged in every grouping, make the profile tk_events_profile makes of the sources chained,
 * written as Callgrind and as a call graph byte for byte, with and without threads: of
 * scripted sources whose functions first appear in other orders, with calls still open at
 * their end, on a clock whose ns are not whole ticks, and of XRay traces (with a map, one cut
 * short); their bytes read back; partials of another clock or per_thread refused; the limit
 * of threads per thread met as tk_events_profile meets it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

#define X "tests/data/xray/pass/"

/* ---- scripted sources ------------------------------------------------------------------ */

/* One event: thread index (its tid is 100 + it), 'e' enter or 'x' exit, function, time. */
typedef struct step {
    uint32_t thread;
    char kind;
    uint64_t func, time;
} step;

typedef struct script {
    const step *steps;
    size_t n, at;
    double ticks_per_second;
} script;

static tk_status script_next(void *ctx, tk_event *ev, tk_error *err)
{
    (void)err;
    script *s = ctx;
    if (s->at == s->n) return TK_END;
    const step *x = &s->steps[s->at++];
    memset(ev, 0, sizeof *ev);
    ev->kind = x->kind == 'e' ? TK_EVENT_ENTER : TK_EVENT_EXIT;
    ev->thread = x->thread;
    ev->pid = 7;
    ev->tid = 100 + (int64_t)x->thread;
    ev->func = x->func;
    ev->time = x->time;
    return TK_OK;
}

static const char *script_name(void *ctx, uint64_t func, char *buf, size_t size)
{
    (void)ctx;
    snprintf(buf, size, "f%llu", (unsigned long long)func);
    return buf;
}

static int script_location(void *ctx, uint64_t func, const char **file, uint32_t *line)
{
    (void)ctx;
    if (func % 2) return 0; /* the odd ones: unknown */
    *file = func % 4 ? "a.c" : "b.c";
    *line = (uint32_t)func * 10;
    return 1;
}

static tk_event_source script_source(script *s)
{
    s->at = 0;
    tk_event_source src;
    memset(&src, 0, sizeof src);
    src.ctx = s;
    src.next = script_next;
    src.name = script_name;
    src.location = script_location;
    src.ticks_per_second = s->ticks_per_second;
    src.time_unit = "ticks";
    return src;
}

/* Four runs: functions that first appear in other orders; calls left open at the end (3 in
 * the first, which the second closes; 5 in the second, which the third calls); a thread
 * index skipped (the third has thread 1 only); recursion. */
static const step run0[] = {{0, 'e', 1, 10}, {0, 'e', 2, 13}, {0, 'x', 2, 20}, {1, 'e', 4, 21},
                            {0, 'e', 3, 22}, {1, 'x', 4, 29}, {0, 'e', 6, 31}};
static const step run1[] = {{0, 'e', 3, 5},  {0, 'e', 2, 7},  {0, 'e', 2, 9},  {0, 'x', 2, 12},
                            {0, 'x', 2, 17}, {0, 'x', 3, 18}, {0, 'e', 5, 19}, {0, 'e', 7, 23},
                            {1, 'e', 1, 30}, {1, 'x', 1, 33}};
static const step run2[] = {{1, 'e', 5, 3}, {1, 'x', 5, 8}, {1, 'e', 1, 9}, {1, 'e', 8, 11}};
static const step run3[] = {{0, 'e', 8, 1},  {0, 'e', 6, 4},  {0, 'x', 6, 6},  {0, 'x', 8, 9},
                            {2, 'e', 4, 10}, {2, 'e', 3, 14}, {2, 'x', 3, 15}, {0, 'e', 2, 16}};

#define NRUNS 4

/* ---- what is compared -------------------------------------------------------------------- */

static tk_status write_cg(const void *p, const tk_writer *w, tk_error *err)
{
    tk_callgrind_write_options o = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    return tk_callgrind_write(p, w, &o, err);
}

static tk_status write_dot(const void *p, const tk_writer *w, tk_error *err)
{
    tk_dot_options o = TK_DOT_OPTIONS_INIT;
    o.event_per_second = 1e9;
    return tk_profile_write_dot(p, &o, w, err);
}

/* The Callgrind and dot text of p, one after the other (NULL: p is NULL). */
static char *texts_of(const tk_profile *p)
{
    if (!p) return NULL;
    char *cg = tk_test_text_of(write_cg, p), *dot = tk_test_text_of(write_dot, p);
    char *both = cg && dot ? malloc(strlen(cg) + strlen(dot) + 1) : NULL;
    if (both) {
        strcpy(both, cg);
        strcat(both, dot);
    }
    free(cg);
    free(dot);
    return both;
}

/* The profile of srcs[0..n) chained, as tk_events_profile makes it. */
static char *chained_text(const tk_event_source *srcs, size_t n, const char *object, int per_thread)
{
    tk_event_chain chain;
    tk_event_source src;
    tk_profile *p = NULL;
    if (!TK_CHECK(tk_event_chain_init(&chain, srcs, n, &src, NULL) == TK_OK) ||
        !TK_CHECK(tk_events_profile(&src, object, per_thread, &p, NULL) == TK_OK))
        return NULL;
    char *t = texts_of(p);
    tk_profile_free(p);
    return t;
}

/* The partial of srcs[0..n) chained. */
static tk_events_profile_partial *partial_of(const tk_event_source *srcs, size_t n, int per_thread)
{
    tk_event_chain chain;
    tk_event_source src;
    tk_events_profile_partial *p = NULL;
    if (!TK_CHECK(tk_event_chain_init(&chain, srcs, n, &src, NULL) == TK_OK) ||
        !TK_CHECK(tk_events_profile_partial_open(&p, &src, per_thread, NULL) == TK_OK))
        return NULL;
    return p;
}

/* p's bytes read back: the same bytes; cut anywhere, refused. Returns the copy (p freed). */
static tk_events_profile_partial *through_bytes(tk_events_profile_partial *p)
{
    uint8_t *bytes = NULL, *again = NULL;
    size_t n = 0, n2 = 0;
    tk_events_profile_partial *back = NULL;
    if (!p || !TK_CHECK(tk_events_profile_partial_serialize(p, &bytes, &n, NULL) == TK_OK)) {
        tk_events_profile_partial_free(p);
        return NULL;
    }
    TK_CHECK(tk_events_profile_partial_deserialize(&back, bytes, n, NULL) == TK_OK);
    TK_CHECK(back && tk_events_profile_partial_serialize(back, &again, &n2, NULL) == TK_OK &&
             n2 == n && memcmp(bytes, again, n) == 0);
    for (size_t cut = 0; cut < n; cut += 1 + n / 97) {
        tk_events_profile_partial *bad = NULL;
        TK_CHECK(tk_events_profile_partial_deserialize(&bad, bytes, cut, NULL) == TK_ERR_FORMAT);
        TK_CHECK(bad == NULL);
    }
    tk_free(bytes);
    tk_free(again);
    tk_events_profile_partial_free(p);
    return back;
}

static char *profile_text(const tk_events_profile_partial *p, const char *object)
{
    tk_profile *prof = NULL;
    if (!p || !TK_CHECK(tk_events_profile_partial_profile(p, object, &prof, NULL) == TK_OK))
        return NULL;
    char *t = texts_of(prof);
    tk_profile_free(prof);
    return t;
}

/* srcs[0..n), scripted sources, back at their first event. */
static const tk_event_source *rewound(const tk_event_source *srcs, size_t n)
{
    for (size_t k = 0; k < n; k++) ((script *)srcs[k].ctx)->at = 0;
    return srcs;
}

/* Every split of srcs[0..n) into consecutive groups (a bit k of `cuts`: a group ends after
 * source k), each group's partial made of its sources chained, merged from the left and, with
 * three groups or more, from the right too, through their bytes: each the chained profile. */
static void check_groupings(const tk_event_source *srcs, size_t n, const char *object,
                            int per_thread)
{
    char *want = chained_text(rewound(srcs, n), n, object, per_thread);
    if (!want) return;
    TK_CHECK(strlen(want) > 100);
    for (unsigned cuts = 0; cuts < 1u << (n - 1); cuts++) {
        tk_events_profile_partial *g[8];
        size_t ng = 0, from = 0;
        for (size_t k = 0; k < n; k++)
            if (k == n - 1 || (cuts >> k & 1)) {
                g[ng++] = through_bytes(
                    partial_of(rewound(srcs + from, k + 1 - from), k + 1 - from, per_thread));
                from = k + 1;
            }
        int ok = 1;
        for (size_t k = 0; k < ng; k++) ok &= g[k] != NULL;
        tk_events_profile_partial *right = NULL;
        if (ok && ng >= 3) {
            /* the groups again, merged from the right */
            tk_events_profile_partial *h[8];
            size_t nh = 0;
            from = 0;
            for (size_t k = 0; k < n; k++)
                if (k == n - 1 || (cuts >> k & 1)) {
                    h[nh++] =
                        partial_of(rewound(srcs + from, k + 1 - from), k + 1 - from, per_thread);
                    from = k + 1;
                }
            for (size_t k = nh - 1; k-- > 0;) {
                if (h[k] && h[k + 1])
                    TK_CHECK(tk_events_profile_partial_merge(h[k], h[k + 1], NULL) == TK_OK);
                tk_events_profile_partial_free(h[k + 1]);
            }
            right = through_bytes(h[0]);
        }
        for (size_t k = 1; ok && k < ng; k++)
            TK_CHECK(tk_events_profile_partial_merge(g[0], g[k], NULL) == TK_OK);
        char *left_text = ok ? profile_text(g[0], object) : NULL;
        TK_CHECK(left_text && strcmp(left_text, want) == 0);
        if (right) {
            char *right_text = profile_text(right, object);
            TK_CHECK(right_text && strcmp(right_text, want) == 0);
            free(right_text);
        }
        if (left_text && strcmp(left_text, want) != 0)
            fprintf(stderr, "  grouping %u (per_thread %d): got\n%s\n  want\n%s\n", cuts,
                    per_thread, left_text, want);
        free(left_text);
        tk_events_profile_partial_free(right);
        for (size_t k = 0; k < ng; k++) tk_events_profile_partial_free(g[k]);
    }
    free(want);
}

static void test_scripted(void)
{
    static script runs[NRUNS] = {
        {run0, sizeof run0 / sizeof *run0, 0, 2.445e9},
        {run1, sizeof run1 / sizeof *run1, 0, 2.445e9},
        {run2, sizeof run2 / sizeof *run2, 0, 2.445e9},
        {run3, sizeof run3 / sizeof *run3, 0, 2.445e9},
    };
    tk_event_source srcs[NRUNS];
    for (int k = 0; k < NRUNS; k++) srcs[k] = script_source(&runs[k]);
    for (int per_thread = 0; per_thread < 2; per_thread++) {
        check_groupings(srcs, NRUNS, NULL, per_thread);
        check_groupings(srcs, NRUNS, "/bin/app", per_thread);
        /* the other order: what appeared first now appears last */
        tk_event_source back[NRUNS];
        for (int k = 0; k < NRUNS; k++) back[k] = srcs[NRUNS - 1 - k];
        check_groupings(back, NRUNS, NULL, per_thread);
    }
}

/* ---- XRay traces --------------------------------------------------------------------- */

typedef struct trace {
    tk_input *in;
    tk_xray_reader *r;
    tk_xray_events *e;
    tk_event_source src;
} trace;

static int trace_open(trace *t, const char *path, const tk_xray_map *map)
{
    memset(t, 0, sizeof *t);
    tk_xray_options o = TK_XRAY_OPTIONS_INIT;
    o.partial = 1; /* a trace cut short: what was recorded before the cut */
    return TK_CHECK(tk_input_open(&t->in, path, NULL, NULL) == TK_OK &&
                    tk_xray_open(&t->r, t->in, &o, NULL) == TK_OK &&
                    tk_xray_events_open(&t->e, t->r, map, NULL) == TK_OK) &&
           (tk_xray_events_source(t->e, &t->src), 1);
}

static void trace_close(trace *t)
{
    tk_xray_events_free(t->e);
    tk_xray_free(t->r);
    tk_input_free(t->in);
}

/* The XRay sources can be read once: each grouping opens them anew. */
static char *xray_chained(const char *const *paths, size_t n, const tk_xray_map *map,
                          int per_thread)
{
    trace t[4];
    tk_event_source srcs[4] = {0};
    for (size_t k = 0; k < n; k++) {
        if (!trace_open(&t[k], paths[k], map)) return NULL;
        srcs[k] = t[k].src;
    }
    char *text = chained_text(srcs, n, "mtpool", per_thread);
    for (size_t k = 0; k < n; k++) trace_close(&t[k]);
    return text;
}

static tk_events_profile_partial *xray_partial(const char *const *paths, size_t n,
                                               const tk_xray_map *map, int per_thread)
{
    trace t[4];
    tk_event_source srcs[4] = {0};
    for (size_t k = 0; k < n; k++) {
        if (!trace_open(&t[k], paths[k], map)) return NULL;
        srcs[k] = t[k].src;
    }
    tk_events_profile_partial *p = partial_of(srcs, n, per_thread);
    for (size_t k = 0; k < n; k++) trace_close(&t[k]);
    return through_bytes(p);
}

static void check_xray(const char *const *paths, size_t n, const tk_xray_map *map, int per_thread)
{
    char *want = xray_chained(paths, n, map, per_thread);
    if (!want) return;
    for (size_t split = 1; split < n; split++) { /* [0, split) + [split, n) */
        tk_events_profile_partial *a = xray_partial(paths, split, map, per_thread);
        tk_events_profile_partial *b = xray_partial(paths + split, n - split, map, per_thread);
        if (a && b) TK_CHECK(tk_events_profile_partial_merge(a, b, NULL) == TK_OK);
        char *got = a && b ? profile_text(a, "mtpool") : NULL;
        TK_CHECK(got && strcmp(got, want) == 0);
        free(got);
        tk_events_profile_partial_free(a);
        tk_events_profile_partial_free(b);
    }
    free(want);
}

static void test_xray_traces(void)
{
    static const char *const mt[3] = {X "mtpool.fdr", "tests/data/xray/fail/mtpool-cut.fdr",
                                      X "mtpool-wrapped.fdr"};
    static const char *const ct[4] = {X "calltree.fdr", X "mtpool.fdr", X "calltree.basic",
                                      X "mtpool.basic"};
    tk_xray_map *map = NULL;
    TK_CHECK(tk_xray_map_read(&map, "tests/data/xray/bin/mtpool", NULL) == TK_OK);
    for (int per_thread = 0; per_thread < 2; per_thread++) {
        check_xray(mt, 3, map, per_thread);
        check_xray(mt, 3, NULL, per_thread);
        check_xray(ct, 4, NULL, per_thread);
    }
    tk_xray_map_free(map);
}

/* ---- refused --------------------------------------------------------------------------- */

static void test_refused(void)
{
    static script a = {run0, sizeof run0 / sizeof *run0, 0, 2.445e9};
    static script b = {run1, sizeof run1 / sizeof *run1, 0, 1e9};
    tk_event_source sa = script_source(&a), sb = script_source(&b);
    tk_events_profile_partial *pa = partial_of(&sa, 1, 0), *pb = partial_of(&sb, 1, 0);
    sa = script_source(&a);
    tk_events_profile_partial *pt = partial_of(&sa, 1, 1);
    tk_error err;
    tk_error_clear(&err);
    if (pa && pb) TK_CHECK(tk_events_profile_partial_merge(pa, pb, &err) == TK_ERR_ARG);
    TK_CHECK(strstr(err.message, "clock") != NULL);
    if (pa && pt) TK_CHECK(tk_events_profile_partial_merge(pa, pt, NULL) == TK_ERR_ARG);
    /* into unchanged: still the profile of run0 alone */
    sa = script_source(&a);
    char *want = chained_text(&sa, 1, NULL, 0), *got = profile_text(pa, NULL);
    TK_CHECK(want && got && strcmp(want, got) == 0);
    free(want);
    free(got);
    static const uint8_t junk[] = {'T', 'K', 'E', 'P', 2, 0};
    tk_events_profile_partial *bad = NULL;
    TK_CHECK(tk_events_profile_partial_deserialize(&bad, junk, sizeof junk, NULL) == TK_ERR_FORMAT);
    /* the rate of a but in ns (an emulated TSC's unit): refused, as the chain refuses it */
    tk_event_source sn = script_source(&a);
    sn.time_unit = "ns";
    sa = script_source(&a);
    tk_event_source both[2] = {sa, sn};
    tk_event_chain chain;
    tk_event_source out;
    TK_CHECK(tk_event_chain_init(&chain, both, 2, &out, NULL) == TK_ERR_ARG);
    tk_events_profile_partial *pn = partial_of(&sn, 1, 0);
    tk_error_clear(&err);
    if (pa && pn) TK_CHECK(tk_events_profile_partial_merge(pa, pn, &err) == TK_ERR_ARG);
    TK_CHECK(strstr(err.message, "clock") != NULL);
    tk_events_profile_partial_free(pn);
    tk_events_profile_partial_free(pa);
    tk_events_profile_partial_free(pb);
    tk_events_profile_partial_free(pt);
}

/* Per thread, a profile takes 256 threads with calls: two runs of 200 chain into 400, which
 * tk_events_profile refuses, and so does the profile of their merged partials (the threads
 * without calls past it are no error for either). */
static void test_thread_limit(void)
{
    static step calls[2][400];
    script runs[2];
    for (int k = 0; k < 2; k++) {
        for (uint32_t i = 0; i < 200; i++) {
            calls[k][2 * i] = (step){i, 'e', 1 + i % 5, 2 * i};
            calls[k][2 * i + 1] = (step){i, 'x', 1 + i % 5, 2 * i + 1};
        }
        runs[k] = (script){calls[k], 400, 0, 1e9};
    }
    static step quiet[1] = {{199, 'e', 2, 5}}; /* thread 199 only: 200 threads, one call */
    script idle = {quiet, 1, 0, 1e9}, idle2 = idle;
    tk_event_source srcs[2] = {script_source(&runs[0]), script_source(&runs[1])};
    tk_event_chain chain;
    tk_event_source src;
    tk_profile *p = NULL;
    TK_CHECK(tk_event_chain_init(&chain, srcs, 2, &src, NULL) == TK_OK);
    TK_CHECK(tk_events_profile(&src, NULL, 1, &p, NULL) == TK_ERR_LIMIT);
    tk_events_profile_partial *a = partial_of(rewound(srcs, 1), 1, 1);
    tk_events_profile_partial *b = partial_of(rewound(srcs + 1, 1), 1, 1);
    if (a && b) TK_CHECK(tk_events_profile_partial_merge(a, b, NULL) == TK_OK);
    a = through_bytes(a);
    TK_CHECK(a && tk_events_profile_partial_profile(a, NULL, &p, NULL) == TK_ERR_LIMIT);
    tk_events_profile_partial_free(a);
    tk_events_profile_partial_free(b);
    /* 200 threads of which only the last has a call, then the same: its call is thread 399's */
    tk_event_source two[2] = {script_source(&idle), script_source(&idle2)};
    TK_CHECK(tk_event_chain_init(&chain, two, 2, &src, NULL) == TK_OK);
    TK_CHECK(tk_events_profile(&src, NULL, 1, &p, NULL) == TK_ERR_LIMIT);
    two[0] = script_source(&idle);
    two[1] = script_source(&idle2);
    a = partial_of(&two[0], 1, 1);
    b = partial_of(&two[1], 1, 1);
    if (a && b) TK_CHECK(tk_events_profile_partial_merge(a, b, NULL) == TK_OK);
    a = through_bytes(a);
    TK_CHECK(a && tk_events_profile_partial_profile(a, NULL, &p, NULL) == TK_ERR_LIMIT);
    tk_events_profile_partial_free(a);
    tk_events_profile_partial_free(b);
    /* one of them: 200 parts, fine, and the same through a partial */
    tk_event_source one = script_source(&idle);
    char *want = chained_text(&one, 1, NULL, 1);
    one = script_source(&idle);
    tk_events_profile_partial *c = through_bytes(partial_of(&one, 1, 1));
    char *got = profile_text(c, NULL);
    TK_CHECK(want && got && strcmp(want, got) == 0);
    free(want);
    free(got);
    tk_events_profile_partial_free(c);
    /* a call in thread 0, then an exit without its enter in thread 299 (no call): 300 parts,
     * fine; merged after a run of 200 threads, thread 0's call is thread 200's: fine too */
    static step late[3] = {{0, 'e', 3, 1}, {0, 'x', 3, 4}, {299, 'x', 3, 6}};
    script tail = {late, 3, 0, 1e9};
    tk_event_source both[2] = {script_source(&idle), script_source(&tail)};
    want = chained_text(both, 2, NULL, 1);
    both[0] = script_source(&idle);
    both[1] = script_source(&tail);
    a = partial_of(&both[0], 1, 1);
    b = partial_of(&both[1], 1, 1);
    if (a && b) TK_CHECK(tk_events_profile_partial_merge(a, b, NULL) == TK_OK);
    a = through_bytes(a);
    got = profile_text(a, NULL);
    TK_CHECK(want && got && strcmp(want, got) == 0);
    free(want);
    free(got);
    tk_events_profile_partial_free(a);
    tk_events_profile_partial_free(b);
}

TK_TEST_MAIN(TK_CASE(test_scripted), TK_CASE(test_xray_traces), TK_CASE(test_refused),
             TK_CASE(test_thread_limit))
