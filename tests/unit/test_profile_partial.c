/* Profile report partials (tracekit/profile_partial.h): for every key (function,
 * file-function, file, object, line), self costs only, inclusive costs, callers and callees,
 * call cycles, the report of the partials of some profiles merged in any grouping, through
 * their bytes or not, is that of the profiles read one after the other into one profile,
 * entry for entry; the bytes are canonical (every grouping gives the same); what reading the
 * profiles into one refuses, the merge refuses. On the profiles of tests/data and on
 * generated ones (recursion levels, mutual recursion, inlined files, other event orders).
 * And `merge`'s merger of profiles read one at a time (tk_profile_merger) writes what
 * tk_profile_merged writes of them read into one profile. */
#include <stdarg.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

/* ---- text in memory ------------------------------------------------------------------- */

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->p ? t->p + t->len : NULL, t->p ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n >= 0 && t->p && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->len + (size_t)n + 1) cap *= 2;
        t->p = realloc(t->p, cap);
        t->cap = cap;
    }
}

/* ---- what a report holds, as text ------------------------------------------------------ */

static const char *str(const tk_profile *p, uint32_t id)
{
    return id == TK_PROF_NONE ? "-" : tk_profile_str(p, id);
}

static void add_costs(text *t, const uint64_t *v, size_t n)
{
    for (size_t j = 0; v && j < n; j++) add(t, " %" PRIu64, v[j]);
    if (!v) add(t, " none");
}

static void dump_entry(text *t, const tk_profile *names, const tk_prof_entry_info *e, size_t nev)
{
    add(t, "%s|%s|%s|%" PRIu64 " calls %" PRIu64 " cycle %u%s self", str(names, e->object),
        str(names, e->file), str(names, e->name), e->line, e->calls, (unsigned)e->cycle,
        e->estimated ? " estimated" : "");
    add_costs(t, e->self, nev);
    add(t, " incl");
    add_costs(t, e->inclusive, nev);
}

/* Every entry in order (with its callers and callees), the cycles, the totals. */
static void dump_report(text *t, const tk_prof_report *r, const tk_profile *names)
{
    const tk_prof_summary *s = tk_prof_report_summary(r);
    tk_prof_summary_info si;
    tk_prof_summary_get(s, &si);
    const tk_prof_arcs *arcs = tk_prof_report_arcs(r);
    size_t *idx = malloc(((arcs ? tk_prof_arcs_count(arcs) : 0) + 1) * sizeof *idx);
    add(t, "rows %zu of %zu, events", tk_prof_report_rows(r), si.count);
    for (size_t j = 0; j < tk_profile_event_count(names); j++)
        add(t, " %s", tk_profile_event_name(names, j));
    for (size_t j = 0; j < tk_profile_derived_count(names); j++) {
        tk_prof_derived_info d;
        tk_profile_derived_get(names, j, &d);
        add(t, " %s=%s", str(names, d.name), str(names, d.formula));
    }
    add(t, "\ntotals");
    add_costs(t, si.totals, si.n_events);
    add(t, "\n");
    for (size_t i = 0; i < si.count; i++) {
        tk_prof_entry_info e;
        tk_prof_entry_get(s, i, &e);
        dump_entry(t, names, &e, si.n_events);
        add(t, "\n");
        for (int side = 0; arcs && side < 2; side++) {
            size_t n = tk_prof_report_tree(r, i, side, idx);
            for (size_t k = 0; k < n; k++) {
                tk_prof_arc_info a;
                tk_prof_arc_get(arcs, idx[k], &a);
                add(t, "  %s %zu %zu calls %" PRIu64, side ? ">" : "<", a.caller, a.callee,
                    a.calls);
                add_costs(t, a.inclusive, si.n_events);
                add(t, "\n");
            }
        }
    }
    for (size_t c = 1; c <= si.n_cycles; c++) {
        tk_prof_cycle_info cy;
        const size_t *members;
        tk_prof_cycle_get(s, c, &cy);
        size_t n = tk_prof_report_cycle(r, c, &members);
        add(t, "cycle %zu: %zu members (%zu listed) calls %" PRIu64 " self", c, cy.members, n,
            cy.calls);
        add_costs(t, cy.self, si.n_events);
        add(t, " incl");
        add_costs(t, cy.inclusive, si.n_events);
        for (size_t k = 0; k < n; k++) add(t, " %zu", members[k]);
        add(t, "\n");
    }
    free(idx);
}

/* ---- the two ways ---------------------------------------------------------------------- */

typedef struct way {
    tk_prof_group group;
    int self_only, tree, cycles, inclusive;
    const char *focus;
} way;

static tk_callgrind_read_options read_options(const way *w)
{
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.detail =
        w->group == TK_GROUP_LINE ? TK_CALLGRIND_DETAIL_LINES : TK_CALLGRIND_DETAIL_FUNCTIONS;
    o.skip_jumps = 1;
    o.drop_files = w->group == TK_GROUP_FUNCTION;
    o.call_counts_only = w->self_only;
    return o;
}

static tk_prof_report_options report_options(const way *w)
{
    tk_prof_report_options o = TK_PROF_REPORT_OPTIONS_INIT;
    o.group = w->group;
    o.self_only = w->self_only;
    o.tree = w->tree;
    o.cycles = w->cycles;
    o.inclusive = w->inclusive;
    o.focus = w->focus;
    return o;
}

/* Profile text i as a profile read as the way reads; NULL when it fails. */
static tk_profile *read_one(const way *w, const text *files, size_t n, tk_profile *into)
{
    tk_profile *p = into;
    if (!p && tk_profile_open(&p, NULL) != TK_OK) return NULL;
    tk_callgrind_read_options o = read_options(w);
    for (size_t i = 0; i < n; i++) {
        tk_error e;
        tk_error_clear(&e);
        if (tk_callgrind_read_buffer(p, files[i].p, files[i].len, &o, &e) != TK_OK) {
            if (getenv("DBG")) fprintf(stderr, "read %zu/%zu: %s\n", i, n, e.message);
            tk_profile_free(p);
            return NULL;
        }
    }
    return p;
}

/* The report of the files read into one profile; 0 when reading or the report fails. */
static int one_process(const way *w, const text *files, size_t n, text *out, size_t *parts)
{
    tk_profile *p = read_one(w, files, n, NULL);
    if (!p) return 0;
    tk_prof_report_options ro = report_options(w);
    tk_prof_report *r = NULL;
    int ok = tk_prof_report_open(&r, p, &ro, NULL) == TK_OK;
    if (ok) dump_report(out, r, p);
    *parts = tk_profile_part_count(p);
    tk_prof_report_free(r);
    tk_profile_free(p);
    return ok;
}

/* File i's partial: a copy of its names (how 0), its names taken over (1), or through its
 * bytes (2). */
static tk_prof_partial *partial_of(const way *w, const text *file, int how)
{
    tk_profile *p = read_one(w, file, 1, NULL);
    if (!p) return NULL;
    tk_prof_partial_options po = TK_PROF_PARTIAL_OPTIONS_INIT;
    po.group = w->group;
    po.self_only = w->self_only;
    tk_prof_partial *pp = NULL;
    if (how == 1) {
        TK_CHECK(tk_prof_partial_take(&pp, p, &po, NULL) == TK_OK);
        return pp;
    }
    TK_CHECK(tk_prof_partial_open(&pp, p, &po, NULL) == TK_OK);
    tk_profile_free(p);
    if (!pp || how == 0) return pp;
    uint8_t *b = NULL;
    size_t nb = 0;
    tk_prof_partial *q = NULL;
    TK_CHECK(tk_prof_partial_serialize(pp, &b, &nb, NULL) == TK_OK);
    TK_CHECK(tk_prof_partial_deserialize(&q, b, nb, NULL) == TK_OK);
    uint8_t *b2 = NULL;
    size_t nb2 = 0;
    if (q) {
        TK_CHECK(tk_prof_partial_serialize(q, &b2, &nb2, NULL) == TK_OK);
        TK_CHECK(nb2 == nb && memcmp(b, b2, nb) == 0);
    }
    tk_free(b);
    tk_free(b2);
    tk_prof_partial_free(pp);
    return q;
}

/* The partials of files [lo, hi) merged: left to right (shape 0), right to left (1), or as a
 * balanced tree (2). NULL when a merge fails (*failed) or there are none. */
static tk_prof_partial *merged(const way *w, const text *files, size_t lo, size_t hi, int shape,
                               int *failed)
{
    if (hi - lo == 1) return partial_of(w, &files[lo], shape);
    size_t mid = shape == 0 ? hi - 1 : shape == 1 ? lo + 1 : lo + (hi - lo) / 2;
    tk_prof_partial *a = merged(w, files, lo, mid, shape, failed);
    tk_prof_partial *b = merged(w, files, mid, hi, shape, failed);
    tk_error e;
    tk_error_clear(&e);
    if (a && b && tk_prof_partial_merge(a, b, &e) != TK_OK) {
        if (getenv("DBG")) fprintf(stderr, "merge: %s\n", e.message);
        *failed = 1;
        tk_prof_partial_free(a);
        a = NULL;
    }
    tk_prof_partial_free(b);
    return a && b ? a : (tk_prof_partial_free(a), NULL);
}

static void serialize(const tk_prof_partial *pp, text *out)
{
    uint8_t *b = NULL;
    size_t nb = 0;
    TK_CHECK(tk_prof_partial_serialize(pp, &b, &nb, NULL) == TK_OK);
    out->p = (char *)b;
    out->len = nb;
}

/* Both ways agree on files[0..n): the same report (or both fail), the same bytes from every
 * grouping. Returns whether the report was made. */
static int agree(const way *w, const text *files, size_t n)
{
    text one = {NULL, 0, 0};
    size_t parts = 0;
    int ok1 = one_process(w, files, n, &one, &parts);
    text bytes[3] = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
    int ok2 = 1;
    for (int shape = 0; shape < 3; shape++) {
        int failed = 0;
        tk_prof_partial *pp = merged(w, files, 0, n, shape, &failed);
        if (!pp) {
            ok2 = 0;
            continue;
        }
        serialize(pp, &bytes[shape]);
        tk_prof_report_options ro = report_options(w);
        tk_prof_report *r = NULL;
        text two = {NULL, 0, 0};
        if (tk_prof_report_open_partial(&r, pp, &ro, NULL) == TK_OK)
            dump_report(&two, r, tk_prof_partial_names(pp));
        else
            ok2 = 0;
        if (ok1 && r && (two.len != one.len || memcmp(two.p, one.p, one.len) != 0)) {
            TK_CHECK(!"the report of the merged partials is the report of the profile");
            fprintf(stderr,
                    "    group %d self_only %d tree %d cycles %d, shape %d:\n"
                    "--- one profile\n%.3000s--- partials\n%.3000s",
                    (int)w->group, w->self_only, w->tree, w->cycles, shape, one.p, two.p);
        }
        if (ok1) TK_CHECK_EQ_U64(tk_prof_partial_parts(pp), parts);
        tk_prof_report_free(r);
        tk_prof_partial_free(pp);
        free(two.p);
    }
    if (ok1 != ok2 && getenv("DBG"))
        fprintf(stderr, "MISMATCH one %d partial %d group %d self_only %d tree %d cycles %d\n", ok1,
                ok2, (int)w->group, w->self_only, w->tree, w->cycles);
    TK_CHECK(ok1 == ok2); /* what one profile refuses, the merge refuses */
    for (int shape = 1; ok2 && shape < 3; shape++)
        TK_CHECK(bytes[shape].len == bytes[0].len &&
                 memcmp(bytes[shape].p, bytes[0].p, bytes[0].len) == 0);
    for (int shape = 0; shape < 3; shape++) tk_free(bytes[shape].p);
    free(one.p);
    return ok1;
}

/* Every way (key and kind of report) on files[0..n); how many reports were made. */
static int agree_every_way(const text *files, size_t n)
{
    static const tk_prof_group groups[] = {TK_GROUP_FUNCTION, TK_GROUP_FILE_FUNCTION, TK_GROUP_FILE,
                                           TK_GROUP_OBJECT, TK_GROUP_LINE};
    int made = 0;
    for (size_t g = 0; g < 5; g++) {
        int functions = g < 2;
        way ways[] = {{groups[g], 1, 0, 0, 0, NULL},
                      {groups[g], 0, 0, 0, 1, NULL},
                      {groups[g], 0, functions, 0, 0, NULL},
                      {groups[g], 0, 0, functions, 1, NULL},
                      {groups[g], 0, functions, 0, 1, functions ? "f" : NULL}};
        for (size_t k = 0; k < 5; k++) made += agree(&ways[k], files, n);
    }
    return made;
}

/* ---- profiles --------------------------------------------------------------------------- */

static int slurp(const char *path, text *t)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) add(t, "%.*s", (int)n, buf);
    fclose(f);
    return 1;
}

static unsigned next(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

/* A generated profile: functions of a few names in two objects and three files (recursion
 * levels and contexts among them), cost lines with inlined files, calls between them; one
 * or two parts; events "Ir Dr", or now and then "Dr Ir" or "Ir" alone. */
static void generate(unsigned seed, text *t)
{
    static const char *obs[] = {"prog", "libx.so"}, *fls[] = {"a.c", "b.c", "c.h"};
    static const char *fns[] = {"main", "f", "g", "h", "f'2", "g'2", "rec", "rec'2'f", "k"};
    unsigned s = seed;
    int evs = next(&s) % 8 == 0 ? 1 + (int)(next(&s) % 2) : 0; /* 0: Ir Dr, 1: Dr Ir, 2: Ir */
    int ncols = evs == 2 ? 1 : 2;
    add(t, "# callgrind format\nversion: 1\ncmd: ./gen %u\n", seed);
    int parts = 1 + (int)(next(&s) % 2);
    for (int part = 1; part <= parts; part++) {
        add(t, "part: %d\npositions: line\nevents: %s\n", part,
            evs == 0   ? "Ir Dr"
            : evs == 1 ? "Dr Ir"
                       : "Ir");
        int blocks = 2 + (int)(next(&s) % 6);
        for (int b = 0; b < blocks; b++) {
            add(t, "ob=%s\nfl=%s\nfn=%s\n", obs[next(&s) % 2], fls[next(&s) % 3],
                fns[next(&s) % 9]);
            for (int c = (int)(next(&s) % 3); c >= 0; c--) {
                if (next(&s) % 4 == 0) add(t, "fi=%s\n", fls[next(&s) % 3]);
                add(t, "%u %u", 1 + next(&s) % 30, next(&s) % 100);
                if (ncols == 2) add(t, " %u", next(&s) % 50);
                add(t, "\n");
            }
            for (int c = (int)(next(&s) % 3); c > 0; c--) {
                add(t, "cob=%s\ncfi=%s\ncfn=%s\ncalls=%u %u\n%u %u", obs[next(&s) % 2],
                    fls[next(&s) % 3], fns[next(&s) % 9], 1 + next(&s) % 5, 1 + next(&s) % 9,
                    1 + next(&s) % 30, next(&s) % 400);
                if (ncols == 2) add(t, " %u", next(&s) % 200);
                add(t, "\n");
            }
        }
    }
}

static void free_texts(text *t, size_t n)
{
    for (size_t i = 0; i < n; i++) free(t[i].p);
}

static void test_corpus_profiles(void)
{
    static const char *sets[][4] = {
        {"threads-sep.out-01", "threads-sep.out-02", "threads-sep.out-03", "threads-sep.out"},
        {"mutual.out", "mutual-recs.out", "mutual.out", NULL},
        {"demo-every.out", "demo-every.out.1", "demo-default.out", "demo-recs.out"},
        {"cxx-callers.out", "cxx-default.out", "cxx-callers-mangled.out", NULL},
        {"call-tree.out", "spec-features.out", NULL, NULL},
        {"demo-cache.out", "demo-instr.out", NULL, NULL}, /* events that differ */
    };
    int made = 0;
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        text files[4] = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
        size_t n = 0;
        char path[256];
        for (; n < 4 && sets[k][n]; n++) {
            snprintf(path, sizeof path, "tests/data/callgrind/pass/%s", sets[k][n]);
            TK_CHECK(slurp(path, &files[n]));
        }
        made += agree_every_way(files, n);
        free_texts(files, n);
    }
    TK_CHECK(made > 50);
}

static void test_generated_profiles(void)
{
    int made = 0, runs = 0;
    for (unsigned seed = 1; seed <= 60; seed++) {
        text files[5] = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
        size_t n = 2 + seed % 4;
        for (size_t i = 0; i < n; i++) generate(seed * 7919u + (unsigned)i, &files[i]);
        made += agree_every_way(files, n);
        runs += 25;
        free_texts(files, n);
    }
    TK_CHECK(made > runs / 2); /* most make a report; the others differ in events */
}

/* A report of one profile and of its partial are the same (no merge at all). */
static void test_one_profile(void)
{
    text f = {NULL, 0, 0};
    TK_CHECK(slurp("tests/data/callgrind/pass/mutual-recs.out", &f));
    TK_CHECK(agree_every_way(&f, 1) == 23); /* no "f" in it: a focus on it fails both ways */
    free(f.p);
}

/* Bytes that are not a partial are refused with the place. */
static void test_bad_bytes(void)
{
    tk_prof_partial *pp = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_prof_partial_deserialize(&pp, (const uint8_t *)"TKPX", 4, &err) == TK_ERR_FORMAT);
    TK_CHECK(!pp);
    text f = {NULL, 0, 0};
    TK_CHECK(slurp("tests/data/callgrind/pass/demo-default.out", &f));
    way w = {TK_GROUP_FILE_FUNCTION, 0, 0, 0, 1, NULL};
    tk_prof_partial *a = partial_of(&w, &f, 0);
    text b = {NULL, 0, 0};
    if (a) serialize(a, &b);
    for (size_t cut = 0; cut < b.len; cut += 1 + b.len / 200) {
        tk_error_clear(&err);
        TK_CHECK(tk_prof_partial_deserialize(&pp, (const uint8_t *)b.p, cut, &err) ==
                 TK_ERR_FORMAT);
        TK_CHECK(strstr(err.message, "profile partial") != NULL);
    }
    tk_prof_partial_free(a);
    tk_free(b.p);
    free(f.p);
}

/* callgrind text of p into t */
static int write_text(const tk_profile *p, text *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    int ok = f && tk_callgrind_write(p, TK_TEST_WRITER(f), &wo, NULL) == TK_OK;
    if (f) fclose(f);
    t->p = buf;
    t->len = len;
    return ok;
}

/* The merger's profile of files[0..n), each read on its own, against tk_profile_merged of
 * them read into one; both fail or neither. */
static void merger_agrees(const text *files, size_t n, int keep_parts)
{
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    tk_profile_merge_options mo = TK_PROFILE_MERGE_OPTIONS_INIT;
    mo.keep_parts = keep_parts;
    mo.desc = "Trigger: test";
    tk_profile *all = NULL, *one = NULL, *two = NULL;
    if (tk_profile_open(&all, NULL) != TK_OK) return;
    int ok1 = 1;
    for (size_t i = 0; i < n && ok1; i++)
        ok1 = tk_callgrind_read_buffer(all, files[i].p, files[i].len, &o, NULL) == TK_OK;
    ok1 = ok1 && tk_profile_merged(&one, all, &mo, NULL) == TK_OK;
    tk_profile_merger *m = NULL;
    int ok2 = tk_profile_merger_open(&m, &mo, NULL) == TK_OK;
    for (size_t i = 0; i < n && ok2; i++) {
        tk_profile *p = NULL;
        ok2 = tk_profile_open(&p, NULL) == TK_OK &&
              tk_callgrind_read_buffer(p, files[i].p, files[i].len, &o, NULL) == TK_OK &&
              tk_profile_merger_add(m, p, NULL) == TK_OK;
        tk_profile_free(p);
    }
    if (ok2)
        ok2 = tk_profile_merger_finish(m, &two, NULL) == TK_OK;
    else
        tk_profile_merger_free(m);
    TK_CHECK(ok1 == ok2);
    text a = {NULL, 0, 0}, b = {NULL, 0, 0};
    if (ok1 && ok2 && write_text(one, &a) && write_text(two, &b))
        TK_CHECK(a.len == b.len && memcmp(a.p, b.p, a.len) == 0);
    free(a.p);
    free(b.p);
    tk_profile_free(all);
    tk_profile_free(one);
    tk_profile_free(two);
}

static void test_merger_of_profiles(void)
{
    for (unsigned seed = 1; seed <= 40; seed++) {
        text files[4] = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
        size_t n = 1 + seed % 4;
        for (size_t i = 0; i < n; i++) generate(seed * 104729u + (unsigned)i, &files[i]);
        merger_agrees(files, n, (int)(seed % 2));
        free_texts(files, n);
    }
    text f[3] = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
    TK_CHECK(slurp("tests/data/callgrind/pass/demo-every.out", &f[0]));
    TK_CHECK(slurp("tests/data/callgrind/pass/demo-every.out.1", &f[1]));
    TK_CHECK(slurp("tests/data/callgrind/pass/demo-jumps.out", &f[2]));
    merger_agrees(f, 3, 0);
    merger_agrees(f, 3, 1);
    free_texts(f, 3);
}

TK_TEST_MAIN(TK_CASE(test_corpus_profiles), TK_CASE(test_generated_profiles),
             TK_CASE(test_one_profile), TK_CASE(test_bad_bytes), TK_CASE(test_merger_of_profiles))
