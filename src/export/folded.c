/* Folded stacks (flame graph input) from an events stream: weights accumulate per interned
 * call path; one line per path with a non-zero weight, in order of first appearance. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/writer.h"
#include "core/alloc.h"
#include "model/events.h"
#include "tracekit/viewers.h"

typedef struct folded {
    tk_folded_weight weight;
    uint64_t *w; /* per path node */
    uint32_t cap;
    int failed;
} folded;

static void grow(folded *fo, uint32_t path)
{
    uint32_t ncap = fo->cap ? fo->cap : 1024;
    while (ncap <= path) ncap *= 2;
    uint64_t *nw = tk_reallocarray(fo->w, ncap, sizeof *nw);
    if (!nw) {
        fo->failed = 1;
        return;
    }
    memset(nw + fo->cap, 0, (size_t)(ncap - fo->cap) * sizeof *nw);
    fo->w = nw;
    fo->cap = ncap;
}

static inline __attribute__((always_inline)) void on_close(void *ctx, const tk_stack_thread *t,
                                                           const tk_frame *f, uint32_t depth,
                                                           uint64_t end, uint64_t duration,
                                                           uint64_t self, tk_close_how how)
{
    (void)t;
    (void)depth;
    (void)end;
    (void)duration;
    folded *fo = ctx;
    if (f->path >= fo->cap) {
        grow(fo, f->path);
        if (f->path >= fo->cap) return;
    }
    if (fo->weight == TK_FOLDED_CALLS) {
        if (how != TK_CLOSE_AT_END) fo->w[f->path]++;
    } else {
        fo->w[f->path] += self;
    }
}

/* A frame name without ';' and line breaks. */
static void put_frame(FILE *out, const char *name)
{
    for (const char *p = name; *p; p++)
        fputc(*p == ';' || *p == '\n' || *p == '\r' ? '_' : *p, out);
}

/* The process keys of cs's threads (tk_event_process_keys), into *keys (tk_free). */
static tk_status thread_keys(const tk_callstacks *cs, int64_t **keys, tk_error *err)
{
    size_t n = cs->nthreads ? cs->nthreads : 1;
    int64_t *pids = tk_malloc(n * sizeof *pids);
    uint32_t *traces = tk_malloc(n * sizeof *traces);
    *keys = tk_malloc(n * sizeof **keys);
    tk_status st = pids && traces && *keys ? TK_OK : TK_ERR_NOMEM;
    for (uint32_t i = 0; st == TK_OK && i < cs->nthreads; i++) {
        pids[i] = cs->threads[i].pid;
        /* an index no event had is no thread: it makes no pid an earlier trace's */
        traces[i] = cs->threads[i].events ? cs->threads[i].trace : UINT32_MAX;
    }
    if (st == TK_OK)
        st = tk_event_process_keys(pids, traces, cs->nthreads, *keys, err);
    else
        tk_error_set(err, st, "out of memory keying processes");
    tk_free(pids);
    tk_free(traces);
    return st;
}

static tk_status export_folded_stream(const tk_event_source *src, FILE *out,
                                      tk_folded_weight weight, int per_thread, tk_error *err)
{
    folded fo = {weight, NULL, 0, 0};
    tk_callstacks cs;
    tk_callstacks_init(&cs, NULL, on_close, &fo);
    tk_status st = tk_callstacks_track_paths(&cs, per_thread, err);
    if (st == TK_OK) st = tk_callstacks_run_with(&cs, src, on_close, &fo, TK_FEED_NO_OPEN, err);
    if (st == TK_OK && fo.failed)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory accumulating call paths");
    uint32_t *chain = NULL;
    size_t ntraces = tk_event_source_traces(src);
    int64_t *keys = NULL;
    if (st == TK_OK && ntraces > 1) st = thread_keys(&cs, &keys, err);
    if (st == TK_OK) {
        double scale = weight == TK_FOLDED_TIME && src->ticks_per_second > 0
                           ? 1e9 / src->ticks_per_second
                           : 1.0;
        uint32_t chain_cap = 0;
        char buf[64];
        for (uint32_t node = 1; node < cs.npaths && node < fo.cap; node++) {
            uint64_t w = fo.w[node];
            if (weight == TK_FOLDED_TIME) {
                double v = (double)w * scale + 0.5; /* saturate, never overflow */
                w = v < 1.8e19 ? (uint64_t)v : UINT64_MAX;
            }
            if (!w) continue;
            uint32_t depth = 0;
            for (uint32_t p = node; p != TK_PATH_ROOT; p = cs.path_parent[p]) {
                if (depth == chain_cap) {
                    chain_cap = chain_cap ? chain_cap * 2 : 256;
                    uint32_t *nc = tk_reallocarray(chain, chain_cap, sizeof *nc);
                    if (!nc) {
                        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
                        goto done;
                    }
                    chain = nc;
                }
                chain[depth++] = p;
            }
            for (uint32_t i = depth; i-- > 0;) {
                uint32_t p = chain[i];
                if (cs.path_is_thread[p]) {
                    uint32_t th = (uint32_t)cs.path_func[p];
                    char name[64];
                    tk_thread_root_name(name, sizeof name, ntraces, keys ? keys[th] : 0,
                                        cs.threads[th].tid);
                    fputs(name, out);
                } else {
                    put_frame(out, tk_event_func_name(src, cs.path_func[p], buf, sizeof buf));
                }
                fputc(i ? ';' : ' ', out);
            }
            fprintf(out, "%" PRIu64 "\n", w);
        }
        if (ferror(out)) st = tk_error_set(err, TK_ERR_IO, "cannot write the folded stacks");
    }
done:
    tk_free(keys);
    tk_free(chain);
    tk_free(fo.w);
    tk_callstacks_free(&cs);
    return st;
}

tk_status tk_export_folded(const tk_event_source *src, const tk_writer *out,
                           tk_folded_weight weight, int per_thread, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, export_folded_stream(src, s.f, weight, per_thread, err), err);
}
