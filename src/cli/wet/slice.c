/* tracekit slice: the dynamic slice of a WET trace. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wet.h"

const cli_opt cli_wet_slice_opts[] = {
    {"criterion", 'c', "C", "ID:INSTANCE, 0xADDR#INSTANCE or FILE:LINE[#INSTANCE] (repeatable)"},
    {"forward", 0, NULL, "what depends on the criterion, instead of what it depends on"},
    {"deps", 0, "KIND", "all (default), data or control dependences"},
    {"depth", 0, "N", "at most N dependence steps from the criterion"},
    {"lines", 0, NULL, "also list the distinct file:line of the slice"},
    {"format", 0, "FMT", "text (default) or json"},
    {"to", 't', "FMT", "dot: draw the slice for Graphviz"},
    {"timing", 0, NULL, "print the time spent loading, slicing and writing on stderr"},
    {"progress", 0, NULL, "show progress on stderr while loading"},
    {"static", 0, "TRACE", "comprehensive trace giving file:line for a limited-history trace"},
    {"output", 'o', "OUT", "output file (default: standard output)"},
    {"force", 'f', NULL, "overwrite OUT"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

/* --to */
enum { TO_NONE, TO_DOT };
static const cli_choice slice_targets[] = {{"dot", TO_DOT}, {NULL, 0}};

void cli_wet_slice_help(FILE *f)
{
    fputs("Prints the instances of the dynamic slice, one 'ID INSTANCE' per line sorted by\n"
          "id then instance ('0xADDR INSTANCE' for a limited-history trace); the\n"
          "criterion instances are part of the slice. A criterion without an instance\n"
          "means the last instance; FILE:LINE means every instruction of that line.\n",
          f);
}

/* Wall-clock and CPU seconds. */
typedef struct stamp {
    double wall, cpu;
} stamp;

static stamp now(void)
{
    struct timespec w, c;
    clock_gettime(CLOCK_MONOTONIC, &w);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    stamp s = {(double)w.tv_sec + (double)w.tv_nsec / 1e9,
               (double)c.tv_sec + (double)c.tv_nsec / 1e9};
    return s;
}

static void report_time(const char *what, stamp from, stamp to)
{
    fprintf(stderr, "tracekit slice: %s: %.3f s (cpu %.3f s)\n", what, to.wall - from.wall,
            to.cpu - from.cpu);
}

static void write_dot(FILE *f, const tk_deps *d, const tk_deps *statics, const tk_slice *s,
                      tk_slice_deps deps, const uint32_t *order)
{
    uint32_t count = tk_deps_count(d);
    fprintf(f, "digraph slice {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (uint32_t o = 0; o < count; o++) {
        uint32_t i = order[o];
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        char src[512];
        tk_deps_source(d, statics, i, src, sizeof src);
        for (uint32_t k = 0; k < in.ninstances; k++) {
            if (!tk_slice_contains(s, d, i, k)) continue;
            fprintf(f, "  \"");
            cli_wet_print_node(f, d, i, k, "#");
            fprintf(f, "\" [label=\"");
            cli_wet_print_node(f, d, i, k, "#");
            fprintf(f, "\\n");
            for (const char *c = src; *c; c++)
                fprintf(f, (*c == '"' || *c == '\\') ? "\\%c" : "%c", *c);
            fprintf(f, "\"];\n");
        }
    }
    for (uint32_t o = 0; o < count; o++) {
        uint32_t i = order[o];
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        for (uint32_t p = 0; p < in.nports; p++) {
            tk_dep_kind kind = tk_deps_port_kind(d, p);
            if ((deps == TK_SLICE_DATA && kind != TK_DEP_DATA) ||
                (deps == TK_SLICE_CONTROL && kind != TK_DEP_CONTROL))
                continue;
            tk_dep buf[256];
            size_t cnt = tk_deps_port_entries(d, i, p, 0, NULL, 0);
            for (size_t j = 0; j < cnt; j++) {
                if (j % 256 == 0) tk_deps_port_entries(d, i, p, j, buf, 256);
                const tk_dep *e = &buf[j % 256];
                if (!tk_slice_contains(s, d, i, e->inst) ||
                    !tk_slice_contains(s, d, e->dep, e->dep_inst))
                    continue;
                fprintf(f, "  \"");
                cli_wet_print_node(f, d, i, e->inst, "#");
                fprintf(f, "\" -> \"");
                cli_wet_print_node(f, d, e->dep, e->dep_inst, "#");
                fprintf(f, "\"%s;\n",
                        kind == TK_DEP_CONTROL ? " [style=dashed]"
                        : kind == TK_DEP_DATA  ? ""
                                               : " [style=dotted]");
            }
        }
    }
    fprintf(f, "}\n");
}

static void write_text(FILE *f, const tk_deps *d, const tk_deps *statics, const tk_slice *s,
                       const uint32_t *order, int lines)
{
    uint32_t count = tk_deps_count(d);
    for (uint32_t o = 0; o < count; o++) {
        uint32_t i = order[o];
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        for (uint32_t k = 0; k < in.ninstances; k++)
            if (tk_slice_contains(s, d, i, k)) {
                cli_wet_print_node(f, d, i, k, " ");
                fputc('\n', f);
            }
    }
    if (lines) {
        size_t n = 0;
        char **l = NULL;
        tk_slice_lines(s, d, statics, &l, &n, NULL);
        fputc('\n', f);
        for (size_t j = 0; j < n; j++) fprintf(f, "%s\n", l[j]);
        tk_free(l);
    }
}

static void json_node(FILE *f, const tk_deps *d, uint32_t instr, uint32_t inst)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    if (tk_deps_get_form(d) == TK_DEPS_HISTORY)
        fprintf(f, "[\"0x%" PRIx64 "\",%" PRIu32 "]", in.addr, inst);
    else
        fprintf(f, "[%" PRIu64 ",%" PRIu32 "]", in.id, inst);
}

static void write_json(FILE *f, const tk_deps *d, const tk_deps *statics, const tk_slice *s,
                       const uint32_t *order, const tk_slice_options *so, const tk_node *crit,
                       size_t ncrit)
{
    uint32_t count = tk_deps_count(d);
    static const char *const kinds[] = {"all", "data", "control"};
    fprintf(f, "{\"version\":1,\"criterion\":[");
    for (size_t c = 0; c < ncrit; c++) {
        if (c) fputc(',', f);
        json_node(f, d, crit[c].instr, crit[c].inst);
    }
    fprintf(f,
            "],\"direction\":\"%s\",\"deps\":\"%s\",\"depth\":%" PRIu64 ",\"size\":%" PRIu64
            ",\"instances\":[",
            so->forward ? "forward" : "backward", kinds[so->deps], so->max_depth, tk_slice_size(s));
    int first = 1;
    for (uint32_t o = 0; o < count; o++) {
        uint32_t i = order[o];
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        for (uint32_t k = 0; k < in.ninstances; k++) {
            if (!tk_slice_contains(s, d, i, k)) continue;
            if (!first) fputc(',', f);
            json_node(f, d, i, k);
            first = 0;
        }
    }
    fprintf(f, "],\"lines\":[");
    size_t n = 0;
    char **l = NULL;
    tk_slice_lines(s, d, statics, &l, &n, NULL);
    for (size_t j = 0; j < n; j++) {
        fprintf(f, "%s\"", j ? "," : "");
        for (const char *c = l[j]; *c; c++)
            fprintf(f, (*c == '"' || *c == '\\') ? "\\%c" : "%c", *c);
        fprintf(f, "\"");
    }
    tk_free(l);
    fprintf(f, "]}\n");
}

int cli_wet_slice(int argc, char **argv)
{
    const char *cmd = "slice";
    cli_args a;
    int rc;
    if (!cli_parse_command(cmd, argc, argv, cli_wet_slice_opts, 1,
                           "expected one TRACE argument (see 'tracekit slice --help')", &a, &rc))
        return rc;
    tk_deps *d = NULL, *statics = NULL;
    tk_slice *s = NULL;
    uint32_t *order = NULL;
    tk_output *out = NULL;
    tk_node *nodes = NULL;
    size_t nnodes = 0;
    tk_slice_options so = TK_SLICE_OPTIONS_INIT;
    const char *crits[64];
    int ncrit = cli_get_all(&a, "criterion", crits, 64);
    int to = cli_get_choice(cmd, &a, "to", slice_targets, TO_NONE);
    int fmt = cli_get_choice(cmd, &a, "format", cli_out_text_json, CLI_OUT_TEXT);
    int json = fmt == CLI_OUT_JSON;
    if (fmt < 0 || to < 0 || cli_wet_deps_option(cmd, &a, &so.deps) != 0 ||
        cli_get_u64(cmd, &a, "depth", 0, &so.max_depth) != 0) {
        rc = CLI_EXIT_USAGE;
        goto done;
    }
    so.forward = cli_has(&a, "forward");
    if (ncrit == 0) {
        rc = cli_usage_error(cmd, "missing --criterion (ID:INSTANCE, 0xADDR#INSTANCE or "
                                  "FILE:LINE[#INSTANCE])");
        goto done;
    }
    int progress = cli_has(&a, "progress"), timing = cli_has(&a, "timing");
    stamp t0 = now();
    if ((rc = cli_wet_load_path(a.pos[0], progress, &d)) != CLI_EXIT_OK) goto done;
    stamp t1 = now();
    if (cli_get(&a, "static") &&
        (rc = cli_wet_load_path(cli_get(&a, "static"), progress, &statics)) != CLI_EXIT_OK)
        goto done;
    tk_error err;
    tk_error_clear(&err);
    for (int c = 0; c < ncrit; c++) {
        tk_node *part, *grown;
        size_t n;
        if (tk_criterion_parse(d, crits[c], &part, &n, &err) != TK_OK) {
            rc = cli_usage_error(cmd, "%s", err.message);
            goto done;
        }
        grown = realloc(nodes, (nnodes + n) * sizeof *nodes);
        if (grown) {
            nodes = grown;
            memcpy(nodes + nnodes, part, n * sizeof *part);
            nnodes += n;
        }
        tk_nodes_free(part);
    }
    tk_status st = tk_slice_compute(d, nodes, nnodes, &so, &s, &err);
    stamp t2 = now();
    if (st != TK_OK) {
        rc = st == TK_ERR_ARG ? cli_usage_error(cmd, "%s", err.message) : cli_error(&err);
        goto done;
    }
    order = malloc((tk_deps_count(d) ? tk_deps_count(d) : 1) * sizeof *order);
    if (!order) {
        tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
        rc = cli_error(&err);
        goto done;
    }
    tk_deps_order_by_id(d, order);
    if ((rc = cli_output_open(&a, 0, &out)) != CLI_EXIT_OK) goto done;
    FILE *f = cli_output_file(out);
    if (to == TO_DOT)
        write_dot(f, d, statics, s, so.deps, order);
    else if (json)
        write_json(f, d, statics, s, order, &so, nodes, nnodes);
    else
        write_text(f, d, statics, s, order, cli_has(&a, "lines"));
    rc = cli_output_commit(out);
    out = NULL;
    if (timing) {
        stamp t3 = now();
        report_time("load", t0, t1);
        report_time("slice", t1, t2);
        report_time("output", t2, t3);
        fprintf(stderr, "tracekit slice: %" PRIu64 " instance%s in the slice\n", tk_slice_size(s),
                cli_s(tk_slice_size(s)));
    }
done:
    free(nodes);
    free(order);
    tk_slice_free(s);
    tk_deps_free(d);
    tk_deps_free(statics);
    cli_args_free(&a);
    return rc;
}

const cli_opt_choices cli_wet_slice_choices[] = {
    {"deps", cli_wet_deps}, {"format", cli_out_text_json}, {"to", slice_targets}, {NULL, NULL}};
