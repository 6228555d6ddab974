/* The difference of two DCFGs through the public API (tracekit/cfg_diff.h): the items and
 * counts `tracekit diff` prints (tests/cli/dcfg/diff-*.out). */
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

/* Items by kind, and the shape of the walk: a process, then its blocks, then its edges. */
typedef struct tally {
    size_t process, block, edge, only[2], differ;
    int order_ok;
} tally;

static tally walk(const tk_cfg *a, const tk_cfg *b, int all, uint64_t *differences)
{
    tally t;
    memset(&t, 0, sizeof t);
    t.order_ok = 1;
    tk_error err;
    tk_error_clear(&err);
    tk_cfg_diff_options o = TK_CFG_DIFF_OPTIONS_INIT;
    o.all = all;
    tk_cfg_diff *d;
    if (!TK_CHECK(tk_cfg_diff_open(&d, a, b, &o, &err) == TK_OK))
        return t;
    const tk_cfg_diff_item *it;
    tk_status st;
    tk_cfg_diff_kind last = TK_CFG_DIFF_PROCESS;
    while ((st = tk_cfg_diff_next(d, &it, &err)) == TK_OK) {
        if (it->kind < last && it->kind != TK_CFG_DIFF_PROCESS)
            t.order_ok = 0;
        last = it->kind;
        if (it->kind == TK_CFG_DIFF_PROCESS) {
            t.process++;
            continue;
        }
        *(it->kind == TK_CFG_DIFF_BLOCK ? &t.block : &t.edge) += 1;
        if (!it->has[0] || !it->has[1])
            t.only[it->has[0] ? 0 : 1]++;
        else if (it->count[0] != it->count[1])
            t.differ++;
    }
    TK_CHECK(st == TK_END);
    TK_CHECK(tk_cfg_diff_next(d, &it, &err) == TK_END);
    *differences = tk_cfg_diff_differences(d);
    tk_cfg_diff_free(d);
    return t;
}

/* diff --all minimal minimal: every block and edge, equal */
static void test_diff_all_equal(void)
{
    tk_cfg *a = load("tests/data/dcfg/pass/minimal.dcfg.json");
    if (!a)
        return;
    tk_error err;
    tk_error_clear(&err);
    tk_cfg_diff_options o = TK_CFG_DIFF_OPTIONS_INIT;
    o.all = 1;
    tk_cfg_diff *d;
    TK_CHECK(tk_cfg_diff_open(&d, a, a, &o, &err) == TK_OK);
    const tk_cfg_diff_item *it;
    TK_CHECK(tk_cfg_diff_next(d, &it, &err) == TK_OK);
    TK_CHECK(it->kind == TK_CFG_DIFF_PROCESS);
    TK_CHECK_EQ_U64(it->pid[0], 13723);
    TK_CHECK_EQ_U64(it->instructions[1], 43);
    TK_CHECK(tk_cfg_diff_next(d, &it, &err) == TK_OK);
    TK_CHECK(it->kind == TK_CFG_DIFF_BLOCK);
    TK_CHECK_EQ_U64(it->image, 1);
    TK_CHECK_EQ_U64(it->offset, 0xb28);
    TK_CHECK_EQ_U64(it->id[0], 4);
    TK_CHECK_EQ_U64(it->count[1], 1);
    tk_cfg_diff_free(d);
    uint64_t differences;
    tally t = walk(a, a, 1, &differences);
    TK_CHECK_EQ_U64(t.process, 1);
    TK_CHECK_EQ_U64(t.block, 4);
    TK_CHECK_EQ_U64(t.edge, 6);
    TK_CHECK_EQ_U64(differences, 0);
    TK_CHECK(t.order_ok);
    /* without --all: nothing but the process */
    t = walk(a, a, 0, &differences);
    TK_CHECK_EQ_U64(t.process, 1);
    TK_CHECK_EQ_U64(t.block + t.edge, 0);
    tk_cfg_free(a);
}

/* diff whole region (passlab): 3803 differences, 1729 of them blocks */
static void test_diff_whole_region(void)
{
    tk_cfg *a = load("tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2");
    tk_cfg *b = load("tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2");
    if (!a || !b)
        return;
    uint64_t differences;
    tally t = walk(a, b, 0, &differences);
    TK_CHECK_EQ_U64(differences, 3803);
    TK_CHECK_EQ_U64(t.block + t.edge, 3803);
    TK_CHECK_EQ_U64(t.block, 1729);
    TK_CHECK_EQ_U64(t.only[1], 6);
    TK_CHECK(t.order_ok);
    tk_cfg_free(a);
    tk_cfg_free(b);
}

TK_TEST_MAIN(TK_CASE(test_diff_all_equal), TK_CASE(test_diff_whole_region))
