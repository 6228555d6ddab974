/* Latency accounting's partial results: merging the partials of N inputs in any grouping, and
 * through their serialised bytes, gives the bytes and rows of one run over the chained inputs. */
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/alloc.h"
#include "tracekit/events.h"
#include "tracekit/latency.h"

#define NPARTS 5

/* A generated input: a few threads calling functions with durations of every size class,
 * nested calls, exits without entries and calls left open. */
typedef struct part {
    tk_event *ev;
    size_t n, i;
} part;

static part parts[NPARTS];

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

static uint64_t duration(uint64_t *s)
{
    uint64_t r = rnd(s) % 100;
    if (r < 80) return rnd(s) % 300; /* 16-bit, many equal */
    if (r < 97) return 70000 + rnd(s) % 100000;
    return ((uint64_t)1 << 33) + rnd(s) % 1000;
}

static void push(part *p, tk_event_kind kind, uint32_t thread, uint64_t time, uint64_t func)
{
    tk_event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.thread = thread;
    e.pid = 100 + thread / 2;
    e.tid = 1000 + thread;
    e.time = time;
    e.func = func;
    p->ev[p->n++] = e;
}

static void generate(part *p, uint64_t seed, uint32_t threads, size_t calls)
{
    uint64_t s = seed, t[8] = {0};
    p->n = p->i = 0;
    p->ev = malloc((calls * 4 + 1) * sizeof *p->ev);
    for (size_t c = 0; c < calls; c++) {
        uint32_t th = (uint32_t)(rnd(&s) % threads);
        uint64_t f = rnd(&s) % 10 < 7 ? 1 : 1 + rnd(&s) % 6, d = duration(&s);
        push(p, TK_EVENT_ENTER, th, t[th], f);
        if (rnd(&s) % 4 == 0) { /* a nested call */
            push(p, TK_EVENT_ENTER, th, t[th] + 1, 7);
            push(p, TK_EVENT_EXIT, th, t[th] + 1 + d / 2, 7);
        }
        t[th] += d + 2;
        push(p, TK_EVENT_EXIT, th, t[th], f);
        if (rnd(&s) % 97 == 0) push(p, TK_EVENT_EXIT, th, t[th], 9); /* without an entry */
    }
    push(p, TK_EVENT_ENTER, 0, t[0], 8); /* open at the end */
}

static tk_status part_next(void *ctx, tk_event *ev, tk_error *err)
{
    (void)err;
    part *p = ctx;
    if (p->i == p->n) return TK_END;
    *ev = p->ev[p->i++];
    return TK_OK;
}

static tk_event_source source_of(part *p)
{
    p->i = 0;
    tk_event_source src = {p, part_next, NULL, 1e9, "ticks", 0, NULL, NULL};
    return src;
}

static void setup(void)
{
    static int done;
    if (done) return;
    done = 1;
    for (int k = 0; k < NPARTS; k++)
        generate(&parts[k], 1234 + (uint64_t)k * 77, 1 + (uint32_t)k % 3,
                 k == 3 ? 130000 : 3000 + 4000 * (k % 2)); /* 3: a histogram of 16-bit ones */
}

static tk_latency *run_part(int k, int per_thread)
{
    tk_event_source src = source_of(&parts[k]);
    tk_latency *l = NULL;
    TK_CHECK(tk_latency_open(&l, per_thread, NULL) == TK_OK);
    TK_CHECK(tk_latency_run(l, &src, NULL) == TK_OK);
    return l;
}

/* The reference: one run over parts [from, to) chained. */
static tk_latency *run_chain(int from, int to, int per_thread)
{
    tk_event_source srcs[NPARTS], src;
    for (int k = from; k < to; k++) srcs[k - from] = source_of(&parts[k]);
    tk_event_chain chain;
    TK_CHECK(tk_event_chain_init(&chain, srcs, (size_t)(to - from), &src, NULL) == TK_OK);
    tk_latency *l = NULL;
    TK_CHECK(tk_latency_open(&l, per_thread, NULL) == TK_OK);
    TK_CHECK(tk_latency_run(l, &src, NULL) == TK_OK);
    return l;
}

static tk_latency *merge(tk_latency *a, tk_latency *b)
{
    TK_CHECK(tk_latency_merge(a, b, NULL) == TK_OK);
    tk_latency_free(b);
    return a;
}

/* Through bytes, as an MPI reduction carries it. */
static tk_latency *roundtrip(tk_latency *l)
{
    uint8_t *data;
    size_t size;
    TK_CHECK(tk_latency_serialize(l, &data, &size, NULL) == TK_OK);
    tk_latency *r = NULL;
    TK_CHECK(tk_latency_deserialize(&r, data, size, 0, NULL) == TK_OK);
    tk_free(data);
    tk_latency_free(l);
    return r;
}

/* Field by field: the structs have padding (after thread, after max_depth), which memcmp would
 * compare too. */
static int same_row(const tk_latency_row *a, const tk_latency_row *b)
{
    return a->func == b->func && a->thread == b->thread && a->pid == b->pid && a->tid == b->tid &&
           a->count == b->count && a->min == b->min && a->median == b->median && a->p90 == b->p90 &&
           a->p99 == b->p99 && a->max == b->max && a->sum == b->sum && a->open == b->open &&
           a->unwound == b->unwound && a->self == b->self && a->trace == b->trace &&
           a->process == b->process;
}

static int same_totals(const tk_latency_totals *a, const tk_latency_totals *b)
{
    return a->threads == b->threads && a->enters == b->enters && a->exits == b->exits &&
           a->unmatched_exits == b->unmatched_exits && a->unwound == b->unwound &&
           a->open_at_end == b->open_at_end && a->backwards == b->backwards &&
           a->max_depth == b->max_depth && a->traces == b->traces;
}

static int same(tk_latency *a, tk_latency *b)
{
    uint8_t *da, *db;
    size_t na, nb;
    TK_CHECK(tk_latency_serialize(a, &da, &na, NULL) == TK_OK);
    TK_CHECK(tk_latency_serialize(b, &db, &nb, NULL) == TK_OK);
    int eq = na == nb && memcmp(da, db, na) == 0;
    tk_free(da);
    tk_free(db);
    const tk_latency_row *ra, *rb;
    size_t ca, cb;
    TK_CHECK(tk_latency_rows(a, &ra, &ca, NULL) == TK_OK);
    TK_CHECK(tk_latency_rows(b, &rb, &cb, NULL) == TK_OK);
    eq = eq && ca == cb;
    for (size_t i = 0; eq && i < ca; i++) eq = same_row(&ra[i], &rb[i]);
    tk_latency_totals ta, tb;
    tk_latency_get_totals(a, &ta);
    tk_latency_get_totals(b, &tb);
    return eq && same_totals(&ta, &tb);
}

static void groupings(int per_thread)
{
    setup();
    tk_latency *ref = run_chain(0, NPARTS, per_thread);
    /* left fold */
    tk_latency *l = run_part(0, per_thread);
    for (int k = 1; k < NPARTS; k++) l = merge(l, run_part(k, per_thread));
    TK_CHECK(same(l, ref));
    tk_latency_free(l);
    /* right fold, each step through bytes */
    l = roundtrip(run_part(NPARTS - 1, per_thread));
    for (int k = NPARTS - 2; k >= 0; k--) l = roundtrip(merge(run_part(k, per_thread), l));
    TK_CHECK(same(l, ref));
    tk_latency_free(l);
    /* a tree: (0+1) + ((2+3) + 4), the middle one a chained run */
    tk_latency *a = merge(run_part(0, per_thread), run_part(1, per_thread));
    tk_latency *b = merge(run_chain(2, 4, per_thread), roundtrip(run_part(4, per_thread)));
    l = merge(roundtrip(a), b);
    TK_CHECK(same(l, ref));
    tk_latency_free(l);
    tk_latency_free(ref);
}

static void test_merge_groupings_aggregate(void) { groupings(0); }

static void test_merge_groupings_per_thread(void) { groupings(1); }

/* Threads of different inputs stay apart: the second input's thread 0 is thread 1 here. */
static void test_chain_threads_apart(void)
{
    setup();
    tk_latency *l = run_chain(0, 2, 1);
    tk_latency_totals t;
    tk_latency_get_totals(l, &t);
    TK_CHECK_EQ_U64(t.threads, 1 + 2); /* part 0 has one thread, part 1 two */
    const tk_latency_row *rows;
    size_t n;
    TK_CHECK(tk_latency_rows(l, &rows, &n, NULL) == TK_OK);
    TK_CHECK(n > 0 && rows[n - 1].thread == 2);
    TK_CHECK(tk_latency_run(merge(l, run_part(2, 1)), NULL, NULL) == TK_ERR_ARG);
    tk_latency_free(l);
}

/* Each per-thread row's trace and process key (tk_event_process_keys), chained or merged:
 * parts share pid 100, so a later part's threads of it are keyed, also after a part whose
 * thread of that pid had only a custom event (no call, no row: Chrome JSON writes it). */
static void test_row_processes(void)
{
    setup();
    tk_event custom;
    memset(&custom, 0, sizeof custom);
    custom.kind = TK_EVENT_CUSTOM;
    custom.pid = 100;
    custom.tid = 1000;
    part events_only = {&custom, 1, 0};
    tk_event_source srcs[3] = {source_of(&events_only), source_of(&parts[0]), source_of(&parts[1])},
                    src;
    tk_event_chain chain;
    TK_CHECK(tk_event_chain_init(&chain, srcs, 3, &src, NULL) == TK_OK);
    tk_latency *l = NULL;
    TK_CHECK(tk_latency_open(&l, 1, NULL) == TK_OK);
    TK_CHECK(tk_latency_run(l, &src, NULL) == TK_OK);
    const tk_latency_row *rows;
    size_t n;
    TK_CHECK(tk_latency_rows(l, &rows, &n, NULL) == TK_OK);
    int seen[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) { /* thread 0: the custom event's; 1: part 0's; 2, 3 */
        TK_CHECK(rows[i].thread >= 1 && rows[i].thread <= 3);
        uint32_t trace = rows[i].thread == 1 ? 1 : 2;
        TK_CHECK_EQ_U64(rows[i].trace, trace);
        TK_CHECK(rows[i].process == (int64_t)trace * TK_PROCESS_KEY_STRIDE + rows[i].pid);
        seen[rows[i].thread - 1] = 1;
    }
    TK_CHECK(seen[0] && seen[1] && seen[2]);
    /* merged, and through bytes: the same rows */
    events_only.i = 0;
    tk_event_source one = source_of(&events_only);
    tk_latency *m = NULL;
    TK_CHECK(tk_latency_open(&m, 1, NULL) == TK_OK);
    TK_CHECK(tk_latency_run(m, &one, NULL) == TK_OK);
    m = merge(roundtrip(m), merge(run_part(0, 1), roundtrip(run_part(1, 1))));
    TK_CHECK(same(m, l));
    tk_latency_totals t;
    tk_latency_get_totals(m, &t);
    TK_CHECK_EQ_U64(t.traces, 3);
    tk_latency_free(m);
    /* one part: each thread's process is its pid */
    tk_latency_free(l);
    l = run_part(1, 1);
    TK_CHECK(tk_latency_rows(l, &rows, &n, NULL) == TK_OK);
    for (size_t i = 0; i < n; i++) TK_CHECK(rows[i].trace == 0 && rows[i].process == rows[i].pid);
    tk_latency_free(l);
}

static void test_chain_clock_mismatch(void)
{
    setup();
    tk_event_source srcs[2] = {source_of(&parts[0]), source_of(&parts[1])}, src;
    srcs[1].ticks_per_second = 2e9;
    tk_event_chain chain;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_event_chain_init(&chain, srcs, 2, &src, &err) == TK_ERR_ARG);
    TK_CHECK(chain.cur == 1);
    TK_CHECK(strstr(err.message, "part 1") != NULL);
}

static void test_deserialize_rejects(void)
{
    setup();
    tk_latency *l = run_part(1, 1);
    uint8_t *data;
    size_t size;
    TK_CHECK(tk_latency_serialize(l, &data, &size, NULL) == TK_OK);
    tk_latency *r = NULL;
    tk_error err;
    for (size_t cut = 0; cut < size; cut += 1 + cut / 3) { /* every prefix is refused */
        tk_error_clear(&err);
        TK_CHECK(tk_latency_deserialize(&r, data, cut, 0, &err) == TK_ERR_FORMAT);
        TK_CHECK(r == NULL && err.offset >= 0);
    }
    TK_CHECK(tk_latency_deserialize(&r, data, size, 3, &err) == TK_ERR_LIMIT);
    data[0] = 'X';
    TK_CHECK(tk_latency_deserialize(&r, data, size, 0, &err) == TK_ERR_FORMAT);
    tk_free(data);
    tk_latency *other = NULL;
    TK_CHECK(tk_latency_open(&other, 0, NULL) == TK_OK);
    TK_CHECK(tk_latency_merge(l, other, NULL) == TK_ERR_ARG);
    tk_latency_free(other);
    tk_latency_free(l);
}

/* The row of function func (aggregate rows). */
static const tk_latency_row *row_of(tk_latency *l, uint64_t func)
{
    const tk_latency_row *rows;
    size_t n;
    TK_CHECK(tk_latency_rows(l, &rows, &n, NULL) == TK_OK);
    for (size_t i = 0; i < n; i++)
        if (rows[i].func == func) return &rows[i];
    TK_CHECK(!"no row of the function");
    return NULL;
}

/* Self time: a call's duration minus that of the calls it made, also through the histogram
 * of 16-bit durations (its calls counted from the id alone), a merge and the bytes. */
static void test_self_times(void)
{
    part p;
    p.ev = malloc((4 * 70000 + 8) * sizeof *p.ev);
    p.n = 0;
    /* f 0..100 calls g 10..30 (which calls h 12..20) and g 40..50 */
    push(&p, TK_EVENT_ENTER, 0, 0, 1);
    push(&p, TK_EVENT_ENTER, 0, 10, 2);
    push(&p, TK_EVENT_ENTER, 0, 12, 3);
    push(&p, TK_EVENT_EXIT, 0, 20, 3);
    push(&p, TK_EVENT_EXIT, 0, 30, 2);
    push(&p, TK_EVENT_ENTER, 0, 40, 2);
    push(&p, TK_EVENT_EXIT, 0, 50, 2);
    push(&p, TK_EVENT_EXIT, 0, 100, 1);
    /* 70,000 calls of 4 (10 ticks) calling 5 (4 ticks): past HIST_AFTER */
    for (uint64_t c = 0, t = 200; c < 70000; c++, t += 20) {
        push(&p, TK_EVENT_ENTER, 0, t, 4);
        push(&p, TK_EVENT_ENTER, 0, t + 3, 5);
        push(&p, TK_EVENT_EXIT, 0, t + 7, 5);
        push(&p, TK_EVENT_EXIT, 0, t + 10, 4);
    }
    tk_event_source src = source_of(&p);
    tk_latency *l = NULL;
    TK_CHECK(tk_latency_open(&l, 0, NULL) == TK_OK);
    TK_CHECK(tk_latency_run(l, &src, NULL) == TK_OK);
    static const uint64_t want[6] = {0, 70, 22, 8, 70000 * 6, 70000 * 4};
    for (uint64_t f = 1; f <= 5; f++) TK_CHECK_EQ_U64(row_of(l, f)->self, want[f]);
    TK_CHECK_EQ_U64(row_of(l, 2)->sum, 30);
    /* through the bytes, and merged with itself: twice each */
    uint8_t *data;
    size_t size;
    TK_CHECK(tk_latency_serialize(l, &data, &size, NULL) == TK_OK);
    tk_latency *a = NULL, *b = NULL;
    TK_CHECK(tk_latency_deserialize(&a, data, size, 0, NULL) == TK_OK);
    TK_CHECK(tk_latency_deserialize(&b, data, size, 0, NULL) == TK_OK);
    tk_free(data);
    for (uint64_t f = 1; f <= 5; f++) TK_CHECK_EQ_U64(row_of(a, f)->self, want[f]);
    a = merge(a, b);
    for (uint64_t f = 1; f <= 5; f++) TK_CHECK_EQ_U64(row_of(a, f)->self, 2 * want[f]);
    tk_latency_free(a);
    tk_latency_free(l);
    free(p.ev);
}

TK_TEST_MAIN(TK_CASE(test_merge_groupings_aggregate), TK_CASE(test_merge_groupings_per_thread),
             TK_CASE(test_chain_threads_apart), TK_CASE(test_row_processes),
             TK_CASE(test_chain_clock_mismatch), TK_CASE(test_deserialize_rejects),
             TK_CASE(test_self_times))
