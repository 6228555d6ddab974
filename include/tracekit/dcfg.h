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
 *     const tk_cfg_process *p = tk_cfg_process_at(cfg, 0);
 *     uint32_t b = tk_cfg_find_block(p, 31);
 *     tk_cfg_block_info info;
 *     tk_cfg_block_get(p, b, &info);
 *     ... tk_cfg_free(cfg);
 */
#ifndef TRACEKIT_DCFG_H
#define TRACEKIT_DCFG_H


#include "tracekit/cfg.h"
#include "tracekit/input.h"
#include "tracekit/profile.h"
#include "tracekit/status.h"
#include "tracekit/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_dcfg_read_options {
    /* When set (check mode), problems that leave the file readable (bad ids,
     * dangling references, version, integral floats...) are reported here as
     * located errors/warnings and reading goes on.  When NULL, the first such
     * error fails the read with TK_ERR_FORMAT. */
    tk_diag *diag;
    /* tk_dcfg_read_path: how to open the file (NULL: defaults).  A mapped
     * file's pages are given back behind the reader as it goes (it needs each
     * byte once), so the file does not stay resident. */
    const tk_input_options *input;
} tk_dcfg_read_options;

#define TK_DCFG_READ_OPTIONS_INIT \
    { \
        NULL, NULL \
    }

/* Read a DCFG from an open input.  Returns TK_OK, TK_ERR_FORMAT / TK_ERR_LIMIT
 * (located: path:line:column), TK_ERR_NOMEM, TK_ERR_IO.  *out is the caller's. */
TK_API tk_status tk_dcfg_read(tk_cfg **out, tk_input *in, const tk_dcfg_read_options *opt,
                              tk_error *err);
/* Same from a path ("-" = stdin).  Row locations are kept only in check
 * mode; when a strict read fails on a reference error found after parsing
 * (dangling edge, duplicate id), the file is read again in check mode to
 * locate it (not possible for stdin). Returns as tk_dcfg_read: TK_OK, TK_ERR_FORMAT /
 * TK_ERR_LIMIT (located), TK_ERR_NOMEM, TK_ERR_IO (also when path cannot be opened). */
TK_API tk_status tk_dcfg_read_path(tk_cfg **out, const char *path, const tk_dcfg_read_options *opt,
                                   tk_error *err);

/* Semantic checks of the spec on a model read with opt.diag set: dominators,
 * loops, routine reachability and membership, counts.  Reports through diag. TK_OK,
 * TK_ERR_CHECK (problems reported), TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_check(const tk_cfg *cfg, const char *path, tk_diag *diag, tk_error *err);

typedef enum tk_dcfg_report_format {
    TK_DCFG_REPORT_TEXT = 0,
    TK_DCFG_REPORT_JSON,
    TK_DCFG_REPORT_CSV
} tk_dcfg_report_format;

typedef struct tk_dcfg_report_options {
    tk_dcfg_report_format format;
    uint32_t top; /* rows of the block, routine and loop tables (0: 20) */
    int all_rows; /* every row of those tables (top is not used) */
    /* NULL: summary, blocks, routines and loops; else one of them, or one of the tables of
     * Intel's dcfg-reader, as it prints them: "statistics", "source-loops" or
     * "inner-source-loops" (docs/formats/dcfg.md) */
    const char *table;
    int has_image, has_routine, has_loop;
    uint32_t image_id; /* --image: only this image's blocks, routines, loops */
    uint32_t routine_id; /* --routine: only this routine (entry id) and its loops */
    uint32_t loop_id; /* --loop: this loop (head id), its nested loops and its blocks */
} tk_dcfg_report_options;

#define TK_DCFG_REPORT_OPTIONS_INIT \
    { \
        TK_DCFG_REPORT_TEXT, 0, 0, NULL, 0, 0, 0, 0, 0, 0 \
    }

/* Summaries (the numbers of Intel's dcfg-reader), hot blocks, hot routines
 * (calls = entry count), loops (visits = entry-edge counts, iterations = head
 * count, static and dynamic instructions, like LoopPoint's loop_info).
 * JSON output carries "version": 1.  TK_ERR_IO, TK_ERR_NOMEM. */
TK_API tk_status tk_dcfg_report(const tk_cfg *cfg, const tk_dcfg_report_options *opt,
                                const tk_writer *f, tk_error *err);

/* Canonical DCFG writer: what Intel's reader accepts (no \u escapes, '/'
 * written as '\/', integers as integers, addresses as hex strings, canonical
 * key and column order, computed routines/loops included).  TK_ERR_IO. */
TK_API tk_status tk_dcfg_write(const tk_cfg *cfg, const tk_writer *f, tk_error *err);

/* The profile model of a DCFG (for tk_callgrind_write): event Ir; one
 * function per routine (object = image file, name = entry symbol[+offset]);
 * self cost of a block = COUNT x NUM_INSTRS at its first instruction address
 * and source line; call edges as calls with counts and inclusive costs (each
 * callee's inclusive cost per entry, shared out by call counts: the DCFG has
 * no call stacks); one part per thread when there are several.
 * TK_ERR_NOMEM. *out is the caller's (tk_profile_free). */
TK_API tk_status tk_dcfg_to_profile(const tk_cfg *cfg, tk_profile **out, tk_error *err);

/* Canonical deterministic text of the model (the golden format of tests). TK_OK, TK_ERR_IO
 * (f failed), TK_ERR_NOMEM, TK_ERR_ARG (a writer without a callback). */
TK_API tk_status tk_dcfg_dump(const tk_cfg *cfg, const tk_writer *f, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
