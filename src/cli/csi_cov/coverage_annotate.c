/* tracekit coverage --format annotate: each source file with a mark per line:
 * '+' covered, '-' not covered, '?' unknown, ' ' no coverage metadata. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"

static char mark_of(const tk_csi_crash_file *fl, uint64_t line)
{
    const tk_csi_crash_line *l = tk_csi_crash_file_line(fl, line);
    if (!l) return ' ';
    return l->hit == TK_CSI_HIT_YES ? '+' : l->hit == TK_CSI_HIT_NO ? '-' : '?';
}

/* The source file: as DWARF names it, else under --source-dir by its
 * trailing path components. */
static FILE *open_source(const char *source, const char *dir)
{
    FILE *f = fopen(source, "r");
    for (const char *p = source; !f && dir && p; p = strchr(p + 1, '/')) {
        const char *tail = *p == '/' ? p + 1 : p;
        size_t n = strlen(dir) + strlen(tail) + 2;
        char *path = malloc(n);
        if (!path) return NULL;
        snprintf(path, n, "%s/%s", dir, tail);
        f = fopen(path, "r");
        free(path);
    }
    return f;
}

static void print_file(FILE *out, const tk_csi_crash_file *fl, const char *dir)
{
    fprintf(out, "== %s\n", fl->source ? fl->source : "(no source file known)");
    FILE *src = fl->source ? open_source(fl->source, dir) : NULL;
    uint64_t last = 0;
    if (src) {
        char buf[4096];
        uint64_t no = 0;
        int at_start = 1;
        while (fgets(buf, sizeof buf, src)) {
            if (at_start) {
                no++;
                fprintf(out, "%c %6" PRIu64 " | ", mark_of(fl, no), no);
            }
            fputs(buf, out);
            at_start = strchr(buf, '\n') != NULL;
        }
        if (!at_start) fputc('\n', out);
        fclose(src);
        last = no;
    } else if (fl->source) {
        fprintf(out, "(not found%s; its lines:)\n",
                dir ? " under --source-dir either" : ": give --source-dir DIR");
    }
    for (size_t k = 0; k < fl->nlines; k++) /* lines the file does not have */
        if (fl->lines[k].line > last)
            fprintf(out, "%c %6" PRIu64 " |%s\n", mark_of(fl, fl->lines[k].line), fl->lines[k].line,
                    src ? " (past the end of the file)" : "");
}

int cli_csi_cov_print_annotated(FILE *out, const cli_csi_cov_result *r)
{
    tk_csi_crash_files *files;
    tk_error err;
    tk_error_clear(&err);
    if (tk_csi_crash_files_open(&files, r->crash, r->selector, &err) != TK_OK)
        return cli_error(&err);
    for (size_t i = 0; i < tk_csi_crash_files_count(files); i++)
        print_file(out, tk_csi_crash_files_at(files, i), r->source_dir);
    tk_csi_crash_files_free(files);
    return CLI_EXIT_OK;
}
