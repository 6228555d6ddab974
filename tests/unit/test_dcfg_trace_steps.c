/* Decoding a DCFG-Trace through the DCFG of the run (tracekit/dcfg_trace.h: the pieces and
 * steps of tk_dcfg_trace_decode with opt.cfg, what `tracekit decode --what
 * blocks|addrs|calls` prints): the steps against the DCFG, the instruction counts, the
 * selections, parallel rendering in small pieces, and the located errors. */
#include <string.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static const char gen11[] = "tests/data/dcfg_trace/pass/gen11.level9.trace.json";
static const char gen11_dcfg[] = "tests/data/dcfg_trace/pass/gen11.dcfg.json";

/* What the receiver keeps: every edge and step, in order, with the chunk of each. */
typedef struct seen {
    uint32_t edges[1024];
    tk_dcfg_trace_step steps[1024];
    size_t step_chunk[1024];
    size_t nedges, nsteps, pieces, stop_after;
    uint64_t tids[1024];
    int bad_piece; /* a piece whose head does not match its chunk */
    const tk_dcfg_trace *t;
} seen;

static int keep(void *ctx, const tk_dcfg_trace_piece *p)
{
    seen *v = ctx;
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(v->t, p->thread, &ti);
    tk_dcfg_trace_process_info pi;
    tk_dcfg_trace_process(v->t, ti.process, &pi);
    if (p->chunk < ti.first_chunk || p->chunk >= ti.first_chunk + ti.nchunks ||
        p->thread_id != ti.thread_id || p->pid != pi.pid || p->nedges > TK_DCFG_TRACE_PIECE_STEPS)
        v->bad_piece = 1;
    for (size_t i = 0; i < p->nedges && v->nedges < 1024; i++) v->edges[v->nedges++] = p->edges[i];
    for (size_t i = 0; i < p->nsteps && v->nsteps < 1024; i++) {
        v->step_chunk[v->nsteps] = p->chunk;
        v->tids[v->nsteps] = p->thread_id;
        v->steps[v->nsteps++] = p->steps[i];
    }
    v->pieces++;
    return v->stop_after && v->pieces >= v->stop_after;
}

static int open_both(const char *trace, const char *dcfg, tk_dcfg_trace **t, tk_cfg **cfg)
{
    tk_error err;
    tk_error_clear(&err);
    *t = NULL;
    *cfg = NULL;
    return TK_CHECK(tk_dcfg_trace_open(t, trace, NULL, &err) == TK_OK) &&
           TK_CHECK(tk_dcfg_read_path(cfg, dcfg, NULL, &err) == TK_OK);
}

static tk_status walk(const tk_dcfg_trace *t, const tk_cfg *cfg, tk_dcfg_trace_steps which, seen *v,
                      tk_error *err)
{
    tk_dcfg_trace_decode_options o = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    o.cfg = cfg;
    o.steps = which;
    o.piece = keep;
    v->t = t;
    uint64_t total;
    return tk_dcfg_trace_decode(t, &o, NULL, v, &total, NULL, err);
}

/* Every edge is a step: its edge in the DCFG, its ends, its kind, and the thread's
 * instruction count, which ends each chunk at PRECEDING_INSTR_COUNT + INSTR_COUNT. */
static void test_steps_follow_the_dcfg(void)
{
    tk_dcfg_trace *t;
    tk_cfg *cfg;
    tk_error err;
    tk_error_clear(&err);
    static seen v;
    memset(&v, 0, sizeof v);
    if (open_both(gen11, gen11_dcfg, &t, &cfg) &&
        TK_CHECK(walk(t, cfg, TK_DCFG_TRACE_STEPS_ALL, &v, &err) == TK_OK)) {
        TK_CHECK_EQ_U64(v.nedges, 800);
        TK_CHECK_EQ_U64(v.nsteps, 800);
        TK_CHECK(!v.bad_piece);
        const tk_cfg_process *p = tk_cfg_process_at(cfg, tk_cfg_find_process(cfg, 77));
        uint64_t instrs = 0;
        size_t bad = 0, ends = 0;
        for (size_t i = 0; i < v.nsteps; i++) {
            const tk_dcfg_trace_step *s = &v.steps[i];
            tk_dcfg_trace_chunk_info ci;
            tk_dcfg_trace_chunk(t, v.step_chunk[i], &ci);
            if (i == 0 || v.step_chunk[i] != v.step_chunk[i - 1]) instrs = ci.preceding_instr_count;
            tk_cfg_edge_info e;
            tk_cfg_edge_get(cfg, p, s->edge, &e);
            tk_cfg_block_info b;
            tk_cfg_block_get(p, e.src, &b); /* zeros for a special node */
            instrs += b.num_instrs;
            if (s->edge_id != v.edges[i] || e.id != s->edge_id || e.src != s->src ||
                e.tgt != s->tgt || e.kind != s->kind || s->instrs != instrs)
                bad++;
            if (i + 1 == v.nsteps || v.step_chunk[i + 1] != v.step_chunk[i])
                ends += s->instrs == ci.preceding_instr_count + ci.instr_count;
        }
        TK_CHECK_EQ_U64(bad, 0);
        TK_CHECK_EQ_U64(ends, tk_dcfg_trace_chunk_count(t));
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

/* Field by field: a step has padding before instrs, which memcmp would compare too. */
static int same_step(const tk_dcfg_trace_step *a, const tk_dcfg_trace_step *b)
{
    return a->edge_id == b->edge_id && a->edge == b->edge && a->src == b->src && a->tgt == b->tgt &&
           a->kind == b->kind && a->instrs == b->instrs;
}

/* BLOCKS and CALLS keep those steps of ALL whose source is a block, or which call or
 * return, with the same instruction counts; the pieces still carry every edge. */
static void test_selections(void)
{
    tk_dcfg_trace *t;
    tk_cfg *cfg;
    tk_error err;
    tk_error_clear(&err);
    static seen all, blocks, calls;
    memset(&all, 0, sizeof all);
    memset(&blocks, 0, sizeof blocks);
    memset(&calls, 0, sizeof calls);
    if (open_both(gen11, gen11_dcfg, &t, &cfg) &&
        TK_CHECK(walk(t, cfg, TK_DCFG_TRACE_STEPS_ALL, &all, &err) == TK_OK) &&
        TK_CHECK(walk(t, cfg, TK_DCFG_TRACE_STEPS_BLOCKS, &blocks, &err) == TK_OK) &&
        TK_CHECK(walk(t, cfg, TK_DCFG_TRACE_STEPS_CALLS, &calls, &err) == TK_OK)) {
        const tk_cfg_process *p = tk_cfg_process_at(cfg, tk_cfg_find_process(cfg, 77));
        size_t nb = 0, nc = 0, bad = 0;
        for (size_t i = 0; i < all.nsteps; i++) {
            const tk_dcfg_trace_step *s = &all.steps[i];
            if (tk_cfg_block_image(p, s->src) != TK_CFG_NONE &&
                (nb >= blocks.nsteps || !same_step(&blocks.steps[nb++], s)))
                bad++;
            if ((tk_edge_kind_is_any_call(s->kind) || tk_edge_kind_is_any_return(s->kind)) &&
                (nc >= calls.nsteps || !same_step(&calls.steps[nc++], s)))
                bad++;
        }
        TK_CHECK_EQ_U64(bad, 0);
        /* `tracekit decode --what blocks` prints 798 lines, `--what calls` 4 */
        TK_CHECK_EQ_U64(nb, 798);
        TK_CHECK_EQ_U64(blocks.nsteps, 798);
        TK_CHECK_EQ_U64(nc, 4);
        TK_CHECK_EQ_U64(calls.nsteps, 4);
        TK_CHECK_EQ_U64(blocks.nedges, 800);
        TK_CHECK_EQ_U64(calls.nedges, 800);
        /* the first call: "77 0 1 call 10 28 f2" */
        if (calls.nsteps == 4) {
            TK_CHECK_EQ_U64(calls.tids[0], 0);
            TK_CHECK_EQ_U64(calls.steps[0].instrs, 1);
            TK_CHECK(tk_edge_kind_is_any_call(calls.steps[0].kind));
            TK_CHECK_EQ_U64(tk_cfg_node_id(cfg, p, calls.steps[0].src), 10);
            TK_CHECK_EQ_U64(tk_cfg_node_id(cfg, p, calls.steps[0].tgt), 28);
        }
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

/* Rendering: "chunk instrs\n" per step. */
static int render_steps(const void *ctx, const tk_dcfg_trace_piece *p, tk_dcfg_trace_text *out)
{
    (void)ctx;
    if (tk_dcfg_trace_text_reserve(out, p->nsteps * 48 + 1, NULL) != TK_OK) return 1;
    for (size_t i = 0; i < p->nsteps; i++)
        out->len += (size_t)snprintf(out->data + out->len, 48, "%zu %llu %u\n", p->chunk,
                                     (unsigned long long)p->steps[i].instrs, p->steps[i].edge_id);
    return 0;
}

typedef struct text {
    char p[65536];
    size_t n;
} text;

static int append(void *ctx, size_t chunk, const char *data, size_t len)
{
    (void)chunk;
    text *o = ctx;
    if (o->n + len > sizeof o->p) return 1;
    memcpy(o->p + o->n, data, len);
    o->n += len;
    return 0;
}

static tk_status render_all(const tk_dcfg_trace *t, const tk_cfg *cfg, unsigned threads,
                            size_t max_chunk_edges, text *o, tk_error *err)
{
    tk_dcfg_trace_decode_options d = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    d.cfg = cfg;
    d.steps = TK_DCFG_TRACE_STEPS_ALL;
    d.threads = threads;
    d.max_chunk_edges = max_chunk_edges;
    d.render = render_steps;
    d.write_text = append;
    uint64_t total;
    return tk_dcfg_trace_decode(t, &d, NULL, o, &total, NULL, err);
}

/* On 3 threads, with the chunks of more than 7 edges decoded in pieces while delivering
 * (the instruction count carried from piece to piece), the text is the serial one. */
static void test_parallel_pieces(void)
{
    tk_dcfg_trace *t;
    tk_cfg *cfg;
    tk_error err;
    tk_error_clear(&err);
    static text serial, parallel, pieces;
    serial.n = parallel.n = pieces.n = 0;
    if (open_both(gen11, gen11_dcfg, &t, &cfg) &&
        TK_CHECK(render_all(t, cfg, 1, 0, &serial, &err) == TK_OK) &&
        TK_CHECK(render_all(t, cfg, 3, 0, &parallel, &err) == TK_OK) &&
        TK_CHECK(render_all(t, cfg, 3, 7, &pieces, &err) == TK_OK)) {
        TK_CHECK(serial.n > 800 * 6);
        TK_CHECK(parallel.n == serial.n && memcmp(parallel.p, serial.p, serial.n) == 0);
        TK_CHECK(pieces.n == serial.n && memcmp(pieces.p, serial.p, serial.n) == 0);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

/* An edge the DCFG lacks: the steps before it are delivered, then the error at its chunk's
 * row; with diag, reported there and the decoding goes on. A process the DCFG lacks: an
 * error before anything is delivered. */
static void test_errors(void)
{
    tk_dcfg_trace *t;
    tk_cfg *cfg;
    tk_error err;
    tk_error_clear(&err);
    static seen v;
    memset(&v, 0, sizeof v);
    if (open_both("tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json", gen11_dcfg, &t,
                  &cfg)) {
        for (int which = TK_DCFG_TRACE_NO_STEPS; which <= TK_DCFG_TRACE_STEPS_CALLS; which++) {
            memset(&v, 0, sizeof v);
            TK_CHECK_EQ_I64(walk(t, cfg, (tk_dcfg_trace_steps)which, &v, &err), TK_ERR_FORMAT);
            TK_CHECK_STR(err.message, "edge 99999 is not an edge of process 77 in the DCFG");
            TK_CHECK_EQ_U64(err.line, 22);
            TK_CHECK_EQ_U64(err.column, 7);
            TK_CHECK_EQ_U64(v.nedges, 0); /* the first edge of the first chunk */
            TK_CHECK_EQ_U64(v.pieces, 1);
        }
        tk_diag diag;
        tk_diag_init(&diag, NULL, NULL);
        tk_dcfg_trace_decode_options o = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        o.cfg = cfg;
        o.steps = TK_DCFG_TRACE_STEPS_ALL;
        o.piece = keep;
        memset(&v, 0, sizeof v);
        v.t = t;
        uint64_t total;
        TK_CHECK_EQ_I64(tk_dcfg_trace_decode(t, &o, NULL, &v, &total, &diag, &err), TK_ERR_CHECK);
        TK_CHECK_EQ_U64(diag.errors, 1);
        TK_CHECK(v.nsteps > 0 && v.nsteps == v.nedges);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    if (open_both(gen11, "tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2",
                  &t, &cfg)) {
        memset(&v, 0, sizeof v);
        TK_CHECK_EQ_I64(walk(t, cfg, TK_DCFG_TRACE_STEPS_ALL, &v, &err), TK_ERR_FORMAT);
        TK_CHECK_STR(err.message, "process 77 is not in the DCFG");
        TK_CHECK(err.line > 0);
        TK_CHECK_EQ_U64(v.pieces, 0);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

/* A thread whose instruction count passes 2^64 - 1 (PRECEDING_INSTR_COUNT near it, the
 * blocks of the edges holding more than INSTR_COUNT): an error at the chunk, for the steps
 * only (a check without steps counts no instructions). */
static void test_instruction_count_overflow(void)
{
    tk_dcfg_trace *t0, *t = NULL;
    tk_cfg *cfg;
    tk_error err;
    tk_error_clear(&err);
    if (!open_both(gen11, gen11_dcfg, &t0, &cfg)) {
        tk_dcfg_trace_free(t0);
        tk_cfg_free(cfg);
        return;
    }
    tk_dcfg_trace_free(t0);
    FILE *f = fopen(gen11, "rb");
    static char doc[8192];
    size_t n = f ? fread(doc, 1, sizeof doc - 64, f) : 0;
    if (f) fclose(f);
    doc[n] = 0;
    /* the first chunk of thread 1 starts at 2^64 - 20 and says it holds 5 instructions
     * (its end fits) where its source blocks hold 711 */
    char *row = strstr(doc, "[ 1, [ [");
    char *at = row ? strstr(row, "[ 0, ") : NULL;
    if (TK_CHECK(at != NULL)) {
        at = strchr(at, '[') + 2;
        char fixed[8192];
        size_t k = (size_t)(at - doc);
        memcpy(fixed, doc, k);
        int m = snprintf(fixed + k, sizeof fixed - k, "18446744073709551596, 5%s",
                         at + strlen("0, 711"));
        if (TK_CHECK(tk_dcfg_trace_open_memory(&t, fixed, k + (size_t)m, "late", NULL, &err) ==
                     TK_OK)) {
            static seen v;
            memset(&v, 0, sizeof v);
            TK_CHECK_EQ_I64(walk(t, cfg, TK_DCFG_TRACE_STEPS_CALLS, &v, &err), TK_ERR_FORMAT);
            TK_CHECK(strstr(err.message, "instruction count passes 2^64 - 1") != NULL);
            TK_CHECK(err.line > 0);
            TK_CHECK_EQ_U64(v.nsteps, 3); /* those of thread 0, the first of thread 1 (at 1) */
            memset(&v, 0, sizeof v);
            TK_CHECK_EQ_I64(walk(t, cfg, TK_DCFG_TRACE_NO_STEPS, &v, &err), TK_OK);
            TK_CHECK_EQ_U64(v.nedges, 800);
        }
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

/* A receiver that stops; callbacks that do not go together. */
static void test_stop_and_refusals(void)
{
    tk_dcfg_trace *t;
    tk_cfg *cfg;
    tk_error err;
    tk_error_clear(&err);
    static seen v;
    memset(&v, 0, sizeof v);
    if (open_both(gen11, gen11_dcfg, &t, &cfg)) {
        v.stop_after = 2;
        TK_CHECK_EQ_I64(walk(t, cfg, TK_DCFG_TRACE_STEPS_ALL, &v, &err), TK_END);
        TK_CHECK_EQ_U64(v.pieces, 2);
        tk_dcfg_trace_decode_options o = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        uint64_t total;
        o.steps = TK_DCFG_TRACE_STEPS_ALL;
        TK_CHECK_EQ_I64(tk_dcfg_trace_decode(t, &o, NULL, NULL, &total, NULL, &err), TK_ERR_ARG);
        o.steps = TK_DCFG_TRACE_NO_STEPS;
        o.piece = keep;
        o.render = render_steps;
        o.write_text = append;
        TK_CHECK_EQ_I64(tk_dcfg_trace_decode(t, &o, NULL, NULL, &total, NULL, &err), TK_ERR_ARG);
        /* only the check: every edge counted */
        tk_dcfg_trace_decode_options c = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        c.cfg = cfg;
        c.threads = 2;
        TK_CHECK_EQ_I64(tk_dcfg_trace_decode(t, &c, NULL, NULL, &total, NULL, &err), TK_OK);
        TK_CHECK_EQ_U64(total, 800);
    }
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

/* An edge the DCFG lacks, in the callgrind profile and in the events (convert --to callgrind,
 * --to chrome): the walk's error, located at its chunk's row. */
static void test_errors_of_profile_and_events(void)
{
    tk_dcfg_trace *t;
    tk_cfg *cfg;
    tk_error err;
    if (!open_both("tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json", gen11_dcfg, &t,
                   &cfg))
        return;
    tk_profile *prof;
    TK_CHECK(tk_profile_open(&prof, &err) == TK_OK);
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_dcfg_trace_to_profile(t, cfg, prof, NULL, &err), TK_ERR_FORMAT);
    TK_CHECK_STR(err.message, "edge 99999 is not an edge of process 77 in the DCFG");
    TK_CHECK_EQ_U64(err.line, 22);
    TK_CHECK_EQ_U64(err.column, 7);
    tk_profile_free(prof);
    tk_dcfg_trace_events *x;
    tk_event_source src;
    TK_CHECK(tk_dcfg_trace_events_open(&x, t, cfg, NULL, &err) == TK_OK);
    tk_dcfg_trace_events_source(x, &src);
    tk_event ev;
    tk_status st;
    tk_error_clear(&err);
    while ((st = src.next(src.ctx, &ev, &err)) == TK_OK) {
    }
    TK_CHECK_EQ_I64(st, TK_ERR_FORMAT);
    TK_CHECK_STR(err.message, "edge 99999 is not an edge of process 77 in the DCFG");
    TK_CHECK_EQ_U64(err.line, 22);
    TK_CHECK_EQ_U64(err.column, 7);
    tk_dcfg_trace_events_free(x);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

/* A hash of bytes written (FNV-1a) and their count. */
typedef struct digest {
    uint64_t h, n;
} digest;

static void digest_add(digest *d, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) d->h = (d->h ^ p[i]) * 1099511628211ull;
    d->n += len;
}

static int digest_write(void *ctx, const void *data, size_t len)
{
    digest_add(ctx, data, len);
    return 0;
}

/* The callgrind profile (its text) and the events (every field) of trace over dcfg with
 * threads decoding threads, hashed, and their errors. */
static void profile_and_events(const char *trace, const char *dcfg, unsigned threads,
                               digest *prof_d, tk_status *prof_st, tk_error *prof_err, digest *ev_d,
                               tk_status *ev_st, tk_error *ev_err)
{
    tk_dcfg_trace *t;
    tk_cfg *cfg;
    memset(prof_d, 0, sizeof *prof_d);
    memset(ev_d, 0, sizeof *ev_d);
    tk_error_clear(prof_err);
    tk_error_clear(ev_err);
    if (!open_both(trace, dcfg, &t, &cfg)) return;
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    o.threads = threads;
    tk_profile *prof;
    TK_CHECK(tk_profile_open(&prof, NULL) == TK_OK);
    *prof_st = tk_dcfg_trace_to_profile(t, cfg, prof, &o, prof_err);
    if (*prof_st == TK_OK) {
        tk_writer w = {digest_write, prof_d};
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        TK_CHECK(tk_callgrind_write(prof, &w, &wo, NULL) == TK_OK);
    }
    tk_profile_free(prof);
    tk_dcfg_trace_events *x;
    tk_event_source src;
    TK_CHECK(tk_dcfg_trace_events_open(&x, t, cfg, &o, NULL) == TK_OK);
    tk_dcfg_trace_events_source(x, &src);
    tk_event ev;
    while ((*ev_st = src.next(src.ctx, &ev, ev_err)) == TK_OK) {
        uint64_t f[6] = {(uint64_t)ev.kind, ev.thread, (uint64_t)ev.pid,
                         (uint64_t)ev.tid,  ev.time,   ev.func};
        digest_add(ev_d, f, sizeof f);
    }
    tk_dcfg_trace_events_free(x);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
}

/* With threads the profile and the events are those of one thread, errors too (the
 * edge-index path of dt_lookup.h against the direct one). */
static void test_threads_of_profile_and_events(void)
{
    static const char *const traces[][2] = {
        {"tests/data/dcfg_trace/pass/gen11.level0.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/gen11.level9.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/gen11.intel.trace.json", gen11_dcfg},
        {"tests/data/dcfg_trace/pass/tailjump.trace.json",
         "tests/data/dcfg_trace/pass/tailjump.dcfg.json"},
        {"tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json", gen11_dcfg},
    };
    for (size_t f = 0; f < sizeof traces / sizeof *traces; f++) {
        digest p1, e1;
        tk_status ps1 = TK_OK, es1 = TK_OK;
        tk_error pe1, ee1;
        profile_and_events(traces[f][0], traces[f][1], 1, &p1, &ps1, &pe1, &e1, &es1, &ee1);
        TK_CHECK(es1 != TK_END || e1.n > 0); /* events of every good trace */
        for (unsigned th = 2; th <= 8; th += 3) {
            digest p, e;
            tk_status ps = TK_OK, es = TK_OK;
            tk_error pe, ee;
            profile_and_events(traces[f][0], traces[f][1], th, &p, &ps, &pe, &e, &es, &ee);
            TK_CHECK_EQ_I64(ps, ps1);
            TK_CHECK_EQ_I64(es, es1);
            TK_CHECK_EQ_U64(p.h, p1.h);
            TK_CHECK_EQ_U64(p.n, p1.n);
            TK_CHECK_EQ_U64(e.h, e1.h);
            TK_CHECK_EQ_U64(e.n, e1.n);
            TK_CHECK_STR(pe.message, pe1.message);
            TK_CHECK_STR(ee.message, ee1.message);
            TK_CHECK_EQ_U64(pe.line, pe1.line);
            TK_CHECK_EQ_U64(ee.line, ee1.line);
            TK_CHECK_EQ_U64(ee.column, ee1.column);
        }
    }
}

TK_TEST_MAIN(TK_CASE(test_steps_follow_the_dcfg), TK_CASE(test_selections),
             TK_CASE(test_parallel_pieces), TK_CASE(test_errors),
             TK_CASE(test_errors_of_profile_and_events), TK_CASE(test_instruction_count_overflow),
             TK_CASE(test_stop_and_refusals), TK_CASE(test_threads_of_profile_and_events))
