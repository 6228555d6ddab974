/* DCFG-Trace edge lists: "PID THREAD EDGE_ID" lines (what `tracekit decode --what edges`
 * writes, what `tracekit encode` reads), handed out in runs of one thread's consecutive
 * edges, each line checked (numbers through the scanner of core/num, the edge against the
 * DCFG when given) and every bad one a located error. */
#include <stdarg.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/num.h"
#include "formats/dcfg_trace/dt_internal.h"
#include "tracekit/input.h"

struct tk_dcfg_trace_edge_reader {
    tk_input *in;
    const tk_cfg *cfg;
    const tk_cfg_process *proc; /* the DCFG's process of proc_pid (NULL: none) */
    uint64_t proc_pid;
    int have_proc;
    uint32_t *edges; /* the run handed out last */
    /* a line read past the end of the last run: the first of the next */
    int pending;
    uint64_t pending_pid, pending_tid, pending_line;
    uint32_t pending_edge;
    int done;
};

tk_status tk_dcfg_trace_edge_reader_open(tk_dcfg_trace_edge_reader **out, tk_input *in,
                                         const tk_cfg *cfg, tk_error *err)
{
    *out = NULL;
    tk_dcfg_trace_edge_reader *r = tk_calloc(1, sizeof *r);
    uint32_t *edges = tk_malloc(TK_DCFG_TRACE_EDGE_RUN_MAX * sizeof *edges);
    if (!r || !edges) {
        tk_free(r);
        tk_free(edges);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    r->in = in;
    r->cfg = cfg;
    r->edges = edges;
    *out = r;
    return TK_OK;
}

void tk_dcfg_trace_edge_reader_free(tk_dcfg_trace_edge_reader *r)
{
    if (!r) return;
    tk_free(r->edges);
    tk_free(r);
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    return p;
}

static tk_status line_error(tk_dcfg_trace_edge_reader *r, tk_error *err, tk_status code,
                            const char *line, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static tk_status line_error(tk_dcfg_trace_edge_reader *r, tk_error *err, tk_status code,
                            const char *line, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_error_vset(err, code, fmt, ap);
    va_end(ap);
    tk_error_locate(err, tk_input_path(r->in), -1, tk_input_line_number(r->in),
                    (uint64_t)(at - line) + 1);
    return code;
}

/* The edge against the DCFG's process of pid (the last one looked up is kept). */
static tk_status check_edge(tk_dcfg_trace_edge_reader *r, uint64_t pid, uint64_t edge,
                            const char *line, const char *pid_at, const char *edge_at,
                            tk_error *err)
{
    if (!r->have_proc || r->proc_pid != pid) {
        uint32_t pi = tk_cfg_find_process(r->cfg, pid);
        r->proc = pi == TK_CFG_NONE ? NULL : tk_cfg_process_at(r->cfg, pi);
        r->proc_pid = pid;
        r->have_proc = 1;
    }
    if (!r->proc)
        return line_error(r, err, TK_ERR_FORMAT, line, pid_at,
                          "edge %llu: process %llu is not in the DCFG", (unsigned long long)edge,
                          (unsigned long long)pid);
    if (tk_cfg_find_edge(r->proc, (uint32_t)edge) == TK_CFG_NONE)
        return line_error(r, err, TK_ERR_FORMAT, line, edge_at,
                          "edge %llu is not in the DCFG's process %llu", (unsigned long long)edge,
                          (unsigned long long)pid);
    return TK_OK;
}

/* One line: TK_OK with its three numbers, TK_END for a blank line or a comment, or the
 * located error. */
static tk_status parse_line(tk_dcfg_trace_edge_reader *r, const char *line, size_t len,
                            uint64_t v[3], tk_error *err)
{
    const char *p = skip_blanks(line, line + len), *end = line + len, *at[3];
    if (p == end || *p == '#') return TK_END;
    for (int k = 0; k < 3; k++) {
        at[k] = p = k ? skip_blanks(p, end) : p;
        tk_status st = tk_num_scan(&p, end, TK_NUM_DEC, &v[k]);
        if (st != TK_OK)
            return line_error(r, err, st, line, at[k], "%s \"PID THREAD EDGE_ID\"",
                              st == TK_ERR_LIMIT ? "a number over 64 bits in" : "expected");
        if (k < 2 && p < end && *p != ' ' && *p != '\t')
            return line_error(r, err, TK_ERR_FORMAT, line, p, "expected \"PID THREAD EDGE_ID\"");
    }
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    if (p != end)
        return line_error(r, err, TK_ERR_FORMAT, line, p,
                          "expected the end of the line after \"PID THREAD EDGE_ID\"");
    if (v[2] == 0 || v[2] > UINT32_MAX)
        return line_error(r, err, TK_ERR_FORMAT, line, at[2],
                          "edge id %llu out of range (1..4294967295)", (unsigned long long)v[2]);
    if (r->cfg) return check_edge(r, v[0], v[2], line, at[0], at[2], err);
    return TK_OK;
}

tk_status tk_dcfg_trace_edge_reader_next(tk_dcfg_trace_edge_reader *r, tk_dcfg_trace_edge_run *run,
                                         tk_error *err)
{
    memset(run, 0, sizeof *run);
    run->edges = r->edges;
    if (r->pending) {
        r->pending = 0;
        run->pid = r->pending_pid;
        run->thread_id = r->pending_tid;
        run->first_line = run->line = r->pending_line;
        r->edges[run->n++] = r->pending_edge;
    }
    const char *line;
    size_t len;
    tk_status st;
    while (!r->done && (st = tk_input_getline(r->in, &line, &len, err)) != TK_END) {
        uint64_t v[3];
        if (st != TK_OK) return st;
        if ((st = parse_line(r, line, len, v, err)) == TK_END) continue;
        if (st != TK_OK) return st;
        uint64_t lineno = tk_input_line_number(r->in);
        if (run->n &&
            (v[0] != run->pid || v[1] != run->thread_id || run->n == TK_DCFG_TRACE_EDGE_RUN_MAX)) {
            r->pending = 1;
            r->pending_pid = v[0];
            r->pending_tid = v[1];
            r->pending_edge = (uint32_t)v[2];
            r->pending_line = lineno;
            return TK_OK;
        }
        if (!run->n) {
            run->pid = v[0];
            run->thread_id = v[1];
            run->first_line = lineno;
        }
        run->line = lineno;
        r->edges[run->n++] = (uint32_t)v[2];
    }
    r->done = 1;
    return run->n ? TK_OK : TK_END;
}

uint64_t tk_dcfg_trace_edge_list_estimate(const char *path)
{
    enum { PROBE = 16 << 20, BUF = 1 << 16 };
    tk_input *in;
    if (strcmp(path, "-") == 0 || tk_input_open(&in, path, NULL, NULL) != TK_OK) return 0;
    int64_t raw = tk_input_raw_size(in);
    uint64_t content = raw > 0 ? (uint64_t)raw : 0;
    char *buf = raw > 0 && tk_input_compression(in) != TK_COMP_NONE ? tk_malloc(BUF) : NULL;
    if (buf) {
        /* the compression ratio of the first 16 MB of content */
        size_t got = 0;
        while (tk_input_offset(in) < PROBE && tk_input_read(in, buf, BUF, &got, NULL) == TK_OK &&
               got > 0)
            ;
        uint64_t seen = tk_input_offset(in), seen_raw = tk_input_raw_offset(in);
        if (got < BUF || seen_raw == 0) /* all of it read (or nothing) */
            content = seen;
        else
            content = (uint64_t)((double)raw * ((double)seen / (double)seen_raw));
        tk_free(buf);
    }
    tk_input_free(in);
    return content / 12;
}
