/* Command-line option parsing against tables of cli_opt. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "team.h"

static const cli_opt *find_long(const cli_opt *const *tables, const char *name, size_t len)
{
    for (; *tables; tables++)
        for (const cli_opt *o = *tables; o->name; o++)
            if (strlen(o->name) == len && memcmp(o->name, name, len) == 0) return o;
    return NULL;
}

static const cli_opt *find_short(const cli_opt *const *tables, char c)
{
    for (; *tables; tables++)
        for (const cli_opt *o = *tables; o->name; o++)
            if (o->short_name && o->short_name == c) return o;
    return NULL;
}

const cli_alias cli_aliases[] = {
    {"coverage", "threshold"}, /* tracekit's earlier name of callgrind_annotate's --threshold */
    {"sortorder", "order"}, /* llvm-xray account */
    {NULL, NULL},
};

/* The option that o stands for: itself, or the target of its alias. */
static const cli_opt *resolve_alias(const cli_opt *const *tables, const cli_opt *o)
{
    for (const cli_alias *al = cli_aliases; al->alias; al++)
        if (strcmp(al->alias, o->name) == 0) {
            const cli_opt *t = find_long(tables, al->name, strlen(al->name));
            return t ? t : o;
        }
    return o;
}

int cli_opt_value_optional(const cli_opt *o) { return o->arg && o->arg[0] == '['; }

/* Whether the argument after option o is its value: always for a value it needs, for an
 * optional one when it starts with a digit (a number: "--wet-history 5000", not "-- PROG"). */
static int takes_next(const cli_opt *o, const char *next)
{
    if (!o->arg || !next) return 0;
    return !cli_opt_value_optional(o) || (next[0] >= '0' && next[0] <= '9');
}

/* The long name of option word s ("--top=5": "top"; "-top=5" when it names a long option, as
 * LLVM's tools spell them), *len its length; NULL for short options ("-n5"). */
static const char *long_name(const cli_opt *const *tables, const char *s, size_t *len)
{
    const char *name = s[1] == '-' ? s + 2 : s + 1;
    *len = strcspn(name, "=");
    if (s[1] == '-' || (*len > 1 && find_long(tables, name, *len))) return name;
    return NULL;
}

static const cli_opt *find_opt(const cli_opt *const *tables, const char *s)
{
    size_t len;
    const char *name = long_name(tables, s, &len);
    return name ? find_long(tables, name, len) : find_short(tables, s[1]);
}

const cli_opt *cli_find_option(const cli_opt *const *tables, const char *s)
{
    if (s[0] != '-' || !s[1]) return NULL;
    const cli_opt *o = find_opt(tables, s);
    return o ? resolve_alias(tables, o) : NULL;
}

int cli_option_words(const cli_opt *table, int argc, char **argv, int i)
{
    const cli_opt *tables[] = {table, NULL};
    const char *s = argv[i];
    if (s[0] != '-' || !s[1] || !strcmp(s, "--")) return 1;
    const cli_opt *o = find_opt(tables, s);
    size_t len;
    int joined = long_name(tables, s, &len) ? strchr(s, '=') != NULL : s[2] != 0;
    if (!o || joined) return 1; /* value joined */
    return takes_next(o, i + 1 < argc ? argv[i + 1] : NULL) ? 2 : 1;
}

static int add_value(cli_args *a, const cli_opt *o, const char *v)
{
    cli_value *nv = realloc(a->vals, (size_t)(a->nvals + 1) * sizeof *nv);
    if (!nv) return -1;
    a->vals = nv;
    a->vals[a->nvals].opt = o;
    a->vals[a->nvals].value = v;
    a->nvals++;
    return 0;
}

/* A usage error of cli_parse, unless it is quiet. */
__attribute__((format(printf, 3, 4))) static void quiet_error(int quiet, const char *cmd,
                                                              const char *fmt, ...)
{
    if (quiet) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_usage_error(cmd, "%s", msg);
}

int cli_parse(const char *cmd, int argc, char **argv, int first, const cli_opt *const *tables,
              int lenient, cli_args *out)
{
    memset(out, 0, sizeof *out);
    out->pos = calloc((size_t)argc + 1, sizeof *out->pos);
    out->failed_at = -1;
    if (!out->pos) return cli_usage_error(cmd, "out of memory"), -1;
    int only_pos = 0, quiet = lenient & CLI_PARSE_QUIET, failed_at = -1, unknown = 0;
    lenient &= CLI_PARSE_LENIENT;
    for (int i = first; i < argc; i++) {
        const char *s = argv[i];
        failed_at = i;
        /* after --, "--vs" is a FILE like any other (a file named --vs) */
        if (!only_pos && strcmp(s, "--vs") == 0 && find_long(tables, "vs", 2)) {
            if (out->vs) {
                quiet_error(quiet, cmd,
                            "--vs given twice: FILES... --vs FILES... compares two sets");
                goto fail;
            }
            out->vs = 1;
            out->vs_at = out->npos;
            continue;
        }
        if (only_pos || s[0] != '-' || s[1] == '\0') {
            out->pos[out->npos++] = s;
            continue;
        }
        if (strcmp(s, "--") == 0) {
            only_pos = 1;
            continue;
        }
        const cli_opt *o;
        const char *value = NULL;
        /* one dash and a long name (LLVM's spelling: -top=10) reads as two dashes */
        size_t len;
        const char *name = long_name(tables, s, &len);
        if (name) {
            const char *eq = name[len] == '=' ? name + len : NULL;
            o = find_long(tables, name, len);
            if (!o) {
                if (lenient) continue;
                quiet_error(quiet, cmd, "unknown option '--%.*s' (see 'tracekit %s --help')",
                            (int)len, name, cmd);
                unknown = 1;
                goto fail;
            }
            if (eq) {
                if (!o->arg) {
                    quiet_error(quiet, cmd, "option '--%s' takes no value", o->name);
                    goto fail;
                }
                value = eq + 1;
            }
        } else {
            o = find_short(tables, s[1]);
            if (!o) {
                if (lenient) continue;
                quiet_error(quiet, cmd, "unknown option '-%c' (see 'tracekit %s --help')", s[1],
                            cmd);
                unknown = 1;
                goto fail;
            }
            if (s[2]) {
                if (!o->arg) {
                    quiet_error(quiet, cmd, "option '-%c' takes no value", s[1]);
                    goto fail;
                }
                value = s + 2;
            }
        }
        o = resolve_alias(tables, o);
        if (o->arg && !value && cli_opt_value_optional(o)) {
            value = takes_next(o, i + 1 < argc ? argv[i + 1] : NULL) ? argv[++i] : "";
        } else if (o->arg && !value) {
            if (i + 1 >= argc) {
                quiet_error(quiet, cmd, "option '--%s' needs a value (%s)", o->name, o->arg);
                goto fail;
            }
            value = argv[++i];
        }
        if (add_value(out, o, o->arg ? value : "") != 0) {
            cli_usage_error(cmd, "out of memory");
            goto fail;
        }
    }
    return 0;
fail:
    cli_args_free(out);
    out->failed_at = failed_at;
    out->unknown = unknown;
    return -1;
}

int cli_check_force(const char *cmd, const cli_args *a)
{
    if (!cli_has(a, "force") || cli_has(a, "output") || cli_has(a, "help")) return 0;
    const cli_command *c = cli_command_find(cmd);
    if (c && c->default_outputs) return 0;
    /* llvm-xray's -f FMT is the output format: "report -f csv trace" */
    static const char *const formats[] = {"text", "json", "csv", NULL};
    const char *fmt = NULL;
    for (int i = 0; i < a->npos && !fmt; i++)
        for (int k = 0; formats[k] && !fmt; k++)
            if (strcmp(a->pos[i], formats[k]) == 0) fmt = formats[k];
    if (fmt)
        cli_usage_error(cmd,
                        "-f is --force, which replaces an existing -o FILE; the output "
                        "format is --format %s (llvm-xray's -f %s)",
                        fmt, fmt);
    else
        cli_usage_error(cmd, "-f/--force replaces an existing -o FILE: give -o FILE, or leave "
                             "out -f");
    return -1;
}

int cli_parse_command(const char *cmd, int argc, char **argv, const cli_opt *opts, int npos,
                      const char *npos_error, cli_args *args, int *exit_code)
{
    const cli_opt *tables[] = {opts, NULL};
    *exit_code = CLI_EXIT_OK;
    if (cli_parse(cmd, argc, argv, 1, tables, 0, args) != 0) {
        *exit_code = CLI_EXIT_USAGE;
        return 0;
    }
    if (cli_has(args, "help")) {
        cli_command_help(cli_command_find(cmd), stdout);
        *exit_code = CLI_EXIT_OK;
    } else if (cli_check_force(cmd, args) != 0) {
        *exit_code = CLI_EXIT_USAGE;
    } else if (args->npos != npos) {
        *exit_code = cli_usage_error(cmd, "%s", npos_error);
    } else {
        return 1;
    }
    cli_args_free(args);
    return 0;
}

void cli_args_free(cli_args *a)
{
    free(a->pos);
    free(a->vals);
    memset(a, 0, sizeof *a);
}

const char *cli_get(const cli_args *a, const char *name)
{
    for (int i = a->nvals - 1; i >= 0; i--)
        if (strcmp(a->vals[i].opt->name, name) == 0) return a->vals[i].value;
    return NULL;
}

int cli_has(const cli_args *a, const char *name) { return cli_get(a, name) != NULL; }

int cli_get_all(const cli_args *a, const char *name, const char **out, int max)
{
    int n = 0;
    for (int i = 0; i < a->nvals && n < max; i++)
        if (strcmp(a->vals[i].opt->name, name) == 0) out[n++] = a->vals[i].value;
    return n;
}

/* The last value of an option as cli_get, but NULL for an optional value left out. */
static const char *given_value(const cli_args *a, const char *name)
{
    for (int i = a->nvals - 1; i >= 0; i--)
        if (strcmp(a->vals[i].opt->name, name) == 0)
            return cli_opt_value_optional(a->vals[i].opt) && !a->vals[i].value[0]
                       ? NULL
                       : a->vals[i].value;
    return NULL;
}

int cli_get_u64(const char *cmd, const cli_args *a, const char *name, uint64_t dflt, uint64_t *out)
{
    const char *v = given_value(a, name);
    if (!v) {
        *out = dflt;
        return 0;
    }
    if (tk_parse_u64(v, strlen(v), out, NULL) == TK_OK) return 0; /* decimal or 0x hex (core/num) */
    cli_usage_error(cmd, "option '--%s' needs a non-negative integer, not '%s'", name, v);
    return -1;
}

int cli_get_double(const char *cmd, const cli_args *a, const char *name, double dflt, double *out)
{
    const char *v = cli_get(a, name);
    if (!v) {
        *out = dflt;
        return 0;
    }
    double x;
    if (tk_parse_double(v, strlen(v), &x, NULL) != TK_OK) {
        cli_usage_error(cmd, "option '--%s' needs a number, not '%s'", name, v);
        return -1;
    }
    *out = x;
    return 0;
}

int cli_get_jobs(const char *cmd, const cli_args *a, unsigned *out)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t n;
    if (cli_get_u64(cmd, a, "jobs", cpus > 0 ? (uint64_t)cpus : 1, &n) != 0) return -1;
    if (n == 0 || n > 256) {
        cli_usage_error(cmd, "--jobs must be 1..256");
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}

int cli_convert_jobs(const char *cmd, const cli_args *a, unsigned *out)
{
    if (cli_get_jobs(cmd, a, out) != 0) return -1;
    if (cli_team_get()) *out = 1;
    return 0;
}

int cli_get_nonzero_double(const char *cmd, const cli_args *a, const char *name, double *out)
{
    if (cli_get_double(cmd, a, name, 0, out)) return -1;
    if (cli_get(a, name) && *out <= 0) *out = -1;
    return 0;
}

int cli_get_rows(const char *cmd, const cli_args *a, int text, cli_rows *out)
{
    memset(out, 0, sizeof *out);
    out->threshold = 100.0;
    int all = cli_has(a, "all"), top = cli_has(a, "top"), threshold = cli_has(a, "threshold");
    if (all && (top || threshold)) {
        cli_usage_error(cmd, "--all shows every row: not with %s",
                        top ? "-n/--top" : "--threshold");
        return -1;
    }
    if (cli_get_u64(cmd, a, "top", 0, &out->top) ||
        cli_get_double(cmd, a, "threshold", 100.0, &out->threshold))
        return -1;
    if (!(out->threshold > 0.0 && out->threshold <= 100.0)) {
        cli_usage_error(cmd, "--threshold (--coverage) wants a percentage above 0, at most 100");
        return -1;
    }
    out->fixed = !all && !top && !threshold;
    if (out->fixed && text) out->top = CLI_ROWS_TEXT;
    return 0;
}

void cli_rows_note(FILE *f, uint64_t shown, uint64_t total, const char *what)
{
    if (shown < total)
        fprintf(f, "(%" PRIu64 " more %s%s not shown: --all shows them)\n", total - shown, what,
                cli_s(total - shown));
}

int cli_choice_value(const cli_choice *choices, const char *name)
{
    for (const cli_choice *c = choices; c->name; c++)
        if (strcmp(c->name, name) == 0) return c->value;
    return -1;
}

int cli_get_choice(const char *cmd, const cli_args *a, const char *name, const cli_choice *choices,
                   int dflt)
{
    const char *v = cli_get(a, name);
    if (!v) return dflt;
    int value = cli_choice_value(choices, v);
    if (value >= 0) return value;
    char names[256];
    size_t n = 0;
    names[0] = 0;
    for (const cli_choice *c = choices; c->name && n < sizeof names; c++) {
        int w = snprintf(names + n, sizeof names - n, "%s%s", c == choices ? "" : "|", c->name);
        n += w < 0 ? 0 : (size_t)w;
    }
    cli_usage_error(cmd, "option '--%s' must be one of %s, not '%s'", name, names, v);
    return -1;
}

const cli_choice cli_out_text_json[] = {{"text", CLI_OUT_TEXT}, {"json", CLI_OUT_JSON}, {NULL, 0}};
const cli_choice cli_out_text_json_csv[] = {
    {"text", CLI_OUT_TEXT}, {"json", CLI_OUT_JSON}, {"csv", CLI_OUT_CSV}, {NULL, 0}};

/* The help text of an option from column 29 on, its lines filled up to column 80. */
static void print_wrapped(FILE *f, const char *text)
{
    enum { INDENT = 29, WIDTH = 80 - INDENT };
    const char *p = text;
    while (*p) {
        size_t n = strlen(p);
        if (n > WIDTH) { /* the last space that fits, else the first one */
            size_t cut = WIDTH;
            while (cut > 0 && p[cut] != ' ') cut--;
            if (cut == 0) cut = strcspn(p, " ");
            n = cut;
        }
        fprintf(f, "%.*s\n", (int)n, p);
        p += n;
        while (*p == ' ') p++;
        if (*p) fprintf(f, "%*s", INDENT, "");
    }
}

void cli_print_options(FILE *f, const cli_opt *table)
{
    for (const cli_opt *o = table; o && o->name; o++) {
        char head[96];
        if (o->short_name)
            snprintf(head, sizeof head, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        else
            snprintf(head, sizeof head, "    --%s%s%s", o->name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        if (strlen(head) <= 26)
            fprintf(f, "  %-26s ", head);
        else
            fprintf(f, "  %s\n  %-26s ", head, "");
        print_wrapped(f, o->help);
    }
}
