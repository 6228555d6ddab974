/* The tokenizer's fast paths against their general twins (tk_json_set_fast,
 * core/fastpath.h): the same documents read with the switch on and off give
 * the same tokens (text, values, flags, locations) and the same errors
 * (status, code, message, location), through tk_json_next over a content in
 * memory and over a file streamed in chunks of 5 bytes (a memory input is
 * taken as whole, whatever its chunks), and through the calls of a fixed
 * layout (tk_json_next_u64, tk_json_next_raw). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "tk_test.h"

/* The file that holds the document of the streamed reading. */
static char doc_path[] = "/tmp/tk_test_json_paths_XXXXXX";

/* What reading doc gives, as a text: each token or value and the final status and
 * error. how: 0 tk_json_next over tk_json_open_memory, 1 tk_json_next over doc_path
 * streamed in chunks of at most 5 bytes, 2 the fixed-layout calls. max_string: 0 or a
 * limit. */
static char *reading(const char *doc, size_t len, int fast, int how, size_t max_string)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f) return NULL;
    tk_error err;
    memset(&err, 0, sizeof err);
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_depth = 16;
    jo.max_string = max_string;
    tk_input *in = NULL;
    tk_json *j = NULL;
    tk_status st;
    if (how == 1) {
        tk_input_options io = TK_INPUT_OPTIONS_INIT;
        io.no_mmap = 1;
        io.chunk_max = 5;
        st = tk_input_open(&in, doc_path, &io, &err);
        if (st == TK_OK) st = tk_json_open(&j, in, &jo, &err);
    } else {
        st = tk_json_open_memory(&j, doc, len, "t.json", &jo, &err);
    }
    if (st == TK_OK) {
        tk_json_set_fast(j, fast);
        for (int n = 0; st == TK_OK && n < 1000; n++) {
            if (how == 2) {
                int c;
                if ((st = tk_json_peek(j, &c, &err)) != TK_OK || c < 0) break;
                if (memchr(",:[]{}", c, 6)) {
                    st = tk_json_take(j, &err);
                    fprintf(f, "take %c\n", c);
                } else if (c == '"') {
                    const char *s;
                    size_t n2;
                    if ((st = tk_json_next_raw(j, "a string", &s, &n2, &err)) == TK_OK)
                        fprintf(f, "raw %zu '%.*s'\n", n2, (int)n2, s);
                } else {
                    uint64_t v;
                    if ((st = tk_json_next_u64(j, "a count", &v, &err)) == TK_OK)
                        fprintf(f, "u64 %llu\n", (unsigned long long)v);
                }
                continue;
            }
            tk_json_token t;
            if ((st = tk_json_next(j, &t, &err)) != TK_OK) break;
            fprintf(f, "%d at %llu:%llu %lld", (int)t.type, (unsigned long long)t.line,
                    (unsigned long long)t.column, (long long)t.offset);
            if (t.type == TK_JSON_NUMBER) {
                uint64_t bits;
                memcpy(&bits, &t.d, sizeof bits);
                fprintf(f, " '%.*s' int %d neg %d u %llu d %016llx", (int)t.len, t.str, t.is_int,
                        t.negative, (unsigned long long)t.u, (unsigned long long)bits);
            } else if (t.type == TK_JSON_STRING || t.type == TK_JSON_KEY) {
                fprintf(f, " %zu esc %d '", t.len, t.had_escapes);
                fwrite(t.str, 1, t.len, f);
                fputc('\'', f);
            }
            fputc('\n', f);
        }
    }
    fprintf(f, "status %d, error %d at %llu:%llu %lld: %s\n", (int)st, (int)err.code,
            (unsigned long long)err.line, (unsigned long long)err.column, (long long)err.offset,
            err.message);
    tk_json_free(j);
    tk_input_free(in);
    fclose(f);
    return buf;
}

static int compared;
static int streamed = 1; /* whether same_both_ways streams the document from a file too */

/* doc read every way with the fast paths on and off: the same. */
static void same_both_ways(const char *doc, size_t len)
{
    static const size_t limits[] = {0, 12};
    if (streamed) {
        FILE *f = fopen(doc_path, "wb");
        TK_CHECK(f && fwrite(doc, 1, len, f) == len);
        if (f) fclose(f);
    }
    for (int how = 0; how < 3; how += how == 0 && !streamed ? 2 : 1)
        for (int l = 0; l < 2; l++) {
            char *a = reading(doc, len, 1, how, limits[l]);
            char *b = reading(doc, len, 0, how, limits[l]);
            if (!TK_CHECK(a && b && strcmp(a, b) == 0))
                fprintf(stderr, "  document '%.*s' (read %d, limit %zu):\nfast:\n%s\ngeneral:\n%s",
                        (int)len, doc, how, limits[l], a ? a : "?", b ? b : "?");
            free(a);
            free(b);
            compared++;
        }
}

static void same_str(const char *doc) { same_both_ways(doc, strlen(doc)); }

static const char *const numbers[] = {
    "0", "1", "9", "10", "12", "1234567", "12345678", "123456789", "999999999999999999",
    /* 19 digits: the fast paths' longest */
    "1234567890123456789", "9999999999999999999", "1000000000000000000",
    /* 20 digits: over the fast paths, in and over 64 bits */
    "10000000000000000000", "18446744073709551615", "18446744073709551616", "99999999999999999999",
    "123456789012345678901234567890",
    /* leading zeros */
    "00", "01", "007", "0000000000000000000001", "-00", "-01", "00.5",
    /* negative */
    "-0", "-1", "-9", "-1234567", "-9223372036854775808", "-18446744073709551615",
    "-18446744073709551616", "--1", "-",
    /* reals, exponents */
    "0.5", "-0.5", "1.", "1.e5", ".5", "1.0", "12345678.25", "1234567890123456789.5", "1e5", "1E5",
    "1e+5", "1E-5", "1e", "1e+", "1e-", "0e0", "1e400", "-1e400", "1e-400", "1.5e300", "12e",
    "1.2.3", "1ee5", "1e5.5", "+1", "1+", "1-", "0x10", "1a", "2147483648e-10",
    "4.9406564584124654e-324", "1.7976931348623157e308"};

/* Each number alone, at the end of the content, in an array, before a separator, after
 * padding (every offset mod 8), and before the end of the content (the fast paths need a
 * byte after the digits). */
static void test_numbers(void)
{
    int fd = mkstemp(doc_path);
    TK_CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    char doc[256];
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
        const char *n = numbers[i];
        same_str(n);
        for (int pad = 0; pad < 9; pad++) {
            streamed = pad < 2; /* (a file a document: the paddings in memory only) */
            static const char *const after[] = {"]", ", 1]", ",2]", " ]", "\n]", "x]",
                                                "",  "}",    ".]",  "e]", "0]",  "\"]"};
            for (size_t a = 0; a < sizeof after / sizeof *after; a++) {
                snprintf(doc, sizeof doc, "[%*s%s%s", pad, "", n, after[a]);
                same_str(doc);
            }
            snprintf(doc, sizeof doc, "{\"k\":%*s%s}", pad, "", n);
            same_str(doc);
            /* a number that is the last byte of the content, seen by the fast paths' end
             * checks: the same document without its last bytes */
            snprintf(doc, sizeof doc, "[%*s%s]", pad, "", n);
            same_both_ways(doc, strlen(doc) - 1);
        }
    }
}

/* Strings with each kind of stop (an escape, a control byte, invalid UTF-8, the end) after
 * 0 to 17 plain bytes (every offset mod 8 of the 8-byte runs), then more plain bytes. */
static void test_strings(void)
{
    static const char *const stops[] = {"\\n",
                                        "\\\"",
                                        "\\\\",
                                        "\\/",
                                        "\\u00e9",
                                        "\\ud83d\\ude00",
                                        "\\ud800",
                                        "\\udc00x",
                                        "\\x",
                                        "\\u12",
                                        "\\u12g4",
                                        "\\",
                                        "\x01",
                                        "\x1f",
                                        "\n",
                                        "\t",
                                        "\x7f",
                                        "\xff\xfe",
                                        "\xc3",
                                        "\xc3\xa9",
                                        "\xed\xa0\x80",
                                        "\xf4\x90\x80\x80",
                                        "\xc0\xaf",
                                        "\" \"",
                                        "\"",
                                        "\"]x",
                                        " "};
    char doc[256];
    for (size_t s = 0; s < sizeof stops / sizeof *stops; s++)
        for (int before = 0; before < 18; before++)
            for (int after = 0; after < 10; after += 3) {
                for (int pad = 0; pad < 8; pad += 3) {
                    streamed = pad == 0 && after == 3;
                    int n =
                        snprintf(doc, sizeof doc, "[%*s\"%.*s%s%.*s\"]", pad, "", before,
                                 "abcdefghijklmnopqrstuvwxyz", stops[s], after, "ABCDEFGHIJKLMNOP");
                    same_both_ways(doc, (size_t)n);
                    same_both_ways(doc, (size_t)n - 2); /* unterminated: the end stops it */
                    n = snprintf(doc, sizeof doc, "{%*s\"%.*s%s%.*s\": 1}", pad, "", before,
                                 "abcdefghijklmnopqrstuvwxyz", stops[s], after, "0123456789");
                    same_both_ways(doc, (size_t)n);
                }
            }
    /* NUL bytes inside, strings of every length around the limit */
    streamed = 1;
    same_both_ways("[\"ab\0cd\"]", 9);
    for (int len = 0; len < 40; len++) {
        snprintf(doc, sizeof doc, "[\"%.*s\", \"x\"]", len,
                 "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH");
        same_str(doc);
    }
}

/* Whole documents: the two mixed, the fixed-layout calls' errors. */
static void test_documents(void)
{
    same_str("{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"PROCESSES\": [[\"PROCESS_ID\", "
             "\"TRACE_DATA\"], [0, [[\"0x400000\", \"12\", 18446744073709551615, 7]]]]}");
    same_str("[1, \"0x1f\", \"017\", \"-1\", 1.5, 2e3, true, null]");
    same_str("[\"a\\nb\", \"\\u0041\", 0012]");
    same_str("[[1, 2, 3], [4, 5, 6], [7, 8, 9, 10000000, 123456789012]]");
    same_str("[1\n, 2\r\n,\t3 ,\n\"s\\\n\"]");
    same_str("[1,]");
    same_str("[01234567890123456789]");
}

/* With the switch off, no row is usual to tk_json_scan_row_strings (in every build: its
 * callers take it only where TK_FAST_PATHS; tk_json_scan_row's
 * callers look at the switch themselves): the callers read each token by token. */
static void test_rows_off(void)
{
    const char *doc = "[[1, 2], [3, 4]]";
    tk_json_row_prog pg;
    memset(&pg, 0, sizeof pg);
    pg.ncells = 2;
    pg.min_cells = 2;
    for (int i = 0; i < 2; i++) {
        pg.slot[i] = (uint8_t)i;
        pg.hi[i] = UINT64_MAX;
    }
    for (int fast = 0; fast < 2; fast++) {
        tk_json *j;
        tk_error err;
        TK_CHECK(tk_json_open_memory(&j, doc, strlen(doc), "t.json", NULL, &err) == TK_OK);
        tk_json_set_fast(j, fast);
        tk_json_token t;
        TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_BEGIN);
        tk_json_row_out row;
        TK_CHECK(tk_json_scan_row_strings(j, &pg, &row) == (fast ? 2 : -1));
        tk_json_free(j);
    }
}

static void test_count(void)
{
    TK_CHECK(compared > 10000);
    unlink(doc_path);
}

TK_TEST_MAIN(TK_CASE(test_numbers), TK_CASE(test_strings), TK_CASE(test_documents),
             TK_CASE(test_rows_off), TK_CASE(test_count))
