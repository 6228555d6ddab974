/* tracekit: the registry of formats and content detection. */
#ifndef TRACEKIT_FORMAT_H
#define TRACEKIT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "input.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What tracekit can do with a format today (kept true as work lands). */
enum {
    TK_CAP_DETECT = 1u << 0,
    TK_CAP_INFO = 1u << 1,
    TK_CAP_READ = 1u << 2,
    TK_CAP_CHECK = 1u << 3,
    TK_CAP_REPORT = 1u << 4,
    TK_CAP_ANNOTATE = 1u << 5,
    TK_CAP_DUMP = 1u << 6,
    TK_CAP_CONVERT = 1u << 7,
    TK_CAP_WRITE = 1u << 8,
    TK_CAP_DIFF = 1u << 9,
    TK_CAP_MERGE = 1u << 10
};

/* Bytes of content that detection looks at. */
#define TK_DETECT_BYTES 65536

typedef struct tk_format {
    const char *name; /* "callgrind", "xray", ... (for --from, --to) */
    const char *title; /* human name */
    const char *extensions; /* space-separated, informative only */
    unsigned caps; /* TK_CAP_* */
    const char *targets; /* space-separated `convert --to` targets, "" if none */
    /* Confidence 0..100 that data (the first bytes of the content, already
     * decompressed) is this format. 0 = no. */
    int (*detect)(const uint8_t *data, size_t len);
} tk_format;

TK_API size_t tk_format_count(void);
TK_API const tk_format *tk_format_at(size_t i);
/* By name; NULL if unknown. */
TK_API const tk_format *tk_format_find(const char *name);
/* Best match for the data, or NULL when nothing scores above 0. */
TK_API const tk_format *tk_format_detect(const uint8_t *data, size_t len, int *confidence);
/* Peek at the input and detect. TK_ERR_FORMAT (with the path) when unrecognised. */
TK_API tk_status tk_format_detect_input(tk_input *in, const tk_format **out, tk_error *err);

/* Capability names, e.g. "read check report" (static buffer not used: writes to buf). */
TK_API char *tk_format_caps_string(unsigned caps, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
