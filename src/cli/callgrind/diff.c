/* tracekit diff for callgrind profiles: per function, or folded stacks for a
 * differential flame graph, or that flame graph (svg). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

const cli_opt cli_callgrind_diff_opts[] = {
    {"sort", 0, "EVENT", "order by the absolute difference of EVENT (default: the first)"},
    {"top", 'n', "N", "show at most N functions"},
    {"format", 0, "FMT", "text (default), json, folded (difffolded.pl's \"stack A B\" lines "
                         "for a differential flame graph) or svg (that flame graph: red grew, "
                         "blue shrank)"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    CLI_SVG_OPTS,
    {NULL, 0, NULL, NULL},
};

/* diff --format */
static const cli_choice diff_formats[] = {
    {"text", CLI_OUT_TEXT}, {"json", CLI_OUT_JSON}, {"folded", CLI_OUT_FOLDED},
    {"svg", CLI_OUT_SVG},   {NULL, 0}};

/* A stack of the folded output of either profile and its counts in both. */
typedef struct folded_row {
    const char *stack;
    size_t len, order; /* order: first appearance, A's stacks before B's */
    uint64_t count[2];
} folded_row;

static int cmp_folded_stack(const void *x, const void *y)
{
    const folded_row *a = x, *b = y;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->stack, b->stack, n);
    if (c) return c;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

static int cmp_folded_order(const void *x, const void *y)
{
    const folded_row *a = x, *b = y;
    return (a->order > b->order) - (a->order < b->order);
}

/* Both profiles' folded stacks (parts 1 and 2 of `both`) for event ev as text
 * (text[i], len[i]: to free). */
static tk_status folded_texts(const tk_profile *both, size_t ev, char **text, size_t *len,
                              tk_error *err)
{
    tk_status st = TK_OK;
    for (int i = 0; i < 2 && st == TK_OK; i++) {
        FILE *m = open_memstream(&text[i], &len[i]);
        if (!m) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        tk_folded_profile_options fo = TK_FOLDED_PROFILE_OPTIONS_INIT;
        fo.event = ev;
        fo.part = (size_t)i + 1;
        st = tk_profile_write_folded(both, &fo, m, err);
        if (fclose(m) != 0 && st == TK_OK) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    return st;
}

/* The lines "stack COUNT" of both texts as rows, A's before B's. */
static tk_status folded_parse(char *const *text, const size_t *len, folded_row **out,
                              size_t *count, tk_error *err)
{
    size_t n = 0, cap = 0;
    folded_row *rows = NULL;
    for (int i = 0; i < 2; i++) {
        for (char *line = text[i], *end = text[i] + len[i]; line < end;) {
            char *nl = memchr(line, '\n', (size_t)(end - line));
            if (!nl) nl = end;
            char *sp = nl;
            while (sp > line && sp[-1] != ' ') sp--;
            if (sp > line && n == cap) {
                cap = cap ? 2 * cap : 256;
                folded_row *nr = realloc(rows, cap * sizeof *nr);
                if (!nr) {
                    *out = rows;
                    return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
                }
                rows = nr;
            }
            if (sp > line) {
                folded_row *r = &rows[n];
                r->stack = line;
                r->len = (size_t)(sp - 1 - line);
                r->order = n++;
                if (tk_parse_u64(sp, (size_t)(nl - sp), &r->count[i]) != TK_OK) /* ours */
                    r->count[i] = 0;
                r->count[!i] = 0;
            }
            line = nl + 1;
        }
    }
    *out = rows;
    *count = n;
    return TK_OK;
}

/* One row per stack, the first of equal stacks taking the others' counts, in
 * order of first appearance. Returns how many. */
static size_t folded_merge(folded_row *rows, size_t n)
{
    if (!n) return 0;
    qsort(rows, n, sizeof *rows, cmp_folded_stack);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && rows[m - 1].len == rows[i].len &&
            memcmp(rows[m - 1].stack, rows[i].stack, rows[i].len) == 0) {
            rows[m - 1].count[0] += rows[i].count[0];
            rows[m - 1].count[1] += rows[i].count[1];
        } else {
            rows[m++] = rows[i];
        }
    }
    qsort(rows, m, sizeof *rows, cmp_folded_order);
    return m;
}

/* diff --format folded: both profiles' folded stacks for event ev, merged into
 * lines "stack COUNT_A COUNT_B" in order of first appearance: what
 * difffolded.pl writes and flamegraph.pl draws as a differential flame graph. */
static tk_status diff_folded(const tk_profile *both, size_t ev, FILE *f, tk_error *err)
{
    char *text[2] = {NULL, NULL};
    size_t len[2] = {0, 0}, n = 0;
    folded_row *rows = NULL;
    tk_status st = folded_texts(both, ev, text, len, err);
    if (st == TK_OK) st = folded_parse(text, len, &rows, &n, err);
    if (st == TK_OK) {
        n = folded_merge(rows, n);
        for (size_t i = 0; i < n; i++) {
            out_write(rows[i].stack, rows[i].len, f);
            fprintf(f, " %" PRIu64 " %" PRIu64 "\n", rows[i].count[0], rows[i].count[1]);
        }
    }
    free(rows);
    free(text[0]);
    free(text[1]);
    return st;
}

/* diff --format svg: those lines drawn as a differential flame graph */
typedef struct folded_job {
    const tk_profile *both;
    size_t ev;
} folded_job;

static tk_status diff_folded_of(void *job, FILE *f, tk_error *err)
{
    const folded_job *j = job;
    return diff_folded(j->both, j->ev, f, err);
}

typedef struct diff_row {
    uint64_t absdiff;
    const char *name, *file, *object;
    const uint64_t *a_self, *b_self, *a_incl, *b_incl;
} diff_row;

static int cmp_diff_row(const void *x, const void *y)
{
    const diff_row *a = x, *b = y;
    if (a->absdiff != b->absdiff) return a->absdiff > b->absdiff ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c) return c;
    c = strcmp(a->file, b->file);
    return c ? c : strcmp(a->object, b->object);
}

/* Both inputs read, per function, as parts 1 and 2 of one profile: they share
 * one string table, so function ids are comparable. */
static int load_both(cli_ctx *ctx, tk_profile **out)
{
    const char *cmd = "diff";
    tk_profile *both;
    if (tk_profile_new(&both) != TK_OK) return cli_usage_error(cmd, "out of memory");
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < 2 && rc == CLI_EXIT_OK; i++) {
        tk_profile *one;
        if (tk_profile_new(&one) != TK_OK) {
            rc = cli_usage_error(cmd, "out of memory");
            break;
        }
        tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
        o.path = ctx->paths[i];
        o.detail = TK_CALLGRIND_DETAIL_FUNCTIONS;
        o.skip_jumps = 1;
        tk_diag nd;
        cli_callgrind_notes_sink(&nd, NULL);
        o.notes = &nd;
        tk_error err;
        tk_error_clear(&err);
        if (tk_callgrind_read_input(one, ctx->inputs[i], &o, &err) != TK_OK) {
            rc = cli_error(&err);
            tk_profile_free(one);
            break;
        }
        /* merge into one part of `both`, so names intern into one table */
        tk_prof_part *into;
        if (tk_profile_add_part(both, &into) != TK_OK ||
            tk_profile_merge(both, one, into, &err) != TK_OK) {
            if (!err.message[0]) tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
            rc = cli_error(&err);
        }
        tk_profile_free(one);
    }
    if (rc) {
        tk_profile_free(both);
        return rc;
    }
    *out = both;
    return CLI_EXIT_OK;
}

/* The per-function difference: both parts summarized by function, the
 * functions whose costs differ ordered by the absolute difference of event ev. */
typedef struct function_diff {
    tk_prof_summary *a, *b;
    diff_row *rows;
    size_t count;
} function_diff;

static void function_diff_free(function_diff *d)
{
    free(d->rows);
    tk_prof_summary_free(d->a);
    tk_prof_summary_free(d->b);
}

static int diff_functions(const tk_profile *both, size_t ev, function_diff *d)
{
    size_t nev = tk_profile_event_count(both);
    tk_error err;
    tk_error_clear(&err);
    if (tk_profile_summarize(both, 1, TK_GROUP_FUNCTION, &d->a, &err) != TK_OK ||
        tk_profile_summarize(both, 2, TK_GROUP_FUNCTION, &d->b, &err) != TK_OK)
        return cli_error(&err);
    /* function mode: entry i is function i in both summaries */
    size_t n = d->a->count;
    d->rows = malloc((n ? n : 1) * sizeof *d->rows);
    if (!d->rows) return cli_usage_error("diff", "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const tk_prof_entry *a = &d->a->entries[i], *b = &d->b->entries[i];
        int same = 1;
        for (size_t j = 0; j < nev; j++)
            if (a->self[j] != b->self[j] || a->inclusive[j] != b->inclusive[j]) same = 0;
        if (same) continue;
        diff_row *r = &d->rows[k++];
        r->absdiff = nev ? (a->self[ev] > b->self[ev] ? a->self[ev] - b->self[ev]
                                                      : b->self[ev] - a->self[ev])
                         : 0;
        r->name = cli_callgrind_str_or(both, a->name, "???");
        r->file = cli_callgrind_str_or(both, a->file, "???");
        r->object = cli_callgrind_str_or(both, a->object, "???");
        r->a_self = a->self;
        r->b_self = b->self;
        r->a_incl = a->inclusive;
        r->b_incl = b->inclusive;
    }
    qsort(d->rows, k, sizeof *d->rows, cmp_diff_row);
    d->count = k;
    return CLI_EXIT_OK;
}

static void print_json(FILE *f, const tk_profile *both, const function_diff *d, size_t k)
{
    size_t nev = tk_profile_event_count(both);
    fputs("{\"version\":1,\"format\":\"callgrind-diff\",\"events\":", f);
    cli_callgrind_json_events(f, both);
    fputs(",\"totals_a\":", f);
    cli_callgrind_json_u64s(f, d->a->totals, nev);
    fputs(",\"totals_b\":", f);
    cli_callgrind_json_u64s(f, d->b->totals, nev);
    fputs(",\"functions\":[", f);
    for (size_t i = 0; i < k; i++) {
        const diff_row *r = &d->rows[i];
        fputs(i ? ",\n{\"object\":" : "\n{\"object\":", f);
        tk_put_json_string(f, r->object);
        fputs(",\"file\":", f);
        tk_put_json_string(f, r->file);
        fputs(",\"name\":", f);
        tk_put_json_string(f, r->name);
        fputs(",\"self_a\":", f);
        cli_callgrind_json_u64s(f, r->a_self, nev);
        fputs(",\"self_b\":", f);
        cli_callgrind_json_u64s(f, r->b_self, nev);
        fputs(",\"inclusive_a\":", f);
        cli_callgrind_json_u64s(f, r->a_incl, nev);
        fputs(",\"inclusive_b\":", f);
        cli_callgrind_json_u64s(f, r->b_incl, nev);
        fputc('}', f);
    }
    fputs("\n]}\n", f);
}

static void print_text(FILE *f, const tk_profile *both, const function_diff *d, size_t k,
                       size_t ev)
{
    size_t nev = tk_profile_event_count(both);
    const char *en = nev ? tk_profile_str(both, tk_profile_event(both, ev)->name) : "";
    fprintf(f, "event: %s\ntotals: ", en);
    cli_callgrind_put_commas(f, nev ? d->a->totals[ev] : 0);
    fputs(" -> ", f);
    cli_callgrind_put_commas(f, nev ? d->b->totals[ev] : 0);
    fputs("\n\n", f);
    fprintf(f, "%16s %16s %17s  function\n", "A self", "B self", "B - A");
    for (size_t i = 0; i < k; i++) {
        const diff_row *r = &d->rows[i];
        uint64_t a = nev ? r->a_self[ev] : 0, b = nev ? r->b_self[ev] : 0;
        cli_callgrind_put_padded(f, a, 16);
        fputc(' ', f);
        cli_callgrind_put_padded(f, b, 16);
        fputc(' ', f);
        fputc(b >= a ? '+' : '-', f);
        cli_callgrind_put_padded(f, b >= a ? b - a : a - b, 16);
        fprintf(f, "  %s [%s] %s\n", r->name, r->object, r->file);
    }
}

/* Writes the difference as fmt says to the output of -o. */
static int write_diff(const cli_args *args, const tk_profile *both, int fmt, size_t ev,
                      uint64_t top)
{
    function_diff d = {NULL, NULL, NULL, 0};
    int stacks = fmt == CLI_OUT_FOLDED || fmt == CLI_OUT_SVG;
    int rc = stacks ? CLI_EXIT_OK : diff_functions(both, ev, &d);
    tk_output *o;
    if (rc == CLI_EXIT_OK) rc = cli_output_open(args, 0, &o);
    if (rc != CLI_EXIT_OK) {
        function_diff_free(&d);
        return rc;
    }
    FILE *f = tk_output_file(o);
    size_t k = top && top < d.count ? (size_t)top : d.count;
    tk_error err;
    tk_error_clear(&err);
    folded_job job = {both, ev};
    size_t nev = tk_profile_event_count(both);
    const char *unit = nev ? tk_profile_str(both, tk_profile_event(both, ev)->name) : NULL;
    if (fmt == CLI_OUT_FOLDED)
        rc = diff_folded(both, ev, f, &err) == TK_OK ? CLI_EXIT_OK : cli_error(&err);
    else if (fmt == CLI_OUT_SVG)
        rc = cli_write_svg("diff", args, unit, diff_folded_of, &job, f);
    else if (fmt == CLI_OUT_JSON)
        print_json(f, both, &d, k);
    else
        print_text(f, both, &d, k, ev);
    if (rc == CLI_EXIT_OK)
        rc = cli_output_commit(o);
    else
        tk_output_abort(o);
    function_diff_free(&d);
    return rc;
}

int cli_callgrind_diff(cli_ctx *ctx, const cli_args *args)
{
    const char *cmd = "diff";
    if (ctx->ninputs != 2) return cli_usage_error(cmd, "expected exactly two files");
    int fmt = cli_get_choice(cmd, args, "format", diff_formats, CLI_OUT_TEXT);
    uint64_t top;
    if (fmt < 0 || cli_get_u64(cmd, args, "top", 0, &top)) return CLI_EXIT_USAGE;
    tk_profile *both;
    int rc = load_both(ctx, &both);
    if (rc) return rc;
    size_t ev = 0;
    const char *sortarg = cli_get(args, "sort");
    if (sortarg && cli_callgrind_event_list(cmd, both, sortarg, &ev, 1) != 1)
        rc = CLI_EXIT_USAGE;
    else
        rc = write_diff(args, both, fmt, ev, top);
    tk_profile_free(both);
    return rc;
}

const cli_opt_choices cli_callgrind_diff_choices[] = {{"format", diff_formats}, {NULL, NULL}};
