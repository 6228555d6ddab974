/* Fast paths: every speed trick of the readers, in one place.
 *
 * A fast path takes the usual case of an input in fewer instructions than
 * the general code and gives it back untouched (nothing consumed, no state
 * changed) on anything else, which the general code then reads and reports.
 * So each fast path has a general twin that is the reference for its result:
 *
 *   fast path (where)                                  general twin
 *   Callgrind cost runs, cost/call/jump lines with a   the line handlers of
 *     '\n' ahead (callgrind_read.c: fast_run,          callgrind_read.c (cost_line,
 *     fast_line_nl, quick_count_pos, run_*)             calls_line, jump_line,
 *                                                        body_spec) with core/num
 *   Callgrind "(id)" names (callgrind_names.c)         tk_cg_parse_name's general code
 *   JSON rows of known tables (json.c: tk_json_scan_row, the token-by-token path
 *     fast_int, scan_scalar; DCFG's *_fast handlers)     (tk_json_next, cell handlers)
 *   JSON integers while scanning (json.c read_number)  finish_number
 *   JSON integers of tk_json_next_u64 (json.c fast_int) the digits through core/num after it
 *   DCFG-Trace rows (tk_dt_parse.c: fast_transition_row,  transition_row, trace_row
 *     fast_trace_row through tk_json_scan_row_strings)
 *   JSON string runs 8 bytes at a time (json.c         the byte loop after it
 *     string_run: tk_swar_string_stops)
 *   WET dependence entries and values                  parse_entry, parse_value
 *     (wet_reader.c: fast_entry, fast_value)
 *   XRay runs of FDR function records (xray_reader.c:  tk_xray_next record by record
 *     calls_fdr, calls_run_le/be) and packed batches     (next_record), taken into the run
 *     (tk_xray_packed_calls, model/events.h)            by calls_take
 *
 * Building with -DTK_NO_FAST_PATH (TK_FAST_PATHS == 0) takes the general twin
 * everywhere: `make check` runs the unit and CLI tests once so (build-musl/,
 * with the portable fallbacks), and the fuzz replays of the harnesses that do
 * not compare both paths themselves.
 * The Callgrind, DCFG, DCFG-Trace, WET and XRay readers can also turn their
 * fast paths off at run time (tk_cg_read_buffer_paths, tk_dcfg_read_paths,
 * tk_dt_parse_paths, tk_wet_reader_paths and tk_wet_read_paths,
 * tk_xray_set_paths: a flag of the parser's or reader's state), which their fuzz
 * harnesses use to compare both on every input, error locations included. So
 * can the JSON tokenizer its own (read_number's and tk_json_next_u64's
 * integers, string_run's 8-byte runs, tk_json_scan_row_strings: a flag of
 * the tk_json, tk_json_set_fast; tk_json_scan_row's callers look at it), which
 * tk_dcfg_read_paths and tk_dt_parse_paths set with their rows': their fuzz
 * harnesses compare the fully fast with the fully general reading, and
 * tests/unit/test_json_paths.c the tokenizer's two on documents at the edges.
 * The flag is one predictable branch on a field in cache (outside the 8-byte
 * loop of string_run).
 *
 * The primitives below are the tricks themselves, each with the derivation of
 * its constants. The digit loops are bounded so that they cannot overflow
 * (checked by tests/unit/test_fastpath.c against tk_num_scan); a longer
 * number makes the fast path decline. */
#ifndef TK_CORE_FASTPATH_H
#define TK_CORE_FASTPATH_H

#include <stdint.h>
#include <string.h>

#ifdef TK_NO_FAST_PATH
#define TK_FAST_PATHS 0
#else
#define TK_FAST_PATHS 1
#endif

/* The SWAR primitives read 8 bytes as a little-endian word. */
#if TK_FAST_PATHS && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TK_FAST_SWAR 1
#else
#define TK_FAST_SWAR 0
#endif

/* Forced inline for the small digit loops; the SWAR parsers are plain
 * static inline as they were in json.c (forced, GCC laid tk_json_scan_row out
 * differently, with the same instructions: user time +3-5 % on the DCFG
 * bench in alternating runs). */
#define TK_FAST_INLINE static inline __attribute__((always_inline))

/* ---- compiler barriers ----------------------------------------------------
 *
 * A load that spans two earlier stores cannot be forwarded from them: it
 * waits until both reach the cache (~15 cycles). GCC 12 merges neighbouring
 * 8-byte copies into one 16-byte load, and moved such a load of the Callgrind
 * cost run's two position values into the loop, right after the line's two
 * 8-byte stores to them: a fifth of the loop's time (perf on the bench
 * profile). TK_FAST_BARRIER() before the copies keeps the load out of the
 * loop; tk_fast_opaque_u64() makes a value opaque, so that the compiler reads
 * it with a load of its own (cells of a scanned JSON row, stored one by one
 * by the scanner and read right after). Neither changes a result. */
#if TK_FAST_PATHS
#define TK_FAST_BARRIER() __asm__ volatile("" ::: "memory")
#else
#define TK_FAST_BARRIER() ((void)0)
#endif

TK_FAST_INLINE uint64_t tk_fast_opaque_u64(uint64_t v)
{
#if TK_FAST_PATHS
    __asm__("" : "+r"(v));
#endif
    return v;
}

/* ---- digits, one at a time ------------------------------------------------
 *
 * 19 decimal digits cannot overflow: 10^19 - 1 < 2^64 - 1 = 18446744073709551615
 * (20 digits). 16 hex digits are 64 bits. So these loops need no overflow
 * check: they refuse longer numbers (leading zeros included), and the general
 * code (tk_num_scan) reads those. */
#define TK_FAST_DEC_MAX 19
#define TK_FAST_HEX_MAX 16

/* Hex digit value of c, or a value >= 16: one load from a table of the
 * value + 1 (0: not a hex digit), no branch on the kind of digit. (The
 * digits of addresses and values are random: tests of digit or letter were
 * mispredicted half the time; WET loads took 25 % more time.) */
static const uint8_t tk_fast_hex_table[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
    ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

TK_FAST_INLINE unsigned tk_fast_hexval(unsigned char c)
{
    return (unsigned)tk_fast_hex_table[c] - 1; /* not a digit: UINT_MAX */
}

/* Whether c is a decimal digit: one unsigned compare (a byte below '0' wraps
 * to a large value). */
TK_FAST_INLINE int tk_fast_is_digit(unsigned char c) { return (unsigned)(c - '0') < 10; }

/* Decimal digits at p, p[0] a digit (the caller has looked), ended by a
 * non-digit that the caller knows is there (a '\n' ahead in the buffer): no
 * end pointer. The address after the digits, or NULL when there are more than
 * TK_FAST_DEC_MAX. */
TK_FAST_INLINE const char *tk_fast_dec_nl_after(const char *start, const char *p, uint64_t v,
                                                uint64_t *out);

TK_FAST_INLINE const char *tk_fast_dec_nl(const char *p, uint64_t *out)
{
    return tk_fast_dec_nl_after(p, p + 1, (unsigned)((unsigned char)*p - '0'), out);
}

/* The same when the caller has read the first digit already: start the
 * number's first byte, p the byte after it, v the first digit's value. */
TK_FAST_INLINE const char *tk_fast_dec_nl_after(const char *start, const char *p, uint64_t v,
                                                uint64_t *out)
{
    unsigned d;
    while ((d = (unsigned)((unsigned char)*p - '0')) < 10) {
        v = v * 10 + d;
        p++;
    }
    if (p - start > TK_FAST_DEC_MAX) return NULL;
    *out = v;
    return p;
}

/* Hex digits at p (no prefix) ended by a non-hex-digit the caller knows is
 * there. NULL when none or more than TK_FAST_HEX_MAX. */
TK_FAST_INLINE const char *tk_fast_hex_nl(const char *p, uint64_t *out)
{
    const char *start = p;
    uint64_t v = 0;
    unsigned d;
    while ((d = tk_fast_hexval((unsigned char)*p)) < 16) {
        v = v << 4 | d;
        p++;
    }
    if (p == start || p - start > TK_FAST_HEX_MAX) return NULL;
    *out = v;
    return p;
}

/* Decimal digits in [p, end), at most `max` (<= TK_FAST_DEC_MAX): the
 * address after them, or NULL when there is none or more than max. */
TK_FAST_INLINE const char *tk_fast_dec(const char *p, const char *end, unsigned max, uint64_t *out)
{
    const char *start = p;
    const char *lim = (size_t)(end - p) > max ? p + max : end;
    uint64_t v = 0;
    unsigned d;
    /* (unsigned arithmetic: GCC then adds each digit without a zero extension) */
    while (p < lim && (d = (unsigned)(unsigned char)*p - '0') <= 9) {
        v = v * 10 + d;
        p++;
    }
    if (p == start || (p < end && (unsigned)(unsigned char)*p - '0' <= 9)) return NULL;
    *out = v;
    return p;
}

/* Hex digits (no prefix) in [p, end), at most `max` (<= TK_FAST_HEX_MAX): the
 * address after them, or NULL when there is none or more than max. */
TK_FAST_INLINE const char *tk_fast_hex(const char *p, const char *end, unsigned max, uint64_t *out)
{
    const char *start = p;
    const char *lim = (size_t)(end - p) > max ? p + max : end;
    uint64_t v = 0;
    unsigned d;
    while (p < lim && (d = tk_fast_hexval((unsigned char)*p)) < 16) {
        v = v << 4 | d;
        p++;
    }
    if (p == start || (p < end && tk_fast_hexval((unsigned char)*p) < 16)) return NULL;
    *out = v;
    return p;
}

/* ---- bytes as a set ---------------------------------------------------------
 *
 * The first byte of a Callgrind cost line is one of '*' '+' '-' (0x2a 0x2b
 * 0x2d) or a digit (0x30-0x39): 13 bytes within 16 of '*'. A 16-bit mask with
 * bit (c - '*') set for each, bits 0 1 3 6 7 8 9 10 11 12 13 14 15, is
 * 0b1111111111001011 = 0xffcb; the unsigned difference is 16 or more for a
 * byte outside the window (below '*' it wraps). One compare and one shift
 * instead of four tests. */
#define TK_FAST_COST_START_MASK 0xffcbu

TK_FAST_INLINE int tk_fast_cost_start(unsigned c)
{
    return (unsigned)(c - '*') < 16 && ((TK_FAST_COST_START_MASK >> (c - '*')) & 1);
}

/* An XRay FDR function record's first 32-bit word (little-endian) has the
 * record type in bit 0 (0: a function record) and the function kind in bits
 * 1-3 (0 enter, 1 exit, 2 tail exit; 3 enter with arguments and above are
 * not plain calls): its low 4 bits are 0, 2 or 4 for a plain call, a 16-bit
 * set with bits 0, 2 and 4: 0x15. */
#define TK_FAST_XRAY_PLAIN_CALLS 0x15u
/* The same with enter-with-arguments (kind 3, low bits 6): every call that a
 * packed batch hands out (tk_xray_packed_calls), bits 0, 2, 4 and 6: 0x55. */
#define TK_FAST_XRAY_CALLS 0x55u

/* The low 4 bits of such a word are 2 (exit) or 4 (tail exit): low - 2 is
 * then 0 or 2, which & ~2 makes 0; for 0 and 1 it wraps to a word with high
 * bits set, for 3 and 5 and above it keeps bit 0 or a bit above 1. One
 * subtraction and one mask instead of two compares (the packed calls' loop,
 * model/events.h). */
TK_FAST_INLINE int tk_fast_xray_exit_bits(uint32_t low) { return ((low - 2u) & ~2u) == 0; }

/* ---- bytes as a word ------------------------------------------------------ */

/* The 8 bytes at p as a little-endian word (one unaligned load). */
TK_FAST_INLINE uint64_t tk_fast_load8(const void *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* Callgrind cost columns are mostly " 0": after one, the bytes " 0 0 0" and
 * a ' ' or '\n' (7 bytes of an 8-byte load, p at the first blank) are three
 * more. " 0 0 0" is 20 30 20 30 20 30: little-endian, the low 48 bits of the
 * word are 0x302030203020; the seventh byte is bits 48-55. The caller makes
 * sure 8 bytes are readable at p. */
TK_FAST_INLINE int tk_fast_three_zeros(const char *p)
{
    uint64_t w = tk_fast_load8(p);
    unsigned next = (unsigned)(w >> 48 & 0xff);
    return (w & 0xffffffffffffULL) == 0x302030203020ULL && (next == ' ' || next == '\n');
}

/* ", " (0x2c 0x20) in the two low bytes of a word: 0x202c. */
#define TK_FAST_COMMA_BLANK 0x202cu

/* ---- SWAR digits: 8 bytes in one 64-bit word ------------------------------
 *
 * Bytes are numbered from the word's low end (the first in memory).
 *
 * tk_swar_nondigits: non-zero bytes where w has no ASCII digit, exactly so in
 * the lowest such byte (the ones above it may be wrong). A byte b is a digit,
 * 0x30-0x39, when its high nibble is 3 and b + 6 still has high nibble 3
 * (0x39 + 6 = 0x3f; 0x3a + 6 = 0x40). Adding 0x06 to every byte can carry
 * into the next byte only out of a byte >= 0xfa, which is a non-digit itself,
 * so bytes below the lowest non-digit are computed right.
 *
 * tk_swar_dec: the value of the first n digits (1 <= n <= 8). Subtracting
 * 0x30 from every byte leaves the digit values in the low n bytes (no borrow
 * leaves a digit byte); shifting left by 8 * (8 - n) drops the other bytes
 * and makes the digits the low-order end of an 8-digit number whose first
 * 8 - n digits are 0, most significant digit in the lowest byte. Then pairs
 * are combined three times, each step a multiply that adds a lane times its
 * weight to its neighbour:
 *   16-bit lanes a + 256 b (a the more significant digit): * (10 * 2^8 + 1)
 *   = 2561 puts 10 a + b in bits 8-15 of each lane: >> 8, mask 0x00ff;
 *   32-bit lanes x + 2^16 y of two-digit values: * (100 * 2^16 + 1) = 6553601,
 *   >> 16, mask 0x0000ffff: 100 x + y;
 *   64-bit x + 2^32 y of four-digit values: * (10000 * 2^32 + 1) =
 *   42949672960001, >> 32: 10000 x + y.
 * No lane overflows its width on the way (99 < 2^8, 9999 < 2^16).
 *
 * tk_swar_hex: the number of leading hex digits of w (8 when all are) and,
 * when 1 to 7, their value. For 7-bit bytes x (w's bit 7 cleared in every
 * byte, so no carries between bytes) x + (0x80 - lo) has bit 7 set when
 * x >= lo and x + (0x7f - hi) has it set when x > hi: a byte is in [lo, hi]
 * when the first has bit 7 and the second not. Digits are ['0', '9'];
 * letters are ['a', 'f'] after | 0x20 (see tk_fast_hexval). Bytes with bit 7
 * set in w are not digits. A digit's value is its low nibble; a letter's is
 * its low nibble + 9 ('a' = 0x61: 1 + 9 = 10), and letters are the bytes with
 * bit 6 set: nibble + 9 * (bit 6). The nibbles (most significant first,
 * shifted to the high end as above) are then combined pairwise with
 * 16 * 2^8 + 1 = 4097, 256 * 2^16 + 1 = 16777217 and 65536 * 2^32 + 1 =
 * 281474976710657. */
#if TK_FAST_SWAR
static inline uint64_t tk_swar_nondigits(uint64_t w)
{
    return ((w & 0xf0f0f0f0f0f0f0f0ull) ^ 0x3030303030303030ull) |
           (((w + 0x0606060606060606ull) & 0xf0f0f0f0f0f0f0f0ull) ^ 0x3030303030303030ull);
}

static inline uint64_t tk_swar_dec(uint64_t w, unsigned n)
{
    uint64_t d = (w - 0x3030303030303030ull) << (8 * (8 - n));
    d = ((d & 0x0f0f0f0f0f0f0f0full) * 2561) >> 8;
    d = ((d & 0x00ff00ff00ff00ffull) * 6553601) >> 16;
    return ((d & 0x0000ffff0000ffffull) * 42949672960001ull) >> 32;
}

/* The index (0-7) of the lowest byte that mask m marks (m not 0: a mask of
 * tk_swar_nondigits or tk_swar_string_stops, exact in its lowest marked byte):
 * its lowest set bit is in that byte, bits 8 i to 8 i + 7. */
static inline unsigned tk_swar_first(uint64_t m) { return (unsigned)__builtin_ctzll(m) >> 3; }

static inline unsigned tk_swar_hex(uint64_t w, uint64_t *value)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    uint64_t x = w & ~high, l = x | 0x20 * ones;
    uint64_t digit = (x + (0x80 - '0') * ones) & ~(x + (0x7f - '9') * ones);
    uint64_t alpha = (l + (0x80 - 'a') * ones) & ~(l + (0x7f - 'f') * ones);
    uint64_t bad = ~(digit | alpha) & high;
    bad |= w & high;
    unsigned n = bad ? tk_swar_first(bad) : 8;
    if (n == 0 || n == 8) return n;
    uint64_t nib = (w & 0x0f * ones) + 9 * ((w >> 6) & ones);
    uint64_t d = nib << (8 * (8 - n));
    d = ((d * 4097) >> 8) & 0x00ff00ff00ff00ffull;
    d = ((d * 16777217) >> 16) & 0x0000ffff0000ffffull;
    *value = (d * 281474976710657ull) >> 32;
    return n;
}

/* tk_swar_string_stops: 0x80 in the bytes of w where a JSON string's plain
 * run stops ('"', '\\' or a byte below 0x20), exactly so in the lowest such
 * byte. The zero-byte test: for a byte x below 0x80, x - 1 has bit 7 set
 * only when x is 0 (it borrows), and a borrow runs only up from such a byte,
 * so the lowest mark is exact. w ^ ('"' * ones) is 0 where w is '"', and
 * likewise for '\\'; w - 0x20 * ones borrows into bit 7 where w < 0x20.
 * "& ~w" keeps bytes below 0x80 only (bytes from 0x80 are plain UTF-8). */
static inline uint64_t tk_swar_string_stops(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    return ((q - ones) | (b - ones) | (w - ones * 0x20)) & ~w & (ones * 0x80);
}
#endif

#endif
