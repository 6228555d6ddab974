/* Partial DCFG-Trace reports (of some chunks of a thread): merged by adding their counts,
 * serialised as canonical bytes and back (tests/unit/test_dcfg_trace_report.c). */
#include <stdlib.h>
#include <string.h>

#include "analysis/dcfg_trace_report_impl.h"
#include "core/alloc.h"
#include "core/bytes.h"

static const uint8_t MAGIC[6] = {'T', 'K', 'D', 'T', 'R', 1};

/* a + b into *sum; 1 when it passes 2^64 - 1 */
static int add_over(uint64_t a, uint64_t b, uint64_t *sum)
{
    *sum = a + b;
    return *sum < a;
}

tk_status tk_dcfg_trace_report_merge(tk_dcfg_trace_report *into, const tk_dcfg_trace_report *from,
                                     tk_error *err)
{
    if (into->stats.pid != from->stats.pid || into->stats.thread_id != from->stats.thread_id)
        return tk_error_set(err, TK_ERR_ARG, "merging the reports of two threads");
    tk_dcfg_trace_report_stats s = into->stats;
    if (add_over(s.edges, from->stats.edges, &s.edges) ||
        add_over(s.instructions, from->stats.instructions, &s.instructions))
        return tk_error_set(err, TK_ERR_LIMIT, "the merged counts pass 2^64 - 1");
    for (size_t i = 0; i < from->edges.cap; i++) { /* every sum first: nothing half-added */
        uint32_t key = from->edges.keys[i];
        if (!key) continue;
        size_t j = (key * 2654435761u) & (into->edges.cap ? into->edges.cap - 1 : 0);
        while (into->edges.cap && into->edges.keys[j] && into->edges.keys[j] != key)
            j = (j + 1) & (into->edges.cap - 1);
        uint64_t sum;
        if (into->edges.cap && into->edges.keys[j] == key &&
            add_over(into->edges.vals[j], from->edges.vals[i], &sum))
            return tk_error_set(err, TK_ERR_LIMIT, "edge %u's count passes 2^64 - 1", key);
    }
    for (size_t i = 0; i < from->edges.cap; i++)
        if (from->edges.keys[i] &&
            tk_dtr_count_add(&into->edges, from->edges.keys[i], from->edges.vals[i]) != 0)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    s.chunks += from->stats.chunks;
    s.distinct_edges = into->edges.n;
    into->stats = s;
    return tk_dtr_rank_edges(into, err);
}

/* ---- bytes ---------------------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

tk_status tk_dcfg_trace_report_serialize(const tk_dcfg_trace_report *r, uint8_t **data,
                                         size_t *size, tk_error *err)
{
    *data = NULL;
    *size = 0;
    const count_map *m = &r->edges;
    uint32_t *ids = tk_malloc((m->n ? m->n : 1) * sizeof *ids);
    tk_bytes_out b = {NULL, 0, 0, 0};
    if (!ids) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_bytes_put(&b, MAGIC, sizeof MAGIC);
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) ids[n++] = m->keys[i];
    if (n > 1) qsort(ids, n, sizeof *ids, cmp_u32);
    const tk_dcfg_trace_report_stats *s = &r->stats;
    tk_bytes_put_u64(&b, s->pid);
    tk_bytes_put_u64(&b, s->thread_id);
    tk_bytes_put_u64(&b, s->chunks);
    tk_bytes_put_u64(&b, s->edges);
    tk_bytes_put_u64(&b, s->instructions);
    tk_bytes_put_u64(&b, n);
    uint32_t prev = 0;
    for (size_t k = 0; k < n; k++) {
        size_t j = (ids[k] * 2654435761u) & (m->cap - 1);
        while (m->keys[j] != ids[k]) j = (j + 1) & (m->cap - 1);
        tk_bytes_put_u64(&b, ids[k] - prev);
        tk_bytes_put_u64(&b, m->vals[j]);
        prev = ids[k];
    }
    tk_free(ids);
    return tk_bytes_take(&b, data, size, NULL, err);
}

typedef struct rd {
    const uint8_t *p, *start, *end;
    tk_error *err;
} rd;

static tk_status rd_fail(rd *r, const char *what)
{
    return tk_error_set_at(r->err, TK_ERR_FORMAT, NULL, (int64_t)(r->p - r->start), 0, 0,
                           "partial DCFG-Trace report: %s", what);
}

/* A varint in its shortest form (canonical bytes), at most 64 bits; a wrong byte is located
 * just past it. */
static tk_status get_u64(rd *r, uint64_t *v, const char *what)
{
    size_t pos = (size_t)(r->p - r->start);
    tk_varint_status vs = tk_varint_get(r->start, (size_t)(r->end - r->start), &pos, v);
    r->p = r->start + pos;
    if (vs == TK_VARINT_OK) return TK_OK;
    if (vs == TK_VARINT_END) return rd_fail(r, what);
    r->p++;
    return rd_fail(r, vs == TK_VARINT_OVER_64 ? "a number past 64 bits"
                                              : "a number not in its shortest form");
}

/* The header's numbers into r's stats; *n the distinct edges. */
static tk_status get_head(rd *in, tk_dcfg_trace_report *r, uint64_t *n)
{
    uint64_t v[6];
    static const char *const what[6] = {"no pid",          "no thread id",
                                        "no chunks",       "no edges",
                                        "no instructions", "no count of distinct edges"};
    for (int k = 0; k < 6; k++)
        if (get_u64(in, &v[k], what[k]) != TK_OK) return TK_ERR_FORMAT;
    if (v[2] > SIZE_MAX || v[5] > (uint64_t)(in->end - in->p) / 2)
        return rd_fail(in, "more distinct edges than the bytes can hold");
    r->stats.pid = v[0];
    r->stats.thread_id = v[1];
    r->stats.chunks = (size_t)v[2];
    r->stats.edges = v[3];
    r->stats.instructions = v[4];
    *n = v[5];
    return TK_OK;
}

/* The edges and their counts, which must add up to the report's edges. */
static tk_status get_edges(rd *in, tk_dcfg_trace_report *r, uint64_t n)
{
    uint64_t id = 0, total = 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t delta, count;
        if (get_u64(in, &delta, "an edge id missing") != TK_OK ||
            get_u64(in, &count, "an edge's count missing") != TK_OK)
            return TK_ERR_FORMAT;
        if (delta == 0 || delta > UINT32_MAX - id)
            return rd_fail(in, "edge ids not ascending 32-bit numbers from 1");
        if (count == 0) return rd_fail(in, "an edge counted 0 times");
        id += delta;
        if (add_over(total, count, &total)) return rd_fail(in, "the edges' counts pass 2^64 - 1");
        if (tk_dtr_count_add(&r->edges, (uint32_t)id, count) != 0)
            return tk_error_set(in->err, TK_ERR_NOMEM, "out of memory");
    }
    if (in->p != in->end) return rd_fail(in, "bytes after the last edge");
    if (total != r->stats.edges) return rd_fail(in, "the edges' counts do not add up to the edges");
    r->stats.distinct_edges = r->edges.n;
    return TK_OK;
}

tk_status tk_dcfg_trace_report_deserialize(tk_dcfg_trace_report **out, const uint8_t *data,
                                           size_t size, tk_error *err)
{
    *out = NULL;
    rd in = {data, data, data + size, err};
    if (size < sizeof MAGIC || memcmp(data, MAGIC, sizeof MAGIC) != 0)
        return rd_fail(&in, "not TKDTR version 1");
    in.p += sizeof MAGIC;
    tk_dcfg_trace_report *r = tk_calloc(1, sizeof *r);
    if (!r) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    uint64_t n = 0;
    tk_status st = get_head(&in, r, &n);
    if (st == TK_OK) st = get_edges(&in, r, n);
    if (st == TK_OK) st = tk_dtr_rank_edges(r, err);
    if (st != TK_OK) {
        tk_dcfg_trace_report_free(r);
        return st;
    }
    *out = r;
    return TK_OK;
}
