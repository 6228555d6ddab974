/* convert --to bbv of one DCFG-Trace by a team (team.h, tracekit-mpi): every member has read
 * the trace's tables and the DCFG; each thread's chunks are split across the members by their
 * bytes (cli_dcfg_trace_own_chunks, as report splits them), and the thread's vectors made in
 * three passes (docs/mpi.md, "DCFG-Trace basic-block vectors"): each member decodes its chunks
 * and keeps their blocks (tk_dcfg_trace_bbv_blocks_open, on its -j threads); the members walk
 * their blocks one after the other (the team's chain), each from the instructions of the slice
 * that the one before it left open; each makes its part of its blocks from there
 * (tk_dcfg_trace_bbv_blocks_part), and the parts, merged in member order along the tree, give
 * the root the thread's slices (tk_dcfg_trace_bbv_part_slices), which it writes while the
 * others go on with the next thread (a merge that fails is an error: parts that do not follow
 * each other, memory). When a member fails (a chunk that does not decode, an
 * edge not in the DCFG, a process the DCFG lacks, memory), every member learns it and the root
 * goes on alone from that thread (tk_dcfg_trace_bbv from thread_begin), which writes what
 * tracekit writes of it before the error and says the error as tracekit says it. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"
#include "team.h"

CLI_PART_KIND(bbv_kind, "bbv parts", tk_dcfg_trace_bbv_part, tk_dcfg_trace_bbv_part);

/* The walk's state along the members. */
typedef struct walk_state {
    uint64_t open; /* the instructions of the slice open */
    uint64_t failed; /* a member before could not walk */
} walk_state;

typedef struct walk {
    const tk_dcfg_trace_bbv_blocks *blocks; /* NULL: this member failed */
    walk_state entry; /* what the member before passed on */
} walk;

/* cli_chain_fn: this member's blocks walked from the state passed on. */
static void step(void *arg, void *state)
{
    walk *w = arg;
    walk_state *s = state;
    w->entry = *s;
    tk_error err;
    tk_error_clear(&err);
    if (!s->failed &&
        (!w->blocks || tk_dcfg_trace_bbv_blocks_walk(w->blocks, &s->open, &err) != TK_OK))
        s->failed = 1;
}

/* This member's part of thread th into p (CLI_PART_EMPTY without chunks). Returns 0, 1 when
 * it (or a member before it) failed, -1 when the team did. */
static int own_part(const cli_team *team, const tk_dcfg_trace *t, const tk_cfg *cfg,
                    const tk_dcfg_trace_bbv_options *opt, size_t th, cli_part_bytes *p)
{
    memset(p, 0, sizeof *p);
    tk_error err;
    tk_error_clear(&err);
    size_t begin = 0, end = 0;
    tk_dcfg_trace_bbv_blocks *blocks = NULL;
    int failed = cli_dcfg_trace_own_chunks(team, t, th, &begin, &end) != 0 ||
                 tk_dcfg_trace_bbv_blocks_open(&blocks, t, cfg, opt, th, begin, end, &err) != TK_OK;
    walk w = {blocks, {0, 0}};
    walk_state s = {0, 0};
    int rc = team->chain(team, &s, sizeof s, step, &w);
    int go = rc == 0 && !failed && !w.entry.failed && !s.failed && begin < end;
    tk_dcfg_trace_bbv_part *part = NULL;
    tk_status st = go ? tk_dcfg_trace_bbv_blocks_part(&part, blocks, w.entry.open, &err) : TK_OK;
    tk_dcfg_trace_bbv_blocks_free(blocks);
    if (rc != 0) return -1;
    if (failed || w.entry.failed || s.failed) return 1;
    if (begin == end) return 0;
    uint8_t *data = NULL;
    size_t size = 0;
    if (st == TK_OK) st = tk_dcfg_trace_bbv_part_serialize(part, &data, &size, &err);
    tk_dcfg_trace_bbv_part_free(part);
    if (st != TK_OK) return 1;
    return cli_part_take(data, size, p) == 0 ? 0 : 1;
}

/* The root's slices of thread th from the merged parts p, or the merge's error (parts that do
 * not follow each other, memory: what the other team commands say of a merge that failed). */
static tk_status root_slices(const cli_part_bytes *p, const tk_dcfg_trace *t, const tk_cfg *cfg,
                             size_t th, tk_dcfg_trace_bbv_fn fn, void *ctx, tk_error *err)
{
    if (p->state == CLI_PART_EMPTY) return TK_OK; /* a thread without chunks: no slice */
    if (p->state == CLI_PART_FAILED)
        return tk_error_set(err, TK_ERR_FORMAT, "%.*s", (int)p->size, (const char *)p->data);
    tk_dcfg_trace_bbv_part *part = NULL;
    tk_status st = tk_dcfg_trace_bbv_part_deserialize(&part, p->data, p->size, err);
    if (st == TK_OK) st = tk_dcfg_trace_bbv_part_slices(part, t, cfg, th, fn, ctx, err);
    tk_dcfg_trace_bbv_part_free(part);
    return st;
}

tk_status cli_dcfg_trace_team_bbv(const cli_team *team, const tk_dcfg_trace *t, const tk_cfg *cfg,
                                  const tk_dcfg_trace_bbv_options *opt, tk_dcfg_trace_bbv_fn fn,
                                  void *ctx, tk_error *err)
{
    tk_status st = TK_OK;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++) {
        if (!tk_dcfg_trace_bbv_selects(t, opt, th)) continue;
        cli_part_bytes p;
        int failed = own_part(team, t, cfg, opt, th, &p);
        if (failed < 0 || team->max(team, &failed) != 0) {
            cli_part_free(&p);
            return tk_error_set(err, TK_ERR_IO, "the team failed");
        }
        if (failed) { /* the root alone from here, as tracekit runs it */
            cli_part_free(&p);
            if (team->rank != 0 || st != TK_OK) return st;
            tk_dcfg_trace_bbv_options alone = *opt;
            alone.thread_begin = th;
            alone.thread_end = 0;
            return tk_dcfg_trace_bbv(t, cfg, &alone, fn, ctx, err);
        }
        if (team->reduce(team, &p, cli_part_merge, (void *)&bbv_kind) != 0) {
            cli_part_free(&p);
            return tk_error_set(err, TK_ERR_IO, "the team failed");
        }
        if (team->rank == 0 && st == TK_OK) st = root_slices(&p, t, cfg, th, fn, ctx, err);
        cli_part_free(&p);
    }
    return team->rank == 0 ? st : TK_OK;
}
