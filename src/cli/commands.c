/* The command table, and the table of each format's handlers of the generic commands. */
#include <string.h>

#include "cli.h"
#include "callgrind/callgrind.h"
#include "csi/csi.h"
#include "csi_cov/csi_cov.h"
#include "dcfg/dcfg.h"
#include "dcfg_trace/dcfg_trace.h"
#include "folded/folded.h"
#include "record/record.h"
#include "wet/wet.h"
#include "xray/xray.h"

/* A generic command: cli_dispatch runs the handler of the input's format. */
#define GENERIC(id_, name_, summary_, usage_, about_) \
    { \
        .name = name_, .summary = summary_, .usage = usage_, .generic = id_, .about = about_ \
    }
/* A command of its own: its options, their fixed values and the format it belongs to. */
#define OWN(name_, summary_, usage_, run_, help_, opts_, choices_, format_) \
    { \
        .name = name_, .summary = summary_, .usage = usage_, .run = run_, .help = help_, \
        .opts = opts_, .choices = choices_, .format = format_ \
    }
/* One that prints its result on standard output: -o/--output sends it to a file. */
#define PRINTS(name_, summary_, usage_, run_, help_, opts_, choices_, format_) \
    { \
        .name = name_, .summary = summary_, .usage = usage_, .run = run_, .help = help_, \
        .opts = opts_, .choices = choices_, .format = format_, .prints = 1 \
    }

static const cli_command commands[] = {
    GENERIC(CLI_INFO, "info",
            "what a file is: format, version, processes, threads, functions, events",
            "info [--from FMT] FILE...",
            "Prints the format, compression and size of each FILE, then what the format's\n"
            "reader finds: version, processes, threads, functions, blocks, events, time span.\n"),
    GENERIC(CLI_CHECK, "check",
            "validate against the format's rules; located errors, exit 1 if any",
            "check [--from FMT] FILE...",
            "Checks every rule of the format. Each problem is printed on stderr as\n"
            "'path:line:col: error: ...' (text formats) or 'path: byte N: error: ...'\n"
            "(binary formats). Exit status 1 when there is any error.\n"),
    GENERIC(CLI_REPORT, "report", "hot functions/lines/blocks/loops/paths, latency tables",
            "report [OPTIONS] FILE...",
            "Hot functions, lines, blocks, loops or paths; latency tables. Options such as\n"
            "--sort, --top and --format=text|json|csv depend on the format (see below).\n"),
    GENERIC(CLI_ANNOTATE, "annotate", "source lines with costs", "annotate [OPTIONS] FILE",
            "Prints source lines (or instructions) with the costs the file gives them.\n"),
    GENERIC(CLI_CONVERT, "convert", "write another format (--to FMT -o OUT)",
            "convert --to FMT [-o OUT [--force]] FILE",
            "Converts FILE with --to FMT, to -o OUT (default: standard output). An existing\n"
            "OUT is only replaced with --force; binary output is never written to a terminal.\n"
            "The output is written to a temporary file and renamed when complete.\n"),
    GENERIC(CLI_DUMP, "dump", "canonical deterministic text of the model", "dump FILE",
            "Prints the whole model read from FILE as canonical text: stable across runs,\n"
            "used as the golden format of the tests.\n"),
    GENERIC(CLI_DIFF, "diff", "compare two files, or two sets of files",
            "diff [OPTIONS] FILE1 FILE2 | diff [OPTIONS] FILES... --vs FILES...",
            "Prints per-item differences between FILE1 and FILE2. Of two sets (--vs between\n"
            "them), each set is what 'tracekit merge' makes of it (Callgrind, DCFG; XRay:\n"
            "what report or convert --to folded makes of its traces; read on -j threads),\n"
            "and the difference is that of the two results.\n"),
    GENERIC(CLI_MERGE, "merge", "add up files of the same program", "merge [-o OUT] FILE...",
            "Adds FILEs of the same program into one (merge is associative).\n"),
    OWN("slice", "dynamic slice of a WET trace",
        "slice TRACE --criterion C [--forward] [--deps KIND] [--depth N] [--lines] "
        "[--format FMT] [--to dot]",
        cli_wet_slice, cli_wet_slice_help, cli_wet_slice_opts, cli_wet_slice_choices, "wet"),
    PRINTS("chain", "shortest dependence chain between two instances of a WET trace",
           "chain [--deps KIND] TRACE FROM TO", cli_wet_chain, cli_wet_chain_help,
           cli_wet_chain_opts, cli_wet_chain_choices, "wet"),
    PRINTS("values", "values computed by instructions of a WET trace",
           "values TRACE INSTR[:INSTANCE]", cli_wet_values, cli_wet_values_help,
           cli_wet_values_opts, NULL, "wet"),
    PRINTS("paths", "CSI: list, decode and regenerate Ball-Larus paths; decode runtime states",
           "paths META [--function NAME] (--list [-n N | --all] | --decode ID | --state FILE)",
           cli_csi_paths, cli_csi_paths_help, cli_csi_paths_opts, cli_csi_paths_choices, "csi"),
    OWN("extract", "copy a section (default .debug_PT) out of an ELF executable or object",
        "extract BIN [--section NAME] [-o OUT [--force]]", cli_csi_extract, cli_csi_extract_help,
        cli_csi_extract_opts, NULL, "csi"),
    OWN("coverage", "CSI: the call sites, functions, blocks and lines a crashed program had run",
        "coverage BIN CORE [--format text|json|csv|annotate] [--function NAME] "
        "[--load-address ADDR [--bias N]]",
        cli_csi_cov_coverage, cli_csi_cov_coverage_help, cli_csi_cov_coverage_opts,
        cli_csi_cov_coverage_choices, "csi-cc"),
    OWN("decode", "DCFG-Trace: the edge sequence as edges, blocks, addresses or calls",
        "decode [--dcfg DCFG] [--what edges|blocks|addrs|calls|count] [--pid P] [--thread T] "
        "TRACE",
        cli_dcfg_trace_decode, cli_dcfg_trace_decode_help, cli_dcfg_trace_decode_opts,
        cli_dcfg_trace_decode_choices, "dcfg-trace"),
    OWN("encode", "DCFG-Trace: write a trace from an edge list",
        "encode [--dcfg DCFG] [--level N] [--chunk-instrs N] [--compat=intel] -o TRACE EDGES",
        cli_dcfg_trace_encode, cli_dcfg_trace_encode_help, cli_dcfg_trace_encode_opts,
        cli_dcfg_trace_encode_choices, "dcfg-trace"),
    PRINTS("instr-map", "XRay: function ids, names and source lines of an instrumented binary",
           "instr-map [--format=text|json] BINARY", cli_xray_instr_map, cli_xray_instr_map_help,
           cli_xray_instr_map_opts, cli_xray_instr_map_choices, "xray"),
    {.name = "record",
     .summary = "run a program under Valgrind and write its DCFG (and DCFG-Trace)",
     .usage = "record [-o PREFIX] [--trace] [--trace-children] [--threads-limit N] -- PROG ARGS...",
     .run = cli_record,
     .help = cli_record_help,
     .opts = cli_record_opts,
     .format = "dcfg",
     .default_outputs = 1},
    OWN("formats", "every format and what tracekit can do with it", "formats", cli_formats, NULL,
        cli_formats_opts, NULL, NULL),
    OWN("help", "help on tracekit, a command or a format", "help [COMMAND | FORMAT]", cli_help,
        cli_help_help, cli_help_opts, NULL, NULL),
};

size_t cli_command_count(void) { return sizeof commands / sizeof commands[0]; }

const cli_command *cli_command_at(size_t i)
{
    return i < cli_command_count() ? &commands[i] : NULL;
}

const cli_command *cli_command_find(const char *name)
{
    for (size_t i = 0; i < cli_command_count(); i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

/* A command that prints, with -o FILE: its standard output into FILE (a usage error is left
 * to the command, which parses its arguments again). */
static int run_printing(const cli_command *c, int argc, char **argv)
{
    const cli_opt *tables[] = {c->opts, NULL};
    cli_args a;
    if (cli_parse(c->name, argc, argv, 1, tables, CLI_PARSE_QUIET, &a) != 0)
        return c->run(argc, argv);
    cli_stdout_redirect r = {NULL, -1};
    int rc = cli_has(&a, "help") ? CLI_EXIT_OK : cli_stdout_open(&a, &r);
    cli_args_free(&a);
    return rc != CLI_EXIT_OK ? rc : cli_stdout_close(&r, c->run(argc, argv));
}

int cli_command_run(const cli_command *c, int argc, char **argv)
{
    if (c->run && c->prints) return run_printing(c, argc, argv);
    return c->run ? c->run(argc, argv) : cli_dispatch(c, argc, argv);
}

void cli_command_help(const cli_command *c, FILE *f)
{
    fprintf(f, "usage: tracekit %s\n\n%s.\n", c->usage, c->summary);
    if (c->about) {
        fputc('\n', f);
        fputs(c->about, f);
    } else if (c->help) {
        fputc('\n', f);
        c->help(f);
    }
    if (c->opts && c->opts->name) {
        fputs("\nOptions:\n", f);
        cli_print_options(f, c->opts);
    }
}

/* ---- the format handlers (src/cli/<fmt>/ops.c) ---------------------------------------- */

static const cli_format_ops *const handlers[] = {
    &cli_callgrind_ops, &cli_xray_ops,   &cli_dcfg_ops,    &cli_dcfg_trace_ops, &cli_csi_ops,
    &cli_csi_cc_ops,    &cli_csi_fc_ops, &cli_csi_bbc_ops, &cli_wet_ops,        &cli_folded_ops,
};

const cli_format_ops *cli_format_ops_at(size_t i)
{
    return i < sizeof handlers / sizeof handlers[0] ? handlers[i] : NULL;
}

const cli_format_ops *cli_format_ops_find(const char *format)
{
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
        if (strcmp(handlers[i]->format, format) == 0) return handlers[i];
    return NULL;
}
