/* tracekit diff for callgrind profiles: per function, or folded stacks for a
 * differential flame graph, or that flame graph (svg). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

const cli_opt cli_callgrind_diff_opts[] = {
    {"sort", 's', "EVENT", "order by the absolute difference of EVENT (default: the first)"},
    CLI_TOP_OPT("functions"),
    CLI_ALL_OPT("functions"),
    {"format", 0, "FMT",
     "text (default), json, csv, folded (difffolded.pl's \"stack A B\" lines "
     "for a differential flame graph) or svg (that flame graph: red grew, "
     "blue shrank)"},
    {"mod-filename", 0, "EXPR",
     "rewrite every object and file name of both profiles with EXPR, a substitution "
     "s/REGEX/TEXT/ (flags g, i; REGEX a POSIX extended regex; \\1 or $1 in TEXT its "
     "groups) before functions are matched (cg_diff's --mod-filename; repeatable: in order)"},
    {"mod-funcname", 0, "EXPR", "the same for function names (cg_diff's --mod-funcname)"},
    {"match", 0, "KEY",
     "pair a function of B with A's of other paths by KEY: basename (the last component of "
     "object and file, and the name) or name (the name alone); path (default): by object, "
     "file and name; a key two functions of A or of B have pairs neither"},
    CLI_VS_OPT("each the profile 'tracekit merge' makes of it"),
    {"jobs", 'j', "N", "with --vs: read N profiles at once (default: the number of CPUs)"},
    CLI_OUTPUT_OPTS,
    CLI_SVG_OPTS,
    {NULL, 0, NULL, NULL},
};

/* diff --match */
static const cli_choice diff_match_keys[] = {{"path", TK_PROF_MATCH_PATH},
                                             {"basename", TK_PROF_MATCH_BASENAME},
                                             {"name", TK_PROF_MATCH_NAME},
                                             {NULL, 0}};

/* diff --format */
static const cli_choice diff_formats[] = {{"text", CLI_OUT_TEXT}, {"json", CLI_OUT_JSON},
                                          {"csv", CLI_OUT_CSV},   {"folded", CLI_OUT_FOLDED},
                                          {"svg", CLI_OUT_SVG},   {NULL, 0}};

/* diff --format folded: both profiles' folded stacks for event ev, merged into
 * lines "stack COUNT_A COUNT_B" in order of first appearance: what
 * difffolded.pl writes and flamegraph.pl draws as a differential flame graph. */
static tk_status diff_folded(const tk_profile *both, size_t ev, FILE *f, tk_error *err)
{
    tk_prof_folded_diff *d;
    tk_status st = tk_prof_folded_diff_open(&d, both, ev, err);
    if (st != TK_OK) return st;
    for (size_t i = 0; i < tk_prof_folded_diff_count(d); i++) {
        const tk_prof_folded_diff_row *r = tk_prof_folded_diff_row_at(d, i);
        out_write(r->stack, r->len, f);
        fprintf(f, " %" PRIu64 " %" PRIu64 "\n", r->count[0], r->count[1]);
    }
    tk_prof_folded_diff_free(d);
    return TK_OK;
}

/* diff --format svg: those lines drawn as a differential flame graph */
typedef struct folded_job {
    const tk_profile *both;
    size_t ev;
} folded_job;

static tk_status diff_folded_of(void *job, FILE *f, tk_error *err)
{
    const folded_job *j = job;
    return diff_folded(j->both, j->ev, f, err);
}

/* Input in (named path) read per function into one, as diff reads a file. Returns an exit
 * code. */
static int read_one(tk_input *in, const char *path, tk_profile *one)
{
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.path = path;
    o.detail = TK_CALLGRIND_DETAIL_FUNCTIONS;
    o.skip_jumps = 1;
    tk_diag nd;
    cli_callgrind_notes_sink(&nd, NULL);
    o.notes = &nd;
    tk_error err;
    tk_error_clear(&err);
    return tk_callgrind_read_input(one, in, &o, &err) == TK_OK ? CLI_EXIT_OK : cli_error(&err);
}

/* diff A... --vs B...: side (0 or 1) of several profiles merged as tracekit merge merges
 * them (cli_callgrind_merged, -j threads), its text written to memory and read back into
 * one as read_one reads the file merge writes: the diff of merge's two files, byte for
 * byte. Returns an exit code. */
static int read_set(cli_ctx *ctx, int side, unsigned jobs, tk_profile *one)
{
    cli_ctx set = cli_diff_side(ctx, side);
    tk_profile_merge_options mo = TK_PROFILE_MERGE_OPTIONS_INIT;
    mo.desc = "Trigger: tracekit merge";
    tk_profile *merged;
    int rc = cli_callgrind_merged(&set, &mo, jobs, &merged);
    if (rc != CLI_EXIT_OK) return rc;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tk_error err;
    tk_error_clear(&err);
    tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    tk_status st = f ? tk_callgrind_write(merged, CLI_WRITER(f), &wo, &err)
                     : tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    if (f && fclose(f) != 0 && st == TK_OK) st = tk_error_set(&err, TK_ERR_NOMEM, "out of memory");
    tk_profile_free(merged);
    tk_input *in = NULL;
    if (st == TK_OK) st = tk_input_open_memory(&in, text, len, set.paths[0], NULL, &err);
    rc = st == TK_OK ? read_one(in, set.paths[0], one) : cli_error(&err);
    tk_input_free(in);
    free(text);
    return rc;
}

/* Both inputs read, per function, as parts 1 and 2 of one profile: they share
 * one string table, so function ids are comparable; their functions rewritten and matched
 * as m says. Of two sets (ctx->nfirst), each side the merge of its set. */
static int load_both(cli_ctx *ctx, tk_prof_match *m, unsigned jobs, tk_profile **out)
{
    const char *cmd = "diff";
    tk_profile *both;
    if (tk_profile_open(&both, NULL) != TK_OK) return cli_usage_error(cmd, "out of memory");
    int rc = CLI_EXIT_OK, sets = ctx->nfirst && ctx->ninputs > 2;
    for (int i = 0; i < 2 && rc == CLI_EXIT_OK; i++) {
        tk_profile *one;
        if (tk_profile_open(&one, NULL) != TK_OK) {
            rc = cli_usage_error(cmd, "out of memory");
            break;
        }
        tk_error err;
        tk_error_clear(&err);
        rc = sets ? read_set(ctx, i, jobs, one) : read_one(ctx->inputs[i], ctx->paths[i], one);
        if (rc != CLI_EXIT_OK) {
            tk_profile_free(one);
            break;
        }
        /* merge into one part of `both`, so names intern into one table */
        if (tk_prof_diff_add(both, one, m, &err) != TK_OK) rc = cli_error(&err);
        tk_profile_free(one);
    }
    if (rc) {
        tk_profile_free(both);
        return rc;
    }
    *out = both;
    return CLI_EXIT_OK;
}

/* The per-function difference (tk_prof_diff_open). Returns an exit code. */
static int diff_functions(const tk_profile *both, size_t ev, tk_prof_diff **d)
{
    tk_error err;
    tk_error_clear(&err);
    if (tk_prof_diff_open(d, both, ev, &err) != TK_OK) return cli_error(&err);
    return CLI_EXIT_OK;
}

static void print_json(FILE *f, const tk_profile *both, const tk_prof_diff *d, size_t k)
{
    size_t nev = tk_profile_event_count(both);
    fputs("{\"version\":1,\"format\":\"callgrind-diff\",\"events\":", f);
    cli_callgrind_json_events(f, both);
    fputs(",\"totals_a\":", f);
    cli_callgrind_json_u64s(f, tk_prof_diff_totals(d, 0), nev);
    fputs(",\"totals_b\":", f);
    cli_callgrind_json_u64s(f, tk_prof_diff_totals(d, 1), nev);
    fputs(",\"functions\":[", f);
    for (size_t i = 0; i < k; i++) {
        const tk_prof_diff_row *r = tk_prof_diff_row_at(d, i);
        fputs(i ? ",\n{\"object\":" : "\n{\"object\":", f);
        cli_put_json_string(f, r->object);
        fputs(",\"file\":", f);
        cli_put_json_string(f, r->file);
        fputs(",\"name\":", f);
        cli_put_json_string(f, r->name);
        fputs(",\"self_a\":", f);
        cli_callgrind_json_u64s(f, r->self[0], nev);
        fputs(",\"self_b\":", f);
        cli_callgrind_json_u64s(f, r->self[1], nev);
        fputs(",\"inclusive_a\":", f);
        cli_callgrind_json_u64s(f, r->inclusive[0], nev);
        fputs(",\"inclusive_b\":", f);
        cli_callgrind_json_u64s(f, r->inclusive[1], nev);
        fputc('}', f);
    }
    fputs("\n]}\n", f);
}

/* CSV: a row per function, the columns of the JSON rows with an event's in each column
 * (self_a_Ir, self_b_Ir, ..., inclusive_a_Ir, ...: as report --format csv names them). */
static void print_csv(FILE *f, const tk_profile *both, const tk_prof_diff *d, size_t k)
{
    size_t nev = tk_profile_event_count(both);
    static const char *const cols[] = {"self_a", "self_b", "inclusive_a", "inclusive_b"};
    fputs("object,file,name", f);
    for (int c = 0; c < 4; c++)
        for (size_t e = 0; e < nev; e++)
            fprintf(f, ",%s_%s", cols[c], tk_profile_event_name(both, e));
    fputc('\n', f);
    for (size_t i = 0; i < k; i++) {
        const tk_prof_diff_row *r = tk_prof_diff_row_at(d, i);
        cli_put_csv_field(f, r->object);
        fputc(',', f);
        cli_put_csv_field(f, r->file);
        fputc(',', f);
        cli_put_csv_field(f, r->name);
        const uint64_t *v[4] = {r->self[0], r->self[1], r->inclusive[0], r->inclusive[1]};
        for (int c = 0; c < 4; c++)
            for (size_t e = 0; e < nev; e++) fprintf(f, ",%" PRIu64, v[c][e]);
        fputc('\n', f);
    }
}

/* The change relative to A: " +12.3%", "new" where A has none. */
static void put_relative(FILE *f, uint64_t a, uint64_t b)
{
    if (!a) {
        fprintf(f, " %9s", b ? "new" : "");
        return;
    }
    double r = 100.0 * ((double)b - (double)a) / (double)a;
    char buf[32];
    snprintf(buf, sizeof buf, "%+.1f%%", r);
    fprintf(f, " %9s", buf);
}

/* How the functions were matched, when not by their paths as they are. */
static void print_match(FILE *f, const cli_args *args, const tk_prof_match *m)
{
    const char *key = cli_get(args, "match");
    int subs = cli_has(args, "mod-filename") || cli_has(args, "mod-funcname");
    if ((!key || !strcmp(key, "path")) && !subs) return;
    tk_prof_match_info mi;
    tk_prof_match_get(m, &mi);
    fputs("matched:", f);
    if (subs)
        fprintf(f, " %zu function%s renamed by the substitutions%s", mi.renamed,
                mi.renamed == 1 ? "" : "s", key && strcmp(key, "path") ? ";" : "");
    if (key && strcmp(key, "path"))
        fprintf(f,
                " by %s, %zu function%s of B paired with A's of other paths, %zu left apart "
                "(a %s that several functions have)",
                key, mi.paired, mi.paired == 1 ? "" : "s", mi.ambiguous, key);
    fputc('\n', f);
}

static void print_text(FILE *f, const tk_profile *both, const tk_prof_diff *d, size_t k, size_t ev,
                       const cli_args *args, const tk_prof_match *m)
{
    size_t nev = tk_profile_event_count(both);
    const char *en = nev ? tk_profile_event_name(both, ev) : "";
    fprintf(f, "event: %s\ntotals: ", en);
    cli_callgrind_put_commas(f, nev ? tk_prof_diff_totals(d, 0)[ev] : 0);
    fputs(" -> ", f);
    cli_callgrind_put_commas(f, nev ? tk_prof_diff_totals(d, 1)[ev] : 0);
    if (nev) put_relative(f, tk_prof_diff_totals(d, 0)[ev], tk_prof_diff_totals(d, 1)[ev]);
    fputc('\n', f);
    print_match(f, args, m);
    fputc('\n', f);
    fprintf(f, "%16s %16s %17s %9s  function\n", "A self", "B self", "B - A", "change");
    for (size_t i = 0; i < k; i++) {
        const tk_prof_diff_row *r = tk_prof_diff_row_at(d, i);
        uint64_t a = nev ? r->self[0][ev] : 0, b = nev ? r->self[1][ev] : 0;
        cli_callgrind_put_padded(f, a, 16);
        fputc(' ', f);
        cli_callgrind_put_padded(f, b, 16);
        fputc(' ', f);
        fputc(b >= a ? '+' : '-', f);
        cli_callgrind_put_padded(f, b >= a ? b - a : a - b, 16);
        put_relative(f, a, b);
        fprintf(f, "  %s [%s] %s\n", r->name, r->object, r->file);
    }
}

/* Writes the difference as fmt says to the output of -o. */
static int write_diff(const cli_args *args, const tk_profile *both, const tk_prof_match *m, int fmt,
                      size_t ev, uint64_t top)
{
    tk_prof_diff *d = NULL;
    int stacks = fmt == CLI_OUT_FOLDED || fmt == CLI_OUT_SVG;
    int rc = stacks ? CLI_EXIT_OK : diff_functions(both, ev, &d);
    tk_output *o;
    if (rc == CLI_EXIT_OK) rc = cli_output_open(args, 0, &o);
    if (rc != CLI_EXIT_OK) {
        tk_prof_diff_free(d);
        return rc;
    }
    FILE *f = cli_output_file(o);
    size_t count = d ? tk_prof_diff_count(d) : 0;
    size_t k = top && top < count ? (size_t)top : count;
    tk_error err;
    tk_error_clear(&err);
    folded_job job = {both, ev};
    size_t nev = tk_profile_event_count(both);
    const char *unit = nev ? tk_profile_event_name(both, ev) : NULL;
    if (fmt == CLI_OUT_FOLDED)
        rc = diff_folded(both, ev, f, &err) == TK_OK ? CLI_EXIT_OK : cli_error(&err);
    else if (fmt == CLI_OUT_SVG)
        rc = cli_write_svg("diff", args, unit, diff_folded_of, &job, f);
    else if (fmt == CLI_OUT_JSON)
        print_json(f, both, d, k);
    else if (fmt == CLI_OUT_CSV)
        print_csv(f, both, d, k);
    else
        print_text(f, both, d, k, ev, args, m);
    if (fmt == CLI_OUT_TEXT) cli_rows_note(f, k, count, "function");
    if (rc == CLI_EXIT_OK)
        rc = cli_output_commit(o);
    else
        cli_output_abort(o);
    tk_prof_diff_free(d);
    return rc;
}

int cli_callgrind_diff(cli_ctx *ctx, const cli_args *args)
{
    const char *cmd = "diff";
    if (ctx->ninputs != 2 && !ctx->nfirst)
        return cli_usage_error(cmd, "expected exactly two files (or FILES... --vs FILES...)");
    unsigned jobs = 1;
    if (cli_get_jobs(cmd, args, &jobs)) return CLI_EXIT_USAGE;
    int fmt = cli_get_choice(cmd, args, "format", diff_formats, CLI_OUT_TEXT);
    cli_rows rows;
    if (fmt < 0 || cli_get_rows(cmd, args, fmt == CLI_OUT_TEXT, &rows)) return CLI_EXIT_USAGE;
    /* the substitutions and the key, compiled before anything is read */
    enum { MAX_SUBS = 16 };
    tk_prof_match_options mo = TK_PROF_MATCH_OPTIONS_INIT;
    const char *mod_filename[MAX_SUBS], *mod_funcname[MAX_SUBS];
    int key = cli_get_choice(cmd, args, "match", diff_match_keys, TK_PROF_MATCH_PATH);
    if (key < 0) return CLI_EXIT_USAGE;
    mo.key = (tk_prof_match_key)key;
    int nfile = cli_get_all(args, "mod-filename", mod_filename, MAX_SUBS);
    int nfunc = cli_get_all(args, "mod-funcname", mod_funcname, MAX_SUBS);
    if (nfile >= MAX_SUBS || nfunc >= MAX_SUBS)
        return cli_usage_error(cmd, "at most %d --mod-filename and %d --mod-funcname", MAX_SUBS - 1,
                               MAX_SUBS - 1);
    mo.mod_filename = mod_filename;
    mo.n_mod_filename = (size_t)nfile;
    mo.mod_funcname = mod_funcname;
    mo.n_mod_funcname = (size_t)nfunc;
    tk_prof_match *m;
    tk_error err;
    tk_error_clear(&err);
    if (tk_prof_match_open(&m, &mo, &err) != TK_OK)
        return err.code == TK_ERR_ARG ? cli_usage_error(cmd, "%s", err.message) : cli_error(&err);
    tk_profile *both = NULL;
    int rc = load_both(ctx, m, jobs, &both);
    if (rc) {
        tk_prof_match_free(m);
        return rc;
    }
    size_t ev = 0;
    const char *sortarg = cli_get(args, "sort");
    if (sortarg && cli_callgrind_event_list(cmd, "sort", both, sortarg, &ev, 1) != 1)
        rc = CLI_EXIT_USAGE;
    else
        rc = write_diff(args, both, m, fmt, ev, rows.top);
    tk_profile_free(both);
    tk_prof_match_free(m);
    return rc;
}

const cli_opt_choices cli_callgrind_diff_choices[] = {
    {"format", diff_formats}, {"match", diff_match_keys}, {NULL, NULL}};
