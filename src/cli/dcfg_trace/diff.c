/* diff for dcfg-trace files: the first divergence between two traces of the
 * same program (thread, chunk, edge index, both edges, block addresses). */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

const cli_opt cli_dcfg_trace_diff_opts[] = {
    {"dcfg", 0, "DCFG", "describe the diverging edges (types, block addresses)"},
    {NULL, 0, NULL, NULL},
};

typedef struct seq_cursor {
    const tk_dcfg_trace *t;
    size_t first_chunk, nchunks, chunk; /* chunk: next to decode (relative) */
    uint32_t *buf;
    size_t n, cap, pos;
    size_t cur_chunk;                   /* chunk of the edges in buf (absolute) */
    uint64_t chunk_pos;                 /* index in that chunk of buf[pos] */
} seq_cursor;

static int cursor_collect(void *ctx, const uint32_t *e, size_t n) {
    seq_cursor *c = ctx;
    if (c->n + n > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4096;
        while (cap < c->n + n)
            cap *= 2;
        uint32_t *q = realloc(c->buf, cap * sizeof *q);
        if (!q)
            return 1;
        c->buf = q;
        c->cap = cap;
    }
    memcpy(c->buf + c->n, e, n * sizeof *e);
    c->n += n;
    return 0;
}

/* Next edge: 1 and *e, 0 at the end, -1 on error (err set). */
static int cursor_next(seq_cursor *c, uint32_t *e, tk_error *err) {
    while (c->pos >= c->n) {
        if (c->chunk >= c->nchunks)
            return 0;
        c->n = c->pos = 0;
        c->cur_chunk = c->first_chunk + c->chunk++;
        c->chunk_pos = 0;
        uint64_t got;
        tk_status st =
            tk_dcfg_trace_decode_chunk(c->t, c->cur_chunk, cursor_collect, c, &got, NULL, err);
        if (st == TK_END)
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        if (st != TK_OK)
            return -1;
    }
    *e = c->buf[c->pos++];
    c->chunk_pos++;
    return 1;
}

static void describe_edge(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t id) {
    printf("edge %u", id);
    uint32_t e = p ? tk_cfg_find_edge(p, id) : TK_CFG_NONE;
    if (e == TK_CFG_NONE) {
        printf("\n");
        return;
    }
    tk_cfg_edge_info ed;
    tk_cfg_edge_get(cfg, p, e, &ed);
    printf(" (%s) %u -> %u", tk_cfg_edge_type_name(cfg, p, e), tk_cfg_node_id(cfg, p, ed.src),
           tk_cfg_node_id(cfg, p, ed.tgt));
    uint32_t ends[2] = {ed.src, ed.tgt};
    for (int k = 0; k < 2; k++) {
        uint32_t image = tk_cfg_block_image(p, ends[k]);
        if (image == TK_CFG_NONE) /* a special node */
            continue;
        tk_cfg_block_info b;
        tk_cfg_block_get(p, ends[k], &b);
        tk_cfg_image_info im;
        tk_cfg_image_get(cfg, p, image, &im);
        const char *file = im.file_name;
        printf("%s %s+0x%llx", k ? " ->" : ":", file && *file ? file : "?",
               (unsigned long long)b.addr_offset);
    }
    printf("\n");
}

static int find_thread(const tk_dcfg_trace *t, uint64_t pid, uint64_t tid,
                       tk_dcfg_trace_thread_info *out)
{
    for (size_t i = 0; i < tk_dcfg_trace_thread_count(t); i++) {
        tk_dcfg_trace_thread(t, i, out);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, out->process, &pi);
        if (pi.pid == pid && out->thread_id == tid)
            return 1;
    }
    return 0;
}

/* Where two threads' edge sequences first differ. */
typedef struct divergence {
    uint64_t index;        /* the edges before it are equal */
    int has[2];            /* the side has an edge there (else it ends) */
    uint32_t edge[2];
    size_t chunk[2];       /* 1-based chunk of the thread */
    uint64_t chunk_pos[2]; /* 1-based edge of the chunk */
} divergence;

/* Compares thread a of ta with thread b of tb edge by edge: 1 and *dv at the
 * first difference, 0 when they hold the same edges, -1 on error (err set). */
static int first_divergence(const tk_dcfg_trace *ta, const tk_dcfg_trace_thread_info *a,
                            const tk_dcfg_trace *tb, const tk_dcfg_trace_thread_info *b,
                            divergence *dv, tk_error *err) {
    seq_cursor c[2] = {{ta, a->first_chunk, a->nchunks, 0, NULL, 0, 0, 0, 0, 0},
                       {tb, b->first_chunk, b->nchunks, 0, NULL, 0, 0, 0, 0, 0}};
    int found = 0;
    memset(dv, 0, sizeof *dv);
    for (;;) {
        uint32_t ea = 0, eb = 0;
        int ra = cursor_next(&c[0], &ea, err), rb = ra < 0 ? 0 : cursor_next(&c[1], &eb, err);
        if (ra < 0 || rb < 0) {
            found = -1;
            break;
        }
        if (ra == 0 && rb == 0)
            break;
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
    free(c[0].buf);
    free(c[1].buf);
    return found;
}

static void print_divergence(const divergence *dv, uint64_t pid, uint64_t tid,
                             const char *const names[2], const tk_cfg *cfg,
                             const tk_cfg_process *p) {
    printf("first divergence: process %llu thread %llu, edge %llu of the thread\n",
           (unsigned long long)pid, (unsigned long long)tid, (unsigned long long)dv->index + 1);
    for (int k = 0; k < 2; k++) {
        if (!dv->has[k]) {
            printf("  %s: ends after %llu edges\n", names[k], (unsigned long long)dv->index);
            continue;
        }
        printf("  %s: chunk %zu, edge %llu of the chunk: ", names[k], dv->chunk[k],
               (unsigned long long)dv->chunk_pos[k]);
        describe_edge(cfg, p, dv->edge[k]);
    }
}

/* The threads of `one` (names[which]) in the order of that trace, each against
 * the same thread of `other` when compare, else only whether `other` has it.
 * Stops at the first difference (*differ set). Returns an exit code. */
static int diff_threads(const tk_dcfg_trace *one, const tk_dcfg_trace *other, int compare,
                        const char *const names[2], int which, const tk_cfg *cfg, int *differ) {
    tk_error err;
    tk_error_clear(&err);
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(one) && !*differ; th++) {
        tk_dcfg_trace_thread_info ti, to;
        tk_dcfg_trace_thread(one, th, &ti);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(one, ti.process, &pi);
        if (!find_thread(other, pi.pid, ti.thread_id, &to)) {
            printf("process %llu thread %llu: only in %s\n", (unsigned long long)pi.pid,
                   (unsigned long long)ti.thread_id, names[which]);
            *differ = 1;
            break;
        }
        if (!compare)
            continue;
        divergence dv;
        int r = first_divergence(one, &ti, other, &to, &dv, &err);
        if (r < 0)
            return cli_error(&err);
        if (r > 0) {
            const tk_cfg_process *p = NULL;
            if (cfg) {
                uint32_t pix = tk_cfg_find_process(cfg, pi.pid);
                p = tk_cfg_process_at(cfg, pix);
            }
            print_divergence(&dv, pi.pid, ti.thread_id, names, cfg, p);
            *differ = 1;
        }
    }
    return CLI_EXIT_OK;
}

int cli_dcfg_trace_diff(cli_ctx *ctx, const cli_args *a) {
    if (ctx->ninputs != 2)
        return cli_usage_error("diff", "expected two traces");
    tk_cfg *cfg = NULL;
    int rc = cli_dcfg_trace_load_dcfg(a, ctx->progress, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_dcfg_trace *ta = NULL, *tb = NULL;
    tk_error err;
    tk_error_clear(&err);
    const char *const names[2] = {ctx->paths[0], ctx->paths[1]};
    int differ = 0;
    if (tk_dcfg_trace_open_input(&ta, ctx->inputs[0], NULL, &err) != TK_OK ||
        tk_dcfg_trace_open_input(&tb, ctx->inputs[1], NULL, &err) != TK_OK)
        rc = cli_error(&err);
    else if ((rc = diff_threads(ta, tb, 1, names, 0, cfg, &differ)) == CLI_EXIT_OK)
        rc = diff_threads(tb, ta, 0, names, 1, cfg, &differ);
    if (rc == CLI_EXIT_OK) {
        if (!differ)
            printf("no difference: the traces hold the same edge sequences\n");
        rc = differ ? CLI_EXIT_BAD_INPUT : CLI_EXIT_OK;
    }
    tk_dcfg_trace_free(ta);
    tk_dcfg_trace_free(tb);
    tk_cfg_free(cfg);
    return rc;
}
