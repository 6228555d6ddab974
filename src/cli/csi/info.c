/* tracekit info for CSI metadata: functions, blocks, edges, paths. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"

typedef struct info_totals {
    uint64_t functions, blocks, edges, back, lines, invalid, overflow, max_paths;
    char max_name[CLI_CSI_LABEL_MAX];
    int verbose; /* --verbose: the line entries, the zero counts of problems */
} info_totals;

static tk_status info_function(void *user, const cli_csi_source *src, const tk_csi_function *fn,
                               const char *label, tk_csi_numbering *num, tk_error *err)
{
    (void)src;
    (void)err;
    info_totals *t = user;
    t->functions++;
    t->blocks += fn->nblocks;
    t->edges += fn->nedges;
    for (uint32_t k = 0; k < fn->nedges; k++) t->back += fn->edges[k].back != 0;
    for (uint32_t k = 0; k < fn->nblocks; k++) t->lines += fn->blocks[k].nlines;
    tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL, err);
    uint64_t p = tk_bl_total(tk_csi_numbering_bl(num));
    if (ls == TK_ERR_LIMIT)
        t->overflow++;
    else if (ls != TK_OK)
        t->invalid++;
    if (ls == TK_OK && p > t->max_paths) {
        t->max_paths = p;
        snprintf(t->max_name, sizeof t->max_name, "%s", label);
    }
    return TK_OK;
}

static void info_print(void *user, const cli_csi_source *src)
{
    info_totals *t = user;
    int verbose = t->verbose;
    if (src->text.owned) printf("section: .debug_PT\n");
    if (src->text.others[0]) printf("other CSI sections: %s\n", src->text.others);
    printf("functions: %" PRIu64 "\n", t->functions);
    printf("blocks: %" PRIu64 "\n", t->blocks);
    printf("edges: %" PRIu64 " (%" PRIu64 " back or split, ~>)\n", t->edges, t->back);
    if (verbose) printf("line entries: %" PRIu64 "\n", t->lines);
    if (t->max_name[0]) printf("most paths: %s (%" PRIu64 ")\n", t->max_name, t->max_paths);
    if (t->overflow || verbose)
        printf("functions with a path count past 64 bits: %" PRIu64 "\n", t->overflow);
    if (t->invalid || verbose)
        printf("functions with an invalid numbering: %" PRIu64 " (see 'tracekit check')\n",
               t->invalid);
    memset(t, 0, sizeof *t);
    t->verbose = verbose;
}

int cli_csi_info(cli_ctx *ctx, const cli_args *args)
{
    info_totals totals;
    memset(&totals, 0, sizeof totals);
    totals.verbose = cli_has(args, "verbose");
    cli_csi_visitor v = {.user = &totals, .function = info_function, .input_done = info_print};
    return cli_csi_visit(ctx, &v);
}
