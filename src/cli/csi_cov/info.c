/* tracekit info for CSI coverage metadata: kind, form, functions, entries. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi_cov.h"

typedef struct info_totals {
    uint64_t functions, entries, instrumented, lines, indirect, null_blocks;
    tk_csi_cov_form form;
} info_totals;

static tk_status info_function(void *user, const cli_csi_cov_source *src,
                               const tk_csi_cov_function *fn, tk_error *err)
{
    info_totals *t = user;
    t->functions++;
    t->entries += fn->nentries;
    t->instrumented += fn->ninstrumented;
    for (uint32_t i = 0; i < fn->nentries; i++) {
        const tk_csi_cov_entry *e = &fn->entries[i];
        t->indirect += e->callee && e->callee_len == 1 && e->callee[0] == '?';
        t->null_blocks += src->kind == TK_CSI_COV_BBC && e->nlines == 0;
    }
    size_t n = tk_csi_cov_line_entries(fn);
    uint64_t *lines = malloc((n ? n : 1) * sizeof *lines);
    if (!lines) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    t->lines += tk_csi_cov_lines(fn, lines);
    free(lines);
    t->form = tk_csi_cov_reader_form(src->reader);
    return TK_OK;
}

static void info_print(void *user, const cli_csi_cov_source *src)
{
    info_totals *t = user;
    if (src->text.owned) printf("section: %s\n", tk_csi_cov_section(src->kind));
    if (src->text.others[0]) printf("other CSI sections: %s\n", src->text.others);
    printf("kind: %s (%s)\n", tk_csi_cov_kind_title(src->kind), tk_csi_cov_section(src->kind));
    if (src->kind != TK_CSI_COV_FC)
        printf("form: %s\n", t->form == TK_CSI_COV_FORM_LABELS
                                 ? "labelled (INDEX|LABEL|..., csi-cc 1.3+)"
                             : t->form == TK_CSI_COV_FORM_PLAIN
                                 ? "plain (INDEX|LINE..., documented grammar, csi-cc 1.0)"
                                 : "none (no entry lines)");
    printf("functions: %" PRIu64 "\n", t->functions);
    if (src->kind != TK_CSI_COV_FC) {
        printf("%s: %" PRIu64 " (%" PRIu64 " instrumented, %" PRIu64 " not instrumented)\n",
               cli_csi_cov_entries_name(src->kind), t->entries, t->instrumented,
               t->entries - t->instrumented);
        printf("source lines: %" PRIu64 " (distinct per function, summed)\n", t->lines);
    }
    if (src->kind == TK_CSI_COV_CC) printf("indirect calls: %" PRIu64 "\n", t->indirect);
    if (src->kind == TK_CSI_COV_BBC)
        printf("blocks without lines (NULL): %" PRIu64 "\n", t->null_blocks);
    memset(t, 0, sizeof *t);
}

int cli_csi_cov_info(cli_ctx *ctx, const cli_args *args)
{
    (void)args;
    info_totals totals;
    memset(&totals, 0, sizeof totals);
    cli_csi_cov_visitor v = {.user = &totals, .function = info_function, .input_done = info_print};
    return cli_csi_cov_visit(ctx, &v);
}
