/* The semantic check of CSI coverage metadata: array names, indices, labels. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/strpool.h"
#include "core/vec.h"
#include "formats/csi_cov/cov_internal.h"

/* An array seen in an earlier function. */
typedef struct array_use {
    uint64_t line; /* its function's header */
    uint32_t function; /* name id in the pool */
} array_use;

struct tk_csi_cov_checker {
    tk_csi_cov_kind kind;
    tk_strpool arrays, names;
    TK_VEC(array_use) uses; /* by array id */
};

tk_status tk_csi_cov_checker_open(tk_csi_cov_checker **out, tk_csi_cov_kind kind, tk_error *err)
{
    *out = tk_calloc(1, sizeof **out);
    if (!*out) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    (*out)->kind = kind;
    tk_strpool_init(&(*out)->arrays);
    tk_strpool_init(&(*out)->names);
    return TK_OK;
}

void tk_csi_cov_checker_free(tk_csi_cov_checker *c)
{
    if (!c) return;
    tk_strpool_free(&c->arrays);
    tk_strpool_free(&c->names);
    TK_VEC_FREE(&c->uses);
    tk_free(c);
}

typedef struct check_ctx {
    tk_csi_cov_checker *c;
    const tk_csi_cov_function *fn;
    const char *path;
    tk_diag *diag;
} check_ctx;

static void report(check_ctx *x, tk_severity sev, uint64_t line, uint64_t col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void report(check_ctx *x, tk_severity sev, uint64_t line, uint64_t col, const char *fmt, ...)
{
    tk_location loc = {x->path, -1, line, col};
    va_list ap;
    va_start(ap, fmt);
    tk_diag_vreport(x->diag, sev, &loc, fmt, ap);
    va_end(ap);
}

/* __CC_arr_[FILE_]NAME: the kind's prefix, then the function's name (up to
 * its first '$') after an optional mangled file path. */
static void check_array_name(check_ctx *x)
{
    const tk_csi_cov_function *fn = x->fn;
    uint64_t col = fn->name_len + 3;
    tk_csi_cov_kind k = tk_csi_cov_kind_of_array(fn->array, fn->array_len);
    const char *want = tk_csi_cov_kind_name(x->c->kind);
    if (k != x->c->kind) {
        if (k == TK_CSI_COV_NONE)
            report(x, TK_SEV_ERROR, fn->text_line, col,
                   "array %s is not a %s array: csi-cc names them __%s_arr_[FILE_]%.*s", fn->array,
                   tk_csi_cov_kind_title(x->c->kind), want,
                   (int)tk_cov_base_len(fn->name, fn->name_len), fn->name);
        else
            report(x, TK_SEV_ERROR, fn->text_line, col,
                   "array %s is a %s array (__%s_arr_), in %s metadata (__%s_arr_)", fn->array,
                   tk_csi_cov_kind_title(k), tk_csi_cov_kind_name(k),
                   tk_csi_cov_kind_title(x->c->kind), want);
        return;
    }
    size_t klen, blen = tk_cov_base_len(fn->name, fn->name_len);
    const char *key = tk_cov_array_key(fn->array, fn->array_len, &klen);
    int ok = klen == blen ? memcmp(key, fn->name, blen) == 0
                          : klen > blen && key[klen - blen - 1] == '_' &&
                                memcmp(key + klen - blen, fn->name, blen) == 0;
    if (!ok)
        report(x, TK_SEV_ERROR, fn->text_line, col,
               "array %s does not belong to function %s: csi-cc names it __%s_arr_[FILE_]%.*s",
               fn->array, fn->name, want, (int)blen, fn->name);
}

/* One array per function; clones (foo$1, foo$2) share the original's. */
static tk_status check_array_use(check_ctx *x)
{
    const tk_csi_cov_function *fn = x->fn;
    tk_csi_cov_checker *c = x->c;
    uint32_t id = tk_strpool_intern(&c->arrays, fn->array, fn->array_len);
    uint32_t name = tk_strpool_intern(&c->names, fn->name, tk_cov_base_len(fn->name, fn->name_len));
    if (id == TK_STR_NONE || name == TK_STR_NONE) return TK_ERR_NOMEM;
    if (id < c->uses.len) {
        const array_use *u = &c->uses.data[id];
        int clone = u->function == name;
        report(x, clone ? TK_SEV_WARNING : TK_SEV_ERROR, fn->text_line, fn->name_len + 3,
               "array %s is also the array of the function at line %" PRIu64 "%s", fn->array,
               u->line,
               clone ? " (csi-cc shares one array between clones of a function)"
                     : ": two functions cannot share a coverage array");
        return TK_OK;
    }
    array_use u = {fn->text_line, name};
    return TK_VEC_PUSH(&c->uses, u) != 0 ? TK_ERR_NOMEM : TK_OK;
}

/* Number of characters of the index field (the label's column is after it). */
static uint64_t index_width(int64_t v)
{
    uint64_t w = v < 0 ? 2 : 1;
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    while (m >= 10) {
        m /= 10;
        w++;
    }
    return w;
}

static void check_label(check_ctx *x, const tk_csi_cov_entry *e)
{
    const char *kind = tk_csi_cov_kind_name(x->c->kind);
    char want[48];
    if (e->index >= 0)
        snprintf(want, sizeof want, "%s%" PRId64, kind, e->index);
    else
        want[0] = 0;
    if (e->label_len == strlen(want) && memcmp(e->label, want, e->label_len) == 0) return;
    uint64_t col = index_width(e->index) + 2;
    if (e->index < 0)
        report(x, TK_SEV_ERROR, e->text_line, col,
               "label '%s' on a site not instrumented: csi-cc leaves the label empty", e->label);
    else
        report(x, TK_SEV_ERROR, e->text_line, col,
               "label '%s' does not match index %" PRId64 ": csi-cc writes '%s'", e->label,
               e->index, want);
}

/* Slots without an entry (after a repeated index): the first few, then a count. */
static void report_missing(check_ctx *x, const uint64_t *first, uint32_t n, uint32_t m)
{
    const tk_csi_cov_function *fn = x->fn;
    uint64_t shown = 0, more = 0;
    for (uint64_t k = 0; k < (uint64_t)n + m; k++) {
        if (first[k]) continue;
        if (shown == 8) {
            more++;
            continue;
        }
        shown++;
        int64_t index = k < n ? (int64_t)k : -(int64_t)(k - n) - 1;
        report(x, TK_SEV_ERROR, fn->text_line, 1,
               "function %s has no entry of index %" PRId64 " (its %" PRIu32 " %s are indexed "
               "%s%" PRIu32 ")",
               fn->name, index, k < n ? n : m,
               k < n ? "instrumented entries" : "entries not instrumented", k < n ? "0.." : "-1..-",
               k < n ? n - 1 : m);
    }
    if (more)
        report(x, TK_SEV_ERROR, fn->text_line, 1, "function %s misses %" PRIu64 " more indices",
               fn->name, more);
}

/* Instrumented indices 0..n-1 and the others -1..-m, each exactly once. */
static tk_status check_indices(check_ctx *x)
{
    const tk_csi_cov_function *fn = x->fn;
    uint32_t n = fn->ninstrumented, m = fn->nentries - fn->ninstrumented;
    const char *what = x->c->kind == TK_CSI_COV_CC ? "call sites" : "blocks";
    uint64_t *first = tk_calloc((size_t)n + m + 1, sizeof *first);
    if (!first) return TK_ERR_NOMEM;
    for (uint32_t i = 0; i < fn->nentries; i++) {
        const tk_csi_cov_entry *e = &fn->entries[i];
        if (e->label) check_label(x, e);
        int inst = e->index >= 0;
        uint64_t slot = inst ? (uint64_t)e->index : (uint64_t)0 - (uint64_t)e->index - 1;
        uint64_t count = inst ? n : m;
        if (slot >= count) {
            report(x, TK_SEV_ERROR, e->text_line, 1,
                   "index %" PRId64 " is out of range: function %s has %" PRIu64 " %s%s%s, "
                   "indexed %s%" PRIu64,
                   e->index, fn->name, count, inst ? "instrumented " : "", what,
                   inst ? "" : " not instrumented", inst ? "0.." : "-1..-",
                   inst ? count - 1 : count);
            continue;
        }
        uint64_t *f = &first[inst ? slot : n + slot];
        if (*f)
            report(x, TK_SEV_ERROR, e->text_line, 1,
                   "index %" PRId64 " repeats (first at line %" PRIu64 ")", e->index, *f);
        else
            *f = e->text_line;
    }
    report_missing(x, first, n, m);
    tk_free(first);
    return TK_OK;
}

tk_status tk_csi_cov_check_function(tk_csi_cov_checker *c, const tk_csi_cov_function *fn,
                                    const char *path, tk_diag *diag, tk_error *err)
{
    check_ctx x = {c, fn, path, diag};
    uint64_t errors = diag->errors;
    check_array_name(&x);
    if (check_array_use(&x) != TK_OK) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (c->kind != TK_CSI_COV_FC) {
        if (fn->ninstrumented == 0)
            report(&x, TK_SEV_ERROR, fn->text_line, 1,
                   "function %s has no instrumented %s: csi-cc lists a function only when it "
                   "instruments one",
                   fn->name, c->kind == TK_CSI_COV_CC ? "call site" : "block");
        if (check_indices(&x) != TK_OK) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    return diag->errors > errors
               ? tk_error_set(err, TK_ERR_CHECK, "%s: problems found (reported)", fn->name)
               : TK_OK;
}
