/* Selecting CSI functions (by name, variant or "name#K" label) and the runtime states that
 * go with each function of the metadata. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compat.h"
#include "tracekit/csi.h"

int tk_csi_function_matches(const char *sel, const tk_csi_function *fn, const char *label)
{
    if (!sel) return 1;
    if (strchr(sel, '#'))
        return strcmp(sel, label) == 0 ||
               (strcmp(sel, fn->name) == 0); /* a name that itself holds '#' */
    size_t n = strlen(sel);
    return strcmp(sel, fn->name) == 0 || (strncmp(sel, fn->name, n) == 0 && fn->name[n] == '$');
}

size_t tk_csi_function_label(const tk_csi_function *fn, char *buf, size_t size)
{
    int n = fn->occurrence > 1 ? snprintf(buf, size, "%s#%" PRIu32, fn->name, fn->occurrence)
                               : snprintf(buf, size, "%s", fn->name);
    return n < 0 ? 0 : (size_t)n;
}

/* A state naming fn (labelled label), or without a function when sel selects fn. */
static int state_matches(const tk_csi_state *s, const char *sel, const tk_csi_function *fn,
                         const char *label)
{
    if (!s->function[0]) return tk_csi_function_matches(sel, fn, label);
    if (tk_csi_function_matches(s->function, fn, label)) return 1;
    /* a frame may carry the variant's name (foo$CC$PT) or the plain one */
    size_t a = strcspn(s->function, "$"), b = strcspn(fn->name, "$");
    return a == b && strncmp(s->function, fn->name, a) == 0;
}

/* A state can match a function only when their base names (up to '$') are equal, or, for a
 * name holding '#', when it is the function's label; states without a function go by the
 * selector. The candidates are then tested with state_matches, each once per function. */
struct tk_csi_state_index {
    const tk_csi_state *states;
    const char *sel;
    size_t *by_base, nbase; /* states naming a function, by base name */
    size_t *by_label, nlabel; /* those whose name holds '#', by the whole name */
    size_t *none, nnone; /* states without a function */
    size_t *stamp; /* per state: the call of find that last matched it */
    size_t calls;
};

static size_t base_len(const char *s) { return strcspn(s, "$"); }

static int cmp_base(const char *a, size_t alen, const char *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    return c ? c : (alen > blen) - (alen < blen);
}

static int cmp_state_base(const void *x, const void *y, void *ctx)
{
    const tk_csi_state *s = ctx;
    const char *a = s[*(const size_t *)x].function, *b = s[*(const size_t *)y].function;
    int c = cmp_base(a, base_len(a), b, base_len(b));
    return c ? c
             : (*(const size_t *)x > *(const size_t *)y) -
                   (*(const size_t *)x < *(const size_t *)y);
}

static int cmp_state_name(const void *x, const void *y, void *ctx)
{
    const tk_csi_state *s = ctx;
    int c = strcmp(s[*(const size_t *)x].function, s[*(const size_t *)y].function);
    return c ? c
             : (*(const size_t *)x > *(const size_t *)y) -
                   (*(const size_t *)x < *(const size_t *)y);
}

tk_status tk_csi_state_index_open(tk_csi_state_index **out, const tk_csi_state *states, size_t n,
                                  const char *selector, tk_error *err)
{
    *out = NULL;
    tk_csi_state_index *ix = tk_calloc(1, sizeof *ix);
    if (ix) {
        ix->by_base = tk_malloc((n ? n : 1) * sizeof *ix->by_base);
        ix->by_label = tk_malloc((n ? n : 1) * sizeof *ix->by_label);
        ix->none = tk_malloc((n ? n : 1) * sizeof *ix->none);
        ix->stamp = tk_calloc(n ? n : 1, sizeof *ix->stamp);
    }
    if (!ix || !ix->by_base || !ix->by_label || !ix->none || !ix->stamp) {
        tk_csi_state_index_free(ix);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    ix->states = states;
    ix->sel = selector;
    for (size_t k = 0; k < n; k++) {
        if (!states[k].function[0]) {
            ix->none[ix->nnone++] = k;
            continue;
        }
        ix->by_base[ix->nbase++] = k;
        if (strchr(states[k].function, '#')) ix->by_label[ix->nlabel++] = k;
    }
    tk_qsort_r(ix->by_base, ix->nbase, sizeof *ix->by_base, cmp_state_base, (void *)states);
    tk_qsort_r(ix->by_label, ix->nlabel, sizeof *ix->by_label, cmp_state_name, (void *)states);
    *out = ix;
    return TK_OK;
}

/* The first position in v[0, n) whose state's function is not below the key: v sorted by
 * base names (whole = 0, key's base is key[0, len)) or by whole names (whole = 1). */
static size_t lower_bound(const tk_csi_state_index *ix, const size_t *v, size_t n, const char *key,
                          size_t len, int whole)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *f = ix->states[v[mid]].function;
        int c = whole ? strcmp(f, key) : cmp_base(f, base_len(f), key, len);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t tk_csi_state_index_find(tk_csi_state_index *ix, const tk_csi_function *fn, const char *label,
                               size_t *out)
{
    size_t found = 0, call = ++ix->calls;
    /* the candidates: same base name, the label for '#' names, and the states without a
     * function */
    size_t blen = base_len(fn->name);
    for (int list = 0; list < 3; list++) {
        const size_t *v = list == 0 ? ix->by_base : list == 1 ? ix->by_label : ix->none;
        size_t n = list == 0 ? ix->nbase : list == 1 ? ix->nlabel : ix->nnone;
        size_t i = list == 0   ? lower_bound(ix, v, n, fn->name, blen, 0)
                   : list == 1 ? lower_bound(ix, v, n, label, 0, 1)
                               : 0;
        for (; i < n; i++) {
            size_t k = v[i];
            const char *f = ix->states[k].function;
            if (list == 0 && cmp_base(f, base_len(f), fn->name, blen) != 0) break;
            if (list == 1 && strcmp(f, label) != 0) break;
            if (ix->stamp[k] == call || !state_matches(&ix->states[k], ix->sel, fn, label))
                continue;
            ix->stamp[k] = call;
            out[found++] = k;
        }
    }
    return found;
}

void tk_csi_state_index_free(tk_csi_state_index *ix)
{
    if (!ix) return;
    tk_free(ix->by_base);
    tk_free(ix->by_label);
    tk_free(ix->none);
    tk_free(ix->stamp);
    tk_free(ix);
}
