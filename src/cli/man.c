/* The man pages, in roff (man macros), from the tables `tracekit help` prints: tracekit(1)
 * and one page per command, tracekit-COMMAND(1), as git has them. `make` writes them to
 * build/man/ (tracekit help --man PAGE for each of tracekit help --man-pages). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- roff text ------------------------------------------------------------------------- */

/* s[0..n) escaped: backslashes, minus signs (so that options copy as typed). */
static void put_esc(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\')
            fputs("\\e", f);
        else if (s[i] == '-')
            fputs("\\-", f);
        else
            fputc(s[i], f);
    }
}

static void put_str(FILE *f, const char *s) { put_esc(f, s, strlen(s)); }

/* One input line of text: a leading dot or quote would be a request. */
static void put_line(FILE *f, const char *s, size_t n)
{
    if (n && (s[0] == '.' || s[0] == '\'')) fputs("\\&", f);
    put_esc(f, s, n);
    fputc('\n', f);
}

/* Help text (the about of a command or format): paragraphs separated by an empty line;
 * a paragraph with indented lines (a table of the help) is kept as it is, the others are
 * filled. */
static void put_text(FILE *f, const char *text)
{
    const char *p = text;
    int first = 1;
    while (*p) {
        while (*p == '\n') p++;
        if (!*p) break;
        const char *end = strstr(p, "\n\n");
        if (!end) end = p + strlen(p);
        int keep = p[0] == ' ' || memmem(p, (size_t)(end - p), "\n ", 2) != NULL;
        if (!first) fputs(".PP\n", f);
        if (keep) fputs(".nf\n", f);
        for (const char *l = p; l < end;) {
            const char *nl = memchr(l, '\n', (size_t)(end - l));
            if (!nl) nl = end;
            put_line(f, l, (size_t)(nl - l));
            l = nl + 1;
        }
        if (keep) fputs(".fi\n", f);
        first = 0;
        p = end;
    }
}

static void put_opt(FILE *f, const cli_opt *o)
{
    fputs(".TP\n", f);
    if (o->short_name) fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", f);
    put_str(f, o->name);
    fputs("\\fR", f);
    if (o->arg && cli_opt_value_optional(o)) { /* [N]: the brackets in roman */
        fprintf(f, " [\\fI%.*s\\fR]", (int)strlen(o->arg) - 2, o->arg + 1);
    } else if (o->arg) {
        fputs(" \\fI", f);
        put_str(f, o->arg);
        fputs("\\fR", f);
    }
    fputc('\n', f);
    put_line(f, o->help, strlen(o->help));
}

static void put_opts(FILE *f, const cli_opt *t)
{
    if (!t || !t->name) {
        fputs("(none)\n", f);
        return;
    }
    for (const cli_opt *o = t; o->name; o++) put_opt(f, o);
}

static void put_header(FILE *f, const char *page, const char *summary)
{
    fputs(".TH ", f);
    for (const char *s = page; *s; s++) {
        if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s, f);
    }
    /* no hyphenation, left-aligned: options and file names stay whole */
    fprintf(f, " 1 \"\" \"tracekit %s\" \"tracekit manual\"\n.nh\n.ad l\n.SH NAME\n", tk_version());
    put_str(f, page);
    fputs(" \\- ", f);
    put_line(f, summary, strlen(summary));
}

/* ---- sections the pages share ------------------------------------------------------------ */

/* The examples of every format whose command line starts with command (NULL: those of
 * format only). */
static void put_examples(FILE *f, const char *command, const char *format)
{
    int any = 0;
    for (size_t i = 0; cli_format_ops_at(i); i++) {
        const cli_format_ops *ops = cli_format_ops_at(i);
        if (format && strcmp(ops->format, format) != 0) continue;
        for (const cli_example *e = ops->examples; e && e->line; e++) {
            size_t n = command ? strlen(command) : 0;
            if (command && (strncmp(e->line, command, n) != 0 || e->line[n] != ' ')) continue;
            if (!any && command) fputs(".SH EXAMPLES\n", f);
            any = 1;
            fputs(".TP\n\\fBtracekit ", f);
            put_str(f, e->line);
            fputs("\\fR\n", f);
            put_line(f, e->what, strlen(e->what));
        }
    }
}

static void put_exit_status(FILE *f)
{
    fputs(".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\nbad input, or a check that failed\n"
          ".TP\n2\nusage error\n",
          f);
}

static void put_see_also(FILE *f, const char *self)
{
    fputs(".SH SEE ALSO\n", f);
    if (strcmp(self, "tracekit") != 0) {
        fputs("\\fBtracekit\\fR(1)\n", f);
        return;
    }
    for (size_t i = 0; i < cli_command_count(); i++)
        fprintf(f, "\\fBtracekit\\-%s\\fR(1),\n", cli_command_at(i)->name);
    fputs("\\fBvalgrind\\fR(1), \\fBcallgrind_annotate\\fR(1), \\fBkcachegrind\\fR(1)\n", f);
}

/* ---- tracekit(1) --------------------------------------------------------------------------- */

static void put_format(FILE *f, const tk_format *fmt)
{
    const cli_format_ops *ops = cli_format_ops_find(fmt->name);
    fputs(".SS \"", f);
    put_str(f, fmt->name);
    fputs(": ", f);
    put_str(f, fmt->title);
    fputs("\"\n", f);
    if (ops && ops->about) {
        put_text(f, ops->about);
        fputs(".PP\n", f);
    }
    fputs("Files: ", f);
    put_str(f, fmt->extensions);
    fputs(".\n.br\nCommands: ", f);
    char *cmds = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&cmds, &len);
    if (m) {
        cli_format_commands(fmt->name, m);
        fclose(m);
        put_str(f, cmds ? cmds : "");
        free(cmds);
    }
    fputs(".\n", f);
    if (fmt->targets && fmt->targets[0]) {
        fputs(".br\nconvert \\-\\-to: ", f);
        put_str(f, fmt->targets);
        fputs(".\n", f);
    }
    if (ops && ops->examples && ops->examples->line) {
        fputs(".PP\nExamples:\n", f);
        put_examples(f, NULL, fmt->name);
    }
}

static void put_main_page(FILE *f)
{
    put_header(f, "tracekit",
               "read, check, analyse, convert and write execution traces and "
               "profiles");
    fputs(".SH SYNOPSIS\n\\fBtracekit\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] \\fIFILE\\fR...\n"
          ".br\n\\fBtracekit help\\fR [\\fICOMMAND\\fR | \\fIFORMAT\\fR]\n"
          ".br\n\\fBtracekit \\-\\-version\\fR\n.SH DESCRIPTION\n",
          f);
    put_line(f, cli_main_summary, strlen(cli_main_summary));
    fputs("Every format is recognised from its content, compressed or not.\n.PP\n", f);
    put_text(f, cli_main_notes);
    fputs(".SH COMMANDS\n", f);
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command *c = cli_command_at(i);
        fputs(".TP\n\\fBtracekit\\-", f);
        put_str(f, c->name);
        fputs("\\fR(1)\n", f);
        put_line(f, c->summary, strlen(c->summary));
    }
    fputs(".SH OPTIONS\n\\fB\\-\\-version\\fR prints the version. The options of the commands "
          "that read every format (info, check, report, annotate, convert, dump, diff, "
          "merge):\n",
          f);
    put_opts(f, cli_common_opts);
    fputs(".SH FORMATS\n", f);
    for (size_t i = 0; i < tk_format_count(); i++) put_format(f, tk_format_at(i));
    put_exit_status(f);
    put_see_also(f, "tracekit");
}

/* ---- tracekit-COMMAND(1) ----------------------------------------------------------------- */

static void put_generic_options(FILE *f, const cli_command *c)
{
    cli_cmd_id id = c->generic;
    fputs(".SH OPTIONS\n.SS \"Every format\"\n", f);
    put_opts(f, cli_common_opts);
    if (id == CLI_REPORT) {
        fputs(".SS \"\\-\\-format html (every format)\"\n", f);
        fputs("The report, its tables, the flame graph and the timeline of the input as one "
              "page that works from file://.\n",
              f);
        put_opts(f, cli_html_opts);
    }
    for (size_t i = 0; cli_format_ops_at(i); i++) {
        const cli_format_ops *ops = cli_format_ops_at(i);
        if (!ops->run[id]) continue;
        fputs(".SS \"", f);
        put_str(f, ops->format);
        fputs(" files\"\n", f);
        const cli_opt *output = cli_format_output_opts(ops, id);
        if (!output || (ops->opts[id] && ops->opts[id]->name)) put_opts(f, ops->opts[id]);
        if (output) put_opts(f, output);
    }
}

static void put_command_page(FILE *f, const cli_command *c)
{
    char page[64];
    snprintf(page, sizeof page, "tracekit-%s", c->name);
    put_header(f, page, c->summary);
    fputs(".SH SYNOPSIS\n.B tracekit\n", f);
    put_line(f, c->usage, strlen(c->usage));
    fputs(".SH DESCRIPTION\n", f);
    if (c->about) {
        put_text(f, c->about);
    } else if (c->help) {
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        if (m) {
            c->help(m);
            fclose(m);
            put_text(f, text ? text : "");
            free(text);
        }
    } else {
        put_line(f, c->summary, strlen(c->summary));
    }
    if (c->run) {
        fputs(".SH OPTIONS\n", f);
        put_opts(f, c->opts);
    } else {
        put_generic_options(f, c);
        fputs(".SH FORMATS\n", f);
        fputs(c->generic == CLI_INFO ? "Every format; details from: " : "Files of these formats: ",
              f);
        for (size_t i = 0, n = 0; cli_format_ops_at(i); i++)
            if (cli_format_ops_at(i)->run[c->generic])
                fprintf(f, "%s%s", n++ ? ", " : "", cli_format_ops_at(i)->format);
        fputs(" (\\fBtracekit help\\fR \\fIFORMAT\\fR).\n", f);
    }
    if (c->format) {
        fputs(".SH FORMAT\n", f);
        put_str(f, c->format);
        fputs(": \\fBtracekit help ", f);
        put_str(f, c->format);
        fputs("\\fR.\n", f);
    }
    put_examples(f, c->name, NULL);
    put_exit_status(f);
    put_see_also(f, page);
}

int cli_man_page(const char *page, FILE *f)
{
    if (strcmp(page, "tracekit") == 0) {
        put_main_page(f);
        return CLI_EXIT_OK;
    }
    const char *name = strncmp(page, "tracekit-", 9) == 0 ? page + 9 : page;
    const cli_command *c = cli_command_find(name);
    if (!c)
        return cli_usage_error("help", "no man page '%s' (see 'tracekit help --man-pages')", page);
    put_command_page(f, c);
    return CLI_EXIT_OK;
}

int cli_man_pages(FILE *f)
{
    fputs("tracekit\n", f);
    for (size_t i = 0; i < cli_command_count(); i++)
        fprintf(f, "tracekit-%s\n", cli_command_at(i)->name);
    return CLI_EXIT_OK;
}
