/* What the XRay command handlers share: a session over one trace (reader,
 * events, the instrumentation map, the --thread filter), the warnings after
 * reading, --unit. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray.h"

void cli_xray_session_close(cli_xray_session *s)
{
    tk_xray_events_free(s->events);
    tk_xray_free(s->reader);
    tk_xray_map_free(s->map);
    memset(s, 0, sizeof *s);
}

int cli_xray_open_map(const cli_args *args, tk_xray_map **map)
{
    *map = NULL;
    const char *bin = cli_get(args, "instr-map");
    if (!bin) return CLI_EXIT_OK;
    tk_error err;
    tk_error_clear(&err);
    if (tk_xray_map_read(map, bin, &err) != TK_OK) return cli_error(&err);
    return CLI_EXIT_OK;
}

int cli_xray_session_open(cli_ctx *ctx, const cli_args *args, int i, int release, int with_map,
                          cli_xray_session *s)
{
    memset(s, 0, sizeof *s);
    int rc = with_map ? cli_xray_open_map(args, &s->map) : CLI_EXIT_OK;
    if (rc != CLI_EXIT_OK) return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.release_pages = release;
    opt.partial = 1; /* a trace cut short gives what was recorded before the cut */
    tk_status st = tk_xray_open(&s->reader, ctx->inputs[i], &opt, &err);
    if (st == TK_OK) st = tk_xray_events_open(&s->events, s->reader, s->map, &err);
    if (st != TK_OK) {
        cli_xray_session_close(s);
        return cli_error(&err);
    }
    tk_xray_events_source(s->events, &s->src);
    const char *threads[CLI_XRAY_MAX_THREADS + 1];
    int n = cli_get_all(args, "thread", threads, CLI_XRAY_MAX_THREADS + 1);
    if (n > CLI_XRAY_MAX_THREADS) {
        cli_xray_session_close(s);
        return cli_usage_error(ctx->command, "at most %d --thread options", CLI_XRAY_MAX_THREADS);
    }
    for (int k = 0; k < n; k++) {
        int64_t v; /* decimal or 0x hex, with a sign (tracekit/num.h) */
        if (tk_parse_i64(threads[k], strlen(threads[k]), &v, NULL) != TK_OK) {
            cli_xray_session_close(s);
            return cli_usage_error(ctx->command, "--thread wants a thread id, not '%s'",
                                   threads[k]);
        }
        s->tids[k] = v;
    }
    if (n > 0) {
        tk_event_source all = s->src;
        tk_event_only_threads(&s->filter, &all, s->tids, (size_t)n, &s->src);
    }
    return CLI_EXIT_OK;
}

void cli_xray_warn_unknown_ids(const cli_xray_session *s, const char *path)
{
    uint32_t largest;
    uint64_t n = s->map ? tk_xray_events_unknown_ids(s->events, &largest) : 0;
    if (n)
        fprintf(stderr,
                "tracekit: %s: warning: %" PRIu64 " function id%s (up to %" PRIu32
                ") %s not in the instrumentation map, which has %" PRIu32 " function%s; "
                "does the binary match the trace?\n",
                path, n, cli_s(n), largest, n == 1 ? "is" : "are", tk_xray_map_count(s->map),
                cli_s(tk_xray_map_count(s->map)));
}

int cli_xray_warn_truncation(const cli_xray_session *s, const char *path)
{
    tk_error where;
    tk_error_clear(&where);
    if (!tk_xray_truncation(s->reader, &where)) return 0;
    char buf[TK_ERROR_MSG_MAX + TK_ERROR_PATH_MAX + 128];
    tk_location loc = {path, where.offset, 0, 0};
    fflush(stdout);
    fprintf(stderr, "tracekit: %s; the results cover the records before this byte\n",
            tk_diag_format(TK_SEV_WARNING, &loc, where.message, buf, sizeof buf));
    return 1;
}

const cli_choice cli_xray_units[] = {
    {"s", TK_UNIT_S}, {"ms", TK_UNIT_MS}, {"us", TK_UNIT_US}, {"ns", TK_UNIT_NS}, {NULL, 0}};

int cli_xray_unit(cli_ctx *ctx, const cli_args *args, tk_time_unit *unit)
{
    int u = cli_get_choice(ctx->command, args, "unit", cli_xray_units, TK_UNIT_US);
    if (u < 0) return -1;
    *unit = (tk_time_unit)u;
    return 0;
}

int cli_xray_single_input(cli_ctx *ctx)
{
    if (ctx->ninputs != 1)
        return cli_usage_error(ctx->command, "takes one XRay trace (got %d)", ctx->ninputs);
    return CLI_EXIT_OK;
}
