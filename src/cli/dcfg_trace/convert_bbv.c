/* convert --to bbv: basic-block vectors of a DCFG-Trace per N-instruction
 * slice, in SimPoint's .bb format ("T:id:count :id:count ..."; count =
 * instructions executed in the block during the slice), one vector stream
 * per thread (threads one after the other in file order; --pid/--thread
 * select one). With --loop-boundaries a slice does not end at the N-th
 * instruction but at the next execution of a loop head (as LoopPoint does);
 * the region boundaries go to --markers FILE, one line per boundary:
 * "PID THREAD slice N ends at loop head BLOCK ADDRESS count C", C being the
 * number of executions of the head before the boundary. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

typedef struct bbv_ctx {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    /* of process p, read once from the model: */
    uint32_t nblocks;
    uint32_t *block_id, *block_instrs; /* per block index */
    uint32_t *edge_src;                /* per edge index */
    uint64_t *block_addr;
    uint64_t interval;
    int loop_boundaries;
    cli_dcfg_trace_writer w;
    FILE *markers;
    uint64_t *slice;          /* instructions per block index in the current slice */
    uint32_t *touched;        /* block indexes with slice[b] != 0 */
    size_t ntouched;
    uint64_t *execs;          /* executions per block index since the thread started */
    uint8_t *is_head;         /* block index is a loop head */
    uint64_t in_slice;        /* instructions in the current slice */
    uint64_t slices;
    uint64_t pid, tid;
    size_t cur_chunk;
    int bad;                  /* 1: bad_edge is not in the DCFG; 2: a slice passes 2^64 - 1 */
    uint32_t bad_edge;
} bbv_ctx;

static const uint32_t *sort_ids;
static int cmp_block_id(const void *a, const void *b) {
    uint32_t x = sort_ids[*(const uint32_t *)a], y = sort_ids[*(const uint32_t *)b];
    return x < y ? -1 : (x > y);
}

static void end_slice(bbv_ctx *c) {
    if (c->ntouched == 0)
        return;
    sort_ids = c->block_id;
    qsort(c->touched, c->ntouched, sizeof *c->touched, cmp_block_id);
    cli_dcfg_trace_put_char(&c->w, 'T');
    for (size_t i = 0; i < c->ntouched; i++) {
        uint32_t b = c->touched[i];
        cli_dcfg_trace_put_str(&c->w, i ? " :" : ":");
        cli_dcfg_trace_put_u64(&c->w, c->block_id[b]);
        cli_dcfg_trace_put_char(&c->w, ':');
        cli_dcfg_trace_put_u64(&c->w, c->slice[b]);
        c->slice[b] = 0;
    }
    cli_dcfg_trace_put_char(&c->w, '\n');
    c->ntouched = 0;
    c->in_slice = 0;
    c->slices++;
}

static int exec_block(bbv_ctx *c, uint32_t b) {
    uint32_t instrs = c->block_instrs[b];
    if (c->in_slice >= c->interval) {
        if (!c->loop_boundaries) {
            end_slice(c);
        } else if (c->is_head[b]) {
            if (c->markers) {
                fprintf(c->markers, "%llu %llu slice %llu ends at loop head %u 0x%llx count %llu\n",
                        (unsigned long long)c->pid, (unsigned long long)c->tid,
                        (unsigned long long)c->slices + 1, c->block_id[b],
                        (unsigned long long)c->block_addr[b],
                        (unsigned long long)c->execs[b]);
            }
            end_slice(c);
        }
    }
    /* a slice holds at most the thread's instructions, which fit when the
     * chunks' source blocks make their INSTR_COUNT (a check --dcfg error
     * otherwise); slice[b] <= in_slice */
    if (__builtin_add_overflow(c->in_slice, instrs, &c->in_slice)) {
        c->bad = 2;
        return 1;
    }
    if (c->slice[b] == 0 && instrs > 0)
        c->touched[c->ntouched++] = b;
    c->slice[b] += instrs;
    c->execs[b]++;
    return 0;
}

static int on_chunk(void *ctx, size_t chunk, const uint32_t *edges, size_t n) {
    bbv_ctx *c = ctx;
    c->cur_chunk = chunk;
    for (size_t i = 0; i < n; i++) {
        uint32_t e = tk_cfg_find_edge(c->p, edges[i]);
        if (e == TK_CFG_NONE) {
            c->bad = 1;
            c->bad_edge = edges[i];
            return 1;
        }
        /* the source block of every edge executes (INSTR_COUNT's rule) */
        if (c->edge_src[e] < c->nblocks && exec_block(c, c->edge_src[e]))
            return 1;
    }
    return c->w.failed;
}

/* The decoding stopped (st TK_END): the error for why. */
static tk_status stop_error(const bbv_ctx *c, const tk_dcfg_trace *t, tk_error *err) {
    if (c->bad == 2) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, c->cur_chunk, &ci);
        return tk_error_set_at(err, TK_ERR_FORMAT, tk_dcfg_trace_path(t), -1, ci.line, ci.column,
                               "the thread's instruction count passes 2^64 - 1 in this chunk "
                               "(its source blocks hold more than its INSTR_COUNT)");
    }
    if (c->bad)
        return tk_error_set_at(err, TK_ERR_FORMAT, tk_dcfg_trace_path(t), -1, 0, 0,
                               "edge %u is not an edge of process %llu in the DCFG", c->bad_edge,
                               (unsigned long long)c->pid);
    return tk_error_set(err, TK_ERR_IO, "cannot write the output");
}

/* The vectors of one thread (process c->p of the DCFG). Returns an exit code. */
static int bbv_thread(bbv_ctx *c, const tk_dcfg_trace *t, tk_error *err) {
    int rc = CLI_EXIT_OK;
    tk_cfg_process_info pinfo;
    tk_cfg_process_get(c->cfg, c->p, &pinfo);
    c->nblocks = pinfo.nblocks;
    size_t nb = c->nblocks ? c->nblocks : 1;
    c->slice = calloc(nb, sizeof *c->slice);
    c->touched = calloc(nb, sizeof *c->touched);
    c->execs = calloc(nb, sizeof *c->execs);
    c->is_head = calloc(nb, 1);
    c->block_id = calloc(nb, sizeof *c->block_id);
    c->block_instrs = calloc(nb, sizeof *c->block_instrs);
    c->block_addr = calloc(nb, sizeof *c->block_addr);
    c->edge_src = calloc(pinfo.nedges ? pinfo.nedges : 1, sizeof *c->edge_src);
    if (!c->slice || !c->touched || !c->execs || !c->is_head || !c->block_id ||
        !c->block_instrs || !c->block_addr || !c->edge_src) {
        rc = cli_error((tk_error_set(err, TK_ERR_NOMEM, "out of memory"), err));
    } else {
        for (uint32_t b = 0; b < c->nblocks; b++) {
            tk_cfg_block_info bi;
            tk_cfg_block_get(c->p, b, &bi);
            c->block_id[b] = bi.id;
            c->block_instrs[b] = bi.num_instrs;
            c->block_addr[b] = bi.addr;
        }
        for (uint32_t e = 0; e < pinfo.nedges; e++) {
            tk_cfg_edge_info ei;
            tk_cfg_edge_get(c->cfg, c->p, e, &ei);
            c->edge_src[e] = ei.src;
        }
        for (uint32_t l = 0; l < pinfo.nloops; l++) {
            tk_cfg_loop_info li;
            tk_cfg_loop_get(c->p, l, &li);
            if (li.head < c->nblocks) c->is_head[li.head] = 1;
        }
        c->ntouched = 0;
        c->in_slice = 0;
        c->slices = 0;
        c->cur_chunk = SIZE_MAX;
        tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        opt.has_pid = 1;
        opt.pid = c->pid;
        opt.has_thread = 1;
        opt.thread_id = c->tid;
        uint64_t total;
        tk_status st = tk_dcfg_trace_decode(t, &opt, on_chunk, c, &total, NULL, err);
        if (st == TK_END)
            st = stop_error(c, t, err);
        if (st != TK_OK)
            rc = cli_error(err);
        else
            end_slice(c); /* the last, partial slice */
    }
    free(c->slice);
    free(c->touched);
    free(c->execs);
    free(c->is_head);
    free(c->block_id);
    free(c->block_instrs);
    free(c->block_addr);
    free(c->edge_src);
    c->block_id = c->block_instrs = c->edge_src = NULL;
    c->block_addr = NULL;
    c->slice = NULL;
    c->touched = NULL;
    c->execs = NULL;
    c->is_head = NULL;
    return rc;
}

/* --pid and --thread: which threads. */
typedef struct selection {
    int has_pid, has_thread;
    uint64_t pid, thread;
} selection;

/* Every thread selected, one after the other. Returns an exit code. */
static int bbv_threads(bbv_ctx *c, const tk_dcfg_trace *t, const tk_cfg *cfg,
                       const selection *sel) {
    int rc = CLI_EXIT_OK;
    tk_error err;
    tk_error_clear(&err);
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t) && rc == CLI_EXIT_OK; th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, ti.process, &pi);
        if ((sel->has_thread && ti.thread_id != sel->thread) ||
            (sel->has_pid && pi.pid != sel->pid))
            continue;
        uint32_t pix = tk_cfg_find_process(cfg, pi.pid);
        if (pix == TK_CFG_NONE) {
            /* the error of check --dcfg, located at the process's row */
            tk_dcfg_trace_decode_options only = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
            only.has_pid = 1;
            only.pid = pi.pid;
            only.has_thread = 1;
            only.thread_id = ti.thread_id;
            (void)tk_dcfg_trace_processes_in(t, cfg, &only, &err);
            return cli_error(&err);
        }
        c->p = tk_cfg_process_at(cfg, pix);
        c->pid = pi.pid;
        c->tid = ti.thread_id;
        rc = bbv_thread(c, t, &err);
    }
    return rc;
}

int cli_dcfg_trace_convert_bbv(const tk_dcfg_trace *t, const tk_cfg *cfg, const cli_args *a,
                               tk_output *out) {
    bbv_ctx c;
    memset(&c, 0, sizeof c);
    c.t = t;
    c.cfg = cfg;
    if (cli_get_u64("convert", a, "interval", 100000000, &c.interval) != 0)
        return CLI_EXIT_USAGE;
    if (c.interval == 0)
        return cli_usage_error("convert", "--interval must be at least 1");
    c.loop_boundaries = cli_has(a, "loop-boundaries");
    selection sel = {cli_has(a, "pid"), cli_has(a, "thread"), 0, 0};
    if (cli_get_u64("convert", a, "thread", 0, &sel.thread) != 0 ||
        cli_get_u64("convert", a, "pid", 0, &sel.pid) != 0)
        return CLI_EXIT_USAGE;
    const char *mpath = cli_get(a, "markers");
    if (mpath && !c.loop_boundaries)
        return cli_usage_error("convert", "--markers needs --loop-boundaries");
    if (mpath && !(c.markers = fopen(mpath, "w"))) {
        fprintf(stderr, "tracekit: %s: cannot open for writing\n", mpath);
        return CLI_EXIT_BAD_INPUT;
    }
    cli_dcfg_trace_writer_init(&c.w, cli_output_file(out));
    int rc = bbv_threads(&c, t, cfg, &sel);
    if (cli_dcfg_trace_writer_flush(&c.w) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "tracekit: cannot write the output\n");
        rc = CLI_EXIT_BAD_INPUT;
    }
    if (c.markers && fclose(c.markers) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "tracekit: %s: cannot write\n", mpath);
        rc = CLI_EXIT_BAD_INPUT;
    }
    return rc;
}
