/* Unit tests of the WET reader, the deps model and slicing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

/* foo1.c from the WET format page, completed with the statements around it. */
static const char foo1[] =
    "4\n"
    "1873 2 8048210 foo1.c main 4\nSIZE 0\nSIZE 0\nNO VALUES\n"
    "2113 2 8048225 foo1.c main 6\nSIZE 1\n    0:1873 0\nSIZE 0\nVALUES 1\n    0:2\n"
    "2118 2 8048242 foo1.c main 8\nSIZE 1\n    0:1873 0\nSIZE 1\n    0:2113 0\nVALUES 1\n    0:2\n"
    "2120 3 8048250 foo1.c main 9\nSIZE 1\n    0:1873 0\nSIZE 1\n    0:2118 0\nSIZE 0\nVALUES 1\n"
    "    0:9\n";

static tk_status load(const char *text, tk_deps **d, tk_error *err)
{
    tk_input *in;
    tk_error_clear(err);
    tk_status st = tk_input_open_memory(&in, text, strlen(text), "mem", NULL, err);
    if (st != TK_OK) return st;
    st = tk_wet_read(d, in, NULL, err);
    tk_input_free(in);
    return st;
}

static void test_foo1_model(void)
{
    tk_deps *d;
    tk_error err;
    TK_CHECK_EQ_I64(load(foo1, &d, &err), TK_OK);
    TK_CHECK_EQ_U64(tk_deps_count(d), 4);
    uint32_t i = tk_deps_find_id(d, 2118);
    TK_CHECK_EQ_U64(i, 2);
    tk_deps_instr in;
    tk_deps_get_instr(d, i, &in);
    TK_CHECK_EQ_U64(in.addr, 0x8048242);
    TK_CHECK_STR(in.file, "foo1.c");
    TK_CHECK_EQ_U64(in.line, 8);
    tk_dep e[1];
    TK_CHECK_EQ_U64(tk_deps_port_find(d, i, 0, 0, e, 1), 1);
    TK_CHECK_EQ_U64(e->dep, tk_deps_find_id(d, 1873));
    TK_CHECK_EQ_U64(tk_deps_port_kind(d, 0), TK_DEP_CONTROL);
    TK_CHECK_EQ_U64(tk_deps_port_find(d, i, 1, 0, e, 1), 1);
    TK_CHECK_EQ_U64(e->dep, tk_deps_find_id(d, 2113));
    TK_CHECK_EQ_U64(tk_deps_port_kind(d, 1), TK_DEP_DATA);
    uint64_t v = 0;
    TK_CHECK(tk_deps_value_at(d, i, 0, &v));
    TK_CHECK_EQ_U64(v, 2);
    TK_CHECK(!tk_deps_value_at(d, i, 1, &v));
    tk_deps_stats s;
    tk_deps_get_stats(d, &s);
    TK_CHECK_EQ_U64(s.deps_control, 3);
    TK_CHECK_EQ_U64(s.deps_data, 2);
    TK_CHECK_EQ_U64(s.instances, 4);
    tk_deps_free(d);
}

static void test_slice_kinds(void)
{
    tk_deps *d;
    tk_error err;
    TK_CHECK_EQ_I64(load(foo1, &d, &err), TK_OK);
    tk_node *c;
    size_t n;
    TK_CHECK_EQ_I64(tk_criterion_parse(d, "foo1.c:9", &c, &n, &err), TK_OK);
    TK_CHECK_EQ_U64(n, 1);
    tk_slice_options o = TK_SLICE_OPTIONS_INIT;
    tk_slice *s;
    TK_CHECK_EQ_I64(tk_slice_compute(d, c, n, &o, &s, &err), TK_OK);
    TK_CHECK_EQ_U64(tk_slice_size(s), 4);
    tk_slice_free(s);
    o.deps = TK_SLICE_DATA;
    TK_CHECK_EQ_I64(tk_slice_compute(d, c, n, &o, &s, &err), TK_OK);
    TK_CHECK_EQ_U64(tk_slice_size(s), 3); /* 2120 <- 2118 <- 2113 */
    TK_CHECK(!tk_slice_contains(s, d, tk_deps_find_id(d, 1873), 0));
    tk_slice_free(s);
    o.deps = TK_SLICE_ALL;
    o.max_depth = 1;
    TK_CHECK_EQ_I64(tk_slice_compute(d, c, n, &o, &s, &err), TK_OK);
    TK_CHECK_EQ_U64(tk_slice_size(s), 3); /* 2120, 1873, 2118 */
    tk_slice_free(s);
    tk_nodes_free(c);
    /* forward from the branch reaches everything */
    TK_CHECK_EQ_I64(tk_criterion_parse(d, "0x8048210#0", &c, &n, &err), TK_OK);
    o.max_depth = 0;
    o.forward = 1;
    TK_CHECK_EQ_I64(tk_slice_compute(d, c, n, &o, &s, &err), TK_OK);
    TK_CHECK_EQ_U64(tk_slice_size(s), 4);
    tk_slice_free(s);
    tk_nodes_free(c);
    TK_CHECK_EQ_I64(tk_criterion_parse(d, "2118:1", &c, &n, &err), TK_ERR_ARG);
    TK_CHECK_EQ_I64(tk_criterion_parse(d, "bar.c:8", &c, &n, &err), TK_ERR_ARG);
    tk_deps_free(d);
}

static void test_chain(void)
{
    tk_deps *d;
    tk_error err;
    TK_CHECK_EQ_I64(load(foo1, &d, &err), TK_OK);
    tk_node a = {tk_deps_find_id(d, 2120), 0}, b = {tk_deps_find_id(d, 2113), 0};
    tk_chain_step *st;
    size_t n;
    int rev;
    TK_CHECK_EQ_I64(tk_chain_find(d, a, b, TK_SLICE_ALL, &st, &n, &rev, &err), TK_OK);
    TK_CHECK_EQ_U64(n, 3);
    TK_CHECK_EQ_U64(rev, 0);
    TK_CHECK_EQ_U64(st[1].instr, tk_deps_find_id(d, 2118));
    TK_CHECK_EQ_U64(st[1].port, 1);
    tk_chain_free(st);
    TK_CHECK_EQ_I64(tk_chain_find(d, b, a, TK_SLICE_ALL, &st, &n, &rev, &err), TK_OK);
    TK_CHECK_EQ_U64(rev, 1);
    tk_chain_free(st);
    TK_CHECK_EQ_I64(tk_chain_find(d, a, b, TK_SLICE_CONTROL, &st, &n, &rev, &err), TK_END);
    tk_deps_free(d);
}

static void test_history(void)
{
    const char *h = "0x20#1 --> 0x10#0\n0x20#0 --> 10#0\n0x30#0 --> 0x20#1\n0x20#1 --> 0x10#1\n";
    tk_deps *d;
    tk_error err;
    TK_CHECK_EQ_I64(load(h, &d, &err), TK_OK);
    TK_CHECK_EQ_U64(tk_deps_get_form(d), TK_DEPS_HISTORY);
    TK_CHECK_EQ_U64(tk_deps_count(d), 3);
    uint32_t i = tk_deps_find_addr(d, 0x20);
    TK_CHECK_EQ_U64(i, 1); /* address order */
    tk_dep e[2];
    TK_CHECK_EQ_U64(tk_deps_port_find(d, i, 0, 1, e, 2), 2);
    TK_CHECK_EQ_U64(tk_deps_port_kind(d, 0), TK_DEP_UNKNOWN);
    TK_CHECK_EQ_I64(tk_deps_build_reverse(d, &err), TK_OK);
    TK_CHECK_EQ_U64(tk_deps_users(d, tk_deps_find_addr(d, 0x10), 0, 0, NULL, 0), 2);
    tk_node c = {tk_deps_find_addr(d, 0x30), 0};
    tk_slice_options o = TK_SLICE_OPTIONS_INIT;
    tk_slice *s;
    TK_CHECK_EQ_I64(tk_slice_compute(d, &c, 1, &o, &s, &err), TK_OK);
    TK_CHECK_EQ_U64(tk_slice_size(s), 4); /* 0x30#0 0x20#1 0x10#0 0x10#1 */
    tk_slice_free(s);
    o.deps = TK_SLICE_DATA;
    TK_CHECK_EQ_I64(tk_slice_compute(d, &c, 1, &o, &s, &err), TK_ERR_ARG);
    tk_deps_free(d);
}

/* The lines of the errors a diag received (at most 4), and their count. */
typedef struct error_lines {
    uint64_t line[4];
    size_t n;
    char first[256];
} error_lines;

static void keep_error_line(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    error_lines *e = ctx;
    if (sev != TK_SEV_ERROR) return;
    if (e->n == 0) snprintf(e->first, sizeof e->first, "%s", msg);
    if (e->n < 4) e->line[e->n] = loc->line;
    e->n++;
}

static tk_status check_history(const tk_deps *c, const char *text, error_lines *e, tk_error *err)
{
    tk_input *in;
    tk_diag diag;
    memset(e, 0, sizeof *e);
    tk_diag_init(&diag, keep_error_line, e);
    tk_error_clear(err);
    tk_status st = tk_input_open_memory(&in, text, strlen(text), "h.history", NULL, err);
    if (st == TK_OK) st = tk_wet_check_history(in, c, &diag, err);
    tk_input_free(in);
    return st;
}

/* A limited-history trace against the comprehensive one (`check HISTORY TRACE`): each
 * dependence the comprehensive trace lacks is an error at its line; a bad line stops. */
static void test_history_against_comprehensive(void)
{
    tk_deps *c;
    tk_error err;
    error_lines e;
    if (!TK_CHECK(load(foo1, &c, &err) == TK_OK)) return;
    TK_CHECK_EQ_I64(check_history(c,
                                  "0x8048225#0 --> 0x8048210#0\n"
                                  "0x8048250#0 --> 0x8048242#0\n",
                                  &e, &err),
                    TK_OK);
    TK_CHECK_EQ_U64(e.n, 0);
    TK_CHECK_EQ_I64(check_history(c,
                                  "0x8048225#0 --> 0x8048210#0\n"
                                  "0x8048242#0 --> 0x8048230#0\n"
                                  "0x8048250#1 --> 0x8048242#0\n",
                                  &e, &err),
                    TK_ERR_CHECK);
    TK_CHECK_EQ_U64(e.n, 2);
    TK_CHECK(e.line[0] == 2 && e.line[1] == 3);
    TK_CHECK_STR(e.first, "dependence 0x8048242#0 --> 0x8048230#0 is not in the comprehensive "
                          "trace");
    TK_CHECK_EQ_I64(check_history(c, "0x8048242#0 --> 0x8048230#0\n0x10#0 -> 0x20#0\n", &e, &err),
                    TK_ERR_FORMAT);
    TK_CHECK_EQ_U64(e.n, 1);
    TK_CHECK_EQ_U64(err.line, 2);
    tk_deps_free(c);
}

static void test_errors_located(void)
{
    tk_deps *d = NULL;
    tk_error err;
    TK_CHECK_EQ_I64(load("1\n5 1 10 a.c f 1\nSIZE 2\n  0:5 0\nNO VALUES\n", &d, &err),
                    TK_ERR_FORMAT);
    TK_CHECK_EQ_U64(err.line, 4); /* the self dependence comes first */
    TK_CHECK_EQ_I64(load("1\n5 1 10 a.c f 1\nSIZE 2\n  1:5 0\nNO VALUES\n", &d, &err),
                    TK_ERR_FORMAT);
    TK_CHECK_EQ_U64(err.line, 5);
    TK_CHECK_EQ_U64(err.column, 1);
    TK_CHECK(strstr(err.message, "expected dependence entry 2 of 2") != NULL);
    TK_CHECK_EQ_I64(load("1\n5 1 10 a.c f 1\nSIZE 1\n  0:6 0\nNO VALUES\n", &d, &err),
                    TK_ERR_FORMAT);
    TK_CHECK_EQ_U64(err.line, 4);
    TK_CHECK_EQ_U64(err.column, 5);
    TK_CHECK(strstr(err.message, "id 6") != NULL);
    TK_CHECK_EQ_I64(load("", &d, &err), TK_ERR_FORMAT);
    TK_CHECK(d == NULL);
    /* numbers over 64 bits: TK_ERR_LIMIT at the number (core/num) */
    TK_CHECK_EQ_I64(load("18446744073709551616\n", &d, &err), TK_ERR_LIMIT);
    TK_CHECK_EQ_U64(err.line, 1);
    TK_CHECK_EQ_U64(err.column, 1);
    TK_CHECK_EQ_I64(load("1\n5 1 10000000000000000a a.c f 1\n", &d, &err), TK_ERR_LIMIT);
    TK_CHECK_EQ_U64(err.line, 2);
    TK_CHECK_EQ_U64(err.column, 5);
    TK_CHECK(strstr(err.message, "wider than 64 bits") != NULL);
}

static void test_diag_collects(void)
{
    const char *t = "2\n1 2 10\nSIZE 0\nSIZE 2\n  0:7 0\n  1:8 0\nNO VALUES\n"
                    "2 1 14\nSIZE 1\n  0:1 4\nVALUES 1\n  0:1\n";
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_input_open_memory(&in, t, strlen(t), "mem", NULL, &err), TK_OK);
    tk_diag diag;
    tk_diag_init(&diag, NULL, NULL);
    tk_deps *d = NULL;
    TK_CHECK_EQ_I64(tk_wet_read(&d, in, &diag, &err), TK_ERR_CHECK);
    TK_CHECK_EQ_U64(diag.errors, 2); /* ids 7 and 8; 1#4 is fine (no VALUES: count unknown) */
    tk_input_free(in);
    tk_deps_free(d);
}

static void test_reader_records(void)
{
    const char *t = "\n1\n  7 2 0x8048242 f.c main 8  \r\nSIZE 1\n\t0:1873 0\nSIZE 0\n"
                    "VALUES 1\n    0:0x2\n";
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_input_open_memory(&in, t, strlen(t), "mem", NULL, &err), TK_OK);
    tk_wet_reader *r;
    TK_CHECK_EQ_I64(tk_wet_reader_open(&r, in, &err), TK_OK);
    tk_wet_rec rec;
    static const tk_wet_rec_kind want[] = {TK_WET_REC_COUNT, TK_WET_REC_INSTR, TK_WET_REC_PORT,
                                           TK_WET_REC_DEP,   TK_WET_REC_PORT,  TK_WET_REC_VALUES,
                                           TK_WET_REC_VALUE};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        TK_CHECK_EQ_I64(tk_wet_reader_next(r, &rec, &err), TK_OK);
        TK_CHECK_EQ_U64(rec.kind, want[i]);
        if (rec.kind == TK_WET_REC_INSTR) {
            TK_CHECK_EQ_U64(rec.line, 3);
            TK_CHECK_EQ_U64(rec.id, 7);
            TK_CHECK_EQ_U64(rec.addr, 0x8048242);
            TK_CHECK_EQ_U64(rec.src_line, 8);
            TK_CHECK(rec.function_len == 4 && memcmp(rec.function, "main", 4) == 0);
        }
        if (rec.kind == TK_WET_REC_DEP) {
            TK_CHECK_EQ_U64(rec.dep_id, 1873);
            TK_CHECK_EQ_U64(rec.col_dep, 4);
            TK_CHECK_EQ_U64(rec.col_dep_inst, 9);
        }
        if (rec.kind == TK_WET_REC_VALUE) TK_CHECK_EQ_U64(rec.value, 2);
    }
    TK_CHECK_EQ_I64(tk_wet_reader_next(r, &rec, &err), TK_END);
    TK_CHECK_EQ_U64(tk_wet_reader_form(r), TK_DEPS_COMPREHENSIVE);
    tk_wet_reader_free(r);
    tk_input_free(in);
}

/* A line split across the input's chunks is read whole (stdin-like streaming). */
static void test_reader_long_stream(void)
{
    size_t n = 200000;
    char *t = malloc(n * 24 + 64);
    size_t o = (size_t)sprintf(t, "1\n1 1 10\nSIZE 0\nVALUES %zu\n", n);
    for (size_t i = 0; i < n; i++) o += (size_t)sprintf(t + o, "    %zu:%zx\n", i, i * 7);
    char path[] = "/tmp/tk_test_wet_XXXXXX";
    int fd = mkstemp(path);
    TK_CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    TK_CHECK(f && fwrite(t, 1, o, f) == o);
    fclose(f);
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.no_mmap = 1; /* streamed in buffer-sized chunks: lines cross chunk ends */
    TK_CHECK_EQ_I64(tk_input_open(&in, path, &opt, &err), TK_OK);
    remove(path);
    tk_deps *d = NULL;
    TK_CHECK_EQ_I64(tk_wet_read(&d, in, NULL, &err), TK_OK);
    uint64_t v = 0;
    TK_CHECK(d && tk_deps_value_at(d, 0, 123456, &v));
    TK_CHECK_EQ_U64(v, 123456 * 7);
    tk_deps_free(d);
    tk_input_free(in);
    free(t);
}

/* The deps model built through its API, as a producer other than the WET
 * reader would: references before definitions, ports, the entry counter,
 * values; then what the read functions give back. */
static void test_deps_builder_api(void)
{
    tk_deps *d = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_deps_open(&d, TK_DEPS_COMPREHENSIVE, &err) == TK_OK);
    if (!d) return;
    uint32_t a, b, again;
    TK_CHECK(tk_deps_ref(d, 20, 1, 1, &b, &err) == TK_OK); /* used before it is defined */
    TK_CHECK(tk_deps_ref(d, 10, 2, 1, &a, &err) == TK_OK);
    TK_CHECK(tk_deps_ref(d, 20, 3, 1, &again, &err) == TK_OK);
    TK_CHECK_EQ_U64(again, b);
    TK_CHECK(!tk_deps_is_defined(d, a, NULL));
    /* instruction 10: one port, no dependences, values of its two instances */
    TK_CHECK(tk_deps_define(d, a, 4, 1, 0x400, "f.c", 3, "main", 4, 7, &err) == TK_OK);
    uint64_t def_line = 0;
    TK_CHECK(tk_deps_is_defined(d, a, &def_line) && def_line == 4);
    tk_deps_set_values(d, 1);
    TK_CHECK(tk_deps_add_value(d, 0, 42, &err) == TK_OK);
    TK_CHECK(tk_deps_add_value(d, 1, 43, &err) == TK_OK);
    /* instruction 20: control port (one entry) and a data port (two) */
    TK_CHECK(tk_deps_define(d, b, 9, 2, 0x404, NULL, 0, NULL, 0, 0, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_deps_entry_count(d), 0);
    TK_CHECK(tk_deps_add_dep(d, 0, a, 0, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_deps_entry_count(d), 1);
    TK_CHECK(tk_deps_next_port(d, &err) == TK_OK);
    TK_CHECK(tk_deps_add_dep(d, 0, a, 0, &err) == TK_OK);
    TK_CHECK(tk_deps_add_dep(d, 1, a, 1, &err) == TK_OK);
    TK_CHECK_EQ_U64(tk_deps_entry_count(d), 3);
    tk_deps_set_values(d, 0);
    TK_CHECK(tk_deps_finish(d, &err) == TK_OK);

    /* finishing renumbers the instructions in definition order: 10 first */
    TK_CHECK_EQ_U64(tk_deps_count(d), 2);
    a = tk_deps_find_id(d, 10);
    b = tk_deps_find_id(d, 20);
    TK_CHECK_EQ_U64(a, 0);
    TK_CHECK_EQ_U64(b, 1);
    TK_CHECK_EQ_U64(tk_deps_find_id(d, 30), TK_DEPS_NONE);
    if (a != 0 || b != 1) {
        tk_deps_free(d);
        return;
    }
    tk_deps_instr ia, ib;
    tk_deps_get_instr(d, a, &ia);
    tk_deps_get_instr(d, b, &ib);
    TK_CHECK(ia.file && strcmp(ia.file, "f.c") == 0 && ia.function &&
             strcmp(ia.function, "main") == 0);
    TK_CHECK_EQ_U64(ia.line, 7);
    TK_CHECK_EQ_U64(ia.ninstances, 2); /* instance 1 is used by 20 */
    TK_CHECK_EQ_U64(ia.nvalues, 2);
    TK_CHECK(ib.file == NULL && ib.function == NULL && ib.line == 0 && !ib.has_values);
    TK_CHECK_EQ_U64(ib.nports, 2);
    TK_CHECK_EQ_U64(ib.ninstances, 2);
    tk_deps_stats st;
    tk_deps_get_stats(d, &st);
    TK_CHECK_EQ_U64(st.instructions, 2);
    TK_CHECK_EQ_U64(st.deps_control, 1);
    TK_CHECK_EQ_U64(st.deps_data, 2);
    TK_CHECK_EQ_U64(st.values, 2);
    tk_dep e = {0, 0, 0};
    TK_CHECK_EQ_U64(tk_deps_port_find(d, b, 1, 1, &e, 1), 1);
    TK_CHECK(e.dep == a && e.dep_inst == 1);
    uint64_t v = 0;
    TK_CHECK(tk_deps_value_at(d, a, 1, &v) && v == 43);
    TK_CHECK_EQ_U64(tk_deps_node_count(d), 4);
    TK_CHECK(tk_deps_node_base(d, a) != tk_deps_node_base(d, b));
    /* the reads copy a range: the count whatever max is, the items from `first` that exist */
    tk_dep two[2] = {{9, 9, 9}, {9, 9, 9}};
    TK_CHECK_EQ_U64(tk_deps_port_entries(d, b, 1, 0, NULL, 0), 2);
    TK_CHECK_EQ_U64(tk_deps_port_entries(d, b, 1, 1, two, 2), 2);
    TK_CHECK(two[0].inst == 1 && two[0].dep == a && two[0].dep_inst == 1);
    TK_CHECK(two[1].inst == 9 && two[1].dep == 9); /* past the end: not written */
    TK_CHECK_EQ_U64(tk_deps_port_entries(d, b, 2, 0, two, 2), 0); /* no such port */
    uint32_t ks[2] = {9, 9};
    uint64_t vs[2] = {9, 9};
    TK_CHECK_EQ_U64(tk_deps_values(d, a, 0, ks, vs, 2), 2);
    TK_CHECK(ks[0] == 0 && ks[1] == 1 && vs[0] == 42 && vs[1] == 43);
    TK_CHECK_EQ_U64(tk_deps_values(d, a, 1, NULL, vs, 1), 2);
    TK_CHECK(vs[0] == 43 && vs[1] == 43);
    TK_CHECK_EQ_U64(tk_deps_users(d, a, 0, 0, NULL, 0), 0); /* before tk_deps_build_reverse */
    TK_CHECK_EQ_I64(tk_deps_build_reverse(d, &err), TK_OK);
    tk_dep_use uses[2] = {{9, 9, 9}, {9, 9, 9}};
    TK_CHECK_EQ_U64(tk_deps_users(d, a, 0, 0, uses, 2), 2); /* b#0 on ports 0 and 1 */
    TK_CHECK(uses[0].user == b && uses[0].inst == 0 && uses[1].user == b && uses[1].inst == 0);
    TK_CHECK(uses[0].port != uses[1].port);
    tk_deps_free(d);
}

/* The slice's source lines (tk_slice_lines: distinct, sorted, file:line or 0xADDR, a history
 * trace's through a comprehensive one) and what a criterion names (tk_criterion_has_instance). */
static void test_slice_lines(void)
{
    tk_deps *d, *h;
    tk_error err;
    TK_CHECK_EQ_I64(load(foo1, &d, &err), TK_OK);
    /* a second instruction on line 9, so that the line is listed once for two */
    const char *hist = "0x8048250#0 --> 0x8048242#0\n0x8048242#0 --> 0x99#0\n";
    TK_CHECK_EQ_I64(load(hist, &h, &err), TK_OK);
    tk_node *c;
    size_t n;
    TK_CHECK_EQ_I64(tk_criterion_parse(d, "foo1.c:9", &c, &n, &err), TK_OK);
    tk_slice_options o = TK_SLICE_OPTIONS_INIT;
    o.deps = TK_SLICE_DATA;
    tk_slice *s;
    TK_CHECK_EQ_I64(tk_slice_compute(d, c, n, &o, &s, &err), TK_OK);
    char **lines;
    size_t nl;
    TK_CHECK_EQ_I64(tk_slice_lines(s, d, NULL, &lines, &nl, &err), TK_OK);
    if (TK_CHECK(nl == 3)) {
        TK_CHECK_STR(lines[0], "foo1.c:6");
        TK_CHECK_STR(lines[1], "foo1.c:8");
        TK_CHECK_STR(lines[2], "foo1.c:9");
    }
    tk_free(lines);
    tk_slice_free(s);
    tk_nodes_free(c);
    /* history: addresses, named through the comprehensive trace where it has them */
    tk_node hc = {tk_deps_find_addr(h, 0x8048250), 0};
    tk_slice_options ho = TK_SLICE_OPTIONS_INIT;
    TK_CHECK_EQ_I64(tk_deps_build_reverse(h, &err), TK_OK);
    TK_CHECK_EQ_I64(tk_slice_compute(h, &hc, 1, &ho, &s, &err), TK_OK);
    TK_CHECK_EQ_I64(tk_slice_lines(s, h, d, &lines, &nl, &err), TK_OK);
    if (TK_CHECK(nl == 3)) {
        TK_CHECK_STR(lines[0], "0x99");
        TK_CHECK_STR(lines[1], "foo1.c:8");
        TK_CHECK_STR(lines[2], "foo1.c:9");
    }
    tk_free(lines);
    TK_CHECK_EQ_I64(tk_slice_lines(s, h, NULL, &lines, &nl, &err), TK_OK);
    TK_CHECK(nl == 3 && strcmp(lines[0], "0x8048242") == 0 && strcmp(lines[2], "0x99") == 0);
    tk_free(lines);
    char buf[8];
    TK_CHECK_STR(tk_deps_source(d, NULL, tk_deps_find_id(d, 2118), buf, sizeof buf), "foo1.c:");
    tk_slice_free(s);
    tk_deps_free(h);
    tk_deps_free(d);
    static const char *const with[] = {"2118:0", "0x8048242#0", "foo1.c:8#0", "dir:x/f.c:8#2"};
    static const char *const without[] = {"2118", "0x8048242", "foo1.c:8", "0x10:1"};
    for (size_t i = 0; i < 4; i++) {
        TK_CHECK(tk_criterion_has_instance(with[i]));
        TK_CHECK(!tk_criterion_has_instance(without[i]));
    }
}

TK_TEST_MAIN(TK_CASE(test_deps_builder_api), TK_CASE(test_reader_records),
             TK_CASE(test_reader_long_stream), TK_CASE(test_foo1_model), TK_CASE(test_slice_kinds),
             TK_CASE(test_chain), TK_CASE(test_history),
             TK_CASE(test_history_against_comprehensive), TK_CASE(test_errors_located),
             TK_CASE(test_diag_collects), TK_CASE(test_slice_lines))
