/* tracekit merge for callgrind profiles: one profile of every input's costs. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

const cli_opt cli_callgrind_merge_opts[] = {
    {"output", 'o', "FILE", "write the merged profile to FILE (default: standard output)"},
    {"force", 'f', NULL, "overwrite FILE"},
    {"keep-parts", 0, NULL, "keep every part (thread, dump) as its own part"},
    {"jobs", 'j', "N", "read N profiles at once (default: the number of CPUs)"},
    {NULL, 0, NULL, NULL},
};

int cli_callgrind_merged(cli_ctx *ctx, const tk_profile_merge_options *mo, unsigned jobs,
                         tk_profile **dst)
{
    *dst = NULL;
    if (ctx->ninputs > 1 && !ctx->team) /* each read on its own, merged in order */
        return cli_callgrind_load_merged(ctx, mo, jobs, dst);
    tk_profile *src;
    int rc = cli_callgrind_load(ctx, TK_CALLGRIND_DETAIL_FULL, &src);
    if (rc || !src) return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_profile_merged(dst, src, mo, &err);
    tk_profile_free(src);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

int cli_callgrind_merge(cli_ctx *ctx, const cli_args *args)
{
    unsigned jobs;
    if (cli_get_jobs(ctx->command, args, &jobs)) return CLI_EXIT_USAGE;
    tk_profile_merge_options mo = TK_PROFILE_MERGE_OPTIONS_INIT;
    mo.keep_parts = cli_has(args, "keep-parts");
    mo.desc = "Trigger: tracekit merge";
    tk_profile *dst;
    int rc = cli_callgrind_merged(ctx, &mo, jobs, &dst);
    if (rc || !dst) return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_status st;
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        st = tk_callgrind_write(dst, CLI_WRITER(cli_output_file(o)), &wo, &err);
        if (st != TK_OK) {
            cli_output_abort(o);
            rc = cli_error(&err);
        } else {
            rc = cli_output_commit(o);
        }
    }
    tk_profile_free(dst);
    return rc;
}
