/* tracekit convert of XRay traces in a team (tracekit-mpi): --to folded, svg, callgrind and
 * dot share the work. Each member reads its traces on its -j threads, each into its partial
 * merged in order (convert_partial.c, the pool of tracekit's -j), or with -j 1 chains them
 * (as tracekit chains them all) into one source and makes the partial of it: the folded
 * stacks (tk_folded_partial_open) or the events profile (tk_events_profile_partial_open, in
 * ticks), which goes along the reduction tree (tk_folded_partial_merge, tk_events_profile_partial_merge: the partial of every trace
 * chained); what each trace's reading found (cut short, ids the map lacks) is gathered for the
 * root, which writes the stacks or the profile and the warnings in input order. Chrome and
 * JSON (the events in order) run on the root alone, and so does everything when anything
 * fails, which says what failed as tracekit says it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "team.h"
#include "xray.h"

CLI_PART_KIND(folded_kind, "folded stacks", tk_folded_partial, tk_folded_partial);
CLI_PART_KIND(profile_kind, "events profiles", tk_events_profile_partial,
              tk_events_profile_partial);

/* p as bytes into part (p freed). 0 or -1. */
static int serialize_into(cli_xray_partial *p, cli_part_bytes *part)
{
    uint8_t *data = NULL;
    size_t size = 0;
    int rc = (p->profile ? tk_events_profile_partial_serialize(p->profile, &data, &size, NULL)
                         : tk_folded_partial_serialize(p->stacks, &data, &size, NULL)) == TK_OK
                 ? 0
                 : -1;
    cli_xray_partial_free(p);
    return rc == 0 && cli_part_take(data, size, part) == 0 ? 0 : -1;
}

/* The partial of src that how asks for, as bytes into part. 0 or -1. */
static int partial_of(const tk_event_source *src, const cli_xray_convert_how *how, int per_thread,
                      cli_part_bytes *part)
{
    cli_xray_partial p;
    if (cli_xray_partial_open(src, how, per_thread, &p) != 0) {
        cli_xray_partial_free(&p);
        return -1;
    }
    return serialize_into(&p, part);
}

/* This member's traces into one partial (its bytes into part), read on -j threads or chained,
 * what each found into f[]. 0 or -1 (a trace or the chain failed: the root says what). */
static int own_partial(cli_ctx *ctx, const tk_xray_map *map, const int64_t *tids, size_t ntids,
                       const cli_xray_convert_how *how, int per_thread, cli_xray_found *f,
                       cli_part_bytes *part)
{
    int n = ctx->hi - ctx->lo;
    if (n <= 0) return 0;
    if (how->jobs > 1 && n > 1) { /* each trace into its partial on -j threads, in order */
        cli_xray_partial p;
        int rc =
            cli_xray_read_partials(ctx, ctx->lo, ctx->hi, map, tids, ntids, how, per_thread, &p, f);
        return rc == 0 && serialize_into(&p, part) == 0 ? 0 : -1;
    }
    cli_xray_trace *t = calloc((size_t)n, sizeof *t);
    tk_event_source *srcs = calloc((size_t)n, sizeof *srcs);
    int rc = t && srcs ? 0 : -1;
    for (int k = 0; rc == 0 && k < n; k++) {
        rc = cli_xray_trace_open(ctx, ctx->lo + k, map, tids, ntids, &t[k]);
        if (rc == 0) srcs[k] = t[k].src;
    }
    tk_event_chain chain;
    tk_event_source src;
    if (rc == 0 && (tk_event_chain_init(&chain, srcs, (size_t)n, &src, NULL) != TK_OK ||
                    partial_of(&src, how, per_thread, part) != 0))
        rc = -1;
    for (int k = 0; rc == 0 && k < n; k++) cli_xray_trace_found(&t[k], map, &f[ctx->lo + k]);
    for (int k = 0; t && k < n; k++) cli_xray_trace_close(&t[k]);
    free(t);
    free(srcs);
    return rc;
}

/* The root's output: the stacks or the profile, then each trace's warnings. Returns an exit
 * code, or -1 (nothing written: the root runs alone). */
static int write_root(cli_ctx *ctx, const cli_args *args, const tk_xray_map *map,
                      const cli_xray_convert_how *how, const cli_part_bytes *part,
                      const cli_xray_found *f)
{
    cli_xray_partial p;
    memset(&p, 0, sizeof p);
    int rc = (cli_xray_convert_profile(how)
                  ? tk_events_profile_partial_deserialize(&p.profile, part->data, part->size, NULL)
                  : tk_folded_partial_deserialize(&p.stacks, part->data, part->size, NULL)) == TK_OK
                 ? cli_xray_convert_write(ctx, args, map, how, &p, f)
                 : -1;
    cli_xray_partial_free(&p);
    return rc;
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
    cli_xray_found *f = calloc((size_t)ctx->ninputs + 1, sizeof *f);
    cli_part_bytes part = {CLI_PART_EMPTY, NULL, 0};
    /* --per-thread: the stacks start with their thread, the profile has a part per thread
     * (callgrind; a call graph is of one part, as tracekit's) */
    int per_thread = cli_has(args, "per-thread") && how->target != CLI_XRAY_TO_DOT;
    if (!f || bad_map || own_partial(ctx, map, tids, ntids, how, per_thread, f, &part) != 0)
        cli_part_fail(&part, NULL);
    const cli_part_kind *kind = cli_xray_convert_profile(how) ? &profile_kind : &folded_kind;
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
