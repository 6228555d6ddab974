/* A crashed process's memory: an ELF core file (its PT_LOAD segments, its
 * auxiliary vector and mapped files) or a raw memory image at an address.
 * Parsed by hand from the bytes (ELF32 and ELF64, either byte order), every
 * offset and size checked against the file: a truncated or damaged core is a
 * located error, never a read outside it. */
#ifndef TK_CORE_COREDUMP_H
#define TK_CORE_COREDUMP_H

#include <stddef.h>
#include <stdint.h>

#include "tracekit/status.h"

/* Auxiliary vector entries the readers use. */
#define TK_AT_PHDR 3
#define TK_AT_PHNUM 5
#define TK_AT_PAGESZ 6
#define TK_AT_ENTRY 9

typedef struct tk_coredump tk_coredump;

/* Parse an ELF core file held in memory (borrowed; must outlive the handle).
 * TK_OK, TK_ERR_FORMAT (not a core file, truncated, damaged: located with
 * the byte offset), TK_ERR_NOMEM. */
tk_status tk_coredump_open(tk_coredump **out, const char *path, const uint8_t *data, size_t len,
                           tk_error *err);
/* A raw memory image whose first byte was at `address`. */
tk_status tk_coredump_open_raw(tk_coredump **out, const char *path, const uint8_t *data, size_t len,
                               uint64_t address, tk_error *err);
void tk_coredump_free(tk_coredump *c);

/* Copy n bytes at addr. TK_OK, or TK_ERR_FORMAT when a byte is in no segment
 * or in the part of a segment the core does not hold (not dumped). */
tk_status tk_coredump_read(const tk_coredump *c, uint64_t addr, void *buf, size_t n, tk_error *err);

/* An auxiliary vector entry (NT_AUXV): 1 and *value when present. */
int tk_coredump_auxv(const tk_coredump *c, uint64_t type, uint64_t *value);

/* The file mapped at addr (NT_FILE), or NULL; *start set to the mapping's
 * start and *file_offset to its offset in the file. */
const char *tk_coredump_mapped_file(const tk_coredump *c, uint64_t addr, uint64_t *start,
                                    uint64_t *file_offset);

/* The thread states of a core (NT_PRSTATUS notes): how many, and in
 * *bad_id the first thread id that is not positive (a damaged core; 1 when
 * none is). */
uint64_t tk_coredump_threads(const tk_coredump *c, int64_t *bad_id);

/* Is this a raw image? The ELF machine of a core (0 for raw images). */
int tk_coredump_is_raw(const tk_coredump *c);
/* The core's byte order (a raw image: the host's). */
int tk_coredump_big_endian(const tk_coredump *c);
unsigned tk_coredump_machine(const tk_coredump *c);
const char *tk_coredump_path(const tk_coredump *c);

#endif
