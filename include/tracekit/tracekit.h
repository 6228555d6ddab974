/* tracekit: read, check, analyse, convert and write execution traces and profiles. */
#ifndef TRACEKIT_TRACEKIT_H
#define TRACEKIT_TRACEKIT_H

#define TK_VERSION_MAJOR 0
#define TK_VERSION_MINOR 1
#define TK_VERSION_PATCH 0
#define TK_VERSION_STRING "0.1.0"

#include "alloc.h"
#include "callgrind.h"
#include "ball_larus.h"
#include "cfg.h"
#include "csi.h"
#include "csi_cov.h"
#include "dcfg.h"
#include "dcfg_counts.h"
#include "folded_partial.h"
#include "format.h"
#include "input.h"
#include "num.h"
#include "output.h"
#include "profile.h"
#include "profile_analysis.h"
#include "record.h"
#include "status.h"
#include "textout.h"
#include "deps.h"
#include "slice.h"
#include "wet.h"
#include "dcfg_trace.h"
#include "events.h"
#include "events_profile.h"
#include "events_json.h"
#include "latency.h"
#include "viewers.h"
#include "flamegraph.h"
#include "folded.h"
#include "html_report.h"
#include "xray.h"
#include "writer.h"
#include "deps_report.h"
#include "profile_report.h"
#include "profile_partial.h"
#include "profile_annotate.h"
#include "cfg_diff.h"
#include "dcfg_trace_bbv.h"
#include "dcfg_trace_diff.h"
#include "dcfg_trace_folded.h"
#include "dcfg_trace_report.h"
#include "csi_report.h"
#include "csi_cov_report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version string, e.g. "0.1.0". */
TK_API const char *tk_version(void);

#ifdef __cplusplus
}
#endif
#endif
