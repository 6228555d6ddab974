/* The CSI report, function selectors and the state index through the public API
 * (tracekit/csi_report.h, tracekit/csi.h): what `tracekit report` and `tracekit paths
 * --state` print on the sample metadata (tests/cli/csi/). */
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

/* The functions of a metadata file with their labels ("name", "name#K"). */
typedef struct meta {
    tk_input *in;
    tk_csi_reader *r;
} meta;

static int meta_open(meta *m, const char *path)
{
    tk_error err;
    tk_error_clear(&err);
    memset(m, 0, sizeof *m);
    return TK_CHECK(tk_input_open(&m->in, path, NULL, &err) == TK_OK) &&
           TK_CHECK(tk_csi_reader_open(&m->r, m->in, &err) == TK_OK);
}

/* Next function and its label (tk_csi_function_label); 0 at the end. */
static int meta_next(meta *m, const tk_csi_function **fn, char *label, size_t size)
{
    tk_error err;
    tk_error_clear(&err);
    if (tk_csi_reader_next(m->r, fn, &err) != TK_OK) return 0;
    tk_csi_function_label(*fn, label, size);
    return 1;
}

static void meta_close(meta *m)
{
    tk_csi_reader_free(m->r);
    tk_input_free(m->in);
}

/* report loop.debug_PT.txt: main has 6 paths, 8 blocks, 9 edges, 1 back edge; rand 1 path */
static void test_report_loop(void)
{
    meta m;
    if (!meta_open(&m, "tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt")) return;
    tk_error err;
    tk_error_clear(&err);
    tk_csi_report_options o = TK_CSI_REPORT_OPTIONS_INIT;
    o.key = TK_CSI_REPORT_BY_NAME;
    tk_csi_report *r;
    TK_CHECK(tk_csi_report_open(&r, &o, &err) == TK_OK);
    const tk_csi_function *fn;
    char label[256];
    while (meta_next(&m, &fn, label, sizeof label))
        TK_CHECK(tk_csi_report_add(r, fn, label, &err) == TK_OK);
    tk_csi_report_sort(r);
    TK_CHECK_EQ_U64(tk_csi_report_count(r), 2);
    const tk_csi_report_row *a = tk_csi_report_row_at(r, 0), *b = tk_csi_report_row_at(r, 1);
    TK_CHECK_STR(a->label, "main");
    TK_CHECK_EQ_U64(a->paths, 6);
    TK_CHECK_EQ_U64(a->blocks, 8);
    TK_CHECK_EQ_U64(a->edges, 9);
    TK_CHECK_EQ_U64(a->back_edges, 1);
    TK_CHECK(a->status == TK_CSI_PATHS_OK);
    TK_CHECK_STR(b->label, "rand");
    TK_CHECK_EQ_U64(b->paths, 1);
    tk_csi_report_totals t;
    tk_csi_report_get_totals(r, &t);
    TK_CHECK_EQ_U64(t.functions, 2);
    TK_CHECK_EQ_U64(t.blocks, 10);
    TK_CHECK_EQ_U64(t.edges, 10);
    TK_CHECK_EQ_U64(t.back_edges, 1);
    TK_CHECK_EQ_U64(tk_csi_report_over_limit(r, TK_CSI_PATH_LIMIT), 0);
    TK_CHECK_EQ_U64(tk_csi_report_over_limit(r, 1), 1); /* main */
    TK_CHECK_EQ_U64(tk_csi_report_over_limit(r, 0), 2);
    tk_csi_report_clear(r);
    TK_CHECK_EQ_U64(tk_csi_report_count(r), 0);
    tk_csi_report_get_totals(r, &t);
    TK_CHECK_EQ_U64(t.functions, 0);
    tk_csi_report_free(r);
    meta_close(&m);
}

/* report path-count-overflow.txt: one function whose paths overflow 64 bits */
static void test_report_overflow(void)
{
    meta m;
    if (!meta_open(&m, "tests/data/csi/fail/path-count-overflow.txt")) return;
    tk_error err;
    tk_error_clear(&err);
    tk_csi_report *r;
    TK_CHECK(tk_csi_report_open(&r, NULL, &err) == TK_OK);
    const tk_csi_function *fn;
    char label[256];
    while (meta_next(&m, &fn, label, sizeof label))
        TK_CHECK(tk_csi_report_add(r, fn, label, &err) == TK_OK);
    tk_csi_report_sort(r);
    TK_CHECK_EQ_U64(tk_csi_report_count(r), 1);
    const tk_csi_report_row *a = tk_csi_report_row_at(r, 0);
    TK_CHECK_STR(a->label, "lotsofifs_main");
    TK_CHECK(a->status == TK_CSI_PATHS_OVERFLOW);
    TK_CHECK_EQ_U64(a->blocks, 211);
    TK_CHECK_EQ_U64(a->edges, 280);
    TK_CHECK(tk_csi_report_row_over(a, TK_CSI_PATH_LIMIT));
    tk_csi_report_totals t;
    tk_csi_report_get_totals(r, &t);
    TK_CHECK_EQ_U64(t.overflow, 1);
    TK_CHECK_EQ_U64(tk_csi_report_over_limit(r, TK_CSI_PATH_LIMIT), 1);
    tk_csi_report_free(r);
    meta_close(&m);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* paths variants.PT --state variants.state: which states go with which function */
static void test_state_index(void)
{
    tk_error err;
    tk_error_clear(&err);
    tk_input *sin;
    tk_csi_state *states = NULL;
    size_t ns = 0;
    if (!TK_CHECK(tk_input_open(&sin, "tests/data/csi/states/variants.state", NULL, &err) == TK_OK))
        return;
    TK_CHECK(tk_csi_states_read(sin, &states, &ns, &err) == TK_OK);
    tk_input_free(sin);
    tk_csi_state_index *ix;
    TK_CHECK(tk_csi_state_index_open(&ix, states, ns, NULL, &err) == TK_OK);
    meta m;
    if (!meta_open(&m, "tests/data/csi/states/variants.PT")) return;
    const tk_csi_function *fn;
    char label[256], *pairs[64];
    size_t np = 0, hits[64];
    while (meta_next(&m, &fn, label, sizeof label)) {
        size_t n = tk_csi_state_index_find(ix, fn, label, hits);
        for (size_t i = 0; i < n && np < 64; i++) {
            pairs[np] = malloc(512);
            snprintf(pairs[np++], 512, "%s: %s", states[hits[i]].label, label);
        }
    }
    qsort(pairs, np, sizeof *pairs, cmp_str);
    static const char *const want[] = {"bar$PT$XX: bar$PT", "bar: bar$PT", "dup#2: dup#2",
                                       "dup: dup",          "dup: dup#2",  "foo$CC: foo",
                                       "foo$CC: foo$CC$PT", "foo: foo",    "foo: foo$CC$PT",
                                       "qux$PT: qux$CC",    "qux: qux$CC"};
    TK_CHECK_EQ_U64(np, sizeof want / sizeof *want);
    for (size_t i = 0; i < np && i < sizeof want / sizeof *want; i++)
        TK_CHECK_STR(pairs[i], want[i]);
    for (size_t i = 0; i < np; i++) free(pairs[i]);
    meta_close(&m);
    tk_csi_state_index_free(ix);
    tk_csi_states_free(states, ns);
}

/* Selectors: a name selects its variants, NAME#K one function of that name. */
static void test_function_matches(void)
{
    tk_csi_function f;
    memset(&f, 0, sizeof f);
    f.name = "foo$CC$PT";
    TK_CHECK(tk_csi_function_matches(NULL, &f, "foo$CC$PT"));
    TK_CHECK(tk_csi_function_matches("foo", &f, "foo$CC$PT"));
    TK_CHECK(tk_csi_function_matches("foo$CC", &f, "foo$CC$PT"));
    TK_CHECK(!tk_csi_function_matches("fo", &f, "foo$CC$PT"));
    f.name = "dup";
    TK_CHECK(tk_csi_function_matches("dup#2", &f, "dup#2"));
    TK_CHECK(!tk_csi_function_matches("dup#2", &f, "dup"));
    TK_CHECK(tk_csi_function_matches("dup", &f, "dup#2"));
}

TK_TEST_MAIN(TK_CASE(test_report_loop), TK_CASE(test_report_overflow), TK_CASE(test_state_index),
             TK_CASE(test_function_matches))
