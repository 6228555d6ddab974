/* XRay records as an events-model source. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "tracekit/events.h"
#include "formats/xray/xray_internal.h"

struct tk_xray_events {
    tk_xray_reader *reader;
    const tk_xray_map *map;
    tk_hmap thread_of; /* (pid << 32 | tid) -> dense index */
    uint32_t nthreads;
    tk_hmap unknown; /* function ids missing from the map */
    uint32_t map_count; /* functions in the map (ids 1..map_count) */
    uint64_t last_key; /* thread of the previous record, a one-entry cache */
    uint32_t last_thread;
    int have_last;
    uint32_t largest_unknown;
    tk_xray_record rec;
    /* batches */
    uint8_t kind[4096];
    uint64_t func[4096];
    uint64_t time[4096];
    uint32_t arg_at[512];
    uint8_t arg_count[512];
    uint64_t arg_values[512 * TK_XRAY_MAX_ARGS];
    tk_xray_record event_records[64];
    uint32_t event_at[64];
    tk_event extra[64];
    tk_packed_calls packed; /* handed out in the last batch when packed_out */
    int packed_out;
    size_t between; /* calls in the next batch of arrays between packed runs */
};

tk_status tk_xray_events_open(tk_xray_events **out, tk_xray_reader *r, const tk_xray_map *map,
                              tk_error *err)
{
    tk_xray_events *e = tk_calloc(1, sizeof *e);
    if (!e) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    e->reader = r;
    e->map = map;
    e->map_count = map ? tk_xray_map_count(map) : 0;
    *out = e;
    return TK_OK;
}

void tk_xray_events_free(tk_xray_events *e)
{
    if (!e) return;
    tk_hmap_free(&e->thread_of);
    tk_hmap_free(&e->unknown);
    tk_free(e);
}

uint64_t tk_xray_events_unknown_ids(const tk_xray_events *e, uint32_t *largest)
{
    if (largest) *largest = e->largest_unknown;
    return e->unknown.len;
}

/* The dense index of a thread (e->last_thread). */
static tk_status find_thread(tk_xray_events *e, int32_t pid, int32_t tid, tk_error *err)
{
    uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
    if (e->have_last && key == e->last_key) return TK_OK;
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&e->thread_of, key, e->nthreads, &inserted);
    if (!slot) return tk_error_set(err, TK_ERR_NOMEM, "out of memory tracking threads");
    if (inserted) e->nthreads++;
    e->last_key = key;
    e->last_thread = (uint32_t)*slot;
    e->have_last = 1;
    return TK_OK;
}

static tk_status events_next(void *ctx, tk_event *ev, tk_error *err)
{
    tk_xray_events *e = ctx;
    tk_xray_record *rec = &e->rec;
    for (;;) {
        tk_status st = tk_xray_next(e->reader, rec, err);
        if (st != TK_OK) return st;
        switch (rec->kind) {
        case TK_XRAY_ENTER:
        case TK_XRAY_ENTER_ARGS: ev->kind = TK_EVENT_ENTER; break;
        case TK_XRAY_EXIT: ev->kind = TK_EVENT_EXIT; break;
        case TK_XRAY_TAIL_EXIT: ev->kind = TK_EVENT_TAIL_EXIT; break;
        case TK_XRAY_CUSTOM_EVENT: ev->kind = TK_EVENT_CUSTOM; break;
        case TK_XRAY_TYPED_EVENT: ev->kind = TK_EVENT_TYPED; break;
        default: continue;
        }
        if ((st = find_thread(e, rec->pid, rec->tid, err)) != TK_OK) return st;
        ev->thread = e->last_thread;
        ev->pid = rec->pid;
        ev->tid = rec->tid;
        ev->cpu = rec->cpu;
        ev->time = rec->tsc;
        ev->func = xray_is_function(rec->kind) ? rec->func_id : 0;
        ev->nargs = rec->kind == TK_XRAY_ENTER_ARGS ? rec->nargs : 0;
        ev->args = rec->args;
        ev->type = rec->event_type;
        ev->size = rec->kind >= TK_XRAY_CUSTOM_EVENT ? (size_t)rec->event_size : 0;
        ev->data = rec->payload;
        ev->offset = rec->offset;
        if (e->map && xray_is_function(rec->kind) &&
            (rec->func_id == 0 || rec->func_id > e->map_count)) {
            if (tk_hmap_put(&e->unknown, rec->func_id, 1) < 0)
                return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            if (rec->func_id > e->largest_unknown) e->largest_unknown = rec->func_id;
        }
        return TK_OK;
    }
}

/* Ids of packed calls: those of the map (the others are recorded as unknown on the way), or
 * any but the invalid 0. */
#define PACKED_ANY_ID ((1u << 28) - 1)

static tk_status events_next_batch(void *ctx, tk_event_batch *b, unsigned flags, tk_error *err)
{
    tk_xray_events *e = ctx;
    int extras = (flags & TK_BATCH_EXTRAS) != 0;
    int packed = (flags & TK_BATCH_PACKED) && !extras;
    if (e->packed_out) {
        tk_xray_packed_taken(e->reader, &e->packed);
        e->packed_out = 0;
    }
    int32_t tid, pid;
    e->packed.id_limit = e->map ? e->map_count : PACKED_ANY_ID;
    if (packed && tk_xray_packed_calls(e->reader, &e->packed, &tid, &pid)) {
        tk_status st = find_thread(e, pid, tid, err);
        if (st != TK_OK) return st;
        memset(b, 0, sizeof *b);
        b->thread = e->last_thread;
        b->pid = pid;
        b->tid = tid;
        b->packed = &e->packed;
        e->packed_out = 1;
        e->between = 1;
        return TK_OK;
    }
    tk_xray_calls c;
    memset(&c, 0, sizeof c);
    c.kind = e->kind;
    c.func = e->func;
    c.tsc = e->time;
    c.cap = sizeof e->kind / sizeof *e->kind;
    if (packed) {
        /* the record a packed run stopped at (often one EnterArgs), then packed runs again as
         * soon as they can start; twice as many calls each time they cannot */
        if (e->between < c.cap) c.cap = e->between ? e->between : 1;
        e->between = c.cap * 2;
    }
    if (extras) {
        c.arg_at = e->arg_at;
        c.arg_count = e->arg_count;
        c.arg_values = e->arg_values;
        c.arg_cap = sizeof e->arg_at / sizeof *e->arg_at;
        c.events = e->event_records;
        c.event_at = e->event_at;
        c.event_cap = sizeof e->event_at / sizeof *e->event_at;
    }
    tk_status st = tk_xray_next_calls(e->reader, &c, err);
    if (st != TK_OK) return st;
    size_t n = c.n;
    uint64_t max_func = c.max_func;
    if ((st = find_thread(e, c.pid, c.tid, err)) != TK_OK) return st;
    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < c.nevents; i++) {
        const tk_xray_record *rec = &c.events[i];
        tk_event *ev = &e->extra[i];
        memset(ev, 0, sizeof *ev);
        ev->kind = rec->kind == TK_XRAY_TYPED_EVENT ? TK_EVENT_TYPED : TK_EVENT_CUSTOM;
        ev->thread = e->last_thread;
        ev->pid = rec->pid;
        ev->tid = rec->tid;
        ev->cpu = rec->cpu;
        ev->time = rec->tsc;
        ev->type = rec->event_type;
        ev->size = (size_t)rec->event_size;
        ev->data = rec->payload;
        ev->offset = rec->offset;
    }
    b->nargs = c.nargs;
    b->arg_at = e->arg_at;
    b->arg_count = e->arg_count;
    b->arg_values = e->arg_values;
    b->nextra = c.nevents;
    b->nskipped = c.nskipped;
    b->extra_at = e->event_at;
    b->extra = e->extra;
    /* ids outside the map are rare: only a run whose largest id is out of range is scanned */
    if (e->map && max_func > e->map_count) {
        for (size_t i = 0; i < n; i++) {
            if (e->func[i] != 0 && e->func[i] <= e->map_count) continue;
            if (tk_hmap_put(&e->unknown, e->func[i], 1) < 0)
                return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            if (e->func[i] > e->largest_unknown) e->largest_unknown = (uint32_t)e->func[i];
        }
    }
    b->thread = e->last_thread;
    b->pid = c.pid;
    b->tid = c.tid;
    b->n = n;
    b->kind = e->kind;
    b->func = e->func;
    b->time = e->time;
    return TK_OK;
}

static const char *map_name(const tk_xray_map *map, uint64_t func, char *buf, size_t size)
{
    const tk_xray_function *f =
        map && func <= UINT32_MAX ? tk_xray_map_function(map, (uint32_t)func) : NULL;
    if (f && f->name) return f->name;
    snprintf(buf, size, "#%llu", (unsigned long long)func);
    return buf;
}

static int map_location(const tk_xray_map *map, uint64_t func, const char **file, uint32_t *line)
{
    const tk_xray_function *f =
        map && func <= UINT32_MAX ? tk_xray_map_function(map, (uint32_t)func) : NULL;
    if (!f || !f->file) return 0;
    *file = f->file;
    *line = f->line;
    return 1;
}

static const char *events_name(void *ctx, uint64_t func, char *buf, size_t size)
{
    return map_name(((tk_xray_events *)ctx)->map, func, buf, size);
}

static int events_location(void *ctx, uint64_t func, const char **file, uint32_t *line)
{
    return map_location(((tk_xray_events *)ctx)->map, func, file, line);
}

static const char *names_name(void *ctx, uint64_t func, char *buf, size_t size)
{
    return map_name(ctx, func, buf, size);
}

static int names_location(void *ctx, uint64_t func, const char **file, uint32_t *line)
{
    return map_location(ctx, func, file, line);
}

static tk_status names_next(void *ctx, tk_event *ev, tk_error *err)
{
    (void)ctx;
    (void)ev;
    (void)err;
    return TK_END;
}

void tk_xray_map_names(const tk_xray_map *map, tk_event_source *src)
{
    memset(src, 0, sizeof *src);
    src->ctx = (void *)map;
    src->next = names_next;
    src->name = names_name;
    src->location = names_location;
    src->time_unit = "ticks";
}

void tk_xray_events_source(tk_xray_events *e, tk_event_source *src)
{
    const tk_xray_header *h = tk_xray_get_header(e->reader);
    memset(src, 0, sizeof *src);
    src->ctx = e;
    src->next = events_next;
    src->next_batch = events_next_batch;
    src->location = events_location;
    src->name = events_name;
    src->ticks_per_second = (double)h->cycle_frequency;
    src->time_unit = tk_xray_emulated_tsc(h) ? "ns" : "ticks";
    src->start_time = tk_xray_first_tsc(e->reader);
}
