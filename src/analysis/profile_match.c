/* The functions of two profiles of two builds of one program matched for their difference
 * (tk_prof_diff_add): names rewritten by substitutions (cg_diff's --mod-filename and
 * --mod-funcname), then B's functions paired with A's by a key that leaves out the paths.
 * The regular expressions are the C library's (regcomp, which allocates with malloc: its
 * memory is not the installed allocator's, and regfree gives it back). */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytes.h"
#include "model/profile.h"
#include "tracekit/profile_report.h"

/* ---- substitutions ------------------------------------------------------------------- */

typedef struct subst {
    regex_t re;
    int compiled;
    char *text; /* the replacement as written (its escapes read when applied) */
    int global;
} subst;

struct tk_prof_match {
    tk_prof_match_key key;
    subst *subs[2]; /* [0] file and object names, [1] function names */
    size_t nsubs[2];
    tk_bytes_out buf[2]; /* the substitutions' output, one string grows while the other is read */
    uint32_t a_functions; /* both's functions once A is in: A's are 0 .. a_functions - 1 */
    tk_prof_match_info info;
};

static int is_ere_special(char c) { return c && strchr(".[]()*+?{}|^$", c) != NULL; }

/* One "s/REGEX/TEXT/FLAGS" into *s. */
static tk_status subst_compile(subst *s, const char *opt, const char *expr, tk_error *err)
{
    char d = expr[0] == 's' ? expr[1] : 0;
    if (!d || d == '\\' || d == ' ' || d == '\n' || (d >= '0' && d <= '9') ||
        (d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z'))
        return tk_error_set(err, TK_ERR_ARG, "%s '%s': not a substitution s/REGEX/TEXT/", opt,
                            expr);
    size_t n = strlen(expr);
    char *re = tk_malloc(2 * n + 1); /* a delimiter that is special in a regex gets a backslash */
    s->text = tk_malloc(n + 1);
    if (!re || !s->text) {
        tk_free(re);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    const char *p = expr + 2;
    size_t k = 0;
    for (; *p && *p != d; p++) {
        if (*p == '\\' && p[1] == d) {
            if (is_ere_special(d)) re[k++] = '\\';
            re[k++] = d;
            p++;
        } else if (*p == '\\' && p[1]) {
            re[k++] = *p++;
            re[k++] = *p;
        } else {
            re[k++] = *p;
        }
    }
    re[k] = 0;
    if (*p != d) {
        tk_free(re);
        return tk_error_set(err, TK_ERR_ARG, "%s '%s': no %c after the regular expression", opt,
                            expr, d);
    }
    k = 0;
    for (p++; *p && *p != d; p++) {
        if (*p == '\\' && p[1] == d)
            p++; /* the delimiter itself */
        else if (*p == '\\' && p[1])
            s->text[k++] = *p++;
        s->text[k++] = *p;
    }
    s->text[k] = 0;
    if (*p != d) {
        tk_free(re);
        return tk_error_set(err, TK_ERR_ARG, "%s '%s': no %c after the replacement", opt, expr, d);
    }
    int cflags = REG_EXTENDED;
    for (p++; *p; p++) {
        if (*p == 'g')
            s->global = 1;
        else if (*p == 'i')
            cflags |= REG_ICASE;
        else {
            tk_free(re);
            return tk_error_set(err, TK_ERR_ARG, "%s '%s': unknown flag '%c' (flags: g, i)", opt,
                                expr, *p);
        }
    }
    int rc = regcomp(&s->re, re, cflags);
    tk_free(re);
    if (rc) {
        char why[128];
        regerror(rc, &s->re, why, sizeof why);
        return tk_error_set(err, TK_ERR_ARG, "%s '%s': %s", opt, expr, why);
    }
    s->compiled = 1;
    return TK_OK;
}

/* The replacement of the match `g` of in (groups g[0..9]) appended to buffer i. */
static void put_replacement(tk_bytes_out *b, const subst *s, const char *in, const regmatch_t *g)
{
    for (const char *t = s->text; *t; t++) {
        int group = -1;
        if ((*t == '\\' || *t == '$') && t[1] >= '0' && t[1] <= '9') {
            group = *++t - '0';
        } else if (*t == '$' && t[1] == '&') {
            group = 0;
            t++;
        } else if (*t == '\\' && t[1]) {
            t++;
        }
        if (group < 0)
            tk_bytes_put(b, t, 1);
        else if (g[group].rm_so >= 0)
            tk_bytes_put(b, in + g[group].rm_so, (size_t)(g[group].rm_eo - g[group].rm_so));
    }
}

/* in rewritten by s into buffer i (*out points at it). Returns 0, 1 when nothing matched
 * (*out is in), -1 out of memory. */
static int subst_apply(tk_prof_match *m, int i, const subst *s, const char *in, const char **out)
{
    regmatch_t g[10];
    tk_bytes_out *b = &m->buf[i];
    size_t at = 0, inlen = strlen(in);
    int matched = 0;
    *out = in;
    b->len = 0;
    while (at <= inlen && regexec(&s->re, in + at, 10, g, at ? REG_NOTBOL : 0) == 0) {
        for (int k = 0; k < 10; k++)
            if (g[k].rm_so >= 0) g[k].rm_so += (regoff_t)at, g[k].rm_eo += (regoff_t)at;
        tk_bytes_put(b, in + at, (size_t)g[0].rm_so - at);
        put_replacement(b, s, in, g);
        matched = 1;
        at = (size_t)g[0].rm_eo;
        if (g[0].rm_eo == g[0].rm_so) { /* an empty match: the next character stays */
            if (at < inlen) tk_bytes_put(b, in + at, 1);
            at++;
        }
        if (!s->global) break;
    }
    if (!matched) return 1;
    if (at < inlen) tk_bytes_put(b, in + at, inlen - at);
    *out = tk_bytes_cstr(b);
    return *out ? 0 : -1;
}

/* src's string id rewritten by the substitutions of kind (0 paths, 1 names), interned into
 * both: *out; *changed set when a substitution changed it. */
static tk_status rewrite(tk_prof_match *m, int kind, tk_profile *both, const tk_profile *src,
                         uint32_t id, uint32_t *out, int *changed)
{
    if (id == TK_PROF_NONE) {
        *out = TK_PROF_NONE;
        return TK_OK;
    }
    const char *s = tk_profile_str(src, id);
    int turn = 0;
    for (size_t k = 0; k < m->nsubs[kind]; k++) {
        const char *r;
        int rc = subst_apply(m, turn, &m->subs[kind][k], s, &r);
        if (rc < 0) return TK_ERR_NOMEM;
        if (rc == 0) {
            if (strcmp(r, s)) *changed = 1;
            s = r;
            turn ^= 1;
        }
    }
    return tk_profile_intern(both, s, strlen(s), out, NULL);
}

/* ---- the key ------------------------------------------------------------------------- */

typedef struct keyed {
    uint32_t key[3]; /* object, file (base names or none) and name */
    uint32_t names[3]; /* object, file and name */
    uint32_t fn; /* A's function, or B's in src */
} keyed;

static int cmp_keyed(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    for (int i = 0; i < 3; i++)
        if (a->key[i] != b->key[i]) return a->key[i] < b->key[i] ? -1 : 1;
    for (int i = 0; i < 3; i++)
        if (a->names[i] != b->names[i]) return a->names[i] < b->names[i] ? -1 : 1;
    return (a->fn > b->fn) - (a->fn < b->fn);
}

/* The key of a path (string id of both): its last component, or none. */
static tk_status path_key(const tk_prof_match *m, tk_profile *both, uint32_t id, uint32_t *out)
{
    if (m->key == TK_PROF_MATCH_NAME || id == TK_PROF_NONE) {
        *out = TK_PROF_NONE;
        return TK_OK;
    }
    const char *s = tk_profile_str(both, id), *slash = strrchr(s, '/');
    if (slash) s = slash + 1;
    return tk_profile_intern(both, s, strlen(s), out, NULL);
}

static tk_status key_of(const tk_prof_match *m, tk_profile *both, keyed *k)
{
    tk_status st = path_key(m, both, k->names[0], &k->key[0]);
    if (st == TK_OK) st = path_key(m, both, k->names[1], &k->key[1]);
    k->key[2] = k->names[2];
    return st;
}

static int same_key(const keyed *a, const keyed *b)
{
    return a->key[0] == b->key[0] && a->key[1] == b->key[1] && a->key[2] == b->key[2];
}

/* How many different functions (names) the run of rows from i with row i's key has; *end
 * gets the end of the run. */
static size_t key_run(const keyed *k, size_t n, size_t i, size_t *end)
{
    size_t distinct = 0, j = i;
    for (; j < n && same_key(&k[j], &k[i]); j++)
        if (j == i || memcmp(k[j].names, k[j - 1].names, sizeof k[j].names)) distinct++;
    *end = j;
    return distinct;
}

/* fn_map of B's functions (kb, sorted) by A's keys (ka, sorted). */
static tk_status pair_by_key(tk_prof_match *m, tk_profile *both, keyed *ka, size_t na, keyed *kb,
                             size_t nb, uint32_t *fn_map)
{
    size_t a = 0;
    for (size_t b = 0, bend; b < nb; b = bend) {
        size_t nbk = key_run(kb, nb, b, &bend), aend;
        while (a < na && cmp_keyed(&ka[a], &kb[b]) < 0 && !same_key(&ka[a], &kb[b])) a++;
        size_t nak = a < na && same_key(&ka[a], &kb[b]) ? key_run(ka, na, a, &aend) : 0;
        for (size_t j = b; j < bend; j++) {
            uint32_t fn;
            tk_status st;
            if (nak == 1 && nbk == 1) {
                fn = ka[a].fn;
                if (memcmp(ka[a].names, kb[j].names, sizeof kb[j].names)) m->info.paired++;
            } else if ((st = tk_profile_function(both, kb[j].names[0], kb[j].names[1],
                                                 kb[j].names[2], &fn, NULL)) != TK_OK) {
                return st;
            } else if (nak && fn >= m->a_functions) {
                m->info.ambiguous++;
            }
            fn_map[kb[j].fn] = fn;
        }
    }
    return TK_OK;
}

/* ---- the match ----------------------------------------------------------------------- */

tk_status tk_prof_match_open(tk_prof_match **out, const tk_prof_match_options *o, tk_error *err)
{
    static const tk_prof_match_options none = TK_PROF_MATCH_OPTIONS_INIT;
    if (!o) o = &none;
    *out = NULL;
    if (o->key > TK_PROF_MATCH_NAME)
        return tk_error_set(err, TK_ERR_ARG, "no match key %d", (int)o->key);
    tk_prof_match *m = tk_calloc(1, sizeof *m);
    if (!m) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    m->key = o->key;
    const char *const *exprs[2] = {o->mod_filename, o->mod_funcname};
    size_t counts[2] = {o->n_mod_filename, o->n_mod_funcname};
    static const char *const names[2] = {"mod-filename", "mod-funcname"};
    for (int kind = 0; kind < 2; kind++) {
        if (!counts[kind]) continue;
        m->subs[kind] = tk_calloc(counts[kind], sizeof *m->subs[kind]);
        if (!m->subs[kind]) {
            tk_prof_match_free(m);
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        }
        for (size_t k = 0; k < counts[kind]; k++) {
            tk_status st = subst_compile(&m->subs[kind][k], names[kind], exprs[kind][k], err);
            m->nsubs[kind] = k + 1; /* freed with the others, compiled or not */
            if (st != TK_OK) {
                tk_prof_match_free(m);
                return st;
            }
        }
    }
    *out = m;
    return TK_OK;
}

tk_status tk_prof_diff_add(tk_profile *both, const tk_profile *src, tk_prof_match *m, tk_error *err)
{
    size_t side = tk_profile_part_count(both);
    if (side > 1)
        return tk_error_set(err, TK_ERR_ARG, "a difference is of two profiles: both has %zu parts",
                            side);
    if (!m->nsubs[0] && !m->nsubs[1] && m->key == TK_PROF_MATCH_PATH) {
        /* nothing rewritten or paired: tk_profile_merge, functions made as rows need them */
        tk_prof_part *part;
        tk_status pst = tk_profile_add_part(both, &part, err);
        if (pst == TK_OK) pst = tk_profile_merge(both, src, part, err);
        if (pst == TK_OK && side == 0) m->a_functions = (uint32_t)tk_profile_function_count(both);
        return pst;
    }
    size_t nf = tk_profile_function_count(src);
    uint32_t *fn_map = tk_malloc((nf ? nf : 1) * sizeof *fn_map);
    keyed *kb = NULL, *ka = NULL;
    size_t nb = 0, na = 0;
    int by_key = side == 1 && m->key != TK_PROF_MATCH_PATH;
    if (by_key) {
        na = m->a_functions;
        kb = tk_malloc((nf ? nf : 1) * sizeof *kb);
        ka = tk_malloc((na ? na : 1) * sizeof *ka);
    }
    tk_status st = fn_map && (!by_key || (kb && ka)) ? TK_OK : TK_ERR_NOMEM;
    for (uint32_t fn = 0; fn < nf && st == TK_OK; fn++) {
        const tk_prof_function *f = tk_profile_function_at(src, fn);
        uint32_t names[3];
        int changed = 0;
        if ((st = rewrite(m, 0, both, src, f->object, &names[0], &changed)) != TK_OK ||
            (st = rewrite(m, 0, both, src, f->file, &names[1], &changed)) != TK_OK ||
            (st = rewrite(m, 1, both, src, f->name, &names[2], &changed)) != TK_OK)
            break;
        m->info.renamed += changed;
        if (by_key) {
            keyed *k = &kb[nb++];
            memcpy(k->names, names, sizeof names);
            k->fn = fn;
            st = key_of(m, both, k);
        } else {
            st = tk_profile_function(both, names[0], names[1], names[2], &fn_map[fn], NULL);
        }
    }
    for (uint32_t fn = 0; by_key && fn < na && st == TK_OK; fn++) {
        const tk_prof_function *f = tk_profile_function_at(both, fn);
        keyed *k = &ka[fn];
        k->names[0] = f->object;
        k->names[1] = f->file;
        k->names[2] = f->name;
        k->fn = fn;
        st = key_of(m, both, k);
    }
    if (by_key && st == TK_OK) {
        qsort(ka, na, sizeof *ka, cmp_keyed);
        qsort(kb, nb, sizeof *kb, cmp_keyed);
        st = pair_by_key(m, both, ka, na, kb, nb, fn_map);
    }
    tk_free(ka);
    tk_free(kb);
    tk_prof_part *into;
    if (st != TK_OK) {
        tk_free(fn_map);
        return tk_error_set(err, st,
                            st == TK_ERR_LIMIT ? "more functions than ids" : "out of memory");
    }
    if ((st = tk_profile_add_part(both, &into, err)) == TK_OK)
        st = tk_profile_merge_mapped(both, src, into, fn_map, err);
    tk_free(fn_map);
    if (st == TK_OK && side == 0) m->a_functions = (uint32_t)tk_profile_function_count(both);
    return st;
}

void tk_prof_match_get(const tk_prof_match *m, tk_prof_match_info *out) { *out = m->info; }

void tk_prof_match_free(tk_prof_match *m)
{
    if (!m) return;
    for (int kind = 0; kind < 2; kind++) {
        for (size_t k = 0; k < m->nsubs[kind]; k++) {
            if (m->subs[kind][k].compiled) regfree(&m->subs[kind][k].re);
            tk_free(m->subs[kind][k].text);
        }
        tk_free(m->subs[kind]);
    }
    tk_free(m->buf[0].p);
    tk_free(m->buf[1].p);
    tk_free(m);
}
