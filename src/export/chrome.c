/* Chrome trace-event / Perfetto JSON from an events stream, written with hand-rolled number
 * formatting into a block buffer (export/text_out.h: the export of a big trace is dominated by
 * formatting). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/arena.h"
#include "core/hash.h"
#include "core/num.h"
#include "export/text_out.h"
#include "tracekit/textout.h"
#include "model/events.h"
#include "tracekit/viewers.h"

#define NAME_DIRECT_MAX (1u << 22)

/* ns as microseconds with exactly 3 decimals. */
static inline void ob_micros(outbuf *o, int64_t ns)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0) ob_write(o, "-", 1);
    ob_u64(o, a / 1000);
    char *p = ob_room(o, 4);
    unsigned frac = (unsigned)(a % 1000);
    p[0] = '.';
    p[1] = (char)('0' + frac / 100);
    p[2] = (char)('0' + frac / 10 % 10);
    p[3] = (char)('0' + frac % 10);
    o->len += 4;
    ob_settle(o);
}

/* Formatting into reserved room: p has at least 64 bytes free (tmp digits are copied as a fixed
 * 24-byte block, so the bytes after the number are scratch until overwritten). */
static inline char *put_u64_at(char *p, uint64_t v)
{
    char tmp[48];
    char *e = tmp + 24, *q = e;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        q -= 2;
        memcpy(q, digit_pairs + 2 * d, 2);
    }
    if (v >= 10) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * v, 2);
    } else {
        *--q = (char)('0' + v);
    }
    memcpy(p, q, 24);
    return p + (e - q);
}

static inline char *put_micros_at(char *p, int64_t ns)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0) *p++ = '-';
    p = put_u64_at(p, a / 1000);
    unsigned frac = (unsigned)(a % 1000);
    p[0] = '.';
    p[1] = (char)('0' + frac / 100);
    memcpy(p + 2, digit_pairs + 2 * (frac % 100), 2);
    return p + 4;
}

/* A JSON string literal (quotes included) of arbitrary bytes, in the arena. */
static void json_quote(tk_arena *a, const char *s, size_t n, const char **out, size_t *outlen)
{
    char *q = tk_arena_alloc(a, TK_JSON_QUOTED_MAX(n));
    if (!q) {
        *out = "\"?\"";
        *outlen = 3;
        return;
    }
    *outlen = tk_json_quote(q, s, n);
    *out = q;
}

typedef struct arg_slot {
    uint32_t nargs;
    uint64_t args[6];
} arg_slot;

typedef struct thread_args {
    arg_slot *slots;
    uint32_t cap;
} thread_args;

typedef struct chrome {
    const tk_event_source *src;
    outbuf *out;
    double scale; /* ns per tick */
    uint64_t start;
    tk_arena names;
    tk_hmap name_of; /* func -> index in name_str + 1 (large ids) */
    uint32_t *name_direct; /* func -> index + 1, for ids below NAME_DIRECT_MAX */
    uint32_t name_direct_cap;
    char **ids; /* per thread: ",\"pid\":P,\"tid\":T" */
    size_t *ids_len;
    uint32_t nids;
    const char **name_str;
    size_t *name_len;
    size_t nnames, capnames;
    thread_args *targs;
    uint32_t ntargs;
    int first;
    int failed;
    /* several traces (src a tk_event_chain): the process key of each thread (process_key) */
    tk_event_chain *chain;
    tk_process_keyer first_part; /* the pids of the parts seen */
    int64_t *keys; /* per thread index */
    uint8_t *key_set;
    uint32_t nkeys;
} chrome;

/* Several traces are several processes, even when their pids are equal (ranks of one job on
 * different nodes): a thread of part K (0-based, of the chain or of the join) is written with
 * its process key (tk_event_process_keys: K * 10^10 + its pid when an earlier part had that
 * pid, else its pid), noted in first, which has every thread of the parts before K by then.
 * *nomem is set when first cannot grow. */
static int64_t process_key(tk_process_keyer *first, int64_t pid, size_t k, int *nomem)
{
    if (tk_process_keyer_note(first, pid, (uint32_t)k) != 0) *nomem = 1;
    return tk_process_keyer_key(first, pid, (uint32_t)k);
}

/* A thread of the chain's current part seen: its key, when it is new. */
static void note_thread(chrome *c, uint32_t thread, int64_t pid)
{
    if (thread < c->nkeys && c->key_set[thread]) return;
    if (thread >= c->nkeys) {
        uint32_t n = c->nkeys ? c->nkeys : 16;
        while (n <= thread) n *= 2;
        int64_t *nk = tk_reallocarray(c->keys, n, sizeof *nk);
        uint8_t *ns = nk ? tk_realloc(c->key_set, n) : NULL;
        if (nk) c->keys = nk;
        if (!nk || !ns) {
            c->failed = 1;
            return;
        }
        memset(ns + c->nkeys, 0, n - c->nkeys);
        c->key_set = ns;
        c->nkeys = n;
    }
    c->keys[thread] = process_key(&c->first_part, pid, c->chain->cur, &c->failed);
    c->key_set[thread] = 1;
}

/* The pid written for a thread: its process key. */
static int64_t thread_pid(const chrome *c, uint32_t thread, int64_t pid)
{
    return c->chain && thread < c->nkeys && c->key_set[thread] ? c->keys[thread] : pid;
}

/* A non-negative tick count in ns, rounded; saturates instead of overflowing. */
static inline int64_t scaled(const chrome *c, uint64_t ticks)
{
    double ns = (double)ticks * c->scale + 0.5;
    return ns < 9.2e18 ? (int64_t)ns : INT64_MAX;
}

static int64_t to_ns(const chrome *c, uint64_t t)
{
    if (t >= c->start) return scaled(c, t - c->start);
    return -scaled(c, c->start - t);
}

static void sep(chrome *c)
{
    if (c->first) {
        c->first = 0;
        ob_write(c->out, "\n", 1);
    } else {
        ob_write(c->out, ",\n", 2);
    }
}

static void put_name(chrome *c, uint64_t func)
{
    uint32_t *direct = NULL;
    if (func < NAME_DIRECT_MAX) {
        if (func >= c->name_direct_cap) {
            uint32_t ncap = c->name_direct_cap ? c->name_direct_cap : 256;
            while (ncap <= func) ncap *= 2;
            uint32_t *nd = tk_reallocarray(c->name_direct, ncap, sizeof *nd);
            if (!nd) {
                c->failed = 1;
                ob_write(c->out, "\"?\"", 3);
                return;
            }
            memset(nd + c->name_direct_cap, 0, (ncap - c->name_direct_cap) * sizeof *nd);
            c->name_direct = nd;
            c->name_direct_cap = ncap;
        }
        direct = &c->name_direct[func];
        if (*direct) {
            ob_write(c->out, c->name_str[*direct - 1], c->name_len[*direct - 1]);
            return;
        }
    }
    int inserted = 1;
    uint64_t *slot = NULL;
    if (!direct) {
        slot = tk_hmap_slot(&c->name_of, func, c->nnames, &inserted);
        if (!slot) {
            c->failed = 1;
            ob_write(c->out, "\"?\"", 3);
            return;
        }
    }
    size_t index = slot ? (size_t)*slot : c->nnames;
    if (inserted) {
        if (c->nnames == c->capnames) {
            size_t ncap = c->capnames ? c->capnames * 2 : 256;
            const char **ns = tk_reallocarray(c->name_str, ncap, sizeof *ns);
            size_t *nl = ns ? tk_reallocarray(c->name_len, ncap, sizeof *nl) : NULL;
            if (ns) c->name_str = ns;
            if (!ns || !nl) {
                c->failed = 1;
                ob_write(c->out, "\"?\"", 3);
                return;
            }
            c->name_len = nl;
            c->capnames = ncap;
        }
        char buf[64];
        const char *name = tk_event_func_name(c->src, func, buf, sizeof buf);
        json_quote(&c->names, name, strlen(name), &c->name_str[c->nnames], &c->name_len[c->nnames]);
        index = c->nnames++;
        if (direct) *direct = (uint32_t)index + 1;
    }
    ob_write(c->out, c->name_str[index], c->name_len[index]);
}

static void put_ids(chrome *c, int64_t pid, int64_t tid)
{
    ob_write(c->out, ",\"pid\":", 7);
    ob_i64(c->out, pid);
    ob_write(c->out, ",\"tid\":", 7);
    ob_i64(c->out, tid);
}

/* The pid/tid members of a thread's events, formatted once. */
static void put_thread_ids(chrome *c, const tk_stack_thread *t)
{
    if (t->index >= c->nids) {
        uint32_t n = t->index + 1;
        char **ni = tk_reallocarray(c->ids, n, sizeof *ni);
        size_t *nl = ni ? tk_reallocarray(c->ids_len, n, sizeof *nl) : NULL;
        if (ni) c->ids = ni;
        if (!ni || !nl) {
            c->failed = 1;
            return;
        }
        c->ids_len = nl;
        for (uint32_t i = c->nids; i < n; i++) c->ids[i] = NULL;
        c->nids = n;
    }
    if (!c->ids[t->index]) {
        char buf[64];
        int len = snprintf(buf, sizeof buf, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64,
                           thread_pid(c, t->index, t->pid), t->tid);
        c->ids[t->index] = tk_arena_strndup(&c->names, buf, (size_t)len);
        c->ids_len[t->index] = (size_t)len;
        if (!c->ids[t->index]) {
            c->failed = 1;
            return;
        }
    }
    ob_write(c->out, c->ids[t->index], c->ids_len[t->index]);
}

static void on_open(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth,
                    const tk_event *ev)
{
    (void)f;
    chrome *c = ctx;
    if (t->index >= c->ntargs) {
        uint32_t n = t->index + 1;
        thread_args *nt = tk_reallocarray(c->targs, n, sizeof *nt);
        if (!nt) {
            c->failed = 1;
            return;
        }
        memset(nt + c->ntargs, 0, (n - c->ntargs) * sizeof *nt);
        c->targs = nt;
        c->ntargs = n;
    }
    thread_args *ta = &c->targs[t->index];
    if (depth > ta->cap) {
        uint32_t ncap = ta->cap ? ta->cap : 64;
        while (ncap < depth) ncap *= 2;
        arg_slot *ns = tk_reallocarray(ta->slots, ncap, sizeof *ns);
        if (!ns) {
            c->failed = 1;
            return;
        }
        /* frames pushed without on_open (the batch loop) find no arguments here */
        memset(ns + ta->cap, 0, (ncap - ta->cap) * sizeof *ns);
        ta->slots = ns;
        ta->cap = ncap;
    }
    arg_slot *s = &ta->slots[depth - 1];
    s->nargs = ev->nargs < 6 ? ev->nargs : 6;
    for (uint32_t i = 0; i < s->nargs; i++) s->args[i] = ev->args[i];
}

static void on_close(void *ctx, const tk_stack_thread *t, const tk_frame *f, uint32_t depth,
                     uint64_t end, uint64_t duration, uint64_t self, tk_close_how how)
{
    (void)end;
    (void)self;
    chrome *c = ctx;
    outbuf *o = c->out;
    sep(c);
    ob_write(o, "{\"name\":", 8);
    put_name(c, f->func);
    ob_write(o, ",\"ph\":\"X\",\"ts\":", 15);
    ob_micros(o, to_ns(c, f->start));
    ob_write(o, ",\"dur\":", 7);
    ob_micros(o, scaled(c, duration));
    put_thread_ids(c, t);
    const arg_slot *s = t->index < c->ntargs && depth <= c->targs[t->index].cap
                            ? &c->targs[t->index].slots[depth - 1]
                            : NULL;
    uint32_t nargs = s ? s->nargs : 0;
    if (nargs || how != TK_CLOSE_MATCHED) {
        ob_write(o, ",\"args\":{", 9);
        int any = 0;
        for (uint32_t i = 0; i < nargs; i++) {
            char key[16];
            int n = snprintf(key, sizeof key, "%s\"arg%u\":", any ? "," : "", i);
            ob_write(o, key, (size_t)n);
            ob_u64(o, s->args[i]);
            any = 1;
        }
        if (how == TK_CLOSE_AT_END) {
            ob_puts(o, any ? ",\"open\":true" : "\"open\":true");
        } else if (how == TK_CLOSE_UNWOUND) {
            ob_puts(o, any ? ",\"unwound\":true" : "\"unwound\":true");
        }
        ob_write(o, "}", 1);
    }
    ob_write(o, "}", 1);
    if (s) c->targs[t->index].slots[depth - 1].nargs = 0;
}

/* The common complete event (a matched call without arguments, its name and thread ids
 * already formatted), written into one reserved stretch of the buffer; everything else goes
 * through on_close. */
static inline __attribute__((always_inline)) void on_close_fast(void *ctx, const tk_stack_thread *t,
                                                                const tk_frame *f, uint32_t depth,
                                                                uint64_t end, uint64_t duration,
                                                                uint64_t self, tk_close_how how)
{
    chrome *c = ctx;
    uint64_t func = f->func;
    uint32_t ti = t->index, name = 0;
    if (func < c->name_direct_cap) name = c->name_direct[func];
    if (how != TK_CLOSE_MATCHED || !name || c->first || ti >= c->nids || !c->ids[ti] ||
        (ti < c->ntargs && depth <= c->targs[ti].cap && c->targs[ti].slots[depth - 1].nargs)) {
        on_close(ctx, t, f, depth, end, duration, self, how);
        return;
    }
    size_t nlen = c->name_len[name - 1], ilen = c->ids_len[ti];
    if (nlen + ilen > 800) {
        on_close(ctx, t, f, depth, end, duration, self, how);
        return;
    }
    outbuf *o = c->out;
    char *p = ob_room(o, nlen + ilen + 200);
    memcpy(p, ",\n{\"name\":", 10);
    p += 10;
    memcpy(p, c->name_str[name - 1], nlen);
    p += nlen;
    memcpy(p, ",\"ph\":\"X\",\"ts\":", 15);
    p = put_micros_at(p + 15, to_ns(c, f->start));
    memcpy(p, ",\"dur\":", 7);
    p = put_micros_at(p + 7, scaled(c, duration));
    memcpy(p, c->ids[ti], ilen);
    p += ilen;
    *p++ = '}';
    o->len = (size_t)(p - o->buf);
    ob_settle(o);
}

static void put_payload(chrome *c, const uint8_t *data, size_t size)
{
    int printable = 1;
    for (size_t i = 0; i < size; i++)
        if (data[i] < 0x20 || data[i] > 0x7e) printable = 0;
    if (printable) {
        tk_arena tmp = TK_ARENA_INIT;
        const char *q;
        size_t n;
        json_quote(&tmp, (const char *)data, size, &q, &n);
        ob_write(c->out, q, n);
        tk_arena_free(&tmp);
        return;
    }
    ob_write(c->out, "\"0x", 3);
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < size; i++) {
        char *p = ob_room(c->out, 2);
        p[0] = hex[data[i] >> 4];
        p[1] = hex[data[i] & 15];
        c->out->len += 2;
        ob_settle(c->out);
    }
    ob_write(c->out, "\"", 1);
}

/* An instant event of the thread with this index (a batch's events carry the index their own
 * source gave them: a chain offsets the batch's only). */
static void put_instant(chrome *c, const tk_event *ev, uint32_t thread)
{
    outbuf *o = c->out;
    sep(c);
    ob_puts(o, ev->kind == TK_EVENT_TYPED ? "{\"name\":\"typed-event\""
                                          : "{\"name\":\"custom-event\"");
    ob_puts(o, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
    ob_micros(o, to_ns(c, ev->time));
    put_ids(c, thread_pid(c, thread, ev->pid), ev->tid);
    ob_puts(o, ",\"args\":{");
    if (ev->kind == TK_EVENT_TYPED) {
        ob_puts(o, "\"type\":");
        ob_u64(o, ev->type);
        ob_puts(o, ",");
    }
    ob_puts(o, "\"data\":");
    put_payload(c, ev->data, ev->size);
    ob_puts(o, "}}");
}

/* Metadata: the order of processes and threads (by pid and tid). No process_name or
 * thread_name: the trace knows no names, and viewers label a thread by its ids already
 * (speedscope "pid P, tid T", Perfetto "Process P" / "Thread T"); names made of the ids read
 * "pid 10443 (pid 10443), thread 10445 (tid 10445)" in speedscope. One thread's, after those of
 * the threads before it (seen: the pids that had theirs). */
static void put_thread_metadata(chrome *c, tk_hmap *seen, int64_t pid, int64_t tid)
{
    char buf[160];
    if (!tk_hmap_get(seen, (uint64_t)pid, NULL)) {
        if (tk_hmap_put(seen, (uint64_t)pid, 1) < 0) c->failed = 1;
        sep(c);
        snprintf(buf, sizeof buf,
                 "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%" PRId64
                 ",\"args\":{\"sort_index\":%" PRId64 "}}",
                 pid, pid);
        ob_puts(c->out, buf);
    }
    sep(c);
    snprintf(buf, sizeof buf,
             "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%" PRId64
             ",\"args\":{\"sort_index\":%" PRId64 "}}",
             pid, tid, tid);
    ob_puts(c->out, buf);
}

static void put_metadata(chrome *c, const tk_callstacks *cs)
{
    tk_hmap seen = TK_HMAP_INIT;
    for (uint32_t i = 0; i < cs->nthreads; i++)
        if (cs->threads[i].events)
            put_thread_metadata(c, &seen, thread_pid(c, i, cs->threads[i].pid), cs->threads[i].tid);
    tk_hmap_free(&seen);
}

/* The end of the trace: the clock of the source. */
static void put_tail(outbuf *o, const char *time_unit, double ticks_per_second)
{
    char tail[256];
    snprintf(tail, sizeof tail,
             "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"version\":1,"
             "\"producer\":\"tracekit\",\"clock\":\"%s\",\"ticks_per_second\":%.0f}}\n",
             time_unit ? time_unit : "ticks", ticks_per_second);
    ob_puts(o, tail);
}

/* The same walk through batches with their arguments and events (no per-record call into the
 * source). Returns TK_END at the end, like a source. */
static tk_status run_batches(chrome *c, tk_callstacks *cs, const tk_event_source *src,
                             tk_error *err)
{
    tk_event_batch b;
    tk_status st;
    tk_event ev;
    memset(&ev, 0, sizeof ev);
    while ((st = src->next_batch(src->ctx, &b, TK_BATCH_EXTRAS, err)) == TK_OK) {
        if (c->chain) note_thread(c, b.thread, b.pid);
        ev.thread = b.thread;
        ev.pid = b.pid;
        ev.tid = b.tid;
        size_t a = 0, x = 0, i = 0;
        for (;;) {
            for (; x < b.nextra && b.extra_at[x] == i; x++) {
                /* the batch's thread: a chain offsets the batch's index, not its events' */
                tk_event xe = b.extra[x];
                xe.thread = b.thread;
                put_instant(c, &xe, b.thread);
                st = tk_callstacks_feed(cs, &xe, err);
                if (st != TK_OK) return st;
            }
            if (i >= b.n) break;
            /* the calls up to the next event or enter with arguments: the inline loop */
            size_t stop = b.n;
            if (x < b.nextra && b.extra_at[x] < stop) stop = b.extra_at[x];
            if (a < b.nargs && b.arg_at[a] < stop) stop = b.arg_at[a];
            if (stop > i) {
                tk_event_batch seg = b;
                seg.n = stop - i;
                seg.kind = b.kind + i;
                seg.func = b.func + i;
                seg.time = b.time + i;
                st = tk_callstacks_feed_batch_with(cs, &seg, on_close_fast, c,
                                                   TK_FEED_NO_PATHS | TK_FEED_NO_OPEN, err);
                if (st != TK_OK) return st;
                i = stop;
                continue;
            }
            /* an enter with arguments: on_open keeps them for its close */
            ev.kind = (tk_event_kind)b.kind[i];
            ev.func = b.func[i];
            ev.time = b.time[i];
            ev.nargs = b.arg_count[a];
            ev.args = b.arg_values + a * TK_BATCH_MAX_ARGS;
            a++;
            i++;
            st = tk_callstacks_feed(cs, &ev, err);
            if (st != TK_OK) return st;
        }
    }
    return st;
}

/* Every event of src fed, its calls and instant events written as they close. Returns TK_END
 * at the end of the source, else its error or the stacks'. */
static tk_status run_events(chrome *c, tk_callstacks *cs, const tk_event_source *src, tk_error *err)
{
    if (src->next_batch) return run_batches(c, cs, src, err);
    tk_event ev;
    tk_status st;
    while ((st = src->next(src->ctx, &ev, err)) == TK_OK) {
        if (c->chain) note_thread(c, ev.thread, ev.pid);
        if (ev.kind == TK_EVENT_CUSTOM || ev.kind == TK_EVENT_TYPED) put_instant(c, &ev, ev.thread);
        st = tk_callstacks_feed(cs, &ev, err);
        if (st != TK_OK) break;
    }
    return st;
}

/* c over src's clock from start, writing into o; its first event opens the list when first. */
static void chrome_init(chrome *c, const tk_event_source *src, uint64_t start, outbuf *o, int first)
{
    memset(c, 0, sizeof *c);
    c->src = src;
    c->out = o;
    c->scale = src && src->ticks_per_second > 0 ? 1e9 / src->ticks_per_second : 1.0;
    c->start = start;
    c->first = first;
    tk_arena_init(&c->names);
}

static void chrome_free(chrome *c)
{
    for (uint32_t i = 0; i < c->ntargs; i++) tk_free(c->targs[i].slots);
    tk_free(c->targs);
    tk_free(c->name_str);
    tk_free(c->name_direct);
    tk_free(c->ids);
    tk_free(c->ids_len);
    tk_free(c->name_len);
    tk_hmap_free(&c->name_of);
    tk_arena_free(&c->names);
    tk_process_keyer_free(&c->first_part);
    tk_free(c->keys);
    tk_free(c->key_set);
}

/* The status at the end of a trace written whole: what failed on the way. */
static tk_status end_status(int nomem, const outbuf *o, tk_error *err)
{
    if (nomem) return tk_error_set(err, TK_ERR_NOMEM, "out of memory writing the Chrome trace");
    if (o->failed)
        return tk_error_set(err, TK_ERR_IO, "cannot write the Chrome trace: %s",
                            strerror(o->failed));
    return TK_OK;
}

tk_status tk_export_chrome(const tk_event_source *src, const tk_writer *out, tk_error *err)
{
    if (!out || !out->write) return tk_error_set(err, TK_ERR_ARG, "no writer");
    outbuf *o = outbuf_open(out);
    if (!o) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    chrome c;
    chrome_init(&c, src, src->start_time, o, 1);
    c.chain = tk_event_chain_of(src);
    tk_callstacks cs;
    tk_callstacks_init(&cs, on_open, on_close, &c);
    ob_puts(o, "{\"traceEvents\":[");
    tk_status st = run_events(&c, &cs, src, err);
    if (st == TK_END) {
        tk_callstacks_finish(&cs);
        put_metadata(&c, &cs);
        put_tail(o, src->time_unit, src->ticks_per_second);
        ob_flush(o);
        st = end_status(c.failed, o, err);
    }
    tk_callstacks_free(&cs);
    chrome_free(&c);
    tk_free(o);
    return st;
}

/* ---- a trace of sources chained, made part by part ------------------------------------ */

struct tk_chrome_part {
    tk_text_blocks body; /* its events, each after ",\n" */
    tk_text_blocks tail; /* the calls open at its end, closed */
    int64_t *ids; /* pid, tid of each thread with events, in the order of their index */
    uint32_t nthreads;
    int nomem; /* a name or a thread's record could not be kept ("?" written instead) */
    tk_status st; /* the reading: TK_OK or err */
    tk_error err;
};

struct tk_chrome_join {
    outbuf *o;
    chrome c; /* its first and failed, for the separators and the metadata */
    uint64_t start; /* the chain's start_time */
    tk_text_pool pool; /* the parts' blocks */
    char *tails; /* the parts' open calls, written at the end */
    size_t tails_len, tails_cap;
    int64_t *ids; /* process key, tid of the parts' threads */
    size_t nthreads, cap;
    size_t nparts; /* parts added */
    tk_process_keyer first_part; /* as a chain's Chrome trace's (process_key) */
    char *time_unit; /* the source's */
    double ticks_per_second;
};

void tk_chrome_part_free(tk_chrome_part *p)
{
    if (!p) return;
    tk_text_blocks_free(&p->body);
    tk_text_blocks_free(&p->tail);
    tk_free(p->ids);
    tk_free(p);
}

/* The threads of cs that had events, into p. 0 or -1 (out of memory). */
static int part_threads(tk_chrome_part *p, const tk_callstacks *cs)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < cs->nthreads; i++) n += cs->threads[i].events != 0;
    if (!n) return 0;
    p->ids = tk_reallocarray(NULL, n, 2 * sizeof *p->ids);
    if (!p->ids) return -1;
    for (uint32_t i = 0; i < cs->nthreads; i++) {
        if (!cs->threads[i].events) continue;
        p->ids[2 * p->nthreads] = cs->threads[i].pid;
        p->ids[2 * p->nthreads++ + 1] = cs->threads[i].tid;
    }
    return 0;
}

tk_status tk_chrome_part_open(tk_chrome_part **out, tk_chrome_join *j, const tk_event_source *src,
                              tk_error *err)
{
    *out = NULL;
    tk_chrome_part *p = tk_calloc(1, sizeof *p);
    tk_writer w = {tk_text_blocks_write, p ? &p->body : NULL};
    outbuf *o = p ? outbuf_open(&w) : NULL;
    if (!o) {
        tk_free(p);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    p->body.pool = p->tail.pool = &j->pool;
    chrome c;
    chrome_init(&c, src, j->start, o, 0);
    tk_callstacks cs;
    tk_callstacks_init(&cs, on_open, on_close, &c);
    tk_error_clear(&p->err);
    p->st = run_events(&c, &cs, src, &p->err);
    ob_flush(o); /* the events before an error too: what tk_export_chrome writes of them */
    if (p->st == TK_END) {
        p->st = TK_OK;
        o->w.ctx = &p->tail;
        tk_callstacks_finish(&cs);
        ob_flush(o);
    }
    if (part_threads(p, &cs) != 0) c.failed = 1; /* a failed part's too: its pids' keys */
    p->nomem = c.failed;
    int lost = o->failed != 0;
    tk_callstacks_free(&cs);
    chrome_free(&c);
    tk_free(o);
    if (lost) {
        tk_chrome_part_free(p);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory keeping a part of the Chrome trace");
    }
    *out = p;
    return TK_OK;
}

tk_status tk_chrome_part_status(const tk_chrome_part *p, tk_error *err)
{
    if (p->st != TK_OK && err) *err = p->err;
    return p->st;
}

tk_status tk_chrome_join_open(tk_chrome_join **out, const tk_event_source *src, const tk_writer *w,
                              tk_error *err)
{
    *out = NULL;
    if (!w || !w->write) return tk_error_set(err, TK_ERR_ARG, "no writer");
    const char *unit = src->time_unit ? src->time_unit : "ticks";
    tk_chrome_join *j = tk_calloc(1, sizeof *j);
    if (j) j->o = outbuf_open(w);
    if (j) j->time_unit = tk_malloc(strlen(unit) + 1);
    if (!j || !j->o || !j->time_unit || tk_text_pool_init(&j->pool) != 0) {
        if (j) tk_free(j->o);
        if (j) tk_free(j->time_unit);
        tk_free(j);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    chrome_init(&j->c, NULL, 0, j->o, 1);
    memcpy(j->time_unit, unit, strlen(unit) + 1);
    j->ticks_per_second = src->ticks_per_second;
    j->start = src->start_time;
    ob_puts(j->o, "{\"traceEvents\":[");
    *out = j;
    return TK_OK;
}

/* Text of a part (its events each after ",\n") after what the join wrote: the comma dropped
 * before the first event of the trace. */
static void join_text(tk_chrome_join *j, const char *s, size_t n)
{
    if (!n) return;
    if (j->c.first) {
        j->c.first = 0;
        s++;
        n--;
    }
    ob_write(j->o, s, n);
}

/* Text of a part's open calls kept for the end (j->c.failed when out of memory). */
static void join_tail_text(tk_chrome_join *j, const char *s, size_t n)
{
    if (j->tails_len + n > j->tails_cap) {
        size_t ncap = j->tails_cap ? j->tails_cap : 4096;
        while (ncap < j->tails_len + n) ncap *= 2;
        char *nt = tk_realloc(j->tails, ncap);
        if (!nt) {
            j->c.failed = 1;
            return;
        }
        j->tails = nt;
        j->tails_cap = ncap;
    }
    memcpy(j->tails + j->tails_len, s, n);
    j->tails_len += n;
}

/* The pids of a part whose process keys are not their pids (process_key), and the state of a
 * scan of its text for the members ,"pid":P (which a JSON string cannot hold: its quotes are
 * escaped): m bytes of it matched, the digits after it held back in num. */
typedef struct pid_remap {
    int64_t *from, *to;
    size_t n;
    size_t m, nnum;
    char num[24];
} pid_remap;

static const char PID_MEMBER[] = ",\"pid\":";

typedef void (*join_emit_fn)(tk_chrome_join *j, const char *s, size_t n);

/* The pid held back, or its key. */
static void remap_number(tk_chrome_join *j, pid_remap *r, join_emit_fn emit)
{
    int64_t v;
    if (tk_num_parse_signed(r->num, r->nnum, TK_NUM_DEC | TK_NUM_SIGN, &v) == TK_OK) {
        for (size_t i = 0; i < r->n; i++) {
            if (r->from[i] != v) continue;
            char buf[24];
            int len = snprintf(buf, sizeof buf, "%" PRId64, r->to[i]);
            emit(j, buf, (size_t)len);
            return;
        }
    }
    emit(j, r->num, r->nnum);
}

/* s (n bytes of a part's text, which may cut a member anywhere) with r's pids as their keys. */
static void remap_text(tk_chrome_join *j, pid_remap *r, const char *s, size_t n, join_emit_fn emit)
{
    const size_t member = sizeof PID_MEMBER - 1;
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (r->m == member) {
            if (((ch == '-' && !r->nnum) || (ch >= '0' && ch <= '9')) && r->nnum < sizeof r->num) {
                r->num[r->nnum++] = ch;
                run = i + 1;
                continue;
            }
            remap_number(j, r, emit);
            r->nnum = 0;
            r->m = 0;
            run = i;
        }
        r->m = ch == PID_MEMBER[r->m] ? r->m + 1 : ch == ',';
        if (r->m == member) {
            emit(j, s + run, i + 1 - run);
            run = i + 1;
        }
    }
    if (n > run) emit(j, s + run, n - run);
}

/* The keys of part k's threads (p->ids: pid, tid), the pids of earlier parts first in j, into
 * r; its pids then noted as part k's. 0 or -1 (out of memory). */
static int part_remap(tk_chrome_join *j, const tk_chrome_part *p, size_t k, pid_remap *r)
{
    memset(r, 0, sizeof *r);
    int nomem = 0;
    for (uint32_t i = 0; i < p->nthreads; i++) {
        int64_t pid = p->ids[2 * i], key = process_key(&j->first_part, pid, k, &nomem);
        size_t at = 0;
        while (at < r->n && r->from[at] != pid) at++;
        if (key == pid || at < r->n) continue;
        if (!r->from) {
            r->from = tk_reallocarray(NULL, p->nthreads, 2 * sizeof *r->from);
            if (!r->from) return -1;
            r->to = r->from + p->nthreads;
        }
        r->from[r->n] = pid;
        r->to[r->n++] = key;
    }
    return nomem ? -1 : 0;
}

/* p's tail and threads (with their keys) kept for the end. 0 or -1 (out of memory). */
static int join_keep(tk_chrome_join *j, const tk_chrome_part *p, pid_remap *r)
{
    for (size_t i = 0; i < p->tail.n; i++) {
        if (r->n)
            remap_text(j, r, p->tail.data[i], tk_text_blocks_len(&p->tail, i), join_tail_text);
        else
            join_tail_text(j, p->tail.data[i], tk_text_blocks_len(&p->tail, i));
    }
    if (j->c.failed) return -1;
    if (!p->nthreads) return 0;
    if (j->nthreads + p->nthreads > j->cap) {
        size_t ncap = j->cap ? j->cap : 16;
        while (ncap < j->nthreads + p->nthreads) ncap *= 2;
        int64_t *ni = tk_reallocarray(j->ids, ncap, 2 * sizeof *ni);
        if (!ni) return -1;
        j->ids = ni;
        j->cap = ncap;
    }
    memcpy(j->ids + 2 * j->nthreads, p->ids, 2 * p->nthreads * sizeof *p->ids);
    for (size_t i = 0; i < p->nthreads; i++)
        for (size_t m = 0; m < r->n; m++)
            if (j->ids[2 * (j->nthreads + i)] == r->from[m]) {
                j->ids[2 * (j->nthreads + i)] = r->to[m];
                break;
            }
    j->nthreads += p->nthreads;
    return 0;
}

tk_status tk_chrome_join_add(tk_chrome_join *j, const tk_chrome_part *p, tk_error *err)
{
    pid_remap r;
    if (part_remap(j, p, j->nparts++, &r) != 0) j->c.failed = 1;
    for (size_t i = 0; i < p->body.n; i++) {
        if (r.n)
            remap_text(j, &r, p->body.data[i], tk_text_blocks_len(&p->body, i), join_text);
        else
            join_text(j, p->body.data[i], tk_text_blocks_len(&p->body, i));
    }
    r.m = r.nnum = 0;
    tk_status st = p->st;
    if (st != TK_OK) {
        if (err) *err = p->err;
    } else if (p->nomem || join_keep(j, p, &r) != 0) {
        j->c.failed = 1;
    }
    tk_free(r.from);
    return st;
}

tk_status tk_chrome_join_finish(tk_chrome_join *j, tk_error *err)
{
    join_text(j, j->tails, j->tails_len);
    tk_hmap seen = TK_HMAP_INIT;
    for (size_t i = 0; i < j->nthreads; i++)
        put_thread_metadata(&j->c, &seen, j->ids[2 * i], j->ids[2 * i + 1]);
    tk_hmap_free(&seen);
    put_tail(j->o, j->time_unit, j->ticks_per_second);
    ob_flush(j->o);
    return end_status(j->c.failed, j->o, err);
}

void tk_chrome_join_free(tk_chrome_join *j)
{
    if (!j) return;
    chrome_free(&j->c);
    tk_text_pool_free(&j->pool);
    tk_free(j->tails);
    tk_free(j->ids);
    tk_process_keyer_free(&j->first_part);
    tk_free(j->time_unit);
    tk_free(j->o);
    tk_free(j);
}
