/* tracekit merge for callgrind profiles: one profile of every input's costs. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

const cli_opt cli_callgrind_merge_opts[] = {
    {"output", 'o', "FILE", "write the merged profile to FILE (default: standard output)"},
    {"force", 'f', NULL, "overwrite FILE"},
    {"keep-parts", 0, NULL, "keep every part (thread, dump) as its own part"},
    {NULL, 0, NULL, NULL},
};

int cli_callgrind_merge(cli_ctx *ctx, const cli_args *args)
{
    tk_profile *src;
    int rc = cli_callgrind_load(ctx, TK_CALLGRIND_DETAIL_FULL, &src);
    if (rc || !src) return rc; /* no profile: a team's member, which writes nothing */
    tk_profile *dst = NULL;
    tk_prof_part *into = NULL;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_profile_open(&dst, NULL);
    if (st == TK_OK && !cli_has(args, "keep-parts")) {
        st = tk_profile_add_part(dst, &into, NULL);
        if (st == TK_OK && tk_profile_part_count(src)) {
            tk_prof_part_info first;
            tk_prof_part_get(tk_profile_part(src, 0), &first);
            if (first.cmd)
                st = tk_prof_part_set_cmd(into, first.cmd, strlen(first.cmd), NULL);
            if (st == TK_OK)
                st = tk_profile_part_add_desc(into, "Trigger: tracekit merge",
                                              strlen("Trigger: tracekit merge"), NULL);
        }
    }
    if (st != TK_OK) {
        tk_error_set(&err, st, "out of memory");
    } else {
        st = tk_profile_merge(dst, src, into, &err);
        if (st == TK_OK && into) {
            tk_prof_part_set_summary(dst, into, NULL);
            st = tk_profile_part_fill_totals(dst, into, NULL);
            if (st == TK_OK) {
                tk_prof_part_info info;
                tk_prof_part_get(into, &info);
                tk_prof_part_set_summary(dst, into, info.totals);
            }
            if (st != TK_OK) tk_error_set(&err, st, "cost sum overflows 64 bits");
        }
    }
    if (st != TK_OK) {
        tk_profile_free(src);
        tk_profile_free(dst);
        return cli_error(&err);
    }
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        st = tk_callgrind_write(dst, CLI_WRITER(cli_output_file(o)), &wo, &err);
        if (st != TK_OK) {
            cli_output_abort(o);
            rc = cli_error(&err);
        } else {
            rc = cli_output_commit(o);
        }
    }
    tk_profile_free(src);
    tk_profile_free(dst);
    return rc;
}
