/* Parallel bzip2 decompression (see bz2_parallel.h).
 *
 * The bzip2 format: "BZh" and a level digit, then blocks, each starting with
 * the magic 0x314159265359 and its CRC (32 bits), then the end-of-stream magic
 * 0x177245385090 and the combined CRC (each block CRC folded in with a 1-bit
 * rotation), then padding to a byte. Only the header is byte-aligned. A block
 * magic can also appear by chance inside compressed data (about once in 2^48
 * bit positions); the block before it then fails to decode and the serial
 * decoder takes over from the start of that stream. */
#include "core/bz2_parallel.h"

#include <bzlib.h>
#include <pthread.h>
#include <string.h>

#include "core/alloc.h"

#define BLOCK_MAGIC 0x314159265359ull
#define EOS_MAGIC 0x177245385090ull
#define MAGIC_BITS 48
#define CRC_BITS 32
/* Decoded size above which a block is corrupt: a block holds at most 900,000
 * bytes before run-length coding of runs of 4..255 bytes into 5. */
#define MAX_BLOCK_OUTPUT ((size_t)64 << 20)


enum { PIECE_QUEUED, PIECE_DONE, PIECE_FAILED };

typedef struct piece {
    uint64_t bit_start, bit_end; /* the block's magic .. the next magic */
    uint64_t stream_start; /* byte offset of its stream's "BZh" */
    uint32_t crc; /* the block's stored CRC */
    int level;
    int state; /* under the lock */
    uint8_t *out;
    size_t out_len, out_pos;
} piece;

enum { SCAN_HEADER, SCAN_BLOCK, SCAN_OVER };

struct tk_bz2par {
    const uint8_t *data;
    size_t len;
    pthread_t *threads;
    unsigned nthreads;
    pthread_mutex_t lock;
    pthread_cond_t work_cv, done_cv;
    int quit;

    piece *ring;
    unsigned nring;
    uint64_t next_seq; /* pieces queued so far */
    uint64_t next_run; /* pieces taken by workers so far (under the lock) */
    uint64_t head_seq; /* the piece being handed out */
    int have_head; /* ring[head_seq] is decoded and being handed out */

    /* the scanner (reader's thread only) */
    int scan;
    uint64_t
        cur; /* SCAN_HEADER: byte offset of the next stream; SCAN_BLOCK: bit of the block magic */
    uint64_t stream_start;
    int level;
    uint32_t combined;
    int end_clean; /* SCAN_OVER: the data ended cleanly; else stop as end_stop says */
    tk_bz2par_stop end_stop;

    /* what was handed out */
    uint64_t out_stream; /* stream of the bytes handed out last */
    uint64_t out_in_stream; /* bytes of that stream handed out */
    uint64_t raw_done;
    int finished; /* read returned 0 or -1 */
};

/* ---- finding magics ----------------------------------------------------- */

/* For the 16-bit value of two consecutive bytes: bit s is set when a magic
 * starting s bits into the byte before them has these two bytes as its second
 * and third. */
/* A constant table: the 16 values are distinct (a second initializer of one
 * element would be a -Woverride-init warning). */
#define FILTER(magic, s) [((magic) >> (24 + (s))) & 0xffff] = (uint8_t)(1u << (s))
static const uint8_t magic_filter[65536] = {
    FILTER(BLOCK_MAGIC, 0), FILTER(BLOCK_MAGIC, 1), FILTER(BLOCK_MAGIC, 2), FILTER(BLOCK_MAGIC, 3),
    FILTER(BLOCK_MAGIC, 4), FILTER(BLOCK_MAGIC, 5), FILTER(BLOCK_MAGIC, 6), FILTER(BLOCK_MAGIC, 7),
    FILTER(EOS_MAGIC, 0),   FILTER(EOS_MAGIC, 1),   FILTER(EOS_MAGIC, 2),   FILTER(EOS_MAGIC, 3),
    FILTER(EOS_MAGIC, 4),   FILTER(EOS_MAGIC, 5),   FILTER(EOS_MAGIC, 6),   FILTER(EOS_MAGIC, 7)};
#undef FILTER

/* n <= 56 bits at bit offset bit, most significant first; the caller checks
 * that they are inside the data. */
static uint64_t bits_at(const uint8_t *d, size_t len, uint64_t bit, unsigned n)
{
    uint64_t byte = bit >> 3, w = 0;
    for (unsigned k = 0; k < 8; k++) w = w << 8 | (byte + k < len ? d[byte + k] : 0);
    return (w << (bit & 7)) >> (64 - n);
}

/* The first bit offset >= from where a block or end-of-stream magic starts,
 * or UINT64_MAX. */
static uint64_t find_magic(const uint8_t *d, size_t len, uint64_t from, uint64_t *magic)
{
    uint64_t total = (uint64_t)len * 8;
    for (uint64_t j = from / 8 + 1; j + 1 < len; j++) {
        unsigned shifts = magic_filter[(unsigned)d[j] << 8 | d[j + 1]];
        if (!shifts) continue;
        for (unsigned s = 0; s < 8; s++) {
            if (!(shifts >> s & 1)) continue;
            uint64_t at = (j - 1) * 8 + s;
            if (at < from || at + MAGIC_BITS > total) continue;
            uint64_t v = bits_at(d, len, at, MAGIC_BITS);
            if (v == BLOCK_MAGIC || v == EOS_MAGIC) {
                *magic = v;
                return at;
            }
        }
    }
    return UINT64_MAX;
}

/* ---- decoding one block --------------------------------------------------- */

/* The block as a stream of its own: header, the block's bits, end-of-stream
 * magic and the block CRC as the stream CRC. */
static uint8_t *block_stream(const uint8_t *d, size_t len, const piece *pc, size_t *size)
{
    uint64_t nbits = pc->bit_end - pc->bit_start;
    uint64_t total_bits = 32 + nbits + MAGIC_BITS + CRC_BITS;
    size_t n = (size_t)((total_bits + 7) / 8);
    uint8_t *b = tk_malloc(n + 8);
    if (!b) return NULL;
    memcpy(b, "BZh", 3);
    b[3] = (uint8_t)('0' + pc->level);
    const uint8_t *src = d + pc->bit_start / 8;
    unsigned sh = (unsigned)(pc->bit_start & 7);
    size_t nbytes = (size_t)((nbits + 7) / 8), avail = len - (size_t)(pc->bit_start / 8);
    for (size_t i = 0; i < nbytes; i++) {
        unsigned hi = src[i], lo = i + 1 < avail ? src[i + 1] : 0;
        b[4 + i] = (uint8_t)(sh ? (hi << sh | lo >> (8 - sh)) : hi);
    }
    memset(b + 4 + nbytes, 0, n + 8 - 4 - nbytes);
    uint64_t at = 32 + nbits;
    if (at & 7) b[at / 8] &= (uint8_t)(0xff00u >> (at & 7));
    uint64_t tail[2] = {EOS_MAGIC, pc->crc};
    unsigned tail_bits[2] = {MAGIC_BITS, CRC_BITS};
    for (int t = 0; t < 2; t++)
        for (unsigned k = tail_bits[t]; k-- > 0; at++)
            if (tail[t] >> k & 1) b[at / 8] |= (uint8_t)(0x80u >> (at & 7));
    *size = n;
    return b;
}

static int decode_piece(const uint8_t *d, size_t len, piece *pc)
{
    size_t in_size;
    uint8_t *in = block_stream(d, len, pc, &in_size);
    if (!in) return 0;
    bz_stream bz;
    memset(&bz, 0, sizeof bz);
    int ok = 0;
    if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK) {
        tk_free(in);
        return 0;
    }
    size_t cap = in_size * 4 > ((size_t)1 << 18) ? in_size * 4 : (size_t)1 << 18, used = 0;
    uint8_t *out = tk_malloc(cap);
    bz.next_in = (char *)in;
    bz.avail_in = (unsigned)in_size;
    while (out) {
        bz.next_out = (char *)out + used;
        bz.avail_out = (unsigned)(cap - used);
        int r = BZ2_bzDecompress(&bz);
        used = cap - bz.avail_out;
        if (r == BZ_STREAM_END) {
            ok = 1;
            break;
        }
        if (r != BZ_OK || (bz.avail_out > 0 && bz.avail_in == 0)) break;
        if (bz.avail_out == 0) {
            if (cap >= MAX_BLOCK_OUTPUT) break;
            uint8_t *bigger = tk_realloc(out, cap * 2);
            if (!bigger) break;
            out = bigger;
            cap *= 2;
        }
    }
    BZ2_bzDecompressEnd(&bz);
    tk_free(in);
    if (!ok) {
        tk_free(out);
        return 0;
    }
    pc->out = out;
    pc->out_len = used;
    pc->out_pos = 0;
    return 1;
}

static void *worker(void *arg)
{
    tk_bz2par *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->next_run == p->next_seq) pthread_cond_wait(&p->work_cv, &p->lock);
        if (p->quit) break;
        piece *pc = &p->ring[p->next_run++ % p->nring];
        pthread_mutex_unlock(&p->lock);
        int ok = decode_piece(p->data, p->len, pc);
        pthread_mutex_lock(&p->lock);
        pc->state = ok ? PIECE_DONE : PIECE_FAILED;
        pthread_cond_broadcast(&p->done_cv);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* ---- the scanner: the next block to queue ---------------------------------- */

static void scan_over(tk_bz2par *p, int clean, uint64_t raw, int after_end)
{
    p->scan = SCAN_OVER;
    p->end_clean = clean;
    p->end_stop.raw = raw;
    p->end_stop.after_end = after_end;
    p->end_stop.skip = 0; /* set when handed out */
}

/* The stream ends at the end-of-stream magic at bit e: its CRC must be the
 * combined one; the next stream starts at the next byte. */
static void scan_stream_end(tk_bz2par *p, uint64_t e)
{
    if (e + MAGIC_BITS + CRC_BITS > (uint64_t)p->len * 8 ||
        bits_at(p->data, p->len, e + MAGIC_BITS, CRC_BITS) != p->combined) {
        scan_over(p, 0, p->stream_start, 0);
        return;
    }
    p->scan = SCAN_HEADER;
    p->cur = (e + MAGIC_BITS + CRC_BITS + 7) / 8;
}

/* Queue the next block into *pc; 0 when there is none (the scan is over). */
static int scan_next(tk_bz2par *p, piece *pc)
{
    const uint8_t *d = p->data;
    uint64_t total = (uint64_t)p->len * 8;
    while (p->scan != SCAN_OVER) {
        if (p->scan == SCAN_HEADER) {
            uint64_t b = p->cur;
            if (b == p->len) {
                scan_over(p, 1, b, 1);
                break;
            }
            uint64_t first = (b + 4) * 8;
            if (b + 4 > p->len || memcmp(d + b, "BZh", 3) != 0 || d[b + 3] < '1' ||
                d[b + 3] > '9' || first + MAGIC_BITS > total) {
                scan_over(p, 0, b, b > 0);
                break;
            }
            p->stream_start = b;
            p->level = d[b + 3] - '0';
            p->combined = 0;
            uint64_t v = bits_at(d, p->len, first, MAGIC_BITS);
            if (v == BLOCK_MAGIC) {
                p->scan = SCAN_BLOCK;
                p->cur = first;
            } else if (v == EOS_MAGIC) {
                scan_stream_end(p, first);
            } else {
                scan_over(p, 0, b, 0);
            }
            continue;
        }
        /* SCAN_BLOCK: the block at cur ends where the next magic starts */
        uint64_t start = p->cur, magic = 0;
        if (start + MAGIC_BITS + CRC_BITS > total) {
            scan_over(p, 0, p->stream_start, 0);
            break;
        }
        uint64_t end = find_magic(d, p->len, start + MAGIC_BITS + CRC_BITS, &magic);
        if (end == UINT64_MAX) {
            scan_over(p, 0, p->stream_start, 0);
            break;
        }
        uint32_t crc = (uint32_t)bits_at(d, p->len, start + MAGIC_BITS, CRC_BITS);
        p->combined = (p->combined << 1 | p->combined >> 31) ^ crc;
        pc->bit_start = start;
        pc->bit_end = end;
        pc->stream_start = p->stream_start;
        pc->crc = crc;
        pc->level = p->level;
        pc->state = PIECE_QUEUED;
        pc->out = NULL;
        pc->out_len = pc->out_pos = 0;
        if (magic == BLOCK_MAGIC)
            p->cur = end;
        else
            scan_stream_end(p, end);
        return 1;
    }
    return 0;
}

/* Queue blocks while the ring has room. */
static void fill_ring(tk_bz2par *p)
{
    int queued = 0;
    while (p->next_seq - p->head_seq < p->nring && p->scan != SCAN_OVER) {
        piece *pc = &p->ring[p->next_seq % p->nring];
        if (!scan_next(p, pc)) break;
        pthread_mutex_lock(&p->lock);
        p->next_seq++;
        pthread_mutex_unlock(&p->lock);
        queued = 1;
    }
    if (queued) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->work_cv);
        pthread_mutex_unlock(&p->lock);
    }
}

/* ---- the API ----------------------------------------------------------------- */

tk_bz2par *tk_bz2par_start(const uint8_t *data, size_t len, unsigned threads, size_t min_size)
{
    if (threads < 2 || len < min_size || len < 4 || memcmp(data, "BZh", 3) != 0) return NULL;
    if (threads > 16) threads = 16;
    tk_bz2par *p = tk_calloc(1, sizeof *p);
    if (!p) return NULL;
    p->data = data;
    p->len = len;
    p->nring = threads; /* the reader is quick: a slot it holds is soon free again */
    p->ring = tk_calloc(p->nring, sizeof *p->ring);
    p->threads = tk_calloc(threads, sizeof *p->threads);
    p->scan = SCAN_HEADER;
    p->out_stream = UINT64_MAX;
    if (!p->ring || !p->threads || pthread_mutex_init(&p->lock, NULL) != 0) {
        tk_free(p->ring);
        tk_free(p->threads);
        tk_free(p);
        return NULL;
    }
    pthread_cond_init(&p->work_cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    for (unsigned i = 0; i < threads; i++) {
        if (pthread_create(&p->threads[i], NULL, worker, p) != 0) break;
        p->nthreads++;
    }
    if (p->nthreads == 0) {
        tk_bz2par_free(p);
        return NULL;
    }
    return p;
}

int tk_bz2par_read(tk_bz2par *p, uint8_t *dst, size_t n, size_t *got, tk_bz2par_stop *stop)
{
    *got = 0;
    if (p->finished) {
        if (!p->end_clean) *stop = p->end_stop;
        return p->end_clean ? 0 : -1;
    }
    for (;;) {
        if (p->have_head) {
            piece *pc = &p->ring[p->head_seq % p->nring];
            size_t k = pc->out_len - pc->out_pos;
            if (k > n) k = n;
            if (k > 0) {
                memcpy(dst, pc->out + pc->out_pos, k);
                pc->out_pos += k;
                p->out_in_stream += k;
                *got = k;
                return 1;
            }
            tk_free(pc->out);
            pc->out = NULL;
            p->raw_done = pc->bit_end / 8;
            p->have_head = 0;
            pthread_mutex_lock(&p->lock);
            p->head_seq++;
            pthread_mutex_unlock(&p->lock);
        }
        fill_ring(p);
        if (p->head_seq == p->next_seq) {
            p->finished = 1;
            if (p->end_clean) return 0;
            *stop = p->end_stop;
            if (!stop->after_end && stop->raw == p->out_stream) stop->skip = p->out_in_stream;
            p->end_stop = *stop;
            return -1;
        }
        piece *pc = &p->ring[p->head_seq % p->nring];
        pthread_mutex_lock(&p->lock);
        while (pc->state == PIECE_QUEUED) pthread_cond_wait(&p->done_cv, &p->lock);
        int state = pc->state;
        pthread_mutex_unlock(&p->lock);
        if (state == PIECE_FAILED) {
            p->finished = 1;
            p->end_clean = 0;
            stop->raw = pc->stream_start;
            stop->skip = pc->stream_start == p->out_stream ? p->out_in_stream : 0;
            stop->after_end = 0;
            p->end_stop = *stop;
            return -1;
        }
        if (pc->stream_start != p->out_stream) {
            p->out_stream = pc->stream_start;
            p->out_in_stream = 0;
        }
        p->have_head = 1;
    }
}

uint64_t tk_bz2par_raw_done(const tk_bz2par *p) { return p->raw_done; }

uint64_t tk_bz2par_raw_position(const tk_bz2par *p)
{
    if (!p->have_head) return p->raw_done;
    const piece *pc = &p->ring[p->head_seq % p->nring];
    uint64_t start = pc->bit_start / 8, span = (pc->bit_end - pc->bit_start) / 8;
    return start + (pc->out_len ? (uint64_t)((double)span * pc->out_pos / pc->out_len) : 0);
}

void tk_bz2par_free(tk_bz2par *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    pthread_cond_broadcast(&p->work_cv);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    for (unsigned i = 0; i < p->nring; i++) tk_free(p->ring[i].out);
    pthread_cond_destroy(&p->work_cv);
    pthread_cond_destroy(&p->done_cv);
    pthread_mutex_destroy(&p->lock);
    tk_free(p->ring);
    tk_free(p->threads);
    tk_free(p);
}
