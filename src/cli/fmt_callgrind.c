/* Command handlers for callgrind files: info, check, report, annotate,
 * convert (callgrind, json, dot), dump, diff, merge. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/textout.h"

/* ---- shared helpers ------------------------------------------------------------- */

/* Read every input into one profile (their parts appended in order). */
static int load_profile_opts(cli_ctx *ctx, tk_callgrind_detail detail, int skip_jumps,
                             int drop_files, int call_counts_only, tk_profile **out)
{
    tk_profile *p;
    if (tk_profile_new(&p) != TK_OK) {
        fprintf(stderr, "tracekit: out of memory\n");
        return CLI_EXIT_BAD_INPUT;
    }
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
        o.path = ctx->paths[i];
        o.detail = detail;
        o.skip_jumps = skip_jumps;
        o.drop_files = drop_files;
        o.call_counts_only = call_counts_only;
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

static int load_profile(cli_ctx *ctx, tk_callgrind_detail detail, tk_profile **out)
{
    return load_profile_opts(ctx, detail, 0, 0, 0, out);
}

static const char *str_or(const tk_profile *p, uint32_t id, const char *dflt)
{
    if (id == TK_PROF_NONE) return dflt;
    const char *s = tk_profile_str(p, id);
    return *s ? s : dflt;
}

/* Report output writes many small pieces: skip stdio's per-call locking. */
#ifdef __GLIBC__
#define out_write(p, n, f) fwrite_unlocked((p), 1, (n), (f))
#define out_char(c, f) putc_unlocked((c), (f))
#else
#define out_write(p, n, f) fwrite((p), 1, (n), (f))
#define out_char(c, f) putc((c), (f))
#endif

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

static void put_u64(FILE *f, uint64_t v)
{
    char buf[24];
    char *p = u64_digits(v, buf + sizeof buf);
    out_write(p, (size_t)(buf + sizeof buf - p), f);
}

/* v with thousands separators, right-aligned in width (0: no padding). */
static void put_padded(FILE *f, uint64_t v, int width)
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

static void put_commas(FILE *f, uint64_t v) { put_padded(f, v, 0); }

/* put_padded into memory: appends at out (room for 64 bytes), returns the new end. */
static char *fmt_padded(char *out, uint64_t v, int width)
{
    static const uint64_t pow10[20] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
                                       1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
                                       10000000000ULL, 100000000000ULL, 1000000000000ULL,
                                       10000000000000ULL, 100000000000000ULL,
                                       1000000000000000ULL, 10000000000000000ULL,
                                       100000000000000000ULL, 1000000000000000000ULL,
                                       10000000000000000000ULL};
    /* digits of v: log10 from the bit length, corrected by one comparison */
    int bits = 64 - __builtin_clzll(v | 1);
    int digits = (bits * 1233) >> 12;
    digits += (v | 1) >= pow10[digits];
    int len = digits + (digits - 1) / 3;
    if (width > 64) width = 64; /* put_padded's limit */
    if (width <= 32)
        memset(out, ' ', 32);
    else
        memset(out, ' ', 64);
    char *end = out + (len > width ? len : width);
    char *p = end;
    for (int group = 0;;) {
        *--p = (char)('0' + v % 10);
        v /= 10;
        if (!v) break;
        if (++group == 3) {
            *--p = ',';
            group = 0;
        }
    }
    return end;
}

static int width_commas(uint64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d + (d - 1) / 3;
}

static void json_u64s(FILE *f, const uint64_t *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i) fputc(',', f);
        put_u64(f, v[i]);
    }
    fputc(']', f);
}

static double pct(uint64_t v, uint64_t total)
{
    return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* " ( 12.3%) ", like printf(" (%5.1f%%) ") for 0..999.9, without printf: appends at out
 * (room for 64 bytes), returns the new end. */
static char *fmt_pct(char *out, double v)
{
    if (!(v >= 0) || v >= 999.95) {
        int n = snprintf(out, 64, " (%5.1f%%) ", v);
        return out + (n < 0 ? 0 : n > 63 ? 63 : n);
    }
    unsigned t = (unsigned)(v * 10.0 + 0.5);
    unsigned whole = t / 10;
    out[0] = ' ';
    out[1] = '(';
    out[2] = whole >= 100 ? (char)('0' + whole / 100) : ' ';
    out[3] = whole >= 10 ? (char)('0' + whole / 10 % 10) : ' ';
    out[4] = (char)('0' + whole % 10);
    out[5] = '.';
    out[6] = (char)('0' + t % 10);
    memcpy(out + 7, "%) ", 3);
    return out + 10;
}

/* "Ir,Dr" -> event indexes. Returns count, or -1 after a usage error. */
static int parse_event_list(const char *cmd, const tk_profile *p, const char *list,
                            size_t *idx, size_t max)
{
    size_t n = 0;
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        int ev = tk_profile_find_event(p, s, len);
        if (ev < 0) {
            cli_usage_error(cmd, "unknown event '%.*s' (the profile has:%s)", (int)len, s,
                            tk_profile_event_count(p) ? "" : " none");
            for (size_t i = 0; i < tk_profile_event_count(p); i++)
                fprintf(stderr, " %s", tk_profile_str(p, tk_profile_event(p, i)->name));
            if (tk_profile_event_count(p)) fputc('\n', stderr);
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
    int rc = load_profile(ctx, TK_CALLGRIND_DETAIL_NONE, &p);
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
                put_commas(stdout, pt->line_sum[e]);
            }
            printf("\n");
        }
    }
    tk_profile_free(p);
    return CLI_EXIT_OK;
}

/* ---- check ---------------------------------------------------------------------- */

static const cli_opt check_opts[] = {{NULL, 0, NULL, NULL}};

static int run_check(cli_ctx *ctx, const cli_args *args)
{
    (void)args;
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_profile *p;
        if (tk_profile_new(&p) != TK_OK) return cli_usage_error("check", "out of memory");
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
        tk_profile_free(p);
    }
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
    int rc = load_profile(ctx, TK_CALLGRIND_DETAIL_FULL, &p);
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

/* ---- report --------------------------------------------------------------------- */

static const cli_opt report_opts[] = {
    {"by", 0, "KEY", "function (default), file-function (callgrind_annotate's key), file, object, line"},
    {"sort", 0, "EVENT[,EVENT]", "sort by these events (default: the first event)"},
    {"top", 'n', "N", "show at most N rows"},
    {"threshold", 0, "PCT", "hide rows whose sort cost is below PCT% of the total"},
    {"coverage", 0, "PCT", "stop once the rows shown cover PCT% of the total of the first sort event, as callgrind_annotate's --threshold (default 99 for a text table of self costs, else 100: every row)"},
    {"inclusive", 0, NULL, "sort by and show inclusive costs"},
    {"tree", 0, "KIND", "caller, calling or both: list each function's callers (<) and/or callees (>) with the calls' counts and inclusive costs, as callgrind_annotate --tree"},
    {"part", 0, "N", "only part N (1-based, over all files), default: all parts combined"},
    {"format", 0, "FMT", "text (default), json or csv"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

/* Derived events ("event: Sum = Ir + 2 Dr") evaluated on a cost vector;
 * ok[i] = 0 when the formula cannot be evaluated (unknown event, overflow). */
static void eval_derived(const tk_profile *p, const uint64_t *costs, uint64_t *out, int *ok)
{
    for (size_t i = 0; i < tk_profile_derived_count(p); i++)
        ok[i] = tk_profile_eval_derived(p, i, costs, &out[i]) == TK_OK;
}

static void json_derived(FILE *f, const tk_profile *p, const uint64_t *costs)
{
    uint64_t v[TK_PROFILE_MAX_EVENTS];
    int ok[TK_PROFILE_MAX_EVENTS];
    eval_derived(p, costs, v, ok);
    fputc('[', f);
    for (size_t i = 0; i < tk_profile_derived_count(p); i++) {
        if (i) fputc(',', f);
        if (ok[i])
            put_u64(f, v[i]);
        else
            fputs("null", f);
    }
    fputc(']', f);
}

static void csv_derived(FILE *f, const tk_profile *p, const uint64_t *costs)
{
    uint64_t v[TK_PROFILE_MAX_EVENTS];
    int ok[TK_PROFILE_MAX_EVENTS];
    eval_derived(p, costs, v, ok);
    for (size_t i = 0; i < tk_profile_derived_count(p); i++) {
        fputc(',', f);
        if (ok[i]) put_u64(f, v[i]);
    }
}

static const char *const group_names[] = {"function", "file-function", "file", "object", "line"};

static void entry_label(FILE *f, const tk_profile *p, tk_prof_group g, const tk_prof_entry *e)
{
    switch (g) {
    case TK_GROUP_FUNCTION: {
        const char *n = str_or(p, e->name, "???"), *o = str_or(p, e->object, "???");
        const char *fl = str_or(p, e->file, "???");
        out_write(n, strlen(n), f);
        out_write(" [", 2, f);
        out_write(o, strlen(o), f);
        out_write("] ", 2, f);
        out_write(fl, strlen(fl), f);
        break;
    }
    case TK_GROUP_FILE_FUNCTION:
        fprintf(f, "%s:%s", str_or(p, e->file, "???"), str_or(p, e->name, "???"));
        break;
    case TK_GROUP_FILE: fputs(str_or(p, e->file, "???"), f); break;
    case TK_GROUP_OBJECT: fputs(str_or(p, e->object, "???"), f); break;
    case TK_GROUP_LINE: fprintf(f, "%s:%" PRIu64, str_or(p, e->file, "???"), e->line); break;
    }
}

/* Text rows are collected in a 1 MiB buffer and written with one fwrite
 * each time it fills: a report can be as large as its input (long context
 * names), and stdio's own 4 KiB buffer would make one write(2) per 4 KiB. */
typedef struct row_buf {
    char *b;
    size_t n, cap;
    FILE *f;
} row_buf;

static void rb_flush(row_buf *o)
{
    if (o->n) out_write(o->b, o->n, o->f);
    o->n = 0;
}

static void rb_put(row_buf *o, const char *p, size_t n)
{
    if (o->n + n > o->cap) {
        rb_flush(o);
        if (n > o->cap) {
            out_write(p, n, o->f);
            return;
        }
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

/* A name of the profile, "???" when it has none (as str_or). */
static void rb_put_str(row_buf *o, const tk_profile *p, uint32_t id)
{
    size_t n = id == TK_PROF_NONE ? 0 : tk_profile_str_len(p, id);
    if (n) rb_put(o, tk_profile_str(p, id), n);
    else rb_put(o, "???", 3);
}

/* ---- report --tree ---------------------------------------------------------------- */

enum { TREE_NONE = 0, TREE_CALLERS = 1, TREE_CALLEES = 2, TREE_BOTH = 3 };

typedef struct arc_order {
    const tk_prof_arcs *a;
    size_t event;
} arc_order;

/* Heaviest calls first (inclusive cost of the first sort event), then the most
 * frequent, then the summary's order of the other end. */
static int cmp_arc(const void *x, const void *y, void *ctx)
{
    const arc_order *o = ctx;
    const tk_prof_arc *a = &o->a->arcs[*(const size_t *)x], *b = &o->a->arcs[*(const size_t *)y];
    uint64_t ca = o->a->n_events ? a->inclusive[o->event] : 0;
    uint64_t cb = o->a->n_events ? b->inclusive[o->event] : 0;
    if (ca != cb) return ca > cb ? -1 : 1;
    if (a->calls != b->calls) return a->calls > b->calls ? -1 : 1;
    size_t ea = a->caller ^ a->callee, eb = b->caller ^ b->callee; /* the other end (xor the shared one) */
    return (ea > eb) - (ea < eb);
}

/* The arcs into (callers) or out of (callees) entry i, heaviest first, into
 * idx (room for a->count). Returns how many. */
static size_t tree_arcs(const tk_prof_arcs *a, size_t i, int callees, size_t event, size_t *idx)
{
    size_t first, n;
    if (callees) {
        n = tk_prof_arcs_out_of(a, i, &first);
        for (size_t k = 0; k < n; k++) idx[k] = a->by_caller[first + k];
    } else {
        n = tk_prof_arcs_into(a, i, &first);
        for (size_t k = 0; k < n; k++) idx[k] = first + k;
    }
    arc_order o = {a, event};
    qsort_r(idx, n, sizeof *idx, cmp_arc, &o);
    return n;
}

/* One text row of a tree: costs (the entry's, or a call's inclusive cost in
 * the inclusive columns when the table has them), calls, mark, label. */
static void tree_row(FILE *f, const tk_profile *p, tk_prof_group group, const tk_prof_summary *s,
                     const tk_prof_entry *e, const uint64_t *self, const uint64_t *incl,
                     uint64_t calls, const char *mark, const int *w, size_t primary)
{
    char row[(2 * TK_PROFILE_MAX_EVENTS + 1) * 2 * 64];
    char *r = row;
    size_t nev = s->n_events;
    for (int pass = 0; pass < 2; pass++) {
        const uint64_t *v = pass ? incl : self;
        if (pass && !incl) break;
        for (size_t j = 0; j < nev; j++) {
            size_t width = (size_t)w[j] + (j == primary ? 10 : 1);
            if (!v) {
                memset(r, ' ', width);
                r += width;
                continue;
            }
            r = fmt_padded(r, v[j], w[j]);
            if (j == primary)
                r = fmt_pct(r, pct(v[j], s->totals[j]));
            else
                *r++ = ' ';
        }
    }
    r = fmt_padded(r, calls, 10);
    *r++ = ' ';
    out_write(row, (size_t)(r - row), f);
    fputs(mark, f);
    entry_label(f, p, group, e);
    out_char('\n', f);
}

/* The text table with each function's callers and callees around it. */
static void tree_text(FILE *f, const tk_profile *p, tk_prof_group group, const tk_prof_summary *s,
                      const tk_prof_arcs *a, size_t limit, int tree, int inclusive, size_t primary,
                      const int *w, size_t *idx)
{
    for (size_t i = 0; i < limit; i++) {
        const tk_prof_entry *e = &s->entries[i];
        if (i) out_char('\n', f);
        for (int side = 0; side < 2; side++) {
            if (side == 0 && !(tree & TREE_CALLERS)) continue;
            if (side == 1) /* the function itself, between its callers and callees */
                tree_row(f, p, group, s, e, e->self, inclusive ? e->inclusive : NULL, e->calls,
                         "* ", w, primary);
            if (side == 1 && !(tree & TREE_CALLEES)) continue;
            size_t n = tree_arcs(a, i, side, primary, idx);
            for (size_t k = 0; k < n; k++) {
                const tk_prof_arc *arc = &a->arcs[idx[k]];
                const tk_prof_entry *other = &s->entries[side ? arc->callee : arc->caller];
                tree_row(f, p, group, s, other, inclusive ? NULL : arc->inclusive,
                         inclusive ? arc->inclusive : NULL, arc->calls, side ? "  > " : "  < ", w,
                         primary);
            }
        }
    }
}

/* ,"callers":[...],"callees":[...] of entry i (as the tree asks). */
static void tree_json(FILE *f, const tk_profile *p, const tk_prof_summary *s, const tk_prof_arcs *a,
                      size_t i, int tree, size_t primary, size_t *idx)
{
    for (int side = 0; side < 2; side++) {
        if (!(tree & (side ? TREE_CALLEES : TREE_CALLERS))) continue;
        fputs(side ? ",\"callees\":[" : ",\"callers\":[", f);
        size_t n = tree_arcs(a, i, side, primary, idx);
        for (size_t k = 0; k < n; k++) {
            const tk_prof_arc *arc = &a->arcs[idx[k]];
            const tk_prof_entry *o = &s->entries[side ? arc->callee : arc->caller];
            fputs(k ? ",{\"object\":" : "{\"object\":", f);
            tk_put_json_string(f, str_or(p, o->object, ""));
            fputs(",\"file\":", f);
            tk_put_json_string(f, str_or(p, o->file, ""));
            fputs(",\"name\":", f);
            tk_put_json_string(f, str_or(p, o->name, ""));
            fprintf(f, ",\"calls\":%" PRIu64 ",\"inclusive\":", arc->calls);
            json_u64s(f, arc->inclusive, s->n_events);
            fputc('}', f);
        }
        fputc(']', f);
    }
}

static int run_report(cli_ctx *ctx, const cli_args *args)
{
    const char *cmd = "report";
    int by = cli_get_choice(cmd, args, "by", "function|file-function|file|object|line", 0);
    int fmt = cli_get_choice(cmd, args, "format", "text|json|csv", 0);
    uint64_t top, part;
    double threshold, coverage;
    int inclusive = cli_has(args, "inclusive");
    int tree = cli_get_choice(cmd, args, "tree", "none|caller|calling|both", TREE_NONE);
    if (tree < 0) return CLI_EXIT_USAGE;
    /* callgrind_annotate lists functions until they cover 99 % of the first
     * sort event: so does the text table of self costs (on the 130 MB bench
     * profile 66 K rows instead of 151 K); machine-readable output is whole */
    double coverage_default = fmt == 0 && !inclusive ? 99.0 : 100.0;
    if (by < 0 || fmt < 0 || cli_get_u64(cmd, args, "top", 0, &top) ||
        cli_get_u64(cmd, args, "part", 0, &part) ||
        cli_get_double(cmd, args, "threshold", 0.0, &threshold) ||
        cli_get_double(cmd, args, "coverage", coverage_default, &coverage))
        return CLI_EXIT_USAGE;
    if (!(coverage > 0.0 && coverage <= 100.0))
        return cli_usage_error(cmd, "--coverage wants a percentage above 0, at most 100");
    tk_prof_group group = (tk_prof_group)by;
    if (tree && group != TK_GROUP_FUNCTION && group != TK_GROUP_FILE_FUNCTION)
        return cli_usage_error(cmd, "--tree lists the callers and callees of functions: "
                                    "use it with --by function or file-function");
    if (tree && fmt == 2) return cli_usage_error(cmd, "--tree is for text and json output");
    tk_callgrind_detail detail = group == TK_GROUP_LINE ? TK_CALLGRIND_DETAIL_LINES
                                                        : TK_CALLGRIND_DETAIL_FUNCTIONS;
    tk_profile *p;
    /* the report needs no jumps; per function it needs no cost files either;
     * a text table of self costs shows no inclusive cost: the calls are only
     * counted, and the summary has no inclusive costs */
    int self_only = fmt == 0 && !inclusive && !tree;
    int rc = load_profile_opts(ctx, detail, 1, group == TK_GROUP_FUNCTION, self_only, &p);
    if (rc) return rc;
    size_t nev = tk_profile_event_count(p);
    size_t nder = tk_profile_derived_count(p);
    size_t sort[4] = {0};
    size_t nsort = nev ? 1 : 0;
    const char *sortarg = cli_get(args, "sort");
    if (sortarg) {
        int n = parse_event_list(cmd, p, sortarg, sort, 4);
        if (n < 0) {
            tk_profile_free(p);
            return CLI_EXIT_USAGE;
        }
        nsort = (size_t)n;
    }
    tk_prof_summary *s;
    tk_error err;
    tk_error_clear(&err);
    if ((self_only ? tk_profile_summarize_self : tk_profile_summarize)(p, (size_t)part, group, &s, &err) !=
        TK_OK) {
        tk_profile_free(p);
        if (err.code == TK_ERR_ARG) return cli_usage_error(cmd, "%s", err.message);
        return cli_error(&err);
    }
    size_t sorted = tk_prof_summary_sort_cover(s, p, sort, nsort, inclusive, coverage);
    if (!sorted && s->count) {
        fprintf(stderr, "tracekit: out of memory\n");
        tk_prof_summary_free(s);
        tk_profile_free(p);
        return CLI_EXIT_BAD_INPUT;
    }
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc) {
        tk_prof_summary_free(s);
        tk_profile_free(p);
        return rc;
    }
    FILE *f = tk_output_file(o);
    size_t shown = 0;
    size_t primary = nsort ? sort[0] : 0;
    uint64_t total_primary = nev ? s->totals[primary] : 0;
    /* rows to show: the rows with a cost (in the sort order, rows without
     * one come last), after threshold, coverage and top; a text table of
     * self costs lists the functions with a self cost, as callgrind_annotate
     * does. Coverage cuts before the first row at which the rows above
     * cover that much, within the sorted prefix. */
    size_t limit = s->count;
    uint64_t covered = 0;
    for (size_t i = 0; i < s->count; i++) {
        const tk_prof_entry *e = &s->entries[i];
        uint64_t v = nev ? (inclusive ? e->inclusive : e->self)[primary] : 0;
        int all_zero = 1;
        for (size_t j = 0; j < nev; j++)
            if (e->self[j] || (e->inclusive && e->inclusive[j])) all_zero = 0;
        if (all_zero || (threshold > 0 && pct(v, total_primary) < threshold) ||
            tk_prof_covered(covered, total_primary, coverage) || i >= sorted) {
            limit = i;
            break;
        }
        covered = covered + v < covered ? UINT64_MAX : covered + v;
    }
    if (top && top < limit) limit = (size_t)top;
    tk_prof_arcs *arcs = NULL;
    size_t *arc_idx = NULL;
    if (tree) {
        if (tk_profile_summary_arcs(p, (size_t)part, s, group, &arcs, &err) != TK_OK ||
            !(arc_idx = malloc((arcs->count ? arcs->count : 1) * sizeof *arc_idx))) {
            if (arcs) tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
            tk_prof_arcs_free(arcs);
            tk_output_abort(o);
            tk_prof_summary_free(s);
            tk_profile_free(p);
            return cli_error(&err);
        }
    }

    if (fmt == 1) {
        fprintf(f, "{\"version\":1,\"format\":\"callgrind\",\"by\":\"%s\",\"parts\":%zu,",
                group_names[by], part ? (size_t)1 : tk_profile_part_count(p));
        fputs("\"events\":[", f);
        for (size_t i = 0; i < nev; i++) {
            if (i) fputc(',', f);
            tk_put_json_string(f, tk_profile_str(p, tk_profile_event(p, i)->name));
        }
        fputs("],\"totals\":", f);
        json_u64s(f, s->totals, nev);
        if (nder) {
            fputs(",\"derived_events\":[", f);
            for (size_t i = 0; i < nder; i++) {
                const tk_prof_derived *d = tk_profile_derived(p, i);
                fputs(i ? ",{\"name\":" : "{\"name\":", f);
                tk_put_json_string(f, tk_profile_str(p, d->name));
                fputs(",\"formula\":", f);
                tk_put_json_string(f, tk_profile_str(p, d->formula));
                fputc('}', f);
            }
            fputs("],\"derived_totals\":", f);
            json_derived(f, p, s->totals);
        }
        fputs(",\"functions\":[", f);
        for (size_t i = 0; i < limit; i++) {
            const tk_prof_entry *e = &s->entries[i];
            fputs(i ? ",\n{" : "\n{", f);
            fputs("\"object\":", f);
            tk_put_json_string(f, str_or(p, e->object, ""));
            fputs(",\"file\":", f);
            tk_put_json_string(f, str_or(p, e->file, ""));
            fputs(",\"name\":", f);
            tk_put_json_string(f, str_or(p, e->name, ""));
            if (group == TK_GROUP_LINE) fprintf(f, ",\"line\":%" PRIu64, e->line);
            fputs(",\"self\":", f);
            json_u64s(f, e->self, nev);
            fputs(",\"inclusive\":", f);
            json_u64s(f, e->inclusive, nev);
            if (nder) {
                fputs(",\"derived_self\":", f);
                json_derived(f, p, e->self);
                fputs(",\"derived_inclusive\":", f);
                json_derived(f, p, e->inclusive);
            }
            fprintf(f, ",\"calls\":%" PRIu64, e->calls);
            if (arcs) tree_json(f, p, s, arcs, i, tree, primary, arc_idx);
            fputc('}', f);
            shown++;
        }
        fputs("\n]}\n", f);
    } else if (fmt == 2) {
        fputs("object,file,name,line", f);
        for (size_t i = 0; i < nev; i++)
            fprintf(f, ",self_%s", tk_profile_str(p, tk_profile_event(p, i)->name));
        for (size_t i = 0; i < nev; i++)
            fprintf(f, ",inclusive_%s", tk_profile_str(p, tk_profile_event(p, i)->name));
        fputs(",calls", f);
        for (size_t i = 0; i < nder; i++)
            fprintf(f, ",self_%s", tk_profile_str(p, tk_profile_derived(p, i)->name));
        for (size_t i = 0; i < nder; i++)
            fprintf(f, ",inclusive_%s", tk_profile_str(p, tk_profile_derived(p, i)->name));
        fputc('\n', f);
        for (size_t i = 0; i < limit; i++) {
            const tk_prof_entry *e = &s->entries[i];
            tk_put_csv_field(f, str_or(p, e->object, ""));
            fputc(',', f);
            tk_put_csv_field(f, str_or(p, e->file, ""));
            fputc(',', f);
            tk_put_csv_field(f, str_or(p, e->name, ""));
            fprintf(f, ",%" PRIu64, e->line);
            for (size_t j = 0; j < nev; j++) {
                fputc(',', f);
                put_u64(f, e->self[j]);
            }
            for (size_t j = 0; j < nev; j++) {
                fputc(',', f);
                put_u64(f, e->inclusive[j]);
            }
            fprintf(f, ",%" PRIu64, e->calls);
            csv_derived(f, p, e->self);
            csv_derived(f, p, e->inclusive);
            fputc('\n', f);
        }
    } else {
        fprintf(f, "parts: %zu%s\n", part ? (size_t)1 : tk_profile_part_count(p),
                part ? " (selected)" : "");
        fputs("events:", f);
        for (size_t i = 0; i < nev; i++) fprintf(f, " %s", tk_profile_str(p, tk_profile_event(p, i)->name));
        fputs("\n", f);
        int w[TK_PROFILE_MAX_EVENTS];
        for (size_t j = 0; j < nev; j++) {
            w[j] = width_commas(s->totals[j]);
            int nl = (int)strlen(tk_profile_str(p, tk_profile_event(p, j)->name)) + (inclusive ? 5 : 0);
            if (nl > w[j]) w[j] = nl;
        }
        fputs("program totals:", f);
        for (size_t j = 0; j < nev; j++) {
            fputc(' ', f);
            put_commas(f, s->totals[j]);
        }
        fputc('\n', f);
        if (nder) {
            uint64_t dv[TK_PROFILE_MAX_EVENTS];
            int ok[TK_PROFILE_MAX_EVENTS];
            eval_derived(p, s->totals, dv, ok);
            for (size_t i = 0; i < nder; i++) {
                const tk_prof_derived *d = tk_profile_derived(p, i);
                fprintf(f, "derived %s = %s: ", tk_profile_str(p, d->name),
                        tk_profile_str(p, d->formula));
                if (ok[i])
                    put_commas(f, dv[i]);
                else
                    fputs("(cannot be evaluated)", f);
                fputc('\n', f);
            }
        }
        fputc('\n', f);
        for (size_t j = 0; j < nev; j++) {
            const char *n = tk_profile_str(p, tk_profile_event(p, j)->name);
            if (j == primary)
                fprintf(f, "%*s %-9s", w[j], n, "");
            else
                fprintf(f, "%*s ", w[j], n);
        }
        if (inclusive)
            for (size_t j = 0; j < nev; j++) {
                char h[80];
                snprintf(h, sizeof h, "%s-incl", tk_profile_str(p, tk_profile_event(p, j)->name));
                if (j == primary)
                    fprintf(f, "%*s %-9s", w[j], h, "");
                else
                    fprintf(f, "%*s ", w[j], h);
            }
        if (group == TK_GROUP_FUNCTION || group == TK_GROUP_FILE_FUNCTION) fprintf(f, "%10s ", "calls");
        fprintf(f, "%s\n", group_names[by]);
        if (arcs) {
            tree_text(f, p, group, s, arcs, limit, tree, inclusive, primary, w, arc_idx);
            if (limit < s->count)
                fprintf(f, "\n(%zu more row%s not shown)\n", s->count - limit,
                        s->count - limit == 1 ? "" : "s");
            goto written;
        }
        /* each row's numbers are formatted in memory and written at once */
        char row[(2 * TK_PROFILE_MAX_EVENTS + 1) * 2 * 64];
        row_buf rb = {NULL, 0, 0, f};
        if (limit > 64 && (rb.b = malloc(1 << 20)) != NULL) rb.cap = 1 << 20;
        /* The rows are in cost order, their names and costs anywhere in
         * memory: look the names up first in a loop of independent loads
         * (the misses overlap), then fetch a few rows ahead. */
        enum { AHEAD = 8 };
        const char **names = rb.b && group == TK_GROUP_FUNCTION ? malloc(limit * sizeof *names) : NULL;
        for (size_t i = 0; names && i < limit; i++) /* NULL: "???" (rb_put_str) */
            names[i] = tk_profile_str_len(p, s->entries[i].name) ? tk_profile_str(p, s->entries[i].name) : NULL;
        for (size_t i = 0; i < limit; i++) {
            const tk_prof_entry *e = &s->entries[i];
            if (names && i + AHEAD < limit) {
                __builtin_prefetch(names[i + AHEAD]);
                __builtin_prefetch(s->entries[i + AHEAD].self);
            }
            char *r = row;
            for (size_t j = 0; j < nev; j++) {
                r = fmt_padded(r, e->self[j], w[j]);
                if (j == primary)
                    r = fmt_pct(r, pct(e->self[j], s->totals[j]));
                else
                    *r++ = ' ';
            }
            if (inclusive)
                for (size_t j = 0; j < nev; j++) {
                    r = fmt_padded(r, e->inclusive[j], w[j]);
                    if (j == primary)
                        r = fmt_pct(r, pct(e->inclusive[j], s->totals[j]));
                    else
                        *r++ = ' ';
                }
            if (group == TK_GROUP_FUNCTION || group == TK_GROUP_FILE_FUNCTION) {
                r = fmt_padded(r, e->calls, 10);
                *r++ = ' ';
            }
            if (rb.b && group == TK_GROUP_FUNCTION) {
                rb_put(&rb, row, (size_t)(r - row));
                if (names && names[i]) rb_put(&rb, names[i], tk_profile_str_len(p, e->name));
                else rb_put_str(&rb, p, e->name);
                rb_put(&rb, " [", 2);
                rb_put_str(&rb, p, e->object);
                rb_put(&rb, "] ", 2);
                rb_put_str(&rb, p, e->file);
                rb_put(&rb, "\n", 1);
                continue;
            }
            out_write(row, (size_t)(r - row), f);
            entry_label(f, p, group, e);
            out_char('\n', f);
        }
        rb_flush(&rb);
        free(rb.b);
        free(names);
        if (limit < s->count)
            fprintf(f, "(%zu more row%s not shown)\n", s->count - limit, s->count - limit == 1 ? "" : "s");
    }
written:
    (void)shown;
    free(arc_idx);
    tk_prof_arcs_free(arcs);
    rc = cli_output_commit(o);
    tk_prof_summary_free(s);
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

static void json_pos(FILE *f, const tk_prof_pos *pos)
{
    fprintf(f, "\"line\":%" PRIu64 ",\"addr\":%" PRIu64 ",\"bb\":%" PRIu64, pos->line, pos->addr,
            pos->bb);
}

/* The whole model as JSON (names inline, rows in storage order). */
static void write_json(const tk_profile *p, FILE *f)
{
    size_t nev = tk_profile_event_count(p);
    fputs("{\"version\":1,\"format\":\"tracekit-profile\",\"events\":[", f);
    for (size_t i = 0; i < nev; i++) {
        if (i) fputc(',', f);
        tk_put_json_string(f, tk_profile_str(p, tk_profile_event(p, i)->name));
    }
    fputs("],\n\"functions\":[", f);
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
            json_u64s(f, pt->self.values + r * nev, nev);
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
            json_u64s(f, v + 1, nev);
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
    int to = cli_get_choice(cmd, args, "to", "callgrind|dot|json|folded", -1);
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
    int rc = to == 1 || to == 3 ? load_profile_opts(ctx, TK_CALLGRIND_DETAIL_FUNCTIONS, 1, 1, 0, &p)
                                : load_profile(ctx, TK_CALLGRIND_DETAIL_FULL, &p);
    if (rc) return rc;
    const char *ev = cli_get(args, "event");
    if (ev) {
        size_t idx;
        if (parse_event_list(cmd, p, ev, &idx, 1) != 1) {
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
    if (to == 0) {
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        if (cli_has(args, "no-compress")) wo.compress_names = wo.compress_positions = 0;
        st = tk_callgrind_write(p, tk_output_file(o), &wo, &err);
    } else if (to == 1) {
        st = tk_profile_write_dot(p, &dot, tk_output_file(o), &err);
    } else if (to == 3) {
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
    int rc = load_profile(ctx, TK_CALLGRIND_DETAIL_FULL, &src);
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
    {"format", 0, "FMT", "text (default) or json"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

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
    int fmt = cli_get_choice(cmd, args, "format", "text|json", 0);
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
    if (sortarg && parse_event_list(cmd, both, sortarg, &ev, 1) != 1) {
        tk_profile_free(both);
        return CLI_EXIT_USAGE;
    }
    tk_prof_summary *sa = NULL, *sb = NULL;
    tk_error err;
    tk_error_clear(&err);
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
        r->name = str_or(both, a->name, "???");
        r->file = str_or(both, a->file, "???");
        r->object = str_or(both, a->object, "???");
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
        if (fmt == 1) {
            fputs("{\"version\":1,\"format\":\"callgrind-diff\",\"events\":[", f);
            for (size_t j = 0; j < nev; j++) {
                if (j) fputc(',', f);
                tk_put_json_string(f, tk_profile_str(both, tk_profile_event(both, j)->name));
            }
            fputs("],\"totals_a\":", f);
            json_u64s(f, sa->totals, nev);
            fputs(",\"totals_b\":", f);
            json_u64s(f, sb->totals, nev);
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
                json_u64s(f, r->a_self, nev);
                fputs(",\"self_b\":", f);
                json_u64s(f, r->b_self, nev);
                fputs(",\"inclusive_a\":", f);
                json_u64s(f, r->a_incl, nev);
                fputs(",\"inclusive_b\":", f);
                json_u64s(f, r->b_incl, nev);
                fputc('}', f);
            }
            fputs("\n]}\n", f);
        } else {
            const char *en = nev ? tk_profile_str(both, tk_profile_event(both, ev)->name) : "";
            fprintf(f, "event: %s\ntotals: ", en);
            put_commas(f, nev ? sa->totals[ev] : 0);
            fputs(" -> ", f);
            put_commas(f, nev ? sb->totals[ev] : 0);
            fputs("\n\n", f);
            fprintf(f, "%16s %16s %17s  function\n", "A self", "B self", "B - A");
            for (size_t i = 0; i < k; i++) {
                const diff_row *r = &rows[i];
                uint64_t a = nev ? r->a_self[ev] : 0, b = nev ? r->b_self[ev] : 0;
                put_padded(f, a, 16);
                fputc(' ', f);
                put_padded(f, b, 16);
                fputc(' ', f);
                fputc(b >= a ? '+' : '-', f);
                put_padded(f, b >= a ? b - a : a - b, 16);
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
    int rc = load_profile(ctx, TK_CALLGRIND_DETAIL_FULL, &p);
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
             [CLI_REPORT] = report_opts,
             [CLI_ANNOTATE] = annotate_opts,
             [CLI_CONVERT] = convert_opts,
             [CLI_DUMP] = dump_opts,
             [CLI_DIFF] = diff_opts,
             [CLI_MERGE] = merge_opts},
    .run = {[CLI_INFO] = run_info,
            [CLI_CHECK] = run_check,
            [CLI_REPORT] = run_report,
            [CLI_ANNOTATE] = run_annotate,
            [CLI_CONVERT] = run_convert,
            [CLI_DUMP] = run_dump,
            [CLI_DIFF] = run_diff,
            [CLI_MERGE] = run_merge},
};
