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
    uint64_t addr;       /* sh_addr */
    uint64_t offset;     /* sh_offset in the file */
    uint32_t type;       /* sh_type */
    uint64_t flags;      /* sh_flags */
    size_t index;
} tk_elf_section;

/* Every section called name, in file order (linked objects may have several
 * after a partial link): calls fn for each; fn returns non-zero to stop. */
tk_status tk_elf_each_section(tk_elf *e, const char *name,
                              int (*fn)(void *ctx, const tk_elf_section *s), void *ctx,
                              tk_error *err);

#endif
