/* tracekit decode: a DCFG-Trace as edges, blocks, addresses or calls. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "dcfg_trace_cli.h"

static const cli_opt decode_opts[] = {
    {"dcfg", 0, "DCFG", "the DCFG of the traced run (needed for blocks, addrs, calls)"},
    {"pid", 0, "P", "only process P"},
    {"thread", 0, "T", "only thread T"},
    {"what", 0, "WHAT", "edges (default), blocks, addrs, calls, or count (only the number)"},
    {"jobs", 'j', "N", "decoding threads (default: the number of CPUs)"},
    {"output", 'o', "OUT", "write to OUT instead of standard output"},
    {"force", 0, NULL, "overwrite OUT"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

enum { WHAT_EDGES, WHAT_BLOCKS, WHAT_ADDRS, WHAT_CALLS, WHAT_COUNT };

typedef struct decode_ctx {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    int what;
    dtc_writer w;
    size_t cur_chunk;
    uint64_t pid, tid;
    const tk_cfg_process *proc;
    uint64_t instrs;         /* instruction count (time) inside the thread */
    int bad;                 /* an edge not in the DCFG was seen */
    uint32_t bad_edge;
    size_t bad_chunk;
} decode_ctx;

static void line_head(decode_ctx *d) {
    dtc_w_u64(&d->w, d->pid);
    dtc_w_char(&d->w, ' ');
    dtc_w_u64(&d->w, d->tid);
    dtc_w_char(&d->w, ' ');
}

static void put_node(decode_ctx *d, uint32_t node) {
    const tk_cfg_process *p = d->proc;
    if (!tk_cfg_is_block(p, node))
        return;
    const tk_cfg_block *b = &p->blocks[node];
    line_head(d);
    if (d->what == WHAT_BLOCKS) {
        dtc_w_u64(&d->w, b->id);
    } else {
        const tk_cfg_image *img = &p->images[tk_cfg_block_image(p, node)];
        const char *name = tk_cfg_file_name(d->cfg, img->file_name_id);
        char off[32];
        snprintf(off, sizeof off, "+0x%llx", (unsigned long long)b->addr_offset);
        dtc_w_str(&d->w, name && *name ? name : "?");
        dtc_w_str(&d->w, off);
    }
    dtc_w_char(&d->w, '\n');
}

static void put_call(decode_ctx *d, const tk_cfg_edge *e, const char *what) {
    const tk_cfg_process *p = d->proc;
    line_head(d);
    dtc_w_u64(&d->w, d->instrs);
    dtc_w_char(&d->w, ' ');
    dtc_w_str(&d->w, what);
    dtc_w_char(&d->w, ' ');
    dtc_w_u64(&d->w, tk_cfg_node_id(d->cfg, p, e->src));
    dtc_w_char(&d->w, ' ');
    dtc_w_u64(&d->w, tk_cfg_node_id(d->cfg, p, e->tgt));
    if (tk_cfg_is_block(p, e->tgt)) {
        uint64_t off = 0;
        const char *sym = tk_cfg_block_symbol(d->cfg, p, e->tgt, &off);
        if (sym) {
            dtc_w_char(&d->w, ' ');
            dtc_w_str(&d->w, sym);
            if (off) {
                char tmp[32];
                snprintf(tmp, sizeof tmp, "+0x%llx", (unsigned long long)off);
                dtc_w_str(&d->w, tmp);
            }
        }
    }
    dtc_w_char(&d->w, '\n');
}

static int on_chunk(void *ctx, size_t chunk, const uint32_t *edges, size_t n) {
    decode_ctx *d = ctx;
    int first = chunk != d->cur_chunk;
    if (first) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(d->t, chunk, &ci);
        d->cur_chunk = chunk;
        d->instrs = ci.preceding_instr_count;
        /* which thread/process holds the chunk */
        size_t nth = tk_dcfg_trace_thread_count(d->t);
        for (size_t i = 0; i < nth; i++) {
            tk_dcfg_trace_thread_info ti;
            tk_dcfg_trace_thread(d->t, i, &ti);
            if (chunk >= ti.first_chunk && chunk < ti.first_chunk + ti.nchunks) {
                tk_dcfg_trace_process_info pi;
                tk_dcfg_trace_process(d->t, ti.process, &pi);
                d->pid = pi.pid;
                d->tid = ti.thread_id;
                break;
            }
        }
        if (d->cfg) {
            uint32_t pi = tk_cfg_find_process(d->cfg, d->pid);
            d->proc = pi == TK_CFG_NONE ? NULL : &d->cfg->processes[pi];
            if (!d->proc && d->what != WHAT_EDGES && d->what != WHAT_COUNT) {
                d->bad = 2;
                return 1;
            }
        }
    }
    if (d->what == WHAT_EDGES) {
        for (size_t i = 0; i < n; i++) {
            line_head(d);
            dtc_w_u64(&d->w, edges[i]);
            dtc_w_char(&d->w, '\n');
        }
        return d->w.failed;
    }
    if (d->what == WHAT_COUNT)
        return 0;
    const tk_cfg_process *p = d->proc;
    for (size_t i = 0; i < n; i++) {
        uint32_t ei = tk_cfg_find_edge(p, edges[i]);
        if (ei == TK_CFG_NONE) {
            d->bad = 1;
            d->bad_edge = edges[i];
            d->bad_chunk = chunk;
            return 1;
        }
        const tk_cfg_edge *e = &p->edges[ei];
        /* the edge leaves its source block after the block's instructions */
        if (tk_cfg_is_block(p, e->src))
            d->instrs += p->blocks[e->src].num_instrs;
        if (d->what == WHAT_CALLS) {
            tk_edge_kind k = tk_cfg_edge_kind(d->cfg, e);
            if (tk_edge_kind_is_any_call(k))
                put_call(d, e, "call");
            else if (tk_edge_kind_is_any_return(k))
                put_call(d, e, "return");
        } else {
            put_node(d, e->src);
        }
    }
    return d->w.failed;
}

static const char digits2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* --what edges on the decoding threads: "PID THREAD EDGE" lines of a chunk. */
static int render_edges(const void *ctx, size_t chunk, const uint32_t *edges, size_t n,
                        tk_dcfg_trace_text *out) {
    const tk_dcfg_trace *t = ctx;
    uint64_t pid = 0, tid = 0;
    size_t nth = tk_dcfg_trace_thread_count(t);
    for (size_t i = 0; i < nth; i++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, i, &ti);
        if (chunk >= ti.first_chunk && chunk < ti.first_chunk + ti.nchunks) {
            tk_dcfg_trace_process_info pi;
            tk_dcfg_trace_process(t, ti.process, &pi);
            pid = pi.pid;
            tid = ti.thread_id;
            break;
        }
    }
    char head[48];
    int hl = snprintf(head, sizeof head, "%llu %llu ", (unsigned long long)pid, (unsigned long long)tid);
    /* fixed-size copies (no library call per line): room for 48 bytes past the end */
    if (hl < 0 || (size_t)hl >= sizeof head ||
        tk_dcfg_trace_text_reserve(out, n * ((size_t)hl + 11) + sizeof head))
        return 1;
    char *p = out->data + out->len;
    for (size_t i = 0; i < n; i++) {
        if (hl <= 16)
            memcpy(p, head, 16);
        else
            memcpy(p, head, sizeof head);
        p += hl;
        /* decimal, two digits at a time, right to left */
        uint32_t v = edges[i];
        unsigned d = 1;
        for (uint32_t x = v; x >= 10; x /= 10)
            d++;
        char *q = p + d;
        *q = '\n';
        while (v >= 100) {
            unsigned r = v % 100;
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
        p += d + 1;
    }
    out->len = (size_t)(p - out->data);
    return 0;
}

static int write_text(void *ctx, size_t chunk, const char *data, size_t len) {
    (void)chunk;
    decode_ctx *d = ctx;
    return len && fwrite(data, 1, len, d->w.f) != len;
}

int cmd_decode(int argc, char **argv) {
    const cli_opt *tables[] = {decode_opts, NULL};
    cli_args a;
    if (cli_parse("decode", argc, argv, 1, tables, 0, &a) != 0)
        return CLI_EXIT_USAGE;
    int rc = CLI_EXIT_OK;
    tk_dcfg_trace *t = NULL;
    tk_cfg *cfg = NULL;
    tk_output *out = NULL;
    if (cli_has(&a, "help")) {
        cli_command_help(cli_command_find("decode"), stdout);
        goto done;
    }
    if (a.npos != 1) {
        rc = cli_usage_error("decode", "expected one TRACE argument (see 'tracekit decode --help')");
        goto done;
    }
    int what = cli_get_choice("decode", &a, "what", "edges|blocks|addrs|calls|count", WHAT_EDGES);
    unsigned jobs;
    if (what < 0 || (rc = dtc_jobs("decode", &a, &jobs)) != CLI_EXIT_OK) {
        rc = CLI_EXIT_USAGE;
        goto done;
    }
    decode_ctx d;
    memset(&d, 0, sizeof d);
    tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
    opt.threads = jobs;
    if (cli_has(&a, "pid")) {
        opt.has_pid = 1;
        if (cli_get_u64("decode", &a, "pid", 0, &opt.pid) != 0) {
            rc = CLI_EXIT_USAGE;
            goto done;
        }
    }
    if (cli_has(&a, "thread")) {
        opt.has_thread = 1;
        if (cli_get_u64("decode", &a, "thread", 0, &opt.thread_id) != 0) {
            rc = CLI_EXIT_USAGE;
            goto done;
        }
    }
    if ((what == WHAT_BLOCKS || what == WHAT_ADDRS || what == WHAT_CALLS) && !cli_has(&a, "dcfg")) {
        rc = cli_usage_error("decode", "--what %s needs --dcfg DCFG",
                             what == WHAT_BLOCKS ? "blocks" : what == WHAT_ADDRS ? "addrs" : "calls");
        goto done;
    }
    if ((rc = dtc_load_dcfg(&a, 0, &cfg)) != CLI_EXIT_OK)
        goto done;
    if ((rc = dtc_open_path(a.pos[0], 0, &t)) != CLI_EXIT_OK)
        goto done;
    if ((rc = cli_output_open(&a, 0, &out)) != CLI_EXIT_OK)
        goto done;
    d.t = t;
    d.cfg = cfg;
    d.what = what;
    d.cur_chunk = SIZE_MAX;
    dtc_w_init(&d.w, tk_output_file(out));
    tk_error err;
    tk_error_clear(&err);
    uint64_t total = 0;
    if (what == WHAT_EDGES) {
        /* formatted on the decoding threads, written in order */
        opt.render = render_edges;
        opt.render_ctx = t;
        opt.write_text = write_text;
    }
    tk_status st = tk_dcfg_trace_decode(t, &opt, what == WHAT_COUNT ? NULL : on_chunk, &d, &total,
                                        NULL, &err);
    if (what == WHAT_COUNT && st == TK_OK) {
        dtc_w_u64(&d.w, total);
        dtc_w_char(&d.w, '\n');
    }
    if (dtc_w_flush(&d.w) != 0 && st == TK_OK) {
        tk_error_set(&err, TK_ERR_IO, "cannot write the output");
        st = TK_ERR_IO;
    }
    if (st == TK_END && d.bad == 1) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, d.bad_chunk, &ci);
        tk_error_set_at(&err, TK_ERR_FORMAT, tk_dcfg_trace_path(t), -1, ci.line, ci.column,
                        "edge %u is not an edge of process %llu in the DCFG", d.bad_edge,
                        (unsigned long long)d.pid);
        st = TK_ERR_FORMAT;
    } else if (st == TK_END && d.bad == 2) {
        tk_error_set(&err, TK_ERR_FORMAT, "%s: process %llu is not in the DCFG",
                     tk_dcfg_trace_path(t), (unsigned long long)d.pid);
        st = TK_ERR_FORMAT;
    } else if (st == TK_END) {
        tk_error_set(&err, TK_ERR_IO, "cannot write the output");
        st = TK_ERR_IO;
    }
    if (st != TK_OK) {
        tk_output_abort(out);
        out = NULL;
        rc = cli_error(&err);
        goto done;
    }
    rc = cli_output_commit(out);
    out = NULL;
done:
    tk_output_abort(out);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    cli_args_free(&a);
    return rc;
}

void cmd_decode_help(FILE *f) {
    fputs("Decodes the edge-id sequences of a DCFG-Trace. Output, one line per item,\n"
          "threads in file order, chunks in order:\n"
          "  edges   PID THREAD EDGE_ID\n"
          "  blocks  PID THREAD BLOCK_ID: the source block of every edge (the blocks\n"
          "          INSTR_COUNT counts; special nodes are skipped)\n"
          "  addrs   PID THREAD IMAGE_FILE+0xOFFSET of the same blocks\n"
          "  calls   PID THREAD INSTRS call|return SOURCE TARGET [SYMBOL] for CALL and\n"
          "          RETURN edges; INSTRS is the thread's instruction count at the\n"
          "          end of the source block (PRECEDING_INSTR_COUNT + the chunk's blocks)\n"
          "  count   the number of edges\n\n"
          "Options:\n",
          f);
    cli_print_options(f, decode_opts);
}
