/* Helpers shared by the DCFG-Trace commands. */
#include "dcfg_trace.h"

#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

int cli_dcfg_trace_open_path(const char *path, int progress, tk_dcfg_trace **out)
{
    (void)progress;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_dcfg_trace_open(out, path, NULL, &err);
    if (st == TK_OK) return CLI_EXIT_OK;
    int rc = cli_error(&err);
    if (st == TK_ERR_FORMAT) cli_note_other_format(path, "dcfg-trace");
    return rc;
}

int cli_dcfg_trace_load_dcfg(const cli_args *a, int progress, tk_cfg **out)
{
    *out = NULL;
    const char *path = cli_get(a, "dcfg");
    if (!path) return CLI_EXIT_OK;
    tk_input *in;
    int rc = cli_open_input(path, progress, &in);
    if (rc != CLI_EXIT_OK) return rc;
    tk_error err;
    tk_error_clear(&err);
    /* the DCFG reader accepts unknown keys and columns: a DCFG-Trace would
     * read as a DCFG without blocks or edges */
    const tk_format *f;
    if (tk_format_detect_input(in, &f, &err) == TK_OK && strcmp(f->name, "dcfg") != 0) {
        fprintf(stderr, "tracekit: %s: --dcfg wants a DCFG, and this is a %s file (%s)\n", path,
                f->name, f->title);
        tk_input_free(in);
        return CLI_EXIT_BAD_INPUT;
    }
    tk_error_clear(&err);
    tk_status st;
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        /* a regular file: by path, which re-reads to locate an error found
         * late (tk_cfg_finish: dangling ids, sums beyond 64 bits); a pipe
         * cannot be opened again */
        tk_input_free(in);
        tk_input_options io;
        cli_input_options(&io, progress);
        tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
        o.input = &io;
        st = tk_dcfg_read_path(out, path, &o, &err);
    } else {
        st = tk_dcfg_read(out, in, NULL, &err);
        tk_input_free(in);
    }
    /* traces name edges by id: the id maps now, so that running out of memory is an
     * error here rather than a slow scan per edge on the decoding threads */
    for (uint32_t i = 0; st == TK_OK && tk_cfg_process_at(*out, i); i++)
        if ((st = tk_cfg_need_edge_map(tk_cfg_process_at(*out, i), NULL)) != TK_OK) {
            st = tk_error_set(&err, st, "out of memory");
            tk_cfg_free(*out);
            *out = NULL;
        }
    if (st == TK_OK) return CLI_EXIT_OK;
    rc = cli_error(&err);
    if (st == TK_ERR_FORMAT) cli_note_other_format(path, "dcfg");
    return rc;
}

static uint64_t cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (uint64_t)n;
}

int cli_dcfg_trace_jobs(const char *cmd, const cli_args *a, unsigned *out)
{
    uint64_t n;
    if (cli_get_u64(cmd, a, "jobs", cpu_count(), &n) != 0) return CLI_EXIT_USAGE;
    if (n == 0 || n > 256) return cli_usage_error(cmd, "--jobs must be 1..256");
    *out = (unsigned)n;
    cli_set_input_threads(*out); /* a .bz2 trace or DCFG decompresses on as many */
    return CLI_EXIT_OK;
}

void cli_dcfg_trace_writer_init(cli_dcfg_trace_writer *w, FILE *f)
{
    w->f = f;
    w->n = 0;
    w->failed = 0;
}

static void w_room(cli_dcfg_trace_writer *w, size_t need)
{
    if (w->n + need > sizeof w->buf) {
        if (fwrite(w->buf, 1, w->n, w->f) != w->n) w->failed = 1;
        w->n = 0;
    }
}

void cli_dcfg_trace_put_u64(cli_dcfg_trace_writer *w, uint64_t v)
{
    char tmp[24];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    w_room(w, k);
    while (k) w->buf[w->n++] = tmp[--k];
}

void cli_dcfg_trace_put_str(cli_dcfg_trace_writer *w, const char *s)
{
    size_t len = strlen(s);
    while (len > 0) {
        w_room(w, len < 4096 ? len : 4096);
        size_t k = len < 4096 ? len : 4096;
        memcpy(w->buf + w->n, s, k);
        w->n += k;
        s += k;
        len -= k;
    }
}

void cli_dcfg_trace_put_char(cli_dcfg_trace_writer *w, char c)
{
    w_room(w, 1);
    w->buf[w->n++] = c;
}

int cli_dcfg_trace_writer_flush(cli_dcfg_trace_writer *w)
{
    if (w->n && fwrite(w->buf, 1, w->n, w->f) != w->n) w->failed = 1;
    w->n = 0;
    if (fflush(w->f) != 0) w->failed = 1;
    return w->failed ? -1 : 0;
}

int cli_dcfg_trace_open_input(cli_ctx *ctx, tk_dcfg_trace **t, tk_diag *diag)
{
    if (ctx->ninputs != 1) /* a second trace is not read silently */
        return cli_usage_error(ctx->command, "takes one DCFG-Trace (got %d)", ctx->ninputs);
    return cli_dcfg_trace_open_at(ctx, 0, t, diag);
}

int cli_dcfg_trace_open_at(cli_ctx *ctx, int i, tk_dcfg_trace **t, tk_diag *diag)
{
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_dcfg_trace_open_input(t, ctx->inputs[i], diag, &err);
    if (st != TK_OK) {
        if (diag) {
            tk_diag_error(diag, &err);
            return CLI_EXIT_BAD_INPUT;
        }
        return cli_error(&err);
    }
    return CLI_EXIT_OK;
}
