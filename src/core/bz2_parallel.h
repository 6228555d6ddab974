/* Parallel bzip2 decompression of a file that is whole in memory (a mapped
 * .bz2). bzip2 compresses blocks independently and starts each with a 48-bit
 * magic number at any bit position; the blocks are found by that magic, each
 * is wrapped as a one-block stream of its own (same level, its stored CRC as
 * the stream CRC) and decoded on worker threads, and the output is handed out
 * in file order, a few blocks ahead of the reader.
 *
 * Anything else than well-formed streams (a block that does not decode, a
 * stream whose combined CRC differs, a truncated stream, data after a stream
 * that is not another stream) is left to the serial decoder: the parallel
 * decoder stops *before* handing out any byte of the doubtful part and says
 * where the serial decoder must take over, so errors, their offsets and the
 * bytes before them are those of the serial decoder. */
#ifndef TK_CORE_BZ2_PARALLEL_H
#define TK_CORE_BZ2_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct tk_bz2par tk_bz2par;

/* Compressed files smaller than this are decoded serially by default (a block
 * is at most ~900 kB compressed, so smaller files have one or two blocks). */
#define TK_BZ2PAR_MIN_SIZE ((size_t)2 << 20)

/* A parallel decoder over data[0..len) (a bzip2 file, "BZh" at 0) with
 * threads workers, or NULL when it is not worth it (threads < 2, len under
 * min_size)
 * or cannot start (no memory, no threads): decode serially then. data must
 * stay valid until tk_bz2par_free. */
tk_bz2par *tk_bz2par_start(const uint8_t *data, size_t len, unsigned threads, size_t min_size);

/* Where the serial decoder takes over: at raw byte offset `raw`, which is the
 * start of a stream whose first `skip` decoded bytes were already handed out,
 * or, with after_end set, just after the end of a stream (what follows must be
 * another stream or nothing, as for the serial decoder). */
typedef struct tk_bz2par_stop {
    uint64_t raw;
    uint64_t skip;
    int after_end;
} tk_bz2par_stop;

/* Copy up to n next decoded bytes to dst. Returns 1 with *got > 0, 0 at the
 * clean end of the data (every stream ended and its CRC matched), or -1 when
 * the serial decoder must take over as *stop says (nothing is handed out past
 * that point). */
int tk_bz2par_read(tk_bz2par *p, uint8_t *dst, size_t n, size_t *got, tk_bz2par_stop *stop);

/* Raw bytes before this offset were only needed for output already handed out. */
uint64_t tk_bz2par_raw_done(const tk_bz2par *p);
/* The raw offset matching the output handed out so far, interpolated inside
 * the block being handed out (for size estimates). */
uint64_t tk_bz2par_raw_position(const tk_bz2par *p);

/* Stop the workers and free everything. NULL is fine. */
void tk_bz2par_free(tk_bz2par *p);

#endif
