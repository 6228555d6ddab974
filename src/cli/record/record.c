/* tracekit record: run a program under tkrecord (tracekit's Valgrind tool) and
 * write its DCFG (and DCFG-Trace).  The work is the library's (tk_record_run,
 * tracekit/record.h); this is options, output names and the exit status. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "tracekit/record.h"

const cli_opt cli_record_opts[] = {
    {"output", 'o', "PREFIX",
     "PREFIX.dcfg.json, PREFIX.trace.json, PREFIX.wet... (default: "
     "PROG's name)"},
    {"trace", 0, NULL, "also record the DCFG-Trace: each thread's edges in order"},
    {"wet", 0, NULL, "record a WET trace, the comprehensive form: PREFIX.wet"},
    {"wet-history", 0, "[N]",
     "the WET history form, the last N dependences (default 100000, "
     "WET's): PREFIX.wet-history"},
    {"wet-memory", 0, "MB", "WET: instances kept in memory before spilling (default 512)"},
    {"dcfg", 0, NULL, "with --wet or --wet-history: write PREFIX.dcfg.json too"},
    {"trace-children", 0, NULL, "record forked and exec'd children as processes of their own"},
    {"threads-limit", 0, "N", "threads counted apart (default 256); later ones share the last"},
    {"force", 'f', NULL, "overwrite the outputs"},
    {"quiet", 'q', NULL, "no summary line at the end"},
    {"keep-raw", 0, "DIR", "keep tkrecord's raw files and spills in DIR (docs/record.md)"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

/* Where the program's own arguments start: after "--", else at the first
 * argument that is neither an option nor an option's value. */
static int program_start(int argc, char **argv)
{
    for (int i = 1; i < argc; i += cli_option_words(cli_record_opts, argc, argv, i)) {
        const char *s = argv[i];
        if (!strcmp(s, "--")) return i + 1;
        if (s[0] != '-' || !s[1]) return i;
    }
    return argc;
}

static const char *const comp_ext[] = {".gz", ".bz2", ".xz", ".zst"};

/* The outputs' names, made of the prefix (a compression suffix of it moved to the end of
 * each; a name ending in .dcfg.json or .wet stands for its prefix). */
typedef struct out_names {
    char *dcfg, *trace, *wet, *history;
} out_names;

static int output_names(const char *prefix, out_names *o)
{
    size_t n = strlen(prefix);
    const char *ext = "";
    for (size_t i = 0; i < sizeof comp_ext / sizeof *comp_ext; i++) {
        size_t e = strlen(comp_ext[i]);
        if (n > e && !strcmp(prefix + n - e, comp_ext[i])) {
            ext = comp_ext[i];
            n -= e;
        }
    }
    static const char *const tails[] = {".dcfg.json", ".wet"};
    for (size_t i = 0; i < 2; i++) {
        size_t t = strlen(tails[i]);
        if (n > t && !strncmp(prefix + n - t, tails[i], t)) n -= t;
    }
    size_t size = n + 32;
    char **names[4] = {&o->dcfg, &o->trace, &o->wet, &o->history};
    static const char *const sfx[4] = {".dcfg.json", ".trace.json", ".wet", ".wet-history"};
    for (int i = 0; i < 4; i++) {
        if (!(*names[i] = malloc(size))) return 0;
        snprintf(*names[i], size, "%.*s%s%s", (int)n, prefix, sfx[i], ext);
    }
    return 1;
}

static int exit_status(const tk_record_result *r)
{
    if (r->exited) return r->exit_code;
    if (r->signal) return 128 + r->signal;
    return CLI_EXIT_USAGE;
}

static void summary(const tk_record_options *o, const tk_record_result *r)
{
    /* Without a DCFG written (--wet alone) the counts are of the run, not of a file. */
    fprintf(stderr,
            "tracekit record: %s%s%" PRIu32 " process%s, %" PRIu32 " thread%s, %" PRIu64
            " block%s, %" PRIu64 " edge%s, %" PRIu64 " instruction%s",
            o->dcfg_path ? o->dcfg_path : "recorded ", o->dcfg_path ? ": " : "", r->processes,
            r->processes == 1 ? "" : "es", r->threads, cli_s(r->threads), r->blocks,
            cli_s(r->blocks), r->edges, cli_s(r->edges), r->instructions, cli_s(r->instructions));
    if (o->trace_path)
        fprintf(stderr, "; %s: %" PRIu64 " edge%s", o->trace_path, r->trace_edges,
                cli_s(r->trace_edges));
    if (o->wet_path)
        fprintf(stderr,
                "; %s: %" PRIu64 " instruction%s, %" PRIu64 " instance%s, %" PRIu64 " dependence%s",
                o->wet_path, r->wet_instructions, cli_s(r->wet_instructions), r->wet_instances,
                cli_s(r->wet_instances), r->wet_deps, cli_s(r->wet_deps));
    if (o->wet_path && r->wet_spills)
        fprintf(stderr, " (%" PRIu32 " spill file%s)", r->wet_spills, cli_s(r->wet_spills));
    if (r->wet_execs)
        fprintf(stderr, "; the WET trace is of %s, which the program exec'd", r->wet_program);
    if (o->wet_history_path)
        fprintf(stderr, "; %s: %" PRIu64 " dependence%s", o->wet_history_path, r->wet_history,
                cli_s(r->wet_history));
    if (r->exec_stopped)
        fputs("; the recording stopped where the program exec'd another one (--trace-children "
              "records it too)",
              stderr);
    if (!r->complete) fputs(" (incomplete: the program did not end normally)", stderr);
    fputc('\n', stderr);
}

/* The WET options (--wet, --wet-history N, --wet-memory MB, --dcfg). */
static int wet_options(const cli_args *a, tk_record_options *o, const out_names *n)
{
    uint64_t hist, mem;
    if (cli_get_u64("record", a, "wet-history", 100000, &hist) ||
        cli_get_u64("record", a, "wet-memory", 0, &mem))
        return CLI_EXIT_USAGE;
    int wet = cli_has(a, "wet"), history = cli_has(a, "wet-history");
    if (history && (hist < 1 || hist > 1000000000))
        return cli_usage_error("record", "--wet-history must be 1..1000000000");
    if (cli_has(a, "wet-memory") && (mem < 1 || mem > (1u << 22)))
        return cli_usage_error("record", "--wet-memory must be 1..4194304 (MB)");
    if ((cli_has(a, "wet-memory") || cli_has(a, "dcfg")) && !wet && !history)
        return cli_usage_error("record", "--wet-memory and --dcfg go with --wet or --wet-history");
    if (!wet && !history) return CLI_EXIT_OK;
    if (o->trace_children)
        return cli_usage_error("record", "a WET trace is of one process: no --trace-children");
    o->wet_path = wet ? n->wet : NULL;
    o->wet_history_path = history ? n->history : NULL;
    o->wet_history = hist;
    o->wet_memory = mem << 20;
    if (!cli_has(a, "dcfg") && !o->trace_path) o->dcfg_path = NULL;
    return CLI_EXIT_OK;
}

/* The outputs' names and what tk_record_run takes, from the parsed options; argv[start] is
 * the program, *o starts as TK_RECORD_OPTIONS_INIT. Returns CLI_EXIT_OK, or an exit code
 * after a usage error (the names, which the caller frees, may be set either way). */
static int run_options(const cli_args *a, char **argv, int start, tk_record_options *o,
                       out_names *n)
{
    uint64_t limit;
    if (cli_get_u64("record", a, "threads-limit", 256, &limit)) return CLI_EXIT_USAGE;
    if (limit < 1 || limit > 65536)
        return cli_usage_error("record", "--threads-limit must be 1..65536");
    const char *prefix = cli_get(a, "output");
    if (!prefix) {
        prefix = strrchr(argv[start], '/');
        prefix = prefix ? prefix + 1 : argv[start];
    }
    if (!output_names(prefix, n)) return cli_usage_error("record", "out of memory");
    o->dcfg_path = n->dcfg;
    o->trace_path = cli_has(a, "trace") ? n->trace : NULL;
    o->trace_children = cli_has(a, "trace-children");
    o->threads_limit = (uint32_t)limit;
    o->force = cli_has(a, "force");
    o->keep_raw = cli_get(a, "keep-raw");
    return wet_options(a, o, n);
}

int cli_record(int argc, char **argv)
{
    int start = program_start(argc, argv), rc;
    cli_args a;
    int nopts = start < argc && !strcmp(argv[start - 1], "--") ? start - 1 : start;
    if (!cli_parse_command("record", nopts, argv, cli_record_opts, 0,
                           "options come before the program: tracekit record [OPTIONS] -- PROG", &a,
                           &rc))
        return rc;
    out_names names = {NULL, NULL, NULL, NULL};
    tk_record_options o = TK_RECORD_OPTIONS_INIT;
    if (start >= argc)
        rc = cli_usage_error("record",
                             "no program to run (tracekit record [OPTIONS] -- PROG ARGS...)");
    else
        rc = run_options(&a, argv, start, &o, &names);
    if (rc != CLI_EXIT_OK) goto done;
    tk_record_result r;
    tk_error err;
    tk_error_clear(&err);
    if (tk_record_run((const char *const *)argv + start, &o, &r, &err) != TK_OK) {
        cli_error(&err); /* the program's status when it failed, else tracekit's: never 0 */
        rc = (r.exited && r.exit_code) || r.signal ? exit_status(&r) : CLI_EXIT_USAGE;
    } else {
        if (!cli_has(&a, "quiet")) summary(&o, &r);
        rc = exit_status(&r);
    }
done:
    free(names.dcfg);
    free(names.trace);
    free(names.wet);
    free(names.history);
    cli_args_free(&a);
    return rc;
}

void cli_record_help(FILE *f)
{
    fputs("Runs PROG with its arguments under Valgrind with tkrecord, tracekit's own\n"
          "Valgrind tool, and writes the DCFG of the run (Intel's format: basic blocks,\n"
          "typed edges with per-thread counts, images, symbols, source lines, routines,\n"
          "loops) and, with --trace, its DCFG-Trace. PROG's standard streams are\n"
          "tracekit's, and its exit status is tracekit's (128+N when signal N killed it);\n"
          "2 when tracekit cannot record (no such program, Valgrind or tkrecord missing).\n"
          "A PREFIX ending in .gz, .bz2, .xz or .zst compresses both outputs (-o x.bz2:\n"
          "x.dcfg.json.bz2). Needs Valgrind (x86-64 Linux programs); docs/record.md tells\n"
          "how blocks and edges are made and how they differ from Intel SDE's.\n\n"
          "With --wet and/or --wet-history [N] it writes a WET whole execution trace of the\n"
          "program's process instead (PREFIX.wet: every executed instance's control and\n"
          "data dependences and values; PREFIX.wet-history: the last N dependences), read\n"
          "by tracekit check, slice, chain and values; --dcfg writes the DCFG of the same\n"
          "run too. docs/record.md, \"WET\", tells how dependences are found.\n",
          f);
}
