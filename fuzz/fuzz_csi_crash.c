/* Fuzz the crash-time coverage of CSI programs: the core-file reader (ELF
 * header, program headers, notes, auxiliary vector, mapped files), the
 * binary's coverage sections, symbols and build id, and the raw-image path.
 * The input is a 4-byte little-endian length L, the program (L bytes), then
 * the core; seeds are the fixtures of tests/data/csi_cov/core (make-core.sh)
 * put together so. Every result is walked, the unwound frames too (BIN with
 * .debug_PT: the seed tiny-pt). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* what the walks add up, so that they are not optimised away */
extern volatile uint64_t fuzz_csi_crash_sink;
volatile uint64_t fuzz_csi_crash_sink;

static uint64_t walk(const tk_csi_crash *c)
{
    uint64_t sum =
        tk_csi_crash_bias(c) + strlen(tk_csi_crash_match(c)) + strlen(tk_csi_crash_notes(c));
    for (size_t i = 0; i < tk_csi_crash_count(c); i++) {
        const tk_csi_crash_function *f = tk_csi_crash_at(c, i);
        sum += strlen(f->name) + strlen(f->key) + (f->source ? strlen(f->source) : 0);
        for (uint32_t k = 0; k < f->nsites; k++)
            sum += f->sites[k].hit + f->sites[k].nlines + strlen(f->sites[k].callee);
        for (uint32_t k = 0; k < f->nblocks; k++)
            for (size_t l = 0; l < f->blocks[k].nlines; l++)
                sum += f->blocks[k].lines[l] + f->blocks[k].hit;
        for (size_t k = 0; k < f->nlines; k++) sum += f->lines[k].line + f->lines[k].hit;
    }
    sum += (uint64_t)tk_csi_crash_has_pt(c);
    for (size_t i = 0; i < tk_csi_crash_frame_count(c); i++) {
        const tk_csi_crash_frame *fr = tk_csi_crash_frame_at(c, i);
        sum += fr->depth + fr->pc + fr->line + (uint64_t)fr->traced + (uint64_t)fr->idx +
               (uint64_t)fr->cur + (fr->function ? strlen(fr->function) : 0) +
               (fr->source ? strlen(fr->source) : 0) + (fr->problem ? strlen(fr->problem) : 0);
        for (size_t k = 0; k < fr->npaths; k++) sum += (uint64_t)fr->paths[k];
    }
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    size_t len =
        (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 | (size_t)data[3] << 24;
    if (len > size - 4) return 0;
    const uint8_t *bin = data + 4, *core = data + 4 + len;
    size_t core_len = size - 4 - len;
    tk_csi_crash *c;
    tk_error err;
    tk_csi_crash_options opt = TK_CSI_CRASH_OPTIONS_INIT;
    if (tk_csi_crash_read(&c, "bin", bin, len, "core", core, core_len, &opt, &err) == TK_OK) {
        fuzz_csi_crash_sink += walk(c);
        tk_csi_crash_free(c);
    }
    /* the same bytes as a raw image at the fixtures' array page, shifted */
    opt.raw = 1;
    opt.raw_address = 0x403000;
    opt.bias = core_len & 0xff;
    if (tk_csi_crash_read(&c, "bin", bin, len, "image", core, core_len, &opt, &err) == TK_OK) {
        fuzz_csi_crash_sink += walk(c);
        tk_csi_crash_free(c);
    }
    return 0;
}
