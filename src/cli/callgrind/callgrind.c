/* Command handlers for callgrind files: info, check, report, annotate,
 * convert (callgrind, json, dot), dump, diff, merge. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

/* ---- shared helpers ------------------------------------------------------------- */

static void keep_note(void *ctx, tk_severity sev, const tk_location *loc, const char *message)
{
    (void)sev;
    cli_warning(loc, message);
    cgc_notes *n = ctx;
    if (!n) return;
    if (n->count == CGC_NOTES_MAX) {
        n->more++;
        return;
    }
    if (n->count == n->cap) {
        size_t cap = n->cap ? 2 * n->cap : 4;
        cgc_note *v = realloc(n->v, cap * sizeof *v);
        if (!v) return;
        n->v = v;
        n->cap = cap;
    }
    cgc_note *e = &n->v[n->count];
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

void cgc_notes_sink(tk_diag *d, cgc_notes *keep) { tk_diag_init(d, keep_note, keep); }

void cgc_notes_free(cgc_notes *n)
{
    if (!n) return;
    for (size_t i = 0; i < n->count; i++) {
        free(n->v[i].path);
        free(n->v[i].message);
    }
    free(n->v);
    memset(n, 0, sizeof *n);
}

int cgc_load_profile_opts(cli_ctx *ctx, tk_callgrind_detail detail, int skip_jumps,
                          int drop_files, int call_counts_only, cgc_notes *notes,
                          tk_profile **out)
{
    tk_profile *p;
    if (tk_profile_new(&p) != TK_OK) {
        fprintf(stderr, "tracekit: out of memory\n");
        return CLI_EXIT_BAD_INPUT;
    }
    tk_diag nd;
    cgc_notes_sink(&nd, notes);
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
        o.path = ctx->paths[i];
        o.detail = detail;
        o.skip_jumps = skip_jumps;
        o.drop_files = drop_files;
        o.call_counts_only = call_counts_only;
        o.notes = &nd;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_callgrind_read_input(p, ctx->inputs[i], &o, &err);
        if (st != TK_OK) {
            tk_profile_free(p);
            return cli_error(&err);
        }
    }
    *out = p;
    return CLI_EXIT_OK;
}

int cgc_load_profile(cli_ctx *ctx, tk_callgrind_detail detail, tk_profile **out)
{
    return cgc_load_profile_opts(ctx, detail, 0, 0, 0, NULL, out);
}

const char *cgc_str_or(const tk_profile *p, uint32_t id, const char *dflt)
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

void cgc_put_u64(FILE *f, uint64_t v)
{
    char buf[24];
    char *p = u64_digits(v, buf + sizeof buf);
    out_write(p, (size_t)(buf + sizeof buf - p), f);
}

void cgc_put_padded(FILE *f, uint64_t v, int width)
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

void cgc_put_commas(FILE *f, uint64_t v) { cgc_put_padded(f, v, 0); }

void cgc_json_u64s(FILE *f, const uint64_t *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i) fputc(',', f);
        cgc_put_u64(f, v[i]);
    }
    fputc(']', f);
}

void cgc_json_event_names(FILE *f, const tk_profile *p)
{
    fputc('[', f);
    for (size_t i = 0; i < tk_profile_event_count(p); i++) {
        if (i) fputc(',', f);
        tk_put_json_string(f, tk_profile_str(p, tk_profile_event(p, i)->name));
    }
    fputc(']', f);
}

int cgc_parse_event_list(const char *cmd, const tk_profile *p, const char *list, size_t *idx,
                         size_t max)
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
                int w = snprintf(have + k, sizeof have - k, " %s",
                                 tk_profile_str(p, tk_profile_event(p, i)->name));
                k += w < 0 ? 0 : (size_t)w;
            }
            cli_usage_error(cmd, "unknown event '%.*s' (the profile has:%s)", (int)len, s,
                            k ? have : " none");
            return -1;
        }
        if (n < max) idx[n++] = (size_t)ev;
        if (!e) break;
        s = e + 1;
    }
    return (int)n;
}

/* ---- info ----------------------------------------------------------------------- */

static const cli_opt info_opts[] = {{NULL, 0, NULL, NULL}};

/* Reads without keeping rows (validation only): what it prints comes from the
 * headers and from the reader's counts, so a 130 MB profile takes 0.5 s, not
 * the 4.6 s and 950 MB of its every cost position. */
static int run_info(cli_ctx *ctx, const cli_args *args)
{
    (void)args;
    tk_profile *p;
    int rc = cgc_load_profile(ctx, TK_CALLGRIND_DETAIL_NONE, &p);
    if (rc) return rc;
    size_t nev = tk_profile_event_count(p);
    printf("parts: %zu\n", tk_profile_part_count(p));
    printf("events:");
    for (size_t i = 0; i < nev; i++) printf(" %s", tk_profile_str(p, tk_profile_event(p, i)->name));
    printf("\n");
    for (size_t i = 0; i < tk_profile_derived_count(p); i++) {
        const tk_prof_derived *d = tk_profile_derived(p, i);
        printf("derived event: %s = %s\n", tk_profile_str(p, d->name),
               tk_profile_str(p, d->formula));
    }
    printf("functions: %zu\n", tk_profile_function_count(p));
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        const tk_prof_part *pt = tk_profile_part(p, i);
        printf("part %zu:", i + 1);
        if (pt->has_number) printf(" part=%" PRIu64, pt->number);
        if (pt->has_thread) printf(" thread=%" PRIu64, pt->thread);
        if (pt->has_pid) printf(" pid=%" PRIu64, pt->pid);
        printf(" positions=%s%s%s", pt->positions & TK_POS_INSTR ? "instr " : "",
               pt->positions & TK_POS_BB ? "bb " : "", pt->positions & TK_POS_LINE ? "line" : "");
        printf(" call-lines=%" PRIu64 " jump-lines=%" PRIu64 "\n", pt->call_lines, pt->jump_lines);
        if (pt->cmd) printf("  cmd: %s\n", pt->cmd);
        if (pt->creator) printf("  creator: %s\n", pt->creator);
        for (size_t d = 0; d < pt->desc_count; d++)
            if (strncmp(pt->desc[d], "Trigger:", 8) == 0) printf("  %s\n", pt->desc[d]);
        if (pt->has_line_sum) {
            printf("  totals:");
            for (size_t e = 0; e < nev; e++) {
                printf(" ");
                cgc_put_commas(stdout, pt->line_sum[e]);
            }
            printf("\n");
        }
    }
    tk_profile_free(p);
    return CLI_EXIT_OK;
}

/* ---- check ---------------------------------------------------------------------- */

static const cli_opt check_opts[] = {{NULL, 0, NULL, NULL}};

/* The inputs are read into one profile, as the other commands read them: what
 * they refuse of inputs given together (a new event type after costs, sums of
 * all parts past 64 bits) is reported in the input where it shows. */
static int run_check(cli_ctx *ctx, const cli_args *args)
{
    (void)args;
    int rc = CLI_EXIT_OK;
    tk_profile *p;
    if (tk_profile_new(&p) != TK_OK) return cli_usage_error("check", "out of memory");
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_diag d;
        cli_diag_init(&d);
        tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
        o.path = ctx->paths[i];
        o.diag = &d;
        o.detail = TK_CALLGRIND_DETAIL_NONE;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_callgrind_read_input(p, ctx->inputs[i], &o, &err);
        if (st != TK_OK && st != TK_ERR_CHECK && d.errors == 0) {
            rc = cli_error(&err);
        }
        int r = cli_diag_summary(&d, ctx->paths[i]);
        if (r) rc = r;
    }
    tk_profile_free(p);
    return rc;
}

/* ---- dump ----------------------------------------------------------------------- */

static const cli_opt dump_opts[] = {
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

static int run_dump(cli_ctx *ctx, const cli_args *args)
{
    tk_profile *p;
    int rc = cgc_load_profile(ctx, TK_CALLGRIND_DETAIL_FULL, &p);
    if (rc) return rc;
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        tk_status st = tk_profile_dump(p, tk_output_file(o));
        if (st != TK_OK) {
            tk_output_abort(o);
            fprintf(stderr, "tracekit: dump: %s\n", tk_status_name(st));
            rc = CLI_EXIT_BAD_INPUT;
        } else {
            rc = cli_output_commit(o);
        }
    }
    tk_profile_free(p);
    return rc;
}

/* ---- convert -------------------------------------------------------------------- */

static const cli_opt convert_opts[] = {
    {"to", 't', "FMT", "callgrind, dot, folded or json"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {"no-compress", 0, NULL, "callgrind: write full names and absolute positions"},
    {"node-threshold", 0, "PCT", "dot: drop functions below PCT% inclusive (default 0.5)"},
    {"edge-threshold", 0, "PCT", "dot: drop calls below PCT% (default 0.1)"},
    {"event", 0, "EVENT", "dot, folded: the event for percentages and colours, or to count"
                          " (default: the first)"},
    {"min-share", 0, "PCT", "folded: do not unfold call chains below PCT% of the total"
                            " (default 0.001)"},
    {"per-thread", 0, NULL, "folded: each part apart, its stacks starting with its thread"},
    {NULL, 0, NULL, NULL},
};

/* convert --to */
enum { TO_CALLGRIND, TO_DOT, TO_JSON, TO_FOLDED };
static const cli_choice convert_targets[] = {
    {"callgrind", TO_CALLGRIND}, {"dot", TO_DOT}, {"json", TO_JSON}, {"folded", TO_FOLDED},
    {NULL, 0}};

static void json_pos(FILE *f, const tk_prof_pos *pos)
{
    fprintf(f, "\"line\":%" PRIu64 ",\"addr\":%" PRIu64 ",\"bb\":%" PRIu64, pos->line, pos->addr,
            pos->bb);
}

/* The whole model as JSON (names inline, rows in storage order). */
static void write_json(const tk_profile *p, FILE *f)
{
    size_t nev = tk_profile_event_count(p);
    fputs("{\"version\":1,\"format\":\"tracekit-profile\",\"events\":", f);
    cgc_json_event_names(f, p);
    fputs(",\n\"functions\":[", f);
    for (size_t i = 0; i < tk_profile_function_count(p); i++) {
        const tk_prof_function *fn = tk_profile_function_at(p, (uint32_t)i);
        fputs(i ? ",\n{\"object\":" : "\n{\"object\":", f);
        tk_put_json_string(f, tk_profile_str(p, fn->object));
        fputs(",\"file\":", f);
        tk_put_json_string(f, tk_profile_str(p, fn->file));
        fputs(",\"name\":", f);
        tk_put_json_string(f, tk_profile_str(p, fn->name));
        fputc('}', f);
    }
    fputs("],\n\"parts\":[", f);
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        const tk_prof_part *pt = tk_profile_part(p, i);
        fputs(i ? ",\n{" : "\n{", f);
        if (pt->has_thread) fprintf(f, "\"thread\":%" PRIu64 ",", pt->thread);
        if (pt->has_pid) fprintf(f, "\"pid\":%" PRIu64 ",", pt->pid);
        if (pt->cmd) {
            fputs("\"cmd\":", f);
            tk_put_json_string(f, pt->cmd);
            fputc(',', f);
        }
        fputs("\"self\":[", f);
        const tk_prof_self *sr = pt->self.rows;
        for (size_t r = 0; r < pt->self.count; r++) {
            fprintf(f, "%s\n{\"fn\":%" PRIu32 ",\"file\":", r ? "," : "", sr[r].fn);
            tk_put_json_string(f, tk_profile_str(p, sr[r].file));
            fputc(',', f);
            json_pos(f, &sr[r].pos);
            fputs(",\"cost\":", f);
            cgc_json_u64s(f, pt->self.values + r * nev, nev);
            fputc('}', f);
        }
        fputs("],\"calls\":[", f);
        const tk_prof_call *cr = pt->calls.rows;
        for (size_t r = 0; r < pt->calls.count; r++) {
            const uint64_t *v = pt->calls.values + r * (nev + 1);
            fprintf(f, "%s\n{\"fn\":%" PRIu32 ",\"callee\":%" PRIu32 ",\"count\":%" PRIu64 ",\"file\":",
                    r ? "," : "", cr[r].fn, cr[r].callee, v[0]);
            tk_put_json_string(f, tk_profile_str(p, cr[r].file));
            fputc(',', f);
            json_pos(f, &cr[r].pos);
            fputs(",\"inclusive\":", f);
            cgc_json_u64s(f, v + 1, nev);
            fputc('}', f);
        }
        fputs("],\"jumps\":[", f);
        const tk_prof_jump *jr = pt->jumps.rows;
        for (size_t r = 0; r < pt->jumps.count; r++) {
            const uint64_t *v = pt->jumps.values + r * 2;
            fprintf(f,
                    "%s\n{\"fn\":%" PRIu32 ",\"target_fn\":%" PRIu32 ",\"conditional\":%s,"
                    "\"executed\":%" PRIu64 ",\"followed\":%" PRIu64 ",",
                    r ? "," : "", jr[r].fn, jr[r].target_fn, jr[r].conditional ? "true" : "false",
                    v[0], v[1]);
            json_pos(f, &jr[r].pos);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
}

static int run_convert(cli_ctx *ctx, const cli_args *args)
{
    const char *cmd = "convert";
    int to = cli_get_choice(cmd, args, "to", convert_targets, -1);
    if (to < 0) {
        if (!cli_get(args, "to"))
            return cli_usage_error(cmd, "missing --to FMT (callgrind, dot, folded or json)");
        return CLI_EXIT_USAGE;
    }
    tk_dot_options dot = TK_DOT_OPTIONS_INIT;
    tk_folded_profile_options folded = TK_FOLDED_PROFILE_OPTIONS_INIT;
    double min_share = folded.min_share * 100;
    if (cli_get_double(cmd, args, "node-threshold", dot.node_threshold, &dot.node_threshold) ||
        cli_get_double(cmd, args, "edge-threshold", dot.edge_threshold, &dot.edge_threshold) ||
        cli_get_double(cmd, args, "min-share", min_share, &min_share))
        return CLI_EXIT_USAGE;
    if (!(min_share >= 0 && min_share <= 100))
        return cli_usage_error(cmd, "--min-share must be a percentage (0..100)");
    folded.min_share = min_share / 100;
    folded.per_part = cli_has(args, "per-thread");
    tk_profile *p;
    /* call graphs and flame graphs need functions and call arcs only: no
     * positions, cost files or jumps */
    int rc = to == TO_DOT || to == TO_FOLDED
                 ? cgc_load_profile_opts(ctx, TK_CALLGRIND_DETAIL_FUNCTIONS, 1, 1, 0, NULL, &p)
                                : cgc_load_profile(ctx, TK_CALLGRIND_DETAIL_FULL, &p);
    if (rc) return rc;
    const char *ev = cli_get(args, "event");
    if (ev) {
        size_t idx;
        if (cgc_parse_event_list(cmd, p, ev, &idx, 1) != 1) {
            tk_profile_free(p);
            return CLI_EXIT_USAGE;
        }
        dot.event = folded.event = idx;
    }
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc) {
        tk_profile_free(p);
        return rc;
    }
    tk_error err;
    tk_error_clear(&err);
    tk_status st = TK_OK;
    if (to == TO_CALLGRIND) {
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        if (cli_has(args, "no-compress")) wo.compress_names = wo.compress_positions = 0;
        st = tk_callgrind_write(p, tk_output_file(o), &wo, &err);
    } else if (to == TO_DOT) {
        st = tk_profile_write_dot(p, &dot, tk_output_file(o), &err);
    } else if (to == TO_FOLDED) {
        st = tk_profile_write_folded(p, &folded, tk_output_file(o), &err);
    } else {
        write_json(p, tk_output_file(o));
    }
    if (st != TK_OK) {
        tk_output_abort(o);
        rc = cli_error(&err);
    } else {
        rc = cli_output_commit(o);
    }
    tk_profile_free(p);
    return rc;
}

/* ---- merge ---------------------------------------------------------------------- */

static const cli_opt merge_opts[] = {
    {"output", 'o', "FILE", "write the merged profile to FILE (default: standard output)"},
    {"force", 'f', NULL, "overwrite FILE"},
    {"keep-parts", 0, NULL, "keep every part (thread, dump) as its own part"},
    {NULL, 0, NULL, NULL},
};

static int run_merge(cli_ctx *ctx, const cli_args *args)
{
    tk_profile *src;
    int rc = cgc_load_profile(ctx, TK_CALLGRIND_DETAIL_FULL, &src);
    if (rc) return rc;
    tk_profile *dst = NULL;
    tk_prof_part *into = NULL;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_profile_new(&dst);
    if (st == TK_OK && !cli_has(args, "keep-parts")) {
        st = tk_profile_add_part(dst, &into);
        if (st == TK_OK && tk_profile_part_count(src)) {
            const tk_prof_part *first = tk_profile_part(src, 0);
            if (first->cmd) st = tk_profile_part_set_string(&into->cmd, first->cmd, strlen(first->cmd));
            if (st == TK_OK)
                st = tk_profile_part_add_desc(into, "Trigger: tracekit merge",
                                              strlen("Trigger: tracekit merge"));
        }
    }
    if (st != TK_OK) {
        tk_error_set(&err, st, "out of memory");
    } else {
        st = tk_profile_merge(dst, src, into, &err);
        if (st == TK_OK && into) {
            into->has_summary = 0;
            st = tk_profile_part_fill_totals(dst, into);
            if (st == TK_OK) {
                memcpy(into->summary, into->totals, sizeof into->summary);
                into->has_summary = 1;
            }
            if (st != TK_OK) tk_error_set(&err, st, "cost sum overflows 64 bits");
        }
    }
    if (st != TK_OK) {
        tk_profile_free(src);
        tk_profile_free(dst);
        return cli_error(&err);
    }
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        st = tk_callgrind_write(dst, tk_output_file(o), &wo, &err);
        if (st != TK_OK) {
            tk_output_abort(o);
            rc = cli_error(&err);
        } else {
            rc = cli_output_commit(o);
        }
    }
    tk_profile_free(src);
    tk_profile_free(dst);
    return rc;
}

/* ---- diff ----------------------------------------------------------------------- */

static const cli_opt diff_opts[] = {
    {"sort", 0, "EVENT", "order by the absolute difference of EVENT (default: the first)"},
    {"top", 'n', "N", "show at most N functions"},
    {"format", 0, "FMT", "text (default), json, or folded (difffolded.pl's \"stack A B\" lines for a differential flame graph)"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

/* diff --format */
static const cli_choice diff_formats[] = {
    {"text", CLI_OUT_TEXT}, {"json", CLI_OUT_JSON}, {"folded", CLI_OUT_FOLDED}, {NULL, 0}};

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

/* diff --format folded: both profiles' folded stacks (parts 1 and 2 of
 * `both`) for event ev, merged into lines "stack COUNT_A COUNT_B" in order of
 * first appearance: what difffolded.pl writes and flamegraph.pl draws as a
 * differential flame graph. */
static int diff_folded(const tk_profile *both, size_t ev, FILE *f, tk_error *err)
{
    char *text[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    tk_status st = TK_OK;
    for (int i = 0; i < 2 && st == TK_OK; i++) {
        FILE *m = open_memstream(&text[i], &len[i]);
        if (!m) {
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            break;
        }
        tk_folded_profile_options fo = TK_FOLDED_PROFILE_OPTIONS_INIT;
        fo.event = ev;
        fo.part = (size_t)i + 1;
        st = tk_profile_write_folded(both, &fo, m, err);
        if (fclose(m) != 0 && st == TK_OK) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    size_t n = 0, cap = 0;
    folded_row *rows = NULL;
    for (int i = 0; i < 2 && st == TK_OK; i++) {
        for (char *line = text[i], *end = text[i] + len[i]; line < end;) {
            char *nl = memchr(line, '\n', (size_t)(end - line));
            if (!nl) nl = end;
            char *sp = nl;
            while (sp > line && sp[-1] != ' ') sp--;
            if (sp > line && n == cap) {
                cap = cap ? 2 * cap : 256;
                folded_row *nr = realloc(rows, cap * sizeof *nr);
                if (!nr) {
                    st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
                    break;
                }
                rows = nr;
            }
            if (sp > line) {
                folded_row *r = &rows[n];
                r->stack = line;
                r->len = (size_t)(sp - 1 - line);
                r->order = n++;
                r->count[i] = strtoull(sp, NULL, 10);
                r->count[!i] = 0;
            }
            line = nl + 1;
        }
    }
    if (st == TK_OK && n) {
        /* one row per stack: the first of equal stacks takes the others' counts */
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
        for (size_t i = 0; i < m; i++) {
            out_write(rows[i].stack, rows[i].len, f);
            fprintf(f, " %" PRIu64 " %" PRIu64 "\n", rows[i].count[0], rows[i].count[1]);
        }
    }
    free(rows);
    free(text[0]);
    free(text[1]);
    return st == TK_OK ? CLI_EXIT_OK : cli_error(err);
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

static int run_diff(cli_ctx *ctx, const cli_args *args)
{
    const char *cmd = "diff";
    if (ctx->ninputs != 2) return cli_usage_error(cmd, "expected exactly two files");
    int fmt = cli_get_choice(cmd, args, "format", diff_formats, CLI_OUT_TEXT);
    uint64_t top;
    if (fmt < 0 || cli_get_u64(cmd, args, "top", 0, &top)) return CLI_EXIT_USAGE;
    /* both profiles share one string table: function ids are comparable */
    tk_profile *pa = NULL, *pb = NULL;
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
        cgc_notes_sink(&nd, NULL);
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
    (void)pa;
    (void)pb;
    if (rc) {
        tk_profile_free(both);
        return rc;
    }
    size_t nev = tk_profile_event_count(both);
    size_t ev = 0;
    const char *sortarg = cli_get(args, "sort");
    if (sortarg && cgc_parse_event_list(cmd, both, sortarg, &ev, 1) != 1) {
        tk_profile_free(both);
        return CLI_EXIT_USAGE;
    }
    tk_error err;
    tk_error_clear(&err);
    if (fmt == CLI_OUT_FOLDED) {
        tk_output *o;
        rc = cli_output_open(args, 0, &o);
        if (rc == CLI_EXIT_OK) {
            rc = diff_folded(both, ev, tk_output_file(o), &err);
            if (rc == CLI_EXIT_OK)
                rc = cli_output_commit(o);
            else
                tk_output_abort(o);
        }
        tk_profile_free(both);
        return rc;
    }
    tk_prof_summary *sa = NULL, *sb = NULL;
    if (tk_profile_summarize(both, 1, TK_GROUP_FUNCTION, &sa, &err) != TK_OK ||
        tk_profile_summarize(both, 2, TK_GROUP_FUNCTION, &sb, &err) != TK_OK) {
        tk_prof_summary_free(sa);
        tk_profile_free(both);
        return cli_error(&err);
    }
    /* function mode: entry i is function i in both summaries */
    size_t n = sa->count;
    diff_row *rows = malloc((n ? n : 1) * sizeof *rows);
    if (!rows) {
        tk_prof_summary_free(sa);
        tk_prof_summary_free(sb);
        tk_profile_free(both);
        return cli_usage_error(cmd, "out of memory");
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const tk_prof_entry *a = &sa->entries[i], *b = &sb->entries[i];
        int same = 1;
        for (size_t j = 0; j < nev; j++)
            if (a->self[j] != b->self[j] || a->inclusive[j] != b->inclusive[j]) same = 0;
        if (same) continue;
        diff_row *r = &rows[k++];
        r->absdiff = nev ? (a->self[ev] > b->self[ev] ? a->self[ev] - b->self[ev]
                                                      : b->self[ev] - a->self[ev])
                         : 0;
        r->name = cgc_str_or(both, a->name, "???");
        r->file = cgc_str_or(both, a->file, "???");
        r->object = cgc_str_or(both, a->object, "???");
        r->a_self = a->self;
        r->b_self = b->self;
        r->a_incl = a->inclusive;
        r->b_incl = b->inclusive;
    }
    qsort(rows, k, sizeof *rows, cmp_diff_row);
    if (top && top < k) k = (size_t)top;
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        FILE *f = tk_output_file(o);
        if (fmt == CLI_OUT_JSON) {
            fputs("{\"version\":1,\"format\":\"callgrind-diff\",\"events\":", f);
            cgc_json_event_names(f, both);
            fputs(",\"totals_a\":", f);
            cgc_json_u64s(f, sa->totals, nev);
            fputs(",\"totals_b\":", f);
            cgc_json_u64s(f, sb->totals, nev);
            fputs(",\"functions\":[", f);
            for (size_t i = 0; i < k; i++) {
                const diff_row *r = &rows[i];
                fputs(i ? ",\n{\"object\":" : "\n{\"object\":", f);
                tk_put_json_string(f, r->object);
                fputs(",\"file\":", f);
                tk_put_json_string(f, r->file);
                fputs(",\"name\":", f);
                tk_put_json_string(f, r->name);
                fputs(",\"self_a\":", f);
                cgc_json_u64s(f, r->a_self, nev);
                fputs(",\"self_b\":", f);
                cgc_json_u64s(f, r->b_self, nev);
                fputs(",\"inclusive_a\":", f);
                cgc_json_u64s(f, r->a_incl, nev);
                fputs(",\"inclusive_b\":", f);
                cgc_json_u64s(f, r->b_incl, nev);
                fputc('}', f);
            }
            fputs("\n]}\n", f);
        } else {
            const char *en = nev ? tk_profile_str(both, tk_profile_event(both, ev)->name) : "";
            fprintf(f, "event: %s\ntotals: ", en);
            cgc_put_commas(f, nev ? sa->totals[ev] : 0);
            fputs(" -> ", f);
            cgc_put_commas(f, nev ? sb->totals[ev] : 0);
            fputs("\n\n", f);
            fprintf(f, "%16s %16s %17s  function\n", "A self", "B self", "B - A");
            for (size_t i = 0; i < k; i++) {
                const diff_row *r = &rows[i];
                uint64_t a = nev ? r->a_self[ev] : 0, b = nev ? r->b_self[ev] : 0;
                cgc_put_padded(f, a, 16);
                fputc(' ', f);
                cgc_put_padded(f, b, 16);
                fputc(' ', f);
                fputc(b >= a ? '+' : '-', f);
                cgc_put_padded(f, b >= a ? b - a : a - b, 16);
                fprintf(f, "  %s [%s] %s\n", r->name, r->object, r->file);
            }
        }
        rc = cli_output_commit(o);
    }
    free(rows);
    tk_prof_summary_free(sa);
    tk_prof_summary_free(sb);
    tk_profile_free(both);
    return rc;
}

/* ---- annotate ------------------------------------------------------------------- */

static const cli_opt annotate_opts[] = {
    {"source-dir", 'I', "DIR", "look for source files in DIR (repeatable)"},
    {"part", 0, "N", "only part N (default: all parts combined)"},
    {"event", 0, "EVENT", "the event to annotate with (default: all events)"},
    {"threshold", 0, "PCT", "only files and functions with at least PCT% of the total self cost of the first event (default 0.1, as callgrind_annotate; 0: all)"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

int cli_callgrind_annotate(cli_ctx *ctx, const cli_args *args, tk_profile *p, FILE *f);

static int run_annotate(cli_ctx *ctx, const cli_args *args)
{
    tk_profile *p;
    int rc = cgc_load_profile(ctx, TK_CALLGRIND_DETAIL_FULL, &p);
    if (rc) return rc;
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        rc = cli_callgrind_annotate(ctx, args, p, tk_output_file(o));
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(o);
        else
            tk_output_abort(o);
    }
    tk_profile_free(p);
    return rc;
}

const cli_format_ops cli_fmt_callgrind = {
    .format = "callgrind",
    .opts = {[CLI_INFO] = info_opts,
             [CLI_CHECK] = check_opts,
             [CLI_REPORT] = cgc_report_opts,
             [CLI_ANNOTATE] = annotate_opts,
             [CLI_CONVERT] = convert_opts,
             [CLI_DUMP] = dump_opts,
             [CLI_DIFF] = diff_opts,
             [CLI_MERGE] = merge_opts},
    .run = {[CLI_INFO] = run_info,
            [CLI_CHECK] = run_check,
            [CLI_REPORT] = cgc_run_report,
            [CLI_ANNOTATE] = run_annotate,
            [CLI_CONVERT] = run_convert,
            [CLI_DUMP] = run_dump,
            [CLI_DIFF] = run_diff,
            [CLI_MERGE] = run_merge},
};
