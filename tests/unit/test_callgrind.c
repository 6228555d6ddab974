/* Unit tests of the callgrind reader and writer and of the profile model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "analysis/profile_summary.h"
#include "model/profile.h"
#include "tk_test.h"
#include "tracekit/tracekit.h"

static tk_profile *read_text(const char *text, tk_status *st, tk_error *err)
{
    tk_profile *p;
    if (tk_profile_open(&p, err) != TK_OK) return NULL;
    tk_error_clear(err);
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.path = "t.out";
    *st = tk_callgrind_read_buffer(p, text, strlen(text), &o, err);
    return p;
}

/* text[0, n) read in full (by_function 0) or as `report` reads it: rows by
 * function, cost files dropped (by_function 1); NULL when it fails. */
static tk_profile *read_rows(const char *text, size_t n, int by_function)
{
    tk_profile *p;
    if (tk_profile_open(&p, NULL) != TK_OK) return NULL;
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    if (by_function) {
        o.detail = TK_CALLGRIND_DETAIL_FUNCTIONS;
        o.drop_files = 1;
    }
    tk_error err;
    tk_error_clear(&err);
    if (tk_callgrind_read_buffer(p, text, n, &o, &err) != TK_OK) {
        tk_profile_free(p);
        return NULL;
    }
    return p;
}

/* Reads text with TK_CALLGRIND_DETAIL_FUNCTIONS and the given options into
 * a new *out (freed by the caller also on failure). */
static tk_status read_functions_detail(const char *text, size_t n, int skip_jumps, int drop_files,
                                       int counts_only, tk_profile **out, tk_error *err)
{
    if (tk_profile_open(out, err) != TK_OK) return TK_ERR_NOMEM;
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.detail = TK_CALLGRIND_DETAIL_FUNCTIONS;
    o.skip_jumps = skip_jumps;
    o.drop_files = drop_files;
    o.call_counts_only = counts_only;
    tk_error_clear(err);
    return tk_callgrind_read_buffer(*out, text, n, &o, err);
}

/* The summary by function of part 0 (all parts); summarizing must work. */
static tk_prof_summary *function_summary(const tk_profile *p)
{
    tk_prof_summary *s = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_profile_summarize(p, 0, TK_GROUP_FUNCTION, &s, &err), TK_OK);
    return s;
}

static uint32_t fn_named(const tk_profile *p, const char *name)
{
    for (size_t i = 0; i < tk_profile_function_count(p); i++)
        if (strcmp(tk_profile_str(p, tk_profile_function_at(p, (uint32_t)i)->name), name) == 0)
            return (uint32_t)i;
    return TK_PROF_NONE;
}

/* Self cost of event ev at (fn, line) summed over the rows of part 0. */
static uint64_t self_at(const tk_profile *p, const char *fn, uint64_t line, size_t ev)
{
    const tk_prof_part *pt = tk_profile_part(p, 0);
    const tk_prof_self *rows = pt->self.rows;
    uint64_t sum = 0;
    for (size_t r = 0; r < pt->self.count; r++)
        if (rows[r].fn == fn_named(p, fn) && rows[r].pos.line == line)
            sum += pt->self.values[r * tk_profile_event_count(p) + ev];
    return sum;
}

static void test_relative_positions_and_short_cost_lines(void)
{
    tk_status st;
    tk_error err;
    tk_profile *p = read_text("events: Ir Dr\nfn=main\n10 5 2\n+2 3\n-1 7 1\n* 1\n", &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    TK_CHECK_EQ_U64(self_at(p, "main", 10, 0), 5);
    TK_CHECK_EQ_U64(self_at(p, "main", 10, 1), 2);
    TK_CHECK_EQ_U64(self_at(p, "main", 12, 0), 3);
    TK_CHECK_EQ_U64(self_at(p, "main", 12, 1), 0); /* shorter line: zero */
    TK_CHECK_EQ_U64(self_at(p, "main", 11, 0), 8); /* "-1" then "*" */
    TK_CHECK_EQ_U64(self_at(p, "main", 11, 1), 1);
    tk_profile_free(p);
}

static void test_name_compression_separate_id_spaces(void)
{
    tk_status st;
    tk_error err;
    tk_profile *p = read_text("events: Ir\nob=(1) libx\nfl=(1) a.c\nfn=(1) f\n1 1\n"
                              "fn=(2) (below main)\n2 2\nfl=(2) b.c\nfn=(1)\n3 3\n",
                              &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    /* file (1) and function (1) and object (1) are different names */
    TK_CHECK(fn_named(p, "f") != TK_PROF_NONE);
    TK_CHECK(fn_named(p, "(below main)") != TK_PROF_NONE);
    /* f in a.c and f in b.c are two functions (keyed by object, file, name) */
    size_t count_f = 0;
    for (size_t i = 0; i < tk_profile_function_count(p); i++) {
        const tk_prof_function *f = tk_profile_function_at(p, (uint32_t)i);
        if (strcmp(tk_profile_str(p, f->name), "f") == 0) {
            count_f++;
            TK_CHECK_STR(tk_profile_str(p, f->object), "libx");
        }
    }
    TK_CHECK_EQ_U64(count_f, 2);
    tk_profile_free(p);
}

static void test_calls_with_two_target_subpositions(void)
{
    tk_status st;
    tk_error err;
    tk_profile *p = read_text("positions: instr line\nevents: Ir\nfn=main\n0x1000 5 1\n"
                              "cob=(3) libc\ncfi=x.c\ncfn=g\ncalls=2 0x2000 40\n+4 +1 30\n",
                              &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    const tk_prof_part *pt = tk_profile_part(p, 0);
    TK_CHECK_EQ_U64(pt->calls.count, 1);
    const tk_prof_call *c = pt->calls.rows;
    TK_CHECK_EQ_U64(c->target.addr, 0x2000);
    TK_CHECK_EQ_U64(c->target.line, 40);
    TK_CHECK_EQ_U64(c->pos.addr, 0x1004);
    TK_CHECK_EQ_U64(c->pos.line, 6);
    TK_CHECK_EQ_U64(pt->calls.values[0], 2); /* count */
    TK_CHECK_EQ_U64(pt->calls.values[1], 30); /* inclusive Ir */
    const tk_prof_function *callee = tk_profile_function_at(p, c->callee);
    TK_CHECK_STR(tk_profile_str(p, callee->object), "libc");
    TK_CHECK_STR(tk_profile_str(p, callee->file), "x.c");
    /* the call line is not a self cost */
    TK_CHECK_EQ_U64(pt->self.count, 1);
    tk_profile_free(p);
}

static void test_jcnd_followed_then_executed(void)
{
    tk_status st;
    tk_error err;
    tk_profile *p = read_text("positions: line\nevents: Ir\nfn=main\n3 1\njcnd=1/4 +5\n*\n"
                              "jump=7 9\n*\n",
                              &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    const tk_prof_part *pt = tk_profile_part(p, 0);
    TK_CHECK_EQ_U64(pt->jumps.count, 2);
    const tk_prof_jump *j = pt->jumps.rows;
    for (size_t i = 0; i < pt->jumps.count; i++) {
        if (j[i].conditional) {
            TK_CHECK_EQ_U64(pt->jumps.values[i * 2], 4); /* executed */
            TK_CHECK_EQ_U64(pt->jumps.values[i * 2 + 1], 1); /* followed */
            TK_CHECK_EQ_U64(j[i].target.line, 8);
        } else {
            TK_CHECK_EQ_U64(pt->jumps.values[i * 2 + 1], 7);
            TK_CHECK_EQ_U64(j[i].target.line, 9);
        }
    }
    TK_CHECK_EQ_U64(pt->self.count, 1); /* position-only lines add no cost */
    tk_profile_free(p);
}

/* The public accessors copy a row, an event type, a derived event and a function out of the
 * model: the copies stay what they were when the part's storage grows after them; past the
 * end nothing is written (rows) or the ids are TK_PROF_NONE. */
static void test_accessors_copy_out(void)
{
    tk_status st;
    tk_error err;
    tk_profile *p = read_text("positions: line\nevents: Ir Dr\nevent: Ir : Instructions\n"
                              "event: IrDr = Ir + Dr\nfn=main\n3 1 2\ncfn=g\ncalls=5 20\n"
                              "4 30 6\njcnd=1/4 +5\n*\n",
                              &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    tk_prof_part *pt = tk_profile_part(p, 0);
    tk_prof_self self;
    uint64_t costs[TK_PROFILE_MAX_EVENTS] = {0};
    TK_CHECK(tk_prof_part_self(pt, 0, &self, costs));
    tk_prof_call call;
    uint64_t count = 0, inclusive[TK_PROFILE_MAX_EVENTS] = {0};
    TK_CHECK(tk_prof_part_call(pt, 0, &call, &count, inclusive));
    tk_prof_jump jump;
    uint64_t executed = 0, followed = 0;
    TK_CHECK(tk_prof_part_jump(pt, 0, &jump, &executed, &followed));
    /* more rows than the tables had room for: the storage moves, the copies do not */
    for (uint64_t line = 100; line < 1100; line++) {
        tk_prof_self key = {.fn = self.fn, .file = self.file, .pos = {.line = line}};
        uint64_t c[2] = {line, 1};
        TK_CHECK_EQ_I64(tk_profile_add_self(p, pt, &key, c, &err), TK_OK);
    }
    TK_CHECK_EQ_U64(self.fn, fn_named(p, "main"));
    TK_CHECK_EQ_U64(self.pos.line, 3);
    TK_CHECK_EQ_U64(costs[0], 1);
    TK_CHECK_EQ_U64(costs[1], 2);
    TK_CHECK_EQ_U64(call.callee, fn_named(p, "g"));
    TK_CHECK_EQ_U64(call.pos.line, 4);
    TK_CHECK_EQ_U64(call.target.line, 20);
    TK_CHECK_EQ_U64(count, 5);
    TK_CHECK_EQ_U64(inclusive[0], 30);
    TK_CHECK_EQ_U64(inclusive[1], 6);
    TK_CHECK(jump.conditional);
    TK_CHECK_EQ_U64(jump.target.line, 9);
    TK_CHECK_EQ_U64(executed, 4);
    TK_CHECK_EQ_U64(followed, 1);
    tk_prof_part_info info;
    tk_prof_part_get(pt, &info);
    TK_CHECK_EQ_U64(info.self_rows, 1001);
    TK_CHECK(tk_prof_part_self(pt, 1000, &self, costs));
    TK_CHECK_EQ_U64(self.pos.line, 1099);
    TK_CHECK_EQ_U64(costs[0], 1099);
    /* past the end: 0, nothing written */
    TK_CHECK(!tk_prof_part_self(pt, 1001, &self, costs));
    TK_CHECK(!tk_prof_part_call(pt, 1, &call, &count, inclusive));
    TK_CHECK(!tk_prof_part_jump(pt, 1, &jump, &executed, &followed));
    TK_CHECK_EQ_U64(self.pos.line, 1099);
    TK_CHECK_EQ_U64(count, 5);
    TK_CHECK_EQ_U64(executed, 4);
    /* NULL: a part of the row not wanted */
    TK_CHECK(tk_prof_part_call(pt, 0, NULL, NULL, NULL));
    tk_prof_event_info ev;
    tk_profile_event_get(p, 0, &ev);
    TK_CHECK_STR(tk_profile_str(p, ev.name), "Ir");
    TK_CHECK_STR(tk_profile_str(p, ev.long_name), "Instructions");
    TK_CHECK_STR(tk_profile_event_name(p, 1), "Dr");
    TK_CHECK(tk_profile_event_name(p, 2) == NULL);
    tk_profile_event_get(p, 2, &ev);
    TK_CHECK(ev.name == TK_PROF_NONE && ev.long_name == TK_PROF_NONE);
    tk_prof_derived_info d;
    tk_profile_derived_get(p, 0, &d);
    TK_CHECK_STR(tk_profile_str(p, d.name), "IrDr");
    TK_CHECK_STR(tk_profile_str(p, d.formula), "Ir + Dr");
    TK_CHECK(d.long_name == TK_PROF_NONE);
    tk_profile_derived_get(p, 1, &d);
    TK_CHECK(d.name == TK_PROF_NONE && d.formula == TK_PROF_NONE);
    tk_prof_function_info fi;
    tk_profile_function_get(p, call.callee, &fi);
    TK_CHECK_STR(tk_profile_str(p, fi.name), "g");
    tk_profile_function_get(p, (uint32_t)tk_profile_function_count(p), &fi);
    TK_CHECK(fi.object == TK_PROF_NONE && fi.file == TK_PROF_NONE && fi.name == TK_PROF_NONE);
    tk_profile_free(p);
}

static void test_parts_and_threads(void)
{
    tk_status st;
    tk_error err;
    tk_profile *p =
        read_text("# callgrind format\nversion: 1\npart: 1\nevents: Ir\nfn=(1) a\n1 5\n"
                  "totals: 5\n\npart: 2\nevents: Ir\nfn=(1) b\n1 7\n"
                  "# callgrind format\nversion: 1\nthread: 3\nevents: Ir\nfn=(1) c\n1 1\n",
                  &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    TK_CHECK_EQ_U64(tk_profile_part_count(p), 3);
    TK_CHECK_EQ_U64(tk_profile_part(p, 1)->number, 2);
    TK_CHECK_EQ_U64(tk_profile_part(p, 2)->thread, 3);
    /* ids are per part: (1) is a, then b, then c */
    TK_CHECK(fn_named(p, "a") != TK_PROF_NONE && fn_named(p, "b") != TK_PROF_NONE &&
             fn_named(p, "c") != TK_PROF_NONE);
    tk_prof_summary *s;
    TK_CHECK_EQ_I64(tk_profile_summarize(p, 0, TK_GROUP_FUNCTION, &s, &err), TK_OK);
    TK_CHECK_EQ_U64(s->totals[0], 13);
    tk_prof_summary_free(s);
    TK_CHECK_EQ_I64(tk_profile_summarize(p, 2, TK_GROUP_FUNCTION, &s, &err), TK_OK);
    TK_CHECK_EQ_U64(s->totals[0], 7);
    tk_prof_summary_free(s);
    TK_CHECK_EQ_I64(tk_profile_summarize(p, 4, TK_GROUP_FUNCTION, &s, &err), TK_ERR_ARG);
    /* folded stacks of one part (what diff --format folded compares) */
    static const char *const want[4] = {"a 5\nb 7\nc 1\n", "a 5\n", "b 7\n", "c 1\n"};
    for (size_t part = 0; part <= 4; part++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        tk_folded_profile_options fo = TK_FOLDED_PROFILE_OPTIONS_INIT;
        fo.part = part;
        tk_status fst = tk_profile_write_folded(p, &fo, TK_TEST_WRITER(f), &err);
        fclose(f);
        if (part < 4) {
            TK_CHECK_EQ_I64(fst, TK_OK);
            TK_CHECK_STR(buf, want[part]);
        } else {
            TK_CHECK_EQ_I64(fst, TK_ERR_ARG);
        }
        free(buf);
    }
    tk_profile_free(p);
}

static void test_errors_are_located(void)
{
    static const struct {
        const char *text;
        uint64_t line, col;
        tk_status code;
    } cases[] = {
        {"events: Ir\nfn=main\n1 2 3\n", 3, 5, TK_ERR_FORMAT},
        {"events: Ir\nfn=(4\n", 2, 6, TK_ERR_FORMAT},
        {"events: Ir\nfn=main\n+1 2\n", 3, 1, TK_ERR_FORMAT},
        {"events: Ir\nfn=main\n1 99999999999999999999\n", 3, 3, TK_ERR_LIMIT},
        {"events: Ir\nfn=main\ncfn=f\ncalls=1 2\nfn=g\n", 5, 1, TK_ERR_FORMAT},
        {"fn=main\n1 1\n", 2, 1, TK_ERR_FORMAT},
        {"events: Ir\nevents: Ir\n", 2, 8, TK_ERR_FORMAT},
        {"version: 3\n", 1, 10, TK_ERR_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tk_profile *p;
        TK_CHECK_EQ_I64(tk_profile_open(&p, NULL), TK_OK);
        tk_error err;
        tk_error_clear(&err);
        tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
        o.path = "bad.out";
        o.diag = NULL;
        tk_status st = tk_callgrind_read_buffer(p, cases[i].text, strlen(cases[i].text), &o, &err);
        TK_CHECK_EQ_I64(st, cases[i].code);
        TK_CHECK_EQ_U64(err.line, cases[i].line);
        TK_CHECK_EQ_U64(err.column, cases[i].col);
        TK_CHECK_STR(err.path, "bad.out");
        tk_profile_free(p);
    }
}

static void count_diag(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)loc;
    (void)msg;
    if (sev == TK_SEV_ERROR) (*(int *)ctx)++;
}

static void test_check_mode_reports_every_error(void)
{
    const char *text = "events: Ir\nfn=main\n1 2 3\nfn=(9)\n+x\n1 1\ntotals: 5\n";
    tk_profile *p;
    TK_CHECK_EQ_I64(tk_profile_open(&p, NULL), TK_OK);
    int errors = 0;
    tk_diag d;
    tk_diag_init(&d, count_diag, &errors);
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.diag = &d;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_callgrind_read_buffer(p, text, strlen(text), &o, &err), TK_ERR_CHECK);
    /* too many costs, undefined id, bad relative position, totals 5 != 1 */
    TK_CHECK_EQ_I64(errors, 4);
    tk_profile_free(p);
}

/* Recursion: main -> fib (inclusive 100), fib -> fib (inclusive 90, recursive).
 * Summing arcs would give fib 190; tracekit counts the chain once. Mutual
 * recursion even(2) -> odd(1) -> even(0): even is entered from main once. */
static void test_inclusive_under_recursion(void)
{
    tk_status st;
    tk_error err;
    tk_profile *p = read_text("events: Ir\nfn=main\n1 10\ncfn=fib\ncalls=1 5\n2 100\n"
                              "fn=fib\n5 100\ncfn=fib\ncalls=9 5\n6 90\n"
                              "fn=even\n20 2\ncfn=odd\ncalls=1 30\n21 4\n"
                              "fn=odd\n30 3\ncfn=even\ncalls=1 20\n31 1\n"
                              "fn=main\ncfn=even\ncalls=1 20\n3 5\n",
                              &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    tk_prof_summary *s;
    TK_CHECK_EQ_I64(tk_profile_summarize(p, 0, TK_GROUP_FUNCTION, &s, &err), TK_OK);
    TK_CHECK_EQ_U64(s->totals[0], 115);
    for (size_t i = 0; i < s->count; i++) {
        const char *n = tk_profile_str(p, s->entries[i].name);
        TK_CHECK(s->entries[i].inclusive[0] <= s->totals[0]);
        if (strcmp(n, "fib") == 0) {
            TK_CHECK_EQ_U64(s->entries[i].inclusive[0], 100);
            TK_CHECK_EQ_U64(s->entries[i].self[0], 100);
            TK_CHECK_EQ_U64(s->entries[i].calls, 10);
        }
        if (strcmp(n, "main") == 0) TK_CHECK_EQ_U64(s->entries[i].inclusive[0], 115);
        if (strcmp(n, "even") == 0) TK_CHECK_EQ_U64(s->entries[i].inclusive[0], 5);
    }
    /* the summary of self costs: the same entries, self costs and calls,
     * no inclusive costs; by function and by file-function; also from the
     * profile read with call counts only (which the full summary refuses) */
    tk_profile *q;
    TK_CHECK_EQ_I64(tk_profile_open(&q, NULL), TK_OK);
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.call_counts_only = 1;
    const char *text = "events: Ir\nfn=main\n1 10\ncfn=fib\ncalls=1 5\n2 100\n"
                       "fn=fib\n5 100\ncfn=fib\ncalls=9 5\n6 90\n"
                       "fn=even\n20 2\ncfn=odd\ncalls=1 30\n21 4\n"
                       "fn=odd\n30 3\ncfn=even\ncalls=1 20\n31 1\n"
                       "fn=main\ncfn=even\ncalls=1 20\n3 5\n";
    TK_CHECK_EQ_I64(tk_callgrind_read_buffer(q, text, strlen(text), &o, &err), TK_OK);
    TK_CHECK_EQ_U64(tk_profile_part(q, 0)->calls.count, 0);
    tk_prof_summary *refused = NULL;
    TK_CHECK_EQ_I64(tk_profile_summarize(q, 0, TK_GROUP_FUNCTION, &refused, &err), TK_ERR_ARG);
    TK_CHECK(refused == NULL);
    for (int g = 0; g < 4; g++) {
        tk_prof_group group = g & 1 ? TK_GROUP_FILE_FUNCTION : TK_GROUP_FUNCTION;
        tk_prof_summary *full, *self;
        TK_CHECK_EQ_I64(tk_profile_summarize(p, 0, group, &full, &err), TK_OK);
        TK_CHECK_EQ_I64(tk_profile_summarize_self(g & 2 ? q : p, 0, group, &self, &err), TK_OK);
        TK_CHECK_EQ_U64(self->count, full->count);
        TK_CHECK_EQ_U64(self->totals[0], 115);
        for (size_t i = 0; i < self->count && i < full->count; i++) {
            TK_CHECK(self->entries[i].inclusive == NULL);
            TK_CHECK_EQ_U64(self->entries[i].name, full->entries[i].name);
            TK_CHECK_EQ_U64(self->entries[i].self[0], full->entries[i].self[0]);
            TK_CHECK_EQ_U64(self->entries[i].calls, full->entries[i].calls);
        }
        tk_prof_summary_free(full);
        tk_prof_summary_free(self);
    }
    tk_profile_free(q);
    tk_prof_summary_free(s);
    tk_profile_free(p);
}

static char *dump_string(const tk_profile *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    tk_profile_dump(p, TK_TEST_WRITER(f), NULL);
    fclose(f);
    return buf;
}

static void test_writer_round_trip(void)
{
    const char *text = "# callgrind format\nversion: 1\ncreator: t\npositions: instr line\n"
                       "event: Sum = Ir + 2 Dr\nevents: Ir Dr\nob=o\nfl=a.c\nfn=f\n0x10 3 4 1\n"
                       "+2 * 1\nfi=h.h\n0x40 9 2\ncob=p\ncfn=g\ncalls=3 0x99 7\n0x44 9 10 2\n"
                       "jcnd=2/5 0x10 3\n* *\nob=p\nfl=h.h\nfn=g\n0x99 7 10 2\ntotals: 17 3\n";
    tk_status st;
    tk_error err;
    tk_profile *p = read_text(text, &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    for (int plain = 0; plain < 2; plain++) {
        char *out = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        if (plain) wo.plain_names = wo.plain_positions = 1;
        TK_CHECK_EQ_I64(tk_callgrind_write(p, TK_TEST_WRITER(f), &wo, &err), TK_OK);
        fclose(f);
        TK_CHECK(strncmp(out, "# callgrind format\n", 19) == 0);
        TK_CHECK(plain ? strstr(out, "fn=f\n") != NULL : strstr(out, "fn=(1) f\n") != NULL);
        tk_profile *q = read_text(out, &st, &err);
        TK_CHECK_EQ_I64(st, TK_OK);
        char *a = dump_string(p), *b = dump_string(q);
        TK_CHECK(a && b && strcmp(a, b) == 0);
        free(a);
        free(b);
        free(out);
        tk_profile_free(q);
    }
    uint64_t costs[2] = {10, 3}, v = 0;
    TK_CHECK_EQ_I64(tk_profile_eval_derived(p, 0, costs, &v, NULL), TK_OK);
    TK_CHECK_EQ_U64(v, 16);
    tk_profile_free(p);
}

static void test_builder_aggregates_and_detects_overflow(void)
{
    tk_profile *p;
    TK_CHECK_EQ_I64(tk_profile_open(&p, NULL), TK_OK);
    size_t ev;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_profile_add_event(p, "Ir", 2, &ev, &err), TK_OK);
    uint32_t o, fl, n, fn, again;
    TK_CHECK_EQ_I64(tk_profile_intern(p, "obj", 3, &o, NULL), TK_OK);
    TK_CHECK_EQ_I64(tk_profile_intern(p, "a.c", 3, &fl, NULL), TK_OK);
    TK_CHECK_EQ_I64(tk_profile_intern(p, "f", 1, &n, NULL), TK_OK);
    TK_CHECK_EQ_I64(tk_profile_intern(p, "a.c", 3, &again, NULL), TK_OK);
    TK_CHECK_EQ_U64(again, fl);
    TK_CHECK_EQ_I64(tk_profile_function(p, o, fl, n, &fn, NULL), TK_OK);
    tk_prof_part *part;
    TK_CHECK_EQ_I64(tk_profile_add_part(p, &part, NULL), TK_OK);
    tk_prof_self key;
    memset(&key, 0, sizeof key);
    key.fn = fn;
    key.file = fl;
    key.pos.line = 3;
    uint64_t c = 5;
    TK_CHECK_EQ_I64(tk_profile_add_self(p, part, &key, &c, NULL), TK_OK);
    TK_CHECK_EQ_I64(tk_profile_add_self(p, part, &key, &c, NULL), TK_OK);
    TK_CHECK_EQ_U64(part->self.count, 1);
    TK_CHECK_EQ_U64(part->self.values[0], 10);
    c = UINT64_MAX;
    TK_CHECK_EQ_I64(tk_profile_add_self(p, part, &key, &c, NULL), TK_ERR_LIMIT);
    /* events cannot be added once rows exist */
    TK_CHECK_EQ_I64(tk_profile_add_event(p, "Dr", 2, &ev, &err), TK_ERR_UNSUPPORTED);
    tk_profile_free(p);
}

/* ---- summary sort ---------------------------------------------------------- */

/* The sort of test mode 0-3: by the first event or by the second then the
 * first (bit 0), on self or inclusive costs (bit 1). */
typedef struct sort_mode {
    const size_t *ev;
    size_t nev;
    int incl;
} sort_mode;

static sort_mode sort_mode_of(int mode)
{
    static const size_t one[] = {0}, two[] = {1, 0};
    return (sort_mode){mode & 1 ? two : one, mode & 1 ? 2u : 1u, mode >> 1};
}

/* The summary by function of part 0 (all parts), wholly sorted as m says. */
static tk_prof_summary *sorted_summary(const tk_profile *p, sort_mode m)
{
    tk_prof_summary *s = function_summary(p);
    TK_CHECK(tk_prof_summary_sort(s, p, m.ev, m.nev, m.incl, NULL) == TK_OK);
    return s;
}


/* Many functions with few distinct costs (ties), names that share long
 * prefixes, sorted by one and by two events, by self and inclusive cost:
 * every neighbour pair in order (costs descending, then names), each
 * function once. */
static void test_summary_sort_orders_ties_by_name(void)
{
    size_t cap = 4u << 20, n = 0;
    char *t = malloc(cap);
    n += (size_t)sprintf(t + n, "events: Ir Dr\n");
    unsigned seed = 12345;
    for (int f = 0; f < 30000; f++) {
        seed = seed * 1103515245u + 12345u;
        /* names: a shared 12-byte stem, then a number in a random order */
        n += (size_t)sprintf(t + n, "fn=common_stem_%u_%d\n%u %u %u\n", (seed >> 8) % 5000, f,
                             f % 97 + 1, (seed >> 16) % 4, (seed >> 20) % 3);
        if (f % 7 == 0)
            n += (size_t)sprintf(t + n, "cfn=common_stem_0_0\ncalls=1 1\n1 %d 1\n", f % 5);
    }
    tk_status st;
    tk_error err;
    tk_profile *p = read_text(t, &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    for (int mode = 0; mode < 4; mode++) {
        sort_mode m = sort_mode_of(mode);
        const size_t *ev = m.ev;
        size_t nev = m.nev;
        int incl = m.incl;
        tk_prof_summary *s = sorted_summary(p, m);
        unsigned char *seen = calloc(s->count, 1);
        int ok = 1;
        for (size_t i = 0; i < s->count; i++) {
            const tk_prof_entry *e = &s->entries[i];
            if (e->fn >= s->count || seen[e->fn]++) ok = 0;
            if (!i) continue;
            const tk_prof_entry *d = &s->entries[i - 1];
            const uint64_t *a = incl ? d->inclusive : d->self, *b = incl ? e->inclusive : e->self;
            int c = 0;
            for (size_t k = 0; k < nev && !c; k++)
                c = a[ev[k]] > b[ev[k]] ? -1 : a[ev[k]] < b[ev[k]] ? 1 : 0;
            if (!c) c = strcmp(tk_profile_str(p, d->name), tk_profile_str(p, e->name));
            if (c >= 0) ok = 0;
        }
        TK_CHECK(ok);
        free(seen);
        tk_prof_summary_free(s);
    }
    tk_profile_free(p);
    free(t);
}

/* A list cut where it covers a percentage (callgrind_annotate's threshold):
 * the rows up to the cut in the order and with the cut of the full sort,
 * for skewed and flat costs with many ties, one and two sort events, self
 * and inclusive costs; the rows after the sorted prefix all cost less than
 * its last; every function once. */
static void test_summary_sort_cover_matches_full_sort(void)
{
    size_t cap = 4u << 20;
    char *t = malloc(cap);
    static const double coverages[] = {0.001, 1, 10, 50, 90, 99, 99.99, 100};
    for (int shape = 0; shape < 3; shape++) {
        size_t n = (size_t)sprintf(t, "events: Ir Dr\n");
        unsigned seed = 777u + (unsigned)shape;
        for (int f = 0; f < 20000; f++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = seed >> 8;
            /* skewed (a few big functions), flat with ties, or all equal */
            unsigned ir = shape == 0   ? (r % 100 == 0 ? r % 100000 : r % 50) + 1
                          : shape == 1 ? r % 7 + 1
                                       : 3;
            n += (size_t)sprintf(t + n, "fn=stem_%u_%d\n%u %u %u\n", r % 3000, f, f % 13 + 1, ir,
                                 r % 5);
            if (f % 5 == 0) n += (size_t)sprintf(t + n, "cfn=stem_0_0\ncalls=1 1\n1 %d 1\n", f % 9);
        }
        tk_status st;
        tk_error err;
        tk_profile *p = read_text(t, &st, &err);
        TK_CHECK_EQ_I64(st, TK_OK);
        for (int mode = 0; mode < 4; mode++) {
            sort_mode m = sort_mode_of(mode);
            const size_t *ev = m.ev;
            size_t nev = m.nev;
            int incl = m.incl;
            tk_prof_summary *full = sorted_summary(p, m);
            for (size_t c = 0; c < sizeof coverages / sizeof *coverages; c++) {
                tk_prof_summary *s = function_summary(p);
                size_t sorted = 0;
                TK_CHECK(tk_prof_summary_sort_cover(s, p, ev, nev, incl, coverages[c], &sorted,
                                                    NULL) == TK_OK);
                uint64_t total = s->totals[ev[0]], sum = 0;
                size_t cut = 0;
                while (cut < full->count && !tk_prof_covered(sum, total, coverages[c])) {
                    sum += (incl ? full->entries[cut].inclusive : full->entries[cut].self)[ev[0]];
                    cut++;
                }
                int ok = sorted >= cut && sorted <= s->count &&
                         (coverages[c] < 100 || sorted == s->count);
                /* the point: a small coverage sorts a part of the list (all
                 * costs equal: the whole list is one run of ties) */
                if (coverages[c] <= 50 && shape != 2 && !incl) ok &= sorted < s->count / 2;
                for (size_t i = 0; ok && i < cut; i++) ok = s->entries[i].fn == full->entries[i].fn;
                unsigned char *seen = calloc(s->count, 1);
                for (size_t i = 0; ok && i < s->count; i++) {
                    const tk_prof_entry *e = &s->entries[i];
                    if (e->fn >= s->count || seen[e->fn]++) ok = 0;
                    if (ok && i >= sorted && sorted)
                        ok = (incl ? e->inclusive : e->self)[ev[0]] <
                             (incl ? s->entries[sorted - 1].inclusive
                                   : s->entries[sorted - 1].self)[ev[0]];
                }
                free(seen);
                if (!ok)
                    fprintf(stderr, "shape %d mode %d coverage %g: sorted %zu cut %zu\n", shape,
                            mode, coverages[c], sorted, cut);
                TK_CHECK(ok);
                tk_prof_summary_free(s);
            }
            tk_prof_summary_free(full);
        }
        tk_profile_free(p);
    }
    free(t);
}

/* What `report` reads (rows by function, files dropped) of a dispatcher that
 * calls 100 functions, each from two call sites in turn: past 32 callees the
 * function's calls go through the table's hash; every arc still gets its
 * count and cost once, as in the full profile. */
static void test_function_rows_of_a_dispatcher(void)
{
    size_t cap = 1u << 20, n = 0;
    char *t = malloc(cap);
    n += (size_t)sprintf(t + n, "events: Ir\nfn=main\n1 1\n");
    for (int round = 0; round < 2; round++)
        for (int f = 0; f < 100; f++)
            n += (size_t)sprintf(t + n, "cfn=f%d\ncalls=1 9\n%d %d\n", f, 10 + round, f + 1);
    for (int f = 0; f < 100; f++) n += (size_t)sprintf(t + n, "fn=f%d\n9 %d\n", f, 2 * (f + 1));
    for (int mode = 0; mode < 2; mode++) {
        tk_profile *p = read_rows(t, n, mode);
        TK_CHECK(p != NULL);
        if (!p) continue;
        if (mode) TK_CHECK_EQ_U64(tk_profile_part(p, 0)->calls.count, 100);
        tk_prof_summary *s = function_summary(p);
        TK_CHECK_EQ_U64(s->totals[0], 1 + 100 * 101);
        int ok = 1;
        for (size_t i = 0; i < s->count; i++) {
            const tk_prof_entry *e = &s->entries[i];
            const char *name = tk_profile_str(p, e->name);
            if (strcmp(name, "main") == 0) {
                ok &= e->inclusive[0] == s->totals[0] && e->calls == 0;
            } else {
                int f = atoi(name + 1);
                ok &= e->calls == 2 && e->self[0] == (uint64_t)(2 * (f + 1)) &&
                      e->inclusive[0] == (uint64_t)(2 * (f + 1));
            }
        }
        TK_CHECK(ok);
        tk_prof_summary_free(s);
        tk_profile_free(p);
    }
    free(t);
}

/* ---- block reader (files, pipes, compressed input) ------------------------ */

/* A profile of a few MB: lines cross the 1 MiB blocks of the input at every
 * kind of place; names of several hundred bytes; no newline at the end. */
static char *big_profile(size_t *len)
{
    size_t cap = 8u << 20, n = 0;
    char *t = malloc(cap);
    n += (size_t)sprintf(t + n, "version: 1\ncreator: unit\npositions: instr line\n"
                                "events: Ir Dr\nob=(1) /lib/obj.so\n");
    for (int f = 0; n < cap - 4096 && f < 100000; f++) {
        n += (size_t)sprintf(t + n, "fl=(%d) /src/file%d.c\nfn=(%d) f%d", f + 1, f % 97, f + 1, f);
        for (int k = 0; k < f % 400; k++) t[n++] = (char)('a' + k % 26);
        n += (size_t)sprintf(t + n, "\n0x%x %d %d %d\n+4 * 7\n+2 +1 1 2\n", 0x1000 + f * 64,
                             10 + f % 50, f + 1, f % 5);
        if (f)
            n += (size_t)sprintf(t + n, "cfn=(%d)\ncalls=2 0x%x 3\n* * 9 1\n", f,
                                 0x1000 + (f - 1) * 64);
    }
    n += (size_t)sprintf(t + n, "fn=(1)\n0x1000 10 1 1");
    *len = n;
    return t;
}

static char *write_temp(const void *data, size_t len)
{
    char *path = strdup("/tmp/tk_test_cg_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, data, len) != (ssize_t)len) TK_CHECK(0);
    close(fd);
    return path;
}

static unsigned char *gzip_of(const char *t, size_t len, size_t *zlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 1, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
    size_t cap = deflateBound(&z, len);
    unsigned char *o = malloc(cap);
    z.next_in = (unsigned char *)(uintptr_t)t;
    z.avail_in = (uInt)len;
    z.next_out = o;
    z.avail_out = (uInt)cap;
    deflate(&z, Z_FINISH);
    *zlen = z.total_out;
    deflateEnd(&z);
    return o;
}

static tk_status read_via(tk_input *in, const char *path, tk_profile **out, tk_error *err,
                          tk_diag *diag)
{
    TK_CHECK_EQ_I64(tk_profile_open(out, err), TK_OK);
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.path = path;
    o.diag = diag;
    tk_error_clear(err);
    return tk_callgrind_read_input(*out, in, &o, err);
}

static void count_warnings(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)loc;
    (void)msg;
    if (sev == TK_SEV_WARNING) (*(int *)ctx)++;
}

static void test_block_reader_matches_buffer_reader(void)
{
    size_t len;
    char *t = big_profile(&len);
    TK_CHECK(len > 3u << 20);
    tk_status st;
    tk_error err;
    tk_profile *want = read_text(t, &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    char *want_dump = dump_string(want);
    char *path = write_temp(t, len);
    size_t zlen;
    unsigned char *z = gzip_of(t, len, &zlen);
    for (int way = 0; way < 5; way++) {
        tk_input *in;
        tk_input_options io = TK_INPUT_OPTIONS_INIT;
        io.no_mmap = way == 1;
        io.chunk_max = way == 3 ? 1000 : way == 4 ? 65536 + 13 : 0;
        if (way < 2)
            TK_CHECK_EQ_I64(tk_input_open(&in, path, &io, &err), TK_OK);
        else if (way == 2)
            TK_CHECK_EQ_I64(tk_input_open_memory(&in, z, zlen, "t.gz", NULL, &err), TK_OK);
        else
            TK_CHECK_EQ_I64(tk_input_open_memory(&in, t, len, "t", &io, &err), TK_OK);
        tk_profile *p;
        int warnings = 0;
        tk_diag d;
        tk_diag_init(&d, count_warnings, &warnings);
        TK_CHECK_EQ_I64(read_via(in, "t.out", &p, &err, &d), TK_OK);
        TK_CHECK_EQ_I64(warnings, 1); /* the last line has no newline */
        char *got = dump_string(p);
        TK_CHECK(got && want_dump && strcmp(got, want_dump) == 0);
        free(got);
        tk_profile_free(p);
        tk_input_free(in);
    }
    free(z);
    unlink(path);
    free(path);
    free(want_dump);
    tk_profile_free(want);
    free(t);
}

/* Old callgrind versions use an id before the line that defines it: a file
 * read in blocks finds the definition through its mapping, memory input in
 * small blocks through the memory, as a buffer does;
 * a compressed stream cannot look ahead: the name is the reference text, and
 * the definition that comes later is an error (the id is taken). */
static void test_block_reader_forward_reference(void)
{
    char text[4096];
    size_t n = (size_t)sprintf(text, "events: Ir\nfn=(1) main\n1 5\ncfn=(2)\ncalls=1 9\n2 7\n");
    while (n < 3000) n += (size_t)sprintf(text + n, "# padding padding padding\n");
    n += (size_t)sprintf(text + n, "fn=(2) later\n9 7\n");
    char *path = write_temp(text, n);
    size_t zlen;
    unsigned char *z = gzip_of(text, n, &zlen);
    for (int way = 0; way < 12; way++) {
        tk_input *in;
        tk_error err;
        tk_input_options io = TK_INPUT_OPTIONS_INIT;
        io.chunk_max = way >= 2 ? (size_t)way - 1 : 0; /* memory input in chunks of 1-10 bytes */
        if (way == 0)
            TK_CHECK_EQ_I64(tk_input_open(&in, path, NULL, &err), TK_OK);
        else if (way == 1)
            TK_CHECK_EQ_I64(tk_input_open_memory(&in, z, zlen, "t.gz", NULL, &err), TK_OK);
        else
            TK_CHECK_EQ_I64(tk_input_open_memory(&in, text, n, "t", &io, &err), TK_OK);
        tk_profile *p;
        tk_status st = read_via(in, "t.out", &p, &err, NULL);
        if (way != 1) {
            TK_CHECK_EQ_I64(st, TK_OK);
            TK_CHECK(fn_named(p, "later") != TK_PROF_NONE);
            TK_CHECK(fn_named(p, "(2)") == TK_PROF_NONE);
        } else {
            TK_CHECK_EQ_I64(st, TK_ERR_FORMAT);
            TK_CHECK(strstr(err.message, "redefined as 'later'") != NULL);
            TK_CHECK_EQ_U64(err.line, 7 + (3000 - 48) / 26 + 1);
        }
        tk_profile_free(p);
        tk_input_free(in);
    }
    free(z);
    unlink(path);
    free(path);
}

/* Ids defined out of order and far apart (the id map's array grows past
 * them; 5000000 is beyond the array, in the hash); each of many parts
 * starts with empty maps (only the entries the last part set are emptied)
 * and no function rows of the last part. Read as the report reads (rows by
 * function), and fully. */
static void test_sparse_ids_and_many_parts(void)
{
    size_t cap = 1u << 20, n = 0;
    char *t = malloc(cap);
    n += (size_t)sprintf(t + n, "events: Ir\nfn=(5000) sparse\n1 3\nfn=(4194000) huge\n1 5\n"
                                "fn=(5000000) beyond\n1 1\n");
    for (int i = 1; i <= 3000; i++) n += (size_t)sprintf(t + n, "fn=(%d) f%d\n1 1\n", i, i);
    n += (size_t)sprintf(t + n, "fn=(6000) past\n1 1\nfn=(5000)\n2 4\nfn=(4194000)\n2 6\n"
                                "fn=(5000000)\n2 1\n");
    for (int part = 2; part <= 300; part++)
        n += (size_t)sprintf(
            t + n, "part: %d\nevents: Ir\nfn=(4194000) p%d\n1 %d\ncfn=(7) g\ncalls=1 1\n1 1\n",
            part, part % 3, part);
    for (int mode = 0; mode < 2; mode++) {
        tk_profile *p = read_rows(t, n, mode);
        TK_CHECK(p != NULL);
        if (!p) continue;
        TK_CHECK_EQ_U64(tk_profile_part_count(p), 300);
        tk_prof_summary *s = function_summary(p);
        uint64_t sparse = 0, huge = 0, beyond = 0, p0 = 0, g_calls = 0, total = 0;
        for (size_t i = 0; i < s->count; i++) {
            const char *name = tk_profile_str(p, s->entries[i].name);
            if (!strcmp(name, "sparse")) sparse = s->entries[i].self[0];
            if (!strcmp(name, "huge")) huge = s->entries[i].self[0];
            if (!strcmp(name, "beyond")) beyond = s->entries[i].self[0];
            if (!strcmp(name, "p0")) p0 = s->entries[i].self[0];
            if (!strcmp(name, "g")) g_calls = s->entries[i].calls;
            total += s->entries[i].self[0];
        }
        TK_CHECK_EQ_U64(sparse, 7);
        TK_CHECK_EQ_U64(huge, 11);
        TK_CHECK_EQ_U64(beyond, 2);
        /* parts 3, 6, ..., 300 name it p0: their own cost plus one per call */
        uint64_t want = 0;
        for (int part = 3; part <= 300; part += 3) want += (uint64_t)part;
        TK_CHECK_EQ_U64(p0, want);
        TK_CHECK_EQ_U64(g_calls, 299);
        TK_CHECK_EQ_U64(total, s->totals[0]);
        tk_prof_summary_free(s);
        tk_profile_free(p);
    }
    free(t);
}

/* Jumps inside cost runs (taken there, with their source lines, when they
 * are usual) give the profile the general code gives: the same text with a
 * tab after each jump's source position (which the run leaves to the
 * general code) must read to the same rows, read per function with and
 * without jump rows. */
static void test_jumps_in_cost_runs(void)
{
    size_t cap = 1u << 20, n[2] = {0, 0};
    char *t[2] = {malloc(cap), malloc(cap)};
    for (int k = 0; k < 2; k++)
        n[k] += (size_t)sprintf(
            t[k] + n[k], "positions: instr line\nevents: Ir Dr\nfl=a.c\n"
                         "fi=(1) a.h\nfi=(2) b.h\nfi=(3) c.h\nfn=(100) t0\n"
                         "fn=(101) t1\nfn=(102) t2\nfn=(103) t3\nfn=(104) t4\nfn=(105) t5\n");
    unsigned seed = 99;
    for (int f = 0; f < 40; f++) {
        for (int k = 0; k < 2; k++)
            n[k] += (size_t)sprintf(t[k] + n[k], "fn=(%d) f%d\n0x%x %d 1 1\n", f + 1, f,
                                    0x1000 + f * 64, 10 + f);
        for (int i = 0; i < 30; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = seed >> 16;
            char line[128];
            if (r % 4 == 0 && r % 3 == 0) { /* with the target's file and function */
                static const char *const files[] = {" a.h", " b.h", " c.h"};
                static const char *const fns[] = {" t0", " t1", " t2", " t3", " t4", " t5"};
                snprintf(line, sizeof line, "jfi=(%u)%s\njfn=(%u)%s\njcnd=%u/%u 0x%x %s\n%s",
                         1 + r % 3, r % 5 ? "" : files[r % 3], 100 + r % 6, r % 7 ? "" : fns[r % 6],
                         r % 7, r % 11 + 7, 0x1000 + r % 4096, r % 3 ? "+1" : "*",
                         r % 5 ? "* *" : "+2 -1");
            } else if (r % 4 == 0)
                snprintf(line, sizeof line, "jcnd=%u/%u 0x%x %s\n%s", r % 7, r % 11 + 7,
                         0x1000 + r % 4096, r % 3 ? "+1" : "*", r % 5 ? "* *" : "+2 -1");
            else if (r % 4 == 1)
                snprintf(line, sizeof line, "jump=%u +%u *\n+%u *", r % 9 + 1, r % 13, r % 3);
            else
                snprintf(line, sizeof line, "+%u * %u %u", r % 5, r % 10, r % 3);
            for (int k = 0; k < 2; k++) {
                /* callgrind ends a jump's source line with a blank; k = 1: a
                 * tab, which only the general code takes */
                n[k] += (size_t)sprintf(t[k] + n[k], "%s%s\n", line,
                                        (r % 4) < 2 ? (k ? "\t" : " ") : "");
            }
        }
    }
    for (int skip = 0; skip < 2; skip++) {
        tk_profile *p[2];
        tk_error err;
        for (int k = 0; k < 2; k++)
            TK_CHECK_EQ_I64(read_functions_detail(t[k], n[k], skip, 0, 0, &p[k], &err), TK_OK);
        const tk_prof_part *a = tk_profile_part(p[0], 0), *b = tk_profile_part(p[1], 0);
        TK_CHECK(a->jump_lines > 200);
        TK_CHECK_EQ_U64(a->jump_lines, b->jump_lines);
        TK_CHECK_EQ_U64(a->jumps.count, b->jumps.count);
        if (!skip) TK_CHECK(a->jumps.count > 0);
        TK_CHECK(
            a->jumps.count == b->jumps.count &&
            (!a->jumps.count || /* no rows: no arrays (memcmp wants pointers) */
             (memcmp(a->jumps.rows, b->jumps.rows, a->jumps.count * sizeof(tk_prof_jump)) == 0 &&
              memcmp(a->jumps.values, b->jumps.values, a->jumps.count * 2 * sizeof(uint64_t)) ==
                  0)));
        TK_CHECK(a->self.count == b->self.count &&
                 memcmp(a->self.values, b->self.values, a->self.count * 2 * sizeof(uint64_t)) == 0);
        TK_CHECK_EQ_U64(a->line_sum[0], b->line_sum[0]);
        TK_CHECK_EQ_U64(tk_profile_function_count(p[0]), tk_profile_function_count(p[1]));
        for (int k = 0; k < 2; k++) tk_profile_free(p[k]);
    }
    free(t[0]);
    free(t[1]);
}

/* Appends line to t at *n with its marks: \x01 is a blank (k = 0) or a
 * tab (k = 1), \x02 nothing (k = 0) or a tab (k = 1). A tab there is a
 * line only the general code takes. */
static void put_marked(char *t, size_t *n, const char *line, int k)
{
    for (const char *c = line; *c; c++) {
        if (*c == '\x01')
            t[(*n)++] = k ? '\t' : ' ';
        else if (*c == '\x02') {
            if (k) t[(*n)++] = '\t';
        } else
            t[(*n)++] = *c;
    }
    t[(*n)++] = '\n';
    t[*n] = 0;
}

/* Calls (`cob=` `cfi=` `cfn=` `calls=` and the call's cost line), name
 * lines (`fi=`/`fe=` with drop_files), `fn=` lines and empty lines inside
 * cost runs, references and definitions: the same profile twice, the second
 * with a tab in each call's cost line and after each name reference, which
 * only the general code takes. Both must give the same rows, with and
 * without drop_files and with call counts only. */
/* 40 functions of 30 random lines each (calls, names defined and referred to, cost
 * lines, empty lines) appended to both texts, marked for the two readings (put_marked). */
static void gen_cost_runs(char *t[2], size_t n[2])
{
    unsigned seed = 7;
    int ids[100], nids = 0, defined_g = 0, defined_fi = 1, defined_ob = 1;
    for (int f = 0; f < 40; f++) {
        for (int k = 0; k < 2; k++)
            n[k] += (size_t)sprintf(t[k] + n[k], "fn=(%d) f%d\n0x%x %d 1 1\n", 100 + f, f,
                                    0x1000 + f * 64, 10 + f);
        ids[nids++] = 100 + f;
        for (int i = 0; i < 30; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = seed >> 16;
            char line[256];
            switch (r % 8) {
            case 0: /* a call to a defined function or a new one */
                if (r % 5 == 0 && defined_g < 40) {
                    snprintf(line, sizeof line, "cfn=(%d) g%d", 300 + defined_g, defined_g);
                    ids[nids++] = 300 + defined_g++;
                } else {
                    snprintf(line, sizeof line, "cfn=(%d)\x02", ids[r % (unsigned)nids]);
                }
                break;
            case 1: /* the callee's file and object, or the cost file */
                if (r % 7 == 0 && defined_fi < 9) {
                    snprintf(line, sizeof line, "%s=(%d) f%d.h", r % 2 ? "cfi" : "fi",
                             defined_fi + 1, defined_fi);
                    defined_fi++;
                } else if (r % 7 == 1 && defined_ob < 4) {
                    snprintf(line, sizeof line, "cob=(%d) lib%d.so", defined_ob + 1, defined_ob);
                    defined_ob++;
                } else {
                    static const char *const keys[] = {"cfi", "cfl", "fi", "fe", "cob"};
                    const char *key = keys[r % 5];
                    snprintf(line, sizeof line, "%s=(%u)\x02", key,
                             1 + r / 5 % (unsigned)(key[1] == 'o' ? defined_ob : defined_fi));
                }
                break;
            case 2: /* calls= and its cost line */
                snprintf(line, sizeof line, "cfn=(%d)\ncalls=%u 0x%x %s\n+%u %s\x01%u %u %u",
                         ids[r % (unsigned)nids], r % 4 + 1, 0x2000 + r % 512, r % 3 ? "+1" : "*",
                         r % 5, r % 2 ? "*" : "-1", r % 100, r % 9, r % 3);
                break;
            case 3: /* back to an earlier function (a reference) and a cost line */
                snprintf(line, sizeof line, "fn=(%u)\x02\n+%u * %u 1 2",
                         100 + r % (unsigned)(f + 1), r % 5, r % 10);
                break;
            case 4: /* an empty line */ line[0] = 0; break;
            default: snprintf(line, sizeof line, "+%u * %u %u", r % 5, r % 10, r % 3); break;
            }
            for (int k = 0; k < 2; k++) put_marked(t[k], &n[k], line, k);
        }
    }
}

/* The two texts read the same in each mode (functions, calls, self costs, sums). */
static void same_reading(char *t[2], size_t n[2])
{
    for (int mode = 0; mode < 3; mode++) {
        tk_profile *p[2];
        tk_error err;
        for (int k = 0; k < 2; k++)
            TK_CHECK_EQ_I64(read_functions_detail(t[k], n[k], 0, mode >= 1, mode == 2, &p[k], &err),
                            TK_OK);
        const tk_prof_part *a = tk_profile_part(p[0], 0), *b = tk_profile_part(p[1], 0);
        TK_CHECK(a->call_lines > 150);
        TK_CHECK_EQ_U64(a->call_lines, b->call_lines);
        TK_CHECK_EQ_U64(tk_profile_function_count(p[0]), tk_profile_function_count(p[1]));
        for (size_t f = 0;
             f < tk_profile_function_count(p[0]) && f < tk_profile_function_count(p[1]); f++) {
            const tk_prof_function *fa = tk_profile_function_at(p[0], (uint32_t)f),
                                   *fb = tk_profile_function_at(p[1], (uint32_t)f);
            TK_CHECK_STR(tk_profile_str(p[0], fa->name), tk_profile_str(p[1], fb->name));
            TK_CHECK_STR(tk_profile_str(p[0], fa->file), tk_profile_str(p[1], fb->file));
            TK_CHECK_STR(tk_profile_str(p[0], fa->object), tk_profile_str(p[1], fb->object));
        }
        TK_CHECK_EQ_U64(a->calls.count, b->calls.count);
        if (mode < 2) TK_CHECK(a->calls.count > 20);
        TK_CHECK(a->calls.count == b->calls.count &&
                 (!a->calls.count || (memcmp(a->calls.rows, b->calls.rows,
                                             a->calls.count * sizeof(tk_prof_call)) == 0 &&
                                      memcmp(a->calls.values, b->calls.values,
                                             a->calls.count * 4 * sizeof(uint64_t)) == 0)));
        TK_CHECK_EQ_U64(a->calls_into_len, b->calls_into_len);
        TK_CHECK(a->calls_into_len == b->calls_into_len &&
                 (!a->calls_into_len ||
                  memcmp(a->calls_into, b->calls_into, a->calls_into_len * sizeof(uint64_t)) == 0));
        if (mode == 2) TK_CHECK(a->calls_into_len > 0);
        TK_CHECK(a->self.count >= 40);
        TK_CHECK(a->self.count == b->self.count &&
                 memcmp(a->self.rows, b->self.rows, a->self.count * sizeof(tk_prof_self)) == 0 &&
                 memcmp(a->self.values, b->self.values, a->self.count * 3 * sizeof(uint64_t)) == 0);
        for (int e = 0; e < 3; e++) TK_CHECK_EQ_U64(a->line_sum[e], b->line_sum[e]);
        for (int k = 0; k < 2; k++) tk_profile_free(p[k]);
    }
}

static void test_calls_and_names_in_cost_runs(void)
{
    size_t cap = 1u << 20, n[2] = {0, 0};
    char *t[2] = {malloc(cap), malloc(cap)};
    for (int k = 0; k < 2; k++)
        n[k] += (size_t)sprintf(
            t[k] + n[k], "positions: instr line\nevents: Ir Dr Dw\nob=(1) a.so\nfl=(1) a.c\n");
    gen_cost_runs(t, n);
    same_reading(t, n);
    /* the runs count the lines they take: an error on the last line is
     * reported at its number both ways */
    uint64_t lines = 0;
    for (size_t i = 0; i < n[0]; i++) lines += t[0][i] == '\n';
    for (int k = 0; k < 2; k++) {
        n[k] += (size_t)sprintf(t[k] + n[k], "+1 * 1 x\n");
        tk_profile *p;
        tk_error err;
        TK_CHECK(read_functions_detail(t[k], n[k], 0, 1, 0, &p, &err) != TK_OK);
        TK_CHECK_EQ_U64(err.line, lines + 1);
        tk_profile_free(p);
    }
    free(t[0]);
    free(t[1]);
}

/* Many ids used before their definitions (more than the 4096 searches the
 * reader once allowed: they come from one index of the definitions now), and
 * an id that a new part forgets after the index was made (its definition in
 * the index lies before the reference: found by a search). */
static void test_forward_references_indexed(void)
{
    enum { N = 5000 };
    size_t cap = (size_t)N * 48 + 4096, n = 0;
    char *text = malloc(cap);
    TK_CHECK(text != NULL);
    if (!text) return;
    n += (size_t)sprintf(text + n, "events: Ir\n");
    for (int i = 1; i <= N; i++) n += (size_t)sprintf(text + n, "fn=(%d)\n%d 1\n", i, i);
    for (int i = 1; i <= N; i++) n += (size_t)sprintf(text + n, "fn=(%d) f_%d\n%d 2\n", i, i, i);
    /* part 2: id 7 again, used before its new definition */
    n += (size_t)sprintf(text + n, "part: 2\nevents: Ir\nfn=(7)\n1 4\nfn=(7) seven_again\n2 8\n");
    char *path = write_temp(text, n);
    for (int way = 0; way < 2; way++) {
        tk_input *in;
        tk_error err;
        if (way == 0)
            TK_CHECK_EQ_I64(tk_input_open(&in, path, NULL, &err), TK_OK);
        else
            TK_CHECK_EQ_I64(tk_input_open_memory(&in, text, n, "t", NULL, &err), TK_OK);
        tk_profile *p;
        int warnings = 0;
        tk_diag d;
        tk_diag_init(&d, count_warnings, &warnings);
        TK_CHECK_EQ_I64(read_via(in, "t.out", &p, &err, &d), TK_OK);
        TK_CHECK_EQ_U64(tk_profile_function_count(p), N + 1);
        TK_CHECK(fn_named(p, "f_1") != TK_PROF_NONE);
        TK_CHECK(fn_named(p, "f_5000") != TK_PROF_NONE);
        TK_CHECK(fn_named(p, "seven_again") != TK_PROF_NONE);
        TK_CHECK(fn_named(p, "(4097)") == TK_PROF_NONE);
        TK_CHECK_EQ_I64(warnings, N + 1); /* one per id used early */
        tk_profile_free(p);
        tk_input_free(in);
    }
    unlink(path);
    free(path);
    free(text);
}

/* Many functions of one name in different files (the name's chain is
 * indexed past a few): each is found again, new ones are new. */
static void test_profile_same_name_functions(void)
{
    tk_profile *p;
    TK_CHECK_EQ_I64(tk_profile_open(&p, NULL), TK_OK);
    if (!p) return;
    uint32_t name, obj, files[300];
    TK_CHECK_EQ_I64(tk_profile_intern(p, "main", 4, &name, NULL), TK_OK);
    TK_CHECK_EQ_I64(tk_profile_intern(p, "a.out", 5, &obj, NULL), TK_OK);
    for (int i = 0; i < 300; i++) {
        char f[32];
        int n = snprintf(f, sizeof f, "file%d.c", i);
        TK_CHECK_EQ_I64(tk_profile_intern(p, f, (size_t)n, &files[i], NULL), TK_OK);
        uint32_t fn;
        TK_CHECK_EQ_I64(tk_profile_function(p, obj, files[i], name, &fn, NULL), TK_OK);
        TK_CHECK_EQ_U64(fn, (uint64_t)i);
    }
    for (int k = 0; k < 600; k++) { /* again, in another order */
        int i = (k * 7919) % 300;
        uint32_t fn;
        TK_CHECK_EQ_I64(tk_profile_function(p, obj, files[i], name, &fn, NULL), TK_OK);
        TK_CHECK_EQ_U64(fn, (uint64_t)i);
    }
    uint32_t fn;
    TK_CHECK_EQ_I64(tk_profile_function(p, name, files[5], name, &fn, NULL),
                    TK_OK); /* another object */
    TK_CHECK_EQ_U64(fn, 300);
    TK_CHECK_EQ_U64(tk_profile_function_count(p), 301);
    tk_profile_free(p);
}

/* A line longer than the limit that crosses blocks: the same located error
 * as from a buffer; in check mode the lines after it are still read. */
static void test_block_reader_long_line(void)
{
    size_t big = (size_t)TK_CALLGRIND_MAX_LINE + 300000, len = 0;
    char *t = malloc(big + (1u << 20));
    len += (size_t)sprintf(t + len, "events: Ir\nfn=main\n1 5\n");
    for (int i = 0; i < 50000; i++) len += (size_t)sprintf(t + len, "%d 1\n", i + 2);
    len += (size_t)sprintf(t + len, "fn=");
    memset(t + len, 'x', big);
    len += big;
    len += (size_t)sprintf(t + len, "\n1 1 1\n");
    tk_status st;
    tk_error want;
    tk_profile *p = read_text(t, &st, &want);
    TK_CHECK_EQ_I64(st, TK_ERR_LIMIT);
    tk_profile_free(p);
    TK_CHECK_EQ_U64(want.line, 50004);
    TK_CHECK_EQ_U64(want.column, 1);
    char *path = write_temp(t, len);
    tk_input *in;
    tk_error err;
    TK_CHECK_EQ_I64(tk_input_open(&in, path, NULL, &err), TK_OK);
    TK_CHECK_EQ_I64(read_via(in, "t.out", &p, &err, NULL), TK_ERR_LIMIT);
    TK_CHECK_EQ_U64(err.line, want.line);
    TK_CHECK_EQ_U64(err.column, 1);
    TK_CHECK_STR(err.message, want.message);
    tk_profile_free(p);
    tk_input_free(in);
    /* check mode: the long line, then the cost line after it (3 numbers for 1 event) */
    int errors = 0;
    tk_diag d;
    tk_diag_init(&d, count_diag, &errors);
    TK_CHECK_EQ_I64(tk_input_open(&in, path, NULL, &err), TK_OK);
    TK_CHECK_EQ_I64(read_via(in, "t.out", &p, &err, &d), TK_ERR_CHECK);
    TK_CHECK_EQ_I64(errors, 2);
    tk_profile_free(p);
    tk_input_free(in);
    unlink(path);
    free(path);
    free(t);
}

/* What reading does not fail on but the input does not add up to: a sink of
 * located findings, by severity, with the line of the last one. */
typedef struct findings {
    int errors, warnings;
    uint64_t line;
    char last[256];
} findings;

static void keep_finding(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    findings *f = ctx;
    if (sev == TK_SEV_ERROR) f->errors++;
    if (sev == TK_SEV_WARNING) f->warnings++;
    f->line = loc->line;
    snprintf(f->last, sizeof f->last, "%s", msg);
}

/* text read in read mode with a notes sink (check 0) or in check mode (1);
 * the status of the read is returned, the findings in *f. */
static tk_status read_findings(const char *text, int check, findings *f)
{
    memset(f, 0, sizeof *f);
    tk_profile *p;
    if (tk_profile_open(&p, NULL) != TK_OK) return TK_ERR_NOMEM;
    tk_diag d;
    tk_diag_init(&d, keep_finding, f);
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.path = "t.out";
    if (check) {
        o.diag = &d;
        o.detail = TK_CALLGRIND_DETAIL_NONE;
    } else {
        o.notes = &d;
    }
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_callgrind_read_buffer(p, text, strlen(text), &o, &err);
    tk_profile_free(p);
    return st;
}

/* A part written by callgrind ends with totals:; without it (a cut file) its
 * summary: is compared with the cost lines: check errs, reading warns. */
static void test_summary_of_a_cut_callgrind_part(void)
{
    const char *head = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
                       "events: Ir Dr\nsummary: 100 20\nfl=a.c\nfn=main\n1 60 20\n";
    findings f;
    char text[512];
    /* cut: 60 of 100 */
    TK_CHECK_EQ_I64(read_findings(head, 1, &f), TK_ERR_CHECK);
    TK_CHECK_EQ_I64(f.errors, 1);
    TK_CHECK_EQ_U64(f.line, 5);
    TK_CHECK(strstr(f.last, "summary: Ir is 100 but the cost lines of this part sum to 60"));
    TK_CHECK_EQ_I64(read_findings(head, 0, &f), TK_OK);
    TK_CHECK_EQ_I64(f.warnings, 1);
    TK_CHECK_EQ_U64(f.line, 5);
    /* whole: the totals: line vouches for the part, whatever the summary says */
    snprintf(text, sizeof text, "%s2 38 5\ntotals: 98 25\n", head);
    TK_CHECK_EQ_I64(read_findings(text, 1, &f), TK_OK);
    TK_CHECK_EQ_I64(f.errors + f.warnings, 0);
    /* the same with totals: that do not match: a check error, a reading warning */
    snprintf(text, sizeof text, "%s2 38 5\ntotals: 99 25\n", head);
    TK_CHECK_EQ_I64(read_findings(text, 1, &f), TK_ERR_CHECK);
    TK_CHECK_EQ_I64(f.errors, 1);
    TK_CHECK_EQ_U64(f.line, 10);
    TK_CHECK_EQ_I64(read_findings(text, 0, &f), TK_OK);
    TK_CHECK_EQ_I64(f.warnings, 1);
    /* no totals:, but the cost lines reach the summary (cut after the last
     * cost line) or pass it (a summary left behind by the dump before, or
     * --cacheuse's events left out): nothing to say */
    snprintf(text, sizeof text, "%s2 40 5\n", head);
    TK_CHECK_EQ_I64(read_findings(text, 1, &f), TK_OK);
    TK_CHECK_EQ_I64(f.errors + f.warnings, 0);
}

/* Other producers: a summary up to 1 % above the cost lines is theirs to
 * write (the spec: the cost lines may not hold all costs); more looks cut;
 * a summary below the cost lines contradicts the spec. Warnings only. */
static void test_summary_of_other_producers(void)
{
    findings f;
    TK_CHECK_EQ_I64(read_findings("events: T\nsummary: 1000\nfn=a\n1 991\n", 1, &f), TK_OK);
    TK_CHECK_EQ_I64(f.errors + f.warnings, 0);
    TK_CHECK_EQ_I64(read_findings("events: T\nsummary: 1000\nfn=a\n1 989\n", 1, &f), TK_OK);
    TK_CHECK_EQ_I64(f.warnings, 1);
    TK_CHECK(strstr(f.last, "summary: T is 1000 but the cost lines of this part sum to 989"));
    TK_CHECK_EQ_I64(read_findings("events: T\nsummary: 1000\nfn=a\n1 1001\n", 1, &f), TK_OK);
    TK_CHECK_EQ_I64(f.warnings, 1);
    TK_CHECK_EQ_I64(read_findings("events: T\nsummary: 1000\nfn=a\n1 1001\n", 0, &f), TK_OK);
    TK_CHECK_EQ_I64(f.warnings, 1);
    TK_CHECK_EQ_U64(f.line, 2);
}

/* A part that ends after cfn= (or jfi=/jfn=) was cut inside a call (jump):
 * an error in both modes, at that line; cob= and cfi= alone are not (a
 * reader resets them: speedscope's cfn-reset test ends with `cfl=`). */
static void test_part_ending_inside_a_call(void)
{
    tk_status st;
    tk_error err;
    tk_profile *p = read_text("events: Ir\nfn=a\n1 5\ncob=x\ncfn=b\n", &st, &err);
    TK_CHECK_EQ_I64(st, TK_ERR_FORMAT);
    TK_CHECK_EQ_U64(err.line, 5);
    TK_CHECK(strstr(err.message, "ends inside a call") != NULL);
    tk_profile_free(p);
    p = read_text("events: Ir\nfn=a\n1 5\njfi=c.c\n\nevents: Ir\nfn=b\n1 2\n", &st, &err);
    TK_CHECK_EQ_I64(st, TK_ERR_FORMAT);
    TK_CHECK_EQ_U64(err.line, 4);
    tk_profile_free(p);
    p = read_text("events: Ir\nfn=a\n1 5\ncfi=x.c\n", &st, &err);
    TK_CHECK_EQ_I64(st, TK_OK);
    tk_profile_free(p);
    findings f;
    TK_CHECK_EQ_I64(read_findings("events: Ir\nfn=a\n1 5\ncfn=b\n", 1, &f), TK_ERR_CHECK);
    TK_CHECK_EQ_I64(f.errors, 1);
    TK_CHECK_EQ_U64(f.line, 4);
}

/* Check keeps no rows but adds up what the readers that keep them, and the
 * summaries over parts and inputs, add up: inputs read into one profile in
 * check mode get the error where the sum passes 2^64, as report reading
 * them refuses them. */
static void test_check_adds_up_over_inputs(void)
{
    const char *half = "events: Ir\nfn=a\n1 9223372036854775808\n";
    tk_profile *p;
    TK_CHECK_EQ_I64(tk_profile_open(&p, NULL), TK_OK);
    findings f;
    memset(&f, 0, sizeof f);
    tk_diag d;
    tk_diag_init(&d, keep_finding, &f);
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.diag = &d;
    o.detail = TK_CALLGRIND_DETAIL_NONE;
    tk_error err;
    TK_CHECK_EQ_I64(tk_callgrind_read_buffer(p, half, strlen(half), &o, &err), TK_OK);
    TK_CHECK_EQ_I64(f.errors, 0);
    TK_CHECK_EQ_I64(tk_callgrind_read_buffer(p, half, strlen(half), &o, &err), TK_ERR_CHECK);
    TK_CHECK_EQ_I64(f.errors, 1);
    TK_CHECK(strstr(f.last, "add up past 2^64 for Ir") != NULL);
    /* a new event type after costs, in the next input */
    const char *two = "events: Ir Dr\nfn=a\n1 1 1\n";
    TK_CHECK_EQ_I64(tk_callgrind_read_buffer(p, two, strlen(two), &o, &err), TK_ERR_CHECK);
    TK_CHECK_EQ_I64(f.errors, 2);
    TK_CHECK(strstr(f.last, "event type 'Dr' appears after costs") != NULL);
    tk_profile_free(p);
    /* report's reading of the two halves refuses them */
    TK_CHECK_EQ_I64(tk_profile_open(&p, NULL), TK_OK);
    tk_prof_summary *s = NULL;
    tk_callgrind_read_options r = TK_CALLGRIND_READ_OPTIONS_INIT;
    TK_CHECK_EQ_I64(tk_callgrind_read_buffer(p, half, strlen(half), &r, &err), TK_OK);
    TK_CHECK_EQ_I64(tk_callgrind_read_buffer(p, half, strlen(half), &r, &err), TK_OK);
    TK_CHECK_EQ_I64(tk_profile_summarize(p, 0, TK_GROUP_FUNCTION, &s, &err), TK_ERR_LIMIT);
    tk_profile_free(p);
    /* one call of 2^64-1 beside a self cost: an inclusive cost past 64 bits */
    const char *call = "events: Ir\nfn=a\n1 5\ncfn=b\ncalls=1 1\n2 18446744073709551615\n";
    TK_CHECK_EQ_I64(read_findings(call, 1, &f), TK_ERR_CHECK);
    TK_CHECK(strstr(f.last, "inclusive costs of the calls add up past 2^64") != NULL);
}

TK_TEST_MAIN(TK_CASE(test_relative_positions_and_short_cost_lines),
             TK_CASE(test_name_compression_separate_id_spaces),
             TK_CASE(test_calls_with_two_target_subpositions),
             TK_CASE(test_jcnd_followed_then_executed), TK_CASE(test_accessors_copy_out),
             TK_CASE(test_parts_and_threads), TK_CASE(test_errors_are_located),
             TK_CASE(test_check_mode_reports_every_error), TK_CASE(test_inclusive_under_recursion),
             TK_CASE(test_writer_round_trip), TK_CASE(test_builder_aggregates_and_detects_overflow),
             TK_CASE(test_block_reader_matches_buffer_reader),
             TK_CASE(test_block_reader_forward_reference), TK_CASE(test_forward_references_indexed),
             TK_CASE(test_profile_same_name_functions), TK_CASE(test_block_reader_long_line),
             TK_CASE(test_summary_sort_orders_ties_by_name),
             TK_CASE(test_summary_sort_cover_matches_full_sort),
             TK_CASE(test_sparse_ids_and_many_parts), TK_CASE(test_jumps_in_cost_runs),
             TK_CASE(test_calls_and_names_in_cost_runs),
             TK_CASE(test_function_rows_of_a_dispatcher),
             TK_CASE(test_summary_of_a_cut_callgrind_part),
             TK_CASE(test_summary_of_other_producers), TK_CASE(test_part_ending_inside_a_call),
             TK_CASE(test_check_adds_up_over_inputs))
