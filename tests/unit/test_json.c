/* The streaming JSON tokenizer. */
#include "core/json.h"
#include "tk_test.h"

#include <unistd.h>

/* Tokenize text; write a compact description of the tokens into out. */
static tk_status tokens(const char *text, char *out, size_t size, tk_error *err)
{
    tk_input *in;
    tk_json *j;
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_depth = 8;
    jo.max_string = 32;
    if (tk_input_open_memory(&in, text, strlen(text), "t.json", NULL, err) != TK_OK)
        return TK_ERR_IO;
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
        case TK_JSON_KEY:
            snprintf(buf, sizeof buf, "k:%s", t.str);
            s = buf;
            break;
        case TK_JSON_STRING:
            snprintf(buf, sizeof buf, "s:%s", t.str);
            s = buf;
            break;
        case TK_JSON_NUMBER:
            if (t.is_int)
                snprintf(buf, sizeof buf, "i:%s%llu", t.negative ? "-" : "",
                         (unsigned long long)t.u);
            else
                snprintf(buf, sizeof buf, "d:%g", t.d);
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
    TK_CHECK(tokens("{\"a\": [1, -2, 3.5, \"0x1f\", true, false, null, {}], \"b\": {\"c\": []}}",
                    out, sizeof out, &err) == TK_END);
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
    TK_CHECK(tokens("[\"\\/usr\\/bin\", \"\\u00e9\\ud83d\\ude00\", \"\\t\\\"\"]", out, sizeof out,
                    &err) == TK_END);
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
    TK_CHECK(tokens("[\"0123456789012345678901234567890123456789\"]", out, sizeof out, &err) ==
             TK_ERR_LIMIT);
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
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_KEY &&
             strcmp(t.str, "keep") == 0);
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
    const char *text =
        "[[5, \"0x10\", [1, 2], 9], [6, 17, []],\n  [7, 3],"
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
    TK_CHECK(row.v[2] == 12345678 && row.v[0] == 1234567 &&
             row.vals[row.v[1]] == 1234567890123ull && row.v[TK_JSON_SLOT_IGNORE] == 77);
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

/* A lexer over text in memory (tk_json_open_memory), depth limit 4, strings up to 24 bytes. */
static tk_json *mem_lexer(const char *text)
{
    tk_json *j = NULL;
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_depth = 4;
    jo.max_string = 24;
    tk_error err;
    TK_CHECK(tk_json_open_memory(&j, text, strlen(text), "m.json", &jo, &err) == TK_OK);
    return j;
}

/* Reads "[v]" with tk_json_next_u64: the status, the value, the message. */
static tk_status one_u64(const char *text, uint64_t *v, tk_error *err)
{
    tk_json *j = mem_lexer(text);
    int c;
    *v = 12345;
    tk_status st = tk_json_peek(j, &c, err);
    if (st == TK_OK && c == '[') st = tk_json_take(j, err);
    if (st == TK_OK) st = tk_json_next_u64(j, "N", v, err);
    tk_json_free(j);
    return st;
}

/* tk_json_next_u64: JSON integers and C-style integer strings, each refusal located at the
 * value with its own message. */
static void test_next_u64(void)
{
    static const struct {
        const char *text;
        tk_status st;
        uint64_t v;
        const char *msg; /* NULL: TK_OK */
    } cases[] = {
        {"[0]", TK_OK, 0, NULL},
        {"[7 ]", TK_OK, 7, NULL},
        {"[1234567]", TK_OK, 1234567, NULL},
        {"[18446744073709551615]", TK_OK, UINT64_MAX, NULL},
        {"[\"0x91eb\"]", TK_OK, 0x91eb, NULL},
        {"[\"0X91EB\"]", TK_OK, 0x91eb, NULL},
        {"[\"0x00000000000000000001\"]", TK_OK, 1, NULL},
        {"[\"17\"]", TK_OK, 17, NULL},
        {"[\"0\"]", TK_OK, 0, NULL},
        {"[1-2]", TK_OK, 1, NULL}, /* the number is "1"; the '-' is the grammar's */
        {"[18446744073709551616]", TK_ERR_LIMIT, 0, "1:2: N does not fit in 64 bits"},
        {"[\"0x10000000000000000\"]", TK_ERR_LIMIT, 0, "1:2: N does not fit in 64 bits"},
        {"[\"18446744073709551616\"]", TK_ERR_LIMIT, 0, "1:2: N does not fit in 64 bits"},
        {"[ 1.5]", TK_ERR_FORMAT, 0, "1:3: expected N (an integer), found a fractional number"},
        {"[1e3]", TK_ERR_FORMAT, 0, "1:2: expected N (an integer), found a fractional number"},
        {"[01]", TK_ERR_FORMAT, 0, "1:2: JSON numbers have no leading zeros (N)"},
        {"[00]", TK_ERR_FORMAT, 0, "1:2: JSON numbers have no leading zeros (N)"},
        {"[-1]", TK_ERR_FORMAT, 0,
         "1:2: expected N (a non-negative integer), found a negative number"},
        {"[\"017\"]", TK_ERR_FORMAT, 0,
         "1:2: expected N (a decimal string without a leading zero (C would read it as "
         "octal), or a \"0x...\" hex string), found \"017\""},
        {"[\"0x\"]", TK_ERR_FORMAT, 0,
         "1:2: expected N (an integer, or a string of a \"0x...\" hex or a decimal number), "
         "found \"0x\""},
        {"[\"0x1\\u0030\"]", TK_ERR_FORMAT, 0, "found \"0x1\\u0030\""},
        {"[\" 6\"]", TK_ERR_FORMAT, 0, "found \" 6\""},
        {"[\"+6\"]", TK_ERR_FORMAT, 0, "found \"+6\""},
        {"[true]", TK_ERR_FORMAT, 0, "1:2: expected N, found 't'"},
        {"[\n", TK_ERR_FORMAT, 0, "2:1: expected N, found end of file"},
        {"[\"12", TK_ERR_FORMAT, 0, "1:2: unterminated JSON string"},
        {"[\"1\t\"]", TK_ERR_FORMAT, 0, "1:4: control character 0x09 inside a JSON string"},
        {"[\"1\\\n2", TK_ERR_FORMAT, 0, "1:2: unterminated JSON string"},
        {"[\"1\\\n\t\"]", TK_ERR_FORMAT, 0, "2:1: control character 0x09"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tk_error err;
        uint64_t v;
        tk_status st = one_u64(cases[i].text, &v, &err);
        char msg[600] = "";
        if (st != TK_OK)
            snprintf(msg, sizeof msg, "%llu:%llu: %s", (unsigned long long)err.line,
                     (unsigned long long)err.column, err.message);
        if (!TK_CHECK(st == cases[i].st) || (st == TK_OK && !TK_CHECK(v == cases[i].v)) ||
            (st != TK_OK && !TK_CHECK(strstr(msg, cases[i].msg) != NULL)))
            fprintf(stderr, "  case %zu: %s -> %s\n", i, cases[i].text, msg);
    }
}

/* peek, take, here, raw strings: a fixed layout read byte by byte, and the grammar of
 * tk_json_next underneath. */
static void test_fixed_layout(void)
{
    tk_error err;
    int c;
    const char *s;
    size_t len;
    uint64_t v;
    tk_json_pos pos;
    tk_json *j = mem_lexer(" {\"K\" : [ \"a\\\"b\\\n\", 5 ],\n \"L\": \"\"} ");
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == '{');
    tk_json_here(j, &pos);
    TK_CHECK(pos.offset == 1 && pos.line == 1 && pos.column == 2);
    TK_CHECK(tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_next_raw(j, "a key", &s, &len, &err) == TK_OK && len == 1 && *s == 'K');
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == ':' && tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == '[' && tk_json_take(j, &err) == TK_OK);
    /* escapes as written; the escaped new line is counted */
    TK_CHECK(tk_json_next_raw(j, "a string", &s, &len, &err) == TK_OK && len == 6 &&
             memcmp(s, "a\\\"b\\\n", 6) == 0);
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == ',');
    tk_json_here(j, &pos);
    TK_CHECK(pos.line == 2 && pos.column == 2);
    /* a value where the grammar wants ',' or ']': the tokenizer's error */
    TK_CHECK(tk_json_next_u64(j, "N", &v, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "expected N, found ','") != NULL);
    TK_CHECK(tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_next_u64(j, "N", &v, &err) == TK_OK && v == 5);
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == ']' && tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == ',' && tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_next_raw(j, "a key", &s, &len, &err) == TK_OK && len == 1 && *s == 'L');
    /* ',' where ':' belongs */
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == ':');
    TK_CHECK(tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_next_raw(j, "a string", &s, &len, &err) == TK_OK && len == 0);
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == '}' && tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == -1);
    TK_CHECK(tk_json_fail_expected(j, "more", &err) == TK_ERR_FORMAT);
    TK_CHECK(strcmp(err.message, "expected more, found end of file") == 0 && err.line == 3);
    tk_json_free(j);
    /* the grammar: ',' after '[', ':' in an array, the depth limit, the string limit */
    j = mem_lexer("[,]");
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == ',');
    TK_CHECK(tk_json_take(j, &err) == TK_ERR_FORMAT && strstr(err.message, "JSON value") != NULL);
    tk_json_free(j);
    j = mem_lexer("[1:2]");
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_next_u64(j, "N", &v, &err) == TK_OK && v == 1);
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == ':');
    TK_CHECK(tk_json_take(j, &err) == TK_ERR_FORMAT && strstr(err.message, "','") != NULL);
    tk_json_free(j);
    j = mem_lexer("[[[[[");
    int k = 0;
    tk_status st;
    while ((st = tk_json_peek(j, &c, &err)) == TK_OK && c == '[' &&
           (st = tk_json_take(j, &err)) == TK_OK)
        k++;
    TK_CHECK(st == TK_ERR_LIMIT && k == 4);
    tk_json_free(j);
    j = mem_lexer("[\"0123456789abcdef0123456789\"]");
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_next_raw(j, "a string", &s, &len, &err) == TK_ERR_LIMIT);
    TK_CHECK(err.column == 2);
    tk_json_free(j);
    j = mem_lexer("[\"abc\" \"def\"]");
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && tk_json_take(j, &err) == TK_OK);
    TK_CHECK(tk_json_next_raw(j, "a string", &s, &len, &err) == TK_OK);
    TK_CHECK(tk_json_peek(j, &c, &err) == TK_OK && c == '"');
    TK_CHECK(tk_json_fail_expected(j, "','", &err) == TK_ERR_FORMAT);
    TK_CHECK(strcmp(err.message, "expected ',', found \"def\"") == 0 && err.column == 8);
    tk_json_free(j);
}

/* Strings are scanned 8 bytes at a time: every special byte at every place of a word
 * (and bytes >= 0x80, which are plain) ends the plain run exactly there. */
static void test_string_run(void)
{
    static const uint8_t special[] = {'"', '\\', 0x00, 0x01, 0x1f, 0x0a};
    static const uint8_t plain[] = {0x20, 0x7f, 0x80, 0xc3, 0xff, '!', '#', '[', ']', 0x5d};
    int bad = 0;
    for (size_t len = 0; len < 40; len++) {
        for (size_t at = 0; at <= len; at++) {
            for (size_t k = 0; k < sizeof special + sizeof plain; k++) {
                char text[64];
                uint8_t b = k < sizeof special ? special[k] : plain[k - sizeof special];
                int is_plain = k >= sizeof special;
                text[0] = '[';
                text[1] = '"';
                for (size_t i = 0; i < len; i++)
                    text[2 + i] = i == at ? (char)b : (char)(i % 2 ? 0xe9 : 'x');
                text[2 + len] = '"';
                text[3 + len] = ']';
                tk_json *j;
                tk_error err;
                TK_CHECK(tk_json_open_memory(&j, text, len + 4, "s", NULL, &err) == TK_OK);
                int c;
                const char *s;
                size_t n;
                (void)tk_json_peek(j, &c, &err);
                (void)tk_json_take(j, &err);
                tk_status st = tk_json_next_raw(j, "a string", &s, &n, &err);
                if (at == len || is_plain)
                    bad += st != TK_OK || n != len;
                else if (b == '"')
                    bad += st != TK_OK || n != at;
                else if (b == '\\')
                    bad += st != TK_OK ? at + 1 != len : n != len;
                else
                    bad += st != TK_ERR_FORMAT || err.column != 3 + at;
                tk_json_free(j);
            }
        }
    }
    TK_CHECK_EQ_U64(bad, 0);
}

/* String cells of compiled rows: spans of plain strings; escapes, control characters and
 * strings over the limit are unusual (read by tokens); so is a decimal string with a
 * leading zero. */
static int scan_one(const char *text, tk_json_row_out *row)
{
    tk_json *j;
    tk_error err;
    tk_json_token t;
    tk_json_row_prog pg;
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_string = 16;
    memset(&pg, 0, sizeof pg);
    pg.ncells = pg.min_cells = 2;
    pg.slot[0] = 0, pg.hi[0] = UINT64_MAX;
    pg.slot[1] = 1, pg.is_array[1] = TK_JSON_CELL_STRING;
    TK_CHECK(tk_json_open_memory(&j, text, strlen(text), "c", &jo, &err) == TK_OK);
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_BEGIN);
    int n = tk_json_scan_row_strings(j, &pg, row);
    tk_json_row_out plain;
    TK_CHECK(tk_json_scan_row(j, &pg, &plain) == -1); /* no string cells there */
    tk_json_free(j);
    return n;
}

static void test_scan_string_cells(void)
{
    tk_json_row_out row;
    TK_CHECK(scan_one("[[1, \"abc\"]]", &row) == 2);
    TK_CHECK(row.v[0] == 1 && row.v[1] == 6 && row.n[1] == 3);
    TK_CHECK(scan_one("[ [\"0x2\", \"\"]]", &row) == 2);
    TK_CHECK(row.v[0] == 2 && row.v[1] == 11 && row.n[1] == 0);
    TK_CHECK(scan_one("[[3, \"a\\\"\"]]", &row) == -1);
    TK_CHECK(scan_one("[[4, \"a\tb\"]]", &row) == -1);
    TK_CHECK(scan_one("[[5, \"0123456789abcdefX\"]]", &row) == -1);
    TK_CHECK(scan_one("[[5, \"0123456789abcdef\"]]", &row) == 2);
    TK_CHECK(scan_one("[[\"017\", \"x\"]]", &row) == -1);
    TK_CHECK(scan_one("[[\"17\", \"x\"]]", &row) == 2 && row.v[0] == 17);
    TK_CHECK(scan_one("[[1, 2]]", &row) == -1);
    TK_CHECK(scan_one("[[1, \"abc]]", &row) == -1);
    /* the grammar: trailing commas, missing commas, in the row and in an array cell */
    TK_CHECK(scan_one("[[1, \"a\", ]]", &row) == -1);
    TK_CHECK(scan_one("[[1 \"a\"]]", &row) == -1);
    TK_CHECK(scan_one("[[1, \"a\"", &row) == -1);
    TK_CHECK(scan_one("[ [1 , \"a\" ] ]", &row) == 2 && row.n[1] == 1);
}

/* A row of an integer, a string and an array: the string-row scan with each cell kind. */
static int scan_three(const char *text, tk_json_row_out *row)
{
    tk_json *j;
    tk_error err;
    tk_json_token t;
    tk_json_row_prog pg;
    memset(&pg, 0, sizeof pg);
    pg.ncells = pg.min_cells = 3;
    pg.slot[0] = 0, pg.lo[0] = 1, pg.hi[0] = 100;
    pg.slot[1] = 1, pg.is_array[1] = TK_JSON_CELL_STRING;
    pg.slot[2] = 2, pg.is_array[2] = TK_JSON_CELL_ARRAY, pg.lo[2] = 1, pg.hi[2] = 100;
    TK_CHECK(tk_json_open_memory(&j, text, strlen(text), "c", NULL, &err) == TK_OK);
    TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_BEGIN);
    int n = tk_json_scan_row_strings(j, &pg, row);
    if (n > 0) {
        tk_json_take_scanned(j, row);
        TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_END);
    }
    tk_json_free(j);
    return n;
}

static void test_scan_string_rows(void)
{
    tk_json_row_out row;
    TK_CHECK(scan_three("[[1, \"0\", [2, 3]]]", &row) == 3);
    TK_CHECK(row.v[0] == 1 && row.n[1] == 1 && row.n[2] == 2 && row.vals[row.v[2] + 1] == 3);
    TK_CHECK(scan_three("[\n [ 7 ,\"\",[ ] ]\n]", &row) == 3);
    TK_CHECK(row.v[0] == 7 && row.n[1] == 0 && row.n[2] == 0 && row.line == 2 && row.column == 2);
    TK_CHECK(scan_three("[[1, \"0\", [2, ]]]", &row) == -1);
    TK_CHECK(scan_three("[[1, \"0\", [2 3]]]", &row) == -1);
    TK_CHECK(scan_three("[[1, \"0\", [0]]]", &row) == -1);
    TK_CHECK(scan_three("[[101, \"0\", [1]]]", &row) == -1);
    TK_CHECK(scan_three("[[1, \"0\", [\"1\"]]]", &row) == -1);
    TK_CHECK(scan_three("[[1, \"0\", [1], 4]]", &row) == -1);
    TK_CHECK(scan_three("[[1, \"0\"]]", &row) == -1);
}

/* ---- numbers: the value of each literal is strtod's, bit for bit ---------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static unsigned rnd(unsigned n) /* xorshift64*: 0..n-1 */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 0x2545f4914f6cdd1du) >> 33) % n;
}

static size_t put_digits(char *s, size_t n, int first_nonzero)
{
    for (size_t i = 0; i < n; i++)
        s[i] = (char)('0' + (i == 0 && first_nonzero ? 1 + rnd(9) : rnd(10)));
    return n;
}

/* A random JSON number: sign, integer part (0 or up to 40 digits), fraction and exponent of
 * any length (exponents near a double's limits too). */
static size_t random_number(char *s)
{
    size_t n = 0;
    if (rnd(3) == 0) s[n++] = '-';
    if (rnd(4) == 0)
        s[n++] = '0';
    else
        n += put_digits(s + n, 1 + rnd(rnd(4) == 0 ? 40 : 20), 1);
    if (rnd(2)) {
        s[n++] = '.';
        n += put_digits(s + n, 1 + rnd(rnd(4) == 0 ? 60 : 20), 0);
    }
    if (rnd(2)) {
        static const char *const exp_sign[] = {"e", "E", "e+", "e-", "E-"};
        const char *e = exp_sign[rnd(5)];
        memcpy(s + n, e, strlen(e));
        n += strlen(e);
        unsigned x = rnd(3) == 0 ? 280 + rnd(70) : rnd(3) == 0 ? rnd(1000) : rnd(30);
        n += (size_t)sprintf(s + n, "%s%u", rnd(5) == 0 ? "00" : "", x);
    }
    s[n] = '\0';
    return n;
}

static const char *const edge_numbers[] = {
    "0",
    "-0",
    "0.0",
    "-0.0",
    "0e0",
    "-0E-0",
    "1",
    "-1",
    "0.1",
    "0.2",
    "0.3",
    "1e23",
    "9007199254740993",
    "9007199254740992.5",
    "18446744073709551615",
    "18446744073709551616",
    "-18446744073709551615",
    "-18446744073709551616",
    "99999999999999999999999999",
    "1.7976931348623157e308",
    "1.7976931348623158e308",
    "1.7976931348623159e308",
    "1e308",
    "1e309",
    "-1e400",
    "2.2250738585072014e-308",
    "2.2250738585072011e-308",
    "4.9e-324",
    "5e-324",
    "2.4703282292062327e-324",
    "2.4703282292062328e-324",
    "1e-400",
    "-1e-400",
    "123456789012345678901234567890e-30",
    "0.000000000000000000000000000001e30",
    "3.14159265358979323846264338327950288419716939937510",
    "1e0000000000000000000000001",
    "1e-99999999999999999999999",
    "1e99999999999999999999999",
};

/* The tokens of a JSON array of numbers (text) against strtod on each literal (lits, n of
 * them), through a memory input and through a file read in chunks (whose numbers cross the
 * chunks' ends). */
static void check_numbers(const char *text, char *const *lits, size_t n)
{
    char path[] = "/tmp/tk_test_json_XXXXXX";
    int fd = mkstemp(path);
    TK_CHECK(fd >= 0);
    TK_CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    for (int file = 0; file <= 1; file++) {
        tk_input *in;
        tk_json *j;
        tk_error err;
        tk_input_options io = TK_INPUT_OPTIONS_INIT;
        io.no_mmap = 1;
        TK_CHECK((file ? tk_input_open(&in, path, &io, &err)
                       : tk_input_open_memory(&in, text, strlen(text), "t.json", NULL, &err)) ==
                 TK_OK);
        TK_CHECK(tk_json_open(&j, in, NULL, &err) == TK_OK);
        tk_json_token t;
        size_t i = 0, bad = 0;
        TK_CHECK(tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_ARRAY_BEGIN);
        while (tk_json_next(j, &t, &err) == TK_OK && t.type == TK_JSON_NUMBER && i < n) {
            double want = strtod(lits[i], NULL);
            if (memcmp(&want, &t.d, sizeof want) != 0 && bad++ < 5)
                fprintf(stderr, "  %s: %.17g, strtod %.17g\n", lits[i], t.d, want);
            if (t.is_int && (t.u != strtoull(lits[i] + t.negative, NULL, 10))) bad++;
            i++;
        }
        TK_CHECK(t.type == TK_JSON_ARRAY_END);
        TK_CHECK_EQ_U64(i, n);
        TK_CHECK_EQ_U64(bad, 0);
        tk_json_free(j);
        tk_input_free(in);
    }
    unlink(path);
}

static void test_numbers_as_strtod(void)
{
    enum { N = 60000 };
    size_t edges = sizeof edge_numbers / sizeof edge_numbers[0];
    char **lits = malloc((N + edges) * sizeof *lits);
    char *text = malloc((size_t)(N + edges) * 160 + 4);
    size_t len = 0, n = 0;
    text[len++] = '[';
    for (size_t i = 0; i < edges; i++) {
        lits[n] = text + len + (n ? 2 : 0);
        len += (size_t)sprintf(text + len, "%s%s", n ? ", " : "", edge_numbers[i]);
        n++;
    }
    char num[160];
    for (; n < N + edges; n++) {
        size_t k = random_number(num);
        len += (size_t)sprintf(text + len, ", ");
        lits[n] = text + len;
        memcpy(text + len, num, k + 1);
        len += k;
    }
    text[len++] = ']';
    text[len] = '\0';
    /* each literal NUL-terminated for strtod in a copy of the text */
    char *copy = malloc(len + 1);
    memcpy(copy, text, len + 1);
    for (size_t i = 0; i < n; i++) {
        lits[i] = copy + (lits[i] - text);
        lits[i][strcspn(lits[i], ", ]")] = '\0';
    }
    check_numbers(text, lits, n);
    free(copy);
    free(text);
    free(lits);
}

/* The lexer's bounds on a number: 400 bytes, the grammar's leading zero and empty parts. */
static void test_number_bounds(void)
{
    char out[512], big[512];
    tk_error err;
    memset(big, '1', 400);
    big[0] = '[', big[1] = '0', big[2] = '.', big[399] = ']', big[400] = '\0';
    TK_CHECK(tokens(big, out, sizeof out, &err) == TK_END); /* 397 bytes */
    memset(big, '1', 410);
    big[0] = '[', big[409] = ']', big[410] = '\0';
    TK_CHECK(tokens(big, out, sizeof out, &err) == TK_ERR_LIMIT);
    static const char *const bad[] = {"[-]",    "[1.]",  "[1e]",  "[1e+]",  "[-01]",
                                      "[1.e5]", "[--1]", "[1-2]", "[00.5]", "[1e5.5]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TK_CHECK(tokens(bad[i], out, sizeof out, &err) == TK_ERR_FORMAT);
        TK_CHECK(strstr(err.message, "malformed number") != NULL);
    }
    TK_CHECK(tokens("[.5]", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(tokens("[+1]", out, sizeof out, &err) == TK_ERR_FORMAT);
    TK_CHECK(tokens("[0x10]", out, sizeof out, &err) == TK_ERR_FORMAT);
}

TK_TEST_MAIN(TK_CASE(test_values), TK_CASE(test_escapes), TK_CASE(test_errors_are_located),
             TK_CASE(test_limits), TK_CASE(test_token_integers), TK_CASE(test_skip),
             TK_CASE(test_scan_rows), TK_CASE(test_scan_hex), TK_CASE(test_next_u64),
             TK_CASE(test_fixed_layout), TK_CASE(test_string_run), TK_CASE(test_scan_string_cells),
             TK_CASE(test_scan_string_rows), TK_CASE(test_numbers_as_strtod),
             TK_CASE(test_number_bounds))
