/* .debug_PT (or any section) from ELF executables and objects. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/elf.h"
#include "tracekit/csi.h"

int tk_csi_is_elf(const uint8_t *data, size_t len) { return tk_elf_is_elf(data, len); }

typedef struct gather {
    uint8_t *buf;
    size_t len;
    int nomem;
    int found;
    int compressed;
} gather;

/* Sections of linked objects are concatenated, as the linker does. */
static int add_section(void *ctx, const tk_elf_section *s)
{
    gather *g = ctx;
    g->found = 1;
    if (s->flags & 0x800u) { /* SHF_COMPRESSED */
        g->compressed = 1;
        return 1;
    }
    if (!s->data || s->size == 0) return 0;
    uint8_t *b = tk_realloc(g->buf, g->len + s->size + 1);
    if (!b) {
        g->nomem = 1;
        return 1;
    }
    memcpy(b + g->len, s->data, s->size);
    g->buf = b;
    g->len += s->size;
    g->buf[g->len] = 0;
    return 0;
}

tk_status tk_csi_elf_section(const char *path, const void *image, size_t image_len,
                             const char *section, uint8_t **data, size_t *len, tk_error *err)
{
    tk_elf *e = NULL;
    tk_status st =
        image ? tk_elf_open_memory(&e, image, image_len, path, err) : tk_elf_open(&e, path, err);
    *data = NULL;
    *len = 0;
    if (st != TK_OK) return st;
    gather g = {NULL, 0, 0, 0, 0};
    st = tk_elf_each_section(e, section, add_section, &g, err);
    tk_elf_free(e);
    if (st == TK_OK && g.nomem) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK && g.compressed)
        st = tk_error_set_at(err, TK_ERR_UNSUPPORTED, path, -1, 0, 0,
                             "section %s is compressed (SHF_COMPRESSED); decompress it with "
                             "'objcopy --decompress-debug-sections' first",
                             section);
    if (st == TK_OK && !g.found) st = TK_END;
    if (st != TK_OK) {
        tk_free(g.buf);
        return st;
    }
    if (!g.buf) {
        g.buf = tk_malloc(1);
        if (!g.buf) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        g.buf[0] = 0;
    }
    *data = g.buf;
    *len = g.len;
    return TK_OK;
}
