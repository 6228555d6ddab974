/* DCFG-Trace edge lists ("PID THREAD EDGE_ID" lines, tracekit/dcfg_trace.h): the runs the
 * reader hands out, every bad line's located error, the check against a DCFG, and the
 * size estimate of a plain and a compressed list. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static const char gen11_dcfg[] = "tests/data/dcfg_trace/pass/gen11.dcfg.json";

typedef struct runs {
    uint64_t pid[8], tid[8], first[8], last[8], n[8], sum[8];
    size_t count;
} runs;

/* Read all of text; the status that ended it (TK_END when whole). */
static tk_status read_all(const char *text, const tk_cfg *cfg, runs *out, tk_error *err)
{
    tk_input *in;
    memset(out, 0, sizeof *out);
    tk_status st = tk_input_open_memory(&in, text, strlen(text), "e.txt", NULL, err);
    if (st != TK_OK) return st;
    tk_dcfg_trace_edge_reader *r;
    if ((st = tk_dcfg_trace_edge_reader_open(&r, in, cfg, err)) != TK_OK) {
        tk_input_free(in);
        return st;
    }
    tk_dcfg_trace_edge_run run;
    while ((st = tk_dcfg_trace_edge_reader_next(r, &run, err)) == TK_OK) {
        size_t k = out->count < 8 ? out->count : 7;
        out->pid[k] = run.pid;
        out->tid[k] = run.thread_id;
        out->first[k] = run.first_line;
        out->last[k] = run.line;
        out->n[k] = run.n;
        for (size_t i = 0; i < run.n; i++) out->sum[k] += run.edges[i];
        out->count++;
    }
    tk_dcfg_trace_edge_reader_free(r);
    tk_input_free(in);
    return st;
}

/* Runs of consecutive lines of one thread; comments and blank lines skipped; blanks and a
 * CR around the numbers allowed. */
static void test_runs(void)
{
    tk_error err;
    tk_error_clear(&err);
    runs v;
    const char *text = "# pid thread edge\n"
                       "77 0 152\n"
                       "\t77  0\t1\r\n"
                       "\n"
                       "  # a comment\n"
                       "77 1 39\n"
                       "78 1 38\n"
                       "78 1 40 \n"
                       "77 0 2";
    TK_CHECK_EQ_I64(read_all(text, NULL, &v, &err), TK_END);
    TK_CHECK_EQ_U64(v.count, 4);
    TK_CHECK(v.pid[0] == 77 && v.tid[0] == 0 && v.n[0] == 2 && v.sum[0] == 153);
    TK_CHECK(v.first[0] == 2 && v.last[0] == 3);
    TK_CHECK(v.pid[1] == 77 && v.tid[1] == 1 && v.n[1] == 1 && v.first[1] == 6);
    TK_CHECK(v.pid[2] == 78 && v.tid[2] == 1 && v.n[2] == 2 && v.sum[2] == 78);
    TK_CHECK(v.first[2] == 7 && v.last[2] == 8);
    /* the reader does not judge order: 77 0 again is a run of its own (the encoder refuses
     * it) */
    TK_CHECK(v.pid[3] == 77 && v.tid[3] == 0 && v.n[3] == 1 && v.first[3] == 9);
    TK_CHECK_EQ_I64(read_all("", NULL, &v, &err), TK_END);
    TK_CHECK_EQ_U64(v.count, 0);
    TK_CHECK_EQ_I64(read_all("# only\n\n", NULL, &v, &err), TK_END);
    TK_CHECK_EQ_U64(v.count, 0);
}

/* A thread of more than TK_DCFG_TRACE_EDGE_RUN_MAX edges comes in full runs and the
 * rest. */
static void test_long_thread(void)
{
    tk_error err;
    tk_error_clear(&err);
    runs v;
    size_t lines = TK_DCFG_TRACE_EDGE_RUN_MAX + 10;
    char *text = malloc(lines * 8 + 1);
    if (!text) return;
    for (size_t i = 0; i < lines; i++) memcpy(text + 8 * i, "5 6 123\n", 8);
    text[8 * lines] = 0;
    TK_CHECK_EQ_I64(read_all(text, NULL, &v, &err), TK_END);
    TK_CHECK_EQ_U64(v.count, 2);
    TK_CHECK_EQ_U64(v.n[0], TK_DCFG_TRACE_EDGE_RUN_MAX);
    TK_CHECK_EQ_U64(v.n[1], 10);
    TK_CHECK_EQ_U64(v.first[1], TK_DCFG_TRACE_EDGE_RUN_MAX + 1);
    TK_CHECK_EQ_U64(v.last[1], lines);
    free(text);
}

/* Every bad line: TK_ERR_FORMAT (TK_ERR_LIMIT over 64 bits) at its line and the column of
 * what is wrong, with the message. */
static void test_bad_lines(void)
{
    static const struct {
        const char *text;
        tk_status code;
        uint64_t line, column;
        const char *message;
    } cases[] = {
        {"77 0 1\n77 0 x\n", TK_ERR_FORMAT, 2, 6, "expected \"PID THREAD EDGE_ID\""},
        {"77 0\n", TK_ERR_FORMAT, 1, 5, "expected \"PID THREAD EDGE_ID\""},
        {"{\n", TK_ERR_FORMAT, 1, 1, "expected \"PID THREAD EDGE_ID\""},
        {"  -77 0 1\n", TK_ERR_FORMAT, 1, 3, "expected \"PID THREAD EDGE_ID\""},
        {"77 0x1 152\n", TK_ERR_FORMAT, 1, 5, "expected \"PID THREAD EDGE_ID\""},
        {"77 0 1 2\n", TK_ERR_FORMAT, 1, 8,
         "expected the end of the line after \"PID THREAD EDGE_ID\""},
        {"77 0 1#\n", TK_ERR_FORMAT, 1, 7,
         "expected the end of the line after \"PID THREAD EDGE_ID\""},
        {"77 0 0\n", TK_ERR_FORMAT, 1, 6, "edge id 0 out of range (1..4294967295)"},
        {"77 0 4294967296\n", TK_ERR_FORMAT, 1, 6,
         "edge id 4294967296 out of range (1..4294967295)"},
        {"77 18446744073709551616 1\n", TK_ERR_LIMIT, 1, 4,
         "a number over 64 bits in \"PID THREAD EDGE_ID\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tk_error err;
        tk_error_clear(&err);
        runs v;
        if (!TK_CHECK(read_all(cases[i].text, NULL, &v, &err) == cases[i].code) ||
            !TK_CHECK(err.line == cases[i].line && err.column == cases[i].column))
            fprintf(stderr, "    case %zu: %llu:%llu: %s\n", i, (unsigned long long)err.line,
                    (unsigned long long)err.column, err.message);
        TK_CHECK_STR(err.message, cases[i].message);
        TK_CHECK_STR(err.path, "e.txt");
    }
}

/* With a DCFG: a process it lacks at the PID, an edge its process lacks at the EDGE_ID. */
static void test_against_the_dcfg(void)
{
    tk_error err;
    tk_error_clear(&err);
    tk_cfg *cfg = NULL;
    if (!TK_CHECK(tk_dcfg_read_path(&cfg, gen11_dcfg, NULL, &err) == TK_OK)) return;
    runs v;
    TK_CHECK_EQ_I64(read_all("77 0 152\n77 0 1\n77 1 39\n", cfg, &v, &err), TK_END);
    TK_CHECK_EQ_U64(v.count, 2);
    TK_CHECK_EQ_I64(read_all("77 0 152\n77 0 99999\n", cfg, &v, &err), TK_ERR_FORMAT);
    TK_CHECK_STR(err.message, "edge 99999 is not in the DCFG's process 77");
    TK_CHECK(err.line == 2 && err.column == 6);
    TK_CHECK_EQ_I64(read_all("77 0 152\n 78 0 152\n", cfg, &v, &err), TK_ERR_FORMAT);
    TK_CHECK_STR(err.message, "edge 152: process 78 is not in the DCFG");
    TK_CHECK(err.line == 2 && err.column == 2);
    /* without it, the same lines pass */
    TK_CHECK_EQ_I64(read_all("77 0 152\n77 0 99999\n78 0 152\n", NULL, &v, &err), TK_END);
    tk_cfg_free(cfg);
}

/* A plain list: its size / 12; a compressed one: its content's, from the ratio. */
static void test_estimate(void)
{
    TK_CHECK_EQ_U64(tk_dcfg_trace_edge_list_estimate("-"), 0);
    TK_CHECK_EQ_U64(tk_dcfg_trace_edge_list_estimate("tests/data/no/such.edges"), 0);
    FILE *f = fopen("tests/data/dcfg_trace/pass/gen11.edges", "rb");
    if (!TK_CHECK(f != NULL)) return;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    TK_CHECK_EQ_U64(tk_dcfg_trace_edge_list_estimate("tests/data/dcfg_trace/pass/gen11.edges"),
                    n / 12);
    char path[] = "/tmp/tk_edges_XXXXXX";
    int fd = mkstemp(path);
    if (!TK_CHECK(fd >= 0)) return;
    gzFile gz = gzdopen(fd, "wb9");
    for (int i = 0; gz && i < 100; i++) gzwrite(gz, text, (unsigned)n);
    if (TK_CHECK(gz != NULL) && TK_CHECK(gzclose(gz) == Z_OK))
        TK_CHECK_EQ_U64(tk_dcfg_trace_edge_list_estimate(path), 100 * n / 12);
    unlink(path);
}

TK_TEST_MAIN(TK_CASE(test_runs), TK_CASE(test_long_thread), TK_CASE(test_bad_lines),
             TK_CASE(test_against_the_dcfg), TK_CASE(test_estimate))
