/* tracekit: flame graphs as self-contained interactive SVG, drawn from folded stacks
 * ("a;b;c COUNT" lines, what tk_export_folded and tk_profile_write_folded write; with two
 * counts, "a;b;c BEFORE AFTER", a differential flame graph). */
#ifndef TRACEKIT_FLAMEGRAPH_H
#define TRACEKIT_FLAMEGRAPH_H

#include <stddef.h>

#include "folded.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_flame_options {
    const char *title; /* NULL: "Flame Graph" ("Icicle Graph" reversed, "Differential...") */
    const char *unit; /* what the counts are ("ns", "Ir", "calls"); NULL: "samples" */
    unsigned width; /* pixels, 0: 1200 */
    int reverse; /* icicle: roots at the top */
    double min_width; /* a node's children narrower than a pixel are drawn as one frame
                          * when they add up to this many pixels (0: 0.1) */
    const char *path; /* where the stacks come from, for the errors' locations (NULL:
                          * "folded stacks") */
} tk_flame_options;

#define TK_FLAME_OPTIONS_INIT \
    { \
        NULL, NULL, 0, 0, 0, NULL \
    }

/* Draw the folded stacks text[0..len) as an SVG document with inline CSS and JavaScript (no
 * network): a frame per call path, its width its count; hover: the name, count and share of
 * the total; click: zoom to the frame (its callers stay as a path); "Search": a regular
 * expression, the matches highlighted and their share of the total shown; "Reset zoom".
 * Colours: by the frame's module (what comes before the last "::" or "." of the name, else
 * the name), warm hues; differential input (two counts per line): width by the second count,
 * red where a path grew, blue where it shrank, saturation by the change. Frames narrower than
 * a pixel are drawn together, one frame per parent ("N frames narrower than a pixel", grey,
 * after the wider ones) when they add up to min_width pixels; their children are not drawn.
 * The stacks are read by tk_folded_scan (folded.h: its rules, its located errors:
 * TK_ERR_FORMAT, TK_ERR_LIMIT); TK_ERR_NOMEM, TK_ERR_IO. */
TK_API tk_status tk_flamegraph_svg(const char *text, size_t len, const tk_flame_options *opt,
                                   const tk_writer *out, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
