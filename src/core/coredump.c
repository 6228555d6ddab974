#include "core/coredump.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/vec.h"

#define ET_CORE 4
#define PT_LOAD 1
#define PT_NOTE 4
#define PN_XNUM 0xffff
#define NT_PRSTATUS 1
#define NT_AUXV 6
#define NT_FILE 0x46494c45u

typedef struct core_seg {
    uint64_t vaddr, memsz, offset, filesz;
    size_t index; /* program header number */
} core_seg;

typedef struct core_map {
    uint64_t start, end, file_offset;
    const char *name; /* in the core's bytes, NUL-terminated there */
} core_map;

struct tk_coredump {
    const uint8_t *data;
    size_t len;
    char *path;
    int is64, big, raw;
    unsigned machine;
    TK_VEC(core_seg) segs; /* PT_LOAD, by address */
    TK_VEC(uint64_t) auxv; /* type, value pairs */
    TK_VEC(core_map) maps;
    uint64_t threads; /* NT_PRSTATUS notes */
    int64_t bad_thread_id; /* the first process id <= 0 of one of them, or 1 */
};

/* ---- fields in the core's byte order ---------------------------------- */

static uint64_t get(const tk_coredump *c, const uint8_t *p, int size)
{
    uint64_t v = 0;
    for (int i = 0; i < size; i++) v |= (uint64_t)p[c->big ? size - 1 - i : i] << (8 * i);
    return v;
}

/* ---- open ------------------------------------------------------------- */

static tk_status new_dump(tk_coredump **out, const char *path, const uint8_t *data, size_t len,
                          tk_error *err)
{
    tk_coredump *c = tk_calloc(1, sizeof *c);
    if (!c || !(c->path = tk_strdup(path ? path : "<memory>"))) {
        tk_free(c);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    c->data = data;
    c->len = len;
    c->bad_thread_id = 1;
    *out = c;
    return TK_OK;
}

void tk_coredump_free(tk_coredump *c)
{
    if (!c) return;
    TK_VEC_FREE(&c->segs);
    TK_VEC_FREE(&c->auxv);
    TK_VEC_FREE(&c->maps);
    tk_free(c->path);
    tk_free(c);
}

/* The ELF header: class, byte order, ET_CORE; the program header table. */
static tk_status read_header(tk_coredump *c, uint64_t *phoff, uint64_t *phnum, uint64_t *phent,
                             tk_error *err)
{
    const uint8_t *d = c->data;
    if (c->len < 4 || d[0] != 0x7f || d[1] != 'E' || d[2] != 'L' || d[3] != 'F')
        return tk_error_set_at(err, TK_ERR_FORMAT, c->path, 0, 0, 0,
                               "not an ELF core file (no \\x7fELF magic)");
    if (c->len < 52 || (d[4] == 2 && c->len < 64))
        return tk_error_set_at(err, TK_ERR_FORMAT, c->path, (int64_t)c->len, 0, 0,
                               "truncated core file: the ELF header is cut short");
    if ((d[4] != 1 && d[4] != 2) || (d[5] != 1 && d[5] != 2))
        return tk_error_set_at(err, TK_ERR_FORMAT, c->path, 4, 0, 0,
                               "bad ELF class or byte order (%u, %u)", d[4], d[5]);
    c->is64 = d[4] == 2;
    c->big = d[5] == 2;
    uint64_t type = get(c, d + 16, 2);
    c->machine = (unsigned)get(c, d + 18, 2);
    if (type != ET_CORE)
        return tk_error_set_at(err, TK_ERR_FORMAT, c->path, 16, 0, 0,
                               "not a core file: ELF type %llu, a core is 4 (ET_CORE)%s",
                               (unsigned long long)type,
                               type == 2 || type == 3 ? " (this is a program: give its core)" : "");
    *phoff = c->is64 ? get(c, d + 32, 8) : get(c, d + 28, 4);
    *phent = get(c, d + (c->is64 ? 54 : 42), 2);
    *phnum = get(c, d + (c->is64 ? 56 : 44), 2);
    if (*phnum == PN_XNUM) { /* the count is in section header 0's sh_info */
        uint64_t shoff = c->is64 ? get(c, d + 40, 8) : get(c, d + 32, 4);
        uint64_t at = shoff + (c->is64 ? 44 : 28);
        if (shoff > c->len || at + 4 > c->len)
            return tk_error_set_at(err, TK_ERR_FORMAT, c->path, (int64_t)c->len, 0, 0,
                                   "truncated core file: section header 0 (the segment count) "
                                   "is past the end");
        *phnum = get(c, d + at, 4);
    }
    if (*phent < (c->is64 ? 56u : 32u))
        return tk_error_set_at(err, TK_ERR_FORMAT, c->path, c->is64 ? 54 : 42, 0, 0,
                               "program header entries of %llu bytes: too small",
                               (unsigned long long)*phent);
    if (*phoff > c->len || *phnum > (c->len - *phoff) / *phent)
        return tk_error_set_at(err, TK_ERR_FORMAT, c->path, (int64_t)c->len, 0, 0,
                               "truncated core file: %llu program headers at byte %llu need "
                               "%llu bytes, the file has %zu",
                               (unsigned long long)*phnum, (unsigned long long)*phoff,
                               (unsigned long long)(*phnum * *phent), c->len);
    return TK_OK;
}

/* Bytes [offset, offset + size) lie in the file. */
static int in_file(const tk_coredump *c, uint64_t offset, uint64_t size)
{
    return offset <= c->len && size <= c->len - offset;
}

static tk_status add_segment(tk_coredump *c, const uint8_t *ph, size_t i, int64_t at, tk_error *err)
{
    core_seg s;
    s.index = i;
    s.offset = c->is64 ? get(c, ph + 8, 8) : get(c, ph + 4, 4);
    s.vaddr = c->is64 ? get(c, ph + 16, 8) : get(c, ph + 8, 4);
    s.filesz = c->is64 ? get(c, ph + 32, 8) : get(c, ph + 16, 4);
    s.memsz = c->is64 ? get(c, ph + 40, 8) : get(c, ph + 20, 4);
    if (s.filesz > s.memsz || s.vaddr + s.memsz < s.vaddr)
        return tk_error_set_at(err, TK_ERR_FORMAT, c->path, at, 0, 0,
                               "damaged core file: segment %zu at 0x%llx has %llu bytes in the "
                               "file for %llu in memory",
                               i, (unsigned long long)s.vaddr, (unsigned long long)s.filesz,
                               (unsigned long long)s.memsz);
    if (!in_file(c, s.offset, s.filesz))
        return tk_error_set_at(
            err, TK_ERR_FORMAT, c->path, (int64_t)c->len, 0, 0,
            "truncated core file: segment %zu (memory 0x%llx-0x%llx) needs "
            "bytes %llu-%llu, the file has %zu",
            i, (unsigned long long)s.vaddr, (unsigned long long)(s.vaddr + s.memsz),
            (unsigned long long)s.offset, (unsigned long long)(s.offset + s.filesz), c->len);
    if (s.memsz == 0) return TK_OK;
    return TK_VEC_PUSH(&c->segs, s) != 0 ? tk_error_set(err, TK_ERR_NOMEM, "out of memory") : TK_OK;
}

/* ---- notes ------------------------------------------------------------ */

static tk_status read_auxv(tk_coredump *c, const uint8_t *d, uint64_t n, tk_error *err)
{
    int w = c->is64 ? 8 : 4;
    for (uint64_t k = 0; k + 2 * (uint64_t)w <= n; k += 2 * (uint64_t)w) {
        uint64_t type = get(c, d + k, w), value = get(c, d + k + (uint64_t)w, w);
        if (type == 0) break;
        if (TK_VEC_PUSH(&c->auxv, type) != 0 || TK_VEC_PUSH(&c->auxv, value) != 0)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    return TK_OK;
}

/* NT_FILE: count, page size, count (start, end, page offset), count names. */
static tk_status read_files(tk_coredump *c, const uint8_t *d, uint64_t n, int64_t at, tk_error *err)
{
    uint64_t w = c->is64 ? 8 : 4;
    if (n < 2 * w) return TK_OK;
    uint64_t count = get(c, d, (int)w), page = get(c, d + w, (int)w);
    if (count > (n - 2 * w) / (3 * w))
        return tk_error_set_at(err, TK_ERR_FORMAT, c->path, at, 0, 0,
                               "damaged core file: NT_FILE lists %llu mappings in %llu bytes",
                               (unsigned long long)count, (unsigned long long)n);
    const char *names = (const char *)d + 2 * w + count * 3 * w, *end = (const char *)d + n;
    for (uint64_t k = 0; k < count; k++) {
        const uint8_t *t = d + 2 * w + k * 3 * w;
        const char *nul = names < end ? memchr(names, 0, (size_t)(end - names)) : NULL;
        if (!nul)
            return tk_error_set_at(err, TK_ERR_FORMAT, c->path, at, 0, 0,
                                   "damaged core file: NT_FILE has fewer names than its %llu "
                                   "mappings",
                                   (unsigned long long)count);
        core_map m = {get(c, t, (int)w), get(c, t + w, (int)w), get(c, t + 2 * w, (int)w) * page,
                      names};
        if (TK_VEC_PUSH(&c->maps, m) != 0) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        names = nul + 1;
    }
    return TK_OK;
}

/* NT_PRSTATUS: the thread's id (pr_pid) follows the signal info (3 ints), the
 * current signal (a short, padded to 4) and two signal masks (longs): at 32
 * in a 64-bit core, 24 in a 32-bit one (Linux's elf_prstatus). */
static void thread_status(tk_coredump *c, const uint8_t *d, uint64_t n)
{
    uint64_t at = c->is64 ? 32 : 24;
    c->threads++;
    if (n < at + 4 || c->bad_thread_id <= 0) return;
    int64_t pid = (int32_t)(uint32_t)get(c, d + at, 4);
    if (pid <= 0) c->bad_thread_id = pid;
}

static tk_status read_notes(tk_coredump *c, uint64_t off, uint64_t size, tk_error *err)
{
    const uint8_t *d = c->data + off;
    uint64_t k = 0;
    while (size - k >= 12) {
        uint64_t namesz = get(c, d + k, 4), descsz = get(c, d + k + 4, 4),
                 type = get(c, d + k + 8, 4);
        uint64_t name_at = k + 12, desc_at = name_at + ((namesz + 3) & ~(uint64_t)3);
        uint64_t next = desc_at + ((descsz + 3) & ~(uint64_t)3);
        if (desc_at > size || descsz > size - desc_at)
            return tk_error_set_at(err, TK_ERR_FORMAT, c->path, (int64_t)(off + k), 0, 0,
                                   "damaged core file: a note (type 0x%llx) runs past its "
                                   "segment",
                                   (unsigned long long)type);
        int core = namesz == 5 && memcmp(d + name_at, "CORE", 5) == 0;
        if (type == NT_PRSTATUS) /* whatever its name: libdwfl takes it so */
            thread_status(c, d + desc_at, descsz);
        tk_status st = TK_OK;
        if (core && type == NT_AUXV)
            st = read_auxv(c, d + desc_at, descsz, err);
        else if (core && type == NT_FILE)
            st = read_files(c, d + desc_at, descsz, (int64_t)(off + desc_at), err);
        if (st != TK_OK) return st;
        if (next > size) break;
        k = next;
    }
    return TK_OK;
}

static int cmp_seg(const void *a, const void *b)
{
    const core_seg *x = a, *y = b;
    return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

static tk_status read_phdrs(tk_coredump *c, uint64_t phoff, uint64_t phnum, uint64_t phent,
                            tk_error *err)
{
    for (uint64_t i = 0; i < phnum; i++) {
        const uint8_t *ph = c->data + phoff + i * phent;
        uint64_t type = get(c, ph, 4);
        int64_t at = (int64_t)(phoff + i * phent);
        tk_status st = TK_OK;
        if (type == PT_LOAD) {
            st = add_segment(c, ph, (size_t)i, at, err);
        } else if (type == PT_NOTE) {
            uint64_t off = c->is64 ? get(c, ph + 8, 8) : get(c, ph + 4, 4);
            uint64_t size = c->is64 ? get(c, ph + 32, 8) : get(c, ph + 16, 4);
            if (!in_file(c, off, size))
                return tk_error_set_at(err, TK_ERR_FORMAT, c->path, (int64_t)c->len, 0, 0,
                                       "truncated core file: the notes (segment %llu) need "
                                       "bytes %llu-%llu, the file has %zu",
                                       (unsigned long long)i, (unsigned long long)off,
                                       (unsigned long long)(off + size), c->len);
            st = read_notes(c, off, size, err);
        }
        if (st != TK_OK) return st;
    }
    if (c->segs.len > 1) qsort(c->segs.data, c->segs.len, sizeof *c->segs.data, cmp_seg);
    return TK_OK;
}

tk_status tk_coredump_open(tk_coredump **out, const char *path, const uint8_t *data, size_t len,
                           tk_error *err)
{
    tk_coredump *c;
    tk_status st = new_dump(&c, path, data, len, err);
    if (st != TK_OK) return st;
    uint64_t phoff = 0, phnum = 0, phent = 0;
    st = read_header(c, &phoff, &phnum, &phent, err);
    if (st == TK_OK) st = read_phdrs(c, phoff, phnum, phent, err);
    if (st == TK_OK && c->segs.len == 0)
        st = tk_error_set_at(err, TK_ERR_FORMAT, c->path, -1, 0, 0,
                             "the core file has no memory segment (PT_LOAD)");
    if (st != TK_OK) {
        tk_coredump_free(c);
        return st;
    }
    *out = c;
    return TK_OK;
}

tk_status tk_coredump_open_raw(tk_coredump **out, const char *path, const uint8_t *data, size_t len,
                               uint64_t address, tk_error *err)
{
    tk_coredump *c;
    tk_status st = new_dump(&c, path, data, len, err);
    if (st != TK_OK) return st;
    c->raw = 1;
    if (len > 0 && address + len - 1 < address) {
        tk_coredump_free(c);
        return tk_error_set_at(err, TK_ERR_FORMAT, path, -1, 0, 0,
                               "a raw image of %zu bytes at 0x%llx runs past the end of the "
                               "address space",
                               len, (unsigned long long)address);
    }
    core_seg s = {address, len, 0, len, 0};
    if (len && TK_VEC_PUSH(&c->segs, s) != 0) {
        tk_coredump_free(c);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    *out = c;
    return TK_OK;
}

/* ---- queries ---------------------------------------------------------- */

/* The segment holding addr, or NULL. */
static const core_seg *find_seg(const tk_coredump *c, uint64_t addr)
{
    size_t lo = 0, hi = c->segs.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const core_seg *s = &c->segs.data[mid];
        if (addr < s->vaddr)
            hi = mid;
        else if (addr - s->vaddr >= s->memsz)
            lo = mid + 1;
        else
            return s;
    }
    return NULL;
}

tk_status tk_coredump_read(const tk_coredump *c, uint64_t addr, void *buf, size_t n, tk_error *err)
{
    uint8_t *out = buf;
    while (n > 0) {
        const core_seg *s = find_seg(c, addr);
        if (!s)
            return tk_error_set_at(err, TK_ERR_FORMAT, c->path, -1, 0, 0,
                                   "address 0x%llx is in no memory segment of the %s",
                                   (unsigned long long)addr, c->raw ? "image" : "core");
        uint64_t rel = addr - s->vaddr;
        if (rel >= s->filesz)
            return tk_error_set_at(err, TK_ERR_FORMAT, c->path, -1, 0, 0,
                                   "address 0x%llx was not dumped: the core holds %llu of the "
                                   "%llu bytes of its segment at 0x%llx",
                                   (unsigned long long)addr, (unsigned long long)s->filesz,
                                   (unsigned long long)s->memsz, (unsigned long long)s->vaddr);
        uint64_t k = s->filesz - rel < n ? s->filesz - rel : n;
        memcpy(out, c->data + s->offset + rel, (size_t)k);
        out += k;
        n -= (size_t)k;
        addr += k;
    }
    return TK_OK;
}

int tk_coredump_auxv(const tk_coredump *c, uint64_t type, uint64_t *value)
{
    for (size_t i = 0; i + 1 < c->auxv.len; i += 2)
        if (c->auxv.data[i] == type) {
            *value = c->auxv.data[i + 1];
            return 1;
        }
    return 0;
}

const char *tk_coredump_mapped_file(const tk_coredump *c, uint64_t addr, uint64_t *start,
                                    uint64_t *file_offset)
{
    for (size_t i = 0; i < c->maps.len; i++)
        if (addr >= c->maps.data[i].start && addr < c->maps.data[i].end) {
            *start = c->maps.data[i].start;
            *file_offset = c->maps.data[i].file_offset;
            return c->maps.data[i].name;
        }
    return NULL;
}

int tk_coredump_is_raw(const tk_coredump *c) { return c->raw; }

int tk_coredump_big_endian(const tk_coredump *c)
{
    if (!c->raw) return c->big;
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 0;
}

unsigned tk_coredump_machine(const tk_coredump *c) { return c->machine; }

const char *tk_coredump_path(const tk_coredump *c) { return c->path; }

uint64_t tk_coredump_threads(const tk_coredump *c, int64_t *bad_id)
{
    *bad_id = c->bad_thread_id;
    return c->threads;
}
