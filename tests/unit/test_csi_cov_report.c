/* The reports of CSI coverage through the public API (tracekit/csi_cov_report.h): what
 * `tracekit report` prints for coverage metadata and what `tracekit coverage` counts and
 * annotates, on the files of tests/cli/csi_cov/. */
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

#define LOTSOFIFS \
    "tests/data/corpus/csi-thirdparty/v1.4.0/tests/lotsofifs/" \
    "lotsofifs-O0.csi-static-BBC.expected"
#define TINY "tests/data/csi_cov/core/tiny"

static void test_name_matches(void)
{
    TK_CHECK(tk_csi_cov_name_matches(NULL, "foo"));
    TK_CHECK(tk_csi_cov_name_matches("foo", "foo"));
    TK_CHECK(tk_csi_cov_name_matches("foo", "foo$1"));
    TK_CHECK(!tk_csi_cov_name_matches("foo", "foobar"));
    TK_CHECK(!tk_csi_cov_name_matches("foo$1", "foo"));
}

/* The report of lotsofifs-O0's blocks in one order. */
static tk_csi_cov_report *report_of(tk_csi_cov_report_key key)
{
    tk_error err;
    tk_error_clear(&err);
    tk_input *in = NULL;
    tk_csi_cov_reader *rd = NULL;
    tk_csi_cov_report *r = NULL;
    tk_csi_cov_report_options o = TK_CSI_COV_REPORT_OPTIONS_INIT;
    o.key = key;
    if (TK_CHECK(tk_input_open(&in, LOTSOFIFS, NULL, &err) == TK_OK) &&
        TK_CHECK(tk_csi_cov_reader_open(&rd, in, TK_CSI_COV_NONE, &err) == TK_OK) &&
        TK_CHECK(tk_csi_cov_report_open(&r, &o, &err) == TK_OK)) {
        const tk_csi_cov_function *fn;
        tk_status st;
        while ((st = tk_csi_cov_reader_next(rd, &fn, &err)) == TK_OK)
            TK_CHECK(tk_csi_cov_report_add(r, fn, &err) == TK_OK);
        TK_CHECK(st == TK_END);
        tk_csi_cov_report_sort(r);
    }
    tk_csi_cov_reader_free(rd);
    tk_input_free(in);
    return r;
}

static void test_report_orders(void)
{
    tk_csi_cov_report *r = report_of(TK_CSI_COV_REPORT_BY_LINES);
    if (!r) return;
    TK_CHECK_EQ_U64(tk_csi_cov_report_count(r), 2);
    const tk_csi_cov_report_row *a = tk_csi_cov_report_row_at(r, 0);
    TK_CHECK_STR(a->name, "main");
    TK_CHECK_STR(a->array, "__BBC_arr_tests_lotsofifs_lotsofifs_c_main");
    TK_CHECK_EQ_U64(a->entries, 391);
    TK_CHECK_EQ_U64(a->instrumented, 391);
    TK_CHECK_EQ_U64(a->lines, 393);
    tk_csi_cov_report_totals t;
    tk_csi_cov_report_get_totals(r, &t);
    TK_CHECK_EQ_U64(t.functions, 2);
    TK_CHECK_EQ_U64(t.entries, 392);
    TK_CHECK_EQ_U64(t.instrumented, 392);
    TK_CHECK_EQ_U64(t.lines, 394);
    tk_csi_cov_report_clear(r);
    TK_CHECK_EQ_U64(tk_csi_cov_report_count(r), 0);
    tk_csi_cov_report_get_totals(r, &t);
    TK_CHECK_EQ_U64(t.functions, 0);
    tk_csi_cov_report_free(r);

    r = report_of(TK_CSI_COV_REPORT_BY_NAME);
    if (!r) return;
    TK_CHECK_STR(tk_csi_cov_report_row_at(r, 0)->name, "foo");
    TK_CHECK_STR(tk_csi_cov_report_row_at(r, 1)->name, "main");
    tk_csi_cov_report_free(r);
}

/* tiny.core: what `coverage tests/data/csi_cov/core/tiny.bin ...tiny.core` prints. The
 * inputs hold the files' bytes, which the crash borrows. */
static tk_csi_crash *tiny_crash(tk_input **bin, tk_input **core)
{
    const uint8_t *bd = NULL, *cd = NULL;
    size_t bl = 0, cl = 0;
    tk_csi_crash *c = NULL;
    tk_error err;
    tk_error_clear(&err);
    *bin = *core = NULL;
    if (TK_CHECK(tk_input_open(bin, TINY ".bin", NULL, &err) == TK_OK) &&
        TK_CHECK(tk_input_open(core, TINY ".core", NULL, &err) == TK_OK) &&
        TK_CHECK(tk_input_map(*bin, &bd, &bl, &err) == TK_OK) &&
        TK_CHECK(tk_input_map(*core, &cd, &cl, &err) == TK_OK))
        TK_CHECK(tk_csi_crash_read(&c, "tiny.bin", bd, bl, "tiny.core", cd, cl, NULL, &err) ==
                 TK_OK);
    return c;
}

static void test_crash_counts(void)
{
    tk_input *bin, *core;
    tk_csi_crash *c = tiny_crash(&bin, &core);
    if (c) {
        tk_csi_crash_counts t;
        TK_CHECK_EQ_U64(tk_csi_crash_totals(c, NULL, &t), 3);
        TK_CHECK_EQ_U64(t.functions[TK_CSI_HIT_YES], 3);
        TK_CHECK_EQ_U64(t.sites[TK_CSI_HIT_NO], 2);
        TK_CHECK_EQ_U64(t.sites[TK_CSI_HIT_UNKNOWN], 1);
        TK_CHECK_EQ_U64(t.blocks[TK_CSI_HIT_YES], 4);
        TK_CHECK_EQ_U64(t.blocks[TK_CSI_HIT_NO], 1);
        TK_CHECK_EQ_U64(t.lines[TK_CSI_HIT_YES], 12);
        TK_CHECK_EQ_U64(t.lines[TK_CSI_HIT_NO], 3);
        TK_CHECK_EQ_U64(tk_csi_crash_totals(c, "work", &t), 1);
        TK_CHECK_EQ_U64(t.lines[TK_CSI_HIT_YES], 6);
        TK_CHECK_EQ_U64(t.lines[TK_CSI_HIT_NO], 3);
        TK_CHECK_EQ_U64(tk_csi_crash_totals(c, "nothing", &t), 0);
        TK_CHECK_EQ_U64(t.lines[TK_CSI_HIT_YES], 0);
    }
    tk_csi_crash_free(c);
    tk_input_free(bin);
    tk_input_free(core);
}

static void test_crash_files(void)
{
    tk_input *bin, *core;
    tk_csi_crash *c = tiny_crash(&bin, &core);
    tk_csi_crash_files *f = NULL;
    tk_error err;
    tk_error_clear(&err);
    if (c && TK_CHECK(tk_csi_crash_files_open(&f, c, NULL, &err) == TK_OK)) {
        TK_CHECK_EQ_U64(tk_csi_crash_files_count(f), 1);
        const tk_csi_crash_file *file = tk_csi_crash_files_at(f, 0);
        TK_CHECK_STR(file->source, "./tests/data/csi_cov/core/tiny.c");
        TK_CHECK_EQ_U64(file->nlines, 15);
        for (size_t k = 1; k < file->nlines; k++)
            TK_CHECK(file->lines[k - 1].line < file->lines[k].line);
        const tk_csi_crash_line *l = tk_csi_crash_file_line(file, 23);
        TK_CHECK(l && l->line == 23 && l->hit == TK_CSI_HIT_NO);
        l = tk_csi_crash_file_line(file, 14);
        TK_CHECK(l && l->hit == TK_CSI_HIT_YES);
        TK_CHECK(tk_csi_crash_file_line(file, 16) == NULL);
        tk_csi_crash_files_free(f);
    }
    if (c && TK_CHECK(tk_csi_crash_files_open(&f, c, "idle", &err) == TK_OK)) {
        TK_CHECK_EQ_U64(tk_csi_crash_files_count(f), 1);
        TK_CHECK_EQ_U64(tk_csi_crash_files_at(f, 0)->nlines, 2);
        tk_csi_crash_files_free(f);
    }
    if (c && TK_CHECK(tk_csi_crash_files_open(&f, c, "nothing", &err) == TK_OK)) {
        TK_CHECK_EQ_U64(tk_csi_crash_files_count(f), 0);
        tk_csi_crash_files_free(f);
    }
    tk_csi_crash_free(c);
    tk_input_free(bin);
    tk_input_free(core);
}

TK_TEST_MAIN(TK_CASE(test_name_matches), TK_CASE(test_report_orders), TK_CASE(test_crash_counts),
             TK_CASE(test_crash_files))
