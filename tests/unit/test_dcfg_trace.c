/* Unit tests of the DCFG-Trace reader, decoder and encoder (in memory). */
#include "tk_test.h"
#include "tracekit/tracekit.h"

static const char dt_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

/* ---- helpers ------------------------------------------------------------------- */

typedef struct edges_buf {
    uint32_t *v;
    size_t n, cap;
} edges_buf;

static int collect(void *ctx, size_t chunk, const uint32_t *e, size_t n)
{
    (void)chunk;
    edges_buf *b = ctx;
    if (n == 0) return 0;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->v = realloc(b->v, b->cap * sizeof *b->v);
    }
    memcpy(b->v + b->n, e, n * sizeof *e);
    b->n += n;
    return 0;
}

static int collect_one(void *ctx, const uint32_t *e, size_t n) { return collect(ctx, 0, e, n); }

static void count_diag(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)loc;
    (void)msg;
    if (sev == TK_SEV_WARNING) ++*(int *)ctx;
}

static const char H1[] = "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0,\n"
                         " \"PROCESSES\" : [ [ \"PROCESS_ID\", \"STRING_DICTIONARY\", "
                         "\"TRANSITION_TABLE\", \"THREAD_DATA\" ],\n"
                         "  [ 7, ";
static const char H2[] = ",\n   [ [\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"]";
static const char H3[] =
    " ],\n   [ [ \"THREAD_ID\", \"TRACE_DATA\" ],\n"
    "    [ 0, [ [ \"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", \"FIRST_EDGE_ID\", "
    "\"EDGE_ID_SEQUENCE\" ],\n      [ 0, 0, ";
static const char H4[] = ", 1, \"";
static const char H5[] = "\" ] ] ] ] ] ] }\n";

/* The vectors' table, renumbered: 1 -0-> 2 | 1 -1-> 4; 2 -""-> 3; 3 -0-> 2 | 3 -1-> 4; 4 -""-> 5 */
#define TABLE \
    ",\n [1, \"0\", [2]], [1, \"1\", [4]], [2, \"\", [3]], [3, \"0\", [2]], " \
    "[3, \"1\", [4]], [4, \"\", [5]]"

static tk_status decode_text(const char *dict, const char *table, const char *count,
                             const char *seq, edges_buf *out, tk_error *err, int *warnings)
{
    char doc[4096];
    snprintf(doc, sizeof doc, "%s%s%s%s%s%s%s%s%s", H1, dict, H2, table, H3, count, H4, seq, H5);
    tk_dcfg_trace *t;
    tk_diag diag;
    int w = 0;
    tk_diag_init(&diag, count_diag, &w);
    tk_error_clear(err);
    tk_status st = tk_dcfg_trace_open_memory(&t, doc, strlen(doc), "mem.trace.json", &diag, err);
    if (st != TK_OK) return st;
    for (size_t c = 0; c < tk_dcfg_trace_chunk_count(t) && st == TK_OK; c++) {
        uint64_t n;
        st = tk_dcfg_trace_decode_chunk(t, c, collect_one, out, &n, &diag, err);
    }
    tk_dcfg_trace_free(t);
    if (warnings) *warnings = w;
    return st;
}

static int same(const edges_buf *b, const uint32_t *want, size_t n)
{
    return b->n == n && memcmp(b->v, want, n * sizeof *want) == 0;
}

/* ---- decoding ---------------------------------------------------------------------- */

static void test_basic_and_msb_first(void)
{
    edges_buf b = {0};
    tk_error err;
    /* 'I' = 001000: 1 -0-> 2 -""-> 3 -0-> 2 -> 3 -1-> 4 */
    TK_CHECK_EQ_I64(decode_text("{ }", TABLE, "6", "I", &b, &err, NULL), TK_OK);
    const uint32_t want[] = {1, 2, 3, 2, 3, 4};
    TK_CHECK(same(&b, want, 6));
    free(b.v);
}

static void test_repeats_dictionary_whitespace(void)
{
    edges_buf a = {0}, b = {0};
    tk_error err;
    /* 12 x (2 3) = 12 zero bits: "AA"; then "I" */
    TK_CHECK_EQ_I64(decode_text("{ }", TABLE, "26", "(2*A) I", &a, &err, NULL), TK_OK);
    TK_CHECK_EQ_I64(decode_text("{ \"k\" : \"(1*<j>)\", \"j\" : \"A\" }", TABLE, "26", "< k ><k>I",
                                &b, &err, NULL),
                    TK_OK);
    TK_CHECK_EQ_U64(a.n, 26);
    TK_CHECK(a.n == b.n && memcmp(a.v, b.v, a.n * 4) == 0);
    free(a.v);
    free(b.v);
}

/* The STRING_DICTIONARY of a process through tk_dcfg_trace_dictionary_entry:
 * keys and values in file order, the count for an index past the end. */
static void test_dictionary_entries(void)
{
    char doc[4096];
    snprintf(doc, sizeof doc, "%s%s%s%s%s%s%s%s%s", H1, "{ \"k\" : \"(1*<j>)\", \"j\" : \"A\" }",
             H2, TABLE, H3, "26", H4, "<k><k>I", H5);
    tk_dcfg_trace *t = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_dcfg_trace_open_memory(&t, doc, strlen(doc), "mem.trace.json", NULL, &err),
                    TK_OK);
    if (!t) return;
    const char *key = NULL, *value = NULL;
    size_t len = 0;
    TK_CHECK_EQ_U64(tk_dcfg_trace_dictionary_entry(t, 0, 0, &key, &value, &len), 2);
    TK_CHECK_STR(key, "k");
    TK_CHECK(len == 7 && value && memcmp(value, "(1*<j>)", 7) == 0);
    TK_CHECK_EQ_U64(tk_dcfg_trace_dictionary_entry(t, 0, 1, &key, &value, &len), 2);
    TK_CHECK_STR(key, "j");
    TK_CHECK(len == 1 && value && value[0] == 'A');
    key = value = NULL;
    TK_CHECK_EQ_U64(tk_dcfg_trace_dictionary_entry(t, 0, 2, &key, &value, &len), 2);
    TK_CHECK(key == NULL && value == NULL); /* past the end: nothing written */
    tk_dcfg_trace_free(t);
}

static void test_errors_are_located(void)
{
    edges_buf b = {0};
    tk_error err;
    static const struct {
        const char *dict, *table, *count, *seq;
        tk_status st;
        const char *needle;
    } cases[] = {
        {"{ }", ",[1, \"0\", [2]], [1, \"00\", [4]]", "2", "A", TK_ERR_FORMAT, "left-aligned"},
        {"{ }", ",[1, \"0\", [2]], [1, \"01\", [4]]", "2", "A", TK_ERR_FORMAT, "prefix"},
        {"{ }", ",[1, \"\", [2]], [1, \"1\", [4]]", "2", "A", TK_ERR_FORMAT, "sole"},
        {"{ }", ",[1, \"0\", [2]], [1, \"0\", [4]]", "2", "A", TK_ERR_FORMAT, "duplicate"},
        {"{ }", ",[1, \"012\", [2]]", "2", "A", TK_ERR_FORMAT, "'2'"},
        {"{ }", ",[1, \"0\", []]", "2", "A", TK_ERR_FORMAT, "empty"},
        {"{ }", ",[1, \"0\", [0]]", "2", "A", TK_ERR_FORMAT, "out of range"},
        {"{ }", TABLE, "30", "A", TK_ERR_FORMAT, "ran out of bits"},
        {"{ }", TABLE, "6", "(0*A)", TK_ERR_FORMAT, "at least 1"},
        {"{ }", TABLE, "6", "(99999999999*A)", TK_ERR_LIMIT, "larger than"},
        {"{ }", TABLE, "6", "(3*A", TK_ERR_FORMAT, "unterminated"},
        {"{ }", TABLE, "6", "A)", TK_ERR_FORMAT, "without a matching"},
        {"{ }", TABLE, "6", "<zz>", TK_ERR_FORMAT, "not in STRING_DICTIONARY"},
        {"{ \"a\" : \"<b>\", \"b\" : \"<a>\" }", TABLE, "6", "<a>", TK_ERR_FORMAT, "recursive"},
        {"{ \"u\" : \"(2*<v>)\", \"v\" : \"A<u>\" }", TABLE, "6", "I", TK_ERR_FORMAT,
         "reached again"},
        {"{ \"u\" : \"<zz>\" }", TABLE, "6", "I", TK_ERR_FORMAT, "not in STRING_DICTIONARY"},
        {"{ \"a\" : \"I\", \"a\" : \"A\" }", TABLE, "6", "<a>", TK_ERR_FORMAT,
         "duplicate dictionary key"},
        {"{ \"a_\" : \"I\" }", TABLE, "6", "I", TK_ERR_FORMAT, "keys use"},
        {"{ }", TABLE, "6", "I=", TK_ERR_FORMAT, "'='"},
        {"{ }", TABLE, "6", "I\\\\", TK_ERR_FORMAT, "escape"},
        {"{ }", ",[1, \"\", [1]]", "100000000", "", TK_ERR_LIMIT, "consume no bits"},
        {"{ }", ",[1, \"1\", [2]]", "2", "A", TK_ERR_FORMAT, "no transition from edge 1"},
        {"{ }", ",[1, \"0\", [2]]", "3", "A", TK_ERR_FORMAT, "no transitions from edge 2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        b.n = 0;
        tk_status st = decode_text(cases[i].dict, cases[i].table, cases[i].count, cases[i].seq, &b,
                                   &err, NULL);
        if (!TK_CHECK(st == cases[i].st) ||
            !TK_CHECK(strstr(err.message, cases[i].needle) != NULL) ||
            !TK_CHECK(err.line > 0 && err.column > 0))
            fprintf(stderr, "    case %zu: status %d, message: %s\n", i, (int)st, err.message);
    }
    free(b.v);
}

static void test_long_dictionary_key(void)
{
    char dict[1024], seq[1024];
    char key[301];
    for (int i = 0; i < 300; i++) key[i] = dt_chars[i % 64];
    key[300] = 0;
    snprintf(dict, sizeof dict, "{ \"%s\" : \"I\" }", key);
    snprintf(seq, sizeof seq, "<%s>", key);
    edges_buf b = {0};
    tk_error err;
    TK_CHECK_EQ_I64(decode_text(dict, TABLE, "6", seq, &b, &err, NULL), TK_OK);
    TK_CHECK_EQ_U64(b.n, 6);
    free(b.v);
}

static void test_nesting_limit(void)
{
    char seq[1024];
    size_t n = 0;
    for (int i = 0; i < TK_DCFG_TRACE_MAX_NESTING + 1; i++)
        n += (size_t)snprintf(seq + n, sizeof seq - n, "(1*");
    n += (size_t)snprintf(seq + n, sizeof seq - n, "I");
    for (int i = 0; i < TK_DCFG_TRACE_MAX_NESTING + 1; i++) seq[n++] = ')';
    seq[n] = 0;
    edges_buf b = {0};
    tk_error err;
    TK_CHECK_EQ_I64(decode_text("{ }", TABLE, "6", seq, &b, &err, NULL), TK_ERR_LIMIT);
    TK_CHECK(strstr(err.message, "nested") != NULL);
    free(b.v);
}

static void test_leftover_bits_warn(void)
{
    edges_buf b = {0};
    tk_error err;
    int w = 0;
    TK_CHECK_EQ_I64(decode_text("{ }", TABLE, "6", "I", &b, &err, &w), TK_OK);
    TK_CHECK_EQ_I64(w, 0); /* 3 bits used, 3 left: padding */
    b.n = 0;
    TK_CHECK_EQ_I64(decode_text("{ }", TABLE, "6", "IA", &b, &err, &w), TK_OK);
    TK_CHECK_EQ_I64(w, 1); /* 9 bits left */
    free(b.v);
}

static void test_key_order_and_trailing_garbage(void)
{
    const char *bad[] = {
        "{ \"MINOR_VERSION\" : 0, \"MAJOR_VERSION\" : 1, \"PROCESSES\" : [ [ \"PROCESS_ID\", "
        "\"STRING_DICTIONARY\", \"TRANSITION_TABLE\", \"THREAD_DATA\" ] ] }",
        "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"PROCESSES\" : [ [ \"PROCESS_ID\", "
        "\"STRING_DICTIONARY\", \"TRANSITION_TABLE\", \"THREAD_DATA\" ] ] } x",
        "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"PROCESSES\" : [ [ \"PROCESS_ID\" ] ] }",
        "{ \"MAJOR_VERSION\" : -1",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tk_dcfg_trace *t;
        tk_error err;
        tk_error_clear(&err);
        TK_CHECK_EQ_I64(tk_dcfg_trace_open_memory(&t, bad[i], strlen(bad[i]), "x", NULL, &err),
                        TK_ERR_FORMAT);
        TK_CHECK(err.line == 1 && err.column > 0);
    }
}

/* Spec 1.2.1: integers may be C-style strings "anywhere an integer is
 * required". Each named field is written in turn as "0x..." (lower-case
 * digits), "0X..." (upper-case digits, leading zeros) and a decimal string,
 * the others as JSON numbers: the trace must read as with numbers only. */
enum { F_MAJOR, F_MINOR, F_PID, F_CUR, F_NEXT, F_TID, F_PREC, F_INSTR, F_COUNT, F_FIRST, F_N };

static tk_status open_fields(const char *const f[F_N], tk_dcfg_trace **t, tk_error *err)
{
    static char doc[4096];
    snprintf(doc, sizeof doc,
             "{ \"MAJOR_VERSION\" : %s, \"MINOR_VERSION\" : %s,\n"
             " \"PROCESSES\" : [ [ \"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", "
             "\"THREAD_DATA\" ],\n  [ %s, { },\n"
             "   [ [\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"],\n"
             "     [%s, \"0\", [%s]], [1, \"1\", [4]], [2, \"\", [3]], [3, \"0\", [2]],"
             " [3, \"1\", [4]], [4, \"\", [5]] ],\n"
             "   [ [ \"THREAD_ID\", \"TRACE_DATA\" ],\n"
             "    [ %s, [ [ \"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", "
             "\"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\" ],\n"
             "      [ %s, %s, %s, %s, \"I\" ] ] ] ] ] ] }\n",
             f[F_MAJOR], f[F_MINOR], f[F_PID], f[F_CUR], f[F_NEXT], f[F_TID], f[F_PREC], f[F_INSTR],
             f[F_COUNT], f[F_FIRST]);
    tk_error_clear(err);
    return tk_dcfg_trace_open_memory(t, doc, strlen(doc), "mem.trace.json", NULL, err);
}

static void test_integers_as_strings(void)
{
    static const char *const plain[F_N] = {
        "1", "0", "48879", "1", "2", "171", "18364758544493064720", "11259375", "6", "1"};
    static const char *const spelled[F_N][3] = {
        {"\"0x1\"", "\"0X01\"", "\"1\""},
        {"\"0x0\"", "\"0X00\"", "\"0\""},
        {"\"0xbeef\"", "\"0X0000BEEF\"", "\"48879\""},
        {"\"0x1\"", "\"0X1\"", "\"1\""},
        {"\"0x2\"", "\"0X0002\"", "\"2\""},
        {"\"0xab\"", "\"0XAB\"", "\"171\""},
        {"\"0xfedcba9876543210\"", "\"0X00FEDCBA9876543210\"", "\"18364758544493064720\""},
        {"\"0xabcdef\"", "\"0XABCDEF\"", "\"11259375\""},
        {"\"0x6\"", "\"0X6\"", "\"6\""},
        {"\"0x1\"", "\"0X0001\"", "\"1\""},
    };
    static const char *const names[F_N] = {"MAJOR_VERSION",         "MINOR_VERSION", "PROCESS_ID",
                                           "CURRENT_EDGE_ID",       "NEXT_EDGE_IDS", "THREAD_ID",
                                           "PRECEDING_INSTR_COUNT", "INSTR_COUNT",   "EDGE_COUNT",
                                           "FIRST_EDGE_ID"};
    const uint32_t want[] = {1, 2, 3, 2, 3, 4};
    for (int field = 0; field < F_N; field++) {
        for (int k = 0; k < 3; k++) {
            const char *f[F_N];
            for (int i = 0; i < F_N; i++) f[i] = i == field ? spelled[i][k] : plain[i];
            tk_dcfg_trace *t = NULL;
            tk_error err;
            tk_status st = open_fields(f, &t, &err);
            if (!TK_CHECK(st == TK_OK)) {
                fprintf(stderr, "    %s as %s: %s\n", names[field], spelled[field][k], err.message);
                continue;
            }
            uint64_t major = 9, minor = 9;
            tk_dcfg_trace_version(t, &major, &minor);
            tk_dcfg_trace_process_info pi;
            tk_dcfg_trace_process(t, 0, &pi);
            tk_dcfg_trace_thread_info ti;
            tk_dcfg_trace_thread(t, 0, &ti);
            tk_dcfg_trace_chunk_info ci;
            tk_dcfg_trace_chunk(t, 0, &ci);
            int ok = major == 1 && minor == 0 && pi.pid == 48879 && ti.thread_id == 171 &&
                     ci.preceding_instr_count == 18364758544493064720ull &&
                     ci.instr_count == 11259375 && ci.edge_count == 6 && ci.first_edge_id == 1;
            edges_buf b = {0};
            uint64_t n = 0;
            ok = ok && tk_dcfg_trace_decode_chunk(t, 0, collect_one, &b, &n, NULL, &err) == TK_OK &&
                 same(&b, want, 6);
            if (!TK_CHECK(ok))
                fprintf(stderr, "    %s as %s reads differently\n", names[field],
                        spelled[field][k]);
            free(b.v);
            tk_dcfg_trace_free(t);
        }
    }
    /* strings that are no integer: located errors naming the field */
    static const struct {
        int field;
        const char *text;
        tk_status st;
        const char *needle;
    } bad[] = {
        {F_PREC, "\"017\"", TK_ERR_FORMAT, "octal"},
        {F_PREC, "\"0x\"", TK_ERR_FORMAT, "PRECEDING_INSTR_COUNT"},
        {F_INSTR, "\"0x1g\"", TK_ERR_FORMAT, "INSTR_COUNT"},
        {F_COUNT, "\"\"", TK_ERR_FORMAT, "EDGE_COUNT"},
        {F_COUNT, "\" 6\"", TK_ERR_FORMAT, "EDGE_COUNT"},
        {F_COUNT, "\"6 \"", TK_ERR_FORMAT, "EDGE_COUNT"},
        {F_COUNT, "\"+6\"", TK_ERR_FORMAT, "EDGE_COUNT"},
        {F_COUNT, "\"x6\"", TK_ERR_FORMAT, "EDGE_COUNT"},
        {F_TID, "\"0x1\\u0030\"", TK_ERR_FORMAT, "THREAD_ID"},
        {F_PID, "\"0x10000000000000000\"", TK_ERR_LIMIT, "64 bits"},
        {F_PID, "\"18446744073709551616\"", TK_ERR_LIMIT, "64 bits"},
        {F_FIRST, "\"0x100000000\"", TK_ERR_FORMAT, "out of range"},
        {F_CUR, "\"0x0\"", TK_ERR_FORMAT, "out of range"},
        {F_NEXT, "\"0X100000000\"", TK_ERR_FORMAT, "out of range"},
        {F_MAJOR, "\"1.0\"", TK_ERR_FORMAT, "MAJOR_VERSION"},
        /* JSON integers with a leading zero: "01" and "00" were read as 1 and 0 until the
         * parse moved to the core lexer (only "02" and up were refused) */
        {F_PREC, "01", TK_ERR_FORMAT, "leading zeros (PRECEDING_INSTR_COUNT)"},
        {F_COUNT, "00", TK_ERR_FORMAT, "leading zeros (EDGE_COUNT)"},
        {F_NEXT, "01", TK_ERR_FORMAT, "leading zeros (an id in NEXT_EDGE_IDS)"},
        {F_INSTR, "1e3", TK_ERR_FORMAT, "fractional"},
        {F_TID, "-1", TK_ERR_FORMAT, "negative"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *f[F_N];
        for (int k = 0; k < F_N; k++) f[k] = k == bad[i].field ? bad[i].text : plain[k];
        tk_dcfg_trace *t = NULL;
        tk_error err;
        tk_status st = open_fields(f, &t, &err);
        if (!TK_CHECK(st == bad[i].st) || !TK_CHECK(strstr(err.message, bad[i].needle) != NULL) ||
            !TK_CHECK(err.line > 0 && err.column > 0))
            fprintf(stderr, "    case %zu: status %d, message: %s\n", i, (int)st, err.message);
        if (st == TK_OK) tk_dcfg_trace_free(t);
    }
}

/* The sums of the chunks' counts (a chunk's end, the thread's INSTR_COUNT
 * and EDGE_COUNT totals) must fit in 64 bits: else a located error at the
 * chunk where they pass 2^64 - 1, whatever reads the file. */
static void test_chunk_sums_fit(void)
{
    static const struct {
        const char *rows;
        const char *needle;
        uint64_t line;
    } cases[] = {
        {"[ 18446744073709551615, 1, 1, 1, \"\" ]", "the chunk's end", 4},
        {"[ 0, 9223372036854775808, 1, 1, \"\" ],\n [ 0, \"0x8000000000000000\", 1, 1, \"\" ]",
         "INSTR_COUNT total", 5},
        {"[ 0, 0, 18446744073709551615, 1, \"\" ],\n [ 0, 0, 1, 1, \"\" ]", "EDGE_COUNT total", 5},
        {"[ 0, 0, 1, 1, \"\" ],\n [ 0, 18446744073709551615, 1, 1, \"\" ]", NULL, 0}, /* fits */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char doc[2048];
        snprintf(doc, sizeof doc,
                 "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"PROCESSES\" : [ [ "
                 "\"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", "
                 "\"THREAD_DATA\" ],\n [ 7, { }, [ [\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", "
                 "\"NEXT_EDGE_IDS\"] ],\n [ [ \"THREAD_ID\", \"TRACE_DATA\" ], [ 0, [ [ "
                 "\"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", "
                 "\"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\" ],\n %s ] ] ] ] ] }\n",
                 cases[i].rows);
        tk_dcfg_trace *t = NULL;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_dcfg_trace_open_memory(&t, doc, strlen(doc), "sums", NULL, &err);
        if (!cases[i].needle) {
            TK_CHECK_EQ_I64(st, TK_OK);
        } else if (!TK_CHECK(st == TK_ERR_FORMAT) ||
                   !TK_CHECK(strstr(err.message, cases[i].needle) != NULL) ||
                   !TK_CHECK(err.line == cases[i].line && err.column == 2)) {
            fprintf(stderr, "    case %zu: status %d, %llu:%llu %s\n", i, (int)st,
                    (unsigned long long)err.line, (unsigned long long)err.column, err.message);
        }
        tk_dcfg_trace_free(t);
    }
}

/* ---- encoder round trips ------------------------------------------------------------ */

typedef struct membuf {
    char *p;
    size_t n, cap;
} membuf;

static int write_mem(void *ctx, const void *data, size_t n)
{
    membuf *m = ctx;
    if (m->n + n > m->cap) {
        m->cap = (m->n + n) * 2;
        m->p = realloc(m->p, m->cap);
    }
    memcpy(m->p + m->n, data, n);
    m->n += n;
    return 0;
}

static uint64_t instrs_of(void *ctx, uint64_t pid, uint32_t edge)
{
    (void)ctx;
    return (pid + edge) % 7 + 1;
}

typedef struct seq {
    uint64_t pid, tid;
    uint32_t *e;
    size_t n;
} seq;

/* Parallel formatting: each edge as "%u\n". */
static int render_ids(const void *ctx, const tk_dcfg_trace_piece *piece, tk_dcfg_trace_text *out)
{
    (void)ctx;
    if (tk_dcfg_trace_text_reserve(out, piece->nedges * 11, NULL) != TK_OK) return 1;
    for (size_t i = 0; i < piece->nedges; i++)
        out->len += (size_t)snprintf(out->data + out->len, 12, "%u\n", piece->edges[i]);
    return 0;
}

typedef struct text_sink {
    char *p;
    size_t n, cap;
    size_t last_chunk, calls;
} text_sink;

static int append_text(void *ctx, size_t chunk, const char *data, size_t len)
{
    text_sink *t = ctx;
    if (t->calls++ > 0 && chunk < t->last_chunk) return 1; /* out of order */
    t->last_chunk = chunk;
    if (t->n + len > t->cap) {
        t->cap = (t->n + len) * 2;
        t->p = realloc(t->p, t->cap);
        if (!t->p) return 1;
    }
    memcpy(t->p + t->n, data, len);
    t->n += len;
    return 0;
}

static int stop_after_two(void *ctx, size_t chunk, const uint32_t *edges, size_t n)
{
    (void)chunk;
    (void)edges;
    (void)n;
    return ++*(size_t *)ctx >= 2;
}

/* Encodes the sequences (observed in two pieces each, to exercise continuation) into m. */
static void encode_seqs(const seq *s, size_t nseq, const tk_dcfg_trace_encode_options *opt,
                        membuf *m)
{
    tk_dcfg_trace_encoder *enc;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_open(&enc, opt, &err), TK_OK);
    for (size_t i = 0; i < nseq; i++) {
        size_t half = s[i].n / 2;
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_observe(enc, s[i].pid, s[i].tid, s[i].e, half, &err),
                        TK_OK);
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_observe(enc, s[i].pid, s[i].tid, s[i].e + half,
                                                      s[i].n - half, &err),
                        TK_OK);
    }
    TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_start(enc, &(tk_writer){write_mem, m}, &err), TK_OK);
    for (size_t i = 0; i < nseq; i++)
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_encode(enc, s[i].pid, s[i].tid, s[i].e, s[i].n, &err),
                        TK_OK);
    TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_finish(enc, &err), TK_OK);
    tk_dcfg_trace_encoder_free(enc);
}

/* Decoded serially and on 3 threads: the sequences' edges in order. */
static void check_decoded_edges(tk_dcfg_trace *t, const seq *s, size_t nseq)
{
    tk_error err;
    tk_error_clear(&err);
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        edges_buf b = {0};
        uint64_t total;
        tk_dcfg_trace_decode_options dopt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        dopt.threads = threads;
        dopt.max_chunk_edges = 100; /* big chunks go through the piecewise path */
        TK_CHECK_EQ_I64(tk_dcfg_trace_decode(t, &dopt, collect, &b, &total, NULL, &err), TK_OK);
        size_t off = 0, bad = 0;
        for (size_t i = 0; i < nseq; i++) {
            if (s[i].n && (off + s[i].n > b.n || memcmp(b.v + off, s[i].e, s[i].n * 4) != 0)) bad++;
            off += s[i].n;
        }
        TK_CHECK_EQ_U64(off, b.n);
        TK_CHECK_EQ_U64(bad, 0);
        free(b.v);
    }
}

/* Formatted on 3 threads, written in order; a callback that stops: TK_END, no hang,
 * whatever the threads. */
static void check_decoded_text(tk_dcfg_trace *t, const seq *s, size_t nseq)
{
    tk_error err;
    tk_error_clear(&err);
    text_sink o = {0};
    uint64_t total;
    tk_dcfg_trace_decode_options dopt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    dopt.threads = 3;
    dopt.max_chunk_edges = 100;
    dopt.render = render_ids;
    dopt.write_text = append_text;
    TK_CHECK_EQ_I64(tk_dcfg_trace_decode(t, &dopt, NULL, &o, &total, NULL, &err), TK_OK);
    size_t want_len = 0, k = 0, bad = 0;
    char line[16];
    for (size_t i = 0; i < nseq; i++)
        for (size_t j = 0; j < s[i].n; j++) {
            size_t l = (size_t)snprintf(line, sizeof line, "%u\n", s[i].e[j]);
            if (k + l > o.n || memcmp(o.p + k, line, l) != 0) bad++;
            k += l;
            want_len += l;
        }
    TK_CHECK_EQ_U64(o.n, want_len);
    TK_CHECK_EQ_U64(bad, 0);
    free(o.p);
    size_t calls = 0;
    dopt = (tk_dcfg_trace_decode_options)TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    dopt.threads = 3;
    tk_status ds = tk_dcfg_trace_decode(t, &dopt, stop_after_two, &calls, &total, NULL, &err);
    TK_CHECK(ds == (calls >= 2 ? TK_END : TK_OK));
    TK_CHECK(calls <= 2);
}

/* Chunk bookkeeping: PRECEDING is the running sum of INSTR_COUNT per thread. Returns the
 * sum of EDGE_COUNT. */
static uint64_t check_chunks(const tk_dcfg_trace *t)
{
    uint64_t edge_counts = 0;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        uint64_t sum = 0;
        for (size_t c = 0; c < ti.nchunks; c++) {
            tk_dcfg_trace_chunk_info ci;
            tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
            TK_CHECK_EQ_U64(ci.preceding_instr_count, sum);
            sum += ci.instr_count;
            edge_counts += ci.edge_count;
        }
    }
    return edge_counts;
}

/* Encodes, decodes (serially and on 3 threads) and compares; returns the
 * sum of EDGE_COUNT (less than the edges when multi-edge rows are used). */
static uint64_t round_trip(const seq *s, size_t nseq, int level, int compat, uint64_t chunk_instrs)
{
    tk_dcfg_trace_encode_options opt = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
    opt.level = level ? level : TK_DCFG_TRACE_PLAIN;
    opt.compat_intel = compat;
    opt.chunk_instrs = chunk_instrs;
    opt.source_instrs = instrs_of;
    membuf m = {0};
    encode_seqs(s, nseq, &opt, &m);
    tk_dcfg_trace *t;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_dcfg_trace_open_memory(&t, m.p, m.n, "encoded", NULL, &err);
    if (!TK_CHECK(st == TK_OK)) {
        fprintf(stderr, "    %s (line %llu col %llu)\n", err.message, (unsigned long long)err.line,
                (unsigned long long)err.column);
        free(m.p);
        return 0;
    }
    check_decoded_edges(t, s, nseq);
    check_decoded_text(t, s, nseq);
    uint64_t edge_counts = check_chunks(t);
    if (compat) TK_CHECK(memchr(m.p, '<', m.n) == NULL);
    tk_dcfg_trace_free(t);
    free(m.p);
    return edge_counts;
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void test_encoder_round_trips(void)
{
    uint64_t r = 88172645463325252ULL;
    seq s[5];
    uint64_t ids[5][2] = {{1, 0}, {1, 3}, {2, 0}, {9, 1}, {9, 2}};
    for (int i = 0; i < 5; i++) {
        s[i].pid = ids[i][0];
        s[i].tid = ids[i][1];
        s[i].n = 1 + rnd(&r) % 5000;
        s[i].e = malloc(s[i].n * sizeof *s[i].e);
        /* a loop-ish walk over 40 edges with a deterministic pattern and noise */
        uint32_t cur = 1;
        for (size_t k = 0; k < s[i].n; k++) {
            s[i].e[k] = cur;
            cur = (rnd(&r) % 16 == 0) ? (uint32_t)(1 + rnd(&r) % 40) : (uint32_t)(cur % 40 + 1);
        }
    }
    for (int level = 0; level <= 9; level += 3) {
        round_trip(s, 5, level, 0, 0);
        round_trip(s, 5, level, 0, 500);
    }
    round_trip(s, 5, 9, 1, 1000);
    round_trip(s, 1, 9, 0, 1); /* one edge per chunk */
    for (int i = 0; i < 5; i++) free(s[i].e);
}

static void test_encoder_thread_without_edges(void)
{
    /* a thread with no edges before the others (the library API allows it):
     * with multi-edge rows the sample then starts empty (found by the fuzzer:
     * pointer arithmetic on the sample array before it existed) */
    static uint32_t none[1];
    uint32_t e[600];
    for (size_t k = 0; k < 600; k++) e[k] = (uint32_t)(1 + k % 7);
    seq s[2] = {{4, 0, none, 0}, {4, 1, e, 600}};
    for (int level = 5; level <= 9; level += 4) round_trip(s, 2, level, 0, 0);
    round_trip(s, 2, 9, 1, 0);
    seq alone = {4, 0, none, 0};
    round_trip(&alone, 1, 9, 0, 0);
}

static void test_multi_edge_transitions(void)
{
    /* a long program-like walk: nested loops with fixed trip counts and rare
     * noise; at level 9 the encoder chooses multi-edge transitions */
    uint64_t r = 777;
    size_t n = 300000;
    uint32_t *e = malloc(n * sizeof *e);
    size_t k = 0;
    uint32_t outer = 0;
    while (k < n) {
        e[k++] = 1;
        for (uint32_t it = 0; it < 6 && k < n; it++) {
            e[k++] = 2;
            e[k++] = 3;
            e[k++] = (rnd(&r) % 97 == 0) ? 5 : 4;
        }
        if (k < n) e[k++] = (outer++ % 3) ? 6 : 7;
    }
    seq s = {3, 0, e, n};
    uint64_t plain = round_trip(&s, 1, 5, 0, 100000);
    uint64_t multi = round_trip(&s, 1, 9, 0, 100000);
    TK_CHECK_EQ_U64(plain, n);
    TK_CHECK(multi < n / 2);
    free(e);
}

static void test_zero_bit_chunks_stay_readable(void)
{
    /* a loop of three edges, every transition a sole successor (""): with no
     * chunk limit the encoder still cuts chunks so that no chunk has more
     * zero-bit transitions in a row than the decoder accepts */
    size_t n = (size_t)TK_DCFG_TRACE_MAX_ZERO_BIT_RUN + 1000;
    uint32_t *e = malloc(n * sizeof *e);
    for (size_t k = 0; k < n; k++) e[k] = (uint32_t)(1 + k % 3);
    seq s = {5, 1, e, n};
    uint64_t counted = round_trip(&s, 1, 5, 0, 0);
    TK_CHECK_EQ_U64(counted, n);
    free(e);
}

static void test_long_codes_and_length_limit(void)
{
    /* one edge with 600 successors of geometric frequencies: Huffman lengths
     * beyond 32 bits are limited, and codes longer than one lookup level
     * go through sub-tables */
    uint64_t r = 12345;
    size_t n = 0, cap = 400000;
    uint32_t *e = malloc(cap * sizeof *e);
    for (uint32_t k = 0; k < 600 && n + 2 < cap; k++) {
        uint64_t times = k < 40 ? ((uint64_t)1 << (20 - k / 2)) >> 8 : 1;
        for (uint64_t j = 0; j < times + 1 && n + 2 < cap; j++) {
            e[n++] = 1;
            e[n++] = 2 + k;
        }
    }
    /* shuffle pairs a little so the stream is not sorted */
    for (size_t i = 0; i + 3 < n; i += 2) {
        size_t j = (rnd(&r) % ((n - i) / 2)) * 2 + i;
        uint32_t tmp = e[i + 1];
        e[i + 1] = e[j + 1];
        e[j + 1] = tmp;
    }
    seq s = {5, 0, e, n};
    round_trip(&s, 1, 0, 0, 0);
    round_trip(&s, 1, 9, 0, 0);
    free(e);
}

/* With a DCFG the encoder starts a chunk at every gap (an edge that does not
 * start where the previous one ended), whatever the chunk limits, and the
 * chunk after a gap starts after the block the last edge entered; check
 * --dcfg accepts the output at every level. The graph: 29 -1690-> 31
 * -303-> 30 -306-> 31 -1193-> 32 -1905-> 9 (NUM_INSTRS 29:5 30:3 31:4 32:2 9:1). */
static const char gap_dcfg[] =
    "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0,\n"
    "  \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ], [ 1, \"a.out\" ] ],\n"
    "  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ], [ 4, \"DIRECT_CALL\" ],\n"
    "    [ 13, \"DIRECT_CONDITIONAL_BRANCH\" ], [ 18, \"FALL_THROUGH\" ] ],\n"
    "  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], [ 1, \"START\" ], [ 2, \"END\" ] ],\n"
    "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ], [ 7, {\n"
    "      \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ],\n"
    "        [ 1, \"0x400000\", 4096, { \"FILE_NAME_ID\" : 1,\n"
    "          \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\" ],\n"
    "            [ 9, 16, 4, 1 ], [ 29, 32, 20, 5 ], [ 30, 64, 12, 3 ], [ 31, 80, 16, 4 ],\n"
    "            [ 32, 96, 8, 2 ] ] } ] ],\n"
    "      \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", "
    "\"COUNT_PER_THREAD\" ],\n"
    "        [ 1690, 29, 31, 18, [ 100 ] ], [ 303, 31, 30, 13, [ 100 ] ],\n"
    "        [ 306, 30, 31, 18, [ 100 ] ],\n"
    "        [ 1193, 31, 32, 18, [ 100 ] ], [ 1905, 32, 9, 4, [ 100 ] ] ] } ] ] }\n";

static void test_encoder_gaps(void)
{
    tk_cfg *cfg = NULL;
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(
        tk_input_open_memory(&in, gap_dcfg, sizeof gap_dcfg - 1, "gap.dcfg", NULL, &err), TK_OK);
    TK_CHECK_EQ_I64(tk_dcfg_read(&cfg, in, NULL, &err), TK_OK);
    tk_input_free(in);
    if (!cfg) return;
    /* gaps after the 3rd edge (306 enters 31, 306 leaves 30), the 5th (303 enters 30, 1905
     * leaves 32) and the 6th (1905 enters 9, 1690 leaves 29); each chunk after a gap starts
     * after the block entered (31: 4, 30: 3, 9: 1 instructions) */
    uint32_t e[] = {1690, 303, 306, 306, 303, 1905, 1690, 303, 306, 1193, 1905};
    /* expected chunks (no limits): edges, PRECEDING, INSTR_COUNT */
    const uint64_t want[4][3] = {{3, 0, 12}, {2, 12 + 4, 7}, {1, 23 + 3, 2}, {5, 28 + 1, 18}};
    for (int level = 0; level <= 10; level++) {
        tk_dcfg_trace_encode_options opt = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
        opt.level = level % 10 ? level : TK_DCFG_TRACE_PLAIN;
        opt.compat_intel = level == 10;
        opt.cfg = cfg;
        tk_dcfg_trace_encoder *enc;
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_open(&enc, &opt, &err), TK_OK);
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_observe(enc, 7, 0, e, 5, &err), TK_OK);
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_observe(enc, 7, 0, e + 5, 6, &err), TK_OK);
        membuf m = {0};
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_start(enc, &(tk_writer){write_mem, &m}, &err), TK_OK);
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_encode(enc, 7, 0, e, 2, &err), TK_OK);
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_encode(enc, 7, 0, e + 2, 9, &err), TK_OK);
        TK_CHECK_EQ_I64(tk_dcfg_trace_encoder_finish(enc, &err), TK_OK);
        tk_dcfg_trace_encoder_free(enc);
        tk_dcfg_trace *t = NULL;
        if (!TK_CHECK(tk_dcfg_trace_open_memory(&t, m.p, m.n, "gaps", NULL, &err) == TK_OK)) {
            free(m.p);
            continue;
        }
        TK_CHECK_EQ_U64(tk_dcfg_trace_chunk_count(t), 4);
        for (size_t c = 0; c < 4 && c < tk_dcfg_trace_chunk_count(t); c++) {
            tk_dcfg_trace_chunk_info ci;
            tk_dcfg_trace_chunk(t, c, &ci);
            if (!TK_CHECK(ci.preceding_instr_count == want[c][1] && ci.instr_count == want[c][2]))
                fprintf(stderr, "    level %d chunk %zu: %llu %llu\n", level, c,
                        (unsigned long long)ci.preceding_instr_count,
                        (unsigned long long)ci.instr_count);
        }
        edges_buf b = {0};
        uint64_t total;
        TK_CHECK_EQ_I64(tk_dcfg_trace_decode(t, NULL, collect, &b, &total, NULL, &err), TK_OK);
        TK_CHECK(same(&b, e, sizeof e / sizeof e[0]));
        free(b.v);
        int warnings = 0;
        tk_diag diag;
        tk_diag_init(&diag, count_diag, &warnings);
        TK_CHECK_EQ_I64(tk_dcfg_trace_check(t, cfg, 1, &diag, &err), TK_OK);
        TK_CHECK_EQ_U64(diag.errors, 0);
        tk_dcfg_trace_free(t);
        free(m.p);
    }
    tk_cfg_free(cfg);
}

/* ---- locations ------------------------------------------------------------------------ */

typedef struct loc_buf {
    char *p;
    size_t n, cap;
} loc_buf;

static void loc_put(loc_buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void loc_puts(loc_buf *b, const char *s) { loc_put(b, s, strlen(s)); }

/* Line and column of offset off, counted from the bytes. */
static void count_line_col(const char *s, size_t off, uint64_t *line, uint64_t *col)
{
    uint64_t l = 1;
    size_t start = 0;
    for (size_t i = 0; i < off; i++)
        if (s[i] == '\n') {
            l++;
            start = i + 1;
        }
    *line = l;
    *col = off - start + 1;
}

static void first_loc(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)sev;
    (void)msg;
    tk_location *l = ctx;
    if (l->line == 0) *l = *loc;
}

/* Each chunk's line:column (tk_dcfg_trace_chunk: recorded by the parse) and the location of a
 * warning at a sequence (from the chunk's row) are those counted from the bytes: rows on one
 * line and on lines of their own, CRLF, tabs, an escaped new line in a sequence, a row read
 * value by value (an integer as a string), rows beyond 64 KiB of blank lines (the line
 * marks); the same with every '\n' and '\r' made a space (one line). */
static void test_chunk_locations(void)
{
    static const char *const seps[] = {",\n      ", ", ", ",\r\n\t", ",", ",\n"};
    /* the rows' INSTR_COUNT and EDGE_ID_SEQUENCE ("IA": 9 bits left, the warning) */
    static const char *const instrs[] = {"6", "6", "\"6\"", "6", "6"};
    static const char *const seqs[] = {"I", "IA", "I", "I\\\nI", "I"};
    enum { NROWS = 12 };
    for (int one_line = 0; one_line < 2; one_line++) {
        loc_buf b = {0};
        size_t row_at[NROWS], seq_at = 0;
        loc_puts(&b, H1);
        loc_puts(&b, "{ }");
        loc_puts(&b, H2);
        loc_puts(&b, TABLE);
        loc_puts(&b, " ],\n   [ [ \"THREAD_ID\", \"TRACE_DATA\" ],\n    [ 0, [ [ "
                     "\"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", "
                     "\"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\" ]");
        for (int k = 0; k < NROWS; k++) {
            loc_puts(&b, seps[k % 5]);
            if (k == 7) /* 150 KB of blank lines */
                for (int i = 0; i < 1500; i++) {
                    char pad[101];
                    memset(pad, ' ', 99);
                    pad[99] = '\n';
                    pad[100] = 0;
                    loc_puts(&b, pad);
                }
            char row[64];
            snprintf(row, sizeof row, "[ %d, %s, 6, 1, \"%s\" ]", 6 * k, instrs[k % 5],
                     seqs[k % 5]);
            row_at[k] = b.n;
            if (k == 1) seq_at = b.n + (size_t)(strchr(row, '"') - row) + 1;
            loc_puts(&b, row);
        }
        loc_puts(&b, " ] ] ] ] ] }\n");
        if (one_line)
            for (size_t i = 0; i < b.n; i++)
                if (b.p[i] == '\n' || b.p[i] == '\r') b.p[i] = ' ';
        tk_dcfg_trace *t = NULL;
        tk_error err;
        if (!TK_CHECK(tk_dcfg_trace_open_memory(&t, b.p, b.n, "loc", NULL, &err) == TK_OK)) {
            fprintf(stderr, "    %s\n", err.message);
            free(b.p);
            continue;
        }
        TK_CHECK_EQ_U64(tk_dcfg_trace_chunk_count(t), NROWS);
        for (size_t c = 0; c < NROWS && c < tk_dcfg_trace_chunk_count(t); c++) {
            tk_dcfg_trace_chunk_info ci;
            tk_dcfg_trace_chunk(t, c, &ci);
            uint64_t line, col;
            count_line_col(b.p, row_at[c], &line, &col);
            if (!TK_CHECK(ci.line == line && ci.column == col))
                fprintf(stderr, "    one line %d chunk %zu: %llu:%llu, want %llu:%llu\n", one_line,
                        c, (unsigned long long)ci.line, (unsigned long long)ci.column,
                        (unsigned long long)line, (unsigned long long)col);
        }
        tk_location loc = {0};
        tk_diag diag;
        tk_diag_init(&diag, first_loc, &loc);
        edges_buf e = {0};
        uint64_t n;
        TK_CHECK_EQ_I64(tk_dcfg_trace_decode_chunk(t, 1, collect_one, &e, &n, &diag, &err), TK_OK);
        uint64_t line, col;
        count_line_col(b.p, seq_at, &line, &col);
        TK_CHECK(loc.offset == (int64_t)seq_at && loc.line == line && loc.column == col);
        free(e.v);
        tk_dcfg_trace_free(t);
        free(b.p);
    }
}

/* The dump (tk_dcfg_trace_dump) of gen11: process 77, threads 0 and 1 of 6 chunks each, 800
 * edges; with TK_DCFG_TRACE_DUMP_STRUCTURE the chunks without their edges. */
static void test_dump(void)
{
    tk_dcfg_trace *t = NULL;
    tk_error err;
    if (!TK_CHECK(tk_dcfg_trace_open(&t, "tests/data/dcfg_trace/pass/gen11.level9.trace.json", NULL,
                                     &err) == TK_OK))
        return;
    for (unsigned flags = 0; flags <= TK_DCFG_TRACE_DUMP_STRUCTURE; flags++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        TK_CHECK(tk_dcfg_trace_dump(t, flags, TK_TEST_WRITER(m), &err) == TK_OK);
        fclose(m);
        const char *head =
            "dcfg-trace 1.0\nprocess 77\n  thread 0\n  chunk preceding_instr_count 0 ";
        TK_CHECK(strncmp(buf, head, strlen(head)) == 0);
        size_t chunks = 0, edge_lines = 0, ids = 0;
        const char *t1 = strstr(buf, "  thread 1\n");
        for (const char *p = buf; (p = strstr(p, "\n  chunk ")) != NULL; p++) chunks++;
        for (const char *p = buf; (p = strstr(p, "\n    edges")) != NULL; p++) {
            edge_lines++;
            for (p += 10; *p == ' '; ids++)
                for (p++; *p >= '0' && *p <= '9'; p++) {
                }
        }
        TK_CHECK_EQ_U64(chunks, 12);
        TK_CHECK_EQ_U64(edge_lines, flags ? 0 : 12);
        TK_CHECK_EQ_U64(ids, flags ? 0 : 800);
        TK_CHECK(t1 != NULL && strstr(t1, "thread 0") == NULL && strstr(t1, "\n  chunk ") != NULL);
        free(buf);
    }
    tk_dcfg_trace_free(t);
}

TK_TEST_MAIN(TK_CASE(test_basic_and_msb_first), TK_CASE(test_dump),
             TK_CASE(test_repeats_dictionary_whitespace), TK_CASE(test_dictionary_entries),
             TK_CASE(test_errors_are_located), TK_CASE(test_nesting_limit),
             TK_CASE(test_long_dictionary_key), TK_CASE(test_leftover_bits_warn),
             TK_CASE(test_key_order_and_trailing_garbage), TK_CASE(test_integers_as_strings),
             TK_CASE(test_chunk_sums_fit), TK_CASE(test_encoder_round_trips),
             TK_CASE(test_encoder_thread_without_edges), TK_CASE(test_multi_edge_transitions),
             TK_CASE(test_zero_bit_chunks_stay_readable), TK_CASE(test_long_codes_and_length_limit),
             TK_CASE(test_encoder_gaps), TK_CASE(test_chunk_locations))
