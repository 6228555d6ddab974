/* tracekit convert for CSI coverage metadata: the canonical text, in either
 * form of the entry lines. */
#include <string.h>

#include "csi_cov.h"

const cli_opt cli_csi_cov_convert_opts[] = {
    {"to", 't', "FMT", "the input's format: csi-cc, csi-fc or csi-bbc (canonical metadata)"},
    {"form", 0, "FORM",
     "csi-cc and csi-bbc: labels (INDEX|CCn|..., csi-cc 1.3+) or plain "
     "(INDEX|LINE..., the documented grammar and csi-cc 1.0); default: "
     "the input's"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 'f', NULL, "replace an existing OUT"},
    {"function", 0, "NAME", "only functions called NAME (and its clones NAME$...)"},
    {NULL, 0, NULL, NULL},
};

typedef struct write_state {
    FILE *out;
    tk_csi_cov_form form;
} write_state;

static tk_status write_function(void *user, const cli_csi_cov_source *src,
                                const tk_csi_cov_function *fn, tk_error *err)
{
    const write_state *ws = user;
    tk_csi_cov_form form = ws->form;
    if (form == TK_CSI_COV_FORM_ANY) form = tk_csi_cov_reader_form(src->reader);
    return tk_csi_cov_write_function(CLI_WRITER(ws->out), src->kind, form, fn, err);
}

/* --to (the input's own format only) and --form */
static const cli_choice targets[] = {
    {"csi-cc", TK_CSI_COV_CC}, {"csi-fc", TK_CSI_COV_FC}, {"csi-bbc", TK_CSI_COV_BBC}, {NULL, 0}};
static const cli_choice forms[] = {
    {"labels", TK_CSI_COV_FORM_LABELS}, {"plain", TK_CSI_COV_FORM_PLAIN}, {NULL, 0}};

int cli_csi_cov_convert(cli_ctx *ctx, const cli_args *args)
{
    const char *self = ctx->format->name;
    if (!cli_get(args, "to")) return cli_usage_error("convert", "--to FMT is required (%s)", self);
    int to = cli_get_choice("convert", args, "to", targets, -1);
    if (to < 0) return CLI_EXIT_USAGE;
    if (to != (int)cli_csi_cov_kind(ctx))
        return cli_usage_error("convert",
                               "a %s file converts to %s only (--form chooses the "
                               "form of its lines), not to '%s'",
                               self, self, cli_get(args, "to"));
    int form = cli_get_choice("convert", args, "form", forms, TK_CSI_COV_FORM_ANY);
    if (form < 0) return CLI_EXIT_USAGE;
    tk_output *o;
    int rc = cli_output_open(args, 0, &o);
    if (rc != CLI_EXIT_OK) return rc;
    write_state ws = {cli_output_file(o), (tk_csi_cov_form)form};
    cli_csi_cov_visitor v = {
        .selector = cli_get(args, "function"), .user = &ws, .function = write_function};
    rc = cli_csi_cov_visit(ctx, &v);
    if (rc != CLI_EXIT_OK) {
        cli_output_abort(o);
        return rc;
    }
    return cli_output_commit(o);
}

const cli_opt_choices cli_csi_cov_convert_choices[] = {
    {"to", targets}, {"form", forms}, {NULL, NULL}};
