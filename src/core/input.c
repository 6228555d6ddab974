/* Input: mmap for regular files, streaming for pipes, transparent decompression. */
#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/bz2_parallel.h"
#include "core/threadpool.h"
#include "tracekit/input.h"

#define RAW_BUF_SIZE (256u * 1024u)
#define CONTENT_BUF_SIZE (1024u * 1024u)
#define DEFAULT_MAX_LINE ((size_t)256 * 1024 * 1024)
#define PROGRESS_STEP ((uint64_t)8 * 1024 * 1024)

struct tk_input {
    char *path;
    int fd;
    int own_fd;
    tk_input_options opt;

    /* raw (possibly compressed) source: fd, or memory */
    const uint8_t *mem;
    size_t mem_len;
    int64_t raw_size;
    uint8_t *rbuf; /* fd source buffer */
    size_t rbuf_size; /* RAW_BUF_SIZE, or less for a smaller regular file */
    const uint8_t *rp; /* raw window */
    size_t ravail;
    uint64_t raw_fed; /* raw bytes handed to the window so far */
    uint64_t raw_released; /* mapped compressed file: bytes before this were given back */
    int raw_eof;

    /* decompression */
    tk_compression comp;
    int dec_active; /* a decoder stream is initialised */
    int dec_ended; /* the last stream/member ended cleanly */
    z_stream z;
    bz_stream bz;
    tk_bz2par *bzp; /* a mapped .bz2 decoded on worker threads, until it says stop */
    lzma_stream lz;
    ZSTD_DStream *zs;
    size_t zs_last; /* last ZSTD_decompressStream result (0 = frame complete) */

    /* content buffer */
    uint8_t *buf; /* owned, or the map / memory */
    size_t cap, pos, end;
    uint64_t base; /* content offset of buf[0] */
    int eof; /* nothing beyond end */
    int mapped; /* buf is a map or memory block */
    void *map; /* regular file: its mapping (also when the content streams) */
    size_t map_len;
    int map_taken; /* plain file streamed, then the rest handed out by tk_input_map */
    size_t win_lo,
        win_hi; /* plain file: the window of the mapping tk_input_chunk handed out last */
    int no_windows; /* the system cannot populate a window: read(2) from here on */

    uint64_t line_no, line_off;
    uint64_t next_progress;

    tk_status failed; /* sticky error */
    tk_error failure;
};

const char *tk_compression_name(tk_compression c)
{
    switch (c) {
    case TK_COMP_NONE: return "none";
    case TK_COMP_GZIP: return "gzip";
    case TK_COMP_BZIP2: return "bzip2";
    case TK_COMP_XZ: return "xz";
    case TK_COMP_ZSTD: return "zstd";
    }
    return "unknown";
}

tk_compression tk_compression_detect(const uint8_t *d, size_t n)
{
    if (n >= 2 && d[0] == 0x1f && d[1] == 0x8b) return TK_COMP_GZIP;
    if (n >= 4 && d[0] == 'B' && d[1] == 'Z' && d[2] == 'h' && d[3] >= '1' && d[3] <= '9')
        return TK_COMP_BZIP2;
    if (n >= 6 && memcmp(d,
                         "\xfd"
                         "7zXZ\0",
                         6) == 0)
        return TK_COMP_XZ;
    if (n >= 4 && d[0] == 0x28 && d[1] == 0xb5 && d[2] == 0x2f && d[3] == 0xfd) return TK_COMP_ZSTD;
    return TK_COMP_NONE;
}

static tk_status fail(tk_input *in, tk_error *err, tk_status code, int64_t offset, const char *fmt,
                      ...) __attribute__((format(printf, 5, 6)));

static tk_status fail(tk_input *in, tk_error *err, tk_status code, int64_t offset, const char *fmt,
                      ...)
{
    va_list ap;
    va_start(ap, fmt);
    tk_error_vset(&in->failure, code, fmt, ap);
    va_end(ap);
    tk_error_locate(&in->failure, in->path, offset, 0, 0);
    in->failed = code;
    if (err) *err = in->failure;
    return code;
}

static tk_status sticky(tk_input *in, tk_error *err)
{
    if (err) *err = in->failure;
    return in->failed;
}

static void progress(tk_input *in, uint64_t done)
{
    if (!in->opt.progress || done < in->next_progress) return;
    in->next_progress = done + PROGRESS_STEP;
    in->opt.progress(in->opt.progress_ctx, done, in->raw_size < 0 ? 0 : (uint64_t)in->raw_size);
}

/* ---- raw source -------------------------------------------------------- */

/* Make the raw window non-empty unless the source is exhausted. */
static tk_status raw_refill(tk_input *in, tk_error *err)
{
    if (in->ravail || in->raw_eof) return TK_OK;
    if (in->mem) {
        if (in->raw_fed >= in->mem_len) {
            in->raw_eof = 1;
            return TK_OK;
        }
        in->rp = in->mem + in->raw_fed;
        in->ravail = in->mem_len - (size_t)in->raw_fed;
        in->raw_fed = in->mem_len;
        return TK_OK;
    }
    for (;;) {
        ssize_t n = read(in->fd, in->rbuf, in->rbuf_size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            return fail(in, err, TK_ERR_IO, (int64_t)in->raw_fed, "read failed: %s",
                        strerror(errno));
        if (n == 0) {
            in->raw_eof = 1;
            return TK_OK;
        }
        in->rp = in->rbuf;
        in->ravail = (size_t)n;
        in->raw_fed += (uint64_t)n;
        progress(in, in->raw_fed);
        return TK_OK;
    }
}

/* Offset in the raw file of the next raw byte not yet consumed by a decoder. */
static int64_t raw_offset(const tk_input *in) { return (int64_t)(in->raw_fed - in->ravail); }

/* Bytes of the raw window handed to a decoder per call: small enough that an
 * error's byte offset is close to the damage, large enough to cost nothing. */
#define DEC_WINDOW ((size_t)64 * 1024)
static size_t dec_window(const tk_input *in)
{
    return in->ravail < DEC_WINDOW ? in->ravail : DEC_WINDOW;
}

static const char *bz2_error_name(int r)
{
    switch (r) {
    case BZ_DATA_ERROR: return "data integrity error";
    case BZ_DATA_ERROR_MAGIC: return "bad stream header";
    case BZ_MEM_ERROR: return "out of memory";
    default: return "decoder error";
    }
}

static const char *lzma_error_name(lzma_ret r)
{
    switch (r) {
    case LZMA_DATA_ERROR: return "data is corrupt";
    case LZMA_FORMAT_ERROR: return "not in the xz format";
    case LZMA_OPTIONS_ERROR: return "unsupported options";
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_MEMLIMIT_ERROR: return "memory limit reached";
    default: return "decoder error";
    }
}

/* ---- decoders ---------------------------------------------------------- */

static tk_status dec_start(tk_input *in, tk_error *err)
{
    switch (in->comp) {
    case TK_COMP_GZIP:
        memset(&in->z, 0, sizeof in->z);
        if (inflateInit2(&in->z, 15 + 16) != Z_OK)
            return fail(in, err, TK_ERR_NOMEM, -1, "cannot start gzip decoder");
        break;
    case TK_COMP_BZIP2:
        memset(&in->bz, 0, sizeof in->bz);
        if (BZ2_bzDecompressInit(&in->bz, 0, 0) != BZ_OK)
            return fail(in, err, TK_ERR_NOMEM, -1, "cannot start bzip2 decoder");
        break;
    case TK_COMP_XZ: {
        lzma_stream init = LZMA_STREAM_INIT;
        in->lz = init;
        if (lzma_stream_decoder(&in->lz, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
            return fail(in, err, TK_ERR_NOMEM, -1, "cannot start xz decoder");
        break;
    }
    case TK_COMP_ZSTD:
        in->zs = ZSTD_createDStream();
        if (!in->zs) return fail(in, err, TK_ERR_NOMEM, -1, "cannot start zstd decoder");
        ZSTD_initDStream(in->zs);
        in->zs_last = 1;
        break;
    case TK_COMP_NONE: break;
    }
    in->dec_active = 1;
    in->dec_ended = 0;
    return TK_OK;
}

static void dec_end(tk_input *in)
{
    if (!in->dec_active) return;
    switch (in->comp) {
    case TK_COMP_GZIP: inflateEnd(&in->z); break;
    case TK_COMP_BZIP2: BZ2_bzDecompressEnd(&in->bz); break;
    case TK_COMP_XZ: lzma_end(&in->lz); break;
    case TK_COMP_ZSTD:
        ZSTD_freeDStream(in->zs);
        in->zs = NULL;
        break;
    case TK_COMP_NONE: break;
    }
    in->dec_active = 0;
}

static tk_status truncated(tk_input *in, tk_error *err)
{
    return fail(in, err, TK_ERR_FORMAT, raw_offset(in),
                "truncated %s stream: the compressed data ends before the end of the stream",
                tk_compression_name(in->comp));
}

/* A mapped compressed file: the pages the decoder is done with are given back
 * to the system now and then (each is read once), so that the compressed file
 * does not stay resident beside what is built from it. */
static void release_raw(tk_input *in)
{
    if (!in->map || in->comp == TK_COMP_NONE || (!in->rp && !in->bzp)) return;
    uint64_t done =
        in->bzp ? tk_bz2par_raw_done(in->bzp) : (uint64_t)(in->rp - (const uint8_t *)in->map);
    if (done > in->map_len || done < in->raw_released + ((uint64_t)4 << 20)) return;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t lo = (in->raw_released + page - 1) / page * page, hi = done / page * page;
    if (hi > lo) (void)madvise((char *)in->map + lo, (size_t)(hi - lo), MADV_DONTNEED);
    in->raw_released = hi;
}

static tk_status dec_read_serial(tk_input *in, uint8_t *dst, size_t n, size_t *got, tk_error *err);

/* The parallel bzip2 decoder stopped: the serial one goes on from where it
 * says, decoding again (and dropping) what was already handed out of that
 * stream, so that what it finds wrong is reported as the serial decoder alone
 * would. */
static tk_status bz2_take_over(tk_input *in, const tk_bz2par_stop *stop, uint8_t *dst, size_t n,
                               tk_error *err)
{
    tk_bz2par_free(in->bzp);
    in->bzp = NULL;
    in->rp = in->mem + stop->raw;
    in->ravail = in->mem_len - (size_t)stop->raw;
    in->raw_fed = in->mem_len;
    in->raw_eof = 0;
    dec_end(in);
    tk_status st = dec_start(in, err);
    if (st != TK_OK) return st;
    in->dec_ended = stop->after_end;
    for (uint64_t left = stop->skip; left > 0;) {
        size_t got;
        st = dec_read_serial(in, dst, left < n ? (size_t)left : n, &got, err);
        if (st != TK_OK) return st;
        if (got == 0)
            return fail(in, err, TK_ERR_FORMAT, raw_offset(in),
                        "bzip2 data decodes differently on a second pass");
        left -= got;
    }
    return TK_OK;
}

/* Decode up to n bytes into dst. *got == 0 only at the end of all content. */
static tk_status dec_read(tk_input *in, uint8_t *dst, size_t n, size_t *got, tk_error *err)
{
    if (in->bzp) {
        release_raw(in);
        tk_bz2par_stop stop;
        int r = tk_bz2par_read(in->bzp, dst, n, got, &stop);
        if (r >= 0) return TK_OK;
        tk_status st = bz2_take_over(in, &stop, dst, n, err);
        if (st != TK_OK) return st;
    }
    return dec_read_serial(in, dst, n, got, err);
}

/* The step functions of the decoders return TK_END for "no more content
 * from this call" (dec_read_serial returns TK_OK then). */

/* A stream or member ended: more data means another one (gzip and bzip2
 * members; xz and zstd handle concatenation themselves). */
static tk_status next_member(tk_input *in, tk_error *err)
{
    if (in->ravail == 0 && in->raw_eof) return TK_END;
    if (in->comp == TK_COMP_GZIP || in->comp == TK_COMP_BZIP2) {
        if (tk_compression_detect(in->rp, in->ravail) != in->comp && in->ravail >= 4)
            return fail(in, err, TK_ERR_FORMAT, raw_offset(in),
                        "unexpected data after the end of the %s stream",
                        tk_compression_name(in->comp));
        dec_end(in);
        return dec_start(in, err);
    }
    in->dec_ended = 0;
    return TK_OK;
}

static tk_status gzip_step(tk_input *in, uint8_t *dst, size_t n, size_t *got, tk_error *err)
{
    in->z.next_in = (Bytef *)(uintptr_t)in->rp;
    in->z.avail_in = (uInt)dec_window(in);
    uInt given = in->z.avail_in;
    in->z.next_out = dst;
    in->z.avail_out = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
    uInt want = in->z.avail_out;
    int r = inflate(&in->z, Z_NO_FLUSH);
    size_t used = given - in->z.avail_in;
    in->rp += used;
    in->ravail -= used;
    *got = want - in->z.avail_out;
    if (r == Z_STREAM_END) {
        in->dec_ended = 1;
    } else if (r == Z_BUF_ERROR) {
        if (in->ravail == 0 && in->raw_eof) return truncated(in, err);
    } else if (r != Z_OK) {
        return fail(in, err, TK_ERR_FORMAT, raw_offset(in), "corrupt gzip data: %s",
                    in->z.msg ? in->z.msg : "inflate failed");
    }
    return TK_OK;
}

static tk_status bzip2_step(tk_input *in, uint8_t *dst, size_t n, size_t *got, tk_error *err)
{
    in->bz.next_in = (char *)(uintptr_t)in->rp;
    in->bz.avail_in = (unsigned)dec_window(in);
    unsigned given = in->bz.avail_in;
    in->bz.next_out = (char *)dst;
    in->bz.avail_out = (unsigned)(n > UINT32_MAX ? UINT32_MAX : n);
    unsigned want = in->bz.avail_out;
    int r = BZ2_bzDecompress(&in->bz);
    size_t used = given - in->bz.avail_in;
    in->rp += used;
    in->ravail -= used;
    *got = want - in->bz.avail_out;
    if (r == BZ_STREAM_END) {
        in->dec_ended = 1;
    } else if (r != BZ_OK) {
        return fail(in, err, TK_ERR_FORMAT, raw_offset(in), "corrupt bzip2 data: %s",
                    bz2_error_name(r));
    } else if (*got == 0 && used == 0 && in->raw_eof) {
        return truncated(in, err);
    }
    return TK_OK;
}

static tk_status xz_step(tk_input *in, uint8_t *dst, size_t n, size_t *got, tk_error *err)
{
    in->lz.next_in = in->rp;
    in->lz.avail_in = dec_window(in);
    size_t given = in->lz.avail_in;
    in->lz.next_out = dst;
    in->lz.avail_out = n;
    lzma_ret r = lzma_code(&in->lz, in->raw_eof && in->ravail == 0 ? LZMA_FINISH : LZMA_RUN);
    size_t used = given - in->lz.avail_in;
    in->rp += used;
    in->ravail -= used;
    *got = n - in->lz.avail_out;
    if (r == LZMA_STREAM_END) {
        if (*got == 0) return TK_END;
        in->dec_ended = 1;
    } else if (r == LZMA_BUF_ERROR) {
        return truncated(in, err);
    } else if (r != LZMA_OK) {
        return fail(in, err, TK_ERR_FORMAT, raw_offset(in), "corrupt xz data: %s",
                    lzma_error_name(r));
    }
    return TK_OK;
}

static tk_status zstd_step(tk_input *in, uint8_t *dst, size_t n, size_t *got, tk_error *err)
{
    ZSTD_inBuffer ib = {in->rp, dec_window(in), 0};
    ZSTD_outBuffer ob = {dst, n, 0};
    size_t r = ZSTD_decompressStream(in->zs, &ob, &ib);
    in->rp += ib.pos;
    in->ravail -= ib.pos;
    *got = ob.pos;
    if (ZSTD_isError(r)) {
        /* zstd does not say where in the window it stopped */
        int64_t at = raw_offset(in);
        return fail(in, err, TK_ERR_FORMAT, at, "corrupt zstd data (in bytes %lld to %lld): %s",
                    (long long)at, (long long)(at + (int64_t)ib.size - (int64_t)ib.pos),
                    ZSTD_getErrorName(r));
    }
    in->zs_last = r;
    if (ob.pos == 0 && ib.pos == 0 && in->raw_eof && in->ravail == 0)
        return r == 0 ? TK_END : truncated(in, err);
    return TK_OK;
}

static tk_status dec_read_serial(tk_input *in, uint8_t *dst, size_t n, size_t *got, tk_error *err)
{
    *got = 0;
    release_raw(in);
    while (*got == 0) {
        tk_status st = raw_refill(in, err);
        if (st != TK_OK) return st;
        if (in->dec_ended && (st = next_member(in, err)) != TK_OK) return st == TK_END ? TK_OK : st;
        if (in->ravail == 0 && in->raw_eof && in->comp == TK_COMP_ZSTD && in->zs_last == 0)
            return TK_OK;
        switch (in->comp) {
        case TK_COMP_GZIP: st = gzip_step(in, dst, n, got, err); break;
        case TK_COMP_BZIP2: st = bzip2_step(in, dst, n, got, err); break;
        case TK_COMP_XZ: st = xz_step(in, dst, n, got, err); break;
        case TK_COMP_ZSTD: st = zstd_step(in, dst, n, got, err); break;
        case TK_COMP_NONE: return TK_OK;
        }
        if (st != TK_OK) return st == TK_END ? TK_OK : st;
    }
    return TK_OK;
}

/* Produce up to n content bytes into dst. *got == 0 means end of content. */
static tk_status produce(tk_input *in, uint8_t *dst, size_t n, size_t *got, tk_error *err)
{
    if (in->comp != TK_COMP_NONE) return dec_read(in, dst, n, got, err);
    /* plain stream with the raw window drained: read straight into dst (one copy less) */
    *got = 0;
    if (!in->ravail && !in->raw_eof && !in->mem && n >= RAW_BUF_SIZE) {
        for (;;) {
            ssize_t r = read(in->fd, dst, n);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0)
                return fail(in, err, TK_ERR_IO, (int64_t)in->raw_fed, "read failed: %s",
                            strerror(errno));
            if (r == 0) in->raw_eof = 1;
            in->raw_fed += (uint64_t)r;
            progress(in, in->raw_fed);
            *got = (size_t)r;
            return TK_OK;
        }
    }
    /* plain stream: first drain the raw window (bytes read during detection) */
    tk_status st = raw_refill(in, err);
    if (st != TK_OK) return st;
    size_t k = in->ravail < n ? in->ravail : n;
    memcpy(dst, in->rp, k);
    in->rp += k;
    in->ravail -= k;
    *got = k;
    return TK_OK;
}

/* The content buffer's first size: CONTENT_BUF_SIZE, or less for a smaller plain file (its
 * size + 1, so that its end shows in one read). */
static size_t first_cap(const tk_input *in)
{
    if (in->comp == TK_COMP_NONE && in->raw_size >= 0 && (uint64_t)in->raw_size < CONTENT_BUF_SIZE)
        return (size_t)in->raw_size + 1;
    return CONTENT_BUF_SIZE;
}

/* Ensure at least `need` bytes are buffered from pos, unless the content ends first. */
static tk_status fill(tk_input *in, size_t need, tk_error *err)
{
    if (in->failed) return sticky(in, err);
    if (in->mapped || in->eof || in->end - in->pos >= need) return TK_OK;
    if (in->pos > 0) {
        memmove(in->buf, in->buf + in->pos, in->end - in->pos);
        in->base += in->pos;
        in->end -= in->pos;
        in->pos = 0;
    }
    if (need > in->cap) {
        size_t ncap = in->cap ? in->cap : first_cap(in);
        while (ncap < need) {
            if (ncap > SIZE_MAX / 2) return fail(in, err, TK_ERR_NOMEM, -1, "input too large");
            ncap *= 2;
        }
        uint8_t *nb = tk_realloc(in->buf, ncap);
        if (!nb) return fail(in, err, TK_ERR_NOMEM, -1, "out of memory buffering input");
        in->buf = nb;
        in->cap = ncap;
    }
    while (in->end - in->pos < need) {
        size_t got;
        tk_status st = produce(in, in->buf + in->end, in->cap - in->end, &got, err);
        if (st != TK_OK) return st;
        if (got == 0) {
            in->eof = 1;
            break;
        }
        in->end += got;
    }
    return TK_OK;
}

/* ---- open / close ------------------------------------------------------ */

static tk_status input_new(tk_input **out, const char *name, const tk_input_options *opt,
                           tk_error *err)
{
    tk_input *in = tk_calloc(1, sizeof *in);
    if (!in) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    in->path = tk_strdup(name);
    if (!in->path) {
        tk_free(in);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    in->fd = -1;
    in->raw_size = -1;
    if (opt) in->opt = *opt;
    if (!in->opt.max_line) in->opt.max_line = DEFAULT_MAX_LINE;
    in->next_progress = PROGRESS_STEP;
    tk_error_clear(&in->failure);
    *out = in;
    return TK_OK;
}

/* Decide compression from the first raw bytes and set up the content side. */
static tk_status setup_content(tk_input *in, const uint8_t *head, size_t head_len, tk_error *err)
{
    in->comp = in->opt.no_decompress ? TK_COMP_NONE : tk_compression_detect(head, head_len);
    if (in->comp != TK_COMP_NONE) return dec_start(in, err);
    return TK_OK;
}

static tk_status open_memory_block(tk_input *in, const uint8_t *data, size_t len, tk_error *err)
{
    in->raw_size = (int64_t)len;
    tk_status st = setup_content(in, data, len, err);
    if (st != TK_OK) return st;
    if (in->comp == TK_COMP_NONE) {
        in->buf = (uint8_t *)(uintptr_t)data;
        in->cap = in->end = len;
        in->mapped = 1;
        in->eof = 1;
    } else {
        in->mem = data;
        in->mem_len = len;
        if (in->comp == TK_COMP_BZIP2)
            in->bzp =
                tk_bz2par_start(data, len, in->opt.threads ? in->opt.threads : tk_cpu_count(),
                                in->opt.parallel_min ? in->opt.parallel_min : TK_BZ2PAR_MIN_SIZE);
    }
    return TK_OK;
}

tk_status tk_input_open_memory(tk_input **out, const void *data, size_t len, const char *name,
                               const tk_input_options *opt, tk_error *err)
{
    tk_input *in;
    tk_status st = input_new(&in, name ? name : "<memory>", opt, err);
    if (st != TK_OK) return st;
    st = open_memory_block(in, data, len, err);
    if (st != TK_OK) {
        if (err) *err = in->failure;
        tk_input_free(in);
        return st;
    }
    *out = in;
    return TK_OK;
}

/* Starts a stream: the first raw bytes read (to find the compression) into a buffer of
 * RAW_BUF_SIZE or, for a small plain file, its size + 1, and the content set up. The
 * caller frees the input on an error. */
static tk_status start_stream(tk_input *in, tk_error *err)
{
    /* stream: read the first raw bytes to find the compression */
    /* a small plain file needs no more than its size (+ 1 to see its end in one read): the
     * buffers are populated when allocated, which costs a command of many small files more
     * than reading them */
    in->rbuf_size = RAW_BUF_SIZE;
    if (in->raw_size >= 0 && (uint64_t)in->raw_size < RAW_BUF_SIZE)
        in->rbuf_size = (size_t)in->raw_size + 1;
    in->rbuf = tk_malloc(in->rbuf_size);
    if (!in->rbuf) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t have = 0;
    while (have < 6) {
        ssize_t n = read(in->fd, in->rbuf + have, in->rbuf_size - have);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            tk_error_set_at(err, TK_ERR_IO, in->path, -1, 0, 0, "read failed: %s", strerror(errno));
            return TK_ERR_IO;
        }
        if (n == 0) break;
        have += (size_t)n;
    }
    in->rp = in->rbuf;
    in->ravail = have;
    in->raw_fed = have;
    if (have == 0) in->raw_eof = 1;
    tk_status st = setup_content(in, in->rbuf, have, err);
    if (st != TK_OK && err) *err = in->failure;
    return st;
}

tk_status tk_input_open(tk_input **out, const char *path, const tk_input_options *opt,
                        tk_error *err)
{
    int is_stdin = strcmp(path, "-") == 0;
    tk_input *in;
    tk_status st = input_new(&in, is_stdin ? "<stdin>" : path, opt, err);
    if (st != TK_OK) return st;
    if (is_stdin) {
        in->fd = 0;
    } else {
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0) {
            tk_error_set_at(err, TK_ERR_IO, path, -1, 0, 0, "cannot open: %s", strerror(errno));
            tk_input_free(in);
            return TK_ERR_IO;
        }
        in->own_fd = 1;
    }
    struct stat sb;
    if (fstat(in->fd, &sb) != 0) {
        tk_error_set_at(err, TK_ERR_IO, in->path, -1, 0, 0, "cannot stat: %s", strerror(errno));
        tk_input_free(in);
        return TK_ERR_IO;
    }
    if (S_ISDIR(sb.st_mode)) {
        tk_error_set_at(err, TK_ERR_IO, in->path, -1, 0, 0, "is a directory");
        tk_input_free(in);
        return TK_ERR_IO;
    }
    if (S_ISREG(sb.st_mode)) in->raw_size = (int64_t)sb.st_size;
    if (S_ISREG(sb.st_mode) && sb.st_size > 0 && !in->opt.no_mmap &&
        (uint64_t)sb.st_size <= SIZE_MAX) {
        void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, in->fd, 0);
        if (m != MAP_FAILED) {
            madvise(m, (size_t)sb.st_size, MADV_SEQUENTIAL);
            in->map = m;
            in->map_len = (size_t)sb.st_size;
            /* the magic is read with pread, not from the mapping: touching
             * a mapping's first page can map a whole large folio of the page
             * cache (2 MiB of resident memory here) that plain content, read
             * with read(2) below, never uses */
            uint8_t head[6];
            ssize_t nhead;
            do nhead = pread(in->fd, head, sizeof head, 0);
            while (nhead < 0 && errno == EINTR);
            tk_compression comp = in->opt.no_decompress || nhead <= 0
                                      ? TK_COMP_NONE
                                      : tk_compression_detect(head, (size_t)nhead);
            if (comp != TK_COMP_NONE) {
                /* the decoders (parallel bzip2 above all) take the mapping as their source */
                st = open_memory_block(in, m, in->map_len, err);
                in->raw_size = (int64_t)sb.st_size;
                if (st != TK_OK) {
                    if (err) *err = in->failure;
                    tk_input_free(in);
                    return st;
                }
                *out = in;
                return TK_OK;
            }
            /* Plain content streams with read(2) into the content buffer (see
             * tk_input_map for who gets the mapping): walking a mapping costs a
             * page fault per page and, in virtual machines with shadow page
             * tables, far more; the kernel's copy into a buffer that stays in
             * the CPU cache does not. */
        }
    }
    st = start_stream(in, err);
    if (st != TK_OK) {
        tk_input_free(in);
        return st;
    }
    *out = in;
    return TK_OK;
}

void tk_input_free(tk_input *in)
{
    if (!in) return;
    tk_bz2par_free(in->bzp);
    dec_end(in);
    if (in->map) munmap(in->map, in->map_len);
    if (!in->mapped) tk_free(in->buf);
    if (in->own_fd && in->fd >= 0) close(in->fd);
    tk_free(in->rbuf);
    tk_free(in->path);
    tk_free(in);
}

/* ---- accessors ---------------------------------------------------------- */

const char *tk_input_path(const tk_input *in) { return in->path; }
tk_compression tk_input_compression(const tk_input *in) { return in->comp; }
int64_t tk_input_raw_size(const tk_input *in) { return in->raw_size; }
int tk_input_is_mapped(const tk_input *in) { return in->mapped; }
int tk_input_is_file(const tk_input *in) { return in->map && in->comp == TK_COMP_NONE; }

tk_status tk_input_pread(tk_input *in, uint64_t offset, void *dst, size_t len, tk_error *err)
{
    uint8_t *d = dst;
    while (len > 0) {
        ssize_t n = pread(in->fd, d, len, (off_t)offset);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            return tk_error_set_at(err, TK_ERR_IO, in->path, (int64_t)offset, 0, 0,
                                   "read failed: %s", strerror(errno));
        if (n == 0)
            return tk_error_set_at(err, TK_ERR_IO, in->path, (int64_t)offset, 0, 0,
                                   "read failed: the file ends here (it shrank while read)");
        d += n;
        offset += (uint64_t)n;
        len -= (size_t)n;
    }
    return TK_OK;
}

void tk_input_release(tk_input *in, uint64_t offset, uint64_t len)
{
    if (!in->map || in->comp != TK_COMP_NONE || offset >= in->map_len) return;
    if (len > in->map_len - offset) len = in->map_len - offset;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)in->map + (uintptr_t)offset;
    uintptr_t hi = lo + (uintptr_t)len;
    lo = (lo + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    hi &= ~((uintptr_t)page - 1);
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_DONTNEED); /* read-only private file map */
}
uint64_t tk_input_line_number(const tk_input *in) { return in->line_no; }
uint64_t tk_input_line_offset(const tk_input *in) { return in->line_off; }
uint64_t tk_input_offset(const tk_input *in) { return in->base + in->pos; }
uint64_t tk_input_raw_offset(const tk_input *in)
{
    if (in->comp == TK_COMP_NONE) return tk_input_offset(in);
    return in->bzp ? tk_bz2par_raw_position(in->bzp) : (uint64_t)raw_offset(in);
}

/* ---- reading ------------------------------------------------------------ */

/* The next unread byte; NULL while no buffer exists yet (nothing buffered). */
static const uint8_t *cursor(const tk_input *in) { return in->buf ? in->buf + in->pos : NULL; }

tk_status tk_input_peek(tk_input *in, size_t want, const uint8_t **data, size_t *len, tk_error *err)
{
    tk_status st = fill(in, want, err);
    if (st != TK_OK) return st;
    size_t avail = in->end - in->pos;
    *data = cursor(in);
    *len = avail < want ? avail : want;
    return TK_OK;
}

tk_status tk_input_read(tk_input *in, void *dst, size_t n, size_t *got, tk_error *err)
{
    uint8_t *d = dst;
    *got = 0;
    while (*got < n) {
        if (in->pos == in->end) {
            if (in->eof || in->mapped) break;
            size_t want = n - *got;
            tk_status st = fill(in, want < CONTENT_BUF_SIZE ? want : CONTENT_BUF_SIZE, err);
            if (st != TK_OK) return st;
            if (in->pos == in->end) break;
        }
        size_t avail = in->end - in->pos, k = n - *got;
        if (k > avail) k = avail;
        memcpy(d + *got, in->buf + in->pos, k);
        in->pos += k;
        *got += k;
    }
    if (in->mapped) progress(in, in->pos);
    return TK_OK;
}

tk_status tk_input_getline(tk_input *in, const char **line, size_t *len, tk_error *err)
{
    if (in->failed) return sticky(in, err);
    size_t scanned = 0;
    for (;;) {
        size_t avail = in->end - in->pos;
        const uint8_t *start = cursor(in);
        const uint8_t *nl = scanned < avail ? memchr(start + scanned, '\n', avail - scanned) : NULL;
        size_t l, consumed;
        if (nl) {
            l = (size_t)(nl - start);
            consumed = l + 1;
        } else if (in->eof || in->mapped) {
            if (avail == 0) return TK_END;
            l = consumed = avail;
        } else {
            if (avail > in->opt.max_line) goto too_long;
            scanned = avail;
            tk_status st = fill(in, avail + 1, err);
            if (st != TK_OK) return st;
            continue;
        }
        if (l > in->opt.max_line) goto too_long;
        in->line_off = in->base + in->pos;
        in->line_no++;
        in->pos += consumed;
        if (l && start[l - 1] == '\r') l--;
        *line = (const char *)start;
        *len = l;
        if (in->mapped) progress(in, in->pos);
        return TK_OK;
    }
too_long:
    tk_error_set_at(&in->failure, TK_ERR_LIMIT, in->path, (int64_t)(in->base + in->pos),
                    in->line_no + 1, 1, "line longer than the limit of %zu bytes",
                    in->opt.max_line);
    in->failed = TK_ERR_LIMIT;
    return sticky(in, err);
}

/* A plain regular file's chunks are windows of its mapping: each is
 * populated in one call (MADV_POPULATE_READ, Linux 5.14) and the one before
 * it is given back (MADV_DONTNEED), so that the pages are neither copied nor
 * faulted in one by one, and the resident size stays one window. Where the
 * system cannot populate a window (an older kernel, or the file shrank: the
 * pages would fault with SIGBUS), chunks come from read(2) from there on,
 * which sees the file as it is. 1 when *data is a window. */
#define MAP_WINDOW ((size_t)2 << 20)
static int map_window(tk_input *in, const uint8_t **data, size_t *len)
{
#ifdef MADV_POPULATE_READ
    if (!in->map || in->comp != TK_COMP_NONE || in->mapped || in->map_taken || in->no_windows ||
        in->pos != in->end || in->ravail)
        return 0; /* (the raw window holds bytes read while the compression was found) */
    uint64_t off = in->base + in->end;
    if (off >= in->map_len) return 0;
    size_t n = in->map_len - (size_t)off;
    if (n > MAP_WINDOW) n = MAP_WINDOW;
    if (in->opt.chunk_max && n > in->opt.chunk_max) n = in->opt.chunk_max;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t lo = (size_t)off / page * page, hi = ((size_t)off + n + page - 1) / page * page;
    if (in->win_hi > in->win_lo) {
        /* the last window, but for its page that this one shares */
        size_t rel_hi = in->win_hi > lo ? lo : in->win_hi;
        if (rel_hi > in->win_lo)
            (void)madvise((char *)in->map + in->win_lo, rel_hi - in->win_lo, MADV_DONTNEED);
    }
    in->win_lo = in->win_hi = 0;
    /* the file's offset follows, so that read(2) would go on after the window */
    if (madvise((char *)in->map + lo, hi - lo, MADV_POPULATE_READ) != 0 ||
        lseek(in->fd, (off_t)(off + n), SEEK_SET) < 0) {
        in->no_windows = 1;
        (void)lseek(in->fd, (off_t)off, SEEK_SET);
        return 0;
    }
    in->win_lo = lo;
    in->win_hi = hi;
    in->raw_fed = off + n;
    in->base = off + n; /* the content buffer is empty and starts after the window */
    in->pos = in->end = 0;
    *data = (const uint8_t *)in->map + off;
    *len = n;
    progress(in, off + n);
    return 1;
#else
    (void)in, (void)data, (void)len;
    return 0;
#endif
}

tk_status tk_input_chunk(tk_input *in, const uint8_t **data, size_t *len, tk_error *err)
{
    if (in->failed) return sticky(in, err);
    if (map_window(in, data, len)) return TK_OK;
    if (in->pos == in->end) {
        tk_status st = fill(in, 1, err);
        if (st != TK_OK) return st;
        if (in->pos == in->end) return TK_END;
    }
    size_t n = in->end - in->pos;
    if (in->opt.chunk_max && n > in->opt.chunk_max) n = in->opt.chunk_max;
    *data = cursor(in);
    *len = n;
    in->pos += n;
    if (in->mapped) progress(in, in->pos);
    return TK_OK;
}

tk_status tk_input_file_view(const tk_input *in, const uint8_t **data, size_t *len, tk_error *err)
{
    if (in->comp != TK_COMP_NONE)
        return tk_error_set(err, TK_ERR_ARG, "%s: compressed content has no view", in->path);
    if (in->map) {
        *data = in->map;
        *len = in->map_len;
        return TK_OK;
    }
    if (in->mapped) { /* memory input: the whole block, from content offset 0 */
        *data = in->buf;
        *len = in->end; /* memory input never moves its buffer: base is 0 */
        return TK_OK;
    }
    return tk_error_set(err, TK_ERR_ARG, "%s: not a file in memory (a pipe?)", in->path);
}

tk_status tk_input_map(tk_input *in, const uint8_t **data, size_t *len, tk_error *err)
{
    if (in->failed) return sticky(in, err);
    if (in->map && in->comp == TK_COMP_NONE && !in->mapped) {
        /* a plain file streamed so far: the rest of it is in the mapping */
        uint64_t at = in->map_taken ? in->map_len : in->base + in->pos;
        if (at > in->map_len) at = in->map_len; /* the file grew after open: the map ends */
        *data = (const uint8_t *)in->map + at;
        *len = in->map_len - (size_t)at;
        in->pos = in->end;
        in->eof = 1;
        in->map_taken = 1;
        progress(in, in->map_len);
        return TK_OK;
    }
    while (!in->eof && !in->mapped) {
        size_t avail = in->end - in->pos;
        size_t more = avail > CONTENT_BUF_SIZE ? avail : CONTENT_BUF_SIZE;
        if (avail > SIZE_MAX - more) return fail(in, err, TK_ERR_NOMEM, -1, "input too large");
        tk_status st = fill(in, avail + more, err);
        if (st != TK_OK) return st;
    }
    *data = in->buf ? in->buf + in->pos : (const uint8_t *)"";
    *len = in->end - in->pos;
    in->pos = in->end;
    return TK_OK;
}
