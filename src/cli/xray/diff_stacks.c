/* tracekit diff --format folded and svg of XRay traces: both sides' folded stacks side by side
 * (difffolded.pl's "stack A B" lines), or their differential flame graph. Of two traces, each
 * trace's stacks; of two sets (A... --vs B...), each side's stacks are those `tracekit convert
 * --to folded` writes of its traces (tk_folded_partial: each trace's on one of -j threads,
 * merged in order, or with -j 1 the traces chained), so the lines are the diff of the two
 * sides' folded files. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "team.h"
#include "xray.h"

/* diff --format folded: the rows of d as lines "stack COUNT_A COUNT_B" */
static void print_folded(FILE *f, const tk_prof_folded_diff *d)
{
    for (size_t i = 0; i < tk_prof_folded_diff_count(d); i++) {
        const tk_prof_folded_diff_row *r = tk_prof_folded_diff_row_at(d, i);
        fwrite(r->stack, 1, r->len, f);
        fprintf(f, " %" PRIu64 " %" PRIu64 "\n", r->count[0], r->count[1]);
    }
}

/* diff --format svg: those lines drawn as a differential flame graph */
static tk_status folded_of(void *job, FILE *f, tk_error *err)
{
    (void)err;
    print_folded(f, job);
    return TK_OK;
}

/* d written to -o as format says, its weights in unit (svg). Returns an exit code. */
static int write_stacks(cli_ctx *ctx, const cli_args *args, int format, const char *unit,
                        tk_prof_folded_diff *d)
{
    tk_output *out = NULL;
    int rc = cli_output_open(args, 0, &out);
    if (rc != CLI_EXIT_OK) return rc;
    FILE *f = cli_output_file(out);
    if (format == CLI_OUT_FOLDED)
        print_folded(f, d);
    else
        rc = cli_write_svg(ctx->command, args, unit, folded_of, d, f);
    if (rc == CLI_EXIT_OK)
        rc = cli_output_commit(out);
    else
        cli_output_abort(out);
    return rc;
}

static const char *unit_of(tk_folded_weight weight, double ticks_per_second)
{
    return weight == TK_FOLDED_CALLS ? "calls" : ticks_per_second > 0 ? "ns" : "ticks";
}

/* Two traces: both read at once (with --instr-map, each named by it) into their folded stacks
 * side by side. Returns an exit code. */
static int diff_two(cli_ctx *ctx, const cli_args *args, int format, tk_folded_weight weight)
{
    cli_xray_session s[2];
    int rc = cli_xray_session_open(ctx, args, 0, 1, 1, &s[0]);
    if (rc != CLI_EXIT_OK) return rc;
    if ((rc = cli_xray_session_open(ctx, args, 1, 1, 1, &s[1])) != CLI_EXIT_OK) {
        cli_xray_session_close(&s[0]);
        return rc;
    }
    tk_error err;
    tk_error_clear(&err);
    tk_prof_folded_diff *d = NULL;
    if (tk_prof_folded_diff_open_events(&d, &s[0].src, &s[1].src, weight, &err) != TK_OK)
        rc = cli_error(&err);
    for (int i = 0; i < 2 && rc == CLI_EXIT_OK; i++) {
        cli_xray_warn_unknown_ids(&s[i], ctx->paths[i]);
        cli_xray_warn_truncation(&s[i], ctx->paths[i]);
    }
    if (rc == CLI_EXIT_OK)
        rc = write_stacks(ctx, args, format, unit_of(weight, s[1].src.ticks_per_second), d);
    tk_prof_folded_diff_free(d);
    cli_xray_session_close(&s[0]);
    cli_xray_session_close(&s[1]);
    return rc;
}

/* ---- two sets ------------------------------------------------------------------------------ */

/* One side: its traces (cli_diff_side) and their folded stacks. */
typedef struct side {
    cli_ctx set;
    tk_folded_partial *stacks;
    double ticks_per_second; /* its first trace's clock */
    cli_xray_found *found; /* read on -j threads: what each trace found (the map's, map) */
    tk_xray_map *map;
    cli_xray_session *s; /* else chained: each trace's session, open until its warnings */
    int ns;
} side;

static void side_free(side *x)
{
    tk_folded_partial_free(x->stacks);
    free(x->found);
    tk_xray_map_free(x->map);
    for (int k = 0; k < x->ns; k++) cli_xray_session_close(&x->s[k]);
    free(x->s);
    memset(x, 0, sizeof *x);
}

/* The side's traces each read into its stacks on how->jobs threads, merged in order, quietly.
 * 0, or -1 (nothing kept: the traces are read again chained, which says what failed). */
static int side_jobs(side *x, const cli_args *args, const cli_xray_convert_how *how)
{
    int64_t tids[CLI_XRAY_MAX_THREADS];
    size_t ntids = 0;
    const char *bin = cli_get(args, "instr-map");
    if (!cli_xray_reopenable(&x->set) || cli_xray_thread_ids_quiet(args, tids, &ntids) != 0 ||
        (bin && tk_xray_map_read(&x->map, bin, NULL) != TK_OK))
        return -1;
    x->found = calloc((size_t)x->set.ninputs, sizeof *x->found);
    cli_xray_partial acc;
    if (!x->found || cli_xray_read_partials(&x->set, 0, x->set.ninputs, x->map, tids, ntids, how, 0,
                                            &acc, x->found) != 0)
        return -1;
    x->stacks = acc.stacks;
    x->ticks_per_second = x->found[0].ticks_per_second;
    return 0;
}

/* The side's traces chained into one source (tk_event_chain_init, as convert chains them),
 * its stacks read from it; the errors printed as convert prints them. Returns an exit code. */
static int side_chained(side *x, const cli_args *args, tk_folded_weight weight)
{
    cli_ctx *set = &x->set;
    x->s = calloc((size_t)set->ninputs, sizeof *x->s);
    tk_event_source *srcs = calloc((size_t)set->ninputs, sizeof *srcs);
    int rc = x->s && srcs ? CLI_EXIT_OK : CLI_EXIT_BAD_INPUT;
    if (rc != CLI_EXIT_OK) fprintf(stderr, "tracekit: error: out of memory\n");
    for (; rc == CLI_EXIT_OK && x->ns < set->ninputs; x->ns++) {
        rc = cli_xray_session_open(set, args, x->ns, 1, 1, &x->s[x->ns]);
        if (rc == CLI_EXIT_OK) srcs[x->ns] = x->s[x->ns].src;
    }
    tk_event_chain chain;
    tk_event_source src;
    tk_error err;
    tk_error_clear(&err);
    if (rc == CLI_EXIT_OK &&
        tk_event_chain_init(&chain, srcs, (size_t)set->ninputs, &src, &err) != TK_OK) {
        fprintf(stderr,
                "tracekit: %s: error: its clock is not that of %s: only traces of one "
                "clock are merged\n",
                set->paths[chain.cur], set->paths[0]);
        rc = CLI_EXIT_BAD_INPUT;
    }
    if (rc == CLI_EXIT_OK && tk_folded_partial_open(&x->stacks, &src, weight, 0, &err) != TK_OK)
        rc = cli_error(&err);
    if (rc == CLI_EXIT_OK) x->ticks_per_second = src.ticks_per_second;
    free(srcs);
    return rc;
}

/* Side `which` of ctx read: on -j threads where that can be done, else (or when that failed)
 * chained. Returns an exit code. */
static int side_read(cli_ctx *ctx, const cli_args *args, const cli_xray_convert_how *how, int which,
                     side *x)
{
    memset(x, 0, sizeof *x);
    x->set = cli_diff_side(ctx, which);
    if (how->jobs > 1 && x->set.ninputs > 1) {
        if (side_jobs(x, args, how) == 0) return CLI_EXIT_OK;
        side_free(x);
        x->set = cli_diff_side(ctx, which);
        int rc = cli_team_reopen_all(&x->set); /* read: anew */
        if (rc != CLI_EXIT_OK) return rc;
    }
    return side_chained(x, args, how->weight);
}

/* Each trace's warnings (cut short, ids the map lacks), A's traces then B's. */
static void warn_sides(const side *x)
{
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < x[i].set.ninputs; k++) {
            if (x[i].found) {
                cli_xray_found_warn(&x[i].found[k], x[i].map, x[i].set.paths[k]);
                continue;
            }
            cli_xray_warn_truncation(&x[i].s[k], x[i].set.paths[k]);
            cli_xray_warn_unknown_ids(&x[i].s[k], x[i].set.paths[k]);
        }
}

/* A... --vs B...: each side's stacks as convert --to folded makes those of its traces, A's
 * read before B's, side by side. Returns an exit code. */
static int diff_sets(cli_ctx *ctx, const cli_args *args, int format, tk_folded_weight weight)
{
    cli_xray_convert_how how;
    memset(&how, 0, sizeof how);
    how.target = CLI_XRAY_TO_FOLDED;
    how.weight = weight;
    if (cli_xray_jobs(ctx, args, &how.jobs) != 0) return CLI_EXIT_USAGE;
    side x[2];
    memset(x, 0, sizeof x);
    int rc = side_read(ctx, args, &how, 0, &x[0]);
    if (rc == CLI_EXIT_OK) rc = side_read(ctx, args, &how, 1, &x[1]);
    tk_error err;
    tk_error_clear(&err);
    tk_prof_folded_diff *d = NULL;
    if (rc == CLI_EXIT_OK &&
        tk_prof_folded_diff_open_partials(&d, x[0].stacks, x[1].stacks, &err) != TK_OK)
        rc = cli_error(&err);
    if (rc == CLI_EXIT_OK) {
        warn_sides(x);
        rc = write_stacks(ctx, args, format, unit_of(weight, x[1].ticks_per_second), d);
    }
    tk_prof_folded_diff_free(d);
    side_free(&x[0]);
    side_free(&x[1]);
    return rc;
}

int cli_xray_diff_stacks(cli_ctx *ctx, const cli_args *args, int format, tk_folded_weight weight,
                         int sets)
{
    return sets ? diff_sets(ctx, args, format, weight) : diff_two(ctx, args, format, weight);
}
