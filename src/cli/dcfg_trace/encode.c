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
    {"level", 0, "N",
     "0 plain, 1-4 repeats, 5-9 repeats and dictionary, 7-9 multi-edge rows (default 9)"},
    {"chunk-instrs", 0, "N",
     "start a new chunk after N instructions (default 1000000 with --dcfg)"},
    {"chunk-edges", 0, "N",
     "start a new chunk after N edges (default: none, 1000000 without --dcfg)"},
    {"compat", 0, "intel",
     "intel: write what Intel's reader writes: one edge per row, empty dictionary"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

typedef tk_status (*feed_fn)(tk_dcfg_trace_encoder *, uint64_t, uint64_t, const uint32_t *, size_t,
                             tk_error *);

/* One pass of the encoder over the edge list (the library's reader: with cfg, every edge
 * checked against the DCFG); an error of the encoder is located at the first line of the
 * run it refused. Returns an exit code. */
static int pass(const char *path, tk_dcfg_trace_encoder *enc, feed_fn feed, const tk_cfg *cfg)
{
    tk_input *in;
    int rc = cli_open_input(path, 0, &in);
    if (rc != CLI_EXIT_OK) return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace_edge_reader *r = NULL;
    tk_status st = tk_dcfg_trace_edge_reader_open(&r, in, cfg, &err);
    tk_dcfg_trace_edge_run run;
    while (st == TK_OK && (st = tk_dcfg_trace_edge_reader_next(r, &run, &err)) == TK_OK)
        if ((st = feed(enc, run.pid, run.thread_id, run.edges, run.n, &err)) != TK_OK)
            tk_error_locate(&err, tk_input_path(in), -1, run.first_line, 1);
    tk_dcfg_trace_edge_reader_free(r);
    tk_input_free(in);
    return st == TK_END ? CLI_EXIT_OK : cli_error(&err);
}

int cli_dcfg_trace_encode(int argc, char **argv)
{
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
        rc = cli_usage_error("encode",
                             "--chunk-instrs needs --dcfg (instruction counts come from it)");
        goto done;
    }
    opt.level = level ? (int)level : TK_DCFG_TRACE_PLAIN;
    opt.compat_intel = compat == COMPAT_INTEL;
    opt.chunk_instrs = ci;
    opt.chunk_edges = ce;
    opt.expected_edges = tk_dcfg_trace_edge_list_estimate(a.pos[0]);
    if ((rc = cli_dcfg_trace_load_dcfg(&a, 0, &cfg)) != CLI_EXIT_OK) goto done;
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
    if ((rc = pass(a.pos[0], enc, tk_dcfg_trace_encoder_observe, cfg)) != CLI_EXIT_OK) goto done;
    if ((rc = cli_output_open(&a, 0, &out)) != CLI_EXIT_OK) goto done;
    if (tk_dcfg_trace_encoder_start(enc, CLI_WRITER(cli_output_file(out)), &err) != TK_OK) {
        rc = cli_error(&err);
        goto done;
    }
    if ((rc = pass(a.pos[0], enc, tk_dcfg_trace_encoder_encode, NULL)) != CLI_EXIT_OK) goto done;
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

void cli_dcfg_trace_encode_help(FILE *f)
{
    fputs("Writes a DCFG-Trace from an edge list: lines \"PID THREAD EDGE_ID\" (what\n"
          "'tracekit decode --what edges' prints), each thread's edges together. Per\n"
          "process, one transition table with Huffman codes from the observed\n"
          "transition frequencies. Chunks end after --chunk-instrs instructions\n"
          "(counted from the DCFG) or --chunk-edges edges.\n",
          f);
}

const cli_opt_choices cli_dcfg_trace_encode_choices[] = {{"compat", compats}, {NULL, NULL}};
