/* CSI metadata: reader, errors with locations, round trip, path regeneration
 * and runtime-state decoding on the CSI guide's loop example. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/csi.h"
#include "tracekit/csi_report.h"

/* The CSI guide's complete example (unit test "loop"). */
static const char LOOP[] = "#\nrand\n1|EXIT\n0|ENTRY|5|5|5|5|5|5|5|5|-1|5\n$\n0->1|0$0\n"
                           "#\nmain\n3|EXIT\n2|ENTRY|9|9|9|9|9|9|9\n4|10|10|10\n"
                           "5|11|11|12|12|12|12|13|13|13\n6|-1|20|20|21|21\n7|14\n8|17\n"
                           "9|18|18|18|-1\n$\n2->4|0$0\n4->5|0$0\n4->6|2$2\n5->7|0$0\n5->8|1$1\n"
                           "6->3|0$0\n7->9|0$0\n8->9|0$0\n9~>4|3$3\n";

typedef struct reader_fixture {
    tk_input *in;
    tk_csi_reader *r;
} reader_fixture;

static int open_text(reader_fixture *f, const char *text, size_t len)
{
    tk_error err;
    tk_error_clear(&err);
    if (tk_input_open_memory(&f->in, text, len, "mem", NULL, &err) != TK_OK) return -1;
    return tk_csi_reader_open(&f->r, f->in, &err) == TK_OK ? 0 : -1;
}

static void close_text(reader_fixture *f)
{
    tk_csi_reader_free(f->r);
    tk_input_free(f->in);
}

/* Read the function called name (first one). Caller must keep f open. */
static const tk_csi_function *find_fn(reader_fixture *f, const char *name)
{
    const tk_csi_function *fn;
    tk_error err;
    while (tk_csi_reader_next(f->r, &fn, &err) == TK_OK)
        if (strcmp(fn->name, name) == 0) return fn;
    return NULL;
}

static void test_reads_loop_example(void)
{
    reader_fixture f;
    TK_CHECK(open_text(&f, LOOP, sizeof LOOP - 1) == 0);
    const tk_csi_function *fn;
    tk_error err;
    TK_CHECK(tk_csi_reader_next(f.r, &fn, &err) == TK_OK);
    TK_CHECK_STR(fn->name, "rand");
    TK_CHECK_EQ_U64(fn->nblocks, 2);
    TK_CHECK_EQ_U64(fn->blocks[fn->entry].nlines, 10);
    TK_CHECK_EQ_I64(fn->blocks[fn->entry].lines[8], TK_CSI_PATH_WRITE);
    TK_CHECK(tk_csi_reader_next(f.r, &fn, &err) == TK_OK);
    TK_CHECK_STR(fn->name, "main");
    TK_CHECK_EQ_U64(fn->text_line, 7);
    TK_CHECK_EQ_U64(fn->nblocks, 8);
    TK_CHECK_EQ_U64(fn->nedges, 9);
    TK_CHECK_EQ_U64(fn->blocks[fn->exit].id, 3);
    TK_CHECK_EQ_U64(fn->blocks[fn->entry].id, 2);
    TK_CHECK(fn->edges[8].back);
    TK_CHECK_EQ_U64(fn->edges[8].inc, 3);
    TK_CHECK_EQ_U64(fn->edges[8].text_line, 26);
    TK_CHECK(tk_csi_reader_next(f.r, &fn, &err) == TK_END);
    close_text(&f);
}

static void test_paths_of_loop_main(void)
{
    reader_fixture f;
    TK_CHECK(open_text(&f, LOOP, sizeof LOOP - 1) == 0);
    const tk_csi_function *fn = find_fn(&f, "main");
    TK_CHECK(fn != NULL);
    if (!fn) return;
    tk_csi_numbering *n;
    TK_CHECK(tk_csi_numbering_open(&n, NULL) == TK_OK);
    TK_CHECK(tk_csi_numbering_load(n, fn, NULL, NULL, NULL) == TK_OK);
    const tk_bl *bl = tk_csi_numbering_bl(n);
    TK_CHECK_EQ_U64(tk_bl_total(bl), 6);
    /* hidden 9->EXIT edge: the gap in block 9's intervals is 0 */
    uint64_t xw = 99;
    TK_CHECK(tk_bl_exit_weight(bl, 8, &xw, NULL) == TK_OK);
    TK_CHECK_EQ_U64(xw, 0);
    static const char *want[6] = {"2 4 5 7 9 ~", "2 4 5 8 9 ~", "2 4 6 3",
                                  "~ 4 5 7 9 ~", "~ 4 5 8 9 ~", "~ 4 6 3"};
    tk_bl_path *p = tk_csi_numbering_path(n);
    for (uint64_t id = 0; id < 6; id++) {
        TK_CHECK(tk_bl_decode(bl, id, p, NULL) == TK_OK);
        char buf[128] = "";
        size_t o = 0;
        if (p->start_edge != TK_BL_NONE) o += (size_t)snprintf(buf + o, sizeof buf - o, "~ ");
        for (size_t k = 0; k < p->len; k++)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%llu", k ? " " : "",
                                  (unsigned long long)fn->blocks[p->nodes[k]].id);
        if (p->end_edge != TK_BL_NONE) snprintf(buf + o, sizeof buf - o, " ~");
        TK_CHECK_STR(buf, want[id]);
    }
    tk_csi_numbering_free(n);
    close_text(&f);
}

static void test_state_decoding(void)
{
    reader_fixture f;
    TK_CHECK(open_text(&f, LOOP, sizeof LOOP - 1) == 0);
    const tk_csi_function *fn = find_fn(&f, "main");
    if (!TK_CHECK(fn != NULL)) return;
    tk_csi_numbering *n;
    TK_CHECK(tk_csi_numbering_open(&n, NULL) == TK_OK);
    TK_CHECK(tk_csi_numbering_load(n, fn, NULL, NULL, NULL) == TK_OK);
    /* the guide's first example: not wrapped, idx 2, cur 4, block 9 */
    int64_t arr[10] = {1, 3, 6, 3, 2, 4, 8, 9, 2, -1};
    tk_csi_state s;
    memset(&s, 0, sizeof s);
    s.paths = arr;
    s.npaths = 10;
    s.idx = 2;
    s.has_cur = 1;
    s.cur = 4;
    s.has_block = 1;
    s.block = 9;
    tk_csi_decoded d;
    tk_error err;
    TK_CHECK(tk_csi_state_decode(fn, n, &s, &d, &err) == TK_OK);
    TK_CHECK_EQ_U64(d.nids, 2);
    TK_CHECK_EQ_U64(d.nreadings, 1);
    TK_CHECK_EQ_U64(d.nseqs, 1);
    static const uint64_t want1[] = {2, 4, 5, 8, 9, 4, 5, 7, 9, 4, 5, 8, 9};
    TK_CHECK_EQ_U64(d.seq_lens[0], 13);
    for (size_t k = 0; k < d.seq_lens[0] && k < 13; k++)
        TK_CHECK_EQ_U64(fn->blocks[d.seqs[0][k]].id, want1[k]);
    TK_CHECK(!d.matches_expected); /* none documented */
    tk_csi_decoded_free(&d);
    /* the documented sequence: the same blocks match, one block more or another differs */
    uint64_t expected[14];
    memcpy(expected, want1, sizeof want1);
    s.has_expected = 1;
    s.expected = expected;
    for (int k = 0; k < 3; k++) {
        s.nexpected = k == 1 ? 14 : 13;
        expected[13] = 4;
        expected[12] = k == 2 ? 8 : 9;
        TK_CHECK(tk_csi_state_decode(fn, n, &s, &d, &err) == TK_OK);
        TK_CHECK(d.matches_expected == (k == 0));
        tk_csi_decoded_free(&d);
    }
    s.has_expected = 0;
    /* the second: wrapped, idx 2, cur 0, block 6 (after the write) */
    int64_t arr2[10] = {4, 5, 4, 4, 4, 4, 3, 4, 4, 4};
    s.paths = arr2;
    s.cur = 0;
    s.block = 6;
    TK_CHECK(tk_csi_state_decode(fn, n, &s, &d, &err) == TK_OK);
    TK_CHECK_EQ_U64(d.nids, 10);
    TK_CHECK_EQ_U64(d.nreadings, 1);
    TK_CHECK(d.nreadings == 1 && d.readings[0].after_write);
    TK_CHECK_EQ_U64(d.seq_lens[0], 38);
    TK_CHECK_EQ_U64(fn->blocks[d.seqs[0][37]].id, 6);
    tk_csi_decoded_free(&d);
    /* a value that is no path id of main */
    s.idx = 9;
    int64_t arr3[10] = {1, 3, 6, 3, 2, 4, 8, 9, 9, 9};
    s.paths = arr3;
    TK_CHECK(tk_csi_state_decode(fn, n, &s, &d, &err) == TK_ERR_FORMAT);
    tk_csi_numbering_free(n);
    close_text(&f);
}

static void test_real_quirks_accepted(void)
{
    /* ENTRY|NULL, a block that is only -1, parallel edges (switch), a split
     * edge '~>' that is no loop, variant names, an edge comment */
    static const char T[] = "#\nf$CC$PT\n1|EXIT\n0|ENTRY|NULL\n2|-1\n3|7\n$\n"
                            "0->2|0$0\n0->2|1$1\n0->3|2$2   # comment\n2->1|0$0\n3~>2|3$3\n";
    reader_fixture f;
    TK_CHECK(open_text(&f, T, sizeof T - 1) == 0);
    const tk_csi_function *fn;
    tk_error err;
    TK_CHECK(tk_csi_reader_next(f.r, &fn, &err) == TK_OK);
    TK_CHECK(fn->blocks[fn->entry].null_lines);
    TK_CHECK_EQ_U64(fn->nedges, 5);
    tk_csi_numbering *n;
    TK_CHECK(tk_csi_numbering_open(&n, NULL) == TK_OK);
    tk_diag diag;
    tk_diag_init(&diag, NULL, NULL);
    TK_CHECK(tk_csi_check_function(fn, n, "mem", &diag, NULL) == TK_OK);
    TK_CHECK_EQ_U64(diag.errors, 0);
    /* 0->2 twice, 0->3 then split: 2 + 1 + (ENTRY->2 via split) 1 = 4 paths */
    TK_CHECK_EQ_U64(tk_bl_total(tk_csi_numbering_bl(n)), 4);
    tk_csi_numbering_free(n);
    close_text(&f);
}

static void expect_error(const char *text, uint64_t line, uint64_t col, const char *needle)
{
    reader_fixture f;
    TK_CHECK(open_text(&f, text, strlen(text)) == 0);
    const tk_csi_function *fn;
    tk_error err;
    tk_error_clear(&err);
    tk_status st;
    while ((st = tk_csi_reader_next(f.r, &fn, &err)) == TK_OK)
        ;
    TK_CHECK(st == TK_ERR_FORMAT || st == TK_ERR_LIMIT);
    TK_CHECK_EQ_U64(err.line, line);
    TK_CHECK_EQ_U64(err.column, col);
    if (!TK_CHECK(strstr(err.message, needle) != NULL))
        fprintf(stderr, "  message: %s\n", err.message);
    close_text(&f);
}

static void test_errors_located(void)
{
    expect_error("#\nf\n1|EXIT\n0|ENTRY|4\n$\n0->7|0$0\n", 6, 4, "unknown block 7");
    expect_error("#\nf\n1|EXIT\n0|ENTRY|4x\n$\n", 4, 9, "line number");
    expect_error("#\nf\n1|EXIT|3\n0|ENTRY\n$\n", 3, 7, "EXIT block has no lines");
    expect_error("#\nf\n1|EXIT\n0|ENTRY\n0|5\n$\n", 5, 1, "defined twice");
    expect_error("#\nf\n1|EXIT\n2|5\n$\n", 5, 1, "no ENTRY");
    expect_error("#\nf\n1|EXIT\n0|ENTRY\n$\n0->1|0$99999999999999999999\n", 6, 8, "64-bit");
    expect_error("#\nf\n1|EXIT\n0|ENTRY\n$\n0=>1|0$0\n", 6, 2, "'->' or '~>'");
    expect_error("junk\n", 1, 1, "expected '#'");
    expect_error("#\nf\n1|EXIT\n0|ENTRY\n", 5, 1, "expected '$'");
}

static void test_resync_after_error(void)
{
    static const char T[] = "#\nbad\n1|EXIT\nx\n$\n#\ngood\n1|EXIT\n0|ENTRY|3\n$\n0->1|0$0\n";
    reader_fixture f;
    TK_CHECK(open_text(&f, T, sizeof T - 1) == 0);
    const tk_csi_function *fn;
    tk_error err;
    TK_CHECK(tk_csi_reader_next(f.r, &fn, &err) == TK_ERR_FORMAT);
    TK_CHECK(tk_csi_reader_next(f.r, &fn, &err) == TK_OK);
    TK_CHECK_STR(fn->name, "good");
    TK_CHECK(tk_csi_reader_next(f.r, &fn, &err) == TK_END);
    close_text(&f);
}

static void test_round_trip(void)
{
    reader_fixture f;
    TK_CHECK(open_text(&f, LOOP, sizeof LOOP - 1) == 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    const tk_csi_function *fn;
    tk_error err;
    while (tk_csi_reader_next(f.r, &fn, &err) == TK_OK)
        TK_CHECK(tk_csi_write_function(TK_TEST_WRITER(out), fn, &err) == TK_OK);
    fclose(out);
    /* the guide's text is already canonical */
    TK_CHECK(len == sizeof LOOP - 1 && memcmp(buf, LOOP, len) == 0);
    free(buf);
    close_text(&f);
}

/* Whole file into memory (NULL when it cannot be read). */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            uint8_t *b = realloc(buf, cap = cap ? cap * 2 : 4096);
            if (!b) break;
            buf = b;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    *len = n;
    return buf;
}

/* tk_csi_elf_section reads a section the same from a file name as from an
 * image in memory: the linked executable's two .debug_PT contributions, an
 * object without one, and the errors of a missing and of a non-ELF file. */
static void test_elf_section_by_path_and_image(void)
{
    const char *exe = "tests/data/csi/elf/multifile-pt.exe";
    tk_error err;
    tk_error_clear(&err);
    uint8_t *by_path = NULL, *by_image = NULL;
    size_t path_len = 0, image_len = 0, ilen = 0;
    TK_CHECK(tk_csi_elf_section(exe, NULL, 0, ".debug_PT", &by_path, &path_len, &err) == TK_OK);
    uint8_t *img = slurp(exe, &ilen);
    TK_CHECK(img && tk_csi_is_elf(img, ilen));
    TK_CHECK(tk_csi_elf_section(exe, img, ilen, ".debug_PT", &by_image, &image_len, &err) == TK_OK);
    TK_CHECK(path_len > 0 && path_len == image_len && by_path && by_image &&
             memcmp(by_path, by_image, path_len) == 0);
    /* both translation units' metadata: main from one, foo, bar and boo from the other */
    if (by_path) {
        TK_CHECK(strstr((const char *)by_path, "#\nmain\n") != NULL);
        TK_CHECK(strstr((const char *)by_path, "#\nfoo\n") != NULL);
        TK_CHECK(strstr((const char *)by_path, "#\nboo\n") != NULL);
    }
    tk_free(by_path);
    tk_free(by_image);
    free(img);

    uint8_t *d = NULL;
    size_t n = 0;
    TK_CHECK(tk_csi_elf_section("tests/data/csi/elf/no-pt.o", NULL, 0, ".debug_PT", &d, &n, &err) ==
             TK_END);
    TK_CHECK(d == NULL && n == 0);

    tk_error_clear(&err);
    TK_CHECK(tk_csi_elf_section("tests/data/csi/elf/does-not-exist", NULL, 0, ".debug_PT", &d, &n,
                                &err) == TK_ERR_IO);
    TK_CHECK(strstr(err.message, "cannot open") != NULL);
    tk_error_clear(&err);
    TK_CHECK(tk_csi_elf_section("tests/data/csi/elf/multifile-main.PT.txt", NULL, 0, ".debug_PT",
                                &d, &n, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "not an ELF file") != NULL);
    TK_CHECK(d == NULL);
}

/* State numbers go through core/num: the whole int64 range, TK_ERR_LIMIT
 * beyond it, located at the value. */
static void test_state_numbers(void)
{
    static const char ok[] = "function=main\nidx=-9223372036854775808\ncur=9223372036854775807\n";
    static const char big[] = "function=main\ncur=9223372036854775808\n";
    tk_error err;
    tk_input *in;
    tk_csi_state *states = NULL;
    size_t n = 0;
    TK_CHECK(tk_input_open_memory(&in, ok, sizeof ok - 1, "mem", NULL, &err) == TK_OK);
    TK_CHECK(tk_csi_states_read(in, &states, &n, &err) == TK_OK);
    TK_CHECK(n == 1 && states[0].idx == INT64_MIN && states[0].cur == INT64_MAX);
    tk_csi_states_free(states, n);
    tk_input_free(in);
    TK_CHECK(tk_input_open_memory(&in, big, sizeof big - 1, "mem", NULL, &err) == TK_OK);
    states = NULL;
    n = 0;
    TK_CHECK(tk_csi_states_read(in, &states, &n, &err) == TK_ERR_LIMIT);
    TK_CHECK_EQ_U64(err.line, 2);
    TK_CHECK_EQ_U64(err.column, 5);
    tk_csi_states_free(states, n);
    tk_input_free(in);
}

/* Functions of one name are labelled by their occurrence: "rand", "rand#2", "rand#3"; a
 * function read with an error does not count. */
static void test_occurrence_labels(void)
{
    static const char text[] = "#\nrand\n1|EXIT\n0|ENTRY|5\n$\n0->1|0$0\n"
                               "#\nmain\n1|EXIT\n0|ENTRY|5\n$\n0->1|0$0\n"
                               "#\nrand\n1|EXIT\n0|ENTRY|5\n$\n0->9|0$0\n"
                               "#\nrand\n1|EXIT\n0|ENTRY|5\n$\n0->1|0$0\n"
                               "#\nrand\n1|EXIT\n0|ENTRY|5\n$\n0->1|0$0\n";
    static const char *const want[] = {"rand", "main", NULL, "rand#2", "rand#3"};
    reader_fixture f;
    if (!TK_CHECK(open_text(&f, text, sizeof text - 1) == 0)) return;
    for (int i = 0; i < 5; i++) {
        const tk_csi_function *fn;
        tk_error err;
        tk_status st = tk_csi_reader_next(f.r, &fn, &err);
        if (!want[i]) {
            TK_CHECK(st == TK_ERR_FORMAT);
            continue;
        }
        char label[64];
        if (TK_CHECK(st == TK_OK)) {
            TK_CHECK_EQ_U64(tk_csi_function_label(fn, label, sizeof label), strlen(want[i]));
            TK_CHECK_STR(label, want[i]);
        }
    }
    close_text(&f);
}

/* annotate's lines (tk_csi_annotate_lines) on the guide's main, whose six paths are
 * 0: 2 4 5 7 9, 1: 2 4 5 8 9, 2: 2 4 6, 3: 4 5 7 9, 4: 4 5 8 9, 5: 4 6 (lines: block 2 has
 * 9, 4 has 10, 5 has 11-13, 6 has 20 and 21, 7 has 14, 8 has 17, 9 has 18). */
static void test_annotate_lines(void)
{
    reader_fixture f;
    TK_CHECK(open_text(&f, LOOP, sizeof LOOP - 1) == 0);
    const tk_csi_function *fn = find_fn(&f, "main");
    if (!TK_CHECK(fn != NULL)) return;
    tk_csi_numbering *n;
    TK_CHECK(tk_csi_numbering_open(&n, NULL) == TK_OK);
    TK_CHECK(tk_csi_numbering_load(n, fn, NULL, NULL, NULL) == TK_OK);
    tk_csi_line_paths *l;
    size_t nl;
    uint64_t enumerated;
    tk_error err;
    TK_CHECK(tk_csi_annotate_lines(fn, n, 0, &l, &nl, &enumerated, &err) == TK_OK);
    TK_CHECK_EQ_U64(enumerated, 6);
    static const int64_t lines[] = {9, 10, 11, 12, 13, 14, 17, 18, 20, 21};
    static const uint64_t paths[] = {3, 6, 4, 4, 4, 2, 2, 4, 2, 2};
    if (TK_CHECK(nl == 10))
        for (size_t i = 0; i < nl; i++) {
            TK_CHECK_EQ_I64(l[i].line, lines[i]);
            TK_CHECK_EQ_U64(l[i].paths, paths[i]);
        }
    TK_CHECK(nl == 10 && l[6].ids[0] == 1 && l[6].ids[1] == 4); /* line 17: block 8 */
    TK_CHECK(nl == 10 && l[9].ids[0] == 2 && l[9].ids[1] == 5); /* line 21: block 6 */
    tk_free(l);
    /* the first two paths only */
    TK_CHECK(tk_csi_annotate_lines(fn, n, 2, &l, &nl, &enumerated, &err) == TK_OK);
    TK_CHECK_EQ_U64(enumerated, 2);
    TK_CHECK(nl == 10 && l[0].paths == 2 && l[1].paths == 2 && l[5].paths == 1 && l[8].paths == 0);
    tk_free(l);
    tk_csi_numbering_free(n);
    close_text(&f);
}

TK_TEST_MAIN(TK_CASE(test_reads_loop_example), TK_CASE(test_paths_of_loop_main),
             TK_CASE(test_state_decoding), TK_CASE(test_real_quirks_accepted),
             TK_CASE(test_errors_located), TK_CASE(test_resync_after_error),
             TK_CASE(test_round_trip), TK_CASE(test_elf_section_by_path_and_image),
             TK_CASE(test_state_numbers), TK_CASE(test_occurrence_labels),
             TK_CASE(test_annotate_lines))
