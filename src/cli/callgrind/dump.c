/* tracekit dump for callgrind profiles: the canonical text of the model. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

const cli_opt cli_callgrind_dump_opts[] = {
    CLI_OUTPUT_OPTS,
    {NULL, 0, NULL, NULL},
};

int cli_callgrind_dump(cli_ctx *ctx, const cli_args *args)
{
    tk_profile *p;
    int rc = cli_callgrind_load(ctx, TK_CALLGRIND_DETAIL_FULL, &p);
    if (rc) return rc;
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_profile_dump(p, CLI_WRITER(cli_output_file(o)), &err);
        if (st != TK_OK) {
            cli_output_abort(o);
            fprintf(stderr, "tracekit: dump: %s\n", tk_status_name(st));
            rc = CLI_EXIT_BAD_INPUT;
        } else {
            rc = cli_output_commit(o);
        }
    }
    tk_profile_free(p);
    return rc;
}
