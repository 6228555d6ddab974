/* tracekit: input files and streams with transparent decompression. */
#ifndef TRACEKIT_INPUT_H
#define TRACEKIT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_compression {
    TK_COMP_NONE = 0,
    TK_COMP_GZIP,
    TK_COMP_BZIP2,
    TK_COMP_XZ,
    TK_COMP_ZSTD
} tk_compression;

/* "none", "gzip", "bzip2", "xz", "zstd". */
TK_API const char *tk_compression_name(tk_compression c);

/* Detect a compression from the first bytes (magic numbers only, never names). */
TK_API tk_compression tk_compression_detect(const uint8_t *data, size_t len);

typedef void (*tk_progress_fn)(void *ctx, uint64_t done, uint64_t total);

typedef struct tk_input_options {
    int no_mmap; /* always stream, even regular files */
    int no_decompress; /* read compressed bytes as they are */
    size_t max_line; /* longest line tk_input_getline accepts; 0 = 256 MiB */
    tk_progress_fn progress; /* called now and then with raw bytes consumed / raw size */
    void *progress_ctx;
    unsigned threads; /* decoding threads for a .bz2 file that is mapped (or in memory):
                             0 = one per CPU, 1 = decode on the calling thread only */
    size_t chunk_max; /* tk_input_chunk hands out at most this many bytes (0 = no bound):
                             tests and fuzzers cut any input into small blocks with it */
    size_t parallel_min; /* a .bz2 smaller than this is decoded on the calling thread (0 =
                             2 MiB: smaller files have one or two blocks); tests and fuzzers
                             set 1 to decode any size on threads */
} tk_input_options;

#define TK_INPUT_OPTIONS_INIT \
    { \
        0, 0, 0, NULL, NULL, 0, 0, 0 \
    }

typedef struct tk_input tk_input;

/* Open a path, or "-" for standard input. Regular files are memory-mapped:
 * a compressed one is decoded from its mapping; a plain one streams with
 * read(2) like a pipe, and tk_input_map hands out the rest of its mapping.
 * opt->no_mmap: never map. opt may be NULL.
 * Returns TK_OK, TK_ERR_IO (with the OS message), TK_ERR_NOMEM.
 * The caller owns *out and frees it with tk_input_free. */
TK_API tk_status tk_input_open(tk_input **out, const char *path, const tk_input_options *opt,
                               tk_error *err);

/* Read from memory (borrowed; must outlive the input). name is used in errors.
 * Compressed data is decompressed as for files. TK_OK or TK_ERR_NOMEM (also when a
 * decoder cannot start); the content's errors come when it is read. */
TK_API tk_status tk_input_open_memory(tk_input **out, const void *data, size_t len,
                                      const char *name, const tk_input_options *opt, tk_error *err);

TK_API void tk_input_free(tk_input *in);

/* The name given at open ("-" shows as "<stdin>"). */
TK_API const char *tk_input_path(const tk_input *in);
TK_API tk_compression tk_input_compression(const tk_input *in);
/* Size in bytes of the raw (possibly compressed) file, or -1 when unknown (pipes). */
TK_API int64_t tk_input_raw_size(const tk_input *in);
/* True when the content is served from one memory block (memory input, not compressed). */
TK_API int tk_input_is_mapped(const tk_input *in);
/* True when the content is a mapped regular file, uncompressed: tk_input_pread works. */
TK_API int tk_input_is_file(const tk_input *in);
/* Read content [offset, offset + len) of such a file into dst with pread, without touching the
 * map: a one-pass reader that copies each region it visits into a buffer of its own (small
 * enough to stay in the CPU cache) saves the page faults and the memory stalls of walking a
 * large map page by page. Errors: TK_ERR_IO (also when the file ends before offset + len). */
TK_API tk_status tk_input_pread(tk_input *in, uint64_t offset, void *dst, size_t len,
                                tk_error *err);

/* Look at up to `want` bytes of content from the current position without
 * consuming them. *len < want only at end of input. Borrowed until the next call.
 * TK_OK, or the errors of reading (here and for tk_input_read, tk_input_getline,
 * tk_input_chunk and tk_input_map): TK_ERR_IO (a failed read, at its raw byte offset),
 * TK_ERR_FORMAT (corrupt or truncated compressed data, at its offset in the compressed
 * file), TK_ERR_NOMEM; once failed, the input returns the same error again. */
TK_API tk_status tk_input_peek(tk_input *in, size_t want, const uint8_t **data, size_t *len,
                               tk_error *err);

/* Read up to n bytes; *got < n only at end of input (TK_OK with *got == 0 at end).
 * Errors: as tk_input_peek (TK_ERR_IO, TK_ERR_FORMAT, TK_ERR_NOMEM). */
TK_API tk_status tk_input_read(tk_input *in, void *buf, size_t n, size_t *got, tk_error *err);

/* Next line without its '\n' (and without one trailing '\r'). TK_END at end of
 * input. The line is borrowed until the next call; for mapped input it points
 * into the map (zero copy). A line longer than max_line is TK_ERR_LIMIT (and stays the
 * input's error); other errors as tk_input_peek (TK_ERR_IO, TK_ERR_FORMAT,
 * TK_ERR_NOMEM). */
TK_API tk_status tk_input_getline(tk_input *in, const char **line, size_t *len, tk_error *err);

/* 1-based number of the line last returned by tk_input_getline (0 before any). */
TK_API uint64_t tk_input_line_number(const tk_input *in);
/* Content byte offset of the start of the line last returned. */
TK_API uint64_t tk_input_line_offset(const tk_input *in);
/* Content bytes consumed so far (offset of the next unread byte). */
TK_API uint64_t tk_input_offset(const tk_input *in);
/* Raw (compressed) bytes the decoder has taken so far, which produced the content read and
 * buffered (with tk_input_offset and tk_input_raw_size: an estimate of the content's size);
 * equal to the content offset for uncompressed input. */
TK_API uint64_t tk_input_raw_offset(const tk_input *in);

/* The next block of content, of whatever size is available: TK_OK, TK_END at the end,
 * or an error as tk_input_peek (TK_ERR_IO, TK_ERR_FORMAT, TK_ERR_NOMEM).
 * Borrowed until the next call. For mapped input the whole rest at once. */
TK_API tk_status tk_input_chunk(tk_input *in, const uint8_t **data, size_t *len, tk_error *err);

/* All remaining content in one block (for a plain regular file the rest of its
 * mapping; for memory input the memory; otherwise a buffer the input owns and
 * grows to the content's size). Borrowed until tk_input_free. TK_OK, or an error as
 * tk_input_peek (TK_ERR_IO, TK_ERR_FORMAT, TK_ERR_NOMEM). */
TK_API tk_status tk_input_map(tk_input *in, const uint8_t **data, size_t *len, tk_error *err);

/* The whole content as one block, wherever reading is (the position does not
 * move; content offsets are offsets into it): the mapping of a plain regular
 * file, or uncompressed memory input. For a reader that streams and now and
 * then must look ahead or back. TK_ERR_ARG for any other input (pipes,
 * compressed data). Borrowed until tk_input_free. */
TK_API tk_status tk_input_file_view(const tk_input *in, const uint8_t **data, size_t *len,
                                    tk_error *err);

/* Tell the input that content [offset, offset + len) will not be read again. For a memory-
 * mapped file the whole pages inside are handed back to the kernel (they stay in the page cache
 * and are re-read if touched), so a one-pass reader of a huge file keeps little resident.
 * A no-op for any other input. */
TK_API void tk_input_release(tk_input *in, uint64_t offset, uint64_t len);

#ifdef __cplusplus
}
#endif
#endif
