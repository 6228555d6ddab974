/* tracekit coverage: the report as text, JSON and CSV. */
#include <inttypes.h>
#include <string.h>

#include "coverage.h"

/* "3 of 5 covered (1 unknown)": counts [NO], [YES], [UNKNOWN]. */
static void ratio(FILE *out, const uint64_t *c, const char *yes, const char *unknown)
{
    fprintf(out, "%" PRIu64 " of %" PRIu64 " %s", c[TK_CSI_HIT_YES],
            c[TK_CSI_HIT_YES] + c[TK_CSI_HIT_NO] + c[TK_CSI_HIT_UNKNOWN], yes);
    if (c[TK_CSI_HIT_UNKNOWN]) fprintf(out, " (%" PRIu64 " %s)", c[TK_CSI_HIT_UNKNOWN], unknown);
}

static void print_lines_with(FILE *out, const tk_csi_crash_function *f, tk_csi_hit h)
{
    int any = 0;
    for (size_t k = 0; k < f->nlines; k++)
        if (f->lines[k].hit == h) {
            fprintf(out, "%s%" PRIu64, any ? " " : "", f->lines[k].line);
            any = 1;
        }
}

static void print_entry_list(FILE *out, const tk_csi_crash_entry *es, uint32_t n, tk_csi_hit h,
                             int sites)
{
    const char *sep = "";
    for (uint32_t k = 0; k < n; k++) {
        if (es[k].hit != h) continue;
        fprintf(out, "%s%" PRId64, sep, es[k].index);
        if (sites)
            fprintf(out, " (line %" PRIu64 ", %s)", es[k].nlines ? es[k].lines[0] : 0,
                    es[k].callee ? es[k].callee : "?");
        sep = sites ? ", " : " ";
    }
}

static void text_entries(FILE *out, const tk_csi_crash_entry *es, uint32_t n, int sites)
{
    static const char *const site_words[] = {"not returned", "returned", "not instrumented"};
    static const char *const block_words[] = {"not run", "run", "not instrumented"};
    static const tk_csi_hit order[] = {TK_CSI_HIT_YES, TK_CSI_HIT_NO, TK_CSI_HIT_UNKNOWN};
    for (int i = 0; i < 3; i++) {
        uint32_t c = 0;
        for (uint32_t k = 0; k < n; k++) c += es[k].hit == order[i];
        if (!c) continue;
        fprintf(out, "  %s %s: ", sites ? "sites" : "blocks",
                (sites ? site_words : block_words)[order[i]]);
        print_entry_list(out, es, n, order[i], sites);
        fputc('\n', out);
    }
}

static void text_function(FILE *out, const tk_csi_crash_function *f)
{
    tk_csi_crash_counts counts, *c = &counts;
    tk_csi_crash_function_counts(f, c);
    fprintf(out, "\nfunction %s", f->name);
    if (f->source) fprintf(out, " (%s)", f->source);
    fprintf(out, ": %s",
            f->has_fc ? (f->entered == TK_CSI_HIT_YES ? "entered" : "not entered")
                      : "entry not instrumented");
    if (f->has_cc) {
        fputs("; call sites ", out);
        ratio(out, c->sites, "returned", "not instrumented");
    }
    if (f->has_bbc) {
        fputs("; blocks ", out);
        ratio(out, c->blocks, "run", "not instrumented");
    }
    fputc('\n', out);
    static const char *const line_words[] = {"lines not covered", "lines covered", "lines unknown"};
    static const tk_csi_hit order[] = {TK_CSI_HIT_YES, TK_CSI_HIT_NO, TK_CSI_HIT_UNKNOWN};
    for (int i = 0; i < 3; i++) {
        if (!c->lines[order[i]]) continue;
        fprintf(out, "  %s: ", line_words[order[i]]);
        print_lines_with(out, f, order[i]);
        fputc('\n', out);
    }
    text_entries(out, f->sites, f->nsites, 1);
    text_entries(out, f->blocks, f->nblocks, 0);
}

void cli_csi_cov_print_text(FILE *out, const cli_csi_cov_result *r)
{
    fprintf(out, "program: %s\ncore: %s\n", r->bin, r->core);
    fprintf(out, "load bias: 0x%" PRIx64 "\nmatch: %s\n\n", tk_csi_crash_bias(r->crash),
            tk_csi_crash_match(r->crash));
    fputs("functions: ", out);
    ratio(out, r->total.functions, "entered", "unknown");
    fputs("\ncall sites: ", out);
    ratio(out, r->total.sites, "returned", "not instrumented");
    fputs("\nblocks: ", out);
    ratio(out, r->total.blocks, "run", "not instrumented");
    fputs("\nlines: ", out);
    ratio(out, r->total.lines, "covered", "unknown: only in sites or blocks not instrumented");
    fputc('\n', out);
    for (size_t i = 0; i < tk_csi_crash_count(r->crash); i++)
        if (cli_csi_cov_selected(r, i)) text_function(out, tk_csi_crash_at(r->crash, i));
    if (tk_csi_crash_has_pt(r->crash)) cli_csi_cov_print_paths(out, r, r->bin_bytes, r->bin_len);
}

/* ---- JSON ------------------------------------------------------------- */

static void json_counts(FILE *out, const char *name, const uint64_t *c)
{
    fprintf(out, "\"%s\": {\"yes\": %" PRIu64 ", \"no\": %" PRIu64 ", \"unknown\": %" PRIu64 "}",
            name, c[TK_CSI_HIT_YES], c[TK_CSI_HIT_NO], c[TK_CSI_HIT_UNKNOWN]);
}

static void json_entries(FILE *out, const char *name, const tk_csi_crash_entry *es, uint32_t n)
{
    fprintf(out, ",\n   \"%s\": [", name);
    for (uint32_t k = 0; k < n; k++) {
        fprintf(out, "%s{\"index\": %" PRId64 ", \"lines\": [", k ? ", " : "", es[k].index);
        for (size_t l = 0; l < es[k].nlines; l++)
            fprintf(out, "%s%" PRIu64, l ? ", " : "", es[k].lines[l]);
        fputs("]", out);
        if (es[k].callee) {
            fputs(", \"callee\": ", out);
            cli_put_json_string(out, es[k].callee);
        }
        fprintf(out, ", \"covered\": \"%s\"}", cli_csi_cov_hit_short(es[k].hit));
    }
    fputc(']', out);
}

static void json_function(FILE *out, const tk_csi_crash_function *f, int first)
{
    fprintf(out, "%s\n  {\"function\": ", first ? "" : ",");
    cli_put_json_string(out, f->name);
    fputs(", \"key\": ", out);
    cli_put_json_string(out, f->key);
    fputs(", \"source\": ", out);
    if (f->source)
        cli_put_json_string(out, f->source);
    else
        fputs("null", out);
    fprintf(out, ", \"entered\": \"%s\"",
            f->has_fc ? cli_csi_cov_hit_short(f->entered) : "unknown");
    if (f->has_cc) json_entries(out, "sites", f->sites, f->nsites);
    if (f->has_bbc) json_entries(out, "blocks", f->blocks, f->nblocks);
    fputs(",\n   \"lines\": [", out);
    for (size_t k = 0; k < f->nlines; k++)
        fprintf(out, "%s{\"line\": %" PRIu64 ", \"covered\": \"%s\"}", k ? ", " : "",
                f->lines[k].line, cli_csi_cov_hit_short(f->lines[k].hit));
    fputs("]}", out);
}

/* The crashed thread's frames with their path-tracing locals as read. */
static void json_frames(FILE *out, const tk_csi_crash *c)
{
    fputs(",\n \"frames\": [", out);
    for (size_t i = 0; i < tk_csi_crash_frame_count(c); i++) {
        const tk_csi_crash_frame *f = tk_csi_crash_frame_at(c, i);
        fprintf(out,
                "%s\n  {\"depth\": %" PRIu32 ", \"pc\": %" PRIu64 ", \"function\": ", i ? "," : "",
                f->depth, f->pc);
        if (f->function)
            cli_put_json_string(out, f->function);
        else
            fputs("null", out);
        fputs(", \"source\": ", out);
        if (f->source)
            cli_put_json_string(out, f->source);
        else
            fputs("null", out);
        fprintf(out, ", \"line\": %" PRIu64 ", \"traced\": %s", f->line,
                f->traced ? "true" : "false");
        if (f->problem) {
            fputs(", \"problem\": ", out);
            cli_put_json_string(out, f->problem);
        } else if (f->traced) {
            fputs(", \"paths\": [", out);
            for (size_t k = 0; k < f->npaths; k++)
                fprintf(out, "%s%" PRId64, k ? ", " : "", f->paths[k]);
            fprintf(out, "], \"idx\": %" PRId64 ", \"cur\": %" PRId64, f->idx, f->cur);
        }
        fputc('}', out);
    }
    fputc(']', out);
}

void cli_csi_cov_print_json(FILE *out, const cli_csi_cov_result *r)
{
    fputs("{\"version\": 1, \"program\": ", out);
    cli_put_json_string(out, r->bin);
    fputs(", \"core\": ", out);
    cli_put_json_string(out, r->core);
    fprintf(out, ", \"load_bias\": %" PRIu64 ", \"match\": ", tk_csi_crash_bias(r->crash));
    cli_put_json_string(out, tk_csi_crash_match(r->crash));
    fputs(",\n \"totals\": {", out);
    json_counts(out, "functions", r->total.functions);
    fputs(", ", out);
    json_counts(out, "sites", r->total.sites);
    fputs(", ", out);
    json_counts(out, "blocks", r->total.blocks);
    fputs(", ", out);
    json_counts(out, "lines", r->total.lines);
    fputs("},\n \"functions\": [", out);
    int first = 1;
    for (size_t i = 0; i < tk_csi_crash_count(r->crash); i++)
        if (cli_csi_cov_selected(r, i)) {
            json_function(out, tk_csi_crash_at(r->crash, i), first);
            first = 0;
        }
    fputc(']', out);
    if (tk_csi_crash_has_pt(r->crash)) json_frames(out, r->crash);
    fputs("}\n", out);
}

/* ---- CSV: one row per function, site, block and line ------------------ */

static void csv_row(FILE *out, const tk_csi_crash_function *f, const char *kind, const char *index,
                    const uint64_t *lines, size_t nlines, const char *callee, tk_csi_hit h)
{
    cli_put_csv_field(out, f->name);
    fputc(',', out);
    cli_put_csv_field(out, f->source ? f->source : "");
    fprintf(out, ",%s,%s,", kind, index);
    for (size_t k = 0; k < nlines; k++) fprintf(out, "%s%" PRIu64, k ? " " : "", lines[k]);
    fputc(',', out);
    cli_put_csv_field(out, callee ? callee : "");
    fprintf(out, ",%s\n", cli_csi_cov_hit_short(h));
}

static void csv_entries(FILE *out, const tk_csi_crash_function *f, const char *kind,
                        const tk_csi_crash_entry *es, uint32_t n)
{
    char idx[32];
    for (uint32_t k = 0; k < n; k++) {
        snprintf(idx, sizeof idx, "%" PRId64, es[k].index);
        csv_row(out, f, kind, idx, es[k].lines, es[k].nlines, es[k].callee, es[k].hit);
    }
}

void cli_csi_cov_print_csv(FILE *out, const cli_csi_cov_result *r)
{
    fputs("function,source,kind,index,lines,callee,covered\n", out);
    for (size_t i = 0; i < tk_csi_crash_count(r->crash); i++) {
        if (!cli_csi_cov_selected(r, i)) continue;
        const tk_csi_crash_function *f = tk_csi_crash_at(r->crash, i);
        csv_row(out, f, "function", "", NULL, 0, NULL, f->has_fc ? f->entered : TK_CSI_HIT_UNKNOWN);
        csv_entries(out, f, "site", f->sites, f->nsites);
        csv_entries(out, f, "block", f->blocks, f->nblocks);
        for (size_t k = 0; k < f->nlines; k++)
            csv_row(out, f, "line", "", &f->lines[k].line, 1, NULL, f->lines[k].hit);
    }
}
