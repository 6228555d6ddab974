/* DCFG reader internals shared with the fuzz harness. */
#ifndef TK_DCFG_INTERNAL_H
#define TK_DCFG_INTERNAL_H

#include "tracekit/dcfg.h"

/* tk_dcfg_read with the fast row path (fast = 1, what it does: rows of the
 * big tables scanned whole by tk_json_scan_row, and the tokenizer's own fast
 * paths, core/fastpath.h) or with the token-by-token path and the tokenizer's
 * general code only (fast = 0: tk_json_set_fast(j, 0)). The fuzz harness
 * requires the same result of both on every input, error locations included. */
tk_status tk_dcfg_read_paths(tk_cfg **out, tk_input *in, const tk_dcfg_read_options *opt, int fast,
                             tk_error *err);

#endif
