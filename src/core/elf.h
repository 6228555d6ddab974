/* Small ELF reader: sections by name, symbols (libelf). */
#ifndef TK_CORE_ELF_H
#define TK_CORE_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/status.h"

typedef struct tk_elf tk_elf;

/* True when data starts with the ELF magic. */
int tk_elf_is_elf(const uint8_t *data, size_t len);

/* Open an ELF file (executable, shared object or relocatable object). */
tk_status tk_elf_open(tk_elf **out, const char *path, tk_error *err);
/* Parse an ELF image held in memory (borrowed; must outlive the handle). */
tk_status tk_elf_open_memory(tk_elf **out, const void *data, size_t len, const char *name,
                             tk_error *err);
void tk_elf_free(tk_elf *e);

typedef struct tk_elf_section {
    const char *name;
    const uint8_t *data; /* NULL for SHT_NOBITS */
    size_t size;
    uint64_t addr;       /* sh_addr */
    uint64_t offset;     /* sh_offset in the file */
    uint32_t type;       /* sh_type */
    uint64_t flags;      /* sh_flags */
    size_t index;
} tk_elf_section;

/* Find the first section called name. TK_OK, or TK_END when there is none. */
tk_status tk_elf_find_section(tk_elf *e, const char *name, tk_elf_section *out, tk_error *err);
/* Every section called name, in file order (linked objects may have several
 * after a partial link): calls fn for each; fn returns non-zero to stop. */
tk_status tk_elf_each_section(tk_elf *e, const char *name,
                              int (*fn)(void *ctx, const tk_elf_section *s), void *ctx,
                              tk_error *err);

/* Machine information. */
int tk_elf_class64(const tk_elf *e);          /* 1 for ELFCLASS64 */
int tk_elf_big_endian(const tk_elf *e);       /* 1 for ELFDATA2MSB */
uint16_t tk_elf_type(const tk_elf *e);        /* ET_EXEC, ET_DYN, ET_REL ... */
uint16_t tk_elf_machine(const tk_elf *e);
const char *tk_elf_path(const tk_elf *e);
/* The libelf handle (Elf *) for advanced use (symbols, relocations, DWARF). */
void *tk_elf_handle(tk_elf *e);
/* The file descriptor the handle reads (or -1 for memory images). */
int tk_elf_fd(const tk_elf *e);

#endif
