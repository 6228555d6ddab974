/* tracekit help [COMMAND | FORMAT]; what the help pages, the man pages (man.c) and shell
 * completion (completion.c) read of the tables: a command's options and their fixed values. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const cli_opt cli_help_opts[] = {
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

void cli_help_help(FILE *f)
{
    fputs("Without an argument, the commands. With a COMMAND, its options (for each format\n"
          "the command reads); with a FORMAT (see 'tracekit formats'), what tracekit does\n"
          "with its files, with examples.\n",
          f);
}

/* ---- the tables, as the help pages, man pages and completion read them ---------------- */

/* Appends the options of table t not in out yet (by long name and short letter: formats may
 * give an option different letters). */
static size_t add_opts(const cli_opt *t, const cli_opt **out, size_t n, size_t max)
{
    for (const cli_opt *o = t; o && o->name; o++) {
        size_t i = 0;
        while (i < n && (strcmp(out[i]->name, o->name) != 0 || out[i]->short_name != o->short_name))
            i++;
        if (i == n && n < max) out[n++] = o;
    }
    return n;
}

size_t cli_command_opts(const cli_command *c, const cli_opt **out, size_t max)
{
    if (c->run) return add_opts(c->opts, out, 0, max);
    size_t n = add_opts(cli_common_opts, out, 0, max);
    if (c->generic == CLI_REPORT) n = add_opts(cli_html_opts, out, n, max);
    for (size_t i = 0; cli_format_ops_at(i); i++) {
        const cli_format_ops *ops = cli_format_ops_at(i);
        if (!ops->run[c->generic]) continue;
        n = add_opts(ops->opts[c->generic], out, n, max);
        n = add_opts(cli_format_output_opts(ops, c->generic), out, n, max);
    }
    return n;
}

/* Appends the names of the choices bound to opt in b that are not in out yet. */
static size_t add_values(const cli_opt_choices *b, const char *opt, const char **out, size_t n,
                         size_t max)
{
    for (; b && b->opt; b++) {
        if (strcmp(b->opt, opt) != 0) continue;
        for (const cli_choice *ch = b->choices; ch->name; ch++) {
            size_t i = 0;
            while (i < n && strcmp(out[i], ch->name) != 0) i++;
            if (i == n && n < max) out[n++] = ch->name;
        }
    }
    return n;
}

size_t cli_command_opt_values(const cli_command *c, const char *opt, const char **out, size_t max)
{
    size_t n = 0;
    if (strcmp(opt, "from") == 0 && !c->run) {
        for (size_t i = 0; i < tk_format_count() && n < max; i++) out[n++] = tk_format_at(i)->name;
        return n;
    }
    if (c->run) return add_values(c->choices, opt, out, 0, max);
    for (size_t i = 0; cli_format_ops_at(i); i++) {
        const cli_format_ops *ops = cli_format_ops_at(i);
        if (ops->run[c->generic]) n = add_values(ops->choices[c->generic], opt, out, n, max);
    }
    if (c->generic == CLI_REPORT) n = add_values(cli_html_choices, opt, out, n, max);
    return n;
}

int cli_opt_takes_path(const cli_opt *o)
{
    static const char *const names[] = {"FILE",  "OUT", "DIR",    "DCFG",
                                        "TRACE", "BIN", "PREFIX", NULL};
    if (!o->arg) return 0;
    for (int i = 0; names[i]; i++)
        if (strcmp(o->arg, names[i]) == 0) return 1;
    return 0;
}

/* ---- tracekit help FORMAT -------------------------------------------------------------- */

void cli_format_commands(const char *format, FILE *f)
{
    const cli_format_ops *ops = cli_format_ops_find(format);
    int first = 1;
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command *c = cli_command_at(i);
        int has = c->run ? c->format && strcmp(c->format, format) == 0
                         : ops && ops->run[c->generic] != NULL;
        if (!has && !c->run && c->generic == CLI_INFO) has = 1; /* info knows every format */
        if (!has) continue;
        fprintf(f, "%s%s", first ? "" : " ", c->name);
        first = 0;
    }
}

static void print_format_help(const tk_format *fmt, FILE *f)
{
    const cli_format_ops *ops = cli_format_ops_find(fmt->name);
    fprintf(f, "%s: %s\n\n", fmt->name, fmt->title);
    if (ops && ops->about) fprintf(f, "%s\n", ops->about);
    fprintf(f, "Files: %s (recognised by their content; --from %s forces it)\n", fmt->extensions,
            fmt->name);
    fprintf(f, "Commands: ");
    cli_format_commands(fmt->name, f);
    fprintf(f, "\n");
    if (fmt->targets && fmt->targets[0]) fprintf(f, "convert --to: %s\n", fmt->targets);
    fprintf(f, "Options: see 'tracekit help COMMAND' (for %s files and the others).\n", fmt->name);
    if (!ops || !ops->examples || !ops->examples->line) return;
    fprintf(f, "\nExamples:\n");
    for (const cli_example *e = ops->examples; e->line; e++)
        fprintf(f, "  tracekit %s\n      %s\n", e->line, e->what);
}

/* ---- tracekit help --lint: the tables agree ------------------------------------------- */

static int has_opt(const cli_opt *const *tables, const char *name)
{
    for (; *tables; tables++)
        for (const cli_opt *o = *tables; o->name; o++)
            if (strcmp(o->name, name) == 0) return 1;
    return 0;
}

/* Every choice bound to an option names an option of the tables (and, unless the option's
 * help says "one of" generically, each value is in its help). Returns the problems found. */
static int lint_choices(const char *where, const cli_opt_choices *b, const cli_opt *const *tables)
{
    int bad = 0;
    for (; b && b->opt; b++) {
        if (!has_opt(tables, b->opt)) {
            printf("%s: values for --%s, which is none of its options\n", where, b->opt);
            bad++;
            continue;
        }
        const cli_opt *o = NULL;
        for (const cli_opt *const *t = tables; *t && !o; t++)
            for (const cli_opt *p = *t; p->name && !o; p++)
                if (strcmp(p->name, b->opt) == 0) o = p;
        for (const cli_choice *ch = b->choices; ch->name; ch++)
            if (!strstr(o->help, ch->name)) {
                printf("%s: --%s takes '%s', which its help does not name\n", where, b->opt,
                       ch->name);
                bad++;
            }
    }
    return bad;
}

/* The letters of the common options (docs/cli.md): a table that gives one of them gives it
 * to that option, and gives that option no other letter than its own. */
static const struct {
    char letter;
    const char *name;
} common_letters[] = {{'n', "top"},        {'s', "sort"},    {'o', "output"}, {'f', "force"},
                      {'j', "jobs"},       {'v', "verbose"}, {'h', "help"},   {'t', "to"},
                      {'I', "source-dir"}, {0, NULL}};

/* Whether table t gives option name the letter c (an option may have two: llvm-xray's -p
 * besides -n for --top). */
static int has_letter(const cli_opt *t, const char *name, char c)
{
    for (const cli_opt *o = t; o->name; o++)
        if (o->short_name == c && strcmp(o->name, name) == 0) return 1;
    return 0;
}

/* The common letters and the aliases of table t (of `where`; others: the tables it is parsed
 * with). Returns the problems found. */
static int lint_letters(const char *where, const cli_opt *t, const cli_opt *const *others)
{
    int bad = 0;
    for (const cli_opt *o = t; o && o->name; o++) {
        for (int k = 0; common_letters[k].letter; k++) {
            int letter = o->short_name == common_letters[k].letter;
            int name = strcmp(o->name, common_letters[k].name) == 0;
            if (letter && !name) {
                printf("%s: -%c is --%s's letter, not --%s's\n", where, o->short_name,
                       common_letters[k].name, o->name);
                bad++;
            }
            if (name && !letter && !has_letter(t, o->name, common_letters[k].letter)) {
                printf("%s: --%s without its letter -%c\n", where, o->name,
                       common_letters[k].letter);
                bad++;
            }
        }
        for (const cli_alias *al = cli_aliases; al->alias; al++)
            if (strcmp(o->name, al->alias) == 0 && !has_opt(others, al->name)) {
                printf("%s: --%s stands for --%s, which it does not have\n", where, o->name,
                       al->name);
                bad++;
            }
    }
    /* the row policy: -n comes with --all, --threshold with its alias */
    static const char *const pairs[][2] = {{"top", "all"}, {"threshold", "coverage"}};
    const cli_opt *const own[] = {t, NULL};
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (t && has_opt(own, pairs[k][0]) && !has_opt(own, pairs[k][1])) {
            printf("%s: --%s without --%s\n", where, pairs[k][0], pairs[k][1]);
            bad++;
        }
    return bad;
}

static size_t longest_line(const char *text)
{
    size_t longest = 0;
    for (const char *l = text; l && *l;) {
        size_t n = strcspn(l, "\n");
        if (n > longest) longest = n;
        l += n + (l[n] != 0);
    }
    return longest;
}

/* The capability of each generic command (cli_cmd_id order): a format's caps name the commands
 * it has a handler of ('tracekit formats' prints them). */
static const unsigned command_caps[CLI_NCMDS] = {
    [CLI_INFO] = TK_CAP_INFO,         [CLI_CHECK] = TK_CAP_CHECK,     [CLI_REPORT] = TK_CAP_REPORT,
    [CLI_ANNOTATE] = TK_CAP_ANNOTATE, [CLI_CONVERT] = TK_CAP_CONVERT, [CLI_DUMP] = TK_CAP_DUMP,
    [CLI_DIFF] = TK_CAP_DIFF,         [CLI_MERGE] = TK_CAP_MERGE};

/* The name of generic command id ("?" if none). */
static const char *generic_name(int id)
{
    for (size_t k = 0; k < cli_command_count(); k++)
        if (!cli_command_at(k)->run && (int)cli_command_at(k)->generic == id)
            return cli_command_at(k)->name;
    return "?";
}

/* The caps of ops' format against its handlers. Returns the number of problems printed. */
static int lint_caps(const cli_format_ops *ops)
{
    const tk_format *f = tk_format_find(ops->format);
    int bad = 0;
    for (int id = 0; f && id < CLI_NCMDS; id++) {
        int cap = (f->caps & command_caps[id]) != 0, run = ops->run[id] != NULL;
        if (cap == run) continue;
        printf("%s: 'tracekit formats' says it %s %s, but it has %s handler of it\n", ops->format,
               cap ? "can" : "cannot", generic_name(id), run ? "a" : "no");
        bad++;
    }
    return bad;
}

static int lint(void)
{
    int bad = 0;
    char where[128];
    for (size_t i = 0; cli_format_ops_at(i); i++) {
        const cli_format_ops *ops = cli_format_ops_at(i);
        if (!tk_format_find(ops->format)) {
            printf("%s: handlers of a format the registry does not know\n", ops->format);
            bad++;
        }
        if (!ops->about || !ops->examples || !ops->examples->line) {
            printf("%s: no text or no examples for 'tracekit help %s'\n", ops->format, ops->format);
            bad++;
        }
        if (longest_line(ops->about) > 80) {
            printf("%s: a line of the help text is longer than 80 columns\n", ops->format);
            bad++;
        }
        bad += lint_caps(ops);
        for (int id = 0; id < CLI_NCMDS; id++) {
            const cli_opt *tables[] = {cli_common_opts,
                                       ops->opts[id] ? ops->opts[id] : cli_common_opts, NULL};
            snprintf(where, sizeof where, "%s %s", generic_name(id), ops->format);
            bad += lint_choices(where, ops->choices[id], tables);
            bad += lint_letters(where, ops->opts[id], tables);
        }
    }
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command *c = cli_command_at(i);
        if (!c->run) continue;
        const cli_opt *tables[] = {c->opts ? c->opts : cli_help_opts, NULL};
        if (!c->opts) {
            printf("%s: no option table\n", c->name);
            bad++;
        }
        bad += lint_choices(c->name, c->choices, tables);
        bad += lint_letters(c->name, c->opts, tables);
        if (c->format && !tk_format_find(c->format)) {
            printf("%s: belongs to format '%s', which the registry does not know\n", c->name,
                   c->format);
            bad++;
        }
    }
    printf("%d problem%s\n", bad, bad == 1 ? "" : "s");
    return bad ? CLI_EXIT_BAD_INPUT : CLI_EXIT_OK;
}

/* ---- tracekit help ----------------------------------------------------------------------- */

/* The generators (not in the help: what make runs): --man [PAGE], --man-pages,
 * --completion bash|zsh, --lint. Returns -1 when argv is none of them. */
static int generator(int argc, char **argv)
{
    const char *mode = argv[1];
    if (strcmp(mode, "--man") == 0 && argc <= 3)
        return cli_man_page(argc == 3 ? argv[2] : "tracekit", stdout);
    if (strcmp(mode, "--man-pages") == 0 && argc == 2) return cli_man_pages(stdout);
    if (strcmp(mode, "--completion") == 0 && argc == 3) return cli_completion(argv[2], stdout);
    if (strcmp(mode, "--lint") == 0 && argc == 2) return lint();
    return -1;
}

int cli_help(int argc, char **argv)
{
    if (argc >= 2) {
        int rc = generator(argc, argv);
        if (rc >= 0) return rc;
    }
    const cli_opt *tables[] = {cli_help_opts, NULL};
    cli_args a;
    if (cli_parse("help", argc, argv, 1, tables, 0, &a) != 0) return CLI_EXIT_USAGE;
    int help = cli_has(&a, "help"), npos = a.npos;
    const char *name = npos ? a.pos[0] : NULL;
    cli_args_free(&a);
    if (help) {
        cli_command_help(cli_command_find("help"), stdout);
        return CLI_EXIT_OK;
    }
    if (npos > 1) return cli_usage_error("help", "takes one COMMAND or FORMAT");
    if (!name) {
        cli_main_usage(stdout);
        return CLI_EXIT_OK;
    }
    const cli_command *c = cli_command_find(name);
    if (c) {
        char *help_argv[] = {(char *)c->name, (char *)"--help", NULL};
        return cli_command_run(c, 2, help_argv);
    }
    const tk_format *fmt = tk_format_find(name);
    if (fmt) {
        print_format_help(fmt, stdout);
        return CLI_EXIT_OK;
    }
    return cli_usage_error("help",
                           "'%s' is neither a command nor a format (see 'tracekit "
                           "--help' and 'tracekit formats')",
                           name);
}
