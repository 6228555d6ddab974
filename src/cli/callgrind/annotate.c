/* tracekit annotate for callgrind profiles: per source line self cost and the
 * inclusive cost of the calls made on that line, next to the source text when
 * the file can be found; per instruction address when the profile has them.
 * What is shown and its costs are the library's (tracekit/profile_annotate.h:
 * tk_prof_annotate_open); this file prints them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

static void put_num(FILE *f, uint64_t v, int width)
{
    char buf[32], out[48];
    int n = snprintf(buf, sizeof buf, "%" PRIu64, v), k = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) out[k++] = ',';
        out[k++] = buf[i];
    }
    out[k] = 0;
    fprintf(f, "%*s", width, out);
}

/* Characters of v with thousands separators. */
static int num_width(uint64_t v)
{
    int digits = 1;
    while (v >= 10) {
        v /= 10;
        digits++;
    }
    return digits + (digits - 1) / 3;
}

/* The share of the program total after the first self column: " (12.34%)", blank when
 * the column is. */
#define PCT_WIDTH 10
static void put_pct(FILE *f, uint64_t v, uint64_t total, int show)
{
    if (!show || !total) {
        fprintf(f, "%*s", PCT_WIDTH, "");
        return;
    }
    fprintf(f, " (%6.2f%%)", 100.0 * (double)v / (double)total);
}

/* What annotate was asked for. */
typedef struct settings {
    tk_prof_annotate_options lib;
    const char *dirs[64]; /* --source-dir */
    size_t ev[TK_PROFILE_MAX_EVENTS]; /* the events shown (--show); ev[0] decides the threshold */
    size_t nev;
    double threshold;
} settings;

/* What is printed: the annotation and the width of a cost column. */
typedef struct view {
    const tk_profile *p;
    const settings *o;
    tk_prof_annotation *a;
    tk_prof_annotation_info info;
    int cw;
} view;

/* The cost columns of a line: the self costs (the first with its share of the total; "."
 * for none on a line with a cost line, blank when self is NULL), then the inclusive ones
 * (blank where 0, or where incl is NULL). Columns are cw characters wide: no value exceeds
 * the program total. */
static void put_cost_cols(FILE *f, const view *v, const uint64_t *self, const uint64_t *incl,
                          int any)
{
    const size_t *ev = v->o->ev;
    for (size_t j = 0; j < v->o->nev; j++) {
        uint64_t x = self ? self[ev[j]] : 0;
        if (x)
            put_num(f, x, v->cw);
        else
            fprintf(f, "%*s", v->cw, self && any ? "." : "");
        if (j == 0) put_pct(f, x, v->info.totals[ev[0]], x != 0);
        fputc(' ', f);
    }
    for (size_t j = 0; j < v->o->nev; j++) {
        if (incl && incl[ev[j]])
            put_num(f, incl[ev[j]], v->cw);
        else
            fprintf(f, "%*s", v->cw, "");
        fputc(' ', f);
    }
}

const cli_opt cli_callgrind_annotate_opts[] = {
    {"source-dir", 'I', "DIR", "look for source files in DIR (repeatable)"},
    {"jobs", 'j', "N", "read N profiles at once (default: the number of CPUs)"},
    {"file", 0, "FILE",
     "annotate this source file only (its name in the profile, or its last "
     "components), its costs per line also when its source is not found"},
    {"function", 0, "NAME", "annotate the lines (and instructions) of this function only"},
    {"context", 0, "N",
     "source lines shown before and after a costed one (default 3; 0: "
     "none)"},
    {"instr", 0, NULL,
     "also the costs per instruction address, function by function, of a "
     "profile of valgrind --dump-instr=yes (without source lines: always)"},
    {"part", 0, "N", "only part N (default: all parts combined)"},
    {"show", 0, "EVENT[,EVENT]",
     "only these events' columns, the first the one --threshold measures "
     "(callgrind_annotate --show, as report --show; default: all events)"},
    {"threshold", 0, "PCT",
     "the files (functions of --instr) hottest first until they cover "
     "PCT% of the total self cost of the first event (default 99, "
     "callgrind_annotate's --threshold)"},
    {"coverage", 0, "PCT", "the same as --threshold"},
    {"all", 0, NULL, "every file and function with a cost"},
    CLI_OUTPUT_OPTS,
    {NULL, 0, NULL, NULL},
};

static int parse_settings(const cli_args *args, const tk_profile *p, settings *o)
{
    const char *cmd = "annotate";
    uint64_t part;
    o->lib = (tk_prof_annotate_options)TK_PROF_ANNOTATE_OPTIONS_INIT;
    if (cli_get_u64(cmd, args, "part", 0, &part)) return CLI_EXIT_USAGE;
    if (part > tk_profile_part_count(p))
        return cli_usage_error(cmd,
                               "option '--part': no part %" PRIu64 " (the profile has %zu part%s)",
                               part, tk_profile_part_count(p), cli_s(tk_profile_part_count(p)));
    o->lib.part = (size_t)part;
    o->lib.n_source_dirs = (size_t)cli_get_all(args, "source-dir", o->dirs, 64);
    o->lib.source_dirs = o->dirs;
    o->lib.file = cli_get(args, "file");
    o->lib.function = cli_get(args, "function");
    o->lib.instructions = cli_has(args, "instr");
    uint64_t context;
    if (cli_get_u64(cmd, args, "context", 0, &context)) return CLI_EXIT_USAGE;
    if (context > 1000000)
        return cli_usage_error(cmd, "--context wants a number of lines up to 1000000");
    o->lib.context =
        cli_get(args, "context") && !context ? TK_PROF_ANNOTATE_NO_CONTEXT : (size_t)context;
    o->nev = tk_profile_event_count(p);
    for (size_t i = 0; i < o->nev; i++) o->ev[i] = i;
    const char *show = cli_get(args, "show");
    if (show) {
        int n = cli_callgrind_event_list(cmd, "show", p, show, o->ev, TK_PROFILE_MAX_EVENTS);
        if (n < 0) return CLI_EXIT_USAGE;
        o->nev = (size_t)n;
    }
    o->lib.event = o->nev ? o->ev[0] : 0;
    cli_rows rows; /* -n is not annotate's: --threshold and --all */
    if (cli_get_rows(cmd, args, 0, &rows)) return CLI_EXIT_USAGE;
    o->threshold = rows.fixed ? 99.0 : rows.threshold;
    o->lib.coverage = o->threshold;
    return CLI_EXIT_OK;
}

/* "file:function" of function fn, as callgrind_annotate names a callee. */
static void put_fn(FILE *out, const tk_profile *p, uint32_t fn)
{
    tk_prof_function_info f;
    tk_profile_function_get(p, fn, &f);
    fprintf(out, "%s:%s", cli_callgrind_str_or(p, f.file, "???"),
            cli_callgrind_str_or(p, f.name, "???"));
}

/* The calls and jumps made at site s, a line each under it (by_instr: the instruction
 * view, whose jumps go to addresses). */
static void put_calls_jumps(FILE *out, const view *v, const tk_prof_annotate_site_info *s,
                            uint32_t file, int by_instr)
{
    for (size_t k = s->first_call; k < s->first_call + s->calls; k++) {
        tk_prof_annotate_call_info c;
        tk_prof_annotate_call_get(v->a, k, &c);
        put_cost_cols(out, v, NULL, c.inclusive, 0);
        fputs(" => ", out);
        put_fn(out, v->p, c.callee);
        fputs(" (", out);
        cli_callgrind_put_commas(out, c.count);
        fprintf(out, "x%s)\n", c.recursive ? ", recursive" : "");
    }
    for (size_t k = s->first_jump; k < s->first_jump + s->jumps; k++) {
        tk_prof_annotate_jump_info j;
        tk_prof_annotate_jump_get(v->a, k, &j);
        put_cost_cols(out, v, NULL, NULL, 0);
        fputs(" -> ", out);
        if (by_instr)
            fprintf(out, "0x%" PRIx64, j.target_addr);
        else if (j.target_file != file)
            fprintf(out, "%s:%" PRIu64, cli_callgrind_str_or(v->p, j.target_file, "???"),
                    j.target_line);
        else
            fprintf(out, "line %" PRIu64, j.target_line);
        fputs(j.conditional ? " (jcnd): " : " (jump): ", out);
        cli_callgrind_put_commas(out, j.followed);
        if (j.conditional) {
            fputs(" taken, ", out);
            cli_callgrind_put_commas(out, j.executed >= j.followed ? j.executed - j.followed : 0);
            fputs(" not taken", out);
        }
        fputc('\n', out);
    }
}

/* Site k's cost columns (*s gets the site). A costed source line shows "." for no self cost;
 * elsewhere a site whose costs are only those of its calls shows blanks. */
static void put_site(FILE *out, const view *v, size_t k, int source_line,
                     tk_prof_annotate_site_info *s)
{
    tk_prof_annotate_site_get(v->a, k, s);
    put_cost_cols(out, v, s->self, s->inclusive, source_line || s->has_self);
}

/* The source of file i around its costed lines. Returns an exit code. */
static int annotate_source(FILE *out, const view *v, size_t i, uint32_t file)
{
    tk_error err;
    tk_error_clear(&err);
    tk_prof_source *src;
    if (tk_prof_source_open(&src, v->a, i, &err) != TK_OK) return cli_error(&err);
    static const uint64_t none[TK_PROFILE_MAX_EVENTS];
    tk_prof_source_item it;
    tk_status st;
    while ((st = tk_prof_source_next(src, &it, &err)) == TK_OK) {
        if (it.kind == TK_SOURCE_GAP) {
            fprintf(out, "-- line %" PRIu64 " ----------------------------------------\n", it.line);
        } else if (it.kind == TK_SOURCE_BEYOND) {
            fprintf(out, "-- %zu costed line%s beyond the end of the source file\n", it.beyond,
                    cli_s(it.beyond));
        } else {
            tk_prof_annotate_site_info s;
            if (it.site == SIZE_MAX)
                put_cost_cols(out, v, none, none, 0);
            else
                put_site(out, v, it.site, 1, &s);
            fputc(' ', out);
            out_write(it.text, it.len, out);
            fputc('\n', out);
            if (it.site != SIZE_MAX) put_calls_jumps(out, v, &s, file, 0);
        }
    }
    tk_prof_source_free(src);
    return st == TK_END ? CLI_EXIT_OK : cli_error(&err);
}

/* A file's self cost of the first event and its share: "23,513 Ir self (7.17%)". */
static void put_file_self(FILE *out, const view *v, const uint64_t *self)
{
    if (!v->o->nev) return;
    size_t e = v->o->ev[0];
    fputs(": ", out);
    cli_callgrind_put_commas(out, self[e]);
    fprintf(out, " %s self", tk_profile_event_name(v->p, e));
    if (v->info.totals[e])
        fprintf(out, " (%.2f%%)", 100.0 * (double)self[e] / (double)v->info.totals[e]);
}

/* The files whose source is not found, one line each (without --file; with it, the file's
 * costs per line). */
static void annotate_not_found(FILE *out, const view *v)
{
    size_t n = 0;
    for (size_t i = 0; i < v->info.files; i++) {
        tk_prof_annotate_file_info fi;
        tk_prof_annotate_file_get(v->a, i, &fi);
        if (fi.source) continue;
        if (!n++)
            fprintf(out, "\n================ sources not found (--source-dir DIR to look in DIR, "
                         "--file FILE for the costs per line of one)\n");
        put_cost_cols(out, v, fi.self, NULL, 1);
        const char *name = cli_callgrind_str_or(v->p, fi.name, "???");
        fprintf(out, " %s%s\n", name,
                strcmp(name, "???") ? "" : " (code without line information)");
    }
}

/* Each source file kept whose source is found, its lines next to their costs (with --file,
 * also one without a source, per line). Returns an exit code. */
static int annotate_files(FILE *out, const view *v)
{
    for (size_t i = 0; i < v->info.files; i++) {
        tk_prof_annotate_file_info fi;
        tk_prof_annotate_file_get(v->a, i, &fi);
        if (!fi.source && !v->o->lib.file) continue;
        const char *name = cli_callgrind_str_or(v->p, fi.name, "???");
        fprintf(out, "\n================ %s", name);
        if (fi.source && strcmp(fi.source, name) != 0) fprintf(out, " (%s)", fi.source);
        put_file_self(out, v, fi.self);
        fputc('\n', out);
        if (fi.source) {
            int rc = annotate_source(out, v, i, fi.name);
            if (rc != CLI_EXIT_OK) return rc;
            continue;
        }
        fputs("(source not found: costs per line)\n", out);
        for (size_t k = fi.first_site; k < fi.first_site + fi.sites; k++) {
            tk_prof_annotate_site_info s;
            put_site(out, v, k, 0, &s);
            fprintf(out, " line %" PRIu64 "\n", s.line);
            put_calls_jumps(out, v, &s, fi.name, 0);
        }
    }
    if (!v->o->lib.file) annotate_not_found(out, v);
    return CLI_EXIT_OK;
}

/* The costs per instruction address, function by function. */
static void annotate_instrs(FILE *out, const view *v)
{
    if (!v->info.functions) return;
    fputs("\n================ instructions\n", out);
    for (size_t i = 0; i < v->info.functions; i++) {
        tk_prof_annotate_function_info fi;
        tk_prof_annotate_function_get(v->a, i, &fi);
        tk_prof_function_info f;
        tk_profile_function_get(v->p, fi.fn, &f);
        fprintf(out, "-- %s [%s]", tk_profile_str(v->p, f.name), tk_profile_str(v->p, f.object));
        put_file_self(out, v, fi.self);
        fputc('\n', out);
        for (size_t k = fi.first_site; k < fi.first_site + fi.sites; k++) {
            tk_prof_annotate_site_info s;
            put_site(out, v, k, 0, &s);
            fprintf(out, " 0x%" PRIx64, s.addr);
            if (v->info.positions & TK_POS_LINE) fprintf(out, " (line %" PRIu64 ")", s.line);
            fputc('\n', out);
            put_calls_jumps(out, v, &s, 0, 1);
        }
    }
}

/* The width of a cost column: that of the largest total shown, or of a call's inclusive cost
 * (a call within a recursion counts its nested calls again: it can exceed the total). */
static int column_width(const view *v)
{
    int cw = 6;
    const size_t *ev = v->o->ev;
    for (size_t j = 0; j < v->o->nev; j++)
        if (num_width(v->info.totals[ev[j]]) > cw) cw = num_width(v->info.totals[ev[j]]);
    size_t nsites = 0;
    for (size_t i = 0; i < v->info.files + v->info.functions; i++) {
        tk_prof_annotate_file_info fi;
        tk_prof_annotate_function_info fn;
        if (i < v->info.files)
            tk_prof_annotate_file_get(v->a, i, &fi);
        else
            tk_prof_annotate_function_get(v->a, i - v->info.files, &fn);
        size_t end = i < v->info.files ? fi.first_site + fi.sites : fn.first_site + fn.sites;
        if (end > nsites) nsites = end;
    }
    for (size_t k = 0; k < nsites; k++) {
        tk_prof_annotate_site_info s;
        tk_prof_annotate_site_get(v->a, k, &s);
        for (size_t c = s.first_call; c < s.first_call + s.calls; c++) {
            tk_prof_annotate_call_info ci;
            tk_prof_annotate_call_get(v->a, c, &ci);
            for (size_t j = 0; j < v->o->nev; j++)
                if (num_width(ci.inclusive[ev[j]]) > cw) cw = num_width(ci.inclusive[ev[j]]);
        }
    }
    return cw;
}

static void put_head(FILE *out, const view *v)
{
    fputs("Columns: self cost per event (the first with its share of the program total), then\n"
          "self + the cost of the calls made on the line (calls within a recursion are not\n"
          "counted again). Under a line: \"=> file:function (Nx)\", the calls it makes and\n"
          "their inclusive cost; \"-> line N (jcnd)\", its conditional jumps and how often\n"
          "they were taken (\"(jump)\": unconditional; valgrind --collect-jumps=yes).\n",
          out);
    fputs("Events:", out);
    for (size_t j = 0; j < v->o->nev; j++)
        fprintf(out, " %s", tk_profile_event_name(v->p, v->o->ev[j]));
    fputs("\n", out);
}

static int annotate(const cli_args *args, const tk_profile *p, FILE *out)
{
    settings o;
    int rc = parse_settings(args, p, &o);
    if (rc != CLI_EXIT_OK) return rc;
    view v = {p, &o, NULL, {0}, 6};
    tk_error err;
    tk_error_clear(&err);
    if (tk_prof_annotate_open(&v.a, p, &o.lib, &err) != TK_OK) return cli_error(&err);
    tk_prof_annotation_get(v.a, &v.info);
    v.cw = column_width(&v);
    put_head(out, &v);
    if ((o.lib.file || o.lib.function) && !v.info.files && !v.info.functions)
        fprintf(out, "\n(no costs of %s%s%s%s%s%s)\n", o.lib.function ? "function '" : "",
                o.lib.function ? o.lib.function : "", o.lib.function ? "'" : "",
                o.lib.function && o.lib.file ? " in " : "", o.lib.file ? "file " : "",
                o.lib.file ? o.lib.file : "");
    if (v.info.positions & TK_POS_LINE) rc = annotate_files(out, &v);
    if (rc == CLI_EXIT_OK && v.info.instructions) annotate_instrs(out, &v);
    size_t hf = v.info.hidden_files, hn = v.info.hidden_functions;
    if (rc == CLI_EXIT_OK && (hf || hn)) {
        fputs("\n(", out);
        if (hf) fprintf(out, "%zu file%s", hf, cli_s(hf));
        if (hf && hn) fputs(" and ", out);
        if (hn) fprintf(out, "%zu function%s", hn, cli_s(hn));
        fprintf(out, " not shown: those shown cover %g%% of the total %s; --all shows them)\n",
                o.threshold, tk_profile_event_name(p, o.ev[0]));
    }
    tk_prof_annotation_free(v.a);
    return rc;
}

int cli_callgrind_annotate(cli_ctx *ctx, const cli_args *args)
{
    unsigned jobs;
    if (cli_get_jobs(ctx->command, args, &jobs)) return CLI_EXIT_USAGE;
    tk_callgrind_read_options how = TK_CALLGRIND_READ_OPTIONS_INIT;
    how.detail = TK_CALLGRIND_DETAIL_FULL;
    tk_profile *p;
    int rc = cli_callgrind_load_jobs(ctx, &how, jobs, NULL, &p);
    if (rc || !p) return rc; /* no profile: a team's member, which writes nothing */
    tk_output *o;
    rc = cli_output_open(args, 0, &o);
    if (rc == CLI_EXIT_OK) {
        rc = annotate(args, p, cli_output_file(o));
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(o);
        else
            cli_output_abort(o);
    }
    tk_profile_free(p);
    return rc;
}
