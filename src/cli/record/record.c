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
    {"output", 'o', "PREFIX", "PREFIX.dcfg.json, PREFIX.trace.json (default: PROG's name)"},
    {"trace", 0, NULL, "also record the DCFG-Trace: each thread's edges in order"},
    {"trace-children", 0, NULL, "record forked and exec'd children as processes of their own"},
    {"threads-limit", 0, "N", "threads counted apart (default 256); later ones share the last"},
    {"force", 0, NULL, "overwrite the outputs"},
    {"quiet", 'q', NULL, "no summary line at the end"},
    {"keep-raw", 0, "DIR", "keep tkrecord's raw files and spills in DIR (docs/record.md)"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

/* Where the program's own arguments start: after "--", else at the first
 * argument that is neither an option nor an option's value. */
static int program_start(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--")) return i + 1;
        if (s[0] != '-' || !s[1]) return i;
        if (!strcmp(s, "-o") || !strcmp(s, "--output") || !strcmp(s, "--threads-limit") ||
            !strcmp(s, "--keep-raw"))
            i++;
    }
    return argc;
}

static const char *const comp_ext[] = {".gz", ".bz2", ".xz", ".zst"};

/* PREFIX.dcfg.json and PREFIX.trace.json, a compression suffix of the prefix
 * moved to the end; "x.dcfg.json[.bz2]" names the DCFG itself. */
static int output_names(const char *prefix, char **dcfg, char **trace)
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
    const char *tail = ".dcfg.json";
    if (n > strlen(tail) && !strncmp(prefix + n - strlen(tail), tail, strlen(tail)))
        n -= strlen(tail);
    size_t size = n + 32;
    *dcfg = malloc(size);
    *trace = malloc(size);
    if (!*dcfg || !*trace) return 0;
    snprintf(*dcfg, size, "%.*s.dcfg.json%s", (int)n, prefix, ext);
    snprintf(*trace, size, "%.*s.trace.json%s", (int)n, prefix, ext);
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
    fprintf(stderr, "tracekit record: %s: %" PRIu32 " process%s, %" PRIu32 " thread%s, %" PRIu64
                    " block%s, %" PRIu64 " edge%s, %" PRIu64 " instruction%s",
            o->dcfg_path, r->processes, r->processes == 1 ? "" : "es", r->threads,
            cli_s(r->threads), r->blocks, cli_s(r->blocks), r->edges, cli_s(r->edges),
            r->instructions, cli_s(r->instructions));
    if (o->trace_path)
        fprintf(stderr, "; %s: %" PRIu64 " edge%s", o->trace_path, r->trace_edges,
                cli_s(r->trace_edges));
    if (!r->complete) fputs(" (incomplete: see TRACEKIT_RECORD in the DCFG)", stderr);
    fputc('\n', stderr);
}

/* The outputs' names and what tk_record_run takes, from the parsed options; argv[start] is
 * the program, *o starts as TK_RECORD_OPTIONS_INIT. Returns CLI_EXIT_OK, or an exit code
 * after a usage error (*dcfg and *trace, which the caller frees, may be set either way). */
static int run_options(const cli_args *a, char **argv, int start, tk_record_options *o,
                       char **dcfg, char **trace)
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
    if (!output_names(prefix, dcfg, trace)) return cli_usage_error("record", "out of memory");
    o->dcfg_path = *dcfg;
    o->trace_path = cli_has(a, "trace") ? *trace : NULL;
    o->trace_children = cli_has(a, "trace-children");
    o->threads_limit = (uint32_t)limit;
    o->force = cli_has(a, "force");
    o->keep_raw = cli_get(a, "keep-raw");
    return CLI_EXIT_OK;
}

int cli_record(int argc, char **argv)
{
    int start = program_start(argc, argv), rc;
    cli_args a;
    int nopts = start < argc && !strcmp(argv[start - 1], "--") ? start - 1 : start;
    if (!cli_parse_command("record", nopts, argv, cli_record_opts, 0,
                           "options come before the program: tracekit record [OPTIONS] -- PROG",
                           &a, &rc))
        return rc;
    char *dcfg = NULL, *trace = NULL;
    tk_record_options o = TK_RECORD_OPTIONS_INIT;
    if (start >= argc)
        rc = cli_usage_error("record",
                             "no program to run (tracekit record [OPTIONS] -- PROG ARGS...)");
    else
        rc = run_options(&a, argv, start, &o, &dcfg, &trace);
    if (rc != CLI_EXIT_OK) goto done;
    tk_record_result r;
    tk_error err;
    tk_error_clear(&err);
    if (tk_record_run((const char *const *)argv + start, &o, &r, &err) != TK_OK) {
        cli_error(&err);
        rc = r.exited || r.signal ? exit_status(&r) : CLI_EXIT_USAGE;
    } else {
        if (!cli_has(&a, "quiet")) summary(&o, &r);
        rc = exit_status(&r);
    }
done:
    free(dcfg);
    free(trace);
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
          "how blocks and edges are made and how they differ from Intel SDE's.\n",
          f);
}
