/* Call stacks: exits that match no open frame (the scan skipped for a
 * function found absent while nothing was pushed since), one event at a time
 * and in batches. */
#include <string.h>

#include "model/events.h"
#include "tk_test.h"

typedef struct closes {
    int matched, unwound, at_end;
    uint64_t last_func;
} closes;

static void on_close(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth, uint64_t end,
                     uint64_t duration, uint64_t self, tk_close_how how)
{
    (void)t, (void)depth, (void)end, (void)duration, (void)self;
    closes *c = ctx;
    if (how == TK_CLOSE_MATCHED) c->matched++;
    else if (how == TK_CLOSE_UNWOUND) c->unwound++;
    else c->at_end++;
    c->last_func = f->func;
}

/* enter 1; exit 9 twice (not open); enter 9; exit 9 (now open: matched);
 * exit 9 (absent again); enter 2; exit 1 (unwinds 2); exit 9 */
static const uint8_t kinds[] = {TK_EVENT_ENTER, TK_EVENT_EXIT, TK_EVENT_EXIT,  TK_EVENT_ENTER, TK_EVENT_EXIT,
                                TK_EVENT_EXIT,  TK_EVENT_ENTER, TK_EVENT_EXIT, TK_EVENT_EXIT};
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

TK_TEST_MAIN(TK_CASE(test_stray_exits_one_by_one), TK_CASE(test_stray_exits_in_a_batch))
