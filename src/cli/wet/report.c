/* tracekit report for WET traces: the hottest source lines and the longest dependence chains. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

const cli_opt cli_wet_report_opts[] = {
    {"top", 'n', "N",
     "the N hottest lines (default: " CLI_ROWS_TEXT_S " in text, all in json; "
     "0: all) and the N longest chains (default and 0: " CLI_ROWS_TEXT_S ")"},
    CLI_ALL_OPT("hottest lines"),
    {"format", 0, "FMT", "text (default) or json"},
    {NULL, 0, NULL, NULL},
};

/* "ID" of a comprehensive trace, "0xADDR" of a limited-history one (as the chains name them) */
static void print_json_instr(const tk_deps *d, uint32_t instr)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    if (tk_deps_get_form(d) == TK_DEPS_HISTORY)
        printf("\"0x%" PRIx64 "\"", in.addr);
    else
        printf("%" PRIu64, in.id);
}

/* every instruction by id: where it is, its instances and what its values were */
static int print_json_instructions(const tk_deps *d)
{
    uint32_t n = tk_deps_count(d);
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    tk_error err;
    tk_error_clear(&err);
    if (!order) {
        tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
        return cli_error(&err);
    }
    tk_deps_order_by_id(d, order);
    char src[512], hex[TK_DEPS_VALUE_HEX];
    printf(",\"instruction_table\":[");
    for (uint32_t o = 0; o < n; o++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, order[o], &in);
        tk_deps_value_stats v;
        if (tk_deps_value_stats_get(d, order[o], &v, &err) != TK_OK) {
            free(order);
            return cli_error(&err);
        }
        printf("%s{\"id\":", o ? "," : "");
        print_json_instr(d, order[o]);
        printf(",\"function\":");
        if (in.function)
            cli_put_json_string(stdout, in.function);
        else
            printf("null");
        printf(",\"line\":");
        cli_put_json_string(stdout, tk_deps_source(d, NULL, order[o], src, sizeof src));
        printf(",\"instances\":%" PRIu32 ",\"values\":%" PRIu64 ",\"distinct_values\":%" PRIu64
               ",\"top_value\":",
               in.ninstances, v.count, v.distinct);
        if (v.top_count) {
            tk_deps_value_hex(d, order[o], v.top, hex);
            printf("\"0x%s\"", hex);
        } else {
            printf("null");
        }
        printf(",\"top_value_count\":%" PRIu64 "}", v.top_count);
    }
    printf("]");
    free(order);
    return CLI_EXIT_OK;
}

/* the dependences by pair of instructions and port */
static int print_json_dependences(const tk_deps *d)
{
    static const char *const kinds[] = {"control", "data", "unspecified"};
    tk_deps_pairs *p;
    tk_error err;
    tk_error_clear(&err);
    if (tk_deps_pairs_open(&p, d, &err) != TK_OK) return cli_error(&err);
    char src[512];
    printf(",\"dependence_table\":[");
    for (size_t i = 0; i < tk_deps_pairs_count(p); i++) {
        const tk_deps_pair *x = tk_deps_pairs_at(p, i);
        printf("%s{\"instruction\":", i ? "," : "");
        print_json_instr(d, x->instr);
        printf(",\"line\":");
        cli_put_json_string(stdout, tk_deps_source(d, NULL, x->instr, src, sizeof src));
        printf(",\"port\":%" PRIu32 ",\"kind\":\"%s\",\"depends_on\":", x->port,
               kinds[tk_deps_port_kind(d, x->port)]);
        print_json_instr(d, x->dep);
        printf(",\"depends_on_line\":");
        cli_put_json_string(stdout, tk_deps_source(d, NULL, x->dep, src, sizeof src));
        printf(",\"dependences\":%" PRIu64 "}", x->count);
    }
    printf("]");
    tk_deps_pairs_free(p);
    return CLI_EXIT_OK;
}

static int print_json(const tk_deps *d, const tk_deps_report *r, size_t shown)
{
    tk_deps_stats stats;
    tk_deps_report_stats(r, &stats);
    const tk_deps_stats *s = &stats;
    const tk_deps_lines *lines = tk_deps_report_lines(r);
    char src[512];
    printf("{\"version\":1,\"format\":\"wet\",\"form\":\"%s\",\"instructions\":%" PRIu64
           ",\"instances\":%" PRIu64 ",\"dependences\":{\"control\":%" PRIu64 ",\"data\":%" PRIu64
           ",\"unspecified\":%" PRIu64 "},\"values\":%" PRIu64 ",\"lines\":[",
           tk_deps_get_form(d) == TK_DEPS_HISTORY ? "history" : "comprehensive", s->instructions,
           s->instances, s->deps_control, s->deps_data, s->deps_unknown, s->values);
    for (size_t i = 0; i < shown; i++) {
        printf("%s{\"line\":", i ? "," : "");
        cli_put_json_string(stdout, tk_deps_source(d, NULL, tk_deps_lines_at(lines, i)->first_instr,
                                                   src, sizeof src));
        printf(",\"instances\":%" PRIu64 ",\"instructions\":%" PRIu64 "}",
               tk_deps_lines_at(lines, i)->instances, tk_deps_lines_at(lines, i)->instrs);
    }
    printf("],\"longest_chains\":[");
    for (size_t i = 0; i < tk_deps_report_chain_count(r); i++) {
        const tk_chain_summary *c = tk_deps_report_chain(r, i);
        printf("%s{\"length\":%" PRIu64 ",\"from\":\"", i ? "," : "", c->length);
        cli_wet_print_node(stdout, d, c->start.instr, c->start.inst, "#");
        printf("\",\"to\":\"");
        cli_wet_print_node(stdout, d, c->end.instr, c->end.inst, "#");
        printf("\"}");
    }
    printf("]");
    int rc = print_json_instructions(d);
    if (rc == CLI_EXIT_OK) rc = print_json_dependences(d);
    if (rc == CLI_EXIT_OK) printf(",\"cyclic\":%s}\n", tk_deps_report_cyclic(r) ? "true" : "false");
    return rc;
}

static void print_text(const tk_deps *d, const tk_deps_report *r, size_t shown, size_t nlines)
{
    tk_deps_stats stats;
    tk_deps_report_stats(r, &stats);
    const tk_deps_stats *s = &stats;
    const tk_deps_lines *lines = tk_deps_report_lines(r);
    char src[512], src2[512];
    uint64_t deps = s->deps_control + s->deps_data + s->deps_unknown;
    printf("%s trace: %" PRIu64 " instruction%s, %" PRIu64 " instance%s, %" PRIu64
           " dependence%s (%" PRIu64 " control, %" PRIu64 " data, %" PRIu64
           " unspecified), %" PRIu64 " value%s\n\n",
           cli_wet_form_name(d), s->instructions, cli_s(s->instructions), s->instances,
           cli_s(s->instances), deps, cli_s(deps), s->deps_control, s->deps_data, s->deps_unknown,
           s->values, cli_s(s->values));
    printf("hottest source lines:\n%12s %8s  %s\n", "instances", "instrs", "line");
    for (size_t i = 0; i < shown; i++)
        printf("%12" PRIu64 " %8" PRIu64 "  %s\n", tk_deps_lines_at(lines, i)->instances,
               tk_deps_lines_at(lines, i)->instrs,
               tk_deps_source(d, NULL, tk_deps_lines_at(lines, i)->first_instr, src, sizeof src));
    cli_rows_note(stdout, shown, nlines, "line");
    printf("\nlongest dependence chains:\n%8s  %s\n", "length", "from -> to");
    for (size_t i = 0; i < tk_deps_report_chain_count(r); i++) {
        const tk_chain_summary *c = tk_deps_report_chain(r, i);
        printf("%8" PRIu64 "  ", c->length);
        cli_wet_print_node(stdout, d, c->start.instr, c->start.inst, "#");
        printf(" (%s) -> ", tk_deps_source(d, NULL, c->start.instr, src, sizeof src));
        cli_wet_print_node(stdout, d, c->end.instr, c->end.inst, "#");
        printf(" (%s)\n", tk_deps_source(d, NULL, c->end.instr, src2, sizeof src2));
    }
    if (tk_deps_report_cyclic(r))
        printf("note: the dependences contain a cycle; chains were cut there\n");
}

int cli_wet_report(cli_ctx *ctx, const cli_args *a)
{
    int fmt = cli_get_choice(ctx->command, a, "format", cli_out_text_json, CLI_OUT_TEXT);
    cli_rows rows;
    if (fmt < 0 || cli_get_rows(ctx->command, a, fmt == CLI_OUT_TEXT, &rows) != 0)
        return CLI_EXIT_USAGE;
    uint64_t top = rows.top ? rows.top : UINT64_MAX;
    tk_deps *d;
    int rc = cli_wet_load_only(ctx, &d);
    if (rc != CLI_EXIT_OK) return rc;
    tk_deps_report_options o = TK_DEPS_REPORT_OPTIONS_INIT;
    o.chains = rows.top ? rows.top : CLI_ROWS_TEXT; /* a list of the longest, never all */
    tk_deps_report *r;
    tk_error err;
    tk_error_clear(&err);
    if (o.chains > SIZE_MAX / sizeof(tk_chain_summary) ||
        tk_deps_report_open(&r, d, &o, &err) != TK_OK) {
        if (!err.message[0]) tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
        rc = cli_error(&err);
        tk_deps_free(d);
        return rc;
    }
    size_t nlines = tk_deps_lines_count(tk_deps_report_lines(r));
    size_t shown = nlines < top ? nlines : (size_t)top;
    if (fmt == CLI_OUT_JSON)
        rc = print_json(d, r, shown);
    else
        print_text(d, r, shown, nlines);
    tk_deps_report_free(r);
    tk_deps_free(d);
    return rc;
}

const cli_opt_choices cli_wet_report_choices[] = {{"format", cli_out_text_json}, {NULL, NULL}};
