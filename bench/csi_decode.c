/* Benchmark: regenerate random Ball-Larus path ids of every function of a
 * CSI metadata file, N ids in all, and print the rate.
 * usage: csi_decode META N */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tracekit/tracekit.h"

typedef struct loaded {
    tk_csi_numbering *num;
    uint64_t total;
} loaded;

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: csi_decode META N\n");
        return 2;
    }
    uint64_t n = strtoull(argv[2], NULL, 10);
    tk_error err;
    tk_input *in;
    tk_csi_reader *r;
    if (tk_input_open(&in, argv[1], NULL, &err) != TK_OK ||
        tk_csi_reader_open(&r, in, &err) != TK_OK) {
        fprintf(stderr, "csi_decode: %s\n", err.message);
        return 1;
    }
    /* keep the 64 functions with most paths loaded (numbering + function copy
     * is not needed: decoding uses the numbering only) */
    enum { KEEP = 64 };
    loaded keep[KEEP];
    size_t nkeep = 0;
    const tk_csi_function *fn;
    tk_csi_numbering *spare = NULL;
    while (tk_csi_reader_next(r, &fn, &err) == TK_OK) {
        if (!spare && tk_csi_numbering_open(&spare, NULL) != TK_OK) return 1;
        if (tk_csi_numbering_load(spare, fn, NULL, NULL, NULL) != TK_OK) continue;
        uint64_t t = tk_bl_total(tk_csi_numbering_bl(spare));
        size_t slot = nkeep;
        if (nkeep == KEEP) {
            slot = 0;
            for (size_t k = 1; k < KEEP; k++)
                if (keep[k].total < keep[slot].total) slot = k;
            if (keep[slot].total >= t) continue;
            tk_csi_numbering *old = keep[slot].num;
            keep[slot].num = spare;
            spare = old;
        } else {
            keep[nkeep++].num = spare;
            spare = NULL;
        }
        keep[slot].total = t;
    }
    tk_csi_numbering_free(spare);
    if (nkeep == 0) {
        fprintf(stderr, "csi_decode: no function with a valid numbering\n");
        return 1;
    }
    uint64_t x = 0x9e3779b97f4a7c15ULL, nodes = 0, bad = 0;
    struct timespec a, b;
    clock_t c0 = clock();
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (uint64_t i = 0; i < n; i++) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        uint64_t rv = x * 2685821657736338717ULL;
        loaded *l = &keep[i % nkeep];
        tk_bl_path *p = tk_csi_numbering_path(l->num);
        if (tk_bl_decode(tk_csi_numbering_bl(l->num), rv % l->total, p, NULL) != TK_OK) bad++;
        nodes += p->len;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    /* the rate is per CPU second: on a shared machine the wall clock also
     * counts other processes' time */
    printf("bench csi-decode: %" PRIu64 " random path ids over %zu functions: %.3f s CPU "
           "(%.3f s wall): %.2f M paths/s (%.1f blocks per path, %" PRIu64 " failures)\n",
           n, nkeep, cpu, s, (double)n / (cpu > 0 ? cpu : s) / 1e6, (double)nodes / (double)n, bad);
    for (size_t k = 0; k < nkeep; k++) tk_csi_numbering_free(keep[k].num);
    tk_csi_reader_free(r);
    tk_input_free(in);
    return bad ? 1 : 0;
}
