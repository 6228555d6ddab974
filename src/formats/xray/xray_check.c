/* `check` for XRay traces: decoding problems (from the reader in diagnostics mode) plus the
 * grammar of each FDR buffer, call nesting per thread, timestamps and function ids. */
#include <inttypes.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/hash.h"
#include "model/events.h"
#include "formats/xray/xray_internal.h"

/* Warnings of one kind printed before they are only counted. */
#define CHECK_MAX_REPEAT 10

typedef enum buf_state {
    EXPECT_NEW_BUFFER,
    EXPECT_WALLTIME,
    EXPECT_PID_OR_CPU,
    EXPECT_CPU,
    IN_BODY
} buf_state;

typedef struct checker {
    const char *path;
    tk_diag *diag;
    const tk_xray_header *h;
    const tk_xray_map *map;
    uint32_t cur_buffer;
    int have_buffer;
    buf_state state;
    tk_xray_kind prev;
    uint64_t last_tsc;
    int have_tsc;
    tk_callstacks stacks;
    tk_hmap thread_of;
    uint32_t nthreads;
    tk_hmap bad_ids;
    uint64_t repeats[8];
    uint64_t suppressed[8];
} checker;

enum { REP_UNMATCHED, REP_BACKWARDS, REP_BAD_ID, REP_NKINDS };

static void problem(checker *c, tk_severity sev, int rep, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void problem(checker *c, tk_severity sev, int rep, uint64_t offset, const char *fmt, ...)
{
    if (rep >= 0 && ++c->repeats[rep] > CHECK_MAX_REPEAT) {
        c->suppressed[rep]++;
        if (sev == TK_SEV_ERROR)
            c->diag->errors++;
        else if (sev == TK_SEV_WARNING)
            c->diag->warnings++;
        return;
    }
    tk_location loc = {c->path, (int64_t)offset, 0, 0};
    va_list ap;
    va_start(ap, fmt);
    tk_diag_vreport(c->diag, sev, &loc, fmt, ap);
    va_end(ap);
}

static const char *expected_name(buf_state s)
{
    switch (s) {
    case EXPECT_NEW_BUFFER: return "new-buffer";
    case EXPECT_WALLTIME: return "walltime";
    case EXPECT_PID_OR_CPU: return "pid or new-cpu";
    case EXPECT_CPU: return "new-cpu";
    case IN_BODY: return "a body record";
    }
    return "?";
}

static void check_fdr_grammar(checker *c, const tk_xray_record *rec)
{
    if (rec->kind == TK_XRAY_BUFFER_EXTENTS) {
        c->state = EXPECT_NEW_BUFFER;
        c->prev = rec->kind;
        return;
    }
    if (!c->have_buffer || rec->buffer != c->cur_buffer) {
        c->have_buffer = 1;
        c->cur_buffer = rec->buffer;
        c->state = EXPECT_NEW_BUFFER;
        c->have_tsc = 0;
    }
    tk_xray_kind k = rec->kind;
    switch (c->state) {
    case EXPECT_NEW_BUFFER:
        if (k == TK_XRAY_NEW_BUFFER) {
            c->state = EXPECT_WALLTIME;
            break;
        }
        problem(c, TK_SEV_ERROR, -1, rec->offset,
                "buffer %" PRIu32 ": expected new-buffer, "
                "found %s",
                rec->buffer, tk_xray_kind_name(k));
        c->state = IN_BODY;
        break;
    case EXPECT_WALLTIME:
        if (k == TK_XRAY_WALLTIME) {
            c->state = c->h->version >= 3 ? EXPECT_PID_OR_CPU : EXPECT_CPU;
            break;
        }
        problem(c, TK_SEV_ERROR, -1, rec->offset,
                "buffer %" PRIu32 ": expected walltime after "
                "new-buffer, found %s",
                rec->buffer, tk_xray_kind_name(k));
        c->state = k == TK_XRAY_NEW_CPU ? IN_BODY : EXPECT_CPU;
        break;
    case EXPECT_PID_OR_CPU:
    case EXPECT_CPU:
        if (k == TK_XRAY_PID && c->state == EXPECT_PID_OR_CPU) {
            c->state = EXPECT_CPU;
            break;
        }
        if (k == TK_XRAY_NEW_CPU) {
            c->state = IN_BODY;
            break;
        }
        problem(c, TK_SEV_ERROR, -1, rec->offset, "buffer %" PRIu32 ": expected %s, found %s",
                rec->buffer, expected_name(c->state), tk_xray_kind_name(k));
        c->state = IN_BODY;
        break;
    case IN_BODY:
        if (k == TK_XRAY_NEW_BUFFER || k == TK_XRAY_WALLTIME || k == TK_XRAY_PID)
            problem(c, TK_SEV_ERROR, -1, rec->offset,
                    "buffer %" PRIu32 ": %s in the body of "
                    "a buffer (it belongs at the buffer start)",
                    rec->buffer, tk_xray_kind_name(k));
        break;
    }
    if (k == TK_XRAY_CALL_ARG && c->prev != TK_XRAY_ENTER_ARGS && c->prev != TK_XRAY_CALL_ARG)
        problem(c, TK_SEV_ERROR, -1, rec->offset,
                "call-argument after %s (expected it after "
                "enter-args or another call-argument)",
                tk_xray_kind_name(c->prev));
    c->prev = k;
}

static void check_time(checker *c, const tk_xray_record *rec)
{
    int timed = xray_is_function(rec->kind) || rec->kind == TK_XRAY_NEW_CPU ||
                rec->kind == TK_XRAY_TSC_WRAP || rec->kind == TK_XRAY_TYPED_EVENT ||
                (rec->kind == TK_XRAY_CUSTOM_EVENT && c->h->version >= 5);
    if (!timed) return;
    if (c->have_tsc && rec->tsc < c->last_tsc)
        problem(c, TK_SEV_WARNING, REP_BACKWARDS, rec->offset,
                "TSC went backwards on thread "
                "%" PRId32 ": %" PRIu64 " after %" PRIu64 " (%s)",
                rec->tid, rec->tsc, c->last_tsc, tk_xray_kind_name(rec->kind));
    c->last_tsc = rec->tsc;
    c->have_tsc = 1;
}

static tk_status check_calls(checker *c, const tk_xray_record *rec, tk_error *err)
{
    if (!xray_is_function(rec->kind)) return TK_OK;
    if (c->map && !tk_xray_map_function(c->map, rec->func_id)) {
        int inserted = 0;
        uint64_t *slot = tk_hmap_slot(&c->bad_ids, rec->func_id, 0, &inserted);
        if (!slot) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        if (inserted)
            problem(c, TK_SEV_WARNING, REP_BAD_ID, rec->offset,
                    "function id %" PRIu32 " is not in the instrumentation map (it has %" PRIu32
                    " functions); "
                    "does the binary match the trace?",
                    rec->func_id, tk_xray_map_count(c->map));
    }
    uint64_t key = (uint64_t)(uint32_t)rec->pid << 32 | (uint32_t)rec->tid;
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&c->thread_of, key, c->nthreads, &inserted);
    if (!slot) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (inserted) c->nthreads++;
    tk_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = rec->kind == TK_XRAY_ENTER_ARGS ? TK_EVENT_ENTER : (tk_event_kind)rec->kind;
    ev.thread = (uint32_t)*slot;
    ev.pid = rec->pid;
    ev.tid = rec->tid;
    ev.time = rec->tsc;
    ev.func = rec->func_id;
    ev.offset = rec->offset;
    tk_stack_thread *t = tk_callstacks_thread(&c->stacks, &ev);
    uint64_t before = t ? t->unmatched_exits : 0;
    tk_status st = tk_callstacks_feed(&c->stacks, &ev, err);
    if (st != TK_OK) return st;
    t = &c->stacks.threads[ev.thread];
    if (t->unmatched_exits > before)
        problem(c, TK_SEV_WARNING, REP_UNMATCHED, rec->offset,
                "%s of function %" PRIu32 " on thread %" PRId32 " without a matching entry",
                tk_xray_kind_name(rec->kind), rec->func_id, rec->tid);
    return TK_OK;
}

static void check_basic(checker *c, const tk_xray_record *rec)
{
    if (rec->kind == TK_XRAY_ARG_PAYLOAD &&
        (c->prev != TK_XRAY_ENTER_ARGS && c->prev != TK_XRAY_ARG_PAYLOAD))
        problem(c, TK_SEV_ERROR, -1, rec->offset,
                "argument payload after %s (expected it "
                "right after enter-args)",
                tk_xray_kind_name(c->prev));
    c->prev = rec->kind;
}

tk_status tk_xray_check(tk_input *in, const tk_xray_map *map, tk_diag *diag,
                        tk_xray_check_summary *sum, tk_error *err)
{
    memset(sum, 0, sizeof *sum);
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.diag = diag;
    opt.file_order = 1;
    opt.release_pages = 1; /* one pass: give finished buffers back (re-reading one stays correct) */
    tk_xray_reader *r;
    tk_status st = tk_xray_open(&r, in, &opt, err);
    if (st != TK_OK) {
        tk_diag_error(diag, err);
        return TK_OK;
    }
    checker c;
    memset(&c, 0, sizeof c);
    c.path = tk_input_path(in);
    c.diag = diag;
    c.h = tk_xray_get_header(r);
    c.map = map;
    c.prev = TK_XRAY_BUFFER_EXTENTS;
    tk_callstacks_init(&c.stacks, NULL, NULL, NULL);
    if (c.h->type == TK_XRAY_BASIC && tk_xray_content_size(r) == TK_XRAY_HEADER_SIZE)
        problem(&c, TK_SEV_WARNING, -1, TK_XRAY_HEADER_SIZE,
                "basic-mode log without records "
                "(the program logged nothing; llvm-xray rejects such a file)");
    if (c.h->type == TK_XRAY_FDR && c.h->version == 1 && c.h->buffer_size &&
        (tk_xray_content_size(r) - TK_XRAY_HEADER_SIZE) % c.h->buffer_size)
        problem(&c, TK_SEV_ERROR, -1, tk_xray_content_size(r),
                "truncated version-1 buffer: "
                "the file is not a whole number of %" PRIu64 "-byte buffers",
                c.h->buffer_size);
    tk_xray_record rec;
    while ((st = tk_xray_next(r, &rec, err)) == TK_OK) {
        sum->records++;
        if (c.h->type == TK_XRAY_FDR)
            check_fdr_grammar(&c, &rec);
        else
            check_basic(&c, &rec);
        if (c.h->type == TK_XRAY_FDR) check_time(&c, &rec);
        st = check_calls(&c, &rec, err);
        if (st != TK_OK) break;
    }
    if (st == TK_END) {
        st = TK_OK;
    } else if (st != TK_OK) {
        tk_diag_error(diag, err);
        st = TK_OK;
    }
    static const char *const what[REP_NKINDS] = {"exits without entries", "TSC regressions",
                                                 "unknown function ids"};
    for (int i = 0; i < REP_NKINDS; i++)
        if (c.suppressed[i]) {
            tk_location loc = {c.path, -1, 0, 0};
            tk_diag_report(diag, TK_SEV_NOTE, &loc, "%" PRIu64 " more %s not shown",
                           c.suppressed[i], what[i]);
        }
    for (uint32_t i = 0; i < c.stacks.nthreads; i++) sum->open_calls += c.stacks.threads[i].depth;
    sum->threads = c.stacks.nthreads;
    sum->buffers = tk_xray_buffer_count(r);
    tk_callstacks_free(&c.stacks);
    tk_hmap_free(&c.thread_of);
    tk_hmap_free(&c.bad_ids);
    tk_xray_free(r);
    return st;
}
