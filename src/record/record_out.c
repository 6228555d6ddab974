/* The outputs of a recording: compressed as their names say (.gz, .bz2, .xz,
 * .zst), through a stdio stream (fopencookie) over the output file. */
#include <bzlib.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "core/alloc.h"
#include "record/record_internal.h"

#define ZBUF (1u << 16)

typedef struct zsink {
    FILE *dst;
    tk_compression comp;
    int failed;
    z_stream gz;
    bz_stream bz;
    lzma_stream xz;
    ZSTD_CStream *zs;
    unsigned char buf[ZBUF];
} zsink;

tk_compression tk_rec_compression_of(const char *path)
{
    size_t n = strlen(path);
#define ENDS(s) (n >= sizeof(s) - 1 && !strcmp(path + n - (sizeof(s) - 1), s))
    if (ENDS(".gz")) return TK_COMP_GZIP;
    if (ENDS(".bz2")) return TK_COMP_BZIP2;
    if (ENDS(".xz")) return TK_COMP_XZ;
    if (ENDS(".zst") || ENDS(".zstd")) return TK_COMP_ZSTD;
#undef ENDS
    return TK_COMP_NONE;
}

static void put(zsink *z, size_t n)
{
    if (n && fwrite(z->buf, 1, n, z->dst) != n) z->failed = 1;
}

/* Compress n bytes (finish: end the stream). */
static void deflate_some(zsink *z, const char *data, size_t n, int finish)
{
    switch (z->comp) {
    case TK_COMP_GZIP:
        z->gz.next_in = (Bytef *)data;
        z->gz.avail_in = (uInt)n;
        for (int r = Z_OK; !z->failed;) {
            z->gz.next_out = z->buf;
            z->gz.avail_out = ZBUF;
            r = deflate(&z->gz, finish ? Z_FINISH : Z_NO_FLUSH);
            put(z, ZBUF - z->gz.avail_out);
            if (r == Z_STREAM_ERROR) z->failed = 1;
            if (finish ? r == Z_STREAM_END : z->gz.avail_in == 0 && z->gz.avail_out) break;
        }
        break;
    case TK_COMP_BZIP2:
        z->bz.next_in = (char *)data;
        z->bz.avail_in = (unsigned)n;
        for (int r = BZ_RUN_OK; !z->failed;) {
            z->bz.next_out = (char *)z->buf;
            z->bz.avail_out = ZBUF;
            r = BZ2_bzCompress(&z->bz, finish ? BZ_FINISH : BZ_RUN);
            put(z, ZBUF - z->bz.avail_out);
            if (r < 0) z->failed = 1;
            if (finish ? r == BZ_STREAM_END : z->bz.avail_in == 0) break;
        }
        break;
    case TK_COMP_XZ:
        z->xz.next_in = (const uint8_t *)data;
        z->xz.avail_in = n;
        for (lzma_ret r = LZMA_OK; !z->failed;) {
            z->xz.next_out = z->buf;
            z->xz.avail_out = ZBUF;
            r = lzma_code(&z->xz, finish ? LZMA_FINISH : LZMA_RUN);
            put(z, ZBUF - z->xz.avail_out);
            if (r != LZMA_OK && r != LZMA_STREAM_END) z->failed = 1;
            if (finish ? r == LZMA_STREAM_END : z->xz.avail_in == 0) break;
        }
        break;
    default: {
        ZSTD_inBuffer in = {data, n, 0};
        for (size_t left = 1; !z->failed;) {
            ZSTD_outBuffer out = {z->buf, ZBUF, 0};
            left = ZSTD_compressStream2(z->zs, &out, &in, finish ? ZSTD_e_end : ZSTD_e_continue);
            put(z, out.pos);
            if (ZSTD_isError(left)) z->failed = 1;
            if (finish ? left == 0 : in.pos == in.size) break;
        }
    }
    }
}

static ssize_t zwrite(void *cookie, const char *data, size_t n)
{
    zsink *z = cookie;
    deflate_some(z, data, n, 0);
    return z->failed ? -1 : (ssize_t)n;
}

static int zclose(void *cookie)
{
    zsink *z = cookie;
    deflate_some(z, NULL, 0, 1);
    switch (z->comp) {
    case TK_COMP_GZIP: deflateEnd(&z->gz); break;
    case TK_COMP_BZIP2: BZ2_bzCompressEnd(&z->bz); break;
    case TK_COMP_XZ: lzma_end(&z->xz); break;
    default: ZSTD_freeCStream(z->zs);
    }
    int failed = z->failed;
    tk_free(z);
    return failed ? EOF : 0;
}

/* A stream compressing into dst (which stays the caller's); NULL when out
 * of memory.  fclose ends the compressed stream (EOF when anything failed). */
FILE *tk_rec_zopen(FILE *dst, tk_compression comp)
{
    zsink *z = tk_calloc(1, sizeof *z);
    if (!z) return NULL;
    z->dst = dst;
    z->comp = comp;
    int ok;
    switch (comp) {
    case TK_COMP_GZIP: /* 15 + 16: a gzip header */
        ok = deflateInit2(&z->gz, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
        break;
    case TK_COMP_BZIP2: ok = BZ2_bzCompressInit(&z->bz, 9, 0, 0) == BZ_OK; break;
    case TK_COMP_XZ: ok = lzma_easy_encoder(&z->xz, 6, LZMA_CHECK_CRC64) == LZMA_OK; break;
    default: ok = (z->zs = ZSTD_createCStream()) != NULL; break;
    }
    cookie_io_functions_t io = {NULL, zwrite, NULL, zclose};
    FILE *f = ok ? fopencookie(z, "w", io) : NULL;
    if (!f) {
        if (ok)
            zclose(z);
        else
            tk_free(z);
        return NULL;
    }
    return f;
}
