/* Small ELF reader: sections by name (libelf). */
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
    uint64_t addr; /* sh_addr */
    uint64_t offset; /* sh_offset in the file */
    uint32_t type; /* sh_type */
    uint64_t flags; /* sh_flags */
    size_t index;
} tk_elf_section;

/* Every section called name, in file order (linked objects may have several
 * after a partial link): calls fn for each; fn returns non-zero to stop. */
tk_status tk_elf_each_section(tk_elf *e, const char *name,
                              int (*fn)(void *ctx, const tk_elf_section *s), void *ctx,
                              tk_error *err);

/* The ELF header's type (ET_EXEC 2, ET_DYN 3...), machine and entry point. */
typedef struct tk_elf_info {
    unsigned type;
    unsigned machine;
    uint64_t entry;
} tk_elf_info;
void tk_elf_get_info(const tk_elf *e, tk_elf_info *out);

/* The GNU build id (NT_GNU_BUILD_ID of an allocated note section): 1 and its
 * bytes (borrowed), length and the address of those bytes in the program's
 * memory; 0 when the file has none. */
int tk_elf_build_id(tk_elf *e, const uint8_t **id, size_t *len, uint64_t *addr);

/* Every defined symbol of .symtab (of .dynsym when there is no .symtab):
 * calls fn with its name, value and size; fn returns non-zero to stop. */
tk_status tk_elf_each_symbol(tk_elf *e,
                             int (*fn)(void *ctx, const char *name, uint64_t value, uint64_t size),
                             void *ctx, tk_error *err);

/* The libelf handle (Elf *), for libdw. */
void *tk_elf_handle(tk_elf *e);

#endif
