/* A merge of profiles one at a time (tk_profile_merger): what tk_profile_merged gives of the
 * profile that reading every input one after the other makes, with each input read into a
 * profile of its own (`merge -j`), so that only the merged profile and the inputs being read
 * are in memory. tk_profile_merged is the merger of that one profile. */
#include <string.h>

#include "core/alloc.h"
#include "model/profile.h"

struct tk_profile_merger {
    tk_profile *dst;
    tk_prof_part *into; /* the one part (not keep_parts) */
    int headed; /* into has the first part's command and the description */
    tk_profile_merge_options opt;
};

tk_status tk_profile_merger_open(tk_profile_merger **out, const tk_profile_merge_options *opt,
                                 tk_error *err)
{
    static const tk_profile_merge_options defaults = TK_PROFILE_MERGE_OPTIONS_INIT;
    *out = NULL;
    tk_profile_merger *m = tk_calloc(1, sizeof *m);
    if (!m) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    m->opt = opt ? *opt : defaults;
    tk_status st = tk_profile_open(&m->dst, err);
    if (st == TK_OK && !m->opt.keep_parts && tk_profile_add_part(m->dst, &m->into, err) != TK_OK)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st != TK_OK) {
        tk_profile_merger_free(m);
        return st;
    }
    *out = m;
    return TK_OK;
}

void tk_profile_merger_free(tk_profile_merger *m)
{
    if (!m) return;
    tk_profile_free(m->dst);
    tk_free(m);
}

tk_status tk_profile_merger_add(tk_profile_merger *m, const tk_profile *src, tk_error *err)
{
    tk_status st = TK_OK;
    if (m->into && !m->headed && tk_profile_part_count(src)) { /* the first part there is */
        const tk_prof_part *first = tk_profile_part(src, 0);
        m->headed = 1;
        if (first->cmd) st = tk_prof_part_set_cmd(m->into, first->cmd, strlen(first->cmd), err);
        if (st == TK_OK && m->opt.desc)
            st = tk_profile_part_add_desc(m->into, m->opt.desc, strlen(m->opt.desc), err);
        if (st != TK_OK) return tk_error_set(err, st, "out of memory");
    }
    return tk_profile_merge(m->dst, src, m->into, err);
}

tk_status tk_profile_merger_finish(tk_profile_merger *m, tk_profile **out, tk_error *err)
{
    *out = NULL;
    tk_status st = TK_OK;
    if (m->into) {
        tk_prof_part_set_summary(m->dst, m->into, NULL);
        if ((st = tk_profile_part_fill_totals(m->dst, m->into, err)) != TK_OK)
            st = tk_error_set(err, st, "cost sum overflows 64 bits");
        else
            tk_prof_part_set_summary(m->dst, m->into, m->into->totals);
    }
    if (st == TK_OK) {
        *out = m->dst;
        m->dst = NULL;
    }
    tk_profile_merger_free(m);
    return st;
}

tk_status tk_profile_merged(tk_profile **out, const tk_profile *src,
                            const tk_profile_merge_options *opt, tk_error *err)
{
    tk_profile_merger *m;
    *out = NULL;
    tk_status st = tk_profile_merger_open(&m, opt, err);
    if (st != TK_OK) return st;
    if ((st = tk_profile_merger_add(m, src, err)) != TK_OK) {
        tk_profile_merger_free(m);
        return st;
    }
    return tk_profile_merger_finish(m, out, err);
}
