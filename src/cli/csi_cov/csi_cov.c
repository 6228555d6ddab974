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

/* The section of an ELF file, as a memory input. */
static int open_section(cli_csi_cov_source *s, tk_input *in, const char *path)
{
    tk_error err;
    tk_error_clear(&err);
    const char *sec = tk_csi_cov_section(s->kind);
    const uint8_t *img;
    size_t ilen, len;
    tk_status st = tk_input_map(in, &img, &ilen, &err);
    if (st == TK_OK)
        st = tk_csi_elf_section(path, img, ilen, sec, &s->section, &len, &err);
    if (st == TK_END) {
        fprintf(stderr, "tracekit: %s: error: no %s section (not built by csi-cc with %s?)\n",
                path, sec, tk_csi_cov_kind_title(s->kind));
        return CLI_EXIT_BAD_INPUT;
    }
    snprintf(s->name, sizeof s->name, "%s(%s)", path, sec);
    if (st == TK_OK)
        cli_csi_other_sections(path, img, ilen, sec, s->others, sizeof s->others);
    if (st == TK_OK)
        st = tk_input_open_memory(&s->owned, s->section, len, s->name, NULL, &err);
    if (st != TK_OK)
        return cli_error(&err);
    s->in = s->owned;
    return CLI_EXIT_OK;
}

int cli_csi_cov_source_open(cli_csi_cov_source *s, tk_input *in, const char *path,
                            tk_csi_cov_kind kind)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->in = in;
    snprintf(s->name, sizeof s->name, "%s", path);
    tk_error err;
    tk_error_clear(&err);
    const uint8_t *head;
    size_t hlen;
    tk_status st = tk_input_peek(in, 4, &head, &hlen, &err);
    if (st != TK_OK)
        return cli_error(&err);
    if (tk_csi_is_elf(head, hlen)) {
        int rc = open_section(s, in, path);
        if (rc != CLI_EXIT_OK) {
            cli_csi_cov_source_close(s);
            return rc;
        }
    }
    st = tk_csi_cov_reader_open(&s->reader, s->in, kind, &err);
    if (st != TK_OK) {
        cli_csi_cov_source_close(s);
        return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

void cli_csi_cov_source_close(cli_csi_cov_source *s)
{
    tk_csi_cov_reader_free(s->reader);
    tk_input_free(s->owned);
    free(s->section);
    memset(s, 0, sizeof *s);
}

int cli_csi_cov_function_matches(const char *sel, const char *name)
{
    if (!sel)
        return 1;
    size_t n = strlen(sel);
    return strcmp(sel, name) == 0 || (strncmp(sel, name, n) == 0 && name[n] == '$');
}

int cli_csi_cov_visit(cli_ctx *ctx, const cli_csi_cov_visitor *v)
{
    int rc = CLI_EXIT_OK;
    tk_csi_cov_kind kind = cli_csi_cov_kind(ctx);
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++) {
        cli_csi_cov_source src;
        rc = cli_csi_cov_source_open(&src, ctx->inputs[i], ctx->paths[i], kind);
        if (rc != CLI_EXIT_OK)
            break;
        const tk_csi_cov_function *fn;
        tk_error err;
        tk_error_clear(&err);
        tk_status st;
        while ((st = tk_csi_cov_reader_next(src.reader, &fn, &err)) == TK_OK) {
            if (!cli_csi_cov_function_matches(v->selector, fn->name))
                continue;
            st = v->function(v->user, &src, fn, &err);
            if (st != TK_OK)
                break;
        }
        if (st != TK_END)
            rc = cli_error(&err);
        else if (v->input_done)
            v->input_done(v->user, &src);
        cli_csi_cov_source_close(&src);
    }
    return rc;
}
