/* tracekit: partial results of a profile report (what `report -j` and tracekit-mpi merge).
 *
 * A partial is the summary of some profiles by one key (tk_prof_group): each entry's key,
 * self costs and calls, and what its inclusive cost is made of: the call arcs between
 * entries (by function or file-function, where call cycles need the whole call graph) or
 * the cost of the calls it makes to other entries (by file, object or line). Partials of
 * consecutive inputs merge, exactly and associatively, into the partial of all of them, and
 * the report of a partial (tk_prof_report_open_partial) is the report of the profile those
 * inputs make when they are read one after the other into one profile, byte for byte: its
 * entries, their order before any sort, costs, call counts, cycles and arcs. A partial holds
 * what a report needs and no more: no parts, no positions, no call sites; it grows with the
 * distinct entries and arcs of its inputs, not with their number. */
#ifndef TRACEKIT_PROFILE_PARTIAL_H
#define TRACEKIT_PROFILE_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "profile.h"
#include "profile_analysis.h"
#include "profile_report.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_prof_partial tk_prof_partial;

typedef struct tk_prof_partial_options {
    tk_prof_group group;
    int self_only; /* self costs and call counts only (no arcs, no inclusive costs): what a
                      report with self_only needs; the profile may be read with call counts
                      only (tk_callgrind_read_options.call_counts_only) */
} tk_prof_partial_options;

#define TK_PROF_PARTIAL_OPTIONS_INIT \
    { \
        TK_GROUP_FUNCTION, 0 \
    }

/* The partial of every part of p (p is not kept). Returns TK_OK, TK_ERR_ARG (not self_only
 * and p read with call counts only), TK_ERR_NOMEM, TK_ERR_LIMIT (a sum over 64 bits). */
TK_API tk_status tk_prof_partial_open(tk_prof_partial **out, const tk_profile *p,
                                      const tk_prof_partial_options *opt, tk_error *err);
/* The same, p taken over (its names become the partial's, its parts are freed; freed on an
 * error): no copy of its names. Returns as tk_prof_partial_open: TK_OK, TK_ERR_ARG,
 * TK_ERR_NOMEM, TK_ERR_LIMIT. */
TK_API tk_status tk_prof_partial_take(tk_prof_partial **out, tk_profile *p,
                                      const tk_prof_partial_options *opt, tk_error *err);
TK_API void tk_prof_partial_free(tk_prof_partial *pp);

/* Merge `later` (not into itself), the partial of the inputs read after into's, into `into`:
 * into becomes the partial of both. An event type that the later inputs bring after the
 * earlier ones recorded costs, which reading them into one profile refuses, is noted (an
 * input before into's may bring it first) and refused by the report. On an error into is
 * unusable: free it. Returns TK_OK, TK_ERR_ARG (another group or self_only), TK_ERR_NOMEM,
 * TK_ERR_LIMIT (a sum over 64 bits, more than TK_PROFILE_MAX_EVENTS event types). */
TK_API tk_status tk_prof_partial_merge(tk_prof_partial *into, const tk_prof_partial *later,
                                       tk_error *err);

/* The names of a partial: a profile without parts that holds its strings (the ids of a
 * report's entries), its event types and derived events. Borrowed from pp. */
TK_API const tk_profile *tk_prof_partial_names(const tk_prof_partial *pp);
/* The number of parts of the inputs. */
TK_API size_t tk_prof_partial_parts(const tk_prof_partial *pp);

/* pp as bytes, in a block the caller frees with tk_free. The form is canonical: equal
 * partials give equal bytes, whatever merges made them. "TKPP" 1, then LEB128 varints: the
 * group, self_only, whether the inputs recorded costs, the parts, the event types and
 * derived events, the strings the rest refers to (each once, in order of first use), the
 * totals, the entries in their order and the arcs in the order of their ends. Returns TK_OK,
 * TK_ERR_NOMEM. */
TK_API tk_status tk_prof_partial_serialize(const tk_prof_partial *pp, uint8_t **data, size_t *size,
                                           tk_error *err);
/* The partial serialised in data[0..size). Returns TK_OK, TK_ERR_FORMAT (not such bytes: the
 * message says what, err's offset where), TK_ERR_LIMIT, TK_ERR_NOMEM. */
TK_API tk_status tk_prof_partial_deserialize(tk_prof_partial **out, const uint8_t *data,
                                             size_t size, tk_error *err);

/* What every report of pp refuses: an event type that came after costs were recorded
 * without it (tk_prof_partial_merge). Returns TK_OK or TK_ERR_UNSUPPORTED. */
TK_API tk_status tk_prof_partial_check(const tk_prof_partial *pp, tk_error *err);

/* The report of a partial: what tk_prof_report_open gives for the profile of its inputs,
 * with the same options (opt->group the partial's, opt->part 0; a partial made with
 * self_only gives reports with self_only only). Its entries' string ids are those of
 * tk_prof_partial_names(pp), which must outlive the report. Returns tk_prof_report_open's
 * statuses, TK_ERR_ARG for options the partial cannot answer and TK_ERR_UNSUPPORTED for an
 * event type that came after costs were recorded without it (tk_prof_partial_merge). */
TK_API tk_status tk_prof_report_open_partial(tk_prof_report **out, const tk_prof_partial *pp,
                                             const tk_prof_report_options *opt, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
