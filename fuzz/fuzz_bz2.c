/* Differential fuzzing of the parallel bzip2 decoder: on any bytes, reading
 * with worker threads must give what the serial decoder gives: the same
 * content, or the same error at the same offset after a prefix of the content
 * the serial decoder hands out (the two may stop at different points before an
 * error, as their buffers differ). Aborts on a difference. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bz2_parallel.h"
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define READ_LIMIT ((size_t)8 << 20) /* bytes of content compared at most */

typedef struct outcome {
    tk_status st; /* TK_END, an error, or TK_OK when the limit was reached */
    tk_error err;
    uint8_t *out;
    size_t len;
} outcome;

static outcome read_with(const uint8_t *data, size_t size, unsigned threads)
{
    outcome o = {TK_OK, {0}, malloc(READ_LIMIT), 0};
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.threads = threads;
    opt.parallel_min = 1;
    tk_input *in;
    tk_error_clear(&o.err);
    if (!o.out || (o.st = tk_input_open_memory(&in, data, size, "fuzz", &opt, &o.err)) != TK_OK)
        return o;
    const uint8_t *d;
    size_t n;
    while ((o.st = tk_input_chunk(in, &d, &n, &o.err)) == TK_OK) {
        if (n > READ_LIMIT - o.len) n = READ_LIMIT - o.len;
        memcpy(o.out + o.len, d, n);
        o.len += n;
        if (o.len == READ_LIMIT) break;
    }
    tk_input_free(in);
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || memcmp(data, "BZh", 3) != 0) return 0;
    outcome s = read_with(data, size, 1), p = read_with(data, size, 2);
    size_t common = s.len < p.len ? s.len : p.len;
    if (memcmp(s.out, p.out, common) != 0) {
        fprintf(stderr, "parallel bzip2 content differs within the first %zu bytes\n", common);
        abort();
    }
    if (s.st != TK_OK && p.st != TK_OK) { /* both finished */
        if (s.st != p.st ||
            (s.st != TK_END &&
             (strcmp(s.err.message, p.err.message) != 0 || s.err.offset != p.err.offset)) ||
            (s.st == TK_END && s.len != p.len)) {
            fprintf(stderr,
                    "serial: %d %s at %lld (%zu bytes); parallel: %d %s at %lld (%zu bytes)\n",
                    s.st, s.err.message, (long long)s.err.offset, s.len, p.st, p.err.message,
                    (long long)p.err.offset, p.len);
            abort();
        }
    }
    free(s.out);
    free(p.out);
    return 0;
}
