/* tracekit annotate for callgrind profiles: per source line self cost and the
 * inclusive cost of the calls made on that line, next to the source text when
 * the file can be found; per instruction address when the profile has them.
 *
 * Recursion: a call arc whose caller and callee are in one recursion class
 * (tk_profile_recursion_classes with context suffixes merged, so `fib` and
 * `fib'2` are one function) can be active several times in one call chain,
 * and its inclusive cost already contains the costs of the nested activations
 * of the same lines: it adds nothing to the line's inclusive column. Arcs
 * between classes never nest and are added in full. The column is finally
 * capped at the program total, like report's inclusive costs. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "callgrind.h"

#define CONTEXT_LINES 3

typedef struct line_row {
    uint32_t file_rank;
    uint32_t file;
    uint64_t line;
    uint64_t addr;
    uint32_t fn_rank;
    uint32_t fn;
    int is_call; /* 0 self row, 1 call row, 2 call row inside a recursion class */
    const uint64_t *costs;
} line_row;

static int cmp_line_row(const void *a, const void *b)
{
    const line_row *x = a, *y = b;
    if (x->file_rank != y->file_rank) return x->file_rank < y->file_rank ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return (x->is_call > y->is_call) - (x->is_call < y->is_call);
}

/* Adds row r's costs to self (self rows) or incl (call rows outside a recursion class). */
static void add_row(const line_row *r, uint64_t *self, uint64_t *incl, size_t w)
{
    if (r->is_call == 2) return;
    uint64_t *d = r->is_call ? incl : self;
    for (size_t j = 0; j < w; j++)
        if (__builtin_add_overflow(d[j], r->costs[j], &d[j])) d[j] = UINT64_MAX;
}

/* incl = min(incl + self, total) per event. */
static void finish_incl(uint64_t *incl, const uint64_t *self, const uint64_t *total, size_t w)
{
    for (size_t j = 0; j < w; j++) {
        if (__builtin_add_overflow(incl[j], self[j], &incl[j])) incl[j] = UINT64_MAX;
        if (incl[j] > total[j]) incl[j] = total[j];
    }
}

static int cmp_addr_row(const void *a, const void *b)
{
    const line_row *x = a, *y = b;
    if (x->fn_rank != y->fn_rank) return x->fn_rank < y->fn_rank ? -1 : 1;
    if (x->fn != y->fn) return x->fn < y->fn ? -1 : 1; /* same name, other object or file */
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return (x->is_call > y->is_call) - (x->is_call < y->is_call);
}

static int cmp_u64_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

/* --threshold, callgrind_annotate's: the files (functions) are taken hottest first until
 * they cover pct % of the total; returns the least self cost of those taken (ties of the
 * last one taken are taken too), at least 1. v (the self costs) is sorted. */
static uint64_t cover_cut(uint64_t *v, size_t n, uint64_t total, double pct)
{
    qsort(v, n, sizeof *v, cmp_u64_desc);
    uint64_t acc = 0;
    for (size_t i = 0; i < n && v[i]; i++) {
        acc = acc + v[i] < acc ? UINT64_MAX : acc + v[i];
        if ((double)acc * 100.0 >= pct * (double)total) return v[i];
    }
    return n && v[n - 1] ? v[n - 1] : 1;
}

static void put_num(FILE *f, uint64_t v, int width)
{
    char buf[32], out[48];
    int n = snprintf(buf, sizeof buf, "%" PRIu64, v), k = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) out[k++] = ',';
        out[k++] = buf[i];
    }
    out[k] = 0;
    fprintf(f, "%*s", width, out);
}

/* Characters of v with thousands separators. */
static int num_width(uint64_t v)
{
    int digits = 1;
    while (v >= 10) {
        v /= 10;
        digits++;
    }
    return digits + (digits - 1) / 3;
}

/* Columns are cw characters wide: no value exceeds the program total. */
static void put_cost_cols(FILE *f, const uint64_t *self, const uint64_t *incl, const size_t *ev,
                          size_t nev, int any, int cw)
{
    for (size_t j = 0; j < nev; j++) {
        if (any && self[ev[j]])
            put_num(f, self[ev[j]], cw);
        else
            fprintf(f, "%*s", cw, any ? "." : "");
        fputc(' ', f);
    }
    for (size_t j = 0; j < nev; j++) {
        if (incl[ev[j]])
            put_num(f, incl[ev[j]], cw);
        else
            fprintf(f, "%*s", cw, "");
        fputc(' ', f);
    }
}

/* Find a source file: as named, then under each --source-dir (the name as is,
 * without a leading "./", and its base name). */
/* A regular file opened for reading, or NULL (directories open too). */
static FILE *open_regular(const char *path)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    if (f && (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))) {
        fclose(f);
        f = NULL;
    }
    return f;
}

static FILE *open_source(const char *name, const char *const *dirs, int ndirs, char *found,
                         size_t size)
{
    FILE *f = NULL;
    if (*name && (f = open_regular(name))) {
        snprintf(found, size, "%s", name);
        return f;
    }
    const char *trimmed = name;
    while (trimmed[0] == '.' && trimmed[1] == '/') trimmed += 2;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (int i = 0; i < ndirs; i++) {
        const char *cands[2] = {trimmed, base};
        for (int c = 0; c < 2; c++) {
            if (!*cands[c]) continue;
            snprintf(found, size, "%s/%s", dirs[i], cands[c]);
            if ((f = open_regular(found))) return f;
        }
    }
    return NULL;
}

/* Source lines [from, to] with costs of rows[lo, hi) (sorted by line). */
static void annotate_source(FILE *out, FILE *src, const line_row *rows, size_t lo, size_t hi,
                            const size_t *ev, size_t nev, size_t w, const uint64_t *total,
                            int cw)
{
    /* windows of lines around costed lines */
    char *line = NULL;
    size_t cap = 0;
    uint64_t lineno = 0;
    size_t r = lo;
    uint64_t shown_to = 0;
    uint64_t self[TK_PROFILE_MAX_EVENTS], incl[TK_PROFILE_MAX_EVENTS];
    ssize_t got;
    int gap = 0;
    while ((got = getline(&line, &cap, src)) >= 0) {
        lineno++;
        while (r < hi && rows[r].line < lineno) r++; /* line 0 and lines before */
        /* next costed line at or after lineno */
        uint64_t next = r < hi ? rows[r].line : UINT64_MAX;
        int in_window = (next != UINT64_MAX && next - lineno <= CONTEXT_LINES) ||
                        (shown_to && lineno <= shown_to);
        if (!in_window) {
            gap = 1;
            continue;
        }
        if (gap)
            fprintf(out, "-- line %" PRIu64 " ----------------------------------------\n",
                    lineno);
        gap = 0;
        memset(self, 0, w * sizeof *self);
        memset(incl, 0, w * sizeof *incl);
        int any = 0;
        while (r < hi && rows[r].line == lineno) {
            add_row(&rows[r], self, incl, w);
            if (!rows[r].is_call) any = 1;
            r++;
        }
        if (any || next == lineno) {
            shown_to = lineno + CONTEXT_LINES;
            any = 1;
        }
        if (any) finish_incl(incl, self, total, w);
        put_cost_cols(out, self, incl, ev, nev, any, cw);
        if (got > 0 && line[got - 1] == '\n') line[got - 1] = 0;
        fprintf(out, " %s\n", line);
    }
    if (r < hi) fprintf(out, "-- %zu costed line(s) beyond the end of the source file\n", hi - r);
    free(line);
}

const cli_opt cli_callgrind_annotate_opts[] = {
    {"source-dir", 'I', "DIR", "look for source files in DIR (repeatable)"},
    {"part", 0, "N", "only part N (default: all parts combined)"},
    {"event", 0, "EVENT", "the event to annotate with (default: all events)"},
    {"threshold", 0, "PCT", "the files (functions of --instr) hottest first until they cover "
                            "PCT% of the total self cost of the first event (default 99, "
                            "callgrind_annotate's --threshold)"},
    {"coverage", 0, "PCT", "the same as --threshold"},
    {"all", 0, NULL, "every file and function with a cost"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

/* What annotate was asked for. */
typedef struct settings {
    uint64_t part;                      /* 0: all parts */
    const char *dirs[64];               /* --source-dir */
    int ndirs;
    size_t ev[TK_PROFILE_MAX_EVENTS];   /* the events shown; ev[0] decides the threshold */
    size_t nev;
    double threshold;
} settings;

/* The cost rows of the parts annotated, and what they add up to. */
typedef struct annotation {
    const tk_profile *p;
    line_row *rows;
    size_t count;
    size_t w;                           /* events of the profile */
    uint64_t total[TK_PROFILE_MAX_EVENTS];
    unsigned positions;                 /* TK_POS_* of the parts */
    int cw;                             /* width of a cost column */
    size_t hidden_files, hidden_fns;
} annotation;

static int parse_settings(const cli_args *args, const tk_profile *p, settings *o)
{
    const char *cmd = "annotate";
    if (cli_get_u64(cmd, args, "part", 0, &o->part)) return CLI_EXIT_USAGE;
    if (o->part > tk_profile_part_count(p))
        return cli_usage_error(cmd, "no part %" PRIu64 " (the profile has %zu)", o->part,
                               tk_profile_part_count(p));
    o->ndirs = cli_get_all(args, "source-dir", o->dirs, 64);
    o->nev = tk_profile_event_count(p);
    for (size_t i = 0; i < o->nev; i++) o->ev[i] = i;
    const char *evarg = cli_get(args, "event");
    if (evarg) {
        int ei = tk_profile_find_event(p, evarg, strlen(evarg));
        if (ei < 0) return cli_usage_error(cmd, "unknown event '%s'", evarg);
        o->ev[0] = (size_t)ei;
        o->nev = 1;
    }
    cli_rows rows; /* -n is not annotate's: --threshold and --all */
    if (cli_get_rows(cmd, args, 0, &rows)) return CLI_EXIT_USAGE;
    o->threshold = rows.fixed ? 99.0 : rows.threshold;
    return CLI_EXIT_OK;
}

/* The self and call rows of the parts (all, or part o->part), with the ranks of
 * their file and function names, the total self cost and the column width. */
static int collect_rows(const settings *o, annotation *a)
{
    const tk_profile *p = a->p;
    size_t w = a->w, n = 0;
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        if (o->part && o->part != i + 1) continue;
        tk_prof_part_info pt;
        tk_prof_part_get(tk_profile_part(p, i), &pt);
        n += pt.self_rows + pt.call_rows;
        a->positions |= pt.positions;
    }
    uint32_t *rank = NULL;
    uint32_t *cls = NULL;
    a->rows = malloc((n ? n : 1) * sizeof *a->rows);
    tk_error err;
    tk_error_clear(&err);
    if (tk_profile_string_ranks(p, &rank, &err) != TK_OK || !a->rows ||
        tk_profile_recursion_classes(p, (size_t)o->part, 1, &cls, &err) != TK_OK) {
        tk_free(rank);
        return cli_usage_error("annotate", "out of memory");
    }
    size_t k = 0;
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        if (o->part && o->part != i + 1) continue;
        const tk_prof_part *pt = tk_profile_part(p, i);
        const tk_prof_self *sr;
        const uint64_t *costs;
        for (size_t r = 0; (sr = tk_prof_part_self(pt, r, &costs)); r++, k++) {
            a->rows[k] = (line_row){rank[sr->file], sr->file, sr->pos.line, sr->pos.addr,
                                    rank[tk_profile_function_at(p, sr->fn)->name], sr->fn, 0,
                                    costs};
            uint64_t zero[TK_PROFILE_MAX_EVENTS];
            memset(zero, 0, sizeof zero);
            add_row(&a->rows[k], a->total, zero, w);
        }
        const tk_prof_call *cr;
        const uint64_t *inclusive;
        for (size_t r = 0; (cr = tk_prof_part_call(pt, r, NULL, &inclusive)); r++, k++) {
            a->rows[k] = (line_row){rank[cr->file], cr->file, cr->pos.line, cr->pos.addr,
                                    rank[tk_profile_function_at(p, cr->fn)->name], cr->fn,
                                    cls[cr->fn] == cls[cr->callee] ? 2 : 1, inclusive};
        }
    }
    a->count = k;
    tk_free(rank);
    tk_free(cls);
    a->cw = 14;
    for (size_t j = 0; j < o->nev; j++)
        if (num_width(a->total[o->ev[j]]) > a->cw) a->cw = num_width(a->total[o->ev[j]]);
    return CLI_EXIT_OK;
}

/* The costs of a file's rows[lo, hi) per line, without its source. */
static void annotate_lines(FILE *out, const settings *o, const annotation *a, size_t lo, size_t hi)
{
    const line_row *rows = a->rows;
    uint64_t self[TK_PROFILE_MAX_EVENTS], incl[TK_PROFILE_MAX_EVENTS];
    for (size_t r = lo; r < hi;) {
        uint64_t line = rows[r].line;
        memset(self, 0, sizeof self);
        memset(incl, 0, sizeof incl);
        int any = 0;
        for (; r < hi && rows[r].line == line; r++) {
            add_row(&rows[r], self, incl, a->w);
            if (!rows[r].is_call) any = 1;
        }
        finish_incl(incl, self, a->total, a->w);
        put_cost_cols(out, self, incl, o->ev, o->nev, any, a->cw);
        fprintf(out, " line %" PRIu64 "\n", line);
    }
}

/* The self cost of the file of rows[lo] (rows sorted by file); *hi: after its rows. */
static uint64_t file_self_cost(const annotation *a, size_t lo, size_t e0, size_t *hi)
{
    uint64_t self = 0;
    size_t r = lo;
    for (; r < a->count && a->rows[r].file == a->rows[lo].file; r++)
        if (!a->rows[r].is_call) self += a->rows[r].costs[e0];
    *hi = r;
    return self;
}

/* The least self cost of a file shown (cover_cut of the files'). */
static uint64_t file_cut(const settings *o, const annotation *a)
{
    uint64_t *v = malloc((a->count ? a->count : 1) * sizeof *v), cut = 1;
    if (!v) return 1; /* every file */
    size_t n = 0;
    for (size_t lo = 0, hi; lo < a->count; lo = hi) v[n++] = file_self_cost(a, lo, o->ev[0], &hi);
    cut = cover_cut(v, n, a->total[o->ev[0]], o->threshold);
    free(v);
    return cut;
}

/* Each source file with a cost (among those --threshold takes), its lines next to their
 * costs when the file is found, else the costs per line. */
static void annotate_files(FILE *out, const settings *o, annotation *a)
{
    line_row *rows = a->rows;
    size_t k = a->count, e0 = o->ev[0];
    qsort(rows, k, sizeof *rows, cmp_line_row);
    uint64_t cut = file_cut(o, a);
    for (size_t lo = 0, hi; lo < k; lo = hi) {
        uint64_t file_self = file_self_cost(a, lo, e0, &hi);
        const char *name = tk_profile_str(a->p, rows[lo].file);
        char found[4096];
        FILE *src = (file_self >= cut && strcmp(name, "???") != 0)
                        ? open_source(name, o->dirs, o->ndirs, found, sizeof found)
                        : NULL;
        if (file_self == 0) continue;
        if (file_self < cut) {
            a->hidden_files++;
            continue;
        }
        fprintf(out, "\n================ %s", *name ? name : "???");
        if (src) {
            fprintf(out, " (%s)\n", found);
            annotate_source(out, src, rows, lo, hi, o->ev, o->nev, a->w, a->total, a->cw);
            fclose(src);
        } else {
            fputs(" (source not found; costs per line)\n", out);
            annotate_lines(out, o, a, lo, hi);
        }
    }
}

/* The self cost of the rows of function fn from rows[r] on; *end: after them. */
static uint64_t function_self(const annotation *a, size_t r, uint32_t fn, size_t e0, size_t *end)
{
    uint64_t fn_self = 0;
    for (; r < a->count && a->rows[r].fn == fn; r++)
        if (!a->rows[r].is_call &&
            __builtin_add_overflow(fn_self, a->rows[r].costs[e0], &fn_self))
            fn_self = UINT64_MAX;
    *end = r;
    return fn_self;
}

/* The costs per instruction address, function by function. */
static void annotate_instrs(FILE *out, const settings *o, annotation *a)
{
    line_row *rows = a->rows;
    size_t k = a->count;
    qsort(rows, k, sizeof *rows, cmp_addr_row);
    uint64_t cut = 1, *v = malloc((k ? k : 1) * sizeof *v);
    if (v) { /* the least self cost of a function shown (cover_cut) */
        size_t n = 0;
        for (size_t r = 0; r < k;) v[n++] = function_self(a, r, rows[r].fn, o->ev[0], &r);
        cut = cover_cut(v, n, a->total[o->ev[0]], o->threshold);
        free(v);
    }
    fputs("\n================ instructions\n", out);
    uint64_t self[TK_PROFILE_MAX_EVENTS], incl[TK_PROFILE_MAX_EVENTS];
    uint32_t cur_fn = TK_PROF_NONE;
    for (size_t r = 0; r < k;) {
        if (rows[r].fn != cur_fn) {
            cur_fn = rows[r].fn;
            size_t end;
            if (function_self(a, r, cur_fn, o->ev[0], &end) < cut) {
                a->hidden_fns++;
                r = end;
                continue;
            }
            const tk_prof_function *f = tk_profile_function_at(a->p, cur_fn);
            fprintf(out, "-- %s [%s]\n", tk_profile_str(a->p, f->name),
                    tk_profile_str(a->p, f->object));
        }
        uint64_t addr = rows[r].addr;
        uint64_t line = rows[r].line;
        memset(self, 0, sizeof self);
        memset(incl, 0, sizeof incl);
        int any = 0;
        for (; r < k && rows[r].fn == cur_fn && rows[r].addr == addr; r++) {
            add_row(&rows[r], self, incl, a->w);
            if (!rows[r].is_call) any = 1;
        }
        finish_incl(incl, self, a->total, a->w);
        put_cost_cols(out, self, incl, o->ev, o->nev, any, a->cw);
        fprintf(out, " 0x%" PRIx64, addr);
        if (a->positions & TK_POS_LINE) fprintf(out, " (line %" PRIu64 ")", line);
        fputc('\n', out);
    }
}

static int annotate(const cli_args *args, const tk_profile *p, FILE *out)
{
    settings o;
    int rc = parse_settings(args, p, &o);
    if (rc != CLI_EXIT_OK) return rc;
    annotation a;
    memset(&a, 0, sizeof a);
    a.p = p;
    a.w = tk_profile_event_count(p);
    rc = collect_rows(&o, &a);
    if (rc != CLI_EXIT_OK) {
        free(a.rows);
        return rc;
    }
    fputs("Columns: self cost per event, then self + cost of the calls made on the line\n"
          "(calls within a recursion are not counted again).\n", out);
    fputs("Events:", out);
    for (size_t j = 0; j < o.nev; j++)
        fprintf(out, " %s", tk_profile_str(p, tk_profile_event(p, o.ev[j])->name));
    fputs("\n", out);
    if (a.positions & TK_POS_LINE) annotate_files(out, &o, &a);
    if (a.positions & TK_POS_INSTR) annotate_instrs(out, &o, &a);
    if (a.hidden_files || a.hidden_fns) {
        fputs("\n(", out);
        if (a.hidden_files) fprintf(out, "%zu file%s", a.hidden_files, cli_s(a.hidden_files));
        if (a.hidden_files && a.hidden_fns) fputs(" and ", out);
        if (a.hidden_fns) fprintf(out, "%zu function%s", a.hidden_fns, cli_s(a.hidden_fns));
        fprintf(out, " not shown: those shown cover %g%% of the total %s; --all shows them)\n",
                o.threshold, tk_profile_str(p, tk_profile_event(p, o.ev[0])->name));
    }
    free(a.rows);
    return CLI_EXIT_OK;
}

int cli_callgrind_annotate(cli_ctx *ctx, const cli_args *args)
{
    tk_profile *p;
    int rc = cli_callgrind_load(ctx, TK_CALLGRIND_DETAIL_FULL, &p);
    if (rc) return rc;
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        rc = annotate(args, p, cli_output_file(o));
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(o);
        else
            cli_output_abort(o);
    }
    tk_profile_free(p);
    return rc;
}
