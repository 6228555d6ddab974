/* tracekit diff for DCFG files: blocks and edges matched by address and type. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"

const cli_opt cli_dcfg_diff_opts[] = {
    {"all", 0, NULL, "also list blocks and edges whose counts are equal"},
    {"format", 0, "FMT", "text (default) or json"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

/* Where the differences go: text lines, or the items of a JSON array. */
typedef struct diff_out {
    FILE *f;
    int json, first;
} diff_out;

static void put_delta(FILE *f, uint64_t x, uint64_t y)
{
    if (y >= x) fprintf(f, " +%" PRIu64 "\n", y - x);
    else fprintf(f, " -%" PRIu64 "\n", x - y);
}

/* A block of one side or of both. */
static void diff_block(diff_out *o, const tk_cfg_diff_item *b)
{
    if (o->json) {
        fprintf(o->f, "%s\n{\"image\":%" PRIu64 ",\"offset\":%" PRIu64 ",\"id\":[",
                o->first ? "" : ",", b->image, b->offset);
        o->first = 0;
        if (b->has[0]) fprintf(o->f, "%" PRIu32, b->id[0]); else fputs("null", o->f);
        if (b->has[1]) fprintf(o->f, ",%" PRIu32, b->id[1]); else fputs(",null", o->f);
        fprintf(o->f, "],\"count\":[%" PRIu64 ",%" PRIu64 "]}", b->count[0], b->count[1]);
        return;
    }
    if (!b->has[1])
        fprintf(o->f,
                "block image %" PRIu64 " offset 0x%" PRIx64 ": only in the first (id %" PRIu32
                ", count %" PRIu64 ")\n",
                b->image, b->offset, b->id[0], b->count[0]);
    else if (!b->has[0])
        fprintf(o->f,
                "block image %" PRIu64 " offset 0x%" PRIx64 ": only in the second (id %" PRIu32
                ", count %" PRIu64 ")\n",
                b->image, b->offset, b->id[1], b->count[1]);
    else {
        fprintf(o->f,
                "block image %" PRIu64 " offset 0x%" PRIx64 " (ids %" PRIu32 " / %" PRIu32
                "): count %" PRIu64 " / %" PRIu64,
                b->image, b->offset, b->id[0], b->id[1], b->count[0], b->count[1]);
        put_delta(o->f, b->count[0], b->count[1]);
    }
}

/* An edge of one side or of both. */
static void diff_edge(diff_out *o, const tk_cfg_diff_item *e)
{
    if (o->json) {
        fprintf(o->f, "%s\n{\"id\":[", o->first ? "" : ",");
        o->first = 0;
        if (e->has[0]) fprintf(o->f, "%" PRIu32, e->id[0]); else fputs("null", o->f);
        if (e->has[1]) fprintf(o->f, ",%" PRIu32, e->id[1]); else fputs(",null", o->f);
        fputs("],\"type\":", o->f);
        cli_put_json_string(o->f, e->type);
        fprintf(o->f, ",\"count\":[%" PRIu64 ",%" PRIu64 "]}", e->count[0], e->count[1]);
        return;
    }
    if (!e->has[1])
        fprintf(o->f, "edge %" PRIu32 " (%s): only in the first (count %" PRIu64 ")\n",
                e->id[0], e->type, e->count[0]);
    else if (!e->has[0])
        fprintf(o->f, "edge %" PRIu32 " (%s): only in the second (count %" PRIu64 ")\n",
                e->id[1], e->type, e->count[1]);
    else {
        fprintf(o->f, "edge %" PRIu32 " / %" PRIu32 " (%s): count %" PRIu64 " / %" PRIu64,
                e->id[0], e->id[1], e->type, e->count[0], e->count[1]);
        put_delta(o->f, e->count[0], e->count[1]);
    }
}

/* JSON: the edges' list of a pair of processes starts (in_edges 0 -> 1), or it ends. */
static void json_edges(diff_out *o, int *in_edges)
{
    if (!*in_edges && o->json) fputs("],\"edges\":[", o->f);
    o->first = 1;
    *in_edges = 1;
}

static void json_process_end(diff_out *o, int *in_edges)
{
    json_edges(o, in_edges);
    if (o->json) fputs("]}", o->f);
}

/* The head of a pair of processes. */
static void diff_process(diff_out *o, const tk_cfg_diff_item *p)
{
    FILE *f = o->f;
    if (o->json)
        fprintf(f, "%s\n{\"pid\":[%" PRIu64 ",%" PRIu64 "],\"instructions\":[%" PRIu64
                   ",%" PRIu64 "],\"blocks\":[",
                p->process ? "," : "", p->pid[0], p->pid[1], p->instructions[0],
                p->instructions[1]);
    else
        fprintf(f, "process %" PRIu64 " / %" PRIu64 ": instructions %" PRIu64 " / %" PRIu64 "\n",
                p->pid[0], p->pid[1], p->instructions[0], p->instructions[1]);
    o->first = 1;
}

/* Every item of the difference, then the number of differences. Returns an exit code. */
static int diff_graphs(diff_out *o, const tk_cfg *x, const tk_cfg *y, int all)
{
    FILE *f = o->f;
    tk_cfg_diff_options opt = TK_CFG_DIFF_OPTIONS_INIT;
    opt.all = all;
    tk_cfg_diff *d;
    tk_error err;
    tk_error_clear(&err);
    if (tk_cfg_diff_open(&d, x, y, &opt, &err) != TK_OK) return cli_error(&err);
    if (o->json) fputs("{\"version\":1,\"format\":\"dcfg-diff\",\"processes\":[", f);
    const tk_cfg_diff_item *it;
    tk_status st;
    int in_edges = 0, any = 0;
    while ((st = tk_cfg_diff_next(d, &it, &err)) == TK_OK) {
        if (it->kind == TK_CFG_DIFF_PROCESS) {
            if (any) json_process_end(o, &in_edges);
            diff_process(o, it);
            in_edges = 0;
            any = 1;
            continue;
        }
        if (it->kind == TK_CFG_DIFF_EDGE && !in_edges) json_edges(o, &in_edges);
        if (it->kind == TK_CFG_DIFF_BLOCK)
            diff_block(o, it);
        else
            diff_edge(o, it);
    }
    if (st != TK_END) {
        tk_cfg_diff_free(d);
        return cli_error(&err);
    }
    if (any) json_process_end(o, &in_edges);
    uint32_t na = tk_cfg_diff_process_count(d, 0), nb = tk_cfg_diff_process_count(d, 1);
    uint64_t differences = tk_cfg_diff_differences(d);
    tk_cfg_diff_free(d);
    if (na != nb && !o->json) fprintf(f, "processes: %" PRIu32 " / %" PRIu32 "\n", na, nb);
    if (o->json)
        fprintf(f, "\n],\"process_count\":[%" PRIu32 ",%" PRIu32 "],\"differences\":%" PRIu64
                   "}\n",
                na, nb, differences);
    else
        fprintf(f, "%" PRIu64 " difference%s\n", differences, differences == 1 ? "" : "s");
    return CLI_EXIT_OK;
}

int cli_dcfg_diff(cli_ctx *ctx, const cli_args *a)
{
    if (ctx->ninputs != 2) return cli_usage_error(ctx->command, "diff takes two FILEs");
    int all = cli_has(a, "all");
    int fmt = cli_get_choice(ctx->command, a, "format", cli_out_text_json, CLI_OUT_TEXT);
    if (fmt < 0) return CLI_EXIT_USAGE;
    tk_cfg *x, *y;
    int rc = cli_dcfg_read(ctx, 0, NULL, &x);
    if (rc != CLI_EXIT_OK) return rc;
    if ((rc = cli_dcfg_read(ctx, 1, NULL, &y)) != CLI_EXIT_OK) {
        tk_cfg_free(x);
        return rc;
    }
    tk_output *out;
    if ((rc = cli_output_open(a, 0, &out)) == CLI_EXIT_OK) {
        diff_out o = {cli_output_file(out), fmt == CLI_OUT_JSON, 1};
        rc = diff_graphs(&o, x, y, all);
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(out);
        else
            cli_output_abort(out);
    }
    tk_cfg_free(x);
    tk_cfg_free(y);
    return rc;
}

const cli_opt_choices cli_dcfg_diff_choices[] = {{"format", cli_out_text_json}, {NULL, NULL}};
