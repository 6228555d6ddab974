/* tracekit: Intel DCFG 1.00 (Dynamic Control-Flow Graph, JSON).
 *
 * Reading builds the cfg model (tracekit/cfg.h) in one streaming pass over
 * the JSON (no document tree; the nesting of the format is fixed, unknown
 * values are skipped iteratively).  Tables are read by header name; short
 * rows, unknown keys and columns, any key order, hex strings ("0x1f") for
 * any integer are accepted.  .gz/.bz2/.xz/.zst inputs are decompressed by
 * the core input layer.
 *
 * Typical use:
 *     tk_cfg *cfg;
 *     if (tk_dcfg_read_path(&cfg, "x.dcfg.json.bz2", NULL, &err) != TK_OK) ...
 *     const tk_cfg_process *p = &cfg->processes[0];
 *     uint32_t b = tk_cfg_find_block(p, 31);
 *     ... tk_cfg_free(cfg);
 */
#ifndef TRACEKIT_DCFG_H
#define TRACEKIT_DCFG_H

#include <stdio.h>

#include "tracekit/cfg.h"
#include "tracekit/input.h"
#include "tracekit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_dcfg_read_options {
    /* When set (check mode), problems that leave the file readable (bad ids,
     * dangling references, version, integral floats...) are reported here as
     * located errors/warnings and reading goes on.  When NULL, the first such
     * error fails the read with TK_ERR_FORMAT. */
    tk_diag *diag;
} tk_dcfg_read_options;

#define TK_DCFG_READ_OPTIONS_INIT {NULL}

/* Read a DCFG from an open input.  Returns TK_OK, TK_ERR_FORMAT / TK_ERR_LIMIT
 * (located: path:line:column), TK_ERR_NOMEM, TK_ERR_IO.  *out is the caller's. */
tk_status tk_dcfg_read(tk_cfg **out, tk_input *in, const tk_dcfg_read_options *opt,
                       tk_error *err);
/* Same from a path ("-" = stdin). */
tk_status tk_dcfg_read_path(tk_cfg **out, const char *path, const tk_dcfg_read_options *opt,
                            tk_error *err);

/* Semantic checks of the spec on a model read with opt.diag set: dominators,
 * loops, routine reachability and membership, counts.  Reports through diag. */
tk_status tk_dcfg_check(const tk_cfg *cfg, const char *path, tk_diag *diag);

/* Canonical DCFG writer: what Intel's reader accepts (no \u escapes, '/'
 * written as '\/', integers as integers, addresses as hex strings, canonical
 * key and column order, computed routines/loops included).  TK_ERR_IO. */
tk_status tk_dcfg_write(const tk_cfg *cfg, FILE *f, tk_error *err);

/* Canonical deterministic text of the model (the golden format of tests). */
tk_status tk_dcfg_dump(const tk_cfg *cfg, FILE *f, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
