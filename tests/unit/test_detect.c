/* Content detection of the formats; never by file name. */
#include "tk_test.h"
#include "tracekit/tracekit.h"

static const char *detect(const char *text, size_t len)
{
    const tk_format *f = tk_format_detect((const uint8_t *)text, len, NULL);
    return f ? f->name : "none";
}

#define D(s) detect((s), sizeof(s) - 1)

static void test_text_formats(void)
{
    TK_CHECK_STR(D("# callgrind format\nversion: 1\n"), "callgrind");
    TK_CHECK_STR(D("events: Ir\nfl=a.c\nfn=main\n1 5\n"), "callgrind");
    TK_CHECK_STR(D("positions: instr line\nevents: cpu(ms)\nfl=(1) x\n"), "callgrind");
    TK_CHECK_STR(D("#\nrand\n1|EXIT\n0|ENTRY|5\n$\n0->1|0$0\n"), "csi");
    TK_CHECK_STR(D("#a|__CC_arr_tests_funcs_funcs_c_a\n0|CC0|20|printf\n"), "csi-cc");
    TK_CHECK_STR(D("#a|__CC_arr_a\n0|20|printf\n"), "csi-cc");
    TK_CHECK_STR(D("#main|__CC_arr_main\n-1||8|boo\n"), "csi-cc");
    TK_CHECK_STR(D("#abc|__FC_arr_abc\n#a|__FC_arr_a\n"), "csi-fc");
    TK_CHECK_STR(D("#abc|__FC_arr_abc"), "csi-fc");
    TK_CHECK_STR(D("#abc|__BBC_arr_abc\n0|BBC0|3|4\n"), "csi-bbc");
    TK_CHECK_STR(D("#abc|__BBC_arr_abc\n0|NULL\n"), "csi-bbc");
    TK_CHECK_STR(D("#abc|__XX_arr_abc\n0|3|4\n"), "none");
    TK_CHECK_STR(D("#abc|__FC_arr_abc\n0|3|4\n"), "csi-fc"); /* read as FC: located error */
    TK_CHECK_STR(D("3\n1873 2 8048210 foo1.c main 4\nSIZE 0\n"), "wet");
    TK_CHECK_STR(D("0x8048242#0 --> 0x8048210#0\n8048242#1 --> 8048225#0\n"), "wet");
    TK_CHECK_STR(D("{ \"MAJOR_VERSION\" : 1, \"FILE_NAMES\" : [] }"), "dcfg");
    TK_CHECK_STR(D("{\"MAJOR_VERSION\":1,\"PROCESSES\":[[\"PROCESS_ID\",\"STRING_DICTIONARY\","
                   "\"TRANSITION_TABLE\"]]}"),
                 "dcfg-trace");
    TK_CHECK_STR(D("main;parse;lex 42\nmain;eval 17\n"), "folded");
    TK_CHECK_STR(D("main;a 3 5\nmain 1 0\n"), "folded");
    TK_CHECK_STR(D("main;a 3\nmain;b x\n"), "folded"); /* one bad line: check says where */
    TK_CHECK_STR(D("12 34\n56 78\n"), "none"); /* numbers alone: no name */
    TK_CHECK_STR(D("a b\nc d\ne 1\n"), "none"); /* mostly not stacks */
    TK_CHECK_STR(D("hello world\n"), "none");
    TK_CHECK_STR(D("{\"traceEvents\": []}"), "none");
}

static void test_xray_headers(void)
{
    uint8_t h[48] = {0};
    h[0] = 5; /* version 5, little-endian */
    h[2] = 1; /* FDR */
    h[32] = 0x0f; /* BufferExtents */
    TK_CHECK_STR(tk_format_detect(h, sizeof h, NULL)->name, "xray");
    h[0] = 0;
    h[1] = 5; /* big-endian header */
    h[2] = 0;
    h[3] = 1;
    TK_CHECK_STR(tk_format_detect(h, sizeof h, NULL)->name, "xray");
    h[1] = 9; /* no such version */
    TK_CHECK(tk_format_detect(h, sizeof h, NULL) == NULL);
    TK_CHECK(tk_format_detect(h, 8, NULL) == NULL);
}

static void test_registry(void)
{
    TK_CHECK_EQ_U64(tk_format_count(), 10);
    TK_CHECK(tk_format_find("xray") != NULL);
    TK_CHECK(tk_format_find("nope") == NULL);
    char caps[128];
    TK_CHECK_STR(tk_format_caps_string(TK_CAP_READ | TK_CAP_CHECK, caps, sizeof caps),
                 "read check");
}

TK_TEST_MAIN(TK_CASE(test_text_formats), TK_CASE(test_xray_headers), TK_CASE(test_registry))
