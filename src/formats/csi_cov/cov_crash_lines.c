/* Crash-time coverage: each function's source lines and their state, and its
 * source file from BIN's DWARF. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "formats/csi_cov/cov_crash.h"
#include "formats/csi_cov/cov_internal.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A line is covered when a covered entry holds it, unknown when only entries
 * that cannot tell (not instrumented) could have run it, else not covered. */
static void merge_hits(tk_csi_crash_line *ls, size_t n, const tk_csi_crash_entry *es, uint32_t ne)
{
    for (uint32_t i = 0; i < ne; i++)
        for (size_t k = 0; k < es[i].nlines; k++) {
            uint64_t key = es[i].lines[k];
            size_t lo = 0, hi = n;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (ls[mid].line < key)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == n || ls[lo].line != key) continue;
            tk_csi_hit *h = &ls[lo].hit;
            if (es[i].hit == TK_CSI_HIT_YES ||
                (es[i].hit == TK_CSI_HIT_UNKNOWN && *h == TK_CSI_HIT_NO))
                *h = es[i].hit;
        }
}

static int function_lines(tk_csi_crash *c, tk_csi_crash_function *f)
{
    size_t n = 0;
    for (uint32_t i = 0; i < f->nsites; i++) n += f->sites[i].nlines;
    for (uint32_t i = 0; i < f->nblocks; i++) n += f->blocks[i].nlines;
    uint64_t *all = tk_malloc((n ? n : 1) * sizeof *all);
    if (!all) return -1;
    n = 0;
    for (uint32_t i = 0; i < f->nsites; i++)
        for (size_t k = 0; k < f->sites[i].nlines; k++) all[n++] = f->sites[i].lines[k];
    for (uint32_t i = 0; i < f->nblocks; i++)
        for (size_t k = 0; k < f->blocks[i].nlines; k++) all[n++] = f->blocks[i].lines[k];
    qsort(all, n, sizeof *all, cmp_u64);
    size_t u = 0;
    for (size_t k = 0; k < n; k++)
        if (u == 0 || all[u - 1] != all[k]) all[u++] = all[k];
    tk_csi_crash_line *ls = tk_arena_alloc(&c->arena, (u ? u : 1) * sizeof *ls);
    if (!ls) {
        tk_free(all);
        return -1;
    }
    for (size_t k = 0; k < u; k++) {
        ls[k].line = all[k];
        ls[k].hit = TK_CSI_HIT_NO;
    }
    tk_free(all);
    merge_hits(ls, u, f->sites, f->nsites);
    merge_hits(ls, u, f->blocks, f->nblocks);
    f->lines = ls;
    f->nlines = u;
    return 0;
}

/* ---- source files ----------------------------------------------------- */

/* csi-cc's mangling of a file name into an array name: every byte but
 * [A-Za-z0-9_] becomes '_'. Does mash(file) end with the key's file part? */
static int file_matches_key(const char *file, const char *key, size_t name_len)
{
    size_t klen = strlen(key);
    if (klen < name_len + 1) return 0;
    size_t want = klen - name_len - 1, flen = strlen(file);
    if (want == 0 || flen < want) return 0;
    const char *f = file + flen - want;
    for (size_t i = 0; i < want; i++) {
        unsigned char ch = (unsigned char)f[i];
        int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                   (ch >= '0' && ch <= '9') || ch == '_';
        if ((keep ? (char)ch : '_') != key[i]) return 0;
    }
    return flen == want || f[-1] == '/' ||
           !((f[-1] >= 'a' && f[-1] <= 'z') || (f[-1] >= 'A' && f[-1] <= 'Z') ||
             (f[-1] >= '0' && f[-1] <= '9') || f[-1] == '_');
}

/* The file of a subprogram: its declaration's, else its unit's (libdw 0.188
 * does not resolve DWARF 5 decl_file), joined to the unit's directory. */
static char *subprogram_file(tk_csi_crash *c, Dwarf_Die *sub, Dwarf_Die *cu)
{
    const char *file = dwarf_decl_file(sub);
    if (!file) file = dwarf_diename(cu);
    if (!file) return NULL;
    Dwarf_Attribute a;
    const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
    size_t dl = dir ? strlen(dir) : 0, fl = strlen(file);
    /* libdw joins a line table's file with its directory (the unit's, often) */
    if (file[0] == '/' || !dir || (fl > dl && memcmp(file, dir, dl) == 0 && file[dl] == '/'))
        return tk_arena_strndup(&c->arena, file, fl);
    char *p = tk_arena_alloc(&c->arena, dl + fl + 2);
    if (p) {
        memcpy(p, dir, dl);
        p[dl] = '/';
        memcpy(p + dl + 1, file, fl + 1);
    }
    return p;
}

/* The functions by their names up to '$': the first of each name in
 * first[id], the next of the same name in next[i]. */
typedef struct by_name {
    tk_strpool names;
    uint32_t *first, *next;
} by_name;

static int by_name_build(by_name *b, const tk_csi_crash *c)
{
    tk_strpool_init(&b->names);
    b->first = tk_malloc((c->fns.len + 1) * sizeof *b->first);
    b->next = tk_malloc((c->fns.len + 1) * sizeof *b->next);
    if (!b->first || !b->next) return -1;
    for (size_t i = c->fns.len; i-- > 0;) {
        const char *name = c->fns.data[i].name;
        uint32_t id = tk_strpool_intern(&b->names, name, tk_cov_base_len(name, strlen(name)));
        if (id == TK_STR_NONE) return -1;
        b->next[i] = id < tk_strpool_count(&b->names) - 1 ? b->first[id] : UINT32_MAX;
        b->first[id] = (uint32_t)i;
    }
    return 0;
}

static void by_name_free(by_name *b)
{
    tk_strpool_free(&b->names);
    tk_free(b->first);
    tk_free(b->next);
}

/* Gives the functions named like sub (not yet placed, or placed by a weaker
 * match) its file. */
static void place_subprogram(tk_csi_crash *c, const by_name *b, Dwarf_Die *sub, Dwarf_Die *cu)
{
    Dwarf_Attribute a;
    if (!dwarf_hasattr(sub, DW_AT_low_pc) && !dwarf_hasattr(sub, DW_AT_ranges))
        return; /* a declaration */
    const char *names[2] = {dwarf_diename(sub),
                            dwarf_formstring(dwarf_attr(sub, DW_AT_linkage_name, &a))};
    char *file = NULL;
    for (int k = 0; k < 2; k++) {
        uint32_t id =
            names[k] ? tk_strpool_find(&b->names, names[k], strlen(names[k])) : TK_STR_NONE;
        for (uint32_t i = id == TK_STR_NONE ? UINT32_MAX : b->first[id]; i != UINT32_MAX;
             i = b->next[i]) {
            tk_csi_crash_function *f = &c->fns.data[i];
            if (!file && !(file = subprogram_file(c, sub, cu))) return;
            if (!f->source || file_matches_key(file, f->key, strlen(names[k]))) f->source = file;
        }
    }
}

/* Subprograms of a unit, nested in namespaces and classes up to a depth. */
static void walk_dies(tk_csi_crash *c, const by_name *b, Dwarf_Die *parent, Dwarf_Die *cu,
                      int depth)
{
    Dwarf_Die child;
    if (depth > 8 || dwarf_child(parent, &child) != 0) return;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_subprogram)
            place_subprogram(c, b, &child, cu);
        else if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
                 tag == DW_TAG_structure_type)
            walk_dies(c, b, &child, cu, depth + 1);
    } while (dwarf_siblingof(&child, &child) == 0);
}

static void find_sources(tk_csi_crash *c, const crash_open *o)
{
    by_name b;
    if (by_name_build(&b, c) != 0) {
        by_name_free(&b);
        return;
    }
    Dwarf *dw = dwarf_begin_elf(tk_elf_handle(o->elf), DWARF_C_READ, NULL);
    if (!dw) {
        by_name_free(&b);
        return;
    }
    Dwarf_Off off = 0, next;
    size_t header_size;
    while (dwarf_nextcu(dw, off, &next, &header_size, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(dw, off + header_size, &cu)) walk_dies(c, &b, &cu, &cu, 0);
        off = next;
    }
    dwarf_end(dw);
    by_name_free(&b);
}

/* The length of the file part of f's key ("tests_funcs_funcs_c" of
 * "tests_funcs_funcs_c_a"), or 0 when the key is not FILE_NAME. */
static size_t key_file_len(const tk_csi_crash_function *f)
{
    size_t nl = tk_cov_base_len(f->name, strlen(f->name)), kl = strlen(f->key);
    if (kl < nl + 2 || f->key[kl - nl - 1] != '_' || memcmp(f->key + kl - nl, f->name, nl) != 0)
        return 0;
    return kl - nl - 1;
}

/* A function without code in the DWARF (a static function the compiler left
 * out) takes the file of a function whose arrays name the same file. */
static void sources_by_key(tk_csi_crash *c)
{
    tk_strpool files;
    tk_strpool_init(&files);
    const char **src = tk_malloc((c->fns.len + 1) * sizeof *src);
    for (int pass = 0; src && pass < 2; pass++)
        for (size_t i = 0; i < c->fns.len; i++) {
            tk_csi_crash_function *f = &c->fns.data[i];
            size_t fl = key_file_len(f);
            if (fl == 0 || (pass == 0) != (f->source != NULL)) continue;
            uint32_t n = tk_strpool_count(&files);
            uint32_t id = pass == 0 ? tk_strpool_intern(&files, f->key, fl)
                                    : tk_strpool_find(&files, f->key, fl);
            if (id == TK_STR_NONE) continue;
            if (pass == 0 && id == n)
                src[id] = f->source;
            else if (pass == 1)
                f->source = src[id];
        }
    tk_free(src);
    tk_strpool_free(&files);
}

void tk_crash_finish(tk_csi_crash *c, const crash_open *o)
{
    for (size_t i = 0; i < c->fns.len; i++) {
        tk_csi_crash_function *f = &c->fns.data[i];
        if (function_lines(c, f) != 0) {
            tk_crash_note(c, "out of memory: the lines of %s are left out", f->name);
            continue;
        }
        int ran = 0;
        for (uint32_t k = 0; k < f->nblocks; k++) ran |= f->blocks[k].hit == TK_CSI_HIT_YES;
        if (f->has_fc && f->entered == TK_CSI_HIT_NO && ran)
            tk_crash_note(c, "function %s: a block ran but its function coverage flag is not set",
                          f->name);
    }
    find_sources(c, o);
    sources_by_key(c);
}
