/* CSI coverage metadata: the reader in both forms, located errors and
 * resynchronisation, the writer's round trip, the check's rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/csi_cov.h"

typedef struct fixture {
    tk_input *in;
    tk_csi_cov_reader *r;
} fixture;

static void open_text(fixture *f, const char *text, tk_csi_cov_kind kind)
{
    tk_error err;
    TK_CHECK(tk_input_open_memory(&f->in, text, strlen(text), "t", NULL, &err) == TK_OK);
    TK_CHECK(tk_csi_cov_reader_open(&f->r, f->in, kind, &err) == TK_OK);
}

static void close_text(fixture *f)
{
    tk_csi_cov_reader_free(f->r);
    tk_input_free(f->in);
}

static void test_read_forms(void)
{
    fixture f;
    tk_error err;
    const tk_csi_cov_function *fn;
    open_text(&f,
              "#a|__CC_arr_t_c_a\n0|CC0|20|printf\n-1||18|abc\n#b|__CC_arr_t_c_b\n"
              "0|CC0|26|?",
              TK_CSI_COV_NONE);
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_OK);
    TK_CHECK(tk_csi_cov_reader_kind(f.r) == TK_CSI_COV_CC);
    TK_CHECK(tk_csi_cov_reader_form(f.r) == TK_CSI_COV_FORM_LABELS);
    TK_CHECK_STR(fn->name, "a");
    TK_CHECK_STR(fn->array, "__CC_arr_t_c_a");
    TK_CHECK_EQ_U64(fn->nentries, 2);
    TK_CHECK_EQ_U64(fn->ninstrumented, 1);
    TK_CHECK_EQ_I64(fn->entries[1].index, -1);
    TK_CHECK_EQ_U64(fn->entries[1].label_len, 0);
    TK_CHECK_EQ_U64(fn->entries[1].lines[0], 18);
    TK_CHECK_STR(fn->entries[1].callee, "abc");
    TK_CHECK_EQ_U64(fn->entries[1].text_line, 3);
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_OK);
    TK_CHECK_STR(fn->entries[0].callee, "?");
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_END);
    close_text(&f);

    open_text(&f, "#abc|__BBC_arr_abc\n0|3|4\n1|NULL\n", TK_CSI_COV_NONE);
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_OK);
    TK_CHECK(tk_csi_cov_reader_form(f.r) == TK_CSI_COV_FORM_PLAIN);
    TK_CHECK(fn->entries[0].label == NULL);
    TK_CHECK_EQ_U64(fn->entries[0].nlines, 2);
    TK_CHECK(fn->entries[1].null_lines);
    close_text(&f);
}

static void test_errors_resync(void)
{
    fixture f;
    tk_error err;
    const tk_csi_cov_function *fn;
    open_text(&f, "#a|__BBC_arr_a\n0|BBC0|3|x\n1|BBC1|4\n#b|__BBC_arr_b\n0|BBC0|5\n",
              TK_CSI_COV_BBC);
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_ERR_FORMAT);
    TK_CHECK_EQ_U64(err.line, 2);
    TK_CHECK_EQ_U64(err.column, 10);
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_OK);
    TK_CHECK_STR(fn->name, "b");
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_END);
    close_text(&f);

    open_text(&f, "#x|__XX_arr_x\n", TK_CSI_COV_NONE);
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "--from") != NULL);
    close_text(&f);

    open_text(&f, "#a|__CC_arr_a\n0|CC0|184467440737095516160|f\n", TK_CSI_COV_CC);
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_ERR_LIMIT);
    TK_CHECK_EQ_U64(err.column, 7);
    close_text(&f);
}

static void test_write_round_trip(void)
{
    static const char text[] = "#main|__CC_arr_m_c_main\n0|CC0|35|a\n-1||35|printf\n";
    fixture f;
    tk_error err;
    const tk_csi_cov_function *fn;
    open_text(&f, text, TK_CSI_COV_NONE);
    TK_CHECK(tk_csi_cov_reader_next(f.r, &fn, &err) == TK_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    TK_CHECK(tk_csi_cov_write_function(TK_TEST_WRITER(out), TK_CSI_COV_CC, TK_CSI_COV_FORM_ANY, fn,
                                       &err) == TK_OK);
    TK_CHECK(tk_csi_cov_write_function(TK_TEST_WRITER(out), TK_CSI_COV_CC, TK_CSI_COV_FORM_PLAIN,
                                       fn, &err) == TK_OK);
    fclose(out);
    TK_CHECK_STR(buf, "#main|__CC_arr_m_c_main\n0|CC0|35|a\n-1||35|printf\n"
                      "#main|__CC_arr_m_c_main\n0|35|a\n-1|35|printf\n");
    free(buf);
    uint64_t lines[4];
    TK_CHECK_EQ_U64(tk_csi_cov_line_entries(fn), 2);
    TK_CHECK_EQ_U64(tk_csi_cov_lines(fn, lines), 1);
    close_text(&f);
}

static void count(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)loc;
    (void)msg;
    if (sev == TK_SEV_ERROR) ++*(int *)ctx;
}

/* Errors the check finds in text read as kind. */
static int check_errors(const char *text, tk_csi_cov_kind kind)
{
    fixture f;
    tk_error err;
    const tk_csi_cov_function *fn;
    int errors = 0;
    tk_diag d;
    tk_diag_init(&d, count, &errors);
    tk_csi_cov_checker *c;
    TK_CHECK(tk_csi_cov_checker_open(&c, kind, NULL) == TK_OK);
    open_text(&f, text, kind);
    while (tk_csi_cov_reader_next(f.r, &fn, &err) == TK_OK)
        tk_csi_cov_check_function(c, fn, "t", &d, NULL);
    close_text(&f);
    tk_csi_cov_checker_free(c);
    return errors;
}

static void test_check_rules(void)
{
    TK_CHECK_EQ_U64(
        check_errors("#a|__CC_arr_f_c_a\n1|CC1|2|x\n0|CC0|3|y\n-1||4|z\n", TK_CSI_COV_CC), 0);
    TK_CHECK_EQ_U64(check_errors("#a|__FC_arr_a\n#a$1|__FC_arr_a\n", TK_CSI_COV_FC), 0);
    TK_CHECK_EQ_U64(check_errors("#a|__FC_arr_a\n#b|__FC_arr_a\n", TK_CSI_COV_FC), 2);
    TK_CHECK_EQ_U64(check_errors("#a|__CC_arr_b_a\n0|CC0|2|x\n", TK_CSI_COV_CC), 0);
    TK_CHECK_EQ_U64(check_errors("#a|__CC_arr_ba\n0|CC0|2|x\n", TK_CSI_COV_CC), 1);
    TK_CHECK_EQ_U64(check_errors("#a|__BBC_arr_a\n0|CC0|2|x\n", TK_CSI_COV_CC), 1);
    TK_CHECK_EQ_U64(check_errors("#a|__BBC_arr_a\n1|BBC1|2\n1|BBC1|3\n", TK_CSI_COV_BBC), 2);
    TK_CHECK_EQ_U64(check_errors("#a|__BBC_arr_a\n0|BBC1|2\n", TK_CSI_COV_BBC), 1);
    TK_CHECK_EQ_U64(check_errors("#a|__BBC_arr_a\n-1||2\n", TK_CSI_COV_BBC), 1);
}

TK_TEST_MAIN(TK_CASE(test_read_forms), TK_CASE(test_errors_resync), TK_CASE(test_write_round_trip),
             TK_CASE(test_check_rules))
