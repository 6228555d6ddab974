/* tracekit merge for DCFGs of one program: every input's counts summed over the union of their
 * graphs (tracekit/dcfg_counts.h: the first DCFG with the sums when the others add nothing
 * to its graph). The inputs are read on --jobs threads, each into its counts partial (its
 * graph freed at once but the first's), merged in input order; in a team (tracekit-mpi) each
 * member sends the partial of its inputs, merged along the tree, and the root makes the
 * merged DCFG of it. When reading or merging fails, the inputs are read again one after the
 * other, which says what failed as it always does. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dcfg.h"
#include "team.h"

const cli_opt cli_dcfg_merge_opts[] = {
    {"output", 'o', "FILE", "write the merged DCFG to FILE (default: standard output)"},
    {"force", 'f', NULL, "overwrite FILE"},
    {"jobs", 'j', "N", "read N DCFGs at once (default: the number of CPUs)"},
    {NULL, 0, NULL, NULL},
};

/* One input being read: its graph (kept for the first input only), its counts. */
typedef struct slot {
    cli_ctx *ctx;
    int i, keep;
    tk_cfg *cfg;
    tk_dcfg_counts *counts;
    tk_status st;
    tk_error err;
} slot;

/* Input i into a graph, as cli_dcfg_read reads it, its error kept (not printed). */
static tk_status read_graph(cli_ctx *ctx, int i, tk_cfg **out, tk_error *err)
{
    tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
    struct stat sb;
    if (strcmp(ctx->paths[i], "-") != 0 && stat(ctx->paths[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
        tk_input_free(ctx->inputs[i]); /* read by path: mapped, released behind the reader */
        ctx->inputs[i] = NULL;
        o.input = &ctx->input_opt;
        return tk_dcfg_read_path(out, ctx->paths[i], &o, err);
    }
    return tk_dcfg_read(out, ctx->inputs[i], &o, err);
}

static void *read_slot(void *arg)
{
    slot *s = arg;
    tk_error_clear(&s->err);
    s->st = read_graph(s->ctx, s->i, &s->cfg, &s->err);
    if (s->st == TK_OK)
        s->st = tk_dcfg_counts_open(&s->counts, s->cfg, s->ctx->paths[s->i], &s->err);
    if (!s->keep || s->st != TK_OK) {
        tk_cfg_free(s->cfg);
        s->cfg = NULL;
    }
    return NULL;
}

/* Slot s merged into *acc (the first one becomes it); its error into err. 0 or -1. */
static int merge_slot(slot *s, tk_cfg **first, tk_dcfg_counts **acc, tk_error *err)
{
    if (s->st != TK_OK) {
        *err = s->err;
        return -1;
    }
    if (s->cfg) *first = s->cfg;
    if (!*acc) {
        *acc = s->counts;
        return 0;
    }
    tk_status st = tk_dcfg_counts_merge(*acc, s->counts, err);
    tk_dcfg_counts_free(s->counts);
    return st == TK_OK ? 0 : -1;
}

/* Inputs [lo, hi) read jobs at a time and merged in order into *acc; the graph of input 0,
 * when it is among them, into *first. 0, or -1 with the first error in input order. */
static int read_range(cli_ctx *ctx, int lo, int hi, unsigned jobs, tk_cfg **first,
                      tk_dcfg_counts **acc, tk_error *err)
{
    *first = NULL;
    *acc = NULL;
    slot *s = calloc(jobs, sizeof *s);
    pthread_t *th = calloc(jobs, sizeof *th);
    int rc = s && th ? 0 : -1;
    if (rc) tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (int at = lo; rc == 0 && at < hi; at += (int)jobs) {
        int n = hi - at < (int)jobs ? hi - at : (int)jobs;
        int *started = calloc((size_t)n, sizeof *started);
        for (int k = 0; k < n; k++) {
            s[k] = (slot){ctx, at + k, at + k == 0, NULL, NULL, TK_OK, {0}};
            started[k] = k > 0 && started && pthread_create(&th[k], NULL, read_slot, &s[k]) == 0;
        }
        read_slot(&s[0]);
        for (int k = 1; k < n; k++) {
            if (started && started[k])
                pthread_join(th[k], NULL);
            else
                read_slot(&s[k]);
        }
        free(started);
        for (int k = 0; k < n; k++) {
            if (rc == 0) {
                rc = merge_slot(&s[k], first, acc, err);
            } else {
                tk_dcfg_counts_free(s[k].counts);
                tk_cfg_free(s[k].cfg);
            }
        }
    }
    free(s);
    free(th);
    if (rc) {
        tk_dcfg_counts_free(*acc);
        tk_cfg_free(*first);
        *acc = NULL;
        *first = NULL;
    }
    return rc;
}

/* The merged DCFG of the first graph and the merged counts, written to -o (or standard
 * output). */
static int write_merged(const cli_args *args, tk_cfg *first, const tk_dcfg_counts *acc)
{
    tk_error err;
    tk_error_clear(&err);
    tk_cfg *merged = NULL;
    if (tk_dcfg_counts_merged(first, acc, &merged, &err) != TK_OK) return cli_error(&err);
    tk_output *o;
    int rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        if (tk_dcfg_write(merged, CLI_WRITER(cli_output_file(o)), &err) != TK_OK) {
            cli_output_abort(o);
            rc = cli_error(&err);
        } else {
            rc = cli_output_commit(o);
        }
    }
    if (merged != first) tk_cfg_free(merged);
    return rc;
}

int cli_dcfg_merged(cli_ctx *ctx, unsigned jobs, tk_cfg **out)
{
    *out = NULL;
    tk_cfg *first, *merged = NULL;
    tk_dcfg_counts *acc;
    tk_error err;
    tk_error_clear(&err);
    if (read_range(ctx, 0, ctx->ninputs, jobs, &first, &acc, &err) != 0) return cli_error(&err);
    char *text = NULL;
    size_t len = 0;
    FILE *f = NULL;
    tk_status st = tk_dcfg_counts_merged(first, acc, &merged, &err);
    if (st == TK_OK && !(f = open_memstream(&text, &len)))
        st = tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) st = tk_dcfg_write(merged, CLI_WRITER(f), &err);
    if (f && fclose(f) != 0 && st == TK_OK) st = tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    if (merged != first) tk_cfg_free(merged);
    tk_cfg_free(first);
    tk_dcfg_counts_free(acc);
    tk_input *in = NULL;
    if (st == TK_OK) st = tk_input_open_memory(&in, text, len, ctx->paths[0], NULL, &err);
    tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
    if (st == TK_OK) st = tk_dcfg_read(out, in, &o, &err);
    tk_input_free(in);
    free(text);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

static int merge_alone(cli_ctx *ctx, const cli_args *args, unsigned jobs)
{
    tk_cfg *first;
    tk_dcfg_counts *acc;
    tk_error err;
    tk_error_clear(&err);
    if (read_range(ctx, 0, ctx->ninputs, jobs, &first, &acc, &err) != 0) return cli_error(&err);
    int rc = write_merged(args, first, acc);
    tk_dcfg_counts_free(acc);
    tk_cfg_free(first);
    return rc;
}

/* ---- in a team ---------------------------------------------------------------------------- */

CLI_PART_KIND(counts_kind, "DCFG counts", tk_dcfg_counts, tk_dcfg_counts);

static int merge_team(cli_ctx *ctx, const cli_args *args, unsigned jobs)
{
    const cli_team *t = ctx->team;
    tk_cfg *first = NULL;
    tk_dcfg_counts *acc = NULL;
    tk_error err;
    tk_error_clear(&err);
    cli_part_bytes part = {CLI_PART_EMPTY, NULL, 0};
    uint8_t *data;
    size_t size;
    if (read_range(ctx, ctx->lo, ctx->hi, jobs, &first, &acc, &err) != 0 ||
        (acc && (tk_dcfg_counts_serialize(acc, &data, &size, &err) != TK_OK ||
                 cli_part_take(data, size, &part) != 0)))
        cli_part_fail(&part, NULL);
    tk_dcfg_counts_free(acc);
    acc = NULL;
    int rc = CLI_EXIT_OK;
    if (t->reduce(t, &part, cli_part_merge, (void *)&counts_kind) != 0)
        rc = CLI_EXIT_BAD_INPUT;
    else if (t->rank == 0 && part.state == CLI_PART_DATA &&
             tk_dcfg_counts_deserialize(&acc, part.data, part.size, &err) == TK_OK &&
             (first || read_graph(ctx, 0, &first, &err) == TK_OK))
        rc = write_merged(args, first, acc);
    else if (t->rank == 0) { /* what failed, said as tracekit says it */
        rc = cli_team_reopen_all(ctx);
        if (rc == CLI_EXIT_OK) rc = merge_alone(ctx, args, jobs);
    }
    cli_part_free(&part);
    tk_dcfg_counts_free(acc);
    tk_cfg_free(first);
    return rc;
}

int cli_dcfg_merge(cli_ctx *ctx, const cli_args *args)
{
    unsigned jobs;
    if (cli_get_jobs(ctx->command, args, &jobs)) return CLI_EXIT_USAGE;
    return ctx->team ? merge_team(ctx, args, jobs) : merge_alone(ctx, args, jobs);
}
