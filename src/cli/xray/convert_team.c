/* tracekit convert of XRay traces in a team (tracekit-mpi): --to folded and --to svg share
 * the work. Each member chains its traces (as tracekit chains them all) into one source and
 * makes the folded-stacks partial of it (tk_folded_partial_open), which goes along the
 * reduction tree (tk_folded_partial_merge: the partial of every trace chained); what each
 * trace's reading found (cut short, ids the map lacks) is gathered for the root, which writes
 * the stacks and the warnings in input order. The other targets (events in order, or one
 * profile) run on the root alone, and so does everything when anything fails, which says
 * what failed as tracekit says it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "team.h"
#include "xray.h"

/* What reading one trace found, for the root's warnings (copied between members as bytes). */
typedef struct found {
    int cut;
    int64_t offset;
    char message[TK_ERROR_MSG_MAX];
    uint64_t unknown;
    uint32_t largest;
    double ticks_per_second;
} found;

CLI_PART_KIND(folded_kind, "folded stacks", tk_folded_partial, tk_folded_partial);

/* One of this member's traces, opened as cli_xray_session_open opens it, but its errors not
 * printed: the root says them, reading every trace itself. */
typedef struct trace {
    tk_xray_reader *reader;
    tk_xray_events *events;
    tk_event_thread_filter filter;
    tk_event_source src;
} trace;

static int trace_open(cli_ctx *ctx, int i, const tk_xray_map *map, const int64_t *tids,
                      size_t ntids, trace *t)
{
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    opt.release_pages = 1; /* one pass */
    opt.partial = 1; /* a trace cut short gives what was recorded before the cut */
    if (!ctx->inputs[i] || tk_xray_open(&t->reader, ctx->inputs[i], &opt, NULL) != TK_OK ||
        tk_xray_events_open(&t->events, t->reader, map, NULL) != TK_OK)
        return -1;
    tk_xray_events_source(t->events, &t->src);
    if (ntids) {
        tk_event_source all = t->src;
        tk_event_only_threads(&t->filter, &all, tids, ntids, &t->src);
    }
    return 0;
}

/* This member's traces chained into one partial, what each found into f[]. 0 or -1 (a trace
 * or the chain failed: the root says what). */
static int own_partial(cli_ctx *ctx, const tk_xray_map *map, const int64_t *tids, size_t ntids,
                       tk_folded_weight weight, int per_thread, found *f, tk_folded_partial **out)
{
    int n = ctx->hi - ctx->lo;
    *out = NULL;
    if (n <= 0) return 0;
    trace *t = calloc((size_t)n, sizeof *t);
    tk_event_source *srcs = calloc((size_t)n, sizeof *srcs);
    int rc = t && srcs ? 0 : -1;
    for (int k = 0; rc == 0 && k < n; k++) {
        rc = trace_open(ctx, ctx->lo + k, map, tids, ntids, &t[k]);
        if (rc == 0) srcs[k] = t[k].src;
    }
    tk_event_chain chain;
    tk_event_source src;
    if (rc == 0 && (tk_event_chain_init(&chain, srcs, (size_t)n, &src, NULL) != TK_OK ||
                    tk_folded_partial_open(out, &src, weight, per_thread, NULL) != TK_OK))
        rc = -1;
    for (int k = 0; rc == 0 && k < n; k++) {
        found *x = &f[ctx->lo + k];
        tk_error where;
        tk_error_clear(&where);
        x->cut = tk_xray_truncation(t[k].reader, &where);
        x->offset = where.offset;
        snprintf(x->message, sizeof x->message, "%s", where.message);
        x->unknown = map ? tk_xray_events_unknown_ids(t[k].events, &x->largest) : 0;
        x->ticks_per_second = t[k].src.ticks_per_second;
    }
    for (int k = 0; t && k < n; k++) {
        tk_xray_events_free(t[k].events);
        tk_xray_free(t[k].reader);
    }
    free(t);
    free(srcs);
    return rc;
}

static tk_status folded_of_partial(void *job, FILE *f, tk_error *err)
{
    return tk_folded_partial_write(job, CLI_WRITER(f), err);
}

/* The root's output: the stacks (folded, or their flame graph), then each trace's warnings. */
static int write_root(cli_ctx *ctx, const cli_args *args, const tk_xray_map *map,
                      tk_folded_weight weight, int svg, const tk_folded_partial *p, const found *f)
{
    tk_output *out;
    int rc = cli_output_open(args, 0, &out);
    if (rc != CLI_EXIT_OK) return rc;
    tk_error err;
    tk_error_clear(&err);
    if (svg) {
        const char *unit = weight == TK_FOLDED_CALLS   ? "calls"
                           : f[0].ticks_per_second > 0 ? "ns"
                                                       : "ticks";
        rc = cli_write_svg(ctx->command, args, unit, folded_of_partial, (void *)p,
                           cli_output_file(out));
    } else if (tk_folded_partial_write(p, CLI_WRITER(cli_output_file(out)), &err) != TK_OK) {
        rc = cli_error(&err);
    }
    if (rc != CLI_EXIT_OK) {
        cli_output_abort(out);
        return rc;
    }
    if ((rc = cli_output_commit(out)) != CLI_EXIT_OK) return rc;
    for (int k = 0; k < ctx->ninputs; k++) {
        cli_xray_part part;
        memset(&part, 0, sizeof part);
        part.cut = f[k].cut;
        part.where.offset = f[k].offset;
        snprintf(part.where.message, sizeof part.where.message, "%s", f[k].message);
        part.unknown = f[k].unknown;
        part.largest = f[k].largest;
        cli_xray_part_warn_truncation(&part, ctx->paths[k]);
        cli_xray_part_warn_unknown_ids(&part, map, ctx->paths[k]);
    }
    return CLI_EXIT_OK;
}

int cli_xray_convert_team(cli_ctx *ctx, const cli_args *args, tk_folded_weight weight, int svg,
                          cli_run_fn alone)
{
    const cli_team *t = ctx->team;
    int64_t tids[CLI_XRAY_MAX_THREADS];
    size_t ntids;
    int rc = cli_xray_thread_ids(ctx, args, tids, &ntids); /* a usage error on every member */
    if (rc != CLI_EXIT_OK) return rc;
    const char *bin = cli_get(args, "instr-map");
    tk_xray_map *map = NULL;
    int bad_map = bin && tk_xray_map_read(&map, bin, NULL) != TK_OK;
    found *f = calloc((size_t)ctx->ninputs + 1, sizeof *f);
    tk_folded_partial *own = NULL;
    cli_part_bytes part = {CLI_PART_EMPTY, NULL, 0};
    uint8_t *data;
    size_t size;
    if (!f || bad_map ||
        own_partial(ctx, map, tids, ntids, weight, cli_has(args, "per-thread"), f, &own) != 0 ||
        (own && (tk_folded_partial_serialize(own, &data, &size, NULL) != TK_OK ||
                 cli_part_take(data, size, &part) != 0)))
        cli_part_fail(&part, NULL);
    tk_folded_partial_free(own);
    if (!f || t->gather(t, f, sizeof *f, ctx->lo, ctx->hi) != 0 ||
        t->reduce(t, &part, cli_part_merge, (void *)&folded_kind) != 0) {
        rc = CLI_EXIT_BAD_INPUT;
    } else if (t->rank == 0) {
        tk_folded_partial *p = NULL;
        if (part.state == CLI_PART_DATA &&
            tk_folded_partial_deserialize(&p, part.data, part.size, NULL) == TK_OK) {
            rc = write_root(ctx, args, map, weight, svg, p, f);
        } else { /* what failed, said as tracekit says it */
            rc = cli_team_reopen_all(ctx);
            if (rc == CLI_EXIT_OK) rc = alone(ctx, args);
        }
        tk_folded_partial_free(p);
    }
    cli_part_free(&part);
    tk_xray_map_free(map);
    free(f);
    return rc;
}
