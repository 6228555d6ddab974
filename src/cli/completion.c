/* Shell completion for bash and zsh, from the tables `tracekit help` prints: the commands,
 * each command's options, the fixed values of options (cli_opt_choices), the formats.
 * `make` writes build/completion/tracekit.bash and build/completion/_tracekit. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define MAX_OPTS 160
#define MAX_VALUES 64

/* ---- bash ---------------------------------------------------------------------------------- */

/* The words of the values of option o of command c, space-separated. */
static size_t put_values(FILE *f, const cli_command *c, const cli_opt *o)
{
    const char *v[MAX_VALUES];
    size_t n = cli_command_opt_values(c, o->name, v, MAX_VALUES);
    for (size_t i = 0; i < n; i++) fprintf(f, "%s%s", i ? " " : "", v[i]);
    return n;
}

/* Whether an option before opts[i] has the long name of opts[i]. */
static int seen_before(const cli_opt *const *opts, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (strcmp(opts[k]->name, opts[i]->name) == 0) return 1;
    return 0;
}

/* The case of "CMD:OPTION" naming an option of c that takes a value: what completes it. */
static void bash_values(FILE *f, const cli_command *c, const cli_opt *const *opts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const cli_opt *o = opts[i];
        int seen = seen_before(opts, i);
        if (!o->arg || cli_opt_value_optional(o) || (seen && !o->short_name)) continue;
        if (!seen) fprintf(f, "    %s:--%s", c->name, o->name);
        if (o->short_name) fprintf(f, "%s%s:-%c", seen ? "    " : " | ", c->name, o->short_name);
        fputs(")\n        ", f);
        const char *v[1];
        if (cli_command_opt_values(c, o->name, v, 1)) {
            fputs("values=\"", f);
            put_values(f, c, o);
            fputs("\" ;;\n", f);
        } else if (cli_opt_takes_path(o)) {
            fputs("return ;;\n", f); /* file names: complete -o default */
        } else {
            fputs("compopt +o default 2>/dev/null; return ;;\n", f); /* a number, a name */
        }
    }
}

static void put_bash(FILE *f)
{
    fputs("# bash completion for tracekit (tracekit help --completion bash: from the option\n"
          "# tables of 'tracekit help')\n"
          "_tracekit()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev= cword=$COMP_CWORD values=\n"
          "    ((cword > 0)) && prev=${COMP_WORDS[cword - 1]}\n"
          "    # --option=value: bash splits the word at '='\n"
          "    if [[ $cur == = ]]; then cur=; elif [[ $prev == = ]] && ((cword > 1)); then\n"
          "        prev=${COMP_WORDS[cword - 2]}; fi\n"
          "    COMPREPLY=()\n",
          f);
    fputs("    if ((cword == 1)); then\n        COMPREPLY=($(compgen -W \"", f);
    for (size_t i = 0; i < cli_command_count(); i++) fprintf(f, "%s ", cli_command_at(i)->name);
    fputs("--help --version\" -- \"$cur\"))\n        return\n    fi\n", f);
    fputs("    local cmd=${COMP_WORDS[1]}\n    case $cmd:$prev in\n", f);
    const cli_opt *opts[MAX_OPTS];
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command *c = cli_command_at(i);
        bash_values(f, c, opts, cli_command_opts(c, opts, MAX_OPTS));
    }
    fputs("    esac\n"
          "    if [[ -n $values ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$values\" -- \"$cur\"))\n        return\n    fi\n"
          "    if [[ $cur == -* ]]; then\n        case $cmd in\n",
          f);
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command *c = cli_command_at(i);
        size_t n = cli_command_opts(c, opts, MAX_OPTS);
        fprintf(f, "        %s) values=\"", c->name);
        const char *sep = "";
        for (size_t k = 0; k < n; k++) {
            if (opts[k]->short_name) fprintf(f, "%s-%c", sep, opts[k]->short_name), sep = " ";
            if (!seen_before(opts, k)) fprintf(f, "%s--%s", sep, opts[k]->name), sep = " ";
        }
        fputs("\" ;;\n", f);
    }
    fputs("        esac\n"
          "        COMPREPLY=($(compgen -W \"$values\" -- \"$cur\"))\n        return\n    fi\n",
          f);
    fputs("    # help COMMAND | FORMAT; every other argument is a file (complete -o default)\n"
          "    if [[ $cmd == help ]] && ((cword == 2)); then\n"
          "        COMPREPLY=($(compgen -W \"",
          f);
    for (size_t i = 0; i < cli_command_count(); i++) fprintf(f, "%s ", cli_command_at(i)->name);
    for (size_t i = 0; i < tk_format_count(); i++)
        fprintf(f, "%s%s", tk_format_at(i)->name, i + 1 < tk_format_count() ? " " : "");
    fputs("\" -- \"$cur\"))\n    fi\n}\ncomplete -o default -F _tracekit tracekit\n", f);
}

/* ---- zsh ------------------------------------------------------------------------------------ */

/* s single-quoted for zsh, with the brackets and colons of an _arguments spec escaped. */
static void zsh_quoted(FILE *f, const char *s, int spec)
{
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else if (spec && strchr("[]:\\", *s))
            fprintf(f, "\\%c", *s);
        else
            fputc(*s, f);
    }
}

/* One _arguments spec of option o (spelled as `spelling`), excluding its other spelling. */
static void zsh_spec(FILE *f, const cli_command *c, const cli_opt *o, const char *spelling)
{
    fputs(" \\\n        '", f);
    int many = strstr(o->help, "repeatable") != NULL;
    if (o->short_name && !many)
        fprintf(f, "(-%c --%s)", o->short_name, o->name);
    else if (!many)
        fprintf(f, "(--%s)", o->name);
    /* --name=VALUE or --name VALUE; -xVALUE or -x VALUE */
    const char *joined = !o->arg ? "" : spelling[1] == '-' ? "=" : "+";
    fprintf(f, "%s%s%s[", many ? "*" : "", spelling, joined);
    zsh_quoted(f, o->help, 1);
    fputc(']', f);
    if (o->arg) { /* "::N:" when the value may be left out ("[N]") */
        int optional = cli_opt_value_optional(o);
        fputs(optional ? "::" : ":", f);
        if (optional)
            fprintf(f, "%.*s", (int)strlen(o->arg) - 2, o->arg + 1);
        else
            zsh_quoted(f, o->arg, 1);
        fputc(':', f);
        const char *v[1];
        if (cli_command_opt_values(c, o->name, v, 1)) {
            fputc('(', f);
            put_values(f, c, o);
            fputc(')', f);
        } else if (cli_opt_takes_path(o)) {
            fputs(strcmp(o->arg, "DIR") == 0 ? "_files -/" : "_files", f);
        }
    }
    fputc('\'', f);
}

static void zsh_command(FILE *f, const cli_command *c)
{
    const cli_opt *opts[MAX_OPTS];
    size_t n = cli_command_opts(c, opts, MAX_OPTS);
    fprintf(f, "    (%s)\n        _arguments -s -S", c->name);
    char spelling[80];
    for (size_t k = 0; k < n; k++) {
        if (opts[k]->short_name) {
            snprintf(spelling, sizeof spelling, "-%c", opts[k]->short_name);
            zsh_spec(f, c, opts[k], spelling);
        }
        if (seen_before(opts, k)) continue;
        snprintf(spelling, sizeof spelling, "--%s", opts[k]->name);
        zsh_spec(f, c, opts[k], spelling);
    }
    if (strcmp(c->name, "help") == 0) {
        fputs(" \\\n        '1:command or format:(", f);
        for (size_t i = 0; i < cli_command_count(); i++) fprintf(f, "%s ", cli_command_at(i)->name);
        for (size_t i = 0; i < tk_format_count(); i++)
            fprintf(f, "%s%s", tk_format_at(i)->name, i + 1 < tk_format_count() ? " " : "");
        fputs(")'", f);
    } else if (strcmp(c->name, "formats") != 0) {
        fputs(" \\\n        '*:file:_files'", f);
    }
    fputs(" ;;\n", f);
}

static void put_zsh(FILE *f)
{
    fputs("#compdef tracekit\n"
          "# zsh completion for tracekit (tracekit help --completion zsh: from the option\n"
          "# tables of 'tracekit help')\n\n"
          "_tracekit() {\n"
          "    local -a commands\n"
          "    commands=(\n",
          f);
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command *c = cli_command_at(i);
        fprintf(f, "        '%s:", c->name);
        zsh_quoted(f, c->summary, 0);
        fputs("'\n", f);
    }
    fputs("    )\n"
          "    if (( CURRENT == 2 )); then\n"
          "        if [[ $words[2] == -* ]]; then\n"
          "            _arguments '(- *)--version[print the version]' '(- *)'{-h,--help}'[show "
          "the commands]'\n"
          "        else\n"
          "            _describe -t commands 'tracekit command' commands\n"
          "        fi\n"
          "        return\n"
          "    fi\n"
          "    local cmd=$words[2]\n"
          "    shift words\n"
          "    (( CURRENT-- ))\n"
          "    case $cmd in\n",
          f);
    for (size_t i = 0; i < cli_command_count(); i++) zsh_command(f, cli_command_at(i));
    fputs("    (*) _files ;;\n    esac\n}\n\n_tracekit \"$@\"\n", f);
}

int cli_completion(const char *shell, FILE *f)
{
    if (strcmp(shell, "bash") == 0)
        put_bash(f);
    else if (strcmp(shell, "zsh") == 0)
        put_zsh(f);
    else
        return cli_usage_error("help", "--completion: bash or zsh, not '%s'", shell);
    return CLI_EXIT_OK;
}
