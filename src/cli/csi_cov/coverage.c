/* tracekit coverage: what a crashed CSI program had covered, from its core
 * (or a raw memory image) and the binary with its coverage metadata. */
#include <stdlib.h>
#include <string.h>

#include "coverage.h"

const cli_opt cli_csi_cov_coverage_opts[] = {
    {"format", 0, "FMT", "text (default), json, csv, or annotate (the sources with marks)"},
    {"function", 0, "NAME", "only functions called NAME (and its clones NAME$...)"},
    {"source-dir", 'I', "DIR", "annotate: look for the sources under DIR too"},
    {"load-address", 0, "ADDR", "CORE is a raw memory image whose first byte was at ADDR"},
    {"bias", 0, "N", "with --load-address: BIN's load bias in the process (default 0)"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 'f', NULL, "replace an existing OUT"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

enum { COV_OUT_ANNOTATE = CLI_OUT_FOLDED + 1 };
static const cli_choice coverage_formats[] = {{"text", CLI_OUT_TEXT},
                                              {"json", CLI_OUT_JSON},
                                              {"csv", CLI_OUT_CSV},
                                              {"annotate", COV_OUT_ANNOTATE},
                                              {NULL, 0}};

void cli_csi_cov_coverage_help(FILE *f)
{
    fputs("Reads BIN's coverage metadata (.debug_CC, .debug_FC, .debug_BBC), finds each\n"
          "function's coverage array by its symbol in BIN, reads the array from CORE's\n"
          "memory and prints the call sites, functions, blocks and source lines that had\n"
          "run before the crash, per function and in total. A call site counts once its\n"
          "call has returned (the calls on the crashed stack have not), a block once it\n"
          "started, a function once it was entered. CORE is an ELF core file (of the\n"
          "kernel, or gdb's gcore): BIN must be its program (same build id); or, with\n"
          "--load-address, a raw memory image. When BIN has path-tracing metadata\n"
          "(.debug_PT) too, the crashed thread's frames are unwound from the core and\n"
          "the path-tracing locals of each instrumented frame decoded, as 'tracekit\n"
          "paths --state' decodes a state.\n",
          f);
}

const char *cli_csi_cov_hit_word(tk_csi_hit h)
{
    return h == TK_CSI_HIT_YES ? "covered" : h == TK_CSI_HIT_NO ? "not covered" : "unknown";
}

const char *cli_csi_cov_hit_short(tk_csi_hit h)
{
    return h == TK_CSI_HIT_YES ? "yes" : h == TK_CSI_HIT_NO ? "no" : "unknown";
}

int cli_csi_cov_selected(const cli_csi_cov_result *r, size_t i)
{
    return tk_csi_cov_name_matches(r->selector, tk_csi_crash_at(r->crash, i)->name);
}

/* The options of the memory: raw image or core. Returns 0 or a usage error. */
static int memory_options(const cli_args *args, tk_csi_crash_options *opt)
{
    if (cli_has(args, "bias") && !cli_has(args, "load-address"))
        return cli_usage_error("coverage", "--bias goes with --load-address (a raw memory image)");
    opt->raw = cli_has(args, "load-address");
    if (cli_get_u64("coverage", args, "load-address", 0, &opt->raw_address) != 0 ||
        cli_get_u64("coverage", args, "bias", 0, &opt->bias) != 0)
        return CLI_EXIT_USAGE;
    return 0;
}

static int print_result(const cli_args *args, int fmt, cli_csi_cov_result *r)
{
    tk_csi_crash_totals(r->crash, r->selector, &r->total);
    tk_output *o;
    int rc = cli_output_open(args, 0, &o);
    if (rc != CLI_EXIT_OK) return rc;
    FILE *out = cli_output_file(o);
    if (fmt == CLI_OUT_JSON)
        cli_csi_cov_print_json(out, r);
    else if (fmt == CLI_OUT_CSV)
        cli_csi_cov_print_csv(out, r);
    else if (fmt == COV_OUT_ANNOTATE)
        rc = cli_csi_cov_print_annotated(out, r);
    else
        cli_csi_cov_print_text(out, r);
    if (rc != CLI_EXIT_OK) {
        cli_output_abort(o);
        return rc;
    }
    return cli_output_commit(o);
}

/* BIN and CORE mapped, the coverage read and printed. */
static int run(const cli_args *args, int fmt, const tk_csi_crash_options *opt)
{
    cli_csi_cov_result r;
    memset(&r, 0, sizeof r);
    r.bin = args->pos[0];
    r.core = args->pos[1];
    r.selector = cli_get(args, "function");
    r.source_dir = cli_get(args, "source-dir");
    tk_input *bin = NULL, *core = NULL;
    tk_csi_crash *crash = NULL;
    int rc = cli_open_input(r.bin, 0, &bin);
    if (rc == CLI_EXIT_OK) rc = cli_open_input(r.core, 0, &core);
    if (rc == CLI_EXIT_OK) {
        tk_error err;
        tk_error_clear(&err);
        const uint8_t *bd, *cd;
        size_t bl, cl;
        tk_status st = tk_input_map(bin, &bd, &bl, &err);
        if (st == TK_OK) st = tk_input_map(core, &cd, &cl, &err);
        if (st == TK_OK) st = tk_csi_crash_read(&crash, r.bin, bd, bl, r.core, cd, cl, opt, &err);
        r.bin_bytes = bd;
        r.bin_len = bl;
        rc = st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
    }
    if (rc == CLI_EXIT_OK) {
        r.crash = crash;
        const char *notes = tk_csi_crash_notes(crash);
        for (const char *p = notes; *p;) {
            size_t n = strcspn(p, "\n");
            fprintf(stderr, "tracekit coverage: note: %.*s\n", (int)n, p);
            p += n + (p[n] != 0);
        }
        rc = print_result(args, fmt, &r);
    }
    tk_csi_crash_free(crash);
    tk_input_free(core);
    tk_input_free(bin);
    return rc;
}

int cli_csi_cov_coverage(int argc, char **argv)
{
    cli_args args;
    int rc;
    if (!cli_parse_command("coverage", argc, argv, cli_csi_cov_coverage_opts, 2,
                           "expected BIN (the program, with its coverage metadata) and CORE "
                           "(its core file, or a raw memory image with --load-address)",
                           &args, &rc))
        return rc;
    int fmt = cli_get_choice("coverage", &args, "format", coverage_formats, CLI_OUT_TEXT);
    tk_csi_crash_options opt = TK_CSI_CRASH_OPTIONS_INIT;
    rc = fmt < 0 ? CLI_EXIT_USAGE : memory_options(&args, &opt);
    if (rc == 0) rc = run(&args, fmt, &opt);
    cli_args_free(&args);
    return rc;
}

const cli_opt_choices cli_csi_cov_coverage_choices[] = {{"format", coverage_formats}, {NULL, NULL}};
