/* Helpers shared by the handlers of CSI's coverage metadata. */
#include <stdlib.h>
#include <string.h>

#include "csi/csi.h"
#include "csi_cov.h"

tk_csi_cov_kind cli_csi_cov_kind(const cli_ctx *ctx)
{
    const char *n = ctx->format->name;
    return strcmp(n, "csi-cc") == 0   ? TK_CSI_COV_CC
           : strcmp(n, "csi-fc") == 0 ? TK_CSI_COV_FC
                                      : TK_CSI_COV_BBC;
}

const char *cli_csi_cov_entries_name(tk_csi_cov_kind kind)
{
    return kind == TK_CSI_COV_CC ? "sites" : kind == TK_CSI_COV_BBC ? "blocks" : "functions";
}

int cli_csi_cov_source_open(cli_csi_cov_source *s, tk_input *in, const char *path,
                            tk_csi_cov_kind kind)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    const char *sec = tk_csi_cov_section(kind);
    int rc = cli_csi_text_open(&s->text, in, path, sec);
    if (rc == CLI_CSI_NO_SECTION) {
        fprintf(stderr, "tracekit: %s: error: no %s section (not built by csi-cc with %s?)\n", path,
                sec, tk_csi_cov_kind_title(kind));
        rc = CLI_EXIT_BAD_INPUT;
    }
    tk_error err;
    tk_error_clear(&err);
    if (rc == CLI_EXIT_OK && tk_csi_cov_reader_open(&s->reader, s->text.in, kind, &err) != TK_OK)
        rc = cli_error(&err);
    if (rc != CLI_EXIT_OK) cli_csi_cov_source_close(s);
    return rc;
}

void cli_csi_cov_source_close(cli_csi_cov_source *s)
{
    tk_csi_cov_reader_free(s->reader);
    cli_csi_text_close(&s->text);
    memset(s, 0, sizeof *s);
}

int cli_csi_cov_visit(cli_ctx *ctx, const cli_csi_cov_visitor *v)
{
    int rc = CLI_EXIT_OK;
    tk_csi_cov_kind kind = cli_csi_cov_kind(ctx);
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++) {
        cli_csi_cov_source src;
        tk_input *in;
        int reopened = !ctx->inputs[i]; /* closed by the dispatcher (cli_format_ops.lazy) */
        rc = cli_input_at(ctx, i, &in);
        if (rc == CLI_EXIT_OK) rc = cli_csi_cov_source_open(&src, in, ctx->paths[i], kind);
        if (rc != CLI_EXIT_OK) break;
        const tk_csi_cov_function *fn;
        tk_error err;
        tk_error_clear(&err);
        tk_status st;
        while ((st = tk_csi_cov_reader_next(src.reader, &fn, &err)) == TK_OK) {
            if (!tk_csi_cov_name_matches(v->selector, fn->name)) continue;
            st = v->function(v->user, &src, fn, &err);
            if (st != TK_OK) break;
        }
        if (st != TK_END)
            rc = cli_error(&err);
        else if (v->input_done)
            v->input_done(v->user, &src);
        cli_csi_cov_source_close(&src);
        cli_input_close_reopened(ctx, i, reopened);
    }
    return rc;
}
