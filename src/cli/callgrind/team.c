/* Callgrind profiles read by a team (src/cli/team.h, tracekit-mpi): each member reads its
 * inputs into one profile, as tracekit reads them all; the partial it sends is that profile as
 * callgrind text (tk_callgrind_write, read back by tk_callgrind_read_buffer: a round trip
 * loses nothing), and two partials merge by reading the later one after the earlier into one
 * profile, as the files themselves would be read. What reading the members' files noted
 * travels beside it, for the root to print and keep after its own. */
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
    if (b->failed)
        return -1;
    if (b->size + len > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->size + len)
            cap *= 2;
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

static void put_u64(bytes *b, uint64_t v) { put(b, &v, sizeof v); }

static void put_str(bytes *b, const char *s)
{
    uint64_t n = s ? strlen(s) : 0;
    put_u64(b, n);
    put(b, s ? s : "", (size_t)n);
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
    for (size_t k = 0; k < n && st == TK_OK; k++)
        st = read_part(p, &how, &parts[k], &err);
    for (size_t k = 1; k < n; k++)
        cli_part_free(&parts[k]);
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

/* ---- the notes: a member's, as bytes; the root's, printed and kept ------------------- */

/* The notes of a member's inputs. */
typedef struct noted {
    bytes b;
} noted;

static void encode_note(void *ctx, tk_severity sev, const tk_location *loc, const char *message)
{
    (void)sev;
    noted *n = ctx;
    put_str(&n->b, loc->path);
    put_u64(&n->b, (uint64_t)loc->offset);
    put_u64(&n->b, loc->line);
    put_u64(&n->b, loc->column);
    put_str(&n->b, message);
}

typedef struct reader {
    const uint8_t *p, *end;
} reader;

static int get_u64(reader *r, uint64_t *v)
{
    if ((size_t)(r->end - r->p) < sizeof *v)
        return -1;
    memcpy(v, r->p, sizeof *v);
    r->p += sizeof *v;
    return 0;
}

/* A string of the notes into buf (NUL-terminated, cut to size). */
static int get_str(reader *r, char *buf, size_t size)
{
    uint64_t n;
    if (get_u64(r, &n) != 0 || n > (uint64_t)(r->end - r->p))
        return -1;
    size_t keep = n < size - 1 ? (size_t)n : size - 1;
    memcpy(buf, r->p, keep);
    buf[keep] = 0;
    r->p += n;
    return 0;
}

/* Every member's notes, in the order of their inputs: printed and kept as tracekit's sink
 * does while it reads. */
static void root_notes(const cli_part_bytes *b, cli_callgrind_notes *notes)
{
    reader r = {b->data, b->data + b->size};
    char path[TK_ERROR_PATH_MAX], message[TK_ERROR_MSG_MAX];
    tk_diag sink;
    cli_callgrind_notes_sink(&sink, notes);
    while (r.p < r.end) {
        uint64_t offset, line, column;
        if (get_str(&r, path, sizeof path) || get_u64(&r, &offset) ||
            get_u64(&r, &line) || get_u64(&r, &column) || get_str(&r, message, sizeof message))
            return; /* not what own_partial wrote: cannot happen */
        tk_location loc = {path, (int64_t)offset, line, column};
        sink.fn(sink.ctx, TK_SEV_WARNING, &loc, message);
    }
}

/* ---- the load --------------------------------------------------------------------------- */

/* This member's inputs into one profile (as load_with reads them, the notes into n), and its
 * partial (failed: the root says why). */
static void own_partial(cli_ctx *ctx, const tk_callgrind_read_options *how, noted *n,
                        cli_part_bytes *part)
{
    memset(part, 0, sizeof *part);
    tk_diag sink;
    tk_diag_init(&sink, encode_note, n);
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
        if (tk_callgrind_read_input(p, ctx->inputs[i], &o, &err) != TK_OK) {
            cli_part_fail(part, NULL);
            tk_profile_free(p);
            return;
        }
    }
    char msg[CLI_TEAM_MSG];
    if (ctx->hi > ctx->lo && profile_bytes(p, part, msg) != 0)
        cli_part_fail(part, NULL);
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
static int root_result(cli_ctx *ctx, const tk_callgrind_read_options *how,
                       cli_part_bytes *part, const cli_part_bytes *notes_part,
                       cli_callgrind_notes *notes, tk_profile **out)
{
    if (part->state == CLI_PART_FAILED || notes_part->state == CLI_PART_FAILED)
        return root_alone(ctx, how, notes, out);
    root_notes(notes_part, notes);
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_profile_open(out, &err);
    if (st == TK_OK && part->state == CLI_PART_DATA)
        st = read_part(*out, how, part, &err);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

int cli_callgrind_team_load(cli_ctx *ctx, const tk_callgrind_read_options *how,
                            cli_callgrind_notes *notes, tk_profile **out)
{
    const cli_team *t = ctx->team;
    noted n = {{NULL, 0, 0, 0}};
    cli_part_bytes part, notes_part;
    own_partial(ctx, how, &n, &part);
    cli_part_set(&notes_part, n.b.size ? CLI_PART_DATA : CLI_PART_EMPTY, n.b.data, n.b.size);
    int rc = CLI_EXIT_OK;
    if (n.b.failed)
        cli_part_fail(&notes_part, NULL);
    if (t->reduce(t, &part, merge_profiles, (void *)how) != 0 ||
        t->reduce(t, &notes_part, cli_part_concat, NULL) != 0)
        rc = CLI_EXIT_BAD_INPUT;
    else if (t->rank == 0)
        rc = root_result(ctx, how, &part, &notes_part, notes, out);
    cli_part_free(&part);
    cli_part_free(&notes_part);
    return rc;
}
