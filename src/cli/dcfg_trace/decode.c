/* tracekit decode: a DCFG-Trace as edges, blocks, addresses or calls. */
#include <stdio.h>
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
static const cli_choice whats[] = {{"edges", WHAT_EDGES}, {"blocks", WHAT_BLOCKS},
                                   {"addrs", WHAT_ADDRS}, {"calls", WHAT_CALLS},
                                   {"count", WHAT_COUNT}, {NULL, 0}};

/* Every listing is formatted on the decoding threads (render) and written in
 * file order (write_text). What each line says is the library's: the pieces
 * of the decoding carry the thread and, with --dcfg, the steps (the edges
 * checked against the DCFG, the source blocks or the calls and returns, with
 * the thread's instruction count); the library stops at the first edge the
 * DCFG lacks, after the lines before it. */
typedef struct render_ctx {
    const tk_cfg *cfg;
    int what;
} render_ctx;

static const char digits2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Writes v in decimal at p (two digits at a time, right to left); returns the
 * number of characters (at most 20). */
static size_t put_decimal(char *p, uint64_t v)
{
    size_t d = 1;
    for (uint64_t x = v; x >= 10; x /= 10) d++;
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

/* "PID THREAD " of a piece's lines; returns its length. */
static size_t line_head(const tk_dcfg_trace_piece *piece, char head[48])
{
    size_t k = put_decimal(head, piece->pid);
    head[k++] = ' ';
    k += put_decimal(head + k, piece->thread_id);
    head[k++] = ' ';
    return k;
}

static int text_put(tk_dcfg_trace_text *o, const char *s, size_t n)
{
    if (tk_dcfg_trace_text_reserve(o, n, NULL) != TK_OK) return -1;
    memcpy(o->data + o->len, s, n);
    o->len += n;
    return 0;
}

/* --what edges: "PID THREAD EDGE" lines, with fixed-size copies (no library
 * call per line). */
static int render_edges(const tk_dcfg_trace_piece *piece, tk_dcfg_trace_text *out)
{
    char head[48];
    size_t hl = line_head(piece, head), n = piece->nedges;
    const uint32_t *edges = piece->edges;
    /* room for 48 bytes past the end of the last line */
    if (tk_dcfg_trace_text_reserve(out, n * (hl + 11) + sizeof head, NULL) != TK_OK) return 1;
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

/* --what blocks|addrs: the source block of a step. */
static int put_block(const render_ctx *r, const tk_cfg_process *p, uint32_t node, const char *head,
                     size_t hl, tk_dcfg_trace_text *out)
{
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
    if (!name || !*name) name = "?";
    if (text_put(out, line, k) || text_put(out, name, strlen(name))) return -1;
    k = (size_t)snprintf(line, sizeof line, "+0x%llx\n", (unsigned long long)b.addr_offset);
    return text_put(out, line, k);
}

/* --what calls: "PID THREAD INSTRS call|return SOURCE TARGET [SYMBOL[+0xOFF]]". */
static int put_call(const render_ctx *r, const tk_cfg_process *p, const tk_dcfg_trace_step *s,
                    const char *head, size_t hl, tk_dcfg_trace_text *out)
{
    char line[160];
    memcpy(line, head, hl);
    size_t k = hl;
    k += put_decimal(line + k, s->instrs);
    line[k++] = ' ';
    const char *what = tk_edge_kind_is_any_call(s->kind) ? "call" : "return";
    size_t wl = strlen(what);
    memcpy(line + k, what, wl);
    k += wl;
    line[k++] = ' ';
    k += put_decimal(line + k, tk_cfg_node_id(r->cfg, p, s->src));
    line[k++] = ' ';
    k += put_decimal(line + k, tk_cfg_node_id(r->cfg, p, s->tgt));
    const char *sym = NULL;
    uint64_t off = 0;
    if (tk_cfg_block_image(p, s->tgt) != TK_CFG_NONE)
        sym = tk_cfg_block_symbol(r->cfg, p, s->tgt, &off);
    if (!sym) {
        line[k++] = '\n';
        return text_put(out, line, k);
    }
    line[k++] = ' ';
    if (text_put(out, line, k) || text_put(out, sym, strlen(sym))) return -1;
    if (off) {
        k = (size_t)snprintf(line, sizeof line, "+0x%llx\n", (unsigned long long)off);
    } else {
        line[0] = '\n';
        k = 1;
    }
    return text_put(out, line, k);
}

static int render(const void *ctx, const tk_dcfg_trace_piece *piece, tk_dcfg_trace_text *out)
{
    const render_ctx *r = ctx;
    if (r->what == WHAT_EDGES) return render_edges(piece, out);
    char head[48];
    size_t hl = line_head(piece, head);
    for (size_t i = 0; i < piece->nsteps; i++) {
        const tk_dcfg_trace_step *s = &piece->steps[i];
        if (r->what == WHAT_CALLS ? put_call(r, piece->process, s, head, hl, out)
                                  : put_block(r, piece->process, s->src, head, hl, out))
            return 1;
    }
    return 0;
}

static int write_text(void *ctx, size_t chunk, const char *data, size_t len)
{
    (void)chunk;
    FILE *f = ctx;
    return len && fwrite(data, 1, len, f) != len;
}

/* --what, --jobs, --pid and --thread into *what and opt. Returns an exit code. */
static int parse_options(const cli_args *a, int *what, tk_dcfg_trace_decode_options *opt)
{
    *what = cli_get_choice("decode", a, "what", whats, WHAT_EDGES);
    unsigned jobs;
    if (*what < 0 || cli_dcfg_trace_jobs("decode", a, &jobs) != CLI_EXIT_OK) return CLI_EXIT_USAGE;
    opt->threads = jobs;
    if (cli_has(a, "pid")) {
        opt->has_pid = 1;
        if (cli_get_u64("decode", a, "pid", 0, &opt->pid) != 0) return CLI_EXIT_USAGE;
    }
    if (cli_has(a, "thread")) {
        opt->has_thread = 1;
        if (cli_get_u64("decode", a, "thread", 0, &opt->thread_id) != 0) return CLI_EXIT_USAGE;
    }
    if ((*what == WHAT_BLOCKS || *what == WHAT_ADDRS || *what == WHAT_CALLS) && !cli_has(a, "dcfg"))
        return cli_usage_error("decode", "--what %s needs --dcfg DCFG",
                               *what == WHAT_BLOCKS  ? "blocks"
                               : *what == WHAT_ADDRS ? "addrs"
                                                     : "calls");
    return CLI_EXIT_OK;
}

/* The listing of `what` to f: formatted on the decoding threads, written in
 * order (count: nothing formatted; with a DCFG, the edges checked). */
static tk_status decode_to(FILE *f, const tk_dcfg_trace *t, const tk_cfg *cfg, int what,
                           tk_dcfg_trace_decode_options *opt, tk_error *err)
{
    render_ctx r = {cfg, what};
    opt->cfg = cfg;
    opt->steps = what == WHAT_CALLS                          ? TK_DCFG_TRACE_STEPS_CALLS
                 : what == WHAT_BLOCKS || what == WHAT_ADDRS ? TK_DCFG_TRACE_STEPS_BLOCKS
                                                             : TK_DCFG_TRACE_NO_STEPS;
    if (what != WHAT_COUNT) {
        opt->render = render;
        opt->render_ctx = &r;
        opt->write_text = write_text;
    }
    uint64_t total = 0;
    tk_status st = tk_dcfg_trace_decode(t, opt, NULL, f, &total, NULL, err);
    if (st == TK_OK && what == WHAT_COUNT) fprintf(f, "%llu\n", (unsigned long long)total);
    return st;
}

int cli_dcfg_trace_decode(int argc, char **argv)
{
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
    if ((rc = parse_options(&a, &what, &opt)) != CLI_EXIT_OK) goto done;
    if ((rc = cli_dcfg_trace_load_dcfg(&a, 0, &cfg)) != CLI_EXIT_OK) goto done;
    if ((rc = cli_dcfg_trace_open_path(a.pos[0], 0, &t)) != CLI_EXIT_OK) goto done;
    tk_error err;
    tk_error_clear(&err);
    if ((rc = cli_output_open(&a, 0, &out)) != CLI_EXIT_OK) goto done;
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

void cli_dcfg_trace_decode_help(FILE *f)
{
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
