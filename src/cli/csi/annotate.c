/* tracekit annotate for CSI metadata: each function's source lines with its blocks. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"

const cli_opt cli_csi_annotate_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    {"top", 'n', "N",
     "count the lines of the first N paths of each function (default " CLI_CSI_PATHS_S "; 0: all)"},
    {"all", 0, NULL, "count the lines of every path of each function"},
    CLI_EACH_JOBS_OPT("files"),
    {NULL, 0, NULL, NULL},
};

/* Source lines of one function with the paths that run them (tk_csi_annotate_lines).
 * Returns 0, or -1 when out of memory. */
static int annotate_function(const tk_csi_function *fn, const char *label, tk_csi_numbering *num,
                             uint64_t limit)
{
    tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL, NULL);
    uint64_t total = tk_bl_total(tk_csi_numbering_bl(num));
    if (ls != TK_OK || total == 0) {
        printf("function %s: %s\n\n", label,
               ls == TK_ERR_LIMIT ? "path count overflow"
                                  : "invalid numbering (see 'tracekit check')");
        return 0;
    }
    tk_csi_line_paths *lines;
    size_t nl;
    uint64_t npaths;
    if (tk_csi_annotate_lines(fn, num, limit, &lines, &nl, &npaths, NULL) != TK_OK) return -1;
    printf("function %s: %" PRIu64 " path%s", label, total, cli_s(total));
    if (npaths < total)
        printf(" (lines of the first %" PRIu64 ": --all counts every path)", npaths);
    printf("\n");
    for (size_t li = 0; li < nl; li++) {
        const tk_csi_line_paths *l = &lines[li];
        printf("  line %" PRId64 ": %" PRIu64 " path%s%s", l->line, l->paths, cli_s(l->paths),
               l->paths ? ":" : "");
        for (uint64_t k = 0; k < l->paths && k < TK_CSI_LINE_IDS; k++)
            printf(" %" PRIu64, l->ids[k]);
        if (l->paths > TK_CSI_LINE_IDS) printf(" ...");
        printf("\n");
    }
    printf("\n");
    tk_free(lines);
    return 0;
}

static tk_status annotate_visit(void *user, const cli_csi_source *src, const tk_csi_function *fn,
                                const char *label, tk_csi_numbering *num, tk_error *err)
{
    (void)src;
    if (annotate_function(fn, label, num, *(const uint64_t *)user) != 0)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    return TK_OK;
}

int cli_csi_annotate(cli_ctx *ctx, const cli_args *args)
{
    uint64_t limit;
    if (cli_csi_get_paths("annotate", args, CLI_CSI_PATHS, &limit) != 0) return CLI_EXIT_USAGE;
    cli_csi_visitor v = {
        .selector = cli_get(args, "function"), .user = &limit, .function = annotate_visit};
    return cli_csi_visit(ctx, &v);
}
