/* The team commands run in (team.h): which one, and how the inputs are split across it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "team.h"

typedef unsigned __int128 u128; /* gcc and clang */

static const cli_team *current;

void cli_set_team(const cli_team *t) { current = t; }

const cli_team *cli_team_get(void) { return current; }

/* Input i goes to the member in whose share of the bytes its middle falls: the members'
 * ranges are contiguous (the middles grow with i) and each holds about total/members bytes.
 * Without any size known, the inputs are dealt out by count. */
void cli_team_split(int members, int n, const int64_t *sizes, int *first)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++) total += sizes[i] > 0 ? (uint64_t)sizes[i] : 0;
    int r = 0;
    uint64_t before = 0;
    first[0] = 0;
    for (int i = 0; i < n; i++) {
        uint64_t s = sizes[i] > 0 ? (uint64_t)sizes[i] : 0;
        /* the member of input i: floor(middle * members / total), in 128 bits (no overflow) */
        u128 mid = total ? (u128)before * 2 + s : (u128)i * 2 + 1;
        u128 all = total ? (u128)total * 2 : (u128)n * 2;
        int m = (int)(mid * (unsigned)members / all);
        if (m >= members) m = members - 1;
        while (r < m) first[++r] = i;
        before += s;
    }
    while (r < members) first[++r] = n;
}

int cli_team_writes(const cli_ctx *ctx) { return !ctx->team || ctx->team->rank == 0; }

void cli_part_set(cli_part_bytes *p, cli_part_state state, uint8_t *data, size_t size)
{
    p->state = state;
    p->data = data;
    p->size = data ? size : 0;
}

void cli_part_fail(cli_part_bytes *p, const char *message)
{
    size_t n = message ? strlen(message) : 0;
    p->state = CLI_PART_FAILED;
    p->data = n ? malloc(n) : NULL;
    p->size = p->data ? n : 0;
    if (p->data) memcpy(p->data, message, n);
}

int cli_part_take(uint8_t *data, size_t size, cli_part_bytes *p)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (copy) memcpy(copy, data, size);
    tk_free(data);
    if (!copy) return -1;
    cli_part_free(p);
    cli_part_set(p, CLI_PART_DATA, copy, size);
    return 0;
}

void cli_part_free(cli_part_bytes *p)
{
    free(p->data);
    p->data = NULL;
    p->size = 0;
    p->state = CLI_PART_EMPTY;
}

int cli_part_concat(void *arg, cli_part_bytes *parts, size_t n, char *msg)
{
    (void)arg;
    size_t total = 0;
    for (size_t k = 0; k < n; k++) total += parts[k].size;
    uint8_t *d = realloc(parts[0].data, total + 1);
    if (!d) {
        snprintf(msg, CLI_TEAM_MSG, "out of memory");
        return -1;
    }
    parts[0].data = d;
    for (size_t k = 1; k < n; k++) {
        memcpy(d + parts[0].size, parts[k].data, parts[k].size);
        parts[0].size += parts[k].size;
        cli_part_free(&parts[k]);
    }
    return 0;
}

int cli_part_merge(void *arg, cli_part_bytes *parts, size_t n, char *msg)
{
    const cli_part_kind *kind = arg;
    tk_error err;
    tk_error_clear(&err);
    void *a = NULL;
    tk_status st = kind->read(&a, parts[0].data, parts[0].size, &err);
    for (size_t k = 1; k < n && st == TK_OK; k++) {
        void *b = NULL;
        st = kind->read(&b, parts[k].data, parts[k].size, &err);
        if (st == TK_OK) st = kind->merge(a, b, &err);
        kind->free(b);
    }
    for (size_t k = 1; k < n; k++) cli_part_free(&parts[k]);
    uint8_t *data = NULL;
    size_t size = 0;
    if (st == TK_OK) st = kind->write(a, &data, &size, &err);
    kind->free(a);
    if (st != TK_OK || cli_part_take(data, size, &parts[0]) != 0) {
        snprintf(msg, CLI_TEAM_MSG, "merging %s: %.400s", kind->what,
                 st != TK_OK ? err.message : "out of memory");
        return -1;
    }
    return 0;
}

int cli_team_reopen_all(cli_ctx *ctx)
{
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_input_free(ctx->inputs[i]);
        ctx->inputs[i] = NULL;
        tk_error err;
        tk_error_clear(&err);
        if (tk_input_open(&ctx->inputs[i], ctx->paths[i], &ctx->input_opt, &err) != TK_OK)
            return cli_error(&err);
    }
    ctx->lo = 0;
    ctx->hi = ctx->ninputs;
    ctx->team = NULL;
    return CLI_EXIT_OK;
}

/* ---- a handler run on each member's inputs, its output and errors captured -------------- */

typedef struct capture {
    FILE *tmp[2];
    int saved[2];
} capture;

/* Standard output and error into temporary files. Returns 0 or -1. */
static int capture_begin(capture *c)
{
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++) {
        c->tmp[k] = tmpfile();
        c->saved[k] = dup(k + 1);
        if (!c->tmp[k] || c->saved[k] < 0 || dup2(fileno(c->tmp[k]), k + 1) < 0) return -1;
    }
    return 0;
}

/* Back to the streams before; what was written into out[0] (stdout) and out[1]. */
static void capture_end(capture *c, cli_part_bytes out[2])
{
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++) {
        memset(&out[k], 0, sizeof out[k]);
        if (c->saved[k] >= 0) {
            dup2(c->saved[k], k + 1);
            close(c->saved[k]);
        }
        if (!c->tmp[k]) continue;
        long n = fseek(c->tmp[k], 0, SEEK_END) == 0 ? ftell(c->tmp[k]) : -1;
        uint8_t *d = n >= 0 ? malloc((size_t)n + 1) : NULL;
        rewind(c->tmp[k]);
        if (!d || fread(d, 1, (size_t)n, c->tmp[k]) != (size_t)n) {
            free(d);
            cli_part_fail(&out[k], NULL);
        } else {
            cli_part_set(&out[k], n ? CLI_PART_DATA : CLI_PART_EMPTY, n ? d : NULL, (size_t)n);
            if (!n) free(d);
        }
        fclose(c->tmp[k]);
    }
}

/* run over this member's inputs alone, what it printed into out[2]. Returns its exit code. */
static int run_own(cli_ctx *ctx, cli_run_fn run, const cli_args *args, cli_part_bytes out[2])
{
    cli_ctx own = *ctx;
    own.inputs += ctx->lo;
    own.paths += ctx->lo;
    own.ninputs = ctx->hi - ctx->lo;
    own.lo = 0;
    own.hi = own.ninputs;
    own.team = NULL;
    own.progress = 0;
    memset(out, 0, 2 * sizeof *out);
    if (own.ninputs == 0) return CLI_EXIT_OK;
    capture c = {{NULL, NULL}, {-1, -1}};
    int rc = capture_begin(&c) == 0 ? run(&own, args) : CLI_EXIT_BAD_INPUT;
    capture_end(&c, out);
    return rc;
}

int cli_team_each(cli_ctx *ctx, cli_run_fn run, const cli_args *args, int stops)
{
    const cli_team *t = ctx->team;
    cli_part_bytes out[2];
    int rc = run_own(ctx, run, args, out);
    int worst = rc;
    if (t->max(t, &worst) != 0 || t->reduce(t, &out[0], cli_part_concat, NULL) != 0 ||
        t->reduce(t, &out[1], cli_part_concat, NULL) != 0) {
        cli_part_free(&out[0]);
        cli_part_free(&out[1]);
        return CLI_EXIT_BAD_INPUT;
    }
    int alone =
        t->rank == 0 && ((stops && worst != CLI_EXIT_OK) || out[0].state == CLI_PART_FAILED ||
                         out[1].state == CLI_PART_FAILED);
    if (alone) { /* what tracekit says, up to the input that fails: the root's run alone */
        rc = cli_team_reopen_all(ctx);
        rc = rc == CLI_EXIT_OK ? run(ctx, args) : rc;
    } else if (t->rank == 0) {
        fflush(stdout);
        if (out[0].size) fwrite(out[0].data, 1, out[0].size, stdout);
        fflush(stdout);
        if (out[1].size) fwrite(out[1].data, 1, out[1].size, stderr);
        rc = worst;
    }
    cli_part_free(&out[0]);
    cli_part_free(&out[1]);
    return rc;
}
