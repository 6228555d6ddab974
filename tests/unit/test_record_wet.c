/* record --wet's library parts without Valgrind: the comprehensive form's store
 * (the same text whether its streams stay in memory or spill to files, no file
 * left), the history form's ring (the last N dependences), post-dominators. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graph/postdom.h"
#include "record/record_internal.h"
#include "tk_test.h"
#include "tracekit/tracekit.h"

enum { NI = 5, RUNS = 20000 };

static void fill_wis(rec_wi *wis)
{
    memset(wis, 0, sizeof *wis * NI);
    for (uint32_t i = 0; i < NI; i++) {
        wis[i].addr = 0x400000 + 4 * i;
        wis[i].file = "a.c";
        wis[i].func = "main";
        wis[i].line = 10 + i;
        wis[i].nports = (uint16_t)(i % 3);
        wis[i].has_values = i != 3;
    }
}

/* The store's text after RUNS instances in a fixed pseudo-random order. */
static char *store_text(uint64_t memory, const char *tmpdir, uint32_t *spills)
{
    rec_wi wis[NI];
    fill_wis(wis);
    rec_wstore *s = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_rec_wstore_new(&s, wis, NI, memory, tmpdir, &err), TK_OK);
    if (!s) return NULL;
    uint32_t x = 7;
    for (uint32_t k = 0; k < RUNS; k++) {
        x = x * 1103515245u + 12345u;
        uint32_t i = (x >> 16) % NI, inst = wis[i].count++;
        uint32_t dep = (i + 1 + (x >> 8) % (NI - 1)) % NI; /* another instruction */
        for (uint32_t p = 0; p <= wis[i].nports; p++)
            if (((x >> (p + 3)) & 1) && wis[dep].count)
                TK_CHECK_EQ_I64(tk_rec_wstore_dep(s, i, inst, p, dep, wis[dep].count - 1, &err),
                                TK_OK);
        uint8_t v[32];
        for (int b = 0; b < 32; b++) v[b] = (uint8_t)(x >> (b % 24));
        if (wis[i].has_values)
            TK_CHECK_EQ_I64(tk_rec_wstore_value(s, i, inst, v, 1 + (x >> 9) % 32, &err), TK_OK);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    TK_CHECK_EQ_I64(tk_rec_wstore_write(s, f, &err), TK_OK);
    fclose(f);
    *spills = tk_rec_wstore_spills(s);
    tk_rec_wstore_free(s);
    return buf;
}

static void test_store_spills(void)
{
    char dir[] = "/tmp/tk_test_wet.XXXXXX";
    TK_CHECK(mkdtemp(dir) != NULL);
    uint32_t n_mem, n_spill;
    char *a = store_text(1u << 30, dir, &n_mem), *b = store_text(2048, dir, &n_spill);
    TK_CHECK_EQ_U64(n_mem, 0);
    TK_CHECK(n_spill > 10);
    TK_CHECK(a && b && strcmp(a, b) == 0);
    TK_CHECK(a && strncmp(a, "5\n1 1 400000 a.c main 10\nSIZE ", 30) == 0);
    TK_CHECK(a && strstr(a, "4 1 40000c a.c main 13\nSIZE") != NULL);
    /* the text reads back: counts, order of instances */
    tk_input *in = NULL;
    tk_deps *d = NULL;
    tk_error err;
    tk_error_clear(&err);
    if (a) TK_CHECK_EQ_I64(tk_input_open_memory(&in, a, strlen(a), "store", NULL, &err), TK_OK);
    if (in) TK_CHECK_EQ_I64(tk_wet_read(&d, in, NULL, &err), TK_OK);
    tk_deps_free(d);
    tk_input_free(in);
    free(a);
    free(b);
    DIR *dp = opendir(dir);
    int left = 0;
    for (struct dirent *de; dp && (de = readdir(dp));) left += de->d_name[0] != '.';
    if (dp) closedir(dp);
    TK_CHECK_EQ_U64(left, 0); /* the spill files are removed */
    rmdir(dir);
}

static void test_ring(void)
{
    rec_wi wis[NI];
    fill_wis(wis);
    rec_wring *r = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK_EQ_I64(tk_rec_wring_new(&r, 10, &err), TK_OK);
    if (!r) return;
    for (uint32_t k = 0; k < 25; k++) tk_rec_wring_push(r, 4, k, 1, 0, k);
    TK_CHECK_EQ_U64(tk_rec_wring_count(r), 10);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    TK_CHECK_EQ_I64(tk_rec_wring_write(r, wis, NI, f, &err), TK_OK);
    fclose(f);
    /* instances 15..24 of 0x400010 on instances 15..24 of 0x400000 */
    TK_CHECK(buf && strncmp(buf, "0x400010#15 --> 0x400000#15\n", 28) == 0);
    TK_CHECK(buf && strstr(buf, "0x400010#24 --> 0x400000#24\n") != NULL);
    TK_CHECK(buf && strstr(buf, "#14 ") == NULL);
    int lines = 0;
    for (const char *p = buf; p && *p; p++) lines += *p == '\n';
    TK_CHECK_EQ_U64(lines, 10);
    free(buf);
    tk_rec_wring_free(r);
}

static void check_ipdom(uint32_t n, const uint32_t *start, const uint32_t *adj, uint32_t exit,
                        const uint32_t *want)
{
    uint32_t ipdom[16];
    TK_CHECK_EQ_I64(tk_postdominators(n, start, adj, exit, ipdom), TK_OK);
    for (uint32_t v = 0; v < n; v++) TK_CHECK_EQ_U64(ipdom[v], want[v]);
}

static void test_postdominators(void)
{
    /* a diamond: 0 -> 1, 2 -> 3 -> exit 4 */
    static const uint32_t s1[] = {0, 2, 3, 4, 5, 5}, a1[] = {1, 2, 3, 3, 4};
    static const uint32_t w1[] = {3, 3, 3, 4, 4};
    check_ipdom(5, s1, a1, 4, w1);
    /* a loop: 0 -> 1 -> 2 -> 1 or 3 -> exit 4; 1 also to 3 */
    static const uint32_t s2[] = {0, 1, 3, 5, 6, 6}, a2[] = {1, 2, 3, 1, 3, 4};
    static const uint32_t w2[] = {1, 3, 3, 4, 4};
    check_ipdom(5, s2, a2, 4, w2);
    /* an endless loop 1 <-> 2 that never reaches exit 3: the highest node (2) gets the edge */
    static const uint32_t s3[] = {0, 2, 3, 4, 4}, a3[] = {1, 3, 2, 1};
    static const uint32_t w3[] = {3, 2, 3, 3};
    check_ipdom(4, s3, a3, 3, w3);
}

TK_TEST_MAIN(TK_CASE(test_store_spills), TK_CASE(test_ring), TK_CASE(test_postdominators))
