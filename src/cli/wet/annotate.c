/* tracekit annotate for WET traces: source lines with their instances (in a slice). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

const cli_opt cli_wet_annotate_opts[] = {
    {"criterion", 0, "C", "also count the instances of each line in the slice of C"},
    {"forward", 0, NULL, "forward slice instead of backward"},
    {"deps", 0, "KIND", "all (default), data or control dependences"},
    {"source-dir", 'I', "DIR", "look for source files under DIR too"},
    {NULL, 0, NULL, NULL},
};

/* Print the source text of `line` of `file` (looked up as given, then under dir). */
static void print_source_line(const char *file, const char *dir, uint32_t line, FILE **cache,
                              const char **cache_name, uint32_t *cache_line)
{
    if (!file) return;
    if (!*cache_name || strcmp(*cache_name, file) != 0) {
        if (*cache) fclose(*cache);
        *cache = fopen(file, "r");
        if (!*cache && dir) {
            char path[4096];
            const char *base = strrchr(file, '/');
            snprintf(path, sizeof path, "%s/%s", dir, file);
            *cache = fopen(path, "r");
            if (!*cache && base) {
                snprintf(path, sizeof path, "%s/%s", dir, base + 1);
                *cache = fopen(path, "r");
            }
        }
        *cache_name = file;
        *cache_line = 0;
    }
    if (!*cache) return;
    if (line <= *cache_line) {
        rewind(*cache);
        *cache_line = 0;
    }
    char buf[4096];
    while (*cache_line < line && fgets(buf, sizeof buf, *cache)) {
        size_t n = strlen(buf);
        if (n && buf[n - 1] == '\n')
            (*cache_line)++;
        else if (feof(*cache))
            (*cache_line)++;
        if (*cache_line == line) {
            buf[strcspn(buf, "\n")] = '\0';
            printf("  %s", buf);
        }
    }
}

/* The lines of the trace with their instances, and those of the slice of crit
 * (NULL: none) in in_slice. Returns an exit code. */
static int annotate_lines(cli_ctx *ctx, tk_deps *d, const char *crit, const tk_slice_options *so,
                          tk_deps_lines **lines)
{
    tk_error err;
    tk_error_clear(&err);
    tk_slice *s = NULL;
    if (crit) {
        tk_node *nodes;
        size_t n;
        tk_status st = tk_criterion_parse(d, crit, &nodes, &n, &err);
        if (st == TK_OK) {
            st = tk_slice_compute(d, nodes, n, so, &s, &err);
            tk_nodes_free(nodes);
        }
        if (st != TK_OK)
            return st == TK_ERR_ARG ? cli_usage_error(ctx->command, "%s", err.message)
                                    : cli_error(&err);
    }
    tk_status st = tk_deps_lines_open(lines, d, s, &err);
    tk_slice_free(s);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

/* Each file's lines (with_slice: and their instances in the slice), next to
 * their source text when it is found (dir: --source-dir). */
static void print_lines(const tk_deps *d, const tk_deps_lines *lines, int with_slice,
                        const char *dir)
{
    size_t nlines = tk_deps_lines_count(lines);
    const char *current = NULL;
    int have_current = 0;
    FILE *cache = NULL;
    const char *cache_name = NULL;
    uint32_t cache_line = 0;
    for (size_t j = 0; j < nlines; j++) {
        const tk_deps_line *ls = tk_deps_lines_at(lines, j);
        tk_deps_instr in;
        tk_deps_get_instr(d, ls->first_instr, &in);
        if (!have_current ||
            (in.file != current && (!in.file || !current || strcmp(in.file, current) != 0))) {
            printf("%s-- %s\n", j ? "\n" : "", in.file ? in.file : "(no debug information)");
            printf("%8s %10s%s  %s\n", "line", "instances", with_slice ? "   in-slice" : "",
                   in.file ? "source" : "address");
            current = in.file;
            have_current = 1;
        }
        if (in.file)
            printf("%8" PRIu32 " %10" PRIu64, in.line, ls->instances);
        else
            printf("%8s %10" PRIu64, "-", ls->instances);
        if (with_slice) printf(" %10" PRIu64, ls->in_slice);
        if (in.file)
            print_source_line(in.file, dir, in.line, &cache, &cache_name, &cache_line);
        else
            printf("  0x%" PRIx64, in.addr);
        printf("\n");
    }
    if (cache) fclose(cache);
}

int cli_wet_annotate(cli_ctx *ctx, const cli_args *a)
{
    tk_slice_options so = TK_SLICE_OPTIONS_INIT;
    if (cli_wet_deps_option(ctx->command, a, &so.deps) != 0) return CLI_EXIT_USAGE;
    so.forward = cli_has(a, "forward");
    const char *crit = cli_get(a, "criterion");
    tk_deps *d;
    int rc = cli_wet_load_only(ctx, &d);
    if (rc != CLI_EXIT_OK) return rc;
    tk_deps_lines *lines = NULL;
    rc = annotate_lines(ctx, d, crit, &so, &lines);
    if (rc == CLI_EXIT_OK) print_lines(d, lines, crit != NULL, cli_get(a, "source-dir"));
    tk_deps_lines_free(lines);
    tk_deps_free(d);
    return rc;
}

const cli_opt_choices cli_wet_annotate_choices[] = {{"deps", cli_wet_deps}, {NULL, NULL}};
