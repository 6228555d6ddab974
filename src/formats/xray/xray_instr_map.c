/* The xray_instr_map section of an instrumented ELF binary: sled entries (absolute versions 0-1,
 * PC-relative version 2), function ids assigned as the runtime does, and symbols (ELF symbol
 * table, DWARF file/line via libdw, C++ names demangled with libiberty). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libiberty/demangle.h>

#include "core/alloc.h"
#include "core/vec.h"
#include "core/arena.h"
#include "core/hash.h"
#include "formats/xray/xray_internal.h"

/* Most sled entries accepted (a map larger than this is not a real binary's). */
#define XRAY_MAX_SLEDS (1u << 26)

struct tk_xray_map {
    tk_xray_function *functions; /* index id - 1 */
    uint32_t count;
    uint64_t sleds;
    unsigned version;
    tk_arena names;
};

/* libiberty's demangling (a block of the C library's malloc), or NULL. */
static char *demangle(const char *name)
{
    if (!name || name[0] != '_' || name[1] != 'Z') return NULL;
    return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}

tk_status tk_xray_demangle(const char *name, char **out, tk_error *err)
{
    *out = NULL;
    char *d = demangle(name);
    if (!d) return tk_error_set(err, TK_ERR_FORMAT, "not a mangled C++ name: %s", name ? name : "");
    *out = tk_strdup(d);
    free(d);
    return *out ? TK_OK : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
}

void tk_xray_map_free(tk_xray_map *m)
{
    if (!m) return;
    tk_free(m->functions);
    tk_arena_free(&m->names);
    tk_free(m);
}

uint32_t tk_xray_map_count(const tk_xray_map *m) { return m->count; }
uint64_t tk_xray_map_sleds(const tk_xray_map *m) { return m->sleds; }
unsigned tk_xray_map_version(const tk_xray_map *m) { return m->version; }

const tk_xray_function *tk_xray_map_function(const tk_xray_map *m, uint32_t id)
{
    return id >= 1 && id <= m->count ? &m->functions[id - 1] : NULL;
}

/* R_*_RELATIVE addends by offset, for absolute sled entries in PIE binaries. */
static int load_relative_relocs(Elf *elf, tk_hmap *out)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !sh.sh_entsize) continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Rela rela;
            if (!gelf_getrela(d, (int)i, &rela)) break;
            unsigned type = (unsigned)GELF_R_TYPE(rela.r_info);
            if (type == R_X86_64_RELATIVE || type == R_AARCH64_RELATIVE)
                if (tk_hmap_put(out, rela.r_offset, (uint64_t)rela.r_addend) < 0) return -1;
        }
    }
    return 0;
}

typedef struct symbol {
    uint64_t addr, size;
    const char *name;
} symbol;

static int by_address(const void *a, const void *b)
{
    const symbol *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    /* prefer global symbols' shorter names deterministically */
    return strcmp(x->name, y->name);
}

static symbol *load_symbols(Elf *elf, size_t *count)
{
    symbol *syms = NULL;
    size_t n = 0, cap = 0;
    Elf_Scn *scn = NULL;
    int have_symtab = 0;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) have_symtab = 1;
    }
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) continue;
        if (sh.sh_type != (have_symtab ? SHT_SYMTAB : SHT_DYNSYM) || !sh.sh_entsize) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d) continue;
        size_t total = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < total; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(d, (int)i, &sym)) break;
            if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0) continue;
            const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (!name || !*name) continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 256;
                symbol *ns = tk_reallocarray(syms, cap, sizeof *ns);
                if (!ns) {
                    tk_free(syms);
                    return NULL;
                }
                syms = ns;
            }
            syms[n++] = (symbol){sym.st_value, sym.st_size, name};
        }
    }
    if (n) qsort(syms, n, sizeof *syms, by_address);
    *count = n;
    return syms;
}

static const symbol *find_symbol(const symbol *syms, size_t n, uint64_t addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0) return NULL;
    const symbol *s = &syms[lo - 1];
    /* the first of several symbols at the same address */
    while (s > syms && s[-1].addr == s->addr) s--;
    if (s->addr == addr || addr < s->addr + s->size) return s;
    return NULL;
}

/* The address ranges of every compile unit, sorted by start, for binaries
 * without .debug_aranges (clang writes none by default, and libdw 0.188 does
 * not rebuild them): built once, on the first address dwarf_addrdie misses. */
typedef struct cu_range {
    uint64_t start, end;
    Dwarf_Off die; /* the unit's DIE */
} cu_range;

typedef struct cu_index {
    int built, ok; /* ok: the index is complete (else the units are scanned) */
    cu_range *r;
    uint64_t *max_end; /* max_end[i]: the largest end of r[0..i] */
    size_t n;
} cu_index;

static int cmp_cu_range(const void *a, const void *b)
{
    const cu_range *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->die < y->die ? -1 : x->die > y->die;
}

static void cu_index_build(Dwarf *dw, cu_index *ix)
{
    ix->built = 1;
    size_t cap = 0;
    Dwarf_Off off = 0, next;
    size_t header_size;
    while (dwarf_nextcu(dw, off, &next, &header_size, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(dw, off + header_size, &cu)) {
            Dwarf_Addr base, start, end;
            ptrdiff_t at = 0;
            while ((at = dwarf_ranges(&cu, at, &base, &start, &end)) > 0) {
                if (end <= start) continue;
                if (tk_vec_reserve_((void **)&ix->r, &cap, ix->n + 1, sizeof *ix->r)) goto nomem;
                ix->r[ix->n++] = (cu_range){start, end, off + header_size};
            }
        }
        off = next;
    }
    if (ix->n) {
        qsort(ix->r, ix->n, sizeof *ix->r, cmp_cu_range);
        ix->max_end = tk_malloc(sizeof *ix->max_end * ix->n);
        if (!ix->max_end) goto nomem;
        for (size_t i = 0; i < ix->n; i++)
            ix->max_end[i] =
                i && ix->max_end[i - 1] > ix->r[i].end ? ix->max_end[i - 1] : ix->r[i].end;
    }
    ix->ok = 1;
    return;
nomem: /* no index: the units are scanned for each address */
    tk_free(ix->r);
    ix->r = NULL;
    ix->n = 0;
}

/* The compile unit holding addr: through .debug_aranges when present, else
 * the first unit (in file order) one of whose ranges holds it. */
static int find_cu(Dwarf *dw, cu_index *ix, uint64_t addr, Dwarf_Die *cu)
{
    if (dwarf_addrdie(dw, addr, cu)) return 1;
    if (!ix->built) cu_index_build(dw, ix);
    if (ix->ok) {
        size_t lo = 0, hi = ix->n; /* ranges starting at or before addr: r[0..lo) */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ix->r[mid].start <= addr)
                lo = mid + 1;
            else
                hi = mid;
        }
        Dwarf_Off best = 0;
        int found = 0;
        for (size_t i = lo; i-- > 0 && ix->max_end[i] > addr;)
            if (ix->r[i].end > addr && (!found || ix->r[i].die < best)) {
                best = ix->r[i].die;
                found = 1;
            }
        return found && dwarf_offdie(dw, best, cu) != NULL;
    }
    Dwarf_Off off = 0, next;
    size_t header_size;
    while (dwarf_nextcu(dw, off, &next, &header_size, NULL, NULL, NULL) == 0) {
        if (dwarf_offdie(dw, off + header_size, cu) && dwarf_haspc(cu, addr) == 1) return 1;
        off = next;
    }
    return 0;
}

/* The subprogram DIE starting at addr among the children of parent (namespaces and classes
 * searched too, to a small depth). */
static int find_subprogram(Dwarf_Die *parent, uint64_t addr, int depth, Dwarf_Die *out)
{
    Dwarf_Die child;
    if (depth > 6 || dwarf_child(parent, &child) != 0) return 0;
    do {
        int tag = dwarf_tag(&child);
        Dwarf_Addr low;
        if (tag == DW_TAG_subprogram && dwarf_lowpc(&child, &low) == 0 && low == addr) {
            *out = child;
            return 1;
        }
        if ((tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type) &&
            find_subprogram(&child, addr, depth + 1, out))
            return 1;
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

/* File and line of the function at f->address: the declaration of the subprogram that
 * contains it, else the line table entry of the address. */
static void locate_function(tk_xray_map *m, tk_xray_function *f, Dwarf_Die *cu)
{
    const char *file = NULL;
    int lineno = 0;
    Dwarf_Die *scopes = NULL;
    int n = dwarf_getscopes(cu, f->address, &scopes);
    for (int i = 0; i < n; i++) {
        if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram) continue;
        file = dwarf_decl_file(&scopes[i]);
        if (dwarf_decl_line(&scopes[i], &lineno) != 0) lineno = 0;
        break;
    }
    free(scopes);
    Dwarf_Die sub;
    if (lineno <= 0 && find_subprogram(cu, f->address, 0, &sub)) {
        /* libdw found no scope (seen with C++ units): the subprogram itself */
        if (dwarf_decl_line(&sub, &lineno) != 0) lineno = 0;
        file = dwarf_decl_file(&sub);
    }
    if (!file && lineno > 0) /* libdw 0.188 cannot resolve DWARF 5 decl_file: the unit's file */
        file = dwarf_diename(cu);
    if (!file) { /* no subprogram: the line table at the address */
        Dwarf_Line *line = dwarf_getsrc_die(cu, f->address);
        file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
        int table_line = 0;
        if (lineno <= 0 && line && dwarf_lineno(line, &table_line) == 0) lineno = table_line;
    }
    if (file) f->file = tk_arena_strndup(&m->names, file, strlen(file));
    if (lineno > 0) f->line = (uint32_t)lineno;
}

static void symbolise(tk_xray_map *m, Elf *elf)
{
    size_t nsyms = 0;
    symbol *syms = load_symbols(elf, &nsyms);
    Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    cu_index cus = {0, 0, NULL, NULL, 0};
    for (uint32_t i = 0; i < m->count; i++) {
        tk_xray_function *f = &m->functions[i];
        const symbol *s = syms ? find_symbol(syms, nsyms, f->address) : NULL;
        if (s) {
            char *demangled = demangle(s->name);
            const char *name = demangled ? demangled : s->name;
            f->name = tk_arena_strndup(&m->names, name, strlen(name));
            free(demangled);
        }
        if (dw) {
            Dwarf_Die cu;
            if (find_cu(dw, &cus, f->address, &cu)) locate_function(m, f, &cu);
        }
    }
    tk_free(cus.r);
    tk_free(cus.max_end);
    if (dw) dwarf_end(dw);
    tk_free(syms);
}

/* The xray_instr_map section of elf (NULL when there is none). */
static Elf_Scn *find_map_section(Elf *elf, size_t shstrndx, GElf_Shdr *map_sh)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) continue;
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (name && strcmp(name, "xray_instr_map") == 0) {
            *map_sh = sh;
            return scn;
        }
    }
    return NULL;
}

/* How the sled entries are laid out. */
typedef struct sled_layout {
    int is64, be;
    size_t entry_size;
    uint64_t section_addr;
} sled_layout;

/* Sled entry i (at e) into m: a new function when its function address
 * differs from the previous entry's (*prev_func). */
static void add_sled(tk_xray_map *m, const sled_layout *l, const tk_hmap *relocs, const uint8_t *e,
                     size_t i, uint64_t *prev_func)
{
    uint64_t entry_addr = l->section_addr + i * l->entry_size;
    uint64_t addr, func;
    unsigned kind, always, version;
    if (l->is64) {
        addr = xray_u64(e, l->be);
        func = xray_u64(e + 8, l->be);
        kind = e[16];
        always = e[17];
        version = e[18];
    } else {
        addr = xray_u32(e, l->be);
        func = xray_u32(e + 4, l->be);
        kind = e[8];
        always = e[9];
        version = e[10];
    }
    size_t word = l->is64 ? 8 : 4;
    if (version >= 2) {
        addr += entry_addr;
        func += entry_addr + word;
        if (!l->is64) {
            addr &= UINT32_MAX;
            func &= UINT32_MAX;
        }
    } else if (relocs->len) {
        uint64_t addend;
        if (tk_hmap_get(relocs, entry_addr, &addend)) addr = addend;
        if (tk_hmap_get(relocs, entry_addr + word, &addend)) func = addend;
    }
    if (version > m->version) m->version = version;
    if (m->count == 0 || func != *prev_func) {
        tk_xray_function *f = &m->functions[m->count++];
        f->id = m->count;
        f->address = func;
        *prev_func = func;
    }
    tk_xray_function *f = &m->functions[m->count - 1];
    f->sleds++;
    if (always) f->always_instrument = 1;
    if (kind == 3) f->logs_args = 1;
    (void)addr;
}

static tk_status parse_map(tk_xray_map *m, Elf *elf, const char *path, tk_error *err)
{
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh))
        return tk_error_set_at(err, TK_ERR_FORMAT, path, -1, 0, 0, "not an ELF file");
    sled_layout l = {eh.e_ident[EI_CLASS] == ELFCLASS64, eh.e_ident[EI_DATA] == ELFDATA2MSB, 0, 0};
    l.entry_size = l.is64 ? 32 : 16;
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return tk_error_set_at(err, TK_ERR_FORMAT, path, -1, 0, 0,
                               "ELF file without section names");
    GElf_Shdr map_sh;
    Elf_Scn *map_scn = find_map_section(elf, shstrndx, &map_sh);
    if (!map_scn)
        return tk_error_set_at(err, TK_ERR_FORMAT, path, -1, 0, 0,
                               "no xray_instr_map section (was it built with -fxray-instrument?)");
    l.section_addr = map_sh.sh_addr;
    Elf_Data *d = elf_rawdata(map_scn, NULL);
    if (!d || !d->d_buf || d->d_size != map_sh.sh_size)
        return tk_error_set_at(err, TK_ERR_FORMAT, path, -1, 0, 0,
                               "cannot read the xray_instr_map section");
    if (d->d_size % l.entry_size != 0)
        return tk_error_set_at(err, TK_ERR_FORMAT, path, -1, 0, 0,
                               "xray_instr_map is %zu bytes, not a multiple of the %zu-byte "
                               "sled entry",
                               d->d_size, l.entry_size);
    size_t n = d->d_size / l.entry_size;
    if (n > XRAY_MAX_SLEDS)
        return tk_error_set_at(err, TK_ERR_LIMIT, path, -1, 0, 0, "%zu sled entries (limit %u)", n,
                               XRAY_MAX_SLEDS);
    tk_hmap relocs = TK_HMAP_INIT;
    if (eh.e_type == ET_DYN && load_relative_relocs(elf, &relocs) < 0) {
        tk_hmap_free(&relocs);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory reading relocations");
    }
    m->functions = tk_calloc(n ? n : 1, sizeof *m->functions);
    if (!m->functions) {
        tk_hmap_free(&relocs);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory reading the instrumentation map");
    }
    const uint8_t *base = d->d_buf;
    uint64_t prev_func = 0;
    for (size_t i = 0; i < n; i++) add_sled(m, &l, &relocs, base + i * l.entry_size, i, &prev_func);
    m->sleds = n;
    tk_hmap_free(&relocs);
    return TK_OK;
}

tk_status tk_xray_map_read(tk_xray_map **out, const char *binary, tk_error *err)
{
    *out = NULL;
    int fd = open(binary, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return tk_error_set_at(err, TK_ERR_IO, binary, -1, 0, 0, "cannot open: %s",
                               strerror(errno));
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        if (elf) elf_end(elf);
        close(fd);
        return tk_error_set_at(err, TK_ERR_FORMAT, binary, -1, 0, 0, "not an ELF file");
    }
    tk_xray_map *m = tk_calloc(1, sizeof *m);
    if (!m) {
        elf_end(elf);
        close(fd);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    tk_arena_init(&m->names);
    tk_status st = parse_map(m, elf, binary, err);
    if (st == TK_OK) symbolise(m, elf);
    elf_end(elf);
    close(fd);
    if (st != TK_OK) {
        tk_xray_map_free(m);
        return st;
    }
    *out = m;
    return TK_OK;
}
