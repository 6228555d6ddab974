/* Where two DCFG-Traces first differ: the threads of each matched by (pid, tid), their edge
 * sequences compared chunk by chunk. */
#include "tracekit/dcfg_trace_diff.h"

#include <string.h>

#include "core/alloc.h"

/* A thread's edges, one at a time, a chunk decoded at a time. */
typedef struct seq_cursor {
    const tk_dcfg_trace *t;
    size_t first_chunk, nchunks, chunk; /* chunk: next to decode (relative) */
    uint32_t *buf;
    size_t n, cap, pos;
    size_t cur_chunk; /* chunk of the edges in buf (absolute) */
    uint64_t chunk_pos; /* index in that chunk of buf[pos] */
    tk_status failed; /* the error of cursor_next, when it returned -1 */
} seq_cursor;

static int cursor_collect(void *ctx, const uint32_t *e, size_t n)
{
    seq_cursor *c = ctx;
    if (c->n + n > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4096;
        while (cap < c->n + n) cap *= 2;
        uint32_t *q = tk_reallocarray(c->buf, cap, sizeof *q);
        if (!q) return 1;
        c->buf = q;
        c->cap = cap;
    }
    memcpy(c->buf + c->n, e, n * sizeof *e);
    c->n += n;
    return 0;
}

/* Next edge: 1 and *e, 0 at the end, -1 on error (err set). */
static int cursor_next(seq_cursor *c, uint32_t *e, tk_error *err)
{
    while (c->pos >= c->n) {
        if (c->chunk >= c->nchunks) return 0;
        c->n = c->pos = 0;
        c->cur_chunk = c->first_chunk + c->chunk++;
        c->chunk_pos = 0;
        uint64_t got;
        tk_status st =
            tk_dcfg_trace_decode_chunk(c->t, c->cur_chunk, cursor_collect, c, &got, NULL, err);
        if (st == TK_END) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        if (st != TK_OK) {
            c->failed = st;
            return -1;
        }
    }
    *e = c->buf[c->pos++];
    c->chunk_pos++;
    return 1;
}

static int find_thread(const tk_dcfg_trace *t, uint64_t pid, uint64_t tid,
                       tk_dcfg_trace_thread_info *out)
{
    for (size_t i = 0; i < tk_dcfg_trace_thread_count(t); i++) {
        tk_dcfg_trace_thread(t, i, out);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, out->process, &pi);
        if (pi.pid == pid && out->thread_id == tid) return 1;
    }
    return 0;
}

/* Compares thread a of ta with thread b of tb edge by edge: 1 and the divergence in *dv at
 * the first difference, 0 when they hold the same edges, -1 on error (*failed, err set). */
static int first_divergence(const tk_dcfg_trace *ta, const tk_dcfg_trace_thread_info *a,
                            const tk_dcfg_trace *tb, const tk_dcfg_trace_thread_info *b,
                            tk_dcfg_trace_diff *dv, tk_status *failed, tk_error *err)
{
    seq_cursor c[2] = {{ta, a->first_chunk, a->nchunks, 0, NULL, 0, 0, 0, 0, 0, TK_OK},
                       {tb, b->first_chunk, b->nchunks, 0, NULL, 0, 0, 0, 0, 0, TK_OK}};
    int found = 0;
    for (;;) {
        uint32_t ea = 0, eb = 0;
        int ra = cursor_next(&c[0], &ea, err), rb = ra < 0 ? 0 : cursor_next(&c[1], &eb, err);
        if (ra < 0 || rb < 0) {
            *failed = ra < 0 ? c[0].failed : c[1].failed;
            found = -1;
            break;
        }
        if (ra == 0 && rb == 0) break;
        if (ra && rb && ea == eb) {
            dv->index++;
            continue;
        }
        found = 1;
        int rs[2] = {ra, rb};
        uint32_t es[2] = {ea, eb};
        for (int k = 0; k < 2; k++) {
            dv->has[k] = rs[k];
            dv->edge[k] = es[k];
            dv->chunk[k] = c[k].cur_chunk - c[k].first_chunk + 1;
            dv->chunk_pos[k] = c[k].chunk_pos;
        }
        break;
    }
    tk_free(c[0].buf);
    tk_free(c[1].buf);
    return found;
}

/* The threads of `one` (side `which`) in its order, each against the same thread of `other`
 * when compare, else only whether `other` has it. Stops at the first difference. */
static tk_status diff_threads(const tk_dcfg_trace *one, const tk_dcfg_trace *other, int compare,
                              int which, tk_dcfg_trace_diff *out, tk_error *err)
{
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(one); th++) {
        tk_dcfg_trace_thread_info ti, to;
        tk_dcfg_trace_thread(one, th, &ti);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(one, ti.process, &pi);
        memset(out, 0, sizeof *out);
        out->pid = pi.pid;
        out->tid = ti.thread_id;
        if (!find_thread(other, pi.pid, ti.thread_id, &to)) {
            out->kind = TK_DCFG_TRACE_ONLY_IN;
            out->side = which;
            return TK_OK;
        }
        if (!compare) continue;
        tk_status failed = TK_OK;
        int r = first_divergence(one, &ti, other, &to, out, &failed, err);
        if (r < 0) return failed;
        if (r > 0) {
            out->kind = TK_DCFG_TRACE_DIVERGE;
            return TK_OK;
        }
    }
    memset(out, 0, sizeof *out);
    return TK_OK;
}

tk_status tk_dcfg_trace_compare(const tk_dcfg_trace *a, const tk_dcfg_trace *b,
                                tk_dcfg_trace_diff *out, tk_error *err)
{
    tk_status st = diff_threads(a, b, 1, 0, out, err);
    if (st == TK_OK && out->kind == TK_DCFG_TRACE_SAME) st = diff_threads(b, a, 0, 1, out, err);
    return st;
}
