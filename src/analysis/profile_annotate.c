/* A profile's costs by source line and by instruction address (tracekit/profile_annotate.h):
 * the self and call rows of the parts gathered by (file, line) and by (function, address),
 * the files and functions a coverage cut keeps, the sources found for the files, and a
 * file's source lines around its costed ones. */
#include "tracekit/profile_annotate.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/compat.h"
#include "model/profile.h"
#include "tracekit/input.h"
#include "tracekit/profile_analysis.h"

#define DEFAULT_CONTEXT 3

/* A self, call or jump row of the parts. */
typedef enum { ROW_SELF = 0, ROW_CALL = 1, ROW_JUMP = 2 } row_kind;

typedef struct ann_row {
    uint32_t file_rank, file;
    uint64_t line, addr;
    uint32_t fn_rank, fn;
    row_kind kind;
    int recursive; /* a call inside a recursion class */
    uint32_t other, other_rank; /* the callee (and its name's rank); a jump's target file */
    uint64_t target_line, target_addr;
    uint32_t target_fn;
    uint64_t count, followed; /* calls; a jump's executions and how often it was taken */
    int conditional;
    const uint64_t *costs; /* self: n_events costs; call: n_events inclusive costs */
} ann_row;

/* A file of the line view or a function of the instruction view. */
typedef struct ann_group {
    uint32_t id; /* the file's string id, or the function id */
    uint32_t rank; /* of its name */
    char *source; /* the file's source found, or NULL */
    size_t first_site, sites;
    size_t self; /* index of its n_events self costs in group_values */
} ann_group;

typedef struct ann_site {
    uint64_t line, addr;
    int has_self;
    size_t first_call, calls, first_jump, jumps;
} ann_site;

typedef struct ann_call {
    uint32_t callee, callee_rank;
    int recursive;
    uint64_t count;
    size_t values; /* index of its n_events inclusive costs in call_values */
} ann_call;

typedef struct ann_jump {
    int conditional;
    uint32_t target_file, target_fn;
    uint64_t target_line, target_addr;
    uint64_t executed, followed;
} ann_jump;

/* A growable array (of n elements of size `size`). */
typedef struct ann_vec {
    void *v;
    size_t n, cap;
} ann_vec;

static tk_status vec_grow(ann_vec *x, size_t size)
{
    if (x->n < x->cap) return TK_OK;
    size_t cap = x->cap ? 2 * x->cap : 64;
    void *v = tk_reallocarray(x->v, cap, size);
    if (!v) return TK_ERR_NOMEM;
    x->v = v;
    x->cap = cap;
    return TK_OK;
}

struct tk_prof_annotation {
    const tk_profile *p;
    tk_prof_annotate_options opt;
    size_t nev;
    uint64_t totals[TK_PROFILE_MAX_EVENTS];
    unsigned positions;
    int instructions; /* the instruction view is made */
    ann_row *rows;
    size_t nrows;
    uint32_t *rank; /* of every string (while the views are made) */
    ann_group *files, *functions;
    size_t nfiles, nfunctions, hidden_files, hidden_functions;
    ann_vec sites; /* ann_site */
    ann_vec site_values; /* per site: n_events self, then n_events inclusive */
    ann_vec calls, call_values; /* ann_call; per call n_events inclusive costs */
    ann_vec jumps; /* ann_jump */
    ann_vec group_values; /* per file, then per function: n_events self */
};

#define SITES(a) ((ann_site *)(a)->sites.v)
#define SITE_VALUES(a) ((uint64_t *)(a)->site_values.v)
#define CALLS(a) ((ann_call *)(a)->calls.v)
#define CALL_VALUES(a) ((uint64_t *)(a)->call_values.v)
#define JUMPS(a) ((ann_jump *)(a)->jumps.v)
#define GROUP_VALUES(a) ((uint64_t *)(a)->group_values.v)

static void add_sat(uint64_t *d, const uint64_t *s, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (__builtin_add_overflow(d[j], s[j], &d[j])) d[j] = UINT64_MAX;
}

static uint64_t add_sat1(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static int cmp_u64(uint64_t x, uint64_t y) { return (x > y) - (x < y); }

/* Rows at one site: self rows, then calls by callee, then jumps by target: its line (in
 * its file) in the line view (by_fn 0), its address in the instruction view (1). */
static int cmp_at_site(const ann_row *x, const ann_row *y, int by_fn)
{
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->kind == ROW_CALL) {
        if (x->other != y->other) return x->other < y->other ? -1 : 1;
        return (x->recursive > y->recursive) - (x->recursive < y->recursive);
    }
    if (x->kind != ROW_JUMP) return 0;
    if (x->conditional != y->conditional) return x->conditional < y->conditional ? -1 : 1;
    if (by_fn) return cmp_u64(x->target_addr, y->target_addr);
    if (x->other != y->other) return x->other_rank < y->other_rank ? -1 : 1;
    return cmp_u64(x->target_line, y->target_line);
}

static int cmp_line_row(const void *a, const void *b)
{
    const ann_row *x = a, *y = b;
    if (x->file_rank != y->file_rank) return x->file_rank < y->file_rank ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return cmp_at_site(x, y, 0);
}

static int cmp_addr_row(const void *a, const void *b)
{
    const ann_row *x = a, *y = b;
    if (x->fn_rank != y->fn_rank) return x->fn_rank < y->fn_rank ? -1 : 1;
    if (x->fn != y->fn) return x->fn < y->fn ? -1 : 1; /* same name, other object or file */
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return cmp_at_site(x, y, 1);
}

static int cmp_u64_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

/* The least self cost of the groups a coverage cut keeps: taken hottest first until they
 * cover `coverage` percent of total (the ties of the last one taken too); at least 1, so
 * that groups without a self cost are never kept. v (the groups' self costs) is sorted. */
static uint64_t cover_cut(uint64_t *v, size_t n, uint64_t total, double coverage)
{
    if (!(coverage > 0) || coverage >= 100) coverage = 100;
    qsort(v, n, sizeof *v, cmp_u64_desc);
    uint64_t acc = 0;
    for (size_t i = 0; i < n && v[i]; i++) {
        acc = add_sat1(acc, v[i]);
        if ((double)acc * 100.0 >= coverage * (double)total) return v[i];
    }
    return n && v[n - 1] ? v[n - 1] : 1;
}

/* The name of f without a callgrind context or recursion suffix (`fib'2` -> `fib`): len. */
static size_t base_len(const char *name)
{
    const char *q = *name ? strchr(name + 1, '\'') : NULL;
    return q ? (size_t)(q - name) : strlen(name);
}

/* Whether function fn is the one --function asks for: its name, or its name without a
 * context suffix. */
static int function_matches(const tk_profile *p, uint32_t fn, const char *want)
{
    const char *name = tk_profile_str(p, tk_profile_function_at(p, fn)->name);
    if (!strcmp(name, want)) return 1;
    size_t n = base_len(name);
    return n == strlen(want) && !memcmp(name, want, n);
}

/* A file name without its leading "./" components. */
static const char *trim_dots(const char *s)
{
    while (s[0] == '.' && s[1] == '/') s += 2;
    return s;
}

/* Whether file is the one --file asks for: its name, the same without leading "./"
 * components, or its last components ("demo.c" for "src/demo.c"). */
static int file_matches(const tk_profile *p, uint32_t file, const char *want)
{
    const char *name = file == TK_PROF_NONE ? "" : tk_profile_str(p, file);
    if (!*name) name = "???"; /* as the names are shown */
    const char *t = trim_dots(name), *w = trim_dots(want);
    if (!strcmp(name, want) || !strcmp(t, w)) return 1;
    size_t n = strlen(t), k = strlen(w);
    return k && k < n && t[n - k - 1] == '/' && !strcmp(t + n - k, w);
}

/* Whether a row of function fn in file `file` is annotated (--function, --file). */
static int row_wanted(const tk_prof_annotation *a, uint32_t fn, uint32_t file)
{
    if (a->opt.function && !function_matches(a->p, fn, a->opt.function)) return 0;
    return !a->opt.file || file_matches(a->p, file, a->opt.file);
}

/* The rows of one part (self, call, jump) appended at a->rows + *k. */
static void part_rows(tk_prof_annotation *a, const tk_prof_part *pt, const uint32_t *cls, size_t *k)
{
    const tk_profile *p = a->p;
    const uint32_t *rank = a->rank;
    const tk_prof_self *sr = pt->self.rows;
    for (size_t r = 0; r < pt->self.count; r++) {
        const uint64_t *costs = pt->self.values + r * a->nev;
        add_sat(a->totals, costs, a->nev);
        if (!row_wanted(a, sr[r].fn, sr[r].file)) continue;
        a->rows[(*k)++] = (ann_row){.file_rank = rank[sr[r].file],
                                    .file = sr[r].file,
                                    .line = sr[r].pos.line,
                                    .addr = sr[r].pos.addr,
                                    .fn_rank = rank[tk_profile_function_at(p, sr[r].fn)->name],
                                    .fn = sr[r].fn,
                                    .kind = ROW_SELF,
                                    .costs = costs};
    }
    const tk_prof_call *cr = pt->calls.rows;
    for (size_t r = 0; r < pt->calls.count; r++) {
        if (!row_wanted(a, cr[r].fn, cr[r].file)) continue;
        const uint64_t *v = pt->calls.values + r * (a->nev + 1);
        a->rows[(*k)++] =
            (ann_row){.file_rank = rank[cr[r].file],
                      .file = cr[r].file,
                      .line = cr[r].pos.line,
                      .addr = cr[r].pos.addr,
                      .fn_rank = rank[tk_profile_function_at(p, cr[r].fn)->name],
                      .fn = cr[r].fn,
                      .kind = ROW_CALL,
                      .recursive = cls[cr[r].fn] == cls[cr[r].callee],
                      .other = cr[r].callee,
                      .other_rank = rank[tk_profile_function_at(p, cr[r].callee)->name],
                      .count = v[0],
                      .costs = v + 1};
    }
    const tk_prof_jump *jr = pt->jumps.rows;
    for (size_t r = 0; r < pt->jumps.count; r++) {
        if (!row_wanted(a, jr[r].fn, jr[r].file)) continue;
        const uint64_t *v = pt->jumps.values + r * 2;
        a->rows[(*k)++] = (ann_row){.file_rank = rank[jr[r].file],
                                    .file = jr[r].file,
                                    .line = jr[r].pos.line,
                                    .addr = jr[r].pos.addr,
                                    .fn_rank = rank[tk_profile_function_at(p, jr[r].fn)->name],
                                    .fn = jr[r].fn,
                                    .kind = ROW_JUMP,
                                    .other = jr[r].target_file,
                                    .other_rank = rank[jr[r].target_file],
                                    .target_line = jr[r].target.line,
                                    .target_addr = jr[r].target.addr,
                                    .target_fn = jr[r].target_fn,
                                    .count = v[0],
                                    .followed = v[1],
                                    .conditional = jr[r].conditional != 0};
    }
}

/* The rows of the parts annotated, with the ranks of their file and function names, and
 * the total self cost (of every row, also those --file and --function leave out). */
static tk_status collect_rows(tk_prof_annotation *a, tk_error *err)
{
    const tk_profile *p = a->p;
    size_t n = 0, part = a->opt.part;
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        if (part && part != i + 1) continue;
        const tk_prof_part *pt = tk_profile_part(p, i);
        n += pt->self.count + pt->calls.count + pt->jumps.count;
        a->positions |= pt->positions;
    }
    uint32_t *cls = NULL;
    a->rows = tk_reallocarray(NULL, n ? n : 1, sizeof *a->rows);
    tk_status st = a->rows ? tk_profile_string_ranks(p, &a->rank, err)
                           : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) st = tk_profile_recursion_classes(p, part, 1, &cls, err);
    size_t k = 0;
    for (size_t i = 0; st == TK_OK && i < tk_profile_part_count(p); i++)
        if (!part || part == i + 1) part_rows(a, tk_profile_part(p, i), cls, &k);
    a->nrows = k;
    tk_free(cls);
    return st;
}

/* The calls rows[lo, hi) (one callee) as a call of the last site. */
static tk_status add_call(tk_prof_annotation *a, size_t lo, size_t hi)
{
    size_t nev = a->nev ? a->nev : 1;
    if (vec_grow(&a->calls, sizeof(ann_call)) != TK_OK ||
        vec_grow(&a->call_values, nev * sizeof(uint64_t)) != TK_OK)
        return TK_ERR_NOMEM;
    ann_call *c = &CALLS(a)[a->calls.n++];
    const ann_row *r0 = &a->rows[lo];
    *c = (ann_call){r0->other, r0->other_rank, r0->recursive, 0, a->call_values.n++};
    uint64_t *incl = CALL_VALUES(a) + c->values * nev;
    memset(incl, 0, nev * sizeof *incl);
    for (size_t r = lo; r < hi; r++) {
        c->count = add_sat1(c->count, a->rows[r].count);
        add_sat(incl, a->rows[r].costs, a->nev);
    }
    return TK_OK;
}

/* The jumps rows[lo, hi) (one target) as a jump of the last site. */
static tk_status add_jump(tk_prof_annotation *a, size_t lo, size_t hi)
{
    if (vec_grow(&a->jumps, sizeof(ann_jump)) != TK_OK) return TK_ERR_NOMEM;
    const ann_row *r0 = &a->rows[lo];
    ann_jump *j = &JUMPS(a)[a->jumps.n++];
    *j = (ann_jump){
        r0->conditional, r0->other, r0->target_fn, r0->target_line, r0->target_addr, 0, 0};
    for (size_t r = lo; r < hi; r++) {
        j->executed = add_sat1(j->executed, a->rows[r].count);
        j->followed = add_sat1(j->followed, a->rows[r].followed);
    }
    return TK_OK;
}

/* A site's calls: the heaviest first (inclusive cost of the event), the most frequent, then
 * by name and function id. */
static int cmp_call(const void *x, const void *y, void *ctx)
{
    const tk_prof_annotation *a = ctx;
    const ann_call *c = x, *d = y;
    size_t nev = a->nev ? a->nev : 1;
    if (a->nev) {
        uint64_t u = CALL_VALUES(a)[c->values * nev + a->opt.event];
        uint64_t v = CALL_VALUES(a)[d->values * nev + a->opt.event];
        if (u != v) return u > v ? -1 : 1;
    }
    if (c->count != d->count) return c->count > d->count ? -1 : 1;
    if (c->callee_rank != d->callee_rank) return c->callee_rank < d->callee_rank ? -1 : 1;
    if (c->callee != d->callee) return c->callee < d->callee ? -1 : 1;
    return (c->recursive > d->recursive) - (c->recursive < d->recursive);
}

/* The rows rows[lo, hi) at one line (by_fn 0) or address (1) as a new site: its self and
 * inclusive costs, its calls and its jumps. */
static tk_status add_site(tk_prof_annotation *a, size_t lo, size_t hi, int by_fn)
{
    size_t nev = a->nev, w = nev ? nev : 1;
    if (vec_grow(&a->sites, sizeof(ann_site)) != TK_OK ||
        vec_grow(&a->site_values, 2 * w * sizeof(uint64_t)) != TK_OK)
        return TK_ERR_NOMEM;
    size_t k = a->sites.n++;
    a->site_values.n++;
    ann_site *s = &SITES(a)[k];
    uint64_t *self = SITE_VALUES(a) + k * 2 * w, *incl = self + w;
    memset(self, 0, 2 * w * sizeof *self);
    *s = (ann_site){a->rows[lo].line, a->rows[lo].addr, 0, a->calls.n, 0, a->jumps.n, 0};
    tk_status st = TK_OK;
    for (size_t r = lo, e; r < hi && st == TK_OK; r = e) {
        const ann_row *row = &a->rows[r];
        e = r + 1; /* the rows of one callee or one jump target; self rows one by one */
        while (e < hi && row->kind != ROW_SELF && !cmp_at_site(row, &a->rows[e], by_fn)) e++;
        if (row->kind == ROW_SELF) {
            add_sat(self, row->costs, nev);
            s->has_self = 1;
        } else if (row->kind == ROW_CALL) {
            for (size_t c = r; c < e && !row->recursive; c++) add_sat(incl, a->rows[c].costs, nev);
            st = add_call(a, r, e);
        } else {
            st = add_jump(a, r, e);
        }
    }
    s = &SITES(a)[k];
    s->calls = a->calls.n - s->first_call;
    s->jumps = a->jumps.n - s->first_jump;
    if (s->calls > 1) /* (qsort of a NULL array is undefined even for 0 elements) */
        tk_qsort_r(CALLS(a) + s->first_call, s->calls, sizeof(ann_call), cmp_call, a);
    for (size_t j = 0; j < nev; j++) { /* incl = min(incl + self, total) */
        if (__builtin_add_overflow(incl[j], self[j], &incl[j])) incl[j] = UINT64_MAX;
        if (incl[j] > a->totals[j]) incl[j] = a->totals[j];
    }
    return st;
}

/* The end of the group of rows[lo] (rows of one file, by_fn 0, or one function, 1) and its
 * self cost of the event. */
static size_t group_end(const tk_prof_annotation *a, size_t lo, int by_fn, uint64_t *self)
{
    size_t r = lo;
    uint32_t id = by_fn ? a->rows[lo].fn : a->rows[lo].file;
    *self = 0;
    for (; r < a->nrows && (by_fn ? a->rows[r].fn : a->rows[r].file) == id; r++)
        if (a->rows[r].kind == ROW_SELF && a->nev)
            *self = add_sat1(*self, a->rows[r].costs[a->opt.event]);
    return r;
}

/* Whether rows x and y are at one site: one line of a file (by_fn 0) or one address of a
 * function (1). */
static int same_site(const ann_row *x, const ann_row *y, int by_fn)
{
    return by_fn ? x->fn == y->fn && x->addr == y->addr : x->file == y->file && x->line == y->line;
}

/* A regular file (directories open too)? */
static int is_regular(const char *path)
{
    struct stat st;
    return *path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The source of a file: as named, then under each source dir (the name as is, without a
 * leading "./", and its base name). NULL when none is found (or out of memory). */
static char *find_source(const tk_prof_annotate_options *o, const char *name)
{
    if (!strcmp(name, "???")) return NULL;
    if (is_regular(name)) return tk_strdup(name);
    const char *trimmed = trim_dots(name);
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (size_t i = 0; i < o->n_source_dirs; i++) {
        const char *cands[2] = {trimmed, base};
        size_t dl = strlen(o->source_dirs[i]);
        for (int c = 0; c < 2; c++) {
            if (!*cands[c]) continue;
            size_t cl = strlen(cands[c]);
            char *path = tk_malloc(dl + cl + 2);
            if (!path) return NULL;
            memcpy(path, o->source_dirs[i], dl);
            path[dl] = '/';
            memcpy(path + dl + 1, cands[c], cl + 1);
            if (is_regular(path)) return path;
            tk_free(path);
        }
    }
    return NULL;
}

/* Groups hottest first (self cost of the event), then by name (and function id). */
static int cmp_group(const void *x, const void *y, void *ctx)
{
    const tk_prof_annotation *a = ctx;
    const ann_group *g = x, *h = y;
    size_t w = a->nev ? a->nev : 1;
    if (a->nev) {
        uint64_t u = GROUP_VALUES(a)[g->self * w + a->opt.event];
        uint64_t v = GROUP_VALUES(a)[h->self * w + a->opt.event];
        if (u != v) return u > v ? -1 : 1;
    }
    if (g->rank != h->rank) return g->rank < h->rank ? -1 : 1;
    return (g->id > h->id) - (g->id < h->id);
}

/* Group rows[lo, hi) with its sites as group g. */
static tk_status make_group(tk_prof_annotation *a, size_t lo, size_t hi, int by_fn, ann_group *g)
{
    size_t w = a->nev ? a->nev : 1;
    g->id = by_fn ? a->rows[lo].fn : a->rows[lo].file;
    g->rank = by_fn ? a->rows[lo].fn_rank : a->rows[lo].file_rank;
    g->first_site = a->sites.n;
    if (vec_grow(&a->group_values, w * sizeof(uint64_t)) != TK_OK) return TK_ERR_NOMEM;
    g->self = a->group_values.n++;
    memset(GROUP_VALUES(a) + g->self * w, 0, w * sizeof(uint64_t));
    tk_status st = TK_OK;
    for (size_t s = lo, e; s < hi && st == TK_OK; s = e) {
        for (e = s + 1; e < hi && same_site(&a->rows[s], &a->rows[e], by_fn);) e++;
        st = add_site(a, s, e, by_fn);
        if (st == TK_OK)
            add_sat(GROUP_VALUES(a) + g->self * w, SITE_VALUES(a) + (a->sites.n - 1) * 2 * w,
                    a->nev);
    }
    g->sites = a->sites.n - g->first_site;
    if (st == TK_OK && !by_fn) g->source = find_source(&a->opt, tk_profile_str(a->p, g->id));
    return st;
}

/* The files (by_fn 0) or functions (1) the cut keeps (every one asked for by --file or
 * --function), each with its sites, hottest first. */
static tk_status make_groups(tk_prof_annotation *a, int by_fn)
{
    qsort(a->rows, a->nrows, sizeof *a->rows, by_fn ? cmp_addr_row : cmp_line_row);
    uint64_t *v = tk_reallocarray(NULL, a->nrows ? a->nrows : 1, sizeof *v), cut = 1;
    ann_group *g = tk_calloc(a->nrows ? a->nrows : 1, sizeof *g);
    if (!v || !g) {
        tk_free(v);
        tk_free(g);
        return TK_ERR_NOMEM;
    }
    int asked = a->opt.file || a->opt.function;
    size_t n = 0, ng = 0;
    for (size_t lo = 0; lo < a->nrows; n++) lo = group_end(a, lo, by_fn, &v[n]);
    if (!asked) cut = cover_cut(v, n, a->nev ? a->totals[a->opt.event] : 0, a->opt.coverage);
    tk_free(v);
    tk_status st = TK_OK;
    for (size_t lo = 0, hi; lo < a->nrows && st == TK_OK; lo = hi) {
        uint64_t self;
        hi = group_end(a, lo, by_fn, &self);
        if (!asked && self == 0 && !by_fn) continue;
        if (!asked && self < cut) {
            *(by_fn ? &a->hidden_functions : &a->hidden_files) += 1;
            continue;
        }
        st = make_group(a, lo, hi, by_fn, &g[ng++]);
    }
    if (ng > 1) tk_qsort_r(g, ng, sizeof *g, cmp_group, a);
    *(by_fn ? &a->functions : &a->files) = g;
    *(by_fn ? &a->nfunctions : &a->nfiles) = ng;
    return st;
}

tk_status tk_prof_annotate_open(tk_prof_annotation **out, const tk_profile *p,
                                const tk_prof_annotate_options *opt, tk_error *err)
{
    static const tk_prof_annotate_options defaults = TK_PROF_ANNOTATE_OPTIONS_INIT;
    *out = NULL;
    if (!opt) opt = &defaults;
    size_t nev = tk_profile_event_count(p), np = tk_profile_part_count(p);
    if (opt->part > np)
        return tk_error_set(err, TK_ERR_ARG, "no part %zu (the profile has %zu part%s)", opt->part,
                            np, np == 1 ? "" : "s");
    if (nev && opt->event >= nev)
        return tk_error_set(err, TK_ERR_ARG, "event %zu: the profile has %zu events", opt->event,
                            nev);
    if (opt->coverage > 100 || opt->coverage != opt->coverage)
        return tk_error_set(err, TK_ERR_ARG, "the coverage is a percentage, at most 100");
    tk_prof_annotation *a = tk_calloc(1, sizeof *a);
    if (!a) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    a->p = p;
    a->opt = *opt; /* its source dirs and names are read while the views are made only */
    if (!a->opt.context) a->opt.context = DEFAULT_CONTEXT;
    if (a->opt.context == TK_PROF_ANNOTATE_NO_CONTEXT) a->opt.context = 0;
    a->nev = nev;
    tk_status st = collect_rows(a, err);
    if (st == TK_OK && (a->positions & TK_POS_LINE)) st = make_groups(a, 0);
    a->instructions =
        (a->positions & TK_POS_INSTR) && (opt->instructions || !(a->positions & TK_POS_LINE));
    if (st == TK_OK && a->instructions) st = make_groups(a, 1);
    a->opt.source_dirs = NULL;
    a->opt.n_source_dirs = 0;
    a->opt.file = a->opt.function = NULL;
    tk_free(a->rows); /* the sites hold what the views need */
    tk_free(a->rank);
    a->rows = NULL;
    a->rank = NULL;
    if (st != TK_OK) {
        tk_prof_annotation_free(a);
        if (st == TK_ERR_NOMEM) tk_error_set(err, st, "out of memory");
        return st;
    }
    *out = a;
    return TK_OK;
}

void tk_prof_annotation_free(tk_prof_annotation *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->nfiles; i++) tk_free(a->files[i].source);
    tk_free(a->files);
    tk_free(a->functions);
    tk_free(a->rows);
    tk_free(a->rank);
    tk_free(a->sites.v);
    tk_free(a->site_values.v);
    tk_free(a->calls.v);
    tk_free(a->call_values.v);
    tk_free(a->jumps.v);
    tk_free(a->group_values.v);
    tk_free(a);
}

void tk_prof_annotation_get(const tk_prof_annotation *a, tk_prof_annotation_info *out)
{
    memset(out, 0, sizeof *out);
    out->n_events = a->nev;
    out->totals = a->totals;
    out->positions = a->positions;
    out->instructions = a->instructions;
    out->files = a->nfiles;
    out->functions = a->nfunctions;
    out->hidden_files = a->hidden_files;
    out->hidden_functions = a->hidden_functions;
}

void tk_prof_annotate_file_get(const tk_prof_annotation *a, size_t i,
                               tk_prof_annotate_file_info *out)
{
    memset(out, 0, sizeof *out);
    if (i >= a->nfiles) return;
    const ann_group *g = &a->files[i];
    out->name = g->id;
    out->source = g->source;
    out->self = GROUP_VALUES(a) + g->self * (a->nev ? a->nev : 1);
    out->first_site = g->first_site;
    out->sites = g->sites;
}

void tk_prof_annotate_function_get(const tk_prof_annotation *a, size_t i,
                                   tk_prof_annotate_function_info *out)
{
    memset(out, 0, sizeof *out);
    if (i >= a->nfunctions) return;
    const ann_group *g = &a->functions[i];
    out->fn = g->id;
    out->self = GROUP_VALUES(a) + g->self * (a->nev ? a->nev : 1);
    out->first_site = g->first_site;
    out->sites = g->sites;
}

void tk_prof_annotate_site_get(const tk_prof_annotation *a, size_t k,
                               tk_prof_annotate_site_info *out)
{
    memset(out, 0, sizeof *out);
    if (k >= a->sites.n) return;
    const ann_site *s = &SITES(a)[k];
    size_t w = a->nev ? a->nev : 1;
    out->line = s->line;
    out->addr = s->addr;
    out->has_self = s->has_self;
    out->self = SITE_VALUES(a) + k * 2 * w;
    out->inclusive = out->self + w;
    out->first_call = s->first_call;
    out->calls = s->calls;
    out->first_jump = s->first_jump;
    out->jumps = s->jumps;
}

void tk_prof_annotate_call_get(const tk_prof_annotation *a, size_t k,
                               tk_prof_annotate_call_info *out)
{
    memset(out, 0, sizeof *out);
    if (k >= a->calls.n) return;
    const ann_call *c = &CALLS(a)[k];
    out->callee = c->callee;
    out->count = c->count;
    out->recursive = c->recursive;
    out->inclusive = CALL_VALUES(a) + c->values * (a->nev ? a->nev : 1);
}

void tk_prof_annotate_jump_get(const tk_prof_annotation *a, size_t k,
                               tk_prof_annotate_jump_info *out)
{
    memset(out, 0, sizeof *out);
    if (k >= a->jumps.n) return;
    const ann_jump *j = &JUMPS(a)[k];
    out->conditional = j->conditional;
    out->target_file = j->target_file;
    out->target_fn = j->target_fn;
    out->target_line = j->target_line;
    out->target_addr = j->target_addr;
    out->executed = j->executed;
    out->followed = j->followed;
}

/* ---- a file's source ------------------------------------------------------------------ */

struct tk_prof_source {
    const tk_prof_annotation *a;
    tk_input *in;
    size_t site, end; /* the file's next costed line, and the end of its sites */
    uint64_t lineno; /* of the line last read */
    uint64_t shown_to; /* lines up to this one are shown (context after a costed line) */
    int gap; /* lines were left out since the last one shown */
    int held; /* the line last read waits behind the gap item given before it */
    const char *text;
    size_t len, held_site;
    int done;
};

tk_status tk_prof_source_open(tk_prof_source **out, const tk_prof_annotation *a, size_t file,
                              tk_error *err)
{
    *out = NULL;
    if (file >= a->nfiles || !a->files[file].source)
        return tk_error_set(err, TK_ERR_ARG, "file %zu has no source", file);
    tk_prof_source *s = tk_calloc(1, sizeof *s);
    if (!s) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_input_options io = TK_INPUT_OPTIONS_INIT;
    io.no_decompress = 1; /* a source is text as it is */
    tk_status st = tk_input_open(&s->in, a->files[file].source, &io, err);
    if (st != TK_OK) {
        tk_free(s);
        return st;
    }
    s->a = a;
    s->site = a->files[file].first_site;
    s->end = s->site + a->files[file].sites;
    *out = s;
    return TK_OK;
}

/* The line last read as a LINE item (site: its costed line, or SIZE_MAX). */
static tk_status give_line(tk_prof_source *s, size_t site, tk_prof_source_item *item)
{
    item->kind = TK_SOURCE_LINE;
    item->line = s->lineno;
    item->text = s->text;
    item->len = s->len;
    item->site = site;
    return TK_OK;
}

tk_status tk_prof_source_next(tk_prof_source *s, tk_prof_source_item *item, tk_error *err)
{
    memset(item, 0, sizeof *item);
    if (s->held) {
        s->held = 0;
        return give_line(s, s->held_site, item);
    }
    const ann_site *sites = SITES(s->a);
    uint64_t ctx = s->a->opt.context;
    while (!s->done) {
        tk_status st = tk_input_getline(s->in, &s->text, &s->len, err);
        if (st == TK_END) break;
        if (st != TK_OK) return st;
        s->lineno++;
        while (s->site < s->end && sites[s->site].line < s->lineno) s->site++; /* line 0 */
        uint64_t next = s->site < s->end ? sites[s->site].line : UINT64_MAX;
        int in_window = (next != UINT64_MAX && next - s->lineno <= ctx) ||
                        (s->shown_to && s->lineno <= s->shown_to);
        if (!in_window) {
            s->gap = 1;
            continue;
        }
        size_t site = SIZE_MAX;
        if (next == s->lineno) {
            site = s->site++;
            s->shown_to = s->lineno + ctx;
        }
        if (s->gap) {
            s->gap = 0;
            s->held = 1;
            s->held_site = site;
            item->kind = TK_SOURCE_GAP;
            item->line = s->lineno;
            return TK_OK;
        }
        return give_line(s, site, item);
    }
    if (s->done) return TK_END;
    s->done = 1;
    if (s->site >= s->end) return TK_END;
    item->kind = TK_SOURCE_BEYOND;
    item->beyond = s->end - s->site;
    return TK_OK;
}

void tk_prof_source_free(tk_prof_source *s)
{
    if (!s) return;
    tk_input_free(s->in);
    tk_free(s);
}
