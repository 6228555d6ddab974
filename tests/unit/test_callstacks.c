/* Call stacks: exits that match no open frame (the scan skipped for a
 * function found absent while nothing was pushed since), one event at a time
 * and in batches. The thread filter over an event source. */
#include <string.h>

#include "model/events.h"
#include "tk_test.h"

typedef struct closes {
    int matched, unwound, at_end;
    uint64_t last_func;
} closes;

static void on_close(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth,
                     uint64_t end, uint64_t duration, uint64_t self, tk_close_how how)
{
    (void)t, (void)depth, (void)end, (void)duration, (void)self;
    closes *c = ctx;
    if (how == TK_CLOSE_MATCHED)
        c->matched++;
    else if (how == TK_CLOSE_UNWOUND)
        c->unwound++;
    else
        c->at_end++;
    c->last_func = f->func;
}

/* enter 1; exit 9 twice (not open); enter 9; exit 9 (now open: matched);
 * exit 9 (absent again); enter 2; exit 1 (unwinds 2); exit 9 */
static const uint8_t kinds[] = {TK_EVENT_ENTER, TK_EVENT_EXIT, TK_EVENT_EXIT,
                                TK_EVENT_ENTER, TK_EVENT_EXIT, TK_EVENT_EXIT,
                                TK_EVENT_ENTER, TK_EVENT_EXIT, TK_EVENT_EXIT};
static const uint64_t funcs[] = {1, 9, 9, 9, 9, 9, 2, 1, 9};
enum { NEVENTS = sizeof funcs / sizeof *funcs };

static void check_counts(const tk_callstacks *cs, const closes *c)
{
    TK_CHECK_EQ_I64(c->matched, 2); /* 9, then 1 */
    TK_CHECK_EQ_I64(c->unwound, 1); /* 2 */
    TK_CHECK_EQ_I64(c->at_end, 0);
    TK_CHECK_EQ_U64(cs->threads[0].unmatched_exits, 4);
    TK_CHECK_EQ_U64(cs->threads[0].depth, 0);
}

static void test_stray_exits_one_by_one(void)
{
    tk_callstacks cs;
    closes c;
    memset(&c, 0, sizeof c);
    tk_callstacks_init(&cs, NULL, on_close, &c);
    tk_error err;
    for (int i = 0; i < NEVENTS; i++) {
        tk_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = (tk_event_kind)kinds[i];
        ev.func = funcs[i];
        ev.time = (uint64_t)i * 10;
        TK_CHECK_EQ_I64(tk_callstacks_feed(&cs, &ev, &err), TK_OK);
    }
    check_counts(&cs, &c);
    tk_callstacks_free(&cs);
}

static void test_stray_exits_in_a_batch(void)
{
    tk_callstacks cs;
    closes c;
    memset(&c, 0, sizeof c);
    tk_callstacks_init(&cs, NULL, on_close, &c);
    uint64_t times[NEVENTS];
    for (int i = 0; i < NEVENTS; i++) times[i] = (uint64_t)i * 10;
    tk_event_batch b;
    memset(&b, 0, sizeof b);
    b.n = NEVENTS;
    b.kind = kinds;
    b.func = funcs;
    b.time = times;
    tk_error err;
    TK_CHECK_EQ_I64(tk_callstacks_feed_batch(&cs, &b, &err), TK_OK);
    check_counts(&cs, &c);
    tk_callstacks_free(&cs);
}

/* A source of 6 events, tids 10, 20, 30, 10, 20, 10, one per event and one per batch. */
typedef struct fake_source {
    int at;
    unsigned last_flags;
} fake_source;

static const int64_t fake_tids[6] = {10, 20, 30, 10, 20, 10};

static tk_status fake_next(void *ctx, tk_event *ev, tk_error *err)
{
    (void)err;
    fake_source *f = ctx;
    if (f->at == 6) return TK_END;
    memset(ev, 0, sizeof *ev);
    ev->tid = fake_tids[f->at];
    ev->func = (uint64_t)f->at++;
    return TK_OK;
}

static tk_status fake_batch(void *ctx, tk_event_batch *b, unsigned flags, tk_error *err)
{
    (void)err;
    static uint8_t kind = TK_EVENT_ENTER;
    static uint64_t func[6], time;
    fake_source *f = ctx;
    f->last_flags = flags;
    if (f->at == 6) return TK_END;
    memset(b, 0, sizeof *b);
    b->tid = fake_tids[f->at];
    func[f->at] = (uint64_t)f->at;
    b->n = 1;
    b->kind = &kind;
    b->func = &func[f->at++];
    b->time = &time;
    return TK_OK;
}

static const char *fake_name(void *ctx, uint64_t func, char *buf, size_t size)
{
    (void)ctx, (void)func, (void)size;
    buf[0] = 'f';
    buf[1] = 0;
    return buf;
}

static void test_thread_filter(void)
{
    static const int64_t keep[2] = {10, 30};
    for (int batches = 0; batches < 2; batches++) {
        fake_source f = {0, 0};
        tk_event_source src;
        memset(&src, 0, sizeof src);
        src.ctx = &f;
        src.next = fake_next;
        src.next_batch = fake_batch;
        src.name = fake_name;
        src.ticks_per_second = 1e9;
        tk_event_thread_filter filter;
        tk_event_source only;
        tk_event_only_threads(&filter, &src, keep, 2, &only);
        TK_CHECK(only.ticks_per_second == 1e9 && only.location == NULL);
        char buf[8];
        TK_CHECK_STR(only.name(only.ctx, 1, buf, sizeof buf), "f");
        uint64_t got[6];
        size_t n = 0;
        tk_error err;
        for (;;) {
            tk_status st;
            if (batches) {
                tk_event_batch b;
                st = only.next_batch(only.ctx, &b, TK_BATCH_PACKED, &err);
                if (st == TK_OK) got[n++] = b.func[0];
                TK_CHECK((f.last_flags & TK_BATCH_PACKED) == 0); /* never packed */
            } else {
                tk_event ev;
                st = only.next(only.ctx, &ev, &err);
                if (st == TK_OK) got[n++] = ev.func;
            }
            if (st != TK_OK) {
                TK_CHECK_EQ_I64(st, TK_END);
                break;
            }
        }
        /* events 0, 2, 3, 5: tids 10, 30, 10, 10 */
        TK_CHECK_EQ_U64(n, 4);
        if (n == 4) TK_CHECK(got[0] == 0 && got[1] == 2 && got[2] == 3 && got[3] == 5);
    }
}

TK_TEST_MAIN(TK_CASE(test_stray_exits_one_by_one), TK_CASE(test_stray_exits_in_a_batch),
             TK_CASE(test_thread_filter))
