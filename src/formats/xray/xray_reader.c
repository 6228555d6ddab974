/* XRay trace reader: the file header, FDR buffers (versions 1-5) and basic-mode records, as a
 * pull iterator. The content is mapped once; FDR buffers are indexed first (a jump from one
 * BufferExtents to the next) so that each thread's buffers can be visited in timestamp order. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/fastpath.h"
#include "core/hash.h"
#include "formats/xray/xray_internal.h"

typedef struct xray_buffer {
    uint64_t start; /* first record byte (after BufferExtents) */
    uint64_t end; /* one past the last byte */
    uint64_t extents_offset; /* offset of the BufferExtents record, or UINT64_MAX (v1) */
    uint64_t first_tsc; /* first NewCPUId/TSCWrap timestamp, for ordering */
    int32_t tid;
    uint32_t file_index;
    int broken; /* the index stopped here: decode this region sequentially to report */
    int open_end; /* the file ends inside this buffer (or basic mode, which has no framing):
                           a record that runs past its end was cut short */
} xray_buffer;

struct tk_xray_reader {
    tk_xray_header header;
    const char *path;
    tk_input *in;
    const uint8_t *data;
    uint64_t size;
    int release_pages;
    int copy; /* one pass over a file: each buffer is read into scratch (see view) */
    tk_diag *diag;
    int partial; /* read a trace cut short up to the cut (tk_xray_options.partial) */
    int fast; /* the fast paths may be taken (XRAY_FAST): 1 but after tk_xray_set_paths(r, 0) */
    int cut; /* partial: the file was found cut short at cut_offset (cut_msg) */
    uint64_t cut_offset;
    char cut_msg[200];

    xray_buffer *buffers;
    uint32_t nbuffers;
    uint32_t *order; /* visiting order: indices into buffers */
    char broken_msg[160]; /* why the index stopped at the broken region */
    tk_xray_record pending; /* tk_xray_next_calls: a record of the next run (basic mode) */
    uint64_t span_lo, span_hi; /* 2 MiB-aligned span of the last buffer released */
    int have_pending;

    /* iteration state */
    uint32_t next_slot; /* next entry of order to open */
    int in_buffer;
    const xray_buffer *cur;
    /* the bytes of the open buffer: file offset o is at view[o - view_start] (the map, or
     * scratch holding a copy of the buffer) */
    const uint8_t *view;
    uint64_t view_start;
    uint8_t *scratch;
    size_t scratch_cap;
    uint64_t pos;
    uint64_t end;
    uint64_t base_tsc;
    int32_t tid;
    int32_t pid;
    uint16_t cpu;
};

static const char *const kind_names[TK_XRAY_KIND_MAX] = {
    [TK_XRAY_ENTER] = "enter",
    [TK_XRAY_EXIT] = "exit",
    [TK_XRAY_TAIL_EXIT] = "tail-exit",
    [TK_XRAY_ENTER_ARGS] = "enter-args",
    [TK_XRAY_NEW_BUFFER] = "new-buffer",
    [TK_XRAY_END_OF_BUFFER] = "end-of-buffer",
    [TK_XRAY_NEW_CPU] = "new-cpu",
    [TK_XRAY_TSC_WRAP] = "tsc-wrap",
    [TK_XRAY_WALLTIME] = "walltime",
    [TK_XRAY_CUSTOM_EVENT] = "custom-event",
    [TK_XRAY_CALL_ARG] = "call-argument",
    [TK_XRAY_BUFFER_EXTENTS] = "buffer-extents",
    [TK_XRAY_TYPED_EVENT] = "typed-event",
    [TK_XRAY_PID] = "pid",
    [TK_XRAY_ARG_PAYLOAD] = "arg-payload",
};

int tk_xray_is_function(tk_xray_kind k) { return xray_is_function(k); }

const char *tk_xray_kind_name(tk_xray_kind k)
{
    if ((unsigned)k < TK_XRAY_KIND_MAX && kind_names[k]) return kind_names[k];
    return "unknown";
}

int tk_xray_emulated_tsc(const tk_xray_header *h) { return h->cycle_frequency == 1000000000ull; }

/* ---- header -------------------------------------------------------------- */

static int plausible(uint16_t version, uint16_t type)
{
    if (type == TK_XRAY_FDR) return version >= 1 && version <= 5;
    if (type == TK_XRAY_BASIC) return version >= 1 && version <= 3;
    return 0;
}

tk_status tk_xray_parse_header(const uint8_t *data, size_t len, const char *path,
                               tk_xray_header *out, tk_error *err)
{
    memset(out, 0, sizeof *out);
    if (len < TK_XRAY_HEADER_SIZE)
        return tk_error_set_at(err, TK_ERR_FORMAT, path, (int64_t)len, 0, 0,
                               "truncated XRay file header: expected 32 bytes, found %zu", len);
    uint16_t le_version = xray_u16(data, 0), le_type = xray_u16(data + 2, 0);
    uint16_t be_version = xray_u16(data, 1), be_type = xray_u16(data + 2, 1);
    int be;
    if (plausible(le_version, le_type))
        be = 0;
    else if (plausible(be_version, be_type))
        be = 1;
    else if (le_type == TK_XRAY_FDR || le_type == TK_XRAY_BASIC)
        return tk_error_set_at(err, TK_ERR_UNSUPPORTED, path, 0, 0, 0,
                               "unsupported XRay %s version %u (tracekit reads FDR 1-5, basic 1-3)",
                               le_type == TK_XRAY_FDR ? "FDR" : "basic", le_version);
    else
        return tk_error_set_at(err, TK_ERR_FORMAT, path, 2, 0, 0,
                               "not an XRay trace: expected file type 0 (basic) or 1 (FDR), "
                               "found %u",
                               le_type);
    out->big_endian = be;
    out->version = be ? be_version : le_version;
    out->type = be ? be_type : le_type;
    out->flags = xray_u32(data + 4, be);
    out->cycle_frequency = xray_u64(data + 8, be);
    out->buffer_size = out->type == TK_XRAY_FDR ? xray_u64(data + 16, be) : 0;
    return TK_OK;
}

/* ---- buffer index ----------------------------------------------------------- */

static void report(tk_xray_reader *r, tk_severity sev, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void report(tk_xray_reader *r, tk_severity sev, uint64_t offset, const char *fmt, ...)
{
    if (!r->diag) return;
    tk_location loc = {r->path, (int64_t)offset, 0, 0};
    va_list ap;
    va_start(ap, fmt);
    tk_diag_vreport(r->diag, sev, &loc, fmt, ap);
    va_end(ap);
}

/* Partial mode: the file is cut short at offset (where the damage starts). A later, more precise
 * finding (the incomplete record inside the last buffer) replaces one made by the index. */
static void set_cut(tk_xray_reader *r, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_cut(tk_xray_reader *r, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->cut_msg, sizeof r->cut_msg, fmt, ap);
    va_end(ap);
    r->cut = 1;
    r->cut_offset = offset;
}

int tk_xray_truncation(const tk_xray_reader *r, tk_error *where)
{
    if (!r->cut) return 0;
    if (where)
        tk_error_set_at(where, TK_ERR_FORMAT, r->path, (int64_t)r->cut_offset, 0, 0, "%s",
                        r->cut_msg);
    return 1;
}

static int push_buffer(tk_xray_reader *r, uint32_t *cap, const xray_buffer *b)
{
    if (r->nbuffers == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 64;
        xray_buffer *nb = tk_reallocarray(r->buffers, ncap, sizeof *nb);
        if (!nb) return -1;
        r->buffers = nb;
        *cap = ncap;
    }
    r->buffers[r->nbuffers] = *b;
    r->buffers[r->nbuffers].file_index = r->nbuffers;
    r->nbuffers++;
    return 0;
}

/* The first metadata records of a buffer looked at for its thread and first timestamp. */
#define XRAY_PEEK_RECORDS 8

/* The bytes of the file at [pos, pos + want), fewer at its end: in copy mode read into tmp
 * (the map is not touched), else in the map. */
static tk_status file_bytes(tk_xray_reader *r, uint64_t pos, size_t want, uint8_t *tmp,
                            const uint8_t **out, size_t *got, tk_error *err)
{
    *got = r->size - pos < want ? (size_t)(r->size - pos) : want;
    *out = r->data + pos;
    if (!r->copy) return TK_OK;
    *out = tmp;
    return tk_input_pread(r->in, pos, tmp, *got, err);
}

/* Look at the first metadata records of a buffer (head: have bytes from its start). */
static void peek_buffer_identity(const tk_xray_reader *r, xray_buffer *b, const uint8_t *head,
                                 size_t have)
{
    int be = r->header.big_endian;
    b->tid = -1;
    b->first_tsc = UINT64_MAX;
    uint64_t p = b->start;
    for (int i = 0; i < XRAY_PEEK_RECORDS && p + XRAY_METADATA_RECORD_SIZE <= b->end &&
                    p - b->start + XRAY_METADATA_RECORD_SIZE <= have;
         i++) {
        const uint8_t *rec = head + (p - b->start);
        if (!(rec[0] & 1)) break;
        unsigned kind = rec[0] >> 1;
        if (kind == XRAY_META_NEW_BUFFER)
            b->tid = (int32_t)xray_u32(rec + 1, be);
        else if (kind == XRAY_META_NEW_CPU) {
            b->first_tsc = xray_u64(rec + 3, be);
            break;
        } else if (kind == XRAY_META_TSC_WRAP) {
            b->first_tsc = xray_u64(rec + 1, be);
            break;
        } else if (kind != XRAY_META_WALLTIME && kind != XRAY_META_PID)
            break;
        p += XRAY_METADATA_RECORD_SIZE;
    }
}

/* The page cache may hold a file in folios of up to 2 MiB, and a fault maps a whole folio: the
 * buffers of other threads around this one come in with it, and they are visited much later.
 * So a finished buffer gives back the 2 MiB-aligned region around it (what is needed again
 * faults back in from the page cache), which keeps the mapped part of a trace near one folio. */
#define XRAY_RELEASE_ALIGN (2u << 20)

static void release_around(tk_xray_reader *r, uint64_t from, uint64_t to)
{
    uint64_t lo = from & ~(uint64_t)(XRAY_RELEASE_ALIGN - 1);
    uint64_t hi = (to + XRAY_RELEASE_ALIGN - 1) & ~(uint64_t)(XRAY_RELEASE_ALIGN - 1);
    tk_input_release(r->in, lo, hi - lo); /* clamped to the file */
}

static tk_status index_nomem(tk_error *err)
{
    return tk_error_set(err, TK_ERR_NOMEM, "out of memory indexing the XRay trace");
}

/* FDR version 1: buffers of the header's size one after the other. */
static tk_status index_v1(tk_xray_reader *r, uint32_t *cap, tk_error *err)
{
    uint64_t bs = r->header.buffer_size;
    if (bs < XRAY_METADATA_RECORD_SIZE || bs > (1ull << 40))
        return tk_error_set_at(err, TK_ERR_FORMAT, r->path, 16, 0, 0,
                               "FDR version 1 buffer size %llu is not usable "
                               "(expected 16 bytes to 1 TiB)",
                               (unsigned long long)bs);
    for (uint64_t pos = TK_XRAY_HEADER_SIZE; pos < r->size; pos += bs) {
        xray_buffer b = {pos, pos + bs < r->size ? pos + bs : r->size, UINT64_MAX, 0, 0, 0, 0, 0};
        if (r->size - pos < bs) { /* the runtime writes whole buffers */
            b.open_end = 1;
            if (r->diag)
                report(r, TK_SEV_ERROR, r->size,
                       "the file ends %llu bytes into the buffer "
                       "at byte %llu (version-1 buffers are %llu bytes)",
                       (unsigned long long)(r->size - pos), (unsigned long long)pos,
                       (unsigned long long)bs);
            else if (r->partial)
                set_cut(r, r->size,
                        "the trace is cut short: the file ends %llu bytes into "
                        "the buffer at byte %llu (version-1 buffers are %llu bytes)",
                        (unsigned long long)(r->size - pos), (unsigned long long)pos,
                        (unsigned long long)bs);
        }
        uint8_t tmp[XRAY_PEEK_RECORDS * XRAY_METADATA_RECORD_SIZE];
        const uint8_t *head;
        size_t have;
        tk_status st = file_bytes(r, pos, sizeof tmp, tmp, &head, &have, err);
        if (st != TK_OK) return st;
        peek_buffer_identity(r, &b, head, have);
        if (push_buffer(r, cap, &b) < 0) return index_nomem(err);
    }
    return TK_OK;
}

/* The BufferExtents record rec at pos (left bytes to the end of the file):
 * *n the buffer's size (what is there when the file ends inside it, *open_end
 * set in partial mode), or a problem written into problem. 1 when the file
 * ends inside the record in partial mode (the cut is set: indexing ends). */
static int check_extents(tk_xray_reader *r, uint64_t pos, const uint8_t *rec, uint64_t left,
                         uint64_t *n, int *open_end, char *problem, size_t psize)
{
    if (rec[0] != XRAY_META_BYTE(XRAY_META_BUFFER_EXTENTS)) {
        snprintf(problem, psize, "expected a BufferExtents record, found byte 0x%02x", rec[0]);
    } else if (left < XRAY_METADATA_RECORD_SIZE) {
        if (r->partial && !r->diag) {
            set_cut(r, pos,
                    "the trace is cut short: the file ends inside a BufferExtents "
                    "record (%llu of its 16 bytes are there)",
                    (unsigned long long)left);
            return 1;
        }
        snprintf(problem, psize, "truncated BufferExtents record: expected 16 bytes, found %llu",
                 (unsigned long long)left);
    } else {
        *n = xray_u64(rec + 1, r->header.big_endian);
        if (*n > left - XRAY_METADATA_RECORD_SIZE) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "buffer extents of %llu bytes run past the end of the "
                     "file (%llu bytes remain)",
                     (unsigned long long)*n,
                     (unsigned long long)(left - XRAY_METADATA_RECORD_SIZE));
            if (r->diag) { /* report, then read what is there */
                report(r, TK_SEV_ERROR, pos, "%s", msg);
                *n = left - XRAY_METADATA_RECORD_SIZE;
            } else if (r->partial) { /* read what is there; a cut record refines this */
                set_cut(r, r->size,
                        "the trace is cut short: the file ends %llu bytes into "
                        "the buffer at byte %llu, whose extents announce %llu bytes",
                        (unsigned long long)(left - XRAY_METADATA_RECORD_SIZE),
                        (unsigned long long)pos, (unsigned long long)*n);
                *n = left - XRAY_METADATA_RECORD_SIZE;
                *open_end = 1;
            } else {
                snprintf(problem, psize, "%s", msg);
            }
        }
    }
    return 0;
}

/* FDR versions 2 to 5: each buffer starts with its BufferExtents record. */
static tk_status index_extents(tk_xray_reader *r, uint32_t *cap, tk_error *err)
{
    uint64_t pos = TK_XRAY_HEADER_SIZE, released = 0;
    while (pos < r->size) {
        /* the extents record and the records peeked at */
        uint8_t tmp[(1 + XRAY_PEEK_RECORDS) * XRAY_METADATA_RECORD_SIZE];
        const uint8_t *rec;
        size_t have;
        tk_status st = file_bytes(r, pos, sizeof tmp, tmp, &rec, &have, err);
        if (st != TK_OK) return st;
        char problem[160] = "";
        uint64_t n = 0;
        int open_end = 0;
        if (check_extents(r, pos, rec, r->size - pos, &n, &open_end, problem, sizeof problem))
            return TK_OK;
        if (problem[0]) {
            if (r->diag) {
                report(r, TK_SEV_ERROR, pos, "%s", problem);
                /* resynchronise like llvm-xray: scan for the next BufferExtents introducer */
                uint64_t q = pos + 1;
                while (q < r->size && r->data[q] != XRAY_META_BYTE(XRAY_META_BUFFER_EXTENTS)) q++;
                pos = q;
                continue;
            }
            /* the records before stay readable; the error comes when the region is reached */
            memcpy(r->broken_msg, problem, sizeof problem);
            xray_buffer b = {pos, r->size, UINT64_MAX, UINT64_MAX, -1, 0, 1, 0};
            return push_buffer(r, cap, &b) < 0 ? index_nomem(err) : TK_OK;
        }
        xray_buffer b = {pos + XRAY_METADATA_RECORD_SIZE,
                         pos + XRAY_METADATA_RECORD_SIZE + n,
                         pos,
                         0,
                         0,
                         0,
                         0,
                         open_end};
        peek_buffer_identity(r, &b, rec + XRAY_METADATA_RECORD_SIZE,
                             have - XRAY_METADATA_RECORD_SIZE);
        if (push_buffer(r, cap, &b) < 0) return index_nomem(err);
        pos = b.end;
        /* each peek maps the pages (or the whole large folio) around it: give them back as we
         * go, in whole 2 MiB-aligned regions (see release_around) */
        if (r->release_pages && !r->copy && r->nbuffers % 16 == 0) {
            release_around(r, released, pos);
            released = pos;
        }
    }
    return TK_OK;
}

static tk_status index_buffers(tk_xray_reader *r, tk_error *err)
{
    uint32_t cap = 0;
    if (r->header.type == TK_XRAY_BASIC) {
        xray_buffer b = {TK_XRAY_HEADER_SIZE, r->size, UINT64_MAX, 0, 0, 0, 0, 1};
        if (r->size > TK_XRAY_HEADER_SIZE && push_buffer(r, &cap, &b) < 0) return index_nomem(err);
        return TK_OK;
    }
    if (r->header.version == 1) return index_v1(r, &cap, err);
    return index_extents(r, &cap, err);
}

typedef struct order_key {
    int32_t tid;
    uint32_t file_index;
    uint64_t first_tsc;
} order_key;

static int by_thread_then_time(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    if (x->first_tsc != y->first_tsc) return x->first_tsc < y->first_tsc ? -1 : 1;
    return x->file_index < y->file_index ? -1 : x->file_index > y->file_index;
}

/* Each thread keeps the file slots its buffers occupy; within them its buffers go in timestamp
 * order. Broken regions keep their slot. */
static tk_status order_buffers(tk_xray_reader *r, int file_order, tk_error *err)
{
    uint32_t n = r->nbuffers;
    r->order = tk_calloc(n ? n : 1, sizeof *r->order);
    if (!r->order) return tk_error_set(err, TK_ERR_NOMEM, "out of memory ordering XRay buffers");
    for (uint32_t i = 0; i < n; i++) r->order[i] = i;
    if (file_order || n < 2 || r->header.type == TK_XRAY_BASIC) return TK_OK;
    order_key *keys = tk_calloc(n, sizeof *keys);
    uint32_t *sorted = tk_calloc(n, sizeof *sorted);
    if (!keys || !sorted) {
        tk_free(keys);
        tk_free(sorted);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory ordering XRay buffers");
    }
    for (uint32_t i = 0; i < n; i++)
        keys[i] = (order_key){r->buffers[i].tid, i, r->buffers[i].first_tsc};
    qsort(keys, n, sizeof *keys, by_thread_then_time);
    for (uint32_t i = 0; i < n; i++) sorted[i] = keys[i].file_index;
    tk_free(keys);
    tk_hmap next_of_thread = TK_HMAP_INIT; /* tid -> position in sorted */
    for (uint32_t i = n; i-- > 0;)
        if (tk_hmap_put(&next_of_thread, (uint64_t)(uint32_t)r->buffers[sorted[i]].tid, i) < 0)
            goto nomem;
    for (uint32_t slot = 0; slot < n; slot++) {
        if (r->buffers[slot].broken) continue;
        uint64_t *at =
            tk_hmap_slot(&next_of_thread, (uint64_t)(uint32_t)r->buffers[slot].tid, 0, NULL);
        if (!at) goto nomem;
        while (r->buffers[sorted[*at]].broken) (*at)++;
        r->order[slot] = sorted[(*at)++];
    }
    tk_hmap_free(&next_of_thread);
    tk_free(sorted);
    return TK_OK;
nomem:
    tk_hmap_free(&next_of_thread);
    tk_free(sorted);
    return tk_error_set(err, TK_ERR_NOMEM, "out of memory ordering XRay buffers");
}

/* ---- open / free ------------------------------------------------------------- */

tk_status tk_xray_open(tk_xray_reader **out, tk_input *in, const tk_xray_options *opt,
                       tk_error *err)
{
    *out = NULL;
    tk_xray_options defaults = TK_XRAY_OPTIONS_INIT;
    if (!opt) opt = &defaults;
    const uint8_t *data;
    size_t len;
    tk_status st = tk_input_map(in, &data, &len, err);
    if (st != TK_OK) return st;
    tk_xray_reader *r = tk_calloc(1, sizeof *r);
    if (!r) return tk_error_set(err, TK_ERR_NOMEM, "out of memory opening the XRay trace");
    r->path = tk_input_path(in);
    r->fast = 1;
    r->data = data;
    r->size = len;
    r->diag = opt->diag;
    r->release_pages = opt->release_pages;
    r->partial = opt->partial && !opt->diag;
    r->copy = opt->release_pages && tk_input_is_file(in);
    r->in = in;
    st = tk_xray_parse_header(data, len, r->path, &r->header, err);
    if (st == TK_OK) st = index_buffers(r, err);
    if (st == TK_OK) st = order_buffers(r, opt->file_order, err);
    /* indexing touched the start of every buffer, and the kernel maps pages around each touch */
    if (st == TK_OK && r->release_pages && !r->copy) tk_input_release(in, 0, len);
    if (st != TK_OK) {
        tk_xray_free(r);
        return st;
    }
    *out = r;
    return TK_OK;
}

void tk_xray_free(tk_xray_reader *r)
{
    if (!r) return;
    tk_free(r->buffers);
    tk_free(r->order);
    tk_free(r->scratch);
    tk_free(r);
}

const tk_xray_header *tk_xray_get_header(const tk_xray_reader *r) { return &r->header; }
uint64_t tk_xray_buffer_count(const tk_xray_reader *r)
{
    return r->header.type == TK_XRAY_FDR ? r->nbuffers : 0;
}
uint64_t tk_xray_content_size(const tk_xray_reader *r) { return r->size; }

uint64_t tk_xray_first_tsc(const tk_xray_reader *r)
{
    uint64_t first = UINT64_MAX;
    if (r->header.type == TK_XRAY_BASIC) {
        int be = r->header.big_endian;
        for (uint64_t p = TK_XRAY_HEADER_SIZE; r->size - p >= XRAY_BASIC_RECORD_SIZE;
             p += XRAY_BASIC_RECORD_SIZE) {
            uint64_t tsc = xray_u64(r->data + p + 8, be);
            if (xray_u16(r->data + p, be) == 0 && tsc < first) first = tsc;
        }
    } else {
        for (uint32_t i = 0; i < r->nbuffers; i++)
            if (!r->buffers[i].broken && r->buffers[i].first_tsc < first)
                first = r->buffers[i].first_tsc;
    }
    return first == UINT64_MAX ? 0 : first;
}

/* ---- records ----------------------------------------------------------------- */

static tk_status format_error(tk_xray_reader *r, tk_error *err, uint64_t offset, const char *fmt,
                              ...) __attribute__((format(printf, 4, 5)));

static tk_status format_error(tk_xray_reader *r, tk_error *err, uint64_t offset, const char *fmt,
                              ...)
{
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tk_error_set_at(err, TK_ERR_FORMAT, r->path, (int64_t)offset, 0, 0, "%s", msg);
}

/* A record (with its payload: need bytes from at) that runs past the end of the open buffer: in
 * partial mode, when the file ends inside that buffer, the trace was cut there. Remembers the cut,
 * ends the buffer and returns 1; else 0 and the caller reports the error. */
static int cut_record(tk_xray_reader *r, uint64_t at, const char *what, uint64_t need)
{
    if (!r->partial || !r->cur || !r->cur->open_end) return 0;
    set_cut(r, at,
            "the trace is cut short: the file ends inside %s (%llu of its %llu bytes are "
            "there)",
            what, (unsigned long long)(r->end - at), (unsigned long long)need);
    r->pos = r->end;
    return 1;
}

/* Buffers up to this size are copied in copy mode (larger ones are read from the map). */
#define XRAY_COPY_MAX (8u << 20)

static inline const uint8_t *view_at(const tk_xray_reader *r, uint64_t offset)
{
    return r->view + (offset - r->view_start);
}

static tk_status open_buffer(tk_xray_reader *r, const xray_buffer *b, tk_error *err)
{
    r->cur = b;
    r->in_buffer = 1;
    r->pos = b->start;
    r->end = b->end;
    r->base_tsc = 0;
    r->cpu = 0;
    r->tid = b->tid;
    /* llvm-xray reports pid = tid for version 2 (no Pid record); we report 0 = unknown. */
    r->pid = 0;
    r->view = r->data;
    r->view_start = 0;
    size_t len = (size_t)(b->end - b->start);
    if (!r->copy || b->broken || len > XRAY_COPY_MAX) return TK_OK;
    if (len > r->scratch_cap) {
        uint8_t *n = tk_realloc(r->scratch, len);
        if (!n) return tk_error_set(err, TK_ERR_NOMEM, "out of memory reading an XRay buffer");
        r->scratch = n;
        r->scratch_cap = len;
    }
    tk_status st = tk_input_pread(r->in, b->start, r->scratch, len, err);
    if (st != TK_OK) return st;
    r->view = r->scratch;
    r->view_start = b->start;
    return TK_OK;
}

static void close_buffer(tk_xray_reader *r)
{
    if (r->release_pages && r->cur && !r->cur->broken && r->view == r->data) {
        /* the buffer itself, and the 2 MiB-aligned span of the previous buffer where it is not
         * the span of this one: what a fault may have mapped is within the span of a visited
         * buffer, and the data ahead in this span is not faulted in again */
        const uint64_t m = XRAY_RELEASE_ALIGN - 1;
        uint64_t lo = r->cur->start & ~m, hi = (r->cur->end + m) & ~m;
        tk_input_release(r->in, r->cur->start, r->cur->end - r->cur->start);
        if (r->span_lo < lo)
            tk_input_release(r->in, r->span_lo, (r->span_hi < lo ? r->span_hi : lo) - r->span_lo);
        if (r->span_hi > hi) {
            uint64_t from = r->span_lo > hi ? r->span_lo : hi;
            tk_input_release(r->in, from, r->span_hi - from);
        }
        r->span_lo = lo;
        r->span_hi = hi;
    }
    r->in_buffer = 0;
    r->cur = NULL;
}

static inline void fill_common(const tk_xray_reader *r, tk_xray_record *rec, uint64_t offset)
{
    rec->offset = offset;
    rec->buffer = r->cur ? r->cur->file_index : 0;
    rec->tid = r->tid;
    rec->pid = r->pid;
    rec->cpu = r->cpu;
    rec->tsc = 0;
    rec->func_id = 0;
    rec->delta = 0;
    rec->value = 0;
    rec->micros = 0;
    rec->event_size = 0;
    rec->event_type = 0;
    rec->payload = NULL;
    rec->nargs = 0;
}

/* Custom/typed event payload bounds. */
static tk_status take_payload(tk_xray_reader *r, tk_xray_record *rec, uint64_t at, int32_t size,
                              tk_error *err)
{
    if (size < 0 || (uint32_t)size > XRAY_MAX_EVENT_SIZE)
        return format_error(r, err, at + 1, "%s payload size %d is out of range (0 to %u)",
                            tk_xray_kind_name(rec->kind), size, XRAY_MAX_EVENT_SIZE);
    uint64_t p = at + XRAY_METADATA_RECORD_SIZE;
    if ((uint64_t)size > r->end - p &&
        cut_record(r, at, rec->kind == TK_XRAY_CUSTOM_EVENT ? "a custom event" : "a typed event",
                   XRAY_METADATA_RECORD_SIZE + (uint64_t)size))
        return TK_END;
    if ((uint64_t)size > r->end - p)
        return format_error(r, err, at,
                            "%s payload of %d bytes runs past the end of its buffer "
                            "(%llu bytes left)",
                            tk_xray_kind_name(rec->kind), size, (unsigned long long)(r->end - p));
    rec->event_size = size;
    rec->payload = view_at(r, p);
    r->pos = p + (uint64_t)size;
    return TK_OK;
}

static tk_status next_metadata(tk_xray_reader *r, tk_xray_record *rec, tk_error *err)
{
    uint64_t at = r->pos;
    const uint8_t *p = view_at(r, at);
    int be = r->header.big_endian;
    unsigned kind = p[0] >> 1;
    if (r->end - at < XRAY_METADATA_RECORD_SIZE &&
        cut_record(r, at, "a metadata record", XRAY_METADATA_RECORD_SIZE))
        return TK_END;
    if (r->end - at < XRAY_METADATA_RECORD_SIZE)
        return format_error(r, err, at,
                            "truncated metadata record: expected 16 bytes, "
                            "the buffer has %llu left",
                            (unsigned long long)(r->end - at));
    if (kind >= XRAY_META_KINDS)
        return format_error(r, err, at, "unknown metadata record kind %u (expected 0-9)", kind);
    fill_common(r, rec, at);
    rec->kind = (tk_xray_kind)(TK_XRAY_NEW_BUFFER + kind);
    r->pos = at + XRAY_METADATA_RECORD_SIZE;
    switch (kind) {
    case XRAY_META_NEW_BUFFER:
        r->tid = (int32_t)xray_u32(p + 1, be);
        rec->tid = r->tid;
        rec->value = (uint64_t)(uint32_t)r->tid;
        break;
    case XRAY_META_END_OF_BUFFER:
        if (r->header.version >= 2)
            return format_error(r, err, at,
                                "EndOfBuffer record in a version %u file "
                                "(only version 1 has it)",
                                r->header.version);
        r->pos = r->end; /* the rest of a version-1 buffer is unused */
        break;
    case XRAY_META_NEW_CPU:
        r->cpu = xray_u16(p + 1, be);
        r->base_tsc = xray_u64(p + 3, be);
        rec->cpu = r->cpu;
        rec->tsc = rec->value = r->base_tsc;
        break;
    case XRAY_META_TSC_WRAP:
        r->base_tsc = xray_u64(p + 1, be);
        rec->tsc = rec->value = r->base_tsc;
        break;
    case XRAY_META_WALLTIME:
        rec->value = xray_u64(p + 1, be);
        rec->micros = xray_u32(p + 9, be);
        break;
    case XRAY_META_CUSTOM_EVENT: {
        int32_t size = (int32_t)xray_u32(p + 1, be);
        if (r->header.version >= 5) {
            r->base_tsc += (uint64_t)(int64_t)(int32_t)xray_u32(p + 5, be);
            rec->tsc = r->base_tsc;
        } else {
            rec->tsc = xray_u64(p + 5, be);
            if (r->header.version == 4) rec->cpu = xray_u16(p + 13, be);
        }
        return take_payload(r, rec, at, size, err);
    }
    case XRAY_META_CALL_ARG: rec->value = xray_u64(p + 1, be); break;
    case XRAY_META_BUFFER_EXTENTS:
        return format_error(r, err, at,
                            "BufferExtents record inside a buffer "
                            "(the buffer's extents should have ended before it)");
    case XRAY_META_TYPED_EVENT: {
        int32_t size = (int32_t)xray_u32(p + 1, be);
        r->base_tsc += (uint64_t)(int64_t)(int32_t)xray_u32(p + 5, be);
        rec->tsc = r->base_tsc;
        rec->event_type = xray_u16(p + 9, be);
        return take_payload(r, rec, at, size, err);
    }
    case XRAY_META_PID:
        r->pid = (int32_t)xray_u32(p + 1, be);
        rec->pid = r->pid;
        rec->value = (uint64_t)(uint32_t)r->pid;
        break;
    }
    return TK_OK;
}

static tk_status next_function(tk_xray_reader *r, tk_xray_record *rec, tk_error *err)
{
    uint64_t at = r->pos;
    const uint8_t *p = view_at(r, at);
    int be = r->header.big_endian;
    if (r->end - at < XRAY_FUNCTION_RECORD_SIZE &&
        cut_record(r, at, "a function record", XRAY_FUNCTION_RECORD_SIZE))
        return TK_END;
    if (r->end - at < XRAY_FUNCTION_RECORD_SIZE)
        return format_error(r, err, at,
                            "truncated function record: expected 8 bytes, "
                            "the buffer has %llu left",
                            (unsigned long long)(r->end - at));
    uint32_t w = xray_u32(p, be);
    unsigned kind = (w >> 1) & 7;
    if (kind > 3)
        return format_error(r, err, at, "unknown function record kind %u (expected 0-3)", kind);
    fill_common(r, rec, at);
    rec->kind = (tk_xray_kind)kind;
    rec->func_id = w >> 4;
    rec->delta = xray_u32(p + 4, be);
    r->base_tsc += rec->delta;
    rec->tsc = r->base_tsc;
    r->pos = at + XRAY_FUNCTION_RECORD_SIZE;
    rec->nargs = 0;
    if (kind == TK_XRAY_ENTER_ARGS) {
        uint64_t q = r->pos;
        while (rec->nargs < TK_XRAY_MAX_ARGS && r->end - q >= XRAY_METADATA_RECORD_SIZE &&
               *view_at(r, q) == XRAY_META_BYTE(XRAY_META_CALL_ARG)) {
            rec->args[rec->nargs++] = xray_u64(view_at(r, q) + 1, be);
            q += XRAY_METADATA_RECORD_SIZE;
        }
    }
    return TK_OK;
}

static tk_status next_basic(tk_xray_reader *r, tk_xray_record *rec, tk_error *err)
{
    uint64_t at = r->pos;
    const uint8_t *p = view_at(r, at);
    int be = r->header.big_endian;
    if (r->end - at < XRAY_BASIC_RECORD_SIZE &&
        cut_record(r, at, "a basic-mode record", XRAY_BASIC_RECORD_SIZE))
        return TK_END;
    if (r->end - at < XRAY_BASIC_RECORD_SIZE)
        return format_error(r, err, at,
                            "truncated basic-mode record: expected 32 bytes, "
                            "found %llu",
                            (unsigned long long)(r->end - at));
    uint16_t record_type = xray_u16(p, be);
    fill_common(r, rec, at);
    r->pos = at + XRAY_BASIC_RECORD_SIZE;
    int has_pid = r->header.version >= 3;
    if (record_type == 1) {
        rec->kind = TK_XRAY_ARG_PAYLOAD;
        rec->func_id = xray_u32(p + 4, be);
        rec->tid = (int32_t)xray_u32(p + 8, be);
        rec->pid = has_pid ? (int32_t)xray_u32(p + 12, be) : 0;
        rec->value = xray_u64(p + 16, be);
        return TK_OK;
    }
    if (record_type != 0)
        return format_error(r, err, at, "unknown basic-mode record type %u (expected 0 or 1)",
                            record_type);
    unsigned kind = p[3];
    if (kind > 3 || (kind == TK_XRAY_TAIL_EXIT && r->header.version < 2))
        return format_error(r, err, at + 3,
                            "unknown function record kind %u in a version %u "
                            "basic-mode log",
                            kind, r->header.version);
    rec->kind = (tk_xray_kind)kind;
    rec->cpu = p[2];
    rec->func_id = xray_u32(p + 4, be);
    rec->tsc = xray_u64(p + 8, be);
    rec->tid = (int32_t)xray_u32(p + 16, be);
    rec->pid = has_pid ? (int32_t)xray_u32(p + 20, be) : 0;
    rec->nargs = 0;
    if (kind == TK_XRAY_ENTER_ARGS) {
        uint64_t q = r->pos;
        while (rec->nargs < TK_XRAY_MAX_ARGS && r->end - q >= XRAY_BASIC_RECORD_SIZE &&
               xray_u16(view_at(r, q), be) == 1 &&
               (int32_t)xray_u32(view_at(r, q) + 8, be) == rec->tid) {
            rec->args[rec->nargs++] = xray_u64(view_at(r, q) + 16, be);
            q += XRAY_BASIC_RECORD_SIZE;
        }
    }
    return TK_OK;
}

/* tk_xray_next; with one_buffer, TK_END where the open buffer ends (closed, not the next one
 * opened: the records taken from it, and the payloads they borrow from its bytes, stay valid). */
static tk_status next_record(tk_xray_reader *r, tk_xray_record *rec, int one_buffer, tk_error *err)
{
    for (;;) {
        if (!r->in_buffer) {
            if (one_buffer) return TK_END;
            if (r->next_slot >= r->nbuffers) return TK_END;
            const xray_buffer *b = &r->buffers[r->order[r->next_slot++]];
            tk_status st = open_buffer(r, b, err);
            if (st != TK_OK) {
                close_buffer(r);
                r->next_slot = r->nbuffers;
                return st;
            }
            if (b->extents_offset != UINT64_MAX && r->header.type == TK_XRAY_FDR) {
                fill_common(r, rec, b->extents_offset);
                rec->kind = TK_XRAY_BUFFER_EXTENTS;
                rec->value = b->end - b->start;
                return TK_OK;
            }
            if (b->broken) {
                st = format_error(r, err, b->start, "%s", r->broken_msg);
                close_buffer(r);
                r->next_slot = r->nbuffers;
                return st;
            }
        }
        if (r->pos >= r->end) {
            close_buffer(r);
            if (one_buffer) return TK_END;
            continue;
        }
        tk_status st;
        if (r->header.type == TK_XRAY_BASIC)
            st = next_basic(r, rec, err);
        else if (*view_at(r, r->pos) & 1)
            st = next_metadata(r, rec, err);
        else
            st = next_function(r, rec, err);
        if (st == TK_OK) return TK_OK;
        if (st == TK_END) { /* partial mode: the file was cut inside this record */
            close_buffer(r);
            if (one_buffer) return TK_END;
            continue;
        }
        /* A broken buffer: in check mode report it and go on with the next buffer. */
        if (r->diag && r->header.type == TK_XRAY_FDR) {
            tk_diag_error(r->diag, err);
            close_buffer(r);
            if (one_buffer) return TK_END;
            continue;
        }
        close_buffer(r);
        r->next_slot = r->nbuffers;
        return st;
    }
}

tk_status tk_xray_next(tk_xray_reader *r, tk_xray_record *rec, tk_error *err)
{
    return next_record(r, rec, 0, err);
}

_Static_assert(TK_PACKED_ARG_BYTE == XRAY_META_BYTE(XRAY_META_CALL_ARG),
               "packed calls skip XRay CallArgument records");

void tk_xray_set_paths(tk_xray_reader *r, int fast) { r->fast = fast; }

int tk_xray_packed_calls(tk_xray_reader *r, tk_packed_calls *pc, int32_t *tid, int32_t *pid)
{
    if (!XRAY_FAST(r) || !r->in_buffer || r->header.type != TK_XRAY_FDR || r->header.big_endian ||
        r->end - r->pos < XRAY_FUNCTION_RECORD_SIZE)
        return 0;
    uint32_t w = xray_u32(view_at(r, r->pos), 0);
    /* low 4 bits 0, 2, 4 or 6: an enter, exit, tail exit or enter with arguments */
    if (!((TK_FAST_XRAY_CALLS >> (w & 0xf)) & 1) || (w >> 4) - 1u >= pc->id_limit) return 0;
    pc->p = view_at(r, r->pos);
    pc->end = pc->p + (r->end - r->pos) / XRAY_FUNCTION_RECORD_SIZE * XRAY_FUNCTION_RECORD_SIZE;
    pc->time = r->base_tsc;
    *tid = r->tid;
    *pid = r->pid;
    return 1;
}

void tk_xray_packed_taken(tk_xray_reader *r, const tk_packed_calls *pc)
{
    r->pos = r->view_start + (uint64_t)(pc->p - r->view);
    r->base_tsc = pc->time;
}

/* Append a function record to a run (EnterArgs becomes an enter; the caller adds arguments). */
static inline void calls_add(tk_xray_calls *c, unsigned kind, uint32_t id, uint64_t tsc,
                             uint32_t *top)
{
    c->kind[c->n] = (uint8_t)(kind == TK_XRAY_ENTER_ARGS ? TK_XRAY_ENTER : kind);
    c->func[c->n] = id;
    c->tsc[c->n] = tsc;
    if (id - 1u > *top) /* id 0 wraps to the top */
        *top = id - 1u;
    c->n++;
}

static inline void calls_add_args(tk_xray_calls *c, const uint64_t *args, uint32_t nargs)
{
    c->arg_at[c->nargs] = (uint32_t)(c->n - 1);
    c->arg_count[c->nargs] = (uint8_t)nargs;
    memcpy(c->arg_values + c->nargs * TK_XRAY_MAX_ARGS, args, nargs * sizeof *args);
    c->nargs++;
}

/* Function records Enter, Exit and TailExit from p into c->kind/func/tsc[i..stop): stops before
 * a metadata record, an EnterArgs or an unknown kind (the caller handles those). Returns the
 * index reached. One body per byte order so that the loads need no test. */
#define DEFINE_CALLS_RUN(name, BE, OTHER) \
    static inline size_t name(tk_xray_calls *c, const uint8_t *p, size_t i, size_t stop, \
                              uint64_t *basep, uint32_t *topp) \
    { \
        uint8_t *kind = c->kind; \
        uint64_t *func = c->func, *tsc = c->tsc; \
        uint64_t base = *basep; \
        uint32_t top = *topp; \
        for (; i < stop; i++, p += XRAY_FUNCTION_RECORD_SIZE) { \
            uint32_t w = xray_u32(p, BE); \
            if (OTHER(p, w)) /* metadata, EnterArgs or an unknown kind */ \
                break; \
            base += xray_u32(p + 4, BE); \
            uint32_t id = w >> 4; \
            kind[i] = (uint8_t)((w >> 1) & 7); \
            func[i] = id; \
            tsc[i] = base; \
            top = id - 1u > top ? id - 1u : top; /* id 0 wraps to the top */ \
        } \
        *basep = base; \
        *topp = top; \
        return i; \
    }

/* Records are told apart by bit 0 of their first byte (in both byte orders); function kinds
 * 0-2 are the plain calls. Little-endian: the low 4 bits of the word are 0, 2 or 4
 * (TK_FAST_XRAY_PLAIN_CALLS, core/fastpath.h). */
#define OTHER_LE(p, w) (!((TK_FAST_XRAY_PLAIN_CALLS >> ((w)&0xf)) & 1))
#define OTHER_BE(p, w) (((p)[0] & 1) || (((w) >> 1) & 7) > TK_XRAY_TAIL_EXIT)
DEFINE_CALLS_RUN(calls_run_le, 0, OTHER_LE)
DEFINE_CALLS_RUN(calls_run_be, 1, OTHER_BE)

/* An EnterArgs record at d + *pos (in the view, its buffer ending at end),
 * and its CallArgument records when arguments are wanted: 0 when there is no
 * room for its arguments (the next run takes it). */
static inline int calls_enter_args(tk_xray_calls *c, const uint8_t *d, uint64_t *pos, uint64_t end,
                                   uint64_t *base, uint32_t w, int be, int want_args, uint32_t *top)
{
    if (want_args && c->nargs == c->arg_cap) return 0;
    *base += xray_u32(d + *pos + 4, be);
    calls_add(c, TK_XRAY_ENTER_ARGS, w >> 4, *base, top);
    *pos += XRAY_FUNCTION_RECORD_SIZE;
    if (want_args) {
        uint64_t args[TK_XRAY_MAX_ARGS];
        uint32_t na = 0;
        while (na < TK_XRAY_MAX_ARGS && end - *pos >= XRAY_METADATA_RECORD_SIZE &&
               d[*pos] == XRAY_META_BYTE(XRAY_META_CALL_ARG)) {
            args[na++] = xray_u64(d + *pos + 1, be);
            *pos += XRAY_METADATA_RECORD_SIZE;
        }
        if (na) calls_add_args(c, args, na);
    }
    return 1;
}

/* A run has begun: a call, an event, or an event counted only. */
static inline int calls_started(const tk_xray_calls *c)
{
    return c->n + c->nevents + c->nskipped > 0;
}

/* The fast path of tk_xray_next_calls: the function records of an open FDR
 * buffer, no bounds check per record, one branch on the first byte (off with
 * TK_NO_FAST_PATH or tk_xray_set_paths: core/fastpath.h). Its twin is the
 * record-by-record reader below it in tk_xray_next_calls. Returns 1 when the
 * run ends here (c full, the buffer's end, or the thread may change), 0 when
 * the record-by-record reader goes on. */
static inline int calls_fdr(tk_xray_reader *r, tk_xray_calls *c, uint32_t *top, int want_args)
{
    int be = r->header.big_endian;
    /* offsets in the view */
    const uint8_t *d = r->view;
    uint64_t pos = r->pos - r->view_start, end = r->end - r->view_start;
    uint64_t base = r->base_tsc;
    if (!calls_started(c)) {
        c->tid = r->tid;
        c->pid = r->pid;
    }
    for (;;) {
        size_t room = c->cap - c->n;
        uint64_t whole = (end - pos) / XRAY_FUNCTION_RECORD_SIZE;
        size_t lim = whole < room ? (size_t)whole : room;
        size_t i = c->n, stop = c->n + lim;
        const uint8_t *p = d + pos;
        if (!be)
            i = calls_run_le(c, p, i, stop, &base, top);
        else
            i = calls_run_be(c, p, i, stop, &base, top);
        pos += (uint64_t)(i - c->n) * XRAY_FUNCTION_RECORD_SIZE;
        c->n = i;
        if (i == stop || pos >= end || (d[pos] & 1)) break;
        uint32_t w = xray_u32(d + pos, be);
        if (((w >> 1) & 7) != TK_XRAY_ENTER_ARGS)
            break; /* an unknown kind: the slow path reports it */
        /* EnterArgs: the call, then its CallArgument records */
        if (!calls_enter_args(c, d, &pos, end, &base, w, be, want_args, top)) break;
    }
    r->pos = r->view_start + pos;
    r->base_tsc = base;
    if (c->n == c->cap) return 1;
    return calls_started(c) &&
           (r->pos >= r->end || *view_at(r, r->pos) == XRAY_META_BYTE(XRAY_META_NEW_BUFFER) ||
            *view_at(r, r->pos) == XRAY_META_BYTE(XRAY_META_PID)); /* the thread may change */
}

/* A record of the slow path into c: an event, or a call (with its arguments);
 * 1 when it does not fit (kept pending for the next run). */
static int calls_take(tk_xray_reader *r, tk_xray_calls *c, const tk_xray_record *rec, int want_args,
                      uint32_t *top)
{
    if (rec->kind == TK_XRAY_CUSTOM_EVENT || rec->kind == TK_XRAY_TYPED_EVENT) {
        c->events[c->nevents] = *rec;
        c->event_at[c->nevents] = (uint32_t)c->n;
        c->nevents++;
        return 0;
    }
    if (rec->kind == TK_XRAY_ENTER_ARGS && want_args && rec->nargs && c->nargs == c->arg_cap) {
        r->pending = *rec;
        r->have_pending = 1;
        return 1;
    }
    calls_add(c, rec->kind, rec->func_id, rec->tsc, top);
    if (rec->kind == TK_XRAY_ENTER_ARGS && want_args && rec->nargs)
        calls_add_args(c, rec->args, rec->nargs);
    return 0;
}

tk_status tk_xray_next_calls(tk_xray_reader *r, tk_xray_calls *c, tk_error *err)
{
    c->n = c->nargs = c->nevents = c->nskipped = 0;
    uint32_t top = 0;
    int want_args = c->arg_at != NULL && c->arg_cap > 0;
    int want_events = c->events != NULL && c->event_cap > 0;
    tk_xray_record rec;
    if (r->have_pending) {
        r->have_pending = 0;
        rec = r->pending;
        c->tid = rec.tid;
        c->pid = rec.pid;
        goto take;
    }
    for (;;) {
        if (XRAY_FAST(r) && r->in_buffer && r->header.type == TK_XRAY_FDR &&
            calls_fdr(r, c, &top, want_args))
            break;
        if (calls_started(c) && !r->in_buffer) break;
        if (want_events && c->nevents == c->event_cap) break;
        /* a run ends with its buffer, as the fast path's do: the events' payloads are in the
         * buffer's bytes (in copy mode a scratch copy, which the next buffer overwrites) */
        tk_status st = next_record(r, &rec, calls_started(c), err);
        if (st == TK_END && calls_started(c)) break;
        if (st != TK_OK) return st;
        int is_event = rec.kind == TK_XRAY_CUSTOM_EVENT || rec.kind == TK_XRAY_TYPED_EVENT;
        if (!xray_is_function(rec.kind) && !is_event) continue;
        if (calls_started(c) && (rec.tid != c->tid || rec.pid != c->pid)) {
            /* basic mode: another thread's record; keep it for the next run */
            r->pending = rec;
            r->have_pending = 1;
            break;
        }
        c->tid = rec.tid;
        c->pid = rec.pid;
    take:
        if (!want_events && (rec.kind == TK_XRAY_CUSTOM_EVENT || rec.kind == TK_XRAY_TYPED_EVENT))
            c->nskipped++; /* not asked for: counted, the thread had it */
        else if (calls_take(r, c, &rec, want_args, &top))
            break;
        if (c->n == c->cap) break;
    }
    c->max_func = c->n ? (uint64_t)top + 1 : 0;
    return TK_OK;
}
