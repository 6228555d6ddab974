/* Callgrind profiles read by a team (src/cli/team.h, tracekit-mpi). A report's members send
 * the summary partial of their inputs (tk_prof_partial_serialize, read on --jobs threads:
 * parallel.c), merged along the tree (tk_prof_partial_merge). A merge (and a report of one
 * part) needs the whole profile: each member reads its inputs into one profile, as tracekit
 * reads them all, and sends it as callgrind text (tk_callgrind_write, read back by
 * tk_callgrind_read_buffer: a round trip loses nothing); two such partials merge by reading
 * the later one after the earlier into one profile, as the files themselves would be read.
 * What reading the members' files noted travels beside either, for the root to print and
 * keep in input order. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"
#include "team.h"

/* ---- bytes: a growing buffer, and a profile written into one -------------------------- */

typedef struct bytes {
    uint8_t *data;
    size_t size, cap;
    int failed;
} bytes;

static int put(void *ctx, const void *data, size_t len)
{
    bytes *b = ctx;
    if (b->failed) return -1;
    if (b->size + len > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->size + len) cap *= 2;
        uint8_t *d = realloc(b->data, cap);
        if (!d) {
            b->failed = 1;
            return -1;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->size, data, len);
    b->size += len;
    return 0;
}

/* p as callgrind text into a partial. Returns 0, or -1 with the message in msg. */
static int profile_bytes(const tk_profile *p, cli_part_bytes *out, char *msg)
{
    bytes b = {NULL, 0, 0, 0};
    tk_error err;
    tk_error_clear(&err);
    tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    tk_status st = tk_callgrind_write(p, &(tk_writer){put, &b}, &wo, &err);
    if (st != TK_OK || b.failed) {
        free(b.data);
        snprintf(msg, CLI_TEAM_MSG, "writing a profile's partial: %.400s",
                 b.failed ? "out of memory" : err.message);
        return -1;
    }
    cli_part_set(out, CLI_PART_DATA, b.data, b.size);
    return 0;
}

/* ---- the partials' merge ---------------------------------------------------------------- */

static void drop_note(void *ctx, tk_severity sev, const tk_location *loc, const char *message)
{
    (void)ctx, (void)sev, (void)loc, (void)message; /* said when the file itself was read */
}

/* The options a partial is read and written with: `how`'s, but with every call kept (a
 * profile whose calls are only counted writes no calls). */
static tk_callgrind_read_options partial_options(const tk_callgrind_read_options *how)
{
    tk_callgrind_read_options o = *how;
    o.call_counts_only = 0;
    return o;
}

/* Read partial bytes into p (after its parts) as `how` reads the inputs. */
static tk_status read_part(tk_profile *p, const tk_callgrind_read_options *how,
                           const cli_part_bytes *b, tk_error *err)
{
    tk_diag quiet;
    tk_diag_init(&quiet, drop_note, NULL);
    tk_callgrind_read_options o = *how;
    o.path = "(a partial profile)";
    o.notes = &quiet;
    return tk_callgrind_read_buffer(p, (const char *)b->data, b->size, &o, err);
}

/* cli_merge_fn: the profile of every part's bytes read in order into one, as bytes. */
static int merge_profiles(void *arg, cli_part_bytes *parts, size_t n, char *msg)
{
    tk_callgrind_read_options how = partial_options(arg);
    tk_profile *p = NULL;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_profile_open(&p, &err);
    for (size_t k = 0; k < n && st == TK_OK; k++) st = read_part(p, &how, &parts[k], &err);
    for (size_t k = 1; k < n; k++) cli_part_free(&parts[k]);
    int rc = -1;
    if (st != TK_OK)
        snprintf(msg, CLI_TEAM_MSG, "reading a profile's partial: %.400s", err.message);
    else {
        cli_part_bytes merged = {CLI_PART_EMPTY, NULL, 0};
        rc = profile_bytes(p, &merged, msg);
        if (rc == 0) {
            cli_part_free(&parts[0]);
            parts[0] = merged;
        }
    }
    tk_profile_free(p);
    return rc;
}

/* ---- the load --------------------------------------------------------------------------- */

/* What reading this member's inputs noted, as the bytes to send. */
static void notes_part_of(cli_callgrind_noted *n, cli_part_bytes *out)
{
    cli_part_set(out, n->size ? CLI_PART_DATA : CLI_PART_EMPTY, n->data, n->size);
    if (n->failed) {
        cli_part_free(out);
        cli_part_fail(out, NULL);
    }
    memset(n, 0, sizeof *n);
}

/* This member's inputs into one profile (as load_with reads them, the notes into n), and its
 * partial (failed: the root says why). */
static void own_partial(cli_ctx *ctx, const tk_callgrind_read_options *how, cli_callgrind_noted *n,
                        cli_part_bytes *part)
{
    memset(part, 0, sizeof *part);
    tk_diag sink;
    cli_callgrind_noted_sink(&sink, n);
    tk_error err;
    tk_error_clear(&err);
    tk_profile *p = NULL;
    if (tk_profile_open(&p, &err) != TK_OK) {
        cli_part_fail(part, NULL);
        return;
    }
    for (int i = ctx->lo; i < ctx->hi; i++) {
        tk_callgrind_read_options o = partial_options(how);
        o.path = ctx->paths[i];
        o.notes = &sink;
        if ((!ctx->inputs[i] &&
             tk_input_open(&ctx->inputs[i], ctx->paths[i], &ctx->input_opt, &err) != TK_OK) ||
            tk_callgrind_read_input(p, ctx->inputs[i], &o, &err) != TK_OK) {
            cli_part_fail(part, NULL);
            tk_profile_free(p);
            return;
        }
    }
    char msg[CLI_TEAM_MSG];
    if (ctx->hi > ctx->lo && profile_bytes(p, part, msg) != 0) cli_part_fail(part, NULL);
    tk_profile_free(p);
}

/* What failed is said as tracekit says it: the root reads every input itself, in order (the
 * notes up to the input that fails, and its error; an error of a merge, such as events that
 * differ, is then that of the file that brings them). Returns an exit code. */
static int root_alone(cli_ctx *ctx, const tk_callgrind_read_options *how,
                      cli_callgrind_notes *notes, tk_profile **out)
{
    int rc = cli_team_reopen_all(ctx); /* its own were read: anew */
    return rc == CLI_EXIT_OK ? cli_callgrind_load_range(ctx, how, notes, out) : rc;
}

/* At the root: the notes and the profile, or what failed. Returns an exit code. */
static int root_result(cli_ctx *ctx, const tk_callgrind_read_options *how, cli_part_bytes *part,
                       const cli_part_bytes *notes_part, cli_callgrind_notes *notes,
                       tk_profile **out)
{
    if (part->state == CLI_PART_FAILED || notes_part->state == CLI_PART_FAILED)
        return root_alone(ctx, how, notes, out);
    cli_callgrind_noted_say(notes_part->data, notes_part->size, notes);
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_profile_open(out, &err);
    if (st == TK_OK && part->state == CLI_PART_DATA) st = read_part(*out, how, part, &err);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

int cli_callgrind_team_load(cli_ctx *ctx, const tk_callgrind_read_options *how,
                            cli_callgrind_notes *notes, tk_profile **out)
{
    const cli_team *t = ctx->team;
    cli_callgrind_noted n = {NULL, 0, 0, 0};
    cli_part_bytes part, notes_part;
    own_partial(ctx, how, &n, &part);
    int rc = CLI_EXIT_OK;
    notes_part_of(&n, &notes_part);
    if (t->reduce(t, &part, merge_profiles, (void *)how) != 0 ||
        t->reduce(t, &notes_part, cli_part_concat, NULL) != 0)
        rc = CLI_EXIT_BAD_INPUT;
    else if (t->rank == 0)
        rc = root_result(ctx, how, &part, &notes_part, notes, out);
    cli_part_free(&part);
    cli_part_free(&notes_part);
    return rc;
}

/* ---- a report's summary partials ------------------------------------------------------- */

CLI_PART_KIND(summary_kind, "summary partials", tk_prof_partial, tk_prof_partial);

/* This member's summary partial as bytes to send (failed: the root reads every input). */
static void own_summary(cli_ctx *ctx, const tk_callgrind_read_options *how,
                        const tk_prof_partial_options *po, unsigned jobs, cli_callgrind_noted *n,
                        cli_part_bytes *part)
{
    memset(part, 0, sizeof *part);
    tk_prof_partial *pp = NULL;
    uint8_t *data = NULL;
    size_t size = 0;
    if (cli_callgrind_own_partial(ctx, how, po, jobs, &pp, n) != 0)
        cli_part_fail(part, NULL);
    else if (pp && (tk_prof_partial_serialize(pp, &data, &size, NULL) != TK_OK ||
                    cli_part_take(data, size, part) != 0))
        cli_part_fail(part, NULL);
    tk_prof_partial_free(pp);
}

int cli_callgrind_team_summary(cli_ctx *ctx, const tk_callgrind_read_options *how,
                               const tk_prof_partial_options *po, unsigned jobs,
                               cli_callgrind_notes *notes, tk_prof_partial **pp, tk_profile **p)
{
    const cli_team *t = ctx->team;
    cli_callgrind_noted n = {NULL, 0, 0, 0};
    cli_part_bytes part, notes_part;
    own_summary(ctx, how, po, jobs, &n, &part);
    notes_part_of(&n, &notes_part);
    int rc = CLI_EXIT_OK;
    if (t->reduce(t, &part, cli_part_merge, (void *)&summary_kind) != 0 ||
        t->reduce(t, &notes_part, cli_part_concat, NULL) != 0) {
        rc = CLI_EXIT_BAD_INPUT;
    } else if (t->rank == 0) {
        tk_status st = TK_OK;
        if (part.state == CLI_PART_DATA)
            st = tk_prof_partial_deserialize(pp, part.data, part.size, NULL);
        if (st == TK_OK && *pp) st = tk_prof_partial_check(*pp, NULL);
        if (part.state == CLI_PART_FAILED || notes_part.state == CLI_PART_FAILED ||
            st != TK_OK) { /* what failed, said as tracekit says it: the root reads them all */
            tk_prof_partial_free(*pp);
            *pp = NULL;
            rc = root_alone(ctx, how, notes, p);
        } else {
            cli_callgrind_noted_say(notes_part.data, notes_part.size, notes);
        }
    }
    cli_part_free(&part);
    cli_part_free(&notes_part);
    return rc;
}
