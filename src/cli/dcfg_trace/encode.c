/* tracekit encode: an edge list (the text of `decode --what edges`) to a DCFG-Trace. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dcfg_trace.h"

/* --compat */
enum { COMPAT_NONE, COMPAT_INTEL };
static const cli_choice compats[] = {{"intel", COMPAT_INTEL}, {NULL, 0}};

const cli_opt cli_dcfg_trace_encode_opts[] = {
    {"dcfg", 0, "DCFG", "the DCFG of the run: instruction counts of the chunks"},
    {"output", 'o', "OUT", "write the trace to OUT (default: standard output)"},
    {"force", 'f', NULL, "overwrite OUT"},
    {"level", 0, "N", "0 plain, 1-4 repeats, 5-9 repeats and dictionary, 7-9 multi-edge rows (default 9)"},
    {"chunk-instrs", 0, "N", "start a new chunk after N instructions (default 1000000 with --dcfg)"},
    {"chunk-edges", 0, "N", "start a new chunk after N edges (default: none, 1000000 without --dcfg)"},
    {"compat", 0, "intel",
     "intel: write what Intel's reader writes: one edge per row, empty dictionary"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

#define BATCH 65536

/* A decimal number after blanks (core/num): TK_ERR_FORMAT, TK_ERR_LIMIT over 64 bits. */
static tk_status parse_u64(const char **p, const char *end, uint64_t *v) {
    const char *q = *p;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    tk_status st = tk_scan_num(&q, end, TK_NUM_DEC, v, NULL);
    if (st == TK_OK)
        *p = q;
    return st;
}

typedef tk_status (*feed_fn)(tk_dcfg_trace_encoder *, uint64_t, uint64_t, const uint32_t *, size_t,
                             tk_error *);

/* One pass over the edge list; checks edges against the DCFG when given. */
/* The encoder's size hint: about how many edges the edge list holds, a line
 * "PID THREAD EDGE_ID" taking about 12 bytes; for a compressed file, its size
 * times the compression ratio of its first 16 MB of content. 0 when unknown. */
static uint64_t expected_edges(const char *path) {
    enum { PROBE = 16 << 20 };
    tk_input *in;
    tk_error err;
    if (strcmp(path, "-") == 0 || tk_input_open(&in, path, NULL, &err) != TK_OK)
        return 0;
    int64_t raw = tk_input_raw_size(in);
    uint64_t content = raw > 0 ? (uint64_t)raw : 0;
    if (raw > 0 && tk_input_compression(in) != TK_COMP_NONE) {
        static char buf[1 << 16];
        size_t got = 0;
        while (tk_input_offset(in) < PROBE && tk_input_read(in, buf, sizeof buf, &got, &err) == TK_OK &&
               got > 0)
            ;
        uint64_t seen = tk_input_offset(in), seen_raw = tk_input_raw_offset(in);
        if (got < sizeof buf || seen_raw == 0) /* all of it read (or nothing) */
            content = seen;
        else
            content = (uint64_t)((double)raw * ((double)seen / (double)seen_raw));
    }
    tk_input_free(in);
    return content / 12;
}

static int pass(const char *path, tk_dcfg_trace_encoder *enc, feed_fn feed, const tk_cfg *cfg) {
    tk_input *in;
    int rc = cli_open_input(path, 0, &in);
    if (rc != CLI_EXIT_OK)
        return rc;
    static uint32_t batch[BATCH];
    size_t n = 0;
    uint64_t pid = 0, tid = 0, lineno = 0;
    int have = 0;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = TK_OK;
    const char *line;
    size_t len;
    const tk_cfg_process *proc = NULL;
    uint64_t proc_pid = 0;
    while ((st = tk_input_getline(in, &line, &len, &err)) == TK_OK) {
        lineno++;
        const char *p = line, *end = line + len;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p == end || *p == '#')
            continue;
        uint64_t lp, lt, le;
        const char *col = p;
        tk_status nst;
        if ((nst = parse_u64(&p, end, &lp)) || (nst = parse_u64(&p, end, &lt)) ||
            (col = p, nst = parse_u64(&p, end, &le))) {
            st = tk_error_set_at(&err, nst, tk_input_path(in), -1, lineno,
                                 (uint64_t)(col - line) + 1, "%s \"PID THREAD EDGE_ID\"",
                                 nst == TK_ERR_LIMIT ? "a number over 64 bits in" : "expected");
            break;
        }
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (p != end) {
            st = tk_error_set_at(&err, TK_ERR_FORMAT, tk_input_path(in), -1, lineno,
                                 (uint64_t)(p - line) + 1,
                                 "expected the end of the line after \"PID THREAD EDGE_ID\"");
            break;
        }
        if (le == 0 || le > UINT32_MAX) {
            st = tk_error_set_at(&err, TK_ERR_FORMAT, tk_input_path(in), -1, lineno,
                                 (uint64_t)(col - line) + 1,
                                 "edge id %llu out of range (1..4294967295)", (unsigned long long)le);
            break;
        }
        if (cfg) {
            if (!proc || proc_pid != lp) {
                uint32_t pi = tk_cfg_find_process(cfg, lp);
                proc = tk_cfg_process_at(cfg, pi);
                proc_pid = lp;
            }
            if (!proc || tk_cfg_find_edge(proc, (uint32_t)le) == TK_CFG_NONE) {
                st = tk_error_set_at(&err, TK_ERR_FORMAT, tk_input_path(in), -1, lineno, 1,
                                     proc ? "edge %llu is not in the DCFG's process %llu"
                                          : "edge %llu: process %llu is not in the DCFG",
                                     (unsigned long long)le, (unsigned long long)lp);
                break;
            }
        }
        if (have && (lp != pid || lt != tid || n == BATCH)) {
            if ((st = feed(enc, pid, tid, batch, n, &err)) != TK_OK) {
                tk_error_locate(&err, tk_input_path(in), -1, lineno, 1);
                break;
            }
            n = 0;
        }
        pid = lp;
        tid = lt;
        have = 1;
        batch[n++] = (uint32_t)le;
    }
    if (st == TK_END) {
        st = TK_OK;
        if (have && n > 0 && (st = feed(enc, pid, tid, batch, n, &err)) != TK_OK)
            tk_error_locate(&err, tk_input_path(in), -1, lineno, 1);
    }
    tk_input_free(in);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

int cli_dcfg_trace_encode(int argc, char **argv) {
    cli_args a;
    int rc;
    if (!cli_parse_command("encode", argc, argv, cli_dcfg_trace_encode_opts, 1,
                           "expected one EDGES argument (see 'tracekit encode --help')", &a, &rc))
        return rc;
    tk_cfg *cfg = NULL;
    tk_output *out = NULL;
    tk_dcfg_trace_encoder *enc = NULL;
    /* a pipe (`encode <(...)`) would be empty the second time, and the
     * size probe would already have read it: the trace would lose edges */
    struct stat sb;
    if (strcmp(a.pos[0], "-") == 0 || (stat(a.pos[0], &sb) == 0 && !S_ISREG(sb.st_mode))) {
        rc = cli_usage_error("encode", "EDGES must be a file: it is read twice");
        goto done;
    }
    tk_dcfg_trace_encode_options opt = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
    uint64_t level, ci, ce;
    int has_dcfg = cli_has(&a, "dcfg");
    if (cli_get_u64("encode", &a, "level", 9, &level) ||
        cli_get_u64("encode", &a, "chunk-instrs", has_dcfg ? 1000000 : 0, &ci) ||
        cli_get_u64("encode", &a, "chunk-edges", has_dcfg ? 0 : 1000000, &ce)) {
        rc = CLI_EXIT_USAGE;
        goto done;
    }
    if (level > 9) {
        rc = cli_usage_error("encode", "--level must be 0..9");
        goto done;
    }
    int compat = cli_get_choice("encode", &a, "compat", compats, COMPAT_NONE);
    if (compat < 0) {
        rc = CLI_EXIT_USAGE;
        goto done;
    }
    if (ci && !has_dcfg) {
        rc = cli_usage_error("encode", "--chunk-instrs needs --dcfg (instruction counts come from it)");
        goto done;
    }
    opt.level = level ? (int)level : TK_DCFG_TRACE_PLAIN;
    opt.compat_intel = compat == COMPAT_INTEL;
    opt.chunk_instrs = ci;
    opt.chunk_edges = ce;
    opt.expected_edges = expected_edges(a.pos[0]);
    if ((rc = cli_dcfg_trace_load_dcfg(&a, 0, &cfg)) != CLI_EXIT_OK)
        goto done;
    /* with the DCFG the encoder counts instructions and cuts chunks at gaps */
    opt.cfg = cfg;
    if (!cfg) {
        fprintf(stderr, "tracekit encode: warning: without --dcfg, INSTR_COUNT and "
                        "PRECEDING_INSTR_COUNT are written as 0\n");
    }
    tk_error err;
    tk_error_clear(&err);
    if (tk_dcfg_trace_encoder_open(&enc, &opt, &err) != TK_OK) {
        rc = cli_error(&err);
        goto done;
    }
    if ((rc = pass(a.pos[0], enc, tk_dcfg_trace_encoder_observe, cfg)) != CLI_EXIT_OK)
        goto done;
    if ((rc = cli_output_open(&a, 0, &out)) != CLI_EXIT_OK)
        goto done;
    if (tk_dcfg_trace_encoder_start(enc, CLI_WRITER(cli_output_file(out)), &err) != TK_OK) {
        rc = cli_error(&err);
        goto done;
    }
    if ((rc = pass(a.pos[0], enc, tk_dcfg_trace_encoder_encode, NULL)) != CLI_EXIT_OK)
        goto done;
    if (tk_dcfg_trace_encoder_finish(enc, &err) != TK_OK) {
        rc = cli_error(&err);
        goto done;
    }
    rc = cli_output_commit(out);
    out = NULL;
done:
    cli_output_abort(out);
    tk_dcfg_trace_encoder_free(enc);
    tk_cfg_free(cfg);
    cli_args_free(&a);
    return rc;
}

void cli_dcfg_trace_encode_help(FILE *f) {
    fputs("Writes a DCFG-Trace from an edge list: lines \"PID THREAD EDGE_ID\" (what\n"
          "'tracekit decode --what edges' prints), each thread's edges together. Per\n"
          "process, one transition table with Huffman codes from the observed\n"
          "transition frequencies. Chunks end after --chunk-instrs instructions\n"
          "(counted from the DCFG) or --chunk-edges edges.\n",
          f);
}

const cli_opt_choices cli_dcfg_trace_encode_choices[] = {{"compat", compats}, {NULL, NULL}};
