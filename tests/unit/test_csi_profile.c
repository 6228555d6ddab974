/* DCFG -> CSI bridge and the path profile of an edge sequence, on the DCFG
 * test file tests/data/dcfg/pass/minimal.dcfg.json (main: 4 -> 5, loop
 * 5 -> 6 -> 5, 5 -> 7, 7 -> END). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "model/cfg_internal.h"
#include "tracekit/tracekit.h"

static const char *DCFG = "tests/data/dcfg/pass/minimal.dcfg.json";

static tk_cfg *load(void)
{
    tk_cfg *cfg = NULL;
    tk_error err;
    tk_error_clear(&err);
    if (tk_dcfg_read_path(&cfg, DCFG, NULL, &err) != TK_OK) {
        fprintf(stderr, "  cannot read %s: %s\n", DCFG, err.message);
        return NULL;
    }
    return cfg;
}

static void test_bridge_writes_checked_metadata(void)
{
    tk_cfg *cfg = load();
    if (!TK_CHECK(cfg != NULL)) return;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    uint64_t skipped = 99;
    tk_error err;
    TK_CHECK(tk_csi_write_cfg(TK_TEST_WRITER(out), cfg, &skipped, &err) == TK_OK);
    fclose(out);
    TK_CHECK_EQ_U64(skipped, 0);
    /* the loop 5 -> 6 -> 5 becomes a back edge; lines come from SOURCE_DATA */
    TK_CHECK(strstr(buf, "#\nmain\n8|EXIT\n4|ENTRY|3\n") == buf);
    TK_CHECK(strstr(buf, "6~>5|") != NULL);
    /* and it reads back and checks */
    tk_input *in;
    TK_CHECK(tk_input_open_memory(&in, buf, len, "bridge", NULL, &err) == TK_OK);
    tk_csi_reader *r;
    TK_CHECK(tk_csi_reader_open(&r, in, &err) == TK_OK);
    const tk_csi_function *fn;
    TK_CHECK(tk_csi_reader_next(r, &fn, &err) == TK_OK);
    tk_csi_numbering *n;
    TK_CHECK(tk_csi_numbering_open(&n, NULL) == TK_OK);
    tk_diag diag;
    tk_diag_init(&diag, NULL, NULL);
    TK_CHECK(tk_csi_check_function(fn, n, "bridge", &diag, NULL) == TK_OK);
    /* paths: 4 5 6 ~>, 4 5 7, ~> 5 6 ~>, ~> 5 7 */
    TK_CHECK_EQ_U64(tk_bl_total(tk_csi_numbering_bl(n)), 4);
    tk_csi_numbering_free(n);
    tk_csi_reader_free(r);
    tk_input_free(in);
    free(buf);
    tk_cfg_free(cfg);
}

static void test_profile_counts_paths(void)
{
    tk_cfg *cfg = load();
    if (!TK_CHECK(cfg != NULL)) return;
    tk_csi_profile *pr;
    tk_error err;
    TK_CHECK(tk_csi_profile_open(&pr, cfg, 13723, &err) == TK_OK);
    /* START->4, 4->5, nine times 5->6->5, 5->7, 7->END */
    uint32_t seq[32];
    size_t n = 0;
    seq[n++] = 10;
    seq[n++] = 11;
    for (int i = 0; i < 9; i++) {
        seq[n++] = 12;
        seq[n++] = 13;
    }
    seq[n++] = 14;
    seq[n++] = 15;
    /* feed it in two pieces, as chunks arrive */
    TK_CHECK(tk_csi_profile_edges(pr, 0, seq, 5, &err) == TK_OK);
    TK_CHECK(tk_csi_profile_edges(pr, 0, seq + 5, n - 5, &err) == TK_OK);
    tk_csi_profile_finish(pr);
    TK_CHECK_EQ_U64(tk_csi_profile_routine_count(pr), 1);
    tk_csi_numbering *num;
    tk_csi_profile_stats stats;
    const tk_csi_function *fn = tk_csi_profile_routine(pr, 0, &num, &stats);
    TK_CHECK(num != NULL);
    TK_CHECK_EQ_U64(stats.completed, 10);
    TK_CHECK_EQ_U64(stats.distinct, 3);
    TK_CHECK_EQ_U64(stats.unfinished, 0);
    TK_CHECK_EQ_U64(stats.unknown_start, 0);
    uint64_t pairs[8];
    size_t k = 0;
    TK_CHECK(tk_csi_profile_paths(pr, 0, pairs, 4, &k, NULL) == TK_OK);
    TK_CHECK_EQ_U64(k, 3);
    /* the hottest path: after the back edge, 5 6, back again: 8 times */
    TK_CHECK_EQ_U64(pairs[1], 8);
    tk_bl_path *p = tk_csi_numbering_path(num);
    TK_CHECK(tk_bl_decode(tk_csi_numbering_bl(num), pairs[0], p, NULL) == TK_OK);
    TK_CHECK(p->start_edge != TK_BL_NONE && p->end_edge != TK_BL_NONE);
    TK_CHECK_EQ_U64(p->len, 2);
    TK_CHECK_EQ_U64(fn->blocks[p->nodes[0]].id, 5);
    TK_CHECK_EQ_U64(fn->blocks[p->nodes[1]].id, 6);
    tk_csi_profile_free(pr);
    /* a trace starting inside the loop: the first path's start is unseen */
    TK_CHECK(tk_csi_profile_open(&pr, cfg, 13723, &err) == TK_OK);
    uint32_t mid[4] = {12, 13, 14, 15};
    TK_CHECK(tk_csi_profile_edges(pr, 7, mid, 4, &err) == TK_OK);
    tk_csi_profile_finish(pr);
    tk_csi_profile_routine(pr, 0, &num, &stats);
    TK_CHECK_EQ_U64(stats.unknown_start, 1);
    TK_CHECK_EQ_U64(stats.completed, 1);
    tk_csi_profile_free(pr);
    tk_cfg_free(cfg);
}

typedef struct thread_feed {
    tk_csi_profile *pr;
    uint64_t thread;
} thread_feed;

static int feed_thread(void *ctx, const uint32_t *edges, size_t n)
{
    thread_feed *f = ctx;
    return tk_csi_profile_edges(f->pr, f->thread, edges, n, NULL) != TK_OK;
}

/* The profile of a trace's process (tk_csi_profile_read_trace) is that of its threads' edges
 * fed thread by thread, chunk by chunk (gen11: two threads of process 77). */
static void test_profile_of_a_trace(void)
{
    tk_cfg *cfg = NULL;
    tk_dcfg_trace *t = NULL;
    tk_error err;
    if (!TK_CHECK(tk_dcfg_read_path(&cfg, "tests/data/dcfg_trace/pass/gen11.dcfg.json", NULL,
                                    &err) == TK_OK) ||
        !TK_CHECK(tk_dcfg_trace_open(&t, "tests/data/dcfg_trace/pass/gen11.level9.trace.json", NULL,
                                     &err) == TK_OK)) {
        tk_cfg_free(cfg);
        return;
    }
    tk_csi_profile *pr, *want;
    TK_CHECK(tk_csi_profile_read_trace(&pr, cfg, t, 77, &err) == TK_OK);
    TK_CHECK(tk_csi_profile_open(&want, cfg, 77, &err) == TK_OK);
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        thread_feed f = {want, ti.thread_id};
        for (size_t c = 0; c < ti.nchunks; c++) {
            uint64_t n;
            TK_CHECK(tk_dcfg_trace_decode_chunk(t, ti.first_chunk + c, feed_thread, &f, &n, NULL,
                                                &err) == TK_OK);
        }
    }
    tk_csi_profile_finish(want);
    uint64_t e1, u1, e2, u2;
    tk_csi_profile_totals(pr, &e1, &u1);
    tk_csi_profile_totals(want, &e2, &u2);
    TK_CHECK_EQ_U64(e1, 800);
    TK_CHECK_EQ_U64(e1, e2);
    TK_CHECK_EQ_U64(u1, u2);
    TK_CHECK_EQ_U64(tk_csi_profile_routine_count(pr), tk_csi_profile_routine_count(want));
    uint64_t unfinished = 0;
    for (uint32_t i = 0; i < tk_csi_profile_routine_count(pr); i++) {
        tk_csi_profile_stats a, b;
        tk_csi_numbering *num;
        tk_csi_profile_routine(pr, i, &num, &a);
        tk_csi_profile_routine(want, i, &num, &b);
        TK_CHECK(memcmp(&a, &b, sizeof a) == 0);
        unfinished += a.unfinished;
    }
    TK_CHECK(unfinished > 0); /* each thread's frames still open, counted per thread */
    tk_csi_profile_free(pr);
    tk_csi_profile_free(want);
    TK_CHECK(tk_csi_profile_read_trace(&pr, cfg, t, 78, &err) == TK_ERR_FORMAT && pr == NULL);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

TK_TEST_MAIN(TK_CASE(test_bridge_writes_checked_metadata), TK_CASE(test_profile_counts_paths),
             TK_CASE(test_profile_of_a_trace))
