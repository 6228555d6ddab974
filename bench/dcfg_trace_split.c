/* bench/mpi.sh's DCFG-Trace model (docs/mpi.md, "Scale"): what tracekit-mpi's convert --to
 * callgrind of one trace split by chunks costs, piece by piece, on one thread of this process
 * (CPU time, CLOCK_PROCESS_CPUTIME_ID):
 *   dcfg_trace_split DCFG TRACE R...
 * prints the fixed cost of a rank (the DCFG read, the trace's tables read), the serial profile
 * (tk_dcfg_trace_to_profile) and its callgrind text, then for each R: every thread's chunks cut
 * into R ranges by their bytes (as tracekit-mpi's ranks cut them: the first R - 1 boundaries
 * where the bytes before them pass k/R of the thread's), each range's partial made
 * (tk_dcfg_trace_profile_range: what each rank decodes), its bytes (what the reduction carries
 * to rank 0), the replay of the ranges in order (tk_dcfg_trace_profile_replay: rank 0's) and
 * the callgrind text written, which must be the serial text byte for byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tracekit/tracekit.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, const tk_error *err)
{
    fprintf(stderr, "dcfg_trace_split: %s: %s\n", what, err ? err->message : "out of memory");
    exit(1);
}

typedef struct {
    char *data;
    size_t size, cap;
} text;

static int text_write(void *ctx, const void *data, size_t len)
{
    text *t = ctx;
    if (t->size + len > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1 << 16;
        while (cap < t->size + len) cap *= 2;
        char *d = realloc(t->data, cap);
        if (!d) return -1;
        t->data = d;
        t->cap = cap;
    }
    memcpy(t->data + t->size, data, len);
    t->size += len;
    return 0;
}

/* The profile's parts made one and written as callgrind text into *out (what convert --to
 * callgrind writes); the CPU time it took. */
static double write_text(tk_profile **p, text *out)
{
    tk_error err;
    tk_error_clear(&err);
    out->size = 0;
    tk_writer w = {text_write, out};
    tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    double t0 = cpu_now();
    if (tk_profile_one_part(p, &err) != TK_OK || tk_callgrind_write(*p, &w, &wo, &err) != TK_OK)
        die("writing", &err);
    return cpu_now() - t0;
}

/* An empty profile with the event and the file "???" first, as tracekit-mpi's root makes it. */
static tk_profile *root_profile(void)
{
    tk_error err;
    tk_error_clear(&err);
    tk_profile *p;
    size_t ir;
    uint32_t unknown;
    if (tk_profile_open(&p, &err) != TK_OK ||
        tk_profile_add_event(p, "Ir", 2, &ir, &err) != TK_OK ||
        tk_profile_intern(p, "???", 3, &unknown, &err) != TK_OK)
        die("profile", &err);
    return p;
}

/* Thread th's chunks cut into r ranges by their bytes, as tracekit-mpi's members cut them
 * (cli_team_split: chunk i is member floor(its middle byte * r / the thread's bytes)'s):
 * first[0..r], global chunk indexes. */
static void cut(const tk_dcfg_trace *t, size_t th, size_t r, size_t *first)
{
    tk_dcfg_trace_thread_info ti;
    tk_dcfg_trace_thread(t, th, &ti);
    unsigned __int128 total = 0, before = 0;
    for (size_t c = 0; c < ti.nchunks; c++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
        total += ci.sequence_chars;
    }
    size_t k = 0;
    first[0] = ti.first_chunk;
    for (size_t c = 0; c < ti.nchunks; c++) {
        tk_dcfg_trace_chunk_info ci;
        tk_dcfg_trace_chunk(t, ti.first_chunk + c, &ci);
        unsigned __int128 mid =
            total ? before * 2 + ci.sequence_chars : (unsigned __int128)c * 2 + 1;
        unsigned __int128 all = total ? total * 2 : (unsigned __int128)ti.nchunks * 2;
        size_t m = (size_t)(mid * r / all);
        if (m >= r) m = r - 1;
        while (k < m) first[++k] = ti.first_chunk + c;
        before += ci.sequence_chars;
    }
    while (k < r) first[++k] = ti.first_chunk + ti.nchunks;
}

/* One split: R ranges a thread. */
static void split(const tk_dcfg_trace *t, const tk_cfg *cfg, size_t r, const text *serial)
{
    size_t nth = tk_dcfg_trace_thread_count(t);
    size_t *first = calloc(r + 1, sizeof *first);
    uint8_t **parts = calloc(r, sizeof *parts);
    size_t *sizes = calloc(r, sizeof *sizes);
    if (!first || !parts || !sizes) die("split", NULL);
    tk_profile *prof = root_profile();
    double decode = 0, slowest = 0, replay = 0;
    size_t bytes = 0, ranges = 0;
    tk_error err;
    tk_error_clear(&err);
    for (size_t th = 0; th < nth; th++) {
        cut(t, th, r, first);
        double most = 0;
        size_t n = 0;
        for (size_t k = 0; k < r; k++) {
            if (first[k] == first[k + 1]) continue; /* a rank without chunks of this thread */
            tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
            o.threads = 1;
            double t0 = cpu_now();
            if (tk_dcfg_trace_profile_range(t, cfg, th, first[k], first[k + 1], &o, &parts[n],
                                            &sizes[n], &err) != TK_OK)
                die("range", &err);
            double dt = cpu_now() - t0;
            decode += dt;
            most = dt > most ? dt : most;
            bytes += sizes[n];
            n++;
        }
        slowest += most;
        ranges += n;
        double t0 = cpu_now();
        if (tk_dcfg_trace_profile_replay(t, cfg, prof, th, (const uint8_t *const *)parts, sizes, n,
                                         &err) != TK_OK)
            die("replay", &err);
        replay += cpu_now() - t0;
        for (size_t k = 0; k < n; k++) tk_free(parts[k]);
    }
    text out = {0};
    double w = write_text(&prof, &out);
    int same = out.size == serial->size && memcmp(out.data, serial->data, out.size) == 0;
    printf("split %zu: %zu ranges, decode %.3f s (the slowest range of each thread: %.3f s), "
           "partials %zu bytes, replay %.3f s, output %.3f s, %s\n",
           r, ranges, decode, slowest, bytes, replay, w,
           same ? "the bytes of the serial profile" : "NOT the bytes of the serial profile");
    free(out.data);
    tk_profile_free(prof);
    free(first);
    free(parts);
    free(sizes);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: dcfg_trace_split DCFG TRACE R...\n");
        return 2;
    }
    tk_error err;
    tk_error_clear(&err);
    tk_cfg *cfg;
    tk_dcfg_trace *t;
    tk_dcfg_read_options ro = TK_DCFG_READ_OPTIONS_INIT;
    double t0 = cpu_now();
    if (tk_dcfg_read_path(&cfg, argv[1], &ro, &err) != TK_OK) die(argv[1], &err);
    double t1 = cpu_now();
    if (tk_dcfg_trace_open(&t, argv[2], NULL, &err) != TK_OK) die(argv[2], &err);
    double t2 = cpu_now();
    size_t chunks = 0;
    for (size_t th = 0; th < tk_dcfg_trace_thread_count(t); th++) {
        tk_dcfg_trace_thread_info ti;
        tk_dcfg_trace_thread(t, th, &ti);
        chunks += ti.nchunks;
    }
    tk_profile *serial;
    if (tk_profile_open(&serial, &err) != TK_OK) die("profile", &err);
    tk_dcfg_trace_convert_options o = TK_DCFG_TRACE_CONVERT_OPTIONS_INIT;
    o.threads = 1;
    double t3 = cpu_now();
    if (tk_dcfg_trace_to_profile(t, cfg, serial, &o, &err) != TK_OK) die("profile", &err);
    double t4 = cpu_now();
    text ref = {0};
    double w = write_text(&serial, &ref);
    printf(
        "fixed: DCFG %.3f s, trace tables %.3f s; %zu threads, %zu chunks; serial profile %.3f s "
        "(%.2f ms a chunk), output %.3f s (%zu bytes)\n",
        t1 - t0, t2 - t1, tk_dcfg_trace_thread_count(t), chunks, t4 - t3,
        chunks ? (t4 - t3) * 1e3 / (double)chunks : 0.0, w, ref.size);
    tk_profile_free(serial);
    for (int a = 3; a < argc; a++) {
        uint64_t r;
        if (tk_parse_u64(argv[a], strlen(argv[a]), &r, &err) != TK_OK || r == 0) die(argv[a], &err);
        split(t, cfg, (size_t)r, &ref);
    }
    free(ref.data);
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return 0;
}
