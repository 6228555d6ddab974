/* Command handlers for WET files: info, check, report, annotate, convert, dump. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "wet.h"

/* ---- shared helpers ------------------------------------------------------------ */

int wet_cli_load_ctx(cli_ctx *ctx, int i, tk_deps **out)
{
    if (strcmp(ctx->paths[i], "-") == 0)
        return wet_cli_load(ctx->inputs[i], out);
    return wet_cli_load_path(ctx->paths[i], ctx->progress, out);
}

int wet_cli_load(tk_input *in, tk_deps **out)
{
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_wet_load(in, NULL, out, &err);
    if (st != TK_OK)
        return cli_error(&err);
    return CLI_EXIT_OK;
}

/* Traces are read once, front to back: stream them (read(2) into a buffer)
 * instead of mapping them, so the file's pages do not stay resident next to
 * the model. */
int wet_cli_load_path(const char *path, int progress, tk_deps **out)
{
    tk_input *in;
    tk_input_options opt;
    cli_input_options(&opt, progress);
    opt.no_mmap = 1;
    tk_error err;
    tk_error_clear(&err);
    if (tk_input_open(&in, path, &opt, &err) != TK_OK)
        return cli_error(&err);
    int rc;
    rc = wet_cli_load(in, out);
    tk_input_free(in);
    if (rc == CLI_EXIT_BAD_INPUT) cli_note_other_format(path, "wet");
    return rc;
}

int wet_cli_deps_option(const char *cmd, const cli_args *a, tk_slice_deps *out)
{
    static const cli_choice deps[] = {
        {"all", TK_SLICE_ALL}, {"data", TK_SLICE_DATA}, {"control", TK_SLICE_CONTROL}, {NULL, 0}};
    int c = cli_get_choice(cmd, a, "deps", deps, TK_SLICE_ALL);
    if (c < 0)
        return -1;
    *out = (tk_slice_deps)c;
    return 0;
}

void wet_cli_print_node(FILE *f, const tk_deps *d, uint32_t instr, uint32_t inst,
                        const char *sep)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    if (tk_deps_get_form(d) == TK_DEPS_HISTORY)
        fprintf(f, "0x%" PRIx64 "%s%" PRIu32, in.addr, sep, inst);
    else
        fprintf(f, "%" PRIu64 "%s%" PRIu32, in.id, sep, inst);
}

const char *wet_cli_source(const tk_deps *d, const tk_deps *statics, uint32_t instr, char *buf,
                           size_t size)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    if (!in.file && statics) {
        uint32_t s = tk_deps_find_addr(statics, in.addr);
        if (s != TK_DEPS_NONE)
            tk_deps_get_instr(statics, s, &in);
    }
    if (in.file)
        snprintf(buf, size, "%s:%" PRIu32, in.file, in.line);
    else
        snprintf(buf, size, "0x%" PRIx64, in.addr);
    return buf;
}

static int cmp_by_id(const void *a, const void *b, void *deps)
{
    tk_deps_instr x, y;
    tk_deps_get_instr(deps, *(const uint32_t *)a, &x);
    tk_deps_get_instr(deps, *(const uint32_t *)b, &y);
    return x.id < y.id ? -1 : x.id > y.id;
}

uint32_t *wet_cli_sorted_by_id(const tk_deps *d)
{
    uint32_t n = tk_deps_count(d);
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, n, sizeof *order, cmp_by_id, (void *)d);
    return order;
}

static const char *form_name(const tk_deps *d)
{
    return tk_deps_get_form(d) == TK_DEPS_HISTORY ? "limited history" : "comprehensive";
}

/* ---- info ------------------------------------------------------------------------ */

static int run_info(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_deps *d;
        int rc = wet_cli_load_ctx(ctx, i, &d);
        if (rc != CLI_EXIT_OK)
            return rc;
        tk_deps_stats s;
        tk_deps_get_stats(d, &s);
        if (i)
            printf("\n");
        printf("form: %s\n", form_name(d));
        printf("instructions: %" PRIu64 "\n", s.instructions);
        printf("instances: %" PRIu64 "\n", s.instances);
        printf("dependences: %" PRIu64 " (control %" PRIu64 ", data %" PRIu64
               ", unspecified %" PRIu64 ")\n",
               s.deps_control + s.deps_data + s.deps_unknown, s.deps_control, s.deps_data,
               s.deps_unknown);
        if (tk_deps_get_form(d) == TK_DEPS_COMPREHENSIVE)
            printf("use ports: %" PRIu64 "\nvalues: %" PRIu64 "\n", s.ports, s.values);
        tk_deps_free(d);
    }
    return CLI_EXIT_OK;
}

/* ---- check ------------------------------------------------------------------------ */

/* Whether the comprehensive trace c has "instance inst of the instruction at
 * addr depends on instance dep_inst of the instruction at dep_addr". */
static int comprehensive_has(const tk_deps *c, uint64_t addr, uint32_t inst, uint64_t dep_addr,
                             uint32_t dep_inst)
{
    uint32_t ci = tk_deps_find_addr(c, addr);
    if (ci == TK_DEPS_NONE)
        return 0;
    tk_deps_instr cin;
    tk_deps_get_instr(c, ci, &cin);
    for (uint32_t p = 0; p < cin.nports; p++) {
        const tk_dep *ce;
        size_t cc = tk_deps_port_find(c, ci, p, inst, &ce);
        for (size_t k = 0; k < cc; k++) {
            tk_deps_instr ct;
            tk_deps_get_instr(c, ce[k].dep, &ct);
            if (ct.addr == dep_addr && ce[k].dep_inst == dep_inst)
                return 1;
        }
    }
    return 0;
}

/* Every dependence of the history trace at hpath must be one of the
 * comprehensive trace c: the history file is read again to locate each miss. */
static int check_join(const char *hpath, const tk_deps *c, tk_diag *diag)
{
    tk_input *in;
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    tk_error err;
    tk_error_clear(&err);
    if (tk_input_open(&in, hpath, &opt, &err) != TK_OK) {
        tk_diag_error(diag, &err);
        return 1;
    }
    tk_wet_reader *r;
    tk_wet_rec rec;
    tk_status st = tk_wet_reader_open(&r, in, &err);
    while (st == TK_OK && (st = tk_wet_reader_next(r, &rec, &err)) == TK_OK) {
        if (rec.kind != TK_WET_REC_EDGE ||
            comprehensive_has(c, rec.addr_from, rec.inst, rec.dep_id, rec.dep_inst))
            continue;
        tk_location loc = {tk_input_path(in), -1, rec.line, 1};
        tk_diag_report(diag, TK_SEV_ERROR, &loc,
                       "dependence 0x%" PRIx64 "#%" PRIu32 " --> 0x%" PRIx64 "#%" PRIu32
                       " is not in the comprehensive trace",
                       rec.addr_from, rec.inst, rec.dep_id, rec.dep_inst);
    }
    if (st != TK_END && st != TK_OK)
        tk_diag_error(diag, &err);
    tk_wet_reader_free(r);
    tk_input_free(in);
    return 0;
}

static int run_check(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    int rc = CLI_EXIT_OK;
    tk_deps *models[2] = {NULL, NULL};
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_diag diag;
        cli_diag_init(&diag);
        tk_error err;
        tk_error_clear(&err);
        tk_deps *d = NULL;
        tk_status st = tk_wet_load(ctx->inputs[i], &diag, &d, &err);
        if (st != TK_OK && st != TK_ERR_CHECK)
            tk_diag_error(&diag, &err);
        if (cli_diag_summary(&diag, ctx->paths[i]) != 0)
            rc = CLI_EXIT_BAD_INPUT;
        if (i < 2)
            models[i] = d;
        else
            tk_deps_free(d);
    }
    /* A limited-history trace with its comprehensive trace: they must agree. */
    if (ctx->ninputs == 2 && models[0] && models[1] &&
        tk_deps_get_form(models[0]) != tk_deps_get_form(models[1])) {
        int h = tk_deps_get_form(models[0]) == TK_DEPS_HISTORY ? 0 : 1;
        tk_diag diag;
        cli_diag_init(&diag);
        if (strcmp(ctx->paths[h], "-") == 0) {
            tk_location loc = {"<stdin>", -1, 0, 0};
            tk_diag_report(&diag, TK_SEV_WARNING, &loc,
                           "standard input cannot be read twice: not checked against %s",
                           ctx->paths[1 - h]);
        } else {
            check_join(ctx->paths[h], models[1 - h], &diag);
        }
        char what[1024];
        snprintf(what, sizeof what, "%s against %s", ctx->paths[h], ctx->paths[1 - h]);
        if (cli_diag_summary(&diag, what) != 0)
            rc = CLI_EXIT_BAD_INPUT;
    }
    tk_deps_free(models[0]);
    tk_deps_free(models[1]);
    return rc;
}

/* ---- report ----------------------------------------------------------------------- */

typedef struct line_stat {
    uint32_t first_instr; /* for file and line */
    uint64_t instances;
    uint64_t instrs;
    uint64_t in_slice;
} line_stat;

static int cmp_line_stat_hot(const void *a, const void *b)
{
    const line_stat *x = a, *y = b;
    if (x->instances != y->instances)
        return x->instances > y->instances ? -1 : 1;
    return x->first_instr < y->first_instr ? -1 : x->first_instr > y->first_instr;
}

/* Order of instructions by (file, line, address); instructions without a file last. */
static int cmp_instr_pos(const void *a, const void *b, void *deps)
{
    tk_deps_instr p, q;
    tk_deps_get_instr(deps, *(const uint32_t *)a, &p);
    tk_deps_get_instr(deps, *(const uint32_t *)b, &q);
    if (!p.file != !q.file)
        return p.file ? -1 : 1;
    int c = p.file ? strcmp(p.file, q.file) : 0;
    if (c)
        return c;
    if (p.line != q.line)
        return p.line < q.line ? -1 : 1;
    return p.addr < q.addr ? -1 : p.addr > q.addr;
}

/* One entry per distinct (file, line), in source order; instructions without
 * debug information each get their own. With group, group[i] = entry of
 * instruction i. Sorting keeps this O(n log n) for big programs. */
static line_stat *collect_lines(const tk_deps *d, size_t *n, uint32_t **group)
{
    uint32_t count = tk_deps_count(d);
    line_stat *ls = calloc(count ? count : 1, sizeof *ls);
    uint32_t *order = malloc((count ? count : 1) * sizeof *order);
    uint32_t *grp = malloc((count ? count : 1) * sizeof *grp);
    if (!ls || !order || !grp) {
        free(ls);
        free(order);
        free(grp);
        return NULL;
    }
    for (uint32_t i = 0; i < count; i++)
        order[i] = i;
    qsort_r(order, count, sizeof *order, cmp_instr_pos, (void *)d);
    size_t k = 0;
    tk_deps_instr prev;
    memset(&prev, 0, sizeof prev);
    for (uint32_t o = 0; o < count; o++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, order[o], &in);
        int same = k > 0 && in.file && prev.file && in.line == prev.line &&
                   strcmp(in.file, prev.file) == 0;
        if (!same)
            ls[k++].first_instr = order[o];
        ls[k - 1].instances += in.ninstances;
        ls[k - 1].instrs++;
        grp[order[o]] = (uint32_t)(k - 1);
        prev = in;
    }
    free(order);
    if (group)
        *group = grp;
    else
        free(grp);
    *n = k;
    return ls;
}

static int run_report(cli_ctx *ctx, const cli_args *a)
{
    uint64_t top;
    if (cli_get_u64(ctx->command, a, "top", 10, &top) != 0)
        return CLI_EXIT_USAGE;
    int fmt = cli_get_choice(ctx->command, a, "format", cli_out_text_json, CLI_OUT_TEXT);
    if (fmt < 0)
        return CLI_EXIT_USAGE;
    int json = fmt == CLI_OUT_JSON;
    tk_deps *d;
    int rc = wet_cli_load_ctx(ctx, 0, &d);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_deps_stats s;
    tk_deps_get_stats(d, &s);
    size_t nlines = 0;
    line_stat *ls = collect_lines(d, &nlines, NULL);
    tk_chain_summary *chains = calloc(top ? top : 1, sizeof *chains);
    size_t nchains = 0;
    int cyclic = 0;
    tk_error err;
    tk_error_clear(&err);
    if (!ls || !chains) {
        free(ls);
        free(chains);
        tk_deps_free(d);
        tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
        return cli_error(&err);
    }
    qsort(ls, nlines, sizeof *ls, cmp_line_stat_hot);
    tk_status st = top ? tk_chain_longest(d, top, chains, &nchains, &cyclic, &err) : TK_OK;
    if (st != TK_OK) {
        free(ls);
        free(chains);
        tk_deps_free(d);
        return cli_error(&err);
    }
    size_t shown = nlines < top ? nlines : top;
    char src[512], src2[512];
    if (json) {
        printf("{\"version\":1,\"format\":\"wet\",\"form\":\"%s\",\"instructions\":%" PRIu64
               ",\"instances\":%" PRIu64 ",\"dependences\":{\"control\":%" PRIu64
               ",\"data\":%" PRIu64 ",\"unspecified\":%" PRIu64 "},\"values\":%" PRIu64
               ",\"lines\":[",
               tk_deps_get_form(d) == TK_DEPS_HISTORY ? "history" : "comprehensive",
               s.instructions, s.instances, s.deps_control, s.deps_data, s.deps_unknown,
               s.values);
        for (size_t i = 0; i < shown; i++)
            printf("%s{\"line\":\"%s\",\"instances\":%" PRIu64 ",\"instructions\":%" PRIu64 "}",
                   i ? "," : "", wet_cli_source(d, NULL, ls[i].first_instr, src, sizeof src),
                   ls[i].instances, ls[i].instrs);
        printf("],\"longest_chains\":[");
        for (size_t i = 0; i < nchains; i++) {
            printf("%s{\"length\":%" PRIu64 ",\"from\":\"", i ? "," : "", chains[i].length);
            wet_cli_print_node(stdout, d, chains[i].start.instr, chains[i].start.inst, "#");
            printf("\",\"to\":\"");
            wet_cli_print_node(stdout, d, chains[i].end.instr, chains[i].end.inst, "#");
            printf("\"}");
        }
        printf("],\"cyclic\":%s}\n", cyclic ? "true" : "false");
    } else {
        printf("%s trace: %" PRIu64 " instructions, %" PRIu64 " instances, %" PRIu64
               " dependences (%" PRIu64 " control, %" PRIu64 " data, %" PRIu64
               " unspecified), %" PRIu64 " values\n\n",
               form_name(d), s.instructions, s.instances,
               s.deps_control + s.deps_data + s.deps_unknown, s.deps_control, s.deps_data,
               s.deps_unknown, s.values);
        printf("hottest source lines:\n%12s %8s  %s\n", "instances", "instrs", "line");
        for (size_t i = 0; i < shown; i++)
            printf("%12" PRIu64 " %8" PRIu64 "  %s\n", ls[i].instances, ls[i].instrs,
                   wet_cli_source(d, NULL, ls[i].first_instr, src, sizeof src));
        printf("\nlongest dependence chains:\n%8s  %s\n", "length", "from -> to");
        for (size_t i = 0; i < nchains; i++) {
            printf("%8" PRIu64 "  ", chains[i].length);
            wet_cli_print_node(stdout, d, chains[i].start.instr, chains[i].start.inst, "#");
            printf(" (%s) -> ", wet_cli_source(d, NULL, chains[i].start.instr, src, sizeof src));
            wet_cli_print_node(stdout, d, chains[i].end.instr, chains[i].end.inst, "#");
            printf(" (%s)\n", wet_cli_source(d, NULL, chains[i].end.instr, src2, sizeof src2));
        }
        if (cyclic)
            printf("note: the dependences contain a cycle; chains were cut there\n");
    }
    free(ls);
    free(chains);
    tk_deps_free(d);
    return CLI_EXIT_OK;
}

/* ---- annotate --------------------------------------------------------------------- */

/* Print the source text of `line` of `file` (looked up as given, then under dir). */
static void print_source_line(const char *file, const char *dir, uint32_t line, FILE **cache,
                              const char **cache_name, uint32_t *cache_line)
{
    if (!file)
        return;
    if (!*cache_name || strcmp(*cache_name, file) != 0) {
        if (*cache)
            fclose(*cache);
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
    if (!*cache)
        return;
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

static int run_annotate(cli_ctx *ctx, const cli_args *a)
{
    tk_slice_options so = TK_SLICE_OPTIONS_INIT;
    if (wet_cli_deps_option(ctx->command, a, &so.deps) != 0)
        return CLI_EXIT_USAGE;
    so.forward = cli_has(a, "forward");
    const char *crit = cli_get(a, "criterion");
    const char *dir = cli_get(a, "source-dir");
    tk_deps *d;
    int rc = wet_cli_load_ctx(ctx, 0, &d);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_slice *s = NULL;
    if (crit) {
        tk_node *nodes;
        size_t n;
        tk_status st = tk_criterion_parse(d, crit, &nodes, &n, &err);
        if (st == TK_OK) {
            st = tk_slice_compute(d, nodes, n, &so, &s, &err);
            tk_nodes_free(nodes);
        }
        if (st != TK_OK) {
            tk_deps_free(d);
            return st == TK_ERR_ARG ? cli_usage_error(ctx->command, "%s", err.message)
                                    : cli_error(&err);
        }
    }
    size_t nlines = 0;
    uint32_t *group = NULL;
    line_stat *ls = collect_lines(d, &nlines, &group);
    if (!ls) {
        tk_slice_free(s);
        tk_deps_free(d);
        tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
        return cli_error(&err);
    }
    if (s)
        for (uint32_t i = 0; i < tk_deps_count(d); i++)
            ls[group[i]].in_slice += tk_slice_count_instr(s, d, i);
    free(group);
    const char *current = NULL;
    int have_current = 0;
    FILE *cache = NULL;
    const char *cache_name = NULL;
    uint32_t cache_line = 0;
    for (size_t j = 0; j < nlines; j++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, ls[j].first_instr, &in);
        if (!have_current || (in.file != current && (!in.file || !current ||
                                                     strcmp(in.file, current) != 0))) {
            printf("%s-- %s\n", j ? "\n" : "", in.file ? in.file : "(no debug information)");
            printf("%8s %10s%s  %s\n", "line", "instances", s ? "   in-slice" : "",
                   in.file ? "source" : "address");
            current = in.file;
            have_current = 1;
        }
        if (in.file)
            printf("%8" PRIu32 " %10" PRIu64, in.line, ls[j].instances);
        else
            printf("%8s %10" PRIu64, "-", ls[j].instances);
        if (s)
            printf(" %10" PRIu64, ls[j].in_slice);
        if (in.file)
            print_source_line(in.file, dir, in.line, &cache, &cache_name, &cache_line);
        else
            printf("  0x%" PRIx64, in.addr);
        printf("\n");
    }
    if (cache)
        fclose(cache);
    free(ls);
    tk_slice_free(s);
    tk_deps_free(d);
    return CLI_EXIT_OK;
}

/* ---- convert and dump ------------------------------------------------------------- */

static int run_convert(cli_ctx *ctx, const cli_args *a)
{
    const char *to = cli_get(a, "to");
    if (!to)
        return cli_usage_error(ctx->command, "missing --to FMT (wet, wet-history or json)");
    tk_status (*writer)(const tk_deps *, FILE *, tk_error *) = NULL;
    if (strcmp(to, "wet") == 0)
        writer = tk_wet_write;
    else if (strcmp(to, "wet-history") == 0)
        writer = tk_wet_write_history;
    else if (strcmp(to, "json") == 0)
        writer = tk_wet_write_json;
    else
        return cli_usage_error(ctx->command,
                               "cannot convert wet to '%s' (targets: wet wet-history json)", to);
    tk_deps *d;
    int rc = wet_cli_load_ctx(ctx, 0, &d);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_output *o;
    rc = cli_output_open(a, 0, &o);
    if (rc != CLI_EXIT_OK) {
        tk_deps_free(d);
        return rc;
    }
    tk_error err;
    tk_error_clear(&err);
    tk_status st = writer(d, tk_output_file(o), &err);
    tk_deps_free(d);
    if (st != TK_OK) {
        tk_output_abort(o);
        return cli_error(&err);
    }
    return cli_output_commit(o);
}

static int run_dump(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    tk_deps *d;
    int rc = wet_cli_load_ctx(ctx, 0, &d);
    if (rc != CLI_EXIT_OK)
        return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_wet_dump(d, stdout, &err);
    tk_deps_free(d);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

static const cli_opt report_opts[] = {
    {"top", 0, "N", "show the N hottest lines and N longest chains (default 10)"},
    {"format", 0, "FMT", "text (default) or json"},
    {NULL, 0, NULL, NULL},
};

static const cli_opt annotate_opts[] = {
    {"criterion", 0, "C", "also count the instances of each line in the slice of C"},
    {"forward", 0, NULL, "forward slice instead of backward"},
    {"deps", 0, "KIND", "all (default), data or control dependences"},
    {"source-dir", 0, "DIR", "look for source files under DIR too"},
    {NULL, 0, NULL, NULL},
};

static const cli_opt convert_opts[] = {
    {"to", 0, "FMT", "wet, wet-history or json"},
    {"output", 'o', "OUT", "output file (default: standard output)"},
    {"force", 0, NULL, "overwrite OUT"},
    {NULL, 0, NULL, NULL},
};

const cli_format_ops cli_fmt_wet = {
    .format = "wet",
    .opts = {[CLI_REPORT] = report_opts, [CLI_ANNOTATE] = annotate_opts,
             [CLI_CONVERT] = convert_opts},
    .run = {[CLI_INFO] = run_info, [CLI_CHECK] = run_check, [CLI_REPORT] = run_report,
            [CLI_ANNOTATE] = run_annotate, [CLI_CONVERT] = run_convert, [CLI_DUMP] = run_dump},
};
