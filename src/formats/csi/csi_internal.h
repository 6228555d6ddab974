/* Helpers shared by the CSI modules (not public API). */
#ifndef TK_CSI_INTERNAL_H
#define TK_CSI_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracekit/csi.h"

/* ---- text helpers of the CSI readers (csi_text.c; the coverage reader's too) ---- */

/* len without the spaces, tabs and CRs at its end. */
size_t tk_csi_trim_right(const char *s, size_t len);
/* Only spaces, tabs, CR, or NUL padding between concatenated sections. */
int tk_csi_is_blank(const char *s, size_t len);
/* Where the line's '#' is after NUL padding (between concatenated sections), or len when
 * the line does not start with one. */
size_t tk_csi_header_start(const char *s, size_t len);
/* Quote at most 40 bytes of s for a message ('abc', unprintable as \xNN). */
void tk_csi_quote(const char *s, size_t len, char *buf, size_t size);
/* Fill err with the message at in's path, line:col; returns code. */
tk_status tk_csi_fail(tk_error *err, tk_input *in, tk_status code, uint64_t line, uint64_t col,
                      const char *fmt, ...) TK_PRINTF(6, 7);
tk_status tk_csi_vfail(tk_error *err, tk_input *in, tk_status code, uint64_t line, uint64_t col,
                       const char *fmt, va_list ap) TK_PRINTF(6, 0);

/* Index of the block with this id, or UINT32_MAX (linear search). */
uint32_t tk_csi_find_block(const tk_csi_function *fn, uint64_t id);

/* Does the block's line list contain the path write (-1)? Position of the first one, or -1. */
long tk_csi_write_pos(const tk_csi_block *b);

/* ---- DCFG -> CSI bridge (csi_from_cfg.c) ---- */

#include "tracekit/cfg.h"

/* One routine of a DCFG process as a CSI function: local block 0 is EXIT,
 * 1 is ENTRY; order[i] is the DCFG block index of local block i. */
typedef struct csi_bridge_routine {
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    uint32_t *local; /* scratch: block index -> local index */
    uint32_t *order; /* local index -> block index */
    tk_csi_block *blocks;
    int64_t *lines;
    uint32_t *block_line; /* per DCFG block of the process: source line (0 unknown) */
    tk_csi_edge *edges, *numbered;
    size_t edges_cap;
    tk_csi_numbering *num;
    char name[512];
    tk_csi_function fn; /* the routine (edges numbered when numbered_ok) */
    int numbered_ok; /* 0: path count overflow */
    /* DCFG edge index -> CSI edge index, for the edges the bridge kept */
    uint32_t *mapped_edge, *mapped_k;
    size_t nmapped, mapped_cap;
} csi_bridge_routine;

tk_status tk_csi_bridge_begin(csi_bridge_routine *b, const tk_cfg *cfg, const tk_cfg_process *p);
tk_status tk_csi_bridge_build(csi_bridge_routine *b, uint32_t routine, tk_error *err);
void tk_csi_bridge_end(csi_bridge_routine *b);

/* tk_csi_write_function into a stream (core/writer.h). */
tk_status tk_csi_write_function_stream(FILE *out, const tk_csi_function *fn, tk_error *err);

#endif
