#include "core/elf.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"

struct tk_elf {
    Elf *elf;
    int fd;
    char *path;
    GElf_Ehdr ehdr;
    size_t shstrndx;
};

int tk_elf_is_elf(const uint8_t *d, size_t n)
{
    return n >= 4 && d[0] == 0x7f && d[1] == 'E' && d[2] == 'L' && d[3] == 'F';
}

/* has_magic: the data starts with the ELF magic (then it is damaged, not foreign). */
static tk_status finish_open(tk_elf *e, int has_magic, tk_error *err)
{
    if (!e->elf || elf_kind(e->elf) != ELF_K_ELF) {
        int code = elf_errno(); /* 0: libelf saw no error, the data is just not ELF */
        return tk_error_set_at(err, TK_ERR_FORMAT, e->path, 0, 0, 0, "%s%s%s",
                               has_magic ? "truncated or malformed ELF file" : "not an ELF file",
                               code ? ": " : "", code ? elf_errmsg(code) : "");
    }
    if (!gelf_getehdr(e->elf, &e->ehdr))
        return tk_error_set_at(err, TK_ERR_FORMAT, e->path, 0, 0, 0, "bad ELF header: %s",
                               elf_errmsg(-1));
    if (elf_getshdrstrndx(e->elf, &e->shstrndx) != 0)
        return tk_error_set_at(err, TK_ERR_FORMAT, e->path, 0, 0, 0,
                               "bad ELF section header string table: %s", elf_errmsg(-1));
    return TK_OK;
}

static tk_status elf_new(tk_elf **out, const char *name, tk_error *err)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return tk_error_set(err, TK_ERR_UNSUPPORTED, "libelf is out of date");
    tk_elf *e = tk_calloc(1, sizeof *e);
    if (!e) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    e->fd = -1;
    e->path = tk_strdup(name);
    if (!e->path) {
        tk_free(e);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    *out = e;
    return TK_OK;
}

tk_status tk_elf_open(tk_elf **out, const char *path, tk_error *err)
{
    tk_elf *e;
    tk_status st = elf_new(&e, path, err);
    if (st != TK_OK) return st;
    e->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (e->fd < 0) {
        tk_error_set_at(err, TK_ERR_IO, path, -1, 0, 0, "cannot open: %s", strerror(errno));
        tk_elf_free(e);
        return TK_ERR_IO;
    }
    uint8_t head[4] = {0};
    int has_magic = pread(e->fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
                    tk_elf_is_elf(head, sizeof head);
    e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
    st = finish_open(e, has_magic, err);
    if (st != TK_OK) {
        tk_elf_free(e);
        return st;
    }
    *out = e;
    return TK_OK;
}

tk_status tk_elf_open_memory(tk_elf **out, const void *data, size_t len, const char *name,
                             tk_error *err)
{
    tk_elf *e;
    tk_status st = elf_new(&e, name ? name : "<memory>", err);
    if (st != TK_OK) return st;
    e->elf = elf_memory((char *)(uintptr_t)data, len);
    st = finish_open(e, tk_elf_is_elf(data, len), err);
    if (st != TK_OK) {
        tk_elf_free(e);
        return st;
    }
    *out = e;
    return TK_OK;
}

void tk_elf_free(tk_elf *e)
{
    if (!e) return;
    if (e->elf) elf_end(e->elf);
    if (e->fd >= 0) close(e->fd);
    tk_free(e->path);
    tk_free(e);
}

tk_status tk_elf_each_section(tk_elf *e, const char *name,
                              int (*fn)(void *ctx, const tk_elf_section *s), void *ctx,
                              tk_error *err)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            return tk_error_set_at(err, TK_ERR_FORMAT, e->path, -1, 0, 0, "bad section header: %s",
                                   elf_errmsg(-1));
        const char *sname = elf_strptr(e->elf, e->shstrndx, sh.sh_name);
        if (!sname || strcmp(sname, name) != 0) continue;
        tk_elf_section s = {sname,        NULL,       (size_t)sh.sh_size, sh.sh_addr,
                            sh.sh_offset, sh.sh_type, sh.sh_flags,        elf_ndxscn(scn)};
        if (sh.sh_type != SHT_NOBITS) {
            Elf_Data *d = elf_rawdata(scn, NULL);
            if (!d && sh.sh_size)
                return tk_error_set_at(err, TK_ERR_FORMAT, e->path, (int64_t)sh.sh_offset, 0, 0,
                                       "cannot read section %s: %s", name, elf_errmsg(-1));
            if (d) {
                s.data = d->d_buf;
                s.size = d->d_size;
            }
        }
        if (fn(ctx, &s)) break;
    }
    return TK_OK;
}

void tk_elf_get_info(const tk_elf *e, tk_elf_info *out)
{
    out->type = e->ehdr.e_type;
    out->machine = e->ehdr.e_machine;
    out->entry = e->ehdr.e_entry;
}

void *tk_elf_handle(tk_elf *e) { return e->elf; }

/* The GNU build id among the notes of one section's data. */
static int find_build_id(const uint8_t *d, size_t n, uint64_t sh_addr, const uint8_t **id,
                         size_t *len, uint64_t *addr)
{
    size_t k = 0;
    while (n - k >= 12) {
        uint32_t namesz, descsz, type;
        memcpy(&namesz, d + k, 4);
        memcpy(&descsz, d + k + 4, 4);
        memcpy(&type, d + k + 8, 4);
        size_t name_at = k + 12, desc_at = name_at + ((namesz + 3u) & ~3u);
        if (namesz > n || desc_at > n || descsz > n - desc_at) return 0;
        if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(d + name_at, "GNU", 4) == 0 &&
            descsz > 0) {
            *id = d + desc_at;
            *len = descsz;
            *addr = sh_addr + desc_at;
            return 1;
        }
        k = desc_at + ((descsz + 3u) & ~3u);
        if (k > n) return 0;
    }
    return 0;
}

int tk_elf_build_id(tk_elf *e, const uint8_t **id, size_t *len, uint64_t *addr)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(sh.sh_flags & SHF_ALLOC))
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (d && d->d_buf && find_build_id(d->d_buf, d->d_size, sh.sh_addr, id, len, addr))
            return 1;
    }
    return 0;
}

static tk_status each_symbol_in(tk_elf *e, Elf_Scn *scn, const GElf_Shdr *sh,
                                int (*fn)(void *, const char *, uint64_t, uint64_t), void *ctx,
                                tk_error *err)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d)
        return tk_error_set_at(err, TK_ERR_FORMAT, e->path, (int64_t)sh->sh_offset, 0, 0,
                               "cannot read the symbol table: %s", elf_errmsg(-1));
    size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)i, &sym)) break;
        if (sym.st_shndx == SHN_UNDEF) continue;
        const char *name = elf_strptr(e->elf, sh->sh_link, sym.st_name);
        if (name && name[0] && fn(ctx, name, sym.st_value, sym.st_size)) break;
    }
    return TK_OK;
}

tk_status tk_elf_each_symbol(tk_elf *e, int (*fn)(void *, const char *, uint64_t, uint64_t),
                             void *ctx, tk_error *err)
{
    for (int pass = 0; pass < 2; pass++) {
        Elf_Scn *scn = NULL;
        while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
            GElf_Shdr sh;
            if (!gelf_getshdr(scn, &sh)) continue;
            if (sh.sh_type == (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM))
                return each_symbol_in(e, scn, &sh, fn, ctx, err);
        }
    }
    return TK_OK;
}
