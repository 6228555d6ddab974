/* The streaming JSON tokenizer. */
#include "core/json.h"
#include "tk_test.h"

/* Tokenize text; write a compact description of the tokens into out. */
static tk_status tokens(const char *text, char *out, size_t size, tk_error *err)
{
    tk_input *in;
    tk_json *j;
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_depth = 8;
    jo.max_string = 32;
    if (tk_input_open_memory(&in, text, strlen(text), "t.json", NULL, err) != TK_OK) return TK_ERR_IO;
    if (tk_json_open(&j, in, &jo, err) != TK_OK) return TK_ERR_NOMEM;
    size_t n = 0;
    out[0] = '\0';
    tk_json_token t;
    tk_status st;
    while ((st = tk_json_next(j, &t, err)) == TK_OK) {
        const char *s = "";
        char buf[96];
        switch (t.type) {
        case TK_JSON_OBJECT_BEGIN: s = "{"; break;
        case TK_JSON_OBJECT_END: s = "}"; break;
        case TK_JSON_ARRAY_BEGIN: s = "["; break;
        case TK_JSON_ARRAY_END: s = "]"; break;
        case TK_JSON_KEY: snprintf(buf, sizeof buf, "k:%s", t.str); s = buf; break;
        case TK_JSON_STRING: snprintf(buf, sizeof buf, "s:%s", t.str); s = buf; break;
        case TK_JSON_NUMBER:
            if (t.is_int) snprintf(buf, sizeof buf, "i:%s%llu", t.negative ? "-" : "", (unsigned long long)t.u);
            else snprintf(buf, sizeof buf, "d:%g", t.d);
            s = buf;
            break;
        case TK_JSON_TRUE: s = "T"; break;
        case TK_JSON_FALSE: s = "F"; break;
        case TK_JSON_NULL: s = "N"; break;
        case TK_JSON_NONE: s = "?"; break;
        }
        n += (size_t)snprintf(out + n, size - n, "%s%s", n ? " " : "", s);
    }
    tk_json_free(j);
    tk_input_free(in);
    return st;
}

static void test_values(void)
{
    char out[512];
    tk_error err;
    TK_CHECK(tokens("{\"a\": [1, -2, 3.5, \"0x1f\", true, false, null, {}], \"b\": {\"c\": []}}", out, sizeof out, &err) == TK_END);
    TK_CHECK_STR(out, "{ k:a [ i:1 i:-2 d:3.5 s:0x1f T F N { } ] k:b { k:c [ ] } }");
    TK_CHECK(tokens("18446744073709551615", out, sizeof out, &err) == TK_END);
    TK_CHECK_STR(out, "i:18446744073709551615");
    TK_CHECK(tokens("18446744073709551616", out, sizeof out, &err) == TK_END);
    TK_CHECK_STR(out, "d:1.84467e+19");
}

static void test_escapes(void)
{
    char out[512];
    tk_error err;
    TK_CHECK(tokens("[\"\\/usr\\/bin\", \"\\u00e9\\ud83d\\ude00\", \"\\t\\\"\"]", out, sizeof out, &err) == TK_END);
    TK_CHECK_STR(out, "[ s:/usr/bin s:\xc3\xa9\xf0\x9f\x98\x80 s:\t\" ]");
}

static void test_errors_are_located(void)
{
    char out[512];
    tk_error err;
    TK_CHECK(tokens("{\"a\": 1,\n  \"b\" 2}", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK_EQ_U64(err.line, 2);
    TK_CHECK_EQ_U64(err.column, 7);
    TK_CHECK(strstr(err.message, "expected ':'") != NULL);
    TK_CHECK(tokens("[1, 2", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "end of input") != NULL);
    TK_CHECK(tokens("[1,]", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(tokens("[01]", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(tokens("[\"a\\x\"]", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(tokens("[\"\\ud800\"]", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(tokens("[tru]", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(tokens("{} {}", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(tokens("[\"unterminated", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(tokens("", out, sizeof out, &err) == TK_ERR_FORMAT);
}

static void test_limits(void)
{
    char out[512];
    tk_error err;
    TK_CHECK(tokens("[[[[[[[[[[[[]]]]]]]]]]]]", out, sizeof out, &err) == TK_ERR_LIMIT);
    TK_CHECK(strstr(err.message, "nesting") != NULL);
    TK_CHECK(tokens("[\"0123456789012345678901234567890123456789\"]", out, sizeof out, &err) == TK_ERR_LIMIT);
}

static void test_token_integers(void)
{
    tk_json_token t;
    memset(&t, 0, sizeof t);
    uint64_t u;
    int64_t i;
    t.type = TK_JSON_STRING;
    t.str = "0x400000";
    t.len = 8;
    TK_CHECK(tk_json_token_u64(&t, &u) == TK_OK && u == 0x400000);
    t.str = "main";
    t.len = 4;
    TK_CHECK(tk_json_token_u64(&t, &u) == TK_ERR_FORMAT);
    t.type = TK_JSON_NUMBER;
    t.str = "-5";
    t.len = 2;
    t.is_int = 1;
    t.negative = 1;
    t.u = 5;
    TK_CHECK(tk_json_token_i64(&t, &i) == TK_OK && i == -5);
    TK_CHECK(tk_json_token_u64(&t, &u) == TK_ERR_FORMAT);
}

static void test_skip(void)
{
    const char *text = "{\"skip\": {\"x\": [1, [2, 3]]}, \"keep\": 7}";
    tk_input *in;
    tk_json *j;
    tk_error err;
    TK_CHECK(tk_input_open_memory(&in, text, strlen(text), "s", NULL, &err) == TK_OK);
    TK_CHECK(tk_json_open(&j, in, NULL, &err) == TK_OK);
    tk_json_token t;
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_OBJECT_BEGIN);
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_KEY);
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_OBJECT_BEGIN);
    TK_CHECK(tk_json_skip(j, &t, &err) == TK_OK);
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_KEY && strcmp(t.str, "keep") == 0);
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_NUMBER && t.u == 7);
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_OBJECT_END);
    TK_CHECK(tk_json_next(j, &t, &err) == TK_END);
    tk_json_free(j);
    tk_input_free(in);
}

/* The row fast path (compiled rows): cells go to their column's slot; values
 * out of a column's range, wrong kinds, short and long rows are declined
 * without consuming, and the token reader takes them. */
static void test_scan_rows(void)
{
    const char *text = "[[5, \"0x10\", [1, 2], 9], [6, 17, []],\n  [7, 3],"
                       " [0, 1, [], 1], [8, 4294967296, [], 1], [8, 1, 2, 1], [8, 1, [1.5], 1], [8, 1, [], 1, 1],"
                       " [-1, 1], [\"x\", 1], [8, 1, [2, [3]]],"
                       " [12345678, 1234567, [1234567890123], \"77\"], [9, 1e3, []], [9, 2.5, []]]";
    tk_input *in;
    tk_json *j;
    tk_error err;
    tk_json_token t;
    tk_json_row_prog pg;
    tk_json_row_out row;
    memset(&pg, 0, sizeof pg);
    /* header: ID (slot 2, 1..2^31-1), ADDR (slot 0, u32), LIST (slot 1, array of any), unknown */
    pg.ncells = 4;
    pg.min_cells = 2;
    pg.slot[0] = 2, pg.lo[0] = 1, pg.hi[0] = 0x7fffffff;
    pg.slot[1] = 0, pg.lo[1] = 0, pg.hi[1] = UINT32_MAX;
    pg.slot[2] = 1, pg.is_array[2] = 1, pg.lo[2] = 0, pg.hi[2] = UINT64_MAX;
    pg.slot[3] = TK_JSON_SLOT_IGNORE, pg.lo[3] = 0, pg.hi[3] = UINT64_MAX;
    TK_CHECK(tk_input_open_memory(&in, text, strlen(text), "r", NULL, &err) == TK_OK);
    TK_CHECK(tk_json_open(&j, in, NULL, &err) == TK_OK);
    TK_CHECK(tk_json_scan_row(j, &pg, &row) == -1); /* top level */
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_BEGIN);
    TK_CHECK(tk_json_scan_row(j, &pg, &row) == 4);
    TK_CHECK(row.v[2] == 5 && row.v[0] == 16 && row.n[1] == 2 && row.vals[row.v[1]] == 1 &&
             row.vals[row.v[1] + 1] == 2 && row.v[TK_JSON_SLOT_IGNORE] == 9);
    TK_CHECK(row.line == 1 && row.column == 2 && row.offset == 1);
    TK_CHECK(tk_json_scan_row(j, &pg, &row) == 4); /* scanning consumes nothing */
    tk_json_take_scanned(j, &row);
    TK_CHECK(tk_json_scan_row(j, &pg, &row) == 3);
    TK_CHECK(row.v[2] == 6 && row.v[0] == 17 && row.n[1] == 0 && row.column == 26);
    tk_json_take_scanned(j, &row);
    TK_CHECK(tk_json_scan_row(j, &pg, &row) == 2); /* short row, at the next line */
    TK_CHECK(row.v[2] == 7 && row.v[0] == 3 && row.line == 2 && row.column == 3);
    tk_json_take_scanned(j, &row);
    /* id 0, a u32 over its range, a scalar for the array, a float in the
     * array, one cell too many, a negative number, a string that is no
     * number, an array in the array: declined; the tokens are all still there */
    for (int k = 0; k < 8; k++) {
        TK_CHECK(tk_json_scan_row(j, &pg, &row) == -1);
        TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_BEGIN);
        TK_CHECK(tk_json_skip(j, &t, &err) == TK_OK);
    }
    /* 8 digits, 7 digits, 13 digits in an array, a decimal string */
    TK_CHECK(tk_json_scan_row(j, &pg, &row) == 4);
    TK_CHECK(row.v[2] == 12345678 && row.v[0] == 1234567 && row.vals[row.v[1]] == 1234567890123ull &&
             row.v[TK_JSON_SLOT_IGNORE] == 77);
    tk_json_take_scanned(j, &row);
    for (int k = 0; k < 2; k++) { /* an exponent, a fraction */
        TK_CHECK(tk_json_scan_row(j, &pg, &row) == -1);
        TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_BEGIN);
        TK_CHECK(tk_json_skip(j, &t, &err) == TK_OK);
    }
    TK_CHECK(tk_json_scan_row(j, &pg, &row) == -1); /* the end of the array */
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_END);
    tk_json_free(j);
    tk_input_free(in);
}

/* Hex strings of 1 to 16 digits (either case, leading zeros) in compiled
 * rows: the 8-bytes-at-once path and the digit loop give the same values. */
static void test_scan_hex(void)
{
    enum { ROWS = 600 };
    static char text[ROWS * 40 + 64];
    static uint64_t want[ROWS];
    size_t len = 0;
    uint64_t seed = 99;
    text[len++] = '[';
    for (int i = 0; i < ROWS; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int digits = 1 + (int)((seed >> 40) % 16), zeros = (int)((seed >> 20) % 3);
        uint64_t v = seed >> (64 - 4 * digits);
        if (digits == 16) v = seed;
        want[i] = v;
        char hex[40];
        const char *alphabet = (seed >> 8) & 1 ? "0123456789abcdef" : "0123456789ABCDEF";
        int n = 0;
        for (int k = 0; k < zeros; k++) hex[n++] = '0';
        for (int k = digits - 1; k >= 0; k--) hex[n++] = alphabet[(v >> (4 * k)) & 15];
        hex[n] = 0;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s[\"0%c%s\"]", i ? ", " : "",
                                (seed >> 9) & 1 ? 'x' : 'X', hex);
    }
    text[len++] = ']';
    tk_input *in;
    tk_json *j;
    tk_error err;
    tk_json_token t;
    tk_json_row_prog pg;
    tk_json_row_out row;
    memset(&pg, 0, sizeof pg);
    pg.ncells = 1;
    pg.min_cells = 1;
    pg.hi[0] = UINT64_MAX;
    TK_CHECK(tk_input_open_memory(&in, text, len, "h", NULL, &err) == TK_OK);
    TK_CHECK(tk_json_open(&j, in, NULL, &err) == TK_OK);
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_BEGIN);
    int bad = 0;
    for (int i = 0; i < ROWS; i++) {
        if (tk_json_scan_row(j, &pg, &row) != 1) { /* the last rows near the end: token path */
            uint64_t v = 0;
            TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_BEGIN);
            TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && tk_json_token_u64(&t, &v) == TK_OK);
            TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_END);
            bad += v != want[i];
            continue;
        }
        bad += row.v[0] != want[i];
        tk_json_take_scanned(j, &row);
    }
    TK_CHECK_EQ_U64(bad, 0);
    tk_json_free(j);
    tk_input_free(in);
}

TK_TEST_MAIN(TK_CASE(test_values), TK_CASE(test_escapes), TK_CASE(test_errors_are_located),
             TK_CASE(test_limits), TK_CASE(test_token_integers), TK_CASE(test_skip),
             TK_CASE(test_scan_rows), TK_CASE(test_scan_hex))
