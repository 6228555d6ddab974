/* Shared between the WET reader, loader and writers. */
#ifndef TK_WET_INTERNAL_H
#define TK_WET_INTERNAL_H

#include "core/fastpath.h"
#include "tracekit/wet.h"

/* Most use ports one instruction may declare (a real instruction has a few). */
#define WET_MAX_PORTS 65535u

/* The fast paths of tk_wet_reader_next (fast_entry, fast_value: core/fastpath.h) are taken
 * when WET_FAST(r): always, but with TK_NO_FAST_PATH or after tk_wet_reader_paths(r, 0),
 * which the fuzz harness uses to compare them with their general twins (parse_entry,
 * parse_value) on every input. */
#define WET_FAST(r) (TK_FAST_PATHS && (r)->fast)
void tk_wet_reader_paths(tk_wet_reader *r, int fast);

/* tk_wet_read through a reader with its fast paths (fast = 1: tk_wet_read) or without (0). */
tk_status tk_wet_read_paths(tk_deps **out, tk_input *in, tk_diag *diag, int fast, tk_error *err);

#endif
