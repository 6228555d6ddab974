/* tracekit coverage: the crashed thread's frames and, for each frame with
 * path-tracing locals, the paths they encode (decoded against BIN's
 * .debug_PT as `tracekit paths --state` does). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi/csi.h"
#include "coverage.h"

static void print_frame_line(FILE *out, const tk_csi_crash_frame *f)
{
    fprintf(out, "  frame %" PRIu32 ": %s", f->depth, f->function ? f->function : "??");
    if (f->source) fprintf(out, " at %s:%" PRIu64, f->source, f->line);
    fprintf(out, " (pc 0x%" PRIx64 ")", f->pc);
    if (!f->traced)
        fputs(", not traced", out);
    else if (f->problem)
        fprintf(out, ", traced but not read: %s", f->problem);
    fputc('\n', out);
}

/* The state of a frame as `paths --state` reads it from a file. */
static int frame_state(const tk_csi_crash_frame *f, tk_csi_state *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->function, sizeof s->function, "%s", f->function ? f->function : "");
    snprintf(s->label, sizeof s->label, "frame %" PRIu32, f->depth);
    s->paths = malloc((f->npaths ? f->npaths : 1) * sizeof *s->paths);
    if (!s->paths) return -1;
    memcpy(s->paths, f->paths, f->npaths * sizeof *s->paths);
    s->npaths = f->npaths;
    s->idx = f->idx;
    s->has_cur = 1;
    s->cur = f->cur;
    s->has_line = f->line > 0;
    s->line = (int64_t)f->line;
    return 0;
}

/* Decodes the traced frames whose function is fn (or a clone of it). */
static void frames_of(FILE *out, const cli_csi_cov_result *r, const tk_csi_function *fn,
                      tk_csi_numbering *num, const char *meta, char *done)
{
    for (size_t i = 0; i < tk_csi_crash_frame_count(r->crash); i++) {
        const tk_csi_crash_frame *f = tk_csi_crash_frame_at(r->crash, i);
        if (done[i] || !f->traced || f->problem || !f->function ||
            !tk_csi_function_matches(f->function, fn, fn->name))
            continue;
        done[i] = 1;
        tk_csi_state s;
        if (frame_state(f, &s) != 0) return;
        fputc('\n', out);
        cli_csi_print_state(out, fn, fn->name, num, &s, meta);
        free(s.paths);
    }
}

void cli_csi_cov_print_paths(FILE *out, const cli_csi_cov_result *r, const uint8_t *bin,
                             size_t bin_len)
{
    size_t n = tk_csi_crash_frame_count(r->crash);
    fprintf(out, "\npath tracing: the crashed thread's stack, %zu frame%s\n", n, cli_s(n));
    for (size_t i = 0; i < n; i++) print_frame_line(out, tk_csi_crash_frame_at(r->crash, i));
    char meta[600];
    snprintf(meta, sizeof meta, "%s(.debug_PT)", r->bin);
    uint8_t *text = NULL;
    size_t len;
    tk_input *in = NULL;
    tk_csi_reader *rd = NULL;
    tk_csi_numbering *num = NULL;
    char *done = calloc(n ? n : 1, 1);
    tk_error err;
    tk_error_clear(&err);
    if (!done ||
        tk_csi_elf_section(r->bin, bin, bin_len, ".debug_PT", &text, &len, &err) != TK_OK ||
        tk_input_open_memory(&in, text, len, meta, NULL, &err) != TK_OK ||
        tk_csi_reader_open(&rd, in, &err) != TK_OK || tk_csi_numbering_open(&num, NULL) != TK_OK) {
        fprintf(out, "  (the path-tracing metadata cannot be read: %s)\n", err.message);
    } else {
        const tk_csi_function *fn;
        tk_status st;
        while ((st = tk_csi_reader_next(rd, &fn, &err)) == TK_OK || st == TK_ERR_FORMAT ||
               st == TK_ERR_LIMIT)
            if (st == TK_OK) frames_of(out, r, fn, num, meta, done);
    }
    tk_csi_numbering_free(num);
    tk_csi_reader_free(rd);
    tk_input_free(in);
    tk_free(text);
    free(done);
}
