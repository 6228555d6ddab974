/* The difference of two DCFGs through the public API (tracekit/cfg_diff.h): the tables
 * `tracekit diff` prints (tests/cli/dcfg/diff-*.out), their order, cut and totals. */
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static tk_cfg *load(const char *path)
{
    tk_error err;
    tk_error_clear(&err);
    tk_cfg *cfg = NULL;
    TK_CHECK(tk_dcfg_read_path(&cfg, path, NULL, &err) == TK_OK);
    return cfg;
}

static tk_cfg_diff *diff(const tk_cfg *a, const tk_cfg *b, int equal, uint64_t top)
{
    tk_error err;
    tk_error_clear(&err);
    tk_cfg_diff_options o = TK_CFG_DIFF_OPTIONS_INIT;
    o.equal = equal;
    o.top = top;
    tk_cfg_diff *d = NULL;
    TK_CHECK(tk_cfg_diff_open(&d, a, b, &o, &err) == TK_OK);
    return d;
}

/* The rows of every table are ordered by change, largest first; the rows of one side only
 * (*only: of blocks and edges) */
static int ordered(const tk_cfg_diff *d, uint32_t pair, size_t *only)
{
    int ok = 1;
    *only = 0;
    for (int t = 0; t < TK_CFG_DIFF_NTABLES; t++) {
        uint64_t last = UINT64_MAX;
        for (size_t i = 0; i < tk_cfg_diff_rows(d, pair, (tk_cfg_diff_table)t); i++) {
            tk_cfg_diff_row r;
            tk_cfg_diff_row_get(d, pair, (tk_cfg_diff_table)t, i, &r);
            ok &= r.change <= last;
            last = r.change;
            if (t >= TK_CFG_DIFF_BLOCKS) *only += !r.has[0] || !r.has[1];
        }
    }
    return ok;
}

/* diff --equal minimal minimal: every image, routine, block and edge, equal */
static void test_diff_all_equal(void)
{
    tk_cfg *a = load("tests/data/dcfg/pass/minimal.dcfg.json");
    if (!a) return;
    tk_cfg_diff *d = diff(a, a, 1, 0);
    if (!d) {
        tk_cfg_free(a);
        return;
    }
    TK_CHECK_EQ_U64(tk_cfg_diff_pairs(d), 1);
    tk_cfg_diff_pair p;
    tk_cfg_diff_pair_get(d, 0, &p);
    TK_CHECK_EQ_U64(p.pid[0], 13723);
    TK_CHECK_EQ_U64(p.instructions[1], 43);
    TK_CHECK_EQ_U64(tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_IMAGES), 1);
    TK_CHECK_EQ_U64(tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_BLOCKS), 4);
    TK_CHECK_EQ_U64(tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_EDGES), 6);
    tk_cfg_diff_row r;
    /* every change 0: key order, the block at 0xb28 first */
    tk_cfg_diff_row_get(d, 0, TK_CFG_DIFF_BLOCKS, 0, &r);
    TK_CHECK_EQ_U64(r.image, 1);
    TK_CHECK_EQ_U64(r.offset, 0xb28);
    TK_CHECK_EQ_U64(r.id[0], 4);
    TK_CHECK_EQ_U64(r.count[1], 1);
    TK_CHECK_EQ_U64(r.change, 0);
    tk_cfg_diff_row_get(d, 0, TK_CFG_DIFF_IMAGES, 0, &r);
    TK_CHECK_EQ_U64(r.instructions[0], 43);
    TK_CHECK_EQ_U64(tk_cfg_diff_differences(d), 0);
    tk_cfg_diff_free(d);
    /* without equal: no row */
    d = diff(a, a, 0, 0);
    for (int t = 0; d && t < TK_CFG_DIFF_NTABLES; t++)
        TK_CHECK_EQ_U64(tk_cfg_diff_rows_uncut(d, 0, (tk_cfg_diff_table)t), 0);
    tk_cfg_diff_free(d);
    tk_cfg_free(a);
}

/* The totals of the images and routines are those of their blocks' rows (--equal: all of
 * them), and the images' add up to the process's. */
static void check_totals(const tk_cfg_diff *d)
{
    tk_cfg_diff_pair p;
    tk_cfg_diff_pair_get(d, 0, &p);
    for (int k = 0; k < 2; k++) {
        uint64_t images = 0, blocks = 0, routines = 0;
        tk_cfg_diff_row r;
        for (size_t i = 0; i < tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_IMAGES); i++) {
            tk_cfg_diff_row_get(d, 0, TK_CFG_DIFF_IMAGES, i, &r);
            images += r.instructions[k];
        }
        for (size_t i = 0; i < tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_BLOCKS); i++) {
            tk_cfg_diff_row_get(d, 0, TK_CFG_DIFF_BLOCKS, i, &r);
            blocks += r.instructions[k];
        }
        for (size_t i = 0; i < tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_ROUTINES); i++) {
            tk_cfg_diff_row_get(d, 0, TK_CFG_DIFF_ROUTINES, i, &r);
            routines += r.instructions[k];
        }
        TK_CHECK_EQ_U64(images, p.instructions[k]);
        TK_CHECK_EQ_U64(blocks, p.instructions[k]);
        TK_CHECK(routines <= blocks);
    }
}

/* diff whole region (passlab): 3803 differences, 1729 of them blocks, the largest first */
static void test_diff_whole_region(void)
{
    tk_cfg *a = load("tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2");
    tk_cfg *b = load("tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2");
    tk_cfg_diff *d = a && b ? diff(a, b, 0, 0) : NULL;
    if (d) {
        size_t only;
        TK_CHECK_EQ_U64(tk_cfg_diff_differences(d), 3803);
        TK_CHECK_EQ_U64(tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_BLOCKS), 1729);
        TK_CHECK_EQ_U64(tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_EDGES), 3803 - 1729);
        TK_CHECK(ordered(d, 0, &only));
        TK_CHECK_EQ_U64(only, 10); /* 6 only in the second */
        tk_cfg_diff_row r;
        tk_cfg_diff_row_get(d, 0, TK_CFG_DIFF_BLOCKS, 0, &r);
        TK_CHECK_EQ_U64(r.id[0], 667);
        TK_CHECK_EQ_U64(r.change, 10368);
        TK_CHECK(r.name && strcmp(r.name, "_dl_lookup_symbol_x") == 0);
        TK_CHECK_EQ_U64(r.symbol_offset, 0x50);
        tk_cfg_diff_row_get(d, 0, TK_CFG_DIFF_ROUTINES, 0, &r);
        TK_CHECK(r.name && strcmp(r.name, "do_lookup_x") == 0);
        TK_CHECK_EQ_U64(r.instructions[0], 34411);
        TK_CHECK_EQ_U64(r.count[0], 91);
        tk_cfg_diff_row_get(d, 0, TK_CFG_DIFF_IMAGES, 0, &r);
        TK_CHECK_EQ_U64(r.id[0], 2);
        TK_CHECK_EQ_U64(r.change, 131171);
    }
    tk_cfg_diff_free(d);
    /* --top 5: five rows of each, the same first ones; the differences are all counted */
    d = a && b ? diff(a, b, 0, 5) : NULL;
    if (d) {
        TK_CHECK_EQ_U64(tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_BLOCKS), 5);
        TK_CHECK_EQ_U64(tk_cfg_diff_rows_uncut(d, 0, TK_CFG_DIFF_BLOCKS), 1729);
        TK_CHECK_EQ_U64(tk_cfg_diff_rows(d, 0, TK_CFG_DIFF_IMAGES), 3);
        TK_CHECK_EQ_U64(tk_cfg_diff_differences(d), 3803);
        tk_cfg_diff_row r;
        tk_cfg_diff_row_get(d, 0, TK_CFG_DIFF_BLOCKS, 0, &r);
        TK_CHECK_EQ_U64(r.id[0], 667);
    }
    tk_cfg_diff_free(d);
    d = a && b ? diff(a, b, 1, 0) : NULL;
    if (d) check_totals(d);
    tk_cfg_diff_free(d);
    tk_cfg_free(a);
    tk_cfg_free(b);
}

TK_TEST_MAIN(TK_CASE(test_diff_all_equal), TK_CASE(test_diff_whole_region))
