/* tracekit paths: Ball–Larus paths of CSI metadata: list them, decode one id,
 * or decode runtime path-tracing states into the block sequences they encode. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csi.h"

const cli_opt cli_csi_paths_opts[] = {
    {"function", 0, "NAME", "only functions called NAME (NAME#K: the K-th one of that name)"},
    {"list", 0, NULL, "list every acyclic path: id, blocks, start, end, source lines"},
    {"top", 'n', "N",
     "--list: at most N paths per function (default " CLI_CSI_PATHS_S "); --profile: at most N "
     "per routine (default " CLI_ROWS_TEXT_S "); 0: all"},
    {"all", 0, NULL, "--list, --profile: every path"},
    {"format", 0, "FMT",
     "--list: text (default) or json (per function: its label, its paths' "
     "count, the paths listed with their blocks, start, end and lines)"},
    {"decode", 0, "ID", "regenerate path ID"},
    {"state", 0, "FILE",
     "decode the runtime states in FILE (key=value sections or "
     "csi-grissom local.data frames)"},
    {"profile", 0, "TRACE",
     "META is a DCFG: count the Ball-Larus paths of every routine over "
     "the DCFG-Trace TRACE (ids as in 'convert --to csi' of the DCFG)"},
    CLI_OUTPUT_OPTS,
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

void cli_csi_paths_help(FILE *f)
{
    fputs("Regenerates Ball-Larus paths from CSI path-tracing metadata (.debug_PT text, or\n"
          "an executable/object holding it). Path IDs are per function.\n"
          "  --decode ID   prints 'FUNCTION ID: BLOCK BLOCK ...', then how the path starts\n"
          "                (ENTRY, or after a back edge) and ends (EXIT, or by a back edge),\n"
          "                and its source lines.\n"
          "  --state FILE  decodes each runtime state: the completed paths (oldest first),\n"
          "                the readings of the unfinished current path (several = ambiguous),\n"
          "                and the block sequence they encode.\n"
          "  --profile TRACE  META is a DCFG; counts every routine's Ball-Larus paths over\n"
          "                the whole DCFG-Trace (a path profile of an SDE run).\n",
          f);
}

/* ---- --state ------------------------------------------------------------------ */

static void print_seq(FILE *out, const tk_csi_function *fn, const uint32_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) fprintf(out, "%s%" PRIu64, i ? " " : "", fn->blocks[a[i]].id);
}

/* Decode one state against one function; returns 0 ok, 1 bad input. */
static int decode_state(FILE *out, const tk_csi_function *fn, const char *label,
                        tk_csi_numbering *num, const tk_csi_state *s, const char *meta)
{
    fprintf(out, "%s: function %s\n", s->label, label);
    tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL, NULL);
    if (ls != TK_OK) {
        fprintf(out, "  error: the numbering of %s is %s (see 'tracekit check %s')\n", label,
                ls == TK_ERR_LIMIT ? "overflowing" : "invalid", meta);
        return 1;
    }
    tk_csi_decoded d;
    tk_error err;
    tk_error_clear(&err);
    if (tk_csi_state_decode(fn, num, s, &d, &err) != TK_OK) {
        fprintf(out, "  error: %s\n", err.message);
        return 1;
    }
    int bad = 0;
    fprintf(out, "  completed paths (oldest first): %zu\n", d.nids);
    for (size_t i = 0; i < d.nids; i++) {
        fprintf(out, "    path %" PRIu64 ": ", d.ids[i]);
        if (!d.path_ok[i]) {
            fputs("(does not decode)\n", out);
            continue;
        }
        cli_csi_print_blocks(out, fn, d.paths[i].nodes, d.paths[i].len);
        fputs("  [", out);
        cli_csi_print_start(out, fn, &d.paths[i]);
        fputs(" .. ", out);
        cli_csi_print_end(out, fn, &d.paths[i]);
        fputs("]\n", out);
    }
    if (s->has_block || s->has_line) {
        fputs("  current path:", out);
        if (s->has_cur) fprintf(out, " sum %" PRId64, s->cur);
        if (s->has_block) fprintf(out, " at block %" PRIu64, s->block);
        if (s->has_line) fprintf(out, " at line %" PRId64, s->line);
        fprintf(out, ": %zu reading%s%s\n", d.nreadings, d.nreadings == 1 ? "" : "s",
                d.nreadings > 1 ? " (ambiguous)" : "");
        for (size_t k = 0; k < d.nreadings; k++) {
            const tk_csi_reading *r = &d.readings[k];
            fprintf(out, "    reading %zu: ", k + 1);
            if (r->after_write) {
                fprintf(out,
                        "the newest completed path was already written; the program point is "
                        "in its block %" PRIu64 "\n",
                        fn->blocks[r->at_block].id);
                continue;
            }
            print_seq(out, fn, r->blocks, r->nblocks);
            if (r->start_edge == TK_BL_NONE)
                fputs("  [ENTRY .. before the path write]\n", out);
            else
                fprintf(out,
                        "  [after back edge %" PRIu64 "~>%" PRIu64 " .. before the path write]\n",
                        fn->blocks[fn->edges[r->start_edge].src].id,
                        fn->blocks[fn->edges[r->start_edge].dst].id);
        }
        if (d.readings_truncated)
            fputs("    (more readings not searched: the search limit was reached)\n", out);
    }
    for (size_t k = 0; k < d.nseqs; k++) {
        if (d.nseqs > 1)
            fprintf(out, "  blocks (reading %zu): ", k + 1);
        else
            fputs("  blocks: ", out);
        print_seq(out, fn, d.seqs[k], d.seq_lens[k]);
        fputc('\n', out);
    }
    if (s->has_expected) {
        fprintf(out, "  documented sequence: %s\n", d.matches_expected ? "matches" : "DIFFERS");
        if (!d.matches_expected) bad = 1;
    }
    if (d.notes[0]) {
        for (char *p = d.notes; *p;) {
            char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            fprintf(out, "  note: %.*s\n", (int)len, p);
            p += len + (nl != NULL);
        }
    }
    tk_csi_decoded_free(&d);
    return bad;
}

/* ---- --profile ------------------------------------------------------------------ */

/* The paths of the routines of pr that sel selects, at most limit each (0: all). */
static int print_profile(tk_csi_profile *pr, const char *sel, uint64_t limit)
{
    for (uint32_t i = 0; i < tk_csi_profile_routine_count(pr); i++) {
        tk_csi_numbering *num;
        tk_csi_profile_stats stats;
        const tk_csi_function *fn = tk_csi_profile_routine(pr, i, &num, &stats);
        if (!tk_csi_function_matches(sel, fn, fn->name)) continue;
        if (!stats.completed && !stats.unknown_start && !stats.unfinished) continue;
        printf("routine %s: %" PRIu64 " completed path%s (%" PRIu64 " distinct), %" PRIu64
               " with an unseen start, %" PRIu64 " unfinished%s\n",
               fn->name, stats.completed, cli_s(stats.completed), stats.distinct,
               stats.unknown_start, stats.unfinished,
               num ? "" : " (more paths than 64 bits count: not numbered)");
        size_t n = 0, max = limit && limit < stats.distinct ? (size_t)limit : stats.distinct;
        tk_error err;
        tk_error_clear(&err);
        uint64_t *pairs = malloc((max ? max : 1) * 2 * sizeof *pairs);
        if (!pairs) return cli_usage_error("paths", "out of memory");
        if (tk_csi_profile_paths(pr, i, pairs, max, &n, &err) != TK_OK) {
            free(pairs);
            return cli_error(&err);
        }
        /* the columns, as the other CSI tables name theirs */
        if (n && num) printf("  %10s  %s\n", "count", "id: blocks  [start .. end]");
        for (size_t k = 0; k < n && num; k++) {
            tk_bl_path *p = tk_csi_numbering_path(num);
            printf("  %10" PRIu64 "  %" PRIu64 ": ", pairs[2 * k + 1], pairs[2 * k]);
            if (tk_bl_decode(tk_csi_numbering_bl(num), pairs[2 * k], p, NULL) != TK_OK) {
                printf("(does not decode)\n");
                continue;
            }
            cli_csi_print_blocks(stdout, fn, p->nodes, p->len);
            fputs("  [", stdout);
            cli_csi_print_start(stdout, fn, p);
            fputs(" .. ", stdout);
            cli_csi_print_end(stdout, fn, p);
            fputs("]\n", stdout);
        }
        if (stats.distinct > n)
            printf("  (%" PRIu64 " more path%s not shown: --all shows them)\n", stats.distinct - n,
                   cli_s(stats.distinct - n));
        free(pairs);
    }
    return CLI_EXIT_OK;
}

static int run_profile(const char *dcfg_path, const char *trace_path, const char *sel,
                       uint64_t limit)
{
    tk_error err;
    tk_error_clear(&err);
    tk_cfg *cfg = NULL;
    tk_dcfg_trace *t = NULL;
    int rc = CLI_EXIT_OK;
    tk_status st = tk_dcfg_read_path(&cfg, dcfg_path, NULL, &err);
    if (st != TK_OK) {
        rc = cli_error(&err);
        goto done;
    }
    if ((st = tk_dcfg_trace_open(&t, trace_path, NULL, &err)) != TK_OK) {
        rc = cli_error(&err);
        if (st == TK_ERR_FORMAT) cli_note_other_format(trace_path, "dcfg-trace");
        goto done;
    }
    printf("path profile of %s over %s\n", trace_path, dcfg_path);
    for (size_t i = 0; i < tk_dcfg_trace_process_count(t) && rc == CLI_EXIT_OK; i++) {
        tk_dcfg_trace_process_info pi;
        tk_dcfg_trace_process(t, i, &pi);
        tk_csi_profile *pr;
        if (tk_csi_profile_read_trace(&pr, cfg, t, pi.pid, &err) != TK_OK) {
            rc = cli_error(&err);
            break;
        }
        uint64_t edges, unknown;
        tk_csi_profile_totals(pr, &edges, &unknown);
        printf("process %" PRIu64 ": %zu thread%s, %" PRIu64 " edge%s (%" PRIu64
               " not in the DCFG)\n",
               pi.pid, pi.nthreads, cli_s(pi.nthreads), edges, cli_s(edges), unknown);
        rc = print_profile(pr, sel, limit);
        tk_csi_profile_free(pr);
    }
done:
    tk_dcfg_trace_free(t);
    tk_cfg_free(cfg);
    return rc;
}

/* ---- --state: the states of a file, each decoded by its function ------------------ */

/* The states read, and each one's output gathered in memory: the functions
 * come in the metadata's order, the states are printed in their file's. */
typedef struct state_run {
    const char *path; /* --state FILE */
    const char *sel; /* --function */
    tk_csi_state *states;
    size_t nstates;
    char **outs;
    size_t *out_lens;
    FILE **streams;
    int *found; /* how many functions decoded each state */
    tk_csi_state_index *ix;
    size_t *hits; /* room for the states of one function */
} state_run;

static void state_run_free(state_run *s)
{
    if (s->streams)
        for (size_t k = 0; k < s->nstates; k++)
            if (s->streams[k]) fclose(s->streams[k]);
    if (s->outs)
        for (size_t k = 0; k < s->nstates; k++) free(s->outs[k]);
    free(s->outs);
    free(s->out_lens);
    free(s->streams);
    free(s->found);
    free(s->hits);
    tk_csi_state_index_free(s->ix);
    tk_csi_states_free(s->states, s->nstates);
}

/* Reads the states of s->path and makes room for their output. Returns an exit code. */
static int state_run_open(state_run *s)
{
    tk_input *sin;
    int rc = cli_open_input(s->path, 0, &sin);
    if (rc != CLI_EXIT_OK) return rc;
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_csi_states_read(sin, &s->states, &s->nstates, &err);
    tk_input_free(sin);
    if (st != TK_OK) return cli_error(&err);
    for (size_t k = 0; k < s->nstates; k++)
        if (!s->states[k].function[0] && !s->sel)
            return cli_usage_error("paths", "%s: %s names no function: give --function NAME",
                                   s->path, s->states[k].label);
    s->outs = calloc(s->nstates, sizeof *s->outs);
    s->out_lens = calloc(s->nstates, sizeof *s->out_lens);
    s->streams = calloc(s->nstates, sizeof *s->streams);
    s->found = calloc(s->nstates, sizeof *s->found);
    s->hits = malloc((s->nstates ? s->nstates : 1) * sizeof *s->hits);
    if (!s->outs || !s->out_lens || !s->streams || !s->found || !s->hits)
        return cli_usage_error("paths", "out of memory");
    if (tk_csi_state_index_open(&s->ix, s->states, s->nstates, s->sel, &err) != TK_OK)
        return cli_error(&err);
    for (size_t k = 0; k < s->nstates; k++) {
        s->streams[k] = open_memstream(&s->outs[k], &s->out_lens[k]);
        if (!s->streams[k]) return cli_usage_error("paths", "out of memory");
    }
    return CLI_EXIT_OK;
}

/* Decodes the states of function fn (labelled label). Returns an exit code. */
static int state_run_function(state_run *s, const tk_csi_function *fn, const char *label,
                              tk_csi_numbering *num, const char *meta)
{
    int rc = CLI_EXIT_OK;
    size_t n = tk_csi_state_index_find(s->ix, fn, label, s->hits);
    for (size_t i = 0; i < n; i++) {
        size_t k = s->hits[i];
        s->found[k]++;
        if (decode_state(s->streams[k], fn, label, num, &s->states[k], meta) != 0)
            rc = CLI_EXIT_BAD_INPUT;
    }
    return rc;
}

/* Prints every state's output in the file's order, and the states no function
 * decoded. Returns an exit code. */
static int state_run_print(state_run *s, const char *meta)
{
    int rc = CLI_EXIT_OK;
    for (size_t k = 0; k < s->nstates; k++) {
        const tk_csi_state *st = &s->states[k];
        fflush(s->streams[k]);
        if (!s->found[k] && st->ordered) {
            /* a stack frame of a function without path tracing */
            printf("%s: function %s: not in %s (not instrumented for path tracing)\n", st->label,
                   st->function, meta);
        } else if (!s->found[k]) {
            fprintf(stderr, "tracekit: %s: %s: no function %s in %s\n", s->path, st->label,
                    st->function[0] ? st->function : s->sel, meta);
            rc = CLI_EXIT_BAD_INPUT;
        }
        fwrite(s->outs[k], 1, s->out_lens[k], stdout);
    }
    return rc;
}

/* ---- --list and --decode ----------------------------------------------------------- */

/* Path id of function fn (with total paths), or why it has none. Returns an exit code. */
static int decode_path(const cli_csi_source *src, const tk_csi_function *fn, const char *label,
                       const tk_bl *bl, uint64_t id, uint64_t total, tk_bl_path *p)
{
    if (id >= total) {
        fprintf(stderr, "tracekit: %s: function %s has paths 0..%" PRIu64 ", not %" PRIu64 "\n",
                src->text.name, label, total - 1, id);
        return CLI_EXIT_BAD_INPUT;
    }
    if (tk_bl_decode(bl, id, p, NULL) != TK_OK) {
        fprintf(stderr, "tracekit: %s: function %s: path %" PRIu64 " does not decode\n",
                src->text.name, label, id);
        return CLI_EXIT_BAD_INPUT;
    }
    cli_csi_print_path(stdout, fn, label, id, p);
    return CLI_EXIT_OK;
}

/* What one of the csi printers writes, as a JSON string. */
typedef void (*path_printer)(FILE *out, const tk_csi_function *fn, const tk_bl_path *p);

static void put_printed(const tk_csi_function *fn, const tk_bl_path *p, path_printer print)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m) {
        print(m, fn, p);
        fclose(m);
    }
    cli_put_json_string(stdout, buf ? buf : "");
    free(buf);
}

static void print_lines(FILE *out, const tk_csi_function *fn, const tk_bl_path *p)
{
    cli_csi_print_lines(out, fn, p->nodes, p->len);
}

/* Path id of fn as JSON: {"id", "blocks" (as the text lists them: EXIT left out), "start",
 * "end", "lines"} (the text's words). */
static void path_json(const tk_csi_function *fn, uint64_t id, const tk_bl_path *p)
{
    printf("{\"id\": %" PRIu64 ", \"blocks\": [", id);
    int first = 1;
    for (size_t i = 0; i < p->len; i++) {
        if (p->nodes[i] == fn->exit) continue;
        printf("%s%" PRIu64, first ? "" : ", ", fn->blocks[p->nodes[i]].id);
        first = 0;
    }
    fputs("], \"start\": ", stdout);
    put_printed(fn, p, cli_csi_print_start);
    fputs(", \"end\": ", stdout);
    put_printed(fn, p, cli_csi_print_end);
    fputs(", \"lines\": ", stdout);
    put_printed(fn, p, print_lines);
    fputc('}', stdout);
}

/* The first `limit` paths of fn (0: all) as JSON: {"function", "paths", "more", "list"}.
 * Returns an exit code. */
static int list_paths_json(const cli_csi_source *src, const tk_csi_function *fn, const char *label,
                           const tk_bl *bl, uint64_t limit, uint64_t total, tk_bl_path *p)
{
    int rc = CLI_EXIT_OK;
    uint64_t n = limit == 0 || limit > total ? total : limit;
    fputs("{\"function\": ", stdout);
    cli_put_json_string(stdout, label);
    printf(", \"paths\": %" PRIu64 ", \"more\": %" PRIu64 ", \"list\": [", total, total - n);
    for (uint64_t k = 0; k < n; k++) {
        if (tk_bl_decode(bl, k, p, NULL) != TK_OK) {
            fprintf(stderr, "tracekit: %s: function %s: path %" PRIu64 " does not decode\n",
                    src->text.name, label, k);
            rc = CLI_EXIT_BAD_INPUT;
            continue;
        }
        fputs(k ? ",\n  " : "\n  ", stdout);
        path_json(fn, k, p);
    }
    fputs("]}", stdout);
    return rc;
}

/* The first `limit` paths of fn (0: all). Returns an exit code. */
static int list_paths(const cli_csi_source *src, const tk_csi_function *fn, const char *label,
                      const tk_bl *bl, uint64_t limit, uint64_t total, tk_bl_path *p)
{
    int rc = CLI_EXIT_OK;
    uint64_t n = limit == 0 || limit > total ? total : limit;
    for (uint64_t k = 0; k < n; k++) {
        if (tk_bl_decode(bl, k, p, NULL) != TK_OK) {
            fprintf(stderr, "tracekit: %s: function %s: path %" PRIu64 " does not decode\n",
                    src->text.name, label, k);
            rc = CLI_EXIT_BAD_INPUT;
            continue;
        }
        cli_csi_print_path(stdout, fn, label, k, p);
    }
    if (n < total)
        printf("%s: %" PRIu64 " more path%s not shown (--all shows them)\n", label, total - n,
               cli_s(total - n));
    return rc;
}

/* What paths asks of each function: --decode ID, or --list (at most limit each; json: as a
 * JSON array, listed counts the functions written). */
typedef struct path_request {
    int decode;
    uint64_t id, limit;
    int json;
    uint64_t listed;
} path_request;

/* --list or --decode for function fn. Returns an exit code. */
static int paths_function(const cli_csi_source *src, const tk_csi_function *fn, const char *label,
                          tk_csi_numbering *num, path_request *req)
{
    tk_status ls = tk_csi_numbering_load(num, fn, NULL, NULL, NULL);
    const tk_bl *bl = tk_csi_numbering_bl(num);
    uint64_t total = tk_bl_total(bl);
    if (ls != TK_OK || total == 0) {
        fprintf(stderr, "tracekit: %s: function %s: %s (see 'tracekit check')\n", src->text.name,
                label, ls == TK_ERR_LIMIT ? "path count overflow" : "invalid numbering");
        return CLI_EXIT_BAD_INPUT;
    }
    tk_bl_path *p = tk_csi_numbering_path(num);
    if (req->decode) return decode_path(src, fn, label, bl, req->id, total, p);
    if (req->json) {
        fputs(req->listed++ ? ",\n" : "\n", stdout);
        return list_paths_json(src, fn, label, bl, req->limit, total, p);
    }
    return list_paths(src, fn, label, bl, req->limit, total, p);
}

/* ---- main ---------------------------------------------------------------------- */

/* Every function of META: its states (with states) or its paths. Returns an exit code. */
static int walk(const char *meta, const char *sel, path_request *req, state_run *states,
                tk_csi_numbering *num)
{
    tk_input *in = NULL;
    int rc = cli_open_input(meta, 0, &in);
    cli_csi_source src;
    if (rc == CLI_EXIT_OK && (rc = cli_csi_source_open(&src, in, meta)) != CLI_EXIT_OK) {
        tk_input_free(in);
        return rc;
    }
    if (rc != CLI_EXIT_OK) return rc;
    const tk_csi_function *fn;
    char label[CLI_CSI_LABEL_MAX];
    tk_error err;
    tk_error_clear(&err);
    tk_status st;
    int matched_any = 0;
    while ((st = cli_csi_source_next(&src, &fn, label, sizeof label, &err)) == TK_OK) {
        int r = CLI_EXIT_OK;
        if (states) {
            r = state_run_function(states, fn, label, num, meta);
        } else if (tk_csi_function_matches(sel, fn, label)) {
            matched_any = 1;
            r = paths_function(&src, fn, label, num, req);
        }
        if (r != CLI_EXIT_OK) rc = r;
    }
    if (st != TK_END) {
        rc = cli_error(&err);
    } else if (states) {
        int r = state_run_print(states, meta);
        if (r != CLI_EXIT_OK) rc = r;
    } else if (!matched_any && sel) {
        fprintf(stderr, "tracekit: %s: no function %s\n", meta, sel);
        rc = CLI_EXIT_BAD_INPUT;
    }
    cli_csi_source_close(&src);
    tk_input_free(in);
    return rc;
}

int cli_csi_paths(int argc, char **argv)
{
    cli_args args;
    int rc;
    if (!cli_parse_command("paths", argc, argv, cli_csi_paths_opts, 1, "expected one metadata FILE",
                           &args, &rc))
        return rc;
    tk_csi_numbering *num = NULL;
    state_run states;
    memset(&states, 0, sizeof states);
    int modes = cli_has(&args, "list") + cli_has(&args, "decode") + cli_has(&args, "state") +
                cli_has(&args, "profile");
    path_request req = {cli_has(&args, "decode"), 0, 0, 0, 0};
    int fmt = cli_get_choice("paths", &args, "format", cli_out_text_json, CLI_OUT_TEXT);
    req.json = fmt == CLI_OUT_JSON;
    const char *sel = cli_get(&args, "function");
    const char *meta = args.pos[0];
    if (modes != 1) {
        rc = cli_usage_error("paths", "give exactly one of --list, --decode ID, --state FILE, "
                                      "--profile TRACE");
    } else if (fmt < 0) {
        rc = CLI_EXIT_USAGE;
    } else if (cli_has(&args, "all") && !cli_has(&args, "list") && !cli_has(&args, "profile")) {
        rc = cli_usage_error("paths", "--all lists every path of --list or --profile (not of %s)",
                             cli_has(&args, "decode") ? "--decode" : "--state");
    } else if (req.json && !cli_has(&args, "list")) {
        rc = cli_usage_error("paths", "--format json lists paths: give --list");
    } else if (cli_csi_get_paths("paths", &args,
                                 cli_has(&args, "profile") ? CLI_ROWS_TEXT : CLI_CSI_PATHS,
                                 &req.limit) != 0 ||
               cli_get_u64("paths", &args, "decode", 0, &req.id) != 0) {
        rc = CLI_EXIT_USAGE;
    } else if (cli_has(&args, "profile")) {
        rc = run_profile(meta, cli_get(&args, "profile"), sel, req.limit);
    } else if (tk_csi_numbering_open(&num, NULL) != TK_OK) {
        rc = cli_usage_error("paths", "out of memory");
    } else {
        states.path = cli_get(&args, "state");
        states.sel = sel;
        rc = states.path ? state_run_open(&states) : CLI_EXIT_OK;
        if (req.json) fputc('[', stdout);
        if (rc == CLI_EXIT_OK) rc = walk(meta, sel, &req, states.path ? &states : NULL, num);
        if (req.json) fputs("]\n", stdout);
    }
    state_run_free(&states);
    tk_csi_numbering_free(num);
    cli_args_free(&args);
    return rc;
}

int cli_csi_print_state(FILE *out, const tk_csi_function *fn, const char *label,
                        tk_csi_numbering *num, const tk_csi_state *s, const char *meta)
{
    return decode_state(out, fn, label, num, s, meta);
}

const cli_opt_choices cli_csi_paths_choices[] = {{"format", cli_out_text_json}, {NULL, NULL}};
