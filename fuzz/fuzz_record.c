/* Fuzz the readers of what tkrecord writes (src/record/): raw files, the
 * threads' spills and the WET stream, and what `tracekit record` makes of them.
 *
 * An input is a folder of files: its bytes up to the first line "%%file NAME"
 * are p1.0.tkr, each such line starts the file NAME (letters, digits and '.'
 * only: p1.0.t0 a spill, p1.0.wet a WET stream, p2.0.tkr another process),
 * the line's newline and the one before it not included. The folder is read
 * as tk_record_read does (the raw files into the cfg model, with the trace
 * maps), then the DCFG written is read back, the spills are encoded into a
 * DCFG-Trace and each complete process's WET stream is replayed into both WET
 * forms. Invariants: nothing crashes, and a DCFG built from raw files that
 * were accepted is one tracekit's DCFG reader accepts. */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record_internal.h"
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];

static void clear_dir(void)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

static void remove_dir(void)
{
    clear_dir();
    rmdir(dir);
}

static int setup(void)
{
    if (dir[0]) return 1;
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fuzz-record.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        dir[0] = 0;
        return 0;
    }
    atexit(remove_dir);
    return 1;
}

static int put_file(const char *name, size_t nlen, const uint8_t *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%.*s", dir, (int)nlen, name);
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* The input's files into the folder; 0 when a NAME is not a plain one. */
static int split(const uint8_t *data, size_t size)
{
    static const char mark[] = "\n%%file ";
    const size_t mlen = sizeof mark - 1;
    const char *name = "p1.0.tkr";
    size_t nlen = strlen(name), at = 0;
    for (int files = 0; files < 16; files++) {
        size_t end = at;
        while (end + mlen <= size && memcmp(data + end, mark, mlen) != 0) end++;
        int last = end + mlen > size;
        if (last) end = size;
        if (!put_file(name, nlen, data + at, end - at)) return 0;
        if (last) return 1;
        name = (const char *)data + end + mlen;
        const uint8_t *nl = memchr(name, '\n', size - (end + mlen));
        if (!nl) return 1;
        nlen = (size_t)((const char *)nl - name);
        if (nlen == 0 || nlen > 32 || name[0] == '.') return 0;
        for (size_t i = 0; i < nlen; i++)
            if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789.", name[i])) return 0;
        at = (size_t)(nl - data) + 1;
    }
    return 1;
}

static int fuzz_write_file(void *f, const void *data, size_t len)
{
    return len && fwrite(data, 1, len, (FILE *)f) != len ? -1 : 0;
}

/* What tracekit writes of an accepted recording, tracekit reads. */
static void dcfg_reads_back(const tk_cfg *cfg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return;
    tk_writer w = {fuzz_write_file, f};
    tk_error err;
    tk_status st = tk_dcfg_write(cfg, &w, &err);
    if (fclose(f) != 0 || st != TK_OK) {
        free(buf);
        return;
    }
    tk_input *in = NULL;
    tk_input_options io = TK_INPUT_OPTIONS_INIT;
    io.no_decompress = 1;
    tk_cfg *again = NULL;
    if (tk_input_open_memory(&in, buf, len, "written", &io, &err) == TK_OK &&
        tk_dcfg_read(&again, in, NULL, &err) != TK_OK) {
        fprintf(stderr, "the DCFG written does not read back: %s\n", err.message);
        abort();
    }
    tk_cfg_free(again);
    tk_input_free(in);
    free(buf);
}

/* The edge records a trace replays are bounded by the raw files' counts: keep the
 * harness's time bounded too. */
static int small_run(const rec_set *s)
{
    uint64_t total = 0;
    for (size_t i = 0; i < s->n; i++)
        for (size_t e = 0; e < s->procs[i].raw.edges.len; e++) {
            uint64_t c = s->procs[i].raw.edges.data[e].count;
            if (c > (1u << 20) || (total += c) > (1u << 20)) return 0;
        }
    return 1;
}

static void wet_forms(const tk_cfg *cfg, const rec_proc *p, FILE *null)
{
    rec_wet_opts wo = {p->raw.wet_values, 1000, 16u << 20, dir};
    rec_wet *w = NULL;
    tk_error err;
    if (tk_rec_wet_load(&w, cfg, p, dir, &wo, &err) == TK_OK) {
        (void)tk_rec_wet_write(w, null, &err);
        (void)tk_rec_wet_write_history(w, null, &err);
    }
    tk_rec_wet_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!setup()) return 0;
    clear_dir();
    if (!split(data, size)) return 0;
    rec_set s;
    tk_cfg *cfg = NULL;
    tk_error err;
    tk_error_clear(&err);
    if (tk_rec_set_build(&s, dir, 1, 0, NULL, &cfg, &err) == TK_OK) {
        dcfg_reads_back(cfg);
        FILE *null = fopen("/dev/null", "w");
        if (null && small_run(&s)) {
            uint64_t edges;
            (void)tk_rec_write_trace(cfg, &s, dir, -1, null, &edges, &err);
        }
        for (size_t i = 0; null && i < s.n; i++)
            if (s.procs[i].raw.wet && s.procs[i].raw.done) wet_forms(cfg, &s.procs[i], null);
        if (null) fclose(null);
    }
    tk_cfg_free(cfg);
    tk_rec_set_free(&s);
    return 0;
}
