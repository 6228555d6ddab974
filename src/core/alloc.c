#include "core/alloc.h"
#include "core/compat.h"

#ifdef TK_HAVE_MALLOC_USABLE_SIZE
#include <malloc.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The default allocator is the C library's, but for big blocks.
 *
 * The big blocks are a model's tables (tens to hundreds of MB) and they are
 * filled page by page: every first touch of a 4 KiB page is a page fault, a
 * quarter of the CPU time of `report` on a 130 MB Callgrind profile in a
 * virtual machine where a fault costs ~7 us, and a TLB miss on every random
 * access. Transparent huge pages take one fault per 2 MiB; most systems give
 * them only where asked (transparent_hugepage = madvise). Asking for them
 * inside the C library's own mappings splits them, and its realloc (mremap of
 * one mapping) then fails over to a copy. So a block of HUGE_MIN bytes or
 * more gets a mapping of its own, asked for huge pages as a whole and grown
 * with mremap, and fresh mappings are zero (calloc costs nothing). Blocks
 * from BIG_MIN (128 KiB) on get mappings of their own too (small pages below
 * HUGE_MIN, 2 MiB), as glibc would give them, but without its moving mmap
 * threshold: glibc raises it to the size of every mapped block freed, and
 * then serves blocks up to that size from its heap, which kept 11 MB more
 * resident on the DCFG bench.
 *
 * A big block is recognised by its place and its header: the mapping starts
 * on a page boundary with a header (a magic number and its own address), and
 * the block follows at BIG_OFFSET. A block from malloc at that offset in a
 * page does not have the header before it (and the page is mapped: reading it
 * is safe). Sanitizer builds use the C library for everything, so that the
 * sanitizers see every block. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(TK_FUZZING)
#define TK_BIG_BLOCKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
#define TK_BIG_BLOCKS 0
#endif
#endif
#ifndef TK_BIG_BLOCKS
#define TK_BIG_BLOCKS 1
#endif

#ifndef TK_BIG_MIN /* -DTK_BIG_MIN=1 maps every block: a test of who frees what */
#define BIG_MIN ((size_t)128 << 10) /* glibc's own (initial) mmap threshold */
#else
#define BIG_MIN ((size_t)(TK_BIG_MIN))
#endif
#define HUGE_MIN ((size_t)2 << 20) /* from here on: huge pages */
#define BIG_OFFSET TK_ALLOC_BIG_HEADER /* header, padded to keep a 64-byte alignment */
#define BIG_MAGIC 0x746b2d6269672d31ull /* "tk-big-1" */
#ifdef MAP_POPULATE
#define POPULATE MAP_POPULATE
#else
#define POPULATE 0
#endif
#define PAGE_MASK_4K ((uintptr_t)4095)

typedef struct big_header {
    uint64_t magic;
    struct big_header *self;
    size_t size; /* bytes asked for */
    size_t map_len; /* bytes mapped, header included */
} big_header;

static big_header *big_of(void *p)
{
    if (!TK_BIG_BLOCKS || !p || ((uintptr_t)p & PAGE_MASK_4K) != BIG_OFFSET) return NULL;
    big_header *h = (big_header *)((char *)p - BIG_OFFSET);
    return h->magic == BIG_MAGIC && h->self == h ? h : NULL;
}

/* A growing block of HUGE_MIN bytes or more is mapped in whole huge pages
 * (2 MiB): the system places such mappings on a huge-page boundary (a
 * mapping of another length may start anywhere, and its first and last
 * partial 2 MiB then get small pages). What is not touched is not resident,
 * but the huge page where the filling stops is, whole. A block that shrinks
 * (arrays cut to their final size) is cut to the small page: the system
 * splits that last huge page and frees its tail. */
static size_t map_length(size_t size, int shrinking)
{
    size_t unit = size >= HUGE_MIN && !shrinking ? (size_t)2 << 20 : 4096;
    if (size > SIZE_MAX - BIG_OFFSET - unit) return 0;
    return (BIG_OFFSET + size + unit - 1) & ~(unit - 1);
}

static void advise_huge(void *m, size_t len)
{
#ifdef MADV_HUGEPAGE
    if (len >= HUGE_MIN) (void)madvise(m, len, MADV_HUGEPAGE); /* advice: may fail quietly */
#else
    (void)m, (void)len;
#endif
}

/* A block below HUGE_MIN is populated when mapped (one system call instead
 * of a page fault per 4 KiB page: on virtual machines each fault is an exit
 * to the host). Such blocks are arrays of known size, filled right away, or
 * tables that grow (big_realloc populates what they grow by while they stay
 * below HUGE_MIN). */
static void *big_alloc(size_t size)
{
    size_t len = map_length(size, 0);
    if (!len) return NULL;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | (size < HUGE_MIN ? POPULATE : 0), -1, 0);
    if (m == MAP_FAILED) return NULL;
    advise_huge(m, len);
    big_header *h = m;
    h->magic = BIG_MAGIC;
    h->self = h;
    h->size = size;
    h->map_len = len;
    return (char *)m + BIG_OFFSET;
}

/* mremap where the system has it; else a new mapping, the bytes copied */
static void *remap(void *old, size_t old_len, size_t len)
{
#ifdef TK_HAVE_MREMAP
    return mremap(old, old_len, len, MREMAP_MAYMOVE);
#else
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return m;
    memcpy(m, old, old_len < len ? old_len : len);
    (void)munmap(old, old_len);
    return m;
#endif
}

static void *big_realloc(big_header *h, size_t size)
{
    size_t len = map_length(size, size <= h->size);
    if (!len) return NULL;
    size_t old_len = h->map_len;
    if (len != old_len) {
        void *m = remap(h, old_len, len);
        if (m == MAP_FAILED) return NULL;
        if (len > old_len) advise_huge(m, len);
#ifdef MADV_POPULATE_WRITE
        /* a small-page block that grows is a table that fills what it grew
         * by: populate that too (advice: older kernels refuse it quietly) */
        if (len > old_len && len < HUGE_MIN)
            (void)madvise((char *)m + old_len, len - old_len, MADV_POPULATE_WRITE);
#endif
        h = m;
        h->self = h;
        h->map_len = len;
    }
    h->size = size;
    return (char *)h + BIG_OFFSET;
}

/* When the system refuses a mapping (the limit on mappings per process), the
 * C library's allocator takes the block. */
static void *default_malloc(void *ctx, size_t size)
{
    (void)ctx;
    void *p = TK_BIG_BLOCKS && size >= BIG_MIN ? big_alloc(size) : NULL;
    return p ? p : malloc(size);
}

static void *default_realloc(void *ctx, void *p, size_t size)
{
    (void)ctx;
    big_header *h = big_of(p);
    if (h) {
        void *n = big_realloc(h, size);
        if (n || size < h->size) return n;
        if (!(n = malloc(size))) return NULL; /* mremap refused: copy */
        memcpy(n, p, h->size);
        h->magic = 0;
        (void)munmap(h, h->map_len);
        return n;
    }
    if (!TK_BIG_BLOCKS || size < BIG_MIN || !p)
        return p ? realloc(p, size) : default_malloc(ctx, size);
#ifdef TK_HAVE_MALLOC_USABLE_SIZE
    void *n = big_alloc(size); /* a C library block grows into a mapping of its own */
    if (!n) return realloc(p, size);
    size_t old = malloc_usable_size(p);
    memcpy(n, p, old < size ? old : size);
    free(p);
    return n;
#else
    return realloc(p, size); /* the C library block's size is unknown: it stays one */
#endif
}

static void default_free(void *ctx, void *p)
{
    (void)ctx;
    big_header *h = big_of(p);
    if (h) {
        h->magic = 0;
        (void)munmap(h, h->map_len);
    } else {
        free(p);
    }
}

static tk_allocator g_alloc = {default_malloc, default_realloc, default_free, NULL};

void tk_set_allocator(const tk_allocator *a)
{
    if (a) {
        g_alloc = *a;
    } else {
        g_alloc.malloc_fn = default_malloc;
        g_alloc.realloc_fn = default_realloc;
        g_alloc.free_fn = default_free;
        g_alloc.ctx = NULL;
    }
}

void *tk_malloc(size_t size) { return g_alloc.malloc_fn(g_alloc.ctx, size ? size : 1); }

void *tk_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    if (g_alloc.malloc_fn == default_malloc) {
        void *z =
            TK_BIG_BLOCKS && n * size >= BIG_MIN ? big_alloc(n * size) : NULL; /* zero pages */
        return z ? z : calloc(n ? n : 1, size ? size : 1);
    }
    void *p = tk_malloc(n * size);
    if (p) memset(p, 0, n * size);
    return p;
}

void *tk_realloc(void *ptr, size_t size)
{
    return g_alloc.realloc_fn(g_alloc.ctx, ptr, size ? size : 1);
}

void *tk_reallocarray(void *ptr, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    return tk_realloc(ptr, n * size);
}

void tk_free(void *ptr)
{
    if (ptr) g_alloc.free_fn(g_alloc.ctx, ptr);
}

char *tk_strndup(const char *s, size_t n)
{
    char *p = tk_malloc(n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *tk_strdup(const char *s) { return tk_strndup(s, strlen(s)); }
