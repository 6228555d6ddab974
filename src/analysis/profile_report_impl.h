/* The report of a profile's summary from where the summary comes from: a profile
 * (tk_prof_report_open) or a partial (tk_prof_report_open_partial). */
#ifndef TK_ANALYSIS_PROFILE_REPORT_IMPL_H
#define TK_ANALYSIS_PROFILE_REPORT_IMPL_H

#include "tracekit/profile_report.h"

typedef struct tk_prof_report_source {
    const tk_profile *names; /* the strings of the entries, the events */
    void *ctx;
    /* The summary by group (self_only: without inclusive costs, tk_profile_summarize_self). */
    tk_status (*summarize)(void *ctx, int self_only, tk_prof_group group, tk_prof_summary **out,
                           tk_error *err);
    /* The arcs between the entries of s (tk_profile_summary_arcs). */
    tk_status (*arcs)(void *ctx, const tk_prof_summary *s, tk_prof_group group, tk_prof_arcs **out,
                      tk_error *err);
} tk_prof_report_source;

/* tk_prof_report_open over src. */
tk_status tk_prof_report_build(tk_prof_report **out, const tk_prof_report_source *src,
                               const tk_prof_report_options *opt, tk_error *err);

#endif
