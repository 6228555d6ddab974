/* tracekit annotate for CSI coverage metadata: each function's source lines
 * with the call sites or blocks on them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi_cov.h"

const cli_opt cli_csi_cov_annotate_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (and its clones NAME$...)"},
    CLI_EACH_JOBS_OPT("files"),
    {NULL, 0, NULL, NULL},
};

static int entry_has_line(const tk_csi_cov_entry *e, uint64_t line)
{
    for (size_t k = 0; k < e->nlines; k++)
        if (e->lines[k] == line) return 1;
    return 0;
}

static void print_entry(tk_csi_cov_kind kind, const tk_csi_cov_entry *e)
{
    printf("%s %" PRId64, kind == TK_CSI_COV_CC ? "site" : "block", e->index);
    if (kind == TK_CSI_COV_CC) printf(" calls %.*s", (int)e->callee_len, e->callee);
    if (e->index < 0) printf(" (not instrumented)");
}

static tk_status annotate_function(void *user, const cli_csi_cov_source *src,
                                   const tk_csi_cov_function *fn, tk_error *err)
{
    (void)user;
    size_t n = tk_csi_cov_line_entries(fn);
    uint64_t *lines = malloc((n ? n : 1) * sizeof *lines);
    if (!lines) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    n = tk_csi_cov_lines(fn, lines);
    const char *what = cli_csi_cov_entries_name(src->kind); /* a plural: "blocks" */
    printf("function %s (%s): %" PRIu32 " %.*s\n", fn->name, fn->array, fn->nentries,
           (int)(strlen(what) - (fn->nentries == 1)), what);
    for (size_t i = 0; i < n; i++) {
        printf("  line %" PRIu64 ":", lines[i]);
        const char *sep = " ";
        for (uint32_t k = 0; k < fn->nentries; k++) {
            if (!entry_has_line(&fn->entries[k], lines[i])) continue;
            fputs(sep, stdout);
            print_entry(src->kind, &fn->entries[k]);
            sep = "; ";
        }
        putchar('\n');
    }
    for (uint32_t k = 0; k < fn->nentries; k++)
        if (fn->entries[k].nlines == 0) {
            printf("  no line: ");
            print_entry(src->kind, &fn->entries[k]);
            putchar('\n');
        }
    putchar('\n');
    free(lines);
    return TK_OK;
}

int cli_csi_cov_annotate(cli_ctx *ctx, const cli_args *args)
{
    cli_csi_cov_visitor v = {.selector = cli_get(args, "function"), .function = annotate_function};
    return cli_csi_cov_visit(ctx, &v);
}
