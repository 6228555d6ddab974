/* tracekit dump for CSI metadata: the canonical text of every function. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"

const cli_opt cli_csi_dump_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    CLI_EACH_JOBS_OPT("files"),
    {NULL, 0, NULL, NULL},
};

int cli_csi_dump(cli_ctx *ctx, const cli_args *args)
{
    return cli_csi_write(ctx, args, CLI_CSI_WRITE_DUMP, stdout);
}
