/* tracekit-mpi's team (src/cli/team.h) over MPI: the ranks of MPI_COMM_WORLD are the members,
 * rank 0 the root. Partials are reduced along a tree of MPI_Gatherv: at level L the ranks
 * that are multiples of fanin^L form groups of `fanin` consecutive ones (a communicator of
 * each group, made once by MPI_Comm_split); each group's first rank gathers the others'
 * serialised partials and merges them in rank order. Every MPI call returns its error
 * (MPI_ERRORS_RETURN), which ends the job: the rank says what failed and calls MPI_Abort. */
#include <limits.h>
#include <stdarg.h>
#include <sys/resource.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "team_mpi.h"

/* A rank cannot go on: what failed on the real standard error, then the job ends. */
static void fatal(const mpi_team *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fatal(const mpi_team *m, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (m->err) {
        fprintf(m->err, "tracekit-mpi: rank %d: error: %s\n", m->team.rank, msg);
        fflush(m->err);
    }
    MPI_Abort(m->world, CLI_EXIT_BAD_INPUT);
}

/* 0 when rc is MPI_SUCCESS, else fatal. */
static int check(const mpi_team *m, int rc, const char *call)
{
    if (rc == MPI_SUCCESS) return 0;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    fatal(m, "%s: %.*s", call, len, text);
    return -1;
}

/* A byte count as MPI's int, else fatal. */
static int count_of(const mpi_team *m, size_t n, const char *what)
{
    if (n > INT_MAX) {
        fatal(m, "%s of %zu bytes: over the 2 GiB that one MPI message carries", what, n);
        return -1;
    }
    return (int)n;
}

static const mpi_team *impl(const cli_team *t) { return t->impl; }

static int team_bcast(const cli_team *t, void *buf, size_t n)
{
    const mpi_team *m = impl(t);
    int c = count_of(m, n, "a broadcast");
    return c < 0 ? -1 : check(m, MPI_Bcast(buf, c, MPI_BYTE, 0, m->world), "MPI_Bcast");
}

static int team_max(const cli_team *t, int *v)
{
    const mpi_team *m = impl(t);
    return check(m, MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_INT, MPI_MAX, m->world), "MPI_Allreduce");
}

static int team_gather(const cli_team *t, void *items, size_t item, int lo, int hi)
{
    mpi_team *m = t->impl;
    if (!m->gathers++) m->inputs = hi - lo;
    int range[2] = {lo, hi}, *all = NULL, *counts = NULL, *displs = NULL;
    int root = t->rank == 0, rc = 0;
    if (root) {
        all = calloc((size_t)t->size * 4, sizeof *all);
        if (!all) fatal(m, "out of memory");
        counts = all + 2 * t->size;
        displs = counts + t->size;
    }
    rc = check(m, MPI_Gather(range, 2, MPI_INT, all, 2, MPI_INT, 0, m->world), "MPI_Gather");
    for (int r = 0; root && rc == 0 && r < t->size; r++) {
        counts[r] = count_of(m, (size_t)(all[2 * r + 1] - all[2 * r]) * item, "a gather");
        displs[r] = count_of(m, (size_t)all[2 * r] * item, "a gather");
    }
    char *mine = (char *)items + (size_t)lo * item;
    int n = count_of(m, (size_t)(hi - lo) * item, "a gather");
    if (rc == 0)
        rc = check(m,
                   MPI_Gatherv(root ? MPI_IN_PLACE : mine, n, MPI_BYTE, items, counts, displs,
                               MPI_BYTE, 0, m->world),
                   "MPI_Gatherv");
    free(all);
    return rc;
}

/* The group's partials in rank order (p first, then got[0..n), their data given over) as one
 * into p: the first failure (that says something, else the first) wins; the empty ones count
 * for nothing; the rest are merged at once. */
static void fold(cli_part_bytes *p, cli_part_bytes *got, size_t n, cli_merge_fn merge, void *arg)
{
    cli_part_bytes *all = malloc((n + 1) * sizeof *all);
    size_t k = 0, failed = n + 1;
    if (!all) {
        for (size_t i = 0; i < n; i++) cli_part_free(&got[i]);
        cli_part_free(p);
        cli_part_fail(p, "out of memory");
        return;
    }
    all[k++] = *p;
    for (size_t i = 0; i < n; i++) all[k++] = got[i];
    for (size_t i = 0; i < k; i++)
        if (all[i].state == CLI_PART_FAILED && (failed > n || (!all[failed].size && all[i].size)))
            failed = i;
    size_t m = 0; /* the data ones, to the front */
    for (size_t i = 0; i < k; i++) {
        if (failed <= n && i == failed) continue;
        if (failed > n && all[i].state == CLI_PART_DATA)
            all[m++] = all[i];
        else
            cli_part_free(&all[i]);
    }
    char msg[CLI_TEAM_MSG];
    if (failed <= n)
        *p = all[failed];
    else if (m == 0)
        memset(p, 0, sizeof *p);
    else if (m == 1 || merge(arg, all, m, msg) == 0)
        *p = all[0];
    else {
        for (size_t i = 0; i < m; i++) cli_part_free(&all[i]);
        cli_part_fail(p, msg);
    }
    free(all);
}

/* Group g's partials to its first rank, merged there in rank order (the others' p emptied). */
static int gather_group(const mpi_team *m, MPI_Comm g, cli_part_bytes *p, cli_merge_fn merge,
                        void *arg)
{
    int grank, gsize;
    if (check(m, MPI_Comm_rank(g, &grank), "MPI_Comm_rank") ||
        check(m, MPI_Comm_size(g, &gsize), "MPI_Comm_size"))
        return -1;
    long long head[2] = {p->state, (long long)p->size}, *heads = NULL;
    int *counts = NULL, *displs = NULL;
    char *buf = NULL;
    if (grank == 0) {
        heads = calloc((size_t)gsize * 2, sizeof *heads);
        counts = calloc((size_t)gsize * 2, sizeof *counts);
        if (!heads || !counts) fatal(m, "out of memory");
        displs = counts + gsize;
    }
    if (check(m, MPI_Gather(head, 2, MPI_LONG_LONG, heads, 2, MPI_LONG_LONG, 0, g), "MPI_Gather"))
        return -1;
    size_t total = 0;
    if (grank == 0) {
        for (int r = 0; r < gsize; r++) {
            displs[r] = count_of(m, total, "the partials gathered");
            counts[r] = r ? count_of(m, (size_t)heads[2 * r + 1], "a partial") : 0;
            total += r ? (size_t)heads[2 * r + 1] : 0;
        }
        if (!(buf = malloc(total ? total : 1)))
            fatal(m, "out of memory (%zu bytes of partials)", total);
    }
    int n = grank ? count_of(m, p->size, "a partial") : 0;
    if (check(m, MPI_Gatherv(p->data, n, MPI_BYTE, buf, counts, displs, MPI_BYTE, 0, g),
              "MPI_Gatherv"))
        return -1;
    cli_part_bytes *got = grank == 0 ? calloc((size_t)gsize, sizeof *got) : NULL;
    if (grank == 0 && !got) fatal(m, "out of memory");
    for (int r = 1; grank == 0 && r < gsize; r++) {
        cli_part_bytes *q = &got[r - 1];
        *q = (cli_part_bytes){(cli_part_state)heads[2 * r], NULL, (size_t)heads[2 * r + 1]};
        if (q->size && !(q->data = malloc(q->size))) fatal(m, "out of memory");
        if (q->size) memcpy(q->data, buf + displs[r], q->size);
    }
    if (grank == 0) fold(p, got, (size_t)gsize - 1, merge, arg);
    free(got);
    if (grank != 0) cli_part_free(p);
    free(buf);
    free(heads);
    free(counts);
    return 0;
}

static int team_reduce(const cli_team *t, cli_part_bytes *p, cli_merge_fn merge, void *arg)
{
    mpi_team *m = t->impl;
    double t0 = MPI_Wtime();
    if (!m->reductions++) m->first_reduce = t0;
    for (int level = 0; level < m->levels; level++)
        if (m->level[level] != MPI_COMM_NULL &&
            gather_group(m, m->level[level], p, merge, arg) != 0)
            return -1;
    m->reducing += MPI_Wtime() - t0;
    return 0;
}

/* The tag of a walk's messages (the only point-to-point ones: in order between two ranks). */
enum { CHAIN_TAG = 7 };

static int team_chain(const cli_team *t, void *state, size_t n, cli_chain_fn step, void *arg)
{
    const mpi_team *m = impl(t);
    int c = count_of(m, n, "a walk's state");
    if (c < 0) return -1;
    if (t->rank > 0 &&
        check(m, MPI_Recv(state, c, MPI_BYTE, t->rank - 1, CHAIN_TAG, m->world, MPI_STATUS_IGNORE),
              "MPI_Recv"))
        return -1;
    step(arg, state);
    if (t->rank + 1 < t->size &&
        check(m, MPI_Send(state, c, MPI_BYTE, t->rank + 1, CHAIN_TAG, m->world), "MPI_Send"))
        return -1;
    return 0;
}

void cli_mpi_team_times(const mpi_team *m)
{
    int inputs = m->inputs;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double end = MPI_Wtime();
    double read = (m->reductions ? m->first_reduce : end) - m->start;
    double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    fprintf(m->err,
            "tracekit-mpi: rank %d: %d input%s read in %.3f s, reductions %.3f s "
            "(%d level%s of fan-in %d), total %.3f s, peak memory %.1f MB, CPU %.3f s\n",
            m->team.rank, inputs, inputs == 1 ? "" : "s", read, m->reducing, m->levels,
            m->levels == 1 ? "" : "s", m->fanin, end - m->start, ru.ru_maxrss / 1024.0, cpu);
    fflush(m->err);
}

int cli_mpi_team_open(mpi_team *m, int fanin, FILE *err)
{
    memset(m, 0, sizeof *m);
    m->err = err;
    m->start = MPI_Wtime();
    m->fanin = fanin < 2 ? 2 : fanin;
    if (MPI_Comm_dup(MPI_COMM_WORLD, &m->world) != MPI_SUCCESS) return -1;
    MPI_Comm_set_errhandler(m->world, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    cli_team *t = &m->team;
    if (check(m, MPI_Comm_rank(m->world, &t->rank), "MPI_Comm_rank") ||
        check(m, MPI_Comm_size(m->world, &t->size), "MPI_Comm_size"))
        return -1;
    for (long long span = 1; span < t->size && m->levels < MPI_TEAM_LEVELS; span *= m->fanin) {
        int color = t->rank % span == 0 ? (int)(t->rank / (span * m->fanin)) : MPI_UNDEFINED;
        if (check(m, MPI_Comm_split(m->world, color, t->rank, &m->level[m->levels]),
                  "MPI_Comm_split"))
            return -1;
        MPI_Comm g = m->level[m->levels++];
        if (g != MPI_COMM_NULL) MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
    }
    t->impl = m;
    t->bcast = team_bcast;
    t->max = team_max;
    t->gather = team_gather;
    t->reduce = team_reduce;
    t->chain = team_chain;
    return 0;
}

int cli_mpi_team_run(mpi_team *m, int argc, char **argv)
{
    /* a generic command runs on every rank (dispatch.c splits its work or gives it to rank
     * 0); a command of its own, help and the usage on rank 0 alone */
    const cli_command *c = argc > 1 ? cli_command_find(argv[1]) : NULL;
    int rc = m->team.rank == 0 || (c && !c->run) ? cli_main(argc, argv) : CLI_EXIT_OK;
    fflush(stdout);
    m->team.max(&m->team, &rc); /* the job's status: the worst of the ranks' */
    return rc;
}

void cli_mpi_team_close(mpi_team *m)
{
    for (int level = 0; level < m->levels; level++)
        if (m->level[level] != MPI_COMM_NULL) MPI_Comm_free(&m->level[level]);
    MPI_Comm_free(&m->world);
}
