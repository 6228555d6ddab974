/* tk_profile_append (tracekit/profile.h): Callgrind profiles read one after the other into one
 * profile, and the same profiles read in consecutive groups, each group into a profile of its
 * own, the groups appended in order, in every grouping: the same profile (tk_profile_dump
 * byte for byte, the strings and functions in the same id order, each part's reader counts
 * and calls into each function), at each detail `report`, `annotate` and `convert` read with;
 * profiles of several parts, other events (a superset first, a subset later), inlined files
 * (fi/fe), jumps, calls, name compression and none, line and instr positions; where the
 * reading in order fails (an event type after costs without it, a damaged profile), some
 * group's reading or append fails too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

#define D "tests/data/callgrind/"

typedef struct text {
    char *p;
    size_t len;
} text;

static int slurp(const char *path, text *t)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    t->p = malloc(1); /* an empty file too */
    t->len = 0;
    size_t cap = 1, n;
    char buf[65536];
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (t->len + n > cap) {
            cap = (t->len + n) * 2;
            char *q = realloc(t->p, cap);
            if (!q) break;
            t->p = q;
        }
        memcpy(t->p + t->len, buf, n);
        t->len += n;
    }
    fclose(f);
    return t->p != NULL;
}

/* Everything of p that reading decides, as text (NULL when it could not be written). */
static char *describe(const tk_profile *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    if (tk_profile_dump(p, TK_TEST_WRITER(f), NULL) != TK_OK) fputs("(dump failed)\n", f);
    for (size_t i = 0; i < tk_profile_string_count(p); i++)
        fprintf(f, "str %zu %s\n", i, tk_profile_str(p, (uint32_t)i));
    for (size_t i = 0; i < tk_profile_function_count(p); i++) {
        tk_prof_function_info fi;
        tk_profile_function_get(p, (uint32_t)i, &fi);
        fprintf(f, "fn %zu %u %u %u\n", i, fi.object, fi.file, fi.name);
    }
    for (size_t i = 0; i < tk_profile_event_count(p); i++) {
        tk_prof_event_info ev;
        tk_profile_event_get(p, i, &ev);
        fprintf(f, "event %zu %u %u\n", i, ev.name, ev.long_name);
    }
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        tk_prof_part_info pi;
        tk_prof_part_get(tk_profile_part(p, i), &pi);
        fprintf(f, "part %zu calls %llu jumps %llu rows %zu %zu %zu mask %d %llx pos %u\n", i,
                (unsigned long long)pi.call_lines, (unsigned long long)pi.jump_lines, pi.self_rows,
                pi.call_rows, pi.jump_rows, pi.events_mask_valid,
                (unsigned long long)pi.events_present, pi.positions);
        for (size_t e = 0; pi.has_line_sum && e < tk_profile_event_count(p); e++)
            fprintf(f, " sum %llu", (unsigned long long)pi.line_sum[e]);
        for (size_t c = 0; pi.calls_into && c < pi.calls_into_len; c++)
            if (pi.calls_into[c])
                fprintf(f, " into %zu %llu", c, (unsigned long long)pi.calls_into[c]);
        fputc('\n', f);
    }
    fclose(f);
    return buf;
}

/* files[lo, hi) read one after the other into *out (NULL when a reading fails). */
static void read_range(const text *files, size_t lo, size_t hi, const tk_callgrind_read_options *o,
                       tk_profile **out)
{
    *out = NULL;
    tk_profile *p;
    if (tk_profile_open(&p, NULL) != TK_OK) return;
    for (size_t i = lo; i < hi; i++)
        if (tk_callgrind_read_buffer(p, files[i].p, files[i].len, o, NULL) != TK_OK) {
            tk_profile_free(p);
            return;
        }
    *out = p;
}

/* Every grouping of files[0, n) against the reading in order. */
static void every_grouping(const text *files, size_t n, const tk_callgrind_read_options *o)
{
    tk_profile *all;
    read_range(files, 0, n, o, &all);
    char *want = all ? describe(all) : NULL;
    TK_CHECK(!all || want);
    for (unsigned cuts = 0; cuts < 1u << (n - 1); cuts++) {
        tk_profile *acc = NULL;
        int failed = 0;
        size_t lo = 0;
        for (size_t i = 1; i <= n && !failed; i++) {
            if (i < n && !(cuts >> (i - 1) & 1)) continue;
            tk_profile *g;
            read_range(files, lo, i, o, &g);
            lo = i;
            if (!g) {
                failed = 1;
            } else if (!acc) {
                acc = g;
            } else {
                failed = tk_profile_append(acc, g, NULL) != TK_OK;
                tk_profile_free(g);
            }
        }
        if (!all) {
            TK_CHECK(failed);
        } else if (TK_CHECK(!failed && acc)) {
            char *got = describe(acc);
            if (!TK_CHECK(got && want && strcmp(got, want) == 0))
                fprintf(stderr, "  grouping %#x of %zu profiles differs\n", cuts, n);
            free(got);
        }
        tk_profile_free(acc);
    }
    free(want);
    tk_profile_free(all);
}

/* At each detail the commands read with. */
static void at_every_detail(const text *files, size_t n)
{
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    every_grouping(files, n, &o); /* annotate, convert --to callgrind/json */
    o.detail = TK_CALLGRIND_DETAIL_FUNCTIONS;
    o.skip_jumps = o.drop_files = 1; /* convert --to dot/folded/svg, report --by function */
    every_grouping(files, n, &o);
    o.call_counts_only = 1; /* report's self-only summaries */
    every_grouping(files, n, &o);
    o = (tk_callgrind_read_options)TK_CALLGRIND_READ_OPTIONS_INIT;
    o.detail = TK_CALLGRIND_DETAIL_LINES; /* report --by line */
    o.skip_jumps = 1;
    every_grouping(files, n, &o);
}

static void with(const char *const *paths, size_t n)
{
    text files[8];
    size_t got = 0;
    for (; got < n; got++)
        if (!TK_CHECK(slurp(paths[got], &files[got]))) break;
    if (got == n) at_every_detail(files, n);
    for (size_t i = 0; i < got; i++) free(files[i].p);
}

static void test_real_profiles(void)
{
    /* a superset of events first; several parts; fi/fe; instr positions; jumps */
    const char *const a[] = {D "pass/demo-cache.out",      D "pass/spec-features.out",
                             D "pass/demo-jumps.out",      D "pass/threads-combined.out",
                             D "pass/demo-nocompress.out", D "pass/demo-instr-only.out"};
    with(a, 6);
    const char *const b[] = {D "pass/cxx-callers.out", D "pass/demo-bb.out", D "pass/gzip.out",
                             D "pass/mutual-recs.out", D "pass/demo-every.out.1"};
    with(b, 5);
    /* no events at first, then some; the same profile twice */
    const char *const c[] = {D "pass/threads-sep.out", D "pass/demo-systime.out",
                             D "pass/demo-systime.out", D "pass/threads-sep.out-02"};
    with(c, 4);
}

static void test_failing_in_order(void)
{
    /* an event type after costs without it */
    const char *const a[] = {D "pass/demo-default.out", D "pass/spec-features.out",
                             D "pass/mutual.out"};
    with(a, 3);
    /* a damaged profile in the middle */
    const char *const b[] = {D "pass/demo-default.out", D "fail/bad-jcnd.out", D "pass/mutual.out"};
    with(b, 3);
}

TK_TEST_MAIN(TK_CASE(test_real_profiles), TK_CASE(test_failing_in_order))
