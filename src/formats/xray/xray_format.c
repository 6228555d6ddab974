/* The LLVM XRay format descriptor and its content detection. */
#include "tracekit/format.h"

static unsigned rd16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

/* A 32-byte file header: u16 version, u16 type (0 basic, 1 FDR), then the
 * first record: FDR v1 starts with a NewBuffer metadata record (0x01), v2+
 * with BufferExtents (0x0f); a basic log with a 32-byte record. Both
 * endiannesses are accepted for the header fields. */
static int detect_xray(const uint8_t *d, size_t n)
{
    if (n < 32) return 0;
    unsigned version = rd16(d), type = rd16(d + 2);
    if (version > 0xff) { /* big-endian writer */
        version = (unsigned)d[0] << 8 | d[1];
        type = (unsigned)d[2] << 8 | d[3];
    }
    if (type == 1 && version >= 1 && version <= 5) {
        if (n == 32) return 70; /* header only: an empty trace */
        uint8_t first = d[32];
        if ((version == 1 && first == 0x01) || (version >= 2 && first == 0x0f)) return 95;
        return 40;
    }
    if (type == 0 && version >= 1 && version <= 3) {
        if (n == 32) return 60;
        if (n >= 64 && (rd16(d + 32) == 0 || rd16(d + 32) == 1)) return 85;
        return 30;
    }
    return 0;
}

const tk_format tk_format_xray = {
    .name = "xray",
    .title = "LLVM XRay trace (FDR and basic mode)",
    .extensions = "xray-log.*",
    .caps = TK_CAP_DETECT | TK_CAP_INFO | TK_CAP_READ | TK_CAP_CHECK | TK_CAP_REPORT | TK_CAP_DUMP |
            TK_CAP_CONVERT | TK_CAP_DIFF,
    .targets = "chrome folded svg callgrind dot json",
    .detect = detect_xray,
};
