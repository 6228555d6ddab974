/* tracekit annotate for CSI metadata: each function's source lines with its blocks. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"

const cli_opt cli_csi_annotate_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    {"limit", 0, "N", "enumerate at most N paths per function (default 1000; 0 = all)"},
    {NULL, 0, NULL, NULL},
};

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Source lines of one function with the paths that run them. */
static int annotate_function(const tk_csi_function *fn, const char *label, tk_csi_numbering *num,
                             uint64_t limit)
{
    tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL, NULL);
    const tk_bl *bl = tk_csi_numbering_bl(num);
    uint64_t total = tk_bl_total(bl);
    if (ls != TK_OK || total == 0) {
        printf("function %s: %s\n\n", label,
               ls == TK_ERR_LIMIT ? "path count overflow"
                                  : "invalid numbering (see 'tracekit check')");
        return 0;
    }
    /* distinct source lines */
    size_t nl = 0;
    for (uint32_t b = 0; b < fn->nblocks; b++) nl += fn->blocks[b].nlines;
    int64_t *lines = malloc((nl ? nl : 1) * sizeof *lines);
    if (!lines) return -1;
    nl = 0;
    for (uint32_t b = 0; b < fn->nblocks; b++)
        for (size_t k = 0; k < fn->blocks[b].nlines; k++)
            if (fn->blocks[b].lines[k] != TK_CSI_PATH_WRITE) lines[nl++] = fn->blocks[b].lines[k];
    qsort(lines, nl, sizeof *lines, cmp_i64);
    size_t u = 0;
    for (size_t k = 0; k < nl; k++)
        if (u == 0 || lines[u - 1] != lines[k]) lines[u++] = lines[k];
    nl = u;
    uint64_t npaths = limit == 0 || total < limit ? total : limit;
    /* per line: how many paths run it, and the first ANNOTATE_IDS of them */
    enum { ANNOTATE_IDS = 32 };
    uint64_t *count = calloc(nl + 1, sizeof *count);
    uint64_t *last = malloc((nl + 1) * sizeof *last);
    uint64_t *ids = malloc((nl + 1) * ANNOTATE_IDS * sizeof *ids);
    if (!count || !last || !ids) {
        free(lines);
        free(count);
        free(last);
        free(ids);
        return -1;
    }
    for (size_t li = 0; li < nl; li++) last[li] = UINT64_MAX;
    tk_bl_path *p = tk_csi_numbering_path(num);
    for (uint64_t id = 0; id < npaths; id++) {
        if (tk_bl_decode(bl, id, p, NULL) != TK_OK) continue;
        for (size_t i = 0; i < p->len; i++) {
            const tk_csi_block *b = &fn->blocks[p->nodes[i]];
            for (size_t k = 0; k < b->nlines; k++) {
                if (b->lines[k] == TK_CSI_PATH_WRITE) continue;
                int64_t *hit = bsearch(&b->lines[k], lines, nl, sizeof *lines, cmp_i64);
                size_t li = (size_t)(hit - lines);
                if (last[li] == id) continue; /* this path already counted for the line */
                last[li] = id;
                if (count[li] < ANNOTATE_IDS) ids[li * ANNOTATE_IDS + count[li]] = id;
                count[li]++;
            }
        }
    }
    printf("function %s: %" PRIu64 " path%s", label, total, cli_s(total));
    if (npaths < total) printf(" (first %" PRIu64 " enumerated; --limit)", npaths);
    printf("\n");
    for (size_t li = 0; li < nl; li++) {
        printf("  line %" PRId64 ": %" PRIu64 " path%s:", lines[li], count[li],
               count[li] == 1 ? "" : "s");
        for (uint64_t k = 0; k < count[li] && k < ANNOTATE_IDS; k++)
            printf(" %" PRIu64, ids[li * ANNOTATE_IDS + k]);
        if (count[li] > ANNOTATE_IDS) printf(" ...");
        printf("\n");
    }
    printf("\n");
    free(lines);
    free(count);
    free(last);
    free(ids);
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
    if (cli_get_u64("annotate", args, "limit", 1000, &limit) != 0) return CLI_EXIT_USAGE;
    cli_csi_visitor v = {
        .selector = cli_get(args, "function"), .user = &limit, .function = annotate_visit};
    return cli_csi_visit(ctx, &v);
}
