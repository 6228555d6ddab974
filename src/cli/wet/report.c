/* tracekit report for WET traces: the hottest source lines and the longest dependence chains. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

const cli_opt cli_wet_report_opts[] = {
    {"top", 0, "N", "show the N hottest lines and N longest chains (default 10)"},
    {"format", 0, "FMT", "text (default) or json"},
    {NULL, 0, NULL, NULL},
};

static int cmp_line_hot(const void *a, const void *b)
{
    const cli_wet_line *x = a, *y = b;
    if (x->instances != y->instances)
        return x->instances > y->instances ? -1 : 1;
    return x->first_instr < y->first_instr ? -1 : x->first_instr > y->first_instr;
}

/* What the report shows: the trace's counts, its lines by instances, its
 * longest dependence chains. */
typedef struct report_data {
    tk_deps_stats stats;
    cli_wet_line *lines;
    size_t nlines, shown;
    tk_chain_summary *chains;
    size_t nchains;
    int cyclic;
} report_data;

static tk_status compute_report(const tk_deps *d, uint64_t top, report_data *r, tk_error *err)
{
    tk_deps_get_stats(d, &r->stats);
    r->lines = cli_wet_lines(d, &r->nlines, NULL);
    r->chains = calloc(top ? top : 1, sizeof *r->chains);
    if (!r->lines || !r->chains)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    qsort(r->lines, r->nlines, sizeof *r->lines, cmp_line_hot);
    r->shown = r->nlines < top ? r->nlines : top;
    return top ? tk_chain_longest(d, top, r->chains, &r->nchains, &r->cyclic, err) : TK_OK;
}

static void print_json(const tk_deps *d, const report_data *r)
{
    const tk_deps_stats *s = &r->stats;
    char src[512];
    printf("{\"version\":1,\"format\":\"wet\",\"form\":\"%s\",\"instructions\":%" PRIu64
           ",\"instances\":%" PRIu64 ",\"dependences\":{\"control\":%" PRIu64
           ",\"data\":%" PRIu64 ",\"unspecified\":%" PRIu64 "},\"values\":%" PRIu64
           ",\"lines\":[",
           tk_deps_get_form(d) == TK_DEPS_HISTORY ? "history" : "comprehensive",
           s->instructions, s->instances, s->deps_control, s->deps_data, s->deps_unknown,
           s->values);
    for (size_t i = 0; i < r->shown; i++)
        printf("%s{\"line\":\"%s\",\"instances\":%" PRIu64 ",\"instructions\":%" PRIu64 "}",
               i ? "," : "", cli_wet_source(d, NULL, r->lines[i].first_instr, src, sizeof src),
               r->lines[i].instances, r->lines[i].instrs);
    printf("],\"longest_chains\":[");
    for (size_t i = 0; i < r->nchains; i++) {
        const tk_chain_summary *c = &r->chains[i];
        printf("%s{\"length\":%" PRIu64 ",\"from\":\"", i ? "," : "", c->length);
        cli_wet_print_node(stdout, d, c->start.instr, c->start.inst, "#");
        printf("\",\"to\":\"");
        cli_wet_print_node(stdout, d, c->end.instr, c->end.inst, "#");
        printf("\"}");
    }
    printf("],\"cyclic\":%s}\n", r->cyclic ? "true" : "false");
}

static void print_text(const tk_deps *d, const report_data *r)
{
    const tk_deps_stats *s = &r->stats;
    char src[512], src2[512];
    printf("%s trace: %" PRIu64 " instructions, %" PRIu64 " instances, %" PRIu64
           " dependences (%" PRIu64 " control, %" PRIu64 " data, %" PRIu64
           " unspecified), %" PRIu64 " values\n\n",
           cli_wet_form_name(d), s->instructions, s->instances,
           s->deps_control + s->deps_data + s->deps_unknown, s->deps_control, s->deps_data,
           s->deps_unknown, s->values);
    printf("hottest source lines:\n%12s %8s  %s\n", "instances", "instrs", "line");
    for (size_t i = 0; i < r->shown; i++)
        printf("%12" PRIu64 " %8" PRIu64 "  %s\n", r->lines[i].instances, r->lines[i].instrs,
               cli_wet_source(d, NULL, r->lines[i].first_instr, src, sizeof src));
    printf("\nlongest dependence chains:\n%8s  %s\n", "length", "from -> to");
    for (size_t i = 0; i < r->nchains; i++) {
        const tk_chain_summary *c = &r->chains[i];
        printf("%8" PRIu64 "  ", c->length);
        cli_wet_print_node(stdout, d, c->start.instr, c->start.inst, "#");
        printf(" (%s) -> ", cli_wet_source(d, NULL, c->start.instr, src, sizeof src));
        cli_wet_print_node(stdout, d, c->end.instr, c->end.inst, "#");
        printf(" (%s)\n", cli_wet_source(d, NULL, c->end.instr, src2, sizeof src2));
    }
    if (r->cyclic)
        printf("note: the dependences contain a cycle; chains were cut there\n");
}

int cli_wet_report(cli_ctx *ctx, const cli_args *a)
{
    uint64_t top;
    if (cli_get_u64(ctx->command, a, "top", 10, &top) != 0)
        return CLI_EXIT_USAGE;
    int fmt = cli_get_choice(ctx->command, a, "format", cli_out_text_json, CLI_OUT_TEXT);
    if (fmt < 0)
        return CLI_EXIT_USAGE;
    tk_deps *d;
    int rc = cli_wet_load_input(ctx, 0, &d);
    if (rc != CLI_EXIT_OK)
        return rc;
    report_data r;
    memset(&r, 0, sizeof r);
    tk_error err;
    tk_error_clear(&err);
    if (compute_report(d, top, &r, &err) != TK_OK)
        rc = cli_error(&err);
    else if (fmt == CLI_OUT_JSON)
        print_json(d, &r);
    else
        print_text(d, &r);
    free(r.lines);
    free(r.chains);
    tk_deps_free(d);
    return rc;
}

const cli_opt_choices cli_wet_report_choices[] = {{"format", cli_out_text_json}, {NULL, NULL}};
