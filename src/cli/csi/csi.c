/* Helpers shared by the CSI command handlers. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"

/* An ELF file without .debug_PT: say what it is when it is an XRay binary. */
static void no_section_error(const char *path, const uint8_t *img, size_t len)
{
    uint8_t *sec = NULL;
    size_t slen;
    tk_error err;
    tk_error_clear(&err);
    if (tk_csi_elf_section(path, img, len, "xray_instr_map", &sec, &slen, &err) == TK_OK) {
        tk_free(sec);
        fprintf(stderr,
                "tracekit: %s: error: an XRay-instrumented binary (xray_instr_map section), not "
                "trace data: give its trace with --instr-map %s, or list its functions with "
                "'tracekit instr-map %s'\n",
                path, path, path);
        return;
    }
    fprintf(stderr,
            "tracekit: %s: error: no .debug_PT section (not built by csi-cc with path "
            "tracing?)\n",
            path);
    static const char *const cov[3][2] = {
        {".debug_CC", "csi-cc"}, {".debug_FC", "csi-fc"}, {".debug_BBC", "csi-bbc"}};
    for (int k = 0; k < 3; k++)
        if (tk_csi_elf_section(path, img, len, cov[k][0], &sec, &slen, &err) == TK_OK) {
            tk_free(sec);
            fprintf(stderr,
                    "tracekit: %s: note: it has CSI coverage metadata (%s): read it with "
                    "--from %s\n",
                    path, cov[k][0], cov[k][1]);
        }
}

void cli_csi_other_sections(const char *path, const uint8_t *img, size_t len, const char *except,
                            char *buf, size_t size)
{
    static const char *const secs[4][2] = {{".debug_PT", "csi"},
                                           {".debug_CC", "csi-cc"},
                                           {".debug_BBC", "csi-bbc"},
                                           {".debug_FC", "csi-fc"}};
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < 4; k++) {
        uint8_t *sec;
        size_t slen;
        if (strcmp(secs[k][0], except) == 0 ||
            tk_csi_elf_section(path, img, len, secs[k][0], &sec, &slen, NULL) != TK_OK)
            continue;
        tk_free(sec);
        int n = snprintf(buf + used, size - used, "%s%s (--from %s)", used ? ", " : "", secs[k][0],
                         secs[k][1]);
        if (n < 0 || (size_t)n >= size - used) break;
        used += (size_t)n;
    }
}

int cli_csi_text_read(cli_csi_text *t, tk_input *in, const char *path, const char *section,
                      tk_error *err)
{
    memset(t, 0, sizeof *t);
    t->in = in;
    snprintf(t->name, sizeof t->name, "%s", path);
    const uint8_t *head;
    size_t hlen, len;
    tk_status st = tk_input_peek(in, 4, &head, &hlen, err);
    if (st != TK_OK || !tk_csi_is_elf(head, hlen))
        return st == TK_OK ? CLI_EXIT_OK : CLI_CSI_FAILED;
    st = tk_input_map(in, &t->image, &t->image_len, err);
    if (st == TK_OK)
        st = tk_csi_elf_section(path, t->image, t->image_len, section, &t->section, &len, err);
    if (st == TK_END) return CLI_CSI_NO_SECTION;
    snprintf(t->name, sizeof t->name, "%s(%s)", path, section);
    if (st == TK_OK) {
        cli_csi_other_sections(path, t->image, t->image_len, section, t->others, sizeof t->others);
        st = tk_input_open_memory(&t->owned, t->section, len, t->name, NULL, err);
    }
    if (st != TK_OK) {
        cli_csi_text_close(t);
        return CLI_CSI_FAILED;
    }
    t->in = t->owned;
    return CLI_EXIT_OK;
}

int cli_csi_text_open(cli_csi_text *t, tk_input *in, const char *path, const char *section)
{
    tk_error err;
    tk_error_clear(&err);
    int rc = cli_csi_text_read(t, in, path, section, &err);
    return rc == CLI_CSI_FAILED ? cli_error(&err) : rc;
}

void cli_csi_text_close(cli_csi_text *t)
{
    tk_input_free(t->owned);
    tk_free(t->section);
    memset(t, 0, sizeof *t);
}

int cli_csi_source_open(cli_csi_source *s, tk_input *in, const char *path)
{
    memset(s, 0, sizeof *s);
    int rc = cli_csi_text_open(&s->text, in, path, ".debug_PT");
    if (rc == CLI_CSI_NO_SECTION) {
        no_section_error(path, s->text.image, s->text.image_len);
        rc = CLI_EXIT_BAD_INPUT;
    }
    if (rc != CLI_EXIT_OK) {
        cli_csi_source_close(s);
        return rc;
    }
    tk_error err;
    tk_error_clear(&err);
    if (tk_csi_reader_open(&s->reader, s->text.in, &err) != TK_OK) {
        cli_csi_source_close(s);
        return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

void cli_csi_source_close(cli_csi_source *s)
{
    tk_csi_reader_free(s->reader);
    cli_csi_text_close(&s->text);
    memset(s, 0, sizeof *s);
}

tk_status cli_csi_source_next(cli_csi_source *s, const tk_csi_function **fn, char *label,
                              size_t size, tk_error *err)
{
    tk_status st = tk_csi_reader_next(s->reader, fn, err);
    if (st != TK_OK) return st;
    tk_csi_function_label(*fn, label, size);
    return TK_OK;
}

int cli_csi_visit(cli_ctx *ctx, const cli_csi_visitor *v)
{
    tk_csi_numbering *num = NULL;
    if (tk_csi_numbering_open(&num, NULL) != TK_OK)
        return cli_usage_error(ctx->command, "out of memory");
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++) {
        cli_csi_source src;
        tk_input *in;
        int reopened = !ctx->inputs[i]; /* closed by the dispatcher (cli_format_ops.lazy) */
        rc = cli_input_at(ctx, i, &in);
        if (rc == CLI_EXIT_OK) rc = cli_csi_source_open(&src, in, ctx->paths[i]);
        if (rc != CLI_EXIT_OK) break;
        const tk_csi_function *fn;
        char label[CLI_CSI_LABEL_MAX];
        tk_error err;
        tk_error_clear(&err);
        tk_status st;
        while ((st = cli_csi_source_next(&src, &fn, label, sizeof label, &err)) == TK_OK) {
            if (!tk_csi_function_matches(v->selector, fn, label)) continue;
            st = v->function(v->user, &src, fn, label, num, &err);
            if (st != TK_OK) break;
        }
        if (st != TK_END)
            rc = cli_error(&err);
        else if (v->input_done)
            v->input_done(v->user, &src);
        cli_csi_source_close(&src);
        cli_input_close_reopened(ctx, i, reopened);
    }
    tk_csi_numbering_free(num);
    return rc;
}

void cli_csi_print_blocks(FILE *out, const tk_csi_function *fn, const uint32_t *nodes, size_t n)
{
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (nodes[i] == fn->exit) continue;
        fprintf(out, "%s%" PRIu64, first ? "" : " ", fn->blocks[nodes[i]].id);
        first = 0;
    }
}

void cli_csi_print_lines(FILE *out, const tk_csi_function *fn, const uint32_t *nodes, size_t n)
{
    int64_t prev = -1;
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        const tk_csi_block *b = &fn->blocks[nodes[i]];
        for (size_t k = 0; k < b->nlines; k++) {
            if (b->lines[k] == TK_CSI_PATH_WRITE || b->lines[k] == prev) continue;
            prev = b->lines[k];
            fprintf(out, "%s%" PRId64, any ? " " : "", prev);
            any = 1;
        }
    }
    if (!any) fputs("(none)", out);
}

static void print_back_edge(FILE *out, const tk_csi_function *fn, uint32_t e)
{
    fprintf(out, "%" PRIu64 "~>%" PRIu64, fn->blocks[fn->edges[e].src].id,
            fn->blocks[fn->edges[e].dst].id);
}

void cli_csi_print_start(FILE *out, const tk_csi_function *fn, const tk_bl_path *p)
{
    if (p->start_edge == TK_BL_NONE) {
        fputs("ENTRY", out);
        return;
    }
    fputs("after back edge ", out);
    print_back_edge(out, fn, p->start_edge);
}

void cli_csi_print_end(FILE *out, const tk_csi_function *fn, const tk_bl_path *p)
{
    if (p->end_edge == TK_BL_NONE) {
        fputs("EXIT", out);
        return;
    }
    fputs("back edge ", out);
    if (!p->end_ambiguous) {
        print_back_edge(out, fn, p->end_edge);
        return;
    }
    /* several back edges leave the block: name them all */
    uint32_t src = fn->edges[p->end_edge].src;
    int first = 1;
    fputs("one of ", out);
    for (uint32_t e = 0; e < fn->nedges; e++) {
        if (!fn->edges[e].back || fn->edges[e].src != src) continue;
        if (!first) fputs(", ", out);
        print_back_edge(out, fn, e);
        first = 0;
    }
}

void cli_csi_print_path(FILE *out, const tk_csi_function *fn, const char *label, uint64_t id,
                        const tk_bl_path *p)
{
    fprintf(out, "%s %" PRIu64 ": ", label, id);
    cli_csi_print_blocks(out, fn, p->nodes, p->len);
    fputs("\n  starts: ", out);
    cli_csi_print_start(out, fn, p);
    fputs("\n  ends: ", out);
    cli_csi_print_end(out, fn, p);
    fputs("\n  lines: ", out);
    cli_csi_print_lines(out, fn, p->nodes, p->len);
    fputc('\n', out);
}

int cli_csi_get_paths(const char *cmd, const cli_args *a, uint64_t dflt, uint64_t *out)
{
    cli_rows rows;
    if (cli_get_rows(cmd, a, 1, &rows) != 0) return -1;
    *out = rows.fixed ? dflt : rows.top;
    return 0;
}
