/* tracekit convert for DCFG files: DCFG JSON, dot, callgrind or CSI metadata. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"

const cli_opt cli_dcfg_convert_opts[] = {
    {"to", 't', "FMT",
     "dcfg (canonical DCFG JSON, also: json), dot (Graphviz), callgrind, or csi "
     "(Ball-Larus path-tracing metadata of every routine)"},
    {"output", 'o', "OUT", "output file (default: standard output)"},
    {"force", 'f', NULL, "overwrite OUT if it exists"},
    {"routine", 0, "ID", "dot: draw the routine containing this node (repeatable)"},
    {"loop", 0, "ID", "dot: draw the loop with this head node (repeatable)"},
    {"image", 0, "ID", "dot: draw this image (repeatable)"},
    {"all", 0, NULL,
     "dot: every block, in the lines of Intel's dcfg-to-dot (default: of a DCFG "
     "of over 100 blocks, more than Graphviz lays out, its hottest routines; "
     "a drawing over 16,000 px scaled down to it)"},
    {"positions", 0, "POS",
     "callgrind: line (default: what speedscope, KCachegrind and "
     "callgrind_annotate all read) or instr+line (addresses too, for "
     "KCachegrind's machine code view; speedscope misreads it)"},
    {"per-thread", 0, NULL,
     "callgrind: a file per thread, -o OUT writes OUT-01, OUT-02, ... "
     "(valgrind's --separate-threads=yes; default: the threads' costs "
     "added up in one part)"},
    {NULL, 0, NULL, NULL},
};

#define MAX_SELECT 256

static int get_ids(const cli_ctx *ctx, const cli_args *a, const char *name, uint32_t *ids,
                   size_t *n)
{
    const char *vals[MAX_SELECT];
    int k = cli_get_all(a, name, vals, MAX_SELECT);
    *n = 0;
    for (int i = 0; i < k; i++) {
        uint64_t v;
        if (tk_parse_u64(vals[i], strlen(vals[i]), &v, NULL) != TK_OK || v > UINT32_MAX) {
            cli_usage_error(ctx->command, "--%s: '%s' is not an id", name, vals[i]);
            return -1;
        }
        ids[(*n)++] = (uint32_t)v;
    }
    return 0;
}

/* --to (json: the canonical DCFG JSON, as dcfg) */
enum { TO_DCFG, TO_DOT, TO_CALLGRIND, TO_CSI };
static const cli_choice convert_targets[] = {{"dcfg", TO_DCFG}, {"json", TO_DCFG},
                                             {"dot", TO_DOT},   {"callgrind", TO_CALLGRIND},
                                             {"csi", TO_CSI},   {NULL, 0}};

/* --positions of --to callgrind: the TK_POS_* columns written */
static const cli_choice callgrind_positions[] = {
    {"line", TK_POS_LINE}, {"instr+line", TK_POS_INSTR | TK_POS_LINE}, {NULL, 0}};

/* The DCFG as a profile (tk_dcfg_to_profile) written as callgrind with these positions: its
 * threads in one part (speedscope refuses a second "events:" line, callgrind_annotate reads
 * one part). */
static tk_status write_callgrind(const tk_cfg *cfg, unsigned positions, FILE *f, tk_error *err)
{
    tk_profile *prof = NULL;
    tk_status st = tk_dcfg_to_profile(cfg, &prof, err);
    if (st == TK_OK) st = tk_profile_one_part(&prof, err);
    if (st == TK_OK) {
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        wo.positions = positions;
        st = tk_callgrind_write(prof, CLI_WRITER(f), &wo, err);
    }
    tk_profile_free(prof);
    return st;
}

/* --per-thread: a callgrind file per thread (cli_write_callgrind_parts). Returns an exit
 * code. */
static int write_callgrind_files(const cli_args *a, const tk_cfg *cfg, unsigned positions)
{
    tk_profile *prof = NULL;
    tk_error err;
    tk_error_clear(&err);
    int rc = tk_dcfg_to_profile(cfg, &prof, &err) == TK_OK
                 ? cli_write_callgrind_parts("convert", a, prof, positions)
                 : cli_error(&err);
    tk_profile_free(prof);
    return rc;
}

/* --to dot with nothing chosen: of a DCFG of more blocks than Graphviz lays out, its hottest
 * routines (into *hot, dot->routines), unless --all; a note says so. */
static tk_status dot_default(const cli_args *a, const tk_cfg *cfg, tk_cfg_dot_options *dot,
                             tk_cfg_hot_routines *hot, tk_error *err)
{
    dot->intel_layout = cli_has(a, "all");
    if (dot->nroutines || dot->nloops || dot->nimages || dot->intel_layout) return TK_OK;
    tk_status st = tk_cfg_dot_hot_routines(cfg, TK_CFG_DOT_MAX_BLOCKS, hot, err);
    if (st != TK_OK || hot->all_blocks <= TK_CFG_DOT_MAX_BLOCKS || !hot->n) return st;
    dot->routines = hot->ids;
    dot->nroutines = hot->n;
    char which[48] = "its hottest routine";
    if (hot->n > 1) snprintf(which, sizeof which, "its %zu hottest routines", hot->n);
    fprintf(stderr,
            "tracekit: note: %llu blocks are more than Graphviz lays out: drawing %s (%.1f%% "
            "of the instructions, %llu blocks); --all draws every block, --routine, --loop and "
            "--image choose\n",
            (unsigned long long)hot->all_blocks, which,
            hot->total ? 100.0 * (double)hot->instrs / (double)hot->total : 0.0,
            (unsigned long long)hot->blocks);
    return TK_OK;
}

int cli_dcfg_convert(cli_ctx *ctx, const cli_args *a)
{
    int to = cli_get_choice(ctx->command, a, "to", convert_targets, -1);
    if (to < 0) {
        if (!cli_has(a, "to"))
            cli_usage_error(ctx->command,
                            "--to FMT is required (dcfg, json, dot, callgrind or csi)");
        return CLI_EXIT_USAGE;
    }
    if (ctx->ninputs != 1) return cli_usage_error(ctx->command, "convert takes one FILE");
    uint32_t routines[MAX_SELECT], loops[MAX_SELECT], images[MAX_SELECT];
    tk_cfg_dot_options dot = TK_CFG_DOT_OPTIONS_INIT;
    if (get_ids(ctx, a, "routine", routines, &dot.nroutines) ||
        get_ids(ctx, a, "loop", loops, &dot.nloops) ||
        get_ids(ctx, a, "image", images, &dot.nimages))
        return CLI_EXIT_USAGE;
    if (to != TO_DOT && (dot.nroutines || dot.nloops || dot.nimages || cli_has(a, "all")))
        return cli_usage_error(ctx->command,
                               "--routine, --loop, --image and --all select what --to dot draws");
    dot.routines = routines;
    dot.loops = loops;
    dot.images = images;
    int positions = cli_get_choice(ctx->command, a, "positions", callgrind_positions, TK_POS_LINE);
    if (positions < 0) return CLI_EXIT_USAGE;
    int per_thread = cli_has(a, "per-thread");
    if (per_thread && to != TO_CALLGRIND)
        return cli_usage_error(ctx->command, "--per-thread applies to --to callgrind");
    if (per_thread && cli_need_parts_output(ctx->command, a) != CLI_EXIT_OK) return CLI_EXIT_USAGE;
    tk_cfg *cfg;
    int rc = cli_dcfg_read(ctx, 0, NULL, &cfg);
    if (rc != CLI_EXIT_OK) return rc;
    if (per_thread) {
        rc = write_callgrind_files(a, cfg, (unsigned)positions);
        tk_cfg_free(cfg);
        return rc;
    }
    tk_output *out;
    rc = cli_output_open(a, 0, &out);
    if (rc != 0) {
        tk_cfg_free(cfg);
        return rc;
    }
    tk_error err;
    tk_error_clear(&err);
    tk_status st = TK_OK;
    uint64_t skipped = 0;
    tk_cfg_hot_routines hot = {0};
    if (to == TO_DOT) st = dot_default(a, cfg, &dot, &hot, &err);
    if (st != TK_OK) {
        /* the error is reported below */
    } else if (to == TO_CALLGRIND) {
        st = write_callgrind(cfg, (unsigned)positions, cli_output_file(out), &err);
    } else if (to == TO_CSI) {
        st = tk_csi_write_cfg(CLI_WRITER(cli_output_file(out)), cfg, &skipped, &err);
    } else if (to == TO_DOT) {
        st = tk_cfg_write_dot(cfg, &dot, CLI_WRITER(cli_output_file(out)), &err);
    } else {
        st = tk_dcfg_write(cfg, CLI_WRITER(cli_output_file(out)), &err);
    }
    if (skipped)
        fprintf(stderr,
                "tracekit: warning: %llu routine%s left out: %s path count overflows 64 bits\n",
                (unsigned long long)skipped, cli_s(skipped), skipped == 1 ? "its" : "their");
    tk_free(hot.ids);
    tk_cfg_free(cfg);
    if (st != TK_OK) {
        cli_output_abort(out);
        return cli_error(&err);
    }
    return cli_output_commit(out);
}

const cli_opt_choices cli_dcfg_convert_choices[] = {
    {"to", convert_targets}, {"positions", callgrind_positions}, {NULL, NULL}};
