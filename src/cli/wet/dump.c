/* tracekit dump for WET traces: the canonical text of the trace. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

int cli_wet_dump(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    tk_deps *d;
    int rc = cli_wet_load_only(ctx, &d);
    if (rc != CLI_EXIT_OK) return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_wet_dump(d, CLI_WRITER(stdout), &err);
    tk_deps_free(d);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}
