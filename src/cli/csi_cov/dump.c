/* tracekit dump for CSI coverage metadata: every function, entry by entry. */
#include "csi_cov.h"

const cli_opt cli_csi_cov_dump_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (and its clones NAME$...)"},
    CLI_EACH_JOBS_OPT("files"),
    {NULL, 0, NULL, NULL},
};

static tk_status dump_function(void *user, const cli_csi_cov_source *src,
                               const tk_csi_cov_function *fn, tk_error *err)
{
    (void)user;
    return tk_csi_cov_dump_function(CLI_WRITER(stdout), src->kind, fn, err);
}

int cli_csi_cov_dump(cli_ctx *ctx, const cli_args *args)
{
    cli_csi_cov_visitor v = {.selector = cli_get(args, "function"), .function = dump_function};
    return cli_csi_cov_visit(ctx, &v);
}
