/* The core-file reader: ELF64 little-endian and ELF32 big-endian cores built
 * here byte by byte (segments, NT_AUXV, NT_FILE, PN_XNUM), reads across and
 * outside segments, thread ids (NT_PRSTATUS), and the located errors of damaged
 * and truncated cores. */
#include <stdlib.h>
#include <string.h>

#include "core/coredump.h"
#include "tk_test.h"

typedef struct image {
    uint8_t b[8192];
    size_t len;
    int big, is64;
} image;

static void put(image *m, size_t at, uint64_t v, int size)
{
    for (int i = 0; i < size; i++)
        m->b[at + (size_t)(m->big ? size - 1 - i : i)] = (uint8_t)(v >> (8 * i));
}

/* A core with one note segment (AUXV with AT_ENTRY, FILE with one mapping)
 * and two loads: 16 bytes at 0x1000 in the file, and 4096 at 0x2000 of which
 * the core holds none. */
static void build(image *m, int is64, int big)
{
    memset(m, 0, sizeof *m);
    m->is64 = is64;
    m->big = big;
    int w = is64 ? 8 : 4;
    size_t phoff = is64 ? 64 : 52, phent = is64 ? 56 : 32, nph = 3;
    memcpy(m->b,
           "\x7f"
           "ELF",
           4);
    m->b[4] = is64 ? 2 : 1;
    m->b[5] = big ? 2 : 1;
    m->b[6] = 1;
    put(m, 16, 4, 2); /* ET_CORE */
    put(m, 18, 62, 2); /* machine */
    put(m, is64 ? 32 : 28, phoff, w);
    put(m, is64 ? 54 : 42, phent, 2);
    put(m, is64 ? 56 : 44, nph, 2);
    size_t notes = phoff + nph * phent, at = notes;
    /* NT_AUXV: AT_ENTRY 0x1234, AT_NULL */
    put(m, at, 5, 4);
    put(m, at + 4, (uint64_t)(4 * w), 4);
    put(m, at + 8, 6, 4);
    memcpy(m->b + at + 12, "CORE", 5);
    put(m, at + 20, 9, w);
    put(m, at + 20 + (size_t)w, 0x1234, w);
    at += 20 + 4 * (size_t)w;
    /* NT_FILE: one mapping 0x1000-0x2000 at page 0 of "/bin/x" */
    size_t desc = 5 * (size_t)w + 8;
    put(m, at, 5, 4);
    put(m, at + 4, desc, 4);
    put(m, at + 8, 0x46494c45u, 4);
    memcpy(m->b + at + 12, "CORE", 5);
    put(m, at + 20, 1, w);
    put(m, at + 20 + (size_t)w, 4096, w);
    put(m, at + 20 + 2 * (size_t)w, 0x1000, w);
    put(m, at + 20 + 3 * (size_t)w, 0x2000, w);
    memcpy(m->b + at + 20 + 5 * (size_t)w, "/bin/x", 7);
    at += 20 + desc;
    size_t data = at;
    for (int i = 0; i < 16; i++) m->b[data + (size_t)i] = (uint8_t)(0xa0 + i);
    m->len = data + 16;
    /* program headers: NOTE, LOAD 0x1000 (16 bytes), LOAD 0x2000 (not dumped) */
    uint64_t ph[3][4] = {
        {4, notes, 0, data - notes}, {1, data, 0x1000, 16}, {1, data + 16, 0x2000, 0}};
    uint64_t memsz[3] = {0, 16, 4096};
    for (size_t i = 0; i < nph; i++) {
        size_t p = phoff + i * phent;
        put(m, p, ph[i][0], 4);
        put(m, p + (is64 ? 8 : 4), ph[i][1], w);
        put(m, p + (is64 ? 16 : 8), ph[i][2], w);
        put(m, p + (is64 ? 32 : 16), ph[i][3], w);
        put(m, p + (is64 ? 40 : 20), memsz[i], w);
    }
}

static void check_core(int is64, int big)
{
    image m;
    build(&m, is64, big);
    tk_coredump *c;
    tk_error err;
    TK_CHECK(tk_coredump_open(&c, "core", m.b, m.len, &err) == TK_OK);
    uint64_t v = 0, start = 0, off = 1;
    TK_CHECK(tk_coredump_auxv(c, TK_AT_ENTRY, &v) && v == 0x1234);
    TK_CHECK(!tk_coredump_auxv(c, TK_AT_PHDR, &v));
    const char *f = tk_coredump_mapped_file(c, 0x1800, &start, &off);
    TK_CHECK(f && strcmp(f, "/bin/x") == 0 && start == 0x1000 && off == 0);
    uint8_t buf[4];
    TK_CHECK(tk_coredump_read(c, 0x100c, buf, 4, &err) == TK_OK && buf[0] == 0xac &&
             buf[3] == 0xaf);
    TK_CHECK(tk_coredump_read(c, 0x100e, buf, 4, &err) == TK_ERR_FORMAT); /* past its end */
    TK_CHECK(strstr(err.message, "no memory segment") != NULL);
    TK_CHECK(tk_coredump_read(c, 0x2010, buf, 1, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "not dumped") != NULL);
    TK_CHECK(tk_coredump_big_endian(c) == big);
    tk_coredump_free(c);
    /* cut anywhere: an error, never a read outside */
    for (size_t cut = 0; cut < m.len; cut += 7) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, m.b, cut);
        if (tk_coredump_open(&c, "cut", copy, cut, &err) == TK_OK)
            tk_coredump_free(c);
        else
            TK_CHECK(err.code == TK_ERR_FORMAT && err.path[0]);
        free(copy);
    }
}

static void test_elf64_le(void) { check_core(1, 0); }

static void test_elf32_be(void) { check_core(0, 1); }

static void test_damaged(void)
{
    image m;
    build(&m, 1, 0);
    tk_coredump *c;
    tk_error err;
    put(&m, 16, 2, 2); /* ET_EXEC */
    TK_CHECK(tk_coredump_open(&c, "core", m.b, m.len, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "give its core") != NULL);
    build(&m, 1, 0);
    put(&m, 64 + 56 + 32, 32, 8); /* more bytes in the file than in memory */
    TK_CHECK(tk_coredump_open(&c, "core", m.b, m.len, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "damaged core file") != NULL);
    build(&m, 1, 0);
    put(&m, 64 + 56 + 32, 4096, 8); /* the first load's file size past the end */
    put(&m, 64 + 56 + 40, 4096, 8);
    TK_CHECK(tk_coredump_open(&c, "core", m.b, m.len, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "truncated core file") != NULL && err.offset == (int64_t)m.len);
    build(&m, 1, 0);
    put(&m, 64 + 32, 0xffff, 4); /* the first note's size runs past its segment */
    put(&m, 64 + 2 * 56 + 40, 1, 8);
    TK_CHECK(tk_coredump_open(&c, "core", m.b, m.len, &err) == TK_OK || err.code == TK_ERR_FORMAT);
    build(&m, 1, 0);
    put(&m, 56, 0xffff, 2); /* PN_XNUM without section headers */
    TK_CHECK(tk_coredump_open(&c, "core", m.b, m.len, &err) == TK_ERR_FORMAT);
}

/* NT_PRSTATUS: the thread ids (pr_pid at 32 in a 64-bit core); one that is
 * not positive is told (libdwfl's thread walk stops there and leaks). */
static void test_thread_ids(void)
{
    image m;
    build(&m, 1, 0);
    size_t file_note = 64 + 3 * 56 + 20 + 4 * 8, desc = file_note + 20;
    put(&m, file_note + 8, 1, 4); /* the NT_FILE note becomes an NT_PRSTATUS */
    int64_t want[3] = {0, 4242, -5}, bad;
    uint64_t pid[3] = {0, 4242, (uint32_t)-5};
    for (int i = 0; i < 3; i++) {
        put(&m, desc + 32, pid[i], 4);
        tk_coredump *c;
        tk_error err;
        TK_CHECK(tk_coredump_open(&c, "core", m.b, m.len, &err) == TK_OK);
        TK_CHECK(tk_coredump_threads(c, &bad) == 1 && bad == (want[i] > 0 ? 1 : want[i]));
        tk_coredump_free(c);
    }
}

static void test_raw(void)
{
    uint8_t img[32];
    for (int i = 0; i < 32; i++) img[i] = (uint8_t)i;
    tk_coredump *c;
    tk_error err;
    TK_CHECK(tk_coredump_open_raw(&c, "img", img, sizeof img, 0x5000, &err) == TK_OK);
    uint8_t b[2];
    TK_CHECK(tk_coredump_read(c, 0x501e, b, 2, &err) == TK_OK && b[1] == 31);
    TK_CHECK(tk_coredump_read(c, 0x501f, b, 2, &err) == TK_ERR_FORMAT);
    tk_coredump_free(c);
    TK_CHECK(tk_coredump_open_raw(&c, "img", img, sizeof img, UINT64_MAX - 4, &err) ==
             TK_ERR_FORMAT);
}

TK_TEST_MAIN(TK_CASE(test_elf64_le), TK_CASE(test_elf32_be), TK_CASE(test_damaged),
             TK_CASE(test_thread_ids), TK_CASE(test_raw))
