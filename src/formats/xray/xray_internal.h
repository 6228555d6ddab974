/* Internal helpers shared by the XRay reader, checker and commands. */
#ifndef TK_FORMATS_XRAY_INTERNAL_H
#define TK_FORMATS_XRAY_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "core/fastpath.h"
#include "tracekit/events.h"
#include "tracekit/xray.h"

/* FDR record sizes and the metadata introducer byte of each metadata kind. */
#define XRAY_FUNCTION_RECORD_SIZE 8
#define XRAY_METADATA_RECORD_SIZE 16
#define XRAY_BASIC_RECORD_SIZE 32
#define XRAY_META_BYTE(kind) ((uint8_t)(((kind) << 1) | 1))

enum xray_meta_kind {
    XRAY_META_NEW_BUFFER = 0,
    XRAY_META_END_OF_BUFFER = 1,
    XRAY_META_NEW_CPU = 2,
    XRAY_META_TSC_WRAP = 3,
    XRAY_META_WALLTIME = 4,
    XRAY_META_CUSTOM_EVENT = 5,
    XRAY_META_CALL_ARG = 6,
    XRAY_META_BUFFER_EXTENTS = 7,
    XRAY_META_TYPED_EVENT = 8,
    XRAY_META_PID = 9,
    XRAY_META_KINDS = 10
};

/* Largest custom/typed event payload accepted (the runtime caps events far below this). */
#define XRAY_MAX_EVENT_SIZE (1u << 24)

static inline uint16_t xray_u16(const uint8_t *p, int be)
{
    return be ? (uint16_t)((p[0] << 8) | p[1]) : (uint16_t)(p[0] | (p[1] << 8));
}

#define XRAY_HOST_BIG_ENDIAN (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

static inline uint32_t xray_u32(const uint8_t *p, int be)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return be != XRAY_HOST_BIG_ENDIAN ? __builtin_bswap32(v) : v;
}

static inline uint64_t xray_u64(const uint8_t *p, int be)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return be != XRAY_HOST_BIG_ENDIAN ? __builtin_bswap64(v) : v;
}

/* Packed calls straight from the open buffer of a little-endian FDR trace: 1 with pc->p, end
 * and time set, and the buffer's thread in *tid and *pid, when the next record is a call that
 * the consumer takes (see tk_packed_calls; pc->id_limit is read); else 0, and the records ahead
 * go through tk_xray_next_calls. */
int tk_xray_packed_calls(tk_xray_reader *r, tk_packed_calls *pc, int32_t *tid, int32_t *pid);
/* Continue the reader after the packed calls taken (at pc->p, with time pc->time). */
void tk_xray_packed_taken(tk_xray_reader *r, const tk_packed_calls *pc);

/* The fast paths of tk_xray_next_calls (runs of FDR function records, calls_fdr) and of
 * tk_xray_packed_calls (core/fastpath.h) are taken when XRAY_FAST(r): always, but with
 * TK_NO_FAST_PATH or after tk_xray_set_paths(r, 0), which the fuzz harness uses to compare them
 * with the record-by-record reader (tk_xray_next), their general twin, on every input. */
#define XRAY_FAST(r) (TK_FAST_PATHS && (r)->fast)
void tk_xray_set_paths(tk_xray_reader *r, int fast);

/* tk_xray_is_function, inline. */
static inline int xray_is_function(tk_xray_kind k) { return k <= TK_XRAY_ENTER_ARGS; }

#endif
