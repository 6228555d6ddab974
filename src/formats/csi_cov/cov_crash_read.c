/* Crash-time coverage: BIN's coverage metadata and each function's array
 * read from the process's memory. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "formats/csi_cov/cov_crash.h"
#include "formats/csi_cov/cov_internal.h"
#include "tracekit/csi.h"

/* One section being read. */
typedef struct section_read {
    tk_csi_cov_kind kind;
    char name[600]; /* "BIN(.debug_CC)": where its errors are */
} section_read;

/* The function record for (name, array key), new ones appended. */
static tk_csi_crash_function *function_for(tk_csi_crash *c, const tk_csi_cov_function *fn,
                                           tk_error *err)
{
    size_t klen;
    const char *key = tk_cov_array_key(fn->array, fn->array_len, &klen);
    size_t len = fn->name_len + 1 + klen;
    char *both = tk_malloc(len + 1);
    if (!both) return NULL;
    memcpy(both, fn->name, fn->name_len);
    both[fn->name_len] = '\x01';
    memcpy(both + fn->name_len + 1, key, klen);
    uint32_t id = tk_strpool_intern(&c->keys, both, len);
    tk_free(both);
    if (id == TK_STR_NONE) return NULL;
    if (id < c->fns.len) return &c->fns.data[id];
    tk_csi_crash_function f;
    memset(&f, 0, sizeof f);
    f.name = tk_arena_strndup(&c->arena, fn->name, fn->name_len);
    f.key = tk_arena_strndup(&c->arena, key, klen);
    f.entered = TK_CSI_HIT_UNKNOWN;
    if (!f.name || !f.key || TK_VEC_PUSH(&c->fns, f) != 0) return NULL;
    (void)err;
    return &c->fns.data[c->fns.len - 1];
}

/* Bytes the array must have: one per instrumented entry (the largest index
 * + 1), one for function coverage. */
static uint64_t array_bytes(tk_csi_cov_kind kind, const tk_csi_cov_function *fn)
{
    if (kind == TK_CSI_COV_FC) return 1;
    uint64_t n = 0;
    for (uint32_t i = 0; i < fn->nentries; i++)
        if (fn->entries[i].index >= 0 && (uint64_t)fn->entries[i].index + 1 > n)
            n = (uint64_t)fn->entries[i].index + 1;
    return n;
}

/* The array's bytes from memory (*bytes in the arena). */
static tk_status read_array(tk_csi_crash *c, const crash_open *o, const section_read *sr,
                            const tk_csi_cov_function *fn, uint8_t **bytes, uint64_t *address,
                            tk_error *err)
{
    uint32_t id = tk_strpool_find(&c->syms, fn->array, fn->array_len);
    if (id == TK_STR_NONE)
        return tk_error_set_at(err, TK_ERR_FORMAT, sr->name, -1, fn->text_line, 1,
                               "array %s of function %s has no symbol in %s", fn->array, fn->name,
                               o->bin_path);
    const crash_sym *s = &c->sym_at.data[id];
    uint64_t need = array_bytes(sr->kind, fn);
    if (s->size && s->size < need)
        return tk_error_set_at(err, TK_ERR_FORMAT, sr->name, -1, fn->text_line, 1,
                               "array %s of function %s has %" PRIu64 " bytes in %s, the "
                               "metadata needs %" PRIu64 ": they do not belong together",
                               fn->array, fn->name, s->size, o->bin_path, need);
    if (s->size && s->size > need)
        tk_crash_note(c, "%s: array %s has %" PRIu64 " bytes, the metadata uses %" PRIu64, sr->name,
                      fn->array, s->size, need);
    *address = s->value + c->bias;
    *bytes = tk_arena_alloc(&c->arena, need ? need : 1);
    if (!*bytes) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_status st = tk_coredump_read(o->mem, *address, *bytes, need, err);
    if (st != TK_OK)
        tk_error_prefix(err, "array %s of function %s (%s line %" PRIu64 ") at 0x%" PRIx64,
                        fn->array, fn->name, sr->name, fn->text_line, *address);
    return st;
}

/* The entries of a CC or BBC function with their hits (in the arena). */
static tk_csi_crash_entry *copy_entries(tk_csi_crash *c, const tk_csi_cov_function *fn,
                                        const uint8_t *bytes)
{
    tk_csi_crash_entry *es = tk_arena_alloc(&c->arena, (fn->nentries + (size_t)1) * sizeof *es);
    if (!es) return NULL;
    for (uint32_t i = 0; i < fn->nentries; i++) {
        const tk_csi_cov_entry *e = &fn->entries[i];
        tk_csi_crash_entry *x = &es[i];
        x->index = e->index;
        x->nlines = e->nlines;
        x->lines = NULL;
        if (e->nlines) {
            uint64_t *l = tk_arena_alloc(&c->arena, e->nlines * sizeof *l);
            if (!l) return NULL;
            memcpy(l, e->lines, e->nlines * sizeof *l);
            x->lines = l;
        }
        x->callee = e->callee ? tk_arena_strndup(&c->arena, e->callee, e->callee_len) : NULL;
        if (e->callee && !x->callee) return NULL;
        x->hit = e->index < 0      ? TK_CSI_HIT_UNKNOWN
                 : bytes[e->index] ? TK_CSI_HIT_YES
                                   : TK_CSI_HIT_NO;
    }
    return es;
}

static tk_status add_function(tk_csi_crash *c, const crash_open *o, const section_read *sr,
                              const tk_csi_cov_function *fn, tk_error *err)
{
    uint8_t *bytes = NULL;
    uint64_t address = 0;
    tk_status st = read_array(c, o, sr, fn, &bytes, &address, err);
    if (st != TK_OK) return st;
    tk_csi_crash_function *f = function_for(c, fn, err);
    if (!f) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (sr->kind == TK_CSI_COV_FC) {
        f->has_fc = 1;
        f->fc_address = address;
        f->entered = bytes[0] ? TK_CSI_HIT_YES : TK_CSI_HIT_NO;
        return TK_OK;
    }
    tk_csi_crash_entry *es = copy_entries(c, fn, bytes);
    if (!es) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if ((sr->kind == TK_CSI_COV_CC && f->has_cc) || (sr->kind == TK_CSI_COV_BBC && f->has_bbc)) {
        tk_crash_note(c, "%s: function %s is listed twice; the second one is left out", sr->name,
                      fn->name);
        return TK_OK;
    }
    if (sr->kind == TK_CSI_COV_CC) {
        f->has_cc = 1;
        f->sites = es;
        f->nsites = fn->nentries;
        f->cc_address = address;
    } else {
        f->has_bbc = 1;
        f->blocks = es;
        f->nblocks = fn->nentries;
        f->bbc_address = address;
    }
    return TK_OK;
}

/* Every function of one section's text. */
static tk_status read_section(tk_csi_crash *c, const crash_open *o, const section_read *sr,
                              const uint8_t *data, size_t len, tk_error *err)
{
    tk_input *in;
    tk_status st = tk_input_open_memory(&in, data, len, sr->name, NULL, err);
    if (st != TK_OK) return st;
    tk_csi_cov_reader *r;
    st = tk_csi_cov_reader_open(&r, in, sr->kind, err);
    const tk_csi_cov_function *fn;
    while (st == TK_OK && (st = tk_csi_cov_reader_next(r, &fn, err)) == TK_OK)
        st = add_function(c, o, sr, fn, err);
    if (st == TK_END) st = TK_OK;
    tk_csi_cov_reader_free(r);
    tk_input_free(in);
    return st;
}

static int found_section(void *ctx, const tk_elf_section *s)
{
    (void)s;
    *(int *)ctx = 1;
    return 1;
}

int tk_crash_has_section(const crash_open *o, const char *name)
{
    int found = 0;
    return tk_elf_each_section(o->elf, name, found_section, &found, NULL) == TK_OK && found;
}

tk_status tk_crash_check_sections(const crash_open *o, tk_error *err)
{
    static const tk_csi_cov_kind kinds[] = {TK_CSI_COV_FC, TK_CSI_COV_CC, TK_CSI_COV_BBC};
    int found = 0;
    for (size_t k = 0; k < 3 && !found; k++) {
        tk_status st =
            tk_elf_each_section(o->elf, tk_csi_cov_section(kinds[k]), found_section, &found, err);
        if (st != TK_OK) return st;
    }
    if (!found)
        return tk_error_set_at(err, TK_ERR_FORMAT, o->bin_path, -1, 0, 0,
                               "no coverage metadata: none of the sections .debug_CC, "
                               ".debug_FC, .debug_BBC (not built by csi-cc with coverage?)");
    return TK_OK;
}

tk_status tk_crash_read_metadata(tk_csi_crash *c, const crash_open *o, tk_error *err)
{
    static const tk_csi_cov_kind kinds[] = {TK_CSI_COV_FC, TK_CSI_COV_CC, TK_CSI_COV_BBC};
    int found = 0;
    for (size_t k = 0; k < 3; k++) {
        section_read sr;
        sr.kind = kinds[k];
        const char *sec = tk_csi_cov_section(sr.kind);
        snprintf(sr.name, sizeof sr.name, "%s(%s)", o->bin_path, sec);
        uint8_t *data;
        size_t len;
        tk_status st = tk_csi_elf_section(o->bin_path, o->bin, o->bin_len, sec, &data, &len, err);
        if (st == TK_END) continue;
        if (st != TK_OK) return st;
        found++;
        st = read_section(c, o, &sr, data, len, err);
        tk_free(data);
        if (st != TK_OK) return st;
    }
    if (!found)
        return tk_error_set_at(err, TK_ERR_FORMAT, o->bin_path, -1, 0, 0,
                               "no coverage metadata: none of the sections .debug_CC, "
                               ".debug_FC, .debug_BBC (not built by csi-cc with coverage?)");
    return TK_OK;
}
