/* What the callgrind command handlers share: reading the inputs into one
 * profile with the reading's notes, names, numbers and event lists. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"


static void keep_note(void *ctx, tk_severity sev, const tk_location *loc, const char *message)
{
    (void)sev;
    cli_warning(loc, message);
    cli_callgrind_notes *n = ctx;
    if (!n) return;
    if (n->count == CLI_CALLGRIND_NOTES_MAX) {
        n->more++;
        return;
    }
    if (n->count == n->cap) {
        size_t cap = n->cap ? 2 * n->cap : 4;
        cli_callgrind_note *v = realloc(n->v, cap * sizeof *v);
        if (!v) return;
        n->v = v;
        n->cap = cap;
    }
    cli_callgrind_note *e = &n->v[n->count];
    e->path = strdup(loc->path ? loc->path : "");
    e->message = strdup(message);
    e->line = loc->line;
    if (!e->path || !e->message) {
        free(e->path);
        free(e->message);
        return;
    }
    n->count++;
}

void cli_callgrind_notes_sink(tk_diag *d, cli_callgrind_notes *keep)
{
    tk_diag_init(d, keep_note, keep);
}

void cli_callgrind_notes_free(cli_callgrind_notes *n)
{
    if (!n) return;
    for (size_t i = 0; i < n->count; i++) {
        free(n->v[i].path);
        free(n->v[i].message);
    }
    free(n->v);
    memset(n, 0, sizeof *n);
}

int cli_callgrind_load_range(cli_ctx *ctx, const tk_callgrind_read_options *how,
                             cli_callgrind_notes *notes, tk_profile **out)
{
    tk_profile *p;
    if (tk_profile_open(&p, NULL) != TK_OK) {
        fprintf(stderr, "tracekit: out of memory\n");
        return CLI_EXIT_BAD_INPUT;
    }
    tk_diag nd;
    cli_callgrind_notes_sink(&nd, notes);
    for (int i = ctx->lo; i < ctx->hi; i++) {
        tk_callgrind_read_options o = *how;
        o.path = ctx->paths[i];
        o.notes = &nd;
        tk_error err;
        tk_error_clear(&err);
        int lazy = !ctx->inputs[i]; /* closed by the dispatcher: opened here, closed again */
        tk_input *in;
        int rc = cli_input_at(ctx, i, &in);
        if (rc != CLI_EXIT_OK) {
            tk_profile_free(p);
            return rc;
        }
        tk_status st = tk_callgrind_read_input(p, in, &o, &err);
        if (lazy) {
            tk_input_free(in);
            ctx->inputs[i] = NULL;
        }
        if (st != TK_OK) {
            tk_profile_free(p);
            return cli_error(&err);
        }
    }
    *out = p;
    return CLI_EXIT_OK;
}

int cli_callgrind_load_with(cli_ctx *ctx, const tk_callgrind_read_options *how,
                            cli_callgrind_notes *notes, tk_profile **out)
{
    *out = NULL;
    if (ctx->team) return cli_callgrind_team_load(ctx, how, notes, out);
    return cli_callgrind_load_range(ctx, how, notes, out);
}

int cli_callgrind_load(cli_ctx *ctx, tk_callgrind_detail detail, tk_profile **out)
{
    tk_callgrind_read_options how = TK_CALLGRIND_READ_OPTIONS_INIT;
    how.detail = detail;
    return cli_callgrind_load_with(ctx, &how, NULL, out);
}

const char *cli_callgrind_str_or(const tk_profile *p, uint32_t id, const char *dflt)
{
    if (id == TK_PROF_NONE) return dflt;
    const char *s = tk_profile_str(p, id);
    return *s ? s : dflt;
}

/* Decimal digits of v into the end of buf (no NUL); returns the start. */
static char *u64_digits(uint64_t v, char *end)
{
    char *p = end;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

void cli_callgrind_put_u64(FILE *f, uint64_t v)
{
    char buf[24];
    char *p = u64_digits(v, buf + sizeof buf);
    out_write(p, (size_t)(buf + sizeof buf - p), f);
}

void cli_callgrind_put_padded(FILE *f, uint64_t v, int width)
{
    char buf[64];
    char *end = buf + sizeof buf, *p = end;
    int digits = 0;
    do {
        if (digits && digits % 3 == 0) *--p = ',';
        *--p = (char)('0' + v % 10);
        v /= 10;
        digits++;
    } while (v);
    while (end - p < width && p > buf) *--p = ' ';
    out_write(p, (size_t)(end - p), f);
}

void cli_callgrind_put_commas(FILE *f, uint64_t v) { cli_callgrind_put_padded(f, v, 0); }

void cli_callgrind_json_u64s(FILE *f, const uint64_t *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i) fputc(',', f);
        cli_callgrind_put_u64(f, v[i]);
    }
    fputc(']', f);
}

void cli_callgrind_json_events(FILE *f, const tk_profile *p)
{
    fputc('[', f);
    for (size_t i = 0; i < tk_profile_event_count(p); i++) {
        if (i) fputc(',', f);
        cli_put_json_string(f, tk_profile_event_name(p, i));
    }
    fputc(']', f);
}

int cli_callgrind_event_list(const char *cmd, const char *opt, const tk_profile *p,
                             const char *list, size_t *idx, size_t max)
{
    size_t n = 0;
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        int ev = tk_profile_find_event(p, s, len);
        if (ev < 0) {
            char have[512];
            size_t k = 0;
            have[0] = 0;
            for (size_t i = 0; i < tk_profile_event_count(p) && k < sizeof have; i++) {
                int w = snprintf(have + k, sizeof have - k, " %s", tk_profile_event_name(p, i));
                k += w < 0 ? 0 : (size_t)w;
            }
            cli_usage_error(cmd, "option '--%s': unknown event '%.*s' (the profile has:%s)", opt,
                            (int)len, s, k ? have : " none");
            return -1;
        }
        if (n < max) idx[n++] = (size_t)ev;
        if (!e) break;
        s = e + 1;
    }
    return (int)n;
}
