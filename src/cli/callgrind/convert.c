/* tracekit convert for callgrind profiles: callgrind, dot, folded stacks, a flame graph (svg)
 * or JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

const cli_opt cli_callgrind_convert_opts[] = {
    {"to", 't', "FMT", "callgrind, dot, folded, svg (a flame graph) or json"},
    {"jobs", 'j', "N", "read N profiles at once (default: the number of CPUs)"},
    CLI_OUTPUT_OPTS,
    {"no-compress", 0, NULL, "callgrind: write full names and absolute positions"},
    {"positions", 0, "POS",
     "callgrind: write these positions only: line (what speedscope "
     "reads: it takes a second column for a cost), instr or instr+line "
     "(default: the input's)"},
    {"node-threshold", 0, "PCT", "dot: drop functions below PCT% inclusive (default 0.5)"},
    {"edge-threshold", 0, "PCT", "dot: drop calls below PCT% (default 0.1)"},
    {"full-names", 0, NULL,
     "dot: names as they are (default: C++ template and parameter "
     "lists dropped, as KCachegrind's Shorten Templates does)"},
    CLI_DOT_ALL_OPT,
    {"event", 0, "EVENT",
     "dot, folded: the event for percentages and colours, or to count"
     " (default: the first)"},
    {"min-share", 0, "PCT",
     "folded: do not unfold call chains below PCT% of the total"
     " (default 0.001)"},
    {"per-thread", 0, NULL, "folded, svg: each part apart, its stacks starting with its thread"},
    CLI_SVG_OPTS,
    {NULL, 0, NULL, NULL},
};

/* convert --to */
enum { TO_CALLGRIND, TO_DOT, TO_JSON, TO_FOLDED, TO_SVG };
static const cli_choice convert_targets[] = {
    {"callgrind", TO_CALLGRIND}, {"dot", TO_DOT}, {"json", TO_JSON},
    {"folded", TO_FOLDED},       {"svg", TO_SVG}, {NULL, 0}};
/* --positions: the TK_POS_* columns written (default 0: each part's own) */
static const cli_choice convert_positions[] = {{"line", TK_POS_LINE},
                                               {"instr", TK_POS_INSTR},
                                               {"instr+line", TK_POS_INSTR | TK_POS_LINE},
                                               {NULL, 0}};

/* What the options ask of each target. */
typedef struct convert_opts {
    int to;
    tk_dot_options dot;
    tk_folded_profile_options folded;
    tk_callgrind_write_options write;
} convert_opts;

static void json_pos(FILE *f, const tk_prof_pos *pos)
{
    fprintf(f, "\"line\":%" PRIu64 ",\"addr\":%" PRIu64 ",\"bb\":%" PRIu64, pos->line, pos->addr,
            pos->bb);
}

/* The whole model as JSON (names inline, rows in storage order). */
static void write_json(const tk_profile *p, FILE *f)
{
    size_t nev = tk_profile_event_count(p);
    fputs("{\"version\":1,\"format\":\"tracekit-profile\",\"events\":", f);
    cli_callgrind_json_events(f, p);
    fputs(",\n\"functions\":[", f);
    for (size_t i = 0; i < tk_profile_function_count(p); i++) {
        tk_prof_function_info fi, *fn = &fi;
        tk_profile_function_get(p, (uint32_t)i, &fi);
        fputs(i ? ",\n{\"object\":" : "\n{\"object\":", f);
        cli_put_json_string(f, tk_profile_str(p, fn->object));
        fputs(",\"file\":", f);
        cli_put_json_string(f, tk_profile_str(p, fn->file));
        fputs(",\"name\":", f);
        cli_put_json_string(f, tk_profile_str(p, fn->name));
        fputc('}', f);
    }
    fputs("],\n\"parts\":[", f);
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        const tk_prof_part *part = tk_profile_part(p, i);
        tk_prof_part_info info, *pt = &info;
        tk_prof_part_get(part, &info);
        fputs(i ? ",\n{" : "\n{", f);
        if (pt->has_thread) fprintf(f, "\"thread\":%" PRIu64 ",", pt->thread);
        if (pt->has_pid) fprintf(f, "\"pid\":%" PRIu64 ",", pt->pid);
        if (pt->cmd) {
            fputs("\"cmd\":", f);
            cli_put_json_string(f, pt->cmd);
            fputc(',', f);
        }
        fputs("\"self\":[", f);
        tk_prof_self self, *sr = &self;
        uint64_t costs[TK_PROFILE_MAX_EVENTS];
        for (size_t r = 0; tk_prof_part_self(part, r, &self, costs); r++) {
            fprintf(f, "%s\n{\"fn\":%" PRIu32 ",\"file\":", r ? "," : "", sr->fn);
            cli_put_json_string(f, tk_profile_str(p, sr->file));
            fputc(',', f);
            json_pos(f, &sr->pos);
            fputs(",\"cost\":", f);
            cli_callgrind_json_u64s(f, costs, nev);
            fputc('}', f);
        }
        fputs("],\"calls\":[", f);
        tk_prof_call call, *cr = &call;
        uint64_t count, inclusive[TK_PROFILE_MAX_EVENTS];
        for (size_t r = 0; tk_prof_part_call(part, r, &call, &count, inclusive); r++) {
            fprintf(
                f, "%s\n{\"fn\":%" PRIu32 ",\"callee\":%" PRIu32 ",\"count\":%" PRIu64 ",\"file\":",
                r ? "," : "", cr->fn, cr->callee, count);
            cli_put_json_string(f, tk_profile_str(p, cr->file));
            fputc(',', f);
            json_pos(f, &cr->pos);
            fputs(",\"inclusive\":", f);
            cli_callgrind_json_u64s(f, inclusive, nev);
            fputc('}', f);
        }
        fputs("],\"jumps\":[", f);
        tk_prof_jump jump, *jr = &jump;
        uint64_t executed, followed;
        for (size_t r = 0; tk_prof_part_jump(part, r, &jump, &executed, &followed); r++) {
            fprintf(f,
                    "%s\n{\"fn\":%" PRIu32 ",\"target_fn\":%" PRIu32 ",\"conditional\":%s,"
                    "\"executed\":%" PRIu64 ",\"followed\":%" PRIu64 ",",
                    r ? "," : "", jr->fn, jr->target_fn, jr->conditional ? "true" : "false",
                    executed, followed);
            json_pos(f, &jr->pos);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
}

/* The options of the targets (the event is the profile's: set once it is read). Returns an
 * exit code. */
static int parse_options(const char *cmd, const cli_args *args, convert_opts *c)
{
    c->to = cli_get_choice(cmd, args, "to", convert_targets, -1);
    if (c->to < 0) {
        if (!cli_get(args, "to"))
            return cli_usage_error(cmd, "missing --to FMT (callgrind, dot, folded or json)");
        return CLI_EXIT_USAGE;
    }
    c->folded = (tk_folded_profile_options)TK_FOLDED_PROFILE_OPTIONS_INIT;
    double min_share; /* percent */
    if (cli_dot_options(cmd, args, c->to == TO_DOT, &c->dot) != CLI_EXIT_OK ||
        cli_get_double(cmd, args, "min-share", 0, &min_share))
        return CLI_EXIT_USAGE;
    if (!(min_share >= 0 && min_share <= 100))
        return cli_usage_error(cmd, "--min-share must be a percentage (0..100)");
    /* 0: the library's default; given as 0: every chain unfolded */
    c->folded.min_share = cli_get(args, "min-share") && min_share == 0 ? -1 : min_share / 100;
    c->folded.per_part = cli_has(args, "per-thread");
    c->write = (tk_callgrind_write_options)TK_CALLGRIND_WRITE_OPTIONS_INIT;
    if (cli_has(args, "no-compress")) c->write.plain_names = c->write.plain_positions = 1;
    int positions = cli_get_choice(cmd, args, "positions", convert_positions, 0);
    if (positions < 0) return CLI_EXIT_USAGE;
    c->write.positions = (unsigned)positions;
    return CLI_EXIT_OK;
}

/* --to svg: the folded stacks of the profile */
typedef struct folded_job {
    const tk_profile *p;
    const tk_folded_profile_options *opt;
} folded_job;

static tk_status folded_of(void *job, FILE *f, tk_error *err)
{
    const folded_job *j = job;
    return tk_profile_write_folded(j->p, j->opt, CLI_WRITER(f), err);
}

/* The profile written as c->to says to o. Returns an exit code. */
static int write_target(const char *cmd, const cli_args *args, const tk_profile *p,
                        const convert_opts *c, tk_output *o)
{
    tk_error err;
    tk_error_clear(&err);
    tk_status st = TK_OK;
    FILE *f = cli_output_file(o);
    if (c->to == TO_CALLGRIND) {
        st = tk_callgrind_write(p, CLI_WRITER(f), &c->write, &err);
    } else if (c->to == TO_DOT) {
        st = tk_profile_write_dot(p, &c->dot, CLI_WRITER(f), &err);
    } else if (c->to == TO_FOLDED) {
        st = tk_profile_write_folded(p, &c->folded, CLI_WRITER(f), &err);
    } else if (c->to == TO_SVG) {
        folded_job job = {p, &c->folded};
        const char *unit =
            tk_profile_event_count(p) ? tk_profile_event_name(p, c->folded.event) : NULL;
        int rc = cli_write_svg(cmd, args, unit, folded_of, &job, f);
        if (rc != CLI_EXIT_OK) {
            cli_output_abort(o);
            return rc;
        }
    } else {
        write_json(p, f);
    }
    if (st != TK_OK) {
        cli_output_abort(o);
        return cli_error(&err);
    }
    return cli_output_commit(o);
}

int cli_callgrind_convert(cli_ctx *ctx, const cli_args *args)
{
    const char *cmd = "convert";
    convert_opts c;
    int rc = parse_options(cmd, args, &c);
    if (rc != CLI_EXIT_OK) return rc;
    unsigned jobs;
    if (cli_get_jobs(cmd, args, &jobs)) return CLI_EXIT_USAGE;
    tk_callgrind_read_options how = TK_CALLGRIND_READ_OPTIONS_INIT;
    if (c.to == TO_DOT || c.to == TO_FOLDED || c.to == TO_SVG) {
        /* call graphs and flame graphs need functions and call arcs only: no
         * positions, cost files or jumps */
        how.detail = TK_CALLGRIND_DETAIL_FUNCTIONS;
        how.skip_jumps = how.drop_files = 1;
    }
    tk_profile *p;
    rc = cli_callgrind_load_jobs(ctx, &how, jobs, NULL, &p);
    if (rc) return rc;
    const char *ev = cli_get(args, "event");
    if (ev) {
        size_t idx;
        if (cli_callgrind_event_list(cmd, "event", p, ev, &idx, 1) != 1) {
            tk_profile_free(p);
            return CLI_EXIT_USAGE;
        }
        c.dot.event = c.folded.event = idx;
    }
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) rc = write_target(cmd, args, p, &c, o);
    tk_profile_free(p);
    return rc;
}

const cli_opt_choices cli_callgrind_convert_choices[] = {
    {"to", convert_targets}, {"positions", convert_positions}, {NULL, NULL}};
