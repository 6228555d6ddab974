/* tracekit decode: a DCFG-Trace as edges, blocks, addresses or calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

const cli_opt cli_dcfg_trace_decode_opts[] = {
    {"dcfg", 0, "DCFG",
     "the DCFG of the traced run (needed for blocks, addrs, calls; every WHAT is checked "
     "against it)"},
    {"pid", 0, "P", "only process P"},
    {"thread", 0, "T", "only thread T"},
    {"what", 0, "WHAT", "edges (default), blocks, addrs, calls, or count (only the number)"},
    {"jobs", 'j', "N", "decoding threads (default: the number of CPUs)"},
    {"output", 'o', "OUT", "write to OUT instead of standard output"},
    {"force", 'f', NULL, "overwrite OUT"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

enum { WHAT_EDGES, WHAT_BLOCKS, WHAT_ADDRS, WHAT_CALLS, WHAT_COUNT };
static const cli_choice whats[] = {
    {"edges", WHAT_EDGES}, {"blocks", WHAT_BLOCKS}, {"addrs", WHAT_ADDRS}, {"calls", WHAT_CALLS},
    {"count", WHAT_COUNT}, {NULL, 0}};

/* Every listing is formatted on the decoding threads (render) and written in
 * file order (write_text). What a chunk's rendering needs to carry from one
 * piece of a big chunk to the next, and what it found wrong, lives in a slot
 * per chunk: only the thread rendering that chunk writes it, and the
 * delivering thread reads it after the hand-over. */
#define BAD_PROCESS (UINT64_C(1) << 33) /* the chunk's process is not in the DCFG */
#define BAD_INSTRS (UINT64_C(1) << 34)  /* the instruction count passes 2^64 - 1 */

typedef struct chunk_state {
    int started;     /* a piece of the chunk was rendered */
    uint64_t instrs; /* the thread's instruction count after the pieces so far */
    uint64_t bad;    /* 0, BAD_PROCESS, BAD_INSTRS, or 1 + the first edge not in the DCFG */
} chunk_state;

typedef struct render_ctx {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    int what;
    chunk_state *state; /* one per chunk of the trace */
} render_ctx;

typedef struct decode_ctx {
    FILE *f;
    const chunk_state *state;
    uint64_t bad;     /* as chunk_state.bad, for the chunk that stopped the decoding */
    size_t bad_chunk;
} decode_ctx;

/* The process id and thread id of the thread that holds chunk. */
static void chunk_owner(const tk_dcfg_trace *t, size_t chunk, uint64_t *pid, uint64_t *tid) {
    *pid = *tid = 0;
    size_t nth = tk_dcfg_trace_thread_count(t);
    for (size_t i = 0; i < nth; i++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, i, &ti);
        if (chunk >= ti.first_chunk && chunk < ti.first_chunk + ti.nchunks) {
            tk_dcfg_trace_process_info pi;
            tk_dcfg_trace_process(t, ti.process, &pi);
            *pid = pi.pid;
            *tid = ti.thread_id;
            return;
        }
    }
}

static const char digits2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Writes v in decimal at p (two digits at a time, right to left); returns the
 * number of characters (at most 20). */
static size_t put_decimal(char *p, uint64_t v) {
    size_t d = 1;
    for (uint64_t x = v; x >= 10; x /= 10)
        d++;
    char *q = p + d;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        *--q = digits2[2 * r + 1];
        *--q = digits2[2 * r];
    }
    if (v >= 10) {
        *--q = digits2[2 * v + 1];
        *--q = digits2[2 * v];
    } else {
        *--q = (char)('0' + v);
    }
    return d;
}

/* "PID THREAD " of a chunk's lines; returns its length. */
static size_t line_head(const tk_dcfg_trace *t, size_t chunk, char head[48]) {
    uint64_t pid, tid;
    chunk_owner(t, chunk, &pid, &tid);
    size_t k = put_decimal(head, pid);
    head[k++] = ' ';
    k += put_decimal(head + k, tid);
    head[k++] = ' ';
    return k;
}

static int text_put(tk_dcfg_trace_text *o, const char *s, size_t n) {
    if (tk_dcfg_trace_text_reserve(o, n, NULL) != TK_OK)
        return -1;
    memcpy(o->data + o->len, s, n);
    o->len += n;
    return 0;
}

/* --what edges: "PID THREAD EDGE" lines, with fixed-size copies (no library
 * call per line). */
static int render_edges(const tk_dcfg_trace *t, size_t chunk, const uint32_t *edges, size_t n,
                        tk_dcfg_trace_text *out) {
    char head[48];
    size_t hl = line_head(t, chunk, head);
    /* room for 48 bytes past the end of the last line */
    if (tk_dcfg_trace_text_reserve(out, n * (hl + 11) + sizeof head, NULL) != TK_OK)
        return 1;
    char *p = out->data + out->len;
    for (size_t i = 0; i < n; i++) {
        if (hl <= 16)
            memcpy(p, head, 16);
        else
            memcpy(p, head, sizeof head);
        p += hl;
        p += put_decimal(p, edges[i]);
        *p++ = '\n';
    }
    out->len = (size_t)(p - out->data);
    return 0;
}

/* Whether a node index is a block's (not a special node's). */
static int is_block(const tk_cfg_process *p, uint32_t node) {
    return tk_cfg_block_image(p, node) != TK_CFG_NONE;
}

/* --what blocks|addrs: the source block of every edge. */
static int put_block(const render_ctx *r, const tk_cfg_process *p, uint32_t node, const char *head,
                     size_t hl, tk_dcfg_trace_text *out) {
    if (!is_block(p, node))
        return 0;
    tk_cfg_block_info b;
    tk_cfg_block_get(p, node, &b);
    char line[96];
    memcpy(line, head, hl);
    size_t k = hl;
    if (r->what == WHAT_BLOCKS) {
        k += put_decimal(line + k, b.id);
        line[k++] = '\n';
        return text_put(out, line, k);
    }
    tk_cfg_image_info img;
    tk_cfg_image_get(r->cfg, p, b.image, &img);
    const char *name = img.file_name;
    if (!name || !*name)
        name = "?";
    if (text_put(out, line, k) || text_put(out, name, strlen(name)))
        return -1;
    k = (size_t)snprintf(line, sizeof line, "+0x%llx\n", (unsigned long long)b.addr_offset);
    return text_put(out, line, k);
}

/* --what calls: "PID THREAD INSTRS call|return SOURCE TARGET [SYMBOL[+0xOFF]]". */
static int put_call(const render_ctx *r, const tk_cfg_process *p, const tk_cfg_edge_info *e,
                    uint64_t instrs, const char *what, const char *head, size_t hl,
                    tk_dcfg_trace_text *out) {
    char line[160];
    memcpy(line, head, hl);
    size_t k = hl;
    k += put_decimal(line + k, instrs);
    line[k++] = ' ';
    size_t wl = strlen(what);
    memcpy(line + k, what, wl);
    k += wl;
    line[k++] = ' ';
    k += put_decimal(line + k, tk_cfg_node_id(r->cfg, p, e->src));
    line[k++] = ' ';
    k += put_decimal(line + k, tk_cfg_node_id(r->cfg, p, e->tgt));
    const char *sym = NULL;
    uint64_t off = 0;
    if (is_block(p, e->tgt))
        sym = tk_cfg_block_symbol(r->cfg, p, e->tgt, &off);
    if (!sym) {
        line[k++] = '\n';
        return text_put(out, line, k);
    }
    line[k++] = ' ';
    if (text_put(out, line, k) || text_put(out, sym, strlen(sym)))
        return -1;
    if (off) {
        k = (size_t)snprintf(line, sizeof line, "+0x%llx\n", (unsigned long long)off);
    } else {
        line[0] = '\n';
        k = 1;
    }
    return text_put(out, line, k);
}

/* With --dcfg, edges and count check the edges as the other listings do:
 * the first edge of the chunk that is not in the DCFG's process, 0 when
 * none (or when the process is missing: reported before decoding). */
static uint64_t first_unknown_edge(const render_ctx *r, size_t chunk, const uint32_t *edges,
                                   size_t n) {
    uint64_t pid, tid;
    chunk_owner(r->t, chunk, &pid, &tid);
    uint32_t pi = tk_cfg_find_process(r->cfg, pid);
    if (pi == TK_CFG_NONE)
        return BAD_PROCESS;
    const tk_cfg_process *p = tk_cfg_process_at(r->cfg, pi);
    for (size_t i = 0; i < n; i++)
        if (tk_cfg_find_edge(p, edges[i]) == TK_CFG_NONE)
            return (uint64_t)edges[i] + 1;
    return 0;
}

static int render(const void *ctx, size_t chunk, const uint32_t *edges, size_t n,
                  tk_dcfg_trace_text *out) {
    const render_ctx *r = ctx;
    if (r->what == WHAT_EDGES || r->what == WHAT_COUNT) {
        if (r->cfg) {
            chunk_state *cs = &r->state[chunk];
            if (cs->bad || (cs->bad = first_unknown_edge(r, chunk, edges, n)) != 0)
                return 0;
        }
        return r->what == WHAT_EDGES ? render_edges(r->t, chunk, edges, n, out) : 0;
    }
    chunk_state *cs = &r->state[chunk];
    if (cs->bad)
        return 0;
    if (!cs->started) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(r->t, chunk, &ci);
        cs->started = 1;
        cs->instrs = ci.preceding_instr_count;
    }
    uint64_t pid, tid;
    chunk_owner(r->t, chunk, &pid, &tid);
    uint32_t pi = tk_cfg_find_process(r->cfg, pid);
    if (pi == TK_CFG_NONE) {
        cs->bad = BAD_PROCESS;
        return 0;
    }
    const tk_cfg_process *p = tk_cfg_process_at(r->cfg, pi);
    char head[48];
    size_t hl = line_head(r->t, chunk, head);
    for (size_t i = 0; i < n; i++) {
        uint32_t ei = tk_cfg_find_edge(p, edges[i]);
        if (ei == TK_CFG_NONE) {
            cs->bad = (uint64_t)edges[i] + 1;
            return 0;
        }
        tk_cfg_edge_info ed, *e = &ed;
        tk_cfg_edge_get(r->cfg, p, ei, &ed);
        tk_cfg_block_info src;
        tk_cfg_block_get(p, e->src, &src); /* zeros for a special node */
        /* the edge leaves its source block after the block's instructions
         * (PRECEDING_INSTR_COUNT + INSTR_COUNT fits: more is a check error) */
        if (__builtin_add_overflow(cs->instrs, src.num_instrs, &cs->instrs)) {
            cs->bad = BAD_INSTRS;
            return 0;
        }
        int failed;
        if (r->what == WHAT_CALLS) {
            tk_edge_kind k = e->kind;
            failed = tk_edge_kind_is_any_call(k)
                         ? put_call(r, p, e, cs->instrs, "call", head, hl, out)
                     : tk_edge_kind_is_any_return(k)
                         ? put_call(r, p, e, cs->instrs, "return", head, hl, out)
                         : 0;
        } else {
            failed = put_block(r, p, e->src, head, hl, out);
        }
        if (failed)
            return 1;
    }
    return 0;
}

static int write_text(void *ctx, size_t chunk, const char *data, size_t len) {
    decode_ctx *d = ctx;
    if (len && fwrite(data, 1, len, d->f) != len)
        return 1;
    if (d->state && d->state[chunk].bad) {
        d->bad = d->state[chunk].bad;
        d->bad_chunk = chunk;
        return 1;
    }
    return 0;
}

/* --what, --jobs, --pid and --thread into *what and opt. Returns an exit code. */
static int parse_options(const cli_args *a, int *what, tk_dcfg_trace_decode_options *opt) {
    *what = cli_get_choice("decode", a, "what", whats, WHAT_EDGES);
    unsigned jobs;
    if (*what < 0 || cli_dcfg_trace_jobs("decode", a, &jobs) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    opt->threads = jobs;
    if (cli_has(a, "pid")) {
        opt->has_pid = 1;
        if (cli_get_u64("decode", a, "pid", 0, &opt->pid) != 0)
            return CLI_EXIT_USAGE;
    }
    if (cli_has(a, "thread")) {
        opt->has_thread = 1;
        if (cli_get_u64("decode", a, "thread", 0, &opt->thread_id) != 0)
            return CLI_EXIT_USAGE;
    }
    if ((*what == WHAT_BLOCKS || *what == WHAT_ADDRS || *what == WHAT_CALLS) &&
        !cli_has(a, "dcfg"))
        return cli_usage_error("decode", "--what %s needs --dcfg DCFG",
                               *what == WHAT_BLOCKS  ? "blocks"
                               : *what == WHAT_ADDRS ? "addrs"
                                                     : "calls");
    return CLI_EXIT_OK;
}

/* The error for what stopped the decoding in chunk d->bad_chunk (d->bad). */
static void bad_chunk_error(const tk_dcfg_trace *t, const decode_ctx *d, tk_error *err) {
    uint64_t pid, tid;
    chunk_owner(t, d->bad_chunk, &pid, &tid);
    tk_dcfg_trace_chunk_info ci;
    tk_dcfg_trace_chunk(t, d->bad_chunk, &ci);
    if (d->bad == BAD_PROCESS) {
        tk_error_set_at(err, TK_ERR_FORMAT, tk_dcfg_trace_path(t), -1, 0, 0,
                        "process %llu is not in the DCFG", (unsigned long long)pid);
    } else if (d->bad == BAD_INSTRS) {
        tk_error_set_at(err, TK_ERR_FORMAT, tk_dcfg_trace_path(t), -1, ci.line, ci.column,
                        "the thread's instruction count passes 2^64 - 1 in this chunk (its "
                        "source blocks hold more than its INSTR_COUNT)");
    } else {
        tk_error_set_at(err, TK_ERR_FORMAT, tk_dcfg_trace_path(t), -1, ci.line, ci.column,
                        "edge %llu is not an edge of process %llu in the DCFG",
                        (unsigned long long)(d->bad - 1), (unsigned long long)pid);
    }
}

/* The listing of `what` to f: formatted on the decoding threads, written in
 * order (count with --dcfg: checked there, nothing formatted); count without
 * a DCFG only counts. */
static tk_status decode_to(FILE *f, const tk_dcfg_trace *t, const tk_cfg *cfg, int what,
                           tk_dcfg_trace_decode_options *opt, tk_error *err) {
    uint64_t total = 0;
    tk_status st;
    if (what == WHAT_COUNT && !cfg) {
        st = tk_dcfg_trace_decode(t, opt, NULL, NULL, &total, NULL, err);
        if (st == TK_OK)
            fprintf(f, "%llu\n", (unsigned long long)total);
        return st;
    }
    render_ctx r = {t, cfg, what, NULL};
    if ((what != WHAT_EDGES || cfg) &&
        !(r.state = calloc(tk_dcfg_trace_chunk_count(t) + 1, sizeof *r.state)))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    decode_ctx d = {f, r.state, 0, 0};
    opt->render = render;
    opt->render_ctx = &r;
    opt->write_text = write_text;
    st = tk_dcfg_trace_decode(t, opt, NULL, &d, &total, NULL, err);
    free(r.state);
    if (st == TK_END && d.bad) {
        bad_chunk_error(t, &d, err);
        st = TK_ERR_FORMAT;
    }
    if (st == TK_OK && what == WHAT_COUNT)
        fprintf(f, "%llu\n", (unsigned long long)total);
    return st;
}

int cli_dcfg_trace_decode(int argc, char **argv) {
    cli_args a;
    int rc;
    if (!cli_parse_command("decode", argc, argv, cli_dcfg_trace_decode_opts, 1,
                           "expected one TRACE argument (see 'tracekit decode --help')", &a, &rc))
        return rc;
    tk_dcfg_trace *t = NULL;
    tk_cfg *cfg = NULL;
    tk_output *out = NULL;
    int what;
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    if ((rc = parse_options(&a, &what, &opt)) != CLI_EXIT_OK)
        goto done;
    if ((rc = cli_dcfg_trace_load_dcfg(&a, 0, &cfg)) != CLI_EXIT_OK)
        goto done;
    if ((rc = cli_dcfg_trace_open_path(a.pos[0], 0, &t)) != CLI_EXIT_OK)
        goto done;
    tk_error err;
    tk_error_clear(&err);
    /* with --dcfg every listing holds to the DCFG, as check --dcfg does: a
     * process it lacks is an error before anything is decoded */
    if (cfg && tk_dcfg_trace_processes_in(t, cfg, &opt, &err) != TK_OK) {
        rc = cli_error(&err);
        goto done;
    }
    if ((rc = cli_output_open(&a, 0, &out)) != CLI_EXIT_OK)
        goto done;
    FILE *f = cli_output_file(out);
    tk_status st = decode_to(f, t, cfg, what, &opt, &err);
    if (fflush(f) != 0 && st == TK_OK) {
        tk_error_set(&err, TK_ERR_IO, "cannot write the output");
        st = TK_ERR_IO;
    }
    if (st == TK_END) {
        tk_error_set(&err, TK_ERR_IO, "cannot write the output");
        st = TK_ERR_IO;
    }
    if (st != TK_OK) {
        cli_output_abort(out);
        out = NULL;
        rc = cli_error(&err);
        goto done;
    }
    rc = cli_output_commit(out);
    out = NULL;
done:
    cli_output_abort(out);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    cli_args_free(&a);
    return rc;
}

void cli_dcfg_trace_decode_help(FILE *f) {
    fputs("Decodes the edge-id sequences of a DCFG-Trace. Output, one line per item,\n"
          "threads in file order, chunks in order:\n"
          "  edges   PID THREAD EDGE_ID\n"
          "  blocks  PID THREAD BLOCK_ID: the source block of every edge (the blocks\n"
          "          INSTR_COUNT counts; special nodes are skipped)\n"
          "  addrs   PID THREAD IMAGE_FILE+0xOFFSET of the same blocks\n"
          "  calls   PID THREAD INSTRS call|return SOURCE TARGET [SYMBOL] for CALL and\n"
          "          RETURN edges; INSTRS is the thread's instruction count at the\n"
          "          end of the source block (PRECEDING_INSTR_COUNT + the chunk's blocks)\n"
          "  count   the number of edges\n",
          f);
}

const cli_opt_choices cli_dcfg_trace_decode_choices[] = {{"what", whats}, {NULL, NULL}};
