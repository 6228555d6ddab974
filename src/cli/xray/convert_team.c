/* tracekit convert of XRay traces in a team (tracekit-mpi): --to folded, svg, callgrind and
 * dot share the work. Each member chains its traces (as tracekit chains them all) into one
 * source and makes the partial of it: the folded stacks (tk_folded_partial_open) or the
 * events profile (tk_events_profile_partial_open, in ticks), which goes along the reduction
 * tree (tk_folded_partial_merge, tk_events_profile_partial_merge: the partial of every trace
 * chained); what each trace's reading found (cut short, ids the map lacks) is gathered for the
 * root, which writes the stacks or the profile and the warnings in input order. Chrome and
 * JSON (the events in order) run on the root alone, and so does everything when anything
 * fails, which says what failed as tracekit says it. */
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
CLI_PART_KIND(profile_kind, "events profiles", tk_events_profile_partial,
              tk_events_profile_partial);

static int is_profile(const cli_xray_convert_how *how)
{
    return how->target == CLI_XRAY_TO_CALLGRIND || how->target == CLI_XRAY_TO_DOT;
}

/* The partial of src that how asks for, as bytes into part. 0 or -1. */
static int partial_of(const tk_event_source *src, const cli_xray_convert_how *how, int per_thread,
                      cli_part_bytes *part)
{
    uint8_t *data = NULL;
    size_t size = 0;
    tk_status st;
    if (is_profile(how)) {
        tk_events_profile_partial *p = NULL;
        st = tk_events_profile_partial_open(&p, src, per_thread, NULL);
        if (st == TK_OK) st = tk_events_profile_partial_serialize(p, &data, &size, NULL);
        tk_events_profile_partial_free(p);
    } else {
        tk_folded_partial *p = NULL;
        st = tk_folded_partial_open(&p, src, how->weight, per_thread, NULL);
        if (st == TK_OK) st = tk_folded_partial_serialize(p, &data, &size, NULL);
        tk_folded_partial_free(p);
    }
    return st == TK_OK && cli_part_take(data, size, part) == 0 ? 0 : -1;
}

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

/* This member's traces chained into one partial (its bytes into part), what each found into
 * f[]. 0 or -1 (a trace or the chain failed: the root says what). */
static int own_partial(cli_ctx *ctx, const tk_xray_map *map, const int64_t *tids, size_t ntids,
                       const cli_xray_convert_how *how, int per_thread, found *f,
                       cli_part_bytes *part)
{
    int n = ctx->hi - ctx->lo;
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
                    partial_of(&src, how, per_thread, part) != 0))
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

/* The stacks (folded, or their flame graph) of p into out. Returns an exit code. */
static int write_folded(cli_ctx *ctx, const cli_args *args, const cli_xray_convert_how *how,
                        tk_folded_partial *p, const found *f, tk_output *out)
{
    if (how->target == CLI_XRAY_TO_SVG) {
        const char *unit = how->weight == TK_FOLDED_CALLS ? "calls"
                           : f[0].ticks_per_second > 0    ? "ns"
                                                          : "ticks";
        return cli_write_svg(ctx->command, args, unit, folded_of_partial, p, cli_output_file(out));
    }
    tk_error err;
    tk_error_clear(&err);
    return tk_folded_partial_write(p, CLI_WRITER(cli_output_file(out)), &err) == TK_OK
               ? CLI_EXIT_OK
               : cli_error(&err);
}

/* The profile of the merged partial's bytes. 0, or -1 (not made: the root runs alone, which
 * says why, as tracekit does). */
static int profile_of(const cli_args *args, const cli_part_bytes *part, tk_profile **out)
{
    tk_events_profile_partial *p = NULL;
    *out = NULL;
    int rc =
        tk_events_profile_partial_deserialize(&p, part->data, part->size, NULL) == TK_OK &&
                tk_events_profile_partial_profile(p, cli_get(args, "instr-map"), out, NULL) == TK_OK
            ? 0
            : -1;
    tk_events_profile_partial_free(p);
    return rc;
}

/* The root's output: the stacks or the profile, then each trace's warnings. Returns an exit
 * code, or -1 (nothing written: the root runs alone). */
static int write_root(cli_ctx *ctx, const cli_args *args, const tk_xray_map *map,
                      const cli_xray_convert_how *how, const cli_part_bytes *part, const found *f)
{
    tk_profile *prof = NULL;
    tk_folded_partial *stacks = NULL;
    if (is_profile(how)
            ? profile_of(args, part, &prof) != 0
            : tk_folded_partial_deserialize(&stacks, part->data, part->size, NULL) != TK_OK)
        return -1;
    int rc;
    if (prof && how->target == CLI_XRAY_TO_CALLGRIND && cli_has(args, "per-thread")) {
        rc = cli_write_callgrind_parts(ctx->command, args, prof, 0); /* OUT-01, ... */
    } else {
        tk_output *out = NULL;
        rc = cli_output_open(args, 0, &out);
        if (rc == CLI_EXIT_OK && prof) {
            tk_error err;
            tk_error_clear(&err);
            const tk_dot_options *dot = how->target == CLI_XRAY_TO_DOT ? &how->dot : NULL;
            if (cli_xray_write_profile(prof, f[0].ticks_per_second, dot, cli_output_file(out),
                                       &err) != TK_OK)
                rc = cli_error(&err);
        } else if (rc == CLI_EXIT_OK) {
            rc = write_folded(ctx, args, how, stacks, f, out);
        }
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(out);
        else if (out)
            cli_output_abort(out);
    }
    tk_folded_partial_free(stacks);
    tk_profile_free(prof);
    if (rc != CLI_EXIT_OK) return rc;
    for (int k = 0; k < ctx->ninputs; k++) {
        cli_xray_part x;
        memset(&x, 0, sizeof x);
        x.cut = f[k].cut;
        x.where.offset = f[k].offset;
        snprintf(x.where.message, sizeof x.where.message, "%s", f[k].message);
        x.unknown = f[k].unknown;
        x.largest = f[k].largest;
        cli_xray_part_warn_truncation(&x, ctx->paths[k]);
        cli_xray_part_warn_unknown_ids(&x, map, ctx->paths[k]);
    }
    return CLI_EXIT_OK;
}

int cli_xray_convert_team(cli_ctx *ctx, const cli_args *args, const cli_xray_convert_how *how,
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
    cli_part_bytes part = {CLI_PART_EMPTY, NULL, 0};
    /* --per-thread: the stacks start with their thread, the profile has a part per thread
     * (callgrind; a call graph is of one part, as tracekit's) */
    int per_thread = cli_has(args, "per-thread") && how->target != CLI_XRAY_TO_DOT;
    if (!f || bad_map || own_partial(ctx, map, tids, ntids, how, per_thread, f, &part) != 0)
        cli_part_fail(&part, NULL);
    const cli_part_kind *kind = is_profile(how) ? &profile_kind : &folded_kind;
    if (!f || t->gather(t, f, sizeof *f, ctx->lo, ctx->hi) != 0 ||
        t->reduce(t, &part, cli_part_merge, (void *)kind) != 0) {
        rc = CLI_EXIT_BAD_INPUT;
    } else if (t->rank == 0) {
        rc = part.state == CLI_PART_DATA ? write_root(ctx, args, map, how, &part, f) : -1;
        if (rc == -1) { /* what failed, said as tracekit says it */
            rc = cli_team_reopen_all(ctx);
            if (rc == CLI_EXIT_OK) rc = alone(ctx, args);
        }
    }
    cli_part_free(&part);
    tk_xray_map_free(map);
    free(f);
    return rc;
}
