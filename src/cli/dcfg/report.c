/* tracekit report for DCFG files: summary, hot blocks, routines and loops. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"

const cli_opt cli_dcfg_report_opts[] = {
    {"format", 0, "FMT", "text (default), json or csv"},
    CLI_TOP_OPT("rows of the block, routine and loop tables"),
    CLI_ALL_OPT("rows of the block, routine and loop tables"),
    {"table", 0, "NAME",
     "only one table: summary, blocks, routines or loops; or one of "
     "Intel's dcfg-reader, as it prints them: statistics (its count, "
     "average, max and min lines), source-loops (-all_source_loops_stats), "
     "inner-source-loops (-inner_source_loops_stats)"},
    {"image", 0, "ID", "only this image's blocks, routines and loops"},
    {"routine", 0, "ID", "only the routine with this entry node id, and its loops"},
    {"loop", 0, "ID", "only the loop with this head node id, its nested loops and its blocks"},
    CLI_EACH_JOBS_OPT("DCFGs"),
    {NULL, 0, NULL, NULL},
};

static int get_id(const cli_ctx *ctx, const cli_args *a, const char *name, int *has, uint32_t *out)
{
    uint64_t v;
    *has = cli_has(a, name);
    if (!*has) return 0;
    if (cli_get_u64(ctx->command, a, name, 0, &v)) return -1;
    if (v > UINT32_MAX) {
        cli_usage_error(ctx->command, "--%s: %" PRIu64 " is not a 32-bit id", name, v);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* --format: the library's report formats */
static const cli_choice report_formats[] = {{"text", TK_DCFG_REPORT_TEXT},
                                            {"json", TK_DCFG_REPORT_JSON},
                                            {"csv", TK_DCFG_REPORT_CSV},
                                            {NULL, 0}};
/* --table: checked here, passed to the library by name */
static const cli_choice report_tables[] = {
    {"summary", 0},    {"blocks", 0},       {"routines", 0},           {"loops", 0},
    {"statistics", 0}, {"source-loops", 0}, {"inner-source-loops", 0}, {NULL, 0}};

int cli_dcfg_report(cli_ctx *ctx, const cli_args *a)
{
    tk_dcfg_report_options o = TK_DCFG_REPORT_OPTIONS_INIT;
    int fmt = cli_get_choice(ctx->command, a, "format", report_formats, TK_DCFG_REPORT_TEXT);
    if (fmt < 0) return CLI_EXIT_USAGE;
    o.format = (tk_dcfg_report_format)fmt;
    cli_rows rows;
    if (cli_get_rows(ctx->command, a, fmt == TK_DCFG_REPORT_TEXT, &rows)) return CLI_EXIT_USAGE;
    o.top = rows.top > UINT32_MAX ? UINT32_MAX : (uint32_t)rows.top;
    o.all_rows = rows.top == 0;
    o.table = cli_get(a, "table");
    if (o.table && cli_get_choice(ctx->command, a, "table", report_tables, 0) < 0)
        return CLI_EXIT_USAGE;
    if (get_id(ctx, a, "image", &o.has_image, &o.image_id) ||
        get_id(ctx, a, "routine", &o.has_routine, &o.routine_id) ||
        get_id(ctx, a, "loop", &o.has_loop, &o.loop_id))
        return CLI_EXIT_USAGE;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_cfg *cfg;
        int rc = cli_dcfg_read(ctx, i, NULL, &cfg);
        if (rc != CLI_EXIT_OK) return rc;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_dcfg_report(cfg, &o, CLI_WRITER(stdout), &err);
        tk_cfg_free(cfg);
        if (st != TK_OK) return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

const cli_opt_choices cli_dcfg_report_choices[] = {
    {"format", report_formats}, {"table", report_tables}, {NULL, NULL}};
