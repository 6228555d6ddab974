/* What the DCFG command handlers share: reading an input into a graph. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dcfg.h"

int cli_dcfg_read(cli_ctx *ctx, int i, tk_diag *diag, tk_cfg **out)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
    o.diag = diag;
    /* regular files: by path (mapped, the pages released behind the reader,
     * so the file does not stay resident) and re-read to locate late errors;
     * the input the format was detected on is closed first (its buffers are
     * over a megabyte, resident while the graph is built) */
    struct stat sb; /* not a pipe (`report <(bzcat ...)`): it cannot be opened again */
    int by_path =
        strcmp(ctx->paths[i], "-") != 0 && stat(ctx->paths[i], &sb) == 0 && S_ISREG(sb.st_mode);
    if (by_path) {
        tk_input_free(ctx->inputs[i]);
        ctx->inputs[i] = NULL;
    }
    tk_status st =
        by_path ? (o.input = &ctx->input_opt, tk_dcfg_read_path(out, ctx->paths[i], &o, &err))
                : tk_dcfg_read(out, ctx->inputs[i], &o, &err);
    if (st != TK_OK) {
        if (diag) {
            tk_diag_error(diag, &err);
            return CLI_EXIT_BAD_INPUT;
        }
        return cli_error(&err);
    }
    return CLI_EXIT_OK;
}
