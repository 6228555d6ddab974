/* Fuzz the reader of DCFG-Trace edge lists ("PID THREAD EDGE_ID" lines, what `tracekit
 * encode` reads): without and with a DCFG (a small one built in), the runs it hands out
 * hold to what the header says, what the DCFG accepts the reader accepts without it, and
 * an accepted list of one process's contiguous threads encodes and decodes to the same
 * edges. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Process 7: 29 -1690-> 31 -303-> 30 -306-> 31 -1193-> 32 -1905-> 9. */
static const char dcfg_text[] =
    "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0,\n"
    "  \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ], [ 1, \"a.out\" ] ],\n"
    "  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ], [ 4, \"DIRECT_CALL\" ],\n"
    "    [ 13, \"DIRECT_CONDITIONAL_BRANCH\" ], [ 18, \"FALL_THROUGH\" ] ],\n"
    "  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], [ 1, \"START\" ], [ 2, \"END\" ] ],\n"
    "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ], [ 7, {\n"
    "      \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ],\n"
    "        [ 1, \"0x400000\", 4096, { \"FILE_NAME_ID\" : 1,\n"
    "          \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\" ],\n"
    "            [ 9, 16, 4, 1 ], [ 29, 32, 20, 5 ], [ 30, 64, 12, 3 ], [ 31, 80, 16, 4 ],\n"
    "            [ 32, 96, 8, 2 ] ] } ] ],\n"
    "      \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", "
    "\"COUNT_PER_THREAD\" ],\n"
    "        [ 1690, 29, 31, 18, [ 100 ] ], [ 303, 31, 30, 13, [ 100 ] ],\n"
    "        [ 306, 30, 31, 18, [ 100 ] ],\n"
    "        [ 1193, 31, 32, 18, [ 100 ] ], [ 1905, 32, 9, 4, [ 100 ] ] ] } ] ] }\n";

static const tk_cfg *the_dcfg(void)
{
    static tk_cfg *cfg;
    static int tried;
    if (!tried) {
        tried = 1;
        tk_input *in;
        if (tk_input_open_memory(&in, dcfg_text, sizeof dcfg_text - 1, "fuzz.dcfg", NULL, NULL) ==
            TK_OK) {
            if (tk_dcfg_read(&cfg, in, NULL, NULL) != TK_OK) abort();
            tk_input_free(in);
        }
    }
    return cfg;
}

typedef struct edges {
    uint32_t *v;
    size_t n, cap;
    uint64_t pid, tid;
    int one_thread; /* every edge of one process and thread */
} edges;

static void keep(edges *e, const tk_dcfg_trace_edge_run *run)
{
    if (e->n == 0) {
        e->pid = run->pid;
        e->tid = run->thread_id;
        e->one_thread = 1;
    } else if (run->pid != e->pid || run->thread_id != e->tid) {
        e->one_thread = 0;
    }
    if (e->n + run->n > e->cap) {
        e->cap = (e->n + run->n) * 2;
        e->v = realloc(e->v, e->cap * sizeof *e->v);
        if (!e->v) abort();
    }
    memcpy(e->v + e->n, run->edges, run->n * sizeof *run->edges);
    e->n += run->n;
}

/* Read the list; the status that ended it. Aborts when a run breaks the header's word. */
static tk_status read_list(const uint8_t *data, size_t size, const tk_cfg *cfg, edges *out)
{
    tk_input *in;
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.max_line = 1 << 16;
    opt.no_decompress = 1; /* decompression is fuzzed by fuzz_detect */
    if (tk_input_open_memory(&in, data, size, "fuzz", &opt, NULL) != TK_OK) return TK_ERR_NOMEM;
    tk_dcfg_trace_edge_reader *r;
    tk_status st = tk_dcfg_trace_edge_reader_open(&r, in, cfg, NULL);
    tk_dcfg_trace_edge_run run, prev = {0};
    tk_error err;
    tk_error_clear(&err);
    const tk_cfg_process *p = cfg ? tk_cfg_process_at(cfg, 0) : NULL;
    while (st == TK_OK && (st = tk_dcfg_trace_edge_reader_next(r, &run, &err)) == TK_OK) {
        if (run.n == 0 || run.n > TK_DCFG_TRACE_EDGE_RUN_MAX || run.first_line > run.line ||
            run.first_line <= prev.line ||
            (prev.n && prev.n < TK_DCFG_TRACE_EDGE_RUN_MAX && prev.pid == run.pid &&
             prev.thread_id == run.thread_id))
            abort();
        for (size_t i = 0; i < run.n; i++)
            if (run.edges[i] == 0 || (p && tk_cfg_find_edge(p, run.edges[i]) == TK_CFG_NONE))
                abort();
        keep(out, &run);
        prev = run;
    }
    if (st != TK_END && st != TK_ERR_NOMEM && (err.line == 0 || err.column == 0))
        abort(); /* every bad line is located */
    tk_dcfg_trace_edge_reader_free(r);
    tk_input_free(in);
    return st;
}

typedef struct membuf {
    char *p;
    size_t n, cap;
} membuf;

static int write_mem(void *ctx, const void *data, size_t n)
{
    membuf *m = ctx;
    if (m->n + n > m->cap) {
        m->cap = (m->n + n) * 2;
        m->p = realloc(m->p, m->cap);
        if (!m->p) abort();
    }
    memcpy(m->p + m->n, data, n);
    m->n += n;
    return 0;
}

static int compare(void *ctx, size_t chunk, const uint32_t *e, size_t n)
{
    (void)chunk;
    edges *want = ctx;
    if (want->cap + n > want->n || memcmp(want->v + want->cap, e, n * sizeof *e) != 0) abort();
    want->cap += n;
    return 0;
}

/* The edges of one thread encode and decode to themselves. */
static void round_trip(const edges *e)
{
    tk_dcfg_trace_encode_options opt = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
    opt.level = 9;
    tk_dcfg_trace_encoder *enc;
    membuf m = {0};
    if (tk_dcfg_trace_encoder_open(&enc, &opt, NULL) != TK_OK) return;
    if (tk_dcfg_trace_encoder_observe(enc, e->pid, e->tid, e->v, e->n, NULL) != TK_OK ||
        tk_dcfg_trace_encoder_start(enc, &(tk_writer){write_mem, &m}, NULL) != TK_OK ||
        tk_dcfg_trace_encoder_encode(enc, e->pid, e->tid, e->v, e->n, NULL) != TK_OK ||
        tk_dcfg_trace_encoder_finish(enc, NULL) != TK_OK)
        abort();
    tk_dcfg_trace_encoder_free(enc);
    tk_dcfg_trace *t;
    if (tk_dcfg_trace_open_memory(&t, m.p, m.n, "fuzz.trace", NULL, NULL) != TK_OK) abort();
    edges seen = *e;
    seen.cap = 0; /* edges compared so far */
    uint64_t total;
    if (tk_dcfg_trace_decode(t, NULL, compare, &seen, &total, NULL, NULL) != TK_OK ||
        seen.cap != e->n)
        abort();
    tk_dcfg_trace_free(t);
    free(m.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    edges plain = {0}, checked = {0};
    tk_status st = read_list(data, size, NULL, &plain);
    tk_status cst = read_list(data, size, the_dcfg(), &checked);
    if (cst == TK_END && (st != TK_END || plain.n != checked.n))
        abort(); /* what passes the DCFG passes without it */
    if (st == TK_END && plain.n > 0 && plain.n <= 4096 && plain.one_thread) round_trip(&plain);
    free(plain.v);
    free(checked.v);
    return 0;
}
