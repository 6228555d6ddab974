/* The allocator hook (tracekit/alloc.h): "all library allocations go through
 * these functions". A tagging allocator puts a header with a magic number in
 * front of every block it hands out and counts the live ones; its free and
 * realloc abort on a block it did not make. The Callgrind and DCFG paths run
 * under it (read, summaries, reports, writers, exports, check): a block the
 * library took from the C library and gave to tk_free, or the other way
 * round, fails here, and every block is given back by the model's free.
 * The tagging allocator takes its memory from its own mapping, not from the C
 * library, so the C library's heap must not grow while a model is built: a
 * raw malloc left in the library shows there (glibc's mallinfo2). */
#include <stdint.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tk_test.h"
#include "tracekit/tracekit.h"

#define MAGIC 0x7472616365u /* "trace" */

typedef struct header {
    uint64_t magic;
    uint64_t size;
} header;

static long live_blocks;
static long foreign_frees;

/* a bump allocator over one mapping: blocks are never reused */
static char *arena_base;
static size_t arena_used, arena_size = (size_t)1 << 32;

static void *tag_malloc(void *ctx, size_t size)
{
    (void)ctx;
    if (!arena_base) {
        void *m = mmap(NULL, arena_size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) return NULL;
        arena_base = m;
    }
    size_t need = (sizeof(header) + size + 15) & ~(size_t)15;
    if (need > arena_size - arena_used) return NULL;
    header *h = (header *)(arena_base + arena_used);
    arena_used += need;
    h->magic = MAGIC;
    h->size = size;
    live_blocks++;
    return h + 1;
}

static header *own(void *p)
{
    header *h = (header *)p - 1;
    if (h->magic != MAGIC) {
        foreign_frees++;
        fprintf(stderr, "  a block the tagging allocator did not make was given back to it\n");
        abort();
    }
    return h;
}

static void *tag_realloc(void *ctx, void *p, size_t size)
{
    if (!p) return tag_malloc(ctx, size);
    header *h = own(p);
    if (size <= h->size) {
        h->size = size;
        return p;
    }
    void *n = tag_malloc(ctx, size);
    if (!n) return NULL;
    memcpy(n, p, h->size);
    h->magic = 0;
    live_blocks--;
    return n;
}

static void tag_free(void *ctx, void *p)
{
    (void)ctx;
    if (!p) return;
    header *h = own(p);
    h->magic = 0;
    live_blocks--;
}

/* bytes in use in the C library's heap (blocks the C library keeps in its
 * per-thread cache after free() count as in use: a little slack) */
#ifdef __GLIBC__
static long libc_heap(void) { return (long)mallinfo2().uordblks; }
#else
static long libc_heap(void) { return 0; } /* no portable way to ask: not checked */
#endif
#define CHECK_HEAP_KEPT(before) TK_CHECK(labs(libc_heap() - (before)) <= 2048)

static const tk_allocator tagging = {tag_malloc, tag_realloc, tag_free, NULL};

static FILE *sink(void)
{
    static char buf[1 << 16]; /* stdio's own buffer would come from the C library's heap */
    FILE *f = fopen("/dev/null", "w");
    TK_CHECK(f != NULL);
    setvbuf(f, buf, _IOFBF, sizeof buf);
    return f;
}

static void callgrind_paths(const char *path)
{
    long before = live_blocks, heap = libc_heap();
    tk_profile *p = NULL;
    TK_CHECK(tk_profile_open(&p, NULL) == TK_OK);
    tk_input *in = NULL;
    tk_error err;
    memset(&err, 0, sizeof err);
    TK_CHECK(tk_input_open(&in, path, NULL, &err) == TK_OK);
    tk_callgrind_read_options ro = TK_CALLGRIND_READ_OPTIONS_INIT;
    TK_CHECK(tk_callgrind_read_input(p, in, &ro, &err) == TK_OK);
    tk_input_free(in);
    CHECK_HEAP_KEPT(heap);
    FILE *out = sink();
    for (int g = TK_GROUP_FUNCTION; g <= TK_GROUP_LINE; g++) {
        tk_prof_summary *s = NULL;
        TK_CHECK(tk_profile_summarize(p, 0, (tk_prof_group)g, &s, &err) == TK_OK);
        size_t ev = 0;
        if (s) TK_CHECK(tk_prof_summary_sort(s, p, &ev, 1, 1, &err) == TK_OK);
        tk_prof_summary_free(s);
    }
    uint32_t *cls = NULL;
    TK_CHECK(tk_profile_recursion_classes(p, 0, 1, &cls, &err) == TK_OK);
    tk_free(cls);
    uint32_t *sr = NULL, *fr = NULL;
    TK_CHECK(tk_profile_string_ranks(p, &sr, &err) == TK_OK);
    TK_CHECK(tk_profile_function_ranks(p, sr, &fr, &err) == TK_OK);
    tk_free(sr);
    tk_free(fr);
    heap = libc_heap();
    tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    TK_CHECK(tk_callgrind_write(p, TK_TEST_WRITER(out), &wo, &err) == TK_OK);
    TK_CHECK(tk_profile_dump(p, TK_TEST_WRITER(out), NULL) == TK_OK);
    tk_dot_options dot = TK_DOT_OPTIONS_INIT;
    TK_CHECK(tk_profile_write_dot(p, &dot, TK_TEST_WRITER(out), &err) == TK_OK);
    tk_folded_profile_options fo = TK_FOLDED_PROFILE_OPTIONS_INIT;
    TK_CHECK(tk_profile_write_folded(p, &fo, TK_TEST_WRITER(out), &err) == TK_OK);
    CHECK_HEAP_KEPT(heap);
    fclose(out);
    tk_profile_free(p);
    TK_CHECK_EQ_I64(live_blocks, before);
}

static void quiet(void *ctx, tk_severity sev, const tk_location *loc, const char *message)
{
    (void)ctx, (void)sev, (void)loc, (void)message;
}

static void dcfg_paths(const char *path)
{
    long before = live_blocks;
    tk_error err;
    memset(&err, 0, sizeof err);
    FILE *out = sink();
    long heap = libc_heap();
    /* check mode: locations, then the spec's checks */
    tk_diag diag;
    tk_diag_init(&diag, quiet, NULL);
    tk_dcfg_read_options ro = TK_DCFG_READ_OPTIONS_INIT;
    ro.diag = &diag;
    tk_cfg *cfg = NULL;
    tk_status st = tk_dcfg_read_path(&cfg, path, &ro, &err);
    TK_CHECK(st == TK_OK || st == TK_ERR_CHECK);
    if (cfg) tk_dcfg_check(cfg, path, &diag, NULL);
    tk_cfg_free(cfg);
    /* read mode: the report, the writers and exports */
    cfg = NULL;
    TK_CHECK(tk_dcfg_read_path(&cfg, path, NULL, &err) == TK_OK);
    CHECK_HEAP_KEPT(heap);
    if (cfg) {
        tk_dcfg_report_options rep = TK_DCFG_REPORT_OPTIONS_INIT;
        for (int f = TK_DCFG_REPORT_TEXT; f <= TK_DCFG_REPORT_CSV; f++) {
            rep.format = (tk_dcfg_report_format)f;
            TK_CHECK(tk_dcfg_report(cfg, &rep, TK_TEST_WRITER(out), &err) == TK_OK);
        }
        TK_CHECK(tk_dcfg_write(cfg, TK_TEST_WRITER(out), &err) == TK_OK);
        TK_CHECK(tk_dcfg_dump(cfg, TK_TEST_WRITER(out), &err) == TK_OK);
        tk_cfg_dot_options dot = TK_CFG_DOT_OPTIONS_INIT;
        TK_CHECK(tk_cfg_write_dot(cfg, &dot, TK_TEST_WRITER(out), &err) == TK_OK);
        tk_profile *p = NULL;
        TK_CHECK(tk_dcfg_to_profile(cfg, &p, &err) == TK_OK);
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        if (p) TK_CHECK(tk_callgrind_write(p, TK_TEST_WRITER(out), &wo, &err) == TK_OK);
        CHECK_HEAP_KEPT(heap);
        tk_profile_free(p);
        tk_cfg_free(cfg);
    }
    fclose(out);
    TK_CHECK_EQ_I64(live_blocks, before);
}

/* Runs `paths` on each file with the tagging allocator installed. */
static void under_tagging(void (*paths)(const char *), const char *const *files, size_t n)
{
    tk_set_allocator(&tagging);
    for (size_t i = 0; i < n; i++) paths(files[i]);
    tk_set_allocator(NULL);
    TK_CHECK(live_blocks == 0);
    TK_CHECK(foreign_frees == 0);
}

static void test_callgrind_allocations_go_through_the_hook(void)
{
    static const char *const files[] = {"tests/data/callgrind/pass/demo-callers2.out",
                                        "tests/data/callgrind/pass/demo-combined.out",
                                        "tests/data/callgrind/pass/call-tree.out"};
    under_tagging(callgrind_paths, files, sizeof files / sizeof *files);
}

static void test_dcfg_allocations_go_through_the_hook(void)
{
    static const char *const files[] = {"tests/data/dcfg/pass/generated-hard.dcfg.json",
                                        "tests/data/dcfg/pass/generated-no-routines.dcfg.json",
                                        "tests/data/dcfg/pass/minimal.dcfg.json"};
    under_tagging(dcfg_paths, files, sizeof files / sizeof *files);
}

static int holds(const unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i += 997)
        if (p[i] != (unsigned char)(i * 31 + seed)) return 0;
    return n == 0 || p[n - 1] == (unsigned char)((n - 1) * 31 + seed);
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 31 + seed);
}

/* The default allocator: blocks from 128 KiB on have mappings of their own
 * (huge pages from 2 MiB); contents survive growth across both thresholds
 * and shrinking; calloc'd blocks are zero; free takes either kind. */
static void test_default_allocator_blocks_of_every_size(void)
{
    static const size_t sizes[] = {1,       100,           4096,    (128 << 10) - 1, 128 << 10,
                                   1 << 20, (2 << 20) - 1, 2 << 20, (5 << 20) + 3,   40 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        size_t n = sizes[i];
        unsigned char *p = tk_malloc(n);
        TK_CHECK(p != NULL);
        if (!p) continue;
        TK_CHECK(((uintptr_t)p & 15) == 0);
        fill(p, n, 7);
        unsigned char *q = tk_realloc(p, n * 3 + 1); /* grows, maybe across a threshold */
        TK_CHECK(q != NULL);
        if (!q) continue;
        TK_CHECK(holds(q, n, 7));
        fill(q, n * 3 + 1, 9);
        unsigned char *r = tk_realloc(q, n / 2 + 1); /* shrinks */
        TK_CHECK(r != NULL);
        if (!r) continue;
        TK_CHECK(holds(r, n / 2 + 1, 9));
        tk_free(r);
        unsigned char *z = tk_calloc(n, 3);
        TK_CHECK(z != NULL);
        int zero = 1;
        for (size_t k = 0; z && k < n * 3; k += 4093) zero &= z[k] == 0;
        TK_CHECK(zero && z && z[n * 3 - 1] == 0);
        tk_free(z);
    }
    TK_CHECK(tk_calloc(SIZE_MAX / 2, 4) == NULL); /* overflow */
    tk_free(NULL);
}

TK_TEST_MAIN(TK_CASE(test_default_allocator_blocks_of_every_size),
             TK_CASE(test_callgrind_allocations_go_through_the_hook),
             TK_CASE(test_dcfg_allocations_go_through_the_hook))
