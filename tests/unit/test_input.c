/* tk_input: lines, chunks, peeks over mapped, streamed and compressed sources. */
#include <bzlib.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static char *make_text(size_t lines, size_t *len)
{
    size_t cap = lines * 40 + 64, n = 0;
    char *t = malloc(cap);
    for (size_t i = 0; i < lines; i++)
        n += (size_t)snprintf(t + n, cap - n, "line %zu %s\n", i, i % 7 ? "x" : "");
    *len = n;
    return t;
}

/* Read every line and check it against the generator's pattern. */
static void check_lines(tk_input *in, size_t lines)
{
    const char *line;
    size_t len, i = 0;
    tk_error err;
    tk_status st;
    char want[64];
    while ((st = tk_input_getline(in, &line, &len, &err)) == TK_OK) {
        int n = snprintf(want, sizeof want, "line %zu %s", i, i % 7 ? "x" : "");
        if (!TK_CHECK(len == (size_t)n && memcmp(line, want, len) == 0)) break;
        TK_CHECK_EQ_U64(tk_input_line_number(in), i + 1);
        i++;
    }
    TK_CHECK(st == TK_END);
    TK_CHECK_EQ_U64(i, lines);
}

static void test_memory_lines(void)
{
    size_t len;
    char *t = make_text(1000, &len);
    tk_input *in;
    tk_error err;
    TK_CHECK(tk_input_open_memory(&in, t, len, "mem", NULL, &err) == TK_OK);
    TK_CHECK(tk_input_is_mapped(in));
    check_lines(in, 1000);
    TK_CHECK_EQ_U64(tk_input_raw_offset(in), len);
    tk_input_free(in);
    free(t);
}

static void test_last_line_and_crlf(void)
{
    const char *t = "a\r\nbb\n\nccc";
    tk_input *in;
    tk_error err;
    const char *l;
    size_t n;
    TK_CHECK(tk_input_open_memory(&in, t, strlen(t), "mem", NULL, &err) == TK_OK);
    TK_CHECK(tk_input_getline(in, &l, &n, &err) == TK_OK && n == 1 && l[0] == 'a');
    TK_CHECK(tk_input_getline(in, &l, &n, &err) == TK_OK && n == 2);
    TK_CHECK_EQ_U64(tk_input_line_offset(in), 3);
    TK_CHECK(tk_input_getline(in, &l, &n, &err) == TK_OK && n == 0);
    TK_CHECK(tk_input_getline(in, &l, &n, &err) == TK_OK && n == 3 && memcmp(l, "ccc", 3) == 0);
    TK_CHECK(tk_input_getline(in, &l, &n, &err) == TK_END);
    tk_input_free(in);
}

static unsigned char *compress_with(tk_compression c, const char *t, size_t len, size_t *out_len)
{
    size_t cap = len + len / 2 + 1024;
    unsigned char *o = malloc(cap);
    switch (c) {
    case TK_COMP_GZIP: {
        z_stream z;
        memset(&z, 0, sizeof z);
        deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
        z.next_in = (Bytef *)(uintptr_t)t;
        z.avail_in = (uInt)len;
        z.next_out = o;
        z.avail_out = (uInt)cap;
        deflate(&z, Z_FINISH);
        *out_len = z.total_out;
        deflateEnd(&z);
        break;
    }
    case TK_COMP_BZIP2: {
        unsigned int n = (unsigned)cap;
        BZ2_bzBuffToBuffCompress((char *)o, &n, (char *)(uintptr_t)t, (unsigned)len, 9, 0, 0);
        *out_len = n;
        break;
    }
    case TK_COMP_XZ: {
        size_t pos = 0;
        lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)t, len, o, &pos, cap);
        *out_len = pos;
        break;
    }
    case TK_COMP_ZSTD: *out_len = ZSTD_compress(o, cap, t, len, 3); break;
    case TK_COMP_NONE:
        memcpy(o, t, len);
        *out_len = len;
        break;
    }
    return o;
}

static void test_compressed_memory(void)
{
    size_t len;
    char *t = make_text(50000, &len);
    for (int c = TK_COMP_GZIP; c <= TK_COMP_ZSTD; c++) {
        size_t zlen;
        unsigned char *z = compress_with((tk_compression)c, t, len, &zlen);
        tk_input *in;
        tk_error err;
        TK_CHECK(tk_input_open_memory(&in, z, zlen, "mem", NULL, &err) == TK_OK);
        TK_CHECK(tk_input_compression(in) == (tk_compression)c);
        TK_CHECK(!tk_input_is_mapped(in));
        TK_CHECK_EQ_U64(tk_input_raw_offset(in), 0);
        check_lines(in, 50000);
        TK_CHECK_EQ_U64(tk_input_offset(in), len);
        /* the decoder took all of the compressed data (zstd and xz may leave a footer) */
        TK_CHECK(tk_input_raw_offset(in) > zlen / 2 && tk_input_raw_offset(in) <= zlen);
        tk_input_free(in);
        /* every truncation point gives an error, never a silent short read */
        for (size_t cut = 8; cut < zlen; cut += zlen / 7 + 1) {
            TK_CHECK(tk_input_open_memory(&in, z, cut, "cut", NULL, &err) == TK_OK);
            const uint8_t *d;
            size_t n;
            tk_status st = tk_input_map(in, &d, &n, &err);
            TK_CHECK(st == TK_ERR_FORMAT);
            TK_CHECK(err.offset >= 0 && (size_t)err.offset <= cut);
            tk_input_free(in);
        }
        free(z);
    }
    free(t);
}

static void test_concatenated_streams(void)
{
    const char *a = "first\n", *b = "second\n";
    for (int c = TK_COMP_GZIP; c <= TK_COMP_ZSTD; c++) {
        size_t la, lb;
        unsigned char *za = compress_with((tk_compression)c, a, strlen(a), &la);
        unsigned char *zb = compress_with((tk_compression)c, b, strlen(b), &lb);
        unsigned char *both = malloc(la + lb);
        memcpy(both, za, la);
        memcpy(both + la, zb, lb);
        tk_input *in;
        tk_error err;
        TK_CHECK(tk_input_open_memory(&in, both, la + lb, "cat", NULL, &err) == TK_OK);
        const uint8_t *d;
        size_t n;
        TK_CHECK(tk_input_map(in, &d, &n, &err) == TK_OK);
        TK_CHECK_MEM(d, n, "first\nsecond\n");
        tk_input_free(in);
        free(za);
        free(zb);
        free(both);
    }
}

static void test_file_stream_and_map(void)
{
    size_t len;
    char *t = make_text(200000, &len);
    char path[] = "/tmp/tk_test_input_XXXXXX";
    int fd = mkstemp(path);
    TK_CHECK(fd >= 0);
    TK_CHECK(write(fd, t, len) == (ssize_t)len);
    close(fd);
    for (int no_mmap = 0; no_mmap <= 1; no_mmap++) {
        tk_input_options opt = TK_INPUT_OPTIONS_INIT;
        opt.no_mmap = no_mmap;
        tk_input *in;
        tk_error err;
        TK_CHECK(tk_input_open(&in, path, &opt, &err) == TK_OK);
        TK_CHECK(!tk_input_is_mapped(in)); /* plain files stream, mapped or not */
        TK_CHECK(tk_input_is_file(in) == !no_mmap);
        TK_CHECK_EQ_I64(tk_input_raw_size(in), (int64_t)len);
        const uint8_t *p;
        size_t n;
        TK_CHECK(tk_input_peek(in, 10, &p, &n, &err) == TK_OK && n == 10 &&
                 memcmp(p, "line 0 \nli", 10) == 0);
        check_lines(in, 200000);
        tk_input_free(in);
        /* chunks add up to the whole content */
        TK_CHECK(tk_input_open(&in, path, &opt, &err) == TK_OK);
        size_t total = 0;
        while (tk_input_chunk(in, &p, &n, &err) == TK_OK) {
            TK_CHECK(memcmp(p, t + total, n) == 0);
            total += n;
        }
        TK_CHECK_EQ_U64(total, len);
        tk_input_free(in);
        /* tk_input_map after a peek and some lines: the rest, from where reading stopped */
        TK_CHECK(tk_input_open(&in, path, &opt, &err) == TK_OK);
        TK_CHECK(tk_input_peek(in, 4096, &p, &n, &err) == TK_OK && n == 4096);
        const char *l;
        size_t ln;
        for (int i = 0; i < 3; i++) TK_CHECK(tk_input_getline(in, &l, &ln, &err) == TK_OK);
        uint64_t at = tk_input_offset(in);
        TK_CHECK(tk_input_map(in, &p, &n, &err) == TK_OK);
        TK_CHECK_EQ_U64(n, len - at);
        TK_CHECK(n == len - at && memcmp(p, t + at, n) == 0);
        TK_CHECK(tk_input_chunk(in, &p, &n, &err) == TK_END); /* all handed out */
        TK_CHECK(tk_input_map(in, &p, &n, &err) == TK_OK && n == 0);
        tk_input_free(in);
    }
    unlink(path);
    free(t);
}

/* A plain file of several windows of its mapping (tk_input_chunk hands out
 * 2 MiB windows): the chunks add up to the content at every chunk_max, lines
 * and tk_input_map go on where the chunks stopped, and a file that grows or
 * shrinks after it was opened is read as it is (no crash). */
static void test_file_windows(void)
{
    size_t len;
    char *t = make_text(600000, &len); /* ~7.6 MB */
    char path[] = "/tmp/tk_test_input_XXXXXX";
    int fd = mkstemp(path);
    TK_CHECK(fd >= 0);
    TK_CHECK(write(fd, t, len) == (ssize_t)len);
    close(fd);
    tk_error err;
    const uint8_t *p;
    size_t n;
    static const size_t maxes[] = {0, 1000003, 4096, 3u << 20};
    for (size_t m = 0; m < sizeof maxes / sizeof *maxes; m++) {
        tk_input_options opt = TK_INPUT_OPTIONS_INIT;
        opt.chunk_max = maxes[m];
        tk_input *in;
        TK_CHECK(tk_input_open(&in, path, &opt, &err) == TK_OK);
        size_t total = 0, chunks = 0;
        tk_status st;
        while ((st = tk_input_chunk(in, &p, &n, &err)) == TK_OK) {
            if (!TK_CHECK(n > 0 && total + n <= len && memcmp(p, t + total, n) == 0)) break;
            total += n;
            chunks++;
            TK_CHECK_EQ_U64(tk_input_offset(in), total);
        }
        TK_CHECK(st == TK_END);
        TK_CHECK_EQ_U64(total, len);
        TK_CHECK(chunks >= (maxes[m] ? len / maxes[m] : len >> 21));
        tk_input_free(in);
    }
    /* chunks, then lines, then chunks, then the rest as one block */
    tk_input *in;
    TK_CHECK(tk_input_open(&in, path, NULL, &err) == TK_OK);
    size_t total = 0;
    for (int i = 0; i < 2; i++) {
        TK_CHECK(tk_input_chunk(in, &p, &n, &err) == TK_OK);
        TK_CHECK(memcmp(p, t + total, n) == 0);
        total += n;
    }
    const char *l;
    size_t ln;
    TK_CHECK(tk_input_getline(in, &l, &ln, &err) == TK_OK);
    const char *nl = memchr(t + total, '\n', len - total);
    TK_CHECK(nl && ln == (size_t)(nl - (t + total)) && memcmp(l, t + total, ln) == 0);
    total = (size_t)(nl - t) + 1;
    TK_CHECK(tk_input_chunk(in, &p, &n, &err) == TK_OK); /* the rest of the line buffer */
    TK_CHECK(memcmp(p, t + total, n) == 0);
    total += n;
    TK_CHECK(tk_input_chunk(in, &p, &n, &err) == TK_OK);
    TK_CHECK(memcmp(p, t + total, n) == 0);
    total += n;
    TK_CHECK_EQ_U64(tk_input_offset(in), total);
    TK_CHECK(tk_input_map(in, &p, &n, &err) == TK_OK);
    TK_CHECK(n == len - total && memcmp(p, t + total, n) == 0);
    TK_CHECK(tk_input_chunk(in, &p, &n, &err) == TK_END);
    tk_input_free(in);
    /* the file grows after it was opened: the new bytes follow the mapping */
    TK_CHECK(tk_input_open(&in, path, NULL, &err) == TK_OK);
    fd = open(path, O_WRONLY | O_APPEND);
    TK_CHECK(fd >= 0 && write(fd, "tail\n", 5) == 5);
    close(fd);
    total = 0;
    tk_status st;
    while ((st = tk_input_chunk(in, &p, &n, &err)) == TK_OK) {
        /* (windows of the mapping end at the old size; chunks read with
         * read(2), where the system cannot populate windows, may not) */
        size_t old = total < len ? (n < len - total ? n : len - total) : 0;
        TK_CHECK(memcmp(p, t + total, old) == 0);
        static const char tail[] = "tail\n"; /* (from total + old = len on, when n > old) */
        TK_CHECK(total + n <= len + 5 &&
                 (n == old || memcmp(p + old, tail + (total + old - len), n - old) == 0));
        total += n;
    }
    TK_CHECK(st == TK_END);
    TK_CHECK_EQ_U64(total, len + 5);
    tk_input_free(in);
    /* the file shrinks after the first window: the rest is what is left */
    TK_CHECK(tk_input_open(&in, path, NULL, &err) == TK_OK);
    TK_CHECK(tk_input_chunk(in, &p, &n, &err) == TK_OK);
    total = n;
    TK_CHECK(n < (3u << 20) && truncate(path, 3u << 20) == 0);
    while ((st = tk_input_chunk(in, &p, &n, &err)) == TK_OK) {
        TK_CHECK(total + n <= (3u << 20) && memcmp(p, t + total, n) == 0);
        total += n;
    }
    TK_CHECK(st == TK_END);
    TK_CHECK_EQ_U64(total, 3u << 20);
    tk_input_free(in);
    unlink(path);
    free(t);
}

static void test_line_limit(void)
{
    size_t len = 100000;
    char *t = malloc(len);
    memset(t, 'a', len);
    t[10] = '\n';
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.max_line = 1000;
    tk_input *in;
    tk_error err;
    TK_CHECK(tk_input_open_memory(&in, t, len, "long", &opt, &err) == TK_OK);
    const char *l;
    size_t n;
    TK_CHECK(tk_input_getline(in, &l, &n, &err) == TK_OK && n == 10);
    TK_CHECK(tk_input_getline(in, &l, &n, &err) == TK_ERR_LIMIT);
    TK_CHECK_EQ_U64(err.line, 2);
    TK_CHECK_STR(err.path, "long");
    tk_input_free(in);
    free(t);
}

static void test_missing_file(void)
{
    tk_input *in;
    tk_error err;
    TK_CHECK(tk_input_open(&in, "/nonexistent/dir/file", NULL, &err) == TK_ERR_IO);
    TK_CHECK(strstr(err.message, "No such file") != NULL);
    TK_CHECK(tk_input_open(&in, "/tmp", NULL, &err) == TK_ERR_IO);
}

TK_TEST_MAIN(TK_CASE(test_memory_lines), TK_CASE(test_last_line_and_crlf),
             TK_CASE(test_compressed_memory), TK_CASE(test_concatenated_streams),
             TK_CASE(test_file_stream_and_map), TK_CASE(test_file_windows),
             TK_CASE(test_line_limit), TK_CASE(test_missing_file))
